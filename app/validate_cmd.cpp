// SPDX-License-Identifier: MIT
// `plurnk validate`: the wire contracts (plurnk/wire.hpp) from the command line.
//   plurnk validate --contract=NAME [--dialect=D] [--assert] [--json] [FILE|-]
//     validates one JSON value; exit 0 valid, 1 invalid (errors printed), 2 usage or file error.
//     --dialect=service checks against the service dialect's schemas (doc/dialects.md).
//   plurnk validate --batch [--dialect=D]
//     JSON Lines {"id","contract","instance"} -> {"id","valid","asserted"} (a request's "dialect",
//     "contracts" or "service", overrides --dialect), and
//     {"id","contract":"Problems.create","args":[...]} -> {"id","ok","result"}; a request that
//     cannot be answered gets {"id","error"}. Blank lines are skipped; every other line is answered.
//     A request with "errors":true also gets the schema errors ("errors":[...], as errors_json).
#include <fmt/core.h>

#include <cstdio>
#include <string>

#include "commands.hpp"
#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/wire.hpp"

namespace plurnk::cli {

namespace {

using plurnk::json_ref;
using plurnk::json_value;
using kind_t = json_value::kind_t;
namespace wire = plurnk::wire;

std::string known_contracts() {
    std::string s;
    for (std::size_t i = 0; i < wire::k_contract_count; ++i) {
        if (i) s += ", ";
        s += wire::contract_name(static_cast<wire::contract>(i));
    }
    return s;
}

// Appends {"id","error"}; returns false (the line was answered with an error).
bool append_error_reply(std::string& out, json_ref id, std::string_view message) {
    append_answer_id(out, id);
    out += ",\"error\":";
    plurnk::append_json_value_string(out, message);
    out += "}\n";
    return false;
}

// Problems.create(...(args ?? [])): a string spreads into its code points; anything else that is
// not an array is not iterable, so create throws.
std::optional<std::vector<json_value>> spread_args(json_ref args) {
    std::vector<json_value> v;
    if (!args || args.kind() == kind_t::null) return v;
    if (args.kind() == kind_t::array) {
        for (const auto& a : args) v.push_back(plurnk::to_json_value(a.value));
        return v;
    }
    if (args.kind() != kind_t::string) return std::nullopt;
    const std::string_view s = args.string();
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        const std::size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        json_value c;
        c.kind = kind_t::string;
        c.string = s.substr(i, n);
        v.push_back(std::move(c));
        i += n;
    }
    return v;
}

// Appends the answer to one request line, validated in `dialect` unless the line says otherwise;
// false when it is an error answer.
bool answer(std::string& out, std::string_view line, plurnk::parse_dialect dialect) {
    // Read compactly: an instance (or an id) may be megabytes of JSON.
    const auto request = plurnk::json_document::parse(line);
    if (!request) return append_error_reply(out, {}, "bad request line: not JSON");
    const json_ref root = request->root();
    if (root.kind() != kind_t::object) return append_error_reply(out, {}, "bad request line: not an object");
    if (wire::too_deep(root)) {
        return append_error_reply(out, {}, "bad request line: nests deeper than " + std::to_string(plurnk::k_json_max_depth) + " levels");
    }
    const json_ref id = root.find("id");
    const json_ref contract = root.find("contract");
    if (contract.kind() != kind_t::string) return append_error_reply(out, id, "request has no string \"contract\"");
    if (contract.string() == "Problems.create") {
        const auto args = spread_args(root.find("args"));
        const auto r = args ? wire::problems::create_args(*args) : wire::problems::result{};
        append_answer_id(out, id);
        out += r.ok ? ",\"ok\":true,\"result\":" : ",\"ok\":false,\"result\":null";
        if (r.ok) plurnk::append_json_value(out, r.value);
        out += "}\n";
        return true;
    }
    const auto c = wire::contract_from_name(contract.string());
    if (!c) {
        std::string quoted;
        plurnk::append_json_value_string(quoted, contract.string());
        return append_error_reply(out, id, "unknown contract " + quoted);
    }
    if (const json_ref d = root.find("dialect"); d) {
        const auto named = d.kind() == kind_t::string ? plurnk::dialect_from_name(d.string()) : std::nullopt;
        if (!named) return append_error_reply(out, id, "\"dialect\" must be \"contracts\" or \"service\"");
        dialect = *named;
    }
    const json_ref instance = root.find("instance");
    if (!instance) return append_error_reply(out, id, "cannot validate: the request has no \"instance\"");
    const json_ref e = root.find("errors");
    const bool with_errors = e.kind() == kind_t::boolean && e.boolean();
    const auto v = with_errors ? wire::validate(*c, instance, dialect) : wire::validate_verdict(*c, instance, dialect);
    if (!v.exception.empty()) return append_error_reply(out, id, "cannot validate: " + v.exception);
    const bool asserted = v.valid && wire::assert_contract(*c, instance, dialect).ok;
    append_answer_id(out, id);
    out += v.valid ? ",\"valid\":true" : ",\"valid\":false";
    out += asserted ? ",\"asserted\":true" : ",\"asserted\":false";
    if (with_errors) out += ",\"errors\":" + wire::errors_json(v.errors);
    out += "}\n";
    return true;
}

// The JSON Lines service loop: one answer line per input line, in order, flushed whenever the
// loop waits for input (a client that sends one request and waits is answered at once). A blank
// line is answered with an error, as `plurnk batch` does, so answers stay in step with requests.
// Returns 0, 1 when some line was answered with an error, 2 after a read or write error.
int run_batch(plurnk::parse_dialect dialect) {
    std::string out;
    std::size_t line_no = 0;
    bool failed = false;
    const int rc = for_each_stdin_line([&](std::string_view line) {
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        out.clear();
        const bool answered =
            line.find_first_not_of(" \t") == std::string_view::npos
                ? append_error_reply(out, {}, "line " + std::to_string(line_no) + ": empty line (expected a request)")
                : answer(out, line, dialect);
        failed = failed || !answered;
        return std::fwrite(out.data(), 1, out.size(), stdout) == out.size() && std::ferror(stdout) == 0;
    });
    return rc != 0 ? rc : failed ? 1 : 0;
}

}  // namespace

