// SPDX-License-Identifier: MIT
// The push parser (streaming): feed a turn as it arrives, get each item the moment it is settled.
//
// Guarantee: finish() returns exactly parse(concatenation of every fed chunk, tier), for every way
// of splitting the input into chunks (one byte at a time, chunks that split a UTF-8 sequence,
// anything). Events only report items that can no longer change; see doc/streaming.md for when
// each kind fires.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>

#include "plurnk/ast.hpp"
#include "plurnk/parse.hpp"

namespace plurnk {

// One settled item. `index` is the item's place in the final result's `items` when that is
// already known, or npos for diagnostics that are only placed at finish() (errors no statement
// claims are appended after all statements and text).
struct stream_event {
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    const item& value;
    std::size_t index = npos;
};

class stream_parser {
public:
    using callback = std::function<void(const stream_event&)>;

    explicit stream_parser(tier t = tier::parse, const parse_options& options = {});
    ~stream_parser();
    // Copying a parser is a checkpoint; assigning a copy back restores it (for speculative
    // decoding: checkpoint before feeding draft tokens, restore when they are rejected).
    stream_parser(const stream_parser& other);
    stream_parser& operator=(const stream_parser& other);
    stream_parser(stream_parser&&) noexcept;
    stream_parser& operator=(stream_parser&&) noexcept;

    // Events are delivered to the callback synchronously from feed() and finish().
    void set_callback(callback cb);

    // Appends a chunk. Amortized cost is proportional to the chunk, not to what came before.
    void feed(std::string_view chunk);

    // Ends the input and returns the final result. Further feed() calls are ignored.
    [[nodiscard]] parse_result finish();

    // Bytes fed so far and kept (at most parse_options::max_input_bytes; past it, fed bytes are
    // only counted, and finish() reports them as parse() does).
    [[nodiscard]] std::size_t size() const noexcept;
    // Bytes of input the parser holds now. Once everything before some point is settled (no
    // statement open, every statement before it reported), the parser drops that input with its
    // tokens and bookkeeping, so what it holds follows what is still open: an unclosed body, an
    // open `<<TURN:`, the unsettled tail. The result's items are kept (finish() returns them all).
    [[nodiscard]] std::size_t retained() const noexcept;
    // Input is dropped in pieces of at least this many bytes (and at least half of what is held),
    // so dropping costs O(1) per byte; 0 keeps all input. Tests set 1 to drop at every chance.
    static constexpr std::size_t k_default_release_threshold = 4096;
    void set_release_threshold(std::size_t bytes) noexcept;
    // "Safe to show": the number of leading bytes that are settled as text or complete statements;
    // a server may stream input[0, safe_prefix()) to a user without ever showing half an op.
    [[nodiscard]] std::size_t safe_prefix() const noexcept;
    // True once finish() ran.
    [[nodiscard]] bool finished() const noexcept;

private:
    struct state;
    std::unique_ptr<state> state_;
    callback callback_;
};

}  // namespace plurnk
