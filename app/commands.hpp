// SPDX-License-Identifier: MIT
// The plurnk CLI's subcommands. Each returns the process exit status: 0 success, 1 a parse with
// error items or an unparsed tail (or a request answered with an error), 2 a usage, file or
// output error. main() turns anything thrown (out of memory) into one line and status 3.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace plurnk {
class json_ref;
enum class tier : std::uint8_t;
enum class parse_dialect : std::uint8_t;
}

namespace plurnk::cli {

using args = std::vector<std::string>;

int cmd_parse(const args& a);   // parse_cmd.cpp
int cmd_batch(const args& a);   // parse_cmd.cpp
int cmd_bench(const args& a);   // bench_cmd.cpp
int cmd_gbnf(const args& a);    // gbnf_cmd.cpp
int cmd_validate(const args& a);  // validate_cmd.cpp (built with the plurnk_wire library)
int cmd_score(const args& a);   // score_cmd.cpp
int cmd_fmt(const args& a);     // fmt_cmd.cpp

// Prints "plurnk: <message>" and a usage hint to stderr; returns 2.
int usage_error(std::string_view message);

// "--tier=NAME" (parse_cmd.cpp): sets `tier` and returns true, or puts a usage error's status in
// `status` when NAME is no tier; false for any other argument.
bool tier_option(const std::string& arg, plurnk::tier& tier, int& status);
// "NAME=N" for the option `name` ("--chunk", "--max-input-bytes"; parse_cmd.cpp): sets `value` to
// N (a positive integer; one past SIZE_MAX acts as SIZE_MAX) and returns true, or puts a usage
// error's status in `status` when N is not one; false for any other argument.
bool bytes_option(const std::string& arg, std::string_view name, std::size_t& value, int& status);
// "--dialect=NAME" (parse_cmd.cpp; main() joins "--dialect NAME"), the same way: contracts or
// service.
bool dialect_option(const std::string& arg, plurnk::parse_dialect& dialect, int& status);

// io.cpp. Prints "plurnk: <message>" to stderr; never throws.
void print_error(std::string_view message);
// "standard input" for "-", else 'PATH' (quoted), as messages name an input.
std::string display_name(const std::string& path);
// Prints "plurnk: cannot read 'PATH': <strerror(err)>"; returns 2.
int file_error(const std::string& path, int err);

// Reads FILE, or standard input for "-", into `out`; prints the one-line file error and returns
// false when it cannot (missing, a directory, a read error, a closed descriptor).
bool read_input(const std::string& path, std::string& out);
// The same reading at most `limit` bytes (and one more, to see whether the input goes on, which
// is dropped); `total` gets the input's size: what was read when it ended within the limit, else
// a regular file's size, else limit + 1 (a pipe, FIFO or device is not read past that, so
// /dev/zero or a FIFO that is never closed cannot hold the command).
bool read_input(const std::string& path, std::string& out, std::size_t limit, std::uint64_t& total);
// Reads a whole input of at most `limit` bytes (--max-input-bytes); prints an error and returns
// false for one that is longer, or cannot be read.
bool read_whole_input(const std::string& path, std::string& out, std::size_t limit);

// Writes `text` to standard output and flushes; prints the error and returns false on failure.
bool write_stdout(std::string_view text);

// JSON Lines service loop: calls on_line for every line of standard input (without its '\n'; a
// last line without one included), in order, flushing standard output whenever it waits for
// input. on_line returns false when it could not write its answer. Returns 0 at end of input,
// 2 after a read or write error (reported).
int for_each_stdin_line(const std::function<bool(std::string_view line)>& on_line);

// Appends `piece` to the answer being built in `out`; once `out` holds 64 KB, writes it to
// standard output and clears it, so a large answer is never held whole (the caller writes what
// is left in `out` when the answer is complete, and sees a failed write in ferror(stdout)).
void spill_answer(std::string& out, std::string_view piece);
// Appends `{"id":ID` (ID null when absent): the start of every JSON Lines answer (through
// spill_answer: a large ID goes out in pieces).
void append_answer_id(std::string& out, plurnk::json_ref id);
// Appends the answer line {"id":ID,"error":"MESSAGE"} and its '\n' (ID null when absent): what
// every JSON Lines command writes for a request it cannot answer, so answers stay in step.
void append_error_answer(std::string& out, plurnk::json_ref id, std::string_view message);

}  // namespace plurnk::cli
