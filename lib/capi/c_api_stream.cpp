// SPDX-License-Identifier: MIT
// The C API's stream handles (plurnk.h): create, feed and finish, events by callback or polling,
// checkpoints, the open-statement view and the runaway events.
#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "c_api.hpp"
#include "plurnk/version.hpp"

namespace plurnk::capi {

static_assert(PLURNK_OPEN_NONE == static_cast<int>(plurnk::open_info::where_t::none) &&
                  PLURNK_OPEN_SLOTS == static_cast<int>(plurnk::open_info::where_t::slots) &&
                  PLURNK_OPEN_SIGNAL == static_cast<int>(plurnk::open_info::where_t::signal) &&
                  PLURNK_OPEN_TARGET == static_cast<int>(plurnk::open_info::where_t::target) &&
                  PLURNK_OPEN_BODY == static_cast<int>(plurnk::open_info::where_t::body) &&
                  PLURNK_OPEN_TURN == static_cast<int>(plurnk::open_info::where_t::turn),
              "plurnk_open_where follows open_info::where_t");

plurnk_open open_view(const plurnk::open_info& o) noexcept {
    plurnk_open v{};
    v.struct_size = sizeof(plurnk_open);
    v.where = static_cast<int32_t>(o.where);
    v.op = o.where == plurnk::open_info::where_t::none ? view("") : view(plurnk::op_name(o.op));
    v.suffix = view(o.suffix);
    v.begin = o.begin;
    v.bytes = o.bytes;
    v.openers = o.openers;
    v.turn_depth = o.turn_depth;
    return v;
}

namespace {

// Points `p`'s engine callbacks at handle `s` (the runaway one only with a limit).
void attach(plurnk::stream_parser& p, plurnk_stream* s, std::size_t max_open_bytes) {
    p.set_callback([s](const plurnk::stream_event& ev) { s->on_event(ev); });
    if (max_open_bytes != 0) {
        p.set_runaway_limit(max_open_bytes, [s](const plurnk::open_info& o) { s->on_runaway(o); });
    }
}

// Marks a stream busy for the duration of a feed/finish (`fn`, the call).
struct busy_scope {
    busy_scope(plurnk_stream* s, const char* fn) noexcept : s_(s) {
        s_->busy = true;
        s_->busy_call = fn;
    }
    ~busy_scope() { s_->busy = false; }
    busy_scope(const busy_scope&) = delete;
    busy_scope& operator=(const busy_scope&) = delete;
    plurnk_stream* s_;
};

// PLURNK_ERR_BUSY for `fn` called while `busy` (the stream, or the checkpoint given to restore)
// is inside a feed or finish, with the one-line message that says where.
plurnk_status busy_failure(const plurnk_stream* busy, std::string* slot, const char* fn) noexcept {
    try {
        const std::string call = busy->busy_call;
        if (busy->in_callback == nullptr) {
            return fail(PLURNK_ERR_BUSY, slot, fn,
                        "the stream is inside " + call + " (use a stream from one thread at a time)");
        }
        return fail(PLURNK_ERR_BUSY, slot, fn,
                    std::string("called from inside this stream's ") + busy->in_callback + " callback (during " + call +
                        "); call it after " + call + " returns");
    } catch (...) {
        return fail(PLURNK_ERR_BUSY, slot, fn, "called from inside this stream's callback");
    }
}

constexpr const char* k_poisoned_message =
    "an earlier out-of-memory failure left the stream unusable; restore it from a checkpoint";

// The common gate for calls that change a stream.
plurnk_status check_mutable(const plurnk_stream* s, const char* fn) noexcept {
    if (s == nullptr) return null_argument(nullptr, fn, "stream");
    if (s->busy) return busy_failure(s, &s->last_error, fn);
    if (s->poisoned) return fail(PLURNK_ERR_POISONED, &s->last_error, fn, k_poisoned_message);
    return PLURNK_OK;
}

}  // namespace

// The engine options for C options (NULL: the defaults), or a failure naming the field.
plurnk_status read_options(const plurnk_stream_options* o, plurnk::parse_options& po, std::size_t& release,
                           std::size_t& max_open, const char* fn) noexcept {
    release = plurnk::stream_parser::k_default_release_threshold;
    max_open = 0;
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
    // Appended fields: read only when the caller's struct holds them.
    if (PLURNK_HAS_FIELD(o, max_open_bytes)) max_open = o->max_open_bytes;
    if (PLURNK_HAS_FIELD(o, dialect)) {
        if (o->dialect != PLURNK_PARSE_DIALECT_CONTRACTS && o->dialect != PLURNK_PARSE_DIALECT_SERVICE) {
            try {
                return fail(PLURNK_ERR_INVALID_ARGUMENT, nullptr, fn,
                            "options->dialect is " + std::to_string(o->dialect) +
                                ", not PLURNK_PARSE_DIALECT_CONTRACTS (0) or PLURNK_PARSE_DIALECT_SERVICE (1)");
            } catch (...) {
                return fail_current(nullptr, fn);
            }
        }
        po.dialect = static_cast<plurnk::parse_dialect>(o->dialect);
    }
    return PLURNK_OK;
}

}  // namespace plurnk::capi

using namespace plurnk::capi;

