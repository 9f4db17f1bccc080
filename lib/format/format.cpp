// SPDX-License-Identifier: MIT
// The canonical producer (include/plurnk/format.hpp). format() writes a statement's parts in slot
// order after checking, part by part, that the lexer would read each back as written: the signal
// in the op's signal mode, the target with the three escapes encoded, the scope's numbers in
// their shortest round-trip decimal form. The suffix is chosen last, from the body text: a body
// closes early exactly where a ':' is followed by an identifier run equal to OP + suffix, or
// where the body starts with OP + suffix, blanks and a line break or `<<` (the one-colon empty
// close), so one scan of the body collects every suffix that would collide and the first safe
// candidate is taken. format_source() replaces each admitted statement's bytes, its span, with
// its canonical form.
#include "plurnk/format.hpp"
#include "plurnk/validate.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>
#include <unordered_set>
#include <variant>

#include "grammar/hash_regex.hpp"
#include "grammar/op_table.hpp"
#include "grammar/statement_shape.hpp"

namespace plurnk {

namespace {

bool is_ident_char(char c) noexcept {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// The shortest decimal that reads back as `v` (`-?digits(.digits)?`, the scope and signal
// number syntax); false for infinities and NaN, which have none. Zero is "0", whatever its sign.
bool append_number(std::string& out, double v) {
    if (!std::isfinite(v)) return false;
    if (v == 0) {
        out += '0';
        return true;
    }
    // The longest fixed form of a double: 309 integer digits, or "0." and 324 decimals, a sign.
    char buf[512];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    out.append(buf, r.ptr);
    return true;
}

// `<a,b,c>`: false when there is no number or one is not finite.
bool append_scope(std::string& out, const line_marker& m) {
    if (m.marks.empty()) return false;
    out += '<';
    for (std::size_t i = 0; i < m.marks.size(); ++i) {
        if (i > 0) out += ',';
        if (!append_number(out, m.marks[i])) return false;
    }
    out += '>';
    return true;
}

// Why the tag lexer (SIGNAL_TAGS) would not read `tag` back as one tag, or nullptr.
const char* tag_problem(std::string_view tag) noexcept {
    if (tag.empty()) return "is empty";
    for (const char c : tag) {
        if (c == ']' || c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            return "holds `]`, `,`, a blank or a line break";
        }
    }
    if (tag.find("<<") != std::string_view::npos) return "holds `<<`";
    if (tag.back() == '<') return "ends in `<`";
    return nullptr;
}

// An EXEC executor: `[A-Za-z_][A-Za-z0-9_.+-]*` (SIGNAL_IDENT).
bool is_executor(std::string_view s) noexcept {
    if (s.empty()) return false;
    const char c = s.front();
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_')) return false;
    return std::all_of(s.begin() + 1, s.end(), [](char d) { return is_ident_char(d) || d == '.' || d == '+' || d == '-'; });
}

// Why the target lexer would not read `raw` (decoded text), escapes encoded, back, or nullptr.
// The three escapes make `\`, `(` and `)` safe; a line break ends the slot, and a `<` is read
// as a pair with the character after it, which may not be `<`, an escape's backslash or a
// parenthesis (nor the slot's end).
const char* target_problem(std::string_view raw) noexcept {
    if (raw.empty()) return "is empty";
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        if (c == '\r' || c == '\n') return "holds a line break";
        if (c != '<') continue;
        if (i + 1 == raw.size()) return "ends in `<`";
        const char f = raw[i + 1];
        if (f == '<' || f == '\\' || f == '(' || f == ')') return "holds `<` before `<`, `\\`, `(` or `)`";
    }
    return nullptr;
}

// SPEC §path-parentheses: `\` -> `\\`, `(` -> `\(`, `)` -> `\)`.
void append_escaped(std::string& out, std::string_view raw) {
    for (const char c : raw) {
        if (c == '\\' || c == '(' || c == ')') out += '\\';
        out += c;
    }
}

// A URL target's spelling from its fields (for one built by hand, with an empty raw):
// scheme://user:password@host:port/path?query#fragment{name: value}...
std::string compose_url(const parsed_path& p, std::string& why) {
    std::string s(p.scheme);
    s += "://";
    if (p.username || p.password) {
        s += p.username.value_or("");
        if (p.password) (s += ':') += *p.password;
        s += '@';
    }
    s += p.hostname.value_or("");
    if (p.port) (s += ':') += std::to_string(*p.port);
    s += p.pathname;
    if (p.query) (s += '?') += *p.query;
    if (p.fragment) (s += '#') += *p.fragment;
    if (p.headers) {
        for (const auto& [name, value] : *p.headers) {
            const auto blank = [](std::string_view v) {
                return !v.empty() && (v.front() == ' ' || v.front() == '\t' || v.back() == ' ' || v.back() == '\t');
            };
            if (name.empty() || name.find_first_of(":}") != std::string::npos || value.find('}') != std::string::npos ||
                blank(name) || blank(value)) {
                why = "a request-metadata block whose name is empty or holds `:` or `}`, whose value holds `}`, "
                      "or with blanks around them";
                return {};
            }
            (((s += '{') += name) += ": ") += value;
            s += '}';
        }
    }
    return s;
}

// The target's text as it goes between the parentheses, or into a COPY/MOVE body (`in_body`,
// where only the close tag ends it), escapes encoded; false with `why` set when there is none.
// Whether `text`, as written, is a service dialect regex path (SERVICE.md S7: it splits and
// compiles as a `#pattern#flags` matcher does).
bool reads_as_regex_path(std::string_view text) {
    if (text.empty() || text.front() != '#') return false;
    const detail::hash_split sp = detail::split_hash_regex(text);
    return sp.closed && validate_regex(sp.pattern, sp.flags).ok();
}

bool append_target(std::string& out, const parsed_path& p, bool in_body, std::string& why, parse_dialect dialect) {
    if (p.kind == parsed_path::kind_t::regex) {
        // The service dialect's regex path (SERVICE.md S7) is its text as written: a regex unit
        // between parentheses, the destination's text in a body; no escapes.
        out += p.raw;
        return true;
    }
    std::string composed;
    std::string_view raw = p.raw;
    if (raw.empty() && p.kind == parsed_path::kind_t::url && !p.scheme.empty()) {
        composed = compose_url(p, why);
        if (!why.empty()) return false;
        raw = composed;
    }
    if (const char* problem = in_body ? (raw.empty() ? "is empty" : nullptr) : target_problem(raw)) {
        why = problem;
        return false;
    }
    if (dialect == parse_dialect::service && p.kind == parsed_path::kind_t::local && !raw.empty() && raw[0] == '#') {
        // In the service dialect a text starting with `#` is read as written (a regex unit or
        // a regex path when it is one): the escaped spelling must not be one, or the text as it
        // is must come back as itself.
        std::string escaped;
        append_escaped(escaped, raw);
        if (!reads_as_regex_path(escaped)) {
            out += escaped;
            return true;
        }
        std::string closed(raw);
        closed += ')';
        const detail::unit_scan u = detail::scan_regex_unit(closed, 1, detail::unit_phase::pattern);
        const bool unit = u.v == detail::unit_scan::verdict::unit && u.at == raw.size();
        if (raw.find('\\') == std::string_view::npos && !reads_as_regex_path(raw) && (in_body || unit)) {
            out += raw;
            return true;
        }
        why = "has no spelling in the service dialect (it would read as a regex path)";
        return false;
    }
    append_escaped(out, raw);
    return true;
}

enum class signal_slot { tags, number, executor, branch };

signal_slot slot_of(op o) noexcept {
    switch (o) {
        case op::SEND:
        case op::KILL: return signal_slot::number;
        case op::EXEC: return signal_slot::executor;
        case op::WORK:
        case op::FORK: return signal_slot::branch;
        default: return signal_slot::tags;
    }
}

// Whether the op's statement takes a scope in the dialect's rows (SEND: its terminal form does).
bool has_scope_slot(op o, const detail::statement_shapes& rows) noexcept {
    return o == op::SEND || rows.of(o).scope;
}

format_result failure(std::string why) { return format_result{{}, std::move(why)}; }

// The suffixes the body would collide with (see the file comment).
std::unordered_set<std::string_view> colliding_suffixes(std::string_view name, std::string_view body) {
    std::unordered_set<std::string_view> out;
    const auto run_at = [&](std::size_t b) {
        std::size_t e = b;
        while (e < body.size() && is_ident_char(body[e])) ++e;
        return body.substr(b, e - b);
    };
    for (std::size_t i = body.find(':'); i != std::string_view::npos; i = body.find(':', i + 1)) {
        const std::string_view run = run_at(i + 1);
        if (run.substr(0, name.size()) == name) out.insert(run.substr(name.size()));
    }
    if (const std::string_view lead = run_at(0); lead.substr(0, name.size()) == name) {
        std::size_t k = lead.size();
        while (k < body.size() && (body[k] == ' ' || body[k] == '\t')) ++k;
        if (k < body.size() && (body[k] == '\n' || body[k] == '\r' || body.substr(k, 2) == "<<")) {
            out.insert(lead.substr(name.size()));
        }
    }
    return out;
}

// The statement's suffix when it is a suffix and safe, else "", "1", "2", ... whichever is
// first safe (there are at most as many collisions as colons in the body, plus one).
std::string choose_suffix(std::string_view name, std::string_view own, std::string_view body) {
    const auto colliding = colliding_suffixes(name, body);
    if (std::all_of(own.begin(), own.end(), is_ident_char) && colliding.count(own) == 0) return std::string(own);
    if (colliding.count("") == 0) return {};
    for (std::size_t n = 1;; ++n) {
        std::string s = std::to_string(n);
        if (colliding.count(s) == 0) return s;
    }
}

// [signal]: the statement's signal, as its op's slot takes it, appended to `header`; or why not.
std::string append_signal(std::string& header, const statement& s) {
    const signal_slot slot = slot_of(s.op);
    switch (s.signal.kind) {
        case signal::kind_t::none: break;
        case signal::kind_t::tags:
            if (slot != signal_slot::tags) return "its signal slot takes no tags";
            header += '[';
            for (std::size_t i = 0; i < s.signal.tags.size(); ++i) {
                if (const char* problem = tag_problem(s.signal.tags[i])) {
                    return "tag " + std::to_string(i + 1) + " " + problem;
                }
                if (i > 0) header += ',';
                header += s.signal.tags[i];
            }
            header += ']';
            break;
        case signal::kind_t::number:
            if (slot != signal_slot::number) return "only SEND and KILL take a number signal";
            if (!std::isfinite(s.signal.number) || std::trunc(s.signal.number) != s.signal.number) {
                return "the signal code is not an integer";
            }
            header += '[';
            append_number(header, s.signal.number);
            header += ']';
            break;
        case signal::kind_t::text:
            if (slot == signal_slot::executor) {
                if (!is_executor(s.signal.text)) return "the executor is not `[A-Za-z_][A-Za-z0-9_.+-]*`";
            } else if (slot == signal_slot::branch) {
                if (const char* problem = tag_problem(s.signal.text)) return std::string("the branch ") + problem;
            } else {
                return "only EXEC, WORK and FORK take a text signal";
            }
            ((header += '[') += s.signal.text) += ']';
            break;
    }
    return {};
}

}  // namespace

format_result format(const statement& s, parse_dialect dialect) {
    const detail::statement_shapes& rows = detail::shapes_of(dialect);
    if (s.op == op::TURN || static_cast<int>(s.op) >= k_op_count) {
        return failure("TURN wraps a turn; it is not a statement");
    }
    const std::string_view name = op_name(s.op);
    const std::string at = std::string("<<") + std::string(name) + ": ";
    std::string header;  // the slots
    std::string why;

    // [signal]
    if (s.signal.kind != signal::kind_t::none && !rows.of(s.op).signal) return failure(at + "it has no signal slot");
    if (std::string problem = append_signal(header, s); !problem.empty()) return failure(at + problem);
    // (target)
    if (s.target) {
        header += '(';
        if (!append_target(header, *s.target, false, why, dialect)) return failure(at + "the target " + why);
        header += ')';
    }
    // <scope>
    if (s.marker) {
        if (!has_scope_slot(s.op, rows)) return failure(at + "it has no scope slot");
        if (s.op == op::SEND && !(s.signal.kind == signal::kind_t::number && detail::is_disposition_code(s.signal.number))) {
            return failure(at + "only a terminal SEND (a disposition code signal) takes a scope");
        }
        if (!append_scope(header, *s.marker)) return failure(at + "the scope has no numbers or one is not finite");
    }
    // body
    std::string composed;
    std::string_view body;
    if (const auto* text = std::get_if<std::string_view>(&s.body)) {
        body = *text;
    } else if (const auto* m = std::get_if<matcher_body>(&s.body)) {
        body = m->raw;
    } else if (const auto* send = std::get_if<send_body>(&s.body)) {
        body = send->raw;
    } else if (const auto* sel = std::get_if<resource_selection>(&s.body)) {
        if (!append_target(composed, sel->target, true, why, dialect)) return failure(at + "the destination " + why);
        if (sel->marker && !append_scope(composed, *sel->marker)) {
            return failure(at + "the destination scope has no numbers or one is not finite");
        }
        body = composed;
    }
    if (rows.of(s.op).body_required && body.empty()) return failure(at + "it needs a prompt body");

    const std::string tag = std::string(name) + choose_suffix(name, s.suffix, body);
    std::string out;
    out.reserve(2 + tag.size() + header.size() + 1 + body.size() + 1 + tag.size());
    out += "<<";
    out += tag;
    out += header;
    out += ':';
    out += body;
    out += ':';
    out += tag;
    return format_result{std::move(out), std::nullopt};
}

format_result format_turn(const parse_result& r) { return format_turn(r, r.dialect); }

format_result format_turn(const parse_result& r, parse_dialect dialect) {
    std::string out;
    std::optional<text_item> prev_text;
    bool first = true;
    for (std::size_t i = 0; i < r.items.size(); ++i) {
        const item it = r.items[i];
        if (std::holds_alternative<diagnostic>(it)) continue;
        const auto* text = std::get_if<text_item>(&it);
        if (!first) {
            const bool same_line = text != nullptr && prev_text && text->position.line != 0 &&
                                   text->position.line == prev_text->position.line;
            out += same_line ? ' ' : '\n';
        }
        first = false;
        if (text != nullptr) {
            out += text->text;
        } else {
            format_result f = format(std::get<statement>(it), dialect);
            if (!f) return failure("item " + std::to_string(i) + ": " + *f.error);
            out += f.text;
        }
        prev_text = text != nullptr ? std::optional<text_item>(*text) : std::nullopt;
    }
    if (!first) out += '\n';
    return format_result{std::move(out), std::nullopt};
}

namespace {

// The rewrite both format_source() and migrate_source() make: each admitted statement of `r`
// whose `text_of` differs from its bytes (its span, from its `<<` to the end of its close tag)
// is replaced; the rest of `input` goes to `write` as it is. `text_of` answers a statement's
// new text, or an error when it stays as written (`refused` hears of it). Returns whether
// anything changed.
template <class TextOf, class Refused>
bool rewrite_statements(std::string_view input, const parse_result& r, const text_sink& write, TextOf text_of,
                        Refused refused) {
    bool changed = false;
    std::size_t copied = 0;  // bytes of `input` already written
    for (const item& it : r.items) {
        const auto* s = std::get_if<statement>(&it);
        if (s == nullptr) continue;
        const format_result f = text_of(*s);
        if (!f) {
            refused(*s, *f.error);
            continue;
        }
        const std::string_view was = input.substr(s->span.begin, s->span.end - s->span.begin);
        if (f.text == was) continue;  // already so: part of the run copied as it is
        if (s->span.begin > copied) write(input.substr(copied, s->span.begin - copied));
        write(f.text);
        copied = s->span.end;
        changed = true;
    }
    if (copied < input.size()) write(input.substr(copied));
    return changed;
}

// A whole-text answer from the piecewise one.
template <class Answer, class Piecewise>
Answer collected(std::size_t size_hint, Piecewise piecewise) {
    std::string text;
    text.reserve(size_hint + size_hint / 8);
    Answer a = piecewise([&text](std::string_view piece) { text += piece; });
    a.text = std::move(text);
    return a;
}

}  // namespace

source_format format_source(std::string_view input, tier t, const parse_options& options, const text_sink& write) {
    source_format sf;
    sf.result = parse(input, t, options);
    sf.changed = rewrite_statements(
        input, sf.result, write, [&](const statement& s) { return format(s, options.dialect); },
        [](const statement&, const std::string&) {});
    return sf;
}

namespace {

// A `#pattern#flags` pattern written for a `/` fence (BEHAVIOUR §5's split: a backslash takes the
// next character, `[` enters a class and `]` leaves it): each `/` the split would end at becomes
// `\/`, and an empty pattern `(?:)`, as ECMAScript's RegExp.prototype.source writes them.
std::string slash_pattern(std::string_view p) {
    std::string out;
    bool in_class = false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\') {
            out += c;
            if (i + 1 < p.size()) out += p[++i];
            continue;
        }
        if (c == '[') {
            in_class = true;
        } else if (c == ']') {
            in_class = false;
        } else if (c == '/' && !in_class) {
            out += '\\';
        }
        out += c;
    }
    return out.empty() ? std::string("(?:)") : out;
}

