// SPDX-License-Identifier: MIT
// The scorer: parses each turn, counts what it finds into a report group, and checks it against
// each rail channel's recognizer.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <tuple>
#include <string>
#include <utility>

#include "plurnk/json.hpp"
#include "plurnk/score.hpp"
#include "base/work_counter.hpp"

namespace plurnk::score {

namespace {

using detail::count_score_bytes;

constexpr std::size_t k_excerpt_bytes = 160;

// The start of a line, up to its end or k_excerpt_bytes (cut at a UTF-8 boundary), without a
// trailing '\r'. Looks at k_excerpt_bytes + 1 bytes at most, however long the line.
std::string line_excerpt(std::string_view from) {
    std::string_view s = from.substr(0, k_excerpt_bytes + 1);
    s = s.substr(0, s.find('\n'));
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    if (s.size() > k_excerpt_bytes) {
        std::size_t cut = k_excerpt_bytes;
        while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
        s = s.substr(0, cut);
    }
    count_score_bytes(s.size() + 1);
    return std::string(s);
}

bool is_disposition(double n) {
    for (std::uint16_t d : rail::k_dispositions) {
        if (n == d) return true;
    }
    return false;
}

// The leading ASCII letters of an id: the conformance vectors' family ("g0001" -> "g").
std::string family_of(std::string_view id) {
    std::size_t n = 0;
    while (n < id.size() && ((id[n] >= 'a' && id[n] <= 'z') || (id[n] >= 'A' && id[n] <= 'Z'))) ++n;
    return std::string(id.substr(0, n));
}

// A field as a group key or id: strings as they are, other values as their JSON text.
std::string field_text(json_ref v) {
    if (!v || v.kind() == json_value::kind_t::null) return {};
    if (v.kind() == json_value::kind_t::string) return std::string(v.string());
    return stringify_json(v);
}

json_ref first_field(json_ref obj, std::span<const std::string_view> names) {
    for (std::string_view n : names) {
        if (const json_ref v = obj.find(n)) return v;
    }
    return {};
}

}  // namespace

std::vector<std::string> group_by_keys(std::string_view group_by) {
    std::vector<std::string> keys;
    for (;;) {
        const std::size_t comma = group_by.find(',');
        keys.emplace_back(group_by.substr(0, comma));
        if (comma == std::string_view::npos) return keys;
        group_by.remove_prefix(comma + 1);
    }
}

std::string cross_key(const cross_values& v) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i > 0) out += ',';
        if (v[i]) {
            append_json_value_string(out, *v[i]);
        } else {
            out += "null";
        }
    }
    return out + "]";
}

std::optional<cross_values> split_cross_key(std::string_view key) {
    const auto v = parse_json(key);
    if (!v || v->kind != json_value::kind_t::array || v->array.size() != 2) return std::nullopt;
    cross_values out;
    for (std::size_t i = 0; i < 2; ++i) {
        const json_value& e = v->array[i];
        if (e.kind == json_value::kind_t::string) {
            out[i] = e.string;
        } else if (e.kind != json_value::kind_t::null) {
            return std::nullopt;
        }
    }
    if (cross_key(out) != key) return std::nullopt;  // only the one spelling cross_key writes
    return out;
}

