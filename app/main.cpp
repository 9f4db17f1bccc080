// The plurnk command-line tool: dispatches to the subcommands in commands.hpp.
#include <fmt/core.h>

#include <string>
#include <vector>

#include "commands.hpp"
#include "plurnk/version.hpp"

namespace {

constexpr const char* k_usage = R"(usage: plurnk <command> [options]

commands:
  parse [--tier=T] [--pretty] [--allow-invalid-utf8] [--chunk=N] [--max-input-bytes=N] [FILE|-]
                              parse FILE (or standard input) and print the result JSON
  batch [--tier=T] [--chunk=N] [--max-input-bytes=N]
                              read JSON Lines {"id","tier","input"} on standard input and
                              write one {"id","result"} line per request
  bench [--tier=T] [--repeat=N] [--json] FILE...
                              parse files repeatedly; print MB/s, ns per statement, memory
                              (--json: time to_json as well)
  gbnf [--max-statements=N] [--suffixes=LIST] [--channel=gemma|think|none]
       [--channel-open=TEXT --channel-close=TEXT]
                              print the generation rail in llama.cpp's GBNF syntax
  validate --contract=NAME [--assert] [--json] [FILE|-] | validate --batch
                              check a wire contract (doc/contracts.md); --batch: JSON Lines
  help, --help                show this text
  version, --version          show the tool and language versions

tiers: parse (default; one PLAN-anchored turn), statements, log, client
--chunk=N (parse, batch): feed each input to the stream parser in N-byte chunks and print its
  final result, which is identical to the one-shot result
--max-input-bytes=N (parse, batch): parse only the first N bytes of each input (default and
  most: 4294967295); the result then ends with an error item saying how much was left out

exit status: 0 no error item and no unparsedTail; 1 otherwise; 2 usage or file error
)";

}  // namespace

namespace plurnk::cli {

int usage_error(std::string_view message) {
    fmt::print(stderr, "plurnk: {}\n(run `plurnk --help` for usage)\n", message);
    return 2;
}

}  // namespace plurnk::cli

int main(int argc, char** argv) {
    using namespace plurnk::cli;
    args a(argv + 1, argv + argc);
    if (a.empty()) return usage_error("missing command");
    const std::string cmd = a.front();
    a.erase(a.begin());
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        fmt::print("{}", k_usage);
        return 0;
    }
    if (cmd == "--version" || cmd == "version") {
        fmt::print("plurnk {} (PLURNK language {})\n", plurnk::k_version, plurnk::k_language_version);
        return 0;
    }
    for (const auto& x : a) {
        if (x == "--help" || x == "-h") {
            fmt::print("{}", k_usage);
            return 0;
        }
    }
    if (cmd == "parse") return cmd_parse(a);
    if (cmd == "batch") return cmd_batch(a);
    if (cmd == "bench") return cmd_bench(a);
    if (cmd == "gbnf") return cmd_gbnf(a);
#ifdef PLURNK_HAVE_WIRE
    if (cmd == "validate") return cmd_validate(a);
#endif
    return usage_error(fmt::format("unknown command '{}'", cmd));
}
