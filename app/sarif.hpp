// SPDX-License-Identifier: MIT
// SARIF 2.1.0 output (SPEC §14's mapping) for `plurnk parse --format=sarif`, and for any command
// that reports on many files: one log, one run, one artifact per file, one result per diagnostic
// and one for each unparsed tail. Rules are the diagnostic classes of the message table (rule id
// = message_name, its template the rule's description), all of them, indexed by message_id.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "plurnk/ast.hpp"

namespace plurnk::cli {

struct sarif_file {
    std::string uri;                       // the artifact's URI (a relative path is fine)
    std::string_view text;                 // the file's contents (its length is reported)
    const plurnk::parse_result* result{};  // its parse
};

// The SARIF log (compact JSON, no trailing newline). Positions map as SPEC §14 says: lines as
// they are, columns + 1 with columnKind "unicodeCodePoints", and a zero-width region (end equal
// to start) for every point, since parser positions carry no extent.
[[nodiscard]] std::string sarif_log(const std::vector<sarif_file>& files);

}  // namespace plurnk::cli
