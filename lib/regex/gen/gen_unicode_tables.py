#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generates unicode_tables.inc for the ECMAScript regex validator (lib/regex/, compiled into
unicode_properties.cpp).

Input: the Unicode Character Database files PropertyAliases.txt, PropertyValueAliases.txt and
DerivedCoreProperties.txt (Debian package `unicode-data`, /usr/share/unicode, Unicode 15.0).
The reference engine (V8 11.3 in Node 20 with ICU 78) knows Unicode 17, so the names and
identifier ranges added by Unicode 15.1, 16.0 and 17.0 are listed by hand below.

Output tables (all sorted, so the validator can binary-search them):
  * k_general_category_values: every General_Category value alias (short and long names),
    accepted in \\p{X} and \\p{General_Category=X}.
  * k_script_values: every Script value alias whose character set is not empty (ICU gives
    Katakana_Or_Hiragana no characters, and V8 rejects an empty set), for Script= and
    Script_Extensions=.
  * k_binary_properties: the aliases of the binary properties V8 allow-lists for \\p{X}.
  * k_string_properties: the properties of strings, valid only with the v flag.
  * k_id_start / k_id_continue: code point ranges of ID_Start / ID_Continue.

Usage: gen_unicode_tables.py [UCD_DIR] > unicode_tables.inc
"""
import os
import sys

UCD = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"

# Binary properties V8 accepts in \p{...} (ECMA-262 table "Binary Unicode property aliases"),
# by long name; every alias PropertyAliases.txt lists for them is accepted.
BINARY = [
    "ASCII_Hex_Digit", "Alphabetic", "Bidi_Control", "Bidi_Mirrored", "Case_Ignorable", "Cased",
    "Changes_When_Casefolded", "Changes_When_Casemapped", "Changes_When_Lowercased",
    "Changes_When_NFKC_Casefolded", "Changes_When_Titlecased", "Changes_When_Uppercased", "Dash",
    "Default_Ignorable_Code_Point", "Deprecated", "Diacritic", "Emoji", "Emoji_Component",
    "Emoji_Modifier", "Emoji_Modifier_Base", "Emoji_Presentation", "Extended_Pictographic",
    "Extender", "Grapheme_Base", "Grapheme_Extend", "Hex_Digit", "IDS_Binary_Operator",
    "IDS_Trinary_Operator", "ID_Continue", "ID_Start", "Ideographic", "Join_Control",
    "Logical_Order_Exception", "Lowercase", "Math", "Noncharacter_Code_Point", "Pattern_Syntax",
    "Pattern_White_Space", "Quotation_Mark", "Radical", "Regional_Indicator",
    "Sentence_Terminal", "Soft_Dotted", "Terminal_Punctuation", "Unified_Ideograph",
    "Uppercase", "Variation_Selector", "White_Space", "XID_Continue", "XID_Start",
]
# Names V8 handles itself rather than through ICU.
SPECIAL = ["Any", "ASCII", "Assigned"]
# Properties of strings (UTS #51), v flag only; they have no short aliases.
STRING_PROPERTIES = [
    "Basic_Emoji", "Emoji_Keycap_Sequence", "RGI_Emoji", "RGI_Emoji_Flag_Sequence",
    "RGI_Emoji_Modifier_Sequence", "RGI_Emoji_Tag_Sequence", "RGI_Emoji_ZWJ_Sequence",
]
# Script values whose ICU character set is empty: V8 rejects them.
EMPTY_SCRIPTS = {"Hrkt", "Katakana_Or_Hiragana"}
# Scripts added after Unicode 15.0 (16.0: Garay ... Tulu_Tigalari; 17.0: Beria_Erfe ...).
NEW_SCRIPTS = [
    ("Gara", "Garay"), ("Gukh", "Gurung_Khema"), ("Krai", "Kirat_Rai"), ("Onao", "Ol_Onal"),
    ("Sunu", "Sunuwar"), ("Todr", "Todhri"), ("Tutg", "Tulu_Tigalari"),
    ("Berf", "Beria_Erfe"), ("Sidt", "Sidetic"), ("Tayo", "Tai_Yo"), ("Tols", "Tolong_Siki"),
]
# ID_Start / ID_Continue code points added by Unicode 15.1 - 17.0.
NEW_ID_START = [
    (0x88F, 0x88F), (0xC5C, 0xC5C), (0xCDC, 0xCDC), (0x1C89, 0x1C8A), (0xA7CB, 0xA7CF),
    (0xA7D2, 0xA7D2), (0xA7D4, 0xA7D4), (0xA7DA, 0xA7DC), (0xA7F1, 0xA7F1),
    (0x105C0, 0x105F3), (0x10940, 0x10959), (0x10D4A, 0x10D65), (0x10D6F, 0x10D85),
    (0x10EC2, 0x10EC7), (0x11380, 0x11389), (0x1138B, 0x1138B), (0x1138E, 0x1138E),
    (0x11390, 0x113B5), (0x113B7, 0x113B7), (0x113D1, 0x113D1), (0x113D3, 0x113D3),
    (0x11BC0, 0x11BE0), (0x11DB0, 0x11DDB), (0x13460, 0x143FA), (0x16100, 0x1611D),
    (0x16D40, 0x16D6C), (0x16EA0, 0x16EB8), (0x16EBB, 0x16ED3), (0x16FF2, 0x16FF6),
    (0x187F8, 0x187FF), (0x18CFF, 0x18CFF), (0x18D09, 0x18D1E), (0x18D80, 0x18DF2),
    (0x1E5D0, 0x1E5ED), (0x1E5F0, 0x1E5F0), (0x1E6C0, 0x1E6DE), (0x1E6E0, 0x1E6E2),
    (0x1E6E4, 0x1E6E5), (0x1E6E7, 0x1E6ED), (0x1E6F0, 0x1E6F4), (0x1E6FE, 0x1E6FF),
    (0x2B73A, 0x2B73F), (0x2CEA2, 0x2CEAD), (0x2EBF0, 0x2EE5D), (0x323B0, 0x33479),
]
NEW_ID_CONTINUE = NEW_ID_START + [
    (0x897, 0x897), (0x1ACF, 0x1ADD), (0x1AE0, 0x1AEB), (0x200C, 0x200D), (0x30FB, 0x30FB),
    (0xFF65, 0xFF65), (0x10D40, 0x10D49), (0x10D69, 0x10D6D), (0x10EFA, 0x10EFC),
    (0x113B8, 0x113C0), (0x113C2, 0x113C2), (0x113C5, 0x113C5), (0x113C7, 0x113CA),
    (0x113CC, 0x113D0), (0x113D2, 0x113D2), (0x113E1, 0x113E2), (0x116D0, 0x116E3),
    (0x11B60, 0x11B67), (0x11BF0, 0x11BF9), (0x11DE0, 0x11DE9), (0x11F5A, 0x11F5A),
    (0x1611E, 0x16139), (0x16D70, 0x16D79), (0x1CCF0, 0x1CCF9), (0x1E5EE, 0x1E5EF),
    (0x1E5F1, 0x1E5FA), (0x1E6E3, 0x1E6E3), (0x1E6E6, 0x1E6E6), (0x1E6EE, 0x1E6EF),
    (0x1E6F5, 0x1E6F5),
]


def records(name):
    with open(os.path.join(UCD, name), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                yield [field.strip() for field in line.split(";")]


def property_aliases():
    by_long = {}
    for rec in records("PropertyAliases.txt"):
        by_long[rec[1]] = rec
    return by_long


def value_aliases(prop):
    out = []
    for rec in records("PropertyValueAliases.txt"):
        if rec[0] == prop:
            out.append(rec[1:])
    return out


def code_point_set(prop):
    points = set()
    for rec in records("DerivedCoreProperties.txt"):
        if len(rec) >= 2 and rec[1] == prop:
            if ".." in rec[0]:
                lo, hi = rec[0].split("..")
                points.update(range(int(lo, 16), int(hi, 16) + 1))
            else:
                points.add(int(rec[0], 16))
    return points


def to_ranges(points):
    out = []
    for cp in sorted(points):
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def emit_names(name, names):
    names = sorted(set(n for n in names if n and all(c.isalnum() or c == "_" for c in n)))
    print(f"inline constexpr std::string_view {name}[] = {{")
    line = "   "
    for n in names:
        item = f' "{n}",'
        if len(line) + len(item) > 99:
            print(line)
            line = "   "
        line += item
    print(line)
    print("};")
    print()


def emit_ranges(name, ranges):
    print(f"inline constexpr code_point_range {name}[] = {{")
    line = "   "
    for lo, hi in ranges:
        item = f" {{0x{lo:X}, 0x{hi:X}}},"
        if len(line) + len(item) > 99:
            print(line)
            line = "   "
        line += item
    print(line)
    print("};")
    print()


def main():
    props = property_aliases()
    gc = [n for rec in value_aliases("gc") for n in rec]
    sc = [n for rec in value_aliases("sc") for n in rec if n not in EMPTY_SCRIPTS]
    sc += [n for pair in NEW_SCRIPTS for n in pair]
    binary = [n for long_name in BINARY for n in props[long_name]] + SPECIAL
    id_start = code_point_set("ID_Start")
    id_continue = code_point_set("ID_Continue")
    for lo, hi in NEW_ID_START:
        id_start.update(range(lo, hi + 1))
    for lo, hi in NEW_ID_CONTINUE:
        id_continue.update(range(lo, hi + 1))

    print("// SPDX-License-Identifier: MIT")
    print("// Generated by lib/regex/gen/gen_unicode_tables.py from the Unicode Character Database")
    print("// (15.0, plus the names and ranges Unicode 15.1-17.0 added, listed in the script).")
    print("// Do not edit by hand. Included by lib/regex/regex.cpp inside its anonymous namespace.")
    print()
    emit_names("k_general_category_values", gc)
    emit_names("k_script_values", sc)
    emit_names("k_binary_properties", binary)
    emit_names("k_string_properties", STRING_PROPERTIES)
    emit_ranges("k_id_start", to_ranges(id_start))
    emit_ranges("k_id_continue", to_ranges(id_continue))


if __name__ == "__main__":
    main()
