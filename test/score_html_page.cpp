// SPDX-License-Identifier: MIT
// For score_html_hostile_test.py: writes the page render_html makes of a report with hostile text
// in every string and every key (test/hostile_report.hpp), which no report file can carry (from_json
// refuses such keys) but a report built in memory can.
// Usage: score_html_page OUT.html
#include <cstdio>
#include <string>

#include "hostile_report.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: score_html_page OUT.html\n");
        return 2;
    }
    const std::string html = plurnk::score::render_html(plurnk::test::hostile_report());
    std::FILE* f = std::fopen(argv[1], "wb");
    if (f == nullptr) return 1;
    const bool ok = std::fwrite(html.data(), 1, html.size(), f) == html.size();
    return std::fclose(f) == 0 && ok ? 0 : 1;
}
