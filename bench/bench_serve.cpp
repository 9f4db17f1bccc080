// SPDX-License-Identifier: MIT
// What a delta costs a server per feed, at size (doc/serving.md, "Cost"): a serving turn (a think
// block, then prose between statements, then a final SEND with nothing after it) of 64 KB, 256 KB
// and 1 MB, fed whole (one feed) and in 4- and 64-byte chunks, three ways measured interleaved in
// this process (events, deltas, peek, events, deltas, peek, ...; thread CPU time, best of N each):
//   events  a stream_parser with a callback that counts its events, then finish(): a server
//           without deltas;
//   deltas  a delta_stream, each delta's content, reasoning and statements read, then end() and
//           finish();
//   peek    deltas, with peek_end() asked after every feed (the adapter rule).
// It prints ns per feed of each, what a delta adds per feed (deltas - events) and the ratios, and
// the peak RSS each way adds over the input size, measured in a fresh process (this program run
// as --rss-child=WAY:CHUNK:SIZE, resetting Linux's peak with /proc/self/clear_refs). Run from the
// top of the tree:
//   build/bench/bench_serve [--reps=N] [--sizes=64K,256K,1M]
// python -m plurnk.bench --serve measures the same in Python on the same turn.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.hpp"
#include "inputs.hpp"
#include "plurnk/serve.hpp"

