// SPDX-License-Identifier: MIT
// A diagnostic on its way into the result's records (private header): what the error ledger and
// the passes make and the result builder stores. Its message is a string of its own, or one
// interned already by the builder (which owns the records and their strings).
#pragma once

#include <string>
#include <string_view>

#include "base/position.hpp"
#include "grammar/messages.hpp"
#include "plurnk/parse.hpp"

namespace plurnk::detail {

struct new_diagnostic {
    position at;
    plurnk::source source = plurnk::source::parser;
    plurnk::severity severity = plurnk::severity::error;
    std::string message;
    message_id id = message_id::external;
    byte_span span{};
    const char* interned = nullptr;  // the message already interned (then `message` is empty)
};

// Has the builder store a message once (equal messages share one copy) for the life of the
// result: its owner and a function of it (a value that may be kept for a call's length and
// copied, unlike a reference to a callable).
struct message_interner {
    void* owner;
    const char* (*fn)(void* owner, std::string_view message);
    const char* operator()(std::string_view message) const { return fn(owner, message); }
};

}  // namespace plurnk::detail
