// SPDX-License-Identifier: MIT
// Scoring model output (doc/score.md): how often turns are admitted cleanly, which diagnostic
// classes occur, turn shape, SEND dispositions, op and suffix usage, and whether each turn is on
// the generation rail. A report is a plain value of counts: reports of disjoint inputs merge
// exactly (counts add, and each class's examples are a seeded sample that merges exactly), so shards
// scored anywhere and merged equal one run over all of them.
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/ast.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/rail.hpp"

namespace plurnk {
class json_ref;
}

namespace plurnk::score {

inline constexpr int k_report_version = 3;  // 2: a sample of examples per class; 3: near-misses, off-rail rules

// The largest count a report holds: 2^53 - 1, the largest integer every JSON reader (JavaScript's
// included) keeps exactly. report::merge refuses a sum past it and from_json a count past it, so
// a report reads back whatever was written.
inline constexpr std::uint64_t k_max_count = (std::uint64_t{1} << 53) - 1;

// ---- The rail recognizer --------------------------------------------------------------------

// Where a text leaves the rail. `offset` is the byte offset of the first code point the rail
// refuses (text.size() when the text ends before a sentence does); `rule` names the deepest rule
// of the grammar (`plurnk gbnf`'s text: "regex", "target", "tail", ...) that holds every
// alternative still open just before it, k_rail_after_end when the text went on after a whole
// turn, k_rail_invalid_utf8 at an ill-formed byte, k_rail_too_deep where the text nests deeper
// than the recognizer follows (k_rail_max_depth).
struct rail_verdict {
    bool accepted = false;
    std::size_t offset = 0;  // meaningful when !accepted
    std::string rule;        // meaningful when !accepted
    [[nodiscard]] bool ended_early(std::size_t text_size) const noexcept { return !accepted && offset == text_size; }
};
inline constexpr std::string_view k_rail_invalid_utf8 = "invalid-utf8";
inline constexpr std::string_view k_rail_after_end = "after-end";
inline constexpr std::string_view k_rail_too_deep = "too-deep";
// The deepest the recognizer follows the grammar's nesting: this many open frames on one stack
// (a nested regex group takes one to four: 1,000 to 4,000 groups). Past it a turn is off the
// rail: each level deeper is a new state, about 10 µs a byte, so the bound keeps a hostile turn
// cheap.
inline constexpr std::size_t k_rail_max_depth = 4096;

// Decides whether a raw turn is a sentence of a rail grammar (rail::build), the way llama.cpp's
// sampler advances its stacks code point by code point. The sets of stacks reached are cached
// as the states of a lazily built automaton, so after a warm-up a turn costs a table look-up per
// byte. Not thread-safe (the cache): use one per thread.
class rail_recognizer {
public:
    explicit rail_recognizer(const rail::grammar& g);
    ~rail_recognizer();
    rail_recognizer(rail_recognizer&&) noexcept;
    rail_recognizer& operator=(rail_recognizer&&) noexcept;
    rail_recognizer(const rail_recognizer&) = delete;
    rail_recognizer& operator=(const rail_recognizer&) = delete;

