// SPDX-License-Identifier: MIT
// A report for people: a terminal table and a self-contained HTML page with inline SVG charts
// (admission rate per group with its Wilson interval, rail rates, top diagnostic classes, op mix).
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "plurnk/score.hpp"

namespace plurnk::score {

namespace {

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
std::string fit(std::string_view s, std::size_t w, bool right = false) {
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

struct ranked {
    std::string key;
    const tally* t;
};
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
    if (e.line != 0) s += " " + std::to_string(e.line) + ":" + std::to_string(e.column);
    return s;
}

// Every kind of class, by turns overall: (kind, key, tally map member).
struct any_class {
    std::uint64_t turns;
    std::string_view kind;
    std::string key;
    std::map<std::string, tally> group::*m;
};
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

}  // namespace

// ---- The table --------------------------------------------------------------------------------

std::string render_table(const report& r, const render_options& o) {
    const group t = r.total();
    std::string out = "plurnk score: " + thousands(t.turns) + " turns, " + std::to_string(r.groups.size()) + " group" +
                      (r.groups.size() == 1 ? "" : "s") + " by " + text_only(r.group_by) + ", " + bytes_text(t.bytes) + ", " +
                      thousands(t.statements) + " statements\n\n";
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
    if (const auto x = cross_tab_of(r)) {
        out += "\nclean by " + text_only(x->keys[0]) + " \u00d7 " + text_only(x->keys[1]) + " (rows: " + text_only(x->keys[0]) +
               ", columns: " + text_only(x->keys[1]) + "; share of turns admitted cleanly [95% CI] (turns))\n";
        std::string h = fit(text_only(x->keys[0]) + " \\ " + text_only(x->keys[1]), 20);
        for (const auto& c : x->cols) h += " " + fit(text_only(value_label(c)), 30, true);
        out += h + "\n" + std::string(width(h), '-') + "\n";
        for (std::size_t i = 0; i < x->rows.size(); ++i) {
            std::string line = fit(text_only(value_label(x->rows[i])), 20);
            for (std::size_t j = 0; j < x->cols.size(); ++j) line += " " + fit(cell_text(x->at(i, j), "%", "\u2013"), 30, true);
            out += line + "\n";
        }
    }

    const auto classes = [&](const char* title, const std::map<std::string, tally>& m) {
        if (m.empty()) return;
        out += "\n" + std::string(title) + " (" + std::to_string(m.size()) + " classes; by turns)\n";
        out += fit("turns", 9, true) + fit("count", 9, true) + "  " + fit("class", 28) + "  " + fit("template", 48) +
               "  example\n";
        for (const ranked& x : top_of(m, o.top)) {
            out += fit(thousands(x.t->turns), 9, true) + fit(thousands(x.t->count), 9, true) + "  " +
                   fit(text_only(x.key), 28) + "  " + fit(text_only(class_template(x.key) + near_miss_template(x.key)), 48) + "  " +
                   (x.t->examples.empty() ? "" : text_only(example_ref(x.t->examples.front()))) + "\n";
        }
    };
    classes("error classes", t.errors);
    classes("advisories", t.warnings);
    classes("unparsedTail reasons", t.tails);
    classes("near-misses (text that looks like a damaged statement)", t.near_misses);
    classes("off the rail, by the rule that refused the turn", t.off_rail);
    if (r.groups.size() > 1) {
        // The classes per group: share of the group's (parse-tier for shape) turns with each (turns).
        const auto gs = column_groups(r);
        out += "\nclasses per " + text_only(r.group_by) + " (share of the " + text_only(r.group_by) +
               "'s turns with the class, and turns; the " + std::to_string(o.top) + " in most turns)\n";
        std::string h = fit("class", 32);
        for (const auto& [k, g] : gs) h += fit(text_only(group_label(r, k)), 18, true);
        out += h + fit("total", 18, true) + "\n";
        const auto cell = [](std::uint64_t n, std::uint64_t of) {
            return fit(pct(wilson(n, of).value) + " (" + thousands(n) + ")", 18, true);
        };
        for (const any_class& c : classes_by_turns(t, o.top)) {
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
    if (!t.shape.empty()) {
        out += "\nturn shape (of " + thousands(t.shape_checked) + " parse-tier turns):";
        for (const auto& [k, x] : t.shape) out += " " + text_only(k) + " " + thousands(x.turns);
        out += "\n";
    }
    const auto counts = [&](const char* title, const std::map<std::string, std::uint64_t>& m, bool empty_is_none) {
        if (m.empty()) return;
        std::vector<std::pair<std::string, std::uint64_t>> v(m.begin(), m.end());
        std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
            return a.second != b.second ? a.second > b.second : a.first < b.first;  // ties by key
        });
        std::uint64_t sum = 0;
        for (const auto& [k, n] : v) sum += n;
        out += std::string(title) + ":";
        for (const auto& [k, n] : v) {
            out += " " + (empty_is_none && k.empty() ? std::string("(none)") : text_only(k)) + " " + thousands(n) + " (" +
                   pct(static_cast<double>(n) / static_cast<double>(sum)) + ")";
        }
        out += "\n";
    };
    out += "\n";
    counts("SEND dispositions", t.dispositions, false);
    counts("ops", t.ops, false);
    counts("suffixes", t.suffixes, true);
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

// ---- The page ---------------------------------------------------------------------------------

namespace {

// Text for the page: text_only(), then escaped for both element content and a quoted attribute
// value. Every string of the page that comes from a report goes through it.
std::string esc(std::string_view s) {
    std::string out;
    for (char c : text_only(s)) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string num(double v) { return fmt_double("%.1f", v); }

// Colours for ops: one hue each, readable on white, distinguishable in a stacked bar.
constexpr std::array k_palette = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
                                  "#ff9da7", "#9c755f", "#bab0ac", "#1f77b4", "#8c564b", "#17becf", "#bcbd22",
                                  "#7f7f7f", "#d62728"};

// Horizontal bars of rates with intervals, one row per label.
std::string rate_chart(const std::vector<std::pair<std::string, std::pair<std::uint64_t, std::uint64_t>>>& rows,
                       const char* colour) {
    const double label_w = 190, bar_w = 520, row_h = 30, top = 26;
    const double h = top + row_h * static_cast<double>(rows.size()) + 10;
    std::string s = "<svg class=\"chart\" viewBox=\"0 0 " + num(label_w + bar_w + 150) + " " + num(h) +
                    "\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">";
    for (int tick = 0; tick <= 100; tick += 25) {
        const double x = label_w + bar_w * tick / 100.0;
        s += "<line x1=\"" + num(x) + "\" y1=\"" + num(top - 6) + "\" x2=\"" + num(x) + "\" y2=\"" + num(h - 8) +
             "\" class=\"grid\"/><text x=\"" + num(x) + "\" y=\"" + num(top - 10) + "\" class=\"tick\">" +
             std::to_string(tick) + "%</text>";
    }
    double y = top;
    for (const auto& [label, kn] : rows) {
        const rate r = wilson(kn.first, kn.second);
        const double cy = y + row_h / 2;
        s += "<text x=\"" + num(label_w - 10) + "\" y=\"" + num(cy + 4) + "\" class=\"label\">" + esc(fit(text_only(label), 26)) +
             "</text>";
        s += "<rect x=\"" + num(label_w) + "\" y=\"" + num(y + 6) + "\" width=\"" + num(bar_w * r.value) +
             "\" height=\"" + num(row_h - 12) + "\" rx=\"3\" fill=\"" + colour + "\"/>";
        const double lo = label_w + bar_w * r.low, hi = label_w + bar_w * r.high;
        s += "<line x1=\"" + num(lo) + "\" y1=\"" + num(cy) + "\" x2=\"" + num(hi) + "\" y2=\"" + num(cy) +
             "\" class=\"ci\"/><line x1=\"" + num(lo) + "\" y1=\"" + num(cy - 6) + "\" x2=\"" + num(lo) + "\" y2=\"" +
             num(cy + 6) + "\" class=\"ci\"/><line x1=\"" + num(hi) + "\" y1=\"" + num(cy - 6) + "\" x2=\"" + num(hi) +
             "\" y2=\"" + num(cy + 6) + "\" class=\"ci\"/>";
        s += "<text x=\"" + num(label_w + bar_w + 10) + "\" y=\"" + num(cy + 4) + "\" class=\"value\">" + pct(r.value) +
             " <tspan class=\"n\">of " + thousands(kn.second) + "</tspan></text>";
        y += row_h;
    }
    return s + "</svg>";
}

// The classes (all kinds, the `top` in most turns) per group: the share of the group's turns
// with each (shape classes: of its parse-tier turns), and how many.
std::string per_group_classes(const report& r, const group& t, std::size_t top) {
    const auto gs = column_groups(r);
    std::string h = "<section id=\"per-group-classes\"><h2>Classes per " + esc(r.group_by) +
                    " <small>share of turns with the class (turns)</small></h2><table><tr><th>class</th>";
    for (const auto& [k, g] : gs) h += "<th class=\"r\">" + esc(clip(text_only(group_label(r, k)), 24)) + "</th>";
    h += "<th class=\"r\">total</th></tr>";
    const auto cell = [](std::uint64_t n, std::uint64_t of) {
        return "<td class=\"r\">" + pct(wilson(n, of).value) + " <span class=\"n\">(" + thousands(n) + ")</span></td>";
    };
    for (const any_class& c : classes_by_turns(t, top)) {
        h += "<tr><td><b>" + esc(c.key) + "</b> <span class=\"n\">" + esc(c.kind) + "</span></td>";
        const bool shape = c.m == &group::shape;
        for (const auto& [k, g] : gs) {
            const auto it = (g->*c.m).find(c.key);
            h += cell(it == (g->*c.m).end() ? 0 : it->second.turns, shape ? g->shape_checked : g->turns);
        }
        h += cell(c.turns, shape ? t.shape_checked : t.turns) + "</tr>";
    }
    h += "</table><p class=\"note\">";
    if (r.groups.size() > gs.size()) {
        h += "The " + std::to_string(gs.size()) + " of " + thousands(r.groups.size()) + " groups with most turns. ";
    }
    return h + "Every group's classes, with examples, are in the JSON report (<code>--json</code>).</p></section>\n";
}

// A class's examples: where, the rendered message, and the excerpt's lines (the example's line
// marked), each line as text.
std::string examples_html(const tally& t) {
    std::string h;
    for (const example& e : t.examples) {
        h += "<div class=\"ex\"><span class=\"n\">" + esc(example_ref(e)) + "</span> " + esc(e.message);
        if (!e.excerpt.empty()) {
            h += "<pre>";
            std::string_view rest = e.excerpt;
            // The example's line is the second when there is a line before it (line > 1).
            const std::size_t mark = e.line > 1 ? 1 : 0;
            for (std::size_t i = 0; !rest.empty() || i == 0; ++i) {
                const std::size_t nl = rest.find('\n');
                const std::string_view ln = rest.substr(0, nl);
                h += (i == mark ? "<mark>" : "<span>") + esc(ln) + (i == mark ? "</mark>" : "</span>") + "\n";
                rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
                if (nl == std::string_view::npos) break;
            }
            h += "</pre>";
        }
        h += "</div>";
    }
    return h;
}

// Pairwise differences between the groups, with intervals and Holm-adjusted p-values.
std::string comparisons_section(const report& r) {
    const std::vector<comparison> cs = compare_groups(r);
    std::string h = "<section id=\"comparisons\"><h2>Pairwise differences <small>" + esc(r.group_by) +
                    " a minus b</small></h2>";
    if (cs.empty()) {
        return h + "<p class=\"note\">Not compared: more than " + std::to_string(k_compared_groups) +
               " groups have turns.</p></section>\n";
    }
    h += "<table><tr><th>metric</th><th>a</th><th>b</th><th class=\"r\">a</th><th class=\"r\">b</th>"
         "<th class=\"r\">a &minus; b [95% CI]</th><th class=\"r\">p</th><th class=\"r\">p (Holm)</th></tr>";
    for (const comparison& c : cs) {
        const auto share = [](std::uint64_t k, std::uint64_t n) {
            return pct(wilson(k, n).value) + " <span class=\"n\">(" + thousands(k) + "/" + thousands(n) + ")</span>";
        };
        const auto pts = [](double d) { return fmt_double("%+.1f", d * 100); };
        h += "<tr><td>" + esc(c.metric) + "</td><td>" + esc(clip(text_only(group_label(r, c.a)), 24)) + "</td><td>" +
             esc(clip(text_only(group_label(r, c.b)), 24)) + "</td><td class=\"r\">" + share(c.a_count, c.a_turns) +
             "</td><td class=\"r\">" + share(c.b_count, c.b_turns) + "</td><td class=\"r\">" + pts(c.difference) + " [" +
             pts(c.low) + ", " + pts(c.high) + "]</td><td class=\"r\">" + fmt_double("%.2g", c.p) +
             "</td><td class=\"r\">" + (c.p_holm < 0.05 ? "<b>" : "") + fmt_double("%.2g", c.p_holm) +
             (c.p_holm < 0.05 ? "</b>" : "") + "</td></tr>";
    }
    return h + "</table><p class=\"note\">Differences in percentage points of the groups' turns (shape classes: of "
               "their parse-tier turns). Interval: Newcombe's hybrid score interval (95%, per comparison). p: two-sided "
               "two-proportion z test; p (Holm): adjusted by Holm's step-down method over all " +
               std::to_string(cs.size()) + " comparisons (bold: below 0.05).</p></section>\n";
}

}  // namespace

std::string render_html(const report& r, const render_options& o) {
    const group t = r.total();
    const rate clean = wilson(t.clean, t.turns);
    std::string h = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>plurnk score</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
:root { --ink:#1d2330; --muted:#667085; --line:#e4e7ec; --bg:#f7f8fa; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink); font:15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 28px 28px 48px; }
h1 { font-size: 26px; margin: 0 0 4px; letter-spacing: -0.01em; }
h2 { font-size: 17px; margin: 0 0 12px; }
.sub { color: var(--muted); margin: 0 0 22px; }
.cards { display: grid; grid-template-columns: repeat(4, 1fr); gap: 14px; margin-bottom: 22px; }
.card, section { background: #fff; border: 1px solid var(--line); border-radius: 10px; }
.card { padding: 14px 16px; }
.card .k { color: var(--muted); font-size: 13px; }
.card .v { font-size: 26px; font-weight: 650; }
.card .v small { font-size: 13px; color: var(--muted); font-weight: 400; }
section { padding: 18px 20px; margin-bottom: 18px; }
.chart { width: 100%; height: auto; display: block; }
.chart text { font-size: 13px; fill: var(--ink); }
.chart .label { text-anchor: end; }
.chart .tick { text-anchor: middle; fill: var(--muted); font-size: 11px; }
.chart .grid { stroke: var(--line); }
.chart .ci { stroke: #1d2330; stroke-width: 1.6; }
.chart .n { fill: var(--muted); font-size: 12px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.r, th.r { text-align: right; font-variant-numeric: tabular-nums; }
code { font: 12px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; background: #f1f3f6; padding: 1px 4px; border-radius: 4px; word-break: break-all; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 14px; margin-top: 8px; font-size: 12px; color: var(--muted); }
.legend i { display: inline-block; width: 11px; height: 11px; border-radius: 2px; margin-right: 5px; vertical-align: -1px; }
.two { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
h2 small { font-weight: 400; color: var(--muted); font-size: 13px; }
.note { color: var(--muted); font-size: 12px; margin: 8px 0 0; }
td .n { color: var(--muted); font-size: 12px; }
.ex { margin: 0 0 8px; }
.ex pre { margin: 3px 0 0; padding: 4px 6px; background: #f1f3f6; border-radius: 4px; font: 12px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; white-space: pre-wrap; word-break: break-all; }
.ex mark { background: #ffe8a3; }
</style></head><body><main>
)";
    h += "<h1>plurnk score</h1><p class=\"sub\">" + thousands(t.turns) + " turns in " + std::to_string(r.groups.size()) +
         " group" + (r.groups.size() == 1 ? "" : "s") + " by <b>" + esc(r.group_by) + "</b> &middot; " +
         bytes_text(t.bytes) + " &middot; " + thousands(t.statements) + " statements</p>\n";
    std::uint64_t on_rail = 0;
    for (const std::string& c : r.channels) on_rail += get(t.rail, c);
    const auto card = [&](const std::string& k, const std::string& v, const std::string& small) {
        h += "<div class=\"card\"><div class=\"k\">" + k + "</div><div class=\"v\">" + v + " <small>" + small +
             "</small></div></div>";
    };
    h += "<div class=\"cards\">";
    card("admitted cleanly", pct(clean.value), pct(clean.low) + "&ndash;" + pct(clean.high));
    card("turns with an error", pct(wilson(t.turns_with_errors, t.turns).value), thousands(t.turns_with_errors));
    card("with an unparsedTail", pct(wilson(t.turns_with_tail, t.turns).value), thousands(t.turns_with_tail));
    card("on the GBNF rail", pct(wilson(on_rail, t.turns).value), thousands(on_rail));
    h += "</div>\n";

    std::vector<std::pair<std::string, std::pair<std::uint64_t, std::uint64_t>>> rows;
    for (const auto& [k, g] : r.groups) rows.push_back({group_label(r, k), {g.clean, g.turns}});
    h += "<section><h2>Admitted cleanly, per " + esc(r.group_by) + "</h2>" + rate_chart(rows, "#4e79a7") +
         "<p class=\"note\">No error item and no unparsedTail. Whiskers: 95% Wilson score interval.</p></section>\n";
    if (const auto x = cross_tab_of(r)) {
        h += "<section id=\"crosstab\"><h2>Admitted cleanly, by " + esc(x->keys[0]) + " \u00d7 " + esc(x->keys[1]) +
             "</h2><table><tr><th>" + esc(x->keys[0]) + " \\ " + esc(x->keys[1]) + "</th>";
        for (const auto& c : x->cols) h += "<th class=\"r\">" + esc(clip(text_only(value_label(c)), 24)) + "</th>";
        h += "</tr>";
        for (std::size_t i = 0; i < x->rows.size(); ++i) {
            h += "<tr><td>" + esc(clip(text_only(value_label(x->rows[i])), 24)) + "</td>";
            for (std::size_t j = 0; j < x->cols.size(); ++j) h += "<td class=\"r\">" + esc(cell_text(x->at(i, j), "%", "\u2013")) + "</td>";
            h += "</tr>";
        }
        h += "</table><p class=\"note\">Rows: " + esc(x->keys[0]) + "; columns: " + esc(x->keys[1]) +
             ". Each cell: the share of its turns admitted cleanly [95% Wilson score interval] (turns).</p></section>\n";
    }

    // The rail: the channels' sentences are disjoint (each starts its own way), so a group's
    // on-rail share is the sum; the label names the channel most of its rail turns use.
    if (!r.channels.empty()) {
        rows.clear();
        for (const auto& [k, g] : r.groups) {
            std::uint64_t on = 0, most = 0;
            std::string used;
            for (const std::string& c : r.channels) {
                on += get(g.rail, c);
                if (get(g.rail, c) > most) most = get(g.rail, c), used = c;
            }
            rows.push_back({group_label(r, k) + (used.empty() ? "" : " \u00b7 " + used), {on, g.turns}});
        }
        std::string list;
        for (const std::string& c : r.channels) list += (list.empty() ? "" : ", ") + esc(c);
        h += "<section><h2>On the GBNF rail, per " + esc(r.group_by) + "</h2>" + rate_chart(rows, "#59a14f") +
             "<p class=\"note\">Turns that are sentences of <code>plurnk gbnf --channel=C</code> byte for byte, for C in " +
             list + " (label: the channel used most).</p></section>\n";
    }

    // Top diagnostic classes, by turns.
    const auto classes = [&](const char* title, const std::map<std::string, tally>& m, const char* colour,
                             const char* id = nullptr) {
        if (m.empty()) return;
        const auto top = top_of(m, o.top);
        const double max = static_cast<double>(top.front().t->turns);
        const double row_h = 26, label_w = 430, bar_w = 330;
        std::string s = "<svg class=\"chart\" viewBox=\"0 0 " + num(label_w + bar_w + 110) + " " +
                        num(row_h * static_cast<double>(top.size()) + 8) + "\" xmlns=\"http://www.w3.org/2000/svg\">";
        double y = 4;
        for (const ranked& x : top) {
            const double w = max > 0 ? bar_w * static_cast<double>(x.t->turns) / max : 0;
            s += "<text x=\"" + num(label_w - 10) + "\" y=\"" + num(y + 17) + "\" class=\"label\">" +
                 esc(fit(text_only(x.key), 58)) + "</text><rect x=\"" + num(label_w) + "\" y=\"" + num(y + 5) +
                 "\" width=\"" + num(std::max(w, 1.0)) + "\" height=\"" + num(row_h - 9) + "\" rx=\"3\" fill=\"" +
                 colour + "\"/><text x=\"" + num(label_w + w + 8) + "\" y=\"" + num(y + 17) + "\" class=\"value\">" +
                 thousands(x.t->turns) + " <tspan class=\"n\">" + pct(wilson(x.t->turns, t.turns).value) +
                 "</tspan></text>";
            y += row_h;
        }
        h += std::string(id ? "<section id=\"" + std::string(id) + "\">" : "<section>") + "<h2>" + title +
             " <small class=\"n\">by turns</small></h2>" + s + "</svg>";
        h += "<table><tr><th class=\"r\">turns</th><th class=\"r\">count</th><th>class</th><th>examples</th></tr>";
        for (const ranked& x : top) {
            h += "<tr><td class=\"r\">" + thousands(x.t->turns) + "</td><td class=\"r\">" + thousands(x.t->count) +
                 "</td><td><b>" + esc(x.key) + "</b></td><td>" + examples_html(*x.t) + "</td></tr>";
        }
        h += "</table><p class=\"note\">" + std::to_string(m.size()) +
             " classes in all; bars count turns with at least one. Examples: up to " + std::to_string(k_examples) +
             " turns with the class, a seeded sample (doc/score.md), each with its message and the lines around "
             "it.</p></section>\n";
    };
    classes("Top error classes", t.errors, "#e15759");
    classes("Advisories", t.warnings, "#edc948");
    classes("unparsedTail reasons", t.tails, "#b07aa1");
    classes("Near-misses: text that looks like a damaged statement", t.near_misses, "#9c755f", "near-misses");
    classes("Off the rail: the rule that refused the turn", t.off_rail, "#76b7b2", "off-rail");
    if (r.groups.size() > 1) h += per_group_classes(r, t, o.top) + comparisons_section(r);

    // Op mix: one 100% stacked bar per group, ops in a fixed order.
    if (t.statements > 0) {
        std::vector<std::string> ops;
        for (int i = 0; i < k_op_count; ++i) {
            const std::string name = op_name(static_cast<op>(i));
            if (get(t.ops, name) > 0) ops.push_back(name);
        }
        const double label_w = 190, bar_w = 640, row_h = 30;
        std::vector<std::pair<std::string, const group*>> gs;
        for (const auto& [k, g] : r.groups) gs.push_back({group_label(r, k), &g});
        if (r.groups.size() > 1) gs.push_back({"total", &t});
        std::string s = "<svg class=\"chart\" viewBox=\"0 0 " + num(label_w + bar_w + 20) + " " +
                        num(row_h * static_cast<double>(gs.size()) + 6) + "\" xmlns=\"http://www.w3.org/2000/svg\">";
        double y = 3;
        for (const auto& [label, g] : gs) {
            s += "<text x=\"" + num(label_w - 10) + "\" y=\"" + num(y + 19) + "\" class=\"label\">" + esc(fit(text_only(label), 26)) +
                 "</text>";
            double x = label_w;
            for (std::size_t i = 0; i < ops.size(); ++i) {
                const std::uint64_t n = get(g->ops, ops[i]);
                if (n == 0 || g->statements == 0) continue;
                const double w = bar_w * static_cast<double>(n) / static_cast<double>(g->statements);
                s += "<rect x=\"" + num(x) + "\" y=\"" + num(y + 5) + "\" width=\"" + num(w) + "\" height=\"" +
                     num(row_h - 10) + "\" fill=\"" + k_palette[i % k_palette.size()] + "\"><title>" + esc(ops[i]) + " " +
                     thousands(n) + "</title></rect>";
                if (w > 34) {
                    s += "<text x=\"" + num(x + w / 2) + "\" y=\"" + num(y + 19) +
                         "\" text-anchor=\"middle\" style=\"fill:#fff;font-size:11px\">" + esc(ops[i]) + "</text>";
                }
                x += w;
            }
            y += row_h;
        }
        h += "<section><h2>Op mix</h2>" + s + "</svg><div class=\"legend\">";
        for (std::size_t i = 0; i < ops.size(); ++i) {
            h += std::string("<span><i style=\"background:") + k_palette[i % k_palette.size()] + "\"></i>" + esc(ops[i]) +
                 " " + pct(static_cast<double>(get(t.ops, ops[i])) / static_cast<double>(t.statements)) + "</span>";
        }
        h += "</div></section>\n";
    }

    // Turn shape and dispositions, per group.
    h += "<section><h2>Turn shape and SEND dispositions</h2><table><tr><th>" + esc(r.group_by) +
         "</th><th class=\"r\">turns</th>";
    const std::array<std::string_view, 3> shapes = {k_shape_no_plan_first, k_shape_no_terminal_send,
                                                    k_shape_ops_after_send};
    for (std::string_view k : shapes) h += "<th class=\"r\">" + esc(k) + "</th>";
    std::vector<std::string> codes;
    for (const auto& [k, n] : t.dispositions) codes.push_back(k);
    for (const std::string& c : codes) h += "<th class=\"r\">" + (c == "none" ? std::string("no SEND") : "[" + esc(c) + "]") + "</th>";
    h += "</tr>";
    const auto shape_row = [&](const std::string& label, const group& g) {
        h += "<tr><td>" + esc(label) + "</td><td class=\"r\">" + thousands(g.turns) + "</td>";
        for (std::string_view k : shapes) {
            const auto it = g.shape.find(std::string(k));
            const std::uint64_t n = it == g.shape.end() ? 0 : it->second.turns;
            h += "<td class=\"r\">" + pct(wilson(n, g.shape_checked).value) + "</td>";
        }
        for (const std::string& c : codes) h += "<td class=\"r\">" + pct(wilson(get(g.dispositions, c), g.shape_checked).value) + "</td>";
        h += "</tr>";
    };
    for (const auto& [k, g] : r.groups) shape_row(group_label(r, k), g);
    if (r.groups.size() > 1) shape_row("total", t);
    h += "</table><p class=\"note\">Shares of the " + thousands(t.shape_checked) +
         " parse-tier turns (the turn shape applies to them).</p></section>\n";
    if (r.invalid_records > 0) {
        h += "<section><h2>Invalid records</h2><p>" + thousands(r.invalid_records) + " lines were not records";
        if (r.invalid_example) {
            h += " (first: " + esc(r.invalid_example->file) + " line " + std::to_string(r.invalid_example->line) + ": " +
                 esc(r.invalid_example->message) + ")";
        }
        h += ".</p></section>\n";
    }
    h += "<p class=\"note\">Written by plurnk score. Counts merge exactly: see doc/score.md.</p></main></body></html>\n";
    return h;
}

// ---- CSV and LaTeX -----------------------------------------------------------------------------

namespace {

// A CSV field (RFC 4180): text_only(), quoted when it holds a comma, a quote or a space at an end.
std::string csv_field(std::string_view s) {
    std::string t = text_only(s);
    if (t.find_first_of(",\"") == std::string::npos && (t.empty() || (t.front() != ' ' && t.back() != ' '))) return t;
    std::string q = "\"";
    for (char c : t) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string six(double d) { return fmt_double("%.6f", d); }

// The rows of the "rates" tables of a group: clean, errors, warnings, tail and each rail channel.
void csv_rates(std::string& out, const char* table, const std::string& key, const group& g,
               const std::vector<std::string>& channels) {
    const auto row = [&](const std::string& metric, std::uint64_t k, std::uint64_t n) {
        const rate x = wilson(k, n);
        out += std::string(table) + "," + csv_field(key) + ",," + csv_field(metric) + "," + std::to_string(k) + "," +
               std::to_string(n) + ",,,," + six(x.value) + "," + six(x.low) + "," + six(x.high) + ",,\n";
    };
    row("clean", g.clean, g.turns);
    row("errors", g.turns_with_errors, g.turns);
    row("warnings", g.turns_with_warnings, g.turns);
    row("tail", g.turns_with_tail, g.turns);
    for (const std::string& c : channels) row("rail/" + c, get(g.rail, c), g.turns);
}

// The rows of the "classes" tables of a group: every class of every kind.
void csv_classes(std::string& out, const char* table, const std::string& key, const group& g) {
    const std::pair<std::string_view, const std::map<std::string, tally>*> kinds[] = {
        {"errors", &g.errors}, {"warnings", &g.warnings}, {"tails", &g.tails}, {"shape", &g.shape},
        {"nearMisses", &g.near_misses}, {"offRail", &g.off_rail}};
    for (const auto& [kind, m] : kinds) {
        const std::uint64_t n = kind == "shape" ? g.shape_checked : g.turns;
        for (const auto& [k, x] : *m) {
            const rate w = wilson(x.turns, n);
            out += std::string(table) + "," + csv_field(key) + ",," + csv_field(std::string(kind) + "/" + k) + "," +
                   std::to_string(x.turns) + "," + std::to_string(n) + "," + std::to_string(x.count) + ",,," + six(w.value) +
                   "," + six(w.low) + "," + six(w.high) + ",,\n";
        }
    }
}

// LaTeX text: text_only(), then each character special to LaTeX as a command.
std::string tex(std::string_view s) {
    std::string out;
    for (char c : text_only(s)) {
        switch (c) {
            case '\\': out += "\\textbackslash{}"; break;
            case '{': out += "\\{"; break;
            case '}': out += "\\}"; break;
            case '&': out += "\\&"; break;
            case '%': out += "\\%"; break;
            case '$': out += "\\$"; break;
            case '#': out += "\\#"; break;
            case '_': out += "\\_"; break;
            case '~': out += "\\textasciitilde{}"; break;
            case '^': out += "\\textasciicircum{}"; break;
            case '<': out += "\\textless{}"; break;
            case '>': out += "\\textgreater{}"; break;
            default: out += c;
        }
    }
    return out;
}

std::string tex_pct(double v) { return fmt_double("%.1f", v * 100) + "\\%"; }

}  // namespace

std::string render_csv(const report& r, const render_options&) {
    std::string out = "table,group,other,metric,count,of,events,other_count,other_of,value,low,high,p,p_holm\n";
    const group t = r.total();
    csv_rates(out, "total_rates", "", t, r.channels);
    for (const auto& [k, g] : r.groups) csv_rates(out, "rates", k, g, r.channels);
    csv_classes(out, "total_classes", "", t);
    for (const auto& [k, g] : r.groups) csv_classes(out, "classes", k, g);
    if (const auto x = cross_tab_of(r)) {
        // The cross-tab: a row per cell with turns (a missing value as an empty field).
        for (std::size_t i = 0; i < x->rows.size(); ++i) {
            for (std::size_t j = 0; j < x->cols.size(); ++j) {
                const group* g = x->at(i, j);
                if (g == nullptr) continue;
                const rate c = wilson(g->clean, g->turns);
                out += "crosstab," + csv_field(x->rows[i].value_or("")) + "," + csv_field(x->cols[j].value_or("")) + ",clean," +
                       std::to_string(g->clean) + "," + std::to_string(g->turns) + ",,,," + six(c.value) + "," + six(c.low) + "," +
                       six(c.high) + ",,\n";
            }
        }
    }
    for (const comparison& c : compare_groups(r)) {
        out += "comparisons," + csv_field(c.a) + "," + csv_field(c.b) + "," + csv_field(c.metric) + "," +
               std::to_string(c.a_count) + "," + std::to_string(c.a_turns) + ",," + std::to_string(c.b_count) + "," +
               std::to_string(c.b_turns) + "," + six(c.difference) + "," + six(c.low) + "," + six(c.high) + "," + six(c.p) +
               "," + six(c.p_holm) + "\n";
    }
    return out;
}

std::string render_latex(const report& r, const render_options& o) {
    const group t = r.total();
    const auto gs = column_groups(r);
    std::string out = "% plurnk score: " + std::to_string(t.turns) + " turns by " + tex(r.group_by) +
                      " (booktabs tables; doc/score.md)\n";
    // Rates per group.
    out += "\\begin{table}[ht]\\centering\n\\begin{tabular}{lrrrr" + std::string(r.channels.size(), 'r') + "}\n\\toprule\n" +
           tex(r.group_by) + " & turns & clean [95\\% CI] & errors & tail";
    for (const std::string& c : r.channels) out += " & rail " + tex(c);
    out += " \\\\\n\\midrule\n";
    const auto rate_row = [&](const std::string& label, const group& g) {
        const rate c = wilson(g.clean, g.turns);
        out += tex(label) + " & " + std::to_string(g.turns) + " & " + tex_pct(c.value) + " [" + tex_pct(c.low) + ", " +
               tex_pct(c.high) + "] & " + tex_pct(wilson(g.turns_with_errors, g.turns).value) + " & " +
               tex_pct(wilson(g.turns_with_tail, g.turns).value);
        for (const std::string& ch : r.channels) out += " & " + tex_pct(wilson(get(g.rail, ch), g.turns).value);
        out += " \\\\\n";
    };
    for (const auto& [k, g] : r.groups) rate_row(group_label(r, k), g);
    if (r.groups.size() > 1) out += "\\midrule\n", rate_row("total", t);
    out += "\\bottomrule\n\\end{tabular}\n\\caption{Turns admitted cleanly (95\\% Wilson interval), with an error item, "
           "with an unparsed tail, and on each rail channel.}\n\\end{table}\n";
    if (const auto x = cross_tab_of(r)) {
        out += "\n\\begin{table}[ht]\\centering\n\\begin{tabular}{l" + std::string(x->cols.size(), 'r') + "}\n\\toprule\n" +
               tex(x->keys[0]) + " $\\backslash$ " + tex(x->keys[1]);
        for (const auto& c : x->cols) out += " & " + tex(value_label(c));
        out += " \\\\\n\\midrule\n";
        for (std::size_t i = 0; i < x->rows.size(); ++i) {
            out += tex(value_label(x->rows[i]));
            for (std::size_t j = 0; j < x->cols.size(); ++j) out += " & " + cell_text(x->at(i, j), "\\%", ", ");
            out += " \\\\\n";
        }
        out += "\\bottomrule\n\\end{tabular}\n\\caption{Turns admitted cleanly by " + tex(x->keys[0]) + " (rows) and " +
               tex(x->keys[1]) + " (columns): share [95\\% Wilson interval] (turns).}\n\\end{table}\n";
    }
    // Classes per group.
    const auto cls = classes_by_turns(t, o.top);
    if (!cls.empty()) {
        out += "\n\\begin{table}[ht]\\centering\n\\begin{tabular}{l" + std::string(gs.size() + 1, 'r') + "}\n\\toprule\nclass";
        for (const auto& [k, g] : gs) out += " & " + tex(group_label(r, k));
        out += " & total \\\\\n\\midrule\n";
        for (const any_class& c : cls) {
            const bool shape = c.m == &group::shape;
            out += "\\texttt{" + tex(c.key) + "}";
            for (const auto& [k, g] : gs) {
                const auto it = (g->*c.m).find(c.key);
                out += " & " + tex_pct(wilson(it == (g->*c.m).end() ? 0 : it->second.turns, shape ? g->shape_checked : g->turns).value);
            }
            out += " & " + tex_pct(wilson(c.turns, shape ? t.shape_checked : t.turns).value) + " \\\\\n";
        }
        out += "\\bottomrule\n\\end{tabular}\n\\caption{Share of turns with each class (shape classes: of the "
               "parse-tier turns).}\n\\end{table}\n";
    }
    // Off the rail, by the rule that refused the turn.
    const auto off = top_of(t.off_rail, o.top);
    if (!off.empty()) {
        out += "\n\\begin{table}[ht]\\centering\n\\begin{tabular}{l" + std::string(gs.size() + 1, 'r') + "}\n\\toprule\nrule";
        for (const auto& [k, g] : gs) out += " & " + tex(group_label(r, k));
        out += " & total \\\\\n\\midrule\n";
        for (const ranked& x : off) {
            out += "\\texttt{" + tex(x.key) + "}";
            for (const auto& [k, g] : gs) {
                const auto it = g->off_rail.find(x.key);
                out += " & " + tex_pct(wilson(it == g->off_rail.end() ? 0 : it->second.turns, g->turns).value);
            }
            out += " & " + tex_pct(wilson(x.t->turns, t.turns).value) + " \\\\\n";
        }
        out += "\\bottomrule\n\\end{tabular}\n\\caption{Share of turns off every checked rail, by the rail rule that "
               "refused them.}\n\\end{table}\n";
    }
    // Pairwise differences.
    const std::vector<comparison> cs = compare_groups(r);
    if (!cs.empty()) {
        const auto pts = [](double d) { return fmt_double("%+.1f", d * 100); };
        out += "\n\\begin{table}[ht]\\centering\n\\begin{tabular}{lllrrrr}\n\\toprule\nmetric & a & b & a & b & "
               "a $-$ b [95\\% CI] & $p_{\\mathrm{Holm}}$ \\\\\n\\midrule\n";
        for (const comparison& c : cs) {
            out += "\\texttt{" + tex(c.metric) + "} & " + tex(group_label(r, c.a)) + " & " + tex(group_label(r, c.b)) + " & " +
                   tex_pct(wilson(c.a_count, c.a_turns).value) + " & " + tex_pct(wilson(c.b_count, c.b_turns).value) + " & " +
                   pts(c.difference) + " [" + pts(c.low) + ", " + pts(c.high) + "] & " + fmt_double("%.2g", c.p_holm) +
                   " \\\\\n";
        }
        out += "\\bottomrule\n\\end{tabular}\n\\caption{Pairwise differences in percentage points, with Newcombe's "
               "hybrid score interval (95\\%); $p$ of a two-sided two-proportion $z$ test, Holm-adjusted over all " +
               std::to_string(cs.size()) + " comparisons.}\n\\end{table}\n";
    }
    return out;
}

}  // namespace plurnk::score
