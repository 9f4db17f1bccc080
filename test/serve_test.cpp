// SPDX-License-Identifier: MIT
// The serving layer (include/plurnk/serve.hpp). The property: every conformance vector fed to a
// delta_stream in chunks of 1, 7 and 64 bytes, with seeded random checkpoints (a copy fed junk and
// dropped, or assigned back), drafts (accepted whole, accepted in part, rejected, and rejected
// drafts of junk) and peek_end() calls on the way, gives deltas whose concatenation equals
// project() of the one-shot parse: the same content, reasoning and statements (JSON with spans,
// indices, code point spans); each peek_end() equals what end() gives a copy at that point; the
// runaways are those of a plain stream_parser fed the same chunks; finish() equals parse().
// Then the behaviour that makes it a server's tool: reasoning streamed before its block closes,
// prose without statement source, the final SEND through peek_end(), and the OpenAI mapping.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/serve.hpp"
#include "vectors.hpp"

namespace {

constexpr plurnk::json_options k_spans{.spans = true};

plurnk::tier tier_of(const plurnk::json_value& v) {
    const plurnk::json_value* t = v.find("tier");
    return t != nullptr ? plurnk::tier_from_name(t->string).value_or(plurnk::tier::parse) : plurnk::tier::parse;
}

// Everything a delta says, as text, for comparisons that print what differs.
std::string describe(const plurnk::delta& d) {
    std::string out = "content=";
    plurnk::append_json_string(out, d.content);
    out += "\nreasoning=";
    plurnk::append_json_string(out, d.reasoning);
    for (std::size_t i = 0; i < d.statements.size(); ++i) {
        out += "\nstatement index=" + (d.indices[i] == plurnk::stream_event::npos ? std::string("npos") : std::to_string(d.indices[i]));
        if (!d.code_point_spans.empty()) {
            out += " cp=" + std::to_string(d.code_point_spans[i].begin) + "-" + std::to_string(d.code_point_spans[i].end);
        }
        out += ' ';
        plurnk::append_json(out, d.statements[i], k_spans);
    }
    if (!d.statements.empty()) out += "\nfirst_call=" + std::to_string(d.first_call);
    out += d.ends_turn ? "\nends_turn" : "";
    return out;
}

// `want` with the index left unknown where `got` does not know it yet (after a parse-tier
// parser error, which the end may still drop, the places of later items are not known).
plurnk::delta unknown_where(const plurnk::delta& got, plurnk::delta want) {
    for (std::size_t i = 0; i < got.indices.size() && i < want.indices.size(); ++i) {
        if (got.indices[i] == plurnk::stream_event::npos) want.indices[i] = plurnk::stream_event::npos;
    }
    return want;
}

std::string describe_runaways(const std::vector<plurnk::open_info>& rs) {
    std::string out;
    for (const auto& o : rs) {
        out += std::to_string(o.begin) + "/" + std::to_string(o.bytes) + "/" + std::to_string(static_cast<int>(o.where)) + " ";
    }
    return out;
}

// Code point spans of the statements of a whole turn, counted directly.
void add_code_points(plurnk::delta& d, std::string_view input) {
    d.code_point_spans.clear();
    const auto cps = [&](std::size_t to) {
        std::size_t n = 0;
        for (std::size_t i = 0; i < to; ++i) n += (static_cast<unsigned char>(input[i]) & 0xC0) != 0x80;
        return n;
    };
    for (const auto& it : d.statements) {
        const auto& s = std::get<plurnk::statement>(it);
        d.code_point_spans.push_back(plurnk::byte_span{cps(s.span.begin), cps(s.span.end)});
    }
}

// Prints the first few differences (the property runs many cases; one CHECK sums them up).
std::size_t g_reports = 0;
struct reporter {
    std::ostringstream os;
    ~reporter() {
        if (++g_reports <= 5) std::fprintf(stderr, "%s\n\n", os.str().c_str());
    }
    template <class T>
    reporter& operator<<(const T& x) {
        os << x;
        return *this;
    }
};
#define report(x) (reporter() << x)

const std::vector<std::string> k_junk = {"<<SEND[200]:junk:SEND\n", "<think>", ":EDIT", "<<EDIT(x):", "</think> x",
                                         "\xE2\x82", "<<READ(j)::READ "};

// One run of the property over `input`: returns false (after printing) on a difference.
bool run_stream(const std::string& id, std::string_view input, plurnk::tier t, std::size_t chunk, unsigned seed,
                const plurnk::delta& want, const std::string& want_result, const plurnk::parse_options& po = {}) {
    std::mt19937 rng(seed);
    const auto roll = [&](unsigned n) { return rng() % n; };
    const std::size_t limit = roll(3) == 0 ? 8 + roll(64) : 0;  // sometimes a runaway limit
    const std::size_t release = roll(2) == 0 ? 1 : plurnk::stream_parser::k_default_release_threshold;
    plurnk::delta_stream s(t, po, {.max_open_bytes = limit, .code_points = true, .release_threshold = release});
    plurnk::stream_parser plain(t, po);
    std::vector<plurnk::open_info> plain_runaways;
    plain.set_callback([](const plurnk::stream_event&) {});
    if (limit != 0) plain.set_runaway_limit(limit, [&](const plurnk::open_info& o) { plain_runaways.push_back(o); });

    std::vector<std::string> chunks;
    for (std::size_t at = 0; at < input.size(); at += chunk) chunks.emplace_back(input.substr(at, chunk));
    plurnk::delta got;
    const auto check_peek = [&] {
        plurnk::delta_stream copy = s;
        const plurnk::delta peek = s.peek_end();
        const plurnk::delta ended = copy.end();
        if (describe(peek) != describe(unknown_where(peek, ended))) {
            report(id << " chunk " << chunk << ": peek_end() differs from end() at " << s.parser().size()
                             << "\npeek:\n" << describe(peek) << "\nend:\n" << describe(ended));
            return false;
        }
        return true;
    };
    std::size_t i = 0;
    while (i < chunks.size()) {
        switch (roll(16)) {
            case 0: {  // a checkpoint fed junk, then dropped
                plurnk::delta_stream cp = s;
                (void)cp.feed(k_junk[roll(static_cast<unsigned>(k_junk.size()))]);
                break;
            }
            case 1: {  // a checkpoint assigned back after junk
                plurnk::delta_stream cp = s;
                (void)s.feed(k_junk[roll(static_cast<unsigned>(k_junk.size()))]);
                s = cp;
                break;
            }
            case 2: {  // a rejected draft of junk
                s.draft();
                for (unsigned k = 1 + roll(3); k > 0; --k) (void)s.feed(k_junk[roll(static_cast<unsigned>(k_junk.size()))]);
                s.reject();
                break;
            }
            case 3: {  // a draft of the next chunks, accepted whole or in part (the rest fed again)
                s.draft();
                const std::size_t n = std::min<std::size_t>(1 + roll(4), chunks.size() - i);
                for (std::size_t k = 0; k < n; ++k) {
                    if (!s.feed(chunks[i + k]).empty()) {
                        report(id << ": a draft's feed returned a delta");
                        return false;
                    }
                }
                const std::size_t keep = roll(2) == 0 ? n : roll(static_cast<unsigned>(n + 1));
                got.append(keep == n ? s.accept() : s.accept(keep));
                for (std::size_t k = 0; k < keep; ++k) plain.feed(chunks[i + k]);
                i += keep;
                continue;
            }
            case 4:
                if (!check_peek()) return false;
                break;
            default: break;
        }
        got.append(s.feed(chunks[i]));
        plain.feed(chunks[i]);
        ++i;
    }
    if (!check_peek()) return false;
    got.append(s.end());
    const std::string result = plurnk::to_json(s.finish(), k_spans);
    (void)plain.finish();
    if (result != want_result) {
        report(id << " chunk " << chunk << ": finish() differs from parse()");
        return false;
    }
    // The concatenation starts at call 0 (when there are statements at all).
    const plurnk::delta whole = unknown_where(got, want);
    if (got.statements.empty()) got.first_call = 0;
    if (describe(got) != describe(whole)) {
        report(id << " chunk " << chunk << " seed " << seed << ": the deltas differ from project()\ngot:\n"
                         << describe(got) << "\nwant:\n" << describe(whole));
        return false;
    }
    if (describe_runaways(got.runaways) != describe_runaways(plain_runaways)) {
        report(id << " chunk " << chunk << ": runaways " << describe_runaways(got.runaways) << " against "
                         << describe_runaways(plain_runaways));
        return false;
    }
    return true;
}

plurnk::delta feed_all(plurnk::delta_stream& s, std::string_view input, std::size_t chunk,
                       std::vector<plurnk::delta>* each = nullptr) {
    plurnk::delta all;
    for (std::size_t at = 0; at < input.size(); at += chunk) {
        plurnk::delta d = s.feed(input.substr(at, chunk));
        all.append(d);
        if (each != nullptr) each->push_back(std::move(d));
    }
    return all;
}

}  // namespace

