// SPDX-License-Identifier: MIT
// Hostile input on the surfaces beside the parser, a sibling of bench_hostile.cpp: each surface
// run on hostile shapes at 64 KB, 256 KB and 1 MB, interleaved in this process with a one-shot
// parse of the same input (surface, parse, surface, parse, ... in thread CPU time, best of N of
// each), so that a ratio does not depend on what else the machine runs. Per surface and shape it
// prints ns/byte at each size, the growth exponent between the two largest sizes (log of the
// time ratio over log of the size ratio: 1.0 is linear, 2.0 quadratic), x_parse at each size (the
// surface's time over the parse's: the surface includes its parse) and the peak RSS
// the surface adds at the largest size, over the input size, measured in a fresh process (this
// program run as --rss-child=SURFACE:SHAPE:SIZE, resetting Linux's peak with
// /proc/self/clear_refs and reading VmHWM). Run from the top of the tree:
//   build-perf/bench/bench_hostile_surfaces [--reps=N] [--filter=TEXT] [--sizes=64K,256K,1M]
// (--filter keeps rows whose surface, shape or section contains TEXT; RSS/in is over the grammar
// written in the rail section). Each section below is one family of surfaces with its own
// shapes; add a section for a new surface.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "hostile_shapes.hpp"
#include "inputs.hpp"
#include "plurnk/json.hpp"
#include "plurnk/plurnk.hpp"
#include "plurnk/rail.hpp"
#include "plurnk/score.hpp"
#include "sarif.hpp"
#ifdef PLURNK_HAVE_WIRE
#include "plurnk/wire.hpp"
#endif

