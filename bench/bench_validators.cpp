// SPDX-License-Identifier: MIT
// Each sub-language validator alone: validate_regex, validate_xpath, validate_jsonpath,
// parse_url and parse_json on typical matcher-sized inputs, and on pathological inputs (deep
// nesting, long alternations and unions, long paths, escapes) from 4 KB to 128 KB. The
// pathological runs ask Google Benchmark for a complexity fit (`_BigO` / `_RMS` rows): each
// validator should come out O(N), i.e. a flat ns/byte across sizes.
#include <benchmark/benchmark.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "bench_util.hpp"
#include "plurnk/plurnk.hpp"

namespace {

using namespace plurnk::bench;

// --- typical inputs ---------------------------------------------------------------------------
const std::vector<std::string> k_regexes = {"/retry(Count|Delay)|backoff/i", "^\\s*(?<key>[A-Za-z_]\\w*)\\s*=\\s*(.+)$",
                                            "\\b(?:TODO|FIXME)\\b:?\\s*(.*)", "[\\p{L}\\p{N}_-]{3,32}",
                                            "(?<=\\$)\\d+(\\.\\d{2})?"};
const std::vector<std::string> k_xpaths = {"//client[@retry='true']/timeout", "/config/http/retry[position() < 3]/@max",
                                           "//book[author/last='Smith' and price > 10]/title",
                                           "count(//item[not(@hidden)]) + sum(//item/@weight)"};
const std::vector<std::string> k_jsonpaths = {"$.http.retry[?@.enabled==true].maxAttempts", "$..book[?@.price < 10].title",
                                              "$.store.book[0:10:2]['title','author']",
                                              "$[?length(@.tags) > 2 && match(@.name, '[a-z]+')]"};
const std::vector<std::string> k_urls = {"https://user:pw@example.com:8080/a/b/../c?q=1&r=%20#frag",
                                         "worker://peer-4/notes/http-client.md", "log:///1/7/7",
                                         "http://[2001:db8::1]:80/x", "https://xn--bcher-kva.example/ünï cödé?x=ä"};

template <typename F>
void run_each(benchmark::State& state, const std::vector<std::string>& inputs, F f) {
    std::size_t bytes = 0;
    for (const auto& s : inputs) bytes += s.size();
    const loop_start before;
    for (auto _ : state) {
        for (const auto& s : inputs) benchmark::DoNotOptimize(f(s));
    }
    set_counters(state, bytes, 0, before);
    state.counters["inputs"] = benchmark::Counter(static_cast<double>(inputs.size()));
}

void BM_regex_typical(benchmark::State& state) {
    run_each(state, k_regexes, [](const std::string& s) { return plurnk::validate_regex(s, "u").ok(); });
}
void BM_xpath_typical(benchmark::State& state) {
    run_each(state, k_xpaths, [](const std::string& s) { return plurnk::validate_xpath(s).ok(); });
}
void BM_jsonpath_typical(benchmark::State& state) {
    run_each(state, k_jsonpaths, [](const std::string& s) { return plurnk::validate_jsonpath(s).ok(); });
}
void BM_url_typical(benchmark::State& state) {
    run_each(state, k_urls, [](const std::string& s) { return plurnk::parse_url(s).ok(); });
}
void BM_json_parse_typical(benchmark::State& state) {
    static const std::vector<std::string> docs = {
        R"({"op":"SEND","to":"worker://peer-4","payload":{"attempts":[1,2,3.5,-4e10],"ok":true,"note":"caf\u00e9 \"q\""},"n":null})",
        R"([{"id":1,"name":"a"},{"id":2,"name":"b","tags":["x","y"]},{"id":3,"nested":{"deep":{"er":[[],[{}]]}}}])",
        R"("a plain string with an escape\n and unicode ü")"};
    run_each(state, docs, [](const std::string& s) { return plurnk::parse_json(s).has_value(); });
}

// --- pathological inputs, N bytes --------------------------------------------------------------
std::string rep(std::string_view unit, std::size_t n) {
    std::string s;
    s.reserve(n + unit.size());
    while (s.size() + unit.size() <= n) s += unit;
    return s;
}
// Concatenation by appends (g++ 12 warns falsely, -Wrestrict, on some `literal + string` chains).
std::string cat(std::initializer_list<std::string_view> parts) {
    std::string s;
    for (std::string_view p : parts) s.append(p);
    return s;
}
std::string nest(std::string_view open, std::string_view mid, std::string_view close, std::size_t n) {
    const std::size_t k = (n - mid.size()) / (open.size() + close.size());
    return cat({rep(open, k * open.size()), mid, rep(close, k * close.size())});
}

using gen_fn = std::string (*)(std::size_t);

template <typename F>
void run_sized(benchmark::State& state, gen_fn gen, F f) {
    const std::string input = gen(static_cast<std::size_t>(state.range(0)));
    const loop_start before;
    for (auto _ : state) benchmark::DoNotOptimize(f(input));
    set_counters(state, input.size(), 0, before);
    state.SetComplexityN(static_cast<std::int64_t>(input.size()));
}

void BM_regex_path(benchmark::State& state, gen_fn gen) {
    run_sized(state, gen, [](const std::string& s) { return plurnk::validate_regex(s, "").ok(); });
}
void BM_xpath_path(benchmark::State& state, gen_fn gen) {
    run_sized(state, gen, [](const std::string& s) { return plurnk::validate_xpath(s).ok(); });
}
void BM_jsonpath_path(benchmark::State& state, gen_fn gen) {
    run_sized(state, gen, [](const std::string& s) { return plurnk::validate_jsonpath(s).ok(); });
}
void BM_url_path(benchmark::State& state, gen_fn gen) {
    run_sized(state, gen, [](const std::string& s) { return plurnk::parse_url(s).ok(); });
}
void BM_json_path(benchmark::State& state, gen_fn gen) {
    run_sized(state, gen, [](const std::string& s) { return plurnk::parse_json(s).has_value(); });
}

std::string regex_deep_groups(std::size_t n) { return nest("(", "a", ")", n); }
std::string regex_deep_lookahead(std::size_t n) { return nest("(?=", "a", ")", n); }
std::string regex_alternation(std::size_t n) { return cat({rep("ab|", n), "c"}); }
std::string regex_classes(std::size_t n) { return rep("[a-z\\d\\p{L}]{2,5}?", n); }
std::string regex_named_groups(std::size_t n) {
    std::string s;
    for (std::size_t i = 0; s.size() < n; ++i) {
        const std::string k = std::to_string(i);
        s.append(cat({"(?<g", k, ">x)\\k<g", k, ">"}));
    }
    return s;
}
std::string xpath_deep_parens(std::size_t n) { return nest("(", "a", ")", n); }
std::string xpath_union(std::size_t n) { return cat({rep("//a/b|", n), "c"}); }
std::string xpath_predicates(std::size_t n) { return cat({"a", rep("[@x='1' and position()<3]", n)}); }
std::string xpath_deep_calls(std::size_t n) { return nest("concat(", "'a'", ",'b')", n); }
std::string jsonpath_deep_filters(std::size_t n) { return cat({"$[?", nest("(", "@.a", ")", n - 4), "]"}); }
std::string jsonpath_nested_queries(std::size_t n) { return nest("$[?@", ".a", "]", n); }
std::string jsonpath_union(std::size_t n) { return cat({"$[", rep("'name',1,", n), "2]"}); }
std::string jsonpath_segments(std::size_t n) { return cat({"$", rep(".a..b[0]", n)}); }
std::string url_long_path(std::size_t n) { return cat({"https://example.com/", rep("seg/../%41é/", n)}); }
std::string url_many_labels(std::size_t n) { return cat({"https://", rep("ab.", n > 300 ? 250 : n), "com/", rep("x", n)}); }
std::string url_long_query(std::size_t n) { return cat({"http://h/?", rep("a=%zz&b=ü&", n), "#", rep("f ", n / 8)}); }
std::string json_deep_arrays(std::size_t n) { return nest("[", "0", "]", n); }
std::string json_deep_objects(std::size_t n) { return nest("{\"a\":", "0", "}", n); }
std::string json_escaped_string(std::size_t n) { return cat({"\"", rep("\\u00e9\\n\\\"ab", n), "\""}); }
std::string json_numbers(std::size_t n) { return cat({"[", rep("-12.5e-3,", n), "0]"}); }

constexpr std::int64_t k_min_size = 4 << 10;
constexpr std::int64_t k_max_size = 128 << 10;

}  // namespace

