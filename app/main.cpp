// SPDX-License-Identifier: MIT
// The plurnk command-line tool: dispatches to the subcommands in commands.hpp. The global help
// and each command's --help come from one table, so no command or option is missing from either.
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <new>
#include <span>
#include <string_view>
#include <string>
#include <vector>

#include "commands.hpp"
#include "plurnk/version.hpp"

namespace {

using plurnk::cli::args;

// One option of a command: `name` ("--tier"; a name without the leading "--", such as "FILE",
// is an operand and only documented), the placeholder of its value ("T"; empty for a flag) and
// its help (lines after the first are indented under the first). Help, the check of the
// arguments, "did you mean" and the test of the documentation (test/cli_docs_test.py) all read
// these tables, so an option cannot be accepted without being documented, or the reverse.
struct option {
    std::string_view name;
    std::string_view value;
    std::string_view help;
};

struct command {
    std::string_view name;
    const char* synopsis;  // "parse [--tier=T] ... [FILE|-]"
    const char* summary;   // one line for the global help
    std::span<const option> options;
    const char* notes;     // after the options: what else to know, the exit status
    int (*run)(const args&);
};

constexpr const char* k_tiers = "parse (default; one PLAN-anchored turn), statements, log, client";

constexpr option k_parse_options[] = {
    {"--tier", "T", "the grammar tier (see below)"},
    {"--dialect", "D", "contracts (default: PLURNK 1.4.0) or service (the Plurnk Service\n"
                       "spelling: `#pattern#flags` regexes, regex targets; doc/dialects.md)"},
    {"--pretty", "", "indent the JSON two spaces"},
    {"--format", "F", "json (default: the result object) or sarif (a SARIF 2.1.0 log of the\n"
                      "diagnostics, for editors and CI)"},
    {"--allow-invalid-utf8", "", "parse input that is not UTF-8 (each bad byte is one column, U+FFFD)"},
    {"--chunk", "N", "feed the input to the stream parser in N-byte chunks; the result is\n"
                     "identical to the one-shot parse"},
    {"--max-input-bytes", "N", "parse only the first N bytes (default and most: 4294967295; no more\n"
                               "is read); the result then ends with an error item saying how much\n"
                               "was left out"},
    {"--spans", "", "add \"span\":{\"start\":B,\"end\":E} (input byte offsets) to every item"},
    {"--max-open-bytes", "N", "stream the input (one chunk unless --chunk) and print a runaway line\n"
                              "{\"runaway\":{...}} to standard error when an open statement or TURN\n"
                              "body holds more than N bytes; the result is unchanged"},
};

constexpr option k_batch_options[] = {
    {"--tier", "T", "parse every request in tier T, whatever its \"tier\" says"},
    {"--dialect", "D", "as for parse; a request's \"dialect\" field overrides it"},
    {"--chunk", "N", "as for parse"},
    {"--max-input-bytes", "N", "as for parse, for each request's input"},
    {"--spans", "", "as for parse"},
};

constexpr option k_bench_options[] = {
    {"--tier", "T", "the grammar tier"},
    {"--dialect", "D", "as for parse"},
    {"--repeat", "N", "timed parses per file after one warm-up (default: about 0.5 s)"},
    {"--json", "", "time to_json on each result as well"},
    {"--chunk", "N", "also feed each file to the stream parser in N-byte chunks, right\n"
                     "after each one-shot parse, and print streamed/one-shot (CPU time)"},
    {"--events", "", "with --chunk: set a callback on the stream, as a server that takes\n"
                     "each item as it settles does (with none, the stream batches its work)"},
};

constexpr option k_gbnf_options[] = {
    {"--dialect", "D", "contracts (default): the rail of PLURNK 1.4.0; service: the rail of\n"
                       "the Plurnk Service spelling (doc/rail.md)"},
    {"--max-statements", "N", "statements allowed between PLAN and the closing SEND"},
    {"--suffixes", "LIST", "comma-separated statement suffixes (default \",1,2\"; empty = none)"},
    {"--channel", "F", "the reasoning block the turn starts with: gemma (default, the 1.4.0\n"
                       "shape), think (<think> ... </think>) or none (the turn starts at <<PLAN:)"},
    {"--channel-open", "TEXT", "your own reasoning-block opener (may be empty) ..."},
    {"--channel-close", "TEXT", "... and closer, instead of --channel"},
    {"--stats", "", "print the rule count and size to standard error"},
};

#ifdef PLURNK_HAVE_WIRE
constexpr option k_validate_options[] = {
    {"--contract", "NAME", "one of the 18 contracts (Position, Notice, OperationResult, ...)"},
    {"--dialect", "D", "contracts (default) or service: the schemas of the service dialect's\n"
                       "results (doc/dialects.md); with --batch, a request's \"dialect\" overrides it"},
    {"--assert", "", "also apply the contract's assert rule (the reference's error class)"},
    {"--json", "", "print {\"valid\",\"errors\":[...]} instead of text"},
    {"--max-input-bytes", "N", "refuse (exit 2) an input longer than N bytes, reading no more"},
    {"--batch", "", "answer JSON Lines {\"id\",\"contract\",\"instance\"} (or\n"
                    "{\"id\",\"contract\":\"Problems.create\",\"args\":[...]}) on standard input"},
};
#endif

constexpr option k_score_options[] = {
    {"FILE", "", "*.jsonl / *.ndjson: JSON Lines records {\"id\",\"model\",\"tier\",\"text\"}\n"
                 "(\"output\", \"completion\", \"response\", \"input\" also name the text);\n"
                 "any other file is one turn; a DIR is read recursively; - (the default)\n"
                 "is JSON Lines on standard input"},
    {"--tier", "T", "every turn in tier T, whatever its record says"},
    {"--dialect", "D", "parse every turn in dialect D (as for parse), and check D's rail"},
    {"--text-field", "NAME", "the record field that holds the turn text (default: the first of\n"
                             "text, output, completion, response, input)"},
    {"--group-by", "KEY", "model (default), file, family (the id's leading letters), tier, id,\n"
                          "or any record field"},
    {"--channel", "LIST", "rail channels checked, comma separated (default gemma,think,none;\n"
                          "empty: none checked)"},
    {"--jobs", "N", "scoring threads (default: all cores); the report does not depend on it"},
    {"--json", "", "print the report as JSON (doc/score.md; reports merge exactly)"},
    {"--format", "F", "table (default), json (as --json), csv (every table as one tidy CSV),\n"
                      "latex (booktabs tables) or sarif: every turn's diagnostics as one\n"
                      "SARIF 2.1.0 log (an artifact per turn: a file by its path, a record\n"
                      "as FILE#ID)"},
    {"--pretty", "", "indent that JSON"},
    {"--html", "FILE", "also write a self-contained HTML page with charts"},
    {"--top", "N", "diagnostic classes listed in the table and the page (default 10)"},
    {"--merge", "", "read REPORT.json files written by --json and print their sum"},
};

constexpr option k_fmt_options[] = {
    {"--tier", "T", "the grammar tier (see below)"},
    {"--dialect", "D", "read (and write) dialect D, as for parse"},
    {"--from", "D", "read dialect D (the same as --dialect)"},
    {"--to", "D", "write dialect D: migrate the text (doc/dialects.md); what D cannot\n"
                  "express is left as it is and reported"},
    {"--check", "", "print nothing; exit 1 when the input is not canonical"},
    {"--max-input-bytes", "N", "refuse (exit 2) an input longer than N bytes, reading no more"},
};

int run_help(const args& a);
int run_version(const args& a);

const std::array k_commands = {
    command{"parse",
            "parse [--tier=T] [--dialect=D] [--pretty] [--format=json|sarif] [--allow-invalid-utf8] [--chunk=N] [--max-input-bytes=N] "
            "[--spans] [--max-open-bytes=N] [FILE|-]",
            "parse FILE (or standard input) and print the result JSON", k_parse_options,
            "--pretty and --spans shape the JSON: they do not combine with --format=sarif.\n"
            "exit status: 0 no error item and no unparsedTail; 1 otherwise; 2 usage, file or output error\n",
            plurnk::cli::cmd_parse},
    command{"batch", "batch [--tier=T] [--dialect=D] [--chunk=N] [--max-input-bytes=N] [--spans]",
            "answer JSON Lines requests {\"id\",\"tier\",\"input\"} on standard input", k_batch_options,
            R"(Every input line gets exactly one answer line, in order: {"id":ID,"result":{...}}, or
{"id":ID,"error":"..."} when the line is not a request (ID null when it is not a JSON object).
exit status: 0 every line answered with a result; 1 some with an error; 2 usage, read or
write error
)",
            plurnk::cli::cmd_batch},
    command{"bench", "bench [--tier=T] [--dialect=D] [--repeat=N] [--json] [--chunk=N [--events]] FILE...",
            "parse files repeatedly; print time per parse, MB/s, ns per statement, memory", k_bench_options,
            R"(Warns when a file parses with error items (a wrong --tier?) and when the median is far
from the best run (a noisy machine).
exit status: 0 measured; 2 usage or file error
)",
            plurnk::cli::cmd_bench},
    command{"gbnf",
            "gbnf [--dialect=D] [--max-statements=N] [--suffixes=LIST] [--channel=gemma|think|none] "
            "[--channel-open=TEXT --channel-close=TEXT] [--stats]",
            "print the generation rail in llama.cpp's GBNF syntax", k_gbnf_options,
            "exit status: 0 printed; 2 usage or output error\n", plurnk::cli::cmd_gbnf},
