// SPDX-License-Identifier: MIT
// The rail recognizer: the grammar desugared into plain productions (a repetition becomes helper
// rules, as llama.cpp's grammar parser does), a set of pushdown stacks that advances one code
// point at a time, and a cache that numbers each set of stacks reached and remembers its
// transitions, so a long body loops through a handful of known states. explain() also says where
// a text leaves the rail: the byte, and the deepest named rule that holds every stack still
// alive there (each symbol remembers the named rule it was lowered from).
//
// A stack is a list of positions in the flattened production array; the top is the next symbol
// to match. Like llama.cpp, expanding a rule reference that ends its production drops the
// finished frame first, so right recursion (an open repetition) keeps stacks bounded and the
// number of distinct states finite.
//
// Nesting the rail leaves unbounded (regex groups) makes stacks as deep as the text, so stacks
// share their tails: each is one node (a position and the node below it), interned, so a state is
// a sorted list of node numbers, a push costs one node and two equal stacks are one number. A
// turn then costs memory and time linear in its length however deep it nests (a stack copied
// whole per state and per step made 640 nested groups take 1.7 GB and 9 s). The node arena and
// the state cache start over together when either grows past its bound.
//
// Each level of nesting is still a new set of stacks (the same tops over a deeper tail), about
// 10 µs a byte where the rest of a turn costs a table look-up, so the recognizer follows the
// nesting k_rail_max_depth frames deep and refuses a step that would go deeper (k_rail_too_deep).
#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/work_counter.hpp"
#include "plurnk/score.hpp"

namespace plurnk::score {

namespace {

using rail::expr;

struct symbol {
    enum class kind_t : std::uint8_t { end, literal, klass, rule };
    kind_t kind = kind_t::end;
    char32_t ch = 0;          // literal
    std::uint32_t index = 0;  // klass: classes_ index; rule: nonterminal
};

struct char_class {
    std::vector<std::pair<char32_t, char32_t>> ranges;
    bool negated = false;
    [[nodiscard]] bool matches(char32_t c) const {
        bool hit = false;
        for (const auto& [lo, hi] : ranges) hit = hit || (lo <= c && c <= hi);
        return hit != negated;
    }
};

// Sorts stack ids (or rule indexes) ascending by heapsort: no recursion, so what a sort needs
// of the call stack does not grow with the set. std::sort recurses up to 2 log2(n) levels deep,
// and under ASan (g++ -O1) each level of its uint32_t instantiation is a 4.9 KB frame: a large
// state set ran a 64 KiB thread out of stack.
void sort_ids(std::vector<std::uint32_t>& v) {
    std::make_heap(v.begin(), v.end());
    std::sort_heap(v.begin(), v.end());
}

// Strict UTF-8: the code point at `i` (advancing `i`), or nullopt-like 0xFFFFFFFF when ill formed.
constexpr char32_t k_bad = 0xFFFFFFFFu;
char32_t decode(std::string_view s, std::size_t& i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
        ++i;
        return b;
    }
    std::size_t len = 0;
    char32_t c = 0;
    char32_t min = 0;
    if (b >= 0xC2 && b < 0xE0) {
        len = 2, c = b & 0x1F, min = 0x80;
    } else if (b >= 0xE0 && b < 0xF0) {
        len = 3, c = b & 0x0F, min = 0x800;
    } else if (b >= 0xF0 && b < 0xF5) {
        len = 4, c = b & 0x07, min = 0x10000;
    } else {
        return k_bad;
    }
    if (i + len > s.size()) return k_bad;
    for (std::size_t k = 1; k < len; ++k) {
        const auto x = static_cast<unsigned char>(s[i + k]);
        if ((x & 0xC0) != 0x80) return k_bad;
        c = (c << 6) | (x & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return k_bad;
    i += len;
    return c;
}

}  // namespace

struct rail_recognizer::impl {
    // A stack: a node number; node 0 is the empty stack.
    using stack = std::uint32_t;
    using state_set = std::vector<stack>;  // sorted, distinct
    struct node {
        std::uint32_t pos;     // the top: the next symbol to match
        std::uint32_t below;   // the stack under it
        std::uint32_t depth;   // nodes down to the empty stack
    };
    static constexpr stack k_empty = 0;
    // Past this many nodes the arena starts over, keeping the current state's stacks; the bound
    // is then at least four times what was kept (a text nested that deep), so the nodes carried
    // over stay fewer than those made since the last start.
    static constexpr std::size_t k_max_nodes = 1u << 18;
    std::size_t node_limit = k_max_nodes;
    std::vector<node> nodes{node{0, 0, 0}};
    std::vector<stack> node_table = std::vector<stack>(1024, k_empty);  // open addressing; k_empty: free
    std::vector<std::uint32_t> seen;  // per node: the normalize() round that reached it
    std::uint32_t round = 0;

