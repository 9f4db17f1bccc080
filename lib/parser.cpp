// STUB: the statement parser lands here.
#include "plurnk/parse.hpp"
namespace plurnk {
parse_result parse(std::string_view, tier, const parse_options&) { return {}; }
}  // namespace plurnk