#ifdef PLURNK_HAVE_WIRE
    command{"validate", "validate --contract=NAME [--dialect=D] [--assert] [--json] [--max-input-bytes=N] [FILE|-] | validate --batch [--dialect=D]",
            "check a wire contract (doc/contracts.md)", k_validate_options,
            R"(exit status: 0 valid; 1 invalid; 2 usage, file or output error
exit status with --batch: 0 every line answered with a verdict; 1 some with an error;
2 usage, read or write error
)",
            plurnk::cli::cmd_validate},
#endif
    command{"score",
            "score [--tier=T] [--dialect=D] [--text-field=NAME] [--group-by=KEY] [--channel=LIST] [--jobs=N] [--json|--format=table|json|csv|latex|sarif] "
            "[--pretty] [--html=FILE] [--top=N] [FILE|DIR|-]... | score --merge [--json|--format=F] [--pretty] [--html=FILE] "
            "[--top=N] REPORT.json...",
            "score model output: admission, diagnostic classes, turn shape, rail (doc/score.md)", k_score_options,
            R"(One output: --json and --format exclude each other unless they agree, --pretty needs JSON,
and --format=sarif takes neither --html nor --merge.
Shows progress on standard error when it is a terminal.
exit status: 0 scored (whatever the turns' verdicts); 2 usage, file or report error, or no
record yielded a turn (the message names the fields the records had)
)",
            plurnk::cli::cmd_score},
    command{"fmt", "fmt [--tier=T] [--dialect=D | --from=D] [--to=D] [--check] [--max-input-bytes=N] [FILE|-]",
            "print FILE (or standard input) with every statement in canonical form (doc/format.md)", k_fmt_options,
            R"(Statements with errors, text and whitespace are left as they are; each diagnostic is printed to
standard error as FILE:LINE:COLUMN (1-based columns, in code points). With --to, so is each
statement that dialect cannot express (left as it is).
exit status: 0 formatted (--check: already canonical); 1 the input has errors or a statement
--to cannot express (--check: or is not canonical); 2 usage, file or output error
)",
            plurnk::cli::cmd_fmt},
    command{"help", "help [COMMAND]", "show this text, or COMMAND's options (also --help, -h)", {},
            "`plurnk COMMAND --help` prints the same as `plurnk help COMMAND`.\n", run_help},
    command{"version", "version",
            "show the tool version, the commit it was built from and the language version (also --version, -V)", {},
            "", run_version},
};

