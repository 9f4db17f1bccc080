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
#include "schema_engine.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <random>

#include "plurnk/validate.hpp"
#include "base/work_counter.hpp"

namespace plurnk::wire::detail {

namespace {

using kind_t = json_value::kind_t;

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

// JSON Pointer token escaping (~ -> ~0, / -> ~1) as the reference's escapePointer.
std::string escape_pointer(std::string_view key) {
    std::string out;
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

// encodeURI(escapePointer(key)).replace(/#/g, '%23'); false where encodeURI throws (a lone
// surrogate, held as ED A0..BF xx).
bool append_encoded_pointer(std::string& out, std::string_view key) {
    static constexpr char k_hex[] = "0123456789ABCDEF";
    const std::string escaped = escape_pointer(key);
    for (std::size_t i = 0; i < escaped.size(); ++i) {
        const auto c = static_cast<unsigned char>(escaped[i]);
        if (c == 0xED && i + 1 < escaped.size() && static_cast<unsigned char>(escaped[i + 1]) >= 0xA0) return false;
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                                (c != 0 && std::string_view(";,/?:@&=+$-_.!~*'()").find(static_cast<char>(c)) !=
                                               std::string_view::npos);
        if (unreserved) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += k_hex[c >> 4];
            out += k_hex[c & 15];
        }
    }
    return true;
}

// === between two JSON values that are not both containers, and deepCompareStrict otherwise,
// without recursion: the pairs still to compare wait on a stack. Objects whose keys come in the
// same order are compared member by member; others by their members sorted by key (a value's
// keys are distinct), so a comparison is linear (n log n for objects in different orders) in the
// smaller value.
[[gnu::noinline]] bool js_equal(json_ref a, json_ref b) {
    std::vector<std::pair<json_ref, json_ref>> todo{{a, b}};
    std::vector<json_ref::member> am, bm;
    const auto by_key = [](const json_ref::member& x, const json_ref::member& y) { return x.key < y.key; };
    while (!todo.empty()) {
        const auto [x, y] = todo.back();
        todo.pop_back();
        plurnk::detail::count_values_compared(1);
        if (x.kind() != y.kind()) return false;
        switch (x.kind()) {
            case kind_t::null: break;
            case kind_t::boolean:
                if (x.boolean() != y.boolean()) return false;
                break;
            case kind_t::number:
                if (x.number() != y.number()) return false;
                break;
            case kind_t::string:
                if (x.string() != y.string()) return false;
                break;
            case kind_t::array: {
                auto i = x.begin(), j = y.begin();
                const auto xe = x.end(), ye = y.end();
                for (; i != xe && j != ye; ++i, ++j) todo.emplace_back((*i).value, (*j).value);
                if (i != xe || j != ye) return false;
                break;
            }
            case kind_t::object: {
                am.assign(x.begin(), x.end());
                bm.assign(y.begin(), y.end());
                if (am.size() != bm.size()) return false;
                bool same_order = true;
                for (std::size_t k = 0; k < am.size() && same_order; ++k) same_order = am[k].key == bm[k].key;
                if (!same_order) {
                    std::sort(am.begin(), am.end(), by_key);
                    std::sort(bm.begin(), bm.end(), by_key);
                }
                for (std::size_t k = 0; k < am.size(); ++k) {
                    if (am[k].key != bm[k].key) return false;
                    todo.emplace_back(am[k].value, bm[k].value);
                }
                break;
            }
        }
    }
    return true;
}

// A hash consistent with js_equal: equal values hash alike (a number by its value, so 0 and -0
// alike; an object's members in any order). Keyed per process, so that no text can be written to
// make distinct values collide. Iterative; validate() has refused values nested deeper than
// k_json_max_depth, so the stack stays small.
std::uint64_t mix(std::uint64_t h) noexcept {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

std::uint64_t hash_key() noexcept {
    static const std::uint64_t key = [] {
        std::uint64_t k = 0x9e3779b97f4a7c15ULL;
        try {
            std::random_device rd;
            k ^= (static_cast<std::uint64_t>(rd()) << 32) | rd();
        } catch (...) {  // no entropy source: a fixed key (a slower worst case, the same verdicts)
        }
        return k;
    }();
    return key;
}

std::uint64_t hash_bytes(std::string_view s, std::uint64_t h) noexcept {
    h = mix(h ^ s.size());
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, s.data() + i, 8);
        h = mix(h ^ w);
    }
    std::uint64_t tail = 0;
    if (i < s.size()) std::memcpy(&tail, s.data() + i, s.size() - i);
    return mix(h ^ tail ^ 0xff);
}

[[gnu::noinline]] std::uint64_t js_hash(json_ref v) {
    const std::uint64_t key = hash_key();
    const auto scalar = [key](json_ref x) -> std::uint64_t {
        switch (x.kind()) {
            case kind_t::null: return mix(key ^ 1);
            case kind_t::boolean: return mix(key ^ (x.boolean() ? 2 : 3));
            case kind_t::number: {
                const double d = x.number() == 0 ? 0.0 : x.number();
                std::uint64_t bits = 0;
                std::memcpy(&bits, &d, sizeof bits);
                return mix(mix(key ^ 4) ^ bits);
            }
            case kind_t::string: return hash_bytes(x.string(), key ^ 5);
            default: return 0;
        }
    };
    if (!v.is_container()) return scalar(v);
    struct frame {
        json_ref::iterator it, end;
        bool object;
        std::uint64_t acc, count;
        std::uint64_t key_hash;  // of this container's key in the object it is in
    };
    // An array's hash follows its elements' order; an object's adds its members' up.
    const auto fold = [](frame& f, std::uint64_t key_hash, std::uint64_t h) {
        ++f.count;
        if (f.object) f.acc += mix(key_hash ^ std::rotl(h, 23));
        else f.acc = mix(f.acc ^ h);
    };
    const auto open_frame = [key](json_ref c, std::uint64_t key_hash) {
        const bool object = c.kind() == kind_t::object;
        return frame{c.begin(), c.end(), object, mix(key ^ (object ? 6 : 7)), 0, key_hash};
    };
    std::vector<frame> open{open_frame(v, 0)};
    for (;;) {
        frame& f = open.back();
        if (f.it == f.end) {
            const std::uint64_t h = mix(f.acc ^ mix(f.count ^ (f.object ? 0xB : 0xA)));
            const std::uint64_t key_hash = f.key_hash;
            open.pop_back();
            if (open.empty()) return h;
            fold(open.back(), key_hash, h);
            continue;
        }
        const json_member m = *f.it;
        ++f.it;
        const std::uint64_t key_hash = f.object ? hash_bytes(m.key, key ^ 8) : 0;
        if (m.value.is_container()) open.push_back(open_frame(m.value, key_hash));
        else fold(f, key_hash, scalar(m.value));
    }
}

// uniqueItems as the reference checks it (every j, then every k != j, the first equal pair
// reported), in one pass: each element is looked up among the distinct values before it, in a
// hash table of their words that grows with them. The pair reported is the earliest value that
// comes again (j) and the first place it comes again (k). False when the items are distinct.
[[gnu::noinline]] bool first_duplicate(json_ref array, std::size_t& j, std::size_t& k) {
    const json_document& doc = *array.document();
    // A slot: the first item's word + 1 (0: empty) and the high half of its hash.
    std::vector<std::uint64_t> slots(16, 0);
    std::size_t used = 0;
    const auto insert = [&slots](std::uint64_t entry) {
        const std::size_t mask = slots.size() - 1;
        std::size_t i = static_cast<std::size_t>(entry >> 32) & mask;
        while (slots[i] != 0) i = (i + 1) & mask;
        slots[i] = entry;
    };
    std::uint32_t first_word = UINT32_MAX;  // the earliest repeated value's first word
    std::size_t index = 0;
    for (const auto& item : array) {
        const std::uint64_t tag = js_hash(item.value) >> 32;
        const std::size_t mask = slots.size() - 1;
        for (std::size_t i = static_cast<std::size_t>(tag) & mask;; i = (i + 1) & mask) {
            const std::uint64_t s = slots[i];
            if (s == 0) {
                slots[i] = (tag << 32) | (std::uint64_t{item.value.index()} + 1);
                if (++used * 4 > slots.size() * 3) {
                    std::vector<std::uint64_t> old(slots.size() * 2, 0);
                    old.swap(slots);
                    for (const std::uint64_t e : old) {
                        if (e != 0) insert(e);
                    }
                }
                break;
            }
            const auto word = static_cast<std::uint32_t>(s) - 1;
            if ((s >> 32) == tag && js_equal(doc.at(word), item.value)) {
                if (word < first_word) {
                    first_word = word;
                    k = index;
                }
                break;
            }
        }
        ++index;
    }
    if (first_word == UINT32_MAX) return false;
    j = 0;
    for (const auto& item : array) {
        if (item.value.index() == first_word) break;
        ++j;
    }
    return true;
}

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

struct schema_set::impl {
    std::deque<json_document> docs;
    std::deque<node> nodes;
    std::map<std::string, const node*, std::less<>> lookup;

