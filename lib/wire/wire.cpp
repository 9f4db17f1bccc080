// SPDX-License-Identifier: MIT
// The wire contracts over the shipped schemas (compiled into the library by meson from schema/,
// see schemas.cpp.in): per-contract validate and assert with the extra rules and messages of
// ../shared/spec/WIRE.md, Problems.create with the reference's JavaScript semantics on any JSON
// arguments, and the root values. The schemas are loaded once, on first use; a schema the engine
// refuses is a build defect, reported by every validate call (as `exception`) and by the tests.
#include <re2/re2.h>

#include <cmath>
#include <mutex>

#include "plurnk/wire.hpp"
#include "schema_engine.hpp"
#include "base/utf8.hpp"

namespace plurnk::wire {

namespace detail {
extern const std::string_view k_schema_texts[k_contract_count];  // schemas.cpp, in enum order
extern const std::string_view k_service_schema_texts[k_service_variant_count];  // k_service_variants' order
}

namespace {

using kind_t = json_value::kind_t;

struct contract_info {
    const char* name;
    const char* error_class;  // nullptr: the reference has no assert method
    const char* prefix;       // of "invalid ...: " + errors
};

constexpr contract_info k_contracts[k_contract_count] = {
    {"Position", nullptr, "invalid Position: "},
    {"LineMarker", nullptr, "invalid LineMarker: "},
    {"ParsedPath", nullptr, "invalid ParsedPath: "},
    {"MatcherBody", nullptr, "invalid MatcherBody: "},
    {"SendBody", nullptr, "invalid SendBody: "},
    {"ResourceSelection", nullptr, "invalid ResourceSelection: "},
    {"PlurnkStatement", nullptr, "invalid PlurnkStatement: "},
    {"ClientStatement", nullptr, "invalid ClientStatement: "},
    {"Notice", "InvalidNoticeError", "invalid Notice: "},
    {"ProblemDetails", "InvalidProblemDetailsError", "invalid RFC 9457 Problem Details: "},
    {"OperationResult", "InvalidOperationResultError", "invalid operation result: "},
    {"EntryReadResult", "InvalidEntryReadResultError", "invalid EntryReadResult: "},
    {"TextRegion", "InvalidTextRegionError", "invalid TextRegion: "},
    {"LoopFlags", "InvalidLoopFlagsError", "invalid LoopFlags: "},
    {"ProposalDisposition", nullptr, "invalid ProposalDisposition: "},
    {"ProposalProjection", "InvalidProposalProjectionError", "invalid ProposalProjection: "},
    {"ClientDisplayCapabilities", nullptr, "invalid ClientDisplayCapabilities: "},
    {"ProviderCost", nullptr, "invalid ProviderCost: "},
};

// The contracts with a service variant, in the order of schemas.cpp's k_service_schema_texts.
constexpr contract k_service_variants[k_service_variant_count] = {
    contract::parsed_path, contract::resource_selection, contract::plurnk_statement, contract::client_statement};

// The index of c's service variant, or k_service_variant_count.
std::size_t service_variant(contract c) noexcept {
    std::size_t v = 0;
    while (v < k_service_variant_count && k_service_variants[v] != c) ++v;
    return v;
}

// Every schema and every service variant in one set (their "$id"s differ).
struct loaded {
    detail::schema_set set;
    std::string ids[k_contract_count];
    std::string service_ids[k_service_variant_count];
    std::string error;  // a schema the engine refused
};

// Adds one schema text to l, keeping its "$id" in id.
void load(loaded& l, std::string_view text, std::string_view what, std::string& id) {
    if (!l.error.empty()) return;
    if (auto e = l.set.add(text); !e.empty()) l.error = std::string(what) + ": " + e;
    if (auto doc = json_document::parse(text)) id = doc->root().find("$id").string();
}

const loaded& schemas() {
    static const loaded* l = [] {
        auto* r = new loaded;  // kept for the process's life
        for (std::size_t i = 0; i < k_contract_count; ++i) load(*r, detail::k_schema_texts[i], k_contracts[i].name, r->ids[i]);
        for (std::size_t v = 0; v < k_service_variant_count; ++v) {
            const std::string what = std::string("service/") + k_contracts[static_cast<std::size_t>(k_service_variants[v])].name;
            load(*r, detail::k_service_schema_texts[v], what, r->service_ids[v]);
        }
        if (r->error.empty()) r->error = r->set.resolve();
        return r;
    }();
    return *l;
}

std::string js_num(double x) {
    std::string s;
    detail::append_js_template_number(s, x);
    return s;
}

// The EntryReadResult suffix rule on a schema-valid value.
void entry_read_suffix(json_ref value, validation_result& r) {
    const json_ref entry = value.find("entry");
    if (entry.kind() != kind_t::object) return;
    const json_ref channels = entry.find("channels");
    for (const auto& [name, ch] : channels) {
        const json_ref content = ch.find("content");
        const json_ref offset = ch.find("contentOffset");
        const json_ref length = ch.find("contentLength");
        if (!content || !offset || !length) continue;
        const double returned = static_cast<double>(detail::code_points(content.string()));
        if (offset.number() + returned != length.number()) {
            // Built by appending into strings constructed in place (g++ 12 -O3 misreads
            // assignments and `"literal" + std::string` here as overlapping copies, -Wrestrict).
            std::string message("channel \"");
            message += name;
            message += "\": contentOffset ";
            message += js_num(offset.number());
            message += " + ";
            message += js_num(returned);
            message += " code points of content != contentLength ";
            message += js_num(length.number());
            std::string where("/entry/channels/");
            where += name;
            validation_error e{std::string("entry-read-suffix"), std::string("#"), std::move(where), std::move(message)};
            r.errors.push_back(std::move(e));
            r.valid = false;
            return;
        }
    }
}

}  // namespace

const char* contract_name(contract c) noexcept { return k_contracts[static_cast<std::size_t>(c)].name; }

std::optional<contract> contract_from_name(std::string_view name) noexcept {
    for (std::size_t i = 0; i < k_contract_count; ++i) {
        if (name == k_contracts[i].name) return static_cast<contract>(i);
    }
    return std::nullopt;
}

bool has_assert_method(contract c) noexcept { return k_contracts[static_cast<std::size_t>(c)].error_class != nullptr; }

bool has_service_variant(contract c) noexcept { return service_variant(c) < k_service_variant_count; }

std::string_view schema_text(contract c) noexcept { return detail::k_schema_texts[static_cast<std::size_t>(c)]; }
std::string_view schema_id(contract c) noexcept { return schemas().ids[static_cast<std::size_t>(c)]; }

std::string_view schema_text(contract c, parse_dialect d) noexcept {
    const std::size_t v = service_variant(c);
    return d == parse_dialect::service && v < k_service_variant_count ? detail::k_service_schema_texts[v] : schema_text(c);
}

std::string_view schema_id(contract c, parse_dialect d) noexcept {
    const std::size_t v = service_variant(c);
    return d == parse_dialect::service && v < k_service_variant_count ? std::string_view(schemas().service_ids[v]) : schema_id(c);
}

std::string errors_json(const std::vector<validation_error>& errors) {
    std::string out = "[";
    for (std::size_t i = 0; i < errors.size(); ++i) {
        const validation_error& e = errors[i];
        if (i) out += ',';
        out += "{\"instanceLocation\":";
        append_json_value_string(out, e.instance_location);
        out += ",\"keyword\":";
        append_json_value_string(out, e.keyword);
        out += ",\"keywordLocation\":";
        append_json_value_string(out, e.keyword_location);
        out += ",\"error\":";
        append_json_value_string(out, e.message);
        out += '}';
    }
    out += ']';
    return out;
}

// Whether `value` nests deeper than k_json_max_depth (counted without recursion): the schema
// engine, equality and copies recurse over a value, so deeper input is refused, as the reference's
// own recursion fails on it (RangeError), instead of overflowing the stack.
bool too_deep(const json_value& value) {
    std::vector<std::pair<const json_value*, int>> todo{{&value, 1}};
    while (!todo.empty()) {
        const auto [v, depth] = todo.back();
        todo.pop_back();
        if (depth > k_json_max_depth) return true;
        for (const json_value& x : v->array) todo.emplace_back(&x, depth + 1);
        for (const auto& m : v->object) todo.emplace_back(&m.second, depth + 1);
    }
    return false;
}

bool too_deep(json_ref value) {
    // The open containers' iterators, at most k_json_max_depth of them before the answer is known.
    std::vector<std::pair<json_ref::iterator, json_ref::iterator>> open;
    if (value.is_container()) open.emplace_back(value.begin(), value.end());
    while (!open.empty()) {
        auto& [it, end] = open.back();
        if (it == end) {
            open.pop_back();
            continue;
        }
        const json_ref child = (*it).value;  // at depth open.size() + 1
        ++it;
        if (open.size() + 1 > static_cast<std::size_t>(k_json_max_depth)) return true;
        if (child.is_container()) open.emplace_back(child.begin(), child.end());
    }
    return false;
}

validation_result validate(contract c, const json_value& value) { return validate(c, value, parse_dialect::contracts); }

validation_result validate(contract c, const json_value& value, parse_dialect d) {
    const json_document doc(value);
    return validate(c, doc.root(), d);
}

namespace {

// validate() in dialect d, keeping the errors or (keep_errors false) only counting them.
validation_result evaluate(contract c, json_ref value, parse_dialect d, bool keep_errors) {
    validation_result r;
    if (too_deep(value)) {
        r.exception = "value nests deeper than " + std::to_string(k_json_max_depth) + " levels";
        return r;
    }
    const loaded& l = schemas();
    if (!l.error.empty()) {
        r.exception = "schema refused: " + l.error;
        return r;
    }
    r.valid = l.set.validate(schema_id(c, d), value, keep_errors ? &r.errors : nullptr, r.exception);
    if (r.valid && c == contract::entry_read_result) entry_read_suffix(value, r);
    if (!keep_errors) r.errors.clear();  // the suffix rule's one error
    return r;
}

}  // namespace

validation_result validate(contract c, json_ref value) { return evaluate(c, value, parse_dialect::contracts, true); }
validation_result validate(contract c, json_ref value, parse_dialect d) { return evaluate(c, value, d, true); }
validation_result validate_verdict(contract c, json_ref value) { return evaluate(c, value, parse_dialect::contracts, false); }
validation_result validate_verdict(contract c, json_ref value, parse_dialect d) { return evaluate(c, value, d, false); }

validation_result validate_json(contract c, std::string_view json_text) {
    return validate_json(c, json_text, parse_dialect::contracts);
}

validation_result validate_json(contract c, std::string_view json_text, parse_dialect d) {
    const auto doc = json_document::parse(json_text);
    if (!doc) {
        validation_result r;
        r.exception = "invalid JSON";
        return r;
    }
    return validate(c, doc->root(), d);
}

assertion assert_contract(contract c, const json_value& value) { return assert_contract(c, value, parse_dialect::contracts); }

assertion assert_contract(contract c, const json_value& value, parse_dialect d) {
    const json_document doc(value);
    return assert_contract(c, doc.root(), d);
}

assertion assert_contract(contract c, json_ref value) { return assert_contract(c, value, parse_dialect::contracts); }

assertion assert_contract(contract c, json_ref value, parse_dialect d) {
    const contract_info& info = k_contracts[static_cast<std::size_t>(c)];
    assertion a;
    a.error_class = info.error_class != nullptr ? info.error_class : "InvalidContractError";
    const validation_result r = validate(c, value, d);
    if (!r.exception.empty()) {
        a.message = r.exception;
        return a;
    }
    if (!r.valid) {
        a.message = info.prefix + errors_json(r.errors);
        return a;
    }
    if (c == contract::operation_result || c == contract::entry_read_result) {
        const json_ref status = value.find("status");
        const json_ref pstatus = value.find("problem").find("status");
        if (pstatus && status && pstatus.number() != status.number()) {
            a.message = std::string(c == contract::operation_result ? "operation result" : "EntryReadResult") +
                        " status " + js_num(status.number()) + " does not match problem status " +
                        js_num(pstatus.number());
            return a;
        }
    } else if (c == contract::text_region) {
        const double sl = value.find("startLine").number(), sc = value.find("startColumn").number();
        const double el = value.find("endLine").number(), ec = value.find("endColumn").number();
        if (el < sl || (el == sl && ec < sc)) {
            a.message = "TextRegion ends before it starts";
            return a;
        }
    }
    a.ok = true;
    a.error_class.clear();
    return a;
}

const json_value& default_loop_flags() {
    static const json_value v = *parse_json(
        R"({"mode":"act","auto":false,"noWeb":false,"noInteraction":false,"noProposals":false})");
    return v;
}

const json_value& unknown_position() {
    static const json_value v = *parse_json(R"({"line":0,"column":0})");
    return v;
}

bool is_worker_name(std::string_view name) noexcept {
    static const re2::RE2 re{std::string(k_worker_name_pattern)};
    return re2::RE2::PartialMatch(name, re);
}

bool is_reserved_authority(std::string_view name) noexcept {
    for (std::string_view r : k_reserved_authorities) {
        if (name == r) return true;
    }
    return false;
}

namespace problems {

namespace {

constexpr std::string_view k_type_root = "https://problems.plurnk.dev";

// String(value) in JavaScript (arrays join their elements with ",", null and undefined elements
// as ""; objects are "[object Object]"). Nested arrays wait on a heap stack (the open arrays and
// the next index in each), so an argument as deep as k_json_max_depth needs no call stack.
void append_js_string(std::string& out, const json_value& v) {
    std::vector<std::pair<const json_value*, std::size_t>> open;
    const json_value* at = &v;
    while (at != nullptr) {
        switch (at->kind) {
            case kind_t::null: out += "null"; break;
            case kind_t::boolean: out += at->boolean ? "true" : "false"; break;
            case kind_t::number: detail::append_js_template_number(out, at->number); break;
            case kind_t::string: out += at->string; break;
            case kind_t::object: out += "[object Object]"; break;
            case kind_t::array: open.emplace_back(at, 0); break;
        }
        at = nullptr;
        while (at == nullptr && !open.empty()) {
            auto& [array, next] = open.back();
            if (next == array->array.size()) {
                open.pop_back();
                continue;
            }
            if (next != 0) out += ',';
            const json_value& element = array->array[next++];
            if (element.kind != kind_t::null) at = &element;
        }
    }
}

// A deep copy made with a work list: json_value's copy constructor recurses over the nesting
// depth (about 100 bytes of stack a level at -O2), and an argument may nest k_json_max_depth deep.
json_value copy_value(const json_value& from) {
    json_value to;
    std::vector<std::pair<const json_value*, json_value*>> todo{{&from, &to}};
    while (!todo.empty()) {
        const auto [source, target] = todo.back();
        todo.pop_back();
        target->kind = source->kind;
        target->boolean = source->boolean;
        target->number = source->number;
        target->string = source->string;
        // Each container is sized whole before its children are queued, so their addresses hold.
        target->array.resize(source->array.size());
        for (std::size_t i = 0; i < source->array.size(); ++i) todo.emplace_back(&source->array[i], &target->array[i]);
        target->object.reserve(source->object.size());
        for (const auto& member : source->object) target->object.emplace_back(member.first, json_value{});
        for (std::size_t i = 0; i < source->object.size(); ++i) {
            todo.emplace_back(&source->object[i].second, &target->object[i].second);
        }
    }
    return to;
}

// One WTF-8 string per UTF-16 unit of s (a supplementary character gives two lone surrogates).
std::vector<std::string> utf16_units(std::string_view s) {
    std::vector<std::string> units;
    auto unit = [](std::uint32_t u) {
        std::string t;
        plurnk::detail::append_utf16_unit(t, u);
        return t;
    };
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const std::size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        if (n == 4 && i + 4 <= s.size()) {
            const unsigned cp = ((b & 0x07u) << 18) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 12) |
                                ((static_cast<unsigned char>(s[i + 2]) & 0x3Fu) << 6) |
                                (static_cast<unsigned char>(s[i + 3]) & 0x3Fu);
            units.push_back(unit(0xD800 + ((cp - 0x10000) >> 10)));
            units.push_back(unit(0xDC00 + ((cp - 0x10000) & 0x3FF)));
        } else {
            units.emplace_back(s.substr(i, std::min(n, s.size() - i)));
        }
        i += n;
    }
    return units;
}

void set_member(json_value& obj, std::string_view key, json_value v) {
    for (auto& [k, old] : obj.object) {
        if (k == key) {
            old = std::move(v);
            return;
        }
    }
    obj.object.emplace_back(std::string(key), std::move(v));
}

json_value string_value(std::string s) {
    json_value v;
    v.kind = kind_t::string;
    v.string = std::move(s);
    return v;
}

result failure(std::string message) {
    result r;
    r.message = std::move(message);
    return r;
}

}  // namespace

