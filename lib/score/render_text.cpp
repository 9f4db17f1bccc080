// SPDX-License-Identifier: MIT
// What the report's renderings share (render_text.hpp): numbers and labels as text, input-derived
// text made safe to show, the cross-tab of a report grouped by two keys, and the classes ranked.
#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>

#include "render_text.hpp"

namespace plurnk::score::render_detail {

std::string fmt_double(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string pct(double v) { return fmt_double("%.1f%%", v * 100); }

std::string thousands(std::uint64_t n) {
    const std::string digits = std::to_string(n);
    std::string s;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
        s += digits[i];
    }
    return s;
}

std::string bytes_text(std::uint64_t b) {
    if (b >= 1'000'000) return fmt_double("%.1f MB", static_cast<double>(b) / 1e6);
    if (b >= 10'000) return fmt_double("%.1f kB", static_cast<double>(b) / 1e3);
    return std::to_string(b) + " B";
}

// Code points of UTF-8 text (a display width good enough for labels).
std::size_t width(std::string_view s) {
    std::size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
}

// `s` cut to `w` code points ("…" at the cut), padded on the right (or left) to `w`.
std::string fit(std::string_view s, std::size_t w, bool right) {
    std::string out;
    if (width(s) > w) {
        std::size_t n = 0, at = 0;
        while (at < s.size() && n + 1 < w) {
            ++at;
            while (at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) ++at;
            ++n;
        }
        out = std::string(s.substr(0, at)) + "\u2026";
    } else {
        out = std::string(s);
    }
    const std::string pad(w - std::min(w, width(out)), ' ');
    return right ? pad + out : out + pad;
}

// `s` cut to `w` code points ("…" at the cut), not padded.
std::string clip(std::string_view s, std::size_t w) { return width(s) > w ? fit(s, w) : std::string(s); }

// A cross-tab value: a key the record lacked is "(missing)", an empty string "".
std::string value_label(const std::optional<std::string>& v) {
    if (!v) return "(missing)";
    return v->empty() ? "\"\"" : *v;
}

// A group's name: a cross-tab cell as "A's value × B's value"; one key's "" as "(none)".
std::string group_label(const report& r, const std::string& k) {
    if (group_by_keys(r.group_by).size() == 2) {
        if (const auto v = split_cross_key(k)) return value_label((*v)[0]) + " \u00d7 " + value_label((*v)[1]);
    }
    return k.empty() ? "(none)" : k;
}

std::optional<cross_tab> cross_tab_of(const report& r) {
    cross_tab x;
    x.keys = group_by_keys(r.group_by);
    if (x.keys.size() != 2) return std::nullopt;
    std::set<std::optional<std::string>> rows, cols;
    for (const auto& [k, g] : r.groups) {
        const auto v = split_cross_key(k);
        if (!v) return std::nullopt;
        rows.insert((*v)[0]), cols.insert((*v)[1]);
        x.cells[{(*v)[0], (*v)[1]}] = &g;
    }
    x.rows.assign(rows.begin(), rows.end());
    x.cols.assign(cols.begin(), cols.end());
    return x;
}

// A cross-tab cell's admission: "rate [low, high] (turns)", "" for a pair with no turns.
std::string cell_text(const group* g, const std::string& percent, const std::string& dash) {
    if (g == nullptr || g->turns == 0) return "";
    const rate c = wilson(g->clean, g->turns);
    const auto p = [&](double v) { return fmt_double("%.1f", v * 100) + percent; };
    return p(c.value) + " [" + p(c.low) + dash + p(c.high) + "] (" + thousands(g->turns) + ")";
}

// Input-derived text as text only, on one line: each control character (C0 and DEL as its
// control picture, U+2400 + c and U+2421; C1 as U+FFFD), each bidirectional embedding, override
// or isolate (which reorder what follows them on a terminal or a page) and each byte that is not
// well-formed UTF-8 (U+FFFD) is replaced, so a model name or an excerpt cannot move a terminal's
// cursor, change its colours or its title, or hide text.
std::string text_only(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    while (!s.empty()) {
        const std::size_t bad = first_invalid_utf8(s);
        const std::string_view good = s.substr(0, bad);
        for (std::size_t i = 0; i < good.size();) {
            const auto c = static_cast<unsigned char>(good[i]);
            if (c < 0x20 || c == 0x7F) {
                out += "\xE2\x90";  // U+2400 + c, U+2421 for DEL
                out += static_cast<char>(c == 0x7F ? 0xA1 : 0x80 + c);
                ++i;
                continue;
            }
            const std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
            const std::string_view cp = good.substr(i, len);
            const bool c1 = len == 2 && c == 0xC2 && static_cast<unsigned char>(cp[1]) < 0xA0;
            const bool bidi = cp == "\u202A" || cp == "\u202B" || cp == "\u202C" || cp == "\u202D" ||
                              cp == "\u202E" || cp == "\u2066" || cp == "\u2067" || cp == "\u2068" || cp == "\u2069";
            if (c1 || bidi) {
                out += "\uFFFD";
            } else {
                out += cp;
            }
            i += len;
        }
        if (bad == std::string_view::npos) break;
        out += "\uFFFD";
        s.remove_prefix(bad + 1);
    }
    return out;
}

std::vector<ranked> top_of(const std::map<std::string, tally>& m, std::size_t n) {
    std::vector<ranked> v;
    for (const auto& [k, t] : m) v.push_back({k, &t});
    // Most turns first, ties by key (std::sort: std::stable_sort's buffer is deprecated in clang 19).
    std::sort(v.begin(), v.end(), [](const ranked& a, const ranked& b) {
        return a.t->turns != b.t->turns ? a.t->turns > b.t->turns : a.key < b.key;
    });
    if (v.size() > n) v.resize(n);
    return v;
}

std::uint64_t get(const std::map<std::string, std::uint64_t>& m, const std::string& k) {
    const auto it = m.find(k);
    return it == m.end() ? 0 : it->second;
}

std::string example_ref(const example& e) {
    std::string s = e.file.empty() ? e.id : e.id.empty() ? e.file : e.file + " " + e.id;
    if (e.line != 0) (s += ' ') += std::to_string(e.line) + ":" + std::to_string(e.column);
    return s;
}

std::vector<any_class> classes_by_turns(const group& t, std::size_t top) {
    std::vector<any_class> v;
    const std::pair<std::string_view, std::map<std::string, tally> group::*> kinds[] = {
        {"errors", &group::errors}, {"warnings", &group::warnings}, {"tails", &group::tails}, {"shape", &group::shape},
        {"nearMisses", &group::near_misses}};
    for (const auto& [kind, m] : kinds) {
        for (const ranked& x : top_of(t.*m, top)) v.push_back({x.t->turns, kind, x.key, m});
    }
    std::sort(v.begin(), v.end(), [](const any_class& a, const any_class& b) {
        return a.turns != b.turns ? a.turns > b.turns : std::tie(a.kind, a.key) < std::tie(b.kind, b.key);
    });
    if (v.size() > top) v.resize(top);
    return v;
}

// The groups with most turns (ties by key), at most k_compared_groups: the columns of a table.
std::vector<std::pair<std::string, const group*>> column_groups(const report& r) {
    std::vector<std::pair<std::string, const group*>> gs;
    for (const auto& [k, g] : r.groups) gs.push_back({k, &g});
    std::sort(gs.begin(), gs.end(), [](const auto& a, const auto& b) {
        return a.second->turns != b.second->turns ? a.second->turns > b.second->turns : a.first < b.first;
    });
    if (gs.size() > k_compared_groups) gs.resize(k_compared_groups);
    std::sort(gs.begin(), gs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return gs;
}

}  // namespace plurnk::score::render_detail