TEST_CASE("deltas add up to the one-shot projection of every vector, at chunks 1, 7 and 64, through checkpoints, drafts and peeks") {
    std::size_t runs = 0, failures = 0, vectors = 0;
    plurnk::test::for_each_vector([&](const plurnk::json_value& v, const std::string& input) {
        const plurnk::tier t = tier_of(v);
        const plurnk::parse_result r = plurnk::parse(input, t);
        plurnk::delta want = plurnk::project(input, r);
        add_code_points(want, input);
        const std::string want_result = plurnk::to_json(r, k_spans);
        for (const std::size_t chunk : {1, 7, 64}) {
            ++runs;
            if (!run_stream(v.find("id") != nullptr ? v.find("id")->string : "?", input, t, chunk,
                            static_cast<unsigned>(vectors * 3 + chunk), want, want_result)) {
                if (++failures > 5) return;
            }
        }
        ++vectors;
    });
    INFO(runs << " runs over " << vectors << " vectors");
    CHECK(vectors > 12000);
    CHECK(failures == 0);
}

TEST_CASE("deltas add up in the service dialect too, over its vectors") {
    const plurnk::parse_options po{.dialect = plurnk::parse_dialect::service};
    std::size_t failures = 0, vectors = 0;
    plurnk::test::for_each_vector(
        [&](const plurnk::json_value& v, const std::string& input) {
            const plurnk::tier t = tier_of(v);
            const plurnk::parse_result r = plurnk::parse(input, t, po);
            plurnk::delta want = plurnk::project(input, r);
            add_code_points(want, input);
            const std::string want_result = plurnk::to_json(r, k_spans);
            for (const std::size_t chunk : {1, 7, 64}) {
                if (failures <= 5 && !run_stream(v.find("id") != nullptr ? v.find("id")->string : "?", input, t, chunk,
                                                 static_cast<unsigned>(vectors * 3 + chunk), want, want_result, po)) {
                    ++failures;
                }
            }
            ++vectors;
        },
        {"/conformance/service.jsonl"});
    CHECK(vectors >= 474);
    CHECK(failures == 0);
}

