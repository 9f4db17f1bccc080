// SPDX-License-Identifier: MIT
// `plurnk parse` and `plurnk batch`.
#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>
#include <string>

#include "commands.hpp"
#include "plurnk/plurnk.hpp"
#include "sarif.hpp"

namespace plurnk::cli {

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

bool dialect_option(const std::string& arg, plurnk::parse_dialect& dialect, int& status) {
    if (arg.rfind("--dialect=", 0) != 0) return false;
    auto d = plurnk::dialect_from_name(std::string_view(arg).substr(10));
    if (!d) {
        status = usage_error(fmt::format("unknown dialect '{}' (expected contracts or service)", arg.substr(10)));
    } else {
        dialect = *d;
    }
    return true;
}

bool bytes_option(const std::string& arg, std::string_view name, std::size_t& value, int& status) {
    if (arg.size() <= name.size() || arg.compare(0, name.size(), name) != 0 || arg[name.size()] != '=') return false;
    const std::string_view n = std::string_view(arg).substr(name.size() + 1);
    std::size_t v = 0;
    const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
    // A count too large for size_t is still a count: it asks for no limit, as the largest does.
    if (ec == std::errc::result_out_of_range && end == n.data() + n.size()) v = SIZE_MAX;
    else if (ec != std::errc() || end != n.data() + n.size()) v = 0;
    if (v == 0) {
        status = usage_error(fmt::format("{} expects a positive number of bytes, got '{}'", name, n));
    } else {
        value = v;
    }
    return true;
}

namespace {

// The bytes at the end of `s` that begin a UTF-8 sequence and stop short of its end (0 to 3).
std::size_t cut_sequence(std::string_view s) {
    for (std::size_t back = 1; back <= 3 && back <= s.size(); ++back) {
        const auto b = static_cast<unsigned char>(s[s.size() - back]);
        if ((b & 0xC0) == 0x80) continue;  // a continuation byte: look further back
        const std::size_t len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
        return len > back ? back : 0;
    }
    return 0;
}

// --chunk=N, --max-input-bytes=N, --dialect=D and --spans, shared by parse and batch
// (--max-open-bytes=N: parse only).
struct run_options {
    std::size_t chunk = 0;
    std::size_t max_open_bytes = 0;
    plurnk::parse_options parse;
    plurnk::json_options json;

    bool take(const std::string& arg, int& status) {
        if (arg == "--spans") {
            json.spans = true;
            return true;
        }
        return dialect_option(arg, parse.dialect, status) || bytes_option(arg, "--chunk", chunk, status) ||
               bytes_option(arg, "--max-input-bytes", parse.max_input_bytes, status);
    }
};

// The runaway line `parse --max-open-bytes` writes to standard error (doc/cli.md).
std::string runaway_line(const plurnk::open_info& o, std::size_t limit) {
    static constexpr const char* k_where[] = {"none", "slots", "signal", "target", "body", "turn"};
    std::string line = fmt::format("{{\"runaway\":{{\"op\":\"{}\",\"suffix\":", plurnk::op_name(o.op));
    plurnk::append_json_string(line, o.suffix);
    line += fmt::format(",\"where\":\"{}\",\"begin\":{},\"bytes\":{},\"openers\":{},\"turnDepth\":{},\"limit\":{}}}}}\n",
                        k_where[static_cast<int>(o.where)], o.begin, o.bytes, o.openers, o.turn_depth, limit);
    return line;
}

// Parses `input` in one shot (chunk 0, no runaway limit), or feeds it to a stream_parser in
// `chunk`-byte pieces (the whole input as one piece when only the limit is set) and returns
// finish()'s result, which must be the same.
// Every caller writes the result out before its input goes: the one-shot parse borrows the input
// instead of keeping a copy (one input's size less of peak memory).
// `total` is the size of the input `input` begins (more than input.size() when the read stopped
// at the limit): the bytes past it are fed as zeros, which the stream counts and does not keep,
// so the result is the one the whole input would give.
plurnk::parse_result run_parse(std::string_view input, plurnk::tier tier, const run_options& o,
                               std::uint64_t total = 0) {
    if (o.chunk == 0 && o.max_open_bytes == 0 && total <= input.size()) {
        plurnk::parse_options borrowing = o.parse;
        borrowing.borrow_input = true;
        return plurnk::parse(input, tier, borrowing);
    }
    const std::size_t chunk = o.chunk == 0 ? std::max<std::size_t>(input.size(), 1) : o.chunk;
    plurnk::stream_parser stream(tier, o.parse);
    if (o.max_open_bytes != 0) {
        stream.set_runaway_limit(o.max_open_bytes, [&o](const plurnk::open_info& info) {
            const std::string line = runaway_line(info, o.max_open_bytes);
            std::fwrite(line.data(), 1, line.size(), stderr);
        });
    }
    for (std::size_t at = 0; at < input.size(); at += chunk) stream.feed(input.substr(at, chunk));
    static const std::string k_zeros(1 << 16, '\0');
    for (std::uint64_t left = total > input.size() ? total - input.size() : 0; left > 0;) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, k_zeros.size()));
        stream.feed(std::string_view(k_zeros).substr(0, n));
        left -= n;
    }
    return stream.finish();
}