std::string type_uri(std::string_view owner, std::string_view code) {
    std::string t(k_type_root);
    t += '/';
    for (char ch : owner) t += ch == ':' ? '/' : ch;
    t += '/';
    t += code;
    return t;
}

std::string default_title(std::string_view code) {
    std::string t(code);
    for (char& ch : t) {
        if (ch == '-') ch = ' ';
    }
    if (!t.empty() && t[0] >= 'a' && t[0] <= 'z') t[0] = static_cast<char>(t[0] - 'a' + 'A');
    return t;
}

result create(const json_value& owner, const json_value& code, const json_value& status, const json_value& detail,
              const json_value* extensions, const json_value* options) {
    for (const json_value* v : {&owner, &code, &status, &detail, extensions, options}) {
        if (v != nullptr && too_deep(*v)) {
            return failure("an argument nests deeper than " + std::to_string(k_json_max_depth) + " levels");
        }
    }
    static const re2::RE2 owner_re("^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)*$");
    static const re2::RE2 code_re("^[a-z][a-z0-9-]*$");
    // RegExp#test converts its argument with String().
    std::string owner_text, code_text;
    append_js_string(owner_text, owner);
    append_js_string(code_text, code);
    if (!re2::RE2::PartialMatch(owner_text, owner_re)) {
        return failure("problem owner must be a colon-delimited lowercase identifier; got " + stringify_json(owner));
    }
    if (!re2::RE2::PartialMatch(code_text, code_re)) {
        return failure("problem code must be a lowercase kebab-case identifier; got " + stringify_json(code));
    }
    // title = options.title ?? code.charAt(0).toUpperCase() + code.slice(1).replaceAll("-", " ")
    json_value title;
    const json_value* given = nullptr;
    if (options != nullptr) {
        if (options->kind == kind_t::null) return failure("Cannot read properties of null (reading 'title')");
        given = options->find("title");
    }
    if (given != nullptr && given->kind != kind_t::null) {
        title = copy_value(*given);
    } else if (code.kind == kind_t::string) {
        title = string_value(default_title(code.string));
    } else {
        return failure("code.charAt is not a function");
    }
    if (owner.kind != kind_t::string) return failure("owner.replaceAll is not a function");
    // { ...extensions, type, title, status, detail }
    json_value value;
    value.kind = kind_t::object;
    if (extensions != nullptr) {
        if (extensions->kind == kind_t::object) {
            value.object.reserve(extensions->object.size());
            for (const auto& [key, member] : extensions->object) value.object.emplace_back(key, copy_value(member));
        } else if (extensions->kind == kind_t::array) {
            for (std::size_t i = 0; i < extensions->array.size(); ++i) {
                value.object.emplace_back(std::to_string(i), copy_value(extensions->array[i]));
            }
        } else if (extensions->kind == kind_t::string) {
            const auto units = utf16_units(extensions->string);
            for (std::size_t i = 0; i < units.size(); ++i) value.object.emplace_back(std::to_string(i), string_value(units[i]));
        }
    }
    set_member(value, "type", string_value(type_uri(owner.string, code_text)));
    set_member(value, "title", std::move(title));
    set_member(value, "status", copy_value(status));
    set_member(value, "detail", copy_value(detail));
    const validation_result v = validate(contract::problem_details, value);
    if (!v.valid) {
        return failure(v.exception.empty() ? "invalid RFC 9457 Problem Details: " + errors_json(v.errors) : v.exception);
    }
    result r;
    r.ok = true;
    r.value = std::move(value);
    return r;
}

result create_args(const std::vector<json_value>& args) {
    if (args.size() < 4) return failure("create needs owner, code, status and detail");
    return create(args[0], args[1], args[2], args[3], args.size() > 4 ? &args[4] : nullptr,
                  args.size() > 5 ? &args[5] : nullptr);
}

result create(std::string_view owner, std::string_view code, int status, std::string_view detail,
              const json_value& extensions, std::string_view title) {
    const json_value o = string_value(std::string(owner)), c = string_value(std::string(code));
    json_value s;
    s.kind = kind_t::number;
    s.number = status;
    const json_value d = string_value(std::string(detail));
    json_value opts;
    opts.kind = kind_t::object;
    if (!title.empty()) opts.object.emplace_back("title", string_value(std::string(title)));
    return create(o, c, s, d, &extensions, &opts);
}

}  // namespace problems

}  // namespace plurnk::wire
