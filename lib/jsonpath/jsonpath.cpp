// SPDX-License-Identifier: MIT
// JSONPath (RFC 9535) validator, matching what json-p3's `JSONPathEnvironment().compile()` accepts
// in its default strict mode, with its exact error texts. The reference works in two passes and so
// does this file: a lexer, written as a small set of mode functions over UTF-16 code units (the
// reference is JavaScript, so every position and every quoted character is a code unit), turns the
// query into tokens; a Pratt-style descent over that token vector (its productions resumable
// steps on an explicit stack of frames, never recursion) then builds just enough of a
// filter-expression tree to apply RFC 9535's well-typedness rules (§2.4.3), the
// singular-query rules (§2.3.5.1) and the literal checks. Both passes keep the reference's
// ordering of checks, because the first problem found decides the message. Errors are values: the
// first failure is recorded, every function returns early once it is set. Messages carry the
// reference's context suffix `('<up to 9 code units of the query>':<code-unit index>)`; the
// problem's offset is that index converted back to a byte offset into the caller's UTF-8 view.
// Nothing here evaluates a query, so the I-Regexp arguments of match()/search() are not checked:
// json-p3 only checks them when a filter runs.
// This file holds the message formatting and the entry points; jsonpath_internal.hpp declares the
// lexer (lexer.cpp) and the parser (parser.cpp: segments and selectors; filter.cpp: filter
// expressions, function extensions and string literals).
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "jsonpath_internal.hpp"
#include "plurnk/validate.hpp"

namespace plurnk {

namespace jsonpath_detail {

// The message for `d` with each `{}` replaced by the next argument.
std::string format(diag d, std::initializer_list<std::string_view> args) {
    const std::string_view text = k_diag_texts[static_cast<std::size_t>(d)].text;
    std::string out;
    auto arg = args.begin();
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '{' && i + 1 < text.size() && text[i + 1] == '}' && arg != args.end()) {
            out += *arg++;
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

}  // namespace jsonpath_detail

namespace {

using namespace jsonpath_detail;

constexpr std::string_view k_matcher_prefix = "pattern leads with `$` but is not a valid jsonpath - ";

// The reference's message context: up to nine code units of the query around `index`.
std::string with_context(const failure& f, std::u16string_view src) {
    if (!f.context) return f.message;
    const auto n = static_cast<std::ptrdiff_t>(src.size());
    const std::ptrdiff_t i = f.index;
    std::u16string_view slice;
    if (n <= 9) {
        slice = src;
    } else if (i > n - 5) {
        slice = src.substr(static_cast<std::size_t>(n - 9));
    } else if (i - 4 < 0) {
        slice = src.substr(0, 9);
    } else {
        slice = src.substr(static_cast<std::size_t>(i - 4), 9);
    }
    std::string out = f.message;
    out += " ('";
    append_utf16_as_utf8(out, slice);
    out += "':";
    out += std::to_string(i);
    out += ')';
    return out;
}

}  // namespace

result<void> validate_jsonpath(std::string_view expr) {
    const std::u16string units = to_utf16(expr);
    lexer lx(units);
    std::optional<failure> f = lx.run();
    if (!f) {
        std::optional<lexer> again;  // makes the tokens run() did not keep, as the parser reads them
        if (!lx.complete()) again.emplace(units);
        parser p(units, again ? *again : lx, lx.token_count(), lx.error_text());
        f = p.jsonpath_query();
    }
    if (!f) return {};
    const std::ptrdiff_t i = f->index;
    const std::size_t offset = i <= 0 ? 0 : utf16_unit_byte_offset(expr, static_cast<std::size_t>(i));
    return problem{offset, with_context(*f, units)};
}

result<void> check_jsonpath_matcher(std::string_view matcher) {
    result<void> v = validate_jsonpath(matcher);
    if (v.ok()) return v;
    return problem{v.problem().offset, std::string(k_matcher_prefix) + v.problem().message};
}

}  // namespace plurnk