    std::vector<symbol> syms;                         // every production, each ending in `end`
    std::vector<std::uint32_t> owner;                 // per symbol: the named rule it was lowered from
    std::vector<std::string> rule_names;              // named rule index -> name
    std::uint32_t lowering = 0;                       // the named rule being lowered
    std::vector<std::vector<std::uint32_t>> prods;    // nonterminal -> production starts
    std::vector<char_class> classes;
    std::uint32_t root = 0;

    // The automaton: state -> its stacks; ASCII transitions in a table, the rest in a map.
    static constexpr std::int32_t k_too_deep = -3;  // a step past k_rail_max_depth
    static constexpr std::int32_t k_unknown = -2;
    static constexpr std::int32_t k_dead = -1;
    static constexpr std::size_t k_max_states = 1u << 16;  // past this the cache starts over
    std::vector<state_set> states;
    std::map<state_set, std::int32_t> ids;
    std::vector<bool> accepting;
    std::vector<std::int32_t> rule_of;  // per state: the rule explain() names (-1 until asked, -2 after-end)
    std::vector<std::int32_t> ascii;  // states * 128
    std::unordered_map<std::uint64_t, std::int32_t> wide;
    std::int32_t start = 0;

    explicit impl(const rail::grammar& g) {
        std::map<std::string, std::uint32_t, std::less<>> names;
        for (const rail::rule& r : g.rules) names.emplace(r.name, new_nonterminal());
        for (const rail::rule& r : g.rules) {
            lowering = static_cast<std::uint32_t>(rule_names.size());
            rule_names.push_back(r.name);
            std::vector<symbol> body;
            lower(r.body, names, body);
            add_production(names.at(r.name), std::move(body));
        }
        root = names.at("root");
        build_graph(g);
        reset();
    }

    std::uint32_t new_nonterminal() {
        prods.emplace_back();
        return static_cast<std::uint32_t>(prods.size() - 1);
    }

    void add_production(std::uint32_t nt, std::vector<symbol> body) {
        prods[nt].push_back(static_cast<std::uint32_t>(syms.size()));
        syms.insert(syms.end(), body.begin(), body.end());
        syms.push_back(symbol{});
        owner.resize(syms.size(), lowering);
    }

    static symbol ref(std::uint32_t nt) { return symbol{symbol::kind_t::rule, 0, nt}; }

    // A nonterminal with these alternatives.
    symbol helper(std::vector<std::vector<symbol>> alternatives) {
        const std::uint32_t n = new_nonterminal();
        for (auto& a : alternatives) add_production(n, std::move(a));
        return ref(n);
    }

    // Appends the symbols of `root` to `out`: a literal's code points, a class, a rule reference;
    // a sequence's items in turn; an alternation or a repetition as a helper nonterminal. The
    // expression can nest about 200 deep (a 64-byte channel close), so the walk keeps its open
    // sequences, alternations and repetitions on a heap stack instead of recursing; each still
    // lowers its items in order before it makes its helper, so the numbering is as it was.
    void lower(const expr& root, const std::map<std::string, std::uint32_t, std::less<>>& names,
               std::vector<symbol>& root_out) {
        struct open_expr {
            open_expr(const expr* item, std::vector<symbol>* to) : e(item), out(to) {}
            const expr* e;
            std::vector<symbol>* out;                  // where its symbols go
            std::size_t next = 0;                      // its next item to lower
            std::vector<std::vector<symbol>> lowered;  // alternation, repetition: its items' symbols
        };
        std::deque<open_expr> open;  // references into it stay valid as it grows
        open.emplace_back(&root, &root_out);
        while (!open.empty()) {
            open_expr& f = open.back();
            const expr& e = *f.e;
            std::vector<symbol>& out = *f.out;
            switch (e.kind) {
                case expr::kind_t::literal:
                    for (std::size_t i = 0; i < e.text.size();) out.push_back(symbol{symbol::kind_t::literal, decode(e.text, i), 0});
                    open.pop_back();
                    break;
                case expr::kind_t::char_class:
                    classes.push_back(char_class{e.ranges, e.negated});
                    out.push_back(symbol{symbol::kind_t::klass, 0, static_cast<std::uint32_t>(classes.size() - 1)});
                    open.pop_back();
                    break;
                case expr::kind_t::ref:
                    out.push_back(ref(names.at(e.text)));
                    open.pop_back();
                    break;
                case expr::kind_t::sequence:
                    if (f.next < e.items.size()) {
                        open.emplace_back(&e.items[f.next++], &out);
                    } else {
                        open.pop_back();
                    }
                    break;
                case expr::kind_t::alternation:
                case expr::kind_t::repeat:
                    // a repetition lowers its one item, an alternation each of its items
                    if (f.next < e.items.size() && (e.kind == expr::kind_t::alternation || f.next == 0)) {
                        f.lowered.emplace_back();
                        open.emplace_back(&e.items[f.next++], &f.lowered.back());
                    } else {
                        if (e.kind == expr::kind_t::alternation) {
                            out.push_back(helper(std::move(f.lowered)));
                        } else {
                            expand_repeat(e, f.lowered.front(), out);
                        }
                        open.pop_back();
                    }
                    break;
            }
        }
    }

