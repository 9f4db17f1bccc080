// SPDX-License-Identifier: MIT
// One-shot parse benchmarks: each tier on the vendored turn-2k.txt and statements-1m.txt, a
// body-heavy 1 MB input (few statements, long EDIT bodies: the memchr-class body scan), and a
// statement-dense input (thousands of short READ/FIND with scopes and matchers). Each iteration
// parses the whole input into the AST and drops the result; no JSON is written. Counters:
// bytes/s, ns/stmt, allocs/iter (heap allocations per parse), allocs/stmt, and allocs/stmt split
// into owned/stmt (blocks the result keeps) and transient/stmt (the rest).
#include <benchmark/benchmark.h>

#include <string>

#include "bench_util.hpp"
#include "inputs.hpp"
#include "owned_allocs.hpp"
#include "plurnk/plurnk.hpp"

namespace {

using namespace plurnk::bench;

void run_parse(benchmark::State& state, const std::string& input, plurnk::tier t) {
    std::size_t stmts = 0, owned = 0;
    {
        const plurnk::parse_result warm = plurnk::parse(input, t);
        stmts = statement_count(warm);
        owned = owned_allocations(warm);
    }
    const loop_start before;
    for (auto _ : state) {
        plurnk::parse_result r = plurnk::parse(input, t);
        benchmark::DoNotOptimize(r.items.store());
        benchmark::ClobberMemory();
    }
    set_counters(state, input.size(), stmts, before);
    if (stmts > 0) {
        const double n = static_cast<double>(stmts);
        state.counters["owned/stmt"] = benchmark::Counter(static_cast<double>(owned) / n);
        state.counters["transient/stmt"] = benchmark::Counter(state.counters["allocs/stmt"].value - static_cast<double>(owned) / n);
    }
}

const std::string& turn_2k() { return data_file("turn-2k.txt"); }
const std::string& statements_1m() { return data_file("statements-1m.txt"); }
const std::string& turn_2k_log() {
    static const std::string s = as_log(turn_2k());
    return s;
}
// statements-1m.txt made a well-formed turn (PLAN first, disposition SEND last) for the parse
// tier, and that turn wrapped for the log tier.
const std::string& statements_1m_turn() {
    static const std::string s = "<<PLAN:work through the list:PLAN\n" + statements_1m() + "<<SEND[200]:done:SEND\n";
    return s;
}
const std::string& statements_1m_log() {
    static const std::string s = as_log(statements_1m_turn());
    return s;
}
const std::string& body_1m() {
    static const std::string s = body_heavy(1'000'000);
    return s;
}
const std::string& dense() {
    static const std::string s = statement_dense(6000);
    return s;
}

void BM_turn_2k(benchmark::State& state, plurnk::tier t) {
    run_parse(state, t == plurnk::tier::log ? turn_2k_log() : turn_2k(), t);
}
void BM_statements_1m(benchmark::State& state, plurnk::tier t) {
    run_parse(state,
              t == plurnk::tier::parse ? statements_1m_turn()
              : t == plurnk::tier::log ? statements_1m_log()
                                       : statements_1m(),
              t);
}
void BM_body_heavy_1m(benchmark::State& state, plurnk::tier t) { run_parse(state, body_1m(), t); }
void BM_statement_dense(benchmark::State& state, plurnk::tier t) { run_parse(state, dense(), t); }

}  // namespace

BENCHMARK_CAPTURE(BM_turn_2k, parse, plurnk::tier::parse);
BENCHMARK_CAPTURE(BM_turn_2k, statements, plurnk::tier::statements);
BENCHMARK_CAPTURE(BM_turn_2k, client, plurnk::tier::client);
BENCHMARK_CAPTURE(BM_turn_2k, log, plurnk::tier::log);
BENCHMARK_CAPTURE(BM_statements_1m, statements, plurnk::tier::statements)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_statements_1m, client, plurnk::tier::client)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_statements_1m, parse, plurnk::tier::parse)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_statements_1m, log, plurnk::tier::log)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_body_heavy_1m, statements, plurnk::tier::statements)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_statement_dense, statements, plurnk::tier::statements)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