namespace {

// The serving turn of about `size` bytes (python/plurnk/bench.py's serving_turn() writes the
// same bytes): an eighth of it a think block, then PLAN, the lines of statements-1m.txt with a
// line of prose after every fourth statement, and a final SEND.
std::string serving_turn(std::size_t size) {
    const std::string& body = plurnk::bench::data_file("statements-1m.txt");
    std::string t = "<think>";
    for (std::size_t i = 0; t.size() < size / 8; ++i) {
        t += "Step " + std::to_string(i) + ": the retry path first, then the jitter bound.\n";
    }
    t += "</think>\n<<PLAN:Stream a long turn.:PLAN\n";
    std::size_t at = 0, closed = 0;
    while (t.size() < size) {
        const std::size_t nl = body.find('\n', at);
        if (nl == std::string::npos) {
            at = 0;
            continue;
        }
        const std::string_view line(body.data() + at, nl + 1 - at);
        t += line;
        at = nl + 1;
        const std::size_t n = line.size();
        const bool closes = n >= 6 && line[n - 6] == ':' &&
                            std::all_of(line.end() - 5, line.end() - 1, [](char c) { return c >= 'A' && c <= 'Z'; });
        if (closes && ++closed % 4 == 0) t += "Checked part " + std::to_string(closed) + "; moving on.\n";
    }
    t += "<<SEND[200]:done:SEND";
    return t;
}

enum class way { events, deltas, peek };
constexpr const char* k_way_names[] = {"events", "deltas", "peek"};

// One run: feeds `in` in `chunk`-byte pieces (0: one feed); returns the number of feeds.
std::size_t run(const std::string& in, std::size_t chunk, way w) {
    const std::size_t step = chunk == 0 ? in.size() : chunk;
    std::size_t feeds = 0, seen = 0;
    if (w == way::events) {
        plurnk::stream_parser p(plurnk::tier::parse);
        p.set_callback([&seen](const plurnk::stream_event&) { ++seen; });
        for (std::size_t i = 0; i < in.size(); i += step, ++feeds) p.feed(std::string_view(in).substr(i, step));
        auto r = p.finish();
        benchmark::DoNotOptimize(r);
    } else {
        plurnk::delta_stream s(plurnk::tier::parse);
        const auto read = [&seen](const plurnk::delta& d) {
            seen += d.content.size() + d.reasoning.size() + d.statements.size();
        };
        for (std::size_t i = 0; i < in.size(); i += step, ++feeds) {
            read(s.feed(std::string_view(in).substr(i, step)));
            if (w == way::peek) seen += s.peek_end().statements.size();
        }
        read(s.end());
        auto r = s.finish();
        benchmark::DoNotOptimize(r);
    }
    benchmark::DoNotOptimize(seen);
    return feeds;
}

double run_ns(const std::string& in, std::size_t chunk, way w) {
    const double t0 = plurnk::bench::thread_cpu_ns();
    run(in, chunk, w);
    return plurnk::bench::thread_cpu_ns() - t0;
}

// The --rss-child mode: the peak RSS one run adds, over the input size (-1: no peak reset).
int rss_child(const std::string& arg) {
    const std::size_t a = arg.find(':'), b = arg.rfind(':');
    const std::string name = arg.substr(0, a);
    const std::size_t chunk = std::strtoull(arg.c_str() + a + 1, nullptr, 10);
    const std::size_t size = std::strtoull(arg.c_str() + b + 1, nullptr, 10);
    const auto it = std::find(std::begin(k_way_names), std::end(k_way_names), name);
    if (it == std::end(k_way_names) || a == b) return 2;
    const std::string in = serving_turn(size);
    run(in.substr(0, 64), chunk, static_cast<way>(it - std::begin(k_way_names)));  // warm, as the Python one
    {
        std::ofstream c("/proc/self/clear_refs");
        if (!c) {
            std::printf("-1\n");
            return 0;
        }
        c << "5";
    }
    const long before = plurnk::bench::status_kb("VmRSS:");
    run(in, chunk, static_cast<way>(it - std::begin(k_way_names)));
    const long peak = plurnk::bench::status_kb("VmHWM:");
    std::printf("%.2f\n", before < 0 || peak < 0 ? -1.0 : static_cast<double>(peak - before) * 1024.0 / in.size());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 5;
    std::vector<std::size_t> sizes = {64 << 10, 256 << 10, 1 << 20};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--reps=", 0) == 0) reps = std::max(1, std::atoi(a.c_str() + 7));
        else if (a.rfind("--sizes=", 0) == 0) sizes = plurnk::bench::parse_sizes(a.substr(8));
        else if (a.rfind("--rss-child=", 0) == 0) return rss_child(a.substr(12));
        else sizes.clear();
        if (sizes.empty()) {
            std::fprintf(stderr, "usage: bench_serve [--reps=N] [--sizes=64K,256K,1M]\n");
            return 2;
        }
    }
    std::printf("bench_serve: best of %d, thread CPU time, interleaved; RSS/in from a fresh process\n\n", reps);
    std::printf("| size | chunk | feeds | events ns/feed | deltas ns/feed | delta adds ns/feed | x | + peek_end ns/feed | x "
                "| RSS/in events | deltas | peek |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const std::size_t size : sizes) {
        const std::string in = serving_turn(size);
        for (const std::size_t chunk : {std::size_t{0}, std::size_t{4}, std::size_t{64}}) {
            double ns[3];
            std::fill(std::begin(ns), std::end(ns), std::numeric_limits<double>::infinity());
            for (int r = 0; r < reps; ++r) {
                for (int w = 0; w < 3; ++w) ns[w] = std::min(ns[w], run_ns(in, chunk, static_cast<way>(w)));
            }
            const double feeds = static_cast<double>(chunk == 0 ? 1 : (in.size() + chunk - 1) / chunk);
            double rss[3];
            for (int w = 0; w < 3; ++w) {
                rss[w] = plurnk::bench::child_number(std::string(argv[0]) + " --rss-child=" + k_way_names[w] + ":" +
                                                     std::to_string(chunk) + ":" + std::to_string(size));
            }
            std::printf("| %s | %s | %.0f | %.1f | %.1f | %.1f | %.2f | %.1f | %.2f | %.1f | %.1f | %.1f |\n",
                        (plurnk::bench::size_label(size) + " (" + std::to_string(in.size()) + " B)").c_str(), chunk == 0 ? "whole" : std::to_string(chunk).c_str(),
                        feeds, ns[0] / feeds, ns[1] / feeds, (ns[1] - ns[0]) / feeds, ns[1] / ns[0], ns[2] / feeds,
                        ns[2] / ns[0], rss[0], rss[1], rss[2]);
            std::fflush(stdout);
        }
    }
    return 0;
}
