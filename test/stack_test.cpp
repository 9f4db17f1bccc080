// SPDX-License-Identifier: MIT
// The stack bound (doc/limits.md, "Stack"): every surface on the inputs that take it deepest,
// inside a thread whose stack is 64 KiB. The surfaces: the core parse in every tier with its JSON
// output; the stream parser fed 1, 16 and all bytes at a time, checkpointed and asked what is
// open and safe; fmt (format_source and format_turn); the regex, XPath, JSONPath, URL, path and
// resource-selection validators; the rail recognizer that `score` runs; `score` itself (turns,
// JSON Lines, the report's JSON, table and HTML); the rail's build, GBNF text and lowering
// (`gbnf`); the JSON reader and writer; and, built with plurnk_wire (PLURNK_STACK_WIRE), the
// wire contracts' validate, assert and Problems.create. The inputs: each sub-language nested to
// its limit, one level past it and far past it, long flat runs, every hostile shape of
// bench/hostile_shapes.hpp, deep TURN nests, SEND bodies, JSON Lines records and wire values,
// and the conformance and wire vectors given on the command line.
//
// The thread has a guard page below its stack, so an overflow is a crash (the process dies: a
// signal handler on its own stack names the case first). Before each run the unused stack is
// painted; after it, the deepest byte written gives the run's high-water mark, counted from the
// frame that calls the surface (test/stack_probe.hpp). Each run must give the verdict it gives
// on the main thread, and stay under --budget. Plain C++ with no test framework, so that the
// ASan build (build-fuzz, which has no Catch2) runs it too.
//
// Usage: stack_test [OPTION...] [VECTORS.jsonl...]
//   --report        print each surface's deepest case and high-water mark
//   --all           print every case's high-water mark and time
//   --stack=BYTES   the thread's stack (default 65536)
//   --budget=BYTES  fail a case whose high-water mark exceeds it (default: none beyond the
//                   stack itself)
//   --only=SURFACE  run one surface (parse, stream, fmt, score, rail, gbnf, regex, xpath,
//                   jsonpath, url, path, json, wire)
//   --skip=SURFACE  run every surface but this one
//   --every=N       take every Nth vector of the files (default 1)
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hostile_shapes.hpp"
#include "stack_probe.hpp"
#include "plurnk/format.hpp"
#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/path.hpp"
#include "plurnk/rail.hpp"
#include "plurnk/score.hpp"
#include "plurnk/stream.hpp"
#include "plurnk/validate.hpp"
#ifdef PLURNK_STACK_WIRE
#include "plurnk/wire.hpp"
#endif

#ifdef PLURNK_STACK_PROBE_ASAN
// ASan's fake stacks (detect_stack_use_after_return, on by default in clang 19) move a function's
// locals to the heap, which would hide how large its frame really is; measure the real frames.
extern "C" const char* __asan_default_options() { return "detect_stack_use_after_return=0"; }
#endif

namespace {

using plurnk::test::run_on_stack;
using plurnk::test::stack_use;

// The case being run, for the overflow handler.
std::atomic<const char*> g_current{""};

void on_overflow(int sig) {
    const char* name = g_current.load();
    const char head[] = "stack_test: signal in the small-stack thread (stack overflow?) while running: ";
    (void)!write(2, head, sizeof head - 1);
    (void)!write(2, name, std::strlen(name));
    (void)!write(2, "\n", 1);
    signal(sig, SIG_DFL);
    raise(sig);
}

// ---- The cases ---------------------------------------------------------------------------------

struct stack_case {
    std::string surface;
    std::string name;
    std::function<std::string()> run;  // the verdict, compared between the two stacks
};

std::string verdict(const plurnk::result<void>& r) {
    return r.ok() ? std::string("ok") : std::to_string(r.problem().offset) + " " + r.problem().message;
}

std::string repeat(std::string_view unit, std::size_t n) {
    std::string s;
    s.reserve(unit.size() * n);
    for (std::size_t i = 0; i < n; ++i) s += unit;
    return s;
}

std::string nest(std::string_view head, std::string_view open, std::size_t n, std::string_view inner,
                 std::string_view close, std::string_view tail) {
    return std::string(head) + repeat(open, n) + std::string(inner) + repeat(close, n) + std::string(tail);
}

// The largest n for which `refused(n)` is false, knowing refused(hi) is true (refusal is
// monotonic in n for a nesting shape); found on the main thread.
std::size_t deepest(const std::function<bool(std::size_t)>& refused, std::size_t hi) {
    std::size_t lo = 0;  // not refused
    while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        (refused(mid) ? hi : lo) = mid;
    }
    return lo;
}

