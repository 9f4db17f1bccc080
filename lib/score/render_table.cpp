// SPDX-License-Identifier: MIT
// The report as a terminal table (plurnk score's default output).
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "render_text.hpp"

namespace plurnk::score {

using namespace render_detail;

// ---- The table --------------------------------------------------------------------------------

namespace {

// The rates per group (and their total), a row each.
void rates_table(std::string& out, const report& r, const group& t) {
    const std::size_t name_w = group_by_keys(r.group_by).size() == 2 ? 36 : 20;  // a cell names two values
    std::string head = fit("group", name_w) + fit("turns", 9, true) + "  " + fit("clean  [95% CI]", 24) + fit("errors", 8, true) +
                       fit("advis.", 8, true) + fit("tail", 7, true) + fit("shape", 7, true);
    for (const std::string& c : r.channels) head += fit("rail:" + text_only(c), 11, true);
    out += head + "\n" + std::string(width(head), '-') + "\n";
    const auto row = [&](const std::string& name, const group& g) {
        const rate c = wilson(g.clean, g.turns);
        std::uint64_t shape_turns = 0;
        for (const auto& [k, x] : g.shape) shape_turns = std::max(shape_turns, x.turns);
        std::string line = fit(name, name_w) + fit(thousands(g.turns), 9, true) + "  " +
                           fit(pct(c.value) + " [" + pct(c.low) + "\u2013" + pct(c.high) + "]", 24) +
                           fit(pct(wilson(g.turns_with_errors, g.turns).value), 8, true) +
                           fit(pct(wilson(g.turns_with_warnings, g.turns).value), 8, true) +
                           fit(pct(wilson(g.turns_with_tail, g.turns).value), 7, true) +
                           fit(pct(wilson(shape_turns, g.shape_checked).value), 7, true);
        for (const std::string& ch : r.channels) line += fit(pct(wilson(get(g.rail, ch), g.turns).value), 11, true);
        out += line + "\n";
    };
    for (const auto& [k, g] : r.groups) row(text_only(group_label(r, k)), g);
    if (r.groups.size() > 1) row("total", t);
    out += "(errors, advis., tail: share of turns with an error item, an advisory, an unparsedTail; shape: with the\n"
           " most frequent turn-shape violation; rail: turns that are sentences of that channel's GBNF rail)\n";
}

// Admission per cell of a report grouped by two keys (nothing for any other report).
void crosstab_table(std::string& out, const report& r) {
    const auto x = cross_tab_of(r);
    if (!x) return;
    out += "\nclean by " + text_only(x->keys[0]) + " \u00d7 " + text_only(x->keys[1]) + " (rows: " + text_only(x->keys[0]) +
           ", columns: " + text_only(x->keys[1]) + "; share of turns admitted cleanly [95% CI] (turns))\n";
    std::string h = fit(text_only(x->keys[0]) + " \\ " + text_only(x->keys[1]), 20);
    for (const auto& c : x->cols) (h += ' ') += fit(text_only(value_label(c)), 30, true);
    out += h + "\n" + std::string(width(h), '-') + "\n";
    for (std::size_t i = 0; i < x->rows.size(); ++i) {
        std::string line = fit(text_only(value_label(x->rows[i])), 20);
        for (std::size_t j = 0; j < x->cols.size(); ++j) (line += ' ') += fit(cell_text(x->at(i, j), "%", "\u2013"), 30, true);
        out += line + "\n";
    }
}

// A kind of class, the `top` in most turns, with each one's template and first example.
void classes_table(std::string& out, const char* title, const std::map<std::string, tally>& m, std::size_t top) {
    if (m.empty()) return;
    (out += '\n') += std::string(title) + " (" + std::to_string(m.size()) + " classes; by turns)\n";
    out += fit("turns", 9, true) + fit("count", 9, true) + "  " + fit("class", 28) + "  " + fit("template", 48) +
           "  example\n";
    for (const ranked& x : top_of(m, top)) {
        out += fit(thousands(x.t->turns), 9, true) + fit(thousands(x.t->count), 9, true) + "  " +
               fit(text_only(x.key), 28) + "  " + fit(text_only(class_template(x.key) + near_miss_template(x.key)), 48) + "  " +
               (x.t->examples.empty() ? "" : text_only(example_ref(x.t->examples.front()))) + "\n";
    }
}

// The classes per group: share of the group's (parse-tier for shape) turns with each (turns).
void per_group_table(std::string& out, const report& r, const group& t, std::size_t top) {
    const auto gs = column_groups(r);
    out += "\nclasses per " + text_only(r.group_by) + " (share of the " + text_only(r.group_by) +
           "'s turns with the class, and turns; the " + std::to_string(top) + " in most turns)\n";
    std::string h = fit("class", 32);
    for (const auto& [k, g] : gs) h += fit(text_only(group_label(r, k)), 18, true);
    out += h + fit("total", 18, true) + "\n";
    const auto cell = [](std::uint64_t n, std::uint64_t of) {
        return fit(pct(wilson(n, of).value) + " (" + thousands(n) + ")", 18, true);
    };
    for (const any_class& c : classes_by_turns(t, top)) {
        const bool shape = c.m == &group::shape;
        std::string line = fit(text_only(c.key), 32);
        for (const auto& [k, g] : gs) {
            const auto it = (g->*c.m).find(c.key);
            line += cell(it == (g->*c.m).end() ? 0 : it->second.turns, shape ? g->shape_checked : g->turns);
        }
        out += line + cell(c.turns, shape ? t.shape_checked : t.turns) + "\n";
    }
    if (r.groups.size() > gs.size()) {
        out += "(the " + std::to_string(gs.size()) + " of " + thousands(r.groups.size()) + " groups with most turns)\n";
    }
}

// A map of counts on one line, most first, each with its share.
void counts_line(std::string& out, const char* title, const std::map<std::string, std::uint64_t>& m, bool empty_is_none) {
    if (m.empty()) return;
    std::vector<std::pair<std::string, std::uint64_t>> v(m.begin(), m.end());
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;  // ties by key
    });
    std::uint64_t sum = 0;
    for (const auto& [k, n] : v) sum += n;
    out += std::string(title) + ":";
    for (const auto& [k, n] : v) {
        (out += ' ') += (empty_is_none && k.empty() ? std::string("(none)") : text_only(k)) + " " + thousands(n) + " (" +
               pct(static_cast<double>(n) / static_cast<double>(sum)) + ")";
    }
    out += "\n";
}

}  // namespace