namespace {

// A field as a key value; nullopt when the record lacks it (absent or null).
std::optional<std::string> present(json_ref v) {
    if (!v || v.kind() == json_value::kind_t::null) return std::nullopt;
    return field_text(v);
}

// One class's events in the turn being scored: the first one gives the turn to the tally, and
// the smallest (line, column, message) is the turn's candidate for the tally's example (within a
// turn the file and id are the same, and the excerpt follows from the line).
struct candidate {
    tally* t;
    std::uint32_t line, column;
    std::string_view message;  // a view into the parse result or a literal
};

// The end of the line that starts at `at` (its '\n', or the text's end), the line scanned once.
std::size_t line_end(std::string_view text, std::size_t at) {
    const std::size_t nl = std::min(text.find('\n', at), text.size());
    count_score_bytes(nl - at + 1);
    return nl;
}

// Offers each candidate to its slot. Only candidates that can enter the slot's sample get an
// example built, and their excerpts (the line before, the line, the line after) are cut in one
// pass over the text (candidates sorted by line), so a turn costs its length once, however many
// diagnostics it has.
[[gnu::noinline]] void offer_examples(std::vector<candidate>& cands, std::string_view text, std::string_view file, std::string_view id) {
    const std::uint64_t key = sample_key(file, id);
    std::erase_if(cands, [&](const candidate& c) { return !c.t->wants(key, file, id); });
    std::sort(cands.begin(), cands.end(), [](const candidate& a, const candidate& b) { return a.line < b.line; });
    constexpr std::size_t none = std::string_view::npos;
    std::size_t at = 0;        // the start of line `line` in text, npos past the last line
    std::size_t before = none;  // the start of the line before it
    std::size_t end = none;    // the end of line `line` (npos: not found yet)
    std::uint32_t line = 1;
    for (const candidate& c : cands) {
        const std::uint32_t want = std::max<std::uint32_t>(c.line, 1);
        while (line < want && at != none) {
            if (end == none) end = line_end(text, at);
            before = at;
            at = end == text.size() ? none : end + 1;
            end = none;
            ++line;
        }
        std::string excerpt;
        if (at != none) {
            if (before != none) excerpt = line_excerpt(text.substr(before)) + "\n";
            excerpt += line_excerpt(text.substr(at));
            if (end == none) end = line_end(text, at);
            if (end + 1 < text.size()) excerpt += "\n" + line_excerpt(text.substr(end + 1));
        }
        c.t->offer(example{std::string(file), std::string(id), c.line, c.column, std::string(c.message), std::move(excerpt)});
    }
}

}  // namespace

// ---- Merging ----------------------------------------------------------------------------------

