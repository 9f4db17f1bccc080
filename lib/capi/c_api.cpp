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
#define PLURNK_BUILDING_C_API 1
#include "plurnk/plurnk.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <deque>
#include <exception>
#include <iterator>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "plurnk/format.hpp"
#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/stream.hpp"
#include "plurnk/version.hpp"

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
};
static_assert(std::size(k_status_messages) == PLURNK_STATUS_COUNT, "one message per plurnk_status");

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

// Records "fn: what" as the calling thread's last error and, when `slot` is not null, as a
// handle's. Never throws: out of memory keeps the old messages.
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

// "index I is out of range: WHOSE N WHAT".
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

// "input is NULL but len is N" or "tier is N, not ..." for the (input, len, tier) arguments.
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

// ---- Versioned structs ----

// The first (smallest) layout of each struct this library accepts: up to its last field in
// this version. Fields appended later never change these.
constexpr std::size_t k_item_v1 = offsetof(plurnk_item, statement) + sizeof(const plurnk_statement*);
constexpr std::size_t k_options_v1 = offsetof(plurnk_stream_options, release_threshold) + sizeof(std::size_t);
constexpr std::size_t k_signal_v1 = offsetof(plurnk_signal, tag_count) + sizeof(std::size_t);
constexpr std::size_t k_target_v1 = offsetof(plurnk_target, header_count) + sizeof(std::size_t);
constexpr std::size_t k_body_v1 = offsetof(plurnk_body, reserved) + sizeof(std::uint32_t);

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
plurnk::tier to_tier(plurnk_tier t) noexcept { return static_cast<plurnk::tier>(t); }

plurnk_str view(const std::string& s) noexcept { return plurnk_str{s.c_str(), s.size()}; }
plurnk_str view(const char* s) noexcept { return plurnk_str{s, std::char_traits<char>::length(s)}; }

// One item's JSON texts: the item as it appears in the result's "items" array, and for a
// statement the "statement" member.
struct item_json {
    std::string item;
    std::string statement;
};

item_json render_item(const plurnk::item& it) {
    item_json out;
    plurnk::append_json(out.item, it);
    if (const auto* s = std::get_if<plurnk::statement>(&it)) plurnk::append_json(out.statement, *s);
    return out;
}

// Fills a whole view of `it` whose JSON strings are `js` (both borrowed).
void fill_item(const plurnk::item& it, const item_json& js, plurnk_item* out) noexcept {
    static const std::string k_empty;
    *out = plurnk_item{};
    out->struct_size = sizeof(plurnk_item);
    out->statement = nullptr;
    out->source = -1;
    out->severity = -1;
    out->op = out->suffix = out->message = out->text = view(k_empty);
    out->json = view(js.item);
    out->statement_json = view(js.statement);
    if (const auto* s = std::get_if<plurnk::statement>(&it)) {
        out->kind = PLURNK_ITEM_STATEMENT;
        out->line = s->position.line;
        out->column = s->position.column;
        out->op = view(plurnk::op_name(s->op));
        out->suffix = view(s->suffix);
        out->statement = reinterpret_cast<const plurnk_statement*>(s);
    } else if (const auto* d = std::get_if<plurnk::diagnostic>(&it)) {
        out->kind = PLURNK_ITEM_ERROR;
        out->line = d->position.line;
        out->column = d->position.column;
        out->source = d->source == plurnk::source::lexer    ? PLURNK_SOURCE_LEXER
                      : d->source == plurnk::source::parser ? PLURNK_SOURCE_PARSER
                                                            : PLURNK_SOURCE_VISITOR;
        out->severity = d->severity == plurnk::severity::error ? PLURNK_SEVERITY_ERROR : PLURNK_SEVERITY_WARNING;
        out->message = view(d->message);
    } else if (const auto* t = std::get_if<plurnk::text_item>(&it)) {
        out->kind = PLURNK_ITEM_TEXT;
        out->line = t->position.line;
        out->column = t->position.column;
        out->text = view(t->text);
    }
}