// Damerau-Levenshtein distance (optimal string alignment: a swap of neighbours is one edit), on
// ASCII case-folded bytes. Names are short, so the quadratic table costs nothing.
std::size_t edit_distance(std::string_view a, std::string_view b) {
    const auto fold = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = fold(a[i - 1]) == fold(b[j - 1]) ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) && fold(a[i - 2]) == fold(b[j - 1])) {
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
    }
    return d[a.size()][b.size()];
}

// " (did you mean 'X'?)" for the candidate closest to `typed` (a third of its letters wrong at
// most, or `typed` the start of exactly one candidate), else "".
std::string did_you_mean(std::string_view typed, const std::vector<std::string_view>& candidates) {
    std::string_view best;
    const std::size_t letters = typed.size() - std::min(typed.size(), typed.find_first_not_of('-'));
    std::size_t best_distance = std::max<std::size_t>(1, letters / 3) + 1;
    std::string_view prefixed;
    std::size_t prefixes = 0;
    for (std::string_view c : candidates) {
        if (const std::size_t d = edit_distance(typed, c); d < best_distance) {
            best = c;
            best_distance = d;
        }
        if (typed.size() >= 4 && c.size() > typed.size() && c.substr(0, typed.size()) == typed) {
            prefixed = c;
            ++prefixes;
        }
    }
    if (best.empty() && prefixes == 1) best = prefixed;
    return best.empty() ? std::string() : fmt::format(" (did you mean '{}'?)", best);
}

std::string global_usage() {
    std::string s = "usage: plurnk <command> [options]\n\ncommands:\n";
    for (const command& c : k_commands) s += fmt::format("  {}\n      {}\n", c.synopsis, c.summary);
    s += fmt::format("\ntiers (T): {}\n", k_tiers);
    s += "options taking a value accept `--name=VALUE` and `--name VALUE`\n";
    s += "run `plurnk COMMAND --help` for a command's options\n";
    s += "exit status: 0 success (parse: no error item, no unparsedTail); 1 parse errors or an\n"
         "  answered-with-error request; 2 usage, file or output error; 3 out of memory or internal error\n";
    return s;
}

