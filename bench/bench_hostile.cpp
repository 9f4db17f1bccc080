// SPDX-License-Identifier: MIT
// Hostile input at scale: every shape of bench/hostile_shapes.hpp (the F1-F5 table and
// our own per lexer mode, validator and diagnostic) at 64 KB, 256 KB and 1 MB, one-shot and
// streamed in 16-byte chunks, each measured interleaved with the baseline (statements-1m.txt in
// the statements tier, parsed the same way) in this process: shape, baseline, shape, baseline, ...
// in thread CPU time, best of N of each, so a ratio does not depend on what else the machine
// runs. Per shape and mode it prints ns/byte at each size, the growth exponent between the two
// largest sizes (log of the time ratio over log of the size ratio, 4 by default: 1.0 is linear,
// 2.0 quadratic), the ratio to the baseline's ns/byte at the largest size, and the peak RSS a
// one-shot parse at that size (result kept) adds, over the input size, measured in a fresh
// process (so no memory left by earlier parses hides it). Run from the top of the tree:
//   build-perf/bench/bench_hostile [--reps=N] [--filter=TEXT] [--max-size=BYTES] [--sizes=LIST]
// (--reps default 3; --filter keeps shapes whose name or group contains TEXT; --max-size drops the
// larger sizes; --sizes replaces 64K,256K,1M by a comma-separated list of two to four sizes, each
// in bytes or with a K or M suffix, the growth exponent then taken between the last two and the
// RSS at the largest). Only the standard library and plurnk are used; Google Benchmark is linked
// for DoNotOptimize only.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "hostile_shapes.hpp"
#include "inputs.hpp"
#include "plurnk/plurnk.hpp"
#include "plurnk/stream.hpp"

