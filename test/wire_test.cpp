// SPDX-License-Identifier: MIT
// plurnk_wire unit tests. Expected verdicts and error records are the reference engine's
// (@cfworker/json-schema 4 over the shipped schemas, as ../shared/tools/wire-oracle.mjs builds its
// validators), recorded when these cases were written; the generated vectors are scored by the
// wire_vectors tests.
#include <catch2/catch_test_macros.hpp>

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>

#include "plurnk/json.hpp"
#include "plurnk/wire.hpp"
#include "wire/schema_engine.hpp"

namespace {

namespace wire = plurnk::wire;
using plurnk::json_value;

json_value j(std::string_view text) {
    auto v = plurnk::parse_json(text);
    REQUIRE(v.has_value());
    return std::move(*v);
}

bool valid(wire::contract c, std::string_view text) {
    const auto r = wire::validate_json(c, text);
    REQUIRE(r.exception.empty());
    return r.valid;
}

std::string url_path(std::string_view port) {
    return R"({"kind":"url","raw":"x","scheme":"h","username":null,"password":null,"hostname":null,"port":)" +
           std::string(port) + R"(,"pathname":"/","query":null,"fragment":null})";
}

}  // namespace

TEST_CASE("contract names round-trip and every shipped schema loads") {
    for (std::size_t i = 0; i < wire::k_contract_count; ++i) {
        const auto c = static_cast<wire::contract>(i);
        CHECK(wire::contract_from_name(wire::contract_name(c)) == c);
        CHECK((wire::schema_id(c) == "https://schemas.plurnk.dev/v0/" + std::string(wire::contract_name(c)) + ".json" ||
               c == wire::contract::provider_cost));
        CHECK(plurnk::parse_json(wire::schema_text(c)).has_value());
        CHECK(wire::validate(c, j("null")).exception.empty());
    }
    CHECK(wire::schema_id(wire::contract::provider_cost) == "https://plurnk.dev/schema/ProviderCost.json");
    CHECK_FALSE(wire::contract_from_name("position").has_value());
}

