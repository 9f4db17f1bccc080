// SPDX-License-Identifier: MIT
// What the C API's files share (private): the failure helpers (c_api.cpp), the versioned-struct
// helpers, the item views (c_api_result.cpp), the open view (c_api_stream.cpp) and the two handle
// types. See c_api.cpp for how the C API is built.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/parse.hpp"
#include "plurnk/plurnk.h"
#include "plurnk/stream.hpp"

namespace plurnk::capi {

// ---- Failures (c_api.cpp) ----

// Maps the exception in flight to a status; call only from a catch block.
plurnk_status current_exception_status() noexcept;

extern thread_local std::string t_last_error;

// Records "fn: what" as the calling thread's last error and, when `slot` is not null, as a
// handle's. Never throws: out of memory keeps the old messages.
void record(std::string* slot, const char* fn, std::string_view what) noexcept;
plurnk_status fail(plurnk_status st, std::string* slot, const char* fn, std::string_view what) noexcept;
// The status and message of the exception in flight; call only from a catch block.
plurnk_status fail_current(std::string* slot, const char* fn) noexcept;
std::string num(std::size_t n);
// "index I is out of range: WHOSE N WHAT".
plurnk_status out_of_range(std::string* slot, const char* fn, std::size_t index, std::size_t n, const char* whose,
                           const char* what) noexcept;
plurnk_status null_argument(std::string* slot, const char* fn, const char* arg) noexcept;
bool valid_tier(int t) noexcept;
// "input is NULL but len is N" or "tier is N, not ..." for the (input, len, tier) arguments.
plurnk_status check_input(std::string* slot, const char* fn, const char* input_name, const void* input, std::size_t len,
                          int tier) noexcept;

// ---- Versioned structs ----

// The first (smallest) layout of each struct this library accepts: up to its last field in
// this version. Fields appended later never change these.
inline constexpr std::size_t k_item_v1 = offsetof(plurnk_item, statement) + sizeof(const plurnk_statement*);
inline constexpr std::size_t k_options_v1 = offsetof(plurnk_stream_options, release_threshold) + sizeof(std::size_t);
inline constexpr std::size_t k_signal_v1 = offsetof(plurnk_signal, tag_count) + sizeof(std::size_t);
inline constexpr std::size_t k_target_v1 = offsetof(plurnk_target, header_count) + sizeof(std::size_t);
inline constexpr std::size_t k_body_v1 = offsetof(plurnk_body, reserved) + sizeof(std::uint32_t);
inline constexpr std::size_t k_open_v1 = offsetof(plurnk_open, turn_depth) + sizeof(std::size_t);

// Checks a caller's output struct: not NULL, and struct_size at least the first layout.
template <class T>
plurnk_status check_out(const T* out, std::size_t v1, std::string* slot, const char* fn, const char* arg,
                        const char* type) noexcept {
    if (out == nullptr) return null_argument(slot, fn, arg);
    if (out->struct_size >= v1) return PLURNK_OK;
    try {
        return fail(PLURNK_ERR_INVALID_ARGUMENT, slot, fn,
                    std::string(arg) + "->struct_size is " + num(out->struct_size) + "; set it to sizeof(" + type +
                        ") (at least " + num(v1) + ")");
    } catch (...) {
        return PLURNK_ERR_INVALID_ARGUMENT;
    }
}

// Copies `full` into the caller's struct up to its struct_size, and sets struct_size to the
// bytes copied (so a newer caller sees which fields this library filled).
template <class T>
void deliver(T* out, T& full) noexcept {
    const std::size_t n = std::min(out->struct_size, sizeof(T));
    full.struct_size = n;
    std::memcpy(static_cast<void*>(out), &full, n);
}

inline plurnk::tier to_tier(plurnk_tier t) noexcept { return static_cast<plurnk::tier>(t); }

inline plurnk_str view(const std::string& s) noexcept { return plurnk_str{s.c_str(), s.size()}; }
// A view of a string that may not be NUL-terminated (plurnk_str says how long it is; an empty
// one points at "").
inline plurnk_str view(std::string_view s) noexcept { return s.empty() ? plurnk_str{"", 0} : plurnk_str{s.data(), s.size()}; }
inline plurnk_str view(const char* s) noexcept { return plurnk_str{s, std::char_traits<char>::length(s)}; }

// ---- Item views (c_api_result.cpp) ----

// One item's JSON texts: the item as it appears in the result's "items" array, and for a
// statement the "statement" member.
struct item_json {
    std::string item;
    std::string statement;
};

// An item as the C API hands it out: copied into storage of its own, where every string is
// followed by a NUL as plurnk_str promises (a result's items view its input, which is not), with
// its JSON texts. plurnk_statement pointers point at `value`.
struct c_item {
    plurnk::item_list own;  // the one item
    plurnk::item value;     // a view of own[0]
    item_json json;
    // A regex path's pattern is a piece of its raw text, not followed by a NUL: the statement's
    // and the destination's are copied here (shared, so the views survive a move or a copy).
    std::shared_ptr<const std::array<std::string, 2>> regex_patterns;
    // The dialect the item was read in: what plurnk_format_statement writes its statement in.
    plurnk::parse_dialect dialect = plurnk::parse_dialect::contracts;