// `text` as a library-allocated string in *out (and its length in *out_len, when asked).
void hand_out(const std::string& text, char** out, std::size_t* out_len) {
    char* buf = new char[text.size() + 1];
    text.copy(buf, text.size());
    buf[text.size()] = '\0';
    *out = buf;
    if (out_len != nullptr) *out_len = text.size();
}

// A copy of an event kept for polling.
struct queued_event {
    std::size_t index = PLURNK_NO_INDEX;
    plurnk::item value;
    item_json json;
};

}  // namespace

struct plurnk_result {
    plurnk::parse_result result;
    // Lazily rendered text; mutable because the C API hands out const handles for reading.
    mutable std::optional<std::string> json[2];  // [flags & PLURNK_JSON_PRETTY]
    mutable std::vector<std::optional<item_json>> items;
    mutable std::string last_error;
};

struct plurnk_stream {
    plurnk::stream_parser parser;
    std::deque<queued_event> queue;
    std::optional<queued_event> current;  // the event last returned by next_event
    plurnk_event_callback callback = nullptr;
    void* user_data = nullptr;
    bool finished = false;
    bool poisoned = false;
    bool busy = false;              // inside feed/finish (so inside the callback, if any)
    plurnk_status event_failure = PLURNK_OK;  // set by on_event when it could not deliver
    mutable std::string last_error;

    explicit plurnk_stream(plurnk::tier t, const plurnk::parse_options& o = {}) : parser(t, o) {}

    // Called by the engine for each settled item. Never throws into the engine.
    void on_event(const plurnk::stream_event& ev) noexcept {
        if (event_failure != PLURNK_OK) return;
        try {
            if (callback != nullptr) {
                const item_json js = render_item(ev.value);
                plurnk_item view{};
                fill_item(ev.value, js, &view);
                callback(user_data, ev.index, &view);
            } else {
                queued_event q{ev.index, ev.value, render_item(ev.value)};
                queue.push_back(std::move(q));
            }
        } catch (...) {
            event_failure = current_exception_status();
        }
    }
};

