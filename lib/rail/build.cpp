// SPDX-License-Identifier: MIT
// Lowers the rail's rule model (model.cpp) to a grammar: one rule per operation, its header and
// body shapes, the terminal SEND, PLAN, the reasoning channel and the shared slot rules.
//
// Bodies use the complement construction. A body is read together with its opening colon and
// split at every colon: the close literal `:K` (K = OP + suffix, no colon in K) occurs exactly
// when some segment starts with K. So a body is `seg (":" seg)*` where each seg is a colon-free
// run that does not start with K, written as a trie that branches off K one character at a time:
//
//   edit-text ::= ([^:E] [^:]* | "E" ([^:D] [^:]* | "D" ([^:I] [^:]* | "I" ([^:T] [^:]*)?)?)?)?
//
// (`<op><suffix>-text` may be empty, `-lead` is the non-empty first segment of WORK, FORK and the
// terminal SEND, `-lead`/`-line` are the one-line segments of a matcher.)
// Reading the opening colon as part of the body also keeps a body from starting with `OPsuffix`
// plus a line end, which the parser would take as the one-colon empty close (BEHAVIOUR §1.2).
// The reasoning channel uses the same construction on `<` with its two forbidden words, and the
// PLAN body adds the `<<` exclusion (SPEC §plan-body-no-openers) inside each segment.
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
expr set_of(std::string_view spec, bool negated = false) {
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
    return chars(std::move(r), negated);
}

// Any character except those in `s` (each once, in order of first appearance).
expr none_of(std::u32string_view s) {
    ranges_t r;
    for (char32_t c : s) {
        if (std::find(r.begin(), r.end(), std::pair{c, c}) == r.end()) r.emplace_back(c, c);
    }
    return chars(std::move(r), true);
}

expr opt(expr e) { return repeat(std::move(e), 0, 1); }
expr star(expr e) { return repeat(std::move(e), 0, k_unbounded); }
expr plus(expr e) { return repeat(std::move(e), 1, k_unbounded); }

// The parameters of one complement segment (see the file comment).
struct segment_spec {
    std::vector<std::string> words;  // forbidden segment prefixes; none is a prefix of another
    std::u32string excluded;         // never in a segment: the split character and any others
    std::u32string first_excluded;   // additionally not the segment's first character
    expr rest;                       // what may follow once the segment has left every word
    bool no_double_lt = false;       // segments also exclude `<<` (the PLAN body)
};

// The alternatives of a segment that has matched `depth` characters of every word in `words`:
// any character that leaves every word, and for each next character c of a word that c goes
// on matching, followed (optionally) by the alternatives one character deeper. The trie is as
// deep as the longest word (a 64-byte channel close), so the levels wait on a heap stack, each
// for its deeper level to be built, instead of recursing.
expr segment_level(const segment_spec& s) {
    struct level {
        level(std::vector<std::string> w, std::size_t d) : words(std::move(w)), depth(d) {}
        std::vector<std::string> words;
        std::size_t depth = 0;
        std::u32string kids;     // the words' next characters, in order of first appearance
        std::size_t next = 0;    // the next of them to branch on
        std::vector<expr> alts;
    };
    std::vector<level> open;
    const auto enter = [&open, &s](std::vector<std::string> words, std::size_t depth) {
        level l(std::move(words), depth);
        for (const std::string& w : l.words) {
            const auto c = static_cast<char32_t>(static_cast<unsigned char>(w[depth]));
            if (l.kids.find(c) == std::u32string::npos) l.kids += c;
        }
        std::u32string breaker = s.excluded;
        if (s.no_double_lt) breaker += U'<';
        if (depth == 0) breaker += s.first_excluded;
        breaker += l.kids;
        l.alts.push_back(seq({none_of(breaker), s.rest}));
        if (s.no_double_lt) {
            // A single `<` leaves every word; the next character may be anything but another `<`.
            std::u32string after_lt = s.excluded + U'<';
            l.alts.push_back(seq({lit("<"), opt(seq({none_of(after_lt), s.rest}))}));
        }
        open.push_back(std::move(l));
    };
    enter(s.words, 0);
    expr done;  // the level just built, for the one below it on the stack
    bool returning = false;
    while (true) {
        level& l = open.back();
        if (returning) {  // the deeper level of kids[next - 1] is built
            const auto c = static_cast<char>(l.kids[l.next - 1]);
            std::vector<expr> branch;  // not an initializer list: that would copy `done`, all of it
            branch.push_back(lit(std::string(1, c)));
            branch.push_back(opt(std::move(done)));
            l.alts.push_back(seq(std::move(branch)));
            returning = false;
        }
        if (l.next == l.kids.size()) {
            done = alt(std::move(l.alts));
            open.pop_back();
            if (open.empty()) return done;
            returning = true;
            continue;
        }
        const char32_t c = l.kids[l.next++];
        std::vector<std::string> sub;
        bool complete = false;
        for (const std::string& w : l.words) {
            if (static_cast<char32_t>(static_cast<unsigned char>(w[l.depth])) != c) continue;
            if (w.size() == l.depth + 1) complete = true;
            sub.push_back(w);
        }
        if (complete) continue;  // taking c would finish a forbidden word
        enter(std::move(sub), l.depth + 1);  // may move `l`
    }
}

