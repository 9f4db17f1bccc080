// SPDX-License-Identifier: MIT
// The matcher validators (SPEC §6, BEHAVIOUR §5). Each checks syntax only and never evaluates.
// One small interface each: input view in, result<void> out (result.hpp). A problem's offset is a
// byte offset into that same input and its message the engine's own wording (V8, npm xpath,
// json-p3).
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <string_view>

#include "plurnk/result.hpp"

namespace plurnk {

// ECMAScript RegExp (as V8 in Node 20 accepts it): `new RegExp(pattern, flags)`.
// The message is V8's text, e.g. "Invalid regular expression: /(ab/: Unterminated group" or
// "Invalid flags supplied to RegExp constructor 'q'".
result<void> validate_regex(std::string_view pattern, std::string_view flags);

// XPath 1.0 expression, as the npm `xpath` package's parse() accepts it.
result<void> validate_xpath(std::string_view expr);

// RFC 9535 JSONPath query, as json-p3's compile() accepts it.
result<void> validate_jsonpath(std::string_view expr);

// The `/pattern/flags` split of a regex matcher body (BEHAVIOUR §5). `body` starts with '/'.
// closed is false when no unescaped '/' outside a class ends the pattern.
struct regex_split {
    bool closed = false;
    std::string_view pattern;
    std::string_view flags;
};
[[nodiscard]] regex_split split_regex(std::string_view body) noexcept;

// Matcher-level checks: ok when the body is admitted, else a problem whose message is the complete
// visitor message the reference prints for a body of that dialect (prefix "pattern leads with ..."
// included) and whose offset is where in `body` the validator stopped (body.size() for a regex
// pattern that no '/' closes). `body` is the whole matcher body including its leading "//", "/"
// or "$".
result<void> check_regex_matcher(std::string_view body);
result<void> check_xpath_matcher(std::string_view body);
result<void> check_jsonpath_matcher(std::string_view body);

// The service dialect's regex matcher `#pattern#flags` (SERVICE.md S4, S5): `body` starts with
// '#'; split at the first `#` a backslash does not take (no classes), the pattern checked as
// check_regex_matcher checks a `/` one, the message worded with `#`.
result<void> check_hash_regex_matcher(std::string_view body);

}  // namespace plurnk
