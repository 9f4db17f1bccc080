// STUB: the ECMAScript regex validator lands here.
#include "plurnk/validate.hpp"
namespace plurnk {
verdict validate_regex(std::string_view, std::string_view) { return {}; }
regex_split split_regex(std::string_view body) noexcept {
    regex_split s;
    bool in_class = false;
    for (std::size_t i = 1; i < body.size(); ++i) {
        char c = body[i];
        if (c == '\\') { ++i; continue; }
        if (c == '[') in_class = true;
        else if (c == ']') in_class = false;
        else if (c == '/' && !in_class) {
            s.closed = true; s.pattern = body.substr(1, i - 1); s.flags = body.substr(i + 1);
            return s;
        }
    }
    return s;
}
std::optional<std::string> check_regex_matcher(std::string_view) { return std::nullopt; }
}  // namespace plurnk
