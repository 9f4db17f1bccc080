// SPDX-License-Identifier: MIT
// The OpenAI-compatible mapping (include/plurnk/serve.hpp): statements as tool calls, deltas as
// the `delta` of a chat.completion.chunk, and one JSON Schema per op for a request's `tools`,
// derived at first use from the statement schemas (schema/*.json, compiled in by meson.build).
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "plurnk/json.hpp"
#include "plurnk/serve.hpp"

namespace plurnk::openai {

namespace detail {
// schema/*.json as compiled in (schemas.cpp): the file name and its text.
struct schema_file {
    std::string_view name;
    std::string_view text;
};
extern const schema_file k_schema_files[];
extern const std::size_t k_schema_file_count;
}  // namespace detail

namespace {

void append_call(std::string& out, const statement& s, std::size_t call, const call_options& o) {
    out += "{\"id\":";
    std::string id(o.id_prefix);
    id += std::to_string(call);
    append_json_string(out, id);
    out += ",\"type\":\"function\",\"function\":{\"name\":\"";
    out += op_name(s.op);
    out += "\",\"arguments\":";
    append_json_string(out, arguments_json(s));
    out += "}}";
}

void append_calls(std::string& out, const delta& d, bool with_index, const call_options& o) {
    out += "\"tool_calls\":[";
    for (std::size_t i = 0; i < d.statements.size(); ++i) {
        if (i != 0) out += ',';
        const item it = d.statements[i];
        std::string call;
        append_call(call, std::get<statement>(it), d.first_call + i, o);
        if (with_index) {  // {"index":N, then the call's members
            out += "{\"index\":";
            out += std::to_string(d.first_call + i);
            out += ',';
            out.append(call, 1);
        } else {
            out += call;
        }
    }
    out += ']';
}

// ---- the tools' schemas ----

const char* description(op o) noexcept {
    switch (o) {
        case op::FIND: return "Find entries: the target or glob, a result range in the scope, and an optional matcher body.";
        case op::READ: return "Read the target (or what its glob or matcher selects), the scope's text region only when given.";
        case op::EDIT: return "Write the body to the file or entry, in the scope's text coordinates when given.";
        case op::COPY: return "Copy the source (the scope's region when given) to the destination selection in the body.";
        case op::MOVE: return "Move the source (the scope's region when given) to the destination selection in the body.";
        case op::OPEN: return "Open the log items the selection or the filter tags match.";
        case op::FOLD: return "Fold the log items the selection matches.";
        case op::SEND: return "Send the body as a message; a disposition code (102, 200, 202, 300, 499) ends the turn.";
        case op::EXEC: return "Run the body with the executor in the signal, in the target's working path.";
        case op::WORK: return "Spawn a fresh worker (worker://name) with the body as its prompt.";
        case op::FORK: return "Spawn a context-inheriting worker (worker://name) with the body as its prompt.";
        case op::KILL: return "Delete or terminate the target, with a target-specific code in the signal.";
        case op::PLAN: return "State the turn's intended goals.";
        case op::LOOK: return "A client statement: LOOK (client tier).";
        case op::BUFF: return "A client statement: BUFF (client tier).";
        default: return "";
    }
}

// The schemas compiled in, parsed, by file name.
const std::map<std::string, json_value, std::less<>>& schema_docs() {
    static const auto docs = [] {
        std::map<std::string, json_value, std::less<>> m;
        for (std::size_t i = 0; i < detail::k_schema_file_count; ++i) {
            std::optional<json_value> v = parse_json(detail::k_schema_files[i].text);
            if (!v) throw std::logic_error("plurnk: a compiled-in schema does not parse");
            m.emplace(std::string(detail::k_schema_files[i].name), std::move(*v));
        }
        return m;
    }();
    return docs;
}

const json_value& schema_doc(std::string_view file) {
    const auto& docs = schema_docs();
    const auto it = docs.find(file);
    if (it == docs.end()) throw std::logic_error("plurnk: a schema refers to one that is not compiled in");
    return it->second;
}

const json_value& def_of(const json_value& doc, std::string_view name) {
    const json_value* defs = doc.find("$defs");
    const json_value* d = defs != nullptr ? defs->find(name) : nullptr;
    if (d == nullptr) throw std::logic_error("plurnk: a schema refers to a $defs entry it does not have");
    return *d;
}

// `v` (a part of `doc`) with every "$ref" replaced by what it refers to, recursively, and the
// documents' own keywords ($schema, $id, title, $defs) left out: a schema that stands alone.
json_value resolved(const json_value& v, const json_value& doc) {
    if (v.kind == json_value::kind_t::array) {
        json_value out = v;
        for (json_value& e : out.array) e = resolved(e, doc);
        return out;
    }
    if (v.kind != json_value::kind_t::object) return v;
    if (const json_value* ref = v.find("$ref")) {
        const std::string_view r = ref->string;
        const std::size_t hash = r.find('#');
        const std::string_view where = r.substr(0, hash);
        const std::string_view path = hash == std::string_view::npos ? std::string_view{} : r.substr(hash + 1);
        const json_value& target_doc = where.empty() ? doc : schema_doc(where.substr(where.rfind('/') + 1));
        if (path.empty()) return resolved(target_doc, target_doc);
        if (!path.starts_with("/$defs/")) throw std::logic_error("plurnk: a schema reference this mapping does not follow");
        return resolved(def_of(target_doc, path.substr(7)), target_doc);
    }
    json_value out;
    out.kind = json_value::kind_t::object;
    for (const auto& [key, value] : v.object) {
        if (key == "$schema" || key == "$id" || key == "title" || key == "$defs") continue;
        out.object.emplace_back(key, resolved(value, doc));
    }
    return out;
}

// The statement schema of `o` with "op" and "position" taken out: its tool's parameters.
std::string make_parameters(op o) {
    const bool client = o == op::LOOK || o == op::BUFF;
    const json_value& doc = schema_doc(client ? "ClientStatement.json" : "PlurnkStatement.json");
    std::string name(op_name(o));
    for (std::size_t i = 1; i < name.size(); ++i) name[i] = static_cast<char>(name[i] - 'A' + 'a');
    json_value s = resolved(def_of(doc, name + "Statement"), doc);
    for (auto& [key, value] : s.object) {
        if (key == "properties") {
            std::erase_if(value.object, [](const auto& m) { return m.first == "op" || m.first == "position"; });
        } else if (key == "required") {
            std::erase_if(value.array, [](const json_value& e) { return e.string == "op" || e.string == "position"; });
        }
    }
    return stringify_json(s);
}

const std::string& parameters(op o) {
    static std::once_flag once;
    static std::string texts[k_op_count];
    std::call_once(once, [] {
        for (int i = 0; i < k_op_count; ++i) {
            const auto x = static_cast<op>(i);
            if (x != op::TURN) texts[i] = make_parameters(x);
        }
    });
    return texts[static_cast<int>(o)];
}

}  // namespace

std::string arguments_json(const statement& s) {
    // The statement's object is {"op":…,"suffix":…,…,"position":{"line":…,"column":…}}, its
    // members in that order (doc/library.md); the arguments are the members between.
    std::string full;
    append_json(full, s);
    const std::size_t from = full.find(",\"suffix\":");
    const std::size_t to = full.rfind(",\"position\":");
    std::string out = "{";
    out.append(full, from + 1, to - from - 1);
    out += '}';
    return out;
}

std::string tool_call_json(const statement& s, std::size_t call, const call_options& o) {
    std::string out;
    append_call(out, s, call, o);
    return out;
}

std::string chunk_delta_json(const delta& d, const call_options& o) {
    std::string out = "{";
    const auto sep = [&out] {
        if (out.size() > 1) out += ',';
    };
    if (!d.content.empty()) {
        out += "\"content\":";
        append_json_string(out, d.content);
    }
    if (!d.reasoning.empty()) {
        sep();
        out += "\"reasoning_content\":";
        append_json_string(out, d.reasoning);
    }
    if (!d.statements.empty()) {
        sep();
        append_calls(out, d, true, o);
    }
    out += '}';
    return out;
}

std::string message_json(const delta& whole, const call_options& o) {
    std::string out = "{\"role\":\"assistant\",\"content\":";
    if (whole.content.empty()) {
        out += "null";
    } else {
        append_json_string(out, whole.content);
    }
    if (!whole.reasoning.empty()) {
        out += ",\"reasoning_content\":";
        append_json_string(out, whole.reasoning);
    }
    if (!whole.statements.empty()) {
        out += ',';
        append_calls(out, whole, false, o);
    }
    out += '}';
    return out;
}

std::string parameters_json(op o) {
    if (o == op::TURN) throw std::invalid_argument("plurnk::openai::parameters_json: TURN is no tool");
    return parameters(o);
}

std::string tools_json(tier t) {
    std::string out = "[";
    for (int i = 0; i < k_op_count; ++i) {
        const auto o = static_cast<op>(i);
        if (o == op::TURN || ((o == op::LOOK || o == op::BUFF) && t != tier::client)) continue;
        if (out.size() > 1) out += ',';
        out += "{\"type\":\"function\",\"function\":{\"name\":\"";
        out += op_name(o);
        out += "\",\"description\":";
        append_json_string(out, description(o));
        out += ",\"parameters\":";
        out += parameters(o);
        out += "}}";
    }
    out += ']';
    return out;
}

}  // namespace plurnk::openai
