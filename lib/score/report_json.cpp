// SPDX-License-Identifier: MIT
// The report's JSON (doc/score.md): written with sorted keys so equal reports are equal text,
// read back with the library's JSON reader. Derived rates are written, never read.
#include <algorithm>
#include <cmath>
#include <string>

#include "plurnk/json.hpp"
#include "plurnk/score.hpp"

namespace plurnk::score {

namespace {

// A JSON writer with optional two-space indentation.
class writer {
public:
    explicit writer(bool pretty) : pretty_(pretty) {}
    std::string out;

    void open(char c) {
        value_start();
        out += c;
        ++depth_;
        first_ = true;
    }
    void close(char c) {
        --depth_;
        if (!first_) newline();
        out += c;
        first_ = false;
    }
    void key(std::string_view k) {
        if (!first_) out += ',';
        newline();
        append_json_string(out, k);
        out += pretty_ ? ": " : ":";
        first_ = true;
        after_key_ = true;
    }
    void str(std::string_view s) {
        value_start();
        append_json_string(out, s);
        first_ = false;
    }
    void num(std::uint64_t n) {
        value_start();
        out += std::to_string(n);
        first_ = false;
    }
    void real(double d) {
        value_start();
        append_js_number(out, std::round(d * 1e6) / 1e6);
        first_ = false;
    }
    void null() {
        value_start();
        out += "null";
        first_ = false;
    }

private:
    void value_start() {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (depth_ > 0) {
            if (!first_) out += ',';
            newline();
        }
    }
    void newline() {
        if (!pretty_) return;
        out += '\n';
        out.append(static_cast<std::size_t>(depth_) * 2, ' ');
    }
    bool pretty_;
    int depth_ = 0;
    bool first_ = true;
    bool after_key_ = false;
};

void write_example(writer& w, const std::optional<example>& e) {
    if (!e) return w.null();
    w.open('{');
    w.key("file"), w.str(e->file);
    w.key("id"), w.str(e->id);
    w.key("line"), w.num(e->line);
    w.key("column"), w.num(e->column);
    w.key("message"), w.str(e->message);
    w.key("excerpt"), w.str(e->excerpt);
    w.close('}');
}

void write_rate(writer& w, std::uint64_t k, std::uint64_t n) {
    const rate r = wilson(k, n);
    w.open('{');
    w.key("rate"), w.real(r.value);
    w.key("low"), w.real(r.low);
    w.key("high"), w.real(r.high);
    w.close('}');
}

void write_tallies(writer& w, const std::map<std::string, tally>& m) {
    w.open('{');
    for (const auto& [k, t] : m) {
        w.key(k);
        w.open('{');
        w.key("count"), w.num(t.count);
        w.key("turns"), w.num(t.turns);
        if (const std::string tpl = class_template(k) + near_miss_template(k); !tpl.empty()) w.key("template"), w.str(tpl);
        w.key("examples");
        w.open('[');
        for (const example& e : t.examples) write_example(w, e);
        w.close(']');
        w.close('}');
    }
    w.close('}');
}

void write_counts(writer& w, const std::map<std::string, std::uint64_t>& m) {
    w.open('{');
    for (const auto& [k, n] : m) w.key(k), w.num(n);
    w.close('}');
}

void write_group(writer& w, const group& g, const std::vector<std::string>& channels) {
    w.open('{');
    w.key("turns"), w.num(g.turns);
    w.key("clean"), w.num(g.clean);
    w.key("bytes"), w.num(g.bytes);
    w.key("statements"), w.num(g.statements);
    w.key("textItems"), w.num(g.text_items);
    w.key("turnsWithErrors"), w.num(g.turns_with_errors);
    w.key("turnsWithWarnings"), w.num(g.turns_with_warnings);
    w.key("turnsWithTail"), w.num(g.turns_with_tail);
    w.key("shapeChecked"), w.num(g.shape_checked);
    w.key("errors"), write_tallies(w, g.errors);
    w.key("warnings"), write_tallies(w, g.warnings);
    w.key("tails"), write_tallies(w, g.tails);
    w.key("shape"), write_tallies(w, g.shape);
    w.key("nearMisses"), write_tallies(w, g.near_misses);
    w.key("offRail"), write_tallies(w, g.off_rail);
    w.key("dispositions"), write_counts(w, g.dispositions);
    w.key("ops"), write_counts(w, g.ops);
    w.key("suffixes"), write_counts(w, g.suffixes);
    w.key("rail"), write_counts(w, g.rail);
    w.key("tiers"), write_counts(w, g.tiers);
    w.key("rates");
    w.open('{');
    w.key("clean"), write_rate(w, g.clean, g.turns);
    w.key("errors"), write_rate(w, g.turns_with_errors, g.turns);
    w.key("warnings"), write_rate(w, g.turns_with_warnings, g.turns);
    w.key("tail"), write_rate(w, g.turns_with_tail, g.turns);
    w.key("rail");
    w.open('{');
    for (const std::string& c : channels) {
        const auto it = g.rail.find(c);
        w.key(c), write_rate(w, it == g.rail.end() ? 0 : it->second, g.turns);
    }
    w.close('}');
    w.close('}');
    w.close('}');
}

// ---- Reading ----------------------------------------------------------------------------------

struct reader_error {
    std::string what;
};

// A key as a message quotes it: JSON-escaped (one line whatever it holds), cut at 60 bytes.
std::string quoted(std::string_view key) {
    std::string out;
    append_json_string(out, key.substr(0, 60));
    if (key.size() > 60) out.insert(out.size() - 1, "...");
    return out;
}

const json_value& member(const json_value& v, std::string_view key, json_value::kind_t kind) {
    const json_value* m = v.find(key);
    if (m == nullptr || m->kind != kind) throw reader_error{"\"" + std::string(key) + "\" missing or of the wrong type"};
    return *m;
}

std::uint64_t count_of(const json_value& v, std::string_view what) {
    if (v.kind != json_value::kind_t::number || v.number < 0 || v.number != std::floor(v.number) ||
        v.number > static_cast<double>(k_max_count)) {
        throw reader_error{std::string(what) + " is not a count (an integer from 0 to 2^53 - 1)"};
    }
    return static_cast<std::uint64_t>(v.number);
}

std::uint64_t count_member(const json_value& v, std::string_view key) {
    const json_value* m = v.find(key);
    if (m == nullptr) throw reader_error{"\"" + std::string(key) + "\" missing"};
    return count_of(*m, key);
}

std::uint32_t position_member(const json_value& v, std::string_view key) {
    const std::uint64_t n = count_member(v, key);
    if (n > 0xFFFF'FFFFu) throw reader_error{"an example's \"" + std::string(key) + "\" is past 2^32 - 1"};
    return static_cast<std::uint32_t>(n);
}

std::optional<example> read_example(const json_value* v) {
    if (v == nullptr || v->kind == json_value::kind_t::null) return std::nullopt;
    if (v->kind != json_value::kind_t::object) throw reader_error{"an example is not an object"};
    example e;
    e.file = member(*v, "file", json_value::kind_t::string).string;
    e.id = member(*v, "id", json_value::kind_t::string).string;
    e.line = position_member(*v, "line");
    e.column = position_member(*v, "column");
    e.message = member(*v, "message", json_value::kind_t::string).string;
    e.excerpt = member(*v, "excerpt", json_value::kind_t::string).string;
    return e;
}

// ---- The kinds of keys to_json writes

bool is_class_key(std::string_view k) {
    if (k.starts_with("external: ")) return true;  // a message the core did not make
    return k != message_name(message_id::external) && !class_template(k).empty();
}
bool is_shape_key(std::string_view k) {
    return k == k_shape_no_plan_first || k == k_shape_no_terminal_send || k == k_shape_ops_after_send;
}
// A rule of the rail grammar (`plurnk gbnf`'s names) or k_rail_after_end, k_rail_invalid_utf8.
bool is_rail_rule_key(std::string_view k) {
    return !k.empty() && k.size() <= 64 && std::all_of(k.begin(), k.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
}
bool is_near_key(std::string_view k) {
    return std::find(std::begin(k_near_kinds), std::end(k_near_kinds), k) != std::end(k_near_kinds);
}
bool is_disposition_key(std::string_view k) {
    if (k == "none") return true;
    for (std::uint16_t d : rail::k_dispositions) {
        if (k == std::to_string(d)) return true;
    }
    return false;
}
bool is_op_key(std::string_view k) {
    for (int i = 0; i < k_op_count; ++i) {
        if (k == op_name(static_cast<op>(i))) return true;
    }
    return false;
}
bool is_suffix_key(std::string_view k) {  // SPEC: a suffix is [A-Za-z0-9_]*
    for (char c : k) {
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    }
    return true;
}
bool is_tier_key(std::string_view k) { return tier_from_name(k).has_value(); }
bool is_channel_key(std::string_view k) {
    const auto f = rail::channel_from_name(k);
    return f && *f != rail::channel_format::custom;
}

template <class Valid>
void check_key(std::string_view map, std::string_view key, Valid valid, std::string_view kind) {
    if (!valid(key)) {
        throw reader_error{"\"" + std::string(map) + "\" has the key " + quoted(key) + ", which is not " + std::string(kind)};
    }
}

template <class Valid>
std::map<std::string, tally> read_tallies(const json_value& g, std::string_view key, Valid valid, std::string_view kind) {
    std::map<std::string, tally> m;
    for (const auto& [k, v] : member(g, key, json_value::kind_t::object).object) {
        check_key(key, k, valid, kind);
        if (v.kind != json_value::kind_t::object) throw reader_error{"a tally is not an object"};
        tally& t = m[k];
        t.count = count_member(v, "count");
        t.turns = count_member(v, "turns");
        if (t.turns == 0 || t.turns > t.count) {
            throw reader_error{"\"" + std::string(key) + "\" " + quoted(k) + " counts " + std::to_string(t.count) +
                               " in " + std::to_string(t.turns) + " turns"};
        }
        for (const json_value& e : member(v, "examples", json_value::kind_t::array).array) {
            if (t.examples.size() == k_examples) throw reader_error{"a tally has more than " + std::to_string(k_examples) + " examples"};
            const std::optional<example> x = read_example(&e);
            if (!x) throw reader_error{"an example is null"};
            t.offer(*x);
        }
    }
    return m;
}

template <class Valid>
std::map<std::string, std::uint64_t> read_counts(const json_value& g, std::string_view key, Valid valid,
                                                 std::string_view kind) {
    std::map<std::string, std::uint64_t> m;
    for (const auto& [k, v] : member(g, key, json_value::kind_t::object).object) {
        check_key(key, k, valid, kind);
        m[k] = count_of(v, key);
    }
    return m;
}

// ---- Counts that must agree (what every report the scorer makes satisfies)

// The sum, or k_max_count + 1 when it passes k_max_count (so it equals no count).
std::uint64_t sum_of(const std::map<std::string, std::uint64_t>& m) {
    std::uint64_t n = 0;
    for (const auto& [k, v] : m) n = std::min(n + v, k_max_count + 1);  // each v <= k_max_count
    return n;
}

[[noreturn]] void disagree(const std::string& what) { throw reader_error{"inconsistent counts: " + what}; }

void check_group(const group& g, const std::vector<std::string>& channels) {
    const auto at_most_turns = [&](std::uint64_t n, std::string_view name) {
        if (n > g.turns) {
            disagree(std::string(name) + " (" + std::to_string(n) + ") is more than turns (" + std::to_string(g.turns) + ")");
        }
    };
    at_most_turns(g.clean, "clean");
    at_most_turns(g.turns_with_errors, "turnsWithErrors");
    at_most_turns(g.turns_with_warnings, "turnsWithWarnings");
    at_most_turns(g.turns_with_tail, "turnsWithTail");
    at_most_turns(g.shape_checked, "shapeChecked");
    // A clean turn has no error item and no unparsedTail.
    if (g.clean > g.turns - std::max(g.turns_with_errors, g.turns_with_tail)) {
        disagree("clean turns and turns with errors or a tail are more than the turns");
    }
    const auto within = [&](const std::map<std::string, tally>& m, std::uint64_t turns, std::string_view name,
                            std::string_view of, bool once) {
        for (const auto& [k, t] : m) {
            if (t.turns > turns) disagree(std::string(name) + " " + quoted(k) + " is in more turns than " + std::string(of));
            if (once && t.count != t.turns) disagree(std::string(name) + " " + quoted(k) + " counts more than once a turn");
        }
    };
    within(g.errors, g.turns_with_errors, "errors", "turnsWithErrors", false);
    within(g.warnings, g.turns_with_warnings, "warnings", "turnsWithWarnings", false);
    within(g.tails, g.turns_with_tail, "tails", "turnsWithTail", true);  // one unparsedTail a turn at most
    within(g.shape, g.shape_checked, "shape", "shapeChecked", true);     // one violation of each rule a turn
    within(g.near_misses, g.turns, "nearMisses", "turns", false);
    within(g.off_rail, g.turns, "offRail", "turns", true);  // one rule a turn
    if (g.errors.empty() != (g.turns_with_errors == 0)) disagree("turnsWithErrors and the error classes disagree");
    if (g.warnings.empty() != (g.turns_with_warnings == 0)) disagree("turnsWithWarnings and the advisories disagree");
    std::uint64_t tails = 0;
    for (const auto& [k, t] : g.tails) tails = std::min(tails + t.count, k_max_count + 1);
    if (tails != g.turns_with_tail) disagree("the tails do not add up to turnsWithTail");
    if (sum_of(g.tiers) != g.turns) disagree("the tiers do not add up to turns");
    const auto parse_tier = g.tiers.find(tier_name(tier::parse));
    if ((parse_tier == g.tiers.end() ? 0 : parse_tier->second) != g.shape_checked) {
        disagree("shapeChecked is not the number of parse-tier turns");
    }
    if (sum_of(g.dispositions) != g.shape_checked) disagree("the dispositions do not add up to shapeChecked");
    if (sum_of(g.ops) != g.statements) disagree("the ops do not add up to statements");
    if (sum_of(g.suffixes) != g.statements) disagree("the suffixes do not add up to statements");
    for (const auto& [k, n] : g.rail) {
        if (std::find(channels.begin(), channels.end(), k) == channels.end()) {
            disagree("\"rail\" counts the channel " + quoted(k) + ", which is not in \"channels\"");
        }
        at_most_turns(n, "a rail count");
    }
}

group read_group(const json_value& v, const std::vector<std::string>& channels) {
    if (v.kind != json_value::kind_t::object) throw reader_error{"a group is not an object"};
    group g;
    g.turns = count_member(v, "turns");
    g.clean = count_member(v, "clean");
    g.bytes = count_member(v, "bytes");
    g.statements = count_member(v, "statements");
    g.text_items = count_member(v, "textItems");
    g.turns_with_errors = count_member(v, "turnsWithErrors");
    g.turns_with_warnings = count_member(v, "turnsWithWarnings");
    g.turns_with_tail = count_member(v, "turnsWithTail");
    g.shape_checked = count_member(v, "shapeChecked");
    const char* k_class = "a diagnostic class of the message table";
    g.errors = read_tallies(v, "errors", is_class_key, k_class);
    g.warnings = read_tallies(v, "warnings", is_class_key, k_class);
    g.tails = read_tallies(v, "tails", is_class_key, k_class);
    g.shape = read_tallies(v, "shape", is_shape_key, "a turn-shape rule");
    g.near_misses = read_tallies(v, "nearMisses", is_near_key, "a near-miss kind");
    g.off_rail = read_tallies(v, "offRail", is_rail_rule_key, "a rail rule name ([a-z0-9-], at most 64)");
    g.dispositions = read_counts(v, "dispositions", is_disposition_key, "a SEND disposition code or \"none\"");
    g.ops = read_counts(v, "ops", is_op_key, "an op");
    g.suffixes = read_counts(v, "suffixes", is_suffix_key, "a suffix ([A-Za-z0-9_]*)");
    g.rail = read_counts(v, "rail", is_channel_key, "a rail channel");
    g.tiers = read_counts(v, "tiers", is_tier_key, "a tier");
    check_group(g, channels);
    return g;
}

}  // namespace

std::string report::to_json(bool pretty) const {
    writer w(pretty);
    w.open('{');
    w.key("plurnkScore"), w.num(static_cast<std::uint64_t>(version));
    w.key("groupBy"), w.str(group_by);
    w.key("channels");
    w.open('[');
    for (const std::string& c : channels) w.str(c);
    w.close(']');
    w.key("invalidRecords");
    w.open('{');
    w.key("count"), w.num(invalid_records);
    w.key("example"), write_example(w, invalid_example);
    w.close('}');
    w.key("total"), write_group(w, total(), channels);
    w.key("groups");
    w.open('{');
    for (const auto& [k, g] : groups) w.key(k), write_group(w, g, channels);
    w.close('}');
    // Derived, like the rates: pairwise differences between the groups.
    w.key("comparisons");
    w.open('{');
    w.key("correction"), w.str("holm");
    w.key("interval"), w.str("newcombe-hybrid-score-95");
    w.key("test"), w.str("two-proportion-z");
    w.key("items");
    w.open('[');
    for (const comparison& c : compare_groups(*this)) {
        w.open('{');
        w.key("metric"), w.str(c.metric);
        w.key("a"), w.str(c.a);
        w.key("b"), w.str(c.b);
        w.key("aCount"), w.num(c.a_count);
        w.key("aTurns"), w.num(c.a_turns);
        w.key("bCount"), w.num(c.b_count);
        w.key("bTurns"), w.num(c.b_turns);
        w.key("difference"), w.real(c.difference);
        w.key("low"), w.real(c.low);
        w.key("high"), w.real(c.high);
        w.key("p"), w.real(c.p);
        w.key("pHolm"), w.real(c.p_holm);
        w.close('}');
    }
    w.close(']');
    w.close('}');
    w.close('}');
    return std::move(w.out);
}

std::optional<report> report::from_json(std::string_view text, std::string* error) {
    const auto v = parse_json(text);
    const auto fail = [&](std::string why) -> std::optional<report> {
        if (error) *error = std::move(why);
        return std::nullopt;
    };
    if (!v || v->kind != json_value::kind_t::object) return fail("not a JSON object");
    try {
        report r;
        const json_value* ver = v->find("plurnkScore");
        if (ver == nullptr) return fail("not a plurnk score report (no \"plurnkScore\")");
        if (count_of(*ver, "plurnkScore") != static_cast<std::uint64_t>(k_report_version)) {
            return fail("report version " + stringify_json(*ver) + " (this reader knows " + std::to_string(k_report_version) + ")");
        }
        r.group_by = member(*v, "groupBy", json_value::kind_t::string).string;
        if (r.group_by.empty()) return fail("\"groupBy\" is empty");
        for (const json_value& c : member(*v, "channels", json_value::kind_t::array).array) {
            if (c.kind != json_value::kind_t::string) return fail("a channel is not a string");
            if (!is_channel_key(c.string)) {
                return fail("\"channels\" names " + quoted(c.string) + ", which is not a rail channel (gemma, think or none)");
            }
            if (std::find(r.channels.begin(), r.channels.end(), c.string) != r.channels.end()) {
                return fail("\"channels\" names " + quoted(c.string) + " twice");
            }
            r.channels.push_back(c.string);
        }
        const json_value& inv = member(*v, "invalidRecords", json_value::kind_t::object);
        r.invalid_records = count_member(inv, "count");
        r.invalid_example = read_example(inv.find("example"));
        if (r.invalid_example.has_value() != (r.invalid_records > 0)) {
            return fail("inconsistent counts: invalidRecords and its example disagree");
        }
        const std::size_t keys = group_by_keys(r.group_by).size();
        if (keys > 2) return fail("\"groupBy\" names more than two keys");
        for (const auto& [k, g] : member(*v, "groups", json_value::kind_t::object).object) {
            if (keys == 2 && !split_cross_key(k)) {
                return fail("the group key " + quoted(k) + " is not a cross-tab cell ([A, B] of strings or null)");
            }
            r.groups[k] = read_group(g, r.channels);
        }
        // The total is written for readers; it must be what the groups add up to.
        const group written = read_group(member(*v, "total", json_value::kind_t::object), r.channels);
        group sum;
        for (const auto& [k, g] : r.groups) {
            if (!sum.fits(g)) return fail("the groups add up to more than 2^53 - 1");
            sum.merge(g);
        }
        if (written != sum) return fail("inconsistent counts: \"total\" is not the sum of the groups");
        return r;
    } catch (const reader_error& e) {
        return fail(e.what);
    }
}

}  // namespace plurnk::score
