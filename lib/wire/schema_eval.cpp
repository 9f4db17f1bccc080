// SPDX-License-Identifier: MIT
// The wire schema engine's evaluation (schema_engine.cpp's file comment says what it follows):
// validate() walks a compiled node and the instance together, keyword by keyword as
// @cfworker/json-schema 4's validate() does, and collects or counts the reference's errors.
#include <re2/re2.h>

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "schema_nodes.hpp"

namespace plurnk::wire::detail {

namespace {

const char* type_name(kind_t k) noexcept {
    switch (k) {
        case kind_t::null: return "null";
        case kind_t::boolean: return "boolean";
        case kind_t::number: return "number";
        case kind_t::string: return "string";
        case kind_t::array: return "array";
        case kind_t::object: return "object";
    }
    return "null";
}

// One evaluation: the reference's validate() over nodes, with one shared error list (a call's
// errors are those it appended; it is valid when it appended none). Without a list the errors
// are only counted, which is all a verdict needs, and no message is built.
//
// The stack: eval() recurses through the keywords that hold subschemas ($ref, not, the
// combinators, the property and item loops), about a dozen calls deep for a statement. Each of
// those keywords is its own noinline function whose frame holds only the locations it passes
// down; the keywords that do not recurse (type, const, enum, the counts, the scalar checks) and
// every error message are built in noinline functions of their own, called and gone before the
// recursion goes on. Inlined, every message temporary kept its own slot in the recursive frames:
// under ASan (whose slots carry redzones) a MOVE statement took 111 KB of stack.
struct evaluator {
    std::vector<validation_error>* list;  // nullptr: count only
    std::string& exception;
    std::size_t errors = list != nullptr ? list->size() : 0;  // how many there are now

    // An error at `at` in the list (errors: at the end).
    [[gnu::noinline]] void push(std::size_t at, const std::string& iloc, const char* keyword, const std::string& kloc,
                                std::string msg) {
        ++errors;
        if (list == nullptr) return;
        list->insert(list->begin() + static_cast<std::ptrdiff_t>(at),
                     validation_error{keyword, kloc, iloc, std::move(msg)});
    }
    // An error whose keyword location is sloc + "/" + keyword and whose message is
    // before + middle + after.
    [[gnu::noinline]] void push_keyword(const std::string& iloc, const char* keyword, const std::string& sloc,
                                        std::string_view before, std::string_view middle, std::string_view after) {
        if (list == nullptr) {
            ++errors;
            return;
        }
        push_sub(errors, iloc, keyword, sloc + "/" + keyword, before, middle, after);
    }
    // A subschema's failure reported by the keyword that holds it, before the subschema's errors.
    [[gnu::noinline]] void push_sub(std::size_t at, const std::string& iloc, const char* keyword, const std::string& kloc,
                                    std::string_view before, std::string_view middle = {}, std::string_view after = {}) {
        if (list == nullptr) {
            ++errors;
            return;
        }
        std::string msg;
        msg.reserve(before.size() + middle.size() + after.size());
        msg.append(before).append(middle).append(after);
        push(at, iloc, keyword, kloc, std::move(msg));
    }
    // Drops the errors from `at` on (a subschema whose failure does not count).
    void drop_errors(std::size_t at) {
        errors = at;
        if (list != nullptr) list->resize(at);
    }
    bool child_location(std::string& out, const std::string& iloc, std::string_view key) {
        out = iloc;
        out += '/';
        if (append_encoded_pointer(out, key)) return true;
        exception = "URI malformed";
        return false;
    }