constexpr std::string_view k_jsonpath_too_deep = "Maximum call stack size exceeded";
constexpr std::string_view k_xpath_too_deep = "XPath expression nested too deeply";
constexpr std::string_view k_regex_too_deep = "Maximum call stack size exceeded";

// A nesting family: query = head + open*n + inner + close*n + tail; its deepest n under the
// validator's limit, that n + 1, and far past it.
struct family {
    std::string name;
    std::string head, open, inner, close, tail;
};

std::vector<std::pair<std::string, std::string>> at_limit(
    const family& f, const std::function<std::string(const std::string&)>& message, std::string_view too_deep,
    std::size_t far) {
    const auto text = [&f](std::size_t n) { return nest(f.head, f.open, n, f.inner, f.close, f.tail); };
    const auto refused = [&](std::size_t n) { return message(text(n)).find(too_deep) != std::string::npos; };
    std::vector<std::pair<std::string, std::string>> out;
    if (!refused(far)) {  // no limit: the far input is the deepest
        out.emplace_back(f.name + " x" + std::to_string(far), text(far));
        return out;
    }
    const std::size_t n = deepest(refused, far);
    out.emplace_back(f.name + " x" + std::to_string(n), text(n));
    out.emplace_back(f.name + " x" + std::to_string(n + 1), text(n + 1));
    out.emplace_back(f.name + " x" + std::to_string(far), text(far));
    return out;
}

std::vector<family> jsonpath_families() {
    return {
        {"function length(", "$[?", "length(", "@", ")", "]"},
        {"function count(", "$[?", "count(", "@.a", ")", "==1]"},
        {"function value(", "$[?", "value(", "@.a", ")", "==1]"},
        {"function match(", "$[?", "match(@,", "'a'", ")", "]"},
        {"parentheses", "$[?", "(", "@", ")", "]"},
        {"not", "$[?", "!", "@", "", "]"},
        {"not paren", "$[?", "!(", "@", ")", "]"},
        {"nested filters", "$", "[?@", "", "]", ""},
        {"nested filters $", "$", "[?$", "", "]", ""},
        {"filter paren", "$", "[?(@", "", ")]", ""},
        {"comparison nests", "$[?", "@==length(", "@", ")", "]"},
        {"and nests", "$[?", "@&&(", "@", ")", "]"},
        {"or-and nests", "$[?", "@||@&&!(", "@", ")", "]"},
        {"bracket lists", "$", "[0,?@", "", "]", ""},
        {"descendant filters", "$", "..[?@", "", "]", ""},
        {"function args", "$[?", "search(@,value(", "@", "))", "]"},
        {"mixed", "$[?", "length(!(@[?", "@", "]))", "]"},
    };
}

std::vector<family> xpath_families() {
    return {
        {"parentheses", "", "(", "1", ")", ""},
        {"predicates", "", "a[", "1", "]", ""},
        {"function calls", "", "f(", "1", ")", ""},
        {"function args", "", "f(1,", "1", ")", ""},
        {"filter predicates", "", "(a)[", "1", "]", ""},
        {"union paths", "", "a|b[", "1", "]", ""},
        {"or chains", "", "1 or (", "1", ")", ""},
        {"mixed", "", "f(a[(-", "1", ")])", ""},
        {"steps", "/", "a/b[c//d[", "1", "]]", ""},
        {"relational", "", "1<2*(3 div", "4", ")", ""},
    };
}

struct regex_family {
    family f;
    std::string flags;
};

std::vector<regex_family> regex_families() {
    return {
        {{"groups", "", "(", "a", ")", ""}, ""},
        {{"groups u", "", "(", "a", ")", ""}, "u"},
        {{"non-capturing", "", "(?:", "a", ")", ""}, ""},
        {{"lookaheads", "", "(?=", "a", ")", ""}, ""},
        {{"lookbehinds", "", "(?<=", "a", ")", ""}, ""},
        {{"alternated groups", "", "a|(", "b", ")", ""}, ""},
        {{"v classes", "", "[", "a", "]", ""}, "v"},
        {{"v intersections", "", "[a&&", "a", "]", ""}, "v"},
        {{"v subtractions", "", "[a--", "a", "]", ""}, "v"},
        {{"v unions", "", "[ab[", "a", "]]", ""}, "v"},
        {{"v strings", "", "[\\q{a|b}[", "a", "]", ""}, "v"},
        {{"v negated", "", "[^", "a", "]", ""}, "v"},
    };
}

