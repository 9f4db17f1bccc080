// SPDX-License-Identifier: MIT
// The JSON reader: canonical_json against JSON.stringify(JSON.parse(raw)) as Node 20 computes it
// (the expected texts below were produced by node), the JSON.parse grammar V8 accepts, property
// order, lone surrogates, invalid UTF-8, number rounding, and nesting far deeper than the stack.
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include "plurnk/plurnk.hpp"

using namespace plurnk;
using namespace std::string_view_literals;

namespace {
// canonical_json as a string, or "!" when the input is not JSON.
std::string canon(std::string_view raw) {
    auto r = canonical_json(raw);
    return r ? *r : std::string("!");
}
}  // namespace

TEST_CASE("canonical_json equals JSON.stringify(JSON.parse(raw))", "[json_reader]") {
    struct row {
        std::string_view in;
        std::string_view out;
    };
    const row rows[] = {
        // top-level scalars and whitespace (space, tab, LF, CR only)
        {"null", "null"},
        {"true", "true"},
        {"false", "false"},
        {"\"x\"", "\"x\""},
        {"42", "42"},
        {" \t\r\n42 \t\r\n", "42"},
        {"[ 1 , 2 ]", "[1,2]"},
        {"{ \"a\" : [ ] , \"b\" : { } }", "{\"a\":[],\"b\":{}}"},
        // numbers: doubles printed as Number#toString
        {"-0", "0"},
        {"-0.0", "0"},
        {"0e0", "0"},
        {"1E5", "100000"},
        {"1e+5", "100000"},
        {"1e-5", "0.00001"},
        {"1e-7", "1e-7"},
        {"1e21", "1e+21"},
        {"1e20", "100000000000000000000"},
        {"0.1", "0.1"},
        {"123.456e-7", "0.0000123456"},
        {"12345678901234567890", "12345678901234567000"},
        {"9007199254740993", "9007199254740992"},
        {"1.7976931348623157e308", "1.7976931348623157e+308"},
        {"1.7976931348623159e308", "null"},
        {"1e400", "null"},
        {"-1e400", "null"},
        {"1e-400", "0"},
        {"5e-324", "5e-324"},
        {"2e-324", "0"},
        {"2.4703282292062328e-324", "5e-324"},
        {"2.4703282292062327e-324", "0"},
        {"1e99999999999999999999", "null"},
        {"1e-99999999999999999999", "0"},
        {"0e99999999999999999999", "0"},
        {"0.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "00000000000000000000000000000000000000000000000000000001",
         "0"},
        {"[0.30000000000000004,1e23,8.41e21]", "[0.30000000000000004,1e+23,8.41e+21]"},
        // strings: escapes, surrogate pairs, lone surrogates kept as \uXXXX
        {R"("\"\\\/\b\f\n\r\t")", R"("\"\\/\b\f\n\r\t")"},
        {R"("\u0000\u001f\u0041\u00e9")", "\"\\u0000\\u001fA\xC3\xA9\""},
        {R"("\u2028\ufeff\u007f")", "\"\xE2\x80\xA8\xEF\xBB\xBF\x7F\""},
        {R"("\ud83d\ude00")", "\"\xF0\x9F\x98\x80\""},
        {R"("\uD83D\uDE00")", "\"\xF0\x9F\x98\x80\""},
        {R"("\ud800")", R"("\ud800")"},
        {R"("\udfff")", R"("\udfff")"},
        {R"("\ude00\ud83d")", R"("\ude00\ud83d")"},
        {R"("\ud83d\ud83d\ude00")", "\"\\ud83d\xF0\x9F\x98\x80\""},
        {R"("\ud83dx\ude00")", R"("\ud83dx\ude00")"},
        {R"({"\ud800":"\udc00"})", R"({"\ud800":"\udc00"})"},
        {"\"\xF0\x9F\x98\x80 \xE4\xB8\xAD\"", "\"\xF0\x9F\x98\x80 \xE4\xB8\xAD\""},
        // invalid UTF-8 inside a string: one U+FFFD per invalid byte
        {"\"\xFF\"", "\"\xEF\xBF\xBD\""},
        {"\"a\xC3\"", "\"a\xEF\xBF\xBD\""},
        {"\"\xE2\x82\"", "\"\xEF\xBF\xBD\xEF\xBF\xBD\""},
        {"\"\xED\xA0\x80\"", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\""},
        {"\"\xC0\x80\"", "\"\xEF\xBF\xBD\xEF\xBF\xBD\""},
        {"\"\xF4\x90\x80\x80\"", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\""},
        // objects: last value wins in the first place; array-index keys first, ascending
        {R"({"b":1,"a":2,"b":3})", R"({"b":3,"a":2})"},
        {R"({"1":1,"0":0,"a":2,"1":4})", R"({"0":0,"1":4,"a":2})"},
        {R"({"z":1,"10":1,"9":1,"01":1,"-1":1,"1.0":1,"4294967294":1,"4294967295":1})",
         R"({"9":1,"10":1,"4294967294":1,"z":1,"01":1,"-1":1,"1.0":1,"4294967295":1})"},
        {R"({"\u0031":1,"0":2})", R"({"0":2,"1":1})"},
        // reordered in one pass (no repeated key): commas inside values, nested objects ordered first
        {R"({"1" : [1, {"3":"a,b","2":{}}] , "0" : "x,y"})", R"({"0":"x,y","1":[1,{"2":{},"3":"a,b"}]})"},
        {R"({"a":{"1":1,"0":0},"0":[{"5":5,"4":4}]})", R"({"0":[{"4":4,"5":5}],"a":{"0":0,"1":1}})"},
        {R"({"2":2,"b":"}","1":1)", "!"},
        {R"({"__proto__":{"x":1},"constructor":2})", R"({"__proto__":{"x":1},"constructor":2})"},
        {R"({"":1,"":2})", R"({"":2})"},
        {R"({"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k3":33,"7":7,"k0":0})",
         R"({"7":7,"k0":0,"k1":1,"k2":2,"k3":33,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9})"},
    };
    for (const auto& r : rows) {
        CAPTURE(r.in);
        CHECK(canon(r.in) == r.out);
    }
}

