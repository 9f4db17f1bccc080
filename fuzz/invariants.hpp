// SPDX-License-Identifier: MIT
// The invariants every fuzz target asserts, shared with the regression test
// (test/regression_test.cpp) so a crash input replays exactly the checks that caught it.
// Each check_* function runs one entry point on one input and returns the first broken
// invariant as text ("" when all hold); fuzz targets abort() on a non-empty answer, the Catch2
// test fails with it. Header-only; needs nothing but the plurnk library, plus simdjson when the
// includer defines PLURNK_FUZZ_SIMDJSON (the fuzz build does).
//
// Invariants of a parse (any tier), as they actually hold for this parser:
//   P1  every position (items, unparsedTail.from) has line >= 1 and lies inside the input: its
//       line exists and its column is at most the number of code points on that line (a
//       position may sit at the very end of the input). Columns are counted the way the library
//       counts them (lib/position.hpp: a lead byte starts a sequence of the length its high bits
//       announce when enough continuation bytes follow, else the byte is one column).
//   P2  a statement's position is where its opener `<<OPsuffix` is written; a text item's
//       position is where its text is written (the input there starts with the text).
//   P3  statements and text items (not diagnostics) appear in strictly increasing input order.
//       Diagnostics are NOT ordered: errors no statement claimed are appended at the end in the
//       order the reference records them, and the parse tier's turn-shape error comes last.
//   P4  with an unparsedTail, its `from` is an opener `<<OP` in the input, and every item
//       starts strictly before it.
//   P5  determinism: parsing the same input twice gives byte-identical JSON.
//   P6  to_json output is valid UTF-8 JSON that parses back (plurnk::parse_json, and simdjson
//       when available), re-serializes to the same text (the writer is JSON.stringify), and the
//       pretty form parses to the same value.
//   P7  the CLI exit rule: clean() is true exactly when the JSON has no item of kind "error"
//       and no "unparsedTail" - recomputed from the JSON text, as a consumer would.
//   P8  chunked == one-shot: the push parser (stream.hpp) fed in any chunks, with a checkpoint
//       copied and restored on the way and settled input released as early as it may be,
//       finishes with the one-shot result (check_stream).
//   P9  max_input_bytes: parsing with the limit at k < size equals parsing the first k bytes,
//       plus one last lexer error item (check_input_limit).
//   P10 linear work: the lexer's and statement parser's work (lib/work_counter.hpp: bytes
//       examined, tokens, token fetches) is at most k_work_per_byte x the input size plus a
//       constant, one-shot and streamed in 1- to 16-byte chunks (check_work; fuzz_amplify runs
//       it on inputs repeated or nested to up to 256 KB). Checked only when the counter is
//       compiled in (not in release builds).
//   P11 the canonical producer (format.hpp, check_format): every statement the parse admits
//       formats without error, the text parses (in a tier admitting its op) to exactly that
//       statement, position aside, and formats to the same text again; format_source() gives a
//       text that parses to the same items (positions, and the line numbers a tail reason
//       quotes, aside) and is its own canonical form; for a clean result of the parse,
//       statements or client tier, format_turn() text parses to the same items too.
//   P12 windows: parse() lexes in windows of tokens and forgets each window's tokens when
//       nothing is open (lib/parse.cpp); windows of 1 and 3 tokens give the result of the whole
//       input lexed at once, byte spans included (check_parse).
//   P13 the statement parser's fast path (lib/statement_fast.hpp) changes nothing: with it on
//       and off, the statement parser's whole state (stream_syntax::dump_state: units and their
//       slots, errors with their `fetched`, the cursor, the recovery state, the rule frames) is
//       the same after every token fed one at a time as an unfinished stream, fed in runs of 3
//       and of 8 tokens, and after all of them at once; parse() and a parse in windows of one token give the same JSON with spans
//       (check_statement_fast; private headers, so only where lib/ is on the include path).
//       Each time, every token's mark (syntax_tree::token_unit, written lazily) is the unit
//       whose tokens hold it, or -1 (check_token_marks).
//   P14 the bodies' quick readings (lib/body_fast.hpp) only take what the full route accepts,
//       with the same parts: a regex matcher check_regex_matcher accepts, split as split_regex
//       splits it; an XPath or JSONPath matcher its check_*_matcher accepts; a COPY/MOVE
//       selection parse_resource_selection reads to the same target and marks (check_body_fast,
//       from check_regex, check_xpath, check_jsonpath and check_path; private header, as P13).
//   P15 the lexer's whole-statement fast path (lib/lexer_fast.cpp) changes nothing: with it on
//       and off, the lexer's output for the whole input (tokens, errors with their token index,
//       final mode, last opener, open tag, body start) is the same; and lexing the input as a
//       growing stream (chunks of 1, 3, 7, 64 and 5000 bytes, then the end; with the deferral of a
//       statement until its close may be here and without) gives that output too, with the
//       tokens held after every chunk a prefix of it (check_lexer_fast; private header, as P13).
//   P16 migration between the dialects (format.hpp, check_migrate): migrate_source() keeps the
//       parse; each statement it admits either migrates, and the text, read in the other dialect,
//       is that statement (position aside; a regex matcher's pattern equal once its fence's
//       escapes are read, a glob's escaped lead read) and canonical there, or is noted at its
//       position; a clean input with no note reads in the other dialect to the same items.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/plurnk.hpp"
#if __has_include("plurnk/stream.hpp")
#include "plurnk/stream.hpp"
#endif

#ifdef PLURNK_FUZZ_SIMDJSON
#include <simdjson.h>
#endif
#if __has_include("base/work_counter.hpp")
#include "base/work_counter.hpp"
#define PLURNK_FUZZ_HAS_WORK_COUNTER 1
#endif
#if __has_include("syntax/clean_step.hpp")
#include "base/fast_paths.hpp"
#include "syntax/clean_step.hpp"
#include "syntax/statement_parser.hpp"
#define PLURNK_FUZZ_HAS_STATEMENT_FAST 1
#endif
#if __has_include("base/fast_paths.hpp")
#include "base/fast_paths.hpp"
#include "lex/lexer.hpp"
#define PLURNK_FUZZ_HAS_LEXER_FAST 1
#endif
#if __has_include("builder/body_fast.hpp")
#include <cmath>

#include "builder/body_fast.hpp"
#define PLURNK_FUZZ_HAS_BODY_FAST 1
#endif

