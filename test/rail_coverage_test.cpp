// SPDX-License-Identifier: MIT
// How much good output the rail covers (issue 35 point 4, doc/rail.md "Coverage"): every single
// statement the conformance vectors admit in the statements tier, put in canonical form by
// plurnk::format, wrapped into a turn (PLAN, the statement, a terminal SEND; a disposition SEND
// is the terminal itself, after one READ) and checked against the no-channel rail with the
// scorer's recognizer, as `plurnk score --channel=none` does. Per family: the parser families
// g and r, and the validator families of v11 (re, url, xp, jp).
//
// A statement off the rail is either of a shape the rail leaves out on purpose (each kind below,
// with its reason, is listed in doc/rail.md) or a miss. In every family the misses must stay
// under 1% of the statements not left out; on g and r the shapes left out stay under a tenth,
// and the validator families' share on the rail stays above the ratchets below. Two
// rails are measured: the default one, whose suffixes are the canon's digits, and one built
// with every suffix the vectors use (`plurnk gbnf --suffixes=...`), which shows that a
// non-digit suffix is only a matter of naming it.
//
// PLURNK_RAIL_COVERAGE_MISSES=N prints the first N misses of each family with the rule and
// byte where the rail refused them. tools/rail-coverage measures the default rail the same way
// through the CLI (`plurnk fmt`, `plurnk score --json --channel=none`).
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/plurnk.hpp"
#include "plurnk/score.hpp"

using namespace plurnk;

