// SPDX-License-Identifier: MIT
// The push parser's feed() cost (streaming issue), each figure a ratio to a baseline measured
// interleaved with it in this one process: batches of the two alternate, each batch is timed in
// thread CPU time, and each side's best batch counts (best of N, N = the iterations).
//   BM_feed_turn_2k/N, BM_feed_turn_16m/N: turn-2k.txt and a 16 MB turn fed in N-byte chunks
//     (then finish()), against the one-shot parse of the same text: ns/call, MB/s and x_oneshot.
//     Nothing is asked before finish(), so the stream lexes and parses in batches.
//   BM_feed_turn_2k_events/N, BM_feed_turn_2k_polled/N: the same with a callback that counts
//     the events, and with safe_prefix() asked after every feed.
//   BM_feed_turn_2k_deltas/N, BM_feed_turn_2k_deltas_peek/N: a delta_stream fed in N-byte chunks
//     (with peek_end() after every feed), against the events stream: ns/call of each, x_events.
//   BM_feed_body_heavy/N: the generated body-heavy 1 MB input (8 statements with 125 KB bodies)
//     fed in N-byte chunks, statements tier, against its one-shot parse: the body's close search
//     and the line table at a stream's pace.
//   BM_feed_after: 64 KB of a long turn fed in 4-byte chunks after 1 KB and after 16 MB of it
//     (the per-byte cost must not grow with what came before): ns/byte of each and x_1k.
//   BM_feed_large/MB: one feed() of MB megabytes (turn-2k.txt repeated, and a long turn of
//     statements), then finish(), against the one-shot parse: x_oneshot.
//   BM_checkpoint_after, BM_restore_after: copying a parser (a checkpoint) and assigning it back
//     after 1 KB, 1 MB and 16 MB of history (they must follow retained(), not the history).
// `bench_stream --window=OFFSET` runs no benchmark: it feeds a parser OFFSET bytes of the long
// turn and then the 64 KB window of BM_feed_after once, inside feed_window(), for
// bench/callgrind.sh to count its instructions.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "bench_util.hpp"
#include "inputs.hpp"
#include "plurnk/plurnk.hpp"

namespace {

// A parse-tier turn of about `size` bytes: PLAN, repeated statements, terminal SEND.
std::string long_turn(std::size_t size) {
    const std::string& body = plurnk::bench::data_file("statements-1m.txt");
    std::string t = "<<PLAN:Stream a long turn.:PLAN\n";
    t.reserve(size + body.size() + 64);
    while (t.size() < size) t += body;
    t += "\n<<SEND[200]:done:SEND\n";
    return t;
}

const std::string& big_turn() {
    static const std::string turn = long_turn(16u << 20);
    return turn;
}

// The best CPU time per run of two jobs measured interleaved: each benchmark iteration times a
// batch of `a` and then a batch of `b` (a batch repeats the job for at least ~2 ms, so the
// clock's own cost, a system call here, stays out of the figure).
struct interleaved {
    double a_ns = std::numeric_limits<double>::infinity();
    double b_ns = std::numeric_limits<double>::infinity();

