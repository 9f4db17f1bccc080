// STUB: the XPath 1.0 validator lands here.
#include "plurnk/validate.hpp"
namespace plurnk {
verdict validate_xpath(std::string_view) { return {}; }
std::optional<std::string> check_xpath_matcher(std::string_view) { return std::nullopt; }
}  // namespace plurnk