// The first 40 bytes of a document for a case's name, control characters as '.'.
std::string excerpt(std::string_view input) {
    std::string out(input.substr(0, 40));
    for (char& c : out) {
        if (static_cast<unsigned char>(c) < 0x20) c = '.';
    }
    return out;
}

// The deepest-nesting inputs of each matcher language inside a statement, for the parse surfaces.
std::string find_statement(std::string_view body) { return "<<FIND(a):" + std::string(body) + ":FIND\n"; }

struct case_list {
    std::vector<stack_case> cases;
    std::vector<std::pair<std::string, plurnk::tier>> documents;  // every parse input, for fmt/score

    void add(std::string surface, std::string name, std::function<std::string()> run) {
        cases.push_back({std::move(surface), std::move(name), std::move(run)});
    }
};

// The parse and its JSON, plain and with spans, and pretty for a short input (a SEND body nested
// N deep is indented N times: its pretty text grows with the square of the input).
std::string parse_json_text(const std::string& input, plurnk::tier t) {
    const plurnk::parse_result r = plurnk::parse(input, t);
    return plurnk::to_json(r) + plurnk::to_json(r, plurnk::json_options{input.size() <= 2048, true});
}

// A stream fed in `chunk`-byte pieces, asked what is open and safe after each, with a
// checkpoint taken halfway, junk fed and the checkpoint restored.
std::string stream_json_text(const std::string& input, plurnk::tier t, std::size_t chunk) {
    plurnk::stream_parser p(t);
    std::size_t events = 0, open_bytes = 0, safe = 0;
    p.set_callback([&events](const plurnk::stream_event&) { ++events; });
    p.set_runaway_limit(4096, [&events](const plurnk::open_info&) { ++events; });
    for (std::size_t at = 0; at < input.size(); at += chunk) {
        if (at <= input.size() / 2 && input.size() / 2 < at + chunk) {
            const plurnk::stream_parser checkpoint = p;
            p.feed("<<READ(junk)::READ\n<<TURN:<<FIND(x):$[?(((@)))]:FIND");
            p = checkpoint;
        }
        p.feed(std::string_view(input).substr(at, chunk));
        open_bytes += p.open().bytes;
        safe = p.safe_prefix();
    }
    return plurnk::to_json(p.finish()) + " events " + std::to_string(events) + " open " + std::to_string(open_bytes) +
           " safe " + std::to_string(safe);
}

std::string fmt_text(const std::string& input, plurnk::tier t) {
    const plurnk::source_format f = plurnk::format_source(input, t);
    const plurnk::format_result turn = plurnk::format_turn(f.result);
    return f.text + (f.changed ? " changed " : " same ") + (turn ? turn.text : "error " + *turn.error);
}

