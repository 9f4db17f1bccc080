// SPDX-License-Identifier: MIT
// Bulk byte searches over a view (private header): every place of a byte, how many there are,
// the last one and those among 64 bytes as the bits of a word (the position table's line ends),
// the first place of a byte followed by another (a body's close tag: a ':' and the open tag's
// first byte), how much of a literal matches at a place (the open tag after that ':'), and the
// first place of any byte of a small set (the end of a run of target text). Each looks at 16
// bytes at a time where the target has SSE2 (every x86-64) and at one byte at a time elsewhere
// (a literal: at a word at a time), with no call and no return per match, so that a
// body with a ':' every few dozen bytes or a file of short lines costs no call per ':' or per
// line. None reads a byte outside the view (a search's last few bytes are read as the 16 that
// end there, those before its start masked off). The one-byte-at-a-time forms are the
// definitions: byte_scan_test checks the bulk forms against them at every length and alignment.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace plurnk::detail::byte_scan {

// f(i) for each i in [from, to) with s[i] == c, in increasing order (one byte at a time).
template <class F>
inline void each_plain(std::string_view s, std::size_t from, std::size_t to, char c, F&& f) {
    for (std::size_t i = from; i < to; ++i) {
        if (s[i] == c) f(i);
    }
}

// The first i in [from, s.size()) with s[i] == a and either s[i + 1] == b or i + 1 the end of
// s (one byte at a time); s.size() when there is none.
inline std::size_t pair_plain(std::string_view s, std::size_t from, char a, char b) noexcept {
    const std::size_t n = s.size();
    for (std::size_t i = from; i < n; ++i) {
        if (s[i] == a && (i + 1 == n || s[i + 1] == b)) return i;
    }
    return n;
}

// The first i in [from, s.size()) with s[i] one of `set`'s bytes (one byte at a time); s.size()
// when there is none.
template <std::size_t N>
inline std::size_t first_of_plain(std::string_view s, std::size_t from, const std::array<char, N>& set) noexcept {
    for (std::size_t i = from; i < s.size(); ++i) {
        for (const char c : set) {
            if (s[i] == c) return i;
        }
    }
    return s.size();
}

// How many bytes of `lit` match at k in s, going on from `from` bytes already matched: all of
// them, or fewer where a byte differs or s ends (one byte at a time).
constexpr std::size_t prefix_plain(std::string_view s, std::size_t k, std::string_view lit, std::size_t from = 0) noexcept {
    const std::size_t most = k < s.size() ? std::min(lit.size(), s.size() - k) : 0;
    std::size_t m = from;
    while (m < most && s[k + m] == lit[m]) ++m;
    return m;
}

// Four bytes at p as a word (in the machine's order: only compared).
inline std::uint32_t word_at(const char* p) noexcept {
    std::uint32_t w = 0;
    std::memcpy(&w, p, sizeof w);
    return w;
}

// prefix_plain(), a literal of 4 to 8 bytes (an open tag: a keyword and a short suffix) that
// lies whole in s first compared as two words (its first four bytes and its last four), which
// decides the common case, a whole match, without a loop.
constexpr std::size_t prefix(std::string_view s, std::size_t k, std::string_view lit, std::size_t from = 0) noexcept {
    const std::size_t len = lit.size();
    if (!std::is_constant_evaluated() && from == 0 && len - 4 <= 4 && k < s.size() && s.size() - k >= len) {
        const char* const a = s.data() + k;
        const char* const b = lit.data();
        if (word_at(a) == word_at(b) && word_at(a + len - 4) == word_at(b + len - 4)) return len;
    }
    return prefix_plain(s, k, lit, from);
}

// pair_plain() by memchr, a call per `a`: for a short search (a stream's few new bytes), where
// the bulk search's setup would cost more than the calls.
inline std::size_t pair_calls(std::string_view s, std::size_t from, char a, char b) noexcept {
    const std::size_t n = s.size();
    for (std::size_t k = from; k < n;) {
        const void* hit = std::memchr(s.data() + k, a, n - k);
        if (hit == nullptr) break;
        const std::size_t i = static_cast<std::size_t>(static_cast<const char*>(hit) - s.data());
        if (i + 1 == n || s[i + 1] == b) return i;
        k = i + 1;
    }
    return n;
}

// How many i in [from, to) have s[i] == c (one byte at a time).
inline std::size_t count_plain(std::string_view s, std::size_t from, std::size_t to, char c) noexcept {
    std::size_t n = 0;
    for (std::size_t i = from; i < to; ++i) n += s[i] == c ? 1 : 0;
    return n;
}

// The last i in [from, to) with s[i] == c (one byte at a time); `to` when there is none.
inline std::size_t last_plain(std::string_view s, std::size_t from, std::size_t to, char c) noexcept {
    for (std::size_t i = to; i > from; --i) {
        if (s[i - 1] == c) return i - 1;
    }
    return to;
}

