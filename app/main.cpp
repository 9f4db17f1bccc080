// SPDX-License-Identifier: MIT
// The plurnk command-line tool: dispatches to the subcommands in commands.hpp. The global help
// and each command's --help come from one table, so no command or option is missing from either.
#include <fmt/core.h>

#include <array>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "commands.hpp"
#include "plurnk/version.hpp"

namespace {

using plurnk::cli::args;

struct command {
    const char* name;
    const char* synopsis;  // "parse [--tier=T] ... [FILE|-]"
    const char* summary;   // one line for the global help
    const char* help;      // the options, for `plurnk CMD --help`
    int (*run)(const args&);
};

constexpr const char* k_tiers = "parse (default; one PLAN-anchored turn), statements, log, client";

const std::array k_commands = {
    command{"parse",
            "parse [--tier=T] [--pretty] [--format=json|sarif] [--allow-invalid-utf8] [--chunk=N] [--max-input-bytes=N] "
            "[--spans] [--max-open-bytes=N] [FILE|-]",
            "parse FILE (or standard input) and print the result JSON",
            R"(  --tier=T               the grammar tier (see below)
  --pretty               indent the JSON two spaces
  --format=F             json (default: the result object) or sarif (a SARIF 2.1.0 log of the
                         diagnostics, for editors and CI)
  --allow-invalid-utf8   parse input that is not UTF-8 (each bad byte is one column, U+FFFD)
  --chunk=N              feed the input to the stream parser in N-byte chunks; the result is
                         identical to the one-shot parse
  --max-input-bytes=N    parse only the first N bytes (default and most: 4294967295); the
                         result then ends with an error item saying how much was left out
  --spans                add "span":{"start":B,"end":E} (input byte offsets) to every item
  --max-open-bytes=N     stream the input (one chunk unless --chunk) and print a runaway line
                         {"runaway":{...}} to standard error when an open statement or TURN
                         body holds more than N bytes; the result is unchanged
exit status: 0 no error item and no unparsedTail; 1 otherwise; 2 usage, file or output error
)",
            plurnk::cli::cmd_parse},
    command{"batch", "batch [--tier=T] [--chunk=N] [--max-input-bytes=N] [--spans]",
            "answer JSON Lines requests {\"id\",\"tier\",\"input\"} on standard input",
            R"(  --tier=T               parse every request in tier T, whatever its "tier" says
  --chunk=N              as for parse
  --max-input-bytes=N    as for parse, for each request's input
  --spans                as for parse
Every input line gets exactly one answer line, in order: {"id":ID,"result":{...}}, or
{"id":ID,"error":"..."} when the line is not a request (ID null when it is not a JSON object).
exit status: 0 every line answered with a result; 1 some with an error; 2 usage, read or
write error
)",
            plurnk::cli::cmd_batch},
    command{"bench", "bench [--tier=T] [--repeat=N] [--json] [--chunk=N [--events]] FILE...",
            "parse files repeatedly; print time per parse, MB/s, ns per statement, memory",
            R"(  --tier=T               the grammar tier
  --repeat=N             timed parses per file after one warm-up (default: about 0.5 s)
  --json                 time to_json on each result as well
  --chunk=N              also feed each file to the stream parser in N-byte chunks, right
                         after each one-shot parse, and print streamed/one-shot (CPU time)
  --events               with --chunk: set a callback on the stream, as a server that takes
                         each item as it settles does (with none, the stream batches its work)
Warns when a file parses with error items (a wrong --tier?) and when the median is far
from the best run (a noisy machine).
)",
            plurnk::cli::cmd_bench},
    command{"gbnf",
            "gbnf [--max-statements=N] [--suffixes=LIST] [--channel=gemma|think|none] "
            "[--channel-open=TEXT --channel-close=TEXT] [--stats]",
            "print the generation rail in llama.cpp's GBNF syntax",
            R"(  --max-statements=N     statements allowed between PLAN and the closing SEND
  --suffixes=LIST        comma-separated statement suffixes (default ",1,2"; empty = none)
  --channel=F            the reasoning block the turn starts with: gemma (default, the 1.4.0
                         shape), think (<think> ... </think>) or none (the turn starts at <<PLAN:)
  --channel-open=TEXT    your own reasoning-block opener (may be empty) ...
  --channel-close=TEXT   ... and closer, instead of --channel
  --stats                print the rule count and size to standard error
)",
            plurnk::cli::cmd_gbnf},
#ifdef PLURNK_HAVE_WIRE
    command{"validate", "validate --contract=NAME [--assert] [--json] [FILE|-] | validate --batch",
            "check a wire contract (doc/contracts.md)",
            R"(  --contract=NAME        one of the 18 contracts (Position, Notice, OperationResult, ...)
  --assert               also apply the contract's assert rule (the reference's error class)
  --json                 print {"valid","errors":[...]} instead of text
  --batch                answer JSON Lines {"id","contract","instance"} (or
                         {"id","contract":"Problems.create","args":[...]}) on standard input
exit status: 0 valid; 1 invalid; 2 usage or file error (--batch: 0)
)",
            plurnk::cli::cmd_validate},
