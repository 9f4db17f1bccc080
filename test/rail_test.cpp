// SPDX-License-Identifier: MIT
// The generation rail (SPEC §1.2, BEHAVIOUR §7): the GBNF output is stable (golden file), is
// well-formed for llama.cpp's grammar parser (a small checker that reads it back into the rule
// tree), and every sentence a seeded random walk over the rule model produces parses cleanly
// once the reasoning channel is split off. A recognizer that runs the grammar the way llama.cpp's
// sampler does checks a table of admitted and refused turns, and sorts one-character mutations
// of sampled sentences into those still on the rail (which must parse cleanly too) and those off
// it, counting how many of each the parser rejects.
//
// Environment hooks for looking closer: PLURNK_UPDATE_GOLDEN=1 rewrites test/golden/plurnk.gbnf;
// PLURNK_RAIL_DUMP=N prints the first N sentences and a statement-count histogram;
// PLURNK_RAIL_SAMPLES=FILE (appended to, every option set) and PLURNK_RAIL_MUTANTS=FILE write the
// sentences and the mutants as JSON Lines ({"text","rejected","rail","gbnf"}, gbnf: the
// `plurnk gbnf` arguments of the grammar) to replay through another recognizer, as
// test/rail_llama_test.sh does with llama.cpp's.
#include <catch2/catch_test_macros.hpp>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/plurnk.hpp"
#include "plurnk/score.hpp"
#include "stack_probe.hpp"

using namespace plurnk;
using rail::expr;

namespace {

// Options with a statement budget and a suffix list (the other fields at their defaults).
rail::options opts(std::size_t max_statements, std::vector<std::string> suffixes) {
    rail::options o;
    o.max_statements = max_statements;
    o.suffixes = std::move(suffixes);
    return o;
}

rail::options channel_options(rail::channel_format f, std::string open = {}, std::string close = {}) {
    rail::options o;
    o.channel = f;
    o.channel_open = std::move(open);
    o.channel_close = std::move(close);
    return o;
}

// ---- A GBNF checker -------------------------------------------------------------------------
//
// Reads GBNF the way llama.cpp's llama_grammar_parser does (llama-grammar.cpp: parse_space,
// parse_name, parse_char, parse_sequence, parse_rule) and additionally rejects what llama.cpp
// refuses later or what a shipped grammar should never hold: token syntax (`<...>`, `!`), which
// needs a model vocabulary; unknown escapes; empty literals and classes; inverted ranges;
// undefined, duplicate or unused rules; a missing root; left recursion, including an open
// repetition of a possibly empty item; repetitions past llama.cpp's 2000 threshold.

struct gbnf_check {
    rail::grammar g;
    std::string error;  // empty when the text is valid
};

class gbnf_reader {
public:
    explicit gbnf_reader(std::string_view src) : s_(src) {}

    gbnf_check run() {
        gbnf_check out;
        space(true);
        while (ok() && pos_ < s_.size()) read_rule();
        if (ok()) validate();
        out.g = std::move(g_);
        out.error = std::move(error_);
        return out;
    }

private:
    bool ok() const { return error_.empty(); }
    void fail(const std::string& why) {
        if (ok()) error_ = why + " at byte " + std::to_string(pos_);
    }
    char peek(std::size_t k = 0) const { return pos_ + k < s_.size() ? s_[pos_ + k] : '\0'; }
    static bool word_char(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    }

    void space(bool newline_ok) {
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (c == '#') {
                while (pos_ < s_.size() && s_[pos_] != '\n' && s_[pos_] != '\r') ++pos_;
            } else if (c == ' ' || c == '\t' || (newline_ok && (c == '\n' || c == '\r'))) {
                ++pos_;
            } else {
                break;
            }
        }
    }

    std::string name() {
        const std::size_t start = pos_;
        while (word_char(peek())) ++pos_;
        if (pos_ == start) fail("expecting a name");
        return std::string(s_.substr(start, pos_ - start));
    }

    char32_t hex(int digits) {
        char32_t v = 0;
        for (int i = 0; i < digits; ++i) {
            const char c = peek();
            int d = -1;
            if (c >= '0' && c <= '9') d = c - '0';
            if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
            if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
            if (d < 0) {
                fail("expecting hex digits");
                return 0;
            }
            v = v * 16 + static_cast<char32_t>(d);
            ++pos_;
        }
        return v;
    }

    // parse_char: one escape or one UTF-8 code point.
    char32_t character() {
        if (pos_ >= s_.size()) {
            fail("unexpected end of input");
            return 0;
        }
        if (s_[pos_] == '\\') {
            const char e = peek(1);
            pos_ += 2;
            switch (e) {
                case 'x': return hex(2);
                case 'u': return hex(4);
                case 'U': return hex(8);
                case 't': return '\t';
                case 'r': return '\r';
                case 'n': return '\n';
                case '\\': case '"': case '[': case ']': case '-': return static_cast<char32_t>(e);
                default: fail("unknown escape"); return 0;
            }
        }
        const auto b = static_cast<unsigned char>(s_[pos_]);
        const std::size_t len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        char32_t c = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
        for (std::size_t k = 1; k < len && pos_ + k < s_.size(); ++k) {
            c = (c << 6) | (static_cast<unsigned char>(s_[pos_ + k]) & 0x3F);
        }
        pos_ += len;
        return c;
    }

    std::uint32_t integer() {
        const std::size_t start = pos_;
        std::uint64_t v = 0;
        while (peek() >= '0' && peek() <= '9') {
            v = v * 10 + static_cast<std::uint64_t>(peek() - '0');
            if (v > 1'000'000) v = 1'000'000;
            ++pos_;
        }
        if (pos_ == start) fail("expecting an integer");
        return static_cast<std::uint32_t>(v);
    }

    // parse_alternates
    expr alternates(bool nested) {
        std::vector<expr> alts{sequence(nested)};
        while (ok() && peek() == '|') {
            ++pos_;
            space(true);
            alts.push_back(sequence(nested));
        }
        return rail::alt(std::move(alts));
    }

    // parse_sequence: items with their repetition operators.
    expr sequence(bool nested) {
        std::vector<expr> items;
        std::vector<std::size_t> synth;  // symbols each item made llama.cpp synthesize
        while (ok() && pos_ < s_.size()) {
            const char c = peek();
            const std::size_t before = synthesized_;
            if (c == '"') {
                ++pos_;
                std::string text;
                while (ok() && peek() != '"') {
                    if (pos_ >= s_.size()) {
                        fail("unterminated literal");
                        break;
                    }
                    append_utf8(text, character());
                }
                ++pos_;
                if (text.empty()) fail("empty literal");
                items.push_back(rail::lit(text));
                space(nested);
            } else if (c == '[') {
                ++pos_;
                bool negated = false;
                if (peek() == '^') {
                    negated = true;
                    ++pos_;
                }
                std::vector<std::pair<char32_t, char32_t>> ranges;
                while (ok() && peek() != ']') {
                    if (pos_ >= s_.size()) {
                        fail("unterminated character class");
                        break;
                    }
                    const char32_t lo = character();
                    char32_t hi = lo;
                    if (peek() == '-' && peek(1) != ']') {
                        ++pos_;
                        hi = character();
                        if (hi < lo) fail("inverted range in a character class");
                    }
                    ranges.emplace_back(lo, hi);
                }
                ++pos_;
                if (ranges.empty()) fail("empty character class");
                items.push_back(rail::chars(std::move(ranges), negated));
                space(nested);
            } else if (c == '<' || c == '!') {
                fail("token syntax needs a model vocabulary");
            } else if (word_char(c)) {
                items.push_back(rail::rule_ref(name()));
                refs_.insert(items.back().text);
                space(nested);
            } else if (c == '(') {
                ++pos_;
                space(true);
                ++synthesized_;
                expr inner = alternates(true);
                if (peek() != ')') {
                    fail("expecting ')'");
                    break;
                }
                ++pos_;
                items.push_back(std::move(inner));
                space(nested);
            } else if (c == '.') {
                ++pos_;
                items.push_back(rail::chars({}, true));
                space(nested);
            } else if (c == '*' || c == '+' || c == '?' || c == '{') {
                std::uint32_t min = 0, max = rail::k_unbounded;
                ++pos_;
                if (c == '+') min = 1;
                if (c == '?') max = 1;
                if (c == '{') {
                    space(nested);
                    min = integer();
                    space(nested);
                    if (peek() == '}') {
                        max = min;
                    } else if (peek() == ',') {
                        ++pos_;
                        space(nested);
                        if (peek() >= '0' && peek() <= '9') max = integer();
                        space(nested);
                        if (peek() != '}') fail("expecting '}'");
                    } else {
                        fail("expecting ',' or '}'");
                    }
                    ++pos_;
                    if (min > 2000) fail("repetition minimum above 2000");
                    if (max != rail::k_unbounded && max > 2000) max = rail::k_unbounded;
                    if (max != rail::k_unbounded && max < min) fail("repetition maximum below its minimum");
                }
                space(nested);
                if (items.empty()) {
                    fail("repetition without an item");
                    break;
                }
                // handle_repetitions: n_prev_rules * (max, else min) must stay below 2000.
                const std::uint64_t total = max != rail::k_unbounded && max > 0 ? max : (min > 0 ? min : 1);
                if (std::max<std::uint64_t>(1, synth.back()) * total >= 2000) fail("repetition past llama.cpp's threshold");
                synthesized_ += max == rail::k_unbounded ? 1 : max - min;
                items.back() = rail::repeat(std::move(items.back()), min, max);
                synth.back() = static_cast<std::size_t>(std::max<std::uint64_t>(1, synth.back()) * total);
                continue;
            } else {
                break;
            }
            synth.push_back(synthesized_ - before);
        }
        if (items.empty()) return rail::seq({});
        return rail::seq(std::move(items));
    }

    static void append_utf8(std::string& out, char32_t c) {
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if (c < 0x800) {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out += static_cast<char>(0xE0 | (c >> 12));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (c >> 18));
            out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
    }

    // parse_rule
    void read_rule() {
        const std::string n = name();
        space(false);
        if (s_.substr(pos_, 3) != "::=") {
            fail("expecting ::=");
            return;
        }
        pos_ += 3;
        space(true);
        expr body = alternates(false);
        if (!ok()) return;
        if (peek() == '\r') {
            pos_ += peek(1) == '\n' ? 2 : 1;
        } else if (peek() == '\n') {
            ++pos_;
        } else if (pos_ < s_.size()) {
            fail("expecting newline or end");
            return;
        }
        space(true);
        if (g_.find(n)) {
            fail("rule " + n + " defined twice");
            return;
        }
        g_.rules.push_back(rail::rule{n, std::move(body), {}});
    }

