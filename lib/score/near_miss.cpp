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
// Adds the bytes it looks at (the keyword, the suffix and the byte after them) to `looked`.
std::size_t op_at(std::string_view s, std::uint64_t& looked_at, std::string_view* op = nullptr) {
    std::size_t n = 0;
    const auto looked = [&](std::size_t r) {
        looked_at += std::min(n + 1, s.size());
        return r;
    };
    while (n < s.size() && n < 5 && upper(s[n])) ++n;
    if (n != 4 || !op_from_name(s.substr(0, 4))) return looked(0);
    if (n < s.size() && s[n] == '_') {
        while (++n < s.size() && word(s[n])) {
        }
    } else {
        while (n < s.size() && s[n] >= '0' && s[n] <= '9') ++n;
        if (n < s.size() && word(s[n])) return looked(0);  // READY, READ1x
    }
    if (op) *op = s.substr(0, 4);
    return looked(n);
}

// The op keyword spelt in any case at the start of `s` and not followed by a letter (as
// uppercase), or "" when none.
std::string op_any_case(std::string_view s, std::uint64_t& looked) {
    looked += std::min<std::size_t>(s.size(), 5);
    std::string w;
    for (char c : s.substr(0, 5)) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        if (!upper(c)) break;
        w += c;
    }
    return w.size() == 4 && op_from_name(w) ? w : std::string();
}

bool fence_line(std::string_view s) { return s.starts_with("```") || s.starts_with("~~~"); }
bool space(char c) { return blank(c) || c == '\r' || c == '\n'; }

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

// Text on one line: a text item, or a line of one that holds line breaks.
struct near_miss_finder::piece {
    std::string_view text;  // no line break in it
    position at;
    bool starts;  // the first text of its line (only blanks before it)
    bool joined;  // goes on the text before it on the same line (only blanks between)
    bool touches;  // goes on the text before it with nothing between
    bool ends;    // the last text of its line (only blanks after it)
};

void near_miss_finder::text(const text_item& t, const near_miss_sink& found) {
    if (t.span.end > input_.size() || t.span.begin > t.span.end) return;  // not a span of this input
    if (last_) other(t.span, t.position, found);
    // Whether it goes on the text before it (only blanks between), and whether it is the first
    // text of its line: after a line break among those blanks, or only blanks back to one.
    last_joined_ = blanks_end_ == t.span.begin;
    last_touches_ = last_joined_ && blank_lines_ == 0 && t.span.begin == blanks_start_;
    if (last_joined_) {
        last_starts_ = blank_lines_ > 0 || input_[blanks_start_ - 1] == '\n';  // an item can end with one
    } else {
        std::size_t b = t.span.begin;
        while (b > 0 && blank(input_[b - 1])) --b;
        looked_ += t.span.begin - b + (b > 0);
        last_starts_ = b == 0 || input_[b - 1] == '\n';
    }
    // The blanks after it, looked at once: where the next text would touch it, and their line breaks.
    std::size_t e = blanks_start_ = t.span.end;
    blank_lines_ = 0;
    for (; e < input_.size() && space(input_[e]); ++e) blank_lines_ += input_[e] == '\n';
    looked_ += e - t.span.end + (e < input_.size());
    blanks_end_ = e;
    last_ = t;
}

void near_miss_finder::other(byte_span span, position at, const near_miss_sink& found) {
    // An item at or after the last text item's end is on its end's line or later: on the line of
    // its start plus the line breaks among the blanks before it, and no later, the item has none.
    if (!last_ || span.begin < last_->span.end) return;
    const std::uint64_t breaks = span.begin >= blanks_end_ ? blank_lines_ : 0;
    resolve(at.line <= last_->position.line + breaks, found);
}

void near_miss_finder::finish(const near_miss_sink& found) {
    if (last_) resolve(false, found);
    detail::count_score_bytes(looked_);  // counted once a turn, not at every item
    looked_ = 0;
    blanks_end_ = SIZE_MAX;
    open_lt_.reset();
    fenced_ = skip_end_ = false;
}

