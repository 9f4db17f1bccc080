// SPDX-License-Identifier: MIT
// Lowers the rail's rule model (model.cpp) to a grammar: one rule per operation, its header and
// body shapes, the terminal SEND, PLAN, the reasoning channel, the slots, and the matcher
// dialects (a regex, XPath and JSONPath that the validators accept, doc/rail.md). This file holds
// the expression kit the writers share and the driver; the writers of each part of the grammar
// are the builder class's (builder.hpp), one file per part (build_turn.cpp, build_statements.cpp,
// build_targets.cpp, build_matchers.cpp, build_bodies.cpp).
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
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/ascii.hpp"
#include "plurnk/rail.hpp"
#include "rail/builder.hpp"

namespace plurnk::rail::detail {

namespace {

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

}  // namespace

expr set_of(std::string_view spec) { return chars(ranges_of(spec)); }

// Any character except those in `s` (each once, in order of first appearance) and the ranges.
expr none_of(std::u32string_view s, const ranges_t& also) {
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

namespace {

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

}  // namespace

// Strings of `first` then `rest` characters that are none of `words` (each a string of such
// characters): a trie that must continue past a node where a word ends.
expr word_except(const std::vector<std::string>& words, const expr& first, const expr& rest) {
    return word_trie_of(words, false, [&first, &rest](std::size_t depth, std::u32string_view kids) {
        return seq({minus(depth == 0 ? first : rest, kids), star(rest)});
    });
}

// A segment that starts with none of `words` (none a prefix of another).
expr builder::channel_level(const std::vector<std::string>& words, const std::u32string& excluded) {
    return word_trie_of(words, true, [&excluded](std::size_t, std::u32string_view kids) {
        return seq({none_of(excluded + std::u32string(kids)), star(none_of(excluded))});
    });
}

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

// The first rule of `name`'s number, numbering names in order of first appearance.
std::uint32_t rule_graph::id(const std::string& name) {
    const auto [it, added] = ids_.try_emplace(name, static_cast<std::uint32_t>(first_rule_.size()));
    if (added) first_rule_.push_back(k_none);
    return it->second;
}

// Records `r`'s name and the names its body refers to (a walk on a heap stack: an expression may
// nest a few hundred levels, see word_trie_of), each once.
void rule_graph::add(const rule& r) {
    const std::size_t index = refs_end_.size();
    const std::uint32_t n = id(r.name);
    if (first_rule_[n] == k_none) first_rule_[n] = index;
    const auto begin = static_cast<std::ptrdiff_t>(refs_.size());
    std::vector<const expr*> todo{&r.body};
    while (!todo.empty()) {
        const expr& e = *todo.back();
        todo.pop_back();
        if (e.kind == expr::kind_t::ref) refs_.push_back(id(e.text));
        for (const expr& item : e.items) todo.push_back(&item);
    }
    std::sort(refs_.begin() + begin, refs_.end());
    refs_.erase(std::unique(refs_.begin() + begin, refs_.end()), refs_.end());
    refs_end_.push_back(refs_.size());
}

// Marks the rules root reaches (with no internal statements, no op rule), each visited once.
std::vector<bool> rule_graph::reached() const {
    std::vector<bool> out(refs_end_.size(), false);
    const auto root = ids_.find("root");
    if (root == ids_.end()) return out;
    std::vector<std::uint32_t> todo{root->second};
    while (!todo.empty()) {
        const std::size_t i = first_rule_[todo.back()];
        todo.pop_back();
        if (i == k_none || out[i]) continue;
        out[i] = true;
        todo.insert(todo.end(), refs_.begin() + static_cast<std::ptrdiff_t>(i == 0 ? 0 : refs_end_[i - 1]),
                    refs_.begin() + static_cast<std::ptrdiff_t>(refs_end_[i]));
    }
    return out;
}

namespace {

// Drops the rules root cannot reach.
void prune(grammar& g) {
    rule_graph graph;
    for (const rule& r : g.rules) graph.add(r);
    const std::vector<bool> reached = graph.reached();
    std::size_t k = 0;
    for (std::size_t i = 0; i < g.rules.size(); ++i) {
        if (!reached[i]) continue;
        if (k != i) g.rules[k] = std::move(g.rules[i]);
        ++k;
    }
    g.rules.resize(k);
}

}  // namespace

}  // namespace plurnk::rail::detail

namespace plurnk::rail {

result<grammar> build(const options& o) {
    if (result<void> checked = check_options(o); !checked) return checked.problem();
    grammar g = detail::builder(o).run();
    detail::prune(g);
    return g;
}

// Each rule is written as the builder makes it and only its text is kept (in chunks of about
// 1 MB, a rule's text never split), with its name and references; once the builder is done, the
// header and the text of the rules root reaches go to `sink` in pieces of about 64 KB, each chunk
// dropped once written. The grammar is never whole: its tree takes about 24 times its text.
result<gbnf_written> write_gbnf(const options& o, const std::function<void(std::string_view)>& sink) {
    if (result<void> checked = check_options(o); !checked) return checked.problem();
    constexpr std::size_t k_chunk = std::size_t{1} << 20;
    constexpr std::size_t k_piece = std::size_t{64} << 10;
    constexpr std::size_t k_none = static_cast<std::size_t>(-1);
    struct placed {
        std::size_t chunk, at, size;
    };
    std::vector<std::string> chunks;
    std::vector<placed> texts;  // per rule, in order
    detail::rule_graph graph;
    std::size_t channel = k_none;  // the first rule named "channel" (the header mentions it)
    std::string text;
    detail::builder(o, [&](rule&& r) {
        graph.add(r);
        if (channel == k_none && r.name == "channel") channel = texts.size();
        text.clear();
        detail::append_gbnf_rule(text, r);
        if (chunks.empty() || chunks.back().size() + text.size() > chunks.back().capacity()) {
            chunks.emplace_back().reserve(std::max(k_chunk, text.size()));
        }
        texts.push_back({chunks.size() - 1, chunks.back().size(), text.size()});
        chunks.back() += text;
    }).run();
    const std::vector<bool> reached = graph.reached();
    std::string out;
    detail::append_gbnf_header(out, channel != k_none && reached[channel]);
    gbnf_written w;
    const auto flush = [&] {
        w.bytes += out.size();
        sink(out);
        out.clear();
    };
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const placed& p = texts[i];
        if (p.chunk > 0) std::string().swap(chunks[p.chunk - 1]);  // written out
        if (!reached[i]) continue;
        ++w.rules;
        out.append(chunks[p.chunk], p.at, p.size);
        if (out.size() >= k_piece) flush();
    }
    if (!out.empty()) flush();
    return w;
}

}  // namespace plurnk::rail
