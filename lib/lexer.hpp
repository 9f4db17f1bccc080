// SPDX-License-Identifier: MIT
// The PLURNK lexer (BEHAVIOUR §1): a single-pass, mode-switching scanner over a byte view.
// Private header.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "messages.hpp"
#include "plurnk/ast.hpp"

namespace plurnk::detail {

enum class tok : std::uint8_t {
    opener,       // <<OPsuffix (DEFAULT)
    text,         // text between statements (DEFAULT), incl. reasoning enclosures
    close_turn,   // :TURNsuffix (DEFAULT, a TURN body open)
    lbrack,       // [ (SLOTS)
    lparen,       // ( (SLOTS)
    scope,        // <1,2> (SLOTS)
    colon,        // : body fence (SLOTS)
    close_tag,    // :OPsuffix (BODY, or the one-colon close in SLOTS)
    tag,          // SIGNAL_TAGS
    comma,        // SIGNAL_TAGS
    rbrack,       // ] (all signal modes)
    disposition,  // one of the disposition codes (SIGNAL_INT; op_table.hpp)
    integer,      // -?digits (SIGNAL_INT)
    ident,        // executor (SIGNAL_IDENT)
    target_text,  // target content run or escape (TARGET)
    rparen,       // ) closing the target (TARGET)
    body_text,    // body content (BODY)
    eof,
};

enum class mode : std::uint8_t { normal, slots, signal_tags, signal_int, signal_ident, target, body };

struct token {
    tok kind = tok::eof;
    std::uint32_t begin = 0;  // byte offsets into the input
    std::uint32_t end = 0;
    plurnk::op op = plurnk::op::PLAN;  // opener, close_tag, close_turn: the op of the open tag
};

// A lexer error. The message is built only for the errors that are reported (most of a cascade
// is collapsed away), so a hostile run of bad characters costs no string per character.
struct lex_error {
    std::uint32_t begin = 0;        // offset of the failed token's first char
    std::uint32_t end = 0;          // end of the offending text (the failing character included)
    std::uint32_t token_index = 0;  // the token lexed next: the error is recorded when it is fetched
    std::uint32_t limit = 0;        // the exceeded limit, for a turn-depth error
    lex_context context = lex_context::between_statements;  // the mode it happened in
    bool turn_depth = false;        // `<<TURN` past parse_options::max_turn_depth

    // The message class and text (messages.cpp); `input` is the lexed input.
    [[nodiscard]] message_id id() const noexcept;
    [[nodiscard]] std::string message(std::string_view input) const;
};

struct lex_output {
    std::vector<token> tokens;  // ends with one eof token
    std::vector<lex_error> errors;
    mode final_mode = mode::normal;
    std::uint32_t last_open_begin = 0;  // offset of the last opener (for unparsedTail)
    std::uint32_t open_tag_begin = 0;   // open tag text (keyword+suffix) of the last opener
    std::uint32_t open_tag_end = 0;
    std::uint32_t body_begin = 0;       // first byte of the last body (invented-closer scan)
};

// Lexes the whole input.
lex_output lex(std::string_view input, std::size_t max_turn_depth);

// The same lexer over a growing input. advance() emits only tokens that more input cannot change
// (a step whose decision looked at the end of the input is undone and retried when more arrives;
// long runs resume where the last attempt stopped, so the total work stays linear). With
// `finished` it lexes to the end and appends the eof token, exactly as lex() does.
class stream_lexer {
public:
    explicit stream_lexer(std::size_t max_turn_depth);
    ~stream_lexer();
    stream_lexer(const stream_lexer&);
    stream_lexer& operator=(const stream_lexer&);

    void advance(std::string_view input, bool finished);
    [[nodiscard]] const lex_output& output() const noexcept;
    // Moves the output out (the lexer is spent afterwards).
    [[nodiscard]] lex_output take_output() noexcept;
    void reserve_tokens(std::size_t n);
    // Offset where the next token will start (everything before it is lexed).
    [[nodiscard]] std::size_t position() const noexcept;
    // Whether everything before position() can be dropped: the lexer is between statements with no
    // TURN open. release() then drops it: the tokens and errors so far are forgotten (the caller
    // has taken them), and offsets count from the old position(), which it returns; the caller
    // erases that many bytes from the front of the input it passes to advance().
    [[nodiscard]] bool can_release() const noexcept;
    std::size_t release() noexcept;

    // parse() lexes in windows: advance() stops between two statements once `n` tokens are held (the
    // eof token comes only when the input is all lexed: at_end() says so), and release_tokens()
    // forgets the tokens and errors so far (the caller has taken them), keeping the input and
    // every offset as they are.
    void set_token_budget(std::size_t n) noexcept;
    [[nodiscard]] bool at_end() const noexcept;
    void release_tokens() noexcept;
    // Forgets the errors so far (the caller has taken them); the tokens stay.
    void forget_errors() noexcept;

private:
    struct impl;
    impl* impl_;
};

}  // namespace plurnk::detail