namespace plurnk::fuzz {

// --- helpers ---------------------------------------------------------------------------------

// Length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlongs, no surrogates,
// nothing past U+10FFFF), or 0 when the bytes there are not one. The oracle's own check, kept
// apart from lib/utf8.hpp on purpose: it checks that code.
inline std::size_t sequence_length(std::string_view s, std::size_t i) noexcept {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) return 1;
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
        len = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
        len = 3;
        if (b == 0xE0) lo = 0xA0;
        if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        len = 4;
        if (b == 0xF0) lo = 0x90;
        if (b == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (i + len > s.size()) return 0;
    const auto b1 = static_cast<unsigned char>(s[i + 1]);
    if (b1 < lo || b1 > hi) return 0;
    for (std::size_t k = 2; k < len; ++k) {
        const auto c = static_cast<unsigned char>(s[i + k]);
        if (c < 0x80 || c > 0xBF) return 0;
    }
    return len;
}

// Strict UTF-8 validation.
inline bool is_valid_utf8(std::string_view s) noexcept {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = sequence_length(s, i);
        if (len == 0) return false;
        i += len;
    }
    return true;
}

// Maps (line, column) back to a byte offset with the library's column rule (see P1).
class offset_map {
public:
    explicit offset_map(std::string_view s) : s_(s) {
        starts_.push_back(0);
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (s[i] == '\n') starts_.push_back(i + 1);
        }
    }

    // Byte offset of `p`, or npos when p is not inside the input.
    std::size_t offset(position p) const noexcept {
        if (p.line == 0 || p.line > starts_.size()) return npos;
        std::size_t i = starts_[p.line - 1];
        const std::size_t end = p.line < starts_.size() ? starts_[p.line] - 1 : s_.size();  // the '\n' or EOF
        for (std::uint32_t c = 0; c < p.column; ++c) {
            if (i >= end) return npos;
            i += cp_len(i);
        }
        return i;
    }

    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

private:
    // Bytes of the code point at i under the library's policy: a well-formed sequence is one
    // column; any other byte (overlong, surrogate, past U+10FFFF, cut short) is a column alone.
    std::size_t cp_len(std::size_t i) const noexcept {
        const std::size_t len = sequence_length(s_, i);
        return len == 0 ? 1 : len;
    }

    std::string_view s_;
    std::vector<std::size_t> starts_;
};

inline std::string describe(position p) {
    return std::to_string(p.line) + ":" + std::to_string(p.column);
}

// P6 + P7 on one serialized result. `clean` is parse_result::clean() of what was serialized.
inline std::string check_result_json(const std::string& compact, const std::string& pretty, bool clean) {
    if (!is_valid_utf8(compact)) return "to_json output is not valid UTF-8";
    if (!is_valid_utf8(pretty)) return "to_json(pretty) output is not valid UTF-8";
    const std::optional<json_value> v = parse_json(compact);
    if (!v) return "to_json output does not parse back with plurnk::parse_json";
    if (v->kind != json_value::kind_t::object) return "to_json output is not an object";
    if (stringify_json(*v) != compact) return "to_json output is not what JSON.stringify would write";
    const std::optional<json_value> vp = parse_json(pretty);
    if (!vp) return "to_json(pretty) output does not parse back";
    if (stringify_json(*vp) != compact) return "pretty and compact to_json disagree";
#ifdef PLURNK_FUZZ_SIMDJSON
    {
        // simdjson 3.0 refuses integers written without an exponent that do not fit 64 bits
        // (JSON.stringify writes 1e20 as 100000000000000000000) with NUMBER_ERROR; that is its
        // limit, not invalid JSON, and parse_json has already checked the grammar above.
        simdjson::dom::parser parser;
        simdjson::dom::element doc;
        const simdjson::error_code e = parser.parse(compact).get(doc);
        if (e != simdjson::SUCCESS && e != simdjson::NUMBER_ERROR) {
            return std::string("simdjson rejects to_json output: ") + simdjson::error_message(e);
        }
    }
#endif
    // P7: the exit rule, from the JSON alone.
    const json_value* items = v->find("items");
    if (items == nullptr || items->kind != json_value::kind_t::array) return "to_json output has no items array";
    bool json_clean = v->find("unparsedTail") == nullptr;
    for (const json_value& it : items->array) {
        const json_value* kind = it.find("kind");
        if (kind == nullptr || kind->kind != json_value::kind_t::string) return "an item has no kind";
        if (kind->string == "error") {
            json_clean = false;
        } else if (kind->string != "statement" && kind->string != "text") {
            return "an item has an unknown kind";
        }
    }
    if (json_clean != clean) return "clean() disagrees with the JSON (CLI exit rule)";
    return {};
}

// --- entry points --------------------------------------------------------------------------------

// P8: chunked == one-shot, through the push parser (include/plurnk/stream.hpp). Chunkings: one
// byte at a time (inputs up to 128 bytes: it dominates an execution's cost), and cuts at
// pseudo-random offsets derived from the input, with a checkpoint (copy) taken halfway, a draft
// fed after it and then rolled back. safe_prefix() never shrinks and never passes size(). It
// and open() are asked after some chunks only (a stream that tells no one lexes and parses in
// batches, and catches up when asked); halfway a callback is set, after which every item of
// the result is reported once (those settled before it at finish()), and each reported item
// (copied as it is reported) equals the result's item at the event's index, field by field.
inline std::string check_stream(std::string_view in, tier t, const std::string& one_shot_json,
                                const parse_options& options = {}) {
#if __has_include("plurnk/stream.hpp")
    if (in.size() <= 128) {
        stream_parser p(t, options);
        p.set_release_threshold(1);  // drop settled input at every chance
        for (char c : in) p.feed(std::string_view(&c, 1));
        if (to_json(p.finish()) != one_shot_json) return "byte-at-a-time stream differs from one-shot parse";
    }
    std::uint64_t h = 1469598103934665603ULL;  // FNV-1a of the input picks the cuts
    for (char c : in) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    stream_parser p(t, options);
    p.set_release_threshold(1 + static_cast<std::size_t>(h % 64));
    std::size_t safe = 0, events = 0;
    item_list reported;  // the events' items, copied (item_list copies their strings)
    std::vector<std::size_t> indices;
    std::size_t i = 0;
    bool checkpointed = false;
    while (i < in.size()) {
        h = h * 6364136223846793005ULL + 1442695040888963407ULL;
        const std::size_t n = 1 + static_cast<std::size_t>((h >> 33) % 97);
        const std::string_view chunk = in.substr(i, n);
        p.feed(chunk);
        i += chunk.size();
        if (p.retained() > p.size()) return "retained() passed size()";
        if ((h >> 20) % 3 == 0) {
            if (p.safe_prefix() < safe || p.safe_prefix() > p.size()) return "safe_prefix() shrank or passed size()";
            safe = p.safe_prefix();
            if (const open_info o = p.open(); o.where != open_info::where_t::none && o.begin + o.bytes != p.size()) {
                return "open() does not run to the end of the input fed";
            }
        }
        if (!checkpointed && i >= in.size() / 2) {
            checkpointed = true;
            const stream_parser saved = p;
            p.feed("<<READ(:EDIT\n<<TURN:<<");
            p = saved;
            if (p.size() != i) return "restoring a checkpoint did not restore size()";
            p.set_callback([&events, &reported, &indices](const stream_event& e) {
                ++events;
                reported.push_back(e.value);
                indices.push_back(e.index);
            });
        }
    }
    if (p.size() != in.size()) return "stream size() differs from the input size";
    const parse_result r = p.finish();
    if (to_json(r) != one_shot_json) return "chunked stream (with a rolled-back checkpoint) differs from one-shot parse";
    if (checkpointed && events != r.items.size()) return "a callback set halfway did not see every item once";
    for (std::size_t k = 0; k < indices.size(); ++k) {
        if (indices[k] == stream_event::npos) continue;
        if (indices[k] >= r.items.size()) return "an event's index is past the result's items";
        if (!(reported[k] == r.items[indices[k]])) return "an event's item differs from the result's item at its index";
    }
#else
    (void)in;
    (void)t;
    (void)one_shot_json;
    (void)options;
#endif
    return {};
}