namespace {

using namespace plurnk;

constexpr std::size_t k_chunk = 16;

// Parses `in` one-shot or streamed; returns the thread CPU time in ns.
double parse_ns(const std::string& in, tier t, bool streamed, const parse_options& o = {}) {
    const double t0 = bench::thread_cpu_ns();
    if (streamed) {
        stream_parser p(t, o);
        for (std::size_t i = 0; i < in.size(); i += k_chunk) p.feed(std::string_view(in).substr(i, k_chunk));
        parse_result r = p.finish();
        benchmark::DoNotOptimize(r.items.store());
    } else {
        parse_result r = parse(in, t, o);
        benchmark::DoNotOptimize(r.items.store());
    }
    return bench::thread_cpu_ns() - t0;
}

// Best of `reps` for the shape and for the baseline, measured alternately.
void interleaved(const std::string& in, tier t, const parse_options& o, bool streamed, int reps, double& shape_ns,
                 double& base_ns) {
    const std::string& base = bench::data_file("statements-1m.txt");
    shape_ns = base_ns = 1e300;
    for (int r = 0; r < reps; ++r) {
        shape_ns = std::min(shape_ns, parse_ns(in, t, streamed, o));
        base_ns = std::min(base_ns, parse_ns(base, tier::statements, streamed));
    }
}

// Peak RSS added by a one-shot parse of `in` (result alive), in bytes, in this process: -1 when
// Linux's peak reset (/proc/self/clear_refs, value 5) is unavailable. Meant for a fresh process
// (the --rss-child mode): in one that has parsed before, the allocator reuses what earlier parses
// left resident, and the figure understates.
double peak_rss_bytes(const std::string& in, tier t, const parse_options& o) {
    {
        std::ofstream c("/proc/self/clear_refs");
        if (!c) return -1;
        c << "5";
    }
    const long before = bench::status_kb("VmRSS:");
    {
        parse_result r = parse(in, t, o);
        benchmark::DoNotOptimize(r.items.store());
    }
    const long peak = bench::status_kb("VmHWM:");
    if (before < 0 || peak < 0) return -1;
    return static_cast<double>(peak - before) * 1024.0;
}

// The peak RSS a one-shot parse of shape `name` at `size` bytes adds, over the input size,
// measured in a fresh process (this program run as `--rss-child=NAME:SIZE`); -1 on failure.
double rss_ratio(const char* exe, const shapes::shape& s, std::size_t size) {
    return bench::child_number(std::string(exe) + " --rss-child=" + s.name + ":" + std::to_string(size));
}

// The --rss-child mode: prints the ratio for one shape and size.
int rss_child(const std::string& arg) {
    const std::size_t colon = arg.rfind(':');
    const std::string name = arg.substr(0, colon);
    const std::size_t size = std::strtoull(arg.c_str() + colon + 1, nullptr, 10);
    for (const shapes::shape& s : shapes::all()) {
        if (name != s.name) continue;
        const std::string in = shapes::make(s, size);
        const double peak = peak_rss_bytes(in, s.tier, s.options());
        std::printf("%.2f\n", peak < 0 ? -1.0 : peak / static_cast<double>(in.size()));
        return 0;
    }
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 3;
    std::string filter;
    std::size_t max_size = static_cast<std::size_t>(-1);
    std::vector<std::size_t> sizes = {64 << 10, 256 << 10, 1 << 20};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--reps=", 0) == 0) reps = std::max(1, std::atoi(a.c_str() + 7));
        else if (a.rfind("--filter=", 0) == 0) filter = a.substr(9);
        else if (a.rfind("--max-size=", 0) == 0) max_size = std::strtoull(a.c_str() + 11, nullptr, 10);
        else if (a.rfind("--sizes=", 0) == 0) sizes = bench::parse_sizes(a.substr(8));
        else if (a.rfind("--rss-child=", 0) == 0) return rss_child(a.substr(12));
        else sizes.clear();  // an unknown option: the usage below
        if (sizes.empty()) break;
    }
    while (!sizes.empty() && sizes.back() > max_size) sizes.pop_back();
    if (sizes.size() < 2) {  // a bad option, a bad --sizes, or --max-size leaving one size
        std::fprintf(stderr,
                     "usage: bench_hostile [--reps=N] [--filter=TEXT] [--max-size=BYTES] [--sizes=64K,256K,1M]\n");
        return 2;
    }
    const std::size_t n_sizes = sizes.size(), last = n_sizes - 1;
    std::printf("%-28s %-5s %-10s", "shape", "group", "mode");
    for (const std::size_t z : sizes) std::printf(" %9s", ("ns/B " + bench::size_label(z)).c_str());
    std::printf(" %7s %7s %8s\n", "growth", "x_base", "RSS/in");
    for (const shapes::shape& s : shapes::all()) {
        if (!filter.empty() && std::string(s.name).find(filter) == std::string::npos && filter != s.group) continue;
        for (bool streamed : {false, true}) {
            std::vector<double> ns_per_byte(n_sizes, 0.0), total_ns(n_sizes, 0.0);
            double ratio = 0;
            for (std::size_t k = 0; k < n_sizes; ++k) {
                const std::string in = shapes::make(s, sizes[k]);
                double shape_ns = 0, base_ns = 0;
                interleaved(in, s.tier, s.options(), streamed, reps, shape_ns, base_ns);
                total_ns[k] = shape_ns;
                ns_per_byte[k] = shape_ns / static_cast<double>(in.size());
                ratio = ns_per_byte[k] / (base_ns / static_cast<double>(bench::data_file("statements-1m.txt").size()));
            }
            const double growth = std::log(total_ns[last] / total_ns[last - 1]) /
                                  std::log(static_cast<double>(sizes[last]) / static_cast<double>(sizes[last - 1]));
            double rss = -1;
            if (!streamed) rss = rss_ratio(argv[0], s, sizes[last]);
            std::printf("%-28s %-5s %-10s", s.name, s.group, streamed ? "chunk=16" : "one-shot");
            for (const double v : ns_per_byte) std::printf(" %9.2f", v);
            std::printf(" %7.2f %7.2f ", growth, ratio);
            if (rss >= 0) std::printf("%8.1f\n", rss);
            else std::printf("%8s\n", "");
            std::fflush(stdout);
        }
    }
    return 0;
}