    bool nullable(const expr& e) const {
        switch (e.kind) {
            case expr::kind_t::literal: return e.text.empty();
            case expr::kind_t::char_class: return false;
            case expr::kind_t::ref: return nullable_.count(e.text) != 0;
            case expr::kind_t::sequence:
                for (const expr& it : e.items) {
                    if (!nullable(it)) return false;
                }
                return true;
            case expr::kind_t::alternation:
                for (const expr& it : e.items) {
                    if (nullable(it)) return true;
                }
                return false;
            case expr::kind_t::repeat: return e.min == 0 || nullable(e.items.front());
        }
        return false;
    }

    // Rules that `e` may reach before consuming a character; flags open repetitions of
    // possibly empty items (llama.cpp rewrites `S*` to `S' ::= S S' |`, left recursive then).
    void leading(const expr& e, std::set<std::string>& out) {
        switch (e.kind) {
            case expr::kind_t::literal:
            case expr::kind_t::char_class: return;
            case expr::kind_t::ref: out.insert(e.text); return;
            case expr::kind_t::sequence:
                for (const expr& it : e.items) {
                    leading(it, out);
                    if (!nullable(it)) return;
                }
                return;
            case expr::kind_t::alternation:
                for (const expr& it : e.items) leading(it, out);
                return;
            case expr::kind_t::repeat:
                if (e.max == rail::k_unbounded && nullable(e.items.front())) {
                    error_ = "open repetition of a possibly empty item (left recursion in llama.cpp)";
                }
                leading(e.items.front(), out);
                return;
        }
    }

    void validate() {
        if (!g_.find("root")) {
            error_ = "no root rule";
            return;
        }
        for (const std::string& r : refs_) {
            if (!g_.find(r)) {
                error_ = "undefined rule " + r;
                return;
            }
        }
        for (const rail::rule& r : g_.rules) {
            if (r.name != "root" && !refs_.count(r.name)) {
                error_ = "unused rule " + r.name;
                return;
            }
        }
        for (bool changed = true; changed;) {
            changed = false;
            for (const rail::rule& r : g_.rules) {
                if (!nullable_.count(r.name) && nullable(r.body)) changed = nullable_.insert(r.name).second;
            }
        }
        std::map<std::string, std::set<std::string>> first;
        for (const rail::rule& r : g_.rules) leading(r.body, first[r.name]);
        if (!ok()) return;
        // A rule that reaches itself before consuming anything is left recursive.
        for (const rail::rule& r : g_.rules) {
            std::set<std::string> seen;
            std::vector<std::string> todo(first[r.name].begin(), first[r.name].end());
            while (!todo.empty()) {
                const std::string n = todo.back();
                todo.pop_back();
                if (n == r.name) {
                    error_ = "rule " + r.name + " is left recursive";
                    return;
                }
                if (!seen.insert(n).second) continue;
                todo.insert(todo.end(), first[n].begin(), first[n].end());
            }
        }
    }

    std::string_view s_;
    std::size_t pos_ = 0;
    std::size_t synthesized_ = 0;
    std::string error_;
    rail::grammar g_;
    std::set<std::string> refs_;
    std::set<std::string> nullable_;
};

gbnf_check check_gbnf(std::string_view text) { return gbnf_reader(text).run(); }

// ---- The sentence sampler -------------------------------------------------------------------
//
// A seeded random walk over the grammar: alternatives uniformly, optional items by a coin,
// open repetitions a geometric number of extra times (mean 2.3), bounded ones anywhere in range. Past a per-sentence byte
// budget it takes the shortest way out, so every walk ends. A negated class draws from a fixed
// alphabet weighted toward the characters that matter here (`:`, `<`, op letters, line ends).

void append_utf8(std::string& out, char32_t c) {
    std::string tmp;
    if (c < 0x80) {
        tmp += static_cast<char>(c);
    } else if (c < 0x800) {
        tmp += static_cast<char>(0xC0 | (c >> 6));
        tmp += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        tmp += static_cast<char>(0xE0 | (c >> 12));
        tmp += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        tmp += static_cast<char>(0x80 | (c & 0x3F));
    } else {
        tmp += static_cast<char>(0xF0 | (c >> 18));
        tmp += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
        tmp += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
        tmp += static_cast<char>(0x80 | (c & 0x3F));
    }
    out += tmp;
}

// `extra` adds characters that matter for a non-default channel (its close literal), weighted.
std::vector<char32_t> sample_alphabet(std::string_view extra) {
    std::vector<char32_t> a;
    for (char32_t c = 0x20; c < 0x7F; ++c) a.push_back(c);
    for (char32_t c : U"\t\n\r\x01\x7F\u00E9\u03BB\u4E2D\U0001F642") {
        if (c) a.push_back(c);
    }
    for (int i = 0; i < 6; ++i) {
        for (char32_t c : U"::<<\n|>") {
            if (c) a.push_back(c);
        }
    }
    for (char32_t c : U"PLANSENDEDITFINDREADKILLchannel") {
        if (c) a.push_back(c);
    }
    for (int i = 0; i < 6; ++i) {
        for (const char c : extra) a.push_back(static_cast<unsigned char>(c));
    }
    return a;
}

bool in_class(const expr& e, char32_t c) {
    bool hit = false;
    for (const auto& [lo, hi] : e.ranges) hit = hit || (lo <= c && c <= hi);
    return hit != e.negated;
}

class sampler {
public:
    sampler(const rail::grammar& g, std::uint64_t seed, std::string_view extra = {})
        : rng_(seed), alphabet_(sample_alphabet(extra)) {
        for (const rail::rule& r : g.rules) rules_[r.name] = &r;
        for (bool changed = true; changed;) {
            changed = false;
            for (const rail::rule& r : g.rules) {
                const std::size_t m = min_len(r.body);
                auto it = min_.find(r.name);
                if (it == min_.end() || m < it->second) {
                    min_[r.name] = m;
                    changed = true;
                }
            }
        }
    }

    struct sentence {
        std::string text;
        std::size_t statements = 0;  // internal statements (expansions of `stmt`)
    };

    sentence next() { return next("root", std::uniform_int_distribution<std::size_t>(100, 4000)(rng_)); }

    // A walk from `rule` with a byte budget of `budget`.
    sentence next(std::string_view rule, std::size_t budget) {
        out_.clear();
        statements_ = 0;
        budget_ = budget;
        walk(rules_.at(std::string(rule))->body);
        return {out_, statements_};
    }

    std::mt19937_64& rng() { return rng_; }

private:
    static constexpr std::size_t k_inf = std::size_t(1) << 40;

    std::size_t min_len(const expr& e) const {
        switch (e.kind) {
            case expr::kind_t::literal: return e.text.size();
            case expr::kind_t::char_class: return 1;
            case expr::kind_t::ref: {
                auto it = min_.find(e.text);
                return it == min_.end() ? k_inf : it->second;
            }
            case expr::kind_t::sequence: {
                std::size_t n = 0;
                for (const expr& it : e.items) n = std::min(k_inf, n + min_len(it));
                return n;
            }
            case expr::kind_t::alternation: {
                std::size_t n = k_inf;
                for (const expr& it : e.items) n = std::min(n, min_len(it));
                return n;
            }
            case expr::kind_t::repeat: return std::min(k_inf, e.min * min_len(e.items.front()));
        }
        return k_inf;
    }

    bool over() const { return out_.size() > budget_; }

    char32_t pick(const expr& e) {
        if (!e.negated) {
            std::uint64_t total = 0;
            for (const auto& [lo, hi] : e.ranges) total += hi - lo + 1;
            std::uint64_t k = std::uniform_int_distribution<std::uint64_t>(0, total - 1)(rng_);
            for (const auto& [lo, hi] : e.ranges) {
                if (k <= hi - lo) return static_cast<char32_t>(lo + k);
                k -= hi - lo + 1;
            }
        }
        for (int tries = 0; tries < 64; ++tries) {
            const char32_t c = alphabet_[std::uniform_int_distribution<std::size_t>(0, alphabet_.size() - 1)(rng_)];
            if (in_class(e, c)) return c;
        }
        for (char32_t c = 0x20;; ++c) {
            if (in_class(e, c)) return c;
        }
    }

    void walk(const expr& e) {
        switch (e.kind) {
            case expr::kind_t::literal: out_ += e.text; return;
            case expr::kind_t::char_class: append_utf8(out_, pick(e)); return;
            case expr::kind_t::ref:
                if (e.text == "stmt") ++statements_;
                walk(rules_.at(e.text)->body);
                return;
            case expr::kind_t::sequence:
                for (const expr& it : e.items) walk(it);
                return;
            case expr::kind_t::alternation: {
                std::size_t k = 0;
                if (over()) {
                    for (std::size_t i = 1; i < e.items.size(); ++i) {
                        if (min_len(e.items[i]) < min_len(e.items[k])) k = i;
                    }
                } else {
                    k = std::uniform_int_distribution<std::size_t>(0, e.items.size() - 1)(rng_);
                }
                walk(e.items[k]);
                return;
            }
            case expr::kind_t::repeat: {
                std::uint32_t n = e.min;
                if (!over() && e.max == rail::k_unbounded) {
                    n += std::min<std::uint32_t>(24, std::geometric_distribution<std::uint32_t>(0.3)(rng_));
                } else if (!over()) {
                    n += std::uniform_int_distribution<std::uint32_t>(0, e.max - e.min)(rng_);
                }
                for (std::uint32_t i = 0; i < n; ++i) {
                    if (i >= e.min && over()) break;
                    walk(e.items.front());
                }
                return;
            }
        }
    }

    std::mt19937_64 rng_;
    std::vector<char32_t> alphabet_;
    std::map<std::string, const rail::rule*> rules_;
    std::map<std::string, std::size_t> min_;
    std::string out_;
    std::size_t statements_ = 0;
    std::size_t budget_ = 0;
};

// SPEC §gbnf-reasoning-boundary: the channel enclosure at byte zero goes to reasoning_content;
// the parser sees the rest. nullopt when the sentence does not start with a closed channel.
// Without a channel (both literals empty) the whole sentence is the content.
std::optional<std::string> split_channel(std::string_view raw, rail::channel_literals ch = {rail::k_channel_open,
                                                                                           rail::k_channel_close}) {
    if (ch.close.empty()) return std::string(raw);
    if (raw.substr(0, ch.open.size()) != ch.open) return std::nullopt;
    const auto close = raw.find(ch.close, ch.open.size());
    if (close == std::string_view::npos) return std::nullopt;
    return std::string(raw.substr(close + ch.close.size()));
}