    // True when `text` (UTF-8; an ill-formed byte is never on the rail) is a whole sentence.
    [[nodiscard]] bool accepts(std::string_view text);
    // Why `text` is or is not a sentence: accepts()'s answer, and where and in which rule the
    // rail refused it (see rail_verdict).
    [[nodiscard]] rail_verdict explain(std::string_view text);
    // Automaton states built so far (for tests and tuning).
    [[nodiscard]] std::size_t states() const noexcept;

private:
    struct impl;
    std::unique_ptr<impl> p_;
};

// ---- The report -----------------------------------------------------------------------------

// Where an example comes from and what it shows. Examples compare by all fields in order, so the
// smallest is well defined even for duplicate ids.
struct example {
    std::string file;     // the input file ("-" for standard input, "" for texts given directly)
    std::string id;       // the record's id ("#N" for line N of a JSON Lines file without one)
    std::uint32_t line = 0;    // 1-based position in the turn (0 when not about a position)
    std::uint32_t column = 0;  // 0-based, code points
    std::string message;  // the rendered message (or what the example is about)
    std::string excerpt;  // the turn's lines around that position (the line before, the line and
                          // the line after, each cut at 160 bytes), joined by line feeds
    friend auto operator<=>(const example&, const example&) = default;
    friend bool operator==(const example&, const example&) = default;
};

// Examples kept per class: a sample of the turns with it, chosen by a seeded hash of (file, id),
// so it is a uniform sample of those turns and the same however the input is sharded.
inline constexpr std::size_t k_examples = 3;
inline constexpr std::uint64_t k_sample_seed = 0x706c75726e6b;  // "plurnk"
// The sample key of a turn: the k_examples turns with the smallest keys are a class's examples.
[[nodiscard]] std::uint64_t sample_key(std::string_view file, std::string_view id) noexcept;

// A class of events: how many, in how many turns, and a sample of examples (one per turn, the
// turn's first; ordered by sample key, then by the example).
struct tally {
    std::uint64_t count = 0;  // occurrences
    std::uint64_t turns = 0;  // turns with at least one
    std::vector<example> examples;  // at most k_examples
    // Whether an example of the turn (file, id), of sample key `key`, could be kept.
    [[nodiscard]] bool wants(std::uint64_t key, std::string_view file, std::string_view id) const;
    // Keeps `e` when it is among the k_examples smallest by (sample key, example).
    void offer(example e);
    void merge(const tally& o);
    friend bool operator==(const tally&, const tally&) = default;
};

// The turn-shape violations (tier parse only): keys of group::shape.
inline constexpr std::string_view k_shape_no_plan_first = "no-plan-first";
inline constexpr std::string_view k_shape_no_terminal_send = "no-terminal-send";
inline constexpr std::string_view k_shape_ops_after_send = "ops-after-send";

// Near-misses (doc/score.md): lines of a turn's text that look like damaged statements; keys of
// group::near_misses.
inline constexpr std::string_view k_near_opener_missing_lt = "opener-missing-lt";
inline constexpr std::string_view k_near_stray_closer = "stray-closer";
inline constexpr std::string_view k_near_statement_in_fence = "statement-in-fence";
inline constexpr std::string_view k_near_kinds[] = {k_near_opener_missing_lt, k_near_stray_closer,
                                                    k_near_statement_in_fence};
// Called with the kind, the position (1-based line, 0-based column in code points) and the op
// keyword the line names.
using near_miss_sink = std::function<void(std::string_view kind, position at, std::string_view op)>;
// Finds the near-misses of one turn, at most one per line: give it the turn's items in order
// (text items to text(), statements and diagnostics to other()), then call finish(). Text items
// that touch (by span) are one text (the parser splits `<< READ` after its `<<`); a line's start
// (or end) is looked at only when it is text. A ``` (or ~~~) fence stays open from one text item
// to the next. It looks at the blanks after each text item once and at an item's first and last
// few bytes (an op keyword and its suffix), not at the bytes between: a text item holds no line
// break unless an item after it says otherwise (its line is that of the item's end), and an
// item no later item vouches for is read line by line.
class near_miss_finder {
public:
    explicit near_miss_finder(std::string_view input) noexcept : input_(input) {}  // what the items' spans index
    void text(const text_item& t, const near_miss_sink& found);
    void other(byte_span span, position at, const near_miss_sink& found);
    void finish(const near_miss_sink& found);

private:
    struct piece;
    void resolve(bool one_line, const near_miss_sink& found);
    void look(const piece& p, const near_miss_sink& found);
    std::string_view input_;
    std::optional<text_item> last_;  // the last text item, until an item after it says whether it holds a line break
    bool last_starts_ = false;       // it is the first text of its line
    bool last_joined_ = false;       // it goes on the text before it on its line (only blanks between)
    bool last_touches_ = false;      // it goes on the text before it with nothing between
    std::size_t blanks_start_ = SIZE_MAX, blanks_end_ = SIZE_MAX;  // the blanks after it
    std::uint32_t blank_lines_ = 0;      // the line breaks among them
    bool skip_end_ = false;  // the current line's start was a near-miss, a fence or a `<<`: not its end
    bool fenced_ = false;
    std::optional<position> open_lt_;  // a fenced line that starts with `<<` alone: its op is in the next text
    std::uint64_t looked_ = 0;         // bytes looked at, for the work counter
};
// The message of a near-miss of `kind` naming `op`, and its template (`{op}` for the op; "" when
// `kind` is none of k_near_kinds).
[[nodiscard]] std::string near_miss_message(std::string_view kind, std::string_view op);
[[nodiscard]] std::string near_miss_template(std::string_view kind);

struct group {
    std::uint64_t turns = 0;
    std::uint64_t clean = 0;          // no error item, no unparsedTail (parse_result::clean())
    std::uint64_t bytes = 0;
    std::uint64_t statements = 0;
    std::uint64_t text_items = 0;
    std::uint64_t turns_with_errors = 0;    // at least one error-severity item
    std::uint64_t turns_with_warnings = 0;  // at least one advisory (warning item)
    std::uint64_t turns_with_tail = 0;
    std::uint64_t shape_checked = 0;  // turns of tier parse (the shape applies to them)
    std::map<std::string, tally> errors;    // diagnostic class (diagnostic_class()) -> tally
    std::map<std::string, tally> warnings;  // advisory class -> tally
    std::map<std::string, tally> tails;     // unparsedTail reason class -> tally
    std::map<std::string, tally> shape;     // k_shape_* -> tally (count == turns)
    std::map<std::string, tally> near_misses;  // k_near_* -> tally (lines of text items)
    // Turns on no checked rail, by the rail rule that refused them (rail_verdict::rule) on the
    // channel they went farthest on (count == turns).
    std::map<std::string, tally> off_rail;
    std::map<std::string, std::uint64_t> dispositions;  // terminal SEND code ("102"...), "none"
    std::map<std::string, std::uint64_t> ops;           // op keyword -> statements
    std::map<std::string, std::uint64_t> suffixes;      // suffix ("" for none) -> statements
    std::map<std::string, std::uint64_t> rail;          // channel name -> turns on that rail
    std::map<std::string, std::uint64_t> tiers;         // tier name -> turns
    // Whether merge(o) keeps every count at most k_max_count.
    [[nodiscard]] bool fits(const group& o) const;
    void merge(const group& o);
    friend bool operator==(const group&, const group&) = default;
};

// A 95% Wilson score interval for k successes in n trials (0, 0, 0 when n == 0).
struct rate {
    double value = 0, low = 0, high = 0;
};
[[nodiscard]] rate wilson(std::uint64_t k, std::uint64_t n) noexcept;

// The keys of a group_by: one, or two ("A,B": a cross-tab, each group a cell A x B).
[[nodiscard]] std::vector<std::string> group_by_keys(std::string_view group_by);
// A cross-tab cell's group key: the JSON array [A, B] of its two values as JSON.stringify writes
// it, null for a key the record lacks (["gpt", null]).
using cross_values = std::array<std::optional<std::string>, 2>;
[[nodiscard]] std::string cross_key(const cross_values& v);
// The values of a cell's key; nullopt when `key` is not one cross_key writes.
[[nodiscard]] std::optional<cross_values> split_cross_key(std::string_view key);

struct report {
    int version = k_report_version;
    std::string group_by = "model";
    std::vector<std::string> channels;  // rail channels checked, in order
    std::uint64_t invalid_records = 0;  // JSON Lines lines that are not a record
    std::optional<example> invalid_example;
    std::map<std::string, group> groups;  // group key ("" when the record has none)