std::uint64_t sample_key(std::string_view file, std::string_view id) noexcept {
    // FNV-1a over file, a NUL and id, from the seed, then splitmix64's finalizer to spread it.
    std::uint64_t h = 0xcbf29ce484222325ull ^ k_sample_seed;
    const auto eat = [&](std::string_view s) {
        for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    };
    eat(file);
    h *= 0x100000001b3ull;  // the NUL between them
    eat(id);
    h ^= h >> 30, h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27, h *= 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

namespace {
bool sample_less(const example& a, const example& b) {
    const std::uint64_t ka = sample_key(a.file, a.id), kb = sample_key(b.file, b.id);
    return ka != kb ? ka < kb : a < b;
}
}  // namespace

bool tally::wants(std::uint64_t key, std::string_view file, std::string_view id) const {
    if (examples.size() < k_examples) return true;
    const example& last = examples.back();
    const std::uint64_t k = sample_key(last.file, last.id);
    using turn_of = std::pair<std::string_view, std::string_view>;
    return key < k || (key == k && turn_of(file, id) <= turn_of(last.file, last.id));
}

void tally::offer(example e) {
    const auto at = std::lower_bound(examples.begin(), examples.end(), e, sample_less);
    if (at != examples.end() && *at == e) return;
    if (at == examples.end() && examples.size() >= k_examples) return;
    examples.insert(at, std::move(e));
    if (examples.size() > k_examples) examples.pop_back();
}

void tally::merge(const tally& o) {
    count += o.count;
    turns += o.turns;
    for (const example& e : o.examples) offer(e);
}

namespace {
template <class V>
void merge_map(std::map<std::string, V>& into, const std::map<std::string, V>& from) {
    for (const auto& [k, v] : from) {
        if constexpr (std::is_same_v<V, tally>) {
            into[k].merge(v);
        } else {
            into[k] += v;
        }
    }
}
}  // namespace

namespace {
bool sum_fits(std::uint64_t a, std::uint64_t b) noexcept { return a <= k_max_count && b <= k_max_count - a; }

template <class V>
bool maps_fit(const std::map<std::string, V>& into, const std::map<std::string, V>& from) {
    for (const auto& [k, v] : from) {
        const auto it = into.find(k);
        if constexpr (std::is_same_v<V, tally>) {
            if (it == into.end() ? !sum_fits(0, v.count) : !sum_fits(it->second.count, v.count)) return false;
        } else {
            if (!sum_fits(it == into.end() ? 0 : it->second, v)) return false;
        }
    }
    return true;
}
}  // namespace

// Tally turns are at most their counts, so checking the counts checks both.
bool group::fits(const group& o) const {
    return sum_fits(turns, o.turns) && sum_fits(clean, o.clean) && sum_fits(bytes, o.bytes) &&
           sum_fits(statements, o.statements) && sum_fits(text_items, o.text_items) &&
           sum_fits(turns_with_errors, o.turns_with_errors) && sum_fits(turns_with_warnings, o.turns_with_warnings) &&
           sum_fits(turns_with_tail, o.turns_with_tail) && sum_fits(shape_checked, o.shape_checked) &&
           maps_fit(errors, o.errors) && maps_fit(warnings, o.warnings) && maps_fit(tails, o.tails) &&
           maps_fit(shape, o.shape) && maps_fit(near_misses, o.near_misses) && maps_fit(off_rail, o.off_rail) &&
           maps_fit(dispositions, o.dispositions) && maps_fit(ops, o.ops) &&
           maps_fit(suffixes, o.suffixes) && maps_fit(rail, o.rail) && maps_fit(tiers, o.tiers);
}

void group::merge(const group& o) {
    turns += o.turns;
    clean += o.clean;
    bytes += o.bytes;
    statements += o.statements;
    text_items += o.text_items;
    turns_with_errors += o.turns_with_errors;
    turns_with_warnings += o.turns_with_warnings;
    turns_with_tail += o.turns_with_tail;
    shape_checked += o.shape_checked;
    merge_map(errors, o.errors);
    merge_map(warnings, o.warnings);
    merge_map(tails, o.tails);
    merge_map(shape, o.shape);
    merge_map(near_misses, o.near_misses);
    merge_map(off_rail, o.off_rail);
    merge_map(dispositions, o.dispositions);
    merge_map(ops, o.ops);
    merge_map(suffixes, o.suffixes);
    merge_map(rail, o.rail);
    merge_map(tiers, o.tiers);
}

group report::total() const {
    group t;
    for (const auto& [k, g] : groups) t.merge(g);
    return t;
}

std::string report::merge(const report& o) {
    if (o.version != version) return "the reports have different versions";
    if (o.group_by != group_by) return "the reports are grouped differently ('" + group_by + "' and '" + o.group_by + "')";
    if (o.channels != channels) return "the reports checked different rail channels";
    const auto too_large = "the merged counts would pass 2^53 - 1 (the largest integer JSON keeps exactly)";
    if (!sum_fits(invalid_records, o.invalid_records)) return too_large;
    const group none;
    for (const auto& [k, g] : o.groups) {
        const auto it = groups.find(k);
        if (!(it == groups.end() ? none : it->second).fits(g)) return too_large;
    }
    invalid_records += o.invalid_records;
    if (o.invalid_example && (!invalid_example || *o.invalid_example < *invalid_example)) invalid_example = o.invalid_example;
    for (const auto& [k, g] : o.groups) groups[k].merge(g);
    return {};
}

rate wilson(std::uint64_t k, std::uint64_t n) noexcept {
    if (n == 0) return {};
    constexpr double z = 1.959963984540054;
    const double nn = static_cast<double>(n);
    const double p = static_cast<double>(k) / nn;
    const double denom = 1 + z * z / nn;
    const double centre = (p + z * z / (2 * nn)) / denom;
    const double half = z * std::sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
    return {p, k == 0 ? 0.0 : std::max(0.0, centre - half), k == n ? 1.0 : std::min(1.0, centre + half)};
}

// ---- Classes ----------------------------------------------------------------------------------

// The message table's class name; a message the core did not make (id external) is its own class.
std::string diagnostic_class(const diagnostic& d) {
    if (d.id == message_id::external) return std::string("external: ").append(d.message);
    return std::string(message_name(d.id));
}
// The text after the last placeholder of a template ("" when it ends with one).
std::string_view fixed_end(std::string_view tpl) {
    const std::size_t close = tpl.rfind('}');
    return close == std::string_view::npos ? tpl : tpl.substr(close + 1);
}

// A body left open is its own class when the reason carries the invented-closer advisory (the
// model wrote a closer that is not the op's): that is worth counting apart.
std::string tail_class(const unparsed_tail& t) {
    if (t.reason_id == message_id::external) return "external: " + t.reason;
    if (t.reason_id == message_id::tail_body_unclosed) {
        const std::string_view end = fixed_end(message_template(message_id::tail_invented_closer));
        if (!end.empty() && std::string_view(t.reason).ends_with(end)) {
            return std::string(message_name(message_id::tail_invented_closer));
        }
    }
    return std::string(message_name(t.reason_id));
}

std::string class_template(std::string_view key) {
    if (key == message_name(message_id::tail_invented_closer)) {
        return std::string(message_template(message_id::tail_body_unclosed)) +
               std::string(message_template(message_id::tail_invented_closer));
    }
    for (std::size_t i = 0; i < k_message_count; ++i) {
        const auto id = static_cast<message_id>(i);
        if (message_name(id) == key) return std::string(message_template(id));
    }
    return {};
}

// ---- The scorer -------------------------------------------------------------------------------

scorer::scorer(options o) : o_(std::move(o)), keys_(group_by_keys(o_.group_by)) {
    if (keys_.size() > 2 || (keys_.size() == 2 && (keys_[0].empty() || keys_[1].empty()))) {
        throw std::invalid_argument("group_by takes one key or two (A,B), not '" + o_.group_by + "'");
    }
    for (rail::channel_format f : o_.channels) {
        rail::options ro;
        ro.channel = f;
        ro.max_statements = o_.max_statements;
        ro.suffixes = o_.suffixes;
        ro.dialect = o_.dialect;  // the rail of the dialect the turns are written in
        const result<rail::grammar> b = rail::build(ro);
        if (!b) throw std::invalid_argument("rail options: " + b.problem().message);
        channel_names_.emplace_back(rail::channel_name(f));
        recognizers_.emplace_back(b.value());
    }
}
scorer::~scorer() = default;
scorer::scorer(scorer&&) noexcept = default;
scorer& scorer::operator=(scorer&&) noexcept = default;

report scorer::empty_report() const {
    report r;
    r.group_by = o_.group_by;
    r.channels = channel_names_;
    return r;
}

std::vector<bool> scorer::on_rail(std::string_view text) {
    std::vector<bool> out;
    for (rail_recognizer& rec : recognizers_) out.push_back(rec.accepts(text));
    return out;
}

namespace {

// The classes one turn counts into. Each class seen in the turn has one candidate: its index, by
// (map, class key), and for the message table's classes of errors and advisories also by message
// id (no key to make). Lives on the heap (scorer::add's frame is on the stack while it parses).
class turn_classes {
public:
    explicit turn_classes(group& g) : g_(g) {
        for (auto& a : by_id_) a.fill(UINT32_MAX);
        near_first_.fill(SIZE_MAX);
    }

    // Counts an event of class `key` of `m` at `at`: the class's first in the turn gives the turn
    // to its tally and makes its candidate. Returns the candidate's index.
    std::size_t count(std::map<std::string, tally>& m, std::string key, position at, std::string_view message) {
        const auto it = m.try_emplace(std::move(key)).first;
        const auto [s, first] = seen_.try_emplace({&m, it->first}, cands_.size());
        if (first) {
            ++it->second.turns;
            cands_.push_back({&it->second, at.line, at.column, message});
        }
        count_at(s->second, at, message);
        return s->second;
    }

    // Counts another event of candidate `c`'s class: the smallest (line, column, message) stays.
    void count_at(std::size_t c, position at, std::string_view message) {
        candidate& x = cands_[c];
        ++x.t->count;
        if (std::tie(at.line, at.column, message) < std::tie(x.line, x.column, x.message)) {
            x.line = at.line, x.column = at.column, x.message = message;
        }
    }

    // An error or advisory item.
    [[gnu::noinline]] void diagnostic(const plurnk::diagnostic& d) {
        const bool warning = d.severity == severity::warning;
        auto& m = warning ? g_.warnings : g_.errors;
        const auto id = static_cast<std::size_t>(d.id);
        if (d.id == message_id::external || id >= k_message_count) {
            count(m, diagnostic_class(d), d.position, d.message);
        } else if (std::uint32_t& c = by_id_[warning][id]; c == UINT32_MAX) {
            c = static_cast<std::uint32_t>(count(m, diagnostic_class(d), d.position, d.message));
        } else {
            count_at(c, d.position, d.message);
        }
    }

    // A near-miss (near_miss_sink). The first of a kind in the turn is its candidate (lines only
    // grow), so only it gets a message made.
    [[gnu::noinline]] void near_miss(std::string_view kind, position at, std::string_view op) {
        const auto k = static_cast<std::size_t>(std::find(std::begin(k_near_kinds), std::end(k_near_kinds), kind) -
                                                std::begin(k_near_kinds));
        if (near_first_[k] == SIZE_MAX) {
            near_messages_[k] = near_miss_message(kind, op);
            near_first_[k] = count(g_.near_misses, std::string(kind), at, near_messages_[k]);
        } else {
            count_at(near_first_[k], at, near_messages_[k]);
        }
    }

    [[nodiscard]] std::vector<candidate>& candidates() noexcept { return cands_; }
    // The off-rail class's message, which its candidate views.
    [[nodiscard]] std::string& off_rail_message() noexcept { return off_rail_message_; }

private:
    group& g_;
    std::vector<candidate> cands_;
    std::map<std::pair<const void*, std::string_view>, std::size_t> seen_;
    std::array<std::uint32_t, k_message_count> by_id_[2];
    std::array<std::string, std::size(k_near_kinds)> near_messages_;  // the candidates' messages view them
    std::array<std::size_t, std::size(k_near_kinds)> near_first_;
    std::string off_rail_message_;
};

// The turn shape, read in the same pass as the classes: the first and last statements, the
// terminal SEND (the first with a disposition code) and the first op after it (a statement or an
// error item); and the ops and suffixes.
class turn_shape {
public:
    explicit turn_shape(group& g) : g_(g), suffix_(g.suffixes.end()) {}

    void statement(const plurnk::statement& st) {
        ++ops_[static_cast<std::size_t>(st.op)];
        if (suffix_ == g_.suffixes.end() || suffix_->first != st.suffix) {
            suffix_ = g_.suffixes.try_emplace(std::string(st.suffix)).first;
        }
        ++suffix_->second;
        if (statements_++ == 0) first_op_ = st.op, first_at_ = st.position;
        last_at_ = st.position;
        if (terminal_) {
            if (!after_terminal_) after_terminal_ = st.position;
        } else if (st.op == op::SEND && st.signal.kind == signal::kind_t::number && is_disposition(st.signal.number)) {
            terminal_ = static_cast<int>(st.signal.number);
        }
    }

    void diagnostic(const plurnk::diagnostic& d) {
        const bool warning = d.severity == severity::warning;
        (warning ? any_warning_ : any_error_) = true;
        if (terminal_ && !after_terminal_ && !warning) after_terminal_ = d.position;
    }

    // Adds the turn's counts to the group, and (in the parse tier) its shape classes to `classes`.
    [[gnu::noinline]] void finish(tier tr, turn_classes& classes) {
        g_.statements += statements_;
        for (std::size_t o = 0; o < ops_.size(); ++o) {
            if (ops_[o] > 0) g_.ops[op_name(static_cast<op>(o))] += ops_[o];
        }
        if (any_error_) ++g_.turns_with_errors;
        if (any_warning_) ++g_.turns_with_warnings;
        if (tr != tier::parse) return;
        ++g_.shape_checked;
        // Examples about no statement are at line 0.
        if (statements_ == 0) first_at_ = last_at_ = position{0, 0};
        if (statements_ == 0 || first_op_ != op::PLAN) {
            classes.count(g_.shape, std::string(k_shape_no_plan_first), first_at_, "the first statement is not PLAN");
        }
        if (!terminal_) {
            classes.count(g_.shape, std::string(k_shape_no_terminal_send), last_at_, "no disposition-coded SEND");
            ++g_.dispositions["none"];
            return;
        }
        ++g_.dispositions[std::to_string(*terminal_)];
        if (after_terminal_) {
            classes.count(g_.shape, std::string(k_shape_ops_after_send), *after_terminal_, "an operation after the terminal SEND");
        }
    }

private:
    group& g_;
    std::array<std::uint64_t, k_op_count> ops_{};
    std::map<std::string, std::uint64_t>::iterator suffix_;  // the last suffix counted (statements mostly share one)
    std::size_t statements_ = 0;
    op first_op_ = op::PLAN;
    position first_at_{}, last_at_{};
    std::optional<int> terminal_;
    std::optional<position> after_terminal_;
    bool any_error_ = false, any_warning_ = false;
};

// Line and column of byte `offset` of `text`, counted from the text's start (the rail refuses
// at a code point's start, so the bytes before it are whole code points).
position position_at(std::string_view text, std::size_t offset) {
    const std::string_view before = text.substr(0, offset);
    count_score_bytes(before.size());
    const std::size_t nl = before.rfind('\n');
    const std::string_view last = nl == std::string_view::npos ? before : before.substr(nl + 1);
    const auto line = static_cast<std::uint32_t>(1 + std::count(before.begin(), before.end(), '\n'));
    const auto column = static_cast<std::uint32_t>(std::count_if(
        last.begin(), last.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; }));
    return position{line, column};
}

// Counts the off-rail class of a turn the rail `name` refused farthest in, by `off`.
[[gnu::noinline]] void count_off_rail(group& g, std::string_view text, turn_classes& classes, std::string_view name,
                                      const rail_verdict& off) {
    std::string& message = classes.off_rail_message();
    message = "off the " + std::string(name) + " rail at byte " + std::to_string(off.offset) +
              (off.ended_early(text.size()) ? " (the text ended)" : "") + ", in rule " + off.rule;
    classes.count(g.off_rail, off.rule, position_at(text, off.offset), message);
}

// The rails: a turn on none counts under the rule that refused it on the channel it went
// farthest on (the one it was written for), at the first byte refused.
[[gnu::noinline]] void count_rails(std::vector<rail_recognizer>& recognizers, const std::vector<std::string>& names,
                                   group& g, std::string_view text, turn_classes& classes) {
    std::optional<std::size_t> farthest;
    rail_verdict off;
    for (std::size_t c = 0; c < recognizers.size(); ++c) {
        rail_verdict v = recognizers[c].explain(text);
        if (v.accepted) {
            ++g.rail[names[c]];
            farthest.reset();
            off.accepted = true;
        } else if (!off.accepted && (!farthest || v.offset > off.offset)) {
            farthest = c, off = std::move(v);
        }
    }
    if (farthest) count_off_rail(g, text, classes, names[*farthest], off);
}

// The report's group `key` (made when new).
[[gnu::noinline]] group& group_of(report& r, std::string_view key) { return r.groups[std::string(key)]; }

// The turn's items, in order: near-misses, classes of errors and advisories, the shape, the tail.
[[gnu::noinline]] void count_items(group& g, const parse_result& res, const turn& t, turn_classes& classes) {
    ++g.turns;
    g.bytes += t.text.size();
    ++g.tiers[tier_name(t.tier)];
    if (res.clean()) ++g.clean;
    const auto shape = std::make_unique<turn_shape>(g);
    near_miss_finder near(t.text);
    const near_miss_sink near_found = [&classes](std::string_view kind, position at, std::string_view op) {
        classes.near_miss(kind, at, op);
    };
    for (const item& it : res.items) {
        if (const auto* st = std::get_if<statement>(&it)) {
            near.other(st->span, st->position, near_found);
            shape->statement(*st);
        } else if (const auto* d = std::get_if<diagnostic>(&it)) {
            near.other(d->span, d->position, near_found);
            classes.diagnostic(*d);
            shape->diagnostic(*d);
        } else {
            ++g.text_items;
            near.text(std::get<text_item>(it), near_found);
        }
    }
    near.finish(near_found);
    if (res.tail) {
        ++g.turns_with_tail;
        classes.count(g.tails, tail_class(*res.tail), res.tail->from, res.tail->reason);
    }
    shape->finish(t.tier, classes);
}

}  // namespace

