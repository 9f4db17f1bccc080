// The plurnk CLI's subcommands. Each returns the process exit status: 0 success, 1 a parse with
// error items or an unparsed tail (or a failed request), 2 a usage or file error.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace plurnk::cli {

using args = std::vector<std::string>;

int cmd_parse(const args& a);   // parse_cmd.cpp
int cmd_batch(const args& a);   // parse_cmd.cpp
int cmd_bench(const args& a);   // bench_cmd.cpp
int cmd_gbnf(const args& a);    // gbnf_cmd.cpp
int cmd_validate(const args& a);  // validate_cmd.cpp (built with the plurnk_wire library)

// Prints "plurnk: <message>" and a usage hint to stderr; returns 2.
int usage_error(std::string_view message);

// Reads FILE, or standard input for "-", into `out`; prints a one-line error and returns false
// when it cannot.
bool read_input(const std::string& path, std::string& out);

}  // namespace plurnk::cli