// P9: a cut at max_input_bytes (here: at half the input) is the parse of the prefix plus one
// error item at the end.
inline std::string check_input_limit(std::string_view in, tier t, parse_options options) {
    if (in.size() < 2) return {};
    const std::size_t k = in.size() / 2;
    options.max_input_bytes = k;
    parse_result cut = parse(in, t, options);
    if (cut.items.empty()) return "max_input_bytes: no error item after the cut";
    const item last = cut.items.back();
    const auto* d = std::get_if<diagnostic>(&last);
    if (d == nullptr || d->source != source::lexer || d->message.find("max_input_bytes") == std::string::npos) {
        return "max_input_bytes: the last item is not the limit's error";
    }
    cut.items.pop_back();
    if (to_json(cut) != to_json(parse(in.substr(0, k), t, options))) {
        return "max_input_bytes: the cut result differs from the parse of the first bytes";
    }
    return {};
}

// P10: the work of a one-shot parse and of a stream fed in chunks of 1 to 16 bytes (chosen from
// the input; with a callback or with none, also chosen from it) is linear. The bound is the one test/complexity_test.cpp asserts, plus room for the
// per-feed constant of tiny inputs.
inline constexpr double k_work_per_byte = 64.0;
inline std::string check_work(std::string_view in, tier t) {
#ifdef PLURNK_FUZZ_HAS_WORK_COUNTER
    if constexpr (detail::k_work_counter) {
        const auto total = [] {
            const detail::work_counts& w = detail::work();
            return w.bytes_examined + w.tokens + w.token_looks + w.position_bytes;
        };
        const double bound = k_work_per_byte * static_cast<double>(in.size()) + 4096.0;
        std::uint64_t before = total();
        (void)parse(in, t);
        if (static_cast<double>(total() - before) > bound) {
            return "one-shot work " + std::to_string(total() - before) + " exceeds " + std::to_string(k_work_per_byte) +
                   " x " + std::to_string(in.size()) + " bytes";
        }
#if __has_include("plurnk/stream.hpp")
        std::uint64_t h = 1469598103934665603ULL;
        for (std::size_t i = 0; i < in.size() && i < 64; ++i) h = (h ^ static_cast<unsigned char>(in[i])) * 1099511628211ULL;
        before = total();
        stream_parser p(t);
        // With a callback half the time: a stream with none lexes and parses in batches.
        if ((h >> 7) & 1) p.set_callback([](const stream_event&) {});
        for (std::size_t i = 0; i < in.size();) {
            h = h * 6364136223846793005ULL + 1442695040888963407ULL;
            const std::size_t n = 1 + static_cast<std::size_t>((h >> 33) % 16);
            p.feed(in.substr(i, n));
            i += n;
        }
        (void)p.finish();
        if (static_cast<double>(total() - before) > bound) {
            return "streamed work " + std::to_string(total() - before) + " exceeds " + std::to_string(k_work_per_byte) +
                   " x " + std::to_string(in.size()) + " bytes";
        }
#endif
    }
#else
    (void)in;
    (void)t;
#endif
    return {};
}

}  // namespace plurnk::fuzz
namespace plurnk::detail {
// (lib/ast_builder.hpp: parse() with windows of `window` tokens; SIZE_MAX lexes all at once)
parse_result parse_in_windows(std::string_view input, tier t, const parse_options& options, std::size_t window);
}  // namespace plurnk::detail
namespace plurnk::fuzz {

// P1-P9 and P12 for one tier.
inline std::string check_parse(std::string_view in, tier t, const parse_options& options = {}) {
    const parse_result r = parse(in, t, options);
    const std::string json = to_json(r);
    if (to_json(parse(in, t, options)) != json) return "parse is not deterministic";  // P5
    const std::string whole = to_json(detail::parse_in_windows(in, t, options, SIZE_MAX), json_options{.spans = true});
    if (to_json(r, json_options{.spans = true}) != whole) return "parse() differs from the one-window parse";  // P12
    for (const std::size_t w : {std::size_t{1}, std::size_t{3}}) {
        if (to_json(detail::parse_in_windows(in, t, options, w), json_options{.spans = true}) != whole) {
            return "a parse in windows of " + std::to_string(w) + " tokens differs from the one-window parse";
        }
    }
    if (std::string e = check_result_json(json, to_json(r, json_options{true}), r.clean()); !e.empty()) return e;

    const offset_map map(in);
    std::size_t tail_at = offset_map::npos;
    if (r.tail) {
        tail_at = map.offset(r.tail->from);
        if (tail_at == offset_map::npos) return "unparsedTail.from " + describe(r.tail->from) + " is outside the input";
        if (in.substr(tail_at, 2) != "<<") return "unparsedTail.from " + describe(r.tail->from) + " is not an opener";
        if (r.tail->reason.empty()) return "unparsedTail has no reason";
    }
    std::size_t last = 0;
    bool any = false;
    for (const item& it : r.items) {
        position p;
        if (const auto* s = std::get_if<statement>(&it)) {
            p = s->position;
        } else if (const auto* d = std::get_if<diagnostic>(&it)) {
            p = d->position;
            if (d->message.empty()) return "diagnostic without a message at " + describe(p);
        } else {
            p = std::get<text_item>(it).position;
        }
        const std::size_t at = map.offset(p);
        if (at == offset_map::npos) return "item position " + describe(p) + " is outside the input";  // P1
        if (r.tail && !(p < r.tail->from)) return "item at " + describe(p) + " is not before unparsedTail.from";  // P4
        if (std::holds_alternative<diagnostic>(it)) continue;
        if (const auto* s = std::get_if<statement>(&it)) {  // P2
            const std::string opener = std::string("<<").append(op_name(s->op)).append(s->suffix);
            if (in.substr(at, opener.size()) != opener) return "statement at " + describe(p) + " is not at its opener";
        } else {
            const auto& tx = std::get<text_item>(it);
            if (tx.text.empty()) return "empty text item at " + describe(p);
            if (in.substr(at, tx.text.size()) != tx.text) return "text item at " + describe(p) + " is not at its text";
        }
        if (any && at <= last) return "statements/text items out of order at " + describe(p);  // P3
        last = at;
        any = true;
    }
    if (std::string e = check_input_limit(in, t, options); !e.empty()) return e;
    return check_stream(in, t, json, options);
}

#ifdef PLURNK_FUZZ_HAS_STATEMENT_FAST
// P13 for one tier. Past k_lockstep_tokens tokens the state is compared at every 16th token only
// (each comparison costs the whole state).
inline constexpr std::size_t k_lockstep_tokens = 512;

// A tree's token marks as the units say: one per token, the unit's index over each unit's
// tokens (first through last, every one of them consumed into it), -1 elsewhere.
inline std::string check_token_marks(const detail::syntax_tree& tree, std::size_t tokens) {
    if (tree.token_unit.size() != tokens) return "token marks: " + std::to_string(tree.token_unit.size()) + " marks";
    std::vector<std::int32_t> want(tokens, -1);
    for (std::size_t k = 0; k < tree.units.size(); ++k) {
        const detail::unit& u = tree.units[k];
        for (std::size_t i = u.first; i <= u.last && i < tokens; ++i) want[i] = static_cast<std::int32_t>(k);
    }
    for (std::size_t i = 0; i < tokens; ++i) {
        if (tree.token_unit[i] != want[i]) {
            return "token marks: token " + std::to_string(i) + " has " + std::to_string(tree.token_unit[i]) +
                   ", its unit is " + std::to_string(want[i]);
        }
    }
    return {};
}
inline std::string check_statement_fast(std::string_view in, tier t,
                                        parse_dialect dialect = parse_dialect::contracts) {
    using fast_path_switch = detail::fast_paths_scope;  // the parser's fast path as asked
    const detail::lex_output lexed = detail::lex(in, parse_options{}.max_turn_depth, dialect);
    const detail::token_vector& toks = lexed.tokens;
    const auto parser = [t, dialect](bool on) {
        const fast_path_switch s({.statement = on});
        return detail::stream_syntax(t, dialect);
    };
    detail::stream_syntax fast = parser(true), full = parser(false);
    detail::token_vector fed;
    for (std::size_t i = 0; i + 1 < toks.size(); ++i) {
        fed.push_back(toks[i]);
        fast.advance(fed, false);
        full.advance(fed, false);
        if (fast.settled() != full.settled()) return "fast path: settled() differs after token " + std::to_string(i);
        if ((i < k_lockstep_tokens || i % 16 == 0) && fast.dump_state() != full.dump_state()) {
            return "fast path: the parse state differs after token " + std::to_string(i) + ":\n" + fast.dump_state() +
                   "\nproductions alone:\n" + full.dump_state();
        }
        if (i < k_lockstep_tokens || i % 16 == 0) {
            for (const detail::stream_syntax* p : {&fast, &full}) {
                if (std::string e = check_token_marks(p->tree(), fed.size()); !e.empty()) {
                    return e + " after token " + std::to_string(i);
                }
            }
        }
    }
    fed.push_back(toks.back());
    fast.advance(fed, true);
    full.advance(fed, true);
    if (fast.dump_state() != full.dump_state()) return "fast path: the parse state differs token by token";
    // Fed in runs of a few tokens, unfinished: a step then sees several new tokens at once and
    // stops where they end (a run of TEXT taken whole, a cycle copied, a statement cut short).
    for (const std::size_t run : {std::size_t{3}, std::size_t{8}}) {
        fast = parser(true);
        full = parser(false);
        fed.clear();
        for (std::size_t i = 0; i + 1 < toks.size(); ++i) {
            fed.push_back(toks[i]);
            if ((i + 1) % run != 0 && i + 2 < toks.size()) continue;
            fast.advance(fed, false);
            full.advance(fed, false);
            if ((i < k_lockstep_tokens || (i + 1) % (16 * run) == 0) && fast.dump_state() != full.dump_state()) {
                return "fast path: the parse state differs after token " + std::to_string(i) + " fed in runs of " +
                       std::to_string(run) + ":\n" + fast.dump_state() + "\nproductions alone:\n" + full.dump_state();
            }
            if (std::string e = check_token_marks(fast.tree(), fed.size()); !e.empty()) {
                return e + " after token " + std::to_string(i) + " fed in runs of " + std::to_string(run);
            }
        }
    }
    fast = parser(true);
    full = parser(false);
    fast.advance(toks, true);
    full.advance(toks, true);
    if (fast.dump_state() != full.dump_state()) {
        return "fast path: the parse state differs:\n" + fast.dump_state() + "\nproductions alone:\n" + full.dump_state();
    }
    for (const detail::stream_syntax* p : {&fast, &full}) {
        if (std::string e = check_token_marks(p->tree(), toks.size()); !e.empty()) return e + " at the end";
    }
    for (const std::size_t w : {std::size_t{1}, SIZE_MAX}) {
        const std::string on = to_json(detail::parse_in_windows(in, t, {}, w), json_options{.spans = true});
        std::string off;
        {
            const fast_path_switch s({.statement = false});
            off = to_json(detail::parse_in_windows(in, t, {}, w), json_options{.spans = true});
        }
        if (on != off) return "fast path: the result differs in windows of " + std::to_string(w) + " tokens";
    }
    return {};
}
#endif

// parse_url: a parsed URL serializes to ASCII, re-parses to the same href, and is deterministic.
inline std::string check_url(std::string_view in) {
    const result<url_record> parsed = parse_url(in);
    const result<url_record> again = parse_url(in);
    if (parsed.ok() != again.ok() || (parsed && parsed.value().href != again.value().href)) {
        return "parse_url is not deterministic";
    }
    if (!parsed) {
        if (parsed.problem().message.empty()) return "parse_url failed without a message";
        return {};
    }
    const url_record* u = &parsed.value();
    for (char c : u->href) {
        const auto b = static_cast<unsigned char>(c);
        // Spaces survive in opaque paths ("git+ssh:a b"); everything else outside printable ASCII
        // is percent-encoded or stripped.
        if (b >= 0x7F || b < 0x20) return "href holds a non-ASCII or control byte";
    }
    if (u->protocol.empty() || u->protocol.back() != ':') return "protocol does not end with ':'";
    if (u->href.rfind(u->protocol, 0) != 0) return "href does not start with the protocol";
    if (!u->search.empty() && u->search[0] != '?') return "search does not start with '?'";
    if (!u->hash.empty() && u->hash[0] != '#') return "hash does not start with '#'";
    const result<url_record> re = parse_url(u->href);
    if (!re) return "href does not re-parse";
    if (re.value().href != u->href) return "href is not idempotent: " + u->href + " -> " + re.value().href;
    return {};
}

// parse_json / canonical_json / stringify_json: the canonical form is a fixpoint, valid UTF-8
// and agrees with canonical_json; whatever simdjson accepts, parse_json accepts.
inline std::string check_json(std::string_view in) {
    const std::optional<json_value> v = parse_json(in);
    const std::optional<std::string> canon = canonical_json(in);
    if (v.has_value() != canon.has_value()) return "parse_json and canonical_json disagree on acceptance";
#ifdef PLURNK_FUZZ_SIMDJSON
    {
        simdjson::dom::parser parser;
        simdjson::dom::element doc;
        const simdjson::padded_string padded(in.data(), in.size());
        if (parser.parse(padded).get(doc) == simdjson::SUCCESS && !v) return "simdjson accepts what parse_json rejects";
    }
#endif
    if (!v) return {};
    const std::string s = stringify_json(*v);
    if (s != *canon) return "canonical_json differs from stringify_json(parse_json)";
    if (!is_valid_utf8(s)) return "stringify_json output is not valid UTF-8";
    const std::optional<json_value> v2 = parse_json(s);
    if (!v2) return "stringify_json output does not parse";
    if (stringify_json(*v2) != s) return "stringify_json(parse_json(x)) is not a fixpoint";
    return {};
}

inline std::string check_verdict(const result<void>& v, std::size_t size, const char* what) {
    if (v) return {};
    if (v.problem().message.empty()) return std::string(what) + ": failed verdict without a message";
    if (v.problem().offset > size) return std::string(what) + ": offset past the input";
    return {};
}

// The matcher body check for a validator: body -> ok or a problem, deterministic, the offset
// inside the body, and any message valid UTF-8 once written as JSON.
inline std::string check_matcher(result<void> (*fn)(std::string_view), std::string_view body, const char* what) {
    const result<void> a = fn(body);
    if (a != fn(body)) return std::string(what) + " is not deterministic";
    if (a) return {};
    if (a.problem().message.empty()) return std::string(what) + " returned an empty message";
    if (a.problem().offset > body.size()) return std::string(what) + ": offset past the body";
    std::string out;
    append_json_string(out, a.problem().message);
    if (!is_valid_utf8(out)) return std::string(what) + " message is not valid UTF-8 once escaped";
    return {};
}

// P14: whatever a quick reading of `body` takes, the full route accepts with the same parts.
inline std::string check_body_fast([[maybe_unused]] std::string_view body) {
#ifdef PLURNK_FUZZ_HAS_BODY_FAST
    std::string_view pattern, flags;
    if (detail::regex_matcher_fast(body, pattern, flags)) {
        if (!check_regex_matcher(body)) return "regex_matcher_fast took a matcher check_regex_matcher rejects";
        const regex_split sp = split_regex(body);
        if (!sp.closed || sp.pattern != pattern || sp.flags != flags) return "regex_matcher_fast split it otherwise";
    }
    if (detail::xpath_matcher_fast(body) && !check_xpath_matcher(body)) {
        return "xpath_matcher_fast took a matcher check_xpath_matcher rejects";
    }
    if (detail::jsonpath_matcher_fast(body) && !check_jsonpath_matcher(body)) {
        return "jsonpath_matcher_fast took a matcher check_jsonpath_matcher rejects";
    }
    std::vector<double> marks;
    resource_selection fast;
    if (detail::selection_fast(body, marks, fast)) {
        const result<std::optional<selection_value>> full = parse_resource_selection(body);
        if (!full || !full.value()) return "selection_fast took a body parse_resource_selection gives nothing for";
        const resource_selection& sel = *full.value();
        if (!(sel == fast)) return "selection_fast read another target or other marks";
        for (std::size_t i = 0; sel.marker && i < sel.marker->marks.size(); ++i) {
            if (std::signbit(sel.marker->marks[i]) != std::signbit(fast.marker->marks[i])) {
                return "selection_fast read a mark with another sign";
            }
        }
    }
#endif
    return {};
}

// validate_regex + split_regex + check_regex_matcher. The input is `pattern` then, after the
// last '/', the flags (no '/': all pattern, no flags).
inline std::string check_regex(std::string_view in) {
    const std::size_t slash = in.rfind('/');
    const std::string_view pattern = slash == std::string_view::npos ? in : in.substr(0, slash);
    const std::string_view flags = slash == std::string_view::npos ? std::string_view{} : in.substr(slash + 1);
    const result<void> v = validate_regex(pattern, flags);
    if (v != validate_regex(pattern, flags)) return "validate_regex is not deterministic";
    if (std::string e = check_verdict(v, pattern.size() > flags.size() ? pattern.size() : flags.size(), "validate_regex");
        !e.empty()) {
        return e;
    }
    std::string body = "/";  // appended, not "/" + ...: g++ 12 -O3 misreads that as overlapping
    body += in;
    const regex_split sp = split_regex(body);
    if (sp.closed) {
        const char* lo = body.data();
        const char* hi = body.data() + body.size();
        if (sp.pattern.data() < lo || sp.pattern.data() + sp.pattern.size() > hi || sp.flags.data() < lo ||
            sp.flags.data() + sp.flags.size() > hi) {
            return "split_regex returned a view outside the body";
        }
    }
    if (std::string e = check_body_fast(body); !e.empty()) return e;
    return check_matcher(&check_regex_matcher, body, "check_regex_matcher");
}

inline std::string check_xpath(std::string_view in) {
    const result<void> v = validate_xpath(in);
    if (v != validate_xpath(in)) return "validate_xpath is not deterministic";
    if (std::string e = check_verdict(v, in.size(), "validate_xpath"); !e.empty()) return e;
    if (std::string e = check_body_fast(in); !e.empty()) return e;
    if (std::string e = check_body_fast("//" + std::string(in)); !e.empty()) return e;
    return check_matcher(&check_xpath_matcher, "//" + std::string(in), "check_xpath_matcher");
}

inline std::string check_jsonpath(std::string_view in) {
    const result<void> v = validate_jsonpath(in);
    if (v != validate_jsonpath(in)) return "validate_jsonpath is not deterministic";
    if (std::string e = check_verdict(v, in.size(), "validate_jsonpath"); !e.empty()) return e;
    if (std::string e = check_body_fast(in); !e.empty()) return e;
    return check_matcher(&check_jsonpath_matcher, in, "check_jsonpath_matcher");
}

// parse_path / parse_resource_selection: deterministic, a value (empty only for empty input) or
// a problem, URL fields consistent, and a statement carrying the result serializes cleanly.
inline std::string check_path(std::string_view in) {
    const result<std::optional<path_value>> pr = parse_path(in);
    const result<std::optional<path_value>> pr2 = parse_path(in);
    if (pr.ok() != pr2.ok() || (!pr && pr.problem() != pr2.problem()) ||
        (pr && (pr.value().has_value() != pr2.value().has_value() ||
                (pr.value() && pr.value()->raw != pr2.value()->raw)))) {
        return "parse_path is not deterministic";
    }
    if (!pr && pr.problem().message.empty()) return "parse_path returned an empty error";
    if (pr && !pr.value() && !in.empty()) return "parse_path returned nothing for non-empty input";
    const result<std::optional<selection_value>> sr = parse_resource_selection(in);
    if (!sr && sr.problem().message.empty()) return "parse_resource_selection returned an empty error";
    if (std::string e = check_body_fast(in); !e.empty()) return e;
    // (views of pr and sr, which live to the end)
    std::optional<parsed_path> p;
    if (pr && pr.value()) p = *pr.value();
    std::optional<resource_selection> sel;
    if (sr && sr.value()) sel = *sr.value();

    parse_result r;
    statement st;
    st.op = op::COPY;
    st.position = position{1, 0};
    if (p) {
        if (p->kind == parsed_path::kind_t::url && p->scheme.empty()) return "URL path without a scheme";
        st.target = *p;
    }
    if (sel) st.body = *sel;
    r.items.emplace_back(std::move(st));
    return check_result_json(to_json(r), to_json(r, json_options{true}), r.clean());
}

// --- P11: the canonical producer ------------------------------------------------------------

inline bool same_path(const parsed_path& a, const parsed_path& b) {
    if (a.headers.has_value() != b.headers.has_value()) return false;
    if (a.headers) {
        if (a.headers->size() != b.headers->size()) return false;
        for (std::size_t i = 0; i < a.headers->size(); ++i) {
            if ((*a.headers)[i].name != (*b.headers)[i].name || (*a.headers)[i].value != (*b.headers)[i].value) {
                return false;
            }
        }
    }
    return a.kind == b.kind && a.raw == b.raw && a.scheme == b.scheme && a.username == b.username &&
           a.password == b.password && a.hostname == b.hostname && a.port == b.port && a.pathname == b.pathname &&
           a.query == b.query && a.fragment == b.fragment;
}

inline bool same_path(const std::optional<parsed_path>& a, const std::optional<parsed_path>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a.has_value() || same_path(*a, *b);
}

inline bool same_marker(const std::optional<line_marker>& a, const std::optional<line_marker>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a || std::equal(a->marks.begin(), a->marks.end(), b->marks.begin(), b->marks.end());
}

// Statement equality, position aside: every field of the AST.
inline bool same_statement(const statement& a, const statement& b) {
    if (a.op != b.op || a.suffix != b.suffix || a.signal.kind != b.signal.kind ||
        !std::equal(a.signal.tags.begin(), a.signal.tags.end(), b.signal.tags.begin(), b.signal.tags.end()) ||
        a.signal.number != b.signal.number || a.signal.text != b.signal.text || !same_path(a.target, b.target) ||
        !same_marker(a.marker, b.marker) || a.body.index() != b.body.index()) {
        return false;
    }
    if (const auto* x = std::get_if<std::string_view>(&a.body)) return *x == std::get<std::string_view>(b.body);
    if (const auto* x = std::get_if<matcher_body>(&a.body)) {
        const auto& y = std::get<matcher_body>(b.body);
        return x->dialect == y.dialect && x->raw == y.raw && x->pattern == y.pattern && x->flags == y.flags;
    }
    if (const auto* x = std::get_if<send_body>(&a.body)) {
        const auto& y = std::get<send_body>(b.body);
        return x->raw == y.raw && x->json == y.json;
    }
    if (const auto* x = std::get_if<resource_selection>(&a.body)) {
        const auto& y = std::get<resource_selection>(b.body);
        return same_path(x->target, y.target) && same_marker(x->marker, y.marker);
    }
    return true;  // both null
}

inline std::string statement_json(const statement& s) {
    std::string out;
    append_json(out, s);
    return out;
}

// Items equality, positions aside. Diagnostics compare source, severity, class and message;
// statements compare by `same` (same_statement unless told).
inline std::string same_items(const parse_result& a, const parse_result& b, const char* what,
                              bool (*same)(const statement&, const statement&) = same_statement) {
    const std::string w = what;
    if (a.items.size() != b.items.size()) {
        return w + ": " + std::to_string(b.items.size()) + " items instead of " + std::to_string(a.items.size());
    }
    for (std::size_t i = 0; i < a.items.size(); ++i) {
        const item& x = a.items[i];
        const item& y = b.items[i];
        const std::string at = w + ": item " + std::to_string(i);
        if (x.index() != y.index()) return at + " changed kind";
        if (const auto* s = std::get_if<statement>(&x)) {
            if (!same(*s, std::get<statement>(y))) {
                return at + " changed: " + statement_json(*s) + " became " + statement_json(std::get<statement>(y));
            }
        } else if (const auto* d = std::get_if<diagnostic>(&x)) {
            const auto& e = std::get<diagnostic>(y);
            if (d->source != e.source || d->severity != e.severity || d->id != e.id || d->message != e.message) {
                return at + " changed: '" + std::string(d->message) + "' became '" + std::string(e.message) + "'";
            }
        } else if (std::get<text_item>(x).text != std::get<text_item>(y).text) {
            return at + " changed its text";
        }
    }
    if (a.tail.has_value() != b.tail.has_value()) return w + ": the unparsedTail came or went";
    if (a.tail && a.tail->reason_id != b.tail->reason_id) return w + ": the unparsedTail changed its class";
    return {};
}

// P11 on one input in one tier.
inline std::string check_format(std::string_view in, tier t, const parse_options& options = {}) {
    const parse_result r = parse(in, t, options);
    for (const item& it : r.items) {
        const auto* s = std::get_if<statement>(&it);
        if (s == nullptr) continue;
        const format_result f = format(*s, options.dialect);
        if (!f) return "format refused an admitted statement: " + *f.error + " (" + statement_json(*s) + ")";
        const tier back = (s->op == op::LOOK || s->op == op::BUFF) ? tier::client : tier::statements;
        parse_options same_dialect;
        same_dialect.dialect = options.dialect;
        const parse_result again = parse(f.text, back, same_dialect);
        if (again.items.size() != 1 || again.tail || !std::holds_alternative<statement>(again.items[0])) {
            return "the canonical text '" + f.text + "' does not parse to one statement: " + to_json(again);
        }
        const statement s2 = std::get<statement>(again.items[0]);
        if (!same_statement(*s, s2)) {
            return "the canonical text '" + f.text + "' parses to another statement: " + statement_json(*s) +
                   " became " + statement_json(s2);
        }
        const format_result f2 = format(s2, options.dialect);
        if (!f2 || f2.text != f.text) return "format is not a fixpoint: '" + f.text + "' then '" + f2.text + "'";
    }
    const source_format sf = format_source(in, t, options);
    if (to_json(sf.result) != to_json(r)) return "format_source's result is not the parse";
    if (sf.changed != (sf.text != in)) return "format_source's `changed` is wrong";
    if (in.size() <= options.max_input_bytes) {  // (else the cut falls elsewhere in the new text)
        parse_options whole = options;
        whole.max_input_bytes = parse_options::k_max_input_bytes;
        const parse_result again = parse(sf.text, t, whole);
        if (std::string e = same_items(r, again, "format_source"); !e.empty()) return e;
        const source_format twice = format_source(sf.text, t, whole);
        if (twice.changed) return "format_source is not a fixpoint";
    }
    if (r.clean() && t != tier::log) {
        const format_result turn = format_turn(r, options.dialect);
        if (!turn) return "format_turn refused a clean result: " + *turn.error;
        parse_options same_dialect;
        same_dialect.dialect = options.dialect;
        if (std::string e = same_items(r, parse(turn.text, t, same_dialect), "format_turn"); !e.empty()) return e;
    }
    return {};
}

// --- P16: migration between the dialects ---------------------------------------------------

// A regex pattern as either dialect's fence spells it, with the fence's own escapes read: `\/`,
// `\#` and `\x23` (their backslash not itself escaped) are the character; `(?:)` is empty.
inline std::string plain_pattern(std::string_view p) {
    if (p == "(?:)") return {};
    std::string out;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i] != '\\' || i + 1 == p.size()) {
            out += p[i];
        } else if (p[i + 1] == '/' || p[i + 1] == '#') {
            out += p[++i];
        } else if (p.substr(i + 1, 3) == "x23") {
            out += '#';
            i += 3;
        } else {
            out += p[i];
            out += p[++i];
        }
    }
    return out;
}

