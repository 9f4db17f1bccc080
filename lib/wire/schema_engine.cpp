// SPDX-License-Identifier: MIT
// The wire schemas' evaluator. add() compiles a schema document into nodes (one per subschema,
// each registered under its absolute URI "<$id>#<pointer>" as @cfworker/json-schema's
// dereference() registers them), refusing any keyword outside the subset below; resolve() binds
// each "$ref" to its node. validate() then walks node and instance together following
// @cfworker/json-schema 4's validate() keyword by keyword:
//   $ref, type, const, enum, not, anyOf, allOf, oneOf,
//   objects: required, propertyNames, properties (stops at the first failure), additionalProperties,
//   arrays: maxItems, minItems, items (stops at the first failure), uniqueItems,
//   numbers: minimum, maximum; strings: minLength, maxLength, pattern.
// Every keyword of a schema is evaluated (shortCircuit only ends property and item loops), so the
// errors and their order are the reference's. Its quirks are kept on purpose: a lone "integer" type
// accepts Infinity (Infinity % 1 is NaN, which is falsy) while "integer" inside a type list does
// not; a false schema's keywordLocation is the instance location; const, enum and uniqueItems
// compare primitives with === (so 0 equals -0) and containers by deep equality; lengths count code
// points; an instance key holding a lone surrogate makes encodeURI throw ("URI malformed").
// Schemas and instances are json_document values (json_ref): compact, and walked without
// recursion where an instance may be deep (equality); validate refuses an instance nested deeper
// than k_json_max_depth, so the recursion of eval() follows the schemas' own (bounded) depth.
//
// pattern: matched with RE2, restricted at add() time to the syntax on which RE2 and an ECMAScript
// `u`-mode RegExp agree: ASCII only; literals, escaped punctuation, [classes] with ranges, groups
// and (?:...), alternation, the quantifiers ? * + {m} {m,} {m,n}, and ^ $ (RE2's $ without (?m) is
// the very end, as JavaScript's without the m flag). '.' outside a class (JavaScript excludes
// \r \u2028 \u2029 too), \d \w \s \b and other letter escapes, back-references and look-arounds
// are refused; each pattern must also be a valid `u`-mode RegExp by plurnk::validate_regex.
//
// This file compiles (add, resolve); schema_eval.cpp evaluates (validate), and schema_values.cpp
// holds the JavaScript value semantics both use (pointers, equality, the uniqueItems search).
// schema_nodes.hpp declares the nodes and the set they share.
#include "schema_engine.hpp"

#include <re2/re2.h>

#include <deque>
#include <map>
#include <optional>

#include "plurnk/validate.hpp"
#include "schema_nodes.hpp"

namespace plurnk::wire::detail {

namespace {

// The pattern subset on which RE2 and ECMAScript u-mode agree (see the file comment); empty when
// `p` is inside it, else why not.
std::string outside_pattern_subset(std::string_view p) {
    bool in_class = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const auto c = static_cast<unsigned char>(p[i]);
        if (c >= 0x80 || c < 0x20) return "non-ASCII or control character";
        if (c == '\\') {
            if (i + 1 >= p.size()) return "trailing backslash";
            const auto e = static_cast<unsigned char>(p[++i]);
            if ((e >= 'A' && e <= 'Z') || (e >= 'a' && e <= 'z') || (e >= '0' && e <= '9') || e >= 0x80) {
                return "escape \\" + std::string(1, static_cast<char>(e));
            }
            continue;
        }
        if (in_class) {
            if (c == ']') in_class = false;
            else if (c == '[') return "'[' inside a class";
            continue;
        }
        if (c == '[') {
            in_class = true;
            if (i + 1 < p.size() && p[i + 1] == '^') ++i;
            if (i + 1 < p.size() && p[i + 1] == ']') return "empty class";
        } else if (c == '.') {
            return "'.' outside a class";
        } else if (c == '(' && i + 1 < p.size() && p[i + 1] == '?') {
            if (i + 2 >= p.size() || p[i + 2] != ':') return "group other than (?:";
        }
    }
    return in_class ? "unterminated class" : "";
}


}  // namespace

