// SPDX-License-Identifier: MIT
// The wire schema engine's private parts (schema_engine.hpp is its interface): the compiled
// schema nodes and the set that owns them, shared by the compiler (schema_engine.cpp), the
// evaluator (schema_eval.cpp) and the JavaScript value semantics both use (schema_values.cpp).
#pragma once

#include <re2/re2.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plurnk/json.hpp"
#include "schema_engine.hpp"

namespace plurnk::wire::detail {

using kind_t = json_value::kind_t;

// One compiled (sub)schema: a boolean schema's verdict, or the keywords it holds.
struct node {
    enum class form : std::uint8_t { always, never, object };
    form f = form::object;
    std::string where;  // "<$id>#<pointer>", for load errors

    std::string ref;  // absolute
    const node* ref_target = nullptr;
    std::vector<std::string> types;
    bool has_type = false;
    bool type_list = false;
    json_ref const_value;  // absent when the keyword is
    json_ref enum_values;
    const node* not_schema = nullptr;
    std::optional<std::vector<const node*>> any_of, all_of, one_of;
    std::optional<std::vector<std::string>> required;
    const node* property_names = nullptr;
    std::optional<std::vector<std::pair<std::string, const node*>>> properties;
    const node* additional_properties = nullptr;
    const node* items = nullptr;
    std::optional<double> min_items, max_items, minimum, maximum, min_length, max_length;
    bool unique_items = false;
    std::unique_ptr<re2::RE2> pattern;
};

struct schema_set::impl {
    std::deque<json_document> docs;
    std::deque<node> nodes;
    std::map<std::string, const node*, std::less<>> lookup;

    std::string compile(json_ref s, const std::string& base, const std::string& pointer, const node*& out);
    std::string compile_list(json_ref s, const std::string& base, const std::string& pointer,
                             std::optional<std::vector<const node*>>& out);
    // The keyword families compile() hands each keyword of node `n` to (`sub` is the keyword's
    // pointer): each returns nullopt for a keyword not its own, else the error, or empty.
    std::optional<std::string> compile_core(node& n, const std::string& key, json_ref v, const std::string& base,
                                             const std::string& pointer, const std::string& sub);
    std::optional<std::string> compile_applicator(node& n, const std::string& key, json_ref v, const std::string& base,
                                                  const std::string& sub);
    static std::optional<std::string> compile_assertion(node& n, const std::string& key, json_ref v);
};

// JSON Pointer token escaping as the reference's escapePointer (schema_values.cpp).
std::string escape_pointer(std::string_view key);
// encodeURI(escapePointer(key)).replace(/#/g, '%23') appended to `out`; false where encodeURI
// throws.
bool append_encoded_pointer(std::string& out, std::string_view key);
// === between two JSON values that are not both containers, and deepCompareStrict otherwise.
bool js_equal(json_ref a, json_ref b);
// uniqueItems as the reference checks it: the first equal pair (j, k); false when the items are
// distinct.
bool first_duplicate(json_ref array, std::size_t& j, std::size_t& k);

}  // namespace plurnk::wire::detail