TEST_CASE("text that JSON.parse rejects", "[json_reader]") {
    const std::string_view bad[] = {
        "", " ", "nul", "nulll", "True", "undefined", "NaN", "Infinity", "-Infinity",
        // numbers
        "00", "01", "-", "-a", "+1", "1.", ".5", "1e", "1e+", "1.e5", "0x10", "--1", "1_0", "- 1",
        // structure
        "[1,]", "{\"a\":1,}", "[,1]", "{,}", "[1 2]", "{\"a\" 1}", "{\"a\":1 \"b\":2}", "{1:2}", "{'a':1}",
        "[1]]", "[[1]", "{\"a\":1", "[", "{", "]", "1 2", "\"a\" \"b\"", "{\"a\"}", "{\"a\":}",
        // whitespace V8 does not accept
        "\f1", "\v1", "\xC2\xA0" "1", "1\xC2\xA0", "\xEF\xBB\xBF" "1", "\xE2\x80\xA8" "1",
        // strings
        "\"abc", "\"\\\"", "\"a\tb\"", "\"a\nb\"", "\"\x01\"", "\"\x1F\"", "\"\\x41\"", "\"\\a\"", "\"\\'\"",
        "\"\\0\"", "\"\\U0041\"", "\"\\u12\"", "\"\\u12g4\"", "\"\\", "\"\\u", "'a'",
        // invalid bytes outside strings
        "\xFF", "[\xFF]",
    };
    for (auto in : bad) {
        CAPTURE(in);
        CHECK_FALSE(parse_json(in).has_value());
        CHECK_FALSE(canonical_json(in).has_value());
    }
    // An embedded NUL is a byte like any other: never a terminator.
    CHECK_FALSE(parse_json("1\0"sv).has_value());
    CHECK_FALSE(parse_json("\"a\0\""sv).has_value());
}