bool is_disposition(double code) {
    for (const std::uint16_t c : rail::k_dispositions) {
        if (code == c) return true;
    }
    return false;
}

// The parse options of the dialect a rail writes.
parse_options in_dialect(parse_dialect d) {
    parse_options po;
    po.dialect = d;
    return po;
}

// Why `content` is not a clean rail turn with `statements` internal statements, or "".
std::string turn_problem(std::string_view content, std::size_t statements, parse_dialect d = parse_dialect::contracts) {
    const parse_result r = parse_turn(content, in_dialect(d));
    if (!r.clean()) return "not clean: " + to_json(r);
    if (r.items.size() != statements + 2) return "expected " + std::to_string(statements + 2) + " items: " + to_json(r);
    for (const item& it : r.items) {
        if (!std::holds_alternative<statement>(it)) return "non-statement item: " + to_json(r);
    }
    const auto first = std::get<statement>(r.items.front());
    const auto last = std::get<statement>(r.items.back());
    if (first.op != op::PLAN) return "first statement is not PLAN";
    if (last.op != op::SEND || last.signal.kind != signal::kind_t::number || !is_disposition(last.signal.number)) {
        return "last statement is not a terminal SEND";
    }
    if (statements == 0 && last.signal.number == rail::k_idle_code) return "idle [102] turn";
    return {};
}

// The `plurnk gbnf` arguments that build the grammar of `o`.
std::vector<std::string> gbnf_args(const rail::options& o) {
    std::vector<std::string> args;
    const rail::options d;
    if (o.max_statements != d.max_statements) args.push_back("--max-statements=" + std::to_string(o.max_statements));
    if (o.suffixes != d.suffixes) {
        std::string list = "--suffixes=";
        for (std::size_t i = 0; i < o.suffixes.size(); ++i) list += (i ? "," : "") + o.suffixes[i];
        args.push_back(list);
    }
    if (o.channel == rail::channel_format::custom) {
        args.push_back("--channel-open=" + o.channel_open);
        args.push_back("--channel-close=" + o.channel_close);
    } else if (o.channel != d.channel) {
        args.push_back(std::string("--channel=") + rail::channel_name(o.channel));
    }
    if (o.dialect != d.dialect) args.push_back(std::string("--dialect=") + dialect_name(o.dialect));
    return args;
}

// {"text":..., "rejected":..., "rail":..., "gbnf":[ARGS]}: one sentence for replaying through
// another recognizer, with the `plurnk gbnf` arguments of the grammar it belongs to.
std::string json_line(std::string_view text, bool rejected, bool on_rail = true, const rail::options& o = {}) {
    std::string out = "{\"text\":";
    append_json_string(out, text);
    out += rejected ? ",\"rejected\":true" : ",\"rejected\":false";
    out += on_rail ? ",\"rail\":true" : ",\"rail\":false";
    out += ",\"gbnf\":[";
    const std::vector<std::string> args = gbnf_args(o);
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i) out += ',';
        append_json_string(out, args[i]);
    }
    return out + "]}";
}

std::string read_file(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// A file of the source tree named relative to test/ (PLURNK_TEST_SOURCE_DIR is test/'s source
// folder, set by test/meson.build), whatever the working directory.
std::filesystem::path source_path(const std::filesystem::path& rel) {
    return std::filesystem::path(PLURNK_TEST_SOURCE_DIR) / rel;
}

// The golden copy of a dialect's default rail in the source tree: test/golden/plurnk.gbnf (1.4.0)
// and test/golden/plurnk-service.gbnf. PLURNK_UPDATE_GOLDEN=1 rewrites the file in the
// repository, never one relative to where the test runs.
std::filesystem::path golden_path(parse_dialect d) {
    return source_path(std::filesystem::path("golden") /
                       (d == parse_dialect::service ? "plurnk-service.gbnf" : "plurnk.gbnf"));
}


// ---- A recognizer -----------------------------------------------------------------------------
//
// Decides whether the grammar admits a string, the way llama.cpp's sampler does: the grammar is
// desugared into plain productions (repetitions become helper rules as in handle_repetitions),
// and a set of pushdown stacks, each ending at a terminal, advances one code point at a time.
// The string is admitted when a stack empties at its end.

class recognizer {
public:
    explicit recognizer(const rail::grammar& g) {
        for (const rail::rule& r : g.rules) ids_[r.name] = new_nonterminal();
        for (const rail::rule& r : g.rules) {
            const std::size_t p = lower(r.body);  // may grow prods_
            prods_[static_cast<std::size_t>(ids_[r.name])].push_back(p);
        }
    }

    bool accepts(std::string_view text) const {
        std::set<stack> current;
        for (std::size_t p : prods_[static_cast<std::size_t>(ids_.at("root"))]) normalize({{p, 0}}, current);
        for (std::size_t i = 0; i < text.size() && !current.empty();) {
            const char32_t c = decode(text, i);
            std::set<stack> next;
            for (const stack& s : current) {
                if (s.empty()) continue;
                const symbol& sym = body_[s.back().first][s.back().second];
                if (!sym.matches(c)) continue;
                stack t = s;
                ++t.back().second;
                normalize(std::move(t), next);
            }
            current = std::move(next);
        }
        return current.count(stack{}) != 0;
    }

private:
    struct symbol {
        int nonterminal = -1;          // >= 0: a rule; else a terminal
        const expr* cls = nullptr;     // a class terminal
        char32_t ch = 0;               // a literal terminal when cls is null
        bool matches(char32_t c) const { return cls ? in_class(*cls, c) : c == ch; }
    };
    using stack = std::vector<std::pair<std::size_t, std::size_t>>;  // (production, position)

    static char32_t decode(std::string_view s, std::size_t& i) {
        const auto b = static_cast<unsigned char>(s[i]);
        const std::size_t len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        char32_t c = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
        for (std::size_t k = 1; k < len && i + k < s.size(); ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        i += len;
        return c;
    }

    int new_nonterminal() {
        prods_.emplace_back();
        return static_cast<int>(prods_.size() - 1);
    }

    std::size_t add_production(std::vector<symbol> syms) {
        body_.push_back(std::move(syms));
        return body_.size() - 1;
    }

    // A nonterminal whose productions are `alternatives`.
    symbol helper(const std::vector<std::vector<symbol>>& alternatives) {
        const int n = new_nonterminal();
        for (const auto& a : alternatives) {
            const std::size_t p = add_production(a);
            prods_[static_cast<std::size_t>(n)].push_back(p);
        }
        symbol s;
        s.nonterminal = n;
        return s;
    }

    std::size_t lower(const expr& e) { return add_production(symbols(e)); }

    std::vector<symbol> symbols(const expr& e) {
        std::vector<symbol> out;
        switch (e.kind) {
            case expr::kind_t::literal:
                for (std::size_t i = 0; i < e.text.size();) {
                    symbol s;
                    s.ch = decode(e.text, i);
                    out.push_back(s);
                }
                break;
            case expr::kind_t::char_class: {
                symbol s;
                s.cls = &e;
                out.push_back(s);
                break;
            }
            case expr::kind_t::ref: {
                symbol s;
                s.nonterminal = ids_.at(e.text);
                out.push_back(s);
                break;
            }
            case expr::kind_t::sequence:
                for (const expr& it : e.items) {
                    auto sub = symbols(it);
                    out.insert(out.end(), sub.begin(), sub.end());
                }
                break;
            case expr::kind_t::alternation: {
                std::vector<std::vector<symbol>> alts;
                for (const expr& it : e.items) alts.push_back(symbols(it));
                out.push_back(helper(alts));
                break;
            }
            case expr::kind_t::repeat: {
                const std::vector<symbol> item = symbols(e.items.front());
                for (std::uint32_t i = 0; i < e.min; ++i) out.insert(out.end(), item.begin(), item.end());
                if (e.max == rail::k_unbounded) {
                    // S' ::= S S' | (empty)
                    const int n = new_nonterminal();
                    symbol self;
                    self.nonterminal = n;
                    std::vector<symbol> again = item;
                    again.push_back(self);
                    prods_[static_cast<std::size_t>(n)].push_back(add_production(again));
                    prods_[static_cast<std::size_t>(n)].push_back(add_production({}));
                    out.push_back(self);
                } else if (e.max > e.min) {
                    // S'(1) ::= S | (empty); S'(k) ::= S S'(k-1) | (empty)
                    symbol last = helper({item, {}});
                    for (std::uint32_t k = 1; k < e.max - e.min; ++k) {
                        std::vector<symbol> again = item;
                        again.push_back(last);
                        last = helper({again, {}});
                    }
                    out.push_back(last);
                }
                break;
            }
        }
        return out;
    }

    // Pops finished productions and expands nonterminals until `s` ends at a terminal (or is empty).
    void normalize(stack s, std::set<stack>& out) const {
        while (!s.empty() && s.back().second == body_[s.back().first].size()) s.pop_back();
        if (s.empty()) {
            out.insert(s);
            return;
        }
        const symbol& sym = body_[s.back().first][s.back().second];
        if (sym.nonterminal < 0) {
            out.insert(std::move(s));
            return;
        }
        ++s.back().second;
        // A frame with nothing left after the nonterminal is done once it is: pop it now (a tail
        // call), so a repetition's helper rule S' ::= S S' keeps the stack at its nesting depth
        // instead of one frame per repetition (which made each step cost the length read so far).
        while (!s.empty() && s.back().second == body_[s.back().first].size()) s.pop_back();
        for (std::size_t p : prods_[static_cast<std::size_t>(sym.nonterminal)]) {
            stack t = s;
            t.emplace_back(p, 0);
            normalize(std::move(t), out);
        }
    }

    std::map<std::string, int> ids_;
    std::vector<std::vector<std::size_t>> prods_;  // nonterminal -> its productions
    std::vector<std::vector<symbol>> body_;        // production -> its symbols
};

}  // namespace

TEST_CASE("the rule model lists the twelve internal ops once each", "[rail]") {
    std::set<op> seen;
    for (const rail::op_shape& s : rail::internal_ops()) {
        CHECK(s.op != op::PLAN);
        CHECK(seen.insert(s.op).second);
    }
    CHECK(seen.size() == 12);
}

TEST_CASE("options are checked", "[rail]") {
    CHECK(rail::check_options({}));
    CHECK_FALSE(rail::check_options(opts(14, {})));
    CHECK_FALSE(rail::check_options(opts(14, {"1", "1"})));
    CHECK_FALSE(rail::check_options(opts(14, {"a:b"})));
    CHECK_FALSE(rail::check_options(opts(14, {"123456789"})));
    CHECK_FALSE(rail::check_options(opts(rail::k_max_statements_limit + 1, {""})));
    CHECK(rail::check_options(opts(0, {"_x", "A", "a"})));
    CHECK(rail::check_options(opts(14, {"1", "1"})).problem().message == "suffix '1' is listed twice");
    const result<rail::grammar> twice = rail::build(opts(14, {"1", "1"}));
    REQUIRE_FALSE(twice.ok());
    CHECK(twice.problem().message == "suffix '1' is listed twice");
    CHECK(twice.problem().offset == 0);
}

namespace {

// CPU time of this thread in seconds (steadier than wall time on a shared machine).
double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Options naming `n` suffixes ("", "0", "1", ... as `plurnk gbnf --suffixes=,0,1,...` does).
rail::options many_suffixes(std::size_t n) {
    rail::options o;
    o.suffixes.assign(1, "");
    for (std::size_t i = 1; i < n; ++i) o.suffixes.push_back(std::to_string(i - 1));
    return o;
}

}  // namespace

// Issue 36 row 15: 5,000 suffixes took 52 s (the unreachable-rule pass searched a list of the
// rules reached for every reference: quadratic in the rules). Writing the grammar (write_gbnf,
// as plurnk gbnf does) for 4n suffixes must cost about 4 times n's: the two sizes run
// interleaved in this process and each keeps its best CPU time of three, so the ratio does not
// depend on the machine's load.
TEST_CASE("the rail builds in time linear in the number of suffixes", "[rail]") {
    constexpr std::size_t k_small = 400;
    constexpr std::size_t k_factor = 4;
    const rail::options small = many_suffixes(k_small);
    const rail::options large = many_suffixes(k_small * k_factor);
    const auto run = [](const rail::options& o) {
        const double t0 = thread_cpu_seconds();
        std::size_t bytes = 0;  // as plurnk gbnf writes it
        const result<rail::gbnf_written> w = rail::write_gbnf(o, [&bytes](std::string_view piece) { bytes += piece.size(); });
        REQUIRE(w.ok());
        REQUIRE(bytes > 0);
        return thread_cpu_seconds() - t0;
    };
    double best_small = 1e9, best_large = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
        best_small = std::min(best_small, run(small));
        best_large = std::min(best_large, run(large));
    }
    const double ratio = best_large / best_small;
    std::printf("rail: %zu suffixes %.3f s, %zu suffixes %.3f s (ratio %.2f, linear %zu)\n", k_small, best_small,
                k_small * k_factor, best_large, ratio, k_factor);
    CHECK(ratio < 1.75 * static_cast<double>(k_factor));  // quadratic: about 16
}

