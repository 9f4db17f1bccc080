// The PLURNK lexer (BEHAVIOUR §1). One pass over the input with a small mode enum: DEFAULT
// (between statements), SLOTS (after an opener), the three signal modes, TARGET and BODY; plus an
// explicit stack of open TURN suffixes. It imitates the reference ANTLR lexer exactly where that
// shows: longest match between competing rules, and on a character no rule accepts one error whose
// text runs from the failed token's start to the failing character, after which the first code
// point of that span is dropped and lexing resumes in the same mode. Body text, the hot path, is
// scanned with memchr for ':' followed by a compare against the open tag.
#include "lexer.hpp"

#include <array>
#include <cstring>

namespace plurnk::detail {

namespace {

constexpr std::array<std::string_view, k_op_count> k_keywords = {
    "FIND", "READ", "EDIT", "COPY", "MOVE", "OPEN", "FOLD", "SEND",
    "EXEC", "WORK", "FORK", "KILL", "PLAN", "TURN", "LOOK", "BUFF"};

bool is_ident_char(unsigned char c) noexcept {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_digit(unsigned char c) noexcept { return c >= '0' && c <= '9'; }

// Length in bytes of the code point at s[i] (1 for an invalid byte).
std::size_t cp_len(std::string_view s, std::size_t i) noexcept {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
    if (i + len > s.size()) return 1;
    for (std::size_t k = 1; k < len; ++k) {
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 1;
    }
    return len;
}

const char* k_ctx_default = "between statements";
const char* k_ctx_slots =
    "in slot region - expected `[signal]`, `(target)`, `<L>`, or `:body:` (any order)";
const char* k_ctx_tags = "in tag signal - expected tag, `,`, or `]`";
const char* k_ctx_int = "in signal - expected integer for SEND/KILL, then `]`";
const char* k_ctx_ident = "in signal - expected executor for EXEC, then `]`";
const char* k_ctx_target = "in target slot - expected URI characters or `)`";
const char* k_ctx_exec_redirect = "in signal - timeout/poll ride the `<scope>` slot; try `EXEC<-1,300>`";
const char* k_ctx_matcher_redirect =
    "in slot region - a matcher rides the `:body:` slot; put it between the body fences";

class lexer {
public:
    lexer(std::string_view in, std::size_t max_turn_depth) : s_(in), max_turn_depth_(max_turn_depth) {
        out_.tokens.reserve(in.size() / 8 + 4);
    }

    lex_output run() {
        while (i_ < s_.size()) {
            switch (mode_) {
                case mode::normal: lex_default(); break;
                case mode::slots: lex_slots(); break;
                case mode::signal_tags: lex_signal_tags(); break;
                case mode::signal_int: lex_signal_int(); break;
                case mode::signal_ident: lex_signal_ident(); break;
                case mode::target: lex_target(); break;
                case mode::body: lex_body(); break;
            }
        }
        emit(tok::eof, s_.size(), s_.size());
        out_.final_mode = mode_;
        out_.in_body = mode_ == mode::body;
        return std::move(out_);
    }

private:
    unsigned char at(std::size_t k) const noexcept { return static_cast<unsigned char>(s_[k]); }
    bool has(std::size_t k) const noexcept { return k < s_.size(); }

    void emit(tok kind, std::size_t b, std::size_t e) {
        out_.tokens.push_back(token{kind, static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(e), op_});
    }

    // Records an error for a token that started at `start` and failed at `fail_at` (the failing
    // character is included when present), then resumes after the failing character, as the
    // ANTLR lexer's recover() does.
    void fail(std::size_t start, std::size_t fail_at, const char* context) {
        std::size_t end = has(fail_at) ? fail_at + cp_len(s_, fail_at) : s_.size();
        lex_error e;
        e.begin = static_cast<std::uint32_t>(start);
        e.token_index = static_cast<std::uint32_t>(out_.tokens.size());
        e.context = context;
        if (end > start) {
            e.message = "unrecognized character '";
            e.message.append(s_.substr(start, end - start));
            e.message += "' ";
        } else {
            e.message = "unrecognized character end of input ";
        }
        e.message += context;
        out_.errors.push_back(std::move(e));
        i_ = end > start ? end : start + 1;
    }

    // Which keyword (if any) starts at s_[k].
    int keyword_at(std::size_t k) const noexcept {
        if (k + 4 > s_.size()) return -1;
        std::string_view w = s_.substr(k, 4);
        for (std::size_t n = 0; n < k_keywords.size(); ++n) {
            if (w == k_keywords[n]) return static_cast<int>(n);
        }
        return -1;
    }

    // DEFAULT: openers, whitespace, reasoning enclosures, TURN closers, text.
    void lex_default() {
        const std::size_t start = i_;
        const unsigned char c = at(i_);
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            while (has(i_) && (at(i_) == ' ' || at(i_) == '\t' || at(i_) == '\r' || at(i_) == '\n')) ++i_;
            return;
        }
        if (c == '<' && has(i_ + 1) && at(i_ + 1) == '<') {
            int kw = keyword_at(i_ + 2);
            if (kw >= 0) {
                std::size_t e = i_ + 6;
                while (has(e) && is_ident_char(at(e))) ++e;
                op_ = static_cast<plurnk::op>(kw);
                emit(tok::opener, start, e);
                out_.last_open_begin = static_cast<std::uint32_t>(start);
                out_.open_tag_begin = static_cast<std::uint32_t>(start + 2);
                out_.open_tag_end = static_cast<std::uint32_t>(e);
                open_tag_ = s_.substr(start + 2, e - start - 2);
                i_ = e;
                mode_ = mode::slots;
                return;
            }
        }
        std::size_t text_end = scan_text(i_);
        // Competing rules that may be longer: a complete reasoning enclosure, a TURN closer.
        std::size_t special_end = 0;
        if (c == '<') {
            special_end = enclosure_end(i_);
        } else if (c == ':' && !turn_stack_.empty()) {
            special_end = close_turn_end(i_);
        }
        if (special_end > 0 && special_end - start >= text_end - start) {
            if (c == ':') {
                op_ = plurnk::op::TURN;
                emit(tok::close_turn, start, special_end);
                turn_stack_.pop_back();
            } else {
                emit(tok::text, start, special_end);
            }
            i_ = special_end;
            return;
        }
        if (text_end == start) {
            fail(start, start + 1, k_ctx_default);
            return;
        }
        emit(tok::text, start, text_end);
        i_ = text_end;
    }

    // End of the maximal TEXT run starting at k (BEHAVIOUR §1.1 rule 5); k when nothing matches.
    std::size_t scan_text(std::size_t k) const noexcept {
        while (has(k)) {
            const unsigned char c = at(k);
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') break;
            if (c == '<') {
                if (!has(k + 1)) break;
                if (at(k + 1) == '<') {
                    if (keyword_at(k + 2) >= 0) break;
                    k += 2;
                    continue;
                }
                k += 2;
                continue;
            }
            ++k;
        }
        return k;
    }

    // End of a complete `<think>…</think>` or `<|channel>…<channel|>` at k, or 0.
    std::size_t enclosure_end(std::size_t k) const noexcept {
        static constexpr std::string_view k_pairs[2][2] = {{"<think>", "</think>"}, {"<|channel>", "<channel|>"}};
        for (const auto& p : k_pairs) {
            if (s_.substr(k, p[0].size()) == p[0]) {
                std::size_t close = s_.find(p[1], k + p[0].size());
                if (close != std::string_view::npos) return close + p[1].size();
            }
        }
        return 0;
    }

    // End of `:TURN<suffix>` closing the innermost open TURN at k, or 0.
    std::size_t close_turn_end(std::size_t k) const noexcept {
        const std::string_view suffix = turn_stack_.back();
        if (s_.substr(k + 1, 4) != "TURN") return 0;
        if (s_.substr(k + 5, suffix.size()) != suffix) return 0;
        const std::size_t e = k + 5 + suffix.size();
        if (has(e) && is_ident_char(at(e))) return 0;
        return e;
    }

    // SLOTS: header slots after an opener, any order.
    void lex_slots() {
        const std::size_t start = i_;
        const unsigned char c = at(i_);
        switch (c) {
            case ' ': case '\t': case '\r': case '\n':
                while (has(i_) && (at(i_) == ' ' || at(i_) == '\t' || at(i_) == '\r' || at(i_) == '\n')) ++i_;
                return;
            case '[':
                emit(tok::lbrack, start, start + 1);
                ++i_;
                mode_ = (op_ == plurnk::op::SEND || op_ == plurnk::op::KILL) ? mode::signal_int
                        : op_ == plurnk::op::EXEC                              ? mode::signal_ident
                                                                               : mode::signal_tags;
                return;
            case '(':
                emit(tok::lparen, start, start + 1);
                ++i_;
                depth_ = 0;
                mode_ = mode::target;
                return;
            case '<':
                lex_scope();
                return;
            case ':':
                lex_slot_colon();
                return;
            default:
                fail(start, start, (c == '$' || c == '~' || c == '@') ? k_ctx_matcher_redirect : k_ctx_slots);
        }
    }

    // <scope>: '<' NUM (('-' | ',' | ', ') NUM)* '>' with NUM = '-'? digits ('.' digits)?
    void lex_scope() {
        const std::size_t start = i_;
        std::size_t k = i_ + 1;
        for (;;) {
            // NUM
            if (has(k) && at(k) == '-') ++k;
            if (!has(k) || !is_digit(at(k))) return fail(start, k, k_ctx_slots);
            while (has(k) && is_digit(at(k))) ++k;
            if (has(k) && at(k) == '.') {
                ++k;
                if (!has(k) || !is_digit(at(k))) return fail(start, k, k_ctx_slots);
                while (has(k) && is_digit(at(k))) ++k;
            }
            if (!has(k)) return fail(start, k, k_ctx_slots);
            const unsigned char c = at(k);
            if (c == '>') {
                emit(tok::scope, start, k + 1);
                i_ = k + 1;
                return;
            }
            if (c == '-') {
                ++k;
            } else if (c == ',') {
                ++k;
                if (has(k) && at(k) == ' ') ++k;
            } else {
                return fail(start, k, k_ctx_slots);
            }
        }
    }

    // ':' in SLOTS: the one-colon empty close, a TURN body opener, or the body fence.
    void lex_slot_colon() {
        const std::size_t start = i_;
        if (op_ != plurnk::op::TURN && s_.substr(start + 1, open_tag_.size()) == open_tag_) {
            std::size_t k = start + 1 + open_tag_.size();
            std::size_t e = k;
            while (has(k) && (at(k) == ' ' || at(k) == '\t')) ++k;
            if (!has(k) || at(k) == '\n' || at(k) == '\r' || (at(k) == '<' && has(k + 1) && at(k + 1) == '<')) {
                emit(tok::close_tag, start, e);
                i_ = e;
                mode_ = mode::normal;
                return;
            }
        }
        emit(tok::colon, start, start + 1);
        ++i_;
        if (op_ == plurnk::op::TURN) {
            turn_stack_.push_back(open_tag_.substr(4));
            mode_ = mode::normal;
        } else {
            out_.body_begin = static_cast<std::uint32_t>(i_);
            mode_ = mode::body;
        }
    }

    bool skip_blanks() {
        if (at(i_) == ' ' || at(i_) == '\t') {
            while (has(i_) && (at(i_) == ' ' || at(i_) == '\t')) ++i_;
            return true;
        }
        return false;
    }

    void close_signal() {
        emit(tok::rbrack, i_, i_ + 1);
        ++i_;
        mode_ = mode::slots;
    }

    // SIGNAL_TAGS: comma-separated tags.
    void lex_signal_tags() {
        if (skip_blanks()) return;
        const std::size_t start = i_;
        const unsigned char c = at(i_);
        if (c == ']') return close_signal();
        if (c == ',') {
            emit(tok::comma, start, start + 1);
            ++i_;
            return;
        }
        std::size_t k = i_;
        while (has(k)) {
            const unsigned char d = at(k);
            if (d == ']' || d == ',' || d == '\r' || d == '\n' || d == ' ' || d == '\t') break;
            if (d == '<') {
                if (!has(k + 1)) break;
                const unsigned char f = at(k + 1);
                if (f == ']' || f == ',' || f == '<' || f == '\r' || f == '\n' || f == ' ' || f == '\t') break;
                k += 2;
                continue;
            }
            ++k;
        }
        if (k == start) {
            // Only '<' (followed by a stop char or EOF), CR or LF get here.
            return fail(start, c == '<' ? start + 1 : start, k_ctx_tags);
        }
        emit(tok::tag, start, k);
        i_ = k;
    }

    // SIGNAL_INT: SEND/KILL integer or disposition.
    void lex_signal_int() {
        if (skip_blanks()) return;
        const std::size_t start = i_;
        const unsigned char c = at(i_);
        if (c == ']') return close_signal();
        std::size_t k = i_;
        if (c == '-') ++k;
        if (!has(k) || !is_digit(at(k))) return fail(start, k, k_ctx_int);
        while (has(k) && is_digit(at(k))) ++k;
        const std::string_view digits = s_.substr(start, k - start);
        const bool disposition =
            digits == "102" || digits == "200" || digits == "202" || digits == "300" || digits == "499";
        emit(disposition ? tok::disposition : tok::integer, start, k);
        i_ = k;
    }

    // SIGNAL_IDENT: EXEC executor.
    void lex_signal_ident() {
        if (skip_blanks()) return;
        const std::size_t start = i_;
        const unsigned char c = at(i_);
        if (c == ']') return close_signal();
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_') {
            std::size_t k = i_ + 1;
            while (has(k) && (is_ident_char(at(k)) || at(k) == '.' || at(k) == '+' || at(k) == '-')) ++k;
            emit(tok::ident, start, k);
            i_ = k;
            return;
        }
        fail(start, start, (c == '-' || is_digit(c)) ? k_ctx_exec_redirect : k_ctx_ident);
    }

