// SPDX-License-Identifier: MIT
// Hostile input shapes at any size, shared by bench/bench_hostile.cpp (time and memory) and
// test/complexity_test.cpp (the work bound). Each shape is a head, a unit repeated to the size,
// and a tail; the issue's table (F1-F5) comes first, then shapes of our own per lexer mode,
// validator and diagnostic. Header-only, standard library only.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/parse.hpp"

namespace plurnk::shapes {

struct shape {
    const char* name;
    const char* group;  // F1..F5 (the issue's table) or "extra"
    plurnk::tier tier;
    std::string_view head, unit, tail;
    bool one_token = false;  // head + unit* is one long token (its unit is one byte or a short run)
    plurnk::parse_dialect dialect = plurnk::parse_dialect::contracts;  // the dialect it is parsed in

    [[nodiscard]] plurnk::parse_options options() const {
        plurnk::parse_options o;
        o.dialect = dialect;
        return o;
    }
};

inline constexpr std::string_view k_plan = "<<PLAN:p:PLAN\n";

// clang-format off
inline const std::vector<shape>& all() {
    using plurnk::tier;
    static const std::vector<shape> list = {
        // F1: unclosed reasoning enclosures (each opener once searched to the end for its closer).
        {"think_unclosed", "F1", tier::parse, k_plan, "<think> ", ""},
        {"channel_unclosed", "F1", tier::parse, k_plan, "<|channel>x ", ""},
        {"think_then_read", "F1", tier::parse, k_plan, "<think><<READ(a)::READ\n", ""},
        {"think_unclosed_statements", "F1", tier::statements, "", "<think> ", ""},
        {"think_unclosed_log", "F1", tier::log, "<<TURN:", "<think> ", ""},
        {"channel_then_read_client", "F1", tier::client, "", "<|channel><<LOOK(a)::LOOK\n", ""},
        // F2: one long token (streamed, each once rescanned from its start on every feed).
        {"text_run", "F2", tier::parse, k_plan, "a", "", true},
        {"base64_text", "F2", tier::parse, k_plan, "QUJDRGVmZ2hpams0NTY3Kz8vPT1aWnl4", "", true},
        {"base64_body", "F2", tier::parse, "<<PLAN:p:PLAN\n<<EDIT(f):", "QUJDRGVmZ2hpams0NTY3Kz8vPT1aWnl4", ":EDIT\n"},
        {"lt_a_text", "F2", tier::parse, k_plan, "<a", "", true},
        {"long_tag", "F2", tier::parse, "<<PLAN:p:PLAN\n<<READ[", "t", "]::READ\n", true},
        {"lt_a_tag", "F2", tier::parse, "<<PLAN:p:PLAN\n<<READ[", "<a", "]::READ\n", true},
        {"exec_ident", "F2", tier::parse, "<<PLAN:p:PLAN\n<<EXEC[", "x", "]::EXEC\n", true},
        {"opener_suffix", "F2", tier::parse, "<<PLAN:p:PLAN\n<<READ", "x", "::READ\n", true},
        {"closer_suffix", "F2", tier::statements, "<<READ_", "x", ":body:READ_", true},
        {"turn_suffix", "F2", tier::log, "<<TURN_", "x", ":<<PLAN:p:PLAN\n:TURN_", true},
        {"scope_list", "F2", tier::parse, "<<PLAN:p:PLAN\n<<READ<", "1,", "1>::READ\n", true},
        {"big_integer", "F2", tier::parse, "<<PLAN:p:PLAN\n<<SEND[", "9", "](a)::SEND\n", true},
        {"one_colon_blanks", "F2", tier::parse, "<<PLAN:p:PLAN\n<<READ(a):READ", " ", "\n", true},
        {"target_run", "F2", tier::parse, "<<PLAN:p:PLAN\n<<READ(", "a/", ")::READ\n", true},
        {"target_parens", "F2", tier::parse, "<<PLAN:p:PLAN\n<<READ(", "(a)", ")::READ\n", true},
        // F3 is the cost of a checkpoint (bench_stream); its input is plain statements.
        {"checkpoint_history", "F3", tier::statements, "", "<<READ(e)::READ\n", ""},
        // F4: item- and error-dense input.
        {"read_statements", "F4", tier::statements, "", "<<READ(e)::READ\n", ""},
        {"text_items_e_acute", "F4", tier::parse, k_plan, "\xc3\xa9 ", ""},
        {"near_miss_ops", "F4", tier::parse, k_plan, "<<CLOSE<<SHOW", ""},
        {"deep_turn_then_text", "F4", tier::log, "", "<<TURN:", "x"},
        {"tag_lists", "F4", tier::parse, k_plan, "<<READ[a,b,c,d,e,f](x)::READ\n", ""},
        {"exec_redirects", "F4", tier::parse, k_plan, "<<EXEC[-1,300]:ls:EXEC\n", ""},
        {"jsonpath_bangs", "F4", tier::statements, "<<FIND(a.json):$[?", "!", "@.a]:FIND\n", true},
        {"send_index_keys", "F4", tier::statements, "", "<<SEND(worker://w):{\"1\":1,\"0\":0}:SEND\n", ""},
        // F5: URL hosts (one huge target).
        {"url_punycode", "F5", tier::statements, "<<READ(http://", "xn--ls8h.", "a/)::READ\n", true},
        {"url_ipv4_dots", "F5", tier::statements, "<<READ(http://", "1.", "1/)::READ\n", true},
        {"url_hex", "F5", tier::statements, "<<READ(http://0x", "f", "/)::READ\n", true},
        {"url_labels", "F5", tier::statements, "<<READ(http://", "a.", "a/)::READ\n", true},
        // Our own: one or more per lexer mode, validator and diagnostic.
        {"lt_soup", "extra", tier::parse, "", "<", ""},
        {"open_read_repeated", "extra", tier::parse, "", "<<READ", ""},
        {"open_read_paren", "extra", tier::parse, "", "<<READ(", ""},
        {"body_near_closers", "extra", tier::parse, "<<PLAN:p:PLAN\n<<READ:", ":READX:REA:READ_", ""},
        {"nested_turns", "extra", tier::log, "", "<<TURN:", ""},
        {"crlf_soup", "extra", tier::parse, k_plan, "\r\n\r<<READ(a)::READ\r", ""},
        {"invalid_utf8", "extra", tier::parse, k_plan, "\xff\xfe<<READ(\xc3)::READ\n\xe2\x82", ""},
        {"slot_junk", "extra", tier::parse, k_plan, "<<READ$%&*!~", ""},
        {"close_brackets", "extra", tier::parse, "<<PLAN:p:PLAN\n<<READ", "]", ""},
        {"target_escapes", "extra", tier::parse, "<<PLAN:p:PLAN\n<<READ(", "<\\", ""},
        {"near_miss_text", "extra", tier::parse, "", "<<GET", ""},
        {"near_miss_closed", "extra", tier::parse, "", "<<GET:GET", ""},
        {"scope_errors", "extra", tier::parse, k_plan, "<<READ<1,x", ""},
        {"signal_int_errors", "extra", tier::parse, k_plan, "<<SEND[x", ""},
        {"exec_ident_errors", "extra", tier::parse, k_plan, "<<EXEC[1", ""},
        // Errors on one long line, reported out of offset order (fuzz_amplify find): each
        // position going back on the line was counted from the line's start.
        {"turn_errors_one_line", "extra", tier::log, "", "<<TU\xc3:<<TURN", ""},
        // Closed statements with more lexer errors than tokens: parse()'s error stops fall inside
        // statements, and windows must still end (and release) on the token budget.
        {"signal_junk_closed", "extra", tier::parse, k_plan, "<<EXEC[-$-$-$-$]:ls:EXEC\n", ""},
        {"one_colon_closes", "extra", tier::parse, k_plan, "<<READ(a):READ <<READ(b):READ\n", ""},
        {"turn_close_near_miss", "extra", tier::log, "<<TURN_a:", ":TURN_b ", ":TURN_a\n"},
        {"think_closed_many", "extra", tier::parse, k_plan, "<think>x</think> ", ""},
        {"channel_closers_only", "extra", tier::parse, k_plan, "<channel|></think>", ""},
        {"regex_groups", "extra", tier::statements, "<<FIND(src):/", "(", "a/:FIND\n", true},
        {"xpath_predicates", "extra", tier::statements, "<<FIND(a.xml)://a", "[", "1:FIND\n", true},
        {"json_arrays", "extra", tier::statements, "<<SEND(worker://w):", "[", ":SEND\n", true},
        {"url_percent", "extra", tier::statements, "<<READ(http://a/", "%", ")::READ\n", true},
        // The statement parser's fast path (lib/statement_fast.hpp) declining: one statement of
        // many tokens it reads to the end before the second signal, and statements it takes
        // between ones it leaves to the productions.
        {"long_signal_declined", "extra", tier::parse, "<<PLAN:p:PLAN\n<<READ[", ",", "][x]::READ\n"},
        {"clean_and_declined", "extra", tier::statements, "", "<<READ(a)::READ\n<<READ(a)(b)::READ\n<<SEND[200]<1><2>:x:SEND\n", ""},
        // The service dialect (doc/dialects.md): the regex target unit looks ahead to its `)`
        // (SERVICE.md S3), resumably; `#` bodies are split and checked once.
        {"service_unit_unclosed", "extra", tier::parse, "<<PLAN:p:PLAN\n<<FIND(#", "a", "", true, plurnk::parse_dialect::service},
        {"service_unit_flags", "extra", tier::statements, "<<FIND(#a#", "i", ")::FIND\n", true, plurnk::parse_dialect::service},
        {"service_unit_escapes", "extra", tier::statements, "<<FIND(#", "\\(", "#)::FIND\n", true, plurnk::parse_dialect::service},
        {"service_unit_targets", "extra", tier::statements, "", "<<FIND(#a(b)?#i)::FIND\n", "", false, plurnk::parse_dialect::service},
        {"service_hash_body", "extra", tier::statements, "<<FIND(src):#", "a", "#i:FIND\n", true, plurnk::parse_dialect::service},
        {"service_hash_bodies", "extra", tier::statements, "", "<<READ(a)<1,2>:#x|y#i:READ\n<<OPEN(log:///1)<1>:# TODO:OPEN\n", "", false, plurnk::parse_dialect::service},
    };
    return list;
}
// clang-format on

// Repetition loops: a model stuck writing the same line, each with an error (many diagnostics
// in one turn, on many lines), or each text. For the surfaces beside the parser
// (bench/bench_hostile_surfaces.cpp, test/cli_memory_test.cpp): `score` built an example for
// every diagnostic and cut its excerpt by counting lines from the turn's start (quadratic).
// clang-format off
inline const std::vector<shape>& loops() {
    using plurnk::tier;
    static const std::vector<shape> list = {
        {"loop_bad_scope", "loop", tier::parse, k_plan, "<<READ(src/net/backoff.ts)<1,x>::READ\n", ""},
        {"loop_bad_regex", "loop", tier::parse, k_plan, "<<FIND(src/**/*.ts):/(retry(Count|Delay)/i:FIND\n", ""},
        {"loop_bad_signal", "loop", tier::parse, k_plan, "<<SEND[x]:still working on it:SEND\n", ""},
        {"loop_unknown_op", "loop", tier::parse, k_plan, "<<THINK:I should read the file again.:THINK\n", ""},
        // Near-misses (score's, doc/score.md): a line each, one line of openers that lost a `<`,
        // and fences, each holding a statement written apart (the parser splits it after `<<`).
        {"loop_opener_missing_lt", "loop", tier::parse, k_plan, "<READ(src/net/backoff.ts)::READ\n", ""},
        {"near_miss_lt_ops", "loop", tier::parse, k_plan, "<READ(", ""},
        {"near_miss_fences", "loop", tier::parse, k_plan, "```\n<< READ(a.md)::READ\n", ""},
    };
    return list;
}
// clang-format on

// The shape at about `size` bytes: head, whole units up to the size, tail.
inline std::string make(const shape& s, std::size_t size) {
    std::string out(s.head);
    out.reserve(size + s.unit.size() + s.tail.size());
    while (out.size() + s.unit.size() + s.tail.size() <= size) out += s.unit;
    out += s.tail;
    return out;
}

// The shape as JSON Lines of short records, to about `size` bytes: one record per unit, its
// text the shape's head and one unit (a benchmark file of many short turns).
inline std::string as_records(const shape& s, std::size_t size) {
    std::string out, text;
    for (std::size_t n = 0; out.size() < size; ++n) {
        out += "{\"id\":\"r" + std::to_string(n) + "\",\"model\":\"m\",\"tier\":\"" + plurnk::tier_name(s.tier) + "\",\"text\":\"";
        text.assign(s.head).append(s.unit);
        for (const char c : text) {  // JSON string escapes: quote, backslash, controls
            const auto u = static_cast<unsigned char>(c);
            if (c == '"' || c == '\\') {
                out += '\\';
                out += c;
            } else if (u < 0x20) {
                static constexpr char k_hex[] = "0123456789abcdef";
                out += "\\u00";
                out += k_hex[u >> 4];
                out += k_hex[u & 15];
            } else {
                out += c;
            }
        }
        out += "\"}\n";
    }
    return out;
}

// ---- JSON values (the hostile-input issue, round three, rows 7-9) ---------------------------
// For the JSON surfaces (bench/bench_hostile_surfaces.cpp, test/cli_memory_test.cpp,
// test/json_surfaces_test.cpp): large values in the shapes that cost most per byte as a
// json_value, bodies nested an object per level, and the tags uniqueItems checks.

// The value shapes: a value per two bytes, an empty container per three, a small object per
// eight, short strings, distinct short strings (uniqueItems keeps a slot for each), nesting two
// bytes a level, many members in one object.
inline constexpr const char* k_json_values[] = {"ones", "empties", "objects", "strings", "distinct", "deep", "members"};

// A JSON value of about `size` bytes in the shape `name` (one of k_json_values).
inline std::string json_value(std::string_view name, std::size_t size) {
    std::string v;
    const auto list = [&](const char* open, std::string_view item, const char* close) {
        v = open;
        while (v.size() + item.size() + 2 < size) {
            if (v.size() > 1) v += ',';
            v += item;
        }
        v += close;
    };
    if (name == "ones") list("[", "1", "]");
    else if (name == "empties") list("[", "[]", "]");
    else if (name == "objects") list("[", "{\"a\":1}", "]");
    else if (name == "strings") list("[", "\"t0\"", "]");
    else if (name == "deep") v = std::string(size / 2, '[') + std::string(size / 2, ']');
    else if (name == "distinct") {
        v = "[";
        for (std::size_t i = 0; v.size() + 16 < size; ++i) v += (i ? ",\"" : "\"") + std::to_string(i) + "\"";
        v += ']';
    } else if (name == "members") {
        v = "{";
        for (std::size_t i = 0; v.size() + 16 < size; ++i) v += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
        v += '}';
    }
    return v;
}

// A body nested `open`/`close` per level around a 1, and the same level as JSON.stringify
// writes it: objects keyed by array indexes, which JavaScript lists first (canonical_json once
// copied each closed level's subtree to order it: quadratic), and named keys for comparison.
struct json_nest {
    const char* name;
    std::string_view open, close;          // one level of the body
    std::string_view open_out, close_out;  // the same level as JSON.stringify writes it
};
inline constexpr json_nest k_json_nests[] = {
    {"index_objects", "{\"0\":", "}", "{\"0\":", "}"},
    {"index_objects_in_arrays", "[{\"0\":", "}]", "[{\"0\":", "}]"},
    {"index_keys_reversed", "{\"1\":1,\"0\":", "}", "{\"0\":", ",\"1\":1}"},
    {"named_objects", "{\"a\":", "}", "{\"a\":", "}"},
};

// The nest at about `size` bytes (`written`: as JSON.stringify writes it).
inline std::string make(const json_nest& s, std::size_t size, bool written = false) {
    const std::size_t levels = size / (s.open.size() + s.close.size());
    const std::string_view open = written ? s.open_out : s.open, close = written ? s.close_out : s.close;
    std::string out;
    out.reserve(levels * (open.size() + close.size()) + 1);
    for (std::size_t i = 0; i < levels; ++i) out += open;
    out += '1';
    for (std::size_t i = 0; i < levels; ++i) out += close;
    return out;
}

// uniqueItems' input: an array of `n` tags, distinct strings (shape 0), one string again and
// again (1), or large objects of two values (2).
inline constexpr const char* k_tag_shapes[] = {"distinct_tags", "same_tag", "equal_objects"};
inline std::string tags(int shape, std::size_t n) {
    std::string t = "[";
    for (std::size_t i = 0; i < n; ++i) {
        if (i) t += ',';
        if (shape == 0) t += "\"t" + std::to_string(i) + "\"";
        else if (shape == 1) t += "\"t\"";
        else t += "{\"a\":[1,2,{\"b\":null}],\"c\":\"d\",\"e\":" + std::to_string(i % 2) + "}";
    }
    return t + "]";
}

// An EntryReadResult (the wire contract whose tags are uniqueItems) with `tags` as its tags.
inline std::string entry_read_result(std::string_view tags) {
    return std::string(R"({"status":200,"entry":{"entryId":1,"target":"t","channels":{},"tags":)") + std::string(tags) + "}}";
}

// `plurnk gbnf --suffixes=LIST` (row 15): the suffixes 0, 1, ..., n - 1, each giving every op
// rules of its own; and the same as the option's comma-separated list.
inline std::vector<std::string> suffixes(std::size_t n) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back(std::to_string(i));
    return out;
}
inline std::string suffix_list(std::size_t n) {
    std::string out;
    for (const std::string& s : suffixes(n)) out += (out.empty() ? "" : ",") + s;
    return out;
}

}  // namespace plurnk::shapes