TEST_CASE("parse_json builds values and find looks members up", "[json_reader]") {
    auto v = parse_json(R"({"id":7,"input":"<<READ(a)::READ","tier":"statements","b":[true,null,-1.5],"id":8})");
    REQUIRE(v);
    REQUIRE(v->kind == json_value::kind_t::object);
    CHECK(v->object.size() == 4);
    const json_value* id = v->find("id");
    REQUIRE(id);
    CHECK(id->kind == json_value::kind_t::number);
    CHECK(id->number == 8);
    CHECK(v->object[0].first == "id");
    const json_value* input = v->find("input");
    REQUIRE(input);
    CHECK(input->kind == json_value::kind_t::string);
    CHECK(input->string == "<<READ(a)::READ");
    const json_value* b = v->find("b");
    REQUIRE(b);
    REQUIRE(b->kind == json_value::kind_t::array);
    REQUIRE(b->array.size() == 3);
    CHECK(b->array[0].kind == json_value::kind_t::boolean);
    CHECK(b->array[0].boolean);
    CHECK(b->array[1].kind == json_value::kind_t::null);
    CHECK(b->array[2].number == -1.5);
    CHECK(v->find("missing") == nullptr);
    CHECK(b->find("0") == nullptr);  // not an object

    auto neg_zero = parse_json("-0");
    REQUIRE(neg_zero);
    CHECK(std::signbit(neg_zero->number));

    auto lone = parse_json(R"("a\ud800b")");
    REQUIRE(lone);
    CHECK(lone->string == "a\xED\xA0\x80" "b");  // WTF-8
    CHECK(stringify_json(*lone) == R"("a\ud800b")");
}

TEST_CASE("stringify_json writes hand-built values", "[json_reader]") {
    json_value v;
    v.kind = json_value::kind_t::object;
    json_value n;
    n.kind = json_value::kind_t::number;
    n.number = std::nan("");
    v.object.emplace_back("nan", n);
    json_value s;
    s.kind = json_value::kind_t::string;
    s.string = "\xFF\n\"";
    v.object.emplace_back("s\xED\xBF\xBF", s);
    json_value a;
    a.kind = json_value::kind_t::array;
    a.array.emplace_back();
    v.object.emplace_back("a", a);
    CHECK(stringify_json(v) == "{\"nan\":null,\"s\\udfff\":\"\xEF\xBF\xBD\\n\\\"\",\"a\":[null]}");
    std::string out = "x";
    append_json_value(out, json_value{});
    CHECK(out == "xnull");
    out.clear();
    append_json_value_string(out, "\xED\xA0\x80\xED\xB0\x80\x01\xED\x9F\xBF\xED");
    CHECK(out == "\"\\ud800\\udc00\\u0001\xED\x9F\xBF\xEF\xBF\xBD\"");
}

TEST_CASE("nesting deeper than any call stack", "[json_reader]") {
    // The implicit recursive destructor alone overflows an 8 MB stack near depth 500'000 at -O2.
    constexpr std::size_t depth = 1'000'000;
    std::string deep(depth, '[');
    deep.append(depth, ']');
    auto r = canonical_json(deep);
    REQUIRE(r);
    CHECK(*r == deep);

    std::string objects;
    for (std::size_t i = 0; i < 100'000; ++i) objects += "{\"a\":[";
    objects += "\"\\ud800\"";
    for (std::size_t i = 0; i < 100'000; ++i) objects += "]}";
    auto v = parse_json(objects);
    REQUIRE(v);
    CHECK(stringify_json(*v) == objects);

    deep.pop_back();
    CHECK_FALSE(parse_json(deep).has_value());
}

TEST_CASE("large objects with repeated keys", "[json_reader]") {
    // Exercises the hash index: 1000 keys written twice, values from the second pass win.
    std::string in = "{";
    std::string expected = "{";
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < 1000; ++i) {
            if (in.size() > 1) in += ',';
            in += "\"k" + std::to_string(i) + "\":" + std::to_string(pass * 1000 + i);
        }
    }
    in += ",\"5\":1,\"3\":2}";
    expected += "\"3\":2,\"5\":1";
    for (int i = 0; i < 1000; ++i) expected += ",\"k" + std::to_string(i) + "\":" + std::to_string(1000 + i);
    expected += '}';
    CHECK(canon(in) == expected);
}