    // A repetition of `item` (already lowered): min copies, then a helper for the rest.
    void expand_repeat(const expr& e, const std::vector<symbol>& item, std::vector<symbol>& out) {
        for (std::uint32_t i = 0; i < e.min; ++i) out.insert(out.end(), item.begin(), item.end());
        if (e.max == rail::k_unbounded) {
            const std::uint32_t n = new_nonterminal();  // S' ::= S S' | (empty)
            std::vector<symbol> again = item;
            again.push_back(ref(n));
            add_production(n, std::move(again));
            add_production(n, {});
            out.push_back(ref(n));
        } else if (e.max > e.min) {
            symbol last = helper({item, {}});  // S'(1) ::= S | ; S'(k) ::= S S'(k-1) |
            for (std::uint32_t k = 1; k < e.max - e.min; ++k) {
                std::vector<symbol> again = item;
                again.push_back(last);
                last = helper({std::move(again), {}});
            }
            out.push_back(last);
        }
    }

    static std::size_t slot_of(std::uint32_t pos, stack below, std::size_t mask) {
        std::uint64_t h = ((static_cast<std::uint64_t>(pos) << 32) | below) * 0x9E3779B97F4A7C15ull;
        return static_cast<std::size_t>(h >> 32) & mask;
    }

    // The interned stack `pos` on top of `below`.
    stack push(stack below, std::uint32_t pos) {
        const std::size_t mask = node_table.size() - 1;
        std::size_t i = slot_of(pos, below, mask);
        for (; node_table[i] != k_empty; i = (i + 1) & mask) {
            const node& n = nodes[node_table[i]];
            if (n.pos == pos && n.below == below) return node_table[i];
        }
        const auto id = static_cast<stack>(nodes.size());
        nodes.push_back(node{pos, below, nodes[below].depth + 1});
        detail::count_rail_cells(1);
        node_table[i] = id;
        if (nodes.size() * 2 > node_table.size()) grow_table(node_table.size() * 2);
        return id;
    }

    void grow_table(std::size_t size) {
        node_table.assign(size, k_empty);
        for (stack id = 1; id < nodes.size(); ++id) {
            std::size_t i = slot_of(nodes[id].pos, nodes[id].below, size - 1);
            while (node_table[i] != k_empty) i = (i + 1) & (size - 1);
            node_table[i] = id;
        }
    }

    [[nodiscard]] std::uint32_t top(stack s) const { return nodes[s].pos; }

    // The stack with its top moved one symbol on.
    stack advance(stack s) { return push(nodes[s].below, nodes[s].pos + 1); }

    [[nodiscard]] stack pop_finished(stack s) const {
        while (s != k_empty && syms[top(s)].kind == symbol::kind_t::end) s = nodes[s].below;
        return s;
    }

    // Starts a round of normalize() calls whose stacks are counted once (one step's, or the start).
    void new_round() {
        if (++round == 0) {  // wrapped: forget every mark
            std::fill(seen.begin(), seen.end(), 0);
            round = 1;
        }
    }

    // Expands `s` until each stack ends at a terminal (or is empty) and adds the results to
    // `out`; a stack already reached in this round is not expanded again. A work list, not
    // recursion: the chain of leading rule references is as long as the grammar makes it.
    void normalize(stack s, state_set& out) {
        std::vector<stack> todo{s};
        while (!todo.empty()) {
            stack t = pop_finished(todo.back());
            todo.pop_back();
            if (seen.size() < nodes.size()) seen.resize(nodes.size(), 0);
            if (seen[t] == round) continue;
            seen[t] = round;
            if (t == k_empty || syms[top(t)].kind != symbol::kind_t::rule) {
                out.push_back(t);
                continue;
            }
            const std::uint32_t nt = syms[top(t)].index;
            const stack rest = pop_finished(advance(t));  // a finished frame is not kept under the callee
            for (auto p = prods[nt].rbegin(); p != prods[nt].rend(); ++p) todo.push_back(push(rest, *p));
        }
    }

