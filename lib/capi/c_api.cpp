// SPDX-License-Identifier: MIT
// The C API (include/plurnk/plurnk.h): thin extern "C" wrappers over plurnk::parse and
// plurnk::stream_parser. Every entry point catches everything at the boundary and turns it into a
// plurnk_status (std::bad_alloc into PLURNK_ERR_OUT_OF_MEMORY), so no exception reaches C. Result
// handles own a parse_result and render JSON lazily: the whole-result text per flag set, and per
// item the item's and the statement's JSON, cut out of the writer's output for a one-item result
// so that they are byte-for-byte what the result JSON holds. Stream handles wrap a stream_parser
// whose C++ callback either forwards to the C callback or queues a copy of the event for polling;
// the callback never lets an exception unwind through the engine, it records the failure and
// feed/finish report it after the engine returns.
//
// Growth: every struct starts with struct_size. Output structs are built whole here and copied
// out up to the caller's struct_size (which is then set to the bytes copied); input structs
// (stream options) are read up to it, and bytes past what this version knows must be zero.
// Failures leave a message naming the function and the argument on the handle, if there is
// one, and in a thread-local slot.
//
// This file holds the failure helpers, the status messages and the version and last-error calls;
// c_api_result.cpp the one-shot parse, results, items, statements and formatting;
// c_api_stream.cpp the streams; c_api.hpp what they share.
#include <exception>
#include <iterator>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "c_api.hpp"
#include "plurnk/version.hpp"

namespace plurnk::capi {
namespace {

constexpr const char* k_status_messages[] = {
    "ok",
    "no event is queued",
    "invalid argument",
    "out of memory",
    "the stream has already finished",
    "index out of range",
    "call on a stream from inside its own event callback",
    "an earlier failure left the stream unusable (restore it from a checkpoint)",
    "internal error",
    "the statement has no such part",
    "a draft is open: accept or reject it first",
};
static_assert(std::size(k_status_messages) == PLURNK_STATUS_COUNT, "one message per plurnk_status");

}  // namespace

// Maps the exception in flight to a status; call only from a catch block.
plurnk_status current_exception_status() noexcept {
    try {
        throw;
    } catch (const std::bad_alloc&) {
        return PLURNK_ERR_OUT_OF_MEMORY;
    } catch (...) {
        return PLURNK_ERR_INTERNAL;
    }
}

// ---- Messages ----

thread_local std::string t_last_error;

void record(std::string* slot, const char* fn, std::string_view what) noexcept {
    try {
        std::string m = std::string(fn) + ": " + std::string(what);
        if (slot != nullptr) *slot = m;
        t_last_error = std::move(m);
    } catch (...) {
    }
}

plurnk_status fail(plurnk_status st, std::string* slot, const char* fn, std::string_view what) noexcept {
    record(slot, fn, what);
    return st;
}

// The status and message of the exception in flight; call only from a catch block.
plurnk_status fail_current(std::string* slot, const char* fn) noexcept {
    const plurnk_status st = current_exception_status();
    if (st == PLURNK_ERR_OUT_OF_MEMORY) return fail(st, slot, fn, "out of memory");
    try {
        throw;
    } catch (const std::exception& e) {
        try {
            return fail(st, slot, fn, std::string("internal error: ") + e.what());
        } catch (...) {
        }
    } catch (...) {
    }
    return fail(st, slot, fn, "internal error");
}

std::string num(std::size_t n) { return std::to_string(n); }

plurnk_status out_of_range(std::string* slot, const char* fn, std::size_t index, std::size_t n, const char* whose,
                           const char* what) noexcept {
    try {
        return fail(PLURNK_ERR_OUT_OF_RANGE, slot, fn,
                    "index " + num(index) + " is out of range: " + whose + " " + num(n) + " " + what);
    } catch (...) {
        return PLURNK_ERR_OUT_OF_RANGE;
    }
}

plurnk_status null_argument(std::string* slot, const char* fn, const char* arg) noexcept {
    try {
        return fail(PLURNK_ERR_INVALID_ARGUMENT, slot, fn, std::string(arg) + " is NULL");
    } catch (...) {
        return PLURNK_ERR_INVALID_ARGUMENT;
    }
}

bool valid_tier(int t) noexcept { return t >= PLURNK_TIER_PARSE && t <= PLURNK_TIER_CLIENT; }

plurnk_status check_input(std::string* slot, const char* fn, const char* input_name, const void* input, std::size_t len,
                          int tier) noexcept {
    try {
        if (input == nullptr && len != 0) {
            return fail(PLURNK_ERR_INVALID_ARGUMENT, slot, fn,
                        std::string(input_name) + " is NULL but len is " + num(len));
        }
        if (!valid_tier(tier)) {
            return fail(PLURNK_ERR_INVALID_ARGUMENT, slot, fn,
                        "tier is " + std::to_string(tier) + ", not a plurnk_tier (PLURNK_TIER_PARSE 0 to PLURNK_TIER_CLIENT 3)");
        }
        return PLURNK_OK;
    } catch (...) {
        return PLURNK_ERR_INVALID_ARGUMENT;
    }
}

}  // namespace plurnk::capi

using namespace plurnk::capi;

extern "C" {

PLURNK_API const char* plurnk_version(void) { return plurnk::k_version; }

PLURNK_API const char* plurnk_language_version(void) { return plurnk::k_language_version; }

PLURNK_API const char* plurnk_build_commit(void) { return plurnk::build_commit(); }

PLURNK_API const char* plurnk_tier_name(int tier) {
    return valid_tier(tier) ? plurnk::tier_name(static_cast<plurnk::tier>(tier)) : nullptr;
}

PLURNK_API const char* plurnk_status_message(int status) {
    if (status < 0 || status >= PLURNK_STATUS_COUNT) return "unknown status";
    return k_status_messages[status];
}

PLURNK_API void plurnk_free_string(char* s) { delete[] s; }

PLURNK_API const char* plurnk_stream_last_error(const plurnk_stream* stream) {
    return stream == nullptr ? "" : stream->last_error.c_str();
}

PLURNK_API const char* plurnk_result_last_error(const plurnk_result* result) {
    return result == nullptr ? "" : result->last_error.c_str();
}

PLURNK_API const char* plurnk_last_error(void) { return t_last_error.c_str(); }

}  // extern "C"
