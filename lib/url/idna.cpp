// SPDX-License-Identifier: MIT
// UTS #46 domain-to-ASCII, the IDNA step of the WHATWG host parser (spec: URL Standard
// "domain to ASCII", UTS #46 §4 Processing and §4.1 Validity Criteria). The input is decoded
// from UTF-8 to code points, each code point is looked up in the generated IDNA mapping table
// (idna_tables.inc, built by gen/gen_idna_tables.py) and mapped, ignored or rejected, the
// result is put in Normalization Form C, and the domain is split at U+002E into labels. An
// all-ASCII label is kept as is, except that an `xn--` label must decode to a non-empty label
// that is already mapped, normalized and valid; any other label must not start with `xn--`,
// must pass the validity checks (no leading combining mark, CONTEXTJ for ZWNJ/ZWJ, the
// RFC 5893 bidi rule) and is punycode-encoded behind `xn--`. Node 20's `URL` (ada 2.9) is the
// reference, so its readings are kept where they differ from the letter of UTS #46: the bidi
// rule applies per label and only to labels holding R/AL/AN, an `xn--` label may decode to
// ASCII, and the first joiner decides a label's CONTEXTJ verdict (details at each check).
// Differential runs against Node over every code point agree except for U+1734 inside an RTL
// label (its bidi class changed in Unicode 14). Every loop is bounded by the input size.
#include "idna.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "base/utf8.hpp"