// Its frame is on the stack while the turn parses and the rails run: it keeps the parse result
// and calls the rest.
void scorer::add(report& r, const turn& t) {
    group& g = group_of(r, t.group);
    parse_options po;
    po.borrow_input = true;  // t.text outlives the result
    po.dialect = o_.dialect;
    const parse_result res = parse(t.text, t.tier, po);
    const auto classes = std::make_unique<turn_classes>(g);
    count_items(g, res, t, *classes);
    count_rails(recognizers_, channel_names_, g, t.text, *classes);
    offer_examples(classes->candidates(), t.text, t.file, t.id);
}

void scorer::note_fields(const json_ref& rec) const {
    for (const json_member m : rec) {
        if (fields_seen_.size() >= k_max_fields_seen) return;
        const std::string_view name = m.key;
        std::string_view n = std::string_view(name).substr(0, 64);
        while (n.size() < name.size() && !n.empty() && (static_cast<unsigned char>(name[n.size()]) & 0xC0) == 0x80) {
            n.remove_suffix(1);  // cut at a UTF-8 boundary
        }
        if (std::find(fields_seen_.begin(), fields_seen_.end(), n) == fields_seen_.end()) fields_seen_.emplace_back(n);
    }
}

std::optional<record> scorer::read_record(std::string_view line, std::string_view file, std::size_t line_no,
                                          std::string& why) const {
    why.clear();
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) return std::nullopt;
    const auto fail = [&](std::string_view reason) -> std::optional<record> {
        why = reason;
        return std::nullopt;
    };
    // Read compactly: a record may carry megabytes of fields the scorer does not use.
    const auto doc = json_document::parse(line);
    if (!doc || doc->root().kind() != json_value::kind_t::object) return fail("not a JSON object");
    const json_ref rec = doc->root();
    const std::string_view chosen[] = {o_.text_field};
    using names = std::span<const std::string_view>;
    const json_ref text = first_field(rec, o_.text_field.empty() ? names(k_text_fields) : names(chosen));
    if (text.kind() != json_value::kind_t::string) {
        note_fields(rec);
        if (!o_.text_field.empty()) return fail("no string field \"" + o_.text_field + "\" (--text-field)");
        return fail("no string field \"text\" (or \"output\", \"completion\", \"response\", \"input\")");
    }
    record out;
    out.text = text.string();
    const json_ref idv = first_field(rec, k_id_fields);
    out.id = idv ? field_text(idv) : "#" + std::to_string(line_no);
    out.tier = o_.forced_tier.value_or(tier::parse);
    if (const json_ref tv = rec.find("tier"); !o_.forced_tier && tv && tv.kind() != json_value::kind_t::null) {
        const auto named = tv.kind() == json_value::kind_t::string ? tier_from_name(tv.string()) : std::nullopt;
        if (!named) return fail("\"tier\" is not one of parse, statements, log, client");
        out.tier = *named;
    }
    const auto value = [&](const std::string& by) -> std::optional<std::string> {
        if (by == "model") return present(first_field(rec, k_model_fields));
        if (by == "file") return std::string(file);
        if (by == "family") return family_of(out.id);
        if (by == "tier") return std::string(tier_name(out.tier));
        if (by == "id") return out.id;
        return present(rec.find(by));
    };
    if (keys_.size() == 2) {
        out.group = cross_key({value(keys_[0]), value(keys_[1])});
    } else {
        out.group = value(keys_[0]).value_or("");
    }
    return out;
}