std::string render_table(const report& r, const render_options& o) {
    const group t = r.total();
    std::string out = "plurnk score: " + thousands(t.turns) + " turns, " + std::to_string(r.groups.size()) + " group" +
                      (r.groups.size() == 1 ? "" : "s") + " by " + text_only(r.group_by) + ", " + bytes_text(t.bytes) + ", " +
                      thousands(t.statements) + " statements\n\n";
    rates_table(out, r, t);
    crosstab_table(out, r);
    classes_table(out, "error classes", t.errors, o.top);
    classes_table(out, "advisories", t.warnings, o.top);
    classes_table(out, "unparsedTail reasons", t.tails, o.top);
    classes_table(out, "near-misses (text that looks like a damaged statement)", t.near_misses, o.top);
    classes_table(out, "off the rail, by the rule that refused the turn", t.off_rail, o.top);
    if (r.groups.size() > 1) per_group_table(out, r, t, o.top);
    if (!t.shape.empty()) {
        out += "\nturn shape (of " + thousands(t.shape_checked) + " parse-tier turns):";
        for (const auto& [k, x] : t.shape) (out += ' ') += text_only(k) + " " + thousands(x.turns);
        out += "\n";
    }
    out += "\n";
    counts_line(out, "SEND dispositions", t.dispositions, false);
    counts_line(out, "ops", t.ops, false);
    counts_line(out, "suffixes", t.suffixes, true);
    if (r.invalid_records > 0) {
        out += "\ninvalid records: " + thousands(r.invalid_records);
        if (r.invalid_example) {
            out += " (first: " + text_only(r.invalid_example->file) + " line " + std::to_string(r.invalid_example->line) +
                   ": " + text_only(r.invalid_example->message) + ")";
        }
        out += "\n";
    }
    return out;
}
}  // namespace plurnk::score
