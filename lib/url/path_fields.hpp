// SPDX-License-Identifier: MIT
// A target path with strings of its own (private header): what parse_path computes, before the
// result builder copies it into a result's storage or parse_path wraps it into a path_value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plurnk/ast.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/result.hpp"

namespace plurnk::detail {

struct path_fields {
    parsed_path::kind_t kind = parsed_path::kind_t::local;
    std::string raw;
    std::string scheme;
    std::optional<std::string> username;
    std::optional<std::string> password;
    std::optional<std::string> hostname;
    std::optional<std::uint32_t> port;
    std::string pathname;
    std::optional<std::string> query;
    std::optional<std::string> fragment;
    std::optional<std::vector<header>> headers;  // views into header_text (see rebind)
    std::vector<std::pair<std::string, std::string>> header_text;

    // Back to as constructed, the strings' room kept.
    void clear() noexcept {
        kind = parsed_path::kind_t::local;
        raw.clear();
        scheme.clear();
        username.reset();
        password.reset();
        hostname.reset();
        port.reset();
        pathname.clear();
        query.reset();
        fragment.reset();
        headers.reset();
        header_text.clear();
    }
    friend bool operator==(const path_fields&, const path_fields&) = default;

    // Points `headers` at header_text again: a move can move short strings' bytes.
    void rebind();
    // The path as views into these fields (valid while they are neither changed nor moved).
    [[nodiscard]] parsed_path view() const;
};

struct selection_fields {
    path_fields target;
    std::optional<std::vector<double>> marks;
    friend bool operator==(const selection_fields&, const selection_fields&) = default;
};

// `raw` as written (escapes not yet decoded); the dialect decides whether it may be a regex path.
result<std::optional<path_fields>> parse_path_fields(std::string_view raw,
                                                    parse_dialect dialect = parse_dialect::contracts);
result<std::optional<selection_fields>> parse_selection_fields(std::string_view raw,
                                                              parse_dialect dialect = parse_dialect::contracts);
// Whether `raw` (as written) is a service dialect regex path (SERVICE.md S7).
[[nodiscard]] bool is_regex_path(std::string_view raw);

}  // namespace plurnk::detail