// Whether some byte of s is c (one byte at a time).
inline bool holds_plain(std::string_view s, char c) noexcept {
    for (const char b : s) {
        if (b == c) return true;
    }
    return false;
}

// Bit i for each i < 64 with p[i] == c (one byte at a time).
inline std::uint64_t mask64_plain(const char* p, char c) noexcept {
    std::uint64_t m = 0;
    for (int i = 0; i < 64; ++i) m |= static_cast<std::uint64_t>(p[i] == c ? 1 : 0) << i;
    return m;
}

#if defined(__SSE2__)

namespace sse2 {
inline __m128i load(const char* p) noexcept { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
// c in every byte lane, as its four copies in a word spread to the lanes (for pair_near(), inline
// in the whole-statement reader's body search, where this measured cheaper than _mm_set1_epi8's
// unpacking of a byte known only at run time).
inline __m128i splat(char c) noexcept {
    return _mm_set1_epi32(static_cast<int>(0x01010101U * static_cast<unsigned char>(c)));
}
inline std::uint32_t mask(__m128i v) noexcept { return static_cast<std::uint32_t>(_mm_movemask_epi8(v)); }
// Bit i for each i < 32 with p[i] the byte of `va` and p[i + 1] that of `vb` (33 bytes read).
inline std::uint32_t pair_mask32(const char* p, __m128i va, __m128i vb) noexcept {
    const __m128i lo = _mm_and_si128(_mm_cmpeq_epi8(load(p), va), _mm_cmpeq_epi8(load(p + 1), vb));
    const __m128i hi = _mm_and_si128(_mm_cmpeq_epi8(load(p + 16), va), _mm_cmpeq_epi8(load(p + 17), vb));
    return mask(lo) | mask(hi) << 16;
}
}  // namespace sse2

// each_plain(), 64 bytes a step: one mask of the step's matches, then a loop over its bits.
template <class F>
inline void each(std::string_view s, std::size_t from, std::size_t to, char c, F&& f) {
    const char* const p = s.data();
    const __m128i v = _mm_set1_epi8(c);
    std::size_t k = from;
    for (; k + 64 <= to; k += 64) {
        const std::uint64_t m0 = sse2::mask(_mm_cmpeq_epi8(sse2::load(p + k), v));
        const std::uint64_t m1 = sse2::mask(_mm_cmpeq_epi8(sse2::load(p + k + 16), v));
        const std::uint64_t m2 = sse2::mask(_mm_cmpeq_epi8(sse2::load(p + k + 32), v));
        const std::uint64_t m3 = sse2::mask(_mm_cmpeq_epi8(sse2::load(p + k + 48), v));
        for (std::uint64_t m = m0 | m1 << 16 | m2 << 32 | m3 << 48; m != 0; m &= m - 1) {
            f(k + static_cast<std::size_t>(std::countr_zero(m)));
        }
    }
    for (; k + 16 <= to; k += 16) {
        for (std::uint32_t m = sse2::mask(_mm_cmpeq_epi8(sse2::load(p + k), v)); m != 0; m &= m - 1) {
            f(k + static_cast<std::size_t>(std::countr_zero(m)));
        }
    }
    if (k < to && to >= 16) {
        // The last few: the 16 bytes that end at `to`, those before k masked off.
        const std::size_t base = to - 16;
        for (std::uint32_t m = sse2::mask(_mm_cmpeq_epi8(sse2::load(p + base), v)) & (~0U << (k - base)); m != 0; m &= m - 1) {
            f(base + static_cast<std::size_t>(std::countr_zero(m)));
        }
        return;
    }
    each_plain(s, k, to, c, f);
}

// first_of_plain(), 16 bytes a step: each step's bytes compared with each of the set's at once.
// (Inline with a constant set: its bytes are constants there.)
template <std::size_t N>
[[gnu::always_inline]] inline std::size_t first_of(std::string_view s, std::size_t from, const std::array<char, N>& set) noexcept {
    const char* const p = s.data();
    const std::size_t n = s.size();
    const auto hits = [&set](__m128i v) {
        __m128i any = _mm_setzero_si128();
        for (const char c : set) any = _mm_or_si128(any, _mm_cmpeq_epi8(v, _mm_set1_epi8(c)));
        return sse2::mask(any);
    };
    std::size_t k = from;
    for (; k < n && n - k >= 16; k += 16) {  // (not k + 16 <= n: the compiler then allows a k that wraps)
        const std::uint32_t m = hits(sse2::load(p + k));
        if (m != 0) return k + static_cast<std::size_t>(std::countr_zero(m));
    }
    if (k < n && n >= 16) {
        // The last few: the 16 bytes that end at n, those before k masked off.
        const std::size_t base = n - 16;
        const std::uint32_t m = hits(sse2::load(p + base)) & (~0U << (k - base));
        return m != 0 ? base + static_cast<std::size_t>(std::countr_zero(m)) : n;
    }
    return first_of_plain(s, k, set);
}

inline constexpr std::size_t k_short_pair = 48;  // pair(): fewer bytes than this go to pair_calls()

// pair_plain(), 32 bytes a step (then 16) while the step and the byte after it are inside s:
// the bytes and the bytes one further on are compared at once.
// (Out of line: its callers inline pair(), which stays small.)
[[gnu::noinline]] inline std::size_t pair_bulk(std::string_view s, std::size_t from, char a, char b) noexcept {
    const char* const p = s.data();
    const std::size_t n = s.size();
    const __m128i va = _mm_set1_epi8(a);
    const __m128i vb = _mm_set1_epi8(b);
    std::size_t k = from;
    for (; k + 33 <= n; k += 32) {
        const std::uint32_t m = sse2::pair_mask32(p + k, va, vb);
        if (m != 0) return k + static_cast<std::size_t>(std::countr_zero(m));
    }
    if (k + 17 <= n) {
        const std::uint32_t m =
            sse2::mask(_mm_and_si128(_mm_cmpeq_epi8(sse2::load(p + k), va), _mm_cmpeq_epi8(sse2::load(p + k + 1), vb)));
        if (m != 0) return k + static_cast<std::size_t>(std::countr_zero(m));
        k += 16;
    }
    if (k + 1 < n && n >= 17) {
        // The last few before the last byte: the 16 that end one before it, those before k
        // masked off. The last byte is pair_plain's (the end follows it).
        const std::size_t base = n - 17;
        const std::uint32_t m =
            sse2::mask(_mm_and_si128(_mm_cmpeq_epi8(sse2::load(p + base), va), _mm_cmpeq_epi8(sse2::load(p + base + 1), vb))) &
            (~0U << (k - base));
        if (m != 0) return base + static_cast<std::size_t>(std::countr_zero(m));
        k = n - 1;
    }
    return pair_plain(s, k, a, b);
}

inline std::size_t pair(std::string_view s, std::size_t from, char a, char b) noexcept {
    return from + k_short_pair >= s.size() ? pair_calls(s, from, a, b) : pair_bulk(s, from, a, b);
}

// pair() for a search that most often ends within a few dozen bytes (a statement's body, read
// whole): the first 32 bytes here, without a call (a third of the bulk search's cost there), then
// the bulk search. Larger than pair(): for the callers where that case is hot.
inline std::size_t pair_near(std::string_view s, std::size_t from, char a, char b) noexcept {
    if (from + k_short_pair >= s.size()) return pair_calls(s, from, a, b);
    const std::uint32_t m = sse2::pair_mask32(s.data() + from, _mm_set1_epi8(a), sse2::splat(b));
    if (m != 0) return from + static_cast<std::size_t>(std::countr_zero(m));
    return pair_bulk(s, from + 32, a, b);
}

// mask64_plain(), 16 bytes a compare.
inline std::uint64_t mask64(const char* p, char c) noexcept {
    const __m128i v = _mm_set1_epi8(c);
    const auto bits = [&](int at) {
        return static_cast<std::uint64_t>(sse2::mask(_mm_cmpeq_epi8(sse2::load(p + at), v))) << at;
    };
    return bits(0) | bits(16) | bits(32) | bits(48);
}

namespace sse2 {
// Per byte lane, minus the matches of `v` among the 64 bytes at p (a match is -1).
inline __m128i matches_64(const char* p, __m128i v) noexcept {
    const auto eq = [&](int at) { return _mm_cmpeq_epi8(load(p + at), v); };
    return _mm_add_epi8(_mm_add_epi8(eq(0), eq(16)), _mm_add_epi8(eq(32), eq(48)));
}
// The count in lanes of minus counts.
inline std::size_t lane_sum(__m128i acc) noexcept {
    const __m128i sums = _mm_sad_epu8(_mm_sub_epi8(_mm_setzero_si128(), acc), _mm_setzero_si128());
    return static_cast<std::size_t>(_mm_cvtsi128_si32(_mm_add_epi64(sums, _mm_unpackhi_epi64(sums, sums))));
}
// At r, r + 1, ...: lane i of the last 16 bytes is kept when it is one of the last r.
inline constexpr unsigned char k_tail_keep[32] = {0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                                                  0,    0,    0,    0,    0,    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                                  0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
// count() of one run: at most 254 * 16 bytes (a lane's count fits its byte), `to` at least 16.
// The last few bytes are the 16 that end at `to`, those before k masked off.
inline std::size_t count_run(const char* p, std::size_t k, std::size_t to, __m128i v) noexcept {
    __m128i acc = _mm_setzero_si128();
    for (; k + 64 <= to; k += 64) acc = _mm_add_epi8(acc, matches_64(p + k, v));
    for (; k + 16 <= to; k += 16) acc = _mm_add_epi8(acc, _mm_cmpeq_epi8(load(p + k), v));
    if (k < to) {
        const __m128i keep = load(reinterpret_cast<const char*>(k_tail_keep) + (to - k));
        acc = _mm_add_epi8(acc, _mm_and_si128(_mm_cmpeq_epi8(load(p + to - 16), v), keep));
    }
    return lane_sum(acc);
}
}  // namespace sse2

// count_plain(), 16 bytes a compare: each byte lane counts its matches, then the lanes are
// summed, in runs short enough for a lane's count to fit its byte.
inline std::size_t count(std::string_view s, std::size_t from, std::size_t to, char c) noexcept {
    if (to < 16) return count_plain(s, from, to, c);
    constexpr std::size_t run = 254 * 16;  // (and the last run's few bytes: 255 compares)
    const __m128i v = _mm_set1_epi8(c);
    std::size_t n = 0;
    for (; to - from > run; from += run) n += sse2::count_run(s.data(), from, from + run, v);
    return n + sse2::count_run(s.data(), from, to, v);
}

// count_plain() over the N bytes at p (N a multiple of 64 up to a run's: a loop of fixed length).
template <std::size_t N>
inline std::size_t count_fixed(const char* p, char c) noexcept {
    static_assert(N % 64 == 0 && N <= 254 * 16);
    const __m128i v = _mm_set1_epi8(c);
    __m128i acc = _mm_setzero_si128();
    for (std::size_t k = 0; k < N; k += 64) acc = _mm_add_epi8(acc, sse2::matches_64(p + k, v));
    return sse2::lane_sum(acc);
}

// last_plain(), searched back from `to` 16 bytes a compare (the last few one at a time).
inline std::size_t last(std::string_view s, std::size_t from, std::size_t to, char c) noexcept {
    const __m128i v = _mm_set1_epi8(c);
    std::size_t k = to;
    for (; k >= from + 16; k -= 16) {
        const std::uint32_t m = sse2::mask(_mm_cmpeq_epi8(sse2::load(s.data() + k - 16), v));
        if (m != 0) return k - 16 + 31 - static_cast<std::size_t>(std::countl_zero(m));
    }
    const std::size_t i = last_plain(s, from, k, c);
    return i == k ? to : i;
}

// holds_plain() for a short view (a target of a few dozen bytes) without a call, where memchr
// costs about 23 instructions: 16 bytes a compare, the last 16 overlapping those before; 8 to 15
// bytes as two overlapping 8-byte halves; fewer one at a time.
inline bool holds(std::string_view s, char c) noexcept {
    const std::size_t n = s.size();
    const char* const p = s.data();
    const __m128i v = _mm_set1_epi8(c);
    const auto any = [&v](__m128i x) { return sse2::mask(_mm_cmpeq_epi8(x, v)) != 0; };
    if (n >= 16) {
        for (std::size_t k = 0; n - k > 16; k += 16) {
            if (any(sse2::load(p + k))) return true;
        }
        return any(sse2::load(p + n - 16));
    }
    if (n >= 8) {
        const auto half = [p](std::size_t k) { return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + k)); };
        return any(_mm_unpacklo_epi64(half(0), half(n - 8)));
    }
    return holds_plain(s, c);
}

