// SPDX-License-Identifier: MIT
// A JSON Schema (draft 2020-12) evaluator for the keyword subset the shipped wire schemas use,
// evaluating exactly as @cfworker/json-schema 4 does (keyword order, shortCircuit, messages,
// locations). A schema that uses any other keyword is refused when it is added, so a schema update
// that needs more of JSON Schema fails loudly instead of being half-checked.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/json.hpp"
#include "plurnk/wire.hpp"

namespace plurnk::wire::detail {

class schema_set {
public:
    schema_set();
    ~schema_set();
    schema_set(const schema_set&) = delete;
    schema_set& operator=(const schema_set&) = delete;

    // Adds one schema document (JSON text with an absolute "$id"); returns an error message, or
    // empty. Call resolve() after the last add.
    std::string add(std::string_view text);
    // Resolves every "$ref" to an added schema; returns an error message, or empty.
    std::string resolve();

    // Evaluates `instance` against the document whose "$id" is `id`, appending the reference's
    // errors (or only counting them when `errors` is nullptr); returns the verdict. `exception` is
    // set (and false returned) where the reference would throw instead of answering.
    bool validate(std::string_view id, json_ref instance, std::vector<validation_error>* errors,
                  std::string& exception) const;

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

// Code points of a UTF-8 string in which a lone surrogate is held in its 3-byte form (as
// parse_json stores it): JavaScript's count of a string's code points (a lone surrogate is one).
[[nodiscard]] std::size_t code_points(std::string_view s) noexcept;

// `${x}` of a JavaScript number (Infinity, -Infinity, 1e+21, 0.5).
void append_js_template_number(std::string& out, double x);

}  // namespace plurnk::wire::detail
