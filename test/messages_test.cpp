// SPDX-License-Identifier: MIT
// The core's message table (lib/messages.hpp): every template and lexer context is listed in
// doc/diagnostics.md, names are unique snake_case, rendering fills named placeholders, and every
// diagnostic and unparsedTail reason the parser makes (over all conformance vectors and a few
// rows of our own) is its id's template with the placeholders filled in.
#include <catch2/catch_test_macros.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include "grammar/messages.hpp"
#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"

using namespace plurnk;

namespace {

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

message_id nth(std::size_t i) { return static_cast<message_id>(i); }

// Whether `text` is `tmpl` with each `{placeholder}` replaced by some string (backtracking match).
bool fits(std::string_view tmpl, std::string_view text) {
    if (tmpl.empty()) return text.empty();
    if (tmpl.front() == '{') {
        const std::size_t close = tmpl.find('}');
        if (close != std::string_view::npos) {
            const std::string_view rest = tmpl.substr(close + 1);
            for (std::size_t n = 0; n <= text.size(); ++n) {
                if (fits(rest, text.substr(n))) return true;
            }
            return false;
        }
    }
    return !text.empty() && text.front() == tmpl.front() && fits(tmpl.substr(1), text.substr(1));
}

// Every diagnostic carries a core id whose template it fits; a tail reason fits its reason_id's
// template, followed by the invented-closer advisory's when it says so.
void check_result(const parse_result& r, std::string_view input) {
    INFO("input: " << input);
    for (const item& it : r.items) {
        const auto* d = std::get_if<diagnostic>(&it);
        if (d == nullptr) continue;
        INFO("message: " << d->message << " id: " << message_name(d->id));
        CHECK(d->id != message_id::external);
        CHECK(fits(message_template(d->id), d->message));
    }
    if (r.tail) {
        INFO("reason: " << r.tail->reason << " id: " << message_name(r.tail->reason_id));
        CHECK(message_name(r.tail->reason_id).substr(0, 5) == "tail_");
        const std::string with_closer = std::string(message_template(r.tail->reason_id)) +
                                        std::string(message_template(message_id::tail_invented_closer));
        CHECK((fits(message_template(r.tail->reason_id), r.tail->reason) ||
               (r.tail->reason_id == message_id::tail_body_unclosed && fits(with_closer, r.tail->reason))));
    }
}

}  // namespace

TEST_CASE("every message template, class name and lexer context is in doc/diagnostics.md", "[messages]") {
    const std::string doc = read_file(std::string(PLURNK_TEST_SOURCE_DIR) + "/../doc/diagnostics.md");
    REQUIRE(!doc.empty());
    for (std::size_t i = 0; i < k_message_count; ++i) {
        INFO("id " << i << ": " << message_name(nth(i)));
        std::string quoted(1, '`');
        quoted.append(message_name(nth(i))).push_back('`');
        CHECK(doc.find(quoted) != std::string::npos);
        CHECK(doc.find(std::string(message_template(nth(i)))) != std::string::npos);
    }
    for (std::size_t i = 0; i + 1 < detail::k_lex_context_count; ++i) {  // (turn_depth has its own message)
        const std::string_view ctx = detail::lex_context_text(static_cast<detail::lex_context>(i));
        INFO("context " << ctx);
        CHECK(doc.find(std::string(ctx)) != std::string::npos);
    }
}

TEST_CASE("message names are unique snake_case; unknown ids have none", "[messages]") {
    std::set<std::string_view> names;
    for (std::size_t i = 0; i < k_message_count; ++i) {
        const std::string_view n = message_name(nth(i));
        REQUIRE(!n.empty());
        CHECK(names.insert(n).second);
        for (const char c : n) CHECK(((c >= 'a' && c <= 'z') || c == '_'));
        CHECK(!message_template(nth(i)).empty());
    }
    CHECK(message_name(nth(k_message_count)).empty());
    CHECK(message_template(nth(k_message_count)).empty());
    CHECK(message_name(message_id::mismatched_token) == "mismatched_token");
}