    bool eval(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc);
    // eval() recurses through these (see above).
    [[gnu::noinline]] void eval_ref(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc);
    [[gnu::noinline]] void eval_not(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc);
    [[gnu::noinline]] void eval_list(const std::vector<const node*>& list, const char* keyword, int mode, json_ref inst,
                                     const std::string& iloc, const std::string& sloc);
    [[gnu::noinline]] void eval_property_names(const node& s, json_ref inst, const std::string& iloc,
                                               const std::string& sloc);
    [[gnu::noinline]] bool eval_properties(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc);
    [[gnu::noinline]] void eval_additional(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc);
    [[gnu::noinline]] void eval_items(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc);
    // These do not.
    [[gnu::noinline]] void check_value(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc);
    [[gnu::noinline]] void check_required(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc);
    [[gnu::noinline]] void check_array(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc);
    [[gnu::noinline]] void check_unique(json_ref inst, const std::string& iloc, const std::string& sloc);
    [[gnu::noinline]] void check_scalar(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc);
};

// `s` then "/" then the decimal digits of `i`.
std::string with_index(const std::string& s, std::size_t i) {
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof digits, i);
    std::string out;
    out.reserve(s.size() + 1 + static_cast<std::size_t>(r.ptr - digits));
    out.append(s).append(1, '/').append(digits, r.ptr);
    return out;
}

bool evaluator::eval(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc) {
    if (s.f == node::form::always) return true;
    if (s.f == node::form::never) {
        push_sub(errors, iloc, "false", iloc, "False boolean schema.");
        return false;
    }
    const std::size_t start = errors;
    if (s.ref_target != nullptr) {
        eval_ref(s, inst, iloc, sloc);
        if (!exception.empty()) return false;
    }
    check_value(s, inst, iloc, sloc);
    if (s.not_schema != nullptr) {
        eval_not(s, inst, iloc, sloc);
        if (!exception.empty()) return false;
    }
    // anyOf and allOf keep their subschemas' errors only when they fail, after their own.
    if (s.any_of) eval_list(*s.any_of, "anyOf", 0, inst, iloc, sloc);
    if (s.all_of) eval_list(*s.all_of, "allOf", 1, inst, iloc, sloc);
    if (s.one_of) eval_list(*s.one_of, "oneOf", 2, inst, iloc, sloc);
    if (!exception.empty()) return false;
    switch (inst.kind()) {
        case kind_t::object:
            check_required(s, inst, iloc, sloc);
            if (s.property_names != nullptr) {
                eval_property_names(s, inst, iloc, sloc);
                if (!exception.empty()) return false;
            }
            // properties stops at its first failure, and then additionalProperties is not looked at.
            if (s.properties && !eval_properties(s, inst, iloc, sloc)) break;
            if (s.additional_properties != nullptr) eval_additional(s, inst, iloc, sloc);
            break;
        case kind_t::array:
            check_array(s, inst, iloc, sloc);
            if (s.items != nullptr) eval_items(s, inst, iloc, sloc);
            if (s.unique_items && exception.empty()) check_unique(inst, iloc, sloc);
            break;
        default: check_scalar(s, inst, iloc, sloc); break;
    }
    if (!exception.empty()) return false;
    return errors == start;
}

void evaluator::eval_ref(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc) {
    const std::string kloc = sloc + "/$ref";
    const std::size_t at = errors;
    const bool ok = eval(*s.ref_target, inst, iloc, kloc);
    if (exception.empty() && !ok) push_sub(at, iloc, "$ref", kloc, "A subschema had errors.");
}

void evaluator::check_value(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc) {
    const char* tname = type_name(inst.kind());
    if (s.has_type) {
        bool ok = false;
        const bool number = inst.kind() == kind_t::number;
        const double x = inst.number();
        if (s.type_list) {
            for (const std::string& t : s.types) {
                if (t == tname || (t == "integer" && number && std::fmod(x, 1.0) == 0 && x == x)) {
                    ok = true;
                    break;
                }
            }
        } else if (s.types[0] == "integer") {
            // `instance % 1 || instance !== instance` fails; NaN from Infinity % 1 does not.
            const double r = number ? std::fmod(x, 1.0) : 0;
            ok = number && !(r != 0 && !std::isnan(r)) && x == x;
        } else {
            ok = s.types[0] == tname;
        }
        if (!ok) {
            std::string expected;
            for (std::size_t i = 0; i < s.types.size(); ++i) expected += (i ? "\", \"" : "") + s.types[i];
            push(errors, iloc, "type", sloc + "/type",
                 std::string("Instance type \"") + tname + "\" is invalid. Expected \"" + expected + "\".");
        }
    }
    if (s.const_value && !js_equal(inst, s.const_value)) {
        push_keyword(iloc, "const", sloc, "Instance does not match ", stringify_json(s.const_value), ".");
    }
    if (s.enum_values) {
        bool any = false;
        for (const auto& v : s.enum_values) any = any || js_equal(inst, v.value);
        if (!any) push_keyword(iloc, "enum", sloc, "Instance does not match any of ", stringify_json(s.enum_values), ".");
    }
}

void evaluator::eval_not(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc) {
    const std::string kloc = sloc + "/not";
    const std::size_t at = errors;
    const bool ok = eval(*s.not_schema, inst, iloc, kloc);
    if (!exception.empty()) return;
    drop_errors(at);
    if (ok) push_sub(errors, iloc, "not", kloc, "Instance matched \"not\" schema.");
}

// anyOf (mode 0), allOf (1) or oneOf (2).
void evaluator::eval_list(const std::vector<const node*>& subs, const char* keyword, int mode, json_ref inst,
                          const std::string& iloc, const std::string& sloc) {
    std::string kloc = sloc;
    kloc.append(1, '/').append(keyword);
    const std::size_t at = errors;
    std::size_t matches = 0;
    for (std::size_t i = 0; i < subs.size(); ++i) {
        matches += eval(*subs[i], inst, iloc, with_index(kloc, i));
        if (!exception.empty()) return;
    }
    const bool ok = mode == 0 ? matches > 0 : mode == 1 ? matches == subs.size() : matches == 1;
    if (ok) {
        drop_errors(at);
    } else if (mode == 0) {
        push_sub(at, iloc, keyword, kloc, "Instance does not match any subschemas.");
    } else if (mode == 1) {
        push_sub(at, iloc, keyword, kloc, "Instance does not match every subschema.");
    } else {
        push_sub(at, iloc, keyword, kloc, "Instance does not match exactly one subschema (", std::to_string(matches),
                 " matches).");
    }
}

void evaluator::check_required(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc) {
    if (!s.required) return;
    for (const std::string& key : *s.required) {
        if (!inst.find(key)) push_keyword(iloc, "required", sloc, "Instance does not have required property \"", key, "\".");
    }
}

void evaluator::eval_property_names(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc) {
    const std::string kloc = sloc + "/propertyNames";
    std::string child;
    for (const auto& member : inst) {
        if (!child_location(child, iloc, member.key)) return;
        const std::size_t at = errors;
        if (!eval(*s.property_names, member.key_value(), child, kloc)) {
            if (!exception.empty()) return;
            push_sub(at, iloc, "propertyNames", kloc, "Property name \"", member.key, "\" does not match schema.");
        }
    }
}

// False at the first property that does not match (or on an exception).
bool evaluator::eval_properties(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc) {
    const std::string kloc = sloc + "/properties";
    std::string child, skloc;
    for (const auto& [key, sub] : *s.properties) {
        const json_ref v = inst.find(key);
        if (!v) continue;
        if (!child_location(child, iloc, key)) return false;
        const std::size_t at = errors;
        skloc = kloc;
        skloc += '/';
        append_encoded_pointer(skloc, key);
        if (!eval(*sub, v, child, skloc)) {
            if (exception.empty()) push_sub(at, iloc, "properties", kloc, "Property \"", key, "\" does not match schema.");
            return false;
        }
    }
    return true;
}

void evaluator::eval_additional(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc) {
    const std::string kloc = sloc + "/additionalProperties";
    std::string child;
    for (const auto& [key, v] : inst) {
        bool evaluated = false;
        if (s.properties) {
            for (const auto& p : *s.properties) evaluated = evaluated || p.first == key;
        }
        if (evaluated) continue;
        if (!child_location(child, iloc, key)) return;
        const std::size_t at = errors;
        if (!eval(*s.additional_properties, v, child, kloc)) {
            if (!exception.empty()) return;
            push_sub(at, iloc, "additionalProperties", kloc, "Property \"", key,
                     "\" does not match additional properties schema.");
        }
    }
}

std::string js_template_number(double x) {
    std::string t;
    append_js_template_number(t, x);
    return t;
}

void evaluator::check_array(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc) {
    const double length = static_cast<double>(inst.size());
    if (s.max_items && length > *s.max_items) {
        push_keyword(iloc, "maxItems", sloc, "Array has too many items (",
                     js_template_number(length) + " > " + js_template_number(*s.max_items), ").");
    }
    if (s.min_items && length < *s.min_items) {
        push_keyword(iloc, "minItems", sloc, "Array has too few items (",
                     js_template_number(length) + " < " + js_template_number(*s.min_items), ").");
    }
}

void evaluator::eval_items(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc) {
    const std::string kloc = sloc + "/items";
    std::size_t i = 0;
    for (const auto& item : inst) {
        const std::size_t at = errors;
        if (!eval(*s.items, item.value, with_index(iloc, i++), kloc)) {
            if (exception.empty()) push_sub(at, iloc, "items", kloc, "Items did not match schema.");
            return;
        }
    }
}

void evaluator::check_unique(json_ref inst, const std::string& iloc, const std::string& sloc) {
    std::size_t j = 0, k = 0;
    if (first_duplicate(inst, j, k)) {
        push_keyword(iloc, "uniqueItems", sloc, "Duplicate items at indexes ",
                     std::to_string(j) + " and " + std::to_string(k), ".");
    }
}

void evaluator::check_scalar(const node& s, json_ref inst, const std::string& iloc, const std::string& sloc) {
    if (inst.kind() == kind_t::number) {
        const double x = inst.number();
        if (s.minimum && x < *s.minimum) {
            push_keyword(iloc, "minimum", sloc, js_template_number(x), " is less than ",
                         js_template_number(*s.minimum) + ".");
        }
        if (s.maximum && x > *s.maximum) {
            push_keyword(iloc, "maximum", sloc, js_template_number(x), " is greater than ",
                         js_template_number(*s.maximum) + ".");
        }
    } else if (inst.kind() == kind_t::string) {
        const std::string_view text = inst.string();
        const double length = s.min_length || s.max_length ? static_cast<double>(code_points(text)) : 0;
        if (s.min_length && length < *s.min_length) {
            push_keyword(iloc, "minLength", sloc, "String is too short (",
                         js_template_number(length) + " < " + js_template_number(*s.min_length), ").");
        }
        if (s.max_length && length > *s.max_length) {
            push_keyword(iloc, "maxLength", sloc, "String is too long (",
                         js_template_number(length) + " > " + js_template_number(*s.max_length), ").");
        }
        if (s.pattern && !re2::RE2::PartialMatch(text, *s.pattern)) {
            push_keyword(iloc, "pattern", sloc, "String does not match pattern.", {}, {});
        }
    }
}

}  // namespace

bool schema_set::validate(std::string_view id, json_ref instance, std::vector<validation_error>* errors,
                          std::string& exception) const {
    auto it = impl_->lookup.find(id);
    if (it == impl_->lookup.end()) {
        exception = "no schema " + std::string(id);
        return false;
    }
    evaluator ev{errors, exception};
    const bool ok = ev.eval(*it->second, instance, "#", "#");
    return ok && exception.empty();
}

}  // namespace plurnk::wire::detail
