// SPDX-License-Identifier: MIT
// The turn's outer layer: root, the reasoning channel (a body that never holds its closer), PLAN,
// the tail of internal statements and the terminal SEND with its dispositions.
#include <cstdint>
#include <string>
#include <vector>

#include "plurnk/rail.hpp"
#include "rail/builder.hpp"

namespace plurnk::rail::detail {

// root ::= channel sep plan sep tail (SPEC gbnf-turn-shape), or plan sep tail without one.
void builder::turn() {
    const channel_literals ch = literals(o_);
    if (o_.channel == channel_format::none) {
        add("root", seq({rref("plan"), rref("sep"), rref("tail")}),
            "the raw turn: PLAN at byte zero (no reasoning channel), statements, terminal SEND");
    } else {
        add("root", seq({rref("channel"), rref("sep"), rref("plan"), rref("sep"), rref("tail")}),
            "the raw turn: one reasoning channel at byte zero, PLAN, statements, terminal SEND");
        channel(ch);
    }
    add("sep", repeat(set_of(" \t\n"), 0, static_cast<std::uint32_t>(k_max_separator)),
        "zero to seven whitespace characters");
    const std::string plan = op_name(op::PLAN);
    add("plan", seq({lit("<<" + plan + ":"), rref("plan-lead"), star(seq({lit(":"), opt(rref("plan-seg"))})), lit(":" + plan)}),
        "unsuffixed, non-empty, no `<<` in the body (SPEC plan-body-no-openers)");
    const seg_kind p{U":", "plan-rest", true};
    const expr first = first_end(p);
    const expr later = later_end(p);
    add("plan-run", word_trie(p, plan, U"", nullptr));
    add("plan-lead", alt({rref("plan-run"), seq({lit(plan), first})}));
    add("plan-seg", alt({rref("plan-run"), seq({lit(plan), later})}));
    add("plan-rest", seq({star(alt({none_of(U":<"), seq({lit("<"), none_of(U":<")})})), opt(lit("<"))}));
}

// The channel body splits at the close literal's first character: a segment after it must
// not start with the rest of the close (nor, for the two formats the lexer knows, with the
// rest of the opener the lexer looks for).
void builder::channel(const channel_literals& ch) {
    const char32_t split = static_cast<unsigned char>(ch.close.front());
    std::vector<std::string> words{std::string(ch.close.substr(1))};
    if (o_.channel == channel_format::gemma) words.insert(words.begin(), "|channel>");
    if (o_.channel == channel_format::think) words.insert(words.begin(), std::string(k_think_open.substr(1)));
    const std::u32string excluded(1, split);
    const bool both = words.size() > 1;
    std::vector<expr> parts;
    if (!ch.open.empty()) parts.push_back(lit(ch.open));  // empty: the prompt wrote the opener
    parts.push_back(star(none_of(excluded)));
    if (words.back().empty()) {  // a one-character close: the body is everything else
        parts.push_back(lit(ch.close));
        add("channel", seq(std::move(parts)), "the channel body does not contain the closer");
        return;
    }
    parts.push_back(star(seq({lit(ch.close.substr(0, 1)), rref("channel-seg")})));
    parts.push_back(lit(ch.close));
    add("channel", seq(std::move(parts)),
        both ? "the channel body contains neither the opener nor the closer"
             : "the channel body does not contain the closer");
    add("channel-seg", opt(channel_level(words, excluded)));
}

void builder::tail() {
    if (o_.max_statements == 0) {
        add("tail", rref("terminal-first"), "no internal statements: the terminal SEND alone");
    } else {
        add("tail",
            alt({rref("terminal-first"),
                 seq({repeat(rref("step"), 1, static_cast<std::uint32_t>(o_.max_statements)), rref("terminal")})}),
            "up to " + std::to_string(o_.max_statements) +
                " internal statements; a turn without one cannot end [102] (SPEC no-idle-102)");
    }
    add("step", seq({rref("stmt"), rref("sep")}));
    std::vector<expr> ops;
    for (const op_shape& s : internal_ops(o_.dialect)) ops.push_back(rref(lower(op_name(s.op))));
    add("stmt", alt(std::move(ops)));
}

// A text body that must not be empty: a first segment, or an empty one and more.
expr builder::nonempty_body(const std::string& st) {
    return alt({seq({rref(st + "-lead"), star(seq({lit(":"), opt(rref(st + "-seg"))}))}),
                plus(seq({lit(":"), opt(rref(st + "-seg"))}))});
}

expr builder::text_body(const std::string& st) {
    return seq({opt(rref(st + "-lead")), star(seq({lit(":"), opt(rref(st + "-seg"))}))});
}

// The terminal SEND: a disposition, an optional target, a park scope on [202] only, and a
// non-empty body (SPEC waitpid-dispositions).
void builder::terminal() {
    for (const bool first : {false, true}) {
        std::vector<expr> alts;
        for (const std::string& sfx : o_.suffixes) {
            const std::string k = std::string(op_name(op::SEND)) + sfx;
            alts.push_back(seq({lit("<<" + k), rref(first ? "terminal-first-head" : "terminal-head"), lit(":"),
                                nonempty_body(stem(op::SEND, sfx)), lit(":" + k)}));
        }
        add(first ? "terminal-first" : "terminal", alt(std::move(alts)),
            first ? "the terminal SEND of a turn without internal statements" : std::string());
    }
    for (const bool first : {false, true}) {
        std::vector<expr> codes;
        for (const std::uint16_t c : k_dispositions) {
            if (c == k_park_code || (first && c == k_idle_code)) continue;
            codes.push_back(lit(std::to_string(c)));
        }
        expr target = opt(seq({lit("("), rref("target"), lit(")")}));
        std::string park = "[";  // appended, not "[" + ...: g++ 12 -O3 misreads that as overlapping
        park += std::to_string(k_park_code);
        park += ']';
        add(first ? "terminal-first-head" : "terminal-head",
            alt({seq({lit("["), alt(std::move(codes)), lit("]"), target}), seq({lit(park), target, opt(rref("timing"))})}));
    }
}

}  // namespace plurnk::rail::detail