    [[nodiscard]] group total() const;
    // Adds `o` in. Both must have the same group_by and channels, and no sum may pass
    // k_max_count; returns why not (and leaves the report as it was), else "".
    std::string merge(const report& o);

    // The documented JSON (doc/score.md): counts, examples, and derived rates with intervals
    // (the rates are written for readers and ignored when reading back).
    [[nodiscard]] std::string to_json(bool pretty = false) const;
    // Reads what to_json wrote; nullopt and `error` set (one line) when it is not a report: not
    // JSON, a member missing or of the wrong type, a key of a kind to_json never writes (a class
    // that is not in the message table, a disposition that is not a code, an op, tier, channel
    // or suffix that is none), a count past k_max_count, or counts that contradict each other
    // (more clean turns than turns, a total that is not the sum of the groups, ...).
    [[nodiscard]] static std::optional<report> from_json(std::string_view text, std::string* error = nullptr);
    friend bool operator==(const report&, const report&) = default;
};

// ---- Comparing groups -----------------------------------------------------------------------

// One difference between two groups: of the share of turns admitted cleanly ("clean"), or of the
// share of turns with a class ("KIND/CLASS", KIND one of errors, warnings, tails, shape, nearMisses; shape
// classes as a share of the parse-tier turns).
struct comparison {
    std::string metric;
    std::string a, b;  // group keys, a < b
    std::uint64_t a_count = 0, a_turns = 0, b_count = 0, b_turns = 0;
    double difference = 0, low = 0, high = 0;  // a's share minus b's; Newcombe's hybrid score 95% interval
    double p = 1;       // two-sided, two-proportion z test (pooled)
    double p_holm = 1;  // Holm-adjusted over all the comparisons returned
    friend bool operator==(const comparison&, const comparison&) = default;
};
// Groups compared at most (the pairs grow as their square) and classes compared besides "clean".
inline constexpr std::size_t k_compared_groups = 16;
inline constexpr std::size_t k_compared_classes = 10;
// Every pair of groups with turns (none when more than k_compared_groups have turns) on "clean"
// and on the k_compared_classes classes in most turns overall; ordered by metric (clean first,
// then by overall turns), then by pair.
[[nodiscard]] std::vector<comparison> compare_groups(const report& r);
// Newcombe's hybrid score interval (his method 10, from Wilson intervals) for ka/na - kb/nb.
[[nodiscard]] rate newcombe(std::uint64_t ka, std::uint64_t na, std::uint64_t kb, std::uint64_t nb) noexcept;

// ---- Rendering ------------------------------------------------------------------------------

struct render_options {
    std::size_t top = 10;  // diagnostic classes listed
};
// A plain-text table for a terminal (UTF-8, about 120 columns with three rail channels).
[[nodiscard]] std::string render_table(const report& r, const render_options& o = {});
// One self-contained HTML page: inline CSS and SVG charts, no script, no network.
[[nodiscard]] std::string render_html(const report& r, const render_options& o = {});
// Every table as one tidy CSV (doc/score.md: a row per group and rate, per group and class, per
// comparison; the pooled rows in the tables total_rates and total_classes).
[[nodiscard]] std::string render_csv(const report& r, const render_options& o = {});
// The rates, the `top` classes per group and the comparisons as LaTeX booktabs tables.
[[nodiscard]] std::string render_latex(const report& r, const render_options& o = {});

// ---- The scorer -----------------------------------------------------------------------------

struct options {
    std::optional<plurnk::tier> forced_tier;  // every turn in this tier (else the record's, else parse)
    // The dialect every turn is parsed in, and whose rail the rail columns check.
    plurnk::parse_dialect dialect = plurnk::parse_dialect::contracts;
    std::vector<rail::channel_format> channels = {rail::channel_format::gemma, rail::channel_format::think,
                                                  rail::channel_format::none};
    // model, file, family (the id's leading letters), tier, id, or any record field; two of
    // them, "A,B", group by both (a cross-tab; group keys are cross_key()s).
    std::string group_by = "model";
    // The record field that holds the turn text; empty: the first of k_text_fields present.
    std::string text_field;
    std::size_t max_statements = 14;                  // the rail's options (plurnk gbnf's)
    std::vector<std::string> suffixes = {"", "1", "2"};
};

// One turn to score.
struct turn {
    std::string_view text{};
    std::string_view file{};
    std::string_view id{};
    std::string_view group{};
    plurnk::tier tier = plurnk::tier::parse;
};

// The class key of a diagnostic and of an unparsedTail reason: the message table's name
// (message_name(), "mismatched_token"), or "external: MESSAGE" for a message the core did not make.
// A tail_body_unclosed reason that carries the invented-closer advisory is "tail_invented_closer".
[[nodiscard]] std::string diagnostic_class(const diagnostic& d);
[[nodiscard]] std::string tail_class(const unparsed_tail& t);
// The template of a class key ("" when the key is not a class of the message table).
[[nodiscard]] std::string class_template(std::string_view key);

// The JSON Lines field names read, in order of preference (doc/score.md).
inline constexpr std::string_view k_text_fields[] = {"text", "output", "completion", "response", "input"};
inline constexpr std::string_view k_id_fields[] = {"id", "doc_id", "sample_id"};
inline constexpr std::string_view k_model_fields[] = {"model", "model_id", "model_name"};

// A JSON Lines record as the scorer reads it (doc/score.md): the text, id, group key and tier.
struct record {
    std::string text;
    std::string id;
    std::string group;
    plurnk::tier tier = plurnk::tier::parse;
};

// Holds the rail recognizers; not thread-safe (use one per thread, merge their reports).
class scorer {
public:
    explicit scorer(options o = {});
    ~scorer();
    scorer(scorer&&) noexcept;
    scorer& operator=(scorer&&) noexcept;