// Statement equality across a migration, position aside: as same_statement, except that a regex
// matcher's raw is its fence's and its pattern compares by plain_pattern(), and a glob may have
// gained (or lost) a leading `\` before the other dialect's regex fence.
inline bool same_migrated(const statement& a, const statement& b) {
    const auto* x = std::get_if<matcher_body>(&a.body);
    const auto* y = std::get_if<matcher_body>(&b.body);
    if (x == nullptr || y == nullptr) return same_statement(a, b);
    if (x->dialect != y->dialect) return false;
    if (x->dialect == dialect::regex) {
        if (x->flags != y->flags || plain_pattern(x->pattern) != plain_pattern(y->pattern)) return false;
    } else if (x->dialect == dialect::glob) {
        const auto lead = [](std::string_view r) { return r.size() > 1 && r[0] == '\\' && (r[1] == '/' || r[1] == '#') ? r.substr(1) : r; };
        if (lead(x->raw) != lead(y->raw)) return false;
    } else if (x->raw != y->raw) {
        return false;
    }
    statement a2 = a, b2 = b;
    a2.body = b2.body = std::monostate{};
    return same_statement(a2, b2);
}

struct migration_counts {
    std::size_t inputs = 0, migrated = 0, noted = 0, with_errors = 0, errors_same = 0, statements = 0, notes = 0;
};