// Appends the one answer line for the request `line` (line number `line_no`): {"id","result"},
// or {"id","error"} (id null when the line is not a JSON object), setting `failed` then.
void answer_request(std::string_view line, std::size_t line_no, std::optional<plurnk::tier> forced,
                    const run_options& run, std::string& out, bool& failed) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const auto fail = [&](plurnk::json_ref id, std::string_view why) {
        append_error_answer(out, id, fmt::format("line {}: {}", line_no, why));
        failed = true;
    };
    if (line.find_first_not_of(" \t") == std::string_view::npos) return fail({}, "empty line (expected a request)");
    // Read compactly: a request's id may be any JSON value, megabytes of it.
    const auto request = plurnk::json_document::parse(line);
    if (!request) return fail({}, "not a JSON value (expected {\"id\",\"tier\",\"input\"})");
    const plurnk::json_ref root = request->root();
    if (root.kind() != plurnk::json_value::kind_t::object) {
        return fail({}, "not a JSON object (expected {\"id\",\"tier\",\"input\"})");
    }
    const plurnk::json_ref id = root.find("id");
    const plurnk::json_ref input = root.find("input");
    if (input.kind() != plurnk::json_value::kind_t::string) return fail(id, "\"input\" must be a string");
    plurnk::tier tier = forced.value_or(plurnk::tier::parse);
    if (const plurnk::json_ref tier_v = root.find("tier"); !forced && tier_v) {
        const auto t = tier_v.kind() == plurnk::json_value::kind_t::string ? plurnk::tier_from_name(tier_v.string())
                                                                            : std::nullopt;
        if (!t) return fail(id, "\"tier\" must be one of \"parse\", \"statements\", \"log\", \"client\"");
        tier = *t;
    }
    const run_options* with = &run;
    run_options own;
    if (const plurnk::json_ref d = root.find("dialect"); d) {
        const auto dialect =
            d.kind() == plurnk::json_value::kind_t::string ? plurnk::dialect_from_name(d.string()) : std::nullopt;
        if (!dialect) return fail(id, "\"dialect\" must be \"contracts\" or \"service\"");
        own = run;
        own.parse.dialect = *dialect;
        with = &own;
    }
    const auto result = run_parse(input.string(), tier, *with);
    append_answer_id(out, id);
    out += ",\"result\":";
    plurnk::write_json(result, [&out](std::string_view piece) { spill_answer(out, piece); }, with->json);
    out += "}\n";
}

}  // namespace

int cmd_parse(const args& a) {
    plurnk::tier tier = plurnk::tier::parse;
    bool pretty = false, allow_invalid = false, sarif = false;
    run_options run;
    std::optional<std::string> file;
    int status = 0;
    for (const auto& x : a) {
        if (tier_option(x, tier, status) || run.take(x, status) ||
            bytes_option(x, "--max-open-bytes", run.max_open_bytes, status)) {
            if (status != 0) return status;
        } else if (x == "--pretty") {
            pretty = true;
        } else if (x == "--format=json" || x == "--format=sarif") {
            sarif = x == "--format=sarif";
        } else if (x.rfind("--format=", 0) == 0) {
            return usage_error(fmt::format("unknown format '{}' (expected json or sarif)", x.substr(9)));
        } else if (x == "--allow-invalid-utf8") {
            allow_invalid = true;
        } else if (x == "-" || x.rfind('-', 0) != 0) {
            if (file) return usage_error("parse takes at most one FILE");
            file = x;
        } else {
            return usage_error(fmt::format("unknown option '{}'", x));
        }
    }
    if (sarif && (pretty || run.json.spans)) {
        return usage_error(fmt::format("{} shapes the JSON result: it does not combine with --format=sarif",
                                       pretty ? "--pretty" : "--spans"));
    }
    // Read no further than the parse looks (and a byte more, to know whether the input goes on).
    std::string input;
    const std::string path = file.value_or("-");
    std::uint64_t total = 0;
    const std::size_t limit = std::min(run.parse.max_input_bytes, plurnk::parse_options::k_max_input_bytes);
    if (!read_input(path, input, limit, total)) return 2;
    if (!allow_invalid) {
        // A character the limit cut in two is checked as far as it goes.
        const std::string_view checked =
            total > input.size() ? std::string_view(input).substr(0, input.size() - cut_sequence(input)) : input;
        if (const std::size_t bad = plurnk::first_invalid_utf8(checked); bad != std::string_view::npos) {
            print_error(fmt::format("{} is not valid UTF-8 (byte {}); pass --allow-invalid-utf8 to parse it anyway",
                                    display_name(path), bad));
            return 2;
        }
    }
    const auto result = run_parse(input, tier, run, total);
    if (sarif) {
        // Written piece by piece: a result per diagnostic is many times the input.
        sarif_writer log([](std::string_view piece) { return write_stdout(piece); });
        if (!log.add(sarif_file{path == "-" ? "stdin" : path, input, &result}) || !log.finish() || !write_stdout("\n")) {
            return 2;
        }
        return result.clean() ? 0 : 1;
    }
    run.json.pretty = pretty;
    // Written piece by piece: the JSON of a large result is many times the input.
    bool written = true;
    plurnk::write_json(
        result, [&written](std::string_view piece) { written = written && write_stdout(piece); }, run.json);
    if (!written || !write_stdout("\n")) return 2;
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
    bool failed = false;
    std::size_t line_no = 0;
    std::string out;
    const int io_status = for_each_stdin_line([&](std::string_view line) {
        ++line_no;
        out.clear();
        answer_request(line, line_no, forced, run, out, failed);
        return std::fwrite(out.data(), 1, out.size(), stdout) == out.size() && std::ferror(stdout) == 0;
    });
    if (io_status != 0) return io_status;
    return failed ? 1 : 0;
}

}  // namespace plurnk::cli