TEST_CASE("format_message fills named placeholders, repeated ones too", "[messages]") {
    using detail::format_message;
    CHECK(format_message(message_id::tail_body_unclosed, {{"tag", "EDIT"}, {"line", "3"}}) ==
          "body of `<<EDIT` opened at line 3 but never closed - add `:EDIT` to terminate");
    CHECK(format_message(message_id::missing_token, {{"found", "`]` (signal slot closer)"}, {"expected", "tag"}}) ==
          "expected tag; got `]` (signal slot closer)");
    // A value is not a template: its braces stay as they are.
    CHECK(format_message(message_id::invalid_target, {{"reason", "{reason}"}}) == "{reason}");
    // A placeholder without an argument is kept.
    CHECK(format_message(message_id::near_miss_op, {{"word", "GET"}}) ==
          "`<<GET` is not a Plurnk operation, so it was read as text; did you mean {suggestion}?");
    CHECK(format_message(message_id::turn_ended_by_send, {}) == message_template(message_id::turn_ended_by_send));
}

TEST_CASE("diagnostics carry the id of the template they were made from", "[messages]") {
    struct row {
        tier t;
        std::string_view in;
        message_id first;  // the first diagnostic's id
    };
    const row rows[] = {
        {tier::statements, "<<WORK[]:x:WORK", message_id::missing_token},
        {tier::statements, "<<WORK::WORK", message_id::missing_body},
        {tier::statements, "<<FIND(a)#:x:FIND", message_id::unrecognized_character},
        {tier::statements, "<<EDIT(%zz%):x:EDIT", message_id::external},  // (checked below)
        {tier::statements, "<<FIND:/a(/:FIND", message_id::invalid_regex_matcher},
        {tier::statements, "<<FIND:$[:FIND", message_id::invalid_jsonpath_matcher},
        {tier::parse, "<<SEND[200]:x:SEND", message_id::turn_missing_plan},
        {tier::parse, "<<PLAN:p:PLAN <<GET-x:GET <<SEND[200]:x:SEND", message_id::near_miss_op},
        {tier::parse, "<<PLAN:p <<EXEC:PLAN <<SEND[200]:x:SEND", message_id::plan_body_op_text},
        {tier::parse, "<<PLAN:p:PLAN <<EDIT[src/a.go]:x:EDIT <<SEND[200]:x:SEND", message_id::misplaced_target},
    };
    for (const row& r : rows) {
        const parse_result res = parse(r.in, r.t);
        check_result(res, r.in);
        if (r.first == message_id::external) continue;
        std::optional<diagnostic> d;
        for (const item& it : res.items) {
            if (const auto* x = std::get_if<diagnostic>(&it)) {
                d = *x;
                break;
            }
        }
        INFO(r.in);
        REQUIRE(d);
        CHECK(message_name(d->id) == message_name(r.first));
    }
    const parse_result tail = parse("<<EDIT(a):x :FOO", tier::statements);
    REQUIRE(tail.tail);
    CHECK(tail.tail->reason_id == message_id::tail_body_unclosed);
    CHECK(tail.tail->reason.find("; found `:FOO`") != std::string::npos);
    parse_options small;
    small.max_input_bytes = 4;
    const parse_result cut = parse("<<EDIT(a):x:EDIT", tier::statements, small);
    REQUIRE(!cut.items.empty());
    CHECK(std::get<diagnostic>(cut.items.back()).id == message_id::input_limit);
    check_result(cut, "(input limit)");
}

TEST_CASE("every conformance vector's diagnostics fit their ids' templates", "[messages][conformance]") {
    std::ifstream f(std::string(PLURNK_TEST_SOURCE_DIR) + "/conformance/parser.jsonl", std::ios::binary);
    REQUIRE(f);
    std::string line;
    std::size_t vectors = 0;
    while (std::getline(f, line)) {
        const std::optional<json_value> v = parse_json(line);
        REQUIRE(v);
        const json_value* t = v->find("tier");
        const json_value* in = v->find("input");
        if (t == nullptr || in == nullptr || t->kind != json_value::kind_t::string ||
            in->kind != json_value::kind_t::string) {
            continue;
        }
        const std::optional<tier> tr = tier_from_name(t->string);
        if (!tr) continue;
        check_result(parse(in->string, *tr), in->string);
        ++vectors;
    }
    CHECK(vectors > 12000);
}