// P16 on one input in one tier, from options.dialect to `to`.
inline std::string check_migrate(std::string_view in, tier t, parse_dialect to, const parse_options& options = {},
                                 migration_counts* counts = nullptr) {
    const parse_result r = parse(in, t, options);
    const source_migration sm = migrate_source(in, t, to, options);
    if (to_json(sm.result) != to_json(r)) return "migrate_source's result is not the parse";
    if (sm.changed != (sm.text != in)) return "migrate_source's `changed` is wrong";
    parse_options there;
    there.dialect = to;
    std::size_t refused = 0;
    for (const item& it : r.items) {
        const auto* s = std::get_if<statement>(&it);
        if (s == nullptr) continue;
        if (counts != nullptr) ++counts->statements;
        const format_result f = migrate(*s, to);
        if (!f) {
            if (refused >= sm.notes.size() || sm.notes[refused].at != s->position || sm.notes[refused].message != *f.error) {
                return "a statement migrate() refuses has no note at its position: " + *f.error;
            }
            ++refused;
            continue;
        }
        const tier back = (s->op == op::LOOK || s->op == op::BUFF) ? tier::client : tier::statements;
        const parse_result again = parse(f.text, back, there);
        if (again.items.size() != 1 || again.tail || !std::holds_alternative<statement>(again.items[0])) {
            return "the migrated text '" + f.text + "' does not parse to one statement: " + to_json(again);
        }
        const statement s2 = std::get<statement>(again.items[0]);
        if (!same_migrated(*s, s2)) {
            return "the migrated text '" + f.text + "' reads as another statement: " + statement_json(*s) + " became " +
                   statement_json(s2);
        }
        const format_result f2 = format(s2, to);
        if (!f2 || f2.text != f.text) return "the migrated text is not canonical: '" + f.text + "' then '" + f2.text + "'";
    }
    if (refused != sm.notes.size()) return "a note for no statement";
    const bool errors = r.tail.has_value() || std::any_of(r.items.begin(), r.items.end(), [](const item& it) {
        const auto* d = std::get_if<diagnostic>(&it);
        return d != nullptr && d->severity == severity::error;
    });
    bool same = false;
    if (sm.notes.empty() && in.size() <= options.max_input_bytes) {
        std::string e = same_items(r, parse(sm.text, t, there), "migrate_source", same_migrated);
        if (!errors && !e.empty()) return e;
        same = e.empty();
    }
    if (counts != nullptr) {
        ++counts->inputs;
        counts->notes += sm.notes.size();
        if (!sm.notes.empty()) {
            ++counts->noted;
        } else if (errors) {
            ++counts->with_errors;
            counts->errors_same += same ? 1 : 0;
        } else {
            ++counts->migrated;
        }
    }
    return {};
}

