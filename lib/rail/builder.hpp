// SPDX-License-Identifier: MIT
// The rail's grammar builder (private header): the expression kit its parts share and the
// builder class whose writers add the rules, one file per part of the grammar:
//   build.cpp             the kit, the driver (build(), pruning what root cannot reach)
//   build_turn.cpp        the turn: root, the reasoning channel, PLAN, the tail, the terminal SEND
//   build_statements.cpp  the internal ops' rules and heads, the signal and scope slots
//   build_targets.cpp     targets: local paths, URLs, hosts, the COPY/MOVE destination
//   build_matchers.cpp    the matcher dialects: ECMAScript regex, XPath 1.0, JSONPath
//   build_bodies.cpp      the body segment rules of every op and suffix
// build.cpp's opening comment says how bodies and closes are kept apart (doc/rail.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "plurnk/rail.hpp"

namespace plurnk::rail::detail {

using ranges_t = std::vector<std::pair<char32_t, char32_t>>;

// The expression kit (build.cpp; each function's comment is there).
expr set_of(std::string_view spec);
expr none_of(std::u32string_view s, const ranges_t& also = {});
expr minus(const expr& cls, std::u32string_view drop);
expr opt(expr e);
expr star(expr e);
expr plus(expr e);
expr between(expr e, std::uint32_t lo, std::uint32_t hi);
expr rref(std::string_view name);
expr word_except(const std::vector<std::string>& words, const expr& first, const expr& rest);

// The parameters of the segment tries of one body kind (see build.cpp's file comment).
struct seg_kind {
    std::u32string excluded;   // never in a segment: the split character and any others
    std::string rest;          // the rule of what may follow once the segment has left every word
    bool no_double_lt = false; // segments also exclude `<<` (the PLAN body)
};

expr word_trie(const seg_kind& k, std::string_view word, std::u32string_view first_excluded, const expr* end);
std::string lower(std::string_view s);
std::string stem(op o, std::string_view suffix);

inline constexpr std::string_view k_word_chars = "0-9A-Z_a-z";

// The GBNF writer's parts (gbnf.cpp): to_gbnf() is the header, then each rule in order.
void append_gbnf_header(std::string& out, bool has_channel);
void append_gbnf_rule(std::string& out, const rule& r);

// The rules' names and references, for the rules root reaches (build.cpp): build() drops the
// others from its grammar, write_gbnf() writes only the reached ones. Names are numbered in order
// of first appearance; a rule is known by the first rule of its name.
class rule_graph {
public:
    void add(const rule& r);  // the rules in their grammar order
    [[nodiscard]] std::vector<bool> reached() const;  // per rule added: root reaches it

private:
    std::uint32_t id(const std::string& name);
    std::unordered_map<std::string, std::uint32_t> ids_;
    std::vector<std::size_t> first_rule_;  // per name: its first rule, or k_none
    std::vector<std::uint32_t> refs_;      // the rules' distinct references, rule after rule
    std::vector<std::size_t> refs_end_;    // per rule: where its references end in refs_
    static constexpr std::size_t k_none = static_cast<std::size_t>(-1);
};

class builder {
public:
    explicit builder(const options& o) : o_(o) {}
    // Hands each rule to `sink` as it is made instead of keeping it (run() then returns no rules).
    builder(const options& o, std::function<void(rule&&)> sink) : o_(o), sink_(std::move(sink)) {}

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
        rule r{std::move(name), std::move(body), std::move(comment)};
        if (sink_) {
            sink_(std::move(r));
        } else {
            g_.rules.push_back(std::move(r));
        }
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

    // ---- The turn (build_turn.cpp) -----------------------------------------------------------
    [[gnu::noinline]] void turn();
    void channel(const channel_literals& ch);
    [[gnu::noinline]] void tail();
    static expr nonempty_body(const std::string& st);
    static expr text_body(const std::string& st);
    [[gnu::noinline]] void terminal();
    // Defined in build.cpp, beside the trie it runs.
    static expr channel_level(const std::vector<std::string>& words, const std::u32string& excluded);

    // ---- Statements and slots (build_statements.cpp) -----------------------------------------
    [[gnu::noinline]] void statement(const op_shape& s);
    static expr scope_ref(scope_shape c);
    [[gnu::noinline]] void signals();
    static expr digits_except(const std::vector<std::string>& words, std::size_t depth);
    [[gnu::noinline]] void scopes();

    // ---- Targets (build_targets.cpp) ---------------------------------------------------------
    [[gnu::noinline]] void targets();
    void target_rules(const std::string& p, std::u32string_view not_after_colon);
    [[gnu::noinline]] void local_rules(const std::string& p, std::u32string_view not_after_colon);
    [[gnu::noinline]] void url_rules(const std::string& p, std::u32string_view not_after_colon);
    [[gnu::noinline]] void host_rules();
    [[gnu::noinline]] void host_names();
    [[gnu::noinline]] void host_numbers();
    template <class UnitExcept>
    void avoid_run(const std::string& name, const UnitExcept& unit_except, const std::vector<std::string>& words);

    // ---- Matcher dialects (build_matchers.cpp) -----------------------------------------------
    [[gnu::noinline]] void regex();
    [[gnu::noinline]] void regex_escapes();
    [[gnu::noinline]] void regex_classes();
    [[gnu::noinline]] expr regex_common_escape();
    [[gnu::noinline]] void regex_props();
    [[gnu::noinline]] void regex_chain(const std::string& p, const expr& chars_out, std::u32string_view seps, std::u32string_view not_after,
                                       const std::string& esc, const std::string& cls);
    [[gnu::noinline]] void xpath();
    [[gnu::noinline]] void xpath_paths();
    [[gnu::noinline]] expr xpath_literal();
    [[gnu::noinline]] void xpath_values();
    [[gnu::noinline]] void jsonpath();
    [[gnu::noinline]] void jsonpath_segments();
    [[gnu::noinline]] void jsonpath_filters();

    // ---- Body rules (build_bodies.cpp) -------------------------------------------------------
    void segment_rules(const seg_kind& k, op o, const std::pair<std::string, std::string_view>& lead,
                       const std::pair<std::string, std::string_view>& seg);
    [[gnu::noinline]] void bodies();

    const options& o_;
    std::function<void(rule&&)> sink_;
    grammar g_;
};

}  // namespace plurnk::rail::detail
