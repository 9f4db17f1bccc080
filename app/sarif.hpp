// SPDX-License-Identifier: MIT
// SARIF 2.1.0 output (SPEC §14's mapping) for `plurnk parse --format=sarif`, and for any command
// that reports on many files: one log, one run, one artifact per file, one result per diagnostic
// and one for each unparsed tail. Rules are the diagnostic classes of the message table (rule id
// = message_name, its template the rule's description), all of them, indexed by message_id.
#pragma once

#include <cstdio>
#include <functional>
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

// Writes one SARIF log as it goes (compact JSON, no trailing newline): the tool and its rules
// when made, each file's results as add() is given it, then on finish() the artifacts, one per
// file in the order added. Text goes to `out` in pieces of about 64 KB and a file's parse can be
// dropped once add() returns, so memory does not grow with the number of files or results; the
// artifacts' records wait in a spool that moves to a temporary file past 64 KB. Positions map as
// SPEC §14 says: lines as they are, columns + 1 with columnKind "unicodeCodePoints", and a
// zero-width region (end equal to start) for every point, since parser positions carry no extent.
class sarif_writer {
public:
    // Takes each piece of the log; false when it could not be written (the writer then stops).
    using sink = std::function<bool(std::string_view piece)>;
    explicit sarif_writer(sink out);
    ~sarif_writer();
    sarif_writer(const sarif_writer&) = delete;
    sarif_writer& operator=(const sarif_writer&) = delete;

    // False once a piece could not be written.
    bool add(const sarif_file& f);
    // Writes the rest of the log; false when a piece could not be written or the spool failed.
    bool finish();

private:
    bool flush(bool all);
    bool spool_artifact(const sarif_file& f);

    sink out_;
    std::string buf_;
    std::string artifacts_;       // the artifacts' records not yet in the spool file
    std::FILE* spool_ = nullptr;  // a temporary file, once artifacts_ passed 64 KB
    std::size_t files_ = 0;
    bool first_result_ = true;
    bool ok_ = true;
};

// The whole log of `files` as one string (for a few files; sarif_writer for many).
[[nodiscard]] std::string sarif_log(const std::vector<sarif_file>& files);

}  // namespace plurnk::cli
