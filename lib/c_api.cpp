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
#define PLURNK_BUILDING_C_API 1
#include "plurnk/plurnk.h"

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

bool valid_tier(int t) noexcept { return t >= PLURNK_TIER_PARSE && t <= PLURNK_TIER_CLIENT; }
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

// Fills a view of `it` whose JSON strings are `js` (both borrowed).
void fill_item(const plurnk::item& it, const item_json& js, plurnk_item* out) noexcept {
    static const std::string k_empty;
    *out = plurnk_item{};
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

    explicit plurnk_stream(plurnk::tier t) : parser(t) {}

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

// The common gate for calls that change a stream.
plurnk_status check_mutable(const plurnk_stream* s) noexcept {
    if (s == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    if (s->busy) return PLURNK_ERR_BUSY;
    if (s->poisoned) return PLURNK_ERR_POISONED;
    return PLURNK_OK;
}

const item_json* result_item_json(const plurnk_result* r, std::size_t index) {
    if (r->items.size() != r->result.items.size()) r->items.resize(r->result.items.size());
    auto& slot = r->items[index];
    if (!slot) slot = render_item(r->result.items[index]);
    return &*slot;
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
    if (out == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    *out = nullptr;
    if ((input == nullptr && len != 0) || !valid_tier(tier)) return PLURNK_ERR_INVALID_ARGUMENT;
    try {
        auto r = std::make_unique<plurnk_result>();
        r->result = plurnk::parse(std::string_view(input == nullptr ? "" : input, len), to_tier(tier));
        *out = r.release();
        return PLURNK_OK;
    } catch (...) {
        return current_exception_status();
    }
}

PLURNK_API plurnk_status plurnk_parse_to_json(const char* input, size_t len, plurnk_tier tier, unsigned flags,
                                              char** out_json, size_t* out_len) {
    if (out_json == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    *out_json = nullptr;
    if (out_len != nullptr) *out_len = 0;
    if ((input == nullptr && len != 0) || !valid_tier(tier)) return PLURNK_ERR_INVALID_ARGUMENT;
    try {
        const plurnk::parse_result r =
            plurnk::parse(std::string_view(input == nullptr ? "" : input, len), to_tier(tier));
        const std::string json = plurnk::to_json(r, {.pretty = (flags & PLURNK_JSON_PRETTY) != 0});
        char* buf = new char[json.size() + 1];
        json.copy(buf, json.size());
        buf[json.size()] = '\0';
        *out_json = buf;
        if (out_len != nullptr) *out_len = json.size();
        return PLURNK_OK;
    } catch (...) {
        return current_exception_status();
    }
}

PLURNK_API void plurnk_result_free(plurnk_result* result) { delete result; }

PLURNK_API plurnk_status plurnk_result_json(const plurnk_result* result, unsigned flags, plurnk_str* out) {
    if (result == nullptr || out == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    try {
        const bool pretty = (flags & PLURNK_JSON_PRETTY) != 0;
        auto& slot = result->json[pretty ? 1 : 0];
        if (!slot) slot = plurnk::to_json(result->result, {.pretty = pretty});
        *out = view(*slot);
        return PLURNK_OK;
    } catch (...) {
        return current_exception_status();
    }
}

PLURNK_API size_t plurnk_result_item_count(const plurnk_result* result) {
    return result == nullptr ? 0 : result->result.items.size();
}

PLURNK_API plurnk_status plurnk_result_item(const plurnk_result* result, size_t index, plurnk_item* out) {
    if (result == nullptr || out == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    if (index >= result->result.items.size()) return PLURNK_ERR_OUT_OF_RANGE;
    try {
        const item_json* js = result_item_json(result, index);
        fill_item(result->result.items[index], *js, out);
        return PLURNK_OK;
    } catch (...) {
        return current_exception_status();
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

PLURNK_API plurnk_status plurnk_stream_create(plurnk_tier tier, plurnk_stream** out) {
    if (out == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    *out = nullptr;
    if (!valid_tier(tier)) return PLURNK_ERR_INVALID_ARGUMENT;
    try {
        auto s = std::make_unique<plurnk_stream>(to_tier(tier));
        attach(s->parser, s.get());
        *out = s.release();
        return PLURNK_OK;
    } catch (...) {
        return current_exception_status();
    }
}

PLURNK_API void plurnk_stream_free(plurnk_stream* stream) { delete stream; }

PLURNK_API plurnk_status plurnk_stream_set_callback(plurnk_stream* stream, plurnk_event_callback callback,
                                                    void* user_data) {
    if (stream == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    if (stream->busy) return PLURNK_ERR_BUSY;
    stream->callback = callback;
    stream->user_data = user_data;
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_stream_feed(plurnk_stream* stream, const char* data, size_t len) {
    if (const plurnk_status st = check_mutable(stream); st != PLURNK_OK) return st;
    if (data == nullptr && len != 0) return PLURNK_ERR_INVALID_ARGUMENT;
    if (stream->finished) return PLURNK_ERR_FINISHED;
    try {
        const busy_scope busy(stream);
        stream->parser.feed(std::string_view(data == nullptr ? "" : data, len));
    } catch (...) {
        stream->poisoned = true;
        return current_exception_status();
    }
    if (stream->event_failure != PLURNK_OK) {
        stream->poisoned = true;
        return stream->event_failure;
    }
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_stream_finish(plurnk_stream* stream, plurnk_result** out) {
    if (out == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    *out = nullptr;
    if (const plurnk_status st = check_mutable(stream); st != PLURNK_OK) return st;
    if (stream->finished) return PLURNK_ERR_FINISHED;
    std::unique_ptr<plurnk_result> r;
    try {
        r = std::make_unique<plurnk_result>();
    } catch (...) {
        return current_exception_status();  // nothing happened to the stream
    }
    try {
        const busy_scope busy(stream);
        r->result = stream->parser.finish();
    } catch (...) {
        stream->poisoned = true;
        return current_exception_status();
    }
    if (stream->event_failure != PLURNK_OK) {
        stream->poisoned = true;
        return stream->event_failure;
    }
    stream->finished = true;
    *out = r.release();
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_stream_next_event(plurnk_stream* stream, size_t* index, plurnk_item* item) {
    if (stream == nullptr || index == nullptr || item == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    if (stream->busy) return PLURNK_ERR_BUSY;
    if (stream->queue.empty()) return PLURNK_NO_EVENT;
    // Moving strings and items is noexcept, so taking the event cannot fail half-way.
    stream->current.emplace(std::move(stream->queue.front()));
    stream->queue.pop_front();
    *index = stream->current->index;
    fill_item(stream->current->value, stream->current->json, item);
    return PLURNK_OK;
}

PLURNK_API size_t plurnk_stream_pending_events(const plurnk_stream* stream) {
    return stream == nullptr ? 0 : stream->queue.size();
}

PLURNK_API plurnk_status plurnk_stream_checkpoint(const plurnk_stream* stream, plurnk_stream** out) {
    if (out == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    *out = nullptr;
    if (const plurnk_status st = check_mutable(stream); st != PLURNK_OK) return st;
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
        return current_exception_status();
    }
}

PLURNK_API plurnk_status plurnk_stream_restore(plurnk_stream* stream, const plurnk_stream* checkpoint) {
    if (stream == nullptr || checkpoint == nullptr) return PLURNK_ERR_INVALID_ARGUMENT;
    if (stream->busy || checkpoint->busy) return PLURNK_ERR_BUSY;
    if (checkpoint->poisoned) return PLURNK_ERR_POISONED;
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
        return current_exception_status();
    }
}

PLURNK_API size_t plurnk_stream_size(const plurnk_stream* stream) {
    return stream == nullptr ? 0 : stream->parser.size();
}

PLURNK_API size_t plurnk_stream_safe_prefix(const plurnk_stream* stream) {
    return stream == nullptr ? 0 : stream->parser.safe_prefix();
}

PLURNK_API int plurnk_stream_finished(const plurnk_stream* stream) {
    return stream != nullptr && stream->finished ? 1 : 0;
}

}  // extern "C"
