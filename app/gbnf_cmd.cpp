// `plurnk gbnf`: not written yet (generation-rail issue).
#include "commands.hpp"

namespace plurnk::cli {
int cmd_gbnf(const args&) { return usage_error("gbnf is not available yet"); }
}  // namespace plurnk::cli
