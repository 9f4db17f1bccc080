// SPDX-License-Identifier: MIT
// Lowers the rail's rule model (model.cpp) to a grammar: one rule per operation, its header and
// body shapes, the terminal SEND, PLAN, the reasoning channel, the slots, and the matcher
// dialects (a regex, XPath and JSONPath that the validators accept, doc/rail.md).
//
// Bodies. A body is read together with its opening colon and split at every colon into
// colon-free segments. The parser closes the body at `:K` (K = OP + suffix) followed by a
// character that is not [A-Za-z0-9_] (BEHAVIOUR 1.7), and at the opening colon when K, blanks and
// a line end or `<<` follow (the one-colon empty close, BEHAVIOUR 1.2). So a later segment may be
// anything but K alone or K followed by a non-word character, and the first segment anything but
// K, blanks and a line end or `<<`. Each segment rule is a trie that branches off the forbidden
// prefix one character at a time; the part before the suffix is shared by all suffixes of an op:
//
//   edit-run  ::= [^:E] text-rest | "E" ([^:D] text-rest | "D" ([^:I] text-rest | "I" ([^:T] text-rest)?)?)?
//   edit1-seg ::= edit-run | "EDIT" ([^:1] text-rest | "1" [0-9A-Z_a-z] text-rest)?
//
// Suffixes are enumerated because the close must repeat the opener's suffix: that is not
// context-free in general, but for a fixed list each close gets its own rules. The reasoning
// channel uses the same construction on the closer's first character, and the PLAN body adds
// the `<<` exclusion (SPEC plan-body-no-openers) inside each segment.
//
// Colons inside a body. The matcher dialects and COPY/MOVE destinations contain colons of their
// own (`(?:`, `child::`, `[1:3]`, `https://`); there the character after a colon is never the
// first letter of a close (F, R, O for the matcher ops; C, M for COPY and MOVE), so no suffix
// can make it a close.
#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/ascii.hpp"
#include "plurnk/rail.hpp"

namespace plurnk::rail {

namespace {

using ranges_t = std::vector<std::pair<char32_t, char32_t>>;

// A class from a compact ASCII spec: "a-z" is a range, any other character stands for itself
// (a `-` first or last is literal).
ranges_t ranges_of(std::string_view spec) {
    ranges_t r;
    for (std::size_t i = 0; i < spec.size();) {
        if (i + 2 < spec.size() && spec[i + 1] == '-') {
            r.emplace_back(static_cast<char32_t>(spec[i]), static_cast<char32_t>(spec[i + 2]));
            i += 3;
        } else {
            r.emplace_back(static_cast<char32_t>(spec[i]), static_cast<char32_t>(spec[i]));
            ++i;
        }
    }
    return r;
}

expr set_of(std::string_view spec) { return chars(ranges_of(spec)); }

// Any character except those in `s` (each once, in order of first appearance) and the ranges.
expr none_of(std::u32string_view s, const ranges_t& also = {}) {
    ranges_t r;
    for (char32_t c : s) {
        if (std::find(r.begin(), r.end(), std::pair{c, c}) == r.end()) r.emplace_back(c, c);
    }
    r.insert(r.end(), also.begin(), also.end());
    return chars(std::move(r), true);
}

// `cls` (a class) without the characters of `drop`.
expr minus(const expr& cls, std::u32string_view drop) {
    if (cls.negated) {
        expr out = cls;
        for (char32_t c : drop) {
            bool in = false;
            for (const auto& [lo, hi] : out.ranges) in = in || (lo <= c && c <= hi);
            if (!in) out.ranges.emplace_back(c, c);
        }
        return out;
    }
    ranges_t r = cls.ranges;
    for (char32_t c : drop) {
        ranges_t next;
        for (const auto& [lo, hi] : r) {
            if (c < lo || c > hi) {
                next.emplace_back(lo, hi);
                continue;
            }
            if (lo < c) next.emplace_back(lo, c - 1);
            if (c < hi) next.emplace_back(c + 1, hi);
        }
        r = std::move(next);
    }
    return chars(std::move(r));
}

expr opt(expr e) { return repeat(std::move(e), 0, 1); }
expr star(expr e) { return repeat(std::move(e), 0, k_unbounded); }
expr plus(expr e) { return repeat(std::move(e), 1, k_unbounded); }
expr between(expr e, std::uint32_t lo, std::uint32_t hi) { return repeat(std::move(e), lo, hi); }
expr rref(std::string_view name) { return rule_ref(name); }

// `word` (lower-case ASCII) in any case: each letter a class of its two cases.
expr any_case(std::string_view word) {
    std::vector<expr> parts;
    for (const char c : word) {
        const auto lo = static_cast<char32_t>(c);
        const char32_t up = c >= 'a' && c <= 'z' ? lo - U'a' + U'A' : lo;
        parts.push_back(lo == up ? lit(std::string(1, c)) : chars({{up, up}, {lo, lo}}));
    }
    return seq(std::move(parts));
}

// `(unit | ":"+ after)* ":"*`: a run of `unit`s (which hold no colon) and colons, where the
// character after a colon is one of `after` (so it cannot start a close literal).
expr colon_run(const expr& unit, const expr& after) {
    return seq({star(alt({unit, seq({plus(lit(":")), after})})), star(lit(":"))});
}

// A trie over `words` (each a non-empty byte string) built bottom-up on a heap stack: a word may
// be as long as a channel close literal (64 bytes), and a recursion per character would need
// stack in proportion (doc/limits.md, "Stack"). A node holding the words that share `depth`
// characters starts with head(depth, kids), where kids are the words' next characters in order
// of first appearance; then for each kid c comes `c` followed by c's node, made optional unless
// a word ends there. With `skip_complete`, a kid that would finish a word gets no branch.
template <class Head>
expr word_trie_of(std::vector<std::string> words, bool skip_complete, const Head& head) {
    struct level {
        level(std::vector<std::string> w, std::size_t d) : words(std::move(w)), depth(d) {}
        std::vector<std::string> words;
        std::size_t depth = 0;
        std::u32string kids;    // the words' next characters, in order of first appearance
        std::size_t next = 0;   // the next of them to branch on
        bool ends_here = false; // some word ends at this node
        std::vector<expr> alts;
    };
    std::vector<level> open;
    const auto enter = [&open, &head](std::vector<std::string> ws, std::size_t depth) {
        level l(std::move(ws), depth);
        for (const std::string& w : l.words) {
            if (w.size() == depth) l.ends_here = true;
            if (w.size() <= depth) continue;
            const auto c = static_cast<char32_t>(static_cast<unsigned char>(w[depth]));
            if (l.kids.find(c) == std::u32string::npos) l.kids += c;
        }
        l.alts.push_back(head(depth, std::u32string_view(l.kids)));
        open.push_back(std::move(l));
    };
    enter(std::move(words), 0);
    expr done;               // the node just built, for its parent on the stack
    bool done_ends = false;  // a word ends at that node
    bool returning = false;
    while (true) {
        level& l = open.back();
        if (returning) {  // the node of kids[next - 1] is built
            std::vector<expr> branch;  // not an initializer list: that would copy `done`, all of it
            branch.push_back(lit(std::string(1, static_cast<char>(l.kids[l.next - 1]))));
            branch.push_back(done_ends ? std::move(done) : opt(std::move(done)));
            l.alts.push_back(seq(std::move(branch)));
            returning = false;
        }
        if (l.next == l.kids.size()) {
            done = alt(std::move(l.alts));
            done_ends = l.ends_here;
            open.pop_back();
            if (open.empty()) return done;
            returning = true;
            continue;
        }
        const char32_t c = l.kids[l.next++];
        std::vector<std::string> sub;
        bool complete = false;
        for (const std::string& w : l.words) {
            if (w.size() <= l.depth || static_cast<char32_t>(static_cast<unsigned char>(w[l.depth])) != c) continue;
            if (w.size() == l.depth + 1) complete = true;
            sub.push_back(w);
        }
        if (skip_complete && complete) continue;  // taking c would finish a forbidden word
        enter(std::move(sub), l.depth + 1);       // may move `l`
    }
}

// Strings of `first` then `rest` characters that are none of `words` (each a string of such
// characters): a trie that must continue past a node where a word ends.
expr word_except(const std::vector<std::string>& words, const expr& first, const expr& rest) {
    return word_trie_of(words, false, [&first, &rest](std::size_t depth, std::u32string_view kids) {
        return seq({minus(depth == 0 ? first : rest, kids), star(rest)});
    });
}

// The parameters of the segment tries of one body kind (see the file comment).
struct seg_kind {
    std::u32string excluded;   // never in a segment: the split character and any others
    std::string rest;          // the rule of what may follow once the segment has left every word
    bool no_double_lt = false; // segments also exclude `<<` (the PLAN body)
};

// A segment that branches off `word` one character at a time: at each character, leave the word
// with another character, or take it and go on. `first_excluded` holds characters the segment
// may not start with; past the word's end comes `end` (omitted when null: completing the word
// is forbidden).
expr word_trie(const seg_kind& k, std::string_view word, std::u32string_view first_excluded, const expr* end) {
    // Built from the word's last character back to its first, each level inside the one before
    // it: a loop, not a recursion per character (see word_trie_of).
    expr inner;
    for (std::size_t depth = word.size(); depth-- > 0;) {
        const auto c = static_cast<char32_t>(static_cast<unsigned char>(word[depth]));
        std::u32string breaker = k.excluded;
        if (k.no_double_lt) breaker += U'<';
        if (depth == 0) breaker += first_excluded;
        breaker += c;
        std::vector<expr> alts;
        alts.push_back(seq({none_of(breaker), rref(k.rest)}));
        if (k.no_double_lt) {
            // A single `<` leaves the word; the next character may be anything but another `<`.
            alts.push_back(seq({lit("<"), opt(seq({none_of(k.excluded + U'<'), rref(k.rest)}))}));
        }
        std::vector<expr> branch;  // not an initializer list: that would copy `inner`, all of it
        branch.push_back(lit(std::string(1, word[depth])));
        if (depth + 1 == word.size()) {
            if (end != nullptr) {
                branch.push_back(*end);
                alts.push_back(seq(std::move(branch)));
            }
        } else {
            branch.push_back(opt(std::move(inner)));
            alts.push_back(seq(std::move(branch)));
        }
        inner = alt(std::move(alts));
    }
    return inner;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = ascii::to_lower(c);
    return out;
}

// The rule-name stem of OP + suffix: "edit", "edit1"; `_` (not allowed in names) becomes `-`.
std::string stem(op o, std::string_view suffix) {
    std::string out = lower(op_name(o));
    for (char c : suffix) out += c == '_' ? '-' : c;
    return out;
}

constexpr std::string_view k_word_chars = "0-9A-Z_a-z";

class builder {
public:
    explicit builder(const options& o) : o_(o) {}

