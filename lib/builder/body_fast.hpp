// SPDX-License-Identifier: MIT
// Quick readings of common statement bodies (private header), in front of the full routes: a
// `/pattern/flags` regex of plain characters, groups, alternatives and simple quantifiers, a
// JSONPath query of member names, indices and simple comparison filters, an XPath location path
// of named steps with simple predicates, and a COPY/MOVE selection whose destination the
// targets' fast path reads and whose scope holds integers. Each answers only for text in a small
// subset it can prove byte by byte, and "don't know" for everything else, which then goes to the
// full route (lib/regex, lib/jsonpath, lib/xpath, parse_resource_selection) for its exact
// verdict, value and message. The matcher readers never allocate. test/body_fast_test.cpp holds
// every answer to the full route's on tables, on every short text over the regex and XPath
// subsets' alphabets and on the conformance vectors' texts, and so do the fuzz targets
// fuzz_regex, fuzz_xpath, fuzz_jsonpath and fuzz_path (fuzz/invariants.hpp).
#pragma once

#include <string_view>
#include <vector>

#include "plurnk/ast.hpp"
#include "url/fast_path.hpp"

namespace plurnk::detail {

// `body` (a matcher starting with `/`) is a valid regex matcher whose pattern holds only ASCII
// letters, digits, `_`, space and `-` (literal characters), `.`, `|`, balanced groups `(...)`,
// `^`, `$`, and the quantifiers `*`, `+`, `?` (each optionally lazy) after a character, `.` or
// a group, and whose flags are a valid set: true, with the body's split_regex() parts in
// `pattern` and `flags`. False: don't know (`pattern` and `flags` unspecified).
[[nodiscard]] bool regex_matcher_fast(std::string_view body, std::string_view& pattern,
                                      std::string_view& flags) noexcept;

// `body` (a matcher starting with `$`) is a valid JSONPath query (RFC 9535, as the full validator
// decides) of the subset: `$` then segments `.name`, `.*`, `[index]`, `['name']`, `[*]` and
// `[?filter]`, where a filter is a relative singular query (`@` then `.name`, `[index]` or
// `['name']` segments), alone or compared (`==`, `!=`, `<`, `<=`, `>`, `>=`) with an integer, a
// plain single-quoted string, `true`, `false` or `null`; no blank space anywhere. False: don't
// know.
[[nodiscard]] bool jsonpath_matcher_fast(std::string_view body) noexcept;

// `body` (a matcher starting with `/`) is a valid XPath 1.0 matcher (as the full validator
// decides) of the subset: steps `/name` or `//name`, each with predicates `[@name]`,
// `[@name='lit']`, `[@name!='lit']`, `[name='lit']` or `[n]`; names of ASCII letters, digits and
// `_`, literals of those, `-`, `.` and space; no blank space outside literals. False: don't know.
[[nodiscard]] bool xpath_matcher_fast(std::string_view body) noexcept;

// A COPY/MOVE selection that selection_fast() read: its destination's text, as the targets' fast
// path read it, and whether a scope follows it (its marks are selection_fast()'s `marks`).
struct fast_selection {
    std::string_view text;
    url_detail::url_parts parts;
    bool marked = false;
    friend bool operator==(const fast_selection&, const fast_selection&) = default;
};

// `body` (a COPY/MOVE body) reads as parse_resource_selection would read it, with a destination
// free of escapes that the targets' fast path takes (lib/url/fast_path.hpp) and either no scope
// or a scope literal of integers of at most 15 digits: true, with `out` the destination as a
// view of `body` and its parts, and its marks in `marks`. False: don't know.
[[nodiscard]] bool selection_fast(std::string_view body, std::vector<double>& marks, fast_selection& out);
// The same, with `out` the selection as url_detail::project_fast() makes it (views of `body` and
// of `marks`): the value an event's statement holds, and the differentials' reading.
[[nodiscard]] bool selection_fast(std::string_view body, std::vector<double>& marks, resource_selection& out);

}  // namespace plurnk::detail
