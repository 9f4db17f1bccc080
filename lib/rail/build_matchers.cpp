// SPDX-License-Identifier: MIT
// The matcher dialects (SPEC matcher-prefix-claims). Each is a subset of what its validator
// accepts, kept so by construction: nesting is either unbounded where the validator has no limit
// (regex groups) or at most two levels; and the character after a colon is never F, R or O (a
// matcher op's close).
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/rail.hpp"
#include "rail/builder.hpp"

namespace plurnk::rail::detail {

// ECMAScript regex (SPEC matcher-prefix-claims: `new RegExp(pattern, flags)` as V8 does it),
// in three chains that differ in what their flags allow: `rx` is valid under every flag set
// (no named groups or back references; class members are ASCII letters, digits, `_`, blanks,
// escapes and the ranges a-x, A-X, 0-x; \p{...} of the names below); `rxn` is for
// patterns without u and v (Annex B: `{`, `}` and `]` as characters, punctuation in classes,
// any identity escape); `rxv` for the v flag (class subtraction and intersection). Flags come
// in the order dgimsuvy.
void builder::regex() {
    std::vector<expr> chains;
    const auto flags = [](std::string_view unicode) {
        std::vector<expr> f;
        for (const char c : std::string_view("dgims")) f.push_back(opt(lit(std::string(1, c))));
        if (unicode == "uv") f.push_back(opt(alt({lit("u"), lit("v")})));
        if (unicode == "v") f.push_back(lit("v"));
        f.push_back(opt(lit("y")));
        return seq(std::move(f));
    };
    const std::string delim = service() ? "#" : "/";
    for (const std::string_view p : {"rx", "rxn", "rxv"}) {
        const std::string n(p);
        chains.push_back(seq({lit(delim), alt({seq({rref(n + "-seq1"), star(seq({lit("|"), rref(n + "-seq")}))}),
                                               plus(seq({lit("|"), rref(n + "-seq")}))}),
                              lit(delim), flags(p == "rx" ? "uv" : p == "rxv" ? "v" : "")}));
    }
    // `##` is a valid empty regex (SERVICE.md S4); `//` would be XPath's, so 1.4.0 has none.
    if (service()) chains.push_back(seq({lit("##"), flags("uv")}));
    add("regex", alt(std::move(chains)),
        service() ? "matcher dialects: an ECMAScript regex written #pattern#flags (SERVICE.md S4), XPath 1.0 and "
                    "JSONPath (RFC 9535) the validators accept"
                  : "matcher dialects: an ECMAScript regex, XPath 1.0 and JSONPath (RFC 9535) the validators accept");
    const ranges_t controls{{0x00, 0x1F}, {0x7F, 0x7F}};
    // The delimiter is never a character of the pattern (in the service dialect the split
    // knows no classes either, so not in a class); the other one is an ordinary character.
    const auto out = [&](std::u32string set) {
        set += delimiter();
        set += U':';
        return none_of(set, controls);
    };
    regex_chain("rx", out(U"^$\\.*+?()[]{}|"), U":", U"FOR", "rx-esc", "rx-class");
    regex_chain("rxn", out(U"^$\\.*+?()[{|"), U":{", U"FOR0123456789", "rxn-esc", "rxn-class");
    regex_chain("rxv", out(U"^$\\.*+?()[]{}|"), U":", U"FOR", "rx-esc", "rxv-class");
    regex_escapes();
    regex_classes();
    regex_props();
}

// Escapes: those valid under every flag set, and Annex B's.
void builder::regex_escapes() {
    const ranges_t controls{{0x00, 0x1F}, {0x7F, 0x7F}};
    const expr hex = set_of("0-9A-Fa-f");
    const expr common = regex_common_escape();
    add("rx-esc", seq({lit("\\"), alt({set_of("dDwWsStnrvf"), common, set_of("^$\\.*+?()[]{}|/")})}));
    // Annex B escapes: any character but `c` (only before a letter) and `b`/`B` (assertions);
    // in a class no digit (`\70` is octal, and a range after it could be out of order), and
    // `x`/`u` only with their hex digits (else the members after them could become some).
    add("rxn-esc", seq({lit("\\"), alt({none_of(U"cbB:", controls), seq({lit("c"), set_of("A-Za-z")})})}));
    add("rxn-cesc", seq({lit("\\"), alt({none_of(U"cxu0123456789:", controls), seq({lit("c"), set_of("A-Za-z")}),
                                          seq({lit("x"), hex, hex}), seq({lit("u"), between(hex, 4, 4)})})}));
}

// Class members and the three kinds of class.
void builder::regex_classes() {
    const ranges_t controls{{0x00, 0x1F}, {0x7F, 0x7F}};
    const expr common = regex_common_escape();
    add("rx-cmember", alt({chars({{' ', ' '}, {'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}),
                           seq({lit("a-"), set_of("a-z")}), seq({lit("A-"), set_of("A-Z")}), seq({lit("0-"), set_of("0-9")}),
                           seq({lit("\\"), alt({set_of("dDwWsStnrvfb"), common, set_of("^$\\.*+?()[]{}|/-")})})}));
    add("rx-class", seq({lit("["), opt(lit("^")), star(rref("rx-cmember")), lit("]")}));
    // Without u and v a `-` is a character at either end; inside it would make a range.
    add("rxn-class", seq({lit("["), opt(lit("^")), opt(lit("-")),
                          star(alt({none_of(service() ? U"\\]-:#" : U"\\]-:", controls), seq({lit("a-"), set_of("a-z")}), seq({lit("A-"), set_of("A-Z")}),
                                    seq({lit("0-"), set_of("0-9")}), rref("rxn-cesc")})),
                          opt(lit("-")), lit("]")}));
    const expr operand = alt({seq({lit("["), opt(lit("^")), star(rref("rx-cmember")), lit("]")}),
                              seq({lit("\\"), alt({set_of("dDwWsS"), seq({set_of("pP"), lit("{"), rref("rx-prop"), lit("}")})})}),
                              chars({{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}})});
    add("rxv-class", seq({lit("["), opt(lit("^")),
                          alt({seq({operand, plus(seq({lit("--"), operand}))}), seq({operand, plus(seq({lit("&&"), operand}))}),
                               star(rref("rx-cmember"))}),
                          lit("]")}));
}

// Escapes after `\` that every chain shares: control letters, hex and Unicode escapes,
// property classes.
expr builder::regex_common_escape() {
    const expr hex = set_of("0-9A-Fa-f");
    return alt({seq({lit("c"), set_of("A-Za-z")}), seq({lit("x"), hex, hex}), seq({lit("u"), between(hex, 4, 4)}),
                seq({set_of("pP"), lit("{"), rref("rx-prop"), lit("}")})});
}

// Property names and quantifiers.
void builder::regex_props() {
    std::vector<expr> props;
    for (const std::string_view name :
         {"L", "Lu", "Ll", "Lt", "Lm", "Lo", "LC", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Ps",
          "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf", "Co", "Cn",
          "Letter", "Uppercase_Letter", "Lowercase_Letter", "Number", "Decimal_Number", "Punctuation", "Symbol",
          "Separator", "Alphabetic", "ASCII", "Any", "Emoji", "White_Space", "Uppercase", "Lowercase", "Script=Latin",
          "Script=Greek", "Script=Cyrillic", "Script=Han", "Script=Arabic", "Script=Hebrew", "Script=Hiragana",
          "Script=Katakana", "sc=Latin", "sc=Greek", "sc=Han", "Script_Extensions=Latin", "scx=Han"}) {
        props.push_back(lit(name));
    }
    add("rx-prop", alt(std::move(props)));
    // {n}, {n,}, {n,m} with n <= m.
    std::vector<expr> ranges;
    for (char d = '0'; d <= '9'; ++d) {
        ranges.push_back(seq({lit(std::string("{") + d + ","), chars({{static_cast<char32_t>(d), '9'}}), lit("}")}));
    }
    ranges.push_back(seq({lit("{"), set_of("0-9"), lit(","), set_of("1-9"), between(set_of("0-9"), 1, 2), lit("}")}));
    ranges.push_back(seq({lit("{"), between(set_of("0-9"), 1, 9), opt(lit(",")), lit("}")}));
    add("rx-quant", seq({alt({set_of("*+?"), alt(std::move(ranges))}), opt(lit("?"))}));
}

// One regex chain: sequences of terms where a separator (`:`, and for Annex B a literal
// `{`) is followed by a term that cannot start with a close letter (or a digit after `{`).
void builder::regex_chain(const std::string& p, const expr& chars_out, std::u32string_view seps, std::u32string_view not_after,
                          const std::string& esc, const std::string& cls) {
    // A colon is a character like any other and takes a quantifier (`/a:+b/`).
    const expr colon = seq({lit(":"), opt(rref("rx-quant"))});
    const expr sep = seps.size() == 1 ? colon : alt({colon, lit("{")});
    const expr item = alt({rref(p + "-term"), seq({plus(sep), rref(p + "-term-x")})});
    add(p + "-seq", seq({star(item), star(sep)}));
    add(p + "-seq1", alt({seq({item, star(item), star(sep)}), plus(sep)}));
    add(p + "-seq-x", opt(alt({seq({alt({rref(p + "-term-x"), seq({plus(sep), rref(p + "-term-x")})}), star(item), star(sep)}),
                               plus(sep)})));
    add(p + "-alts", seq({rref(p + "-seq"), star(seq({lit("|"), rref(p + "-seq")}))}));
    for (const bool x : {false, true}) {
        const expr ch = x ? minus(chars_out, not_after) : chars_out;
        add(p + (x ? "-term-x" : "-term"),
            alt({seq({alt({ch, lit("."), rref(esc), rref(cls), seq({lit("("), rref(p + "-alts"), lit(")")}),
                           seq({lit("(?:"), rref(p + "-seq-x"), star(seq({lit("|"), rref(p + "-seq")})), lit(")")})}),
                      opt(rref("rx-quant"))}),
                 lit("^"), lit("$"), lit("\\b"), lit("\\B"),
                 seq({alt({lit("(?="), lit("(?!"), lit("(?<="), lit("(?<!")}), rref(p + "-alts"), lit(")")})}));
    }
}

// XPath 1.0 (the npm `xpath` parser): `//` paths joined by `|`; steps with an axis (any
// name glued to `::` reads as one), a name test (a prefix allowed), a node type or
// `.`/`..`/`@attr`, and predicates of comparisons joined by `and`/`or` over sums of operands:
// literals, numbers, variables, paths without predicates and function calls (any name but a
// node type's; no call inside a call).
void builder::xpath() {
    xpath_paths();
    xpath_values();
}

// Paths, steps, node tests, predicates and their operators.
void builder::xpath_paths() {
    add("xpath", seq({rref("xp-path"), star(seq({alt({lit("|"), lit(" | ")}), rref("xp-path")}))}));
    add("xp-path", seq({lit("//"), rref("xp-step"), star(seq({alt({lit("/"), lit("//")}), rref("xp-step")}))}));
    add("xp-step", alt({seq({rref("xp-node"), star(rref("xp-pred"))}), lit("."), lit(".."), seq({lit("@"), rref("xp-attr")})}));
    add("xp-attr", alt({rref("xp-name"), lit("*")}));
    add("xp-node", alt({rref("xp-test"), seq({rref("xp-name"), lit("::"), rref("xp-test-x")})}));
    const expr types = alt({lit("text()"), lit("node()"), lit("comment()"), seq({lit("processing-instruction("), opt(xpath_literal()), lit(")")})});
    add("xp-test", alt({seq({rref("xp-name"), opt(seq({lit(":"), alt({rref("xp-name-x"), lit("*")})}))}), lit("*"), types}));
    add("xp-test-x", alt({seq({rref("xp-name-x"), opt(seq({lit(":"), alt({rref("xp-name-x"), lit("*")})}))}), lit("*"), types}));
    const expr name_rest = star(set_of("A-Za-z0-9_.-"));
    add("xp-name", seq({set_of("A-Za-z_"), name_rest}));
    add("xp-name-x", seq({minus(set_of("A-Za-z_"), U"FOR"), name_rest}));
    add("xp-pred", seq({lit("["), rref("xp-cmp"), star(seq({alt({lit(" and "), lit(" or ")}), rref("xp-cmp")})), lit("]")}));
    add("xp-cmp", seq({rref("xp-sum"), opt(seq({opt(lit(" ")), alt({lit("="), lit("!="), lit("<"), lit("<="), lit(">"), lit(">=")}),
                                                 opt(lit(" ")), rref("xp-sum")}))}));
    add("xp-sum", seq({rref("xp-val"), star(seq({alt({lit(" + "), lit(" - "), lit(" * "), lit(" div "), lit(" mod ")}), rref("xp-val")}))}));
}

// A string literal in either quote.
expr builder::xpath_literal() {
    return alt({seq({lit("'"), star(none_of(U"':", {{0x00, 0x1F}, {0x7F, 0x7F}})), lit("'")}),
                seq({lit("\""), star(none_of(U"\":", {{0x00, 0x1F}, {0x7F, 0x7F}})), lit("\"")})});
}

// Operands: calls, numbers, literals, variables and relative paths.
void builder::xpath_values() {
    const expr literal = xpath_literal();
    // After a comma the reference reads `*` and `and`/`or`/`mod`/`div` as operators: later
    // arguments start with a literal, a number, `$`, `.`, `@` or `//`.
    add("xp-val", alt({seq({opt(lit("-")), rref("xp-arg")}),
                       seq({rref("xp-fn"), lit("("), opt(seq({rref("xp-arg"), star(seq({alt({lit(","), lit(", ")}), rref("xp-arg2")}))})),
                            lit(")")})}));
    add("xp-fn", word_except({"comment", "node", "processing-instruction", "text"}, set_of("A-Za-z_"), set_of("A-Za-z0-9_.-")));
    const expr number = seq({between(set_of("0-9"), 1, 6), opt(seq({lit("."), between(set_of("0-9"), 1, 3)}))});
    // After `$` the reference reads and/or/mod/div as operators, so no variable has those names.
    add("xp-var", seq({lit("$"), word_except({"and", "div", "mod", "or"}, set_of("A-Za-z_"), set_of("A-Za-z0-9_.-"))}));
    const expr var = rref("xp-var");
    add("xp-arg", alt({number, literal, var, seq({opt(lit("//")), rref("xp-rstep"), star(seq({alt({lit("/"), lit("//")}), rref("xp-rstep")}))})}));
    add("xp-arg2", alt({number, literal, var,
                        seq({alt({lit("."), lit(".."), seq({lit("@"), rref("xp-attr")}), seq({lit("//"), rref("xp-rstep")})}),
                             star(seq({alt({lit("/"), lit("//")}), rref("xp-rstep")}))})}));
    add("xp-rstep", alt({rref("xp-node"), lit("."), lit(".."), seq({lit("@"), rref("xp-attr")})}));
}

// JSONPath (RFC 9535): segments of names, wildcards, indexes, slices, quoted names and
// filters; a filter's queries take no filter of their own, parentheses nest once, and the
// functions are used as their types allow (length/count/value compared, match/search tested).
void builder::jsonpath() {
    jsonpath_segments();
    jsonpath_filters();
}

// Segments, selectors and string literals.
void builder::jsonpath_segments() {
    add("jsonpath", seq({lit("$"), star(seq({opt(lit(" ")), rref("jp-seg")}))}));
    add("jp-seg", alt({seq({alt({lit("."), lit("..")}), alt({rref("jp-name"), lit("*")})}), seq({opt(lit("..")), rref("jp-bracket")})}));
    // json-p3's names: a letter, `_` or any non-ASCII character, then also digits and `-`
    // (written as the ASCII characters they exclude).
    add("jp-name", seq({chars({{0x00, '@'}, {'[', '^'}, {'`', '`'}, {'{', 0x7F}}, true),
                        star(chars({{0x00, ','}, {'.', '/'}, {':', '@'}, {'[', '^'}, {'`', '`'}, {'{', 0x7F}}, true))}));
    add("jp-bracket", seq({lit("["), rref("jp-sel"), star(seq({alt({lit(","), lit(", ")}), rref("jp-sel")})), lit("]")}));
    add("jp-sel", alt({rref("jp-plain"), seq({lit("?"), rref("jp-or")})}));
    add("jp-plain", alt({rref("jp-str"), lit("*"), rref("jp-int"),
                         seq({opt(rref("jp-int")), lit(":"), opt(rref("jp-int")), opt(seq({lit(":"), opt(rref("jp-int"))}))})}));
    add("jp-int", alt({lit("0"), seq({opt(lit("-")), set_of("1-9"), between(set_of("0-9"), 0, 5)})}));
    const expr hex = set_of("0-9A-Fa-f");
    // No surrogate, and no control character (json-p3 refuses those decoded too).
    const expr u4 = seq({lit("u"), alt({seq({set_of("1-9A-Ca-cE-Fe-f"), between(hex, 3, 3)}), seq({lit("0"), set_of("1-9A-Fa-f"), hex, hex}),
                                        seq({lit("00"), set_of("2-9A-Fa-f"), hex})})});
    add("jp-str", alt({seq({lit("'"), star(alt({none_of(U"'\\:", {{0x00, 0x1F}, {0x7F, 0x7F}}),
                                                seq({lit("\\"), alt({set_of("bfnrt/\\'"), u4})})})), lit("'")}),
                       seq({lit("\""), star(alt({none_of(U"\"\\:", {{0x00, 0x1F}, {0x7F, 0x7F}}),
                                                 seq({lit("\\"), alt({set_of("bfnrt/\\\""), u4})})})), lit("\"")})}));
}

// Filters: logical expressions over comparisons, tests and queries.
void builder::jsonpath_filters() {
    const expr or_op = seq({opt(lit(" ")), lit("||"), opt(lit(" "))});
    const expr and_op = seq({opt(lit(" ")), lit("&&"), opt(lit(" "))});
    for (const bool inner : {false, true}) {
        const std::string s = inner ? "2" : "";
        add("jp-or" + s, seq({rref("jp-and" + s), star(seq({or_op, rref("jp-and" + s)}))}));
        add("jp-and" + s, seq({rref("jp-basic" + s), star(seq({and_op, rref("jp-basic" + s)}))}));
        std::vector<expr> basic{seq({opt(lit("!")), alt({rref("jp-query"), rref("jp-test")})}), rref("jp-cmp")};
        if (!inner) basic.push_back(seq({opt(lit("!")), lit("("), rref("jp-or2"), lit(")")}));
        add("jp-basic" + s, alt(std::move(basic)));
    }
    add("jp-cmp", seq({rref("jp-value"), opt(lit(" ")), alt({lit("=="), lit("!="), lit("<="), lit(">="), lit("<"), lit(">")}),
                       opt(lit(" ")), rref("jp-value")}));
    add("jp-value", alt({rref("jp-literal"), rref("jp-single"), seq({lit("length("), alt({rref("jp-literal"), rref("jp-single")}), lit(")")}),
                         seq({alt({lit("count("), lit("value(")}), rref("jp-query"), lit(")")})}));
    add("jp-test", seq({alt({lit("match("), lit("search(")}), rref("jp-single"), alt({lit(","), lit(", ")}), lit("'"),
                        star(seq({alt({set_of("A-Za-z0-9 "), lit(".")}), opt(set_of("*+?"))})), lit("')")}),
        "match() and search() take an I-Regexp of characters and `.`, each with an optional quantifier");
    // json-p3 refuses a number with a leading 0 followed by more (0.5 too).
    add("jp-literal", alt({lit("0"), seq({opt(lit("-")), set_of("1-9"), between(set_of("0-9"), 0, 5),
                                          opt(seq({lit("."), between(set_of("0-9"), 1, 3)})),
                                          opt(seq({set_of("eE"), opt(set_of("+-")), between(set_of("0-9"), 1, 3)}))}),
                           rref("jp-str"), lit("true"), lit("false"), lit("null")}));
    add("jp-query", seq({alt({lit("@"), lit("$")}), star(alt({seq({alt({lit("."), lit("..")}), alt({rref("jp-name"), lit("*")})}),
                                                               seq({opt(lit("..")), lit("["), rref("jp-plain"),
                                                                    star(seq({lit(","), rref("jp-plain")})), lit("]")})}))}));
    add("jp-single", seq({alt({lit("@"), lit("$")}), star(alt({seq({lit("."), rref("jp-name")}),
                                                                seq({lit("["), alt({rref("jp-str"), rref("jp-int")}), lit("]")})}))}));
}

}  // namespace plurnk::rail::detail