namespace plurnk::url_detail {
namespace {

struct idna_range {
    char32_t start;
    std::uint32_t value;  // bits 30-31 status, bits 16-20 mapping length, bits 0-15 offset
};
struct cp_run {
    char32_t start;
    std::uint32_t value;
};
struct decomposition {
    char32_t cp;
    char32_t first;
    char32_t second;  // 0 for a singleton decomposition
};
struct composition {
    char32_t first;
    char32_t second;
    char32_t composite;
};

#include "idna_tables.inc"

enum class idna_status : std::uint8_t { valid = 0, ignored = 1, mapped = 2, disallowed = 3 };

enum bidi_class : std::uint8_t {
    bidi_l = 0, bidi_r = 1, bidi_al = 2, bidi_an = 3, bidi_en = 4, bidi_es = 5, bidi_cs = 6,
    bidi_et = 7, bidi_on = 8, bidi_bn = 9, bidi_nsm = 10, bidi_other = 11
};
enum joining_type : std::uint8_t { join_u = 0, join_c = 1, join_d = 2, join_l = 3, join_r = 4, join_t = 5 };

constexpr char32_t k_max_code_point = 0x10FFFF;

// The run holding `cp` in a table of runs sorted by start (the first run starts at 0).
// The run of a table (sorted by start, the first starting at U+0000) that holds `cp`. An index of
// the run holding the first code point of each 256-code-point block narrows the binary search to
// the runs of cp's own block (a few, at most 256) instead of the thousands of the whole table.
template <const auto& Table>
const auto& find_run(char32_t cp) noexcept {
    constexpr std::size_t n = std::size(Table);
    constexpr std::size_t blocks = (k_max_code_point >> 8) + 1;
    static_assert(n < 65536, "the block index holds 16-bit run numbers");
    static const std::array<std::uint16_t, blocks + 1> index = [] {
        std::array<std::uint16_t, blocks + 1> ix{};
        std::size_t r = 0;
        for (std::size_t b = 0; b < blocks; ++b) {
            const auto first = static_cast<char32_t>(b << 8);
            while (r + 1 < n && Table[r + 1].start <= first) ++r;
            ix[b] = static_cast<std::uint16_t>(r);
        }
        ix[blocks] = static_cast<std::uint16_t>(n - 1);
        return ix;
    }();
    const std::size_t b = cp > k_max_code_point ? blocks - 1 : cp >> 8;
    const auto* lo = std::begin(Table) + index[b];
    const auto* hi = std::begin(Table) + index[b + 1] + 1;
    const auto* it = std::upper_bound(lo + 1, hi, cp, [](char32_t c, const auto& r) { return c < r.start; });
    return *(it - 1);
}

std::uint32_t props(char32_t cp) noexcept { return find_run<k_prop_runs>(cp).value; }
bool is_mark(char32_t cp) noexcept { return (props(cp) & 1U) != 0; }
std::uint8_t bidi(char32_t cp) noexcept {
    const auto b = static_cast<std::uint8_t>((props(cp) >> 1) & 15U);
    return b > bidi_nsm ? static_cast<std::uint8_t>(bidi_other) : b;
}
std::uint8_t joining(char32_t cp) noexcept { return static_cast<std::uint8_t>((props(cp) >> 5) & 7U); }
bool is_virama(char32_t cp) noexcept { return (props(cp) & 0x100U) != 0; }
// (below U+0300 every class is 0; see nfc())
std::uint8_t ccc(char32_t cp) noexcept {
    return cp < 0x300 ? 0 : static_cast<std::uint8_t>(find_run<k_ccc_runs>(cp).value);
}

// UTF-8 to code points; false on any ill-formed sequence (overlong, surrogate, > U+10FFFF).
bool utf8_decode(std::string_view in, std::u32string& out) {
    for (std::size_t i = 0; i < in.size();) {
        const detail::utf8_char c = detail::utf8_decode(in, i);  // lib/utf8.hpp, the one codec
        if (!c.well_formed) return false;
        out.push_back(c.code_point);
        i += c.length;
    }
    return true;
}

// The mapping table's entries for ASCII, looked up once: hosts are mostly ASCII, and a binary
// search per code point made long hosts several times the cost of other input.
const std::array<std::uint32_t, 128>& ascii_idna() noexcept {
    static const std::array<std::uint32_t, 128> table = [] {
        std::array<std::uint32_t, 128> t{};
        for (char32_t c = 0; c < 128; ++c) t[c] = find_run<k_idna_ranges>(c).value;
        return t;
    }();
    return table;
}

// spec: UTS #46 §4 step 1 (Map). False when a disallowed code point is met.
bool map_code_points(std::u32string_view in, std::u32string& out) {
    const auto& ascii = ascii_idna();
    out.reserve(out.size() + in.size());
    for (char32_t cp : in) {
        const auto v = cp < 128 ? ascii[cp] : find_run<k_idna_ranges>(cp).value;
        switch (static_cast<idna_status>(v >> 30)) {
            case idna_status::valid: out.push_back(cp); break;
            case idna_status::ignored: break;
            case idna_status::mapped: {
                const std::size_t off = v & 0xFFFFU;
                const std::size_t len = (v >> 16) & 0x1FU;
                out.append(k_idna_mappings + off, len);
                break;
            }
            case idna_status::disallowed: return false;
        }
    }
    return true;
}

// Hangul syllable constants (Unicode §3.12).
constexpr char32_t k_s_base = 0xAC00, k_l_base = 0x1100, k_v_base = 0x1161, k_t_base = 0x11A7;
constexpr char32_t k_l_count = 19, k_v_count = 21, k_t_count = 28;
constexpr char32_t k_n_count = k_v_count * k_t_count, k_s_count = k_l_count * k_n_count;

const decomposition* find_decomposition(char32_t cp) noexcept {
    auto it = std::lower_bound(std::begin(k_decompositions), std::end(k_decompositions), cp,
                               [](const decomposition& d, char32_t c) { return d.cp < c; });
    return (it != std::end(k_decompositions) && it->cp == cp) ? &*it : nullptr;
}

// Full canonical decomposition of one code point. Decomposition chains are short (the
// deepest is 4 levels), so a small explicit stack suffices.
void decompose(char32_t cp, std::u32string& out) {
    if (cp < 0xC0) {  // nothing below U+00C0 decomposes (see nfc())
        out.push_back(cp);
        return;
    }
    if (cp >= k_s_base && cp < k_s_base + k_s_count) {
        const char32_t s = cp - k_s_base;
        out.push_back(k_l_base + s / k_n_count);
        out.push_back(k_v_base + (s % k_n_count) / k_t_count);
        if (s % k_t_count != 0) out.push_back(k_t_base + s % k_t_count);
        return;
    }
    char32_t stack[32];
    std::size_t top = 0;
    stack[top++] = cp;
    while (top > 0) {
        const char32_t c = stack[--top];
        const decomposition* d = find_decomposition(c);
        if (d == nullptr || top + 2 > std::size(stack)) { out.push_back(c); continue; }
        if (d->second != 0) stack[top++] = d->second;
        stack[top++] = d->first;
    }
}

char32_t compose_pair(char32_t a, char32_t b) noexcept {
    if (b < 0x300) return 0;  // every composition's second code point is U+0300 or above
    if (a >= k_l_base && a < k_l_base + k_l_count && b >= k_v_base && b < k_v_base + k_v_count)
        return k_s_base + ((a - k_l_base) * k_v_count + (b - k_v_base)) * k_t_count;
    if (a >= k_s_base && a < k_s_base + k_s_count && (a - k_s_base) % k_t_count == 0 &&
        b > k_t_base && b < k_t_base + k_t_count)
        return a + (b - k_t_base);
    auto it = std::lower_bound(std::begin(k_compositions), std::end(k_compositions), composition{a, b, 0},
                               [](const composition& x, const composition& y) {
                                   return x.first != y.first ? x.first < y.first : x.second < y.second;
                               });
    if (it != std::end(k_compositions) && it->first == a && it->second == b) return it->composite;
    return 0;
}

// Whether NFC may change a code point or merge it with a neighbour: it has a decomposition
// (Hangul syllables included), a combining class other than 0, or is the second of some
// composition (Hangul jamo included). A bit per code point, in 256-code-point pages of which the
// many clear ones share one.
bool nfc_unstable(char32_t cp) noexcept {
    struct bitmap {
        std::vector<std::uint16_t> page;                    // per block: its page
        std::vector<std::array<std::uint64_t, 4>> pages;  // pages[0] is all clear
    };
    static const bitmap m = [] {
        std::vector<std::array<std::uint64_t, 4>> full((k_max_code_point >> 8) + 1);
        const auto set = [&](char32_t c) { full[c >> 8][(c >> 6) & 3] |= std::uint64_t{1} << (c & 63); };
        for (const decomposition& d : k_decompositions) set(d.cp);
        for (const composition& c : k_compositions) set(c.second);
        for (char32_t c = k_s_base; c < k_s_base + k_s_count; ++c) set(c);
        for (char32_t c = k_v_base; c < k_v_base + k_v_count; ++c) set(c);
        for (char32_t c = k_t_base + 1; c < k_t_base + k_t_count; ++c) set(c);
        for (std::size_t r = 0; r < std::size(k_ccc_runs); ++r) {
            if (k_ccc_runs[r].value == 0) continue;
            const char32_t end = r + 1 < std::size(k_ccc_runs) ? k_ccc_runs[r + 1].start : k_max_code_point + 1;
            for (char32_t c = k_ccc_runs[r].start; c < end; ++c) set(c);
        }
        bitmap b;
        b.pages.push_back({});
        for (const auto& pg : full) {  // a page equal to the clear one or the last one is shared
            if (pg != b.pages[0] && pg != b.pages.back()) b.pages.push_back(pg);
            b.page.push_back(static_cast<std::uint16_t>(pg == b.pages[0] ? 0 : b.pages.size() - 1));
        }
        return b;
    }();
    if (cp > k_max_code_point) return true;
    return ((m.pages[m.page[cp >> 8]][(cp >> 6) & 3] >> (cp & 63)) & 1U) != 0;
}

// Whether NFC leaves `in` as it is, decided without normalizing when no code point can change:
// below U+00C0 nothing decomposes, every combining class is 0 and nothing composes (the tables'
// first decomposition is U+00C0), as hosts nearly always are.
bool stays_nfc(std::u32string_view in) noexcept {
    return std::all_of(in.begin(), in.end(), [](char32_t c) { return c < 0xC0 || !nfc_unstable(c); });
}

// spec: UTS #46 §4 step 2 (Normalize) -- Unicode Normalization Form C.
std::u32string nfc(std::u32string_view in) {
    if (stays_nfc(in)) return std::u32string(in);
    std::u32string d;
    d.reserve(in.size());
    for (char32_t cp : in) decompose(cp, d);
    // Canonical ordering: stable-sort each run of non-starters by combining class.
    for (std::size_t i = 0; i < d.size();) {
        if (ccc(d[i]) == 0) { ++i; continue; }
        std::size_t j = i;
        while (j < d.size() && ccc(d[j]) != 0) ++j;
        // Insertion sort: stable, and the runs are a few marks long (std::stable_sort's temporary
        // buffer is deprecated and warns under clang).
        for (std::size_t k = i + 1; k < j; ++k) {
            const char32_t cp = d[k];
            const auto c = ccc(cp);
            std::size_t m = k;
            while (m > i && ccc(d[m - 1]) > c) {
                d[m] = d[m - 1];
                --m;
            }
            d[m] = cp;
        }
        i = j;
    }
    // Canonical composition.
    std::u32string out;
    out.reserve(d.size());
    std::size_t starter = std::u32string::npos;
    int last_ccc = -1;
    for (char32_t cp : d) {
        const int c = ccc(cp);
        if (starter != std::u32string::npos) {
            const bool blocked = last_ccc != -1 && (last_ccc == 0 || last_ccc >= c);
            if (!blocked) {
                if (char32_t comp = compose_pair(out[starter], cp); comp != 0) {
                    out[starter] = comp;
                    continue;
                }
            }
        }
        if (c == 0) { starter = out.size(); last_ccc = -1; }
        else last_ccc = c;
        out.push_back(cp);
    }
    return out;
}

bool all_ascii(std::u32string_view s) noexcept {
    return std::all_of(s.begin(), s.end(), [](char32_t c) { return c < 0x80; });
}

// spec: UTS #46 §4.1 Validity Criteria for one label (already mapped and normalized).
bool label_is_valid(std::u32string_view label) {
    if (label.empty()) return true;
    // Criterion 5: no leading combining mark.
    if (is_mark(label.front())) return false;
    // Criterion 7 (CheckJoiners): RFC 5892 Appendix A.1/A.2, as ada 2.9 reads them: the first
    // joiner decides the verdict for the whole label (the bidi check is then skipped), and a
    // ZWNJ needs some L/D-joining code point anywhere before it and some R/D one anywhere after.
    for (std::size_t i = 0; i < label.size(); ++i) {
        const char32_t c = label[i];
        if (c != 0x200C && c != 0x200D) continue;
        if (i > 0 && is_virama(label[i - 1])) return true;
        if (c == 0x200D) return false;
        if (i == 0 || i + 1 >= label.size()) return false;
        bool before = false;
        for (std::size_t k = 0; k < i && !before; ++k) {
            const auto j = joining(label[k]);
            before = j == join_l || j == join_d;
        }
        bool after = false;
        for (std::size_t k = i + 1; k < label.size() && !after; ++k) {
            const auto j = joining(label[k]);
            after = j == join_r || j == join_d;
        }
        return before && after;
    }
    // Criterion 8 (CheckBidi), RFC 5893 §2, applied as ada 2.9 does: only to a label that
    // itself holds R, AL or AN. A label led by L is checked as LTR up to (not including) its
    // last non-NSM code point; any other label is checked as RTL (allowed classes, EN/AN
    // exclusion, the class of the last non-NSM code point) without rule 1's first-character
    // test.
    std::size_t last = label.size();
    while (last > 0 && bidi(label[last - 1]) == bidi_nsm) --last;
    if (last == 0) return false;
    --last;  // index of the last non-NSM code point
    const bool rtl_label = std::any_of(label.begin(), label.end(), [](char32_t c) {
        const auto b = bidi(c);
        return b == bidi_r || b == bidi_al || b == bidi_an;
    });
    if (!rtl_label) return true;
    if (bidi(label.front()) == bidi_l) {
        for (std::size_t i = 0; i < last; ++i) {
            switch (bidi(label[i])) {
                case bidi_l: case bidi_en: case bidi_es: case bidi_cs: case bidi_et: case bidi_on:
                case bidi_bn: case bidi_nsm: break;
                default: return false;
            }
        }
        return true;
    }
    bool has_en = false;
    bool has_an = false;
    for (std::size_t i = 0; i <= last; ++i) {
        const auto b = bidi(label[i]);
        switch (b) {
            case bidi_r: case bidi_al: case bidi_es: case bidi_cs: case bidi_et: case bidi_on:
            case bidi_bn: case bidi_nsm: break;
            case bidi_an: has_an = true; break;
            case bidi_en: has_en = true; break;
            default: return false;
        }
        if (has_en && has_an) return false;
    }
    const auto end = bidi(label[last]);
    return end == bidi_r || end == bidi_al || end == bidi_en || end == bidi_an;
}

// An `xn--` label (ASCII, lowercase): its punycode must decode to a non-empty label that is
// already mapped, already NFC and valid. (ada 2.9 accepts a label that decodes to ASCII.)
bool xn_label_is_valid(std::string_view ascii_label) {
    std::u32string decoded;
    if (!punycode_decode(ascii_label.substr(4), decoded)) return false;
    if (decoded.empty()) return false;
    std::u32string mapped;
    if (!map_code_points(decoded, mapped) || mapped != decoded) return false;
    if (!stays_nfc(mapped) && nfc(mapped) != mapped) return false;
    return label_is_valid(mapped);
}

// Punycode parameters (RFC 3492 §5).
constexpr std::uint32_t k_base = 36, k_tmin = 1, k_tmax = 26, k_skew = 38, k_damp = 700;
constexpr std::uint32_t k_initial_bias = 72, k_initial_n = 128;
constexpr std::uint32_t k_max_u32 = 0xFFFFFFFFU;

std::uint32_t adapt(std::uint32_t delta, std::uint32_t points, bool first) noexcept {
    delta = first ? delta / k_damp : delta / 2;
    delta += delta / points;
    std::uint32_t k = 0;
    while (delta > ((k_base - k_tmin) * k_tmax) / 2) {
        delta /= k_base - k_tmin;
        k += k_base;
    }
    return k + (k_base - k_tmin + 1) * delta / (delta + k_skew);
}

char encode_digit(std::uint32_t d) noexcept {
    return static_cast<char>(d < 26 ? 'a' + d : '0' + (d - 26));
}

// Appends the variable-length integer `q` (RFC 3492 §6.3, inner loop).
void encode_integer(std::uint32_t q, std::uint32_t bias, std::string& out) {
    for (std::uint32_t k = k_base;; k += k_base) {
        const std::uint32_t t = k <= bias ? k_tmin : (k >= bias + k_tmax ? k_tmax : k - bias);
        if (q < t) break;
        out.push_back(encode_digit(t + (q - t) % (k_base - t)));
        q = (q - t) / (k_base - t);
    }
    out.push_back(encode_digit(q));
}

}  // namespace

// spec: RFC 3492 §6.3 encoding procedure. The textbook loop rescans the whole label once per
// distinct code point (quadratic on hostile input); here the non-basic code points are sorted
// once and the "code points below n" counts between insertions come from a Fenwick tree over
// positions, which yields the same deltas in O(n log n).
bool punycode_encode(std::u32string_view input, std::string& out) {
    const std::size_t len = input.size();
    if (len >= k_max_u32) return false;
    std::vector<std::uint32_t> tree(len + 1, 0);
    auto mark = [&](std::size_t pos) {
        for (std::size_t i = pos + 1; i <= len; i += i & (~i + 1)) ++tree[i];
    };
    auto below = [&](std::size_t pos) {  // marked positions in [0, pos)
        std::uint32_t sum = 0;
        for (std::size_t i = pos; i > 0; i -= i & (~i + 1)) sum += tree[i];
        return sum;
    };
    std::vector<std::pair<char32_t, std::uint32_t>> pending;  // (code point, position)
    std::uint32_t basic = 0;
    for (std::size_t i = 0; i < len; ++i) {
        if (input[i] < 0x80) {
            out.push_back(static_cast<char>(input[i]));
            ++basic;
            mark(i);
        } else {
            pending.emplace_back(input[i], static_cast<std::uint32_t>(i));
        }
    }
    if (basic > 0) out.push_back('-');
    std::sort(pending.begin(), pending.end());
    std::uint32_t h = basic;
    std::uint32_t n = k_initial_n;
    std::uint32_t delta = 0;
    std::uint32_t bias = k_initial_bias;
    // Each group is the run of one code point in the sorted list, walked by iterator.
    for (auto group = pending.cbegin(); group != pending.cend();) {
        const char32_t m = group->first;
        if ((m - n) > (k_max_u32 - delta) / (h + 1)) return false;
        delta += (m - n) * (h + 1);
        n = m;
        const auto group_end = std::find_if(group, pending.cend(), [m](const auto& p) { return p.first != m; });
        std::size_t from = 0;
        for (auto g = group; g != group_end; ++g) {
            const std::size_t pos = g->second;
            const std::uint32_t skipped = below(pos) - below(from);
            if (skipped > k_max_u32 - delta) return false;
            delta += skipped;
            encode_integer(delta, bias, out);
            bias = adapt(delta, h + 1, h == basic);
            delta = 0;
            ++h;
            from = pos + 1;
        }
        const std::uint32_t rest = below(len) - below(from);
        if (rest > k_max_u32 - delta) return false;
        delta += rest;
        for (auto g = group; g != group_end; ++g) mark(g->second);
        group = group_end;
        ++delta;
        ++n;
    }
    return true;
}

// spec: RFC 3492 §6.2 decoding procedure (lowercase and uppercase digits accepted).
bool punycode_decode(std::string_view input, std::u32string& out) {
    out.clear();
    std::size_t b = input.rfind('-');
    std::size_t pos = 0;
    if (b != std::string_view::npos) {
        for (std::size_t i = 0; i < b; ++i) {
            const auto c = static_cast<unsigned char>(input[i]);
            if (c >= 0x80) return false;
            out.push_back(c);
        }
        pos = b + 1;
    }
    std::uint32_t n = k_initial_n;
    std::uint32_t i = 0;
    std::uint32_t bias = k_initial_bias;
    while (pos < input.size()) {
        const std::uint32_t oldi = i;
        std::uint32_t w = 1;
        for (std::uint32_t k = k_base;; k += k_base) {
            if (pos >= input.size()) return false;
            const char c = input[pos++];
            std::uint32_t digit = 0;
            if (c >= 'a' && c <= 'z') digit = static_cast<std::uint32_t>(c - 'a');
            else if (c >= 'A' && c <= 'Z') digit = static_cast<std::uint32_t>(c - 'A');
            else if (c >= '0' && c <= '9') digit = static_cast<std::uint32_t>(c - '0') + 26;
            else return false;
            if (digit > (k_max_u32 - i) / w) return false;
            i += digit * w;
            const std::uint32_t t = k <= bias ? k_tmin : (k >= bias + k_tmax ? k_tmax : k - bias);
            if (digit < t) break;
            if (w > k_max_u32 / (k_base - t)) return false;
            w *= k_base - t;
        }
        const auto len = static_cast<std::uint32_t>(out.size() + 1);
        bias = adapt(i - oldi, len, oldi == 0);
        if (i / len > k_max_u32 - n) return false;
        n += i / len;
        i %= len;
        if (n > k_max_code_point || (n >= 0xD800 && n <= 0xDFFF)) return false;
        out.insert(out.begin() + static_cast<std::ptrdiff_t>(i), static_cast<char32_t>(n));
        ++i;
    }
    return true;
}

// domain_to_ascii for an ASCII domain whose ASCII code points all map to ASCII (which the
// table gives for every one but the disallowed): the mapping byte by byte straight into the
// output, which NFC leaves as it is (nothing below U+00C0 changes), then each `xn--` label
// checked in place. Returns false, leaving `out` to be discarded, when the domain is not such
// text; the code point route then decides. A host can be most of a megabyte URL, and that route
// holds three UTF-32 copies of it.
bool ascii_domain_to_ascii(std::string_view domain, std::optional<std::string>& result) {
    const auto& ascii = ascii_idna();
    std::string out;
    out.reserve(domain.size());
    std::size_t run = 0;  // the run of valid characters not copied yet starts here
    for (std::size_t i = 0; i < domain.size(); ++i) {
        const auto c = static_cast<unsigned char>(domain[i]);
        if (c >= 0x80) return false;
        const auto v = ascii[c];
        if (static_cast<idna_status>(v >> 30) == idna_status::valid) continue;
        out.append(domain.substr(run, i - run));
        run = i + 1;
        switch (static_cast<idna_status>(v >> 30)) {
            case idna_status::valid:
            case idna_status::ignored: break;
            case idna_status::mapped: {
                const std::size_t off = v & 0xFFFFU;
                const std::size_t len = (v >> 16) & 0x1FU;
                for (std::size_t k = 0; k < len; ++k) {
                    const char32_t m = k_idna_mappings[off + k];
                    if (m >= 0x80) return false;
                    out.push_back(static_cast<char>(m));
                }
                break;
            }
            case idna_status::disallowed: result = std::nullopt; return true;
        }
    }
    out.append(domain.substr(run));
    for (std::size_t start = 0; start < out.size();) {
        std::size_t dot = out.find('.', start);
        if (dot == std::string::npos) dot = out.size();
        const std::string_view label(out.data() + start, dot - start);
        if (label.size() >= 4 && label.substr(0, 4) == "xn--" && !xn_label_is_valid(label)) {
            result = std::nullopt;
            return true;
        }
        start = dot + 1;
    }
    result = std::move(out);
    return true;
}

std::optional<std::string> domain_to_ascii(std::string_view domain) {
    if (std::optional<std::string> r; ascii_domain_to_ascii(domain, r)) return r;
    std::u32string cps;
    if (!utf8_decode(domain, cps)) return std::nullopt;
    std::u32string mapped;
    if (!map_code_points(cps, mapped)) return std::nullopt;
    const std::u32string normal = nfc(mapped);
    std::string out;
    std::size_t start = 0;
    // spec: UTS #46 §4 steps 3-4 (Break, Convert/Validate), then §4.2 ToASCII step 2.
    while (start < normal.size()) {
        std::size_t dot = normal.find(U'.', start);
        const bool last = dot == std::u32string::npos;
        if (last) dot = normal.size();
        const std::u32string_view label(normal.data() + start, dot - start);
        start = last ? normal.size() : dot + 1;
        if (all_ascii(label)) {
            const std::size_t at = out.size();
            for (char32_t c : label) out.push_back(static_cast<char>(c));
            const std::string_view ascii(out.data() + at, label.size());
            if (ascii.size() >= 4 && ascii.substr(0, 4) == "xn--" && !xn_label_is_valid(ascii)) return std::nullopt;
        } else {
            if (label.size() >= 4 && label.substr(0, 4) == U"xn--") return std::nullopt;
            if (!label_is_valid(label)) return std::nullopt;
            out += "xn--";
            if (!punycode_encode(label, out)) return std::nullopt;
        }
        if (!last) out.push_back('.');
    }
    return out;
}

}  // namespace plurnk::url_detail