// `plurnk gbnf` writes through rail::write_gbnf, which never holds the grammar (issue 36 row 15:
// 5,000 suffixes took 604 MB, 24x the text): the same text as to_gbnf(build()), piece by piece,
// with the same rule count, and check_options' problem for options build() refuses.
TEST_CASE("write_gbnf writes what to_gbnf writes", "[rail]") {
    rail::options service;
    service.dialect = parse_dialect::service;
    rail::options service_suffixes = many_suffixes(30);
    service_suffixes.dialect = parse_dialect::service;
    const rail::options cases[] = {
        rail::options{}, opts(0, {""}), opts(3, {"a", "_b", "77"}), opts(40, {"9"}), many_suffixes(300),
        channel_options(rail::channel_format::think), channel_options(rail::channel_format::none),
        channel_options(rail::channel_format::custom, "[THINK]", "[/THINK]"),
        channel_options(rail::channel_format::custom, "", "</think>"), service, service_suffixes};
    for (const rail::options& o : cases) {
        const result<rail::grammar> g = rail::build(o);
        REQUIRE(g.ok());
        std::string written;
        std::size_t pieces = 0;
        const result<rail::gbnf_written> w = rail::write_gbnf(o, [&](std::string_view piece) {
            written += piece;
            ++pieces;
        });
        REQUIRE(w.ok());
        const std::string text = rail::to_gbnf(g.value());
        CHECK(written == text);
        CHECK(w.value().bytes == text.size());
        CHECK(w.value().rules == g.value().rules.size());
        CHECK(pieces >= text.size() / (std::size_t{128} << 10));  // in pieces of about 64 KB, not one string
    }
    const result<rail::gbnf_written> refused = rail::write_gbnf(opts(14, {"1", "1"}), [](std::string_view) { FAIL(); });
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.problem().message == rail::build(opts(14, {"1", "1"})).problem().message);
}

TEST_CASE("plurnk gbnf matches the golden file", "[rail]") {
    // Each dialect's default rail (`plurnk gbnf`, `plurnk gbnf --dialect=service`).
    for (const parse_dialect d : {parse_dialect::contracts, parse_dialect::service}) {
        rail::options o;
        o.dialect = d;
        const result<rail::grammar> r = rail::build(o);
        REQUIRE(r.ok());
        const std::string text = rail::to_gbnf(r.value());
        const std::filesystem::path golden = golden_path(d);
        if (std::getenv("PLURNK_UPDATE_GOLDEN")) {
            std::ofstream(golden, std::ios::binary) << text;
        }
        INFO("golden file " << golden.string() << " (set PLURNK_UPDATE_GOLDEN=1 to rewrite it)");
        CHECK(read_file(golden) == text);
        std::printf("rail: %s has %zu rules, %zu bytes\n", golden.filename().string().c_str(),
                    r.value().rules.size(), text.size());
    }
}

TEST_CASE("the GBNF checker rejects what llama.cpp rejects", "[rail]") {
    CHECK(check_gbnf("root ::= \"a\" [b-c]* (x | \"d\")?\nx ::= [^\\n\\x00-\\x1F]{1,3}\n").error.empty());
    CHECK(check_gbnf("root ::= \"a\" |\n  \"b\"\n").error.empty());
    CHECK_FALSE(check_gbnf("root ::= \"a\"\n  | \"b\"\n").error.empty());  // `|` must end the line
    CHECK_FALSE(check_gbnf("root ::= x\n").error.empty());                   // undefined
    CHECK_FALSE(check_gbnf("root ::= \"a\"\nroot ::= \"b\"\n").error.empty());
    CHECK_FALSE(check_gbnf("rule ::= \"a\"\n").error.empty());               // no root
    CHECK_FALSE(check_gbnf("root ::= (\"a\"\n").error.empty());
    CHECK_FALSE(check_gbnf("root ::= \"a\")\n").error.empty());
    CHECK_FALSE(check_gbnf("root ::= [z-a]\n").error.empty());
    CHECK_FALSE(check_gbnf("root ::= []\n").error.empty());
    CHECK_FALSE(check_gbnf("root ::= \"\\q\"\n").error.empty());
    CHECK_FALSE(check_gbnf("root ::= <think> \"a\"\n").error.empty());
    CHECK_FALSE(check_gbnf("root ::= x \"a\"\nx ::= root | \"b\"\n").error.empty());  // left recursion
    CHECK_FALSE(check_gbnf("root ::= (\"a\"?)*\n").error.empty());
    CHECK_FALSE(check_gbnf("root ::= \"a\"{3001}\n").error.empty());
    CHECK_FALSE(check_gbnf("root ::= \"a\"\nx ::= \"b\"\n").error.empty());  // unused
    CHECK_FALSE(check_gbnf("root_x ::= \"a\"\n").error.empty());            // `_` is not a name char
}

TEST_CASE("plurnk gbnf is valid GBNF and reads back as the rule tree", "[rail]") {
    for (const rail::options& o : {rail::options{}, opts(0, {""}), opts(3, {"a", "_b", "77"})}) {
        const result<rail::grammar> r = rail::build(o);
        REQUIRE(r.ok());
        const gbnf_check c = check_gbnf(rail::to_gbnf(r.value()));
        INFO(c.error);
        REQUIRE(c.error.empty());
        REQUIRE(c.g.rules.size() == r.value().rules.size());
        for (std::size_t i = 0; i < r.value().rules.size(); ++i) {
            INFO(r.value().rules[i].name);
            CHECK(c.g.rules[i].name == r.value().rules[i].name);
            CHECK(c.g.rules[i].body == r.value().rules[i].body);
        }
    }
}

TEST_CASE("the terminal rules hold in the grammar", "[rail]") {
    const result<rail::grammar> r = rail::build();
    REQUIRE(r.ok());
    const std::string text = rail::to_gbnf(r.value());
    const auto line = [&](std::string_view name) {
        const auto at = text.find("\n" + std::string(name) + " ::=");
        return text.substr(at + 1, text.find("\n\n", at + 1) - at - 1);
    };
    CHECK(line("terminal-head").find("102") != std::string::npos);
    CHECK(line("terminal-first-head").find("102") == std::string::npos);
    CHECK(line("terminal-first-head").find("timing") != std::string::npos);
    CHECK(line("tail").find("step{1,14}") != std::string::npos);
    CHECK(line("plan").find("<<PLAN:") != std::string::npos);
    CHECK(rail::to_gbnf(rail::build(opts(0, {""})).value()).find("step") == std::string::npos);
}

