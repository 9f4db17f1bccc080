// SPDX-License-Identifier: MIT
// A well-formed statement's parts -> checked views -> records (private header). parts_of() is the
// only place that maps a clean unit's slot token indices to bytes (statement_parts); check() runs
// the validators over the parts and holds what they admit as views of the input or of this
// class's scratch (nothing goes into the arena but a long scope's marks), so that a visitor
// failure leaves nothing behind; write() hands the views to the record writer, field by field;
// view() makes the public `statement` only when an event needs one.
#pragma once

#include <array>
#include <cassert>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/pod_vector.hpp"
#include "builder/body_fast.hpp"
#include "builder/fast_target.hpp"
#include "grammar/messages.hpp"
#include "grammar/op_table.hpp"
#include "grammar/scope_literal.hpp"
#include "grammar/statement_parts.hpp"
#include "grammar/token.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/result.hpp"
#include "store/record_writer.hpp"
#include "store/result_store.hpp"
#include "syntax/spans.hpp"
#include "url/fast_path.hpp"
#include "url/path_fields.hpp"

namespace plurnk::detail {

// Why a well-formed statement is not admitted (source: visitor).
struct visitor_failure {
    std::string message;
    message_id id{};
    friend bool operator==(const visitor_failure&, const visitor_failure&) = default;
};

class statement_builder {
public:
    explicit statement_builder(parse_dialect d) noexcept : dialect_(d) {}

    // The parts of clean unit `un`, held here until the next call (with its tags' references).
    const statement_parts& parts_of(const unit& un, const token_vector& toks);

    // Checks the parts parts_of() made, of input `in`, with the validators; on success the views
    // below hold the statement (until the next check). A long scope's marks go into `strings`.
    // False: a validator rejected the statement, and failure() says why (until the next check).
    [[nodiscard]] bool check(std::string_view in, arena& strings);
    [[nodiscard]] const visitor_failure& failure() const noexcept { return failure_; }

    // The checked statement's fields after begin(), to `w` (`sink` is the writer's). Always
    // inlined into its one caller (result_builder::add_statement): a call per statement saved.
    [[gnu::always_inline]] void write(record_writer& w, string_sink& sink) const;

    // The checked statement as a public value, for an event: in a statement reused from event to
    // event (reset field by field, not a fresh 656-byte value), each field copied for what it
    // holds (a body's alternative, not the whole variant; a fast target projected in place).
    void view(statement& st, position at, byte_span span) const;

    // Back to as constructed (for the same dialect), the scratch's room kept (statement_builder.cpp).
    void reset() noexcept;
    // Every field the same (the tests' check of reset()).
    friend bool operator==(const statement_builder&, const statement_builder&) = default;

    // What the passes read of the checked statement.
    [[nodiscard]] plurnk::op op() const noexcept { return parts_.op; }
    [[nodiscard]] std::string_view suffix() const noexcept { return suffix_; }
    [[nodiscard]] bool has_target() const noexcept { return target_ != target_t::none; }
    [[nodiscard]] const plurnk::signal& signal() const noexcept { return signal_; }
    [[nodiscard]] const plurnk::body& body() const noexcept { return body_; }

private:
    enum class target_t : std::uint8_t { none, fast, decoded };
    // The scope's marks: a view, equal to another that points at the same numbers (std::span has
    // no equality).
    struct marks_view : std::span<const double> {
        using std::span<const double>::span;
        friend bool operator==(const marks_view& a, const marks_view& b) noexcept {
            return a.data() == b.data() && a.size() == b.size();
        }
    };
    void check_signal(std::string_view in);
    // Each check's verdict: true, or false after fail() (a rejection is rare: its message is
    // made only then, not carried by every statement's return).
    bool check_target(std::string_view raw);
    bool decode_target(std::string_view raw);
    void check_scope(std::string_view scope, arena& strings);
    [[gnu::noinline]] void check_scope_far(std::string_view scope, arena& strings);
    bool check_body(std::string_view body);
    bool check_matcher(std::string_view body);
    void check_send(std::string_view body);
    bool check_selection(std::string_view body);
    bool fail(std::string message, message_id id);
    // A validator's verdict: true, or false after fail() with its message as `id`.
    bool verdict(result<void> r, message_id id);