std::string schema_set::impl::compile_list(json_ref s, const std::string& base,
                                           const std::string& pointer,
                                           std::optional<std::vector<const node*>>& out) {
    if (s.kind() != kind_t::array) return base + "#" + pointer + " is not an array of schemas";
    out.emplace();
    for (const auto& [unused, item] : s) {
        const node* n = nullptr;
        if (auto e = compile(item, base, pointer + "/" + std::to_string(out->size()), n); !e.empty()) return e;
        out->push_back(n);
    }
    return {};
}

std::string schema_set::impl::compile(json_ref s, const std::string& base, const std::string& pointer,
                                      const node*& out) {
    node& n = nodes.emplace_back();
    n.where = pointer.empty() ? base : base + "#" + pointer;
    out = &n;
    if (!lookup.emplace(n.where, &n).second) return "duplicate schema URI " + n.where;
    if (s.kind() == kind_t::boolean) {
        n.f = s.boolean() ? node::form::always : node::form::never;
        return {};
    }
    if (s.kind() != kind_t::object) return n.where + " is not a schema";
    for (const auto& [key_view, v] : s) {
        const std::string key(key_view);
        const std::string sub = pointer + "/" + escape_pointer(key);
        if (key == "$schema" || key == "title" || key == "description" || key == "$comment") continue;
        std::optional<std::string> e = compile_core(n, key, v, base, pointer, sub);
        if (!e) e = compile_applicator(n, key, v, base, sub);
        if (!e) e = compile_assertion(n, key, v);
        if (!e) return n.where + ": keyword " + key + " is not supported";
        if (!e->empty()) return *e;
    }
    return {};
}

// $id (the document's own only), $defs, $ref, type, const and enum.
std::optional<std::string> schema_set::impl::compile_core(node& n, const std::string& key, json_ref v,
                                                          const std::string& base, const std::string& pointer,
                                                          const std::string& sub) {
    if (key == "$id") {
        if (!pointer.empty()) return n.where + ": $id inside a document is not supported";
    } else if (key == "$defs") {
        if (v.kind() != kind_t::object) return n.where + ": $defs is not an object";
        for (const auto& [name, d] : v) {
            const node* ignored = nullptr;
            if (auto e = compile(d, base, sub + "/" + escape_pointer(name), ignored); !e.empty()) return e;
        }
    } else if (key == "$ref") {
        const std::string ref(v.string());
        if (v.kind() != kind_t::string) return n.where + ": $ref is not a string";
        if (ref.starts_with("#")) n.ref = base + ref;
        else if (ref.starts_with("https://")) n.ref = ref;
        else return n.where + ": relative $ref " + ref + " is not supported";
    } else if (key == "type") {
        n.has_type = true;
        if (v.kind() == kind_t::string) {
            n.types.emplace_back(v.string());
        } else if (v.kind() == kind_t::array) {
            n.type_list = true;
            for (const auto& t : v) {
                if (t.value.kind() != kind_t::string) return n.where + ": type list holds a non-string";
                n.types.emplace_back(t.value.string());
            }
        } else {
            return n.where + ": type is neither a string nor a list";
        }
    } else if (key == "const") {
        n.const_value = v;
    } else if (key == "enum") {
        if (v.kind() != kind_t::array) return n.where + ": enum is not an array";
        n.enum_values = v;
    } else {
        return std::nullopt;
    }
    return std::string();
}