extern "C" {

PLURNK_API plurnk_status plurnk_stream_create_ex(plurnk_tier tier, const plurnk_stream_options* options,
                                                 plurnk_stream** out) {
    static constexpr const char* fn = "plurnk_stream_create_ex";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (const plurnk_status st = check_input(nullptr, fn, "", "", 0, tier); st != PLURNK_OK) return st;
    plurnk::parse_options po;
    std::size_t release = 0, max_open = 0;
    if (const plurnk_status st = read_options(options, po, release, max_open, fn); st != PLURNK_OK) return st;
    try {
        auto s = std::make_unique<plurnk_stream>(to_tier(tier), po);
        s->parser.set_release_threshold(release);
        s->max_open_bytes = max_open;
        attach(s->parser, s.get(), max_open);
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
    if (stream->busy) return busy_failure(stream, &stream->last_error, fn);
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
        const busy_scope busy(stream, fn);
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
        const busy_scope busy(stream, fn);
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
    if (stream->busy) return busy_failure(stream, slot, fn);
    if (stream->queue.empty()) return PLURNK_NO_EVENT;
    // Moving strings and items is noexcept, so taking the event cannot fail half-way.
    stream->current.emplace(std::move(stream->queue.front()));
    stream->queue.pop_front();
    *index = stream->current->index;
    plurnk_item full;
    fill_item(stream->current->item, &full);
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
        s->parser = stream->parser;  // copies the engine callbacks too: re-pointed below
        s->max_open_bytes = stream->max_open_bytes;
        attach(s->parser, s.get(), s->max_open_bytes);
        s->queue = stream->queue;
        s->runaways = stream->runaways;
        s->runaway_callback = stream->runaway_callback;
        s->runaway_user_data = stream->runaway_user_data;
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
    if (stream->busy || checkpoint->busy) return busy_failure(stream->busy ? stream : checkpoint, slot, fn);
    if (checkpoint->poisoned) {
        return fail(PLURNK_ERR_POISONED, slot, fn, "the checkpoint is poisoned (an out-of-memory failure)");
    }
    if (stream == checkpoint) return PLURNK_OK;
    try {
        // Build the copies first so that a failure leaves `stream` unchanged.
        plurnk::stream_parser parser(checkpoint->parser);
        attach(parser, stream, checkpoint->max_open_bytes);  // the limit is part of the parse state
        std::deque<queued_event> queue(checkpoint->queue);
        std::deque<plurnk::open_info> runaways(checkpoint->runaways);
        stream->max_open_bytes = checkpoint->max_open_bytes;
        stream->parser = std::move(parser);
        stream->queue.swap(queue);
        stream->runaways.swap(runaways);
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
    if (stream == nullptr) return 0;
    // A C stream always has a callback (attach()), so safe_prefix() has nothing to catch up and
    // does not throw; were it to, 0 would be the answer that shows nothing unsettled.
    try {
        return stream->parser.safe_prefix();
    } catch (...) {
        return 0;
    }
}

PLURNK_API size_t plurnk_stream_retained(const plurnk_stream* stream) {
    return stream == nullptr ? 0 : stream->parser.retained();
}

PLURNK_API int plurnk_stream_finished(const plurnk_stream* stream) {
    return stream != nullptr && stream->finished ? 1 : 0;
}

PLURNK_API plurnk_status plurnk_stream_open(const plurnk_stream* stream, plurnk_open* out) {
    static constexpr const char* fn = "plurnk_stream_open";
    if (stream == nullptr) return null_argument(nullptr, fn, "stream");
    std::string* const slot = &stream->last_error;
    if (const plurnk_status st = check_out(out, k_open_v1, slot, fn, "out", "plurnk_open"); st != PLURNK_OK) return st;
    if (stream->busy) return busy_failure(stream, slot, fn);
    try {
        stream->current_open = stream->parser.open();
    } catch (...) {
        return fail_current(slot, fn);
    }
    plurnk_open full = open_view(stream->current_open);
    deliver(out, full);
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_stream_set_runaway_callback(plurnk_stream* stream, plurnk_runaway_callback callback,
                                                            void* user_data) {
    static constexpr const char* fn = "plurnk_stream_set_runaway_callback";
    if (stream == nullptr) return null_argument(nullptr, fn, "stream");
    if (stream->busy) return busy_failure(stream, &stream->last_error, fn);
    stream->runaway_callback = callback;
    stream->runaway_user_data = user_data;
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_stream_next_runaway(plurnk_stream* stream, plurnk_open* out) {
    static constexpr const char* fn = "plurnk_stream_next_runaway";
    if (stream == nullptr) return null_argument(nullptr, fn, "stream");
    std::string* const slot = &stream->last_error;
    if (const plurnk_status st = check_out(out, k_open_v1, slot, fn, "out", "plurnk_open"); st != PLURNK_OK) return st;
    if (stream->busy) return busy_failure(stream, slot, fn);
    if (stream->runaways.empty()) return PLURNK_NO_EVENT;
    stream->current_open = std::move(stream->runaways.front());  // moving is noexcept
    stream->runaways.pop_front();
    plurnk_open full = open_view(stream->current_open);
    deliver(out, full);
    return PLURNK_OK;
}

}  // extern "C"
