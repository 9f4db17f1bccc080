// SPDX-License-Identifier: MIT
// `plurnk bench [--tier=T] [--repeat=N] [--json] FILE...`: parses each file repeatedly in this
// one process and prints, per file, the best and median wall time of one parse, the throughput
// in MB/s (10^6 bytes per second, from the best run), nanoseconds per statement and the result's
// statements, error items, warnings and text items counted apart; it warns on standard error
// when a file parses with errors (likely the wrong --tier: the figures then time recovery, not
// parsing) and when the median is far above the best (a noisy machine); then the process's peak resident memory (getrusage ru_maxrss). With --json
// each run also serializes the result (to_json) and a second line reports that step alone.
// Without --repeat the count is chosen so each file runs for about half a second (at least 5).
// The first parse of each file is a warm-up and is not timed.
// With --chunk=N each run also feeds the file to a stream_parser in N-byte pieces, right after the
// one-shot parse of the same run (interleaved, so load affects both alike), and a line per file
// gives `streamed/one-shot: R x`: the ratio of the best CPU times (this thread's CPU clock).
#include <fmt/core.h>

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <string>
#include <vector>

#include "commands.hpp"
#include "plurnk/plurnk.hpp"

namespace plurnk::cli {

namespace {

using clock_type = std::chrono::steady_clock;

constexpr double k_auto_seconds = 0.5;
constexpr std::size_t k_min_repeat = 5;
constexpr std::size_t k_max_repeat = 1'000'000;

// Above this median/best ratio the runs disagree too much for the figures to mean much.
constexpr double k_noisy_spread = 1.25;

struct counts {
    std::size_t statements = 0;
    std::size_t errors = 0;
    std::size_t warnings = 0;
    std::size_t texts = 0;
    bool tail = false;  // an unparsedTail
};

counts count_items(const parse_result& r) {
    counts c;
    for (const item& it : r.items) {
        if (std::holds_alternative<statement>(it)) {
            ++c.statements;
        } else if (const auto* d = std::get_if<diagnostic>(&it)) {
            ++(d->severity == severity::error ? c.errors : c.warnings);
        } else {
            ++c.texts;
        }
    }
    c.tail = r.tail.has_value();
    return c;
}

struct timing {
    double best_ns = 0;
    double median_ns = 0;
};

timing summarize(std::vector<double>& ns) {
    std::sort(ns.begin(), ns.end());
    return timing{ns.front(), ns[ns.size() / 2]};
}

double elapsed_ns(clock_type::time_point a, clock_type::time_point b) {
    return std::chrono::duration<double, std::nano>(b - a).count();
}

// This thread's CPU time in nanoseconds: what the streamed/one-shot ratio compares.
double cpu_ns() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

// Feeds `input` to a stream parser in `chunk`-byte pieces and returns finish()'s result. With
// `events`, a callback counts the items as they settle (a stream with none batches its work).
parse_result parse_streamed(std::string_view input, plurnk::tier tier, const plurnk::parse_options& options,
                            std::size_t chunk, bool events) {
    stream_parser stream(tier, options);
    std::size_t settled = 0;
    if (events) stream.set_callback([&settled](const plurnk::stream_event&) { ++settled; });
    for (std::size_t at = 0; at < input.size(); at += chunk) stream.feed(input.substr(at, chunk));
    parse_result r = stream.finish();
    if (events && settled != r.items.size()) print_error("internal error: the stream did not report every item once");
    return r;
}

// "1.23 µs" style, three significant figures.
std::string human_ns(double ns) {
    if (ns < 1e3) return fmt::format("{:.0f} ns", ns);
    if (ns < 1e6) return fmt::format("{:.3g} µs", ns / 1e3);
    if (ns < 1e9) return fmt::format("{:.3g} ms", ns / 1e6);
    return fmt::format("{:.3g} s", ns / 1e9);
}

}  // namespace

int cmd_bench(const args& a) {
    plurnk::tier tier = plurnk::tier::parse;
    plurnk::parse_options options;
    std::size_t repeat = 0;  // 0: automatic
    bool with_json = false;
    bool events = false;
    std::size_t chunk = 0;  // 0: no streamed runs
    std::vector<std::string> files;
    for (const auto& x : a) {
        int status = 0;
        if (dialect_option(x, options.dialect, status)) {
            if (status != 0) return status;
        } else if (x.rfind("--tier=", 0) == 0) {
            const auto t = plurnk::tier_from_name(std::string_view(x).substr(7));
            if (!t) return usage_error(fmt::format("unknown tier '{}' (expected parse, statements, log or client)", x.substr(7)));
            tier = *t;
        } else if (x.rfind("--repeat=", 0) == 0) {
            const std::string_view v = std::string_view(x).substr(9);
            std::size_t n = 0;
            const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (ec != std::errc() || ptr != v.data() + v.size() || n == 0 || n > k_max_repeat) {
                return usage_error(fmt::format("--repeat expects a count from 1 to {}", k_max_repeat));
            }
            repeat = n;
        } else if (x.rfind("--chunk=", 0) == 0) {
            const std::string_view v = std::string_view(x).substr(8);
            std::size_t n = 0;
            const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (ec != std::errc() || ptr != v.data() + v.size() || n == 0) {
                return usage_error("--chunk expects a positive number of bytes");
            }
            chunk = n;
        } else if (x == "--json") {
            with_json = true;
        } else if (x == "--events") {
            events = true;
        } else if (x == "-" || x.rfind('-', 0) != 0) {
            files.push_back(x);
        } else {
            return usage_error(fmt::format("unknown option '{}'", x));
        }
    }
    if (files.empty()) return usage_error("bench needs at least one FILE");
    if (events && chunk == 0) return usage_error("--events needs --chunk");

    if (!write_stdout(fmt::format("tier {}{}\n", plurnk::tier_name(tier), with_json ? ", with to_json" : ""))) return 2;
    for (const auto& path : files) {
        std::string input;
        if (!read_input(path, input)) return 2;

        // Warm-up, and the counts (the same on every run).
        const auto t0 = clock_type::now();
        counts c;
        std::size_t json_bytes = 0;
        {
            const parse_result r = plurnk::parse(input, tier, options);
            c = count_items(r);
            if (with_json) json_bytes = plurnk::to_json(r).size();
            if (chunk != 0) (void)parse_streamed(input, tier, options, chunk, events);
        }
        const double first_ns = elapsed_ns(t0, clock_type::now());
        std::size_t n = repeat;
        if (n == 0) {
            const double per = std::max(first_ns, 1.0);
            n = std::clamp(static_cast<std::size_t>(k_auto_seconds * 1e9 / per), k_min_repeat, k_max_repeat);
        }

        std::vector<double> parse_ns, json_ns, oneshot_cpu_ns, stream_cpu_ns;
        parse_ns.reserve(n);
        if (with_json) json_ns.reserve(n);
        if (chunk != 0) {
            oneshot_cpu_ns.reserve(n);
            stream_cpu_ns.reserve(n);
        }
        std::string out;
        for (std::size_t i = 0; i < n; ++i) {
            const double c0 = cpu_ns();
            const auto a0 = clock_type::now();
            const parse_result r = plurnk::parse(input, tier, options);
            const auto a1 = clock_type::now();
            const double c1 = cpu_ns();
            parse_ns.push_back(elapsed_ns(a0, a1));
            if (chunk != 0) {
                oneshot_cpu_ns.push_back(c1 - c0);
                const double s0 = cpu_ns();
                const parse_result streamed = parse_streamed(input, tier, options, chunk, events);
                stream_cpu_ns.push_back(cpu_ns() - s0);
            }
            if (with_json) {
                out.clear();
                const auto b0 = clock_type::now();
                plurnk::append_json(out, r);
                json_ns.push_back(elapsed_ns(b0, clock_type::now()));
            }
        }
        const timing p = summarize(parse_ns);
        const double mbps = static_cast<double>(input.size()) / p.best_ns * 1e3;
        std::string report = fmt::format("{}: {} bytes, {} statements, {} errors, {} warnings, {} text items{}, {} runs\n",
                                         path, input.size(), c.statements, c.errors, c.warnings, c.texts,
                                         c.tail ? ", an unparsedTail" : "", n);
        report += fmt::format("  parse  best {} (median {})  {:.1f} MB/s  ", human_ns(p.best_ns), human_ns(p.median_ns),
                              mbps);
        report += c.statements > 0
                      ? fmt::format("{:.1f} ns/statement\n", p.best_ns / static_cast<double>(c.statements))
                      : std::string("no statements\n");
        if (with_json) {
            const timing j = summarize(json_ns);
            report += fmt::format("  json   best {} (median {})  {} bytes out  {:.1f} MB/s of output\n",
                                  human_ns(j.best_ns), human_ns(j.median_ns), json_bytes,
                                  static_cast<double>(json_bytes) / j.best_ns * 1e3);
        }
        if (chunk != 0) {
            const timing o = summarize(oneshot_cpu_ns);
            const timing st = summarize(stream_cpu_ns);
            report += fmt::format("  stream best {} (median {})  {:.1f} MB/s  in {}-byte chunks{}, CPU time\n",
                                  human_ns(st.best_ns), human_ns(st.median_ns),
                                  static_cast<double>(input.size()) / st.best_ns * 1e3, chunk,
                                  events ? " with events" : "");
            report += fmt::format("  streamed/one-shot: {:.2f}x\n", st.best_ns / std::max(o.best_ns, 1.0));
        }
        if (!write_stdout(report)) return 2;
        if (c.errors > 0 || c.tail) {
            print_error(fmt::format("warning: {} parses with {} error items{} in tier {}: the figures time error "
                                    "recovery; is --tier right?",
                                    path, c.errors, c.tail ? " and an unparsedTail" : "", plurnk::tier_name(tier)));
        }
        if (p.median_ns > p.best_ns * k_noisy_spread) {
            print_error(fmt::format("warning: {}: the median run is {:.0f}% slower than the best: the machine looks "
                                    "noisy; compare figures only from quiet runs (or more --repeat)",
                                    path, (p.median_ns / p.best_ns - 1) * 100));
        }
    }
    struct rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    return write_stdout(fmt::format("peak memory (ru_maxrss) {:.1f} MB\n", static_cast<double>(ru.ru_maxrss) / 1024.0))
               ? 0
               : 2;
}

}  // namespace plurnk::cli
