// SPDX-License-Identifier: MIT
// plurnk side by side with its anchors, on the same information: for each input, in this one
// process and interleaved (one run of every job per round, best thread CPU time of N rounds each),
//   parse        plurnk::parse of the PLURNK text (the result built, no JSON)
//   parse+json   the same, then to_json of the result
//   simdjson     simdjson's DOM parser on the JSON rendering of that result (to_json, made once
//                before timing; padded and parsed by a reused parser): the same statements as
//                JSON, the fastest general parser we know of
//   floor        a scanner that only finds each `<<` opener, reads its keyword and finds its
//                close tag `:KEYWORD` with memchr/memcmp: what no parser of the language can beat
// Every rate is per PLURNK input byte, so the columns compare the same information. Ratios are to
// `parse` (above 1: slower than plurnk). Run from the top of the tree:
//   build-perf/bench/bench_compare [--reps=N]       (default 15)
// simdjson is used when the Meson feature `simdjson` found it (PLURNK_BENCH_SIMDJSON).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#ifdef PLURNK_BENCH_SIMDJSON
#include <simdjson.h>
#endif

#include "bench_util.hpp"
#include "inputs.hpp"
#include "plurnk/plurnk.hpp"

namespace {

using namespace plurnk;

// Finds every opener and its close tag; returns how many statements it found. An opener with no
// close tag ends the scan (the rest is one unclosed statement).
std::size_t floor_scan(std::string_view in) {
    std::size_t count = 0;
    const char* p = in.data();
    const char* const end = p + in.size();
    char tag[64];
    while (p < end) {
        const auto* lt = static_cast<const char*>(std::memchr(p, '<', static_cast<std::size_t>(end - p)));
        if (lt == nullptr || end - lt < 3) break;
        if (lt[1] != '<' || lt[2] < 'A' || lt[2] > 'Z') {
            p = lt + 1;
            continue;
        }
        const char* k = lt + 2;
        std::size_t n = 0;
        tag[n++] = ':';
        while (k < end && *k >= 'A' && *k <= 'Z' && n < sizeof tag) tag[n++] = *k++;
        // the close tag: ':' then the keyword, searched from after the keyword
        const char* q = k;
        for (;;) {
            const auto* c = static_cast<const char*>(std::memchr(q, ':', static_cast<std::size_t>(end - q)));
            if (c == nullptr || static_cast<std::size_t>(end - c) < n) return count;
            if (std::memcmp(c, tag, n) == 0 && c > k) {
                p = c + n;
                ++count;
                break;
            }
            q = c + 1;
        }
    }
    return count;
}

struct job {
    const char* name;
    std::function<std::size_t()> run;  // returns something derived from the work (kept alive)
    double best_ns = 1e300;
};

void compare(const char* label, const std::string& text, tier t, int reps) {
    const parse_result once = parse(text, t);
    const std::string json = to_json(once);
    std::vector<job> jobs;
    jobs.push_back({"parse", [&] { return parse(text, t).items.size(); }});
    jobs.push_back({"parse+json", [&] { return to_json(parse(text, t)).size(); }});
#ifdef PLURNK_BENCH_SIMDJSON
    simdjson::dom::parser sj;
    const simdjson::padded_string padded(json);
    simdjson::dom::element probe;
    const auto sj_error = sj.parse(padded).get(probe);
    if (sj_error != simdjson::SUCCESS) {
        std::printf("%s: simdjson refuses the JSON rendering (%s); its column is left out\n", label,
                    simdjson::error_message(sj_error));
    } else {
        jobs.push_back({"simdjson", [&] {
                            simdjson::dom::element e;
                            return sj.parse(padded).get(e) == simdjson::SUCCESS ? std::size_t{1} : std::size_t{0};
                        }});
    }
#endif
    jobs.push_back({"floor", [&] { return floor_scan(text); }});
    for (int r = 0; r < reps; ++r) {
        for (job& j : jobs) {
            const double t0 = bench::thread_cpu_ns();
            std::size_t v = j.run();
            benchmark::DoNotOptimize(v);
            j.best_ns = std::min(j.best_ns, bench::thread_cpu_ns() - t0);
        }
    }
    const double bytes = static_cast<double>(text.size());
    std::printf("%s: %zu bytes of PLURNK, %zu items, %zu bytes of JSON\n", label, text.size(), once.items.size(),
                json.size());
    std::printf("  %-11s %10s %9s %12s\n", "job", "MB/s", "ns/byte", "x parse");
    for (const job& j : jobs) {
        std::printf("  %-11s %10.1f %9.3f %12.3f\n", j.name, bytes / j.best_ns * 1e3, j.best_ns / bytes,
                    j.best_ns / jobs[0].best_ns);
    }
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 15;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a.rfind("--reps=", 0) == 0) {
            reps = std::max(1, std::atoi(argv[i] + 7));
        } else {
            std::fprintf(stderr, "usage: bench_compare [--reps=N]\n");
            return 2;
        }
    }
    compare("statements-1m", bench::data_file("statements-1m.txt"), tier::statements, reps);
    compare("statement-dense", bench::statement_dense(6000), tier::statements, reps);
    compare("body-heavy-1m", bench::body_heavy(1000000), tier::statements, reps);
    return 0;
}
