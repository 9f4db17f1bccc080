// SPDX-License-Identifier: MIT
// The report as LaTeX: booktabs tables of the rates, the cross-tab, the classes, the off-rail
// rules and the pairwise comparisons (doc/score.md).
#include <string>
#include <vector>

#include "render_text.hpp"

namespace plurnk::score {

using namespace render_detail;

// ---- LaTeX ---------------------------------------------------------------------------------------

namespace {

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

// Admission per cell of a report grouped by two keys (nothing for any other report).
void crosstab_table(std::string& out, const report& r) {
    const auto x = cross_tab_of(r);
    if (!x) return;
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

// Pairwise differences, with their intervals and Holm-adjusted p-values.
void comparisons_table(std::string& out, const report& r) {
    const std::vector<comparison> cs = compare_groups(r);
    if (cs.empty()) return;
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

}  // namespace

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
    crosstab_table(out, r);
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
    comparisons_table(out, r);
    return out;
}

}  // namespace plurnk::score