#else

inline bool holds(std::string_view s, char c) noexcept { return holds_plain(s, c); }

template <class F>
inline void each(std::string_view s, std::size_t from, std::size_t to, char c, F&& f) {
    each_plain(s, from, to, c, f);
}

template <std::size_t N>
inline std::size_t first_of(std::string_view s, std::size_t from, const std::array<char, N>& set) noexcept {
    return first_of_plain(s, from, set);
}

inline std::size_t pair(std::string_view s, std::size_t from, char a, char b) noexcept {
    return pair_calls(s, from, a, b);
}

inline std::size_t pair_near(std::string_view s, std::size_t from, char a, char b) noexcept {
    return pair_calls(s, from, a, b);
}

inline std::uint64_t mask64(const char* p, char c) noexcept { return mask64_plain(p, c); }

inline std::size_t count(std::string_view s, std::size_t from, std::size_t to, char c) noexcept {
    return count_plain(s, from, to, c);
}

template <std::size_t N>
inline std::size_t count_fixed(const char* p, char c) noexcept {
    return count_plain(std::string_view(p, N), 0, N, c);
}

inline std::size_t last(std::string_view s, std::size_t from, std::size_t to, char c) noexcept {
    return last_plain(s, from, to, c);
}

#endif

}  // namespace plurnk::detail::byte_scan