namespace {

std::string read_file(const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

// The vectors' family: the id's leading letters ("g", "r"); v11 ids name their validator after
// the first dash ("v11-re-00000" -> "v-re").
std::string family_of(std::string_view id) {
    std::size_t n = 0;
    while (n < id.size() && id[n] >= 'a' && id[n] <= 'z') ++n;
    std::string fam(id.substr(0, n));
    if (fam == "v" || fam == "s") {  // s-seed-0003 -> "s-seed"
        const std::size_t a = id.find('-');
        const std::size_t b = a == std::string_view::npos ? a : id.find('-', a + 1);
        if (b != std::string_view::npos) fam += "-" + std::string(id.substr(a + 1, b - a - 1));
    }
    return fam;
}

bool is_disposition(const statement& s) {
    if (s.op != op::SEND || s.signal.kind != signal::kind_t::number) return false;
    for (const std::uint16_t c : rail::k_dispositions) {
        if (s.signal.number == c) return true;
    }
    return false;
}

// The turn a statement is measured in: a PLAN is the turn's PLAN.
std::string wrap(const statement& s, const std::string& canonical) {
    if (s.op == op::PLAN) return canonical + "\n<<SEND[200]:done:SEND";
    if (is_disposition(s)) return "<<PLAN:p:PLAN\n<<READ(a.md)::READ\n" + canonical;
    return "<<PLAN:p:PLAN\n" + canonical + "\n<<SEND[200]:done:SEND";
}

bool digits_only(std::string_view s) {
    for (const char c : s) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

// Why the rail leaves a URL target out on purpose, or "": the WHATWG parser repairs what was
// written (doc/rail.md "Coverage").
std::string excluded_url(const parsed_path& p) {
    if (p.kind != parsed_path::kind_t::url) return {};
    const std::string_view raw = p.raw;
    const std::size_t start = raw.find("://");
    if (start == std::string_view::npos) return {};
    const bool special = p.scheme == "http" || p.scheme == "https" || p.scheme == "ws" || p.scheme == "wss" ||
                         p.scheme == "ftp" || p.scheme == "file";
    if (!special) return {};
    const std::string_view rest = raw.substr(start + 3);
    const std::string_view authority = rest.substr(0, rest.find_first_of("/?#{ "));
    if (authority.empty() && p.scheme != "file") return "a special URL with an empty host (the parser takes it from the path)";
    if (authority.find('\\') != std::string_view::npos) return "a host the URL parser rewrites (a `\\` read as `/`)";
    std::string_view host = authority.substr(authority.rfind('@') == std::string_view::npos ? 0 : authority.rfind('@') + 1);
    if (!host.empty() && host.front() == '[') return {};
    host = host.substr(0, host.find(':'));
    if (host.find("xn--") != std::string_view::npos) return "a host the URL parser rewrites (punycode `xn--`)";
    if (host.find('~') != std::string_view::npos) return "a host the URL parser rewrites (`~`)";
    if ((!host.empty() && host.front() == '.') || host.find("..") != std::string_view::npos) {
        return "a host the URL parser rewrites (an empty label)";
    }
    if (host.substr(0, 2) == "0x" || host.substr(0, 2) == "0X") return "a host the URL parser rewrites (a hexadecimal IPv4)";
    return {};
}

// Which part of the ECMAScript regex language outside the rail's subset a pattern uses, or ""
// (doc/rail.md "Coverage"). Found by looking for the construct's spelling, so a pattern is only
// ever put down to a construct it contains.
std::string excluded_regex(std::string_view pattern, std::string_view flags) {
    const bool unicode = flags.find_first_of("uv") != std::string_view::npos;
    const auto has = [&](std::string_view s) { return pattern.find(s) != std::string_view::npos; };
    for (std::size_t i = 0; i + 1 < pattern.size(); ++i) {
        if (pattern[i] != '\\') continue;
        const char n = pattern[i + 1];
        if ((n >= '1' && n <= '9') || n == 'k') return "a regex with a back reference (`\\1`, `\\k<n>`)";
        ++i;
    }
    for (std::size_t at = 0; (at = pattern.find("(?<", at)) != std::string_view::npos; at += 3) {
        if (at + 3 < pattern.size() && pattern[at + 3] != '=' && pattern[at + 3] != '!') return "a regex with a named group";
    }
    const char* escape = "a regex escape outside the subset (`\\u{...}`, `\\q{...}`, `\\0`, `\\c1`, an identity escape, another property)";
    if (has("\\u{") || has("\\q") || has("\\e") || has("\\0") || has("\\p{RGI") || has("\\p{Nope") || has("\\P{Nope")) {
        return escape;
    }
    for (std::size_t i = 0; i + 2 < pattern.size(); ++i) {  // `\c` before a non-letter, `\x` without two hex digits
        const char n = pattern[i + 2];
        const bool letter = (n >= 'A' && n <= 'Z') || (n >= 'a' && n <= 'z');
        const bool hex = (n >= '0' && n <= '9') || (n >= 'A' && n <= 'F') || (n >= 'a' && n <= 'f');
        if (pattern[i] == '\\' && ((pattern[i + 1] == 'c' && !letter) || (pattern[i + 1] == 'x' && (!hex || i + 3 >= pattern.size())))) {
            return escape;
        }
    }
    // A quantified lookahead (Annex B allows it without u and v).
    for (std::size_t at = 0; (at = pattern.find("(?", at)) != std::string_view::npos; ++at) {
        if (at + 2 >= pattern.size() || (pattern[at + 2] != '=' && pattern[at + 2] != '!')) continue;
        std::size_t depth = 0, i = at;
        for (; i < pattern.size(); ++i) {
            if (pattern[i] == '\\') { ++i; continue; }
            if (pattern[i] == '(') ++depth;
            if (pattern[i] == ')' && --depth == 0) break;
        }
        if (i + 1 < pattern.size() && std::string_view("*+?{").find(pattern[i + 1]) != std::string_view::npos) {
            return "a regex with a quantified lookahead";
        }
    }
    if (has("[\\d-") || has("[\\b]") || has("[^]") || has("[]") || has("[[") || has("&&") || has("[\\u{") ||
        (unicode && (has("[a-]") || has("[-a]")))) {
        return "a regex class outside the subset (a range from a class escape, `[\\b]`, `[^]`, `[]`, a nested or `&&` class)";
    }
    if (has("{9999999999")) return "a regex quantifier bound of ten digits or more";
    if (has("{,") || has("{a}") || has("{+") || has("{*") || has("{[")) return "regex braces that are no quantifier (`{,5}`, `{a}`, a lone `{`)";
    return {};
}

// Why the service dialect's rail leaves this statement's shape out on purpose, or "" (doc/rail.md
// "The service dialect's rail").
std::string excluded_service(const statement& s) {
    const auto hash_local = [](const parsed_path& p) { return p.kind == parsed_path::kind_t::local && !p.raw.empty() && p.raw.front() == '#'; };
    const auto* dest = std::get_if<resource_selection>(&s.body);
    if ((s.target && hash_local(*s.target)) || (dest != nullptr && hash_local(dest->target))) {
        return "a local path starting with `#` (service: a leading `#` claims a regex path; these are local only because the regex fails)";
    }
    if (const auto* sel = std::get_if<resource_selection>(&s.body); sel != nullptr && sel->target.kind == parsed_path::kind_t::regex) {
        return "a regex COPY/MOVE destination (the runtime refuses it: SERVICE.md S7)";
    }
    return {};
}

// Why the rail leaves this statement's shape out on purpose (doc/rail.md "Coverage"), or "".
// Decided from the statement alone, not from the grammar.
std::string excluded_shape(const statement& s, bool default_suffixes, parse_dialect dialect) {
    if (default_suffixes && !digits_only(s.suffix)) return "a suffix that is not digits (excluded by option: the rail names its suffixes)";
    if (dialect == parse_dialect::service) {
        if (std::string why = excluded_service(s); !why.empty()) return why;
    }
    const bool has_target = s.target.has_value();
    const bool tags = s.signal.kind == signal::kind_t::tags;
    const auto* m = std::get_if<matcher_body>(&s.body);
    switch (s.op) {
        case op::KILL:
            if (!std::holds_alternative<std::monostate>(s.body)) return "a KILL body";
            [[fallthrough]];
        case op::FIND: case op::READ: case op::EDIT: case op::COPY: case op::MOVE: case op::WORK: case op::FORK:
            if (!has_target) return "no target where SPEC op-shapes requires one";
            break;
        case op::FOLD:
            if (!has_target && m == nullptr) return "no target where SPEC op-shapes requires one";
            break;
        case op::OPEN:
            if (!has_target && m == nullptr && !tags) return "no target where SPEC op-shapes requires one";
            break;
        default: break;
    }
    if (s.target) {
        if (std::string why = excluded_url(*s.target); !why.empty()) return why;
    }
    if (const auto* sel = std::get_if<resource_selection>(&s.body)) {
        if (std::string why = excluded_url(sel->target); !why.empty()) return why;
    }
    if (m != nullptr) {
        const std::string_view raw = m->raw;
        if (raw.find('\n') != std::string_view::npos || raw.find('\r') != std::string_view::npos) {
            return "a matcher of more than one line";
        }
        if (!raw.empty() && raw.front() == ':') return "a matcher starting with `:`";
        for (std::size_t at = raw.find(':'); at != std::string_view::npos && at + 1 < raw.size(); at = raw.find(':', at + 1)) {
            if (std::string_view("FRO").find(raw[at + 1]) != std::string_view::npos && m->dialect != dialect::glob) {
                return "a colon before a close letter inside a matcher (`:FIND` in a regex)";
            }
        }
        if (m->dialect == dialect::xpath && raw.size() > 2 && (raw[2] == ' ' || raw[2] == '\t')) {
            return "an XPath whose first step starts with a blank (`// TODO`)";
        }
        if (m->dialect == dialect::regex) {
            if (std::string why = excluded_regex(m->pattern, m->flags); !why.empty()) return why;
            if (!std::is_sorted(m->flags.begin(), m->flags.end(), [](char a, char b) {
                    return std::string_view("dgimsuvy").find(a) < std::string_view("dgimsuvy").find(b);
                })) {
                return "regex flags out of the engine's order (`igmsu`; the rail writes them in the order dgimsuvy)";
            }
        }
    }
    if (s.op == op::PLAN && (s.signal.kind != signal::kind_t::none || s.target || !s.suffix.empty())) {
        return "a PLAN with a slot or suffix (SPEC: the rail's PLAN is slotless and unsuffixed)";
    }
    if (is_disposition(s)) {
        if (s.marker && s.signal.number != rail::k_park_code) return "a scope on a terminal SEND other than [202]";
        if (std::holds_alternative<std::monostate>(s.body)) return "an empty terminal SEND body";
    }
    if ((s.op == op::COPY || s.op == op::MOVE) && std::holds_alternative<std::monostate>(s.body)) {
        return "no destination where SPEC op-shapes requires one";
    }
    // Text coordinates are integers (SPEC text-scope-semantics); the runtime rejects decimals.
    const auto decimal = [](const std::optional<line_marker>& m) {
        if (!m) return false;
        for (const double x : m->marks) {
            if (x != static_cast<double>(static_cast<long long>(x))) return true;
        }
        return false;
    };
    const auto* sel = std::get_if<resource_selection>(&s.body);
    const bool text_scope = s.op == op::EDIT || s.op == op::COPY || s.op == op::MOVE;
    if ((text_scope && decimal(s.marker)) || (sel != nullptr && decimal(sel->marker))) return "a decimal in a text scope";
    return {};
}

}  // namespace

namespace {

// One admitted statement of the vectors, ready to measure.
struct case_t {
    std::string family;
    std::string id;
    std::string suffix;
    std::string turn;            // the canonical statement wrapped into a turn (in the corpus' dialect)
    std::string excluded;        // why the default rail leaves the shape out, or ""
    std::string excluded_wide;   // the same for the rail that names every suffix
};

// The admitted single statements of a corpus (parser.jsonl, or service.jsonl in the service
// dialect), each put in canonical form in that dialect.
std::vector<case_t> load_cases(const char* corpus = "parser.jsonl", parse_dialect dialect = parse_dialect::contracts) {
    const std::string text = read_file(std::filesystem::path(PLURNK_TEST_SOURCE_DIR) / "conformance" / corpus);
    REQUIRE(!text.empty());
    std::vector<case_t> out;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t nl = text.find('\n', at);
        if (nl == std::string::npos) nl = text.size();
        const std::string_view line(text.data() + at, nl - at);
        at = nl + 1;
        const auto v = parse_json(line);
        if (!v || v->kind != json_value::kind_t::object) continue;
        const json_value* tier_v = v->find("tier");
        const json_value* expected = v->find("expected");
        if (tier_v == nullptr || tier_v->string != "statements" || expected == nullptr) continue;
        const json_value* items = expected->find("items");
        if (items == nullptr || items->array.size() != 1 || expected->find("unparsedTail") != nullptr) continue;
        const json_value* kind = items->array.front().find("kind");
        if (kind == nullptr || kind->string != "statement") continue;
        const std::string input = v->find("input")->string;
        parse_options po;
        po.dialect = dialect;
        const parse_result r = parse(input, tier::statements, po);
        REQUIRE(r.items.size() == 1);
        const item it = r.items.front();
        const statement& st = std::get<statement>(it);
        const format_result f = format(st, dialect);
        REQUIRE(f);
        case_t c;
        c.id = v->find("id")->string;
        c.family = family_of(c.id);
        c.suffix = std::string(st.suffix);
        c.turn = wrap(st, f.text);
        c.excluded = excluded_shape(st, true, dialect);
        c.excluded_wide = excluded_shape(st, false, dialect);
        out.push_back(std::move(c));
    }
    return out;
}

struct tally {
    std::size_t statements = 0, on = 0, excluded = 0, misses = 0;
    std::map<std::string, std::size_t> reasons;  // excluded shape -> statements
    std::map<std::string, std::string> example;  // excluded shape -> its first statement's id
    std::vector<std::string> shown;              // misses printed
    [[nodiscard]] double coverage() const {      // on the rail, of the shapes not left out
        const std::size_t n = statements - excluded;
        return n == 0 ? 1.0 : static_cast<double>(on) / static_cast<double>(n);
    }
    [[nodiscard]] double raw() const { return statements == 0 ? 1.0 : static_cast<double>(on) / static_cast<double>(statements); }
};

std::map<std::string, tally> measure(const std::vector<case_t>& cases, const std::vector<std::string>& suffixes, bool wide,
                                     parse_dialect dialect = parse_dialect::contracts) {
    rail::options o;
    o.channel = rail::channel_format::none;
    o.suffixes = suffixes;
    o.dialect = dialect;
    const result<rail::grammar> g = rail::build(o);
    REQUIRE(g.ok());
    score::rail_recognizer rec(g.value());
    const char* show_env = std::getenv("PLURNK_RAIL_COVERAGE_MISSES");
    const std::size_t show = show_env ? std::strtoul(show_env, nullptr, 10) : 0;
    std::map<std::string, tally> out;
    for (const case_t& c : cases) {
        tally& t = out[c.family];
        ++t.statements;
        const score::rail_verdict v = rec.explain(c.turn);
        const std::string& why = wide ? c.excluded_wide : c.excluded;
        if (v.accepted) {
            ++t.on;
        } else if (!why.empty()) {
            ++t.excluded;
            ++t.reasons[why];
            t.example.emplace(why, c.id);
        } else {
            ++t.misses;
            if (t.shown.size() < show) {
                t.shown.push_back(c.id + " at byte " + std::to_string(v.offset) + " in " + v.rule + ": " + c.turn);
            }
        }
    }
    return out;
}

void print(const char* title, const std::map<std::string, tally>& m) {
    std::printf("rail coverage, %s:\n", title);
    std::printf("  %-8s %10s %8s %9s %7s %9s %9s\n", "family", "statements", "on rail", "left out", "misses", "coverage", "raw");
    for (const auto& [fam, t] : m) {
        std::printf("  %-8s %10zu %8zu %9zu %7zu %8.2f%% %8.2f%%\n", fam.c_str(), t.statements, t.on, t.excluded, t.misses,
                    100 * t.coverage(), 100 * t.raw());
        for (const auto& [why, n] : t.reasons) {
            std::printf("           left out: %zu %s (%s, ...)\n", n, why.c_str(), t.example.at(why).c_str());
        }
        for (const std::string& s : t.shown) std::printf("           miss: %s\n", s.c_str());
    }
}

using tallies = std::map<std::string, tally>;

// The rail of `dialect` with the default suffixes, then the rail naming every suffix the cases use
// (the coverage as measured: doc/rail.md "Coverage"), each printed.
std::pair<tallies, tallies> measure_both(const std::vector<case_t>& cases, parse_dialect dialect, const std::string& rail_name) {
    std::set<std::string> used;
    for (const case_t& c : cases) used.insert(c.suffix);
    std::vector<std::string> wide_suffixes = rail::options{}.suffixes;
    for (const std::string& s : used) {
        if (std::find(wide_suffixes.begin(), wide_suffixes.end(), s) == wide_suffixes.end()) wide_suffixes.push_back(s);
    }
    tallies by_default = measure(cases, rail::options{}.suffixes, false, dialect);
    tallies wide = measure(cases, wide_suffixes, true, dialect);
    print((rail_name + " (suffixes \"\", 1, 2)").c_str(), by_default);
    std::string names;
    for (std::size_t i = 0; i < wide_suffixes.size(); ++i) names += (i ? "," : "") + wide_suffixes[i];
    print((rail_name + " built for every suffix the vectors use (--suffixes=" + names + "), as measured").c_str(), wide);
    return {std::move(by_default), std::move(wide)};
}

}  // namespace

TEST_CASE("the rail covers the admitted statements of the conformance vectors", "[rail][coverage]") {
    const std::vector<case_t> cases = load_cases();
    const auto [by_default, wide] = measure_both(cases, parse_dialect::contracts, "the 1.4.0 rail");

    // Every family: at most 1% of the statements not left out are off the rail (today none is).
    for (const auto& [fam, t] : wide) {
        INFO("family " << fam);
        CHECK(t.statements > 50);
        CHECK(t.coverage() >= 0.99);
        // The default rail differs only by the suffixes it does not name.
        CHECK(by_default.at(fam).misses == t.misses);
    }
    // The parser families: the shapes left out stay few.
    for (const char* fam : {"g", "r"}) {
        INFO("family " << fam);
        REQUIRE(wide.count(fam));
        CHECK(wide.at(fam).excluded * 10 <= wide.at(fam).statements);
    }
    // The validator families: ratchets on the share on the rail, left-out shapes included.
    const std::map<std::string, double> ratchet = {{"v-re", 0.78}, {"v-url", 0.90}, {"v-xp", 0.99}, {"v-jp", 0.99}};
    for (const auto& [fam, floor] : ratchet) {
        INFO("family " << fam);
        REQUIRE(wide.count(fam));
        CHECK(wide.at(fam).raw() >= floor);
    }
}

// The service dialect's rail (`plurnk gbnf --dialect=service`) on the service vectors, measured
// the same way: every admitted single statement of service.jsonl, put in canonical form in the
// service dialect (plurnk::format(s, service), `plurnk fmt --dialect=service`), wrapped into a
// turn and checked against the no-channel service rail, per family (s-seed, s-era, s-edge, s-ctl).
TEST_CASE("the service rail covers the admitted statements of the service vectors", "[rail][coverage][service]") {
    const std::vector<case_t> cases = load_cases("service.jsonl", parse_dialect::service);
    const auto [by_default, wide] = measure_both(cases, parse_dialect::service, "the service rail");
    for (const auto& [fam, t] : wide) {
        INFO("family " << fam);
        CHECK(t.statements > 10);
        CHECK(t.coverage() >= 0.99);
        CHECK(by_default.at(fam).misses == t.misses);
    }
}
