// SPDX-License-Identifier: MIT
// The internal ops' rules (one per op, an alternative per suffix, sharing the op's head rule) and
// the slots of their heads: signals, mid SEND codes, scopes.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "plurnk/rail.hpp"
#include "rail/builder.hpp"

namespace plurnk::rail::detail {

// One rule per internal op: an alternative per suffix, sharing the op's header rule.
void builder::statement(const op_shape& s) {
    const std::string name = lower(op_name(s.op));
    std::vector<expr> alts;
    for (const std::string& sfx : o_.suffixes) {
        const std::string k = std::string(op_name(s.op)) + sfx;
        const std::string st = stem(s.op, sfx);
        const expr open = lit("<<" + k);
        const expr close = lit(":" + k);
        switch (s.body) {
            case body_shape::empty: alts.push_back(seq({open, rref(name + "-head"), lit("::" + k)})); break;
            case body_shape::text:
                alts.push_back(seq({open, rref(name + "-head"), lit(":"), text_body(st), close}));
                break;
            case body_shape::text_nonempty:
                alts.push_back(seq({open, rref(name + "-head"), lit(":"), nonempty_body(st), close}));
                break;
            case body_shape::matcher: {
                // In the service dialect a lone `/` leads a glob (SERVICE.md S6): `/etc/hosts`.
                const expr lead = service() ? alt({rref(st + "-mlead"), rref("slash-glob")}) : rref(st + "-mlead");
                const expr matcher = alt({seq({lead, star(seq({lit(":"), opt(rref(st + "-mline"))}))}),
                                          rref("regex"), rref("xpath"), rref("jsonpath")});
                alts.push_back(seq({open, rref(name + "-head"), lit(":"), opt(matcher), close}));
                // Without a target: FOLD needs a matcher, OPEN tags or a matcher (SPEC op-shapes).
                // The service dialect's OPEN and FOLD take a scope there too (SERVICE.md S8).
                const auto scoped = [&s](std::vector<expr> head) {
                    if (s.scope != scope_shape::none) head.push_back(opt(scope_ref(s.scope)));
                    return head;
                };
                const auto line = [&](std::vector<expr> head, expr body) {
                    std::vector<expr> parts{open};
                    for (expr& h : scoped(std::move(head))) parts.push_back(std::move(h));
                    parts.push_back(lit(":"));
                    parts.push_back(std::move(body));
                    parts.push_back(close);
                    return seq(std::move(parts));
                };
                if (s.target == target_need::required_or_matcher) {
                    alts.push_back(line({opt(rref("tags"))}, matcher));
                } else if (s.target == target_need::required_or_tags_matcher) {
                    alts.push_back(line({rref("tags")}, opt(matcher)));
                    alts.push_back(line({}, matcher));
                }
                break;
            }
            case body_shape::selection:
                alts.push_back(seq({open, rref(name + "-head"), lit(":"), rref("selection"), close}));
                break;
        }
    }
    add(name, alt(std::move(alts)));

    std::vector<expr> head;
    switch (s.signal) {
        case signal_shape::none: break;
        case signal_shape::tags: head.push_back(opt(rref("tags"))); break;
        case signal_shape::branch: head.push_back(opt(rref("branch"))); break;
        case signal_shape::executor: head.push_back(opt(rref("executor"))); break;
        case signal_shape::kill_code: head.push_back(opt(rref("kill-code"))); break;
        case signal_shape::mid_code: head.push_back(opt(rref("mid-code"))); break;
    }
    expr target = seq({lit("("), rref("target"), lit(")")});
    head.push_back(s.target == target_need::optional ? opt(std::move(target)) : std::move(target));
    if (s.scope != scope_shape::none) head.push_back(opt(scope_ref(s.scope)));
    add(name + "-head", seq(std::move(head)));
}

// The rule of a scope shape; an empty sequence (nothing) for none.
expr builder::scope_ref(scope_shape c) {
    switch (c) {
        case scope_shape::none: break;
        case scope_shape::text: return rref("text-scope");
        case scope_shape::find: return rref("find-scope");
        case scope_shape::read: return rref("read-scope");
        case scope_shape::timing: return rref("timing");
    }
    return rref("text-scope");  // not reached: callers skip none
}

void builder::signals() {
    // The lexer's TAG (BEHAVIOUR 1.3): no `]`, `,`, blank or line end; a `<` only before
    // another tag character.
    const std::u32string not_tag = U"],<\t\n\r \x7F";
    const ranges_t controls{{0x00, 0x1F}};
    add("tags", seq({lit("["), opt(seq({rref("tag"), star(seq({lit(","), rref("tag")}))})), lit("]")}),
        "signals (BEHAVIOUR 1.3-1.5)");
    add("tag", plus(alt({none_of(not_tag, controls), seq({lit("<"), none_of(not_tag, controls)})})));
    add("branch", seq({lit("["), rref("tag"), lit("]")}));
    add("executor", seq({lit("["), opt(seq({set_of("A-Z_a-z"), star(set_of("0-9A-Z_a-z.+-"))})), lit("]")}));
    add("kill-code", seq({lit("["), opt(rref("int")), lit("]")}));
    std::vector<std::string> codes;
    for (const std::uint16_t c : k_dispositions) codes.push_back(std::to_string(c));
    const expr digit = set_of("0-9");
    add("mid-code",
        seq({lit("["),
             opt(alt({seq({lit("-"), between(digit, 1, 9)}), between(digit, 1, 2), between(digit, 4, 9),
                      digits_except(codes, 0)})),
             lit("]")}),
        "a mid SEND code: an integer except the five dispositions");
}

// Strings of digits, as long as the words in `words`, that are none of them.
expr builder::digits_except(const std::vector<std::string>& words, std::size_t depth) {
    const std::size_t left = words.front().size() - depth;
    std::string kids;
    for (const std::string& w : words) {
        if (kids.find(w[depth]) == std::string::npos) kids += w[depth];
    }
    std::sort(kids.begin(), kids.end());
    ranges_t free;
    for (char c = '0'; c <= '9'; ++c) {
        if (kids.find(c) != std::string::npos) continue;
        const auto cp = static_cast<char32_t>(c);
        if (!free.empty() && free.back().second + 1 == cp) {
            free.back().second = cp;
        } else {
            free.emplace_back(cp, cp);
        }
    }
    std::vector<expr> alts;
    if (!free.empty()) {
        std::vector<expr> branch{chars(std::move(free))};
        if (left > 1) {
            expr any = set_of("0-9");
            branch.push_back(left == 2 ? any : repeat(any, static_cast<std::uint32_t>(left - 1),
                                                      static_cast<std::uint32_t>(left - 1)));
        }
        alts.push_back(seq(std::move(branch)));
    }
    if (left > 1) {
        for (char c : kids) {
            std::vector<std::string> sub;
            for (const std::string& w : words) {
                if (w[depth] == c) sub.push_back(w);
            }
            alts.push_back(seq({lit(std::string(1, c)), digits_except(sub, depth + 1)}));
        }
    }
    return alt(std::move(alts));
}

// Scopes (SPEC scope-slot): comma-separated integers of up to six digits, signed; a 0.x
// threshold may lead a FIND or READ scope.
void builder::scopes() {
    add("int", seq({opt(lit("-")), between(set_of("0-9"), 1, 6)}), "scopes");
    const expr more = seq({lit(","), rref("int")});
    const expr threshold = seq({lit("0."), between(set_of("0-9"), 1, 3)});
    add("text-scope", seq({lit("<"), rref("int"), between(more, 0, 4), lit(">")}));
    add("find-scope", seq({lit("<"), alt({seq({threshold, between(more, 0, 2)}), seq({rref("int"), opt(more)})}), lit(">")}));
    add("read-scope", seq({lit("<"), alt({seq({threshold, between(more, 0, 4)}), seq({rref("int"), between(more, 0, 3)})}), lit(">")}));
    add("timing", seq({lit("<"), rref("int"), opt(more), lit(">")}));
}

}  // namespace plurnk::rail::detail