namespace {

struct sample_stats {
    std::size_t sentences = 0;
    std::size_t failures = 0;
    std::size_t bytes = 0;
    std::size_t statements = 0;
};

// Why the raw sentence, channel included, does not parse as one text item (the enclosure, which
// the lexer knows for the gemma and think formats) followed by the clean turn, or "".
std::string raw_problem(std::string_view raw, std::string_view content, std::size_t statements, parse_dialect d) {
    const parse_result r = parse_turn(raw, in_dialect(d));
    if (!r.clean()) return "raw sentence not clean: " + to_json(r);
    const std::string_view channel = raw.substr(0, raw.size() - content.size());
    const std::optional<item> front = r.items.empty() ? std::nullopt : std::optional<item>(r.items.front());
    const auto* first = front ? std::get_if<text_item>(&*front) : nullptr;
    if (r.items.size() != statements + 3 || first == nullptr || first->text != channel) {
        return "raw sentence is not the channel as one text item plus the turn: " + to_json(r);
    }
    return {};
}

sample_stats sample_and_parse(const rail::options& o, std::uint64_t seed, std::size_t count) {
    const result<rail::grammar> r = rail::build(o);
    REQUIRE(r.ok());
    const rail::channel_literals ch = rail::literals(o);
    sampler s(r.value(), seed, o.channel == rail::channel_format::gemma ? std::string_view() : ch.close);
    sample_stats st;
    const char* dump = std::getenv("PLURNK_RAIL_DUMP");  // print the first N sentences
    const std::size_t show = dump ? std::strtoul(dump, nullptr, 10) : 0;
    std::map<std::size_t, std::size_t> histogram;
    std::ofstream samples_out;  // JSON Lines of the sentences, to replay them elsewhere
    if (const char* path = std::getenv("PLURNK_RAIL_SAMPLES")) samples_out.open(path, std::ios::binary | std::ios::app);
    for (std::size_t i = 0; i < count; ++i) {
        const sampler::sentence x = s.next();
        if (samples_out) samples_out << json_line(x.text, false, true, o) << '\n';
        if (i < show) std::printf("---- sentence %zu (%zu statements)\n%s\n", i, x.statements, x.text.c_str());
        ++histogram[x.statements];
        ++st.sentences;
        st.bytes += x.text.size();
        st.statements += x.statements;
        const std::optional<std::string> content = split_channel(x.text, ch);
        std::string why = content ? turn_problem(*content, x.statements, o.dialect) : "no channel to split";
        const bool lexer_knows = o.channel == rail::channel_format::gemma || o.channel == rail::channel_format::think;
        if (why.empty() && lexer_knows) why = raw_problem(x.text, *content, x.statements, o.dialect);
        if (x.statements > o.max_statements) why = "statement budget exceeded";
        if (!why.empty()) {
            ++st.failures;
            if (st.failures <= 5) {
                INFO("sentence " << i << ": " << why);
                INFO(x.text);
                CHECK(false);
            }
        }
    }
    if (show) {
        for (const auto& [n, k] : histogram) std::printf("rail: %zu sentences with %zu internal statements\n", k, n);
    }
    return st;
}

}  // namespace

TEST_CASE("ten thousand sampled rail sentences parse cleanly", "[rail]") {
    const sample_stats st = sample_and_parse({}, 20261201, 10000);
    std::printf("rail: %zu sentences (%zu bytes, %zu internal statements), %zu not clean\n", st.sentences, st.bytes,
                st.statements, st.failures);
    CHECK(st.failures == 0);
}

// Every channel format, 10,000 sentences each (the default gemma format is the test above).
TEST_CASE("ten thousand sampled sentences of every channel format parse cleanly", "[rail]") {
    struct variant {
        const char* name;
        rail::options o;
    };
    variant variants[] = {{"think", {}}, {"none", {}}, {"custom [THINK]", {}}, {"custom open in prompt", {}}};
    variants[0].o.channel = rail::channel_format::think;
    variants[1].o.channel = rail::channel_format::none;
    variants[2].o.channel = rail::channel_format::custom;
    variants[2].o.channel_open = "[THINK]";
    variants[2].o.channel_close = "[/THINK]";
    variants[3].o.channel = rail::channel_format::custom;
    variants[3].o.channel_close = "</think>";  // DeepSeek R1: the template already wrote `<think>\n`
    std::uint64_t seed = 20261202;
    for (const variant& v : variants) {
        INFO("channel " << v.name);
        const sample_stats st = sample_and_parse(v.o, seed++, 10000);
        std::printf("rail: channel %s: %zu sentences (%zu bytes, %zu internal statements), %zu not clean\n", v.name,
                    st.sentences, st.bytes, st.statements, st.failures);
        CHECK(st.failures == 0);
    }
}

// The service dialect's rail (doc/rail.md "The service dialect's rail"): its sentences parse
// cleanly in the service dialect, with and without a channel.
TEST_CASE("ten thousand sampled sentences of the service rail parse cleanly in the service dialect", "[rail][service]") {
    std::uint64_t seed = 20261210;
    for (const rail::channel_format f : {rail::channel_format::gemma, rail::channel_format::none}) {
        rail::options o = channel_options(f);
        o.dialect = parse_dialect::service;
        INFO("channel " << rail::channel_name(f));
        const sample_stats st = sample_and_parse(o, seed++, 10000);
        std::printf("rail: service dialect, channel %s: %zu sentences (%zu bytes, %zu internal statements), %zu not clean\n",
                    rail::channel_name(f), st.sentences, st.bytes, st.statements, st.failures);
        CHECK(st.failures == 0);
    }
}

TEST_CASE("sentences of other rail options parse cleanly", "[rail]") {
    CHECK(sample_and_parse(opts(0, {""}), 7, 1000).failures == 0);
    CHECK(sample_and_parse(opts(3, {"a", "_b", "77"}), 8, 1000).failures == 0);
    CHECK(sample_and_parse(opts(40, {"9"}), 9, 300).failures == 0);
}

namespace {

// One-code-point mutants of 10,000 sampled sentences of the rail of `o` (a gemma channel), each
// through the test's recognizer and the parser in the rail's dialect: a mutant still on the rail
// must parse cleanly, and every mutant the parser rejects must have left the rail.
void near_misses(const rail::options& o, std::ofstream& mutants_out) {
    const result<rail::grammar> r = rail::build(o);
    REQUIRE(r.ok());
    sampler s(r.value(), 42);
    auto& rng = s.rng();
    static constexpr std::string_view k_insert = ":<>[]()\n x1";
    static constexpr const char* k_kinds[] = {"delete", "insert", "replace", "duplicate"};
    const recognizer rec(r.value());
    std::size_t tried[4] = {}, rejected[4] = {}, on_rail[4] = {}, off_rail_rejected[4] = {};
    const char* dialect = dialect_name(o.dialect);
    for (std::size_t i = 0; i < 10000; ++i) {
        const sampler::sentence x = s.next();
        std::string content = split_channel(x.text).value_or("");
        REQUIRE(!content.empty());
        const std::string channel = x.text.substr(0, x.text.size() - content.size());
        // Mutate whole code points, so a mutant stays valid UTF-8.
        std::size_t at = std::uniform_int_distribution<std::size_t>(0, content.size() - 1)(rng);
        while (at > 0 && (static_cast<unsigned char>(content[at]) & 0xC0) == 0x80) --at;
        std::size_t len = 1;
        while (at + len < content.size() && (static_cast<unsigned char>(content[at + len]) & 0xC0) == 0x80) ++len;
        const char c = k_insert[std::uniform_int_distribution<std::size_t>(0, k_insert.size() - 1)(rng)];
        const std::size_t kind = i % 4;
        switch (kind) {
            case 0: content.erase(at, len); break;
            case 1: content.insert(at, 1, c); break;
            case 2: content.replace(at, len, 1, len == 1 && content[at] == c ? '<' : c); break;
            default: content.insert(at, content.substr(at, len)); break;
        }
        ++tried[kind];
        const bool rejects = !parse_turn(content, in_dialect(o.dialect)).clean();
        if (rejects) ++rejected[kind];
        const bool rail_admits = rec.accepts(channel + content);
        if (rail_admits) {
            // Still a rail sentence: it must parse cleanly like any other.
            ++on_rail[kind];
            if (rejects) FAIL_CHECK("a rail sentence the parser rejects: " << channel + content);
        } else if (rejects) {
            ++off_rail_rejected[kind];
        }
        if (mutants_out) mutants_out << json_line(channel + content, rejects, rail_admits, o) << '\n';

    }
    std::size_t total = 0, total_on = 0, total_off_rejected = 0;
    for (std::size_t k = 0; k < 4; ++k) {
        std::printf("rail (%s): near misses (%s): %zu of %zu rejected by the parser; %zu still on the rail, %zu of the "
                    "%zu off it rejected\n",
                    dialect, k_kinds[k], rejected[k], tried[k], on_rail[k], off_rail_rejected[k], tried[k] - on_rail[k]);
        total += rejected[k];
        total_on += on_rail[k];
        total_off_rejected += off_rail_rejected[k];
    }
    std::printf("rail (%s): near misses: %zu of 10000 rejected by the parser; %zu still on the rail (all clean), %zu of "
                "the %zu off it rejected\n",
                dialect, total, total_on, total_off_rejected, 10000 - total_on);
    CHECK(total > 0);
    CHECK(total == total_off_rejected);  // every rejected mutant had left the rail
}

// JSON Lines of the raw mutants and the parser's verdict (appended to: both dialects' cases).
std::ofstream mutants_file() {
    std::ofstream out;
    if (const char* path = std::getenv("PLURNK_RAIL_MUTANTS")) out.open(path, std::ios::binary | std::ios::app);
    return out;
}

}  // namespace

TEST_CASE("one-mutation near misses: the parser rejects some", "[rail]") {
    std::ofstream mutants_out = mutants_file();
    near_misses({}, mutants_out);
}

TEST_CASE("one-mutation near misses of the service rail: the parser rejects some", "[rail][service]") {
    std::ofstream mutants_out = mutants_file();
    rail::options service;
    service.dialect = parse_dialect::service;
    near_misses(service, mutants_out);
}