void scorer::add_line(report& r, std::string_view line, std::string_view file, std::size_t line_no) {
    std::string why;
    const auto rec = read_record(line, file, line_no, why);
    if (rec) return add(r, turn{rec->text, file, rec->id, rec->group, rec->tier});
    if (why.empty()) return;  // a blank line
    ++r.invalid_records;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // The id is built by appending (g++ 12 -O3 misreads "#" + string as an overlapping copy).
    std::string id = "#";
    id += std::to_string(line_no);
    example e{std::string(file), std::move(id), static_cast<std::uint32_t>(line_no), 0, why, line_excerpt(line)};
    if (!r.invalid_example || e < *r.invalid_example) r.invalid_example = std::move(e);
}

void scorer::add_jsonl(report& r, std::string_view text, std::string_view file, std::size_t first_line) {
    std::size_t line_no = first_line;
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        add_line(r, text.substr(0, nl), file, line_no++);
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
}

void scorer::add_turn_file(report& r, std::string_view text, std::string_view file) {
    const tier tr = o_.forced_tier.value_or(tier::parse);
    const auto value = [&](const std::string& by) -> std::optional<std::string> {
        if (by == "file") return std::string(file);
        if (by == "tier") return std::string(tier_name(tr));
        return std::nullopt;
    };
    const std::string key = keys_.size() == 2 ? cross_key({value(keys_[0]), value(keys_[1])}) : value(keys_[0]).value_or("");
    add(r, turn{text, file, "", key, tr});
}

}  // namespace plurnk::score
