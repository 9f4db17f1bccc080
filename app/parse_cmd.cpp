// `plurnk parse` and `plurnk batch`.
#include <fmt/core.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>

#include "commands.hpp"
#include "plurnk/plurnk.hpp"

namespace plurnk::cli {

namespace {

bool read_all(std::istream& in, std::string& out) {
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

// "--tier=NAME": sets `tier` and returns true; prints a usage error into `status` when unknown.
bool tier_option(const std::string& arg, plurnk::tier& tier, int& status) {
    if (arg.rfind("--tier=", 0) != 0) return false;
    auto t = plurnk::tier_from_name(std::string_view(arg).substr(7));
    if (!t) {
        status = usage_error(fmt::format("unknown tier '{}' (expected parse, statements, log or client)", arg.substr(7)));
    } else {
        tier = *t;
    }
    return true;
}

// "NAME=N" for the option `name` ("--chunk"): sets `value` to N (a positive integer) and returns
// true; prints a usage error into `status` when N is not one.
bool bytes_option(const std::string& arg, std::string_view name, std::size_t& value, int& status) {
    if (arg.size() <= name.size() || arg.compare(0, name.size(), name) != 0 || arg[name.size()] != '=') return false;
    const std::string_view n = std::string_view(arg).substr(name.size() + 1);
    std::size_t v = 0;
    const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
    if (n.empty() || ec != std::errc() || end != n.data() + n.size() || v == 0) {
        status = usage_error(fmt::format("{} expects a positive number of bytes, got '{}'", name, n));
    } else {
        value = v;
    }
    return true;
}

// --chunk=N and --max-input-bytes=N, shared by parse and batch.
struct run_options {
    std::size_t chunk = 0;
    plurnk::parse_options parse;

    bool take(const std::string& arg, int& status) {
        return bytes_option(arg, "--chunk", chunk, status) ||
               bytes_option(arg, "--max-input-bytes", parse.max_input_bytes, status);
    }
};

// Parses `input` in one shot (chunk 0), or feeds it to a stream_parser in `chunk`-byte pieces
// and returns finish()'s result, which must be the same.
plurnk::parse_result run_parse(std::string_view input, plurnk::tier tier, const run_options& o) {
    const std::size_t chunk = o.chunk;
    if (chunk == 0) return plurnk::parse(input, tier, o.parse);
    plurnk::stream_parser stream(tier, o.parse);
    for (std::size_t at = 0; at < input.size(); at += chunk) stream.feed(input.substr(at, chunk));
    return stream.finish();
}

}  // namespace

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

int cmd_parse(const args& a) {
    plurnk::tier tier = plurnk::tier::parse;
    bool pretty = false, allow_invalid = false;
    run_options run;
    std::optional<std::string> file;
    int status = 0;
    for (const auto& x : a) {
        if (tier_option(x, tier, status) || run.take(x, status)) {
            if (status != 0) return status;
        } else if (x == "--pretty") {
            pretty = true;
        } else if (x == "--allow-invalid-utf8") {
            allow_invalid = true;
        } else if (x == "-" || x.rfind('-', 0) != 0) {
            if (file) return usage_error("parse takes at most one FILE");
            file = x;
        } else {
            return usage_error(fmt::format("unknown option '{}'", x));
        }
    }
    std::string input;
    const std::string path = file.value_or("-");
    if (!read_input(path, input)) return 2;
    if (!allow_invalid) {
        if (const std::size_t bad = plurnk::first_invalid_utf8(input); bad != std::string_view::npos) {
            fmt::print(stderr, "plurnk: '{}' is not valid UTF-8 (byte {}); pass --allow-invalid-utf8 to parse it anyway\n",
                       path == "-" ? std::string("standard input") : path, bad);
            return 2;
        }
    }
    const auto result = run_parse(input, tier, run);
    // Written piece by piece: the JSON of a large result is many times the input.
    plurnk::write_json(result, [](std::string_view piece) { std::fwrite(piece.data(), 1, piece.size(), stdout); },
                       {.pretty = pretty});
    std::fputc('\n', stdout);
    return result.clean() ? 0 : 1;
}

int cmd_batch(const args& a) {
    std::optional<plurnk::tier> forced;
    run_options run;
    int status = 0;
    for (const auto& x : a) {
        plurnk::tier t = plurnk::tier::parse;
        if (tier_option(x, t, status)) {
            if (status != 0) return status;
            forced = t;
        } else if (run.take(x, status)) {
            if (status != 0) return status;
        } else {
            return usage_error(fmt::format("unknown option '{}'", x));
        }
    }
    std::ios::sync_with_stdio(false);
    std::string line, out;
    std::size_t line_no = 0;
    while (std::getline(std::cin, line)) {
        ++line_no;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const auto request = plurnk::parse_json(line);
        const plurnk::json_value* id = request ? request->find("id") : nullptr;
        const plurnk::json_value* input = request ? request->find("input") : nullptr;
        const plurnk::json_value* tier_v = request ? request->find("tier") : nullptr;
        if (input == nullptr || input->kind != plurnk::json_value::kind_t::string) {
            fmt::print(stderr, "plurnk: batch line {}: expected a JSON object with a string \"input\"\n", line_no);
            status = 1;
            continue;
        }
        plurnk::tier tier = forced.value_or(plurnk::tier::parse);
        if (!forced && tier_v != nullptr) {
            const auto t = tier_v->kind == plurnk::json_value::kind_t::string ? plurnk::tier_from_name(tier_v->string)
                                                                               : std::nullopt;
            if (!t) {
                fmt::print(stderr, "plurnk: batch line {}: unknown tier\n", line_no);
                status = 1;
                continue;
            }
            tier = *t;
        }
        const auto result = run_parse(input->string, tier, run);
        out.clear();
        out += "{\"id\":";
        if (id != nullptr) {
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

}  // namespace plurnk::cli