// The validators, each with its deepest inputs.
void add_validator_cases(case_list& list) {
    const auto jsonpath_message = [](const std::string& q) { return verdict(plurnk::validate_jsonpath(q)); };
    for (const family& f : jsonpath_families()) {
        for (auto& [name, q] : at_limit(f, jsonpath_message, k_jsonpath_too_deep, 5000)) {
            list.add("jsonpath", name, [q] { return verdict(plurnk::validate_jsonpath(q)); });
            list.documents.emplace_back(find_statement(q), plurnk::tier::statements);
        }
    }
    const auto xpath_message = [](const std::string& q) { return verdict(plurnk::validate_xpath(q)); };
    for (const family& f : xpath_families()) {
        for (auto& [name, q] : at_limit(f, xpath_message, k_xpath_too_deep, 5000)) {
            list.add("xpath", name, [q] { return verdict(plurnk::validate_xpath(q)); });
            list.documents.emplace_back(find_statement("/" + q), plurnk::tier::statements);
        }
    }
    for (const regex_family& r : regex_families()) {
        const std::string flags = r.flags;
        const auto regex_message = [flags](const std::string& q) { return verdict(plurnk::validate_regex(q, flags)); };
        for (auto& [name, q] : at_limit(r.f, regex_message, k_regex_too_deep, 20000)) {
            list.add("regex", name + " /" + flags, [q, flags] { return verdict(plurnk::validate_regex(q, flags)); });
            list.documents.emplace_back(find_statement("/" + q + "/" + flags), plurnk::tier::statements);
        }
    }
    // Long flat runs.
    list.add("regex", "alternation x20000", [] { return verdict(plurnk::validate_regex(repeat("a|", 20000), "")); });
    list.add("regex", "named groups x5000", [] {
        std::string p;
        for (int i = 0; i < 5000; ++i) p += "(?<n" + std::to_string(i) + ">a)\\k<n" + std::to_string(i) + ">";
        return verdict(plurnk::validate_regex(p, "u"));
    });
    list.add("regex", "property escapes x5000", [] { return verdict(plurnk::validate_regex(repeat("\\p{L}[\\p{Nd}]", 5000), "u")); });
    list.add("xpath", "minus run x20000", [] { return verdict(plurnk::validate_xpath(repeat("-", 20000) + "1")); });
    list.add("xpath", "operator chain x5000", [] { return verdict(plurnk::validate_xpath("1" + repeat(" or a/b[1]|c", 5000))); });
    list.add("jsonpath", "and chain x5000", [] { return verdict(plurnk::validate_jsonpath("$[?@" + repeat("&&@", 5000) + "]")); });
    list.add("jsonpath", "selector list x5000", [] { return verdict(plurnk::validate_jsonpath("$[0" + repeat(",'x'", 5000) + "]")); });
    list.add("jsonpath", "segments x5000", [] { return verdict(plurnk::validate_jsonpath("$" + repeat("..a[1:2:3]", 5000))); });

    // URLs, paths and resource selections.
    const std::vector<std::pair<std::string, std::string>> urls = {
        {"punycode host", "http://" + repeat("xn--ls8h.", 1000) + "a/"},
        {"ipv4 dots", "http://" + repeat("1.", 5000) + "1/"},
        {"hex host", "http://0x" + repeat("f", 10000) + "/"},
        {"ipv6", "http://[" + repeat("1:", 7) + "1]/" + repeat("a/", 5000)},
        {"percent path", "http://a/" + repeat("%", 10000)},
        {"dot segments", "http://a/" + repeat("../.%2e/", 2000) + "?" + repeat("q", 1000) + "#f"},
        {"idna labels", "http://" + repeat("\xc3\xa9\xe2\x82\xac.", 2000) + "com/"},
    };
    for (const auto& [name, u] : urls) {
        list.add("url", name, [u] {
            const auto r = plurnk::parse_url(u);
            return r.ok() ? std::string("ok") : r.problem().message;
        });
        list.documents.emplace_back("<<READ(" + u + ")::READ\n", plurnk::tier::statements);
    }
    const std::vector<std::pair<std::string, std::string>> paths = {
        {"long path", repeat("a/", 5000) + "b"},
        {"globs", repeat("**/{a,b}/[!c]*?", 5000)},
        {"braces", repeat("{", 5000) + "a" + repeat("}", 5000)},
        {"brackets", repeat("[", 5000)},
        {"dots", repeat("../", 5000)},
        {"selection", "src/" + repeat("a", 1000) + "<1,2,3,4>"},
    };
    for (const auto& [name, p] : paths) {
        list.add("path", name, [p] {
            const auto r = plurnk::parse_path(p);
            return r.ok() ? std::string(r.value() ? "path" : "none") : r.problem().message;
        });
        list.add("path", "selection " + name, [p] {
            const auto r = plurnk::parse_resource_selection(p);
            return r.ok() ? std::string(r.value() ? "selection" : "none") : r.problem().message;
        });
    }
}

// Every document: the deepest nests of each sub-language in a statement, the hostile shapes and
// TURN nests, in each tier they make sense in.
void add_documents(case_list& list) {
    for (const plurnk::shapes::shape& s : plurnk::shapes::all()) {
        // 4 KB nests every nesting shape past its limit; the stack a shape takes does not grow
        // with its size past that.
        list.documents.emplace_back(plurnk::shapes::make(s, 4 * 1024), s.tier);
    }
    for (const std::size_t depth : {255, 256, 257, 5000}) {
        list.documents.emplace_back(repeat("<<TURN:", depth) + "<<PLAN:p:PLAN\n" + repeat(":TURN\n", depth), plurnk::tier::log);
    }
    list.documents.emplace_back(nest("<<PLAN:p:PLAN\n<<READ(", "(", 5000, "a", ")", ")::READ\n"), plurnk::tier::parse);
    list.documents.emplace_back(nest("<<SEND(worker://w):", "[", 20000, "1", "]", ":SEND\n"), plurnk::tier::statements);
    list.documents.emplace_back(nest("<<SEND(worker://w):", "{\"0\":", 5000, "1", "}", ":SEND\n"), plurnk::tier::statements);
    list.documents.emplace_back(nest("<<PLAN:p:PLAN\n", "<think>", 5000, "x", "</think>", ""), plurnk::tier::parse);
    list.documents.emplace_back(repeat("<<READ(a)::READ\n", 2000), plurnk::tier::client);
}