// A `/pattern/flags` pattern written for a `#` fence (SERVICE.md S4's split: a backslash takes
// the next character, no classes): each `#` not so taken becomes `\#`, or `\x23` under `u` or
// `v`, where `\#` is no valid escape.
std::string hash_pattern(std::string_view p, std::string_view flags) {
    const bool unicode = flags.find_first_of("uv") != std::string_view::npos;
    std::string out;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\') {
            out += c;
            if (i + 1 < p.size()) out += p[++i];
        } else if (c == '#') {
            out += unicode ? "\\x23" : "\\#";
        } else {
            out += c;
        }
    }
    return out;
}

bool is_regex_path(const std::optional<parsed_path>& p) noexcept {
    return p && p->kind == parsed_path::kind_t::regex;
}

}  // namespace

format_result migrate(const statement& s, parse_dialect to) {
    const std::string at = "<<" + std::string(op_name(s.op)) + ": ";
    const bool into_contracts = to == parse_dialect::contracts;
    if (into_contracts) {
        if (is_regex_path(s.target)) return failure(at + "a regex target (`#pattern#flags`) has no 1.4.0 spelling");
        if (const auto* sel = std::get_if<resource_selection>(&s.body); sel != nullptr && is_regex_path(sel->target)) {
            return failure(at + "a regex destination (`#pattern#flags`) has no 1.4.0 spelling");
        }
        if (s.marker && (s.op == op::OPEN || s.op == op::FOLD)) return failure(at + "OPEN and FOLD take no scope in 1.4.0");
        if (s.op == op::FORK && std::holds_alternative<std::monostate>(s.body)) {
            return failure(at + "FORK needs a prompt in 1.4.0");
        }
    } else if (s.signal.kind != signal::kind_t::none && (s.op == op::WORK || s.op == op::FORK)) {
        return failure(at + "WORK and FORK take no signal in the service dialect");
    }
    const auto* m = std::get_if<matcher_body>(&s.body);
    if (m == nullptr || m->raw.empty()) return format(s, to);
    // The one fence each dialect's regex has, and the glob lead it reads as one.
    const char fence = into_contracts ? '/' : '#';
    const char other = into_contracts ? '#' : '/';
    std::string raw;
    if (m->dialect == dialect::regex && m->raw.front() == other) {
        raw += fence;
        raw += into_contracts ? slash_pattern(m->pattern) : hash_pattern(m->pattern, m->flags);
        raw += fence;
        raw += m->flags;
        const bool same = into_contracts ? check_regex_matcher(raw).ok() : check_hash_regex_matcher(raw).ok();
        if (!same) return failure(at + "the regex has no spelling in the other dialect");
    } else if (m->dialect == dialect::glob && m->raw.front() == fence) {
        (raw += '\\') += m->raw;  // a glob escape: the same character, and no regex fence
    } else {
        return format(s, to);
    }
    statement moved = s;
    matcher_body body = *m;
    body.raw = raw;
    if (body.dialect == dialect::regex) body.pattern = std::string_view(raw).substr(1, raw.size() - m->flags.size() - 2);
    moved.body = body;
    return format(moved, to);
}

source_migration migrate_source(std::string_view input, tier t, parse_dialect to, const parse_options& options,
                                const text_sink& write) {
    source_migration sm;
    sm.result = parse(input, t, options);
    const bool same = to == options.dialect;
    sm.changed = rewrite_statements(
        input, sm.result, write,
        [&](const statement& s) { return same ? format(s, to) : migrate(s, to); },
        [&](const statement& s, const std::string& why) { sm.notes.push_back(migration_note{s.position, why}); });
    return sm;
}

source_migration migrate_source(std::string_view input, tier t, parse_dialect to, const parse_options& options) {
    return collected<source_migration>(input.size(),
                                       [&](const text_sink& write) { return migrate_source(input, t, to, options, write); });
}

source_format format_source(std::string_view input, tier t, const parse_options& options) {
    return collected<source_format>(input.size(), [&](const text_sink& write) { return format_source(input, t, options, write); });
}

}  // namespace plurnk
