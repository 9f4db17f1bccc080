// SPDX-License-Identifier: MIT
// A clean statement unit's tokens -> its statement (see ast_builder.hpp): the op and suffix from
// the opener, then the signal, the target (parse_path), the scope marks and the body (a matcher
// checked by its dialect's validator, a SEND body with its JSON form, a COPY/MOVE selection, or
// text). A validator's rejection replaces the statement by a visitor error.
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>

#include "ast_builder.hpp"
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

// Parses the numbers of a scope literal (`<1,2>`, `<1-5>`, `<0--5>`, `<1, -1>`).
line_marker scope_marks(std::string_view s) {
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
            default: return c >= '0' && c <= '9';
        }
    }
    return false;
}

bool is_matcher_op(op o) {
    return o == op::FIND || o == op::READ || o == op::OPEN || o == op::FOLD || o == op::LOOK || o == op::BUFF;
}

}  // namespace

void result_builder::build_statement(const unit& un, const sink& out) {
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

}  // namespace plurnk::detail