bool is_option(const option& o) { return o.name.substr(0, 2) == "--"; }

std::string command_usage(const command& c) {
    std::string s = fmt::format("usage: plurnk {}\n  {}\n", c.synopsis, c.summary);
    if (!c.options.empty()) s += '\n';
    bool tiers = false;
    for (const option& o : c.options) {
        const std::string spelled = o.value.empty() ? std::string(o.name) : fmt::format("{}={}", o.name, o.value);
        std::string_view help = o.help;
        const std::size_t nl = help.find('\n');
        s += fmt::format("  {:<22} {}\n", spelled, help.substr(0, nl));
        for (std::size_t at = nl; at != std::string_view::npos;) {
            const std::size_t next = help.find('\n', at + 1);
            s += fmt::format("{:25}{}\n", "", help.substr(at + 1, next == std::string_view::npos ? next : next - at - 1));
            at = next;
        }
        tiers = tiers || o.name == "--tier";
    }
    if (*c.notes != '\0') s += fmt::format("\n{}", c.notes);
    if (tiers) s += fmt::format("tiers (T): {}\n", k_tiers);
    return s;
}

const command* find_command(std::string_view name) {
    for (const command& c : k_commands) {
        if (name == c.name) return &c;
    }
    return nullptr;
}

int unknown_command(std::string_view name) {
    std::vector<std::string_view> names;
    for (const command& c : k_commands) names.push_back(c.name);
    return plurnk::cli::usage_error(fmt::format("unknown command '{}'{}", name, did_you_mean(name, names)));
}

int run_help(const args& a) {
    using plurnk::cli::write_stdout;
    if (a.empty()) return write_stdout(global_usage()) ? 0 : 2;
    if (a.size() > 1) return plurnk::cli::usage_error("help takes at most one COMMAND");
    const command* c = find_command(a.front());
    if (c == nullptr) return unknown_command(a.front());
    return write_stdout(command_usage(*c)) ? 0 : 2;
}

int run_version(const args& a) {
    if (!a.empty()) return plurnk::cli::usage_error(fmt::format("version takes no argument, not '{}'", a.front()));
    return plurnk::cli::write_stdout(fmt::format("plurnk {} (commit {}; PLURNK language {})\n", plurnk::k_version,
                                                 plurnk::build_commit(), plurnk::k_language_version))
               ? 0
               : 2;
}

// Checks the arguments of `c` against its option table and joins `--name VALUE` into
// `--name=VALUE`; an unknown option or a missing value is a usage error (status in `status`).
bool normalize(const command& c, const args& a, args& joined, int& status) {
    using plurnk::cli::usage_error;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const std::string& x = a[i];
        if (x == "-" || x.empty() || x.front() != '-') {
            joined.push_back(x);
            continue;
        }
        const std::string_view name = std::string_view(x).substr(0, x.find('='));
        const option* found = nullptr;
        std::vector<std::string_view> names;
        for (const option& o : c.options) {
            if (!is_option(o)) continue;
            names.push_back(o.name);
            if (o.name == name) found = &o;
        }
        if (found == nullptr) {
            status = usage_error(fmt::format("unknown option '{}' for {}{}", name, c.name, did_you_mean(name, names)));
            return false;
        }
        if (found->value.empty()) {
            if (name.size() != x.size()) {
                status = usage_error(fmt::format("{} takes no value", name));
                return false;
            }
            joined.push_back(x);
        } else if (name.size() != x.size()) {
            joined.push_back(x);
        } else if (i + 1 == a.size()) {
            status = usage_error(fmt::format("{} needs a value", x));
            return false;
        } else {
            joined.push_back(x + "=" + a[++i]);
        }
    }
    return true;
}

int run(args a) {
    using plurnk::cli::usage_error;
    using plurnk::cli::write_stdout;
    if (a.empty()) return usage_error("missing command");
    std::string cmd = a.front();
    a.erase(a.begin());
    if (cmd == "--help" || cmd == "-h") cmd = "help";
    if (cmd == "--version" || cmd == "-V") cmd = "version";
    const command* c = find_command(cmd);
    if (c == nullptr) return unknown_command(cmd);
    for (const std::string& x : a) {
        if (x == "--help" || x == "-h") return write_stdout(command_usage(*c)) ? 0 : 2;
    }
    args joined;
    int status = 0;
    if (!normalize(*c, a, joined, status)) return status;
    return c->run(joined);
}

}  // namespace

namespace plurnk::cli {

int usage_error(std::string_view message) {
    // The message is one line (print_error escapes what it quotes); the hint is a line of its own.
    print_error(message);
    static constexpr std::string_view hint = "(run `plurnk --help` for usage)\n";
    static_cast<void>(std::fwrite(hint.data(), 1, hint.size(), stderr));
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