    // TARGET: escapes, balanced parentheses, text runs; ')' at depth 0 closes.
    void lex_target() {
        const std::size_t start = i_;
        std::size_t k = i_;
        while (has(k)) {
            const unsigned char c = at(k);
            if (c == '\\') {
                // `\\`, `\(` and `\)` are escapes; a lone backslash is plain text.
                k += (has(k + 1) && (at(k + 1) == '\\' || at(k + 1) == '(' || at(k + 1) == ')')) ? 2 : 1;
                continue;
            }
            if (c == '(') {
                ++depth_;
                ++k;
                continue;
            }
            if (c == ')') {
                if (depth_ == 0) break;
                --depth_;
                ++k;
                continue;
            }
            if (c == '\r' || c == '\n') break;
            if (c == '<') {
                if (!has(k + 1)) break;
                const unsigned char f = at(k + 1);
                if (f == '\\' || f == '(' || f == ')' || f == '<' || f == '\r' || f == '\n') break;
                k += 2;
                continue;
            }
            ++k;
        }
        if (k > start) {
            emit(tok::target_text, start, k);
            i_ = k;
            return;
        }
        const unsigned char c = at(start);
        if (c == ')') {
            emit(tok::rparen, start, start + 1);
            ++i_;
            mode_ = mode::slots;
            return;
        }
        fail(start, c == '<' ? start + 1 : start, k_ctx_target);
    }

