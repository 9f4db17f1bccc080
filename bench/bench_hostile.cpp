// SPDX-License-Identifier: MIT
// Hostile input shapes from the fuzzing issue, each 1 MB, parsed one-shot (parse tier; the
// nested-TURN shape in the log tier), beside statements-1m.txt in the statements tier as the
// baseline. The bound: each shape's ns/byte within 3x the baseline's. Every 1 MB
// benchmark reports `x_base`, its ns/byte divided by the baseline's ns/byte measured once in the
// same process (best of 5 parses), both in thread CPU time, so the table can be read off one
// run even on a busy machine:
//   build/bench/bench_hostile --benchmark_filter=_1m
// A second group parses each shape at 64 KB .. 1 MB for a complexity fit (O(N) expected).
// Shapes come from inputs.hpp (shared with the other benchmarks) plus the local ones below: text
// full of near-miss `<<Word` advisories, NUL/control soup, a single 1 MB regex/JSONPath/XPath
// nest, a 1 MB-deep SEND JSON body, and the validators called directly on 1 MB nests.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <functional>
#include <string>

#include "bench_util.hpp"
#include "inputs.hpp"
#include "plurnk/plurnk.hpp"

namespace {

using namespace plurnk::bench;

constexpr std::size_t k_size = 1'000'000;

// CPU time of this thread: the ratio must not depend on what else the (shared) machine runs.
double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// ns/byte of the baseline: statements-1m.txt, statements tier, best of five one-shot parses.
double baseline_ns_per_byte() {
    static const double value = [] {
        const std::string& input = data_file("statements-1m.txt");
        double best = 1e30;
        for (int i = 0; i < 5; ++i) {
            const double t0 = cpu_seconds();
            plurnk::parse_result r = plurnk::parse(input, plurnk::tier::statements);
            benchmark::DoNotOptimize(r.items.data());
            best = std::min(best, cpu_seconds() - t0);
        }
        return best * 1e9 / static_cast<double>(input.size());
    }();
    return value;
}

// Times `fn` (which handles `bytes` input bytes) and sets the shared counters plus x_base.
void timed(benchmark::State& state, std::size_t bytes, std::size_t stmts, const std::function<void()>& fn) {
    const double base = baseline_ns_per_byte();
    const alloc_stats before = allocations();
    double total = 0;
    for (auto _ : state) {
        const double t0 = cpu_seconds();
        fn();
        total += cpu_seconds() - t0;
    }
    set_counters(state, bytes, stmts, before);
    const double ns_per_byte = total * 1e9 / static_cast<double>(state.iterations()) / static_cast<double>(bytes);
    state.counters["x_base"] = benchmark::Counter(ns_per_byte / base);
}

void run(benchmark::State& state, const std::string& input, plurnk::tier t) {
    std::size_t stmts = 0;
    {
        const plurnk::parse_result warm = plurnk::parse(input, t);
        stmts = statement_count(warm);
    }
    timed(state, input.size(), stmts, [&] {
        plurnk::parse_result r = plurnk::parse(input, t);
        benchmark::DoNotOptimize(r.items.data());
        benchmark::ClobberMemory();
    });
}

std::string repeat_to(std::string_view head, std::string_view unit, std::string_view tail, std::size_t size) {
    std::string out(head);
    out.reserve(size + unit.size() + tail.size());
    while (out.size() + unit.size() + tail.size() <= size) out += unit;
    out += tail;
    return out;
}

// Shapes beyond inputs.hpp's, for the parser.
enum class extra {
    near_miss_text,         // <<GET<<GET… one text item, every `<<GET` a near-miss candidate
    near_miss_text_closed,  // <<GET:GET<<GET:GET… every candidate closed: one advisory each
    nul_controls,           // NUL and every C0 control between openers and inside slots/bodies
    regex_one_nest,         // one FIND body /((((…a…))))/ nested 500 000 deep (statements tier)
    jsonpath_one_nest,      // one FIND body $[?((((…@.a…))))] nested 500 000 deep (statements tier)
    xpath_one_nest,         // one FIND body //a[[[[…  deep (statements tier)
    send_json_nest,         // one SEND body [[[[…]]]] 500 000 deep, canonical_json (statements tier)
    target_escapes,         // <<READ(<\<\<\… a target of escapes and lexer errors
    many_errors_one_line,   // one line of `<<READ]` slot errors, unclaimed errors appended
};

// The nests go through the statements tier: in the parse tier a FIND before any PLAN is a
// turn-shape error and its body never reaches the validator.
plurnk::tier extra_tier(extra e) {
    switch (e) {
        case extra::regex_one_nest:
        case extra::jsonpath_one_nest:
        case extra::xpath_one_nest:
        case extra::send_json_nest: return plurnk::tier::statements;
        default: return plurnk::tier::parse;
    }
}

std::string extra_input(extra e, std::size_t size) {
    const std::size_t half = (size - 32) / 2;
    switch (e) {
        case extra::near_miss_text: return repeat_to("", "<<GET", "", size);
        case extra::near_miss_text_closed: return repeat_to("", "<<GET:GET", "", size);
        case extra::nul_controls: {
            std::string unit = "<<EDIT(\x01\x02)<1>:";
            for (int c = 0; c < 32; ++c) unit += static_cast<char>(c);
            unit += ":EDIT";
            unit += std::string("\0\x1b[31m\x7f<<READ(\0)::READ\x0b\x0c", 24);
            return repeat_to("<<PLAN:p:PLAN\n", unit, "", size);
        }
        case extra::regex_one_nest:
            return "<<FIND(src):/" + std::string(half, '(') + "a" + std::string(half, ')') + "/:FIND\n";
        case extra::jsonpath_one_nest:
            return "<<FIND(a.json):$[?" + std::string(half, '(') + "@.a" + std::string(half, ')') + "]:FIND\n";
        case extra::xpath_one_nest:
            return "<<FIND(a.xml)://a" + std::string(half, '[') + "1" + std::string(half, ']') + ":FIND\n";
        case extra::send_json_nest:
            return "<<SEND(worker://w):" + std::string(half, '[') + std::string(half, ']') + ":SEND\n";
        case extra::target_escapes: return repeat_to("<<READ(", "<\\", "", size);
        case extra::many_errors_one_line: return repeat_to("<<READ", "]", "", size);
    }
    return {};
}

void BM_baseline_statements_1m(benchmark::State& state) {
    run(state, data_file("statements-1m.txt"), plurnk::tier::statements);
}

void BM_hostile_1m(benchmark::State& state, hostile h) {
    const std::string input = hostile_input(h, k_size);
    run(state, input, hostile_tier(h));
}

void BM_hostile_scaling(benchmark::State& state, hostile h) {
    const std::string input = hostile_input(h, static_cast<std::size_t>(state.range(0)));
    run(state, input, hostile_tier(h));
    state.SetComplexityN(static_cast<std::int64_t>(input.size()));
}

void BM_extra_1m(benchmark::State& state, extra e) {
    const std::string input = extra_input(e, k_size);
    run(state, input, extra_tier(e));
}

void BM_extra_scaling(benchmark::State& state, extra e) {
    const std::string input = extra_input(e, static_cast<std::size_t>(state.range(0)));
    run(state, input, extra_tier(e));
    state.SetComplexityN(static_cast<std::int64_t>(input.size()));
}

// The validators on a 1 MB nest, called directly (no parse around them).
void BM_validator_1m(benchmark::State& state, int which) {
    const std::size_t half = k_size / 2 - 8;
    std::string input;
    switch (which) {
        case 0: input = std::string(half, '(') + "a" + std::string(half, ')'); break;         // regex groups
        case 1: input = "$[?" + std::string(half, '(') + "@.a" + std::string(half, ')') + "]"; break;  // JSONPath
        case 2: input = "//a" + std::string(half, '[') + "1" + std::string(half, ']'); break;  // XPath
        case 3: input = std::string(half, '[') + std::string(half, ']'); break;                // JSON
        default: input = "http://a/" + std::string(k_size - 9, '%'); break;                    // URL
    }
    timed(state, input.size(), 0, [&] {
        switch (which) {
            case 0: benchmark::DoNotOptimize(plurnk::validate_regex(input, "u").ok); break;
            case 1: benchmark::DoNotOptimize(plurnk::validate_jsonpath(input).ok); break;
            case 2: benchmark::DoNotOptimize(plurnk::validate_xpath(input).ok); break;
            case 3: benchmark::DoNotOptimize(plurnk::canonical_json(input)); break;
            default: benchmark::DoNotOptimize(plurnk::parse_url(input)); break;
        }
    });
}

}  // namespace

