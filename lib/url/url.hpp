// SPDX-License-Identifier: MIT
// Private: the WHATWG URL parse of url.cpp as a plain optional (lib/url only). parse_path calls
// it on every URL target; the public parse_url (path.hpp) wraps it in a result.
#pragma once

#include <optional>
#include <string_view>

#include "plurnk/path.hpp"

namespace plurnk::url_detail {

// The record of `input` parsed without a base, or nullopt when the URL Standard's basic URL
// parser fails on it.
[[nodiscard]] std::optional<url_record> parse_url_record(std::string_view input);

}  // namespace plurnk::url_detail
