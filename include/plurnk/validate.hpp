// SPDX-License-Identifier: MIT
// The matcher validators (SPEC §6, BEHAVIOUR §5). Each checks syntax only and never evaluates.
// One small interface each: input view in, verdict out, with an offset into that same input.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace plurnk {

struct [[nodiscard]] verdict {
    bool ok = true;
    std::size_t offset = 0;  // where the problem was found, relative to the validator's input
    std::string message;     // the engine's own wording (V8, npm xpath, json-p3) when !ok
    explicit operator bool() const noexcept { return ok; }
};

// ECMAScript RegExp (as V8 in Node 20 accepts it): `new RegExp(pattern, flags)`.
// message is V8's text, e.g. "Invalid regular expression: /(ab/: Unterminated group" or
// "Invalid flags supplied to RegExp constructor 'q'".
verdict validate_regex(std::string_view pattern, std::string_view flags);

// XPath 1.0 expression, as the npm `xpath` package's parse() accepts it.
verdict validate_xpath(std::string_view expr);

// RFC 9535 JSONPath query, as json-p3's compile() accepts it.
verdict validate_jsonpath(std::string_view expr);

// The `/pattern/flags` split of a regex matcher body (BEHAVIOUR §5). `body` starts with '/'.
// closed is false when no unescaped '/' outside a class ends the pattern.
struct regex_split {
    bool closed = false;
    std::string_view pattern;
    std::string_view flags;
};
[[nodiscard]] regex_split split_regex(std::string_view body) noexcept;

// Matcher-level checks: the complete visitor message the reference prints for a body of that
// dialect (prefix "pattern leads with ..." included), or nullopt when the body is admitted.
// `body` is the whole matcher body including its leading "//", "/" or "$".
[[nodiscard]] std::optional<std::string> check_regex_matcher(std::string_view body);
[[nodiscard]] std::optional<std::string> check_xpath_matcher(std::string_view body);
[[nodiscard]] std::optional<std::string> check_jsonpath_matcher(std::string_view body);

}  // namespace plurnk
