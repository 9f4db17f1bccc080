// SPDX-License-Identifier: MIT
// Private (lib/url, its tests and fuzz targets): the WHATWG URL parse of url.cpp as a plain
// optional, and the target route of path.cpp with the fast path (fast_path.hpp) switched off --
// the full parsers the fast path is held to.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "path_fields.hpp"
#include "plurnk/path.hpp"

namespace plurnk::url_detail {

// The record of `input` parsed without a base, or nullopt when the URL Standard's basic URL
// parser fails on it. parse_url_record tries the fast path first; parse_url_record_full never
// does.
[[nodiscard]] std::optional<url_record> parse_url_record(std::string_view input);
[[nodiscard]] std::optional<url_record> parse_url_record_full(std::string_view input);

// parse_path without the fast path: the escapes decoded, then the full route alone.
[[nodiscard]] result<std::optional<detail::path_fields>> parse_path_full(std::string_view raw);

// BEHAVIOUR §3.4 step 2 into `out` (replacing its text): `\\`, `\(`, `\)` lose the backslash.
void decode_target_escapes(std::string_view raw, std::string& out);

}  // namespace plurnk::url_detail
