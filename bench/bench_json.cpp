// SPDX-License-Identifier: MIT
// JSON serialization alone: to_json (compact and pretty) of results parsed once up front.
// Throughput is counted in bytes of JSON written; allocs/iter counts the output string's growth.
#include <benchmark/benchmark.h>

#include <string>

#include "bench_util.hpp"
#include "inputs.hpp"
#include "plurnk/plurnk.hpp"

namespace {

using namespace plurnk::bench;

void run_json(benchmark::State& state, const std::string& input, plurnk::tier t, bool pretty) {
    const plurnk::parse_result r = plurnk::parse(input, t);
    const std::size_t stmts = statement_count(r);
    const std::size_t out_bytes = plurnk::to_json(r, {.pretty = pretty}).size();
    const loop_start before;
    for (auto _ : state) {
        std::string out = plurnk::to_json(r, {.pretty = pretty});
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    set_counters(state, out_bytes, stmts, before);
    state.counters["out_bytes"] = benchmark::Counter(static_cast<double>(out_bytes));
}

void BM_json_turn_2k(benchmark::State& state, bool pretty) {
    run_json(state, data_file("turn-2k.txt"), plurnk::tier::parse, pretty);
}
void BM_json_statements_1m(benchmark::State& state, bool pretty) {
    run_json(state, data_file("statements-1m.txt"), plurnk::tier::statements, pretty);
}
void BM_json_body_heavy_1m(benchmark::State& state) {
    static const std::string s = body_heavy(1'000'000);
    run_json(state, s, plurnk::tier::statements, false);
}
void BM_json_statement_dense(benchmark::State& state) {
    static const std::string s = statement_dense(6000);
    run_json(state, s, plurnk::tier::statements, false);
}

}  // namespace

BENCHMARK_CAPTURE(BM_json_turn_2k, compact, false);
BENCHMARK_CAPTURE(BM_json_turn_2k, pretty, true);
BENCHMARK_CAPTURE(BM_json_statements_1m, compact, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_json_statements_1m, pretty, true)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_json_body_heavy_1m)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_json_statement_dense)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
