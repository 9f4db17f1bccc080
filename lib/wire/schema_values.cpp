// SPDX-License-Identifier: MIT
// JavaScript's value semantics as the wire schema engine needs them (schema_nodes.hpp): JSON
// Pointer escaping and encodeURI for locations, === and deep equality for const, enum and
// uniqueItems, a keyed hash for uniqueItems' one-pass duplicate search, code point counts and
// `${x}` of a number for messages. Every walk over a value is iterative.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "base/work_counter.hpp"
#include "schema_nodes.hpp"

namespace plurnk::wire::detail {

// JSON Pointer token escaping (~ -> ~0, / -> ~1) as the reference's escapePointer.
std::string escape_pointer(std::string_view key) {
    std::string out;
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

// encodeURI(escapePointer(key)).replace(/#/g, '%23'); false where encodeURI throws (a lone
// surrogate, held as ED A0..BF xx).
bool append_encoded_pointer(std::string& out, std::string_view key) {
    static constexpr char k_hex[] = "0123456789ABCDEF";
    const std::string escaped = escape_pointer(key);
    for (std::size_t i = 0; i < escaped.size(); ++i) {
        const auto c = static_cast<unsigned char>(escaped[i]);
        if (c == 0xED && i + 1 < escaped.size() && static_cast<unsigned char>(escaped[i + 1]) >= 0xA0) return false;
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                                (c != 0 && std::string_view(";,/?:@&=+$-_.!~*'()").find(static_cast<char>(c)) !=
                                               std::string_view::npos);
        if (unreserved) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += k_hex[c >> 4];
            out += k_hex[c & 15];
        }
    }
    return true;
}

// === between two JSON values that are not both containers, and deepCompareStrict otherwise,
// without recursion: the pairs still to compare wait on a stack. Objects whose keys come in the
// same order are compared member by member; others by their members sorted by key (a value's
// keys are distinct), so a comparison is linear (n log n for objects in different orders) in the
// smaller value.
[[gnu::noinline]] bool js_equal(json_ref a, json_ref b) {
    std::vector<std::pair<json_ref, json_ref>> todo{{a, b}};
    std::vector<json_ref::member> am, bm;
    const auto by_key = [](const json_ref::member& x, const json_ref::member& y) { return x.key < y.key; };
    while (!todo.empty()) {
        const auto [x, y] = todo.back();
        todo.pop_back();
        plurnk::detail::count_values_compared(1);
        if (x.kind() != y.kind()) return false;
        switch (x.kind()) {
            case kind_t::null: break;
            case kind_t::boolean:
                if (x.boolean() != y.boolean()) return false;
                break;
            case kind_t::number:
                if (x.number() != y.number()) return false;
                break;
            case kind_t::string:
                if (x.string() != y.string()) return false;
                break;
            case kind_t::array: {
                auto i = x.begin(), j = y.begin();
                const auto xe = x.end(), ye = y.end();
                for (; i != xe && j != ye; ++i, ++j) todo.emplace_back((*i).value, (*j).value);
                if (i != xe || j != ye) return false;
                break;
            }
            case kind_t::object: {
                am.assign(x.begin(), x.end());
                bm.assign(y.begin(), y.end());
                if (am.size() != bm.size()) return false;
                bool same_order = true;
                for (std::size_t k = 0; k < am.size() && same_order; ++k) same_order = am[k].key == bm[k].key;
                if (!same_order) {
                    std::sort(am.begin(), am.end(), by_key);
                    std::sort(bm.begin(), bm.end(), by_key);
                }
                for (std::size_t k = 0; k < am.size(); ++k) {
                    if (am[k].key != bm[k].key) return false;
                    todo.emplace_back(am[k].value, bm[k].value);
                }
                break;
            }
        }
    }
    return true;
}

namespace {

// A hash consistent with js_equal: equal values hash alike (a number by its value, so 0 and -0
// alike; an object's members in any order). Keyed per process, so that no text can be written to
// make distinct values collide. Iterative; validate() has refused values nested deeper than
// k_json_max_depth, so the stack stays small.
std::uint64_t mix(std::uint64_t h) noexcept {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

std::uint64_t hash_key() noexcept {
    static const std::uint64_t key = [] {
        std::uint64_t k = 0x9e3779b97f4a7c15ULL;
        try {
            std::random_device rd;
            k ^= (static_cast<std::uint64_t>(rd()) << 32) | rd();
        } catch (...) {  // no entropy source: a fixed key (a slower worst case, the same verdicts)
        }
        return k;
    }();
    return key;
}

std::uint64_t hash_bytes(std::string_view s, std::uint64_t h) noexcept {
    h = mix(h ^ s.size());
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, s.data() + i, 8);
        h = mix(h ^ w);
    }
    std::uint64_t tail = 0;
    if (i < s.size()) std::memcpy(&tail, s.data() + i, s.size() - i);
    return mix(h ^ tail ^ 0xff);
}

[[gnu::noinline]] std::uint64_t js_hash(json_ref v) {
    const std::uint64_t key = hash_key();
    const auto scalar = [key](json_ref x) -> std::uint64_t {
        switch (x.kind()) {
            case kind_t::null: return mix(key ^ 1);
            case kind_t::boolean: return mix(key ^ (x.boolean() ? 2 : 3));
            case kind_t::number: {
                const double d = x.number() == 0 ? 0.0 : x.number();
                std::uint64_t bits = 0;
                std::memcpy(&bits, &d, sizeof bits);
                return mix(mix(key ^ 4) ^ bits);
            }
            case kind_t::string: return hash_bytes(x.string(), key ^ 5);
            default: return 0;
        }
    };
    if (!v.is_container()) return scalar(v);
    struct frame {
        json_ref::iterator it, end;
        bool object;
        std::uint64_t acc, count;
        std::uint64_t key_hash;  // of this container's key in the object it is in
    };
    // An array's hash follows its elements' order; an object's adds its members' up.
    const auto fold = [](frame& f, std::uint64_t key_hash, std::uint64_t h) {
        ++f.count;
        if (f.object) f.acc += mix(key_hash ^ std::rotl(h, 23));
        else f.acc = mix(f.acc ^ h);
    };
    const auto open_frame = [key](json_ref c, std::uint64_t key_hash) {
        const bool object = c.kind() == kind_t::object;
        return frame{c.begin(), c.end(), object, mix(key ^ (object ? 6 : 7)), 0, key_hash};
    };
    std::vector<frame> open{open_frame(v, 0)};
    for (;;) {
        frame& f = open.back();
        if (f.it == f.end) {
            const std::uint64_t h = mix(f.acc ^ mix(f.count ^ (f.object ? 0xB : 0xA)));
            const std::uint64_t key_hash = f.key_hash;
            open.pop_back();
            if (open.empty()) return h;
            fold(open.back(), key_hash, h);
            continue;
        }
        const json_member m = *f.it;
        ++f.it;
        const std::uint64_t key_hash = f.object ? hash_bytes(m.key, key ^ 8) : 0;
        if (m.value.is_container()) open.push_back(open_frame(m.value, key_hash));
        else fold(f, key_hash, scalar(m.value));
    }
}

}  // namespace