BENCHMARK(BM_baseline_statements_1m)->Unit(benchmark::kMillisecond);
#define PLURNK_HOSTILE(h)                                                                        \
    BENCHMARK_CAPTURE(BM_hostile_1m, h, hostile::h)->Unit(benchmark::kMillisecond);              \
    BENCHMARK_CAPTURE(BM_hostile_scaling, h, hostile::h)                                        \
        ->RangeMultiplier(4)                                                                    \
        ->Range(64 << 10, 1 << 20)                                                              \
        ->Complexity(benchmark::oN)                                                             \
        ->Unit(benchmark::kMillisecond)
PLURNK_HOSTILE(lt);
PLURNK_HOSTILE(open_read);
PLURNK_HOSTILE(open_read_paren);
PLURNK_HOSTILE(near_miss_body);
PLURNK_HOSTILE(nested_turns);
PLURNK_HOSTILE(target_parens);
PLURNK_HOSTILE(regex_groups);
PLURNK_HOSTILE(jsonpath_filters);
PLURNK_HOSTILE(crlf_soup);
PLURNK_HOSTILE(invalid_utf8);
PLURNK_HOSTILE(slot_junk);

#define PLURNK_EXTRA(e)                                                                          \
    BENCHMARK_CAPTURE(BM_extra_1m, e, extra::e)->Unit(benchmark::kMillisecond);                  \
    BENCHMARK_CAPTURE(BM_extra_scaling, e, extra::e)                                            \
        ->RangeMultiplier(4)                                                                    \
        ->Range(64 << 10, 1 << 20)                                                              \
        ->Complexity(benchmark::oN)                                                             \
        ->Unit(benchmark::kMillisecond)
PLURNK_EXTRA(near_miss_text);
PLURNK_EXTRA(near_miss_text_closed);
PLURNK_EXTRA(nul_controls);
PLURNK_EXTRA(regex_one_nest);
PLURNK_EXTRA(jsonpath_one_nest);
PLURNK_EXTRA(xpath_one_nest);
PLURNK_EXTRA(send_json_nest);
PLURNK_EXTRA(target_escapes);
PLURNK_EXTRA(many_errors_one_line);

BENCHMARK_CAPTURE(BM_validator_1m, regex_groups, 0)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_validator_1m, jsonpath_filters, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_validator_1m, xpath_predicates, 2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_validator_1m, json_arrays, 3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_validator_1m, url_percents, 4)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