    // Each part runs apart ([[gnu::noinline]], here and below): under ASan every temporary of a
    // nested seq/alt keeps its own redzoned slot, and the parts inlined into one frame took more
    // than the 64 KiB stack the stack test gives every surface.
    grammar run() {
        turn();
        tail();
        terminal();
        for (const op_shape& s : internal_ops(o_.dialect)) statement(s);
        signals();
        targets();
        scopes();
        regex();
        xpath();
        jsonpath();
        bodies();
        return std::move(g_);
    }

private:
    bool service() const { return o_.dialect == parse_dialect::service; }

    // The regex delimiter: `/pattern/flags` in 1.4.0, `#pattern#flags` in the service dialect
    // (SERVICE.md S4), where a body or target starting with `#` claims a regex.
    char32_t delimiter() const { return service() ? U'#' : U'/'; }

    void add(std::string name, expr body, std::string comment = {}) {
        g_.rules.push_back(rule{std::move(name), std::move(body), std::move(comment)});
    }

    // ---- Body segments ----------------------------------------------------------------------

    // What may follow a complete close word K in a later segment: a word character, then anything.
    expr later_end(const seg_kind& k) const { return seq({set_of(k_word_chars), rref(k.rest)}); }

    // What may follow K in the first segment: blanks, then the end of the segment or anything
    // but a line end or `<<` (which would make the opening colon a one-colon empty close).
    expr first_end(const seg_kind& k) const {
        const std::u32string lt_next = k.excluded + U"<";
        return seq({star(set_of(" \t")),
                    opt(alt({seq({none_of(k.excluded + U"\r\n \t<"), rref(k.rest)}),
                             seq({lit("<"), opt(seq({none_of(lt_next), rref(k.rest)}))})}))});
    }

    // After the op's four letters: the suffix's trie, ending in `end`. With no suffix, `end` is
    // required right away (it may itself be empty).
    expr suffix_tail(const seg_kind& k, std::string_view suffix, const expr& end) const {
        if (suffix.empty()) return end;
        return opt(word_trie(k, suffix, U"", &end));
    }

    // ---- The turn ----------------------------------------------------------------------------