#ifdef PLURNK_FUZZ_HAS_LEXER_FAST
// P15. The lexer's output as text, for comparing and for the message.
inline std::string lex_dump(const detail::lex_output& o, std::size_t tokens) {
    std::string s;
    const auto num = [&s](std::uint64_t v, char after) {
        s += std::to_string(v);
        s += after;
    };
    for (std::size_t i = 0; i < tokens && i < o.tokens.size(); ++i) {
        const detail::token& t = o.tokens[i];
        num(static_cast<int>(t.kind), '/');
        num(static_cast<int>(t.op), '@');
        num(t.begin, '-');
        num(t.end, ' ');
    }
    if (tokens < o.tokens.size()) return s;
    for (const detail::lex_error& e : o.errors) {
        s += '!';
        num(e.begin, '-');
        num(e.end, '#');
        num(e.token_index, '/');
        num(static_cast<int>(e.context), '/');
        num(e.limit, e.turn_depth ? 'T' : ' ');
    }
    s += "mode ";
    num(static_cast<int>(o.tail.final_mode), ' ');
    s += "open ";
    num(o.tail.last_open_begin, ' ');
    s += "tag ";
    num(o.tail.open_tag_begin, '-');
    num(o.tail.open_tag_end, ' ');
    s += "body ";
    num(o.tail.body_begin, '.');
    return s;
}