expr segment(const segment_spec& s, bool nonempty) {
    expr level = segment_level(s);
    return nonempty ? level : opt(std::move(level));
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

class builder {
public:
    explicit builder(const options& o) : o_(o) {}

    grammar run() {
        turn();
        tail();
        terminal();
        for (const op_shape& s : internal_ops()) statement(s);
        signals();
        targets();
        scopes();
        matchers();
        bodies();
        return std::move(g_);
    }

private:
    void add(std::string name, expr body, std::string comment = {}) {
        g_.rules.push_back(rule{std::move(name), std::move(body), std::move(comment)});
    }

    // root ::= channel sep plan sep tail (SPEC §gbnf-turn-shape), or plan sep tail without one.
    void turn() {
        const channel_literals ch = literals(o_);
        if (o_.channel == channel_format::none) {
            add("root", seq({rule_ref("plan"), rule_ref("sep"), rule_ref("tail")}),
                "the raw turn: PLAN at byte zero (no reasoning channel), statements, terminal SEND");
        } else {
            add("root", seq({rule_ref("channel"), rule_ref("sep"), rule_ref("plan"), rule_ref("sep"), rule_ref("tail")}),
                "the raw turn: one reasoning channel at byte zero, PLAN, statements, terminal SEND");
            channel(ch);
        }
        add("sep", repeat(set_of(" \t\n"), 0, static_cast<std::uint32_t>(k_max_separator)),
            "zero to seven whitespace characters");
        const std::string plan = op_name(op::PLAN);
        add("plan",
            seq({lit("<<" + plan + ":"), rule_ref("plan-lead"), star(seq({lit(":"), rule_ref("plan-seg")})),
                 lit(":" + plan)}),
            "unsuffixed, non-empty, no `<<` in the body (SPEC plan-body-no-openers)");
        segment_spec p{{plan}, U":", U"", rule_ref("plan-rest"), true};
        add("plan-lead", segment(p, true));
        add("plan-seg", segment(p, false));
        add("plan-rest", seq({star(alt({none_of(U":<"), seq({lit("<"), none_of(U":<")})})), opt(lit("<"))}));
    }

    // The channel body splits at the close literal's first character: a segment after it must
    // not start with the rest of the close (nor, for the two formats the lexer knows, with the
    // rest of the opener the lexer looks for), as the bodies below do with `:`.
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
        parts.push_back(star(seq({lit(ch.close.substr(0, 1)), rule_ref("channel-seg")})));
        parts.push_back(lit(ch.close));
        add("channel", seq(std::move(parts)),
            both ? "the channel body contains neither the opener nor the closer"
                 : "the channel body does not contain the closer");
        segment_spec seg{std::move(words), excluded, U"", star(none_of(excluded)), false};
        add("channel-seg", segment(seg, false));
    }

    void tail() {
        if (o_.max_statements == 0) {
            add("tail", rule_ref("terminal-first"), "no internal statements: the terminal SEND alone");
        } else {
            add("tail",
                alt({rule_ref("terminal-first"),
                     seq({repeat(rule_ref("step"), 1, static_cast<std::uint32_t>(o_.max_statements)), rule_ref("terminal")})}),
                "up to " + std::to_string(o_.max_statements) +
                    " internal statements; a turn without one cannot end [102] (SPEC no-idle-102)");
        }
        add("step", seq({rule_ref("stmt"), rule_ref("sep")}));
        std::vector<expr> ops;
        for (const op_shape& s : internal_ops()) ops.push_back(rule_ref(lower(op_name(s.op))));
        add("stmt", alt(std::move(ops)));
    }

    // The terminal SEND: a disposition, an optional target, a park scope on [202] only, and a
    // non-empty body (SPEC §waitpid-dispositions).
    void terminal() {
        for (const bool first : {false, true}) {
            std::vector<expr> alts;
            for (const std::string& sfx : o_.suffixes) {
                const std::string k = std::string(op_name(op::SEND)) + sfx;
                const std::string st = stem(op::SEND, sfx);
                alts.push_back(seq({lit("<<" + k), rule_ref(first ? "terminal-first-head" : "terminal-head"), lit(":"),
                                    rule_ref(st + "-lead"), star(seq({lit(":"), rule_ref(st + "-text")})), lit(":" + k)}));
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
            expr target = opt(seq({lit("("), rule_ref("target"), lit(")")}));
            std::string park = "[";  // appended, not "[" + ...: g++ 12 -O3 misreads that as overlapping
            park += std::to_string(k_park_code);
            park += ']';
            add(first ? "terminal-first-head" : "terminal-head",
                alt({seq({lit("["), alt(std::move(codes)), lit("]"), target}),
                     seq({lit(park), target, opt(rule_ref("timing"))})}));
        }
    }

    // One rule per internal op: an alternative per suffix, sharing the op's header rule.
    void statement(const op_shape& s) {
        const std::string name = lower(op_name(s.op));
        std::vector<expr> alts;
        for (const std::string& sfx : o_.suffixes) {
            const std::string k = std::string(op_name(s.op)) + sfx;
            const std::string st = stem(s.op, sfx);
            std::vector<expr> parts{lit("<<" + k), rule_ref(name + "-head")};
            switch (s.body) {
                case body_shape::empty: parts.push_back(lit("::" + k)); break;
                case body_shape::text:
                    parts.push_back(lit(":"));
                    parts.push_back(rule_ref(st + "-text"));
                    parts.push_back(star(seq({lit(":"), rule_ref(st + "-text")})));
                    parts.push_back(lit(":" + k));
                    break;
                case body_shape::text_nonempty:
                    parts.push_back(lit(":"));
                    parts.push_back(rule_ref(st + "-lead"));
                    parts.push_back(star(seq({lit(":"), rule_ref(st + "-text")})));
                    parts.push_back(lit(":" + k));
                    break;
                case body_shape::matcher:
                    parts.push_back(lit(":"));
                    parts.push_back(opt(alt({seq({rule_ref(st + "-lead"), star(seq({lit(":"), rule_ref(st + "-line")}))}),
                                             rule_ref("regex"), rule_ref("xpath"), rule_ref("jsonpath")})));
                    parts.push_back(lit(":" + k));
                    break;
                case body_shape::selection:
                    parts.push_back(lit(":"));
                    parts.push_back(rule_ref("selection"));
                    parts.push_back(lit(":" + k));
                    break;
            }
            alts.push_back(seq(std::move(parts)));
        }
        add(name, alt(std::move(alts)));

        std::vector<expr> head;
        switch (s.signal) {
            case signal_shape::none: break;
            case signal_shape::tags: head.push_back(opt(rule_ref("tags"))); break;
            case signal_shape::branch: head.push_back(opt(rule_ref("branch"))); break;
            case signal_shape::executor: head.push_back(opt(rule_ref("executor"))); break;
            case signal_shape::kill_code: head.push_back(opt(rule_ref("kill-code"))); break;
            case signal_shape::mid_code: head.push_back(opt(rule_ref("mid-code"))); break;
        }
        expr target = seq({lit("("), rule_ref("target"), lit(")")});
        head.push_back(s.target == target_need::required ? std::move(target) : opt(std::move(target)));
        switch (s.scope) {
            case scope_shape::none: break;
            case scope_shape::text: head.push_back(opt(rule_ref("text-scope"))); break;
            case scope_shape::find: head.push_back(opt(rule_ref("find-scope"))); break;
            case scope_shape::read: head.push_back(opt(rule_ref("read-scope"))); break;
            case scope_shape::timing: head.push_back(opt(rule_ref("timing"))); break;
        }
        add(name + "-head", seq(std::move(head)));
    }

    void signals() {
        const expr tag = plus(set_of("A-Za-z0-9_.-"));
        add("tags", seq({lit("["), tag, star(seq({lit(","), tag})), lit("]")}), "signals (BEHAVIOUR 7)");
        add("branch", seq({lit("["), plus(set_of("A-Za-z0-9_./-")), lit("]")}));
        add("executor", seq({lit("["), set_of("a-z"), star(set_of("a-z0-9_-")), lit("]")}));
        add("kill-code", seq({lit("["), set_of("0-9"), opt(set_of("0-9")), lit("]")}));
        std::vector<std::string> codes;
        for (const std::uint16_t c : k_dispositions) codes.push_back(std::to_string(c));
        add("mid-code", seq({lit("["), digits_except(codes, 0), lit("]")}),
            "a mid SEND code: three digits except the five dispositions");
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

    // Targets (SPEC §path-syntax): a scheme URL the WHATWG parser accepts, or a local path
    // without `:` (so it can never look like a URL); parentheses and backslashes only escaped.
    void targets() {
        add("target", alt({rule_ref("url"), rule_ref("local")}), "targets: a URL or a local path without `:`");
        add("local", plus(alt({chars({{0x00, 0x1F}, {0x7F, 0x7F}, {':', ':'}, {'(', '('}, {')', ')'}, {'\\', '\\'}, {'<', '<'}}, true),
                               seq({lit("\\"), set_of("\\()")})})));
        // A port only after http(s): WHATWG refuses one on file:// URLs.
        add("url", seq({alt({seq({set_of("a-z"), repeat(set_of("a-z0-9+.-"), 0, 15), lit("://"), rule_ref("host")}),
                             seq({alt({lit("http"), lit("https")}), lit("://"), rule_ref("host"), lit(":"),
                                  repeat(set_of("0-9"), 1, 4)})}),
                        opt(seq({lit("/"), star(rule_ref("uchar"))})),
                        opt(seq({lit("?"), star(rule_ref("uchar"))})), opt(seq({lit("#"), star(rule_ref("uchar"))}))}));
        // The last label starts with a letter, so the host never ends in a number (WHATWG IPv4).
        const expr label_tail = star(seq({lit("-"), plus(set_of("a-z0-9"))}));
        add("host", seq({star(seq({plus(set_of("a-z0-9")), label_tail, lit(".")})), set_of("a-z"),
                         star(set_of("a-z0-9")), label_tail}));
        add("uchar", alt({set_of("A-Za-z0-9._~!$&'*+,;=@/-"), seq({lit("%"), repeat(set_of("0-9A-F"), 2, 2)})}));
        add("selection", seq({rule_ref("target"), opt(rule_ref("text-scope"))}), "a COPY/MOVE destination");
    }

    // Scopes (SPEC §scope-slot): adjacent comma-separated numbers in the op's canonical arity.
    void scopes() {
        add("num", repeat(set_of("0-9"), 1, 6), "scopes");
        add("coords", seq({rule_ref("num"), opt(seq({lit(","), rule_ref("num"), opt(seq({lit(","), rule_ref("num"), lit(","), rule_ref("num")}))}))}));
        const expr threshold = seq({lit("0."), repeat(set_of("0-9"), 1, 3)});
        add("text-scope", seq({lit("<"), alt({lit("-1"), rule_ref("coords")}), lit(">")}));
        add("find-scope",
            seq({lit("<"),
                 alt({seq({threshold, opt(seq({lit(","), rule_ref("num"), opt(seq({lit(","), rule_ref("num")}))}))}),
                      seq({rule_ref("num"), opt(seq({lit(","), rule_ref("num")}))})}),
                 lit(">")}));
        add("read-scope", seq({lit("<"), alt({seq({threshold, opt(seq({lit(","), rule_ref("coords")}))}), rule_ref("coords")}), lit(">")}));
        add("timing", seq({lit("<"), alt({lit("-1"), seq({rule_ref("num"), opt(seq({lit(","), rule_ref("num")}))})}), lit(">")}));
    }

    // Matcher bodies that claim a checked dialect (SPEC §matcher-prefix-claims) are held to a
    // small subset each validator accepts; none contains `:`, so none can hold a close literal.
    void matchers() {
        add("regex",
            seq({lit("/"), opt(lit("^")), plus(rule_ref("ratom")), star(seq({lit("|"), plus(rule_ref("ratom"))})), opt(lit("$")),
                 lit("/"), opt(lit("d")), opt(lit("g")), opt(lit("i")), opt(lit("m")), opt(lit("s")), opt(lit("u")),
                 opt(lit("y"))}),
            "matcher dialects: ECMAScript regex, XPath 1.0 and JSONPath subsets");
        add("ratom", seq({alt({chars({{'\\', '\\'}, {'/', '/'}, {'[', '['}, {']', ']'}, {'(', '('}, {')', ')'}, {'{', '{'}, {'}', '}'},
                                     {'*', '*'}, {'+', '+'}, {'?', '?'}, {'|', '|'}, {'^', '^'}, {'$', '$'}, {'.', '.'}, {':', ':'},
                                     {'\r', '\r'}, {'\n', '\n'}},
                                    true),
                              lit("."), seq({lit("\\"), set_of("dDwWsS\\/.*+?()[]{}|^$")}),
                              seq({lit("["), opt(lit("^")), plus(alt({set_of("A-Za-z0-9_. ,"), seq({lit("\\"), set_of("dws")})})),
                                   lit("]")})}),
                          opt(seq({set_of("*+?"), opt(lit("?"))}))}));
        const expr name = seq({set_of("A-Za-z_"), star(set_of("A-Za-z0-9_"))});
        add("xpath", seq({lit("//"), rule_ref("xstep"), star(seq({alt({lit("/"), lit("//")}), rule_ref("xstep")}))}));
        add("xstep", seq({alt({name, lit("*")}),
                          opt(seq({lit("["),
                                   alt({seq({lit("@"), name, opt(seq({lit("='"), star(none_of(U"'\r\n:")), lit("'")}))}),
                                        seq({set_of("1-9"), opt(set_of("0-9"))})}),
                                   lit("]")}))}));
        add("jsonpath", seq({lit("$"), star(rule_ref("jseg"))}));
        add("jseg", alt({seq({alt({lit("."), lit("..")}), alt({name, lit("*")})}),
                         seq({lit("["),
                              alt({lit("*"), lit("0"), seq({opt(lit("-")), set_of("1-9"), repeat(set_of("0-9"), 0, 5)}),
                                   seq({lit("'"), star(set_of("A-Za-z0-9_ ")), lit("'")})}),
                              lit("]")})}));
    }

    // The complement segments of every body, per op and suffix (see the file comment).
    void bodies() {
        bool first = true;
        auto note = [&first]() {
            std::string c = first ? "bodies: segments between colons that never start the close literal" : "";
            first = false;
            return c;
        };
        for (const op_shape& s : internal_ops()) {
            for (const std::string& sfx : o_.suffixes) {
                const std::string k = std::string(op_name(s.op)) + sfx;
                const std::string st = stem(s.op, sfx);
                switch (s.body) {
                    case body_shape::empty:
                    case body_shape::selection: break;
                    case body_shape::text: {
                        segment_spec t{{k}, U":", U"", star(none_of(U":")), false};
                        if (s.op == op::SEND) add(st + "-lead", segment(t, true), note());
                        add(st + "-text", segment(t, false), note());
                        break;
                    }
                    case body_shape::text_nonempty: {
                        segment_spec t{{k}, U":", U"", star(none_of(U":")), false};
                        add(st + "-lead", segment(t, true), note());
                        add(st + "-text", segment(t, false), note());
                        break;
                    }
                    case body_shape::matcher: {
                        // One line; the first character is not `:` and does not claim `/` or `$`.
                        segment_spec m{{k}, U":\r\n", U"/$", star(none_of(U":\r\n")), false};
                        add(st + "-lead", segment(m, true), note());
                        m.first_excluded.clear();
                        add(st + "-line", segment(m, false), note());
                        break;
                    }
                }
            }
        }
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