BENCHMARK(BM_regex_typical);
BENCHMARK(BM_xpath_typical);
BENCHMARK(BM_jsonpath_typical);
BENCHMARK(BM_url_typical);
BENCHMARK(BM_json_parse_typical);

#define PLURNK_PATHOLOGICAL(fn, gen) \
    BENCHMARK_CAPTURE(fn, gen, gen)->RangeMultiplier(2)->Range(k_min_size, k_max_size)->Complexity(benchmark::oN)->Unit(benchmark::kMicrosecond)

PLURNK_PATHOLOGICAL(BM_regex_path, regex_deep_groups);
PLURNK_PATHOLOGICAL(BM_regex_path, regex_deep_lookahead);
PLURNK_PATHOLOGICAL(BM_regex_path, regex_alternation);
PLURNK_PATHOLOGICAL(BM_regex_path, regex_classes);
PLURNK_PATHOLOGICAL(BM_regex_path, regex_named_groups);
PLURNK_PATHOLOGICAL(BM_xpath_path, xpath_deep_parens);
PLURNK_PATHOLOGICAL(BM_xpath_path, xpath_union);
PLURNK_PATHOLOGICAL(BM_xpath_path, xpath_predicates);
PLURNK_PATHOLOGICAL(BM_xpath_path, xpath_deep_calls);
PLURNK_PATHOLOGICAL(BM_jsonpath_path, jsonpath_deep_filters);
PLURNK_PATHOLOGICAL(BM_jsonpath_path, jsonpath_nested_queries);
PLURNK_PATHOLOGICAL(BM_jsonpath_path, jsonpath_union);
PLURNK_PATHOLOGICAL(BM_jsonpath_path, jsonpath_segments);
PLURNK_PATHOLOGICAL(BM_url_path, url_long_path);
PLURNK_PATHOLOGICAL(BM_url_path, url_many_labels);
PLURNK_PATHOLOGICAL(BM_url_path, url_long_query);
PLURNK_PATHOLOGICAL(BM_json_path, json_deep_arrays);
PLURNK_PATHOLOGICAL(BM_json_path, json_deep_objects);
PLURNK_PATHOLOGICAL(BM_json_path, json_escaped_string);
PLURNK_PATHOLOGICAL(BM_json_path, json_numbers);

BENCHMARK_MAIN();