    template <class A, class B>
    void run(benchmark::State& state, A&& a, B&& b) {
        // The batch sizes come from a first run of each, which counts as a sample too.
        a_ns = time_batch(a, 1);
        b_ns = time_batch(b, 1);
        const std::size_t batch_a = batch_for(a_ns), batch_b = batch_for(b_ns);
        for (auto _ : state) {
            a_ns = std::min(a_ns, time_batch(a, batch_a));
            b_ns = std::min(b_ns, time_batch(b, batch_b));
        }
    }

private:
    static constexpr double k_batch_ns = 2e6;
    template <class F>
    static double time_batch(F& f, std::size_t n) {
        const double t0 = plurnk::bench::thread_cpu_ns();
        for (std::size_t i = 0; i < n; ++i) f();
        return (plurnk::bench::thread_cpu_ns() - t0) / static_cast<double>(n);
    }
    static std::size_t batch_for(double once_ns) {
        return static_cast<std::size_t>(std::clamp(k_batch_ns / std::max(once_ns, 1.0), 1.0, 100000.0));
    }
};

// How the stream is used: fed and finished (nothing is asked before finish(), so it may lex and
// parse in batches); with a callback that counts the events (each item as soon as it settles);
// or with safe_prefix() asked after every feed.
enum class use { fed, events, polled };

// Feeds `input` in `chunk`-byte pieces, then finish(); returns the number of feed() calls.
std::size_t stream_parse(const std::string& input, plurnk::tier tier, std::size_t chunk, use how) {
    plurnk::stream_parser p(tier);
    std::size_t events = 0, calls = 0, safe = 0;
    if (how == use::events) p.set_callback([&events](const plurnk::stream_event&) { ++events; });
    for (std::size_t i = 0; i < input.size(); i += chunk, ++calls) {
        p.feed(std::string_view(input).substr(i, chunk));
        if (how == use::polled) safe += p.safe_prefix();
    }
    auto r = p.finish();
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(events);
    benchmark::DoNotOptimize(safe);
    return calls;
}

void feed_all(benchmark::State& state, const std::string& input, plurnk::tier tier, use how = use::fed) {
    const auto chunk = static_cast<std::size_t>(state.range(0));
    std::size_t calls = 0;
    interleaved t;
    t.run(
        state, [&] { calls = stream_parse(input, tier, chunk, how); },
        [&] {
            auto r = plurnk::parse(input, tier);
            benchmark::DoNotOptimize(r);
        });
    const auto bytes = static_cast<double>(input.size());
    state.counters["ns/call"] = t.a_ns / static_cast<double>(calls);
    state.counters["MB/s"] = bytes / t.a_ns * 1e3;
    state.counters["oneshot_MB/s"] = bytes / t.b_ns * 1e3;
    state.counters["x_oneshot"] = t.a_ns / t.b_ns;
}

void BM_feed_turn_2k(benchmark::State& state) {
    feed_all(state, plurnk::bench::data_file("turn-2k.txt"), plurnk::tier::parse);
}
BENCHMARK(BM_feed_turn_2k)->Arg(1)->Arg(4)->Arg(16)->Arg(64)->Iterations(20);

void BM_feed_turn_2k_events(benchmark::State& state) {
    feed_all(state, plurnk::bench::data_file("turn-2k.txt"), plurnk::tier::parse, use::events);
}
BENCHMARK(BM_feed_turn_2k_events)->Arg(1)->Arg(4)->Arg(16)->Arg(64)->Iterations(20);

void BM_feed_turn_2k_polled(benchmark::State& state) {
    feed_all(state, plurnk::bench::data_file("turn-2k.txt"), plurnk::tier::parse, use::polled);
}
BENCHMARK(BM_feed_turn_2k_polled)->Arg(1)->Arg(4)->Arg(16)->Arg(64)->Iterations(20);

// A delta per feed (include/plurnk/serve.hpp) against the stream fed with a callback that counts
// its events, interleaved: what the split into content, reasoning and statements adds per feed,
// and with peek_end() asked after every feed (the adapter rule of doc/serving.md).
std::size_t delta_parse(const std::string& input, std::size_t chunk, bool peek) {
    plurnk::delta_stream s;
    std::size_t calls = 0, bytes = 0;
    for (std::size_t i = 0; i < input.size(); i += chunk, ++calls) {
        const plurnk::delta d = s.feed(std::string_view(input).substr(i, chunk));
        bytes += d.content.size() + d.reasoning.size() + d.statements.size();
        if (peek) bytes += s.peek_end().statements.size();
    }
    bytes += s.end().content.size();
    auto r = s.finish();
    benchmark::DoNotOptimize(r);
    benchmark::DoNotOptimize(bytes);
    return calls;
}

void feed_deltas(benchmark::State& state, bool peek) {
    const std::string& input = plurnk::bench::data_file("turn-2k.txt");
    const auto chunk = static_cast<std::size_t>(state.range(0));
    std::size_t calls = 0;
    interleaved t;
    t.run(state, [&] { calls = delta_parse(input, chunk, peek); },
          [&] { benchmark::DoNotOptimize(stream_parse(input, plurnk::tier::parse, chunk, use::events)); });
    state.counters["ns/call"] = t.a_ns / static_cast<double>(calls);
    state.counters["events_ns/call"] = t.b_ns / static_cast<double>(calls);
    state.counters["x_events"] = t.a_ns / t.b_ns;
}

void BM_feed_turn_2k_deltas(benchmark::State& state) { feed_deltas(state, false); }
BENCHMARK(BM_feed_turn_2k_deltas)->Arg(1)->Arg(4)->Arg(16)->Arg(64)->Iterations(20);

void BM_feed_turn_2k_deltas_peek(benchmark::State& state) { feed_deltas(state, true); }
BENCHMARK(BM_feed_turn_2k_deltas_peek)->Arg(1)->Arg(4)->Arg(16)->Arg(64)->Iterations(20);

void BM_feed_turn_16m(benchmark::State& state) { feed_all(state, big_turn(), plurnk::tier::parse); }
BENCHMARK(BM_feed_turn_16m)->Arg(4)->Arg(64)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_feed_body_heavy(benchmark::State& state) {
    static const std::string input = plurnk::bench::body_heavy(1'000'000);
    feed_all(state, input, plurnk::tier::statements);
}
BENCHMARK(BM_feed_body_heavy)->Arg(1)->Arg(4)->Arg(16)->Arg(64)->Unit(benchmark::kMillisecond)->Iterations(3);

constexpr std::size_t k_warm = 4096, k_window = 64 * 1024;

// Feeds the window of BM_feed_after: 64 KB of `input` from `from`, in 4-byte chunks. Out of line,
// so that callgrind can count it alone (bench/callgrind.sh).
[[gnu::noinline]] void feed_window(plurnk::stream_parser& p, const std::string& input, std::size_t from) {
    for (std::size_t i = from; i < from + k_window; i += 4) p.feed(std::string_view(input).substr(i, 4));
    benchmark::DoNotOptimize(p.safe_prefix());
}

// A parser that has taken the first `offset` bytes of big_turn() in 4 KB chunks.
plurnk::stream_parser warmed(std::size_t offset) {
    const std::string& input = big_turn();
    plurnk::stream_parser p(plurnk::tier::parse);
    for (std::size_t i = 0; i < offset; i += 4096) p.feed(std::string_view(input).substr(i, std::min<std::size_t>(4096, offset - i)));
    return p;
}

// 64 KB fed in 4-byte chunks into a copy of a parser that has taken 16 MB (a), and one that has
// taken 1 KB (b), interleaved. The copy, its first 4 KB (which regrow copied buffers) and its
// destruction are outside the timed region.
void BM_feed_after(benchmark::State& state) {
    const std::string& input = big_turn();
    const std::size_t offsets[2] = {16u << 20, 1024};
    const plurnk::stream_parser warm[2] = {warmed(offsets[0]), warmed(offsets[1])};
    double best[2] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
    for (auto _ : state) {
        for (int k = 0; k < 2; ++k) {
            std::optional<plurnk::stream_parser> p(warm[k]);
            for (std::size_t i = offsets[k]; i < offsets[k] + k_warm; i += 4) p->feed(std::string_view(input).substr(i, 4));
            const double t0 = plurnk::bench::thread_cpu_ns();
            feed_window(*p, input, offsets[k] + k_warm);
            best[k] = std::min(best[k], plurnk::bench::thread_cpu_ns() - t0);
        }
    }
    state.counters["ns/byte_16m"] = best[0] / static_cast<double>(k_window);
    state.counters["ns/byte_1k"] = best[1] / static_cast<double>(k_window);
    state.counters["x_1k"] = best[0] / best[1];
}
BENCHMARK(BM_feed_after)->Unit(benchmark::kMillisecond)->Iterations(30);

// One feed() of a large input, then finish(), against the one-shot parse of the same bytes.
// range(0): megabytes; range(1): 0 for turn-2k.txt repeated (a turn and then its copies, which
// are one long unparsed tail), 1 for long_turn() (a turn of statements-1m.txt's statements).
void BM_feed_large(benchmark::State& state) {
    const std::size_t size = static_cast<std::size_t>(state.range(0)) << 20;
    std::string input;
    if (state.range(1) == 0) {
        const std::string& turn = plurnk::bench::data_file("turn-2k.txt");
        input.reserve(size + turn.size());
        while (input.size() < size) input += turn;
    } else {
        input = long_turn(size);
    }
    interleaved t;
    t.run(
        state, [&] { stream_parse(input, plurnk::tier::parse, input.size(), use::fed); },
        [&] {
            auto r = plurnk::parse(input, plurnk::tier::parse);
            benchmark::DoNotOptimize(r);
        });
    state.counters["s_feed"] = t.a_ns / 1e9;
    state.counters["s_oneshot"] = t.b_ns / 1e9;
    state.counters["x_oneshot"] = t.a_ns / t.b_ns;
}
BENCHMARK(BM_feed_large)->Args({256, 0})->Args({1024, 0})->Args({64, 1})->Unit(benchmark::kSecond)->Iterations(3);

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

int main(int argc, char** argv) {
    // --window=OFFSET: the window of BM_feed_after once, for callgrind (see the top of the file).
    if (argc == 2 && std::strncmp(argv[1], "--window=", 9) == 0) {
        const std::size_t offset = std::strtoull(argv[1] + 9, nullptr, 10);
        plurnk::stream_parser p = warmed(offset);
        for (std::size_t i = offset; i < offset + k_warm; i += 4) p.feed(std::string_view(big_turn()).substr(i, 4));
        feed_window(p, big_turn(), offset + k_warm);
        return 0;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
