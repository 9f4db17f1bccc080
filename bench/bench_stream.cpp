// SPDX-License-Identifier: MIT
// The push parser's feed() cost (streaming issue): ns per feed() call and bytes/s for 1-, 4-, 16-
// and 64-byte chunks on turn-2k.txt and on a 16 MB turn, and the per-byte cost of feeding 64 KB
// after 1 KB versus after 16 MB of the same turn (it must not grow with what came before), and the
// cost of a checkpoint (copying the parser) and of a restore (assigning the copy back) after 1 KB,
// 1 MB and 16 MB of history (it must follow retained(), not the history).
// The feed benchmarks also run the one-shot parse of the same input in every iteration (outside
// the timed region) and report `x_oneshot`: the best streamed iteration's CPU time over the best
// one-shot parse's, measured interleaved in this one process.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "bench_util.hpp"
#include "inputs.hpp"
#include "plurnk/plurnk.hpp"

namespace {

// A parse-tier turn of about `size` bytes: PLAN, repeated statements, terminal SEND.
const std::string& big_turn() {
    static const std::string turn = [] {
        const std::string& body = plurnk::bench::data_file("statements-1m.txt");
        std::string t = "<<PLAN:Stream a long turn.:PLAN\n";
        while (t.size() < (16u << 20)) t += body;
        t += "\n<<SEND[200]:done:SEND\n";
        return t;
    }();
    return turn;
}

void feed_all(benchmark::State& state, const std::string& input, plurnk::tier tier) {
    const auto chunk = static_cast<std::size_t>(state.range(0));
    std::size_t calls = 0;
    double best_stream = std::numeric_limits<double>::infinity();
    double best_oneshot = std::numeric_limits<double>::infinity();
    for (auto _ : state) {
        state.PauseTiming();
        {
            const double t0 = plurnk::bench::thread_cpu_ns();
            auto r = plurnk::parse(input, tier);
            benchmark::DoNotOptimize(r);
            best_oneshot = std::min(best_oneshot, plurnk::bench::thread_cpu_ns() - t0);
        }
        state.ResumeTiming();
        const double t0 = plurnk::bench::thread_cpu_ns();
        plurnk::stream_parser p(tier);
        for (std::size_t i = 0; i < input.size(); i += chunk) {
            p.feed(std::string_view(input).substr(i, chunk));
            ++calls;
        }
        auto r = p.finish();
        benchmark::DoNotOptimize(r);
        best_stream = std::min(best_stream, plurnk::bench::thread_cpu_ns() - t0);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(input.size()));
    state.counters["ns/call"] = benchmark::Counter(static_cast<double>(calls),
                                                   benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["x_oneshot"] = benchmark::Counter(best_stream / best_oneshot);
}

void BM_feed_turn_2k(benchmark::State& state) {
    feed_all(state, plurnk::bench::data_file("turn-2k.txt"), plurnk::tier::parse);
}
BENCHMARK(BM_feed_turn_2k)->Arg(1)->Arg(4)->Arg(16)->Arg(64);

void BM_feed_turn_16m(benchmark::State& state) { feed_all(state, big_turn(), plurnk::tier::parse); }
BENCHMARK(BM_feed_turn_16m)->Arg(4)->Arg(64)->Unit(benchmark::kMillisecond)->Iterations(1);

// Feeds 64 KB in 4-byte chunks into a parser that has already taken `range(0)` bytes. The copy of
// the warmed parser, its first appends (which regrow copied buffers) and its destruction are
// outside the timed region.
void BM_feed_after(benchmark::State& state) {
    const std::string& input = big_turn();
    const auto offset = static_cast<std::size_t>(state.range(0));
    constexpr std::size_t k_warm = 4096, k_window = 64 * 1024;
    plurnk::stream_parser warm(plurnk::tier::parse);
    for (std::size_t i = 0; i < offset; i += 4096) warm.feed(std::string_view(input).substr(i, std::min<std::size_t>(4096, offset - i)));
    std::optional<plurnk::stream_parser> p;
    for (auto _ : state) {
        state.PauseTiming();
        p.emplace(warm);
        for (std::size_t i = offset; i < offset + k_warm; i += 4) p->feed(std::string_view(input).substr(i, 4));
        state.ResumeTiming();
        for (std::size_t i = offset + k_warm; i < offset + k_warm + k_window; i += 4) p->feed(std::string_view(input).substr(i, 4));
        benchmark::DoNotOptimize(p->safe_prefix());
        state.PauseTiming();
        p.reset();
        state.ResumeTiming();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(k_window));
}
BENCHMARK(BM_feed_after)->Arg(1024)->Arg(16 << 20)->Unit(benchmark::kMicrosecond);

// A parser that has taken the first `offset` bytes of big_turn() in 4 KB chunks.
plurnk::stream_parser warmed(std::size_t offset) {
    const std::string& input = big_turn();
    plurnk::stream_parser p(plurnk::tier::parse);
    for (std::size_t i = 0; i < offset; i += 4096) p.feed(std::string_view(input).substr(i, std::min<std::size_t>(4096, offset - i)));
    return p;
}

// Checkpoint: copying a parser after `range(0)` bytes of history. The copy's destruction is
// outside the timed region. `retained` is what the parser holds (the copy's floor).
void BM_checkpoint_after(benchmark::State& state) {
    const plurnk::stream_parser warm = warmed(static_cast<std::size_t>(state.range(0)));
    std::optional<plurnk::stream_parser> copy;
    for (auto _ : state) {
        copy.emplace(warm);
        benchmark::DoNotOptimize(copy->safe_prefix());
        state.PauseTiming();
        copy.reset();
        state.ResumeTiming();
    }
    state.counters["retained"] = static_cast<double>(warm.retained());
}
BENCHMARK(BM_checkpoint_after)->Arg(1024)->Arg(1 << 20)->Arg(16 << 20)->Unit(benchmark::kMicrosecond);

// Restore: assigning a checkpoint back to a parser that went on by 4 KB past it.
void BM_restore_after(benchmark::State& state) {
    const auto offset = static_cast<std::size_t>(state.range(0));
    const plurnk::stream_parser checkpoint = warmed(offset);
    std::optional<plurnk::stream_parser> live;
    for (auto _ : state) {
        state.PauseTiming();
        live.emplace(checkpoint);
        live->feed(std::string_view(big_turn()).substr(offset, 4096));
        state.ResumeTiming();
        *live = checkpoint;
        benchmark::DoNotOptimize(live->safe_prefix());
        state.PauseTiming();
        live.reset();
        state.ResumeTiming();
    }
}
BENCHMARK(BM_restore_after)->Arg(1024)->Arg(1 << 20)->Arg(16 << 20)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
