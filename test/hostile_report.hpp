// SPDX-License-Identifier: MIT
// Hostile text for the score report's tests (score_test.cpp, score_html_page.cpp): what a report
// may carry from its input (model names, ids, file names, messages, excerpts) or what a
// hand-edited report may try as a key, and a report built in memory with it in every string and
// every key (from_json refuses such keys; render_html and render_table must show them as text).
#pragma once

#include <string>
#include <vector>

#include "plurnk/score.hpp"

namespace plurnk::test {

// Terminal controls: an OSC title, clear screen, colours, CR LF, NUL, DEL, the C1 CSI, a bidi
// override and a byte that is not UTF-8.
inline constexpr char k_controls[] =
    "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\r\nsecond line\0nul\x7f\xc2\x9b" "31m\xe2\x80\xae" "evil\xff";

// Markup, script, attribute breaks, a javascript: URL, text already escaped, and the controls.
inline const std::vector<std::string> k_hostile = {
    "<script>document.title='PWNED'</script>",
    "\"><img src=x onerror=\"document.title='PWNED'\">",
    "'><svg onload=\"document.title='PWNED'\">",
    "</style><script>document.title='PWNED'</script>",
    "</title></head><body><script>document.title='PWNED'</script>",
    "javascript:document.title='PWNED'",
    "&lt;b&gt;already escaped&lt;/b&gt;",
    std::string(k_controls, sizeof k_controls - 1),
};

inline plurnk::score::report hostile_report() {
    namespace score = plurnk::score;
    score::report r;
    r.group_by = k_hostile[0];
    r.channels = {"gemma", k_hostile[1]};
    for (const std::string& h : k_hostile) {
        score::group& g = r.groups[h];
        g.turns = g.clean = g.shape_checked = g.statements = 2;
        const score::example ex{h, h, 1, 2, h, h};
        g.errors[h] = {1, 1, {ex}};
        g.warnings[h] = {1, 1, {ex}};
        g.tails[h] = {1, 1, {ex}};
        g.shape[h] = {1, 1, {ex}};
        g.dispositions[h] = 2;
        g.ops[h] = 1;
        g.ops["READ"] = 1;
        g.suffixes[h] = 2;
        g.rail[h] = 1;
        g.rail["gemma"] = 1;
        g.tiers[h] = 2;
    }
    r.invalid_records = 1;
    r.invalid_example = score::example{k_hostile[2], k_hostile[3], 1, 0, k_hostile[4], k_hostile[7]};
    return r;
}

}  // namespace plurnk::test
