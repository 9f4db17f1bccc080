// SPDX-License-Identifier: MIT
// The canonical producer (SPEC §2 §canonical-statement, §5 §path-parentheses, §7
// §scope-marker-forms, §8): a statement written back as PLURNK text in the one spelling
// generators use. Slots come in signal -> target -> scope order with nothing between them; an
// empty body keeps both fences (`::OPsuffix`); scope numbers are comma-separated without spaces;
// targets carry the `\\`, `\(`, `\)` escapes, so every target string round-trips; and the suffix
// is one the body cannot close early (the statement's own when it is safe, else the shortest
// digit suffix that is). doc/format.md describes the rules and the guarantees.
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/ast.hpp"
#include "plurnk/parse.hpp"

namespace plurnk {

// Canonical text, or why there is none.
struct [[nodiscard]] format_result {
    std::string text;                  // the canonical text; "" when `error` is set
    std::optional<std::string> error;  // the part that PLURNK cannot spell, when there is one
    explicit operator bool() const noexcept { return !error.has_value(); }
};

// The canonical form of one statement: `<<OPsuffix[signal](target)<scope>:body:OPsuffix`.
// For every statement parse() admits, parsing the text (in a tier that admits its op) gives the
// statement back, position aside, and formatting that gives the same text. The text is the
// statement's own: `target.raw` (not the decomposed URL fields) is the target's spelling, the
// body's `raw` its body; a URL target built by hand with an empty `raw` is spelled from its
// fields. A statement built by hand fails (error set, text empty) when a part cannot be written:
// an op that is not a statement (TURN), a signal the op's slot does not take or a tag with `]`,
// `,`, whitespace or `<<`, a target with a line break, `<<` or a `<` the target slot refuses, a
// scope on an op without one, a number that is not finite, a SEND or KILL code that is not an
// integer, a WORK or FORK without a prompt.
// In `dialect`'s rows (the service dialect: OPEN/FOLD take a scope, WORK/FORK no signal, FORK's
// body is optional; doc/dialects.md).
format_result format(const statement& s, parse_dialect dialect = parse_dialect::contracts);

// The items of a result as one document: statements in canonical form and text items as they
// are, in order, each statement on its own line (text items that shared a line share it again,
// one space apart). Diagnostics are not text and are left out, and so is what they stand for: a
// result with errors loses the statements that failed, and a `log`-tier result its `<<TURN`
// wrappers (they are not items). format_source() keeps both. Fails when a statement does.
// Written in the dialect `r` was read in (r.dialect), or in `dialect` when given.
format_result format_turn(const parse_result& r);
format_result format_turn(const parse_result& r, parse_dialect dialect);

// The canonical form of a document: `input` with every statement the parse admits rewritten by
// format(), and everything else - text, the whitespace between statements, `<<TURN` wrappers,
// statements with errors, an unparsed tail - left byte for byte. `result` is the parse of
// `input` (for its diagnostics); `changed` says whether `text` differs from `input`. The text
// parses to the same items, positions aside, and is its own canonical form.
struct [[nodiscard]] source_format {
    std::string text;
    parse_result result;
    bool changed = false;
};
source_format format_source(std::string_view input, tier t, const parse_options& options = {});

// The same text handed to `write` a piece at a time (runs of `input` as they are, and canonical
// statements) instead of held: `text` of the answer is left empty, `changed` is set. A large
// document then costs the memory of its parse and no copy of it (plurnk fmt writes the pieces
// to standard output). A piece is valid only during the call.
using text_sink = std::function<void(std::string_view piece)>;
source_format format_source(std::string_view input, tier t, const parse_options& options, const text_sink& write);

}  // namespace plurnk

namespace plurnk {

// --- Migration between the dialects (doc/dialects.md) ----------------------------------------
// migrate() writes a statement read in one dialect in the spelling of `to`, so that `to` reads
// the text as the same statement: the canonical form (format()) of the statement with the parts
// whose spelling differs rewritten. Into `contracts` (from `service`): a `#pattern#flags` matcher
// becomes `/pattern/flags`, each `/` that would end the 1.4.0 pattern written `\/` and an empty
// pattern `(?:)` (ECMAScript's own spelling of a pattern between slashes, RegExp.prototype.source);
// a glob starting with one `/` gets a glob escape, `\/`. Into `service` (from `contracts`): a
// `/pattern/flags` matcher becomes `#pattern#flags`, each `#` written `\#` (`\x23` under the `u`
// or `v` flag, where `\#` is no valid escape); a glob starting with `#` is written `\#`. In
// either direction the matcher's pattern means what it meant and its flags stay. Targets,
// destinations and the rest are written as format() writes them in `to`.
// Fails (error set: why) for what `to` cannot express: into `contracts`, a regex target or
// destination, an OPEN/FOLD scope, a FORK without a prompt; into `service`, a WORK/FORK branch,
// a local target `#...` that would read as a regex path; and whatever format() refuses.
format_result migrate(const statement& s, parse_dialect to);

// One statement left as written by migrate_source(): where it is and why.
struct migration_note {
    position at;          // the statement's position (line 1-based, column 0-based in code points)
    std::string message;  // why `to` cannot express it
};

// `input`, read in options.dialect, rewritten into `to`: every statement the parse admits
// replaced by migrate()'s text, and everything else - text, whitespace, statements with errors
// (result's diagnostics), what `to` cannot express (one note each) - left byte for byte.
struct [[nodiscard]] source_migration {
    std::string text;
    parse_result result;                // the parse of `input` in options.dialect
    std::vector<migration_note> notes;  // in source order
    bool changed = false;
};
source_migration migrate_source(std::string_view input, tier t, parse_dialect to, const parse_options& options = {});
// The same text handed to `write` a piece at a time (`text` left empty), as format_source does.
source_migration migrate_source(std::string_view input, tier t, parse_dialect to, const parse_options& options,
                                const text_sink& write);

}  // namespace plurnk