    c_item(const plurnk::item& v, plurnk::parse_dialect d);
};

// A statement handle (plurnk_statement*) is the c_item that holds the statement: its item and
// the dialect it was read in.
inline const c_item* holder(const plurnk_statement* st) noexcept { return reinterpret_cast<const c_item*>(st); }
inline const plurnk::statement* typed(const plurnk_statement* st) noexcept {
    return std::get_if<plurnk::statement>(&holder(st)->value);
}

item_json render_item(const plurnk::item& it);
// Fills a whole view of `c` (borrowed); its statement handle is `c` itself.
void fill_item(const c_item& c, plurnk_item* out) noexcept;

// ---- Open views (c_api_stream.cpp) ----

// A whole view of `o` (its suffix borrowed).
plurnk_open open_view(const plurnk::open_info& o) noexcept;
// The engine options for C options (NULL: the defaults), or a failure naming the field.
// `fn` names the call in a failure.
plurnk_status read_options(const plurnk_stream_options* o, plurnk::parse_options& po, std::size_t& release,
                           std::size_t& max_open, const char* fn) noexcept;

// A copy of an event kept for polling (an event's item views the stream's buffers, which the
// next feed changes).
struct queued_event {
    std::size_t index = PLURNK_NO_INDEX;
    c_item item;
};

}  // namespace plurnk::capi

struct plurnk_result {
    plurnk::parse_result result;
    // Lazily rendered text; mutable because the C API hands out const handles for reading.
    mutable std::optional<std::string> json[2];  // [flags & PLURNK_JSON_PRETTY]
    mutable std::vector<std::optional<plurnk::capi::c_item>> items;
    mutable std::string last_error;
};

struct plurnk_stream {
    plurnk::stream_parser parser;
    std::deque<plurnk::capi::queued_event> queue;
    std::optional<plurnk::capi::queued_event> current;  // the event last returned by next_event
    plurnk_event_callback callback = nullptr;
    void* user_data = nullptr;
    bool finished = false;
    bool poisoned = false;
    bool busy = false;              // inside feed/finish (so inside the callback, if any)
    const char* busy_call = "";     // while busy: the call ("plurnk_stream_feed", ...)
    const char* in_callback = nullptr;  // while a callback runs: "event" or "runaway"
    plurnk_status event_failure = PLURNK_OK;  // set by on_event when it could not deliver
    mutable std::string last_error;
    // The runaway event (plurnk_stream_options.max_open_bytes): to the callback, or queued.
    std::size_t max_open_bytes = 0;
    plurnk_runaway_callback runaway_callback = nullptr;
    void* runaway_user_data = nullptr;
    std::deque<plurnk::open_info> runaways;
    mutable plurnk::open_info current_open;  // what plurnk_stream_open / next_runaway handed out

    void on_runaway(const plurnk::open_info& o) noexcept {
        if (event_failure != PLURNK_OK) return;
        try {
            if (runaway_callback != nullptr) {
                const plurnk_open v = plurnk::capi::open_view(o);
                const callback_scope running(this, "runaway");
                runaway_callback(runaway_user_data, &v);
            } else {
                runaways.push_back(o);
            }
        } catch (...) {
            event_failure = plurnk::capi::current_exception_status();
        }
    }

    plurnk::parse_dialect dialect = plurnk::parse_dialect::contracts;  // its items' (c_item::dialect)

    explicit plurnk_stream(plurnk::tier t, const plurnk::parse_options& o = {}) : parser(t, o), dialect(o.dialect) {}

    // Names the callback running (for the message of a call made from inside it).
    struct callback_scope {
        callback_scope(plurnk_stream* s, const char* which) noexcept : s_(s) { s_->in_callback = which; }
        ~callback_scope() { s_->in_callback = nullptr; }
        callback_scope(const callback_scope&) = delete;
        callback_scope& operator=(const callback_scope&) = delete;
        plurnk_stream* s_;
    };

    // Called by the engine for each settled item. Never throws into the engine.
    void on_event(const plurnk::stream_event& ev) noexcept {
        if (event_failure != PLURNK_OK) return;
        try {
            if (callback != nullptr) {
                const plurnk::capi::c_item c(ev.value, dialect);
                plurnk_item view{};
                plurnk::capi::fill_item(c, &view);
                const callback_scope running(this, "event");
                callback(user_data, ev.index, &view);
            } else {
                queue.push_back(plurnk::capi::queued_event{ev.index, plurnk::capi::c_item(ev.value, dialect)});
            }
        } catch (...) {
            event_failure = plurnk::capi::current_exception_status();
        }
    }
};