namespace {

// Points `p`'s engine callback at handle `s`.
void attach(plurnk::stream_parser& p, plurnk_stream* s) {
    p.set_callback([s](const plurnk::stream_event& ev) { s->on_event(ev); });
}

// Marks a stream busy for the duration of a feed/finish.
struct busy_scope {
    explicit busy_scope(plurnk_stream* s) noexcept : s_(s) { s_->busy = true; }
    ~busy_scope() { s_->busy = false; }
    busy_scope(const busy_scope&) = delete;
    busy_scope& operator=(const busy_scope&) = delete;
    plurnk_stream* s_;
};

constexpr const char* k_busy_message = "called from inside this stream's own event callback";
constexpr const char* k_poisoned_message =
    "an earlier out-of-memory failure left the stream unusable; restore it from a checkpoint";

// The common gate for calls that change a stream.
plurnk_status check_mutable(const plurnk_stream* s, const char* fn) noexcept {
    if (s == nullptr) return null_argument(nullptr, fn, "stream");
    if (s->busy) return fail(PLURNK_ERR_BUSY, &s->last_error, fn, k_busy_message);
    if (s->poisoned) return fail(PLURNK_ERR_POISONED, &s->last_error, fn, k_poisoned_message);
    return PLURNK_OK;
}

// The engine options for C options (NULL: the defaults), or a failure naming the field.
plurnk_status read_options(const plurnk_stream_options* o, plurnk::parse_options& po, std::size_t& release) noexcept {
    static constexpr const char* fn = "plurnk_stream_create_ex";
    release = plurnk::stream_parser::k_default_release_threshold;
    if (o == nullptr) return PLURNK_OK;
    try {
        if (o->struct_size < k_options_v1) {
            return fail(PLURNK_ERR_INVALID_ARGUMENT, nullptr, fn,
                        "options->struct_size is " + num(o->struct_size) +
                            "; set it to sizeof(plurnk_stream_options) (at least " + num(k_options_v1) + ")");
        }
        const auto* bytes = reinterpret_cast<const unsigned char*>(o);
        for (std::size_t i = sizeof(plurnk_stream_options); i < o->struct_size; ++i) {
            if (bytes[i] != 0) {
                return fail(PLURNK_ERR_INVALID_ARGUMENT, nullptr, fn,
                            "options sets byte " + num(i) + ", a field this library (plurnk " + plurnk::k_version +
                                ") does not know; leave it 0 or use a newer library");
            }
        }
    } catch (...) {
        return fail_current(nullptr, fn);
    }
    if (o->max_input_bytes != 0) po.max_input_bytes = o->max_input_bytes;
    if (o->max_turn_depth != 0) po.max_turn_depth = o->max_turn_depth;
    if (o->release_threshold == PLURNK_KEEP_ALL_INPUT) {
        release = 0;
    } else if (o->release_threshold != 0) {
        release = o->release_threshold;
    }
    return PLURNK_OK;
}

const item_json* result_item_json(const plurnk_result* r, std::size_t index) {
    if (r->items.size() != r->result.items.size()) r->items.resize(r->result.items.size());
    auto& slot = r->items[index];
    if (!slot) slot = render_item(r->result.items[index]);
    return &*slot;
}

// ---- Statements ----

static_assert(PLURNK_DIALECT_XPATH == static_cast<int>(plurnk::dialect::xpath) &&
                  PLURNK_DIALECT_REGEX == static_cast<int>(plurnk::dialect::regex) &&
                  PLURNK_DIALECT_JSONPATH == static_cast<int>(plurnk::dialect::jsonpath) &&
                  PLURNK_DIALECT_SEMANTIC == static_cast<int>(plurnk::dialect::semantic) &&
                  PLURNK_DIALECT_GRAPH == static_cast<int>(plurnk::dialect::graph) &&
                  PLURNK_DIALECT_GLOB == static_cast<int>(plurnk::dialect::glob),
              "plurnk_dialect follows plurnk::dialect");

const plurnk::statement* typed(const plurnk_statement* st) noexcept {
    return reinterpret_cast<const plurnk::statement*>(st);
}

plurnk_str empty_str() noexcept { return view(""); }

plurnk_str view_opt(const std::optional<std::string>& s) noexcept { return s ? view(*s) : empty_str(); }

// The target and the scope of `part`, or a failure (an unknown part).
struct part_view {
    const plurnk::parsed_path* target = nullptr;
    const plurnk::line_marker* marker = nullptr;
};

plurnk_status part_of(const plurnk::statement& s, int part, const char* fn, part_view& out) noexcept {
    if (part == PLURNK_PART_HEADER) {
        out.target = s.target ? &*s.target : nullptr;
        out.marker = s.marker ? &*s.marker : nullptr;
        return PLURNK_OK;
    }
    if (part == PLURNK_PART_DESTINATION) {
        if (const auto* sel = std::get_if<plurnk::resource_selection>(&s.body)) {
            out.target = sel->target ? &*sel->target : nullptr;
            out.marker = sel->marker ? &*sel->marker : nullptr;
        }
        return PLURNK_OK;
    }
    try {
        return fail(PLURNK_ERR_INVALID_ARGUMENT, nullptr, fn,
                    "part is " + std::to_string(part) +
                        ", not a plurnk_part (PLURNK_PART_HEADER 0 or PLURNK_PART_DESTINATION 1)");
    } catch (...) {
        return PLURNK_ERR_INVALID_ARGUMENT;
    }
}

}  // namespace