#endif
    command{"score",
            "score [--tier=T] [--group-by=KEY] [--channel=LIST] [--jobs=N] [--json [--pretty]|--format=sarif] [--html=FILE] "
            "[--top=N] [FILE|DIR|-]... | score --merge REPORT.json...",
            "score model output: admission, diagnostic classes, turn shape, rail (doc/score.md)",
            R"(  FILE                   *.jsonl / *.ndjson: JSON Lines records {"id","model","tier","text"}
                         ("output", "completion", "response", "input" also name the text);
                         any other file is one turn; a DIR is read recursively; - (the default)
                         is JSON Lines on standard input
  --tier=T               every turn in tier T, whatever its record says
  --group-by=KEY         model (default), file, family (the id's leading letters), tier, id,
                         or any record field
  --channel=LIST         rail channels checked, comma separated (default gemma,think,none;
                         empty: none checked)
  --jobs=N               scoring threads (default: all cores); the report does not depend on it
  --json                 print the report as JSON (doc/score.md; reports merge exactly)
  --format=sarif         print every turn's diagnostics as one SARIF 2.1.0 log instead (an
                         artifact per turn: a file by its path, a record as FILE#ID)
  --pretty               indent that JSON
  --html=FILE            also write a self-contained HTML page with charts
  --top=N                diagnostic classes listed in the table and the page (default 10)
  --merge                read REPORT.json files written by --json and print their sum
Shows progress on standard error when it is a terminal.
exit status: 0 scored (whatever the turns' verdicts); 2 usage, file or report error
)",
            plurnk::cli::cmd_score},
    command{"fmt", "fmt [--tier=T] [--check] [FILE|-]",
            "print FILE (or standard input) with every statement in canonical form (doc/format.md)",
            R"(  --tier=T               the grammar tier (see below)
  --check                print nothing; exit 1 when the input is not canonical
Statements with errors, text and whitespace are left as they are; each diagnostic is printed to
standard error as FILE:LINE:COLUMN (1-based columns, in code points).
exit status: 0 formatted (--check: already canonical); 1 the input has errors (--check: or is
not canonical); 2 usage, file or output error
)",
            plurnk::cli::cmd_fmt},
};

// Options that take a value: `--tier statements` is read as `--tier=statements`.
constexpr std::array k_value_options = {"--tier", "--chunk", "--max-input-bytes", "--max-open-bytes", "--repeat", "--max-statements",
                                        "--suffixes", "--channel", "--channel-open", "--channel-close", "--contract",
                                        "--format", "--group-by", "--jobs", "--html", "--top"};

std::string global_usage() {
    std::string s = "usage: plurnk <command> [options]\n\ncommands:\n";
    for (const command& c : k_commands) s += fmt::format("  {}\n      {}\n", c.synopsis, c.summary);
    s += "  help, --help, -h [COMMAND]\n      show this text, or COMMAND's options\n";
    s += "  version, --version\n      show the tool and language versions\n\n";
    s += fmt::format("tiers (T): {}\n", k_tiers);
    s += "options taking a value accept `--name=VALUE` and `--name VALUE`\n";
    s += "run `plurnk COMMAND --help` for a command's options\n";
    s += "exit status: 0 success (parse: no error item, no unparsedTail); 1 parse errors or an\n"
         "  answered-with-error request; 2 usage, file or output error; 3 out of memory or internal error\n";
    return s;
}

std::string command_usage(const command& c) {
    return fmt::format("usage: plurnk {}\n  {}\n\n{}tiers (T): {}\n", c.synopsis, c.summary, c.help, k_tiers);
}

const command* find_command(std::string_view name) {
    for (const command& c : k_commands) {
        if (name == c.name) return &c;
    }
    return nullptr;
}

int run(args a) {
    using plurnk::cli::usage_error;
    using plurnk::cli::write_stdout;
    if (a.empty()) return usage_error("missing command");
    const std::string cmd = a.front();
    a.erase(a.begin());
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        if (a.empty()) return write_stdout(global_usage()) ? 0 : 2;
        const command* c = find_command(a.front());
        if (c == nullptr) return usage_error(fmt::format("unknown command '{}'", a.front()));
        return write_stdout(command_usage(*c)) ? 0 : 2;
    }
    if (cmd == "--version" || cmd == "-V" || cmd == "version") {
        return write_stdout(fmt::format("plurnk {} (PLURNK language {})\n", plurnk::k_version,
                                        plurnk::k_language_version))
                   ? 0
                   : 2;
    }
    const command* c = find_command(cmd);
    if (c == nullptr) return usage_error(fmt::format("unknown command '{}'", cmd));
    args joined;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i] == "--help" || a[i] == "-h") return write_stdout(command_usage(*c)) ? 0 : 2;
        bool takes_value = false;
        for (std::string_view o : k_value_options) takes_value = takes_value || a[i] == o;
        if (!takes_value) {
            joined.push_back(a[i]);
        } else if (i + 1 == a.size()) {
            return usage_error(fmt::format("{} needs a value", a[i]));
        } else {
            joined.push_back(a[i] + "=" + a[i + 1]);
            ++i;
        }
    }
    return c->run(joined);
}

}  // namespace

namespace plurnk::cli {

int usage_error(std::string_view message) {
    print_error(fmt::format("{}\n(run `plurnk --help` for usage)", message));
    return 2;
}

}  // namespace plurnk::cli

int main(int argc, char** argv) {
    // Nothing escapes: an allocation failure (a huge input) or any other exception is one line
    // and status 3, never std::terminate.
    try {
        return run(args(argv + 1, argv + argc));
    } catch (const std::bad_alloc&) {
        plurnk::cli::print_error("out of memory");
    } catch (const std::exception& e) {
        plurnk::cli::print_error(std::string("internal error: ") + e.what());
    } catch (...) {
        plurnk::cli::print_error("internal error");
    }
    return 3;
}