int cmd_validate(const args& a) {
    std::string contract_name, path;
    bool batch = false, assert_mode = false, json_out = false;
    std::size_t max_input = SIZE_MAX - 1;
    auto dialect = plurnk::parse_dialect::contracts;
    int status = 0;
    for (const auto& x : a) {
        if (bytes_option(x, "--max-input-bytes", max_input, status) || dialect_option(x, dialect, status)) {
            if (status != 0) return status;
        } else if (x.rfind("--contract=", 0) == 0) contract_name = x.substr(11);
        else if (x == "--batch") batch = true;
        else if (x == "--assert") assert_mode = true;
        else if (x == "--json") json_out = true;
        else if (x == "-" || x.rfind("-", 0) != 0) {
            if (!path.empty()) return usage_error("validate takes one FILE");
            path = x;
        } else {
            return usage_error(fmt::format("unknown option '{}'", x));
        }
    }
    if (batch) {
        if (!contract_name.empty() || !path.empty() || assert_mode || json_out || max_input != SIZE_MAX - 1) {
            return usage_error("validate --batch takes no other option or FILE (but --dialect)");
        }
        return run_batch(dialect);
    }
    if (contract_name.empty()) return usage_error("validate needs --contract=NAME or --batch");
    const auto c = wire::contract_from_name(contract_name);
    if (!c) return usage_error(fmt::format("unknown contract '{}' (one of {})", contract_name, known_contracts()));
    std::string text;
    if (!read_whole_input(path.empty() ? "-" : path, text, max_input)) return 2;
    // Read compactly; the text goes as soon as it is read.
    const auto value = plurnk::json_document::parse(text);
    std::string().swap(text);
    wire::validation_result r;
    if (value) r = wire::validate(*c, value->root(), dialect);
    else r.exception = "invalid JSON";
    wire::assertion as;
    if (assert_mode && value && r.exception.empty()) as = wire::assert_contract(*c, value->root(), dialect);
    const bool ok = assert_mode ? as.ok : r.valid;
    std::string out;
    if (json_out) {
        out = ok ? "{\"valid\":true" : "{\"valid\":false";
        if (!r.exception.empty()) {
            out += ",\"exception\":";
            plurnk::append_json_value_string(out, r.exception);
        }
        out += ",\"errors\":" + wire::errors_json(r.errors);
        if (assert_mode && !ok && r.exception.empty()) {
            out += ",\"errorClass\":";
            plurnk::append_json_value_string(out, as.error_class);
            out += ",\"message\":";
            plurnk::append_json_value_string(out, as.message);
        }
        out += "}\n";
    } else if (ok) {
        out = fmt::format("valid {}\n", wire::contract_name(*c));
    } else if (!r.exception.empty()) {
        out = fmt::format("invalid {}: {}\n", wire::contract_name(*c), r.exception);
    } else if (r.valid) {  // only the assert rule failed
        out = fmt::format("invalid {}: {}: {}\n", wire::contract_name(*c), as.error_class, as.message);
    } else {
        out = fmt::format("invalid {}:\n", wire::contract_name(*c));
        for (const auto& e : r.errors) {
            out += fmt::format("  {} {} ({} at {})\n", e.instance_location, e.message, e.keyword, e.keyword_location);
        }
    }
    if (!write_stdout(out)) return 2;
    return ok ? 0 : 1;
}

}  // namespace plurnk::cli