void add_document_cases(case_list& list) {
    static plurnk::score::scorer* scorer = new plurnk::score::scorer();
    for (std::size_t i = 0; i < list.documents.size(); ++i) {
        const std::string& input = list.documents[i].first;
        const plurnk::tier t = list.documents[i].second;
        const std::string name = std::string(plurnk::tier_name(t)) + " #" + std::to_string(i) + " " + excerpt(input);
        list.add("parse", name, [&input, t] { return parse_json_text(input, t); });
        for (const std::size_t chunk : {std::size_t{1}, std::size_t{16}, input.size() + 1}) {
            if (chunk == 1 && input.size() > 8192) continue;  // 1-byte feeds of the big ones are slow and no deeper
            list.add("stream", name + " chunk " + std::to_string(chunk),
                     [&input, t, chunk] { return stream_json_text(input, t, chunk); });
        }
        list.add("fmt", name, [&input, t] { return fmt_text(input, t); });
        list.add("score", name, [&input, t] {
            plurnk::score::report r = scorer->empty_report();
            scorer->add(r, plurnk::score::turn{input, "", "id", "", t});
            std::string v;
            for (const bool b : scorer->on_rail(input)) v += b ? '1' : '0';
            const std::string json = r.to_json();
            const auto back = plurnk::score::report::from_json(json);
            return v + " " + json + (back && *back == r ? " reads back " : " does not read back ") +
                   plurnk::score::render_table(r) + plurnk::score::render_html(r);
        });
    }
}

// `score` over JSON Lines: records whose text is the deepest document and whose other fields
// nest deep.
void add_score_jsonl_cases(case_list& list) {
    const std::vector<std::pair<std::string, std::string>> records = {
        {"deep array field", "{\"id\":\"a\",\"model\":\"m\",\"text\":\"<<PLAN:p:PLAN\",\"x\":" + repeat("[", 20000) +
                                 repeat("]", 20000) + "}\n"},
        {"deep object field", "{\"id\":\"b\",\"x\":" + repeat("{\"0\":", 5000) + "1" + repeat("}", 5000) +
                                  ",\"text\":\"<<PLAN:p:PLAN\"}\n"},
        {"deep jsonpath text", "{\"id\":\"c\",\"tier\":\"statements\",\"text\":\"<<FIND(a):$[?" + repeat("length(", 1021) +
                                   "@" + repeat(")", 1021) + "]:FIND\"}\n"},
        {"unclosed", "{\"id\":\"d\",\"text\":" + repeat("[", 20000) + "\n"},
    };
    static plurnk::score::scorer* scorer = new plurnk::score::scorer();
    for (const auto& [name, line] : records) {
        list.add("score", "jsonl " + name, [line] {
            plurnk::score::report r = scorer->empty_report();
            scorer->add_jsonl(r, line, "f.jsonl");
            return r.to_json();
        });
    }
}

// The JSON reader and writer on their own (parse_json, stringify_json, canonical_json, and the
// value's destruction): nesting far past anything a caller would check.
void add_json_cases(case_list& list) {
    const std::vector<std::pair<std::string, std::string>> texts = {
        {"arrays x100000", nest("", "[", 100000, "", "]", "")},
        {"objects x50000", nest("", "{\"a\":", 50000, "1", "}", "")},
        {"reordered objects x2000", nest("", "{\"b\":1,\"0\":", 2000, "1", "}", "")},
        {"mixed x30000", nest("", "[1,{\"a\":", 30000, "[]", "}]", "")},
        {"unclosed x100000", repeat("[{\"a\":", 100000)},
    };
    for (const auto& [name, text] : texts) {
        list.add("json", name, [text] {
            const auto v = plurnk::parse_json(text);
            const auto canonical = plurnk::canonical_json(text);
            const std::string out = v ? plurnk::stringify_json(*v) : "invalid";
            return out + " " + (canonical ? *canonical : "none");
        });
    }
}

