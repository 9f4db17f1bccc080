// SPDX-License-Identifier: MIT
// Targets: local paths, URLs (special and opaque hosts, request metadata), and the COPY/MOVE
// destination, whose colons are never followed by a close letter.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/rail.hpp"
#include "rail/builder.hpp"

namespace plurnk::rail::detail {

namespace {

// `word` (lower-case ASCII) in any case: each letter a class of its two cases.
expr any_case(std::string_view word) {
    std::vector<expr> parts;
    for (const char c : word) {
        const auto lo = static_cast<char32_t>(c);
        const char32_t up = c >= 'a' && c <= 'z' ? lo - U'a' + U'A' : lo;
        parts.push_back(lo == up ? lit(std::string(1, c)) : chars({{up, up}, {lo, lo}}));
    }
    return seq(std::move(parts));
}

// `(unit | ":"+ after)* ":"*`: a run of `unit`s (which hold no colon) and colons, where the
// character after a colon is one of `after` (so it cannot start a close literal).
expr colon_run(const expr& unit, const expr& after) {
    return seq({star(alt({unit, seq({plus(lit(":")), after})})), star(lit(":"))});
}

}  // namespace

// Targets (SPEC path-syntax, BEHAVIOUR 1.6 and 3.4): a URL the WHATWG parser accepts, or a
// local path (text that does not start with `scheme://`), with `\`, `(` and `)` escaped as
// the canon writes them. The destination of COPY and MOVE sits in the body: its variant
// (`d` prefix) never has C or M after a colon.
void builder::targets() {
    if (service()) {
        // SERVICE.md S3 and S7: `(#pattern#flags)` is a regex target; a local path never
        // starts with `#`, so none is read as one.
        add("target", alt({rref("url"), rref("local"), rref("regex")}),
            "targets: a URL, a local path (SPEC path-syntax) or a regex (SERVICE.md S7)");
    } else {
        add("target", alt({rref("url"), rref("local")}), "targets: a URL or a local path (SPEC path-syntax)");
    }
    target_rules("", U"");
    add("selection", seq({rref("dtarget"), opt(rref("text-scope"))}), "a COPY/MOVE destination");
    add("dtarget", alt({rref("durl"), rref("dlocal")}));
    target_rules("d", U"CM");
}

// Local, URL and host rules apart: in one function they took 49 KB of stack under ASan.
void builder::target_rules(const std::string& p, std::u32string_view not_after_colon) {
    local_rules(p, not_after_colon);
    url_rules(p, not_after_colon);
    if (p.empty()) host_rules();
}

void builder::local_rules(const std::string& p, std::u32string_view not_after_colon) {
    const ranges_t controls{{0x00, 0x1F}, {0x7F, 0x7F}};
    const expr esc = seq({lit("\\"), set_of("\\()")});
    // A `<` only before a character the target lexer lets it sit before (BEHAVIOUR 1.6).
    const expr lt = seq({lit("<"), none_of(U"\\()<:", controls)});
    // A local path: any character but a control (a tab is fine), `:`, a lone `<` and the
    // three escaped ones.
    const expr plain = none_of(U"()\\<:", {{0x00, 0x08}, {0x0A, 0x1F}, {0x7F, 0x7F}});
    const auto not_of = [&](std::u32string_view drop) { return alt({minus(plain, drop), esc, lt}); };
    const expr unit = not_of(U"");
    const expr after = not_of(not_after_colon);
    if (not_after_colon.empty()) {
        add(p + "lrun", colon_run(unit, after));
    } else {
        avoid_run(p + "lrun", not_of, {"COPY", "MOVE"});
    }
    const expr lrun = rref(p + "lrun");
    const expr colons = seq({plus(lit(":")), opt(seq({after, lrun}))});
    // Never `[A-Za-z][A-Za-z0-9+.-]*://` at the start (that is a URL).
    std::u32string scheme_chars;
    for (char32_t c = 'a'; c <= 'z'; ++c) scheme_chars += {c, static_cast<char32_t>(c - 'a' + 'A')};
    std::u32string letters = scheme_chars;
    if (service()) letters += U'#';  // a `#` first would claim a regex path (SERVICE.md S7)
    for (char32_t c = '0'; c <= '9'; ++c) scheme_chars += c;
    scheme_chars += U"+.-";
    std::u32string after_slash(not_after_colon);
    after_slash += U'/';
    add(p + "local",
        alt({seq({not_of(letters), lrun}), colons,
             seq({set_of("A-Za-z"), star(set_of("A-Za-z0-9+.-")),
                  opt(alt({seq({not_of(scheme_chars), lrun}),
                           seq({lit(":"), opt(alt({colons, seq({not_of(after_slash), lrun}),
                                                   seq({lit("/"), opt(alt({seq({not_of(U"/"), lrun}), colons}))})}))})}))})}));

}

// URLs. Special schemes take a domain, an IPv4 or an IPv6 host; any other lower-case
// scheme an opaque host (WHATWG host parsing). No `{` but in request metadata blocks.
void builder::url_rules(const std::string& p, std::u32string_view not_after_colon) {
    const ranges_t controls{{0x00, 0x1F}, {0x7F, 0x7F}};
    const expr esc = seq({lit("\\"), set_of("\\()")});
    const expr hex = set_of("0-9A-Fa-f");
    const expr pct = seq({lit("%"), hex, hex});
    const expr uchar = alt({set_of("A-Za-z0-9._~!$&'*+,;=-"), pct});
    const expr uchar_after = alt({minus(set_of("A-Za-z0-9._~!$&'*+,;=-"), not_after_colon), pct});
    const std::string pre = p + "url-";
    // A special scheme in any case (the parser lower-cases it).
    add(p + "url",
        alt({seq({alt({any_case("http"), any_case("https"), any_case("ws"), any_case("wss"), any_case("ftp")}), lit("://"),
                  opt(rref(pre + "user")), rref("host"), opt(rref("port")), rref(pre + "tail"), star(rref(pre + "meta"))}),
             seq({any_case("file"), lit("://"), opt(rref("host")), rref(pre + "tail"), star(rref(pre + "meta"))}),
             seq({rref("scheme"), lit("://"), opt(seq({opt(rref(pre + "user")), rref("ohost"), opt(rref("port"))})),
                  rref(pre + "tail"), star(rref(pre + "meta"))})}));
    add(pre + "user", seq({star(uchar), star(seq({lit(":"), opt(seq({uchar_after, star(uchar)}))})), lit("@")}));
    // Path, query and fragment: no control but a tab (the URL parser drops tabs), no `{`,
    // `}`, unescaped parenthesis or lone `<`.
    const expr pplain = none_of(U"()\\<:?#{}%", {{0x00, 0x08}, {0x0A, 0x1F}, {0x7F, 0x7F}});
    const auto part = [&](std::string_view extra) {  // a path's units; a query adds `?`, a fragment `?#`
        const expr ult = seq({lit("<"), none_of(U"\\()<:{}", controls)});
        std::vector<expr> u{pplain, esc, pct, ult}, a{minus(pplain, not_after_colon), esc, pct, ult};
        if (!extra.empty()) u.push_back(set_of(extra)), a.push_back(set_of(extra));
        return colon_run(alt(std::move(u)), alt(std::move(a)));
    };
    add(pre + "tail", seq({opt(seq({lit("/"), part("")})), opt(seq({lit("?"), part("?")})), opt(seq({lit("#"), part("?#")}))}));
    // Request metadata (SPEC path-request-metadata): `{name: value}` blocks after the URL.
    // The value may hold colons (`{X-When: 12:00:00}`); after one, never a close letter.
    const expr mchar = none_of(U"{}()\\<:", controls);
    std::u32string not_after(U"{}()\\<:");
    not_after += not_after_colon;
    add(pre + "meta", seq({lit("{"), plus(set_of("A-Za-z0-9-")), lit(": "), colon_run(mchar, none_of(not_after, controls)), lit("}")}));
}

// Hosts, schemes and ports, shared by both variants: none holds a colon followed by a letter.
void builder::host_rules() {
    host_names();
    host_numbers();
}

// Schemes, labels and domain names.
void builder::host_names() {
    add("scheme", word_except({"file", "ftp", "http", "https", "ws", "wss"}, set_of("a-z"), set_of("a-z0-9+.-")),
        "a scheme the WHATWG parser does not treat as special");
    const expr label_tail = star(seq({lit("-"), plus(rref("label-char"))}));
    // Latin-1 lower-case letters, each a literal of its own: xgrammar's WASM build (0.1.27)
    // refuses every character of a class that holds more than one non-ASCII code point.
    std::vector<expr> latin;
    for (char32_t c = 0xE0; c <= 0xFF; ++c) {
        if (c == 0xF7) continue;  // the division sign
        const std::string utf8{static_cast<char>(0xC0 | (c >> 6)), static_cast<char>(0x80 | (c & 0x3F))};
        latin.push_back(lit(utf8));
    }
    add("latin-letter", alt(std::move(latin)));
    const expr label = alt({set_of("0-9A-Z_a-z"), rref("latin-letter")});
    const expr label_first = alt({set_of("A-Za-z"), rref("latin-letter")});
    add("label-char", label);
    // The last label starts with a letter, so the host never ends in a number (WHATWG IPv4).
    add("host",
        alt({seq({star(seq({plus(rref("label-char")), label_tail, lit(".")})),
                  label_first, star(rref("label-char")), label_tail, opt(lit("."))}),
             seq({between(seq({rref("octet"), lit(".")}), 3, 3), rref("octet")}),
             seq({lit("["), rref("ipv6"), lit("]")})}));
}

// IPv4 octets, IPv6 addresses, opaque hosts and ports.
void builder::host_numbers() {
    const expr hex = set_of("0-9A-Fa-f");
    const expr pct = seq({lit("%"), hex, hex});
    add("octet", alt({set_of("0-9"), seq({set_of("1-9"), set_of("0-9")}), seq({lit("1"), set_of("0-9"), set_of("0-9")}),
                      seq({lit("2"), set_of("0-4"), set_of("0-9")}), seq({lit("25"), set_of("0-5")})}));
    const expr h16 = between(set_of("0-9a-f"), 1, 4);
    add("ipv6", alt({seq({h16, between(seq({lit(":"), h16}), 7, 7)}),
                     seq({lit("::"), opt(seq({h16, between(seq({lit(":"), h16}), 0, 6)}))}),
                     seq({h16, between(seq({lit(":"), h16}), 0, 5), lit("::"), opt(h16)}),
                     seq({lit("::ffff:"), between(seq({rref("octet"), lit(".")}), 3, 3), rref("octet")})}));
    add("ohost", alt({plus(alt({set_of("A-Za-z0-9._~!$&'*+,;=-"), rref("latin-letter"), pct})), seq({lit("["), rref("ipv6"), lit("]")})}));
    // 0 to 65535, or empty.
    const expr d = set_of("0-9");
    add("port", seq({lit(":"), opt(alt({between(d, 1, 4), seq({set_of("1-5"), between(d, 4, 4)}), seq({lit("6"), set_of("0-4"), between(d, 3, 3)}),
                                        seq({lit("65"), set_of("0-4"), d, d}), seq({lit("655"), set_of("0-2"), d}),
                                        seq({lit("6553"), set_of("0-5")})}))}));
}

// A run of units and colons in which a colon is never followed by one of `words` (COPY and
// MOVE in a destination, whatever the suffix): right-linear rules, one per proper prefix of
// the words read after a colon (`name-x` after the colon itself).
template <class UnitExcept>
void builder::avoid_run(const std::string& name, const UnitExcept& unit_except, const std::vector<std::string>& words) {
    add(name, opt(alt({seq({unit_except(U""), rref(name)}), seq({lit(":"), rref(name + "-x")})})));
    std::vector<std::string> prefixes{""};
    for (const std::string& w : words) {
        for (std::size_t n = 1; n < w.size(); ++n) {
            if (std::find(prefixes.begin(), prefixes.end(), w.substr(0, n)) == prefixes.end()) prefixes.push_back(w.substr(0, n));
        }
    }
    const auto rule_of = [&](const std::string& prefix) { return name + "-x" + lower(prefix); };
    for (const std::string& pre : prefixes) {
        std::u32string next;
        std::vector<expr> alts{seq({lit(":"), rref(name + "-x")})};
        for (const std::string& w : words) {
            if (w.compare(0, pre.size(), pre) != 0 || w.size() <= pre.size()) continue;
            const auto c = static_cast<char32_t>(static_cast<unsigned char>(w[pre.size()]));
            if (next.find(c) != std::u32string::npos) continue;
            next += c;
            if (pre.size() + 1 < w.size()) alts.push_back(seq({lit(std::string(1, w[pre.size()])), rref(rule_of(pre + w[pre.size()]))}));
        }
        alts.insert(alts.begin(), seq({unit_except(next), rref(name)}));
        add(rule_of(pre), opt(alt(std::move(alts))));
    }
}

}  // namespace plurnk::rail::detail
