// SPDX-License-Identifier: MIT
// Every public C++ header of plurnk includes this one first: compiled as anything older than C++20,
// the compiler says so in one line instead of a screenful of errors from inside the headers.
// (C programs use plurnk/plurnk.h, which is plain C and does not include this.)
#pragma once

#if !defined(__cplusplus) || (__cplusplus < 202002L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 202002L))
#error "plurnk's C++ headers need C++20: compile with -std=c++20 (MSVC: /std:c++20); C code includes plurnk/plurnk.h"
// A missing header stops GCC, Clang and MSVC at once, so the line above is not buried under the
// errors the rest of the headers would give in C++17.
#include <plurnk_needs_cxx20>
#endif