    [[nodiscard]] const options& opts() const noexcept { return o_; }
    // An empty report with this scorer's group_by and channels.
    [[nodiscard]] report empty_report() const;

    // Parses and scores one turn into `r`.
    void add(report& r, const turn& t);
    // Scores one JSON Lines line (line `line_no` of `file`); a line that is not a record counts
    // in r.invalid_records. A blank line is skipped.
    void add_line(report& r, std::string_view line, std::string_view file, std::size_t line_no);
    // The record on line `line_no` of `file`; nullopt for a blank line (`why` left empty) or a
    // line that is not a record (`why` says why).
    [[nodiscard]] std::optional<record> read_record(std::string_view line, std::string_view file, std::size_t line_no,
                                                    std::string& why) const;
    // Every line of `text`, the first being line `first_line`.
    void add_jsonl(report& r, std::string_view text, std::string_view file, std::size_t first_line = 1);
    // A file of one turn: id "", group by file name (model and fields absent).
    void add_turn_file(report& r, std::string_view text, std::string_view file);

    // Where a parse of `text` and the rail checks land, without a report (for callers that
    // want per-turn verdicts): the rail channels accepted, in options order.
    [[nodiscard]] std::vector<bool> on_rail(std::string_view text);

    // The field names of the JSON objects read that had no text field, distinct, in the order
    // first seen (at most k_max_fields_seen, each cut at 64 bytes): what a run that scored no
    // turn names, so the user can pick --text-field.
    static constexpr std::size_t k_max_fields_seen = 16;
    [[nodiscard]] const std::vector<std::string>& fields_seen() const noexcept { return fields_seen_; }

private:
    void note_fields(const json_ref& rec) const;
    options o_;
    mutable std::vector<std::string> fields_seen_;  // read_record notes them
    std::vector<std::string> channel_names_;
    std::vector<std::string> keys_;  // group_by_keys(o_.group_by)
    std::vector<rail_recognizer> recognizers_;
};

}  // namespace plurnk::score
