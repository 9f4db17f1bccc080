// SPDX-License-Identifier: MIT
// The grammar's expression constructors and the GBNF writer.
//
// The constructors keep expressions canonical (sequences and alternations flattened, one-item
// groups unwrapped) so that writing a grammar and reading the text back yields the same tree.
// The writer follows llama.cpp's grammar parser (llama-grammar.cpp): rule names are [a-z0-9-],
// literals and classes use only the escapes it knows (\n \r \t \\ \" \[ \] \- \uHHHH
// \UHHHHHHHH), parentheses wrap alternations inside sequences and compound items under a
// repetition, and a rule continues on the next line only after a `|`.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plurnk/rail.hpp"
#include "rail/builder.hpp"

namespace plurnk::rail {

namespace {

constexpr std::size_t k_wrap_width = 100;

void append_hex(std::string& out, char32_t c, int digits) {
    static constexpr char k_hex[] = "0123456789ABCDEF";
    for (int i = digits - 1; i >= 0; --i) out += k_hex[(c >> (4 * i)) & 0xF];
}

// One code point inside a literal (`in_class` false) or a character class. Everything outside
// printable ASCII is escaped, so the file is plain ASCII whatever the grammar holds.
void append_char(std::string& out, char32_t c, bool in_class, bool first_in_class) {
    switch (c) {
        case '\n': out += "\\n"; return;
        case '\r': out += "\\r"; return;
        case '\t': out += "\\t"; return;
        case '\\': out += "\\\\"; return;
        case '"':
            out += in_class ? "\"" : "\\\"";
            return;
        default: break;
    }
    if (in_class && (c == '[' || c == ']' || c == '-')) {
        out += '\\';
        out += static_cast<char>(c);
        return;
    }
    // Escapes are \uHHHH, never \xHH: xgrammar (0.1.27) reads the hex digits after \x greedily,
    // so `[^\x7Fa]` loses the `a`.
    if (in_class && first_in_class && c == '^') {  // would read as negation
        out += "\\u005E";
        return;
    }
    if (c < 0x20 || c == 0x7F) {
        out += "\\u";
        append_hex(out, c, 4);
    } else if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x10000) {
        out += "\\u";
        append_hex(out, c, 4);
    } else {
        out += "\\U";
        append_hex(out, c, 8);
    }
}

// Decodes one UTF-8 sequence of a literal; the builder only writes valid UTF-8.
char32_t next_code_point(std::string_view s, std::size_t& i) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    if (i + len > s.size()) len = 1;
    char32_t c = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
    for (std::size_t k = 1; k < len; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += len;
    return c;
}

enum class context : std::uint8_t { top, sequence_item, repeat_item };

// A repetition's suffix: ?, *, +, {n}, {n,} or {n,m}.
void append_quantifier(std::string& out, const expr& e) {
    if (e.min == 0 && e.max == 1) {
        out += '?';
    } else if (e.min == 0 && e.max == k_unbounded) {
        out += '*';
    } else if (e.min == 1 && e.max == k_unbounded) {
        out += '+';
    } else if (e.min == e.max) {
        out += '{' + std::to_string(e.min) + '}';
    } else if (e.max == k_unbounded) {
        out += '{' + std::to_string(e.min) + ",}";
    } else {
        out += '{' + std::to_string(e.min) + ',' + std::to_string(e.max) + '}';
    }
}

// Writes `root`. An expression nests three levels for each character of the longest word a
// segment excludes (a 64-byte channel close nests about 200 deep), so the walk keeps what is
// left to write on a heap stack, innermost last, instead of recursing.
void write(std::string& out, const expr& root, context root_ctx) {
    using kind = expr::kind_t;
    struct pending {
        const expr* e;     // an expression to write, or (null) `text` to append
        context ctx;
        std::string_view text;
        bool quantifier;  // append e's quantifier instead of writing e
    };
    std::vector<pending> todo{{&root, root_ctx, {}, false}};
    const auto then_text = [&todo](std::string_view t) { todo.push_back({nullptr, context::top, t, false}); };
    while (!todo.empty()) {
        const pending p = todo.back();
        todo.pop_back();
        if (p.e == nullptr) {
            out += p.text;
            continue;
        }
        const expr& e = *p.e;
        if (p.quantifier) {
            append_quantifier(out, e);
            continue;
        }
        switch (e.kind) {
            case kind::literal: {
                out += '"';
                for (std::size_t i = 0; i < e.text.size();) append_char(out, next_code_point(e.text, i), false, false);
                out += '"';
                break;
            }
            case kind::char_class: {
                out += e.negated ? "[^" : "[";
                bool first = !e.negated;
                for (const auto& [lo, hi] : e.ranges) {
                    append_char(out, lo, true, first);
                    first = false;
                    if (hi != lo) {
                        out += '-';
                        append_char(out, hi, true, false);
                    }
                }
                out += ']';
                break;
            }
            case kind::ref: out += e.text; break;
            case kind::sequence:
            case kind::alternation: {
                // a sequence needs parentheses only as a bare repetition item; an alternation
                // anywhere but at the top
                const bool paren = e.kind == kind::sequence ? p.ctx == context::repeat_item : p.ctx != context::top;
                const context item_ctx = e.kind == kind::sequence ? context::sequence_item : context::top;
                if (paren) out += '(';
                if (paren) then_text(")");
                for (std::size_t i = e.items.size(); i-- > 0;) {
                    todo.push_back({&e.items[i], item_ctx, {}, false});
                    if (i != 0) then_text(e.kind == kind::sequence ? " " : " | ");
                }
                break;
            }
            case kind::repeat: {
                const expr& item = e.items.front();
                const bool compound = item.kind == kind::sequence || item.kind == kind::alternation ||
                                      item.kind == kind::repeat;
                if (compound) out += '(';
                todo.push_back({&e, context::top, {}, true});
                if (compound) then_text(")");
                todo.push_back({&item, compound ? context::top : context::repeat_item, {}, false});
                break;
            }
        }
    }
}

}  // namespace