// uniqueItems as the reference checks it (every j, then every k != j, the first equal pair
// reported), in one pass: each element is looked up among the distinct values before it, in a
// hash table of their words that grows with them. The pair reported is the earliest value that
// comes again (j) and the first place it comes again (k). False when the items are distinct.
[[gnu::noinline]] bool first_duplicate(json_ref array, std::size_t& j, std::size_t& k) {
    const json_document& doc = *array.document();
    // A slot: the first item's word + 1 (0: empty) and the high half of its hash.
    std::vector<std::uint64_t> slots(16, 0);
    std::size_t used = 0;
    const auto insert = [&slots](std::uint64_t entry) {
        const std::size_t mask = slots.size() - 1;
        std::size_t i = static_cast<std::size_t>(entry >> 32) & mask;
        while (slots[i] != 0) i = (i + 1) & mask;
        slots[i] = entry;
    };
    std::uint32_t first_word = UINT32_MAX;  // the earliest repeated value's first word
    std::size_t index = 0;
    for (const auto& item : array) {
        const std::uint64_t tag = js_hash(item.value) >> 32;
        const std::size_t mask = slots.size() - 1;
        for (std::size_t i = static_cast<std::size_t>(tag) & mask;; i = (i + 1) & mask) {
            const std::uint64_t s = slots[i];
            if (s == 0) {
                slots[i] = (tag << 32) | (std::uint64_t{item.value.index()} + 1);
                if (++used * 4 > slots.size() * 3) {
                    std::vector<std::uint64_t> old(slots.size() * 2, 0);
                    old.swap(slots);
                    for (const std::uint64_t e : old) {
                        if (e != 0) insert(e);
                    }
                }
                break;
            }
            const auto word = static_cast<std::uint32_t>(s) - 1;
            if ((s >> 32) == tag && js_equal(doc.at(word), item.value)) {
                if (word < first_word) {
                    first_word = word;
                    k = index;
                }
                break;
            }
        }
        ++index;
    }
    if (first_word == UINT32_MAX) return false;
    j = 0;
    for (const auto& item : array) {
        if (item.value.index() == first_word) break;
        ++j;
    }
    return true;
}

std::size_t code_points(std::string_view s) noexcept {
    std::size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

void append_js_template_number(std::string& out, double x) {
    if (std::isinf(x)) out += x > 0 ? "Infinity" : "-Infinity";
    else append_js_number(out, x);
}

}  // namespace plurnk::wire::detail