namespace {

// Why `text` does not parse (statements tier) as one clean statement, or "".
std::string statement_problem(const std::string& text, parse_dialect dialect = parse_dialect::contracts) {
    const parse_result r = parse(text, tier::statements, in_dialect(dialect));
    if (r.clean() && r.items.size() == 1 && std::holds_alternative<statement>(r.items.front())) return {};
    for (const item& it : r.items) {
        if (const auto* d = std::get_if<diagnostic>(&it)) return std::string(d->message);
    }
    return to_json(r);
}

// Draws each sub-language of the rail of dialect `d` and parses it in a statement (the test
// cases below).
void draw_parts(parse_dialect d) {
    rail::options o;
    o.suffixes = {"", "1", "x", "_F"};
    o.dialect = d;
    const std::string dl = d == parse_dialect::service ? "#" : "/";  // the regex delimiter
    const result<rail::grammar> r = rail::build(o);
    REQUIRE(r.ok());
    sampler s(r.value(), 20261203);
    struct part {
        const char* rule;
        std::vector<std::pair<std::string, std::string>> contexts;  // before, after
        int draws;
    };
    std::vector<std::pair<std::string, std::string>> matcher_ctx, selection_ctx;
    for (const char* op : {"FIND", "READ", "OPEN", "FOLD"}) {
        for (const std::string& sfx : o.suffixes) matcher_ctx.emplace_back(std::string("<<") + op + sfx + "(x):", ":" + std::string(op) + sfx);
    }
    for (const char* op : {"COPY", "MOVE"}) {
        for (const std::string& sfx : o.suffixes) selection_ctx.emplace_back(std::string("<<") + op + sfx + "(x):", ":" + std::string(op) + sfx);
    }
    const part parts[] = {
        {"regex", matcher_ctx, 20000},
        {"rx-class", {{"<<FIND(x):" + dl, dl + ":FIND"}, {"<<FIND(x):" + dl, dl + "u:FIND"}, {"<<FIND(x):" + dl, dl + "v:FIND"}}, 20000},
        {"rxn-class", {{"<<FIND(x):" + dl, dl + ":FIND"}, {"<<FIND(x):" + dl + "a", dl + "gi:FIND"}}, 20000},
        {"rxv-class", {{"<<FIND(x):" + dl, dl + "v:FIND"}}, 20000},
        {"rxn-seq1", {{"<<FIND(x):" + dl, dl + ":FIND"}}, 20000},
        {"xpath", matcher_ctx, 20000},
        {"jsonpath", matcher_ctx, 20000},
        {"target", {{"<<READ(", ")::READ"}, {"<<EDIT[a](", ")<1>:x:EDIT"}, {"<<SEND[3](", "):x:SEND"}}, 20000},
        {"selection", selection_ctx, 20000},
        {"tags", {{"<<READ", "(x)::READ"}, {"<<OPEN", ":x:OPEN"}}, 5000},
        {"branch", {{"<<WORK", "(x):go:WORK"}}, 2000},
        {"executor", {{"<<EXEC", ":ls:EXEC"}}, 2000},
        {"kill-code", {{"<<KILL", "(x)::KILL"}}, 2000},
        {"mid-code", {{"<<SEND", ":x:SEND"}}, 2000},
    };
    for (const part& p : parts) {
        if (r.value().find(p.rule) == nullptr) {  // WORK and FORK take no signal in the service dialect
            CHECK((d == parse_dialect::service && std::string_view(p.rule) == "branch"));
            continue;
        }
        std::size_t failures = 0;
        for (int i = 0; i < p.draws; ++i) {
            const std::string draw = s.next(p.rule, i % 8 == 0 ? 2000 : 200).text;  // now and then a long one
            const auto& [before, after] = p.contexts[static_cast<std::size_t>(i) % p.contexts.size()];
            const std::string text = before + draw + after;
            if (const std::string why = statement_problem(text, d); !why.empty() && ++failures <= 8) {
                INFO(p.rule << ": " << text);
                INFO(why);
                CHECK(false);
            }
        }
        std::printf("rail (%s): %d draws of %s, %zu not admitted\n", dialect_name(d), p.draws, p.rule, failures);
        CHECK(failures == 0);
    }
}

}  // namespace

// The sub-languages the rail holds bodies and slots to, sampled on their own (so each gets many
// more draws than inside whole turns) and parsed in a statement: every draw is admitted cleanly.
// The matcher dialects go into FIND, READ, OPEN and FOLD with each suffix of the rail, targets
// into every slot, destinations into COPY and MOVE bodies.
TEST_CASE("every matcher dialect, target and signal the rail draws parses cleanly", "[rail]") {
    draw_parts(parse_dialect::contracts);
}

// The same for the service dialect's rail: `#pattern#flags` regexes in bodies, regex targets
// among the targets (SERVICE.md S3, S4, S7), each parsed in the service dialect.
TEST_CASE("every matcher dialect, target and signal the service rail draws parses cleanly", "[rail][service]") {
    draw_parts(parse_dialect::service);
}

TEST_CASE("sampled sentences are rail sentences", "[rail]") {
    const result<rail::grammar> r = rail::build();
    REQUIRE(r.ok());
    const recognizer rec(r.value());
    sampler s(r.value(), 5);
    for (int i = 0; i < 300; ++i) {
        const std::string text = s.next().text;
        INFO(text);
        REQUIRE(rec.accepts(text));
    }
}

TEST_CASE("the rail admits canonical turns and refuses the shapes it excludes", "[rail]") {
    const result<rail::grammar> r = rail::build();
    REQUIRE(r.ok());
    const recognizer rec(r.value());
    const std::string ch = std::string(rail::k_channel_open) + "thinking<channel|>\n";
    struct row {
        std::string content;
        bool admitted;
    };
    const row rows[] = {
        {"<<PLAN:goal:PLAN\n<<SEND[200]:done:SEND", true},
        {"<<PLAN:a < b:PLAN<<SEND[202]<-1>:waiting:SEND", true},
        {"<<PLAN:g:PLAN\n<<READ[src](lib/a.cpp)<1,20>:/TODO|FIXME/i:READ\n<<SEND[102]:next:SEND", true},
        {"<<PLAN:g:PLAN\n<<EDIT1(a.md)<-1>:text with :EDIT inside:EDIT1\n<<SEND[200]:ok:SEND", true},
        {"<<PLAN:g:PLAN\n<<COPY(a.txt)<1,2>:b.txt<3>:COPY\n<<SEND[200]:ok:SEND", true},
        {"<<PLAN:g:PLAN\n<<WORK[main](worker://rev):review it:WORK\n<<SEND[202]<600,30>:wait:SEND", true},
        {"<<PLAN:g:PLAN\n<<FIND(https://x.org:8080/a?q#f):$..name:FIND\n<<SEND[499]:no:SEND", true},
        {"<<PLAN:g:PLAN\n<<KILL[9](log://x)::KILL\n<<SEND[404](worker://a):mid:SEND\n<<SEND[200]:ok:SEND", true},
        {"<<PLAN:g:PLAN\n<<SEND[102]:idle:SEND", false},                  // idle turn
        {"<<PLAN:g <<READ(x)::READ:PLAN\n<<SEND[200]:d:SEND", false},    // `<<` in PLAN
        {"<<PLAN::PLAN\n<<SEND[200]:d:SEND", false},                      // empty PLAN
        {"<<PLAN1:g:PLAN1\n<<SEND[200]:d:SEND", false},                   // suffixed PLAN
        {"<<PLAN:g:PLAN\n<<SEND[200]::SEND", false},                      // empty terminal body
        {"<<PLAN:g:PLAN\n<<SEND[200]<5>:d:SEND", false},                  // park off [202]
        {"<<PLAN:g:PLAN\n<<SEND[200]:d:SEND\n<<SEND[200]:d:SEND", false}, // after the terminal
        {"<<PLAN:g:PLAN\n<<SEND[200](x):d:SEND ", false},                // trailing text
        {"<<PLAN:g:PLAN\n<<EDIT(x):a:EDIT b:EDIT\n<<SEND[200]:d:SEND", false},  // own close
        {"<<PLAN:g:PLAN\n<<EDIT(x):EDIT\nx:EDIT\n<<SEND[200]:d:SEND", false},   // starts with EDIT
        {"<<PLAN:g:PLAN\n<<EDIT3(x):a:EDIT3\n<<SEND[200]:d:SEND", false},       // suffix not listed
        {"<<PLAN:g:PLAN\n<<FIND(x)::a:FIND\n<<SEND[200]:d:SEND", false},        // matcher starts with `:`
        {"<<PLAN:g:PLAN\n<<FIND(x):a\nb:FIND\n<<SEND[200]:d:SEND", false},      // two-line matcher
        {"<<PLAN:g:PLAN\n<<READ(x):/(a/:READ\n<<SEND[200]:d:SEND", false},      // outside the regex subset
        {"<<PLAN:g:PLAN\n<<SEND[200](x):mid:SEND\n<<SEND[200]:d:SEND", false},  // disposition mid SEND
        {"<<PLAN:g:PLAN\n<<EDIT:x:EDIT\n<<SEND[200]:d:SEND", false},            // EDIT without target
        {"<<PLAN:g:PLAN\n<<OPEN(x)<1>::OPEN\n<<SEND[200]:d:SEND", false},       // OPEN takes no scope
        {"<<PLAN:g:PLAN\n<<READ(a:b)::READ\n<<SEND[200]:d:SEND", true},         // `:` in a local path
        {"<<PLAN:g:PLAN\n<<READ(a://b)::READ\n<<SEND[200]:d:SEND", true},       // a URL of a scheme of its own
        {"<<PLAN:g:PLAN\n<<FIND[ts](src/**/*.ts):/retry(Count|Delay)/i:FIND\n<<SEND[200]:d:SEND", true},
        {"<<PLAN:g:PLAN\n<<FIND(a.xml)://book[price>10 and @lang='en']/title:FIND\n<<SEND[200]:d:SEND", true},
        {"<<PLAN:g:PLAN\n<<FIND(u.json):$[?@.role==\"admin\"].name:FIND\n<<SEND[200]:d:SEND", true},
        {"<<PLAN:g:PLAN\n<<EDIT(t):EDIT this line:EDIT\n<<SEND[200]:d:SEND", true},  // not a close
        {"<<PLAN:g:PLAN\n<<EDIT(t)::EDITOR:EDIT\n<<SEND[200]:d:SEND", true},       // `:EDITOR` is no close
        {"<<PLAN:g:PLAN\n<<EDIT1(t):a :EDIT b:EDIT1\n<<SEND[200]:d:SEND", true},
        {"<<PLAN:g:PLAN\n<<READ(https://example.test/x?literal=\\)&encoded=%29#preview\\()::READ\n<<SEND[200]:d:SEND", true},
        {"<<PLAN:g:PLAN\n<<OPEN[plan]::OPEN\n<<SEND[200]:d:SEND", true},          // OPEN by its tags
        {"<<PLAN:g:PLAN\n<<EXEC(build.sh)<-1,300>:make:EXEC\n<<SEND[200]:d:SEND", true},
        {"<<PLAN:g:PLAN\n<<EDIT(t):EDIT\nx:EDIT\n<<SEND[200]:d:SEND", false},     // the one-colon close
        {"<<PLAN:g:PLAN\n<<FIND(x):/(?:FIND)/:FIND\n<<SEND[200]:d:SEND", false},   // its close in the regex
        {"<<PLAN:g:PLAN\n<<FIND(x):/(?<n>a)/:FIND\n<<SEND[200]:d:SEND", false},    // a named group
        {"<<PLAN:g:PLAN\n<<FIND(x):/a/ig:FIND\n<<SEND[200]:d:SEND", false},        // flags out of order
        {"<<PLAN:g:PLAN\n<<COPY(a):x:COPY1:COPY\n<<SEND[200]:d:SEND", false},      // `:C` in a destination
        {"<<PLAN:g:PLAN\n<<KILL(x):a:KILL\n<<SEND[200]:d:SEND", false},            // a KILL body
        {"<<PLAN:g:PLAN\n<<KILL::KILL\n<<SEND[200]:d:SEND", false},                // no target
        {"<<PLAN:g:PLAN\n<<OPEN::OPEN\n<<SEND[200]:d:SEND", false},                // neither target, tags nor matcher
        {"<<PLAN:g:PLAN\n<<SEND[102]<30>:p:SEND", false},                          // park off [202]
        {"<<PLAN:g:PLAN\n<<READ(file://h:1/x)::READ\n<<SEND[200]:d:SEND", false},  // port on file://
        {"<<PLAN:g:PLAN\n<<EDIT[a, b](x)::EDIT\n<<SEND[200]:d:SEND", false},    // space in tags
        {"<<PLAN:g:PLAN\n<<EDIT(x)<1-2>::EDIT\n<<SEND[200]:d:SEND", false},     // dash scope
        {"<<PLAN:g:PLAN        \n<<SEND[200]:d:SEND", false},                   // eight separators
    };
    score::rail_recognizer fast(r.value());  // plurnk score's recognizer decides the same
    for (const row& x : rows) {
        INFO(x.content);
        CHECK(rec.accepts(ch + x.content) == x.admitted);
        CHECK(fast.accepts(ch + x.content) == x.admitted);
        if (x.admitted) CHECK(parse_turn(x.content).clean());
    }
    std::string fifteen = "<<PLAN:g:PLAN";
    for (int i = 0; i < 15; ++i) fifteen += "<<KILL(x)::KILL";
    CHECK_FALSE(rec.accepts(ch + fifteen + "<<SEND[200]:d:SEND"));
    CHECK(rec.accepts(ch + fifteen.substr(0, fifteen.size() - 15) + "<<SEND[200]:d:SEND"));
    CHECK_FALSE(rec.accepts("<<PLAN:g:PLAN<<SEND[200]:d:SEND"));  // no channel
    CHECK_FALSE(rec.accepts(std::string(rail::k_channel_open) + "a<|channel>b<channel|><<PLAN:g:PLAN<<SEND[200]:d:SEND"));
    CHECK(rec.accepts(std::string(rail::k_channel_open) + "<channel|><<PLAN:g:PLAN<<SEND[200]:d:SEND"));
}

