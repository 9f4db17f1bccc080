// SPDX-License-Identifier: MIT
// Shared counters for the benchmark programs: throughput in bytes/s (decimal units), ns per
// statement and per byte, and heap allocations per iteration (counted by alloc_count.cpp).
#pragma once

#include <benchmark/benchmark.h>
#include <time.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "alloc_count.hpp"

namespace plurnk::bench {

// CPU time of the calling thread in nanoseconds (what Google Benchmark's CPU column measures:
// on a shared machine it is steadier than wall time).
inline double thread_cpu_ns() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

// Taken just before a benchmark's timed loop.
struct loop_start {
    alloc_stats allocs = allocations();
    double cpu_ns = thread_cpu_ns();
};

namespace detail {
inline void set_common(benchmark::State& state, std::size_t bytes, std::size_t statements, alloc_stats before) {
    const alloc_stats after = allocations();
    const double iters = static_cast<double>(state.iterations());
    const double allocs = static_cast<double>(after.count - before.count);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes));
    state.counters["bytes/s"] = benchmark::Counter(static_cast<double>(bytes), benchmark::Counter::kIsIterationInvariantRate,
                                                   benchmark::Counter::OneK::kIs1000);
    if (statements > 0) state.counters["allocs/stmt"] = benchmark::Counter(allocs / iters / static_cast<double>(statements));
    state.counters["allocs/iter"] = benchmark::Counter(allocs / iters);
    if (statements > 0) state.counters["stmts"] = benchmark::Counter(static_cast<double>(statements));
}
}  // namespace detail

// Counters for a benchmark whose every iteration handled `bytes` input bytes and `statements`
// statements, from `start` (taken just before the timed loop) to now.
inline void set_counters(benchmark::State& state, std::size_t bytes, std::size_t statements, loop_start start) {
    const double per_iter = (thread_cpu_ns() - start.cpu_ns) / static_cast<double>(state.iterations());
    detail::set_common(state, bytes, statements, start.allocs);
    if (statements > 0) state.counters["ns/stmt"] = benchmark::Counter(per_iter / static_cast<double>(statements));
    state.counters["ns/byte"] = benchmark::Counter(per_iter / static_cast<double>(bytes));
}

// The same when only the allocation totals were taken before the loop: ns/stmt and ns/byte then
// come from Google Benchmark's own CPU time (shown with an "s" unit: "146.2n" reads 146.2 ns).
inline void set_counters(benchmark::State& state, std::size_t bytes, std::size_t statements, alloc_stats before) {
    detail::set_common(state, bytes, statements, before);
    const double iters = static_cast<double>(state.iterations());
    if (statements > 0) {
        state.counters["ns/stmt"] = benchmark::Counter(static_cast<double>(statements) * iters,
                                                       benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    }
    state.counters["ns/byte"] =
        benchmark::Counter(static_cast<double>(bytes) * iters, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// ---- For the hostile-input benchmarks (bench_hostile, bench_hostile_surfaces) ----------------

// A field of /proc/self/status in KB ("VmRSS:", "VmHWM:"), -1 when absent.
inline long status_kb(const char* field) {
    std::ifstream f("/proc/self/status");
    std::string line;
    const std::size_t n = std::strlen(field);
    while (std::getline(f, line)) {
        if (line.compare(0, n, field) == 0) return std::atol(line.c_str() + n + 1);
    }
    return -1;
}

// "64K,256K,1M" -> sizes in bytes; empty when malformed or not two to four ascending sizes.
inline std::vector<std::size_t> parse_sizes(const std::string& list) {
    std::vector<std::size_t> out;
    std::size_t from = 0;
    while (from <= list.size()) {
        const std::size_t comma = std::min(list.find(',', from), list.size());
        const std::string item = list.substr(from, comma - from);
        char* end = nullptr;
        std::size_t v = std::strtoull(item.c_str(), &end, 10);
        if (end == item.c_str()) return {};
        if (*end == 'K' || *end == 'k') v <<= 10, ++end;
        else if (*end == 'M' || *end == 'm') v <<= 20, ++end;
        if (*end != '\0' || v == 0) return {};
        out.push_back(v);
        from = comma + 1;
    }
    if (out.size() < 2 || out.size() > 4 || !std::is_sorted(out.begin(), out.end())) return {};
    return out;
}

// The number a command prints first (a child run of this program measuring in a fresh process),
// -1 when it prints none.
inline double child_number(const std::string& cmd) {
    FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) return -1;
    double v = -1;
    if (std::fscanf(p, "%lf", &v) != 1) v = -1;
    pclose(p);
    return v;
}

// A size as a header shows it: 64K, 1M, or bytes.
inline std::string size_label(std::size_t n) {
    if (n % (1 << 20) == 0) return std::to_string(n >> 20) + "M";
    if (n % (1 << 10) == 0) return std::to_string(n >> 10) + "K";
    return std::to_string(n);
}

}  // namespace plurnk::bench
