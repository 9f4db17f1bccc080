// SPDX-License-Identifier: MIT
// Bulk byte searches over a view (private header): every place of a byte (the position table's
// line ends), the first place of a byte followed by another (a body's close tag: a ':' and the
// open tag's first byte), and the first place of any byte of a small set (the end of a run of
// target text). Each looks at 16 bytes at a time where the target has SSE2 (every
// x86-64) and at one byte at a time elsewhere, with no call and no return per match, so that a
// body with a ':' every few dozen bytes or a file of short lines costs no call per ':' or per
// line. None reads a byte outside the view (a search's last few bytes are read as the 16 that
// end there, those before its start masked off). The one-byte-at-a-time forms are the
// definitions: byte_scan_test checks the bulk forms against them at every length and alignment.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

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

#if defined(__SSE2__)

namespace sse2 {
inline __m128i load(const char* p) noexcept { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
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
    const std::uint32_t m = sse2::pair_mask32(s.data() + from, _mm_set1_epi8(a), _mm_set1_epi8(b));
    if (m != 0) return from + static_cast<std::size_t>(std::countr_zero(m));
    return pair_bulk(s, from + 32, a, b);
}

#else

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

#endif

}  // namespace plurnk::detail::byte_scan