TEST_CASE("special bytes at every offset of a long string", "[json_reader]") {
    // The string scanner tests eight bytes at a time; put each kind of byte at every offset.
    struct row {
        std::string_view special;
        std::string_view written;  // "!" when the text is rejected
    };
    const row rows[] = {
        {"\xC3\xA9", "\xC3\xA9"},  {"\xFF", "\xEF\xBF\xBD"}, {"\x01", "!"},       {"\x1F", "!"},
        {"\\n", "\\n"},            {"\\\"", "\\\""},        {"\\u0041", "A"},    {"\x7F", "\x7F"},
        {" ", " "},                {"\xE2\x82", "\xEF\xBF\xBD\xEF\xBF\xBD"},
    };
    for (const auto& r : rows) {
        for (std::size_t at = 0; at < 20; ++at) {
            for (std::size_t tail = 0; tail < 10; ++tail) {
                const std::string before(at, 'a'), after(tail, 'b');
                const std::string in = "\"" + before + std::string(r.special) + after + "\"";
                const std::string want = r.written == "!" ? "!" : "\"" + before + std::string(r.written) + after + "\"";
                CAPTURE(in);
                CHECK(canon(in) == want);
                // Unterminated: the scanner must stop at the end of the view, not at a NUL.
                CHECK_FALSE(parse_json(std::string_view(in).substr(0, in.size() - 1)).has_value());
            }
        }
    }
}

// canonical_json writes most text in one pass and rebuilds values only for objects JavaScript
// reorders or merges; both ways must give the same text as stringify_json(parse_json(raw)).
TEST_CASE("canonical_json's one-pass writer and its value path agree", "[json_reader]") {
    std::string wide = "{";
    for (int k = 0; k < 40; ++k) wide += (k ? ",\"k" : "\"k") + std::to_string(k % 30) + "\":" + std::to_string(k);
    wide += "}";
    const std::string cases[] = {
        // one pass
        "[1,[2,[3,{\"a\":\"x\\u00e9\\ud800\",\"b\":[true,false,null,-0,1e21]}]]]",
        "{\"z\":1,\"a\":{\"y\":2,\"b\":{}}}",
        std::string(5000, '[') + std::string(5000, ']'),
        // objects the value path writes: array-index keys (moved first), repeated keys (first
        // place, last value), more members than the one-pass writer compares
        "{\"b\":1,\"2\":2,\"a\":3,\"0\":4}",
        "[{\"a\":1,\"b\":2,\"a\":3}]",
        "{\"x\":{\"10\":1,\"9\":2}}",
        wide,
        // not JSON
        "[1,]", "{\"a\" 1}", "[1", "\"\\x\"", "{\"a\":1,}", "01",
    };
    for (const std::string& raw : cases) {
        INFO(raw.substr(0, 80));
        const auto value = parse_json(raw);
        const std::string want = value ? stringify_json(*value) : std::string("!");
        CHECK(canon(raw) == want);
    }
    CHECK(canon("{\"b\":1,\"2\":2,\"a\":3,\"0\":4}") == "{\"0\":4,\"2\":2,\"b\":1,\"a\":3}");
    CHECK(canon("[{\"a\":1,\"b\":2,\"a\":3}]") == "[{\"a\":3,\"b\":2}]");
}

// json_document: the compact form parse_json is read through. It must hold the same value (the
// same text written back, the same members in the same order) and take few bytes per byte.
TEST_CASE("json_document holds what parse_json holds", "[json_reader][json_document]") {
    const std::string cases[] = {
        "null", "true", "-0", "1e400", "4503599627370497", "-9007199254740991", "9007199254740993", "0.1",
        "\"a\\u0000\\ud800b\"", "[]", "{}", "[[],{},[[]]]", "{\"b\":1,\"2\":2,\"a\":3,\"0\":4}",
        "{\"a\":1,\"b\":2,\"a\":3}", "{\"x\":{\"10\":1,\"9\":2,\"x\":{\"1\":[1,{\"0\":0,\"0\":1}]}}}",
        std::string(300, 'x'),  // not JSON
        "\"" + std::string(200, 'y') + "\"",  // a string past one length byte
    };
    for (const std::string& raw : cases) {
        INFO(raw.substr(0, 80));
        const auto value = parse_json(raw);
        const auto doc = json_document::parse(raw);
        REQUIRE(value.has_value() == doc.has_value());
        if (!doc) continue;
        CHECK(stringify_json(doc->root()) == stringify_json(*value));
        CHECK(stringify_json(to_json_value(doc->root())) == stringify_json(*value));
        CHECK(stringify_json(json_document(*value).root()) == stringify_json(*value));
    }
}

