// SPDX-License-Identifier: MIT
// `plurnk fmt`: the canonical form of a document (plurnk::format_source, doc/format.md). Every
// statement the parse admits is rewritten; statements with errors, text and whitespace are left
// as they are, and each diagnostic goes to standard error as FILE:LINE:COLUMN (1-based columns
// in code points, as editors count them). With --check nothing is printed on standard output and
// the exit status says whether the input already is canonical. With --to=D the text is migrated
// into dialect D (plurnk::migrate_source, doc/dialects.md) and each statement D cannot express is
// reported the same way.
#include <fmt/core.h>

#include <optional>
#include <string>

#include "commands.hpp"
#include "plurnk/plurnk.hpp"

namespace plurnk::cli {

namespace {

// "FILE:LINE:COLUMN: error: MESSAGE" for each diagnostic and the unparsed tail; returns whether
// any was an error (warnings are reported but do not count).
bool report_diagnostics(const std::string& name, const plurnk::parse_result& r) {
    bool errors = false;
    for (const plurnk::item& it : r.items) {
        const auto* d = std::get_if<plurnk::diagnostic>(&it);
        if (d == nullptr) continue;
        const bool error = d->severity == plurnk::severity::error;
        errors = errors || error;
        print_error(fmt::format("{}:{}:{}: {}: {}{}", name, d->position.line, d->position.column + 1,
                                error ? "error" : "warning", d->message, error ? " (left as it is)" : ""));
    }
    if (r.tail) {
        errors = true;
        print_error(fmt::format("{}:{}:{}: error: {} (the rest of the input is left as it is)", name, r.tail->from.line,
                                r.tail->from.column + 1, r.tail->reason));
    }
    return errors;
}

}  // namespace

int cmd_fmt(const args& a) {
    plurnk::tier tier = plurnk::tier::parse;
    plurnk::parse_options options;
    bool check = false;
    std::optional<plurnk::parse_dialect> to;
    std::optional<std::string> file;
    std::size_t max_input = SIZE_MAX - 1;
    int status = 0;
    for (const auto& x : a) {
        if (tier_option(x, tier, status) || bytes_option(x, "--max-input-bytes", max_input, status) ||
            dialect_option(x, options.dialect, status)) {
            if (status != 0) return status;
        } else if (x.rfind("--from=", 0) == 0 || x.rfind("--to=", 0) == 0) {
            const bool from = x[2] == 'f';
            plurnk::parse_dialect d{};
            if (dialect_option("--dialect=" + x.substr(from ? 7 : 5), d, status); status != 0) return status;
            (from ? options.dialect : to.emplace()) = d;
        } else if (x == "--check") {
            check = true;
        } else if (x == "-" || x.rfind('-', 0) != 0) {
            if (file) return usage_error("fmt takes at most one FILE");
            file = x;
        } else {
            return usage_error(fmt::format("unknown option '{}'", x));
        }
    }
    std::string input;
    const std::string path = file.value_or("-");
    if (!read_whole_input(path, input, max_input)) return 2;
    plurnk::parse_options borrowing = options;
    borrowing.borrow_input = true;  // `input` outlives the result: no second copy of it
    // The text goes out as it is made, in pieces of about 64 KB (never held whole); --check only
    // needs to know whether it differs.
    std::string buf;
    bool written = true;
    const auto flush = [&] {
        written = written && write_stdout(buf);
        buf.clear();
    };
    constexpr std::size_t k_piece = 64 << 10;
    const auto sink = [&](std::string_view piece) {
        if (check || !written) return;
        if (piece.size() >= k_piece) {  // a long run of the input: written from where it is
            if (!buf.empty()) flush();
            written = written && write_stdout(piece);
            return;
        }
        buf += piece;
        if (buf.size() >= k_piece) flush();
    };
    plurnk::source_migration sm;
    if (to) {
        sm = plurnk::migrate_source(input, tier, *to, borrowing, sink);
    } else {
        plurnk::source_format sf = plurnk::format_source(input, tier, borrowing, sink);
        sm.result = std::move(sf.result);
        sm.changed = sf.changed;
    }
    if (!check && !buf.empty()) flush();
    if (!written) return 2;
    const std::string name = path == "-" ? "<stdin>" : path;
    bool errors = report_diagnostics(name, sm.result);
    for (const plurnk::migration_note& n : sm.notes) {
        print_error(fmt::format("{}:{}:{}: error: {} (left as it is)", name, n.at.line, n.at.column + 1, n.message));
        errors = true;
    }
    if (check) {
        if (sm.changed) print_error(fmt::format("{} is not in canonical form (`plurnk fmt` prints it)", display_name(path)));
        return sm.changed || errors ? 1 : 0;
    }
    return errors ? 1 : 0;
}

}  // namespace plurnk::cli
