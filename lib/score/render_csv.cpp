// SPDX-License-Identifier: MIT
// The report as one tidy CSV: rates, classes, the cross-tab and the pairwise comparisons
// (doc/score.md, "CSV and LaTeX").
#include <string>
#include <vector>

#include "render_text.hpp"

namespace plurnk::score {

using namespace render_detail;

// ---- CSV -----------------------------------------------------------------------------------------

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

}  // namespace plurnk::score