namespace {

using namespace plurnk;

// One row: a surface run on an input. `run` does the surface's whole work on `in` (what the CLI
// does after reading its input) and leaves nothing behind; `parse_of` is the text the surface
// parses (for records, the turns; else the input itself), parsed one-shot for x_parse.
struct row {
    std::string section, surface, shape;
    tier t = tier::parse;
    std::function<std::string(std::size_t size)> make;
    std::function<void(const std::string& in)> run;
    std::function<void(const std::string& in)> parse_of;
    // What the RSS is over, when not the input's size (the gbnf section: the grammar written).
    std::function<std::size_t(const std::string& in)> rss_over = nullptr;
};

// ---- Section: score, SARIF and fmt (the hostile-input issue, round three, rows 5 and 10) -----
//
// `score` on one turn (plurnk score FILE, a turn file) and on JSON Lines of short records (each
// unit of the shape one record, as a model's turns in a benchmark file); `sarif`, a parse written
// as SARIF (plurnk parse --format=sarif) to a sink that drops it; `fmt`, format_source (plurnk
// fmt). Shapes: repetition loops (shapes::loops(), the quadratic of row 5) and the item- and
// error-dense shapes of shapes::all().

// The shapes of bench/hostile_shapes.hpp that are item- or error-dense.
constexpr const char* k_dense_shapes[] = {"read_statements", "text_items_e_acute", "near_miss_ops", "exec_ident_errors",
                                          "signal_int_errors", "scope_errors", "turn_errors_one_line",
                                          "send_index_keys"};

void score_section(std::vector<row>& rows) {
    std::vector<shapes::shape> list = shapes::loops();
    for (const char* name : k_dense_shapes) {
        for (const shapes::shape& s : shapes::all()) {
            if (name == std::string_view(s.name)) list.push_back(s);
        }
    }
    const char* sec = "score";
    for (const shapes::shape& s : list) {
        const auto make = [s](std::size_t size) { return shapes::make(s, size); };
        const auto parse_one = [t = s.tier](const std::string& in) {
            parse_result r = parse(in, t);
            benchmark::DoNotOptimize(r.items.store());
        };
        // One scorer per row, as the CLI has one per thread: its rail recognizers are built once
        // and their automata warm after the first run.
        score::options o;
        o.forced_tier = s.tier;
        const auto turn_scorer = std::make_shared<score::scorer>(o);
        const auto records_scorer = std::make_shared<score::scorer>();
        rows.push_back({sec, "score_turn", s.name, s.tier, make,
                        [turn_scorer](const std::string& in) {
                            score::report r = turn_scorer->empty_report();
                            turn_scorer->add_turn_file(r, in, "turn.txt");
                            benchmark::DoNotOptimize(r.groups.size());
                        },
                        parse_one});
        rows.push_back({sec, "score_records", s.name, s.tier, [s](std::size_t size) { return shapes::as_records(s, size); },
                        [records_scorer](const std::string& in) {
                            score::report r = records_scorer->empty_report();
                            records_scorer->add_jsonl(r, in, "turns.jsonl");
                            benchmark::DoNotOptimize(r.groups.size());
                        },
                        [t = s.tier](const std::string& in) {  // the records' turns, each parsed
                            std::string_view rest = in;
                            while (!rest.empty()) {
                                const std::size_t nl = rest.find('\n');
                                const auto v = parse_json(rest.substr(0, nl));
                                parse_result r = parse(v->find("text")->string, t);
                                benchmark::DoNotOptimize(r.items.store());
                                rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
                            }
                        }});
        rows.push_back({sec, "sarif", s.name, s.tier, make,
                        [t = s.tier](const std::string& in) {
                            parse_options po;
                            po.borrow_input = true;
                            const parse_result r = parse(in, t, po);
                            std::size_t bytes = 0;
                            cli::sarif_writer w([&bytes](std::string_view piece) {
                                bytes += piece.size();
                                return true;
                            });
                            static_cast<void>(w.add(cli::sarif_file{"in.plurnk", in, &r}));
                            static_cast<void>(w.finish());
                            benchmark::DoNotOptimize(bytes);
                        },
                        parse_one});
        rows.push_back({sec, "fmt", s.name, s.tier, make,
                        [t = s.tier](const std::string& in) {
                            parse_options po;
                            po.borrow_input = true;
                            std::size_t bytes = 0;  // written out as it is made, as plurnk fmt does
                            const source_format f = format_source(in, t, po, [&bytes](std::string_view piece) { bytes += piece.size(); });
                            benchmark::DoNotOptimize(bytes);
                            benchmark::DoNotOptimize(f.changed);
                        },
                        parse_one});
    }
}

// ---- Section: JSON values (the hostile-input issue, round three, rows 7, 8 and 9) ------------
//
// These surfaces read JSON, not PLURNK, so their x_parse is over the baseline of bench_hostile
// instead (bench/data/statements-1m.txt, statements tier, one-shot, cut or repeated to the same
// size): the surface's time per byte over the baseline's, whose goal is 3x (doc/limits.md).
// `send_body`: a SEND whose body nests an object per level (shapes::k_json_nests: keyed by an
// array index, which JavaScript lists first, or named for comparison), parsed in the statements
// tier (the parser writes the body as JSON.stringify would, row 8); `canonical_json`: the same
// bodies alone. With the wire contracts: `unique_items`, validate_json of an EntryReadResult
// whose tags are distinct strings, one string again and again or equal objects (row 7);
// `validate`, the same with a large value of each of shapes::k_json_values as its tags (row 9);
// and `score_meta`, a score record carrying that value in a field the scorer does not use.

void baseline_parse(const std::string& in) {
    static std::map<std::size_t, std::string> texts;  // built on the first of the best-of runs
    std::string& b = texts[in.size()];
    const std::string& base = bench::data_file("statements-1m.txt");
    while (b.size() < in.size()) b.append(base, 0, std::min(base.size(), in.size() - b.size()));
    parse_result r = parse(b, tier::statements);
    benchmark::DoNotOptimize(r.items.store());
}

void json_section(std::vector<row>& rows) {
    const char* sec = "json";
    for (const shapes::json_nest& s : shapes::k_json_nests) {
        rows.push_back({sec, "send_body", s.name, tier::statements,
                        [s](std::size_t size) { return "<<SEND(worker://w):" + shapes::make(s, size) + ":SEND\n"; },
                        [](const std::string& in) {
                            parse_result r = parse(in, tier::statements);
                            benchmark::DoNotOptimize(r.items.store());
                        },
                        baseline_parse});
        rows.push_back({sec, "canonical_json", s.name, tier::statements, [s](std::size_t size) { return shapes::make(s, size); },
                        [](const std::string& in) {
                            const auto out = canonical_json(in);
                            benchmark::DoNotOptimize(out->size());
                        },
                        baseline_parse});
    }
#ifdef PLURNK_HAVE_WIRE
    const auto validate = [](const std::string& in) {
        const auto r = wire::validate_json(wire::contract::entry_read_result, in);
        benchmark::DoNotOptimize(r.valid);
    };
    for (int shape = 0; shape < 3; ++shape) {
        rows.push_back({sec, "unique_items", shapes::k_tag_shapes[shape], tier::statements,
                        [shape](std::size_t size) {
                            const std::size_t per_item = shapes::tags(shape, 64).size() / 64;
                            return shapes::entry_read_result(shapes::tags(shape, size / per_item));
                        },
                        validate, baseline_parse});
    }
    const auto records_scorer = std::make_shared<score::scorer>();
    for (const char* v : shapes::k_json_values) {
        rows.push_back({sec, "validate", v, tier::statements,
                        [v](std::size_t size) { return shapes::entry_read_result(shapes::json_value(v, size)); }, validate,
                        baseline_parse});
        rows.push_back({sec, "score_meta", v, tier::statements,
                        [v](std::size_t size) {
                            return R"({"id":"a","model":"m","meta":)" + shapes::json_value(v, size) + R"(,"text":"<<PLAN:p:PLAN"})" "\n";
                        },
                        [records_scorer](const std::string& in) {
                            score::report r = records_scorer->empty_report();
                            records_scorer->add_jsonl(r, in, "turns.jsonl");
                            benchmark::DoNotOptimize(r.groups.size());
                        },
                        baseline_parse});
    }
#endif
}

// ---- Section: the rail (the hostile-input issue, round three, row 15) ------------------------
//
// `gbnf_suffixes`: rail::write_gbnf (plurnk gbnf --suffixes=LIST) with one suffix per 256 bytes of
// the size (256, 1,024 and 4,096 suffixes at 64 KB, 256 KB and 1 MB), the input the suffix list;
// each suffix gives every op rules of its own, about 5 KB of GBNF. Its growth is per suffix, its
// RSS over the grammar written (the issue's bound: 8), and its x_parse over the baseline of the
// JSON section at the list's size (a scale, not a bound).

std::size_t gbnf_suffixes(const std::string& list) {
    rail::options o;
    o.suffixes = shapes::suffixes(static_cast<std::size_t>(std::count(list.begin(), list.end(), ',')) + 1);
    std::size_t bytes = 0;
    const auto w = rail::write_gbnf(o, [&bytes](std::string_view piece) { bytes += piece.size(); });
    return w ? bytes : 0;
}

void rail_section(std::vector<row>& rows) {
    rows.push_back({"rail", "gbnf_suffixes", "numbers", tier::parse,
                    [](std::size_t size) { return shapes::suffix_list(size / 256); },
                    [](const std::string& in) { benchmark::DoNotOptimize(gbnf_suffixes(in)); }, baseline_parse,
                    gbnf_suffixes});
}

// ---- The harness --------------------------------------------------------------------------

std::vector<row> all_rows() {
    std::vector<row> rows;
    score_section(rows);
    json_section(rows);
    rail_section(rows);
    return rows;
}

double cpu_ns(const std::function<void(const std::string&)>& f, const std::string& in) {
    const double t0 = bench::thread_cpu_ns();
    f(in);
    return bench::thread_cpu_ns() - t0;
}

// The --rss-child mode: the peak RSS one run of the row adds, over the input size (-1 when
// Linux's peak reset is unavailable).
int rss_child(const std::string& arg) {
    const std::size_t c1 = arg.find(':'), c2 = arg.rfind(':');
    const std::string surface = arg.substr(0, c1), shape = arg.substr(c1 + 1, c2 - c1 - 1);
    const std::size_t size = std::strtoull(arg.c_str() + c2 + 1, nullptr, 10);
    for (const row& r : all_rows()) {
        if (r.surface != surface || r.shape != shape) continue;
        const std::string in = r.make(size);
        {
            std::ofstream c("/proc/self/clear_refs");
            if (!c) return std::printf("-1\n"), 0;
            c << "5";
        }
        const long before = bench::status_kb("VmRSS:");
        r.run(in);
        const long peak = bench::status_kb("VmHWM:");
        const std::size_t over = r.rss_over ? r.rss_over(in) : in.size();
        std::printf("%.2f\n", before < 0 || peak < 0 ? -1.0 : static_cast<double>(peak - before) * 1024.0 /
                                                                 static_cast<double>(over));
        return 0;
    }
    return 1;
}

double rss_ratio(const char* exe, const row& r, std::size_t size) {
    return bench::child_number(std::string(exe) + " --rss-child=" + r.surface + ":" + r.shape + ":" + std::to_string(size));
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 3;
    std::string filter;
    std::vector<std::size_t> sizes = {64 << 10, 256 << 10, 1 << 20};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--reps=", 0) == 0) reps = std::max(1, std::atoi(a.c_str() + 7));
        else if (a.rfind("--filter=", 0) == 0) filter = a.substr(9);
        else if (a.rfind("--sizes=", 0) == 0) sizes = bench::parse_sizes(a.substr(8));
        else if (a.rfind("--rss-child=", 0) == 0) return rss_child(a.substr(12));
        else sizes.clear();
        if (sizes.empty()) break;
    }
    if (sizes.size() < 2) {
        std::fprintf(stderr, "usage: bench_hostile_surfaces [--reps=N] [--filter=TEXT] [--sizes=64K,256K,1M]\n");
        return 2;
    }
    const std::size_t last = sizes.size() - 1;
    std::printf("%-8s %-14s %-22s", "section", "surface", "shape");
    for (const std::size_t z : sizes) std::printf(" %9s", ("ns/B " + bench::size_label(z)).c_str());
    std::printf(" %7s", "growth");
    for (const std::size_t z : sizes) std::printf(" %9s", ("x " + bench::size_label(z)).c_str());
    std::printf(" %8s\n", "RSS/in");
    for (const row& r : all_rows()) {
        if (!filter.empty() && r.surface.find(filter) == std::string::npos && r.shape.find(filter) == std::string::npos &&
            r.section.find(filter) == std::string::npos) {
            continue;
        }
        std::vector<double> total(sizes.size()), per_byte(sizes.size()), ratio(sizes.size());
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            const std::string in = r.make(sizes[k]);
            double surface_ns = 1e300, parse_ns = 1e300;
            for (int rep = 0; rep < reps; ++rep) {
                surface_ns = std::min(surface_ns, cpu_ns(r.run, in));
                parse_ns = std::min(parse_ns, cpu_ns(r.parse_of, in));
            }
            total[k] = surface_ns;
            per_byte[k] = surface_ns / static_cast<double>(in.size());
            ratio[k] = surface_ns / parse_ns;
        }
        const double growth =
            std::log(total[last] / total[last - 1]) / std::log(static_cast<double>(sizes[last]) / static_cast<double>(sizes[last - 1]));
        const double rss = rss_ratio(argv[0], r, sizes[last]);
        std::printf("%-8s %-14s %-22s", r.section.c_str(), r.surface.c_str(), r.shape.c_str());
        for (const double v : per_byte) std::printf(" %9.2f", v);
        std::printf(" %7.2f", growth);
        for (const double v : ratio) std::printf(" %9.2f", v);
        std::printf(" %8.1f\n", rss);
        std::fflush(stdout);
    }
    return 0;
}
