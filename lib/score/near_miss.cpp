// SPDX-License-Identifier: MIT
// Near-misses (doc/score.md): lines of a turn's text that look like damaged statements. The
// parser is right to read them as text (the language allows it); the scorer counts them, because
// a statement that quietly became prose is damage a clean verdict hides.
#include <algorithm>
#include <string>

#include "plurnk/score.hpp"
#include "base/work_counter.hpp"

namespace plurnk::score {

namespace {

bool upper(char c) { return c >= 'A' && c <= 'Z'; }
bool word(char c) { return upper(c) || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }
bool blank(char c) { return c == ' ' || c == '\t'; }

// The length of an op keyword and its suffix at the start of `s` (0 when there is none): four
// uppercase letters that name an op, then a suffix of digits, or `_` and word characters. A
// suffix of letters ([A-Za-z0-9_]* allows it) is not taken: it would make READY a READ closer.
std::size_t op_at(std::string_view s, std::string_view* op = nullptr) {
    std::size_t n = 0;
    while (n < s.size() && n < 5 && upper(s[n])) ++n;
    if (n != 4 || !op_from_name(s.substr(0, 4))) return 0;
    if (n < s.size() && s[n] == '_') {
        while (++n < s.size() && word(s[n])) {
        }
    } else {
        while (n < s.size() && s[n] >= '0' && s[n] <= '9') ++n;
        if (n < s.size() && word(s[n])) return 0;  // READY, READ1x
    }
    if (op) *op = s.substr(0, 4);
    return n;
}

// The op keyword spelt in any case at the start of `s` and not followed by a letter (as
// uppercase), or "" when none.
std::string op_any_case(std::string_view s) {
    std::string w;
    for (char c : s.substr(0, 5)) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        if (!upper(c)) break;
        w += c;
    }
    return w.size() == 4 && op_from_name(w) ? w : std::string();
}

bool fence_line(std::string_view s) { return s.starts_with("```") || s.starts_with("~~~"); }

std::uint32_t code_points(std::string_view s) {
    return static_cast<std::uint32_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

std::string near_miss_message(std::string_view kind, std::string_view op) {
    const std::string o(op);
    if (kind == k_near_opener_missing_lt) return "<" + o + " opens no statement: a '<' of <<" + o + " is missing";
    if (kind == k_near_stray_closer) return "':" + o + "' ends a line like a statement's closer, but no statement is open";
    return "a <<" + o + " line inside a fence is text: it is not run";
}

std::string near_miss_template(std::string_view kind) {
    return std::find(std::begin(k_near_kinds), std::end(k_near_kinds), kind) == std::end(k_near_kinds)
               ? std::string()
               : near_miss_message(kind, "{op}");
}

void near_miss_finder::text(const text_item& t, const near_miss_sink& found) {
    // The parser leaves the blanks and line breaks between words out of its text items: a run
    // of text goes on over a gap of nothing else (each gap looked at once).
    if (end_ != begin_ && t.span.begin >= end_ && t.span.begin <= input_.size()) {
        const std::string_view gap = input_.substr(end_, t.span.begin - end_);
        detail::count_score_bytes(gap.size());
        if (gap.find_first_not_of(" \t\r\n") == std::string_view::npos) {
            end_ = t.span.end;
            return;
        }
    }
    flush(found);
    begin_ = t.span.begin, end_ = t.span.end, at_ = t.position;
}

void near_miss_finder::finish(const near_miss_sink& found) {
    flush(found);
    begin_ = end_ = 0;
}

void near_miss_finder::flush(const near_miss_sink& found) {
    if (end_ <= begin_ || end_ > input_.size()) return;
    // Widen the run over the blanks around it: whether its first line starts at a line's start,
    // and its last ends at a line's end (a check of a line's start, or end, needs it in text).
    std::size_t b = begin_, e = end_;
    while (b > 0 && blank(input_[b - 1])) --b;
    while (e < input_.size() && (blank(input_[e]) || input_[e] == '\r')) ++e;
    detail::count_score_bytes((begin_ - b) + (e - end_));
    bool starts = b == 0 || input_[b - 1] == '\n';
    const bool run_ends = e == input_.size() || input_[e] == '\n';
    const position at{at_.line, at_.column - static_cast<std::uint32_t>(begin_ - b)};  // blanks are a column each
    std::string_view rest = input_.substr(b, e - b);
    for (std::uint32_t line = at.line; !rest.empty(); ++line, starts = true) {
        const std::size_t nl = rest.find('\n');
        std::string_view ln = rest.substr(0, nl);
        const bool ends = nl != std::string_view::npos || run_ends;
        rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
        detail::count_score_bytes(ln.size() + 1);
        if (!ln.empty() && ln.back() == '\r') ln.remove_suffix(1);
        const std::uint32_t first_column = line == at.line ? at.column : 0;  // only the run's first line starts late
        const std::size_t lead = std::min(ln.find_first_not_of(" \t"), ln.size());
        const std::string_view s = ln.substr(lead);
        if (starts) {
            if (fence_line(s)) {
                fenced_ = !fenced_;
                continue;
            }
            const std::uint32_t column = first_column + static_cast<std::uint32_t>(lead);
            if (s.starts_with("<<")) {  // text, so not a statement: inside a fence, one written apart
                const std::string_view after = s.substr(std::min(s.find_first_not_of(" \t", 2), s.size()));
                if (const std::string op = op_any_case(after); fenced_ && !op.empty()) {
                    found(k_near_statement_in_fence, position{line, column}, op);
                }
                continue;
            }
            std::string_view op;
            if (const std::size_t n = s.size() > 1 && s[0] == '<' ? op_at(s.substr(1), &op) : 0; n > 0) {
                const char next = 1 + n < s.size() ? s[1 + n] : '\0';
                if (next == '[' || next == '(' || next == '<' || next == ':') {
                    found(k_near_opener_missing_lt, position{line, column}, op);
                    continue;
                }
            }
        }
        if (!ends) continue;
        // ":OP" ending the line (blanks after it allowed), the colon at the line's first
        // non-blank or right after a character that is not a blank: a closer with nothing open.
        std::string_view trimmed = ln;
        while (!trimmed.empty() && blank(trimmed.back())) trimmed.remove_suffix(1);
        const std::size_t colon = trimmed.rfind(':');
        if (colon == std::string_view::npos) continue;
        if (!(starts && colon == lead) && (colon == 0 || blank(trimmed[colon - 1]))) continue;
        std::string_view op;
        if (const std::size_t n = op_at(trimmed.substr(colon + 1), &op); n > 0 && colon + 1 + n == trimmed.size()) {
            found(k_near_stray_closer, position{line, first_column + code_points(ln.substr(0, colon))}, op);
        }
    }
}

}  // namespace plurnk::score
