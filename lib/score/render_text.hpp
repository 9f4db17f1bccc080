// SPDX-License-Identifier: MIT
// What the report's renderings share (private header): numbers and labels as text, input-derived
// text made safe to show, the cross-tab of a report grouped by two keys, and the classes ranked.
// render_table.cpp (the terminal table), render_html.cpp (the page), render_csv.cpp and
// render_latex.cpp use them; render_text.cpp defines them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plurnk/score.hpp"

namespace plurnk::score::render_detail {

std::string fmt_double(const char* f, double v);
std::string pct(double v);
std::string thousands(std::uint64_t n);
std::string bytes_text(std::uint64_t b);
// Code points of UTF-8 text (a display width good enough for labels).
std::size_t width(std::string_view s);
// `s` cut to `w` code points ("…" at the cut), padded on the right (or left) to `w`.
std::string fit(std::string_view s, std::size_t w, bool right = false);
// `s` cut to `w` code points ("…" at the cut), not padded.
std::string clip(std::string_view s, std::size_t w);
// A cross-tab value: a key the record lacked is "(missing)", an empty string "".
std::string value_label(const std::optional<std::string>& v);
// A group's name: a cross-tab cell as "A's value × B's value"; one key's "" as "(none)".
std::string group_label(const report& r, const std::string& k);

// A report grouped by two keys laid out as a cross-tab: rows the first key's values, columns the
// second's (each sorted, missing first), a cell per pair with turns.
struct cross_tab {
    std::vector<std::string> keys;
    std::vector<std::optional<std::string>> rows, cols;
    std::map<std::pair<std::optional<std::string>, std::optional<std::string>>, const group*> cells;
    [[nodiscard]] const group* at(std::size_t i, std::size_t j) const {
        const auto it = cells.find({rows[i], cols[j]});
        return it == cells.end() ? nullptr : it->second;
    }
};
std::optional<cross_tab> cross_tab_of(const report& r);
// A cross-tab cell's admission: "rate [low, high] (turns)", "" for a pair with no turns.
std::string cell_text(const group* g, const std::string& percent, const std::string& dash);

// Input-derived text as text only, on one line (see render_text.cpp).
std::string text_only(std::string_view s);

struct ranked {
    std::string key;
    const tally* t;
};
// The `n` classes of `m` in most turns (ties by key).
std::vector<ranked> top_of(const std::map<std::string, tally>& m, std::size_t n);
std::uint64_t get(const std::map<std::string, std::uint64_t>& m, const std::string& k);
std::string example_ref(const example& e);

// Every kind of class, by turns overall: (kind, key, tally map member).
struct any_class {
    std::uint64_t turns;
    std::string_view kind;
    std::string key;
    std::map<std::string, tally> group::*m;
};
std::vector<any_class> classes_by_turns(const group& t, std::size_t top);
// The groups with most turns (ties by key), at most k_compared_groups: the columns of a table.
std::vector<std::pair<std::string, const group*>> column_groups(const report& r);

}  // namespace plurnk::score::render_detail
