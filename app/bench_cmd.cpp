// `plurnk bench`: not written yet (performance issue).
#include "commands.hpp"

namespace plurnk::cli {
int cmd_bench(const args&) { return usage_error("bench is not available yet"); }
}  // namespace plurnk::cli