const rule* grammar::find(std::string_view name) const noexcept {
    for (const rule& r : rules) {
        if (r.name == name) return &r;
    }
    return nullptr;
}

expr lit(std::string_view text) {
    expr e;
    e.kind = expr::kind_t::literal;
    e.text = std::string(text);
    return e;
}

expr chars(std::vector<std::pair<char32_t, char32_t>> ranges, bool negated) {
    expr e;
    e.kind = expr::kind_t::char_class;
    e.ranges = std::move(ranges);
    e.negated = negated;
    return e;
}

expr rule_ref(std::string_view name) {
    expr e;
    e.kind = expr::kind_t::ref;
    e.text = std::string(name);
    return e;
}

namespace {

expr flatten(expr::kind_t kind, std::vector<expr> items) {
    std::vector<expr> flat;
    for (expr& it : items) {
        if (it.kind == kind) {
            for (expr& sub : it.items) flat.push_back(std::move(sub));
        } else {
            flat.push_back(std::move(it));
        }
    }
    if (flat.size() == 1) return std::move(flat.front());
    expr e;
    e.kind = kind;
    e.items = std::move(flat);
    return e;
}

}  // namespace

expr seq(std::vector<expr> items) { return flatten(expr::kind_t::sequence, std::move(items)); }
expr alt(std::vector<expr> items) { return flatten(expr::kind_t::alternation, std::move(items)); }

expr repeat(expr item, std::uint32_t min, std::uint32_t max) {
    expr e;
    e.kind = expr::kind_t::repeat;
    e.min = min;
    e.max = max;
    e.items.push_back(std::move(item));
    return e;
}

namespace detail {

void append_gbnf_header(std::string& out, bool has_channel) {
    out += "# plurnk.gbnf - the PLURNK generation rail for llama.cpp (SPEC 1.2, BEHAVIOUR 7).\n";
    out += "# Generated by `plurnk gbnf`; do not edit. Constrains the raw turn\n";
    out += has_channel ? "#   channel sep PLAN sep (statement sep){0,N} terminal-SEND\n"
                       : "#   PLAN sep (statement sep){0,N} terminal-SEND\n";
    out += "# so that it parses; runtime validity stays with the parser and the runtime.\n";
}

void append_gbnf_rule(std::string& out, const rule& r) {
    out += '\n';
    if (!r.comment.empty()) out += "# " + r.comment + '\n';
    std::string line = r.name + " ::= ";
    std::string body;
    write(body, r.body, context::top);
    if (r.body.kind == expr::kind_t::alternation && line.size() + body.size() > k_wrap_width) {
        // One alternative per line; llama.cpp continues a rule after a trailing `|`.
        out += r.name + " ::=\n";
        for (std::size_t i = 0; i < r.body.items.size(); ++i) {
            std::string part;
            write(part, r.body.items[i], context::top);
            out += "    " + part + (i + 1 < r.body.items.size() ? " |\n" : "\n");
        }
    } else {
        out += line + body + '\n';
    }
}

}  // namespace detail

std::string to_gbnf(const grammar& g) {
    std::string out;
    detail::append_gbnf_header(out, g.find("channel") != nullptr);
    for (const rule& r : g.rules) detail::append_gbnf_rule(out, r);
    return out;
}

}  // namespace plurnk::rail