namespace {


}  // namespace

TEST_CASE("channel formats: names, literals and option checks", "[rail]") {
    for (const char* n : {"gemma", "think", "none", "custom"}) {
        const auto f = rail::channel_from_name(n);
        REQUIRE(f);
        CHECK(std::string(rail::channel_name(*f)) == n);
    }
    CHECK_FALSE(rail::channel_from_name("Gemma"));
    CHECK(rail::literals({}).open == rail::k_channel_open);
    CHECK(rail::literals(channel_options(rail::channel_format::think)).close == "</think>");
    CHECK(rail::literals(channel_options(rail::channel_format::none)).close.empty());
    CHECK(rail::literals(channel_options(rail::channel_format::custom, "[T]", "[/T]")).open == "[T]");
    // Literals only matter for the custom format.
    CHECK(rail::check_options(channel_options(rail::channel_format::think, "", "")));
    CHECK(rail::check_options(channel_options(rail::channel_format::custom, "", "</think>")));
    CHECK(rail::check_options(channel_options(rail::channel_format::custom, "\xce\xbb\n", "|")));
    CHECK_FALSE(rail::check_options(channel_options(rail::channel_format::custom, "<r>", "")));         // empty close
    CHECK_FALSE(rail::check_options(channel_options(rail::channel_format::custom, "<r>", "</r<")));     // `<` again
    CHECK_FALSE(rail::check_options(channel_options(rail::channel_format::custom, "<r>", "</r\x01>")));  // control
    CHECK_FALSE(rail::check_options(channel_options(rail::channel_format::custom, "<r>", "</\xce\xbb>")));
    CHECK_FALSE(rail::check_options(channel_options(rail::channel_format::custom, "\xff", "</r>")));    // not UTF-8
    CHECK_FALSE(rail::check_options(channel_options(rail::channel_format::custom, std::string(65, 'a'), "</r>")));
    CHECK_FALSE(rail::check_options(channel_options(static_cast<rail::channel_format>(9))));
}

TEST_CASE("every channel format is valid GBNF, reads back, and samples rail sentences", "[rail]") {
    const rail::options variants[] = {
        channel_options(rail::channel_format::think), channel_options(rail::channel_format::none),
        channel_options(rail::channel_format::custom, "[THINK]", "[/THINK]"),
        channel_options(rail::channel_format::custom, "", "</think>"),
        channel_options(rail::channel_format::custom, "<r>", "|")};
    std::uint64_t seed = 11;
    for (const rail::options& o : variants) {
        const result<rail::grammar> r = rail::build(o);
        REQUIRE(r.ok());
        const std::string text = rail::to_gbnf(r.value());
        INFO(text.substr(0, 600));
        const gbnf_check c = check_gbnf(text);
        INFO(c.error);
        REQUIRE(c.error.empty());
        REQUIRE(c.g.rules.size() == r.value().rules.size());
        for (std::size_t i = 0; i < r.value().rules.size(); ++i) CHECK(c.g.rules[i].body == r.value().rules[i].body);
        CHECK((text.find("\n#   channel sep PLAN") != std::string::npos) == (o.channel != rail::channel_format::none));
        const recognizer rec(r.value());
        sampler s(r.value(), seed++, rail::literals(o).close);
        for (int i = 0; i < 200; ++i) {
            const std::string sentence = s.next().text;
            INFO(sentence);
            REQUIRE(rec.accepts(sentence));
        }
    }
}

TEST_CASE("each channel format admits its own enclosure and refuses the others", "[rail]") {
    const std::string turn = "<<PLAN:g:PLAN\n<<SEND[200]:d:SEND";
    struct row {
        std::string raw;
        bool gemma, think, none, bracket, prompt;  // admitted by each format
    };
    const std::string gemma_open(rail::k_channel_open);
    const row rows[] = {
        {gemma_open + "t<channel|>\n" + turn, true, false, false, false, false},
        {"<think>\nt\n</think>\n\n" + turn, false, true, false, false, true},  // prompt: body `<think>\nt\n`
        {"<think></think>" + turn, false, true, false, false, true},
        {turn, false, false, true, false, false},
        {" " + turn, false, false, false, false, false},  // `none` starts at byte zero
        {"[THINK]a < b [/THIN[/THINK]" + turn, false, false, false, true, false},
        {"t</think>\n" + turn, false, false, false, false, true},
        {"</think>" + turn, false, false, false, false, true},
        {"<think>a<think>b</think>" + turn, false, false, false, false, true},  // opener in a think body
        {"<think>a</think>b</think>" + turn, false, false, false, false, false},  // two closers
        {"[THINK]a[/THINK]b[/THINK]" + turn, false, false, false, false, false},
        {"a</think>b</think>" + turn, false, false, false, false, false},
        {"<think>a" + turn, false, false, false, false, false},  // never closed
    };
    const rail::options formats[] = {{}, channel_options(rail::channel_format::think),
                                     channel_options(rail::channel_format::none),
                                     channel_options(rail::channel_format::custom, "[THINK]", "[/THINK]"),
                                     channel_options(rail::channel_format::custom, "", "</think>")};
    std::vector<rail::grammar> grammars;  // the recognizers point into them
    for (const rail::options& o : formats) grammars.push_back(rail::build(o).value());
    std::vector<recognizer> recs;
    for (const rail::grammar& g : grammars) recs.emplace_back(g);
    for (const row& x : rows) {
        INFO(x.raw);
        const bool want[] = {x.gemma, x.think, x.none, x.bracket, x.prompt};
        for (std::size_t i = 0; i < recs.size(); ++i) {
            INFO("format " << i);
            CHECK(recs[i].accepts(x.raw) == want[i]);
            if (want[i]) CHECK(parse_turn(*split_channel(x.raw, rail::literals(formats[i]))).clean());
        }
    }
}

// doc/rail.md says which sample turns are on which rail; this holds it to that.
TEST_CASE("the sample turns: turn-rail.plurnk is on the default rail, turn.plurnk on none", "[rail]") {
    const std::string on = read_file(source_path("../doc/examples/turn-rail.plurnk"));
    const std::string off = read_file(source_path("../doc/examples/turn.plurnk"));
    REQUIRE(!on.empty());
    REQUIRE(!off.empty());
    const rail::options formats[] = {{}, channel_options(rail::channel_format::think),
                                     channel_options(rail::channel_format::none)};
    for (const rail::options& o : formats) {
        INFO("channel " << rail::channel_name(o.channel));
        const result<rail::grammar> r = rail::build(o);
        const recognizer rec(r.value());
        CHECK(rec.accepts(on) == (o.channel == rail::channel_format::gemma));
        // `<think>` opens it, so only the think rail could take it, but it ends with a newline.
        CHECK_FALSE(rec.accepts(off));
    }
    CHECK(parse_turn(on).clean());
    CHECK(parse_turn(*split_channel(on)).clean());
    CHECK(parse_turn(off).clean());
}

// plurnk score's recognizer (lib/score) against the rail's own sampler and this file's
// recognizer: every sampled sentence of each channel format is on its rail and on no other, and
// on one-code-point mutants the two recognizers agree.
namespace {

// The scorer's recognizer against the test's on 400 sentences of `o`'s rail and one mutant of each.
void recognizers_agree(const rail::options& o, std::uint64_t seed, std::size_t& on, std::size_t& off) {
    const rail::grammar g = rail::build(o).value();
    score::rail_recognizer fast(g);
    const recognizer rec(g);
    sampler s(g, seed, rail::literals(o).close);
    auto& rng = s.rng();
    for (int i = 0; i < 400; ++i) {
        std::string text = s.next().text;
        INFO(text);
        REQUIRE(fast.accepts(text));
        const std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(rng);
        if ((static_cast<unsigned char>(text[at]) & 0x80) != 0) continue;  // mutate ASCII only: stays UTF-8
        static constexpr std::string_view k_insert = ":<>[]()\n x1#/";
        const char c = k_insert[std::uniform_int_distribution<std::size_t>(0, k_insert.size() - 1)(rng)];
        if (i % 3 == 0) {
            text.erase(at, 1);
        } else if (i % 3 == 1) {
            text.insert(at, 1, c);
        } else {
            text[at] = text[at] == c ? '<' : c;
        }
        const bool expected = rec.accepts(text);
        (expected ? on : off) += 1;
        CHECK(fast.accepts(text) == expected);
        const score::rail_verdict v = fast.explain(text);
        CHECK(v.accepted == expected);
        CHECK(v.offset <= text.size());
    }
}

}  // namespace

