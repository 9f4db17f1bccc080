// SPDX-License-Identifier: MIT
// A clean statement unit's tokens -> its statement (see result_builder.hpp): the op and suffix from
// the opener, then the signal, the target (parse_path), the scope marks and the body (a matcher
// checked by its dialect's validator, a SEND body with its JSON form, a COPY/MOVE selection, or
// text). A validator's rejection replaces the statement by a visitor error.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>

#include "base/ascii.hpp"
#include "builder/body_fast.hpp"
#include "builder/result_builder.hpp"
#include "grammar/hash_regex.hpp"
#include "grammar/op_table.hpp"
#include "grammar/scope_literal.hpp"
#include "plurnk/json.hpp"
#include "plurnk/path.hpp"
#include "plurnk/validate.hpp"
#include "url/fast_path.hpp"
#include "url/path_fields.hpp"

namespace plurnk::detail {

namespace {

// The value of the decimal digits [b, e) (nothing else), as std::from_chars would read it: up to
// 15 digits are summed exactly in an integer, longer runs go to from_chars for correct rounding.
double decimal_value(const char* b, const char* e) noexcept {
    if (e - b <= 15) {
        std::uint64_t v = 0;
        for (const char* p = b; p != e; ++p) v = v * 10 + static_cast<std::uint64_t>(*p - '0');
        return static_cast<double>(v);
    }
    double v = 0;
    std::from_chars(b, e, v);
    return v;
}

// A scope literal's NUM (`-`? digits (`.` digits)?) as std::from_chars reads it.
double mark_value(std::string_view t) {
    const bool neg = t[0] == '-';
    const char* num_begin = t.data() + (neg ? 1 : 0);
    const char* num_end = t.data() + t.size();
    double v = 0;
    if (std::find(num_begin, num_end, '.') == num_end) {
        v = decimal_value(num_begin, num_end);
    } else {
        std::from_chars(num_begin, num_end, v);
    }
    return neg ? -v : v;
}

// The numbers of a scope token (`<1,2>`, `<1-5>`, `<0--5>`, `<1, -1>`: a scope literal, which the
// lexer read with scan_scope()) as marks into `m`, which has room for `cap`: one more than the
// literal's `,` and `-`, which is enough (each number after the first follows one); returns how
// many.
std::size_t scope_marks(std::string_view s, double* m, std::size_t cap) {
    std::size_t n = 0;
    (void)scan_scope(s, 1, scope_phase::number, [&](std::size_t b, std::size_t e) {
        if (n < cap) m[n++] = mark_value(s.substr(b, e - b));
    });
    return n;
}

double parse_int_signal(std::string_view s) {
    const bool neg = !s.empty() && s[0] == '-';
    const double v = decimal_value(s.data() + (neg ? 1 : 0), s.data() + s.size());
    return neg ? -v : v;
}

// Whether JSON.parse could accept `s`: after JSON whitespace, a value must start with one of these
// bytes. Anything else is rejected without running the JSON reader.
bool may_start_json(std::string_view s) noexcept {
    for (const char c : s) {
        switch (c) {
            case ' ': case '\t': case '\n': case '\r': continue;
            case '{': case '[': case '"': case '-': case 't': case 'f': case 'n': return true;
            default: return ascii::is_digit(static_cast<unsigned char>(c));
        }
    }
    return false;
}

}  // namespace

namespace {

// The text of tokens [b, e) when they do not lie back to back: the pieces joined in `buf` (or a
// view of the input after all).
std::string_view joined_slow(std::string_view in, const token_vector& toks, std::uint32_t b, std::uint32_t e,
                             std::string& buf) {
    bool contiguous = true;
    for (std::uint32_t i = b + 1; i < e && contiguous; ++i) contiguous = toks[i - 1].end == toks[i].begin;
    if (contiguous) return in.substr(toks[b].begin, toks[e - 1].end - toks[b].begin);
    buf.clear();
    for (std::uint32_t i = b; i < e; ++i) buf.append(in.substr(toks[i].begin, toks[i].end - toks[i].begin));
    return buf;
}

// The text of tokens [b, e): a view of the input when they lie back to back (as a clean unit's
// body and target tokens do), else the pieces joined in `buf`. Inline for the usual one token.
inline std::string_view joined_text(std::string_view in, const token_vector& toks, std::uint32_t b,
                                    std::uint32_t e, std::string& buf) {
    if (e <= b) return {};
    if (e == b + 1) return in.substr(toks[b].begin, toks[b].end - toks[b].begin);
    return joined_slow(in, toks, b, e, buf);
}

}  // namespace

void result_builder::build_statement(const unit& un, const sink& out) {
    const auto& toks = lexed_->tokens;
    // The statement is built in a member reset field by field, not in a fresh 600-byte value.
    statement& st = std::get<statement>(building_);
    st.signal = signal{};
    st.target.reset();
    st.marker.reset();
    st.body = std::monostate{};
    has_fast_target_ = false;
    stable_marks_ = nullptr;
    const token& open = toks[un.first];
    st.op = open.op;
    st.suffix = in_.substr(open.begin + 6, open.end - open.begin - 6);
    st.position = at(open.begin);
    st.span = unit_span(un);
    if (un.signal != 0) build_signal(st, un);
    std::optional<visitor_failure> failure;
    if (un.target != 0) failure = build_target(st, un);
    if (!failure && un.scope != 0) {
        // Room for one more number than there are separators or signs. A few go into the
        // statement's packed extras (from marks_scratch_); more straight into the arena (a scope
        // can hold a number per two input bytes), where the record refers to them.
        const std::string_view scope = text(toks[un.scope]);
        const auto most = 1 + static_cast<std::size_t>(
                                  std::count_if(scope.begin(), scope.end(), [](char c) { return c == ',' || c == '-'; }));
        double* marks = most <= marks_scratch_.size() ? marks_scratch_.data() : strings_.make_array<double>(most);
        const std::size_t n = scope_marks(scope, marks, most);
        st.marker = line_marker{std::span<const double>(marks, n)};
        if (marks != marks_scratch_.data()) stable_marks_ = marks;
    }
    if (!failure && un.body != 0) failure = build_body(st, un);
    if (failure) {
        add_diagnostic(new_diagnostic{st.position, source::visitor, severity::error, std::move(failure->message),
                                      failure->id, st.span},
                       true, out);
        return;
    }
    add_statement(st, out);
    if (tier_ == tier::parse) {
        std::optional<new_diagnostic> plan = plan_body_advisory(st);
        std::optional<new_diagnostic> misplaced = misplaced_target_advisory(st);
        if (plan) add_diagnostic(*plan, true, out);
        if (misplaced) add_diagnostic(*misplaced, true, out);
    }
}

// signal : `[` (TAG | `,`)* `]` (tag ops), `[` INT? `]` (SEND, KILL), `[` IDENT? `]` (EXEC),
// `[` TAG `]` (WORK, FORK branch)
void result_builder::build_signal(statement& st, const unit& un) {
    const auto& toks = lexed_->tokens;
    const std::uint32_t b = un.signal + 1, e = un.signal_end - 1;  // inside the brackets
    switch (traits(st.op).signal) {
        case signal_shape::integer:
        case signal_shape::kill_integer:
        case signal_shape::disposition:
            if (b < e) {
                st.signal.kind = signal::kind_t::number;
                st.signal.number = parse_int_signal(text(toks[b]));
            }
            break;
        case signal_shape::ident:
        case signal_shape::branch:
            if (b < e) {
                st.signal.kind = signal::kind_t::text;
                st.signal.text = text(toks[b]);
            }
            break;
        case signal_shape::tags:
            st.signal.kind = signal::kind_t::tags;
            tags_scratch_.clear();
            if (tags_scratch_.capacity() == 0) tags_scratch_.reserve(8);
            for (std::uint32_t i = b; i < e; ++i) {
                if (toks[i].kind == tok::tag) tags_scratch_.push_back(text(toks[i]));
            }
            st.signal.tags = std::span<const std::string_view>(tags_scratch_);
    }
}

// target : `(` TARGET_TEXT* `)`, decoded and classified by parse_path (local path or URL).
std::optional<result_builder::visitor_failure> result_builder::build_target(statement& st, const unit& un) {
    const std::string_view raw =
        joined_text(in_, lexed_->tokens, un.target + 1, un.target_end - 1, target_scratch_);
    // Text without escapes that the fast path reads: every field is a slice of the input,
    // encoded straight from the components when the statement is stored (add_statement). (In
    // the service dialect a text that starts with `#` may be a regex path: parse_path_fields.)
    const bool regex_candidate = dialect_ == parse_dialect::service && !raw.empty() && raw[0] == '#';
    if (!raw.empty() && !regex_candidate && raw.find('\\') == std::string_view::npos &&
        url_detail::parse_target_fast(raw, target_parts_)) {
        fast_target_text_ = raw;
        has_fast_target_ = true;
        return std::nullopt;
    }
    result<std::optional<path_fields>> p = parse_path_fields(raw, dialect_);
    if (!p) return visitor_failure{std::move(p).problem().message, message_id::invalid_target};
    if (!p.value()) return std::nullopt;
    path_ = std::move(*p.value());
    path_.rebind();
    st.target = path_.view();
    // Text the decoding left as it was is the input's own (no copy into the result).
    if (st.target->raw == raw) st.target->raw = raw;
    return std::nullopt;
}

// body : BODY*, by the op's body kind: a matcher (dialect by its leading characters, checked by
// the dialect's validator), a SEND body with its JSON form, a COPY/MOVE selection, or text.
std::optional<result_builder::visitor_failure> result_builder::build_body(statement& st, const unit& un) {
    const std::string_view body = joined_text(in_, lexed_->tokens, un.body, un.body_end, body_scratch_);
    if (body.empty()) return std::nullopt;
    const body_kind kind = traits(st.op).body;
    if (kind == body_kind::matcher) {
        matcher_body m;
        result<void> err;
        message_id id = message_id::external;
        // The service dialect (SERVICE.md S4-S6): `#` leads a regex `#pattern#flags`, whose
        // failure is an error (never a glob), and a lone `/` leads a glob.
        const bool service = dialect_ == parse_dialect::service;
        if (body.rfind("//", 0) == 0) {
            m.dialect = dialect::xpath;
            if (!xpath_matcher_fast(body)) err = check_xpath_matcher(body);
            id = message_id::invalid_xpath_matcher;
        } else if (service && body[0] == '#') {
            m.dialect = dialect::regex;
            id = message_id::invalid_regex_matcher;
            err = check_hash_regex_matcher(body);
            const hash_split sp = split_hash_regex(body);
            m.pattern = sp.pattern;
            m.flags = sp.flags;
        } else if (service && body[0] == '/') {
            m.dialect = dialect::glob;
        } else if (body[0] == '/') {
            m.dialect = dialect::regex;
            id = message_id::invalid_regex_matcher;
            if (!regex_matcher_fast(body, m.pattern, m.flags)) {
                err = check_regex_matcher(body);
                if (err) {
                    const regex_split sp = split_regex(body);
                    m.pattern = sp.pattern;
                    m.flags = sp.flags;
                }
            }
        } else if (body[0] == '$') {
            m.dialect = dialect::jsonpath;
            if (!jsonpath_matcher_fast(body)) err = check_jsonpath_matcher(body);
            id = message_id::invalid_jsonpath_matcher;
        } else if (body[0] == '~') {
            m.dialect = dialect::semantic;
        } else if (body[0] == '@') {
            m.dialect = dialect::graph;
        } else {
            m.dialect = dialect::glob;
        }
        if (!err) return visitor_failure{std::move(err).problem().message, id};
        m.raw = body;
        st.body = m;
    } else if (kind == body_kind::send) {
        send_body b;
        if (may_start_json(body)) {
            json_ = canonical_json(body);
            if (json_) b.json = *json_;
        }
        b.raw = body;
        st.body = b;
    } else if (kind == body_kind::selection) {
        resource_selection fast;
        const bool regex_candidate = dialect_ == parse_dialect::service && body[0] == '#';
        if (!regex_candidate && selection_fast(body, dest_marks_, fast)) {
            st.body = fast;
            return std::nullopt;
        }
        result<std::optional<selection_fields>> sel = parse_selection_fields(body, dialect_);
        if (!sel) return visitor_failure{std::move(sel).problem().message, message_id::invalid_selection};
        if (sel.value()) {
            selection_ = std::move(*sel.value());
            selection_.target.rebind();
            resource_selection r;
            r.target = selection_.target.view();
            if (selection_.marks) r.marker = line_marker{*selection_.marks};
            st.body = r;
        }
    } else {
        st.body = body;
    }
    return std::nullopt;
}

}  // namespace plurnk::detail