#ifdef PLURNK_STACK_WIRE
namespace wire = plurnk::wire;

// A contract's verdict on a value: validate and assert_contract.
std::string wire_verdict(wire::contract c, const plurnk::json_value& v) {
    const wire::validation_result r = wire::validate(c, v);
    const wire::assertion a = wire::assert_contract(c, v);
    return std::string(r.valid ? "valid " : "invalid ") + r.exception + wire::errors_json(r.errors) + " " + a.error_class +
           " " + a.message;
}

// Every property name any shipped schema declares, so that a deep value can be put where each
// schema descends.
std::vector<std::string> schema_property_names() {
    std::vector<std::string> names;
    for (std::size_t c = 0; c < wire::k_contract_count; ++c) {
        const auto schema = plurnk::parse_json(wire::schema_text(static_cast<wire::contract>(c)));
        std::vector<const plurnk::json_value*> todo{&*schema};
        while (!todo.empty()) {
            const plurnk::json_value* v = todo.back();
            todo.pop_back();
            for (const plurnk::json_value& x : v->array) todo.push_back(&x);
            for (const auto& [key, x] : v->object) {
                todo.push_back(&x);
                if (key != "properties") continue;
                for (const auto& member : x.object) {
                    if (std::find(names.begin(), names.end(), member.first) == names.end()) names.push_back(member.first);
                }
            }
        }
    }
    return names;
}

// The wire contracts (validate, assert_contract, validate_json, Problems.create): values as deep
// as k_json_max_depth allows, one past it and far past it, at the root and under every property
// name; the wire vectors (`instances`); and every statement the parser makes of each document as
// PlurnkStatement and ClientStatement.
void add_wire_cases(case_list& list, const std::vector<std::pair<wire::contract, std::string>>& instances) {
    const std::size_t limit = plurnk::k_json_max_depth;
    const auto deep = [](std::size_t depth) { return nest("", "[", depth, "", "]", ""); };
    const std::vector<std::string> names = schema_property_names();
    for (std::size_t i = 0; i < wire::k_contract_count; ++i) {
        const auto c = static_cast<wire::contract>(i);
        const std::string contract = wire::contract_name(c);
        for (const std::size_t depth : {limit, limit + 1, std::size_t{20000}}) {
            const std::string text = deep(depth);
            list.add("wire", contract + " root x" + std::to_string(depth), [c, text] {
                const auto r = wire::validate_json(c, text);
                return std::string(r.valid ? "valid " : "invalid ") + r.exception + wire::errors_json(r.errors);
            });
        }
        for (const std::size_t depth : {limit - 1, limit}) {
            for (const std::string& name : names) {
                std::string key;
                plurnk::append_json_value_string(key, name);
                for (const std::string& text : {"{" + key + ":" + deep(depth) + "}",
                                                "{" + key + ":[" + deep(depth - 1) + "," + deep(depth - 1) + "]}"}) {
                    list.add("wire", contract + " " + name + " " + text.substr(0, 20) + " x" + std::to_string(depth),
                             [c, text] { return wire_verdict(c, *plurnk::parse_json(text)); });
                }
            }
        }
    }
    for (const auto& [c, text] : instances) {
        list.add("wire", std::string(wire::contract_name(c)) + " vector " + excerpt(text),
                 [c, text] { return wire_verdict(c, *plurnk::parse_json(text)); });
    }
    // Problems.create: each argument as deep as allowed and one past it.
    for (const std::size_t depth : {limit - 1, limit, limit + 1}) {
        for (std::size_t at = 0; at < 6; ++at) {
            list.add("wire", "Problems.create argument " + std::to_string(at) + " x" + std::to_string(depth), [at, depth, deep] {
                std::vector<plurnk::json_value> args;
                for (const char* a : {"\"owner\"", "\"code\"", "400", "\"detail\"", "{}", "{}"}) args.push_back(*plurnk::parse_json(a));
                const std::string inner = deep(at < 4 ? depth : depth - 1);
                args[at] = *plurnk::parse_json(at < 4 ? inner : "{\"title\":" + inner + "}");
                const auto r = wire::problems::create_args(args);
                return r.ok ? plurnk::stringify_json(r.value) : r.message;
            });
        }
    }
    for (std::size_t i = 0; i < list.documents.size(); ++i) {
        const std::string& input = list.documents[i].first;
        const plurnk::tier t = list.documents[i].second;
        list.add("wire", "statements of " + std::string(plurnk::tier_name(t)) + " #" + std::to_string(i) + " " + excerpt(input),
                 [&input, t] {
                     std::string out;
                     for (const plurnk::item& it : plurnk::parse(input, t).items) {
                         const auto* st = std::get_if<plurnk::statement>(&it);
                         if (st == nullptr) continue;
                         std::string text;
                         plurnk::append_json(text, *st);
                         const auto v = plurnk::parse_json(text);
                         out += wire_verdict(wire::contract::plurnk_statement, *v);
                         out += wire_verdict(wire::contract::client_statement, *v);
                     }
                     return out;
                 });
    }
}
#endif