extern "C" {

PLURNK_API const char* plurnk_version(void) { return plurnk::k_version; }

PLURNK_API const char* plurnk_language_version(void) { return plurnk::k_language_version; }

PLURNK_API const char* plurnk_tier_name(int tier) {
    return valid_tier(tier) ? plurnk::tier_name(static_cast<plurnk::tier>(tier)) : nullptr;
}

PLURNK_API const char* plurnk_status_message(int status) {
    if (status < 0 || status >= PLURNK_STATUS_COUNT) return "unknown status";
    return k_status_messages[status];
}

PLURNK_API void plurnk_free_string(char* s) { delete[] s; }

PLURNK_API plurnk_status plurnk_parse(const char* input, size_t len, plurnk_tier tier, plurnk_result** out) {
    static constexpr const char* fn = "plurnk_parse";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (const plurnk_status st = check_input(nullptr, fn, "input", input, len, tier); st != PLURNK_OK) return st;
    try {
        auto r = std::make_unique<plurnk_result>();
        r->result = plurnk::parse(std::string_view(input == nullptr ? "" : input, len), to_tier(tier));
        *out = r.release();
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

PLURNK_API plurnk_status plurnk_parse_to_json(const char* input, size_t len, plurnk_tier tier, unsigned flags,
                                              char** out_json, size_t* out_len) {
    static constexpr const char* fn = "plurnk_parse_to_json";
    if (out_json == nullptr) return null_argument(nullptr, fn, "out_json");
    *out_json = nullptr;
    if (out_len != nullptr) *out_len = 0;
    if (const plurnk_status st = check_input(nullptr, fn, "input", input, len, tier); st != PLURNK_OK) return st;
    try {
        const plurnk::parse_result r =
            plurnk::parse(std::string_view(input == nullptr ? "" : input, len), to_tier(tier));
        hand_out(plurnk::to_json(r, {.pretty = (flags & PLURNK_JSON_PRETTY) != 0}), out_json, out_len);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

PLURNK_API void plurnk_result_free(plurnk_result* result) { delete result; }

PLURNK_API plurnk_status plurnk_result_json(const plurnk_result* result, unsigned flags, plurnk_str* out) {
    static constexpr const char* fn = "plurnk_result_json";
    if (result == nullptr) return null_argument(nullptr, fn, "result");
    if (out == nullptr) return null_argument(&result->last_error, fn, "out");
    try {
        const bool pretty = (flags & PLURNK_JSON_PRETTY) != 0;
        auto& slot = result->json[pretty ? 1 : 0];
        if (!slot) slot = plurnk::to_json(result->result, {.pretty = pretty});
        *out = view(*slot);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(&result->last_error, fn);
    }
}

PLURNK_API size_t plurnk_result_item_count(const plurnk_result* result) {
    return result == nullptr ? 0 : result->result.items.size();
}

PLURNK_API plurnk_status plurnk_result_item(const plurnk_result* result, size_t index, plurnk_item* out) {
    static constexpr const char* fn = "plurnk_result_item";
    if (result == nullptr) return null_argument(nullptr, fn, "result");
    std::string* const slot = &result->last_error;
    if (const plurnk_status st = check_out(out, k_item_v1, slot, fn, "out", "plurnk_item"); st != PLURNK_OK) return st;
    try {
        if (index >= result->result.items.size()) {
            return out_of_range(slot, fn, index, result->result.items.size(), "the result has", "items");
        }
        const item_json* js = result_item_json(result, index);
        plurnk_item full;
        fill_item(result->result.items[index], *js, &full);
        deliver(out, full);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(slot, fn);
    }
}

PLURNK_API int plurnk_result_clean(const plurnk_result* result) {
    return result != nullptr && result->result.clean() ? 1 : 0;
}

PLURNK_API int plurnk_result_tail(const plurnk_result* result, uint32_t* line, uint32_t* column, plurnk_str* reason) {
    if (result == nullptr || !result->result.tail) return 0;
    const plurnk::unparsed_tail& t = *result->result.tail;
    if (line != nullptr) *line = t.from.line;
    if (column != nullptr) *column = t.from.column;
    if (reason != nullptr) *reason = view(t.reason);
    return 1;
}

PLURNK_API plurnk_status plurnk_stream_create_ex(plurnk_tier tier, const plurnk_stream_options* options,
                                                 plurnk_stream** out) {
    static constexpr const char* fn = "plurnk_stream_create_ex";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (const plurnk_status st = check_input(nullptr, fn, "", "", 0, tier); st != PLURNK_OK) return st;
    plurnk::parse_options po;
    std::size_t release = 0;
    if (const plurnk_status st = read_options(options, po, release); st != PLURNK_OK) return st;
    try {
        auto s = std::make_unique<plurnk_stream>(to_tier(tier), po);
        s->parser.set_release_threshold(release);
        attach(s->parser, s.get());
        *out = s.release();
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

PLURNK_API plurnk_status plurnk_stream_create(plurnk_tier tier, plurnk_stream** out) {
    return plurnk_stream_create_ex(tier, nullptr, out);
}

PLURNK_API void plurnk_stream_free(plurnk_stream* stream) { delete stream; }

PLURNK_API plurnk_status plurnk_stream_set_callback(plurnk_stream* stream, plurnk_event_callback callback,
                                                    void* user_data) {
    static constexpr const char* fn = "plurnk_stream_set_callback";
    if (stream == nullptr) return null_argument(nullptr, fn, "stream");
    if (stream->busy) return fail(PLURNK_ERR_BUSY, &stream->last_error, fn, k_busy_message);
    stream->callback = callback;
    stream->user_data = user_data;
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_stream_feed(plurnk_stream* stream, const char* data, size_t len) {
    static constexpr const char* fn = "plurnk_stream_feed";
    if (const plurnk_status st = check_mutable(stream, fn); st != PLURNK_OK) return st;
    std::string* const slot = &stream->last_error;
    if (data == nullptr && len != 0) {
        if (const plurnk_status st = check_input(slot, fn, "data", data, len, PLURNK_TIER_PARSE); st != PLURNK_OK) {
            return st;
        }
    }
    if (stream->finished) return fail(PLURNK_ERR_FINISHED, slot, fn, "the stream has already finished");
    try {
        const busy_scope busy(stream);
        stream->parser.feed(std::string_view(data == nullptr ? "" : data, len));
    } catch (...) {
        stream->poisoned = true;
        return fail_current(slot, fn);
    }
    if (stream->event_failure != PLURNK_OK) {
        stream->poisoned = true;
        return fail(stream->event_failure, slot, fn, "delivering an event failed (out of memory)");
    }
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_stream_finish(plurnk_stream* stream, plurnk_result** out) {
    static constexpr const char* fn = "plurnk_stream_finish";
    if (out == nullptr) {
        return null_argument(stream == nullptr ? nullptr : &stream->last_error, fn, "out");
    }
    *out = nullptr;
    if (const plurnk_status st = check_mutable(stream, fn); st != PLURNK_OK) return st;
    std::string* const slot = &stream->last_error;
    if (stream->finished) return fail(PLURNK_ERR_FINISHED, slot, fn, "the stream has already finished");
    std::unique_ptr<plurnk_result> r;
    try {
        r = std::make_unique<plurnk_result>();
    } catch (...) {
        return fail_current(slot, fn);  // nothing happened to the stream
    }
    try {
        const busy_scope busy(stream);
        r->result = stream->parser.finish();
    } catch (...) {
        stream->poisoned = true;
        return fail_current(slot, fn);
    }
    if (stream->event_failure != PLURNK_OK) {
        stream->poisoned = true;
        return fail(stream->event_failure, slot, fn, "delivering an event failed (out of memory)");
    }
    stream->finished = true;
    *out = r.release();
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_stream_next_event(plurnk_stream* stream, size_t* index, plurnk_item* item) {
    static constexpr const char* fn = "plurnk_stream_next_event";
    if (stream == nullptr) return null_argument(nullptr, fn, "stream");
    std::string* const slot = &stream->last_error;
    if (index == nullptr) return null_argument(slot, fn, "index");
    if (const plurnk_status st = check_out(item, k_item_v1, slot, fn, "item", "plurnk_item"); st != PLURNK_OK) return st;
    if (stream->busy) return fail(PLURNK_ERR_BUSY, slot, fn, k_busy_message);
    if (stream->queue.empty()) return PLURNK_NO_EVENT;
    // Moving strings and items is noexcept, so taking the event cannot fail half-way.
    stream->current.emplace(std::move(stream->queue.front()));
    stream->queue.pop_front();
    *index = stream->current->index;
    plurnk_item full;
    fill_item(stream->current->value, stream->current->json, &full);
    deliver(item, full);
    return PLURNK_OK;
}

PLURNK_API size_t plurnk_stream_pending_events(const plurnk_stream* stream) {
    return stream == nullptr ? 0 : stream->queue.size();
}

PLURNK_API plurnk_status plurnk_stream_checkpoint(const plurnk_stream* stream, plurnk_stream** out) {
    static constexpr const char* fn = "plurnk_stream_checkpoint";
    if (out == nullptr) return null_argument(stream == nullptr ? nullptr : &stream->last_error, fn, "out");
    *out = nullptr;
    if (const plurnk_status st = check_mutable(stream, fn); st != PLURNK_OK) return st;
    try {
        auto s = std::make_unique<plurnk_stream>(plurnk::tier::parse);
        s->parser = stream->parser;  // copies the engine callback too: re-pointed below
        attach(s->parser, s.get());
        s->queue = stream->queue;
        s->callback = stream->callback;
        s->user_data = stream->user_data;
        s->finished = stream->finished;
        *out = s.release();
        return PLURNK_OK;
    } catch (...) {
        return fail_current(&stream->last_error, fn);
    }
}

PLURNK_API plurnk_status plurnk_stream_restore(plurnk_stream* stream, const plurnk_stream* checkpoint) {
    static constexpr const char* fn = "plurnk_stream_restore";
    if (stream == nullptr) return null_argument(nullptr, fn, "stream");
    std::string* const slot = &stream->last_error;
    if (checkpoint == nullptr) return null_argument(slot, fn, "checkpoint");
    if (stream->busy || checkpoint->busy) return fail(PLURNK_ERR_BUSY, slot, fn, k_busy_message);
    if (checkpoint->poisoned) {
        return fail(PLURNK_ERR_POISONED, slot, fn, "the checkpoint is poisoned (an out-of-memory failure)");
    }
    if (stream == checkpoint) return PLURNK_OK;
    try {
        // Build the copies first so that a failure leaves `stream` unchanged.
        plurnk::stream_parser parser(checkpoint->parser);
        attach(parser, stream);
        std::deque<queued_event> queue(checkpoint->queue);
        stream->parser = std::move(parser);
        stream->queue.swap(queue);
        stream->current.reset();
        stream->finished = checkpoint->finished;
        stream->poisoned = false;
        stream->event_failure = PLURNK_OK;
        return PLURNK_OK;
    } catch (...) {
        return fail_current(slot, fn);
    }
}

PLURNK_API size_t plurnk_stream_size(const plurnk_stream* stream) {
    return stream == nullptr ? 0 : stream->parser.size();
}

PLURNK_API size_t plurnk_stream_safe_prefix(const plurnk_stream* stream) {
    return stream == nullptr ? 0 : stream->parser.safe_prefix();
}

PLURNK_API size_t plurnk_stream_retained(const plurnk_stream* stream) {
    return stream == nullptr ? 0 : stream->parser.retained();
}

PLURNK_API int plurnk_stream_finished(const plurnk_stream* stream) {
    return stream != nullptr && stream->finished ? 1 : 0;
}

PLURNK_API const char* plurnk_stream_last_error(const plurnk_stream* stream) {
    return stream == nullptr ? "" : stream->last_error.c_str();
}

PLURNK_API const char* plurnk_result_last_error(const plurnk_result* result) {
    return result == nullptr ? "" : result->last_error.c_str();
}

PLURNK_API const char* plurnk_last_error(void) { return t_last_error.c_str(); }

PLURNK_API plurnk_status plurnk_statement_signal(const plurnk_statement* statement, plurnk_signal* out) {
    static constexpr const char* fn = "plurnk_statement_signal";
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    if (const plurnk_status st = check_out(out, k_signal_v1, nullptr, fn, "out", "plurnk_signal"); st != PLURNK_OK) {
        return st;
    }
    const plurnk::signal& sig = typed(statement)->signal;
    plurnk_signal full{};
    full.text = empty_str();
    switch (sig.kind) {
        case plurnk::signal::kind_t::none: full.kind = PLURNK_SIGNAL_NONE; break;
        case plurnk::signal::kind_t::tags:
            full.kind = PLURNK_SIGNAL_TAGS;
            full.tag_count = sig.tags.size();
            break;
        case plurnk::signal::kind_t::number:
            full.kind = PLURNK_SIGNAL_NUMBER;
            full.number = sig.number;
            break;
        case plurnk::signal::kind_t::text:
            full.kind = PLURNK_SIGNAL_TEXT;
            full.text = view(sig.text);
            break;
    }
    deliver(out, full);
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_statement_tag(const plurnk_statement* statement, size_t index, plurnk_str* out) {
    static constexpr const char* fn = "plurnk_statement_tag";
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    const plurnk::signal& sig = typed(statement)->signal;
    const std::size_t n = sig.kind == plurnk::signal::kind_t::tags ? sig.tags.size() : 0;
    if (index >= n) return out_of_range(nullptr, fn, index, n, "the signal has", "tags");
    *out = view(sig.tags[index]);
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_statement_target(const plurnk_statement* statement, plurnk_part part,
                                                 plurnk_target* out) {
    static constexpr const char* fn = "plurnk_statement_target";
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    if (const plurnk_status st = check_out(out, k_target_v1, nullptr, fn, "out", "plurnk_target"); st != PLURNK_OK) {
        return st;
    }
    part_view pv;
    if (const plurnk_status st = part_of(*typed(statement), part, fn, pv); st != PLURNK_OK) return st;
    if (pv.target == nullptr) return PLURNK_NOT_PRESENT;
    const plurnk::parsed_path& t = *pv.target;
    plurnk_target full{};
    const bool url = t.kind == plurnk::parsed_path::kind_t::url;
    full.kind = url ? PLURNK_TARGET_URL : PLURNK_TARGET_LOCAL;
    full.raw = view(t.raw);
    full.scheme = url ? view(t.scheme) : empty_str();
    full.pathname = url ? view(t.pathname) : empty_str();
    full.username = view_opt(t.username);
    full.password = view_opt(t.password);
    full.hostname = view_opt(t.hostname);
    full.query = view_opt(t.query);
    full.fragment = view_opt(t.fragment);
    if (url) {
        full.present = (t.username ? PLURNK_TARGET_HAS_USERNAME : 0u) | (t.password ? PLURNK_TARGET_HAS_PASSWORD : 0u) |
                       (t.hostname ? PLURNK_TARGET_HAS_HOSTNAME : 0u) | (t.port ? PLURNK_TARGET_HAS_PORT : 0u) |
                       (t.query ? PLURNK_TARGET_HAS_QUERY : 0u) | (t.fragment ? PLURNK_TARGET_HAS_FRAGMENT : 0u) |
                       (t.headers ? PLURNK_TARGET_HAS_HEADERS : 0u);
        full.port = t.port.value_or(0);
        full.header_count = t.headers ? t.headers->size() : 0;
    }
    deliver(out, full);
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_statement_target_header(const plurnk_statement* statement, plurnk_part part,
                                                        size_t index, plurnk_str* key, plurnk_str* value) {
    static constexpr const char* fn = "plurnk_statement_target_header";
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    if (key == nullptr) return null_argument(nullptr, fn, "key");
    if (value == nullptr) return null_argument(nullptr, fn, "value");
    part_view pv;
    if (const plurnk_status st = part_of(*typed(statement), part, fn, pv); st != PLURNK_OK) return st;
    if (pv.target == nullptr) return PLURNK_NOT_PRESENT;
    const std::size_t n = pv.target->headers ? pv.target->headers->size() : 0;
    if (index >= n) return out_of_range(nullptr, fn, index, n, "the target has", "header blocks");
    *key = view((*pv.target->headers)[index].first);
    *value = view((*pv.target->headers)[index].second);
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_statement_scope(const plurnk_statement* statement, plurnk_part part,
                                                const double** marks, size_t* count) {
    static constexpr const char* fn = "plurnk_statement_scope";
    static constexpr double k_none = 0;
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    if (marks == nullptr) return null_argument(nullptr, fn, "marks");
    if (count == nullptr) return null_argument(nullptr, fn, "count");
    *marks = &k_none;
    *count = 0;
    part_view pv;
    if (const plurnk_status st = part_of(*typed(statement), part, fn, pv); st != PLURNK_OK) return st;
    if (pv.marker == nullptr) return PLURNK_NOT_PRESENT;
    if (!pv.marker->marks.empty()) *marks = pv.marker->marks.data();
    *count = pv.marker->marks.size();
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_statement_body(const plurnk_statement* statement, plurnk_body* out) {
    static constexpr const char* fn = "plurnk_statement_body";
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    if (const plurnk_status st = check_out(out, k_body_v1, nullptr, fn, "out", "plurnk_body"); st != PLURNK_OK) {
        return st;
    }
    plurnk_body full{};
    full.dialect = -1;
    full.raw = full.pattern = full.flags = full.json = empty_str();
    const plurnk::body& b = typed(statement)->body;
    if (const auto* text = std::get_if<std::string>(&b)) {
        full.kind = PLURNK_BODY_TEXT;
        full.raw = view(*text);
    } else if (const auto* m = std::get_if<plurnk::matcher_body>(&b)) {
        full.kind = PLURNK_BODY_MATCHER;
        full.dialect = static_cast<int32_t>(m->dialect);
        full.raw = view(m->raw);
        full.pattern = view(m->pattern);
        full.flags = view(m->flags);
    } else if (const auto* send = std::get_if<plurnk::send_body>(&b)) {
        full.kind = PLURNK_BODY_SEND;
        full.raw = view(send->raw);
        full.json = view_opt(send->json);
        full.has_json = send->json ? 1 : 0;
    } else if (std::holds_alternative<plurnk::resource_selection>(b)) {
        full.kind = PLURNK_BODY_SELECTION;
    } else {
        full.kind = PLURNK_BODY_NONE;
    }
    deliver(out, full);
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_format_statement(const plurnk_statement* statement, char** out, size_t* out_len) {
    static constexpr const char* fn = "plurnk_format_statement";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (out_len != nullptr) *out_len = 0;
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    try {
        const plurnk::format_result f = plurnk::format(*typed(statement));
        if (!f) return fail(PLURNK_ERR_INVALID_ARGUMENT, nullptr, fn, *f.error);
        hand_out(f.text, out, out_len);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

PLURNK_API plurnk_status plurnk_format_result(const plurnk_result* result, char** out, size_t* out_len) {
    static constexpr const char* fn = "plurnk_format_result";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (out_len != nullptr) *out_len = 0;
    if (result == nullptr) return null_argument(nullptr, fn, "result");
    try {
        const plurnk::format_result f = plurnk::format_turn(result->result);
        if (!f) return fail(PLURNK_ERR_INVALID_ARGUMENT, &result->last_error, fn, *f.error);
        hand_out(f.text, out, out_len);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(&result->last_error, fn);
    }
}

PLURNK_API plurnk_status plurnk_format_source(const char* input, size_t len, plurnk_tier tier, char** out,
                                              size_t* out_len, int* changed) {
    static constexpr const char* fn = "plurnk_format_source";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (out_len != nullptr) *out_len = 0;
    if (changed != nullptr) *changed = 0;
    if (const plurnk_status st = check_input(nullptr, fn, "input", input, len, tier); st != PLURNK_OK) return st;
    try {
        const plurnk::source_format sf =
            plurnk::format_source(std::string_view(input == nullptr ? "" : input, len), to_tier(tier));
        hand_out(sf.text, out, out_len);
        if (changed != nullptr) *changed = sf.changed ? 1 : 0;
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

}  // extern "C"