inline std::string check_lexer_fast(std::string_view in, std::size_t max_turn_depth = parse_options{}.max_turn_depth,
                                    parse_dialect dialect = parse_dialect::contracts) {
    using fast_path_switch = detail::fast_paths_scope;  // the lexer's fast path as asked
    const auto lexer = [max_turn_depth, dialect](bool on) {
        const fast_path_switch s({.lexer = on});
        return detail::stream_lexer(max_turn_depth, dialect);
    };
    detail::stream_lexer steps = lexer(false);
    steps.advance(in, true);
    const std::string want = lex_dump(steps.output(), SIZE_MAX);
    {
        detail::stream_lexer fast = lexer(true);
        fast.advance(in, true);
        const std::string got = lex_dump(fast.output(), SIZE_MAX);
        if (got != want) return "lexer fast path: the output differs:\n" + got + "\nsteps alone:\n" + want;
    }
    // (5000: more than statement_reader::k_defer_max after an opener, which the reader then reads
    // without looking for the statement's close first.)
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{64}, std::size_t{5000}})
    for (const bool defer : {false, true}) {
        detail::stream_lexer fast = lexer(true);
        fast.set_deferral(defer);
        const detail::token_vector& all = steps.output().tokens;
        std::size_t checked = 0;  // tokens already compared (those held never change)
        for (std::size_t at = chunk; at < in.size() + chunk; at += chunk) {
            const std::size_t upto = std::min(at, in.size());
            fast.advance(in.substr(0, upto), false);
            const detail::token_vector& held = fast.output().tokens;
            for (; checked < held.size(); ++checked) {
                const detail::token& a = held[checked];
                const bool same = checked < all.size() && a.begin == all[checked].begin && a.end == all[checked].end &&
                                  a.kind == all[checked].kind && a.op == all[checked].op;
                if (!same) {
                    return "lexer fast path: the tokens held after " + std::to_string(upto) + " bytes in chunks of " +
                           std::to_string(chunk) + (defer ? ", deferring," : "") + " are not a prefix of the output (token " +
                           std::to_string(checked) +
                           "):\n" + lex_dump(fast.output(), held.size()) + "\nsteps alone:\n" + want;
                }
            }
        }
        fast.advance(in, true);
        const std::string got = lex_dump(fast.output(), SIZE_MAX);
        if (got != want) {
            return "lexer fast path: streamed in chunks of " + std::to_string(chunk) + (defer ? ", deferring," : "") +
                   " the output differs:\n" + got + "\nsteps alone:\n" + want;
        }
    }
    return {};
}
#endif