TEST_CASE("project() splits a turn into prose, reasoning and statements, each byte once") {
    const std::string turn =
        "<think>The user wants a fix.\nRead first.</think>\n<<PLAN:Fix it.:PLAN\nSure, reading it.\n"
        "<<READ(a.md)::READ\nDone <<SEND[200]:ok:SEND";
    const plurnk::parse_result r = plurnk::parse(turn, plurnk::tier::parse);
    const plurnk::delta d = plurnk::project(turn, r);
    CHECK(d.reasoning == "The user wants a fix.\nRead first.");
    CHECK(d.content == "\n\nSure, reading it.\n\nDone ");
    REQUIRE(d.statements.size() == 3);
    CHECK(d.indices == std::vector<std::size_t>{1, 5, 7});
    CHECK(d.ends_turn);
    // An unclosed block is reasoning to the end; a statement inside it is still a statement.
    const std::string open = "<<PLAN:p:PLAN\n<think>maybe <<READ(b)::READ then";
    const plurnk::delta o = plurnk::project(open, plurnk::parse(open, plurnk::tier::parse));
    CHECK(o.reasoning == "maybe <<READ(b)::READ then");
    CHECK(o.content == "\n");
    CHECK(o.statements.size() == 2);
    // A closer with text glued after it makes a plain word, not a block.
    const std::string glued = "<think>abc</think>def x";
    CHECK(plurnk::project(glued, plurnk::parse(glued, plurnk::tier::parse)).content == glued);
    // The unparsed tail is never content.
    const std::string tail = "<<PLAN:p:PLAN\nnow <<EDIT(a.md):half an op";
    const plurnk::delta t = plurnk::project(tail, plurnk::parse(tail, plurnk::tier::parse));
    CHECK(t.content == "\nnow ");
}

