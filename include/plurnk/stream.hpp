// SPDX-License-Identifier: MIT
// The push parser (streaming): feed a turn as it arrives, get each item the moment it is settled.
//
// Guarantee: finish() returns exactly parse(concatenation of every fed chunk, tier), for every way
// of splitting the input into chunks (one byte at a time, chunks that split a UTF-8 sequence,
// anything). Events only report items that can no longer change; see doc/streaming.md for when
// each kind fires.
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "plurnk/ast.hpp"
#include "plurnk/parse.hpp"

namespace plurnk {

namespace detail {
struct stream_access;
}

// One settled item. `index` is the item's place in the final result's `items` when that is
// already known, or npos for diagnostics that are only placed at finish() (errors no statement
// claims are appended after all statements and text).
//
// `value` is a view of the parser's buffers, valid only until the callback returns: the next
// step of the same feed() (one feed may settle many items) can release and reuse the storage
// it views. Copying the `item` copies only the views. To keep an event, copy its data inside the
// callback: `list.push_back(ev.value)` into an item_list of your own copies its strings and lists
// (or convert it, or copy the strings you need).
struct stream_event {
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    const item& value;
    std::size_t index = npos;
};

// What is open at the end of the input fed so far (open()), and what a runaway event reports.
// Offsets count from the first byte of the whole input. Only tokens the lexer has settled are
// looked at, so an opener still being read (`<<REA` at the end) is not open yet.
struct open_info {
    enum class where_t : std::uint8_t {
        none,    // nothing is open (between statements, no TURN open)
        slots,   // a statement's header, between slots
        signal,  // inside its `[signal]`
        target,  // inside its `(target)`
        body,    // inside its body, after the `:` fence
        turn,    // no statement open, inside a `<<TURN:` body
    };
    where_t where = where_t::none;
    plurnk::op op = plurnk::op::PLAN;  // the open statement's op (TURN for an open TURN body)
    std::string suffix;                // its suffix
    std::size_t begin = 0;             // offset of its `<<`
    std::size_t bytes = 0;             // bytes from begin to the end of the input fed so far
    std::size_t openers = 0;           // `<<` + keyword at the start of a line (after spaces or
                                       // tabs) since its own opener: statements it swallowed
                                       // (0 for a TURN body, whose statements are its own)
    std::size_t turn_depth = 0;        // open `<<TURN:` bodies
};

class stream_parser {
public:
    using callback = std::function<void(const stream_event&)>;
    using runaway_callback = std::function<void(const open_info&)>;

    explicit stream_parser(tier t = tier::parse, const parse_options& options = {});
    ~stream_parser();
    // Copying a parser is a checkpoint; assigning a copy back restores it (for speculative
    // decoding: checkpoint before feeding draft tokens, restore when they are rejected).
    // A copy costs O(retained()), not O(history): the items built so far are shared, not copied.
    // Copying updates that sharing in `other`, so do not copy one parser from two threads at once.
    stream_parser(const stream_parser& other);
    stream_parser& operator=(const stream_parser& other);
    stream_parser(stream_parser&&) noexcept;
    stream_parser& operator=(stream_parser&&) noexcept;

    // Events are delivered to the callback synchronously from feed() and finish(); each event's
    // item is valid during its call only (stream_event).
    void set_callback(callback cb);

    // Appends a chunk. Amortized cost is proportional to the chunk, not to what came before.
    void feed(std::string_view chunk);

    // Ends the input and returns the final result. Further feed() calls are ignored.
    [[nodiscard]] parse_result finish();

    // What finish() would report now, without ending the input: calls `cb` with each statement
    // and text item that the end of input would settle and no event has reported yet, as finish()
    // would report them (index included). The parser is unchanged (it works on a copy of what it
    // holds), so it costs O(retained()) plus the work the end would do on what is pending, not
    // O(history). Diagnostics are left out: those the end adds are decided over the whole turn.
    // For a parser with a callback (a parser without one reports its items at finish()).
    // Returns where the unparsed tail would begin (the unclosed statement's `<<`), or size() when
    // the end would leave none.
    std::size_t peek_end(const callback& cb) const;

    // Bytes fed so far and kept (at most parse_options::max_input_bytes; past it, fed bytes are
    // only counted, and finish() reports them as parse() does).
    [[nodiscard]] std::size_t size() const noexcept;
    // Bytes of input the parser holds now. Once everything before some point is settled (no
    // statement open, every statement before it reported), the parser drops that input with its
    // tokens and bookkeeping, so what it holds follows what is still open: an unclosed body, an
    // open `<<TURN:`, the unsettled tail. The result's items are kept (finish() returns them all).
    // finish() may hand what it holds over to the result (then retained() is 0).
    [[nodiscard]] std::size_t retained() const noexcept;
    // Input is dropped in pieces of at least this many bytes (and at least half of what is held),
    // so dropping costs O(1) per byte; 0 keeps all input. Tests set 1 to drop at every chance.
    static constexpr std::size_t k_default_release_threshold = 4096;
    void set_release_threshold(std::size_t bytes) noexcept;
    // "Safe to show": the number of leading bytes that are settled as text or complete statements;
    // a server may stream input[0, safe_prefix()) to a user without ever showing half an op.
    // With no callback set, the parser may have deferred lexing and parsing what was fed, and
    // catches up first; that can throw std::bad_alloc, as feed() can.
    [[nodiscard]] std::size_t safe_prefix() const;
    // True once finish() ran.
    [[nodiscard]] bool finished() const noexcept;

    // What is open now. Amortized O(1) per byte fed when called after every feed.
    [[nodiscard]] open_info open() const;

    // Opt-in early warning that a statement has run away (doc/streaming.md): after each feed(),
    // `cb` is called when the open statement, or with none open the innermost open TURN body,
    // holds more than `max_open_bytes` bytes (open_info::bytes > max_open_bytes); at most once
    // per statement and once per TURN body (told apart by open_info::begin). It is never called
    // from finish() and changes neither the events nor the result. 0 turns it off. (Swallowed
    // openers do not raise it: the lexer recovers from many, so they are only a hint, in
    // open_info::openers, for a server's own policy.)
    void set_runaway_limit(std::size_t max_open_bytes, runaway_callback cb);

private:
    friend struct detail::stream_access;  // the thread's spare state (stream.cpp) and its tests
    struct state;
    std::unique_ptr<state> state_;
    callback callback_;
    runaway_callback runaway_;
};

}  // namespace plurnk
