// SPDX-License-Identifier: MIT
// Target paths (SPEC §5, BEHAVIOUR §3.4): escape decoding, local vs. URL, WHATWG decomposition,
// `{key: value}` request metadata, COPY/MOVE resource selections, glob detection, worker names.
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "plurnk/ast.hpp"
#include "plurnk/result.hpp"

namespace plurnk {

namespace detail {
struct path_fields;
struct selection_fields;
}  // namespace detail

// A parsed_path that owns the strings it views (parse_path's answer): use it as a parsed_path.
// Copies share the strings, so a copy, or a parsed_path sliced from one, stays valid while any
// path_value holding them lives.
class path_value : public parsed_path {
public:
    explicit path_value(detail::path_fields&& f);

private:
    std::shared_ptr<const detail::path_fields> fields_;
};

// A resource_selection that owns the strings it views (parse_resource_selection's answer).
class selection_value : public resource_selection {
public:
    explicit selection_value(detail::selection_fields&& f);

private:
    std::shared_ptr<const detail::selection_fields> fields_;
};

// A target path: the path (nullopt for empty input), or a problem whose message is the visitor's
// ("invalid URI in path", "invalid request metadata: ...") and whose offset is 0 (the whole
// target). `raw` is the target slot text as written (escapes not yet decoded).
result<std::optional<path_value>> parse_path(std::string_view raw);

// A COPY/MOVE body: target plus an optional trailing scope literal. The selection is nullopt for
// empty input or a bare scope; a problem is parse_path's.
result<std::optional<selection_value>> parse_resource_selection(std::string_view raw);

// A WHATWG URL record, as Node's `URL` exposes it.
struct url_record {
    std::string href;
    std::string protocol;  // with trailing ':'
    std::string username;
    std::string password;
    std::string hostname;
    std::string port;      // "" when default or absent
    std::string pathname;
    std::string search;    // "" or "?..."
    std::string hash;      // "" or "#..."
};

// WHATWG URL parse without a base. A failure is Node's: the message "Invalid URL", offset 0.
result<url_record> parse_url(std::string_view input);

// Glob detection (SPEC §5 §path-glob): `*`, `?`, character class, brace, extglob, escape.
[[nodiscard]] bool has_glob(std::string_view pathname) noexcept;
// First glob-magic position, or nullopt when the path has none.
[[nodiscard]] std::optional<std::size_t> glob_magic_index(std::string_view pathname) noexcept;

// SPEC §5 §worker-name: a lowercase DNS label `[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?`.
[[nodiscard]] bool is_worker_name(std::string_view name) noexcept;
inline constexpr std::array<std::string_view, 2> k_reserved_authorities = {"commons", "plurnk"};
[[nodiscard]] bool is_reserved_authority(std::string_view name) noexcept;

}  // namespace plurnk
