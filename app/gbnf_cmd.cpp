// SPDX-License-Identifier: MIT
// `plurnk gbnf [--max-statements=N] [--suffixes=LIST] [--channel=gemma|think|none]
// [--channel-open=TEXT --channel-close=TEXT] [--stats]`: writes the generation rail (SPEC §1.2)
// in llama.cpp's GBNF syntax to standard output. LIST is comma separated and an empty entry is
// the empty suffix, so the default is `--suffixes=,1,2`. --channel picks the reasoning channel
// the turn starts with (default gemma, the 1.4.0 shape); --channel-open/--channel-close give a
// custom one instead (the open literal may be empty). --stats prints the rule count and size to
// standard error as well.
#include <fmt/core.h>

#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/rail.hpp"

namespace plurnk::cli {

namespace {

std::vector<std::string> split_commas(std::string_view s) {
    std::vector<std::string> out;
    for (;;) {
        const auto comma = s.find(',');
        out.emplace_back(s.substr(0, comma));
        if (comma == std::string_view::npos) return out;
        s.remove_prefix(comma + 1);
    }
}

}  // namespace

int cmd_gbnf(const args& a) {
    rail::options o;
    bool stats = false;
    bool named_channel = false;
    bool custom_channel = false;
    plurnk::parse_dialect dialect = plurnk::parse_dialect::contracts;
    for (const std::string& x : a) {
        const std::string_view v(x);
        int status = 0;
        if (dialect_option(x, dialect, status)) {
            if (status != 0) return status;
        } else if (v.rfind("--max-statements=", 0) == 0) {
            const std::string_view n = v.substr(17);
            std::size_t value = 0;
            const auto [ptr, ec] = std::from_chars(n.data(), n.data() + n.size(), value);
            if (n.empty() || ec != std::errc() || ptr != n.data() + n.size() || value > rail::k_max_statements_limit) {
                return usage_error(
                    fmt::format("--max-statements expects a count from 0 to {}", rail::k_max_statements_limit));
            }
            o.max_statements = value;
        } else if (v.rfind("--suffixes=", 0) == 0) {
            o.suffixes = split_commas(v.substr(11));
        } else if (v.rfind("--channel=", 0) == 0) {
            const auto f = rail::channel_from_name(v.substr(10));
            if (!f || *f == rail::channel_format::custom) {
                return usage_error("--channel expects gemma, think or none (or use --channel-open/--channel-close)");
            }
            o.channel = *f;
            named_channel = true;
        } else if (v.rfind("--channel-open=", 0) == 0) {
            o.channel_open = std::string(v.substr(15));
            custom_channel = true;
        } else if (v.rfind("--channel-close=", 0) == 0) {
            o.channel_close = std::string(v.substr(16));
            custom_channel = true;
        } else if (v == "--stats") {
            stats = true;
        } else {
            return usage_error(fmt::format("gbnf: unknown argument '{}'", x));
        }
    }
    o.dialect = dialect;  // the service dialect's rail: doc/rail.md, "The service dialect"
    if (custom_channel) {
        if (named_channel) return usage_error("gbnf: --channel and --channel-open/--channel-close exclude each other");
        o.channel = rail::channel_format::custom;
    }
    bool written = true;  // written as it is made (rail::write_gbnf); nothing more after a failed write
    const result<rail::gbnf_written> w =
        rail::write_gbnf(o, [&written](std::string_view piece) { written = written && write_stdout(piece); });
    if (!w) return usage_error(fmt::format("gbnf: {}", w.problem().message));
    if (!written) return 2;
    if (stats) print_error(fmt::format("gbnf: {} rules, {} bytes", w.value().rules, w.value().bytes));
    return 0;
}

}  // namespace plurnk::cli