// The service dialect's rail: the scorer's recognizer (plurnk score --dialect=service) agrees
// with the test's on its sentences and their mutants, and refuses the other dialect's regexes.
TEST_CASE("the scorer's rail recognizer agrees on the service rail's samples and near misses", "[rail][score][service]") {
    std::size_t on = 0, off = 0;
    std::uint64_t seed = 91;
    for (const rail::channel_format f : {rail::channel_format::gemma, rail::channel_format::none}) {
        rail::options o = channel_options(f);
        o.dialect = parse_dialect::service;
        INFO("channel " << rail::channel_name(f));
        recognizers_agree(o, seed++, on, off);
    }
    std::printf("score: the service rail's recognizer agrees on 800 samples and their mutants (%zu still on the rail, %zu off)\n",
                on, off);
    CHECK(on > 0);
    CHECK(off > 0);
    rail::options service = channel_options(rail::channel_format::none);
    service.dialect = parse_dialect::service;
    score::rail_recognizer svc(rail::build(service).value());
    score::rail_recognizer contracts(rail::build(channel_options(rail::channel_format::none)).value());
    const std::string hash = "<<PLAN:p:PLAN\n<<FIND(src):#retry(Count|Delay)#i:FIND\n<<SEND[200]:done:SEND";
    const std::string slash = "<<PLAN:p:PLAN\n<<FIND(src):/retry(Count|Delay)/i:FIND\n<<SEND[200]:done:SEND";
    const std::string target = "<<PLAN:p:PLAN\n<<FIND(#src/.*\\.test\\.ts#)::FIND\n<<SEND[200]:done:SEND";
    const std::string scope = "<<PLAN:p:PLAN\n<<OPEN(log:///a)<1,10>::OPEN\n<<SEND[200]:done:SEND";
    const std::string work = "<<PLAN:p:PLAN\n<<WORK[b](worker://a):go:WORK\n<<SEND[200]:done:SEND";
    const std::string fork = "<<PLAN:p:PLAN\n<<FORK(worker://a)::FORK\n<<SEND[200]:done:SEND";
    CHECK(svc.accepts(hash));        // a regex
    CHECK(contracts.accepts(hash));  // a glob in 1.4.0
    CHECK(contracts.accepts(slash)); // a regex
    CHECK(svc.accepts(slash));       // a glob in the service dialect (S6)
    CHECK(svc.accepts("<<PLAN:p:PLAN\n<<FIND(src)://a:FIND\n<<SEND[200]:done:SEND"));         // `//` leads XPath,
    CHECK_FALSE(svc.accepts("<<PLAN:p:PLAN\n<<FIND(src)://(:FIND\n<<SEND[200]:done:SEND"));  // not a glob
    CHECK_FALSE(svc.accepts("<<PLAN:p:PLAN\n<<FIND(src):#a:FIND\n<<SEND[200]:done:SEND"));   // no closing `#` (S5)
    CHECK(svc.accepts(target));
    CHECK(svc.accepts(scope));
    CHECK_FALSE(contracts.accepts(scope));
    CHECK(contracts.accepts(work));
    CHECK_FALSE(svc.accepts(work));       // SERVICE.md S9
    CHECK(svc.accepts(fork));             // S10
    CHECK_FALSE(contracts.accepts(fork));
    for (const std::string& t : {hash, target, scope, fork}) {
        INFO(t);
        CHECK(parse_turn(t, in_dialect(parse_dialect::service)).clean());
    }
}

TEST_CASE("the scorer's rail recognizer agrees on samples and near misses", "[rail][score]") {
    const rail::options formats[] = {{}, channel_options(rail::channel_format::think),
                                     channel_options(rail::channel_format::none)};
    std::vector<rail::grammar> grammars;
    for (const rail::options& o : formats) grammars.push_back(rail::build(o).value());
    std::vector<score::rail_recognizer> fast;
    for (const rail::grammar& g : grammars) fast.emplace_back(g);
    std::uint64_t seed = 77;
    std::size_t on = 0, off = 0;
    for (std::size_t f = 0; f < grammars.size(); ++f) {
        INFO("channel " << rail::channel_name(formats[f].channel));
        const recognizer rec(grammars[f]);
        sampler s(grammars[f], seed++, rail::literals(formats[f]).close);
        auto& rng = s.rng();
        for (int i = 0; i < 400; ++i) {
            std::string text = s.next().text;
            INFO(text);
            for (std::size_t g = 0; g < fast.size(); ++g) REQUIRE(fast[g].accepts(text) == (g == f));
            std::size_t at = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(rng);
            while (at > 0 && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
            std::size_t len = 1;  // whole code points, so a mutant stays valid UTF-8
            while (at + len < text.size() && (static_cast<unsigned char>(text[at + len]) & 0xC0) == 0x80) ++len;
            static constexpr std::string_view k_insert = ":<>[]()\n x1";
            const char c = k_insert[std::uniform_int_distribution<std::size_t>(0, k_insert.size() - 1)(rng)];
            if (i % 3 == 0) {
                text.erase(at, len);
            } else if (i % 3 == 1) {
                text.insert(at, 1, c);
            } else {
                text.replace(at, len, 1, len == 1 && text[at] == c ? '<' : c);
            }
            const bool expected = rec.accepts(text);
            (expected ? on : off) += 1;
            CHECK(fast[f].accepts(text) == expected);
            const score::rail_verdict v = fast[f].explain(text);
            CHECK(v.accepted == expected);
            CHECK(v.offset <= text.size());
        }
        CHECK(fast[f].states() > 10);
    }
    std::printf("score: rail recognizer agrees on 1200 samples and 1200 mutants (%zu still on the rail)\n", on);
    CHECK(on > 0);
    CHECK(off > 0);
    // The sample turns, as doc/rail.md says.
    const std::string turn_rail = read_file(source_path("../doc/examples/turn-rail.plurnk"));
    const std::string turn = read_file(source_path("../doc/examples/turn.plurnk"));
    CHECK(fast[0].accepts(turn_rail));
    CHECK_FALSE(fast[1].accepts(turn_rail));
    for (auto& x : fast) CHECK_FALSE(x.accepts(turn));
    CHECK_FALSE(fast[2].accepts("<<PLAN:g:PLAN\n<<SEND[200]:d:SEND\xff"));  // ill-formed UTF-8
}

// A custom channel's close literal is excluded from the channel body one character at a time, so
// the rule nests three expressions per character: with the longest literal the options allow (64
// bytes), building the grammar, writing it and lowering it for the recognizer took 67 KB of call
// stack at -O2, over 64 KiB (doc/limits.md, "Stack"). Each walks the tree on a heap stack now: in
// a thread with a 64 KiB stack, the longest literals need no more stack than two-byte ones.
TEST_CASE("the longest channel literals need no more stack than short ones", "[rail][stack]") {
    const auto custom = [](std::size_t n) {
        rail::options o;
        o.channel = rail::channel_format::custom;
        o.channel_open = std::string(n, 'o');
        o.channel_close = "#";
        for (std::size_t i = 1; i < n; ++i) o.channel_close += static_cast<char>('a' + i % 26);
        return o;
    };
    struct use {
        std::size_t build, write, lower, accept;
    };
    const auto stack_of = [](const rail::options& o) {
        use u{};
        std::optional<rail::grammar> g;
        std::optional<score::rail_recognizer> r;
        std::string text;
        u.build = test::run_on_stack([&] { g = std::move(rail::build(o).value()); }).high_water;
        u.write = test::run_on_stack([&] { text = rail::to_gbnf(*g); }).high_water;
        u.lower = test::run_on_stack([&] { r.emplace(*g); }).high_water;
        const std::string turn = o.channel_open + "x" + o.channel_close + "<<PLAN:p:PLAN\n<<SEND[200]:d:SEND";
        bool on_rail = false;
        u.accept = test::run_on_stack([&] { on_rail = r->accepts(turn); }).high_water;
        CHECK(on_rail);
        CHECK(text.find("channel-seg ::=") != std::string::npos);
        return u;
    };
    REQUIRE(rail::check_options(custom(rail::k_max_channel_literal)).ok());
    const use small = stack_of(custom(2));
    const use large = stack_of(custom(rail::k_max_channel_literal));
    CHECK(large.build <= small.build + 512);
    CHECK(large.write <= small.write + 512);
    CHECK(large.lower <= small.lower + 512);
    CHECK(large.accept <= small.accept + 512);
}

// Why a turn is off the rail (issue 35): the recognizer names the first byte the rail refuses
// and the deepest rule holding every alternative still open there.
TEST_CASE("the rail recognizer says where a turn leaves the rail and in which rule", "[rail][score]") {
    rail::options none;
    none.channel = rail::channel_format::none;
    const result<rail::grammar> g = rail::build(none);
    REQUIRE(g.ok());
    score::rail_recognizer rec(g.value());
    struct row {
        std::string text;
        std::size_t offset;
        std::string_view rule;
    };
    const std::string plan = "<<PLAN:g:PLAN\n";
    const std::string send = "\n<<SEND[200]:d:SEND";
    const row rows[] = {
        {plan + "<<EDIT(p)<1-2>:x:EDIT" + send, plan.size() + 11, "text-scope"},   // a dash scope
        {plan + "<<KILL(x):a:KILL" + send, plan.size() + 10, "kill"},              // a KILL body
        {plan + "<<READ(a)::READ", plan.size() + 15, "tail"},                      // no terminal SEND
        {plan + "<<READ(a)::READ\nhello" + send, plan.size() + 16, "tail"},        // text between
        {plan + "<<SEND[200]:d:SEND x", plan.size() + 18, score::k_rail_after_end}, // text after
        {plan + "<<SEND[200]:d\xff:SEND", plan.size() + 13, score::k_rail_invalid_utf8},
        {"hello", 0, "plan"},
    };
    for (const row& x : rows) {
        INFO(x.text);
        const score::rail_verdict v = rec.explain(x.text);
        CHECK_FALSE(v.accepted);
        CHECK(v.offset == x.offset);
        CHECK(v.rule == x.rule);
        CHECK_FALSE(rec.accepts(x.text));
    }
    const score::rail_verdict on = rec.explain(plan + "<<READ(a)::READ" + send);
    CHECK(on.accepted);
    CHECK(on.rule.empty());
    // The default (gemma) rail refuses a turn without its channel at the second byte.
    score::rail_recognizer gemma(rail::build().value());
    const score::rail_verdict v = gemma.explain(plan + "<<SEND[200]:d:SEND");
    CHECK(v.offset == 1);
    CHECK(v.rule == "channel");
}