// The keywords that hold subschemas: not, the combinators, and the object and array ones.
std::optional<std::string> schema_set::impl::compile_applicator(node& n, const std::string& key, json_ref v,
                                                               const std::string& base, const std::string& sub) {
    if (key == "not") return compile(v, base, sub, n.not_schema);
    if (key == "propertyNames") return compile(v, base, sub, n.property_names);
    if (key == "additionalProperties") return compile(v, base, sub, n.additional_properties);
    if (key == "items") {
        if (v.kind() == kind_t::array) return n.where + ": items as an array is not supported";
        return compile(v, base, sub, n.items);
    }
    if (key == "anyOf") return compile_list(v, base, sub, n.any_of);
    if (key == "allOf") return compile_list(v, base, sub, n.all_of);
    if (key == "oneOf") return compile_list(v, base, sub, n.one_of);
    if (key != "properties") return std::nullopt;
    if (v.kind() != kind_t::object) return n.where + ": properties is not an object";
    n.properties.emplace();
    for (const auto& [name, d] : v) {
        const node* p = nullptr;
        if (auto e = compile(d, base, sub + "/" + escape_pointer(name), p); !e.empty()) return e;
        n.properties->emplace_back(std::string(name), p);
    }
    return std::string();
}

// The assertions: required, the bounds, uniqueItems and pattern.
std::optional<std::string> schema_set::impl::compile_assertion(node& n, const std::string& key, json_ref v) {
    auto number = [&](std::optional<double>& to) -> std::string {
        if (v.kind() != kind_t::number) return n.where + ": " + key + " is not a number";
        to = v.number();
        return {};
    };
    if (key == "required") {
        if (v.kind() != kind_t::array) return n.where + ": required is not an array";
        n.required.emplace();
        for (const auto& r : v) {
            if (r.value.kind() != kind_t::string) return n.where + ": required holds a non-string";
            n.required->emplace_back(r.value.string());
        }
        return std::string();
    }
    if (key == "minimum") return number(n.minimum);
    if (key == "maximum") return number(n.maximum);
    if (key == "minItems") return number(n.min_items);
    if (key == "maxItems") return number(n.max_items);
    if (key == "minLength") return number(n.min_length);
    if (key == "maxLength") return number(n.max_length);
    if (key == "uniqueItems") {
        if (v.kind() != kind_t::boolean) return n.where + ": uniqueItems is not a boolean";
        n.unique_items = v.boolean();
        return std::string();
    }
    if (key != "pattern") return std::nullopt;
    const std::string pattern(v.string());
    if (v.kind() != kind_t::string) return n.where + ": pattern is not a string";
    if (auto why = outside_pattern_subset(pattern); !why.empty()) {
        return n.where + ": pattern " + pattern + " is outside the supported subset (" + why + ")";
    }
    if (!validate_regex(pattern, "u")) return n.where + ": pattern " + pattern + " is not a u-mode RegExp";
    re2::RE2::Options o;
    o.set_log_errors(false);
    n.pattern = std::make_unique<re2::RE2>(pattern, o);
    if (!n.pattern->ok()) return n.where + ": RE2 refuses pattern " + pattern;
    return std::string();
}

schema_set::schema_set() : impl_(std::make_unique<impl>()) {}
schema_set::~schema_set() = default;

std::string schema_set::add(std::string_view text) {
    auto doc = json_document::parse(text);
    if (!doc) return "schema is not JSON";
    const json_ref id = doc->root().find("$id");
    if (id.kind() != kind_t::string || !id.string().starts_with("https://")) return "schema has no absolute $id";
    const json_document& stored = impl_->docs.emplace_back(std::move(*doc));
    const node* root = nullptr;
    return impl_->compile(stored.root(), std::string(stored.root().find("$id").string()), "", root);
}

std::string schema_set::resolve() {
    for (node& n : impl_->nodes) {
        if (n.ref.empty()) continue;
        // "X.json#" and "X.json" name the same document, as new URL() normalizes them.
        std::string uri = n.ref.ends_with("#") ? n.ref.substr(0, n.ref.size() - 1) : n.ref;
        auto it = impl_->lookup.find(uri);
        if (it == impl_->lookup.end()) return n.where + ": unresolved $ref " + n.ref;
        n.ref_target = it->second;
    }
    return {};
}

}  // namespace plurnk::wire::detail