TEST_CASE("reasoning streams as it arrives, before its block closes") {
    std::string think = "<think>";
    for (int i = 0; i < 400; ++i) think += "step " + std::to_string(i) + " of the reasoning\n";
    const std::string turn = think + "</think>\n<<PLAN:p:PLAN\n<<SEND[200]:done:SEND";
    plurnk::delta_stream s;
    std::vector<plurnk::delta> each;
    const plurnk::delta all = feed_all(s, turn, 4, &each);
    std::size_t first = 0;
    while (first < each.size() && each[first].reasoning.empty()) ++first;
    INFO("first reasoning at delta " << first << " of " << each.size());
    CHECK(first < 8);
    // Before the closer had arrived, nearly all of the block had been streamed.
    std::size_t before_close = 0;
    for (std::size_t i = 0; i * 4 < think.size() && i < each.size(); ++i) before_close += each[i].reasoning.size();
    CHECK(before_close + 16 >= think.size() - 7);
    CHECK(all.reasoning + s.end().reasoning == think.substr(7));
}

TEST_CASE("reasoning and content never end inside a UTF-8 sequence") {
    const std::string turn = "<think>caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 ok</think> na\xC3\xAFve <<PLAN:p:PLAN";
    plurnk::delta_stream s;
    std::vector<plurnk::delta> each;
    (void)feed_all(s, turn, 1, &each);
    each.push_back(s.end());
    const auto whole = [](std::string_view x) {
        for (std::size_t i = 0; i < x.size();) {
            const auto b = static_cast<unsigned char>(x[i]);
            const std::size_t n = b < 0x80 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
            if (i + n > x.size()) return false;
            i += n;
        }
        return true;
    };
    for (const auto& d : each) {
        CHECK(whole(d.reasoning));
        CHECK(whole(d.content));
    }
}

TEST_CASE("the final SEND reaches an adapter that is never told the turn ended") {
    const std::string turn = "<<PLAN:p:PLAN\n<<READ(a.md)::READ\n<<SEND[200]:all done:SEND";
    plurnk::delta_stream s;
    const plurnk::delta fed = feed_all(s, turn, 5);
    // The stream cannot know the SEND is final: nothing after it has arrived.
    CHECK(fed.statements.size() == 2);
    const plurnk::delta peek = s.peek_end();
    REQUIRE(peek.statements.size() == 1);
    CHECK(peek.ends_turn);
    CHECK(peek.first_call == 2);
    CHECK(std::get<plurnk::statement>(peek.statements[0]).op == plurnk::op::SEND);

    // The adapter rule of doc/serving.md, token by token: it sees the SEND within the feed that
    // closes it, and ends the stream there.
    plurnk::delta_stream a;
    plurnk::delta sent;
    std::size_t feeds_after_end = 0;
    for (std::size_t at = 0; at < turn.size(); at += 3) {
        if (a.ended()) {
            ++feeds_after_end;
            continue;
        }
        sent.append(a.feed(turn.substr(at, 3)));
        if (a.peek_end().ends_turn) sent.append(a.end());
    }
    CHECK(a.ended());
    CHECK(feeds_after_end == 0);
    CHECK(sent.statements.size() == 3);
    CHECK(describe(sent) == describe(plurnk::project(turn, plurnk::parse(turn, plurnk::tier::parse))));

    // A SEND drafted inside an open reasoning block does not end the turn.
    plurnk::delta_stream r;
    (void)feed_all(r, "<<PLAN:p:PLAN\n<think>I could <<SEND[200]:x:SEND", 4);
    CHECK_FALSE(r.peek_end().ends_turn);
}

TEST_CASE("drafts: accepted, accepted in part, rejected; a rejected draft's runaways never surface") {
    const std::string turn = "<<PLAN:p:PLAN\n<<EDIT(a.md):" + std::string(200, 'x') + ":EDIT\n<<SEND[200]:ok:SEND";
    plurnk::delta_stream s(plurnk::tier::parse, {}, {.max_open_bytes = 64});
    plurnk::delta got = s.feed(turn.substr(0, 14));
    s.draft();
    CHECK(s.drafting());
    CHECK(s.feed("<<EDIT(a.md):" + std::string(100, 'y')).empty());  // a runaway, held
    CHECK_THROWS_AS(s.end(), std::logic_error);
    s.reject();
    CHECK_FALSE(s.drafting());
    s.draft();
    CHECK(s.feed(turn.substr(14, 100)).empty());
    CHECK(s.feed(turn.substr(114, 50)).empty());
    got.append(s.accept(1));  // the second chunk is rejected
    got.append(s.feed(turn.substr(114)));
    got.append(s.end());
    CHECK(describe(got) == describe(plurnk::project(turn, plurnk::parse(turn, plurnk::tier::parse))));
    REQUIRE(got.runaways.size() == 1);
    CHECK(got.runaways[0].begin == 14);
}