TEST_CASE("json_ref reads kinds, members in JavaScript's order, and lookups", "[json_reader][json_document]") {
    const auto doc = json_document::parse(R"({"b":[1,2.5,"s",true,null],"3":{},"a":{"k":1,"k":2},"1":-0})");
    REQUIRE(doc);
    const json_ref root = doc->root();
    CHECK(root.kind() == json_value::kind_t::object);
    CHECK(root.size() == 4);
    std::string keys;
    for (const auto& [key, value] : root) keys += std::string(key) + ",";
    CHECK(keys == "1,3,b,a,");
    const json_ref b = root.find("b");
    REQUIRE(b);
    CHECK(b.kind() == json_value::kind_t::array);
    CHECK(b.size() == 5);
    std::vector<json_value::kind_t> kinds;
    for (const auto& m : b) {
        CHECK(m.key.data() == nullptr);
        kinds.push_back(m.value.kind());
    }
    CHECK(kinds == std::vector<json_value::kind_t>{json_value::kind_t::number, json_value::kind_t::number,
                                                    json_value::kind_t::string, json_value::kind_t::boolean,
                                                    json_value::kind_t::null});
    auto it = b.begin();
    CHECK((*it).value.number() == 1);
    ++it;
    CHECK((*it).value.number() == 2.5);
    ++it;
    CHECK((*it).value.string() == "s");
    ++it;
    CHECK((*it).value.boolean());
    CHECK(root.find("a").size() == 1);
    CHECK(root.find("a").find("k").number() == 2);
    CHECK(std::signbit(root.find("1").number()));
    CHECK(root.find("3").empty());
    CHECK_FALSE(root.find("zz"));
    CHECK_FALSE(b.find("0"));  // not an object
    CHECK(json_ref().kind() == json_value::kind_t::null);
}

TEST_CASE("json_document from a json_value keeps numbers and takes JavaScript's member order", "[json_reader][json_document]") {
    json_value v;
    v.kind = json_value::kind_t::object;
    json_value inf;
    inf.kind = json_value::kind_t::number;
    inf.number = HUGE_VAL;
    v.object.emplace_back("z", inf);
    v.object.emplace_back("7", json_value{});
    v.object.emplace_back("z", json_value{});
    const json_document doc(v);
    std::string keys;
    for (const auto& [key, value] : doc.root()) keys += std::string(key) + ",";
    CHECK(keys == "7,z,");
    CHECK(doc.root().find("z").kind() == json_value::kind_t::null);
    v.object.resize(1);
    CHECK(std::isinf(json_document(v).root().find("z").number()));
}

TEST_CASE("json_document nests deeper than any call stack and stays small", "[json_reader][json_document]") {
    constexpr std::size_t depth = 1'000'000;
    std::string deep;
    for (std::size_t i = 0; i < depth; ++i) deep += i % 2 ? "{\"1\":0,\"0\":" : "[";
    deep += '7';
    for (std::size_t i = depth; i-- > 0;) deep += i % 2 ? "}" : "]";
    const auto doc = json_document::parse(deep);
    REQUIRE(doc);
    std::string want;
    for (std::size_t i = 0; i < depth; ++i) want += i % 2 ? "{\"0\":" : "[";
    want += '7';
    for (std::size_t i = depth; i-- > 0;) want += i % 2 ? ",\"1\":0}" : "]";
    CHECK(stringify_json(doc->root()) == want);
    CHECK(canon(deep) == want);

    // A word per value and key, plus the order of a reordered object: at most 5 bytes per byte
    // of text (parse_json's json_value takes 48 to 100 for these shapes).
    std::string ones = "[", empties = "[", members = "{", strings = "[";
    for (int i = 0; i < 100'000; ++i) {
        ones += i ? ",1" : "1";
        empties += i ? ",[]" : "[]";
        members += (i ? ",\"" : "\"") + std::to_string(i % 1000) + "\":0";
        strings += i ? ",\"\"" : "\"\"";
    }
    for (std::string* s : {&ones, &empties, &strings}) *s += ']';
    members += '}';
    for (const std::string* s : {&ones, &empties, &members, &strings, &deep}) {
        const auto d = json_document::parse(*s);
        REQUIRE(d);
        INFO(s->substr(0, 40) << ": " << d->memory() << " bytes for " << s->size());
        CHECK(d->memory() <= 5 * s->size());
    }
}
