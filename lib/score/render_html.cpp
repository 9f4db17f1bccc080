// SPDX-License-Identifier: MIT
// The report as a self-contained HTML page with inline SVG charts (admission rate per group with
// its Wilson interval, rail rates, top diagnostic classes, op mix).
#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "render_text.hpp"

namespace plurnk::score {

using namespace render_detail;

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

// The page's head: its title, its security policy (no script, no fetch) and its style sheet.
constexpr std::string_view k_page_head = R"(<!DOCTYPE html>
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

// The title and the cards of the totals.
std::string summary_section(const report& r, const group& t) {
    const rate clean = wilson(t.clean, t.turns);
    std::string h;
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
    return h;
}

// Admission per group, a bar with its interval each.
std::string admitted_section(const report& r) {
    std::string h;
    std::vector<std::pair<std::string, std::pair<std::uint64_t, std::uint64_t>>> rows;
    for (const auto& [k, g] : r.groups) rows.push_back({group_label(r, k), {g.clean, g.turns}});
    h += "<section><h2>Admitted cleanly, per " + esc(r.group_by) + "</h2>" + rate_chart(rows, "#4e79a7") +
         "<p class=\"note\">No error item and no unparsedTail. Whiskers: 95% Wilson score interval.</p></section>\n";
    return h;
}

// Admission per cell of a report grouped by two keys ("" for any other report).
std::string crosstab_section(const report& r) {
    const auto x = cross_tab_of(r);
    if (!x) return {};
    std::string h;
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
    return h;
}

// The rail: the channels' sentences are disjoint (each starts its own way), so a group's on-rail
// share is the sum; the label names the channel most of its rail turns use.
std::string rail_section(const report& r) {
    if (r.channels.empty()) return {};
    std::vector<std::pair<std::string, std::pair<std::uint64_t, std::uint64_t>>> rows;
    std::string h;
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
    return h;
}

// A kind of class, the `top_n` in most turns: a bar chart, then a table with their examples.
std::string classes_section(const char* title, const std::map<std::string, tally>& m, const char* colour, const group& t,
                            std::size_t top_n, const char* id = nullptr) {
    if (m.empty()) return {};
    const auto top = top_of(m, top_n);
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
    std::string h = std::string(id ? "<section id=\"" + std::string(id) + "\">" : "<section>") + "<h2>" + title +
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
    return h;
}

// Op mix: one 100% stacked bar per group, ops in a fixed order.
std::string op_mix_section(const report& r, const group& t) {
    if (t.statements == 0) return {};
    std::string h;
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
    return h;
}

// Turn shape and dispositions, per group.
std::string shape_section(const report& r, const group& t) {
    std::string h;
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
    return h;
}

// How many lines were not records, and the first.
std::string invalid_section(const report& r) {
    if (r.invalid_records == 0) return {};
    std::string h;
    h += "<section><h2>Invalid records</h2><p>" + thousands(r.invalid_records) + " lines were not records";
    if (r.invalid_example) {
        h += " (first: " + esc(r.invalid_example->file) + " line " + std::to_string(r.invalid_example->line) + ": " +
             esc(r.invalid_example->message) + ")";
    }
    h += ".</p></section>\n";
    return h;
}

}  // namespace

std::string render_html(const report& r, const render_options& o) {
    const group t = r.total();
    std::string h(k_page_head);
    h += summary_section(r, t) + admitted_section(r) + crosstab_section(r) + rail_section(r);
    h += classes_section("Top error classes", t.errors, "#e15759", t, o.top);
    h += classes_section("Advisories", t.warnings, "#edc948", t, o.top);
    h += classes_section("unparsedTail reasons", t.tails, "#b07aa1", t, o.top);
    h += classes_section("Near-misses: text that looks like a damaged statement", t.near_misses, "#9c755f", t, o.top,
                         "near-misses");
    h += classes_section("Off the rail: the rule that refused the turn", t.off_rail, "#76b7b2", t, o.top, "off-rail");
    if (r.groups.size() > 1) h += per_group_classes(r, t, o.top) + comparisons_section(r);
    h += op_mix_section(r, t) + shape_section(r, t) + invalid_section(r);
    h += "<p class=\"note\">Written by plurnk score. Counts merge exactly: see doc/score.md.</p></main></body></html>\n";
    return h;
}

}  // namespace plurnk::score