void near_miss_finder::resolve(bool one_line, const near_miss_sink& found) {
    const text_item t = *last_;
    last_.reset();
    const bool ends = blank_lines_ > 0 || blanks_end_ == input_.size();
    if (one_line) return look({t.text, t.position, last_starts_, last_joined_, last_touches_, ends}, found);
    // Read line by line: its first line goes on the text before it, its last on the text after it.
    looked_ += t.text.size();
    std::string_view rest = t.text;
    for (std::uint32_t k = 0;; ++k) {
        const std::size_t nl = rest.find('\n');
        const position at{t.position.line + k, k == 0 ? t.position.column : 0};
        const bool last = nl == std::string_view::npos;
        look({rest.substr(0, nl), at, k > 0 || last_starts_, k == 0 && last_joined_, k == 0 && last_touches_,
              !last || ends},
             found);
        if (last) return;
        rest.remove_prefix(nl + 1);
    }
}

void near_miss_finder::look(const piece& p, const near_miss_sink& found) {
    if (p.starts || !p.joined) skip_end_ = false;  // a new line, or text after a statement
    if (open_lt_) {  // `<<` and blanks began the line: the op is the first word after them
        if (const std::string op = p.joined && !p.starts ? op_any_case(p.text, looked_) : std::string(); !op.empty()) {
            found(k_near_statement_in_fence, *open_lt_, op);
        }
        open_lt_.reset();
    }
    const std::size_t lead = std::min(p.text.find_first_not_of(" \t"), p.text.size());  // a line in an item
    const std::string_view s = p.text.substr(lead);
    if (p.starts) {
        looked_ += lead + std::min<std::size_t>(s.size(), 3);
        const position at{p.at.line, p.at.column + static_cast<std::uint32_t>(lead)};
        if (fence_line(s)) {
            fenced_ = !fenced_;
            skip_end_ = true;
        } else if (s.starts_with("<<")) {  // text, so not a statement: inside a fence, one written apart
            skip_end_ = true;
            const std::size_t word_at = std::min(s.find_first_not_of(" \t", 2), s.size());
            if (!fenced_) {
            } else if (word_at < s.size()) {
                if (const std::string op = op_any_case(s.substr(word_at), looked_); !op.empty()) found(k_near_statement_in_fence, at, op);
            } else if (!p.ends) {
                open_lt_ = at;
            }
        } else if (std::string_view op; s.size() > 1 && s[0] == '<') {
            if (const std::size_t n = op_at(s.substr(1), looked_, &op); n > 0) {
                const char next = 1 + n < s.size() ? s[1 + n] : '\0';
                if (next == '[' || next == '(' || next == '<' || next == ':') {
                    found(k_near_opener_missing_lt, at, op);
                    skip_end_ = true;
                }
            }
        }
    }
    if (!p.ends || skip_end_) return;
    // ":OP" ending the line (blanks after it allowed), the colon at the line's first non-blank or
    // right after a character that is not a blank: a closer with nothing open. Looked at from
    // the end: the suffix and keyword are word characters, and a colon is right before them.
    std::string_view t = p.text;
    std::size_t w = t.size();
    while (w > 0 && space(t[w - 1])) --w;
    t = t.substr(0, w);
    while (w > 0 && word(t[w - 1])) --w;
    looked_ += p.text.size() - w + (w > 0);
    if (w == 0 || t[w - 1] != ':') return;
    const std::size_t colon = w - 1;
    // (At the piece's start, that character is the text the piece touches, if any.)
    if (!(p.starts && colon == lead) && (colon == 0 ? !p.touches : blank(t[colon - 1]))) return;
    std::string_view op;
    if (const std::size_t n = op_at(t.substr(colon + 1), looked_, &op); n > 0 && colon + 1 + n == t.size()) {
        looked_ += colon;
        found(k_near_stray_closer, position{p.at.line, p.at.column + code_points(t.substr(0, colon))}, op);
    }
}

}  // namespace plurnk::score