    // BODY: opaque text up to the exact close tag (':' + open tag, not followed by an ident char).
    void lex_body() {
        const std::size_t start = i_;
        std::size_t k = i_;
        for (;;) {
            const void* hit = std::memchr(s_.data() + k, ':', s_.size() - k);
            if (hit == nullptr) {
                emit(tok::body_text, start, s_.size());
                i_ = s_.size();
                return;
            }
            k = static_cast<std::size_t>(static_cast<const char*>(hit) - s_.data());
            if (s_.substr(k + 1, open_tag_.size()) == open_tag_) {
                const std::size_t e = k + 1 + open_tag_.size();
                if (!has(e) || !is_ident_char(at(e))) {
                    if (k > start) emit(tok::body_text, start, k);
                    emit(tok::close_tag, k, e);
                    i_ = e;
                    mode_ = mode::normal;
                    return;
                }
            }
            ++k;
        }
    }

    std::string_view s_;
    std::size_t max_turn_depth_;
    std::size_t i_ = 0;
    mode mode_ = mode::normal;
    plurnk::op op_ = plurnk::op::PLAN;
    std::string_view open_tag_;
    int depth_ = 0;
    std::vector<std::string_view> turn_stack_;
    lex_output out_;
};

}  // namespace

lex_output lex(std::string_view input, std::size_t max_turn_depth) {
    return lexer(input, max_turn_depth).run();
}

}  // namespace plurnk::detail