    // Copies the stacks of `set` into a fresh arena (the old one is dropped): nodes are made
    // after the node below them, so renumbering in order of the old numbers keeps every link.
    state_set rebase(const state_set& set) {
        std::vector<stack> reach;
        std::vector<bool> marked(nodes.size(), false);
        for (stack s : set) {
            for (; s != k_empty && !marked[s]; s = nodes[s].below) {
                marked[s] = true;
                reach.push_back(s);
            }
        }
        sort_ids(reach);
        std::vector<node> old = std::move(nodes);
        nodes.assign(1, node{0, 0, 0});
        grow_table(1024);
        seen.clear();
        std::vector<stack> to(old.size(), k_empty);
        for (stack s : reach) to[s] = push(to[old[s].below], old[s].pos);
        state_set out;
        out.reserve(set.size());
        for (stack s : set) out.push_back(to[s]);
        return out;
    }

    std::int32_t intern(state_set set) {
        sort_ids(set);
        set.erase(std::unique(set.begin(), set.end()), set.end());
        if (set.empty()) return k_dead;
        if (auto it = ids.find(set); it != ids.end()) return it->second;
        const auto id = static_cast<std::int32_t>(states.size());
        accepting.push_back(set.front() == k_empty);  // sorted: the empty stack comes first
        rule_of.push_back(-1);
        ids.emplace(set, id);
        states.push_back(std::move(set));
        ascii.resize(states.size() * 128, k_unknown);
        return id;
    }

    void reset() {
        states.clear();
        ids.clear();
        accepting.clear();
        rule_of.clear();
        ascii.clear();
        wide.clear();
        state_set first;
        new_round();
        for (std::uint32_t p : prods[root]) normalize(push(k_empty, p), first);
        start = intern(std::move(first));
    }

    std::int32_t compute(std::int32_t from, char32_t c) {
        state_set next;
        new_round();
        // (normalize() adds nodes, never states: the reference stays valid)
        const state_set& from_set = states[static_cast<std::size_t>(from)];
        for (std::size_t k = 0; k < from_set.size(); ++k) {
            const stack s = from_set[k];
            if (s == k_empty) continue;
            const symbol& sym = syms[top(s)];
            const bool hit = sym.kind == symbol::kind_t::literal ? sym.ch == c : classes[sym.index].matches(c);
            if (hit) normalize(advance(s), next);
        }
        for (const stack s : next) {
            if (nodes[s].depth > k_rail_max_depth) return k_too_deep;
        }
        return intern(std::move(next));
    }

    // The state after `c` from `from`; may start the cache over (then `from` is re-interned).
    std::int32_t step(std::int32_t& from, char32_t c) {
        if (c < 128) {
            if (const std::int32_t to = ascii[static_cast<std::size_t>(from) * 128 + c]; to != k_unknown) return to;
        } else if (auto it = wide.find((static_cast<std::uint64_t>(from) << 32) | c); it != wide.end()) {
            return it->second;
        }
        if (states.size() >= k_max_states || nodes.size() >= node_limit) {
            state_set keep = rebase(states[static_cast<std::size_t>(from)]);
            node_limit = std::max(k_max_nodes, 4 * nodes.size());
            reset();
            from = intern(std::move(keep));
            return step(from, c);
        }
        const std::int32_t to = compute(from, c);
        if (c < 128) {
            ascii[static_cast<std::size_t>(from) * 128 + c] = to;  // `ascii` may have grown
        } else {
            wide.emplace((static_cast<std::uint64_t>(from) << 32) | c, to);
        }
        return to;
    }

    // The rule-level reference graph, for explain(): each named rule's parents and its depth
    // (shortest distance from root), indexed like the grammar's rules.
    std::vector<std::vector<std::uint32_t>> parents;
    std::vector<std::uint32_t> depth;

