// STUB: the JSONPath validator lands here.
#include "plurnk/validate.hpp"
namespace plurnk {
verdict validate_jsonpath(std::string_view) { return {}; }
std::optional<std::string> check_jsonpath_matcher(std::string_view) { return std::nullopt; }
}  // namespace plurnk
