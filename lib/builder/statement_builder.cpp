// SPDX-License-Identifier: MIT
// A clean statement unit -> its parts -> checked views -> records (see statement_builder.hpp,
// which holds the seam's parts_of(), check() and write(), inline for the result builder): the op
// and suffix from the opener, then the signal, the target (parse_path), the scope marks and the
// body (a matcher checked by its dialect's validator, a SEND body with its JSON form, a COPY/MOVE
// selection, or text). A validator's rejection is a visitor failure.
#include "builder/statement_builder.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>

#include "base/ascii.hpp"
#include "builder/body_fast.hpp"
#include "grammar/hash_regex.hpp"
#include "grammar/op_table.hpp"
#include "grammar/scope_literal.hpp"
#include "plurnk/json.hpp"
#include "plurnk/path.hpp"
#include "plurnk/validate.hpp"

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

// A scope literal's NUM as std::from_chars reads it: summed_value(), or from_chars.
double mark_value(std::string_view s, const scope_number& num) {
    if (summed_exactly(num)) return summed_value(num);
    const std::size_t begin = num.b + (num.negative ? 1 : 0);
    double v = static_cast<double>(num.integer);  // what from_chars leaves of a number out of its range
    std::from_chars(s.data() + begin, s.data() + num.e, v);
    return num.negative ? -v : v;
}

