// The plurnk command-line tool: `parse` prints one result, `batch` answers JSON Lines requests
// (the conformance harness speaks it). Exit status: 0 clean result, 1 error items or an
// unparsed tail (or a failed request in batch), 2 usage error.
#include <fmt/core.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/plurnk.hpp"

namespace {

constexpr const char* k_usage = R"(usage: plurnk <command> [options]

commands:
  parse [--tier=T] [--pretty] [FILE|-]   parse FILE (or standard input) and print the result JSON
  batch [--tier=T]                       read JSON Lines {"id","tier","input"} on standard input,
                                         write {"id","result"} lines
  help                                   show this text
  version                                show the tool and language versions

tiers: parse (default; one PLAN-anchored turn), statements, log, client

exit status: 0 no error item and no unparsedTail; 1 otherwise; 2 usage or file error
)";

int usage_error(std::string_view message) {
    fmt::print(stderr, "plurnk: {}\n(run `plurnk --help` for usage)\n", message);
    return 2;
}

bool read_all(std::istream& in, std::string& out) {
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

// Reads FILE or standard input ("-"); prints a one-line message and returns false on failure.
bool read_input(const std::string& path, std::string& out) {
    if (path == "-") {
        if (!read_all(std::cin, out)) {
            fmt::print(stderr, "plurnk: cannot read standard input\n");
            return false;
        }
        return true;
    }
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        fmt::print(stderr, "plurnk: cannot open '{}': {}\n", path, std::strerror(errno));
        return false;
    }
    if (!read_all(f, out)) {
        fmt::print(stderr, "plurnk: cannot read '{}': {}\n", path, std::strerror(errno));
        return false;
    }
    return true;
}

std::optional<plurnk::tier> tier_option(std::string_view arg, bool& matched) {
    matched = arg.rfind("--tier=", 0) == 0;
    if (!matched) return std::nullopt;
    return plurnk::tier_from_name(arg.substr(7));
}

int cmd_parse(const std::vector<std::string>& args) {
    plurnk::tier tier = plurnk::tier::parse;
    bool pretty = false;
    std::optional<std::string> file;
    for (const auto& a : args) {
        bool is_tier = false;
        auto t = tier_option(a, is_tier);
        if (is_tier) {
            if (!t) return usage_error(fmt::format("unknown tier '{}'", a.substr(7)));
            tier = *t;
        } else if (a == "--pretty") {
            pretty = true;
        } else if (a == "-" || a.rfind("-", 0) != 0) {
            if (file) return usage_error("parse takes at most one FILE");
            file = a;
        } else {
            return usage_error(fmt::format("unknown option '{}'", a));
        }
    }
    std::string input;
    if (!read_input(file.value_or("-"), input)) return 2;
    const auto result = plurnk::parse(input, tier);
    std::string out = plurnk::to_json(result, {.pretty = pretty});
    out += '\n';
    std::fwrite(out.data(), 1, out.size(), stdout);
    return result.clean() ? 0 : 1;
}

int cmd_batch(const std::vector<std::string>& args) {
    std::optional<plurnk::tier> forced;
    for (const auto& a : args) {
        bool is_tier = false;
        auto t = tier_option(a, is_tier);
        if (!is_tier) return usage_error(fmt::format("unknown option '{}'", a));
        if (!t) return usage_error(fmt::format("unknown tier '{}'", a.substr(7)));
        forced = t;
    }
    std::ios::sync_with_stdio(false);
    std::string line, out;
    int status = 0;
    std::size_t line_no = 0;
    while (std::getline(std::cin, line)) {
        ++line_no;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        auto request = plurnk::parse_json(line);
        const plurnk::json_value* id = request ? request->find("id") : nullptr;
        const plurnk::json_value* input = request ? request->find("input") : nullptr;
        const plurnk::json_value* tier_v = request ? request->find("tier") : nullptr;
        if (!input || input->kind != plurnk::json_value::kind_t::string) {
            fmt::print(stderr, "plurnk: batch line {}: expected a JSON object with a string \"input\"\n", line_no);
            status = 1;
            continue;
        }
        plurnk::tier tier = forced.value_or(plurnk::tier::parse);
        if (!forced && tier_v) {
            auto t = tier_v->kind == plurnk::json_value::kind_t::string ? plurnk::tier_from_name(tier_v->string)
                                                                         : std::nullopt;
            if (!t) {
                fmt::print(stderr, "plurnk: batch line {}: unknown tier\n", line_no);
                status = 1;
                continue;
            }
            tier = *t;
        }
        const auto result = plurnk::parse(input->string, tier);
        out.clear();
        out += "{\"id\":";
        if (id) {
            plurnk::append_json_value(out, *id);
        } else {
            out += "null";
        }
        out += ",\"result\":";
        plurnk::append_json(out, result);
        out += "}\n";
        std::fwrite(out.data(), 1, out.size(), stdout);
    }
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) return usage_error("missing command");
    const std::string cmd = args.front();
    args.erase(args.begin());
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        fmt::print("{}", k_usage);
        return 0;
    }
    if (cmd == "--version" || cmd == "version") {
        fmt::print("plurnk {} (PLURNK language {})\n", plurnk::k_version, plurnk::k_language_version);
        return 0;
    }
    for (const auto& a : args) {
        if (a == "--help" || a == "-h") {
            fmt::print("{}", k_usage);
            return 0;
        }
    }
    if (cmd == "parse") return cmd_parse(args);
    if (cmd == "batch") return cmd_batch(args);
    return usage_error(fmt::format("unknown command '{}'", cmd));
}
