#pragma once

namespace plurnk {
// The library version, and the PLURNK language version it parses.
inline constexpr const char* k_version = "0.1.0";
inline constexpr const char* k_language_version = "1.4.0";
}  // namespace plurnk