    void build_graph(const rail::grammar& g) {
        const std::size_t n = g.rules.size();
        parents.assign(n, {});
        std::vector<std::vector<std::uint32_t>> children(n);
        std::map<std::string_view, std::uint32_t> index;
        for (std::uint32_t i = 0; i < n; ++i) index.emplace(g.rules[i].name, i);
        std::vector<const expr*> todo;
        for (std::uint32_t i = 0; i < n; ++i) {
            todo.assign(1, &g.rules[i].body);
            while (!todo.empty()) {
                const expr* e = todo.back();
                todo.pop_back();
                if (e->kind == expr::kind_t::ref) {
                    const std::uint32_t c = index.at(e->text);
                    children[i].push_back(c);
                    parents[c].push_back(i);
                }
                for (const expr& it : e->items) todo.push_back(&it);
            }
        }
        depth.assign(n, std::numeric_limits<std::uint32_t>::max());
        const std::uint32_t r = index.at("root");
        std::vector<std::uint32_t> queue{r};
        depth[r] = 0;
        for (std::size_t k = 0; k < queue.size(); ++k) {
            for (const std::uint32_t c : children[queue[k]]) {
                if (depth[c] != std::numeric_limits<std::uint32_t>::max()) continue;
                depth[c] = depth[queue[k]] + 1;
                queue.push_back(c);
            }
        }
    }

    // The rule explain() names for a refusal in `state`: the deepest rule (farthest from root)
    // that contains, directly or not, every rule a live alternative was in; k_rail_after_end when
    // the text was a whole sentence already.
    std::string rule_at(std::int32_t state) {
        std::int32_t& cached = rule_of[static_cast<std::size_t>(state)];
        if (cached == -2) return std::string(k_rail_after_end);
        if (cached >= 0) return rule_names[static_cast<std::size_t>(cached)];
        std::vector<std::uint32_t> owners;
        for (const stack s : states[static_cast<std::size_t>(state)]) {
            if (s != k_empty) owners.push_back(owner[top(s)]);
        }
        sort_ids(owners);
        owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
        if (accepting[static_cast<std::size_t>(state)] || owners.empty()) {
            cached = -2;
            return std::string(k_rail_after_end);
        }
        // Ancestors of every owner (itself included), counted; the rules every owner reaches up to.
        std::vector<std::uint32_t> seen_by(parents.size(), 0);
        std::vector<std::uint32_t> mark(parents.size(), std::numeric_limits<std::uint32_t>::max());
        for (std::uint32_t k = 0; k < owners.size(); ++k) {
            std::vector<std::uint32_t> todo{owners[k]};
            mark[owners[k]] = k;
            while (!todo.empty()) {
                const std::uint32_t r = todo.back();
                todo.pop_back();
                ++seen_by[r];
                for (const std::uint32_t p : parents[r]) {
                    if (mark[p] == k) continue;
                    mark[p] = k;
                    todo.push_back(p);
                }
            }
        }
        std::uint32_t best = 0;
        bool found = false;
        for (std::uint32_t r = 0; r < seen_by.size(); ++r) {
            if (seen_by[r] != owners.size() || depth[r] == std::numeric_limits<std::uint32_t>::max()) continue;
            if (!found || depth[r] > depth[best]) best = r, found = true;
        }
        cached = static_cast<std::int32_t>(best);
        return rule_names[best];
    }

    rail_verdict run(std::string_view text, bool explain) {
        rail_verdict v;
        std::int32_t s = start;
        for (std::size_t i = 0; i < text.size();) {
            const std::size_t at = i;
            const auto b = static_cast<unsigned char>(text[i]);
            char32_t c = b;
            if (b < 0x80) {
                ++i;
            } else if ((c = decode(text, i)) == k_bad) {
                v.offset = at;
                if (explain) v.rule = k_rail_invalid_utf8;
                return v;
            }
            const std::int32_t to = step(s, c);
            if (to == k_dead || to == k_too_deep) {
                v.offset = at;
                if (explain) v.rule = to == k_too_deep ? std::string(k_rail_too_deep) : rule_at(s);
                return v;
            }
            s = to;
        }
        v.accepted = accepting[static_cast<std::size_t>(s)];
        if (!v.accepted) {
            v.offset = text.size();
            if (explain) v.rule = rule_at(s);
        }
        return v;
    }
};

rail_recognizer::rail_recognizer(const rail::grammar& g) : p_(std::make_unique<impl>(g)) {}
rail_recognizer::~rail_recognizer() = default;
rail_recognizer::rail_recognizer(rail_recognizer&&) noexcept = default;
rail_recognizer& rail_recognizer::operator=(rail_recognizer&&) noexcept = default;
bool rail_recognizer::accepts(std::string_view text) { return p_->run(text, false).accepted; }
rail_verdict rail_recognizer::explain(std::string_view text) { return p_->run(text, true); }
std::size_t rail_recognizer::states() const noexcept { return p_->states.size(); }

}  // namespace plurnk::score