// The rail recognizer on its own: each channel's recognizer over each document.
void add_rail_cases(case_list& list) {
    static std::vector<plurnk::score::rail_recognizer>* recognizers = [] {
        auto* v = new std::vector<plurnk::score::rail_recognizer>();
        for (const plurnk::rail::channel_format c :
             {plurnk::rail::channel_format::gemma, plurnk::rail::channel_format::think, plurnk::rail::channel_format::none}) {
            plurnk::rail::options o;
            o.channel = c;
            auto g = plurnk::rail::build(o);
            if (g.ok()) v->emplace_back(g.value());
        }
        return v;
    }();
    for (std::size_t i = 0; i < list.documents.size(); ++i) {
        const std::string& input = list.documents[i].first;
        list.add("rail", "#" + std::to_string(i) + " " + excerpt(input), [&input] {
            std::string v;
            for (auto& r : *recognizers) v += r.accepts(input) ? '1' : '0';
            return v;
        });
    }
}

// The rail itself (plurnk gbnf): built and written with the longest literals and the most
// statements the options allow, then recognized over, as `score` does with its own rails.
void add_rail_build_cases(case_list& list) {
    std::string close = "#";
    for (std::size_t i = 1; i < plurnk::rail::k_max_channel_literal; ++i) close += static_cast<char>('a' + i % 26);
    const std::vector<std::pair<std::string, plurnk::rail::options>> variants = [&close] {
        std::vector<std::pair<std::string, plurnk::rail::options>> v;
        plurnk::rail::options custom;
        custom.channel = plurnk::rail::channel_format::custom;
        custom.channel_open = std::string(plurnk::rail::k_max_channel_literal, 'o');
        custom.channel_close = close;
        custom.max_statements = plurnk::rail::k_max_statements_limit;
        v.emplace_back("custom channel, 64-byte literals", custom);
        plurnk::rail::options suffixes;
        suffixes.suffixes.clear();
        for (int i = 0; i < 200; ++i) suffixes.suffixes.push_back("s" + std::to_string(i) + "_xyzab");
        v.emplace_back("200 suffixes of 8", suffixes);
        plurnk::rail::options service = suffixes;  // the service dialect's rail (doc/rail.md)
        service.dialect = plurnk::parse_dialect::service;
        v.emplace_back("service dialect, 200 suffixes of 8", service);
        return v;
    }();
    for (const auto& [name, o] : variants) {
        const std::string sample = o.channel == plurnk::rail::channel_format::custom
                                       ? o.channel_open + "x" + close.substr(0, 40) + close + "<<PLAN:p:PLAN\n<<SEND[200]:d:SEND"
                                       : "<<PLAN1:p:PLAN1\n<<SEND[200]:d:SEND";
        list.add("gbnf", name, [o, sample] {
            const auto g = plurnk::rail::build(o);
            if (!g.ok()) return g.problem().message;
            plurnk::score::rail_recognizer r(g.value());
            return plurnk::rail::to_gbnf(g.value()) + (r.accepts(sample) ? " accepts" : " refuses");
        });
    }
}

}  // namespace