    // root ::= channel sep plan sep tail (SPEC gbnf-turn-shape), or plan sep tail without one.
    [[gnu::noinline]] void turn() {
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
    void channel(const channel_literals& ch) {
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

    // A segment that starts with none of `words` (none a prefix of another).
    static expr channel_level(const std::vector<std::string>& words, const std::u32string& excluded) {
        return word_trie_of(words, true, [&excluded](std::size_t, std::u32string_view kids) {
            return seq({none_of(excluded + std::u32string(kids)), star(none_of(excluded))});
        });
    }

    [[gnu::noinline]] void tail() {
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
    static expr nonempty_body(const std::string& st) {
        return alt({seq({rref(st + "-lead"), star(seq({lit(":"), opt(rref(st + "-seg"))}))}),
                    plus(seq({lit(":"), opt(rref(st + "-seg"))}))});
    }
    static expr text_body(const std::string& st) {
        return seq({opt(rref(st + "-lead")), star(seq({lit(":"), opt(rref(st + "-seg"))}))});
    }

    // The terminal SEND: a disposition, an optional target, a park scope on [202] only, and a
    // non-empty body (SPEC waitpid-dispositions).
    [[gnu::noinline]] void terminal() {
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

    // One rule per internal op: an alternative per suffix, sharing the op's header rule.
    [[gnu::noinline]] void statement(const op_shape& s) {
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
    static expr scope_ref(scope_shape c) {
        switch (c) {
            case scope_shape::none: break;
            case scope_shape::text: return rref("text-scope");
            case scope_shape::find: return rref("find-scope");
            case scope_shape::read: return rref("read-scope");
            case scope_shape::timing: return rref("timing");
        }
        return rref("text-scope");  // not reached: callers skip none
    }

    // ---- Slots -------------------------------------------------------------------------------

    [[gnu::noinline]] void signals() {
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
    static expr digits_except(const std::vector<std::string>& words, std::size_t depth) {
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

    // Targets (SPEC path-syntax, BEHAVIOUR 1.6 and 3.4): a URL the WHATWG parser accepts, or a
    // local path (text that does not start with `scheme://`), with `\`, `(` and `)` escaped as
    // the canon writes them. The destination of COPY and MOVE sits in the body: its variant
    // (`d` prefix) never has C or M after a colon.
    [[gnu::noinline]] void targets() {
        if (service()) {
            // SERVICE.md S3 and S7: `(#pattern#flags)` is a regex target; a local path never
            // starts with `#`, so none is read as one.
            add("target", alt({rref("url"), rref("local"), rref("regex")}),
                "targets: a URL, a local path (SPEC path-syntax) or a regex (SERVICE.md S7)");
        } else {
            add("target", alt({rref("url"), rref("local")}), "targets: a URL or a local path (SPEC path-syntax)");
        }
        target_rules("", U"");
        add("selection", seq({rref("dtarget"), opt(rref("text-scope"))}), "a COPY/MOVE destination");
        add("dtarget", alt({rref("durl"), rref("dlocal")}));
        target_rules("d", U"CM");
    }

    // Local, URL and host rules apart: in one function they took 49 KB of stack under ASan.
    void target_rules(const std::string& p, std::u32string_view not_after_colon) {
        local_rules(p, not_after_colon);
        url_rules(p, not_after_colon);
        if (p.empty()) host_rules();
    }

    [[gnu::noinline]] void local_rules(const std::string& p, std::u32string_view not_after_colon) {
        const ranges_t controls{{0x00, 0x1F}, {0x7F, 0x7F}};
        const expr esc = seq({lit("\\"), set_of("\\()")});
        // A `<` only before a character the target lexer lets it sit before (BEHAVIOUR 1.6).
        const expr lt = seq({lit("<"), none_of(U"\\()<:", controls)});
        // A local path: any character but a control (a tab is fine), `:`, a lone `<` and the
        // three escaped ones.
        const expr plain = none_of(U"()\\<:", {{0x00, 0x08}, {0x0A, 0x1F}, {0x7F, 0x7F}});
        const auto not_of = [&](std::u32string_view drop) { return alt({minus(plain, drop), esc, lt}); };
        const expr unit = not_of(U"");
        const expr after = not_of(not_after_colon);
        if (not_after_colon.empty()) {
            add(p + "lrun", colon_run(unit, after));
        } else {
            avoid_run(p + "lrun", not_of, {"COPY", "MOVE"});
        }
        const expr lrun = rref(p + "lrun");
        const expr colons = seq({plus(lit(":")), opt(seq({after, lrun}))});
        // Never `[A-Za-z][A-Za-z0-9+.-]*://` at the start (that is a URL).
        std::u32string scheme_chars;
        for (char32_t c = 'a'; c <= 'z'; ++c) scheme_chars += {c, static_cast<char32_t>(c - 'a' + 'A')};
        std::u32string letters = scheme_chars;
        if (service()) letters += U'#';  // a `#` first would claim a regex path (SERVICE.md S7)
        for (char32_t c = '0'; c <= '9'; ++c) scheme_chars += c;
        scheme_chars += U"+.-";
        std::u32string after_slash(not_after_colon);
        after_slash += U'/';
        add(p + "local",
            alt({seq({not_of(letters), lrun}), colons,
                 seq({set_of("A-Za-z"), star(set_of("A-Za-z0-9+.-")),
                      opt(alt({seq({not_of(scheme_chars), lrun}),
                               seq({lit(":"), opt(alt({colons, seq({not_of(after_slash), lrun}),
                                                       seq({lit("/"), opt(alt({seq({not_of(U"/"), lrun}), colons}))})}))})}))})}));

    }

    // URLs. Special schemes take a domain, an IPv4 or an IPv6 host; any other lower-case
    // scheme an opaque host (WHATWG host parsing). No `{` but in request metadata blocks.
    [[gnu::noinline]] void url_rules(const std::string& p, std::u32string_view not_after_colon) {
        const ranges_t controls{{0x00, 0x1F}, {0x7F, 0x7F}};
        const expr esc = seq({lit("\\"), set_of("\\()")});
        const expr hex = set_of("0-9A-Fa-f");
        const expr pct = seq({lit("%"), hex, hex});
        const expr uchar = alt({set_of("A-Za-z0-9._~!$&'*+,;=-"), pct});
        const expr uchar_after = alt({minus(set_of("A-Za-z0-9._~!$&'*+,;=-"), not_after_colon), pct});
        const std::string pre = p + "url-";
        // A special scheme in any case (the parser lower-cases it).
        add(p + "url",
            alt({seq({alt({any_case("http"), any_case("https"), any_case("ws"), any_case("wss"), any_case("ftp")}), lit("://"),
                      opt(rref(pre + "user")), rref("host"), opt(rref("port")), rref(pre + "tail"), star(rref(pre + "meta"))}),
                 seq({any_case("file"), lit("://"), opt(rref("host")), rref(pre + "tail"), star(rref(pre + "meta"))}),
                 seq({rref("scheme"), lit("://"), opt(seq({opt(rref(pre + "user")), rref("ohost"), opt(rref("port"))})),
                      rref(pre + "tail"), star(rref(pre + "meta"))})}));
        add(pre + "user", seq({star(uchar), star(seq({lit(":"), opt(seq({uchar_after, star(uchar)}))})), lit("@")}));
        // Path, query and fragment: no control but a tab (the URL parser drops tabs), no `{`,
        // `}`, unescaped parenthesis or lone `<`.
        const expr pplain = none_of(U"()\\<:?#{}%", {{0x00, 0x08}, {0x0A, 0x1F}, {0x7F, 0x7F}});
        const auto part = [&](std::string_view extra) {  // a path's units; a query adds `?`, a fragment `?#`
            const expr ult = seq({lit("<"), none_of(U"\\()<:{}", controls)});
            std::vector<expr> u{pplain, esc, pct, ult}, a{minus(pplain, not_after_colon), esc, pct, ult};
            if (!extra.empty()) u.push_back(set_of(extra)), a.push_back(set_of(extra));
            return colon_run(alt(std::move(u)), alt(std::move(a)));
        };
        add(pre + "tail", seq({opt(seq({lit("/"), part("")})), opt(seq({lit("?"), part("?")})), opt(seq({lit("#"), part("?#")}))}));
        // Request metadata (SPEC path-request-metadata): `{name: value}` blocks after the URL.
        // The value may hold colons (`{X-When: 12:00:00}`); after one, never a close letter.
        const expr mchar = none_of(U"{}()\\<:", controls);
        std::u32string not_after(U"{}()\\<:");
        not_after += not_after_colon;
        add(pre + "meta", seq({lit("{"), plus(set_of("A-Za-z0-9-")), lit(": "), colon_run(mchar, none_of(not_after, controls)), lit("}")}));
    }

    // Hosts, schemes and ports, shared by both variants: none holds a colon followed by a letter.
    [[gnu::noinline]] void host_rules() {
        host_names();
        host_numbers();
    }

    // Schemes, labels and domain names.
    [[gnu::noinline]] void host_names() {
        add("scheme", word_except({"file", "ftp", "http", "https", "ws", "wss"}, set_of("a-z"), set_of("a-z0-9+.-")),
            "a scheme the WHATWG parser does not treat as special");
        const expr label_tail = star(seq({lit("-"), plus(rref("label-char"))}));
        // Latin-1 lower-case letters, each a literal of its own: xgrammar's WASM build (0.1.27)
        // refuses every character of a class that holds more than one non-ASCII code point.
        std::vector<expr> latin;
        for (char32_t c = 0xE0; c <= 0xFF; ++c) {
            if (c == 0xF7) continue;  // the division sign
            const std::string utf8{static_cast<char>(0xC0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3F))};
            latin.push_back(lit(utf8));
        }
        add("latin-letter", alt(std::move(latin)));
        const expr label = alt({set_of("0-9A-Z_a-z"), rref("latin-letter")});
        const expr label_first = alt({set_of("A-Za-z"), rref("latin-letter")});
        add("label-char", label);
        // The last label starts with a letter, so the host never ends in a number (WHATWG IPv4).
        add("host",
            alt({seq({star(seq({plus(rref("label-char")), label_tail, lit(".")})),
                      label_first, star(rref("label-char")), label_tail, opt(lit("."))}),
                 seq({between(seq({rref("octet"), lit(".")}), 3, 3), rref("octet")}),
                 seq({lit("["), rref("ipv6"), lit("]")})}));
    }

    // IPv4 octets, IPv6 addresses, opaque hosts and ports.
    [[gnu::noinline]] void host_numbers() {
        const expr hex = set_of("0-9A-Fa-f");
        const expr pct = seq({lit("%"), hex, hex});
        add("octet", alt({set_of("0-9"), seq({set_of("1-9"), set_of("0-9")}), seq({lit("1"), set_of("0-9"), set_of("0-9")}),
                          seq({lit("2"), set_of("0-4"), set_of("0-9")}), seq({lit("25"), set_of("0-5")})}));
        const expr h16 = between(set_of("0-9a-f"), 1, 4);
        add("ipv6", alt({seq({h16, between(seq({lit(":"), h16}), 7, 7)}),
                         seq({lit("::"), opt(seq({h16, between(seq({lit(":"), h16}), 0, 6)}))}),
                         seq({h16, between(seq({lit(":"), h16}), 0, 5), lit("::"), opt(h16)}),
                         seq({lit("::ffff:"), between(seq({rref("octet"), lit(".")}), 3, 3), rref("octet")})}));
        add("ohost", alt({plus(alt({set_of("A-Za-z0-9._~!$&'*+,;=-"), rref("latin-letter"), pct})), seq({lit("["), rref("ipv6"), lit("]")})}));
        // 0 to 65535, or empty.
        const expr d = set_of("0-9");
        add("port", seq({lit(":"), opt(alt({between(d, 1, 4), seq({set_of("1-5"), between(d, 4, 4)}), seq({lit("6"), set_of("0-4"), between(d, 3, 3)}),
                                            seq({lit("65"), set_of("0-4"), d, d}), seq({lit("655"), set_of("0-2"), d}),
                                            seq({lit("6553"), set_of("0-5")})}))}));
    }

    // A run of units and colons in which a colon is never followed by one of `words` (COPY and
    // MOVE in a destination, whatever the suffix): right-linear rules, one per proper prefix of
    // the words read after a colon (`name-x` after the colon itself).
    template <class UnitExcept>
    void avoid_run(const std::string& name, const UnitExcept& unit_except, const std::vector<std::string>& words) {
        add(name, opt(alt({seq({unit_except(U""), rref(name)}), seq({lit(":"), rref(name + "-x")})})));
        std::vector<std::string> prefixes{""};
        for (const std::string& w : words) {
            for (std::size_t n = 1; n < w.size(); ++n) {
                if (std::find(prefixes.begin(), prefixes.end(), w.substr(0, n)) == prefixes.end()) prefixes.push_back(w.substr(0, n));
            }
        }
        const auto rule_of = [&](const std::string& prefix) { return name + "-x" + lower(prefix); };
        for (const std::string& pre : prefixes) {
            std::u32string next;
            std::vector<expr> alts{seq({lit(":"), rref(name + "-x")})};
            for (const std::string& w : words) {
                if (w.compare(0, pre.size(), pre) != 0 || w.size() <= pre.size()) continue;
                const auto c = static_cast<char32_t>(static_cast<unsigned char>(w[pre.size()]));
                if (next.find(c) != std::u32string::npos) continue;
                next += c;
                if (pre.size() + 1 < w.size()) alts.push_back(seq({lit(std::string(1, w[pre.size()])), rref(rule_of(pre + w[pre.size()]))}));
            }
            alts.insert(alts.begin(), seq({unit_except(next), rref(name)}));
            add(rule_of(pre), opt(alt(std::move(alts))));
        }
    }

    // Scopes (SPEC scope-slot): comma-separated integers of up to six digits, signed; a 0.x
    // threshold may lead a FIND or READ scope.
    [[gnu::noinline]] void scopes() {
        add("int", seq({opt(lit("-")), between(set_of("0-9"), 1, 6)}), "scopes");
        const expr more = seq({lit(","), rref("int")});
        const expr threshold = seq({lit("0."), between(set_of("0-9"), 1, 3)});
        add("text-scope", seq({lit("<"), rref("int"), between(more, 0, 4), lit(">")}));
        add("find-scope", seq({lit("<"), alt({seq({threshold, between(more, 0, 2)}), seq({rref("int"), opt(more)})}), lit(">")}));
        add("read-scope", seq({lit("<"), alt({seq({threshold, between(more, 0, 4)}), seq({rref("int"), between(more, 0, 3)})}), lit(">")}));
        add("timing", seq({lit("<"), rref("int"), opt(more), lit(">")}));
    }

    // ---- Matcher dialects (SPEC matcher-prefix-claims) ----------------------------------------
    //
    // Each is a subset of what its validator accepts, kept so by construction: nesting is either
    // unbounded where the validator has no limit (regex groups) or at most two levels; and the
    // character after a colon is never F, R or O (a matcher op's close).

    // ECMAScript regex (SPEC matcher-prefix-claims: `new RegExp(pattern, flags)` as V8 does it),
    // in three chains that differ in what their flags allow: `rx` is valid under every flag set
    // (no named groups or back references; class members are ASCII letters, digits, `_`, blanks,
    // escapes and the ranges a-x, A-X, 0-x; \p{...} of the names below); `rxn` is for
    // patterns without u and v (Annex B: `{`, `}` and `]` as characters, punctuation in classes,
    // any identity escape); `rxv` for the v flag (class subtraction and intersection). Flags come
    // in the order dgimsuvy.
    [[gnu::noinline]] void regex() {
        std::vector<expr> chains;
        const auto flags = [](std::string_view unicode) {
            std::vector<expr> f;
            for (const char c : std::string_view("dgims")) f.push_back(opt(lit(std::string(1, c))));
            if (unicode == "uv") f.push_back(opt(alt({lit("u"), lit("v")})));
            if (unicode == "v") f.push_back(lit("v"));
            f.push_back(opt(lit("y")));
            return seq(std::move(f));
        };
        const std::string delim = service() ? "#" : "/";
        for (const std::string_view p : {"rx", "rxn", "rxv"}) {
            const std::string n(p);
            chains.push_back(seq({lit(delim), alt({seq({rref(n + "-seq1"), star(seq({lit("|"), rref(n + "-seq")}))}),
                                                   plus(seq({lit("|"), rref(n + "-seq")}))}),
                                  lit(delim), flags(p == "rx" ? "uv" : p == "rxv" ? "v" : "")}));
        }
        // `##` is a valid empty regex (SERVICE.md S4); `//` would be XPath's, so 1.4.0 has none.
        if (service()) chains.push_back(seq({lit("##"), flags("uv")}));
        add("regex", alt(std::move(chains)),
            service() ? "matcher dialects: an ECMAScript regex written #pattern#flags (SERVICE.md S4), XPath 1.0 and "
                        "JSONPath (RFC 9535) the validators accept"
                      : "matcher dialects: an ECMAScript regex, XPath 1.0 and JSONPath (RFC 9535) the validators accept");
        const ranges_t controls{{0x00, 0x1F}, {0x7F, 0x7F}};
        // The delimiter is never a character of the pattern (in the service dialect the split
        // knows no classes either, so not in a class); the other one is an ordinary character.
        const auto out = [&](std::u32string set) {
            set += delimiter();
            set += U':';
            return none_of(set, controls);
        };
        regex_chain("rx", out(U"^$\\.*+?()[]{}|"), U":", U"FOR", "rx-esc", "rx-class");
        regex_chain("rxn", out(U"^$\\.*+?()[{|"), U":{", U"FOR0123456789", "rxn-esc", "rxn-class");
        regex_chain("rxv", out(U"^$\\.*+?()[]{}|"), U":", U"FOR", "rx-esc", "rxv-class");
        regex_escapes();
        regex_classes();
        regex_props();
    }

    // Escapes: those valid under every flag set, and Annex B's.
    [[gnu::noinline]] void regex_escapes() {
        const ranges_t controls{{0x00, 0x1F}, {0x7F, 0x7F}};
        const expr hex = set_of("0-9A-Fa-f");
        const expr common = regex_common_escape();
        add("rx-esc", seq({lit("\\"), alt({set_of("dDwWsStnrvf"), common, set_of("^$\\.*+?()[]{}|/")})}));
        // Annex B escapes: any character but `c` (only before a letter) and `b`/`B` (assertions);
        // in a class no digit (`\70` is octal, and a range after it could be out of order), and
        // `x`/`u` only with their hex digits (else the members after them could become some).
        add("rxn-esc", seq({lit("\\"), alt({none_of(U"cbB:", controls), seq({lit("c"), set_of("A-Za-z")})})}));
        add("rxn-cesc", seq({lit("\\"), alt({none_of(U"cxu0123456789:", controls), seq({lit("c"), set_of("A-Za-z")}),
                                              seq({lit("x"), hex, hex}), seq({lit("u"), between(hex, 4, 4)})})}));
    }

    // Class members and the three kinds of class.
    [[gnu::noinline]] void regex_classes() {
        const ranges_t controls{{0x00, 0x1F}, {0x7F, 0x7F}};
        const expr common = regex_common_escape();
        add("rx-cmember", alt({chars({{' ', ' '}, {'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}),
                               seq({lit("a-"), set_of("a-z")}), seq({lit("A-"), set_of("A-Z")}), seq({lit("0-"), set_of("0-9")}),
                               seq({lit("\\"), alt({set_of("dDwWsStnrvfb"), common, set_of("^$\\.*+?()[]{}|/-")})})}));
        add("rx-class", seq({lit("["), opt(lit("^")), star(rref("rx-cmember")), lit("]")}));
        // Without u and v a `-` is a character at either end; inside it would make a range.
        add("rxn-class", seq({lit("["), opt(lit("^")), opt(lit("-")),
                              star(alt({none_of(service() ? U"\\]-:#" : U"\\]-:", controls), seq({lit("a-"), set_of("a-z")}), seq({lit("A-"), set_of("A-Z")}),
                                        seq({lit("0-"), set_of("0-9")}), rref("rxn-cesc")})),
                              opt(lit("-")), lit("]")}));
        const expr operand = alt({seq({lit("["), opt(lit("^")), star(rref("rx-cmember")), lit("]")}),
                                  seq({lit("\\"), alt({set_of("dDwWsS"), seq({set_of("pP"), lit("{"), rref("rx-prop"), lit("}")})})}),
                                  chars({{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}})});
        add("rxv-class", seq({lit("["), opt(lit("^")),
                              alt({seq({operand, plus(seq({lit("--"), operand}))}), seq({operand, plus(seq({lit("&&"), operand}))}),
                                   star(rref("rx-cmember"))}),
                              lit("]")}));
    }

    // Escapes after `\` that every chain shares: control letters, hex and Unicode escapes,
    // property classes.
    [[gnu::noinline]] expr regex_common_escape() {
        const expr hex = set_of("0-9A-Fa-f");
        return alt({seq({lit("c"), set_of("A-Za-z")}), seq({lit("x"), hex, hex}), seq({lit("u"), between(hex, 4, 4)}),
                    seq({set_of("pP"), lit("{"), rref("rx-prop"), lit("}")})});
    }

    // Property names and quantifiers.
    [[gnu::noinline]] void regex_props() {
        std::vector<expr> props;
        for (const std::string_view name :
             {"L", "Lu", "Ll", "Lt", "Lm", "Lo", "LC", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Ps",
              "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf", "Co", "Cn",
              "Letter", "Uppercase_Letter", "Lowercase_Letter", "Number", "Decimal_Number", "Punctuation", "Symbol",
              "Separator", "Alphabetic", "ASCII", "Any", "Emoji", "White_Space", "Uppercase", "Lowercase", "Script=Latin",
              "Script=Greek", "Script=Cyrillic", "Script=Han", "Script=Arabic", "Script=Hebrew", "Script=Hiragana",
              "Script=Katakana", "sc=Latin", "sc=Greek", "sc=Han", "Script_Extensions=Latin", "scx=Han"}) {
            props.push_back(lit(name));
        }
        add("rx-prop", alt(std::move(props)));
        // {n}, {n,}, {n,m} with n <= m.
        std::vector<expr> ranges;
        for (char d = '0'; d <= '9'; ++d) {
            ranges.push_back(seq({lit(std::string("{") + d + ","), chars({{static_cast<char32_t>(d), '9'}}), lit("}")}));
        }
        ranges.push_back(seq({lit("{"), set_of("0-9"), lit(","), set_of("1-9"), between(set_of("0-9"), 1, 2), lit("}")}));
        ranges.push_back(seq({lit("{"), between(set_of("0-9"), 1, 9), opt(lit(",")), lit("}")}));
        add("rx-quant", seq({alt({set_of("*+?"), alt(std::move(ranges))}), opt(lit("?"))}));
    }

    // One regex chain: sequences of terms where a separator (`:`, and for Annex B a literal
    // `{`) is followed by a term that cannot start with a close letter (or a digit after `{`).
    [[gnu::noinline]] void regex_chain(const std::string& p, const expr& chars_out, std::u32string_view seps, std::u32string_view not_after,
                     const std::string& esc, const std::string& cls) {
        // A colon is a character like any other and takes a quantifier (`/a:+b/`).
        const expr colon = seq({lit(":"), opt(rref("rx-quant"))});
        const expr sep = seps.size() == 1 ? colon : alt({colon, lit("{")});
        const expr item = alt({rref(p + "-term"), seq({plus(sep), rref(p + "-term-x")})});
        add(p + "-seq", seq({star(item), star(sep)}));
        add(p + "-seq1", alt({seq({item, star(item), star(sep)}), plus(sep)}));
        add(p + "-seq-x", opt(alt({seq({alt({rref(p + "-term-x"), seq({plus(sep), rref(p + "-term-x")})}), star(item), star(sep)}),
                                   plus(sep)})));
        add(p + "-alts", seq({rref(p + "-seq"), star(seq({lit("|"), rref(p + "-seq")}))}));
        for (const bool x : {false, true}) {
            const expr ch = x ? minus(chars_out, not_after) : chars_out;
            add(p + (x ? "-term-x" : "-term"),
                alt({seq({alt({ch, lit("."), rref(esc), rref(cls), seq({lit("("), rref(p + "-alts"), lit(")")}),
                               seq({lit("(?:"), rref(p + "-seq-x"), star(seq({lit("|"), rref(p + "-seq")})), lit(")")})}),
                          opt(rref("rx-quant"))}),
                     lit("^"), lit("$"), lit("\\b"), lit("\\B"),
                     seq({alt({lit("(?="), lit("(?!"), lit("(?<="), lit("(?<!")}), rref(p + "-alts"), lit(")")})}));
        }
    }

    // XPath 1.0 (the npm `xpath` parser): `//` paths joined by `|`; steps with an axis (any
    // name glued to `::` reads as one), a name test (a prefix allowed), a node type or
    // `.`/`..`/`@attr`, and predicates of comparisons joined by `and`/`or` over sums of operands:
    // literals, numbers, variables, paths without predicates and function calls (any name but a
    // node type's; no call inside a call).
    [[gnu::noinline]] void xpath() {
        xpath_paths();
        xpath_values();
    }

    // Paths, steps, node tests, predicates and their operators.
    [[gnu::noinline]] void xpath_paths() {
        add("xpath", seq({rref("xp-path"), star(seq({alt({lit("|"), lit(" | ")}), rref("xp-path")}))}));
        add("xp-path", seq({lit("//"), rref("xp-step"), star(seq({alt({lit("/"), lit("//")}), rref("xp-step")}))}));
        add("xp-step", alt({seq({rref("xp-node"), star(rref("xp-pred"))}), lit("."), lit(".."), seq({lit("@"), rref("xp-attr")})}));
        add("xp-attr", alt({rref("xp-name"), lit("*")}));
        add("xp-node", alt({rref("xp-test"), seq({rref("xp-name"), lit("::"), rref("xp-test-x")})}));
        const expr types = alt({lit("text()"), lit("node()"), lit("comment()"), seq({lit("processing-instruction("), opt(xpath_literal()), lit(")")})});
        add("xp-test", alt({seq({rref("xp-name"), opt(seq({lit(":"), alt({rref("xp-name-x"), lit("*")})}))}), lit("*"), types}));
        add("xp-test-x", alt({seq({rref("xp-name-x"), opt(seq({lit(":"), alt({rref("xp-name-x"), lit("*")})}))}), lit("*"), types}));
        const expr name_rest = star(set_of("A-Za-z0-9_.-"));
        add("xp-name", seq({set_of("A-Za-z_"), name_rest}));
        add("xp-name-x", seq({minus(set_of("A-Za-z_"), U"FOR"), name_rest}));
        add("xp-pred", seq({lit("["), rref("xp-cmp"), star(seq({alt({lit(" and "), lit(" or ")}), rref("xp-cmp")})), lit("]")}));
        add("xp-cmp", seq({rref("xp-sum"), opt(seq({opt(lit(" ")), alt({lit("="), lit("!="), lit("<"), lit("<="), lit(">"), lit(">=")}),
                                                     opt(lit(" ")), rref("xp-sum")}))}));
        add("xp-sum", seq({rref("xp-val"), star(seq({alt({lit(" + "), lit(" - "), lit(" * "), lit(" div "), lit(" mod ")}), rref("xp-val")}))}));
    }

    // A string literal in either quote.
    [[gnu::noinline]] expr xpath_literal() {
        return alt({seq({lit("'"), star(none_of(U"':", {{0x00, 0x1F}, {0x7F, 0x7F}})), lit("'")}),
                    seq({lit("\""), star(none_of(U"\":", {{0x00, 0x1F}, {0x7F, 0x7F}})), lit("\"")})});
    }

    // Operands: calls, numbers, literals, variables and relative paths.
    [[gnu::noinline]] void xpath_values() {
        const expr literal = xpath_literal();
        // After a comma the reference reads `*` and `and`/`or`/`mod`/`div` as operators: later
        // arguments start with a literal, a number, `$`, `.`, `@` or `//`.
        add("xp-val", alt({seq({opt(lit("-")), rref("xp-arg")}),
                           seq({rref("xp-fn"), lit("("), opt(seq({rref("xp-arg"), star(seq({alt({lit(","), lit(", ")}), rref("xp-arg2")}))})),
                                lit(")")})}));
        add("xp-fn", word_except({"comment", "node", "processing-instruction", "text"}, set_of("A-Za-z_"), set_of("A-Za-z0-9_.-")));
        const expr number = seq({between(set_of("0-9"), 1, 6), opt(seq({lit("."), between(set_of("0-9"), 1, 3)}))});
        // After `$` the reference reads and/or/mod/div as operators, so no variable has those names.
        add("xp-var", seq({lit("$"), word_except({"and", "div", "mod", "or"}, set_of("A-Za-z_"), set_of("A-Za-z0-9_.-"))}));
        const expr var = rref("xp-var");
        add("xp-arg", alt({number, literal, var, seq({opt(lit("//")), rref("xp-rstep"), star(seq({alt({lit("/"), lit("//")}), rref("xp-rstep")}))})}));
        add("xp-arg2", alt({number, literal, var,
                            seq({alt({lit("."), lit(".."), seq({lit("@"), rref("xp-attr")}), seq({lit("//"), rref("xp-rstep")})}),
                                 star(seq({alt({lit("/"), lit("//")}), rref("xp-rstep")}))})}));
        add("xp-rstep", alt({rref("xp-node"), lit("."), lit(".."), seq({lit("@"), rref("xp-attr")})}));
    }

    // JSONPath (RFC 9535): segments of names, wildcards, indexes, slices, quoted names and
    // filters; a filter's queries take no filter of their own, parentheses nest once, and the
    // functions are used as their types allow (length/count/value compared, match/search tested).
    [[gnu::noinline]] void jsonpath() {
        jsonpath_segments();
        jsonpath_filters();
    }

    // Segments, selectors and string literals.
    [[gnu::noinline]] void jsonpath_segments() {
        add("jsonpath", seq({lit("$"), star(seq({opt(lit(" ")), rref("jp-seg")}))}));
        add("jp-seg", alt({seq({alt({lit("."), lit("..")}), alt({rref("jp-name"), lit("*")})}), seq({opt(lit("..")), rref("jp-bracket")})}));
        // json-p3's names: a letter, `_` or any non-ASCII character, then also digits and `-`
        // (written as the ASCII characters they exclude).
        add("jp-name", seq({chars({{0x00, '@'}, {'[', '^'}, {'`', '`'}, {'{', 0x7F}}, true),
                            star(chars({{0x00, ','}, {'.', '/'}, {':', '@'}, {'[', '^'}, {'`', '`'}, {'{', 0x7F}}, true))}));
        add("jp-bracket", seq({lit("["), rref("jp-sel"), star(seq({alt({lit(","), lit(", ")}), rref("jp-sel")})), lit("]")}));
        add("jp-sel", alt({rref("jp-plain"), seq({lit("?"), rref("jp-or")})}));
        add("jp-plain", alt({rref("jp-str"), lit("*"), rref("jp-int"),
                             seq({opt(rref("jp-int")), lit(":"), opt(rref("jp-int")), opt(seq({lit(":"), opt(rref("jp-int"))}))})}));
        add("jp-int", alt({lit("0"), seq({opt(lit("-")), set_of("1-9"), between(set_of("0-9"), 0, 5)})}));
        const expr hex = set_of("0-9A-Fa-f");
        // No surrogate, and no control character (json-p3 refuses those decoded too).
        const expr u4 = seq({lit("u"), alt({seq({set_of("1-9A-Ca-cE-Fe-f"), between(hex, 3, 3)}), seq({lit("0"), set_of("1-9A-Fa-f"), hex, hex}),
                                            seq({lit("00"), set_of("2-9A-Fa-f"), hex})})});
        add("jp-str", alt({seq({lit("'"), star(alt({none_of(U"'\\:", {{0x00, 0x1F}, {0x7F, 0x7F}}),
                                                    seq({lit("\\"), alt({set_of("bfnrt/\\'"), u4})})})), lit("'")}),
                           seq({lit("\""), star(alt({none_of(U"\"\\:", {{0x00, 0x1F}, {0x7F, 0x7F}}),
                                                     seq({lit("\\"), alt({set_of("bfnrt/\\\""), u4})})})), lit("\"")})}));
    }

    // Filters: logical expressions over comparisons, tests and queries.
    [[gnu::noinline]] void jsonpath_filters() {
        const expr or_op = seq({opt(lit(" ")), lit("||"), opt(lit(" "))});
        const expr and_op = seq({opt(lit(" ")), lit("&&"), opt(lit(" "))});
        for (const bool inner : {false, true}) {
            const std::string s = inner ? "2" : "";
            add("jp-or" + s, seq({rref("jp-and" + s), star(seq({or_op, rref("jp-and" + s)}))}));
            add("jp-and" + s, seq({rref("jp-basic" + s), star(seq({and_op, rref("jp-basic" + s)}))}));
            std::vector<expr> basic{seq({opt(lit("!")), alt({rref("jp-query"), rref("jp-test")})}), rref("jp-cmp")};
            if (!inner) basic.push_back(seq({opt(lit("!")), lit("("), rref("jp-or2"), lit(")")}));
            add("jp-basic" + s, alt(std::move(basic)));
        }
        add("jp-cmp", seq({rref("jp-value"), opt(lit(" ")), alt({lit("=="), lit("!="), lit("<="), lit(">="), lit("<"), lit(">")}),
                           opt(lit(" ")), rref("jp-value")}));
        add("jp-value", alt({rref("jp-literal"), rref("jp-single"), seq({lit("length("), alt({rref("jp-literal"), rref("jp-single")}), lit(")")}),
                             seq({alt({lit("count("), lit("value(")}), rref("jp-query"), lit(")")})}));
        add("jp-test", seq({alt({lit("match("), lit("search(")}), rref("jp-single"), alt({lit(","), lit(", ")}), lit("'"),
                            star(seq({alt({set_of("A-Za-z0-9 "), lit(".")}), opt(set_of("*+?"))})), lit("')")}),
            "match() and search() take an I-Regexp of characters and `.`, each with an optional quantifier");
        // json-p3 refuses a number with a leading 0 followed by more (0.5 too).
        add("jp-literal", alt({lit("0"), seq({opt(lit("-")), set_of("1-9"), between(set_of("0-9"), 0, 5),
                                              opt(seq({lit("."), between(set_of("0-9"), 1, 3)})),
                                              opt(seq({set_of("eE"), opt(set_of("+-")), between(set_of("0-9"), 1, 3)}))}),
                               rref("jp-str"), lit("true"), lit("false"), lit("null")}));
        add("jp-query", seq({alt({lit("@"), lit("$")}), star(alt({seq({alt({lit("."), lit("..")}), alt({rref("jp-name"), lit("*")})}),
                                                                   seq({opt(lit("..")), lit("["), rref("jp-plain"),
                                                                        star(seq({lit(","), rref("jp-plain")})), lit("]")})}))}));
        add("jp-single", seq({alt({lit("@"), lit("$")}), star(alt({seq({lit("."), rref("jp-name")}),
                                                                    seq({lit("["), alt({rref("jp-str"), rref("jp-int")}), lit("]")})}))}));
    }

    // ---- Body rules ---------------------------------------------------------------------------

    // The first (`lead`) and later (`seg`) segment rules of one op per suffix: each is the op's
    // run (`.first`) or the op word followed by the suffix trie; the rule is the stem plus `.second`.
    void segment_rules(const seg_kind& k, op o, const std::pair<std::string, std::string_view>& lead,
                       const std::pair<std::string, std::string_view>& seg) {
        const std::string word(op_name(o));
        const expr lead_end = first_end(k);
        const expr seg_end = later_end(k);
        for (const std::string& sfx : o_.suffixes) {
            const std::string st = stem(o, sfx);
            add(st + std::string(lead.second), alt({rref(lead.first), seq({lit(word), suffix_tail(k, sfx, lead_end)})}));
            add(st + std::string(seg.second), alt({rref(seg.first), seq({lit(word), suffix_tail(k, sfx, seg_end)})}));
        }
    }

    // The segment rules of every body: per op the part that never starts with the op (`-run`,
    // `-line`, `-mrun`), per op and suffix the rest (see the file comment).
    [[gnu::noinline]] void bodies() {
        const seg_kind text{U":", "text-rest", false};
        const seg_kind line{U":\r\n", "line-rest", false};
        bool any_text = false, any_line = false;
        bool first = true;
        auto note = [&first]() {
            std::string c = first ? "bodies: colon-separated segments that never hold the close where the parser sees it" : "";
            first = false;
            return c;
        };
        for (const op_shape& s : internal_ops(o_.dialect)) {
            const std::string o(op_name(s.op));
            const std::string name = lower(o);
            switch (s.body) {
                case body_shape::empty:
                case body_shape::selection: break;
                case body_shape::text:
                case body_shape::text_nonempty: {
                    any_text = true;
                    add(name + "-run", word_trie(text, o, U"", nullptr), note());
                    segment_rules(text, s.op, {name + "-run", "-lead"}, {name + "-run", "-seg"});
                    break;
                }
                case body_shape::matcher: {
                    any_line = true;
                    // One line; the first character is not `:` and claims no dialect: `/` or `$`,
                    // and `#` in the service dialect (where a lone `/` would be a glob, kept off).
                    add(name + "-mrun", word_trie(line, o, service() ? U"/#$" : U"/$", nullptr), note());
                    add(name + "-line", word_trie(line, o, U"", nullptr));
                    segment_rules(line, s.op, {name + "-mrun", "-mlead"}, {name + "-line", "-mline"});
                    break;
                }
            }
        }
        if (any_text) add("text-rest", star(none_of(U":")));
        if (any_line) add("line-rest", star(none_of(U":\r\n")));
        if (any_line && service()) add("slash-glob", seq({lit("/"), opt(seq({none_of(U"/:\r\n"), rref("line-rest")}))}));
    }

    const options& o_;
    grammar g_;
};

// The rule names `root` refers to, in pre-order (a walk on a heap stack: see segment_level).
void collect_refs(const expr& root, std::vector<std::string>& out) {
    std::vector<const expr*> todo{&root};
    while (!todo.empty()) {
        const expr& e = *todo.back();
        todo.pop_back();
        if (e.kind == expr::kind_t::ref) out.push_back(e.text);
        for (std::size_t i = e.items.size(); i-- > 0;) todo.push_back(&e.items[i]);
    }
}

// Drops the rules root cannot reach (with no internal statements, every op rule). Linear in the
// grammar: rules are found by name through a hash index, and each is visited once.
void prune(grammar& g) {
    std::unordered_map<std::string_view, std::size_t> index;
    index.reserve(g.rules.size());
    for (std::size_t i = 0; i < g.rules.size(); ++i) index.emplace(g.rules[i].name, i);
    std::vector<bool> reached(g.rules.size(), false);
    std::vector<std::string> todo{"root"};
    while (!todo.empty()) {
        const std::string n = std::move(todo.back());
        todo.pop_back();
        const auto it = index.find(n);
        if (it == index.end() || reached[it->second]) continue;
        reached[it->second] = true;
        collect_refs(g.rules[it->second].body, todo);
    }
    std::size_t k = 0;
    for (std::size_t i = 0; i < g.rules.size(); ++i) {
        if (!reached[i]) continue;
        if (k != i) g.rules[k] = std::move(g.rules[i]);
        ++k;
    }
    g.rules.resize(k);
}

}  // namespace

result<grammar> build(const options& o) {
    if (result<void> checked = check_options(o); !checked) return checked.problem();
    grammar g = builder(o).run();
    prune(g);
    return g;
}

}  // namespace plurnk::rail
