// SPDX-License-Identifier: MIT
// The result builder (private header): turns the lexer's and the statement parser's output into
// the result as it settles (BEHAVIOUR §3-§4). Each statement unit becomes its statement or its
// first error ("one hard error per statement"), with the typed AST built and validated; text
// tokens become text items; finish() appends the errors no statement claimed, cuts everything from
// the unparsed tail on, and runs the turn-shape passes of the `parse` tier. parse() and the push
// parser share it.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "frozen_log.hpp"
#include "lexer.hpp"
#include "messages.hpp"
#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/path.hpp"
#include "plurnk/validate.hpp"
#include "position.hpp"
#include "statement_parser.hpp"

namespace plurnk::detail {

inline bool is_word_char(unsigned char c) noexcept {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// A hard error waiting for a statement to claim it. Its diagnostic (the message text above all)
// is made only when it is reported: most errors of an error-dense input are claimed by a
// statement that shows another one, or fall into the unparsed tail.
struct pending_error {
    std::uint32_t offset;
    std::uint32_t index;     // into lex_output::errors or syntax_tree::errors, by `from`
    std::uint64_t recorded;  // when the reference records it: 2 * fetched token (+1 for the parser)
    position at;
    plurnk::source from;
    bool consumed = false;
};

// The value of the decimal digits [b, e) (nothing else), as std::from_chars would read it: up to
// 15 digits are summed exactly in an integer, longer runs go to from_chars for correct rounding.
inline double decimal_value(const char* b, const char* e) noexcept {
    if (e - b <= 15) {
        std::uint64_t v = 0;
        for (const char* p = b; p != e; ++p) v = v * 10 + static_cast<std::uint64_t>(*p - '0');
        return static_cast<double>(v);
    }
    double v = 0;
    std::from_chars(b, e, v);
    return v;
}

// Parses the numbers of a scope literal (`<1,2>`, `<1-5>`, `<0--5>`, `<1, -1>`).
inline line_marker scope_marks(std::string_view s) {
    line_marker m;
    std::size_t i = 0;
    if (i < s.size() && s[i] == '<') ++i;
    while (i < s.size() && s[i] != '>') {
        const std::size_t start = i;
        if (s[i] == '-') ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        if (i < s.size() && s[i] == '.') {
            ++i;
            while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
        }
        const char* num_begin = s.data() + start + (s[start] == '-' ? 1 : 0);
        const char* num_end = s.data() + i;
        double v = 0;
        if (std::find(num_begin, num_end, '.') == num_end) {
            v = decimal_value(num_begin, num_end);
        } else {
            std::from_chars(num_begin, num_end, v);
        }
        if (s[start] == '-') v = -v;
        m.marks.push_back(v);
        if (i < s.size() && s[i] == ',') {
            ++i;
            if (i < s.size() && s[i] == ' ') ++i;
        } else if (i < s.size() && s[i] == '-') {
            ++i;
        } else if (i == start) {
            ++i;  // defensive: never loop without progress
        }
    }
    return m;
}

inline double parse_int_signal(std::string_view s) {
    const bool neg = !s.empty() && s[0] == '-';
    const double v = decimal_value(s.data() + (neg ? 1 : 0), s.data() + s.size());
    return neg ? -v : v;
}

// Whether JSON.parse could accept `s`: after JSON whitespace, a value must start with one of these
// bytes. Anything else is rejected without running the JSON reader.
inline bool may_start_json(std::string_view s) noexcept {
    for (const char c : s) {
        switch (c) {
            case ' ': case '\t': case '\n': case '\r': continue;
            case '{': case '[': case '"': case '-': case 't': case 'f': case 'n': return true;
            default: return c >= '0' && c <= '9';
        }
    }
    return false;
}

// parse_options::max_input_bytes, capped at what 32-bit offsets can address.
inline std::size_t input_limit(const parse_options& o) noexcept {
    return std::min(o.max_input_bytes, parse_options::k_max_input_bytes);
}

// The last item of a result whose input went past max_input_bytes: where parsing stopped and how
// much was left out.
inline void append_input_limit_error(parse_result& r, position end, std::uint64_t parsed, std::uint64_t total) {
    const std::string t = std::to_string(total), p = std::to_string(parsed);
    r.items.emplace_back(diagnostic{end, source::lexer, severity::error,
                                    format_message(message_id::input_limit, {{"total", t}, {"parsed", p}}),
                                    message_id::input_limit});
}

inline bool is_matcher_op(op o) {
    return o == op::FIND || o == op::READ || o == op::OPEN || o == op::FOLD || o == op::LOOK || o == op::BUFF;
}

// Builds the result from the lexer's and the statement parser's output as they settle: units
// become statements or their first error, text tokens become text items (each followed by its
// advisories in the parse tier), in token order. finish() appends the unclaimed errors, cuts the
// unparsed tail and runs the turn-shape passes. The push parser calls advance() after every
// chunk; parse() calls it once with everything.
class result_builder {
public:
    using sink = std::function<void(const item&, std::size_t index)>;

    explicit result_builder(tier t) : tier_(t) {}

    // Emits what the first `settled` tokens decide. `in` is the whole input so far.
    void advance(std::string_view in, const lex_output& lexed, const syntax_tree& tree, std::size_t settled,
                 const sink& out) {
        bind(in, lexed, tree);
        collect_errors();
        // One item per unit at least: reserve up front (geometrically, as advance() repeats when
        // streaming) so the large items are not relocated while the vector grows.
        const auto& toks = lexed.tokens;
        if (finishing_ && frozen_items_.empty() && result_.items.empty()) {
            // A one-shot parse: one item per unit and per text token outside units, the errors no
            // unit claims (at most all of them) and the turn-shape error, reserved at once: a
            // regrowth of items this large holds and touches up to twice their final size. Room
            // that stays unused is address space only (its pages are never touched).
            std::size_t texts = 0;
            for (std::size_t i = next_token_; i < toks.size(); ++i) {
                texts += (toks[i].kind == tok::text && tree.token_unit[i] < 0) ? 1 : 0;
            }
            const std::size_t n = tree.units.size() + texts + lexed.errors.size() + tree.errors.size() + 2;
            result_.items.reserve(n);
            fired_.reserve(n);
        } else {
            // (after a share() the live items are only those since: no reservation)
            if (frozen_items_.empty()) reserve_for(result_.items, tree.units.size() + 1);
        }
        for (; next_token_ < settled && next_token_ < toks.size() && toks[next_token_].begin < cut_; ++next_token_) {
            const std::int32_t u = tree.token_unit[next_token_];
            if (u >= 0) {
                const unit& un = tree.units[static_cast<std::size_t>(u)];
                if (un.first == next_token_) emit_unit(un, out);
                continue;
            }
            if (toks[next_token_].kind == tok::text) {
                add_item(text_item{std::string(text(toks[next_token_])), at(toks[next_token_].begin)}, true, out);
                if (tier_ == tier::parse) {
                    for (auto& d : near_miss_advisories(std::get<text_item>(result_.items.back()))) {
                        add_item(std::move(d), true, out);
                    }
                }
            }
        }
    }

    // Everything is lexed and parsed: the final result. Items not reported yet go to `out`.
    parse_result finish(std::string_view in, const lex_output& lexed, const syntax_tree& tree, const sink& out) {
        // Nothing from the unparsed tail's opener on survives apply_tail(): such items are not
        // even made (on an unclosed hostile input that is nearly all of them).
        if (lexed.final_mode != mode::normal) cut_ = lexed.last_open_begin;
        // Nothing more is reported before the tail and the passes have had their say.
        finishing_ = true;
        advance(in, lexed, tree, lexed.tokens.size(), {});
        // Room for the unclaimed errors and the turn-shape error too, so that appending them does
        // not regrow (and copy) the whole result.
        const std::size_t extra =
            frozen_carried_.size() + carried_.size() + lex_errs_.size() + syn_errs_.size() + 1;
        result_.items = frozen_items_.take(std::move(result_.items), extra);
        fired_ = frozen_fired_.take(std::move(fired_), extra);
        append_unclaimed();
        apply_tail();
        if (tier_ == tier::parse && !result_.tail) turn_shape();
        for (std::size_t i = 0; i < result_.items.size(); ++i) {
            if (!fired_[i] && out) out(result_.items[i], i);
        }
        return std::move(result_);
    }

private:
    void bind(std::string_view in, const lex_output& lexed, const syntax_tree& tree) {
        in_ = in;
        lexed_ = &lexed;
        tree_ = &tree;
        pos_.rebind(in);
    }

    position at(std::size_t offset) { return pos_.at(offset); }
    std::string_view text(const token& t) const { return in_.substr(t.begin, t.end - t.begin); }

    // Appends an item; reports it now when it is final, else at finish().
    template <typename Item>
    void add_item(Item&& it, bool final_now, const sink& out) {
        result_.items.emplace_back(std::forward<Item>(it));
        settle_last(final_now, out);
    }

    // Bookkeeping for the item just placed at the back of the result.
    void settle_last(bool final_now, const sink& out) {
        if (!final_now) index_known_ = false;
        const bool fire = final_now && out;
        fired_.push_back(fire ? 1 : 0);
        if (fire) {
            out(result_.items.back(), index_known_ ? frozen_items_.size() + result_.items.size() - 1 : stream_event_npos);
        }
    }

public:
    // Before the builder is copied (a stream checkpoint): its items so far move to the frozen
    // logs, which the copy then shares instead of duplicating them. Items are complete between
    // advance() calls (only finish() revisits them, after take()), and so are the carried errors.
    // Not observable: indices, events and the final result are unchanged.
    void share() {
        if (!result_.items.empty()) {
            frozen_items_.freeze(std::move(result_.items));
            frozen_fired_.freeze(std::move(fired_));
            result_.items.clear();
            fired_.clear();
        }
        if (!carried_.empty()) {
            frozen_carried_.freeze(std::move(carried_));
            carried_.clear();
        }
    }

private:

    static constexpr std::size_t stream_event_npos = static_cast<std::size_t>(-1);

    // Hard errors carry the order the reference records them in: a lexer error when the parser
    // first fetches the token after it, a parser error when reported (after every token the
    // parser had looked at by then). That order decides which error a statement shows and the
    // order of the errors no statement claims.
    void collect_errors() {
        const auto& lex_errors = lexed_->errors;
        // Exact in a one-shot parse (one call); geometric when streaming (many calls).
        reserve_for(lex_errs_, lex_errors.size());
        for (; lex_seen_ < lex_errors.size(); ++lex_seen_) {
            const lex_error& e = lex_errors[lex_seen_];
            const position p = at(e.begin);
            // Cascade collapse: an error right after an error of the same context is dropped.
            const bool cascade = has_prev_ && prev_pos_.line == p.line && prev_pos_.column + 1 == p.column &&
                                 prev_context_ == e.context;
            has_prev_ = true;
            prev_pos_ = p;
            prev_context_ = e.context;
            if (cascade) continue;
            lex_errs_.push_back(pending_error{e.begin, static_cast<std::uint32_t>(lex_seen_),
                                              (tok_base_ + e.token_index) * 2, p, source::lexer});
        }
        const auto& syn_errors = tree_->errors;
        reserve_for(syn_errs_, syn_errors.size());
        for (; syn_seen_ < syn_errors.size(); ++syn_seen_) {
            const syntax_error& e = syn_errors[syn_seen_];
            pending_error pe{e.offset, static_cast<std::uint32_t>(syn_seen_), (tok_base_ + e.fetched) * 2 + 1,
                             at(e.offset), source::parser};
            // keep offset order (errors arrive almost sorted)
            auto it = syn_errs_.end();
            while (it != syn_errs_.begin() && std::prev(it)->offset > pe.offset) --it;
            syn_errs_.insert(it, std::move(pe));
        }
    }

    diagnostic make_diagnostic(const pending_error& e) const {
        if (e.from == source::lexer) {
            const lex_error& le = lexed_->errors[e.index];
            return diagnostic{e.at, e.from, severity::error, le.message(in_), le.id()};
        }
        const syntax_error& se = tree_->errors[e.index];
        return diagnostic{e.at, e.from, severity::error, se.message(in_), se.id()};
    }

    template <class T>
    static void reserve_for(std::vector<T>& v, std::size_t n) {
        if (n > v.capacity()) v.reserve(std::max(n, 2 * v.capacity()));
    }

    // The first recorded, unclaimed error within [lo, hi] claims the unit; all of them are used up.
    pending_error* claim(std::vector<pending_error>& list, std::size_t& cursor, std::uint32_t lo, std::uint32_t hi,
                         pending_error* first) {
        while (cursor < list.size() && list[cursor].offset < lo) ++cursor;
        for (std::size_t k = cursor; k < list.size() && list[k].offset <= hi; ++k) {
            pending_error& e = list[k];
            if (e.consumed) continue;
            if (first == nullptr || e.recorded < first->recorded) first = &e;
            e.consumed = true;
        }
        return first;
    }

    void emit_unit(const unit& un, const sink& out) {
        const auto& toks = lexed_->tokens;
        const std::uint32_t lo = toks[un.first].begin;
        const std::uint32_t hi = toks[un.last].begin;
        pending_error* first = claim(lex_errs_, lex_cursor_, lo, hi, nullptr);
        first = claim(syn_errs_, syn_cursor_, lo, hi, first);
        if (first != nullptr) {
            // In the parse tier the turn-shape passes may still rewrite or drop parser errors.
            const bool final_now = !(tier_ == tier::parse && first->from == source::parser);
            add_item(make_diagnostic(*first), final_now, out);
            return;
        }
        if (!un.clean) return;
        build_statement(un, out);
    }

    void visitor_error(position p, std::string message, message_id id, const sink& out) {
        add_item(diagnostic{p, source::visitor, severity::error, std::move(message), id}, true, out);
    }

    void build_statement(const unit& un, const sink& out) {
        const auto& toks = lexed_->tokens;
        // Built in place at the back of the result (a statement is large: moving it costs more
        // than filling it); a visitor error replaces it.
        statement& st = std::get<statement>(result_.items.emplace_back(std::in_place_type<statement>));
        auto fail = [this, &out](std::string message, message_id id) {
            const position p = std::get<statement>(result_.items.back()).position;
            result_.items.pop_back();
            visitor_error(p, std::move(message), id, out);
        };
        const token& open = toks[un.first];
        st.op = open.op;
        st.suffix = std::string(in_.substr(open.begin + 6, open.end - open.begin - 6));
        st.position = at(open.begin);
        bool has_signal = false, has_target = false, has_body = false;
        // The target and body are views of their single token, or joined in scratch_ when split.
        std::string_view target_raw, body_view;
        bool target_joined = false, body_joined = false;
        auto join = [](std::string_view& view, bool& joined, std::string& buf, std::string_view piece) {
            if (view.empty() && !joined) {
                view = piece;
                return;
            }
            if (!joined) {
                buf.assign(view);
                joined = true;
            }
            buf.append(piece);
            view = buf;
        };
        std::vector<std::string_view>& signal_values = signal_scratch_;
        signal_values.clear();
        std::string_view scope_text;
        for (std::uint32_t i = un.first + 1; i <= un.last; ++i) {
            const token& t = toks[i];
            switch (t.kind) {
                case tok::lbrack: has_signal = true; break;
                case tok::tag:
                case tok::integer:
                case tok::disposition:
                case tok::ident: signal_values.push_back(text(t)); break;
                case tok::lparen: has_target = true; break;
                case tok::target_text: join(target_raw, target_joined, target_scratch_, text(t)); break;
                case tok::scope: scope_text = text(t); break;
                case tok::body_text:
                    has_body = true;
                    join(body_view, body_joined, body_scratch_, text(t));
                    break;
                default: break;
            }
        }
        // signal
        switch (st.op) {
            case op::SEND:
            case op::KILL:
                if (!signal_values.empty()) {
                    st.signal.kind = signal::kind_t::number;
                    st.signal.number = parse_int_signal(signal_values.front());
                }
                break;
            case op::EXEC:
            case op::WORK:
            case op::FORK:
                if (!signal_values.empty()) {
                    st.signal.kind = signal::kind_t::text;
                    st.signal.text = std::string(signal_values.front());
                }
                break;
            default:
                if (has_signal) {
                    st.signal.kind = signal::kind_t::tags;
                    for (auto v : signal_values) st.signal.tags.emplace_back(v);
                }
        }
        // target
        if (has_target) {
            path_result p = parse_path(target_raw);
            if (p.error) return fail(std::move(*p.error), message_id::invalid_target);
            st.target = std::move(p.path);
        }
        if (!scope_text.empty()) st.marker = scope_marks(scope_text);
        // body
        if (has_body && !body_view.empty()) {
            const std::string_view body = body_view;
            if (is_matcher_op(st.op)) {
                matcher_body m;
                std::optional<std::string> err;
                if (body.rfind("//", 0) == 0) {
                    m.dialect = dialect::xpath;
                    err = check_xpath_matcher(body);
                } else if (body[0] == '/') {
                    m.dialect = dialect::regex;
                    err = check_regex_matcher(body);
                    if (!err) {
                        const regex_split sp = split_regex(body);
                        m.pattern = std::string(sp.pattern);
                        m.flags = std::string(sp.flags);
                    }
                } else if (body[0] == '$') {
                    m.dialect = dialect::jsonpath;
                    err = check_jsonpath_matcher(body);
                } else if (body[0] == '~') {
                    m.dialect = dialect::semantic;
                } else if (body[0] == '@') {
                    m.dialect = dialect::graph;
                } else {
                    m.dialect = dialect::glob;
                }
                if (err) {
                    const message_id id = m.dialect == dialect::xpath   ? message_id::invalid_xpath_matcher
                                          : m.dialect == dialect::regex ? message_id::invalid_regex_matcher
                                                                        : message_id::invalid_jsonpath_matcher;
                    return fail(std::move(*err), id);
                }
                m.raw = std::string(body);
                st.body = std::move(m);
            } else if (st.op == op::SEND) {
                send_body b;
                if (may_start_json(body)) b.json = canonical_json(body);
                b.raw = std::string(body);
                st.body = std::move(b);
            } else if (st.op == op::COPY || st.op == op::MOVE) {
                selection_result sel = parse_resource_selection(body);
                if (sel.error) return fail(std::move(*sel.error), message_id::invalid_selection);
                if (sel.selection) st.body = std::move(*sel.selection);
            } else {
                st.body = std::string(body);
            }
        }
        settle_last(true, out);
        if (tier_ == tier::parse) {
            const auto& added = std::get<statement>(result_.items.back());
            std::optional<diagnostic> plan = plan_body_advisory(added);
            std::optional<diagnostic> misplaced = misplaced_target_advisory(added);
            if (plan) add_item(std::move(*plan), true, out);
            if (misplaced) add_item(std::move(*misplaced), true, out);
        }
    }

    // Errors no statement claimed, in recording order, after everything else (reported at finish).
    // Those from the unparsed tail's opener on are dropped with the tail. Lexer errors are kept in
    // recording order already; parser errors (kept in offset order) nearly always are too, so the
    // two lists are merged, and sorted first only when needed.
    void append_unclaimed() {
        const std::vector<const pending_error*> rest = unclaimed_in_order();
        carried_ = frozen_carried_.take(std::move(carried_));
        // (+1: the turn-shape pass may add one error)
        result_.items.reserve(result_.items.size() + carried_.size() + rest.size() + 1);
        for (diagnostic& d : carried_) {
            result_.items.emplace_back(std::move(d));
            fired_.push_back(0);
        }
        carried_.clear();
        for (const pending_error* e : rest) {
            result_.items.emplace_back(make_diagnostic(*e));
            fired_.push_back(0);
        }
    }

    std::vector<const pending_error*> unclaimed_in_order() const {
        const auto by_recording = [](const pending_error* a, const pending_error* b) {
            // Errors recorded at the same moment keep their list order (a list is contiguous, so
            // addresses order it); a lexer and a parser error are never recorded at the same
            // moment (even and odd counts). Not std::stable_sort: its temporary buffer is
            // deprecated and warns under clang.
            return a->recorded != b->recorded ? a->recorded < b->recorded : std::less<>()(a, b);
        };
        const auto unclaimed = [this](const std::vector<pending_error>& list) {
            // (before finish(), cut_ is past everything)
            std::vector<const pending_error*> rest;
            rest.reserve(list.size());
            for (const auto& e : list) {
                if (!e.consumed && e.offset < cut_) rest.push_back(&e);
            }
            return rest;
        };
        const std::vector<const pending_error*> lex = unclaimed(lex_errs_);
        std::vector<const pending_error*> syn = unclaimed(syn_errs_);
        if (!std::is_sorted(syn.begin(), syn.end(), by_recording)) std::sort(syn.begin(), syn.end(), by_recording);
        std::vector<const pending_error*> rest(lex.size() + syn.size());
        std::merge(lex.begin(), lex.end(), syn.begin(), syn.end(), rest.begin(), by_recording);
        return rest;
    }

public:
    // The position of an offset of the input last passed in (after finish() too).
    position position_of(std::size_t offset) { return at(offset); }

    // Whether every one of `tokens` tokens and every error has been taken (see release()).
    [[nodiscard]] bool can_release(std::size_t tokens) const noexcept {
        return next_token_ == tokens && lexed_ != nullptr && lex_seen_ == lexed_->errors.size() &&
               tree_ != nullptr && syn_seen_ == tree_->errors.size();
    }
    // The push parser drops the first `bytes` bytes of its input and the first `tokens` tokens,
    // whose lexer and parser errors are forgotten too: the errors no statement claimed become
    // diagnostics now (they are reported at finish(), before any later one: they were recorded
    // first), and later offsets and token indices count from the cut.
    void release(std::size_t bytes, std::size_t tokens) {
        for (const pending_error* e : unclaimed_in_order()) carried_.push_back(make_diagnostic(*e));
        lex_errs_.clear();
        syn_errs_.clear();
        lex_cursor_ = syn_cursor_ = 0;
        lex_seen_ = syn_seen_ = 0;
        next_token_ = 0;
        tok_base_ += tokens;
        pos_.release(bytes);
        lexed_ = nullptr;
        tree_ = nullptr;
        in_ = {};
    }

private:

    static position item_position(const item& it) {
        if (const auto* s = std::get_if<statement>(&it)) return s->position;
        if (const auto* d = std::get_if<diagnostic>(&it)) return d->position;
        return std::get<text_item>(it).position;
    }

    void apply_tail() {
        if (lexed_->final_mode == mode::normal) return;
        const position from = at(lexed_->last_open_begin);
        const std::string_view tag = in_.substr(lexed_->open_tag_begin, lexed_->open_tag_end - lexed_->open_tag_begin);
        const std::string line = std::to_string(from.line);
        message_id id = message_id::tail_statement_unclosed;
        switch (lexed_->final_mode) {
            case mode::body: id = message_id::tail_body_unclosed; break;
            case mode::signal_tags:
            case mode::signal_int:
            case mode::signal_ident: id = message_id::tail_signal_unclosed; break;
            case mode::target: id = message_id::tail_target_unclosed; break;
            default: break;
        }
        std::string reason = format_message(id, {{"tag", tag}, {"line", line}});
        // The invented-closer advisory rides the body reason (its id stays the body's).
        if (id == message_id::tail_body_unclosed) append_invented_closer(reason, tag);
        keep_items([&](const item& it) { return item_position(it) < from; });
        result_.tail = unparsed_tail{from, std::move(reason), id};
    }

    // §invented-closer-advisory: the first `:NAME` (upper case, 2+ chars, word boundary) in the
    // unclosed body that is not the op's own closer.
    void append_invented_closer(std::string& reason, std::string_view tag) const {
        std::string upper(tag);
        for (char& c : upper) {
            if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        }
        const std::string_view body = in_.substr(lexed_->body_begin);
        for (std::size_t i = 0; i < body.size(); ++i) {
            if (body[i] != ':') continue;
            std::size_t k = i + 1;
            if (k >= body.size() || !(body[k] >= 'A' && body[k] <= 'Z')) continue;
            ++k;
            while (k < body.size() && ((body[k] >= 'A' && body[k] <= 'Z') || (body[k] >= '0' && body[k] <= '9') || body[k] == '_')) ++k;
            if (k - i - 1 < 2) continue;
            if (k < body.size() && is_word_char(static_cast<unsigned char>(body[k]))) continue;
            const std::string_view name = body.substr(i + 1, k - i - 1);
            if (name != upper) append_message(reason, message_id::tail_invented_closer, {{"name", name}});
            return;
        }
    }

    // Keeps the items (and their reported flags) for which keep(item) holds.
    template <class Pred>
    void keep_items(Pred keep) {
        std::size_t w = 0;
        for (std::size_t r = 0; r < result_.items.size(); ++r) {
            if (!keep(result_.items[r])) continue;
            if (w != r) {
                result_.items[w] = std::move(result_.items[r]);
                fired_[w] = fired_[r];
            }
            ++w;
        }
        result_.items.resize(w);
        fired_.resize(w);
    }

    // --- advisories and turn shape of the parse tier (BEHAVIOUR §4.3) -----------------------------
    static const char* near_miss(std::string_view upper) {
        struct entry {
            const char* word;
            const char* suggestion;
        };
        static constexpr entry k_map[] = {
            {"CLOSE", "`<<FOLD`"},   {"HIDE", "`<<FOLD`"},    {"COLLAPSE", "`<<FOLD`"}, {"SHOW", "`<<OPEN`"},
            {"EXPAND", "`<<OPEN`"},  {"DELETE", "`<<KILL`"},  {"REMOVE", "`<<KILL`"},   {"DROP", "`<<KILL`"},
            {"GET", "`<<READ`"},     {"FETCH", "`<<READ`"},   {"CAT", "`<<READ`"},      {"WRITE", "`<<EDIT`"},
            {"CREATE", "`<<EDIT`"},  {"UPDATE", "`<<EDIT`"},  {"SET", "`<<EDIT`"},      {"LIST", "`<<FIND`"},
            {"SEARCH", "`<<FIND`"},  {"GREP", "`<<FIND`"},    {"QUERY", "`<<FIND`"},    {"RUN", "`<<EXEC`"},
            {"SHELL", "`<<EXEC`"},   {"SPAWN", "`<<WORK(worker://name)` to spawn a worker"},
            {"DELEGATE", "`<<WORK(worker://name)` to spawn a worker"},
        };
        for (const auto& e : k_map) {
            if (upper == e.word) return e.suggestion;
        }
        return nullptr;
    }

    // Linear in the text item: the words that follow a ':' are collected once, and positions
    // advance with one forward-moving map.
    std::vector<diagnostic> near_miss_advisories(const text_item& t) {
        std::vector<diagnostic> out;
        const std::string_view s = t.text;
        if (s.find("<<") == std::string_view::npos) return out;
        // `:Word` at a word boundary closes `<<Word`: the maximal word run after a ':' equals Word.
        std::unordered_set<std::string_view> closers;
        for (std::size_t f = s.find(':'); f != std::string_view::npos; f = s.find(':', f + 1)) {
            std::size_t e = f + 1;
            while (e < s.size() && is_word_char(static_cast<unsigned char>(s[e]))) ++e;
            if (e > f + 1) closers.insert(s.substr(f + 1, e - f - 1));
        }
        if (closers.empty()) return out;
        position_map pm(s);
        for (std::size_t i = s.find("<<"); i != std::string_view::npos && i + 2 < s.size(); i = s.find("<<", i + 1)) {
            std::size_t k = i + 2;
            while (k < s.size() && ((s[k] >= 'A' && s[k] <= 'Z') || (s[k] >= 'a' && s[k] <= 'z'))) ++k;
            if (k == i + 2) continue;
            const std::string_view word = s.substr(i + 2, k - i - 2);
            std::string upper(word);
            for (char& c : upper) {
                if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
            }
            const char* suggestion = near_miss(upper);
            if (suggestion == nullptr || closers.count(word) == 0) continue;
            // Position of byte i, across any newlines the item holds (a think block, say).
            const position in_text = pm.at(i);
            position p = t.position;
            if (in_text.line == 1) {
                p.column += in_text.column;
            } else {
                p.line += in_text.line - 1;
                p.column = in_text.column;
            }
            out.push_back(diagnostic{p, source::parser, severity::warning,
                                     format_message(message_id::near_miss_op, {{"word", word}, {"suggestion", suggestion}}),
                                     message_id::near_miss_op});
        }
        return out;
    }

    std::optional<diagnostic> plan_body_advisory(const statement& s) const {
        if (s.op != op::PLAN || !s.suffix.empty()) return std::nullopt;
        const auto* body = std::get_if<std::string>(&s.body);
        if (body == nullptr) return std::nullopt;
        const std::string_view b = *body;
        for (std::size_t i = b.find("<<"); i != std::string_view::npos; i = b.find("<<", i + 1)) {
            for (int o = 0; o < k_protocol_op_count; ++o) {
                const std::string_view name = op_name(static_cast<op>(o));
                if (b.substr(i + 2, name.size()) != name) continue;
                const std::size_t e = i + 2 + name.size();
                if (e < b.size() && is_word_char(static_cast<unsigned char>(b[e]))) continue;
                return diagnostic{s.position, source::parser, severity::warning,
                                  format_message(message_id::plan_body_op_text, {{"op", name}}),
                                  message_id::plan_body_op_text};
            }
        }
        return std::nullopt;
    }

    static bool path_shaped(std::string_view tag) {
        if (tag.find('/') != std::string_view::npos) return true;
        // ends with .<letter><alnum>* and the char before the dot is not '/'
        std::size_t k = tag.size();
        while (k > 0 && ((tag[k - 1] >= 'A' && tag[k - 1] <= 'Z') || (tag[k - 1] >= 'a' && tag[k - 1] <= 'z') ||
                         (tag[k - 1] >= '0' && tag[k - 1] <= '9'))) {
            --k;
        }
        if (k == tag.size() || k == 0 || tag[k - 1] != '.') return false;
        const char first = tag[k];
        if (!((first >= 'A' && first <= 'Z') || (first >= 'a' && first <= 'z'))) return false;
        return !(k >= 2 && tag[k - 2] == '/');
    }

    std::optional<diagnostic> misplaced_target_advisory(const statement& s) const {
        if (s.op != op::EDIT && s.op != op::COPY && s.op != op::MOVE) return std::nullopt;
        if (s.target || s.signal.kind != signal::kind_t::tags) return std::nullopt;
        for (const auto& tag : s.signal.tags) {
            if (!path_shaped(tag)) continue;
            const std::string name = std::string(op_name(s.op)) + s.suffix;
            return diagnostic{s.position, source::parser, severity::warning,
                              format_message(message_id::misplaced_target, {{"name", name}, {"tag", tag}}),
                              message_id::misplaced_target};
        }
        return std::nullopt;
    }

    static bool is_disposition(const statement& s) {
        if (s.op != op::SEND || s.signal.kind != signal::kind_t::number) return false;
        const double n = s.signal.number;
        return n == 102 || n == 200 || n == 202 || n == 300 || n == 499;
    }

    void turn_shape() {
        auto& items = result_.items;
        bool has_plan = false, has_terminal = false, hard_non_parser = false;
        for (const auto& it : items) {
            if (const auto* s = std::get_if<statement>(&it)) {
                has_plan = has_plan || s->op == op::PLAN;
                has_terminal = has_terminal || is_disposition(*s);
            } else if (const auto* d = std::get_if<diagnostic>(&it)) {
                if (d->severity == severity::error && d->source != source::parser) hard_non_parser = true;
            }
        }
        if (!has_plan || !has_terminal) {
            std::optional<position> first_removed;
            keep_items([&](const item& it) {
                const auto* d = std::get_if<diagnostic>(&it);
                if (d == nullptr || d->severity != severity::error || d->source != source::parser) return true;
                if (!first_removed) first_removed = d->position;
                return false;
            });
            if (first_removed && !hard_non_parser) {
                const message_id id = !has_plan ? message_id::turn_missing_plan : message_id::turn_missing_terminal_send;
                result_.items.emplace_back(
                    diagnostic{*first_removed, source::parser, severity::error, format_message(id, {}), id});
                fired_.push_back(0);
            }
            return;
        }
        if (hard_non_parser) return;
        // Mid-termination: parser hard errors after the first disposition SEND.
        std::optional<position> terminal;
        for (const auto& it : items) {
            if (const auto* s = std::get_if<statement>(&it); s && is_disposition(*s)) {
                terminal = s->position;
                break;
            }
        }
        for (auto& it : items) {
            if (auto* d = std::get_if<diagnostic>(&it)) {
                if (d->severity == severity::error && d->source == source::parser && *terminal < d->position) {
                    d->id = message_id::turn_ended_by_send;
                    d->message = format_message(d->id, {});
                }
            }
        }
    }

    tier tier_;
    std::string_view in_;
    const lex_output* lexed_ = nullptr;
    const syntax_tree* tree_ = nullptr;
    position_map pos_{std::string_view{}};
    std::size_t next_token_ = 0;
    std::size_t lex_seen_ = 0, syn_seen_ = 0;
    bool has_prev_ = false;
    position prev_pos_{};
    lex_context prev_context_ = lex_context::between_statements;
    std::vector<pending_error> lex_errs_;  // offset order = recording order
    std::vector<pending_error> syn_errs_;  // offset order
    std::size_t lex_cursor_ = 0, syn_cursor_ = 0;
    std::uint32_t cut_ = UINT32_MAX;  // the unparsed tail's opener, once finish() knows it
    bool finishing_ = false;          // in finish()
    std::uint64_t tok_base_ = 0;        // tokens released before the current ones (release())
    std::vector<diagnostic> carried_;   // unclaimed errors of released input, in recording order
    frozen_log<diagnostic> frozen_carried_;  // ... the first of them (before carried_)
    parse_result result_;   // items: those after frozen_items_
    std::vector<char> fired_;  // per item of result_.items: already reported to the sink
    frozen_log<item> frozen_items_;  // the first items (streaming), shared by copies
    frozen_log<char> frozen_fired_;  // their fired_ flags
    bool index_known_ = true;
    // Reused by build_statement so a statement costs no allocations beyond the AST's own.
    std::vector<std::string_view> signal_scratch_;
    std::string target_scratch_, body_scratch_;
};

}  // namespace plurnk::detail