    std::string compile(json_ref s, const std::string& base, const std::string& pointer, const node*& out);
    std::string compile_list(json_ref s, const std::string& base, const std::string& pointer,
                             std::optional<std::vector<const node*>>& out);
};

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
    auto number = [&](json_ref v, const std::string& key, std::optional<double>& to) -> std::string {
        if (v.kind() != kind_t::number) return n.where + ": " + key + " is not a number";
        to = v.number();
        return {};
    };
    for (const auto& [key_view, v] : s) {
        const std::string key(key_view);
        const std::string sub = pointer + "/" + escape_pointer(key);
        std::string e;
        if (key == "$schema" || key == "title" || key == "description" || key == "$comment") {
            continue;
        } else if (key == "$id") {
            if (!pointer.empty()) e = n.where + ": $id inside a document is not supported";
        } else if (key == "$defs") {
            if (v.kind() != kind_t::object) return n.where + ": $defs is not an object";
            for (const auto& [name, d] : v) {
                const node* ignored = nullptr;
                if (e = compile(d, base, sub + "/" + escape_pointer(name), ignored); !e.empty()) return e;
            }
        } else if (key == "$ref") {
            const std::string ref(v.string());
            if (v.kind() != kind_t::string) return n.where + ": $ref is not a string";
            if (ref.starts_with("#")) n.ref = base + ref;
            else if (ref.starts_with("https://")) n.ref = ref;
            else e = n.where + ": relative $ref " + ref + " is not supported";
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
                e = n.where + ": type is neither a string nor a list";
            }
        } else if (key == "const") {
            n.const_value = v;
        } else if (key == "enum") {
            if (v.kind() != kind_t::array) return n.where + ": enum is not an array";
            n.enum_values = v;
        } else if (key == "not") {
            e = compile(v, base, sub, n.not_schema);
        } else if (key == "propertyNames") {
            e = compile(v, base, sub, n.property_names);
        } else if (key == "additionalProperties") {
            e = compile(v, base, sub, n.additional_properties);
        } else if (key == "items") {
            if (v.kind() == kind_t::array) return n.where + ": items as an array is not supported";
            e = compile(v, base, sub, n.items);
        } else if (key == "anyOf") {
            e = compile_list(v, base, sub, n.any_of);
        } else if (key == "allOf") {
            e = compile_list(v, base, sub, n.all_of);
        } else if (key == "oneOf") {
            e = compile_list(v, base, sub, n.one_of);
        } else if (key == "required") {
            if (v.kind() != kind_t::array) return n.where + ": required is not an array";
            n.required.emplace();
            for (const auto& r : v) {
                if (r.value.kind() != kind_t::string) return n.where + ": required holds a non-string";
                n.required->emplace_back(r.value.string());
            }
        } else if (key == "properties") {
            if (v.kind() != kind_t::object) return n.where + ": properties is not an object";
            n.properties.emplace();
            for (const auto& [name, d] : v) {
                const node* p = nullptr;
                if (e = compile(d, base, sub + "/" + escape_pointer(name), p); !e.empty()) return e;
                n.properties->emplace_back(std::string(name), p);
            }
        } else if (key == "minimum") {
            e = number(v, key, n.minimum);
        } else if (key == "maximum") {
            e = number(v, key, n.maximum);
        } else if (key == "minItems") {
            e = number(v, key, n.min_items);
        } else if (key == "maxItems") {
            e = number(v, key, n.max_items);
        } else if (key == "minLength") {
            e = number(v, key, n.min_length);
        } else if (key == "maxLength") {
            e = number(v, key, n.max_length);
        } else if (key == "uniqueItems") {
            if (v.kind() != kind_t::boolean) return n.where + ": uniqueItems is not a boolean";
            n.unique_items = v.boolean();
        } else if (key == "pattern") {
            const std::string pattern(v.string());
            if (v.kind() != kind_t::string) return n.where + ": pattern is not a string";
            if (auto why = outside_pattern_subset(pattern); !why.empty()) {
                return n.where + ": pattern " + pattern + " is outside the supported subset (" + why + ")";
            }
            if (!validate_regex(pattern, "u")) return n.where + ": pattern " + pattern + " is not a u-mode RegExp";
            re2::RE2::Options o;
            o.set_log_errors(false);
            n.pattern = std::make_unique<re2::RE2>(pattern, o);
            if (!n.pattern->ok()) e = n.where + ": RE2 refuses pattern " + pattern;
        } else {
            e = n.where + ": keyword " + key + " is not supported";
        }
        if (!e.empty()) return e;
    }
    return {};
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

std::size_t code_points(std::string_view s) noexcept {
    std::size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

void append_js_template_number(std::string& out, double x) {
    if (std::isinf(x)) out += x > 0 ? "Infinity" : "-Infinity";
    else append_js_number(out, x);
}

namespace {

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