// Every entry point on one input (the regression test's replay).
inline std::string check_all(std::string_view in) {
    // In both dialects (doc/dialects.md): the service dialect's rules sit on the same seams.
    for (const parse_dialect d : {parse_dialect::contracts, parse_dialect::service}) {
        parse_options o;
        o.dialect = d;
        const std::string in_dialect = d == parse_dialect::service ? "service, " : "";
        for (tier t : {tier::parse, tier::statements, tier::log, tier::client}) {
            if (std::string e = check_parse(in, t, o); !e.empty()) return in_dialect + tier_name(t) + ": " + e;
            if (std::string e = check_format(in, t, o); !e.empty()) return in_dialect + tier_name(t) + ": " + e;
            const parse_dialect other = d == parse_dialect::service ? parse_dialect::contracts : parse_dialect::service;
            if (std::string e = check_migrate(in, t, other, o); !e.empty()) return in_dialect + tier_name(t) + ": " + e;
#ifdef PLURNK_FUZZ_HAS_STATEMENT_FAST
            if (std::string e = check_statement_fast(in, t, d); !e.empty()) return in_dialect + tier_name(t) + ": " + e;
#endif
        }
#ifdef PLURNK_FUZZ_HAS_LEXER_FAST
        if (std::string e = check_lexer_fast(in, parse_options{}.max_turn_depth, d); !e.empty()) return in_dialect + e;
#endif
    }
    if (std::string e = check_parse(in, tier::log, parse_options{2}); !e.empty()) return "log (max_turn_depth 2): " + e;
    for (auto* fn : {&check_url, &check_json, &check_regex, &check_xpath, &check_jsonpath, &check_path}) {
        if (std::string e = fn(in); !e.empty()) return e;
    }
    return {};
}

}  // namespace plurnk::fuzz
