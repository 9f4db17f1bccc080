// STUB: the WHATWG URL parser lands here.
#include "plurnk/path.hpp"
namespace plurnk {
std::optional<url_record> parse_url(std::string_view) { return std::nullopt; }
}  // namespace plurnk