    parse_dialect dialect_;
    statement_parts parts_;
    std::string_view suffix_;
    pod_vector<tag_list::ref> tag_refs_;  // the tags, from parts_.tags.begin
    std::string_view tag_block_;
    plurnk::signal signal_;               // its tags view tag_block_ and tag_refs_
    target_t target_ = target_t::none;
    std::string_view fast_text_;          // fast: the text the targets' fast path read ...
    url_detail::url_parts target_parts_;  // ... as these components
    path_fields path_;                    // decoded: the target's fields ...
    parsed_path decoded_;                 // ... as views
    bool has_marks_ = false;
    bool marks_stable_ = false;            // the marks are in the arena (a long scope)
    marks_view marks_;
    std::array<double, k_inline_array> marks_scratch_{};  // a short scope's marks
    plurnk::body body_;
    selection_fields selection_;       // the COPY/MOVE destination being built
    bool fast_dest_ = false;           // selection_fast() read the selection body_ holds (its target
    fast_selection dest_;              // left empty) as this destination ...
    std::vector<double> dest_marks_;   // ... and its scope's marks
    std::optional<std::string> json_;  // the SEND body's JSON
    visitor_failure failure_;          // why the last check() failed
};

// The seam's calls are defined here, so that the result builder's compiler inlines them into its
// build_statement() and add_statement() (they run once per statement); the checks they dispatch
// to, and what runs only for some statements, stay in statement_builder.cpp.

// The parts of a clean unit, from its tokens: the slots the parser noted, as byte spans. In a
// clean unit the tokens of a target and of a body lie back to back (a gap is a lexer error,
// which claims the unit), so each slot is one span.
inline const statement_parts& statement_builder::parts_of(const unit& un, const token_vector& toks) {
    // (Not zeroed first: a slot's spans are written when it is present, and read only then.)
    statement_parts& p = parts_;
    const token& open = toks[un.first];
    p.op = open.op;
    p.present = 0;
    p.whole = span32{open.begin, toks[un.last].end};
    p.suffix = span32{open.begin + 6, open.end};
    if (un.signal != 0) {
        p.present |= statement_parts::has_signal;
        p.value = span32{};
        p.tags = span32{};
        const std::uint32_t b = un.signal + 1, e = un.signal_end - 1;  // inside the brackets
        if (traits(p.op).signal == signal_shape::tags) {
            tag_refs_.clear();
            for (std::uint32_t i = b; i < e; ++i) {
                if (toks[i].kind != tok::tag) continue;
                if (tag_refs_.empty()) p.tags.begin = toks[i].begin;
                tag_refs_.push_back(tag_list::ref{toks[i].begin - p.tags.begin, toks[i].end - toks[i].begin});
                p.tags.end = toks[i].end;
            }
        } else if (b < e) {
            p.value = span32{toks[b].begin, toks[b].end};
        }
    }
    if (un.target != 0) {
        p.present |= statement_parts::has_target;
        const std::uint32_t b = un.target + 1, e = un.target_end - 1;
        p.target = b < e ? span32{toks[b].begin, toks[e - 1].end} : span32{toks[b].begin, toks[b].begin};
    }
    if (un.scope != 0) {
        p.present |= statement_parts::has_scope;
        p.scope = span32{toks[un.scope].begin, toks[un.scope].end};
    }
    if (un.body != 0 && un.body < un.body_end) {
        p.present |= statement_parts::has_body;
        p.body = span32{toks[un.body].begin, toks[un.body_end - 1].end};
    }
    return p;
}

// A target of text without escapes that the fast path reads: every field is a slice of the input,
// written straight from the components (write_fast_target). Any other is decoded (decode_target;
// in the service dialect a text that starts with `#` may be a regex path: parse_path_fields).
inline bool statement_builder::check_target(std::string_view raw) {
    const bool regex_candidate = dialect_ == parse_dialect::service && !raw.empty() && raw[0] == '#';
    if (!regex_candidate && url_detail::parse_raw_target_fast(raw, target_parts_)) {
        fast_text_ = raw;
        target_ = target_t::fast;
        return true;
    }
    return decode_target(raw);
}

// scope : `<` NUM ((`,` | `-`) NUM)* `>`. A few numbers go into the statement's packed extras
// (from marks_scratch_); more straight into the arena (a scope can hold a number per two input
// bytes), where the record refers to them. n numbers take at least 2n + 1 bytes with the
// brackets: a short scope fits the scratch without counting its separators. A short scope of
// numbers summed_exactly() is read here, without a call; any other by check_scope_far().
inline void statement_builder::check_scope(std::string_view scope, arena& strings) {
    if ((scope.size() - 1) / 2 <= marks_scratch_.size()) {
        double* const marks = marks_scratch_.data();
        std::size_t n = 0;
        bool summed = true;
        (void)scan_scope<true>(scope, 1, scope_phase::number, [&](const scope_number& num) {
            assert(n < marks_scratch_.size());
            summed = summed && summed_exactly(num);
            marks[n++] = summed_value(num);
        });
        if (summed) {
            marks_ = marks_view(marks, n);
            marks_stable_ = false;
            has_marks_ = true;
            return;
        }
    }
    check_scope_far(scope, strings);
}

// body : BODY*, by the op's body kind: a matcher (dialect by its leading characters, checked by
// the dialect's validator), a SEND body with its JSON form, a COPY/MOVE selection, or text.
inline bool statement_builder::check_body(std::string_view body) {
    if (body.empty()) return true;
    const body_kind kind = traits(parts_.op).body;
    if (kind == body_kind::matcher) return check_matcher(body);
    if (kind == body_kind::send) {
        check_send(body);
    } else if (kind == body_kind::selection) {
        return check_selection(body);
    } else {
        body_ = body;
    }
    return true;
}

inline bool statement_builder::check(std::string_view in, arena& strings) {
    const statement_parts& parts = parts_;
    suffix_ = parts.suffix.of(in);
    // (A signal of kind none holds nothing else: check_signal() writes a field only with its kind.)
    if (signal_.kind != signal::kind_t::none) signal_ = plurnk::signal{};
    target_ = target_t::none;
    has_marks_ = false;
    body_ = std::monostate{};
    if (parts.has(statement_parts::has_signal)) check_signal(in);
    if (parts.has(statement_parts::has_target) && !check_target(parts.target.of(in))) return false;
    if (parts.has(statement_parts::has_scope)) check_scope(parts.scope.of(in), strings);
    return !parts.has(statement_parts::has_body) || check_body(parts.body.of(in));
}

// In the order the records were always written: target, signal, scope, body.
inline void statement_builder::write(record_writer& w, string_sink& sink) const {
    w.signal(signal_.kind);
    if (target_ == target_t::fast) write_fast_target(w, sink, fast_text_, target_parts_);
    if (target_ == target_t::decoded) w.target(decoded_);
    // (A statement without a signal has no tags, text or number: check() reset them.)
    if (signal_.kind != signal::kind_t::none) {
        if (signal_.kind == signal::kind_t::tags) {
            w.tags(tag_block_, std::span<const tag_list::ref>(tag_refs_.data(), tag_refs_.size()));
        }
        w.signal_text(signal_.text);
        w.number(signal_.number);
    }
    if (has_marks_) w.marks(marks_, marks_stable_);
    switch (body_.index()) {
        case 0: break;
        case 1: w.body_text(*std::get_if<std::string_view>(&body_)); break;
        case 2: {
            const auto& m = *std::get_if<matcher_body>(&body_);
            w.body_matcher(m.dialect, m.raw, m.pattern, m.flags);
            break;
        }
        case 3: {
            const auto& b = *std::get_if<send_body>(&body_);
            w.body_send(b.raw, b.json);
            break;
        }
        default: {
            if (fast_dest_) {  // packed from the destination's parts
                write_fast_selection(w, sink, dest_.text, dest_.parts, dest_.marked, dest_marks_);
                break;
            }
            const auto& sel = *std::get_if<resource_selection>(&body_);
            w.body_selection(sel.target, sel.marker);
        }
    }
}

}  // namespace plurnk::detail