// The numbers of a scope token (`<1,2>`, `<1-5>`, `<0--5>`, `<1, -1>`: a scope literal, which the
// lexer read with scan_scope()) as marks into `m`, which has room for `cap`: one more than the
// literal's `,` and `-`, which is enough (each number after the first follows one); returns how
// many. One pass: the scan sums each number's digits as it reads them, and checks no bound (the
// literal ends with its '>').
std::size_t scope_marks(std::string_view s, double* m, std::size_t cap) {
    std::size_t n = 0;
    (void)scan_scope<true>(s, 1, scope_phase::number, [&](const scope_number& num) {
        if (n < cap) m[n++] = mark_value(s, num);
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

// `to` made equal to `from` by copying only the alternative `from` holds (the variant's own
// assignment copies all of its 272 bytes, for a selection's sake).
void copy_body(plurnk::body& to, const plurnk::body& from) {
    switch (from.index()) {
        case 0: to.emplace<0>(); break;
        case 1: to.emplace<1>(*std::get_if<1>(&from)); break;
        case 2: to.emplace<2>(*std::get_if<2>(&from)); break;
        case 3: to.emplace<3>(*std::get_if<3>(&from)); break;
        default: to.emplace<4>(*std::get_if<4>(&from));
    }
}

// The target the targets' fast path read, projected where it is wanted: a parsed_path made in
// place from the conversion's result, not made aside and copied (240 bytes).
struct fast_projection {
    std::string_view text;
    const url_detail::url_parts& parts;
    // NOLINTNEXTLINE(google-explicit-constructor): the conversion is what emplace() calls
    operator parsed_path() const { return url_detail::project_fast(text, parts); }
};

}  // namespace

// signal : `[` (TAG | `,`)* `]` (tag ops), `[` INT? `]` (SEND, KILL), `[` IDENT? `]` (EXEC),
// `[` TAG `]` (WORK, FORK branch)
void statement_builder::check_signal(std::string_view in) {
    const std::string_view value = parts_.value.of(in);
    switch (traits(parts_.op).signal) {
        case signal_shape::integer:
        case signal_shape::kill_integer:
        case signal_shape::disposition:
            if (!value.empty()) {
                signal_.kind = signal::kind_t::number;
                signal_.number = parse_int_signal(value);
            }
            break;
        case signal_shape::ident:
        case signal_shape::branch:
            if (!value.empty()) {
                signal_.kind = signal::kind_t::text;
                signal_.text = value;
            }
            break;
        case signal_shape::tags:
            signal_.kind = signal::kind_t::tags;
            tag_block_ = parts_.tags.of(in);
            signal_.tags = tag_list(tag_block_.data(), tag_refs_.data(), tag_refs_.size());
    }
}

// target : `(` TARGET_TEXT* `)`, decoded and classified by parse_path (local path or URL), when
// the targets' fast path (check_target) did not read it.
bool statement_builder::decode_target(std::string_view raw) {
    result<std::optional<path_fields>> p = parse_path_fields(raw, dialect_);
    if (!p) return fail(std::move(p).problem().message, message_id::invalid_target);
    if (!p.value()) return true;
    path_ = std::move(*p.value());
    path_.rebind();
    decoded_ = path_.view();
    // Text the decoding left as it was is the input's own (no copy into the result).
    if (decoded_.raw == raw) decoded_.raw = raw;
    target_ = target_t::decoded;
    return true;
}

// check_scope() for a long scope, or one with a number summed_exactly() does not take: room for as many numbers as
// the scope's length allows, or for one more than there are separators or signs.
void statement_builder::check_scope_far(std::string_view scope, arena& strings) {
    const std::size_t most =
        (scope.size() - 1) / 2 <= marks_scratch_.size()
            ? marks_scratch_.size()
            : 1 + static_cast<std::size_t>(std::count_if(scope.begin(), scope.end(), [](char c) { return c == ',' || c == '-'; }));
    double* marks = most <= marks_scratch_.size() ? marks_scratch_.data() : strings.make_array<double>(most);
    marks_ = marks_view(marks, scope_marks(scope, marks, most));
    marks_stable_ = marks != marks_scratch_.data();
    has_marks_ = true;
}

// A matcher body: its dialect by its leading characters, checked by the dialect's validator.
// Made where it is kept (a rejected statement's body is never read); a validator's verdict is
// made only when the dialect's quick reading (body_fast.hpp) declines.
bool statement_builder::check_matcher(std::string_view body) {
    matcher_body& m = body_.emplace<matcher_body>();
    m.raw = body;
    // The service dialect (SERVICE.md S4-S6): `#` leads a regex `#pattern#flags`, whose
    // failure is an error (never a glob), and a lone `/` leads a glob.
    const bool service = dialect_ == parse_dialect::service;
    if (body.rfind("//", 0) == 0) {
        m.dialect = dialect::xpath;
        return xpath_matcher_fast(body) || verdict(check_xpath_matcher(body), message_id::invalid_xpath_matcher);
    }
    if (service && body[0] == '#') {
        m.dialect = dialect::regex;
        const hash_split sp = split_hash_regex(body);
        m.pattern = sp.pattern;
        m.flags = sp.flags;
        return verdict(check_hash_regex_matcher(body), message_id::invalid_regex_matcher);
    }
    if (service && body[0] == '/') {
        m.dialect = dialect::glob;
    } else if (body[0] == '/') {
        m.dialect = dialect::regex;
        if (regex_matcher_fast(body, m.pattern, m.flags)) return true;
        if (!verdict(check_regex_matcher(body), message_id::invalid_regex_matcher)) return false;
        const regex_split sp = split_regex(body);
        m.pattern = sp.pattern;
        m.flags = sp.flags;
    } else if (body[0] == '$') {
        m.dialect = dialect::jsonpath;
        return jsonpath_matcher_fast(body) || verdict(check_jsonpath_matcher(body), message_id::invalid_jsonpath_matcher);
    } else if (body[0] == '~') {
        m.dialect = dialect::semantic;
    } else if (body[0] == '@') {
        m.dialect = dialect::graph;
    } else {
        m.dialect = dialect::glob;
    }
    return true;
}

// A SEND body, with its JSON form when it has one.
void statement_builder::check_send(std::string_view body) {
    send_body b;
    if (may_start_json(body)) {
        json_ = canonical_json(body);
        if (json_) b.json = *json_;
    }
    b.raw = body;
    body_ = b;
}

// A COPY/MOVE body: the destination selection, read by its quick reading when it can (kept as
// the destination's text and parts, which write() packs as it packs a fast target), else by
// parse_selection_fields.
bool statement_builder::check_selection(std::string_view body) {
    const bool regex_candidate = dialect_ == parse_dialect::service && body[0] == '#';
    fast_dest_ = !regex_candidate && selection_fast(body, dest_marks_, dest_);
    if (fast_dest_) {
        body_.emplace<resource_selection>();  // write() and view() read dest_
        return true;
    }
    result<std::optional<selection_fields>> sel = parse_selection_fields(body, dialect_);
    if (!sel) return fail(std::move(sel).problem().message, message_id::invalid_selection);
    if (sel.value()) {
        selection_ = std::move(*sel.value());
        selection_.target.rebind();
        resource_selection r;
        r.target = selection_.target.view();
        if (selection_.marks) r.marker = line_marker{*selection_.marks};
        body_ = r;
    }
    return true;
}

bool statement_builder::verdict(result<void> r, message_id id) {
    return r ? true : fail(std::move(r).problem().message, id);
}

bool statement_builder::fail(std::string message, message_id id) {
    failure_.message = std::move(message);
    failure_.id = id;
    return false;
}

// Every field as the constructor leaves it (operator== enumerates them for the tests), the dialect
// aside (the same); strings and vectors cleared, keeping their room.
void statement_builder::reset() noexcept {
    parts_ = statement_parts{};
    suffix_ = {};
    tag_refs_.clear();
    tag_block_ = {};
    signal_ = plurnk::signal{};
    target_ = target_t::none;
    fast_text_ = {};
    target_parts_ = url_detail::url_parts{};
    path_.clear();
    decoded_ = parsed_path{};
    has_marks_ = false;
    marks_stable_ = false;
    marks_ = {};
    marks_scratch_ = {};
    body_ = std::monostate{};
    selection_.target.clear();
    selection_.marks.reset();
    fast_dest_ = false;
    dest_ = fast_selection{};
    dest_marks_.clear();
    json_.reset();
    failure_.message.clear();
    failure_.id = message_id{};
}

void statement_builder::view(statement& st, position at, byte_span span) const {
    st.op = parts_.op;
    st.suffix = suffix_;
    st.position = at;
    st.span = span;
    st.signal = signal_;
    st.target.reset();
    if (target_ == target_t::fast) st.target.emplace(fast_projection{fast_text_, target_parts_});
    if (target_ == target_t::decoded) st.target.emplace(decoded_);
    st.marker.reset();
    if (has_marks_) st.marker.emplace(line_marker{marks_});
    if (body_.index() != 4 || !fast_dest_) {
        copy_body(st.body, body_);
    } else {
        resource_selection& sel = st.body.emplace<resource_selection>();
        sel.target = url_detail::project_fast(dest_.text, dest_.parts);
        if (dest_.marked) sel.marker = line_marker{std::span<const double>(dest_marks_)};
    }
}

}  // namespace plurnk::detail
