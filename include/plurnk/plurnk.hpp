// SPDX-License-Identifier: MIT
// Umbrella header for the plurnk library.
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include "plurnk/ast.hpp"
#include "plurnk/diagnostic.hpp"
#include "plurnk/format.hpp"
#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/path.hpp"
#include "plurnk/rail.hpp"
#include "plurnk/result.hpp"
#include "plurnk/serve.hpp"
#include "plurnk/stream.hpp"
#include "plurnk/validate.hpp"
#include "plurnk/version.hpp"