TEST_CASE("tool calls: one per statement, arguments the statement's fields") {
    const std::string turn = "<<PLAN:p:PLAN\n<<FIND[http](src/**/*.ts)<1,20>:/retry(Count|Delay)/i:FIND\n<<SEND[200]:{\"ok\":true}:SEND";
    const plurnk::delta d = plurnk::project(turn, plurnk::parse(turn, plurnk::tier::parse));
    REQUIRE(d.statements.size() == 3);
    const plurnk::item second = d.statements[1];  // bound first: an item_list element is a value
    const auto& find = std::get<plurnk::statement>(second);
    CHECK(plurnk::openai::arguments_json(find) ==
          R"j({"suffix":"","signal":["http"],"target":{"kind":"local","raw":"src/**/*.ts"},"lineMarker":{"marks":[1,20]},)j"
          R"j("body":{"dialect":"regex","raw":"/retry(Count|Delay)/i","pattern":"retry(Count|Delay)","flags":"i"}})j");
    CHECK(plurnk::openai::tool_call_json(find, 1, {.id_prefix = "call_x_"}) ==
          R"({"id":"call_x_1","type":"function","function":{"name":"FIND","arguments":)" +
              [&] {
                  std::string s;
                  plurnk::append_json_string(s, plurnk::openai::arguments_json(find));
                  return s;
              }() + "}}");
    const std::string chunk = plurnk::openai::chunk_delta_json(d);
    const auto v = plurnk::parse_json(chunk);
    REQUIRE(v);
    const plurnk::json_value* calls = v->find("tool_calls");
    REQUIRE(calls != nullptr);
    REQUIRE(calls->array.size() == 3);
    CHECK(calls->array[2].find("index")->number == 2);
    CHECK(calls->array[2].find("id")->string == "call_2");
    CHECK(calls->array[2].find("function")->find("name")->string == "SEND");
    const auto args = plurnk::parse_json(calls->array[2].find("function")->find("arguments")->string);
    REQUIRE(args);
    CHECK(args->find("body")->find("json")->find("ok")->boolean);
    CHECK(v->find("content")->string == "\n\n");
    CHECK(plurnk::openai::chunk_delta_json(plurnk::delta{}) == "{}");
    const auto m = plurnk::parse_json(plurnk::openai::message_json(d));
    REQUIRE(m);
    CHECK(m->find("role")->string == "assistant");
    CHECK(m->find("tool_calls")->array[0].find("index") == nullptr);
    const auto empty = plurnk::parse_json(plurnk::openai::message_json(plurnk::delta{}));
    CHECK(empty->find("content")->kind == plurnk::json_value::kind_t::null);
}

TEST_CASE("tools: one per op, each parameters schema the statement schema without op and position") {
    const auto tools = plurnk::parse_json(plurnk::openai::tools_json());
    REQUIRE(tools);
    REQUIRE(tools->array.size() == 13);
    const auto client = plurnk::parse_json(plurnk::openai::tools_json(plurnk::tier::client));
    CHECK(client->array.size() == 15);
    for (const auto& t : tools->array) {
        CHECK(t.find("type")->string == "function");
        const plurnk::json_value* f = t.find("function");
        const plurnk::json_value* p = f->find("parameters");
        CHECK(p->find("type")->string == "object");
        CHECK(p->find("properties")->find("op") == nullptr);
        CHECK(p->find("properties")->find("position") == nullptr);
        CHECK(p->find("properties")->find("suffix") != nullptr);
        CHECK(p->find("required")->array.size() == 5);
        // Standing alone: no reference left.
        CHECK(plurnk::stringify_json(*p).find("$ref") == std::string::npos);
    }
    CHECK_THROWS(plurnk::openai::parameters_json(plurnk::op::TURN));
}