TEST_CASE("errors are the reference engine's records, in its order") {
    const auto r = wire::validate_position(j(R"({"line":"1","column":-1})"));
    CHECK_FALSE(r.valid);
    // shortCircuit: the failing "line" ends the properties loop, so "column" is not reported.
    CHECK(wire::errors_json(r.errors) ==
          R"([{"instanceLocation":"#","keyword":"properties","keywordLocation":"#/properties","error":"Property \"line\" does not match schema."},)"
          R"({"instanceLocation":"#/line","keyword":"type","keywordLocation":"#/properties/line/type","error":"Instance type \"string\" is invalid. Expected \"integer\"."}])");

    const auto extra = wire::validate_position(j(R"({"line":1.0,"column":0,"x":1})"));
    CHECK(wire::errors_json(extra.errors) ==
          R"([{"instanceLocation":"#","keyword":"additionalProperties","keywordLocation":"#/additionalProperties","error":"Property \"x\" does not match additional properties schema."},)"
          R"({"instanceLocation":"#/x","keyword":"false","keywordLocation":"#/x","error":"False boolean schema."}])");

    const auto op = wire::validate_operation_result(j(R"({"status":404})"));
    CHECK(wire::errors_json(op.errors) ==
          R"([{"instanceLocation":"#","keyword":"oneOf","keywordLocation":"#/oneOf","error":"Instance does not match exactly one subschema (0 matches)."},)"
          R"({"instanceLocation":"#","keyword":"properties","keywordLocation":"#/oneOf/0/properties","error":"Property \"status\" does not match schema."},)"
          R"({"instanceLocation":"#/status","keyword":"maximum","keywordLocation":"#/oneOf/0/properties/status/maximum","error":"404 is greater than 399."},)"
          R"({"instanceLocation":"#","keyword":"required","keywordLocation":"#/oneOf/1/required","error":"Instance does not have required property \"problem\"."}])");
    CHECK(wire::validate_position(j(R"({"line":1,"column":0})")).errors.empty());
}

TEST_CASE("numbers as JavaScript sees them after JSON.parse") {
    using wire::contract;
    CHECK(valid(contract::position, R"({"line":1.0,"column":-0})"));
    CHECK_FALSE(valid(contract::position, R"({"line":1.5,"column":0})"));
    // The reference's quirk: a lone "integer" accepts Infinity, "integer" in a type list does not.
    CHECK(valid(contract::position, R"({"line":1e400,"column":0})"));
    CHECK_FALSE(valid(contract::parsed_path, url_path("1e400")));
    CHECK(valid(contract::parsed_path, url_path("80.0")));
    CHECK_FALSE(valid(contract::parsed_path, url_path("65536")));
    CHECK(valid(contract::line_marker, R"({"marks":[1e400]})"));
}

TEST_CASE("minLength counts code points, a lone surrogate as one") {
    using wire::contract;
    CHECK_FALSE(valid(contract::matcher_body, R"({"dialect":"xpath","raw":"😀"})"));
    CHECK_FALSE(valid(contract::matcher_body, R"({"dialect":"xpath","raw":"\ud800\udc00"})"));
    CHECK(valid(contract::matcher_body, R"({"dialect":"xpath","raw":"\ud800x"})"));
    CHECK(valid(contract::matcher_body, R"({"dialect":"xpath","raw":"//"})"));
}

TEST_CASE("patterns: $ is the very end; uniqueItems compares values") {
    using wire::contract;
    CHECK(valid(contract::notice, R"({"source":"engine:a-1","kind":"k","level":"info"})"));
    CHECK_FALSE(valid(contract::notice, R"({"source":"abc\n","kind":"k","level":"info"})"));
    CHECK_FALSE(valid(contract::provider_cost, R"({"kind":"estimated","usd":"01","source":"s"})"));
    CHECK(valid(contract::provider_cost, R"({"kind":"estimated","usd":"0.25","source":"s"})"));
    const std::string entry =
        R"({"status":200,"entry":{"entryId":1,"target":"t","channels":{},"tags":["a","b"]}})";
    CHECK(valid(contract::entry_read_result, entry));
    CHECK_FALSE(valid(contract::entry_read_result,
                      R"({"status":200,"entry":{"entryId":1,"target":"t","channels":{},"tags":["a","a"]}})"));
}

TEST_CASE("where the reference throws, the result says so") {
    // encodeURI of a lone surrogate key ("URI malformed"), reached through additionalProperties.
    const auto r = wire::validate_json(wire::contract::notice,
                                       R"({"source":"engine:a-1","kind":"k","level":"info","\ud800":1})");
    CHECK_FALSE(r.valid);
    CHECK(r.exception == "URI malformed");
    CHECK(wire::validate_json(wire::contract::notice, "{").exception == "invalid JSON");
}

TEST_CASE("EntryReadResult suffix rule") {
    const auto ok = R"({"status":200,"entry":{"entryId":1,"target":"t","tags":[],"channels":{"body":)"
                    R"({"content":"h😀","contentOffset":3,"contentLength":5,"mimetype":"text/plain","tokens":1,"state":"static"}}}})";
    CHECK(valid(wire::contract::entry_read_result, ok));
    const auto bad = R"({"status":200,"entry":{"entryId":1,"target":"t","tags":[],"channels":{"body":)"
                     R"({"content":"h😀","contentOffset":3,"contentLength":6,"mimetype":"text/plain","tokens":1,"state":"static"}}}})";
    const auto r = wire::validate_json(wire::contract::entry_read_result, bad);
    REQUIRE_FALSE(r.valid);
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].keyword == "entry-read-suffix");
    CHECK(r.errors[0].instance_location == "/entry/channels/body");
}

TEST_CASE("assert: extra rules, classes and messages") {
    const auto region = wire::assert_text_region(j(R"({"startLine":2,"startColumn":5,"endLine":2,"endColumn":4})"));
    CHECK_FALSE(region.ok);
    CHECK(region.error_class == "InvalidTextRegionError");
    CHECK(region.message == "TextRegion ends before it starts");
    CHECK(wire::assert_text_region(j(R"({"startLine":2,"startColumn":5,"endLine":2,"endColumn":5})")).ok);
    CHECK(wire::validate_text_region(j(R"({"startLine":3,"startColumn":1,"endLine":2,"endColumn":1})")).valid);

    const auto op = wire::assert_operation_result(j(
        R"({"status":404,"problem":{"type":"https://p/x","title":"T","status":410,"detail":"d"}})"));
    CHECK(op.error_class == "InvalidOperationResultError");
    CHECK(op.message == "operation result status 404 does not match problem status 410");

    const auto notice = wire::assert_notice(j(R"({"source":"a","kind":"k"})"));
    CHECK(notice.error_class == "InvalidNoticeError");
    CHECK(notice.message ==
          R"(invalid Notice: [{"instanceLocation":"#","keyword":"required","keywordLocation":"#/required","error":"Instance does not have required property \"level\"."}])");
    CHECK(wire::has_assert_method(wire::contract::loop_flags));
    CHECK_FALSE(wire::has_assert_method(wire::contract::provider_cost));
}

TEST_CASE("a value tree built by the caller") {
    json_value v;
    v.kind = json_value::kind_t::object;
    json_value line, column;
    line.kind = column.kind = json_value::kind_t::number;
    line.number = 3;
    column.number = 0;
    v.object.emplace_back("line", line);
    v.object.emplace_back("column", column);
    CHECK(wire::validate_position(v).valid);
    v.object[1].second.number = 0.5;
    CHECK_FALSE(wire::validate_position(v).valid);
}

TEST_CASE("Problems.create") {
    namespace problems = wire::problems;
    const auto p = problems::create("scheme:file", "not-found", 404, "No such file.");
    REQUIRE(p.ok);
    CHECK(plurnk::stringify_json(p.value) ==
          R"({"type":"https://problems.plurnk.dev/scheme/file/not-found","title":"Not found","status":404,"detail":"No such file."})");
    const auto with = problems::create("daemon:entry", "entry-not-found", 404, "Missing.", j(R"({"status":200,"retryable":false})"),
                                       "Entry missing");
    REQUIRE(with.ok);
    CHECK(plurnk::stringify_json(with.value) ==
          R"({"status":404,"retryable":false,"type":"https://problems.plurnk.dev/daemon/entry/entry-not-found","title":"Entry missing","detail":"Missing."})");
    const auto owner = problems::create("Scheme", "x", 404, "d");
    CHECK_FALSE(owner.ok);
    CHECK(owner.message == R"(problem owner must be a colon-delimited lowercase identifier; got "Scheme")");
    CHECK(problems::create("a", "x_y", 404, "d").message ==
          R"(problem code must be a lowercase kebab-case identifier; got "x_y")");
    CHECK_FALSE(problems::create("a", "x", 200, "d").ok);  // not a problem status
    CHECK_FALSE(problems::create("a", "x", 404, "").ok);   // detail minLength 1
    CHECK(problems::default_title("entry-not-found") == "Entry not found");
    // JavaScript semantics on other JSON: a string spreads its UTF-16 units; null options fail.
    const auto spread = problems::create(j(R"("a")"), j(R"("x")"), j("404"), j(R"("d")"), nullptr, nullptr);
    CHECK(spread.ok);
    const json_value ext = j(R"("hi")");
    const auto s = problems::create(j(R"("a")"), j(R"("x")"), j("404"), j(R"("d")"), &ext, nullptr);
    REQUIRE(s.ok);
    CHECK(plurnk::stringify_json(s.value).starts_with(R"({"0":"h","1":"i","type")"));
    const json_value null_options = j("null");
    CHECK_FALSE(problems::create(j(R"("a")"), j(R"("x")"), j("404"), j(R"("d")"), nullptr, &null_options).ok);
}

TEST_CASE("root values") {
    CHECK(plurnk::stringify_json(wire::default_loop_flags()) ==
          R"({"mode":"act","auto":false,"noWeb":false,"noInteraction":false,"noProposals":false})");
    CHECK(wire::validate_loop_flags(wire::default_loop_flags()).valid);
    CHECK(wire::validate_position(wire::unknown_position()).valid);
    CHECK(wire::is_worker_name("worker-1"));
    CHECK(wire::is_worker_name("a"));
    CHECK_FALSE(wire::is_worker_name("-a"));
    CHECK_FALSE(wire::is_worker_name("a\n"));
    CHECK_FALSE(wire::is_worker_name(std::string(64, 'a')));
    CHECK(wire::is_worker_name(std::string(63, 'a')));
    CHECK(wire::is_reserved_authority("commons"));
    CHECK_FALSE(wire::is_reserved_authority("self"));
    CHECK(std::size(wire::k_plurnk_ops) == 13);
}

TEST_CASE("the engine refuses keywords and patterns outside its subset") {
    using plurnk::wire::detail::schema_set;
    auto add = [](std::string_view text) {
        schema_set s;
        return s.add(text);
    };
    CHECK(add(R"({"$id":"https://x.test/a.json","type":"string"})").empty());
    CHECK_FALSE(add(R"({"$id":"https://x.test/a.json","format":"date"})").empty());
    CHECK_FALSE(add(R"({"$id":"https://x.test/a.json","patternProperties":{}})").empty());
    CHECK_FALSE(add(R"({"$id":"https://x.test/a.json","pattern":"^a.b$"})").empty());
    CHECK_FALSE(add(R"({"$id":"https://x.test/a.json","pattern":"^\\s+$"})").empty());
    CHECK_FALSE(add(R"x({"$id":"https://x.test/a.json","pattern":"^(?=a)"})x").empty());
    CHECK(add(R"x({"$id":"https://x.test/a.json","pattern":"^[a-z.]+(?:-[0-9]{1,3})?$"})x").empty());
    schema_set s;
    REQUIRE(s.add(R"({"$id":"https://x.test/a.json","$ref":"https://x.test/missing.json"})").empty());
    CHECK_FALSE(s.resolve().empty());
}

TEST_CASE("the engine's refusals, keyword by keyword, with their messages") {
    using plurnk::wire::detail::schema_set;
    // {members after "$id", the message add() returns ("" when the schema is taken)}
    const std::pair<std::string_view, std::string_view> cases[] = {
        {R"("title":"t","description":"d","$comment":"c","$schema":"https://json-schema.org/draft/2020-12/schema")", ""},
        {R"("format":"date")", "https://x.test/a.json: keyword format is not supported"},
        {R"("format":1,"minimum":"x")", "https://x.test/a.json: keyword format is not supported"},
        {R"("minimum":"x","format":1)", "https://x.test/a.json: minimum is not a number"},
        {R"("$defs":{"b":{"$id":"https://x.test/b.json"}})", "https://x.test/a.json#/$defs/b: $id inside a document is not supported"},
        {R"("$defs":[])", "https://x.test/a.json: $defs is not an object"},
        {R"("$defs":{"a/b~c":{"pattern":1}})", "https://x.test/a.json#/$defs/a~1b~0c: pattern is not a string"},
        {R"("$ref":1)", "https://x.test/a.json: $ref is not a string"},
        {R"("$ref":"b.json")", "https://x.test/a.json: relative $ref b.json is not supported"},
        {R"("$ref":"#/$defs/x","$defs":{"x":true})", ""},
        {R"("type":["string",1])", "https://x.test/a.json: type list holds a non-string"},
        {R"("type":1)", "https://x.test/a.json: type is neither a string nor a list"},
        {R"("type":["string","integer"],"const":1)", ""},
        {R"("enum":1)", "https://x.test/a.json: enum is not an array"},
        {R"("not":1)", "https://x.test/a.json#/not is not a schema"},
        {R"("propertyNames":{"maxLength":"2"})", "https://x.test/a.json#/propertyNames: maxLength is not a number"},
        {R"("additionalProperties":{"minLength":[]})", "https://x.test/a.json#/additionalProperties: minLength is not a number"},
        {R"("items":[])", "https://x.test/a.json: items as an array is not supported"},
        {R"("items":{"maxItems":null})", "https://x.test/a.json#/items: maxItems is not a number"},
        {R"("anyOf":{})", "https://x.test/a.json#/anyOf is not an array of schemas"},
        {R"("allOf":[true,{"minItems":"1"}])", "https://x.test/a.json#/allOf/1: minItems is not a number"},
        {R"("oneOf":[false,3])", "https://x.test/a.json#/oneOf/1 is not a schema"},
        {R"("required":{})", "https://x.test/a.json: required is not an array"},
        {R"("required":["a",2])", "https://x.test/a.json: required holds a non-string"},
        {R"("properties":[])", "https://x.test/a.json: properties is not an object"},
        {R"("properties":{"a":{"maximum":true}})", "https://x.test/a.json#/properties/a: maximum is not a number"},
        {R"("uniqueItems":1)", "https://x.test/a.json: uniqueItems is not a boolean"},
        {R"("pattern":1)", "https://x.test/a.json: pattern is not a string"},
        {R"("pattern":"^a.b$")", "https://x.test/a.json: pattern ^a.b$ is outside the supported subset ('.' outside a class)"},
        {R"("pattern":"a{2,1}")", "https://x.test/a.json: pattern a{2,1} is not a u-mode RegExp"},
        {R"("minimum":0,"maximum":1,"minItems":0,"maxItems":1,"minLength":0,"maxLength":1,"uniqueItems":true,"pattern":"^[a-z]$")", ""},
    };
    for (const auto& [members, message] : cases) {
        schema_set s;
        const std::string text = std::string(R"({"$id":"https://x.test/a.json",)") + std::string(members) + "}";
        CAPTURE(text);
        CHECK(s.add(text) == message);
    }
    schema_set s;
    CHECK(s.add("{") == "schema is not JSON");
    CHECK(s.add(R"({"$id":"x.json"})") == "schema has no absolute $id");
    REQUIRE(s.add(R"({"$id":"https://x.test/a.json"})").empty());
    CHECK(s.add(R"({"$id":"https://x.test/a.json"})") == "duplicate schema URI https://x.test/a.json");
}

namespace {

// deepCompareStrict / === as the reference engine has them, on values parse_json built.
bool reference_equal(const json_value& a, const json_value& b) {
    if (a.kind != b.kind) return false;
    switch (a.kind) {
        case json_value::kind_t::null: return true;
        case json_value::kind_t::boolean: return a.boolean == b.boolean;
        case json_value::kind_t::number: return a.number == b.number;
        case json_value::kind_t::string: return a.string == b.string;
        case json_value::kind_t::array:
            if (a.array.size() != b.array.size()) return false;
            for (std::size_t i = 0; i < a.array.size(); ++i) {
                if (!reference_equal(a.array[i], b.array[i])) return false;
            }
            return true;
        case json_value::kind_t::object:
            if (a.object.size() != b.object.size()) return false;
            for (const auto& [k, v] : a.object) {
                const json_value* w = b.find(k);
                if (w == nullptr || !reference_equal(v, *w)) return false;
            }
            return true;
    }
    return false;
}

// The reference's uniqueItems loop: every j, every k != j, the first equal pair; "" if none.
std::string reference_duplicate(const json_value& array) {
    for (std::size_t j = 0; j < array.array.size(); ++j) {
        for (std::size_t k = 0; k < array.array.size(); ++k) {
            if (j != k && reference_equal(array.array[j], array.array[k])) {
                return "Duplicate items at indexes " + std::to_string(j) + " and " + std::to_string(k) + ".";
            }
        }
    }
    return "";
}

// The uniqueItems message the engine gives for `tags` (an EntryReadResult's), or "".
std::string engine_duplicate(const std::string& tags) {
    const auto r = wire::validate_json(
        wire::contract::entry_read_result,
        R"({"status":200,"entry":{"entryId":1,"target":"t","channels":{},"tags":)" + tags + "}}");
    REQUIRE(r.exception.empty());
    for (const auto& e : r.errors) {
        if (e.keyword == "uniqueItems") return e.message;
    }
    return "";
}

}  // namespace

TEST_CASE("uniqueItems reports the reference's first pair, with its equality") {
    struct row {
        const char* tags;
        const char* message;
    };
    const row rows[] = {
        {R"(["a","b"])", ""},
        {R"(["a","b","b","a"])", "Duplicate items at indexes 0 and 3."},
        {R"(["x","b","c","b","c"])", "Duplicate items at indexes 1 and 3."},
        {R"([1,1.0])", "Duplicate items at indexes 0 and 1."},
        {R"([0,-0])", "Duplicate items at indexes 0 and 1."},
        {R"([1,"1",true,null,[1],{"1":1}])", ""},
        {R"([{"a":1,"b":[2]},{"b":[2.0],"a":1}])", "Duplicate items at indexes 0 and 1."},
        {R"([{"a":1},{"a":1,"b":2}])", ""},
        {R"([[1,2],[2,1]])", ""},
        {R"([[],{},[],{}])", "Duplicate items at indexes 0 and 2."},
        {R"([{"a":{"b":[1,{"c":null}]}},{"a":{"b":[1,{"c":false}]}},{"a":{"b":[1,{"c":null}]}}])",
         "Duplicate items at indexes 0 and 2."},
        {R"(["","\u0000","\ud800","\ud800"])", "Duplicate items at indexes 2 and 3."},
    };
    for (const row& r : rows) {
        INFO(r.tags);
        CHECK(engine_duplicate(r.tags) == r.message);
        CHECK(reference_duplicate(j(r.tags)) == r.message);
    }

    // Random arrays over values that are equal in JavaScript's sense in several spellings.
    const char* values[] = {"1", "1.0", "1e0", "-0", "0", "\"a\"", "\"b\"", "null", "true", "[]", "{}",
                            "[1]", "[1.0,[]]", "[1,[]]", "{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}", "{\"a\":1}",
                            "{\"0\":1,\"a\":1}", "{\"a\":1,\"0\":1.0}", "[{\"x\":[0]}]", "[{\"x\":[-0]}]"};
    std::uint32_t seed = 12345;
    const auto next = [&seed](std::uint32_t n) {
        seed = seed * 1103515245u + 12345u;
        return (seed >> 8) % n;
    };
    for (int round = 0; round < 500; ++round) {
        std::string tags = "[";
        const std::uint32_t n = next(8);
        for (std::uint32_t i = 0; i < n; ++i) {
            if (i) tags += ',';
            tags += values[next(std::size(values))];
        }
        tags += ']';
        INFO(tags);
        CHECK(engine_duplicate(tags) == reference_duplicate(j(tags)));
    }
}

TEST_CASE("validate_verdict answers as validate does, keeping no error") {
    const std::pair<wire::contract, const char*> cases[] = {
        {wire::contract::position, R"({"line":1,"column":2})"},
        {wire::contract::position, R"({"line":1,"column":2,"a":1,"b":2,"c":[3]})"},
        {wire::contract::position, R"([1,2])"},
        {wire::contract::entry_read_result,
         R"({"status":200,"entry":{"entryId":1,"target":"t","channels":{"c":{"content":"ab","contentOffset":0,"contentLength":3}},"tags":[]}})"},
        {wire::contract::entry_read_result, R"({"status":404,"problem":{},"entry":null})"},
        {wire::contract::notice, R"({"source":"engine:a-1","kind":"k","level":"info"})"},
    };
    for (const auto& [c, text] : cases) {
        INFO(text);
        const auto doc = plurnk::json_document::parse(text);
        REQUIRE(doc);
        const auto full = wire::validate(c, doc->root());
        const auto verdict = wire::validate_verdict(c, doc->root());
        CHECK(verdict.valid == full.valid);
        CHECK(verdict.exception == full.exception);
        CHECK(verdict.errors.empty());
    }
}

TEST_CASE("the service dialect's schemas differ from 1.4.0's in SERVICE.md's three places") {
    using plurnk::parse_dialect;
    const auto service = parse_dialect::service;
    std::size_t variants = 0;
    for (std::size_t i = 0; i < wire::k_contract_count; ++i) {
        const auto c = static_cast<wire::contract>(i);
        const std::string name = wire::contract_name(c);
        CHECK(wire::schema_text(c, parse_dialect::contracts) == wire::schema_text(c));
        CHECK(wire::schema_id(c, parse_dialect::contracts) == wire::schema_id(c));
        if (wire::has_service_variant(c)) {
            ++variants;
            CHECK(wire::schema_id(c, service) == "https://schemas.plurnk.dev/v0/service/" + name + ".json");
            CHECK(wire::schema_text(c, service) != wire::schema_text(c));
        } else {
            CHECK(wire::schema_id(c, service) == wire::schema_id(c));
            CHECK(wire::schema_text(c, service) == wire::schema_text(c));
        }
        CHECK(wire::validate(c, j("null"), service).exception.empty());
    }
    CHECK(variants == wire::k_service_variant_count);

    const auto both = [&](wire::contract c, std::string_view text, bool in_contracts, bool in_service) {
        const auto a = wire::validate_json(c, text, parse_dialect::contracts);
        const auto b = wire::validate_json(c, text, service);
        CHECK(a.exception.empty());
        CHECK(b.exception.empty());
        CHECK(a.valid == in_contracts);
        CHECK(b.valid == in_service);
        CHECK(wire::validate_json(c, text).valid == in_contracts);  // the default is 1.4.0
    };
    // S7: the regex path, all four keys and no others, raw at least 2 characters.
    const std::string rx = R"({"kind":"regex","raw":"#b.*#i","pattern":"b.*","flags":"i"})";
    both(wire::contract::parsed_path, rx, false, true);
    both(wire::contract::parsed_path, R"({"kind":"local","raw":"#b.*#i"})", true, true);
    both(wire::contract::parsed_path, url_path("null"), true, true);
    both(wire::contract::parsed_path, R"({"kind":"regex","raw":"##","pattern":"","flags":""})", false, true);
    both(wire::contract::parsed_path, R"({"kind":"regex","raw":"#","pattern":"","flags":""})", false, false);
    both(wire::contract::parsed_path, R"({"kind":"regex","raw":"#a#","pattern":"a"})", false, false);
    both(wire::contract::parsed_path, R"({"kind":"regex","raw":"#a#","pattern":"a","flags":"","query":null})", false, false);
    both(wire::contract::parsed_path, R"({"kind":"regex","raw":"#a#","pattern":1,"flags":""})", false, false);
    // ... wherever a path goes: a COPY/MOVE destination, a LOOK target.
    both(wire::contract::resource_selection, R"({"target":)" + rx + R"(,"lineMarker":{"marks":[1,3]}})", false, true);
    const std::string at = R"(,"position":{"line":1,"column":0}})";
    both(wire::contract::plurnk_statement,
         R"({"op":"MOVE","suffix":"","signal":null,"target":{"kind":"local","raw":"a.md"},"lineMarker":null,"body":{"target":)" +
             rx + R"(,"lineMarker":{"marks":[1,3]}})" + at,
         false, true);
    both(wire::contract::client_statement,
         R"({"op":"LOOK","suffix":"","signal":null,"target":)" + rx + R"(,"lineMarker":null,"body":null)" + at, false, true);
    // S8: an OPEN or FOLD scope; S10: a FORK without a prompt (an empty one stays refused).
    for (std::string op : {"OPEN", "FOLD"}) {
        both(wire::contract::plurnk_statement,
             R"({"op":")" + op + R"(","suffix":"","signal":null,"target":null,"lineMarker":{"marks":[1,10]},"body":null)" + at,
             false, true);
        both(wire::contract::plurnk_statement,
             R"({"op":")" + op + R"(","suffix":"","signal":null,"target":null,"lineMarker":"1,10","body":null)" + at, false,
             false);
    }
    const std::string fork = R"({"op":"FORK","suffix":"","signal":null,"target":null,"lineMarker":null,"body":)";
    both(wire::contract::plurnk_statement, fork + "null" + at, false, true);
    both(wire::contract::client_statement, fork + "null" + at, false, true);
    both(wire::contract::plurnk_statement, fork + R"("go")" + at, true, true);
    both(wire::contract::plurnk_statement, fork + R"("")" + at, false, false);
    // WORK keeps its required prompt.
    both(wire::contract::plurnk_statement,
         R"({"op":"WORK","suffix":"","signal":null,"target":null,"lineMarker":null,"body":null)" + at, false, false);

    const auto refused = wire::assert_contract(wire::contract::plurnk_statement, j(fork + "null" + at));
    CHECK_FALSE(refused.ok);
    CHECK(refused.error_class == "InvalidContractError");
    CHECK(refused.message.rfind("invalid PlurnkStatement: [", 0) == 0);
    CHECK(wire::assert_contract(wire::contract::plurnk_statement, j(fork + "null" + at), service).ok);
}