int main(int argc, char** argv) {
    bool report = false;
    bool all = false;
    std::size_t stack_bytes = 64 * 1024;
    std::size_t budget = 0;
    std::size_t every = 1;
    std::string only, skip;
    std::vector<std::string> vector_files;
#ifdef PLURNK_STACK_WIRE
    std::vector<std::pair<wire::contract, std::string>> wire_instances;
#endif
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--report") {
            report = true;
        } else if (a == "--all") {
            all = true;
        } else if (a.starts_with("--stack=")) {
            stack_bytes = std::stoul(std::string(a.substr(8)));
        } else if (a.starts_with("--budget=")) {
            budget = std::stoul(std::string(a.substr(9)));
        } else if (a.starts_with("--every=")) {
            every = std::max<std::size_t>(1, std::stoul(std::string(a.substr(8))));
        } else if (a.starts_with("--only=")) {
            only = a.substr(7);
        } else if (a.starts_with("--skip=")) {
            skip = a.substr(7);
        } else {
            vector_files.emplace_back(a);
        }
    }

    case_list list;
    add_validator_cases(list);
    add_rail_build_cases(list);
    add_documents(list);
    for (const std::string& file : vector_files) {
        std::ifstream in(file, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "stack_test: cannot read %s\n", file.c_str());
            return 2;
        }
        std::string line;
        for (std::size_t n = 0; std::getline(in, line); ++n) {
            if (n % every != 0) continue;
            const auto v = plurnk::parse_json(line);
            const plurnk::json_value* input = v ? v->find("input") : nullptr;
            const plurnk::json_value* tier = v ? v->find("tier") : nullptr;
#ifdef PLURNK_STACK_WIRE
            const plurnk::json_value* contract = v ? v->find("contract") : nullptr;
            const plurnk::json_value* instance = v ? v->find("instance") : nullptr;
            if (contract != nullptr && instance != nullptr) {
                if (const auto c = wire::contract_from_name(contract->string)) {
                    wire_instances.emplace_back(*c, plurnk::stringify_json(*instance));
                }
                continue;
            }
#endif
            if (input == nullptr || tier == nullptr) continue;
            const auto t = plurnk::tier_from_name(tier->string);
            if (t) list.documents.emplace_back(input->string, *t);
        }
    }
    add_document_cases(list);
    add_score_jsonl_cases(list);
    add_rail_cases(list);
    add_json_cases(list);
#ifdef PLURNK_STACK_WIRE
    add_wire_cases(list, wire_instances);
#endif

    struct sigaction sa{};
    sa.sa_handler = on_overflow;
    sa.sa_flags = SA_ONSTACK;
#ifndef PLURNK_STACK_PROBE_ASAN  // ASan reports a stack overflow itself
    sigaction(SIGSEGV, &sa, nullptr);
    sigaction(SIGBUS, &sa, nullptr);
#endif

    struct deepest_run {
        std::size_t high_water = 0;
        std::string name;
        std::size_t cases = 0;
    };
    std::map<std::string, deepest_run> by_surface;
    std::size_t failures = 0, room = 0, ran = 0;
    for (const stack_case& c : list.cases) {
        if ((!only.empty() && c.surface != only) || c.surface == skip) continue;
        const std::string label = c.surface + ": " + c.name;
        const auto t0 = std::chrono::steady_clock::now();
        const std::string want = c.run();  // on the main thread's stack
        std::string got;
        g_current = label.c_str();
        const stack_use job = run_on_stack([&c, &got] { got = c.run(); }, stack_bytes);
        g_current = "";
        ++ran;
        room = job.room;
        if (all) {
            const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
            std::printf("%8zu %6lld ms %s\n", job.high_water, static_cast<long long>(ms.count()), label.substr(0, 100).c_str());
        }
        deepest_run& d = by_surface[c.surface];
        ++d.cases;
        if (job.high_water > d.high_water) {
            d.high_water = job.high_water;
            d.name = c.name;
        }
        if (got != want) {
            ++failures;
            std::fprintf(stderr, "FAIL %s: the verdict in the small stack differs\n", label.c_str());
        }
        if (budget != 0 && job.high_water > budget) {
            ++failures;
            std::fprintf(stderr, "FAIL %s: %zu bytes of stack, over the budget of %zu\n", label.c_str(), job.high_water, budget);
        }
    }
    if (report) {
        std::printf("thread stack %zu bytes, %zu of them below the test's frame\n", stack_bytes, room);
        std::printf("%-10s %8s %6s  %s\n", "surface", "bytes", "cases", "deepest case");
        for (const auto& [surface, d] : by_surface) {
            std::printf("%-10s %8zu %6zu  %s\n", surface.c_str(), d.high_water, d.cases, d.name.substr(0, 70).c_str());
        }
    }
    std::printf("%zu cases, %zu failures\n", ran, failures);
    return failures == 0 ? 0 : 1;
}
