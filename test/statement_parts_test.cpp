// SPDX-License-Identifier: MIT
// The statement seam (lib/builder/statement_builder.hpp): a clean unit's parts as byte spans
// (parts_of, one row each), the checked statement written by the record writer and read back
// equal to the event's view of it, and a visitor failure that leaves nothing in the arena.
#include <catch2/catch_test_macros.hpp>

#include <string>
#include <string_view>

#include "builder/statement_builder.hpp"
#include "lex/lexer.hpp"
#include "syntax/statement_parser.hpp"

using namespace plurnk;
using namespace plurnk::detail;

namespace {

std::string parts_dump(std::string_view in, const statement_parts& p, std::span<const tag_list::ref> refs) {
    std::string s(op_name(p.op));
    s += " whole=" + std::string(p.whole.of(in)) + " suffix=" + std::string(p.suffix.of(in));
    if (p.has(statement_parts::has_signal)) {
        s += " sig";
        if (p.value.end > p.value.begin) (s += '=') += p.value.of(in);
        for (const tag_list::ref& r : refs) s += " tag=" + std::string(in.substr(p.tags.begin + r.offset, r.length));
    }
    if (p.has(statement_parts::has_target)) s += " tgt=" + std::string(p.target.of(in));
    if (p.has(statement_parts::has_scope)) s += " scope=" + std::string(p.scope.of(in));
    if (p.has(statement_parts::has_body)) s += " body=" + std::string(p.body.of(in));
    return s;
}

struct built {
    lex_output lexed;
    syntax_tree tree;
};

built parse_units(std::string_view in) {
    built b{lex(in, 64), {}};
    b.tree = parse_syntax(b.lexed, tier::statements);
    return b;
}

}  // namespace

TEST_CASE("statement parts: each slot as a byte span", "[statement_parts]") {
    struct row {
        std::string_view in;
        std::string_view want;
    };
    const row rows[] = {
        {"<<PLAN:p:PLAN", "PLAN whole=<<PLAN:p:PLAN suffix= body=p"},
        {"<<READ(a.txt):READ", "READ whole=<<READ(a.txt):READ suffix= tgt=a.txt"},
        {"<<READ():READ", "READ whole=<<READ():READ suffix= tgt="},
        {"<<FIND2[a, b,c](src/)<1,-2>:/x+/i:FIND2",
         "FIND whole=<<FIND2[a, b,c](src/)<1,-2>:/x+/i:FIND2 suffix=2 sig tag=a tag=b tag=c tgt=src/ scope=<1,-2> body=/x+/i"},
        {"<<FIND[]:FIND", "FIND whole=<<FIND[]:FIND suffix= sig"},
        {"<<SEND[200]:done:SEND", "SEND whole=<<SEND[200]:done:SEND suffix= sig=200 body=done"},
        {"<<SEND[]:x:SEND", "SEND whole=<<SEND[]:x:SEND suffix= sig body=x"},
        {"<<EXEC[sh](x):ls:EXEC", "EXEC whole=<<EXEC[sh](x):ls:EXEC suffix= sig=sh tgt=x body=ls"},
        {"<<READ(a\\)b):READ", "READ whole=<<READ(a\\)b):READ suffix= tgt=a\\)b"},
        {"<<EDIT(f)::EDIT", "EDIT whole=<<EDIT(f)::EDIT suffix= tgt=f"},
    };
    statement_builder sb(parse_dialect::contracts);
    for (const row& r : rows) {
        INFO(r.in);
        const built b = parse_units(r.in);
        REQUIRE(b.tree.units.size() == 1);
        REQUIRE(b.tree.units[0].clean);
        const statement_parts& p = sb.parts_of(b.tree.units[0], b.lexed.tokens);
        // (parts_of keeps the tags' references; check() reads them back through signal())
        arena strings;
        REQUIRE(sb.check(r.in, strings));
        std::vector<tag_list::ref> refs;
        for (const std::string_view t : sb.signal().tags) {
            refs.push_back(tag_list::ref{static_cast<std::uint32_t>(t.data() - r.in.data()) - p.tags.begin,
                                         static_cast<std::uint32_t>(t.size())});
        }
        CHECK(parts_dump(r.in, p, refs) == r.want);
    }
}

// What the writer stores reads back as the statement an event reports (view()), inside the
// input (references) and outside it (copies).
TEST_CASE("statement parts: written records read back as the view", "[statement_parts]") {
    const std::string_view inputs[] = {
        "<<FIND[a,b](https://example.com:8443/p?q=1#f)<1-5>:$.a[0]:FIND",
        "<<READ(dir/a\\ b.txt)<3>:READ",
        "<<COPY(a.txt)<1,2>:b.txt<4>:COPY",
        "<<SEND[102]:{\"b\": [1, 2]}:SEND",
        "<<FIND(x):/a(b/:FIND",
        "<<KILL[-0]:KILL",
        "<<FIND<1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18>:*.c:FIND",
    };
    statement_builder sb(parse_dialect::contracts);
    for (const std::string_view in : inputs) {
        INFO(in);
        const built b = parse_units(in);
        REQUIRE(b.tree.units.size() == 1);
        REQUIRE(b.tree.units[0].clean);
        const statement_parts& p = sb.parts_of(b.tree.units[0], b.lexed.tokens);
        arena strings;
        if (!sb.check(in, strings)) continue;  // a visitor failure (the unbalanced regex)
        input_text input;
        input.set_borrowed(in);
        string_sink sink(strings);
        sink.set_live(in, 0);
        stmt_rec rec;
        record_writer w(sink, rec);
        w.begin(sb.op(), sb.suffix(), p.whole.end);
        sb.write(w, sink);
        w.finish();
        statement viewed;
        sb.view(viewed, position{1, 1}, byte_span{p.whole.begin, p.whole.end});
        const item_rec ir{p.whole.begin, 0, 1, 1};
        CHECK(decode_statement(ir, rec, text_resolver{&input, UINT64_MAX, {}}) == viewed);
    }
}

// A statement the validators reject leaves nothing in the arena (its target was checked first).
TEST_CASE("statement parts: a visitor failure writes nothing", "[statement_parts]") {
    const std::string_view in = "<<FIND(https://example.com/a b)<1,2>:/a(b/:FIND";
    statement_builder sb(parse_dialect::contracts);
    const built b = parse_units(in);
    REQUIRE(b.tree.units.size() == 1);
    (void)sb.parts_of(b.tree.units[0], b.lexed.tokens);
    arena strings;
    REQUIRE_FALSE(sb.check(in, strings));
    CHECK(sb.failure().id == message_id::invalid_regex_matcher);
    CHECK_FALSE(sb.failure().message.empty());
    CHECK(strings.capacity() == 0);
}
