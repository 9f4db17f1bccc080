// SPDX-License-Identifier: MIT
// The C API's delta streams (plurnk.h, "Serving"): plurnk::delta_stream behind a handle that
// keeps the last delta it returned, so that the delta's strings, statements, runaways and its
// chunk JSON can be handed out borrowed; and the OpenAI mapping of statements and turns.
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "c_api.hpp"
#include "plurnk/serve.hpp"

struct plurnk_delta_stream {
    plurnk_delta_stream(plurnk::tier t, const plurnk::parse_options& o, const plurnk::serve_options& s)
        : stream(t, o, s), dialect(o.dialect) {}
    plurnk::delta_stream stream;
    plurnk::parse_dialect dialect;  // its statements' (c_item::dialect)
    plurnk::delta last;  // the delta last returned
    std::vector<std::optional<plurnk::capi::c_item>> items;  // views of last.statements, made on demand
    plurnk::open_info current_open;
    std::string chunk_json;
    mutable std::string last_error;

    // Keeps `d` as the last delta and fills the caller's view of it.
    void deliver(plurnk::delta&& d, plurnk_delta* out) {
        last = std::move(d);
        items.assign(last.statements.size(), std::nullopt);
        plurnk_delta full{};
        full.struct_size = sizeof(plurnk_delta);
        full.content = plurnk::capi::view(std::string_view(last.content));
        full.reasoning = plurnk::capi::view(std::string_view(last.reasoning));
        full.statement_count = last.statements.size();
        full.first_call = last.first_call;
        full.runaway_count = last.runaways.size();
        full.ends_turn = last.ends_turn ? 1 : 0;
        plurnk::capi::deliver(out, full);
    }
};

namespace plurnk::capi {
namespace {

inline constexpr std::size_t k_delta_v1 = offsetof(plurnk_delta, reserved) + sizeof(std::uint32_t);

plurnk_status check_stream(const plurnk_delta_stream* s, const char* fn) noexcept {
    return s == nullptr ? null_argument(nullptr, fn, "stream") : PLURNK_OK;
}

// Runs `step` (which returns the delta to deliver) with the usual checks of a call that returns
// a delta.
template <class Step>
plurnk_status delta_call(plurnk_delta_stream* s, const char* fn, plurnk_delta* out, Step step) noexcept {
    if (const plurnk_status st = check_stream(s, fn); st != PLURNK_OK) return st;
    std::string* const slot = &s->last_error;
    if (const plurnk_status st = check_out(out, k_delta_v1, slot, fn, "out", "plurnk_delta"); st != PLURNK_OK) return st;
    try {
        s->deliver(step(), out);
        return PLURNK_OK;
    } catch (const std::logic_error&) {
        return fail(PLURNK_ERR_DRAFT_OPEN, slot, fn, "a draft is open; accept or reject it first");
    } catch (...) {
        return fail_current(slot, fn);
    }
}

std::string_view prefix_of(const char* id_prefix) noexcept { return id_prefix == nullptr ? "call_" : id_prefix; }

plurnk_status give_string(std::string&& text, char** out, std::size_t* out_len, std::string* slot, const char* fn) noexcept {
    char* p = new (std::nothrow) char[text.size() + 1];  // plurnk_free_string: delete[]
    if (p == nullptr) return fail(PLURNK_ERR_OUT_OF_MEMORY, slot, fn, "out of memory");
    std::memcpy(p, text.data(), text.size());
    p[text.size()] = '\0';
    *out = p;
    if (out_len != nullptr) *out_len = text.size();
    return PLURNK_OK;
}

}  // namespace
}  // namespace plurnk::capi

using namespace plurnk::capi;

extern "C" {

PLURNK_API plurnk_status plurnk_delta_stream_create(plurnk_tier tier, const plurnk_stream_options* options,
                                                    plurnk_delta_stream** out) {
    static constexpr const char* fn = "plurnk_delta_stream_create";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (const plurnk_status st = check_input(nullptr, fn, "", "", 0, tier); st != PLURNK_OK) return st;
    plurnk::parse_options po;
    std::size_t release = 0, max_open = 0;
    if (const plurnk_status st = read_options(options, po, release, max_open, fn); st != PLURNK_OK) return st;
    try {
        *out = new plurnk_delta_stream(to_tier(tier), po,
                                       plurnk::serve_options{.max_open_bytes = max_open, .release_threshold = release});
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

PLURNK_API void plurnk_delta_stream_free(plurnk_delta_stream* stream) { delete stream; }

PLURNK_API plurnk_status plurnk_delta_stream_feed(plurnk_delta_stream* stream, const char* data, size_t len,
                                                  plurnk_delta* out) {
    static constexpr const char* fn = "plurnk_delta_stream_feed";
    if (stream != nullptr && data == nullptr && len != 0) {
        return check_input(&stream->last_error, fn, "data", data, len, PLURNK_TIER_PARSE);
    }
    if (stream != nullptr && stream->stream.ended()) {
        return fail(PLURNK_ERR_FINISHED, &stream->last_error, fn, "the stream has already ended");
    }
    return delta_call(stream, fn, out, [&] { return stream->stream.feed(std::string_view(data == nullptr ? "" : data, len)); });
}

PLURNK_API plurnk_status plurnk_delta_stream_end(plurnk_delta_stream* stream, plurnk_delta* out) {
    return delta_call(stream, "plurnk_delta_stream_end", out, [&] { return stream->stream.end(); });
}

PLURNK_API plurnk_status plurnk_delta_stream_peek_end(plurnk_delta_stream* stream, plurnk_delta* out) {
    return delta_call(stream, "plurnk_delta_stream_peek_end", out, [&] { return stream->stream.peek_end(); });
}

PLURNK_API plurnk_status plurnk_delta_stream_accept(plurnk_delta_stream* stream, size_t chunks, plurnk_delta* out) {
    return delta_call(stream, "plurnk_delta_stream_accept", out, [&] { return stream->stream.accept(chunks); });
}

PLURNK_API plurnk_status plurnk_delta_stream_finish(plurnk_delta_stream* stream, plurnk_result** out) {
    static constexpr const char* fn = "plurnk_delta_stream_finish";
    if (out == nullptr) return null_argument(stream == nullptr ? nullptr : &stream->last_error, fn, "out");
    *out = nullptr;
    if (const plurnk_status st = check_stream(stream, fn); st != PLURNK_OK) return st;
    if (stream->stream.drafting()) {
        return fail(PLURNK_ERR_DRAFT_OPEN, &stream->last_error, fn, "a draft is open; accept or reject it first");
    }
    try {
        auto r = std::make_unique<plurnk_result>();
        r->result = stream->stream.finish();
        *out = r.release();
        return PLURNK_OK;
    } catch (...) {
        return fail_current(&stream->last_error, fn);
    }
}

PLURNK_API int plurnk_delta_stream_ended(const plurnk_delta_stream* stream) {
    return stream != nullptr && stream->stream.ended() ? 1 : 0;
}

PLURNK_API plurnk_status plurnk_delta_stream_draft(plurnk_delta_stream* stream) {
    static constexpr const char* fn = "plurnk_delta_stream_draft";
    if (const plurnk_status st = check_stream(stream, fn); st != PLURNK_OK) return st;
    if (stream->stream.ended()) return fail(PLURNK_ERR_FINISHED, &stream->last_error, fn, "the stream has already ended");
    try {
        stream->stream.draft();
        return PLURNK_OK;
    } catch (...) {
        return fail_current(&stream->last_error, fn);
    }
}

PLURNK_API plurnk_status plurnk_delta_stream_reject(plurnk_delta_stream* stream) {
    static constexpr const char* fn = "plurnk_delta_stream_reject";
    if (const plurnk_status st = check_stream(stream, fn); st != PLURNK_OK) return st;
    try {
        stream->stream.reject();
        return PLURNK_OK;
    } catch (...) {
        return fail_current(&stream->last_error, fn);
    }
}

PLURNK_API int plurnk_delta_stream_drafting(const plurnk_delta_stream* stream) {
    return stream != nullptr && stream->stream.drafting() ? 1 : 0;
}

PLURNK_API plurnk_status plurnk_delta_stream_checkpoint(const plurnk_delta_stream* stream, plurnk_delta_stream** out) {
    static constexpr const char* fn = "plurnk_delta_stream_checkpoint";
    if (out == nullptr) return null_argument(stream == nullptr ? nullptr : &stream->last_error, fn, "out");
    *out = nullptr;
    if (const plurnk_status st = check_stream(stream, fn); st != PLURNK_OK) return st;
    try {
        *out = new plurnk_delta_stream(*stream);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(&stream->last_error, fn);
    }
}

PLURNK_API plurnk_status plurnk_delta_stream_restore(plurnk_delta_stream* stream, const plurnk_delta_stream* checkpoint) {
    static constexpr const char* fn = "plurnk_delta_stream_restore";
    if (const plurnk_status st = check_stream(stream, fn); st != PLURNK_OK) return st;
    if (checkpoint == nullptr) return null_argument(&stream->last_error, fn, "checkpoint");
    if (checkpoint == stream) return PLURNK_OK;
    try {
        plurnk::delta_stream copy = checkpoint->stream;
        stream->stream = std::move(copy);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(&stream->last_error, fn);
    }
}

PLURNK_API plurnk_status plurnk_delta_stream_statement(plurnk_delta_stream* stream, size_t i, size_t* index,
                                                       plurnk_item* item) {
    static constexpr const char* fn = "plurnk_delta_stream_statement";
    if (const plurnk_status st = check_stream(stream, fn); st != PLURNK_OK) return st;
    std::string* const slot = &stream->last_error;
    if (const plurnk_status st = check_out(item, k_item_v1, slot, fn, "item", "plurnk_item"); st != PLURNK_OK) return st;
    if (i >= stream->last.statements.size()) {
        return out_of_range(slot, fn, i, stream->last.statements.size(), "the delta's", "statements");
    }
    try {
        std::optional<c_item>& c = stream->items[i];
        if (!c) c.emplace(stream->last.statements[i], stream->dialect);
        plurnk_item full{};
        fill_item(*c, &full);
        deliver(item, full);
        if (index != nullptr) {
            const std::size_t x = stream->last.indices[i];
            *index = x == plurnk::stream_event::npos ? PLURNK_NO_INDEX : x;
        }
        return PLURNK_OK;
    } catch (...) {
        return fail_current(slot, fn);
    }
}

PLURNK_API plurnk_status plurnk_delta_stream_runaway(plurnk_delta_stream* stream, size_t i, plurnk_open* out) {
    static constexpr const char* fn = "plurnk_delta_stream_runaway";
    if (const plurnk_status st = check_stream(stream, fn); st != PLURNK_OK) return st;
    std::string* const slot = &stream->last_error;
    if (const plurnk_status st = check_out(out, k_open_v1, slot, fn, "out", "plurnk_open"); st != PLURNK_OK) return st;
    if (i >= stream->last.runaways.size()) {
        return out_of_range(slot, fn, i, stream->last.runaways.size(), "the delta's", "runaways");
    }
    plurnk_open full = open_view(stream->last.runaways[i]);
    deliver(out, full);
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_delta_stream_chunk_json(plurnk_delta_stream* stream, const char* id_prefix,
                                                        plurnk_str* out) {
    static constexpr const char* fn = "plurnk_delta_stream_chunk_json";
    if (const plurnk_status st = check_stream(stream, fn); st != PLURNK_OK) return st;
    if (out == nullptr) return null_argument(&stream->last_error, fn, "out");
    try {
        stream->chunk_json = plurnk::openai::chunk_delta_json(stream->last, {.id_prefix = prefix_of(id_prefix)});
        *out = view(stream->chunk_json);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(&stream->last_error, fn);
    }
}

PLURNK_API const char* plurnk_delta_stream_last_error(const plurnk_delta_stream* stream) {
    return stream == nullptr ? "" : stream->last_error.c_str();
}

PLURNK_API plurnk_status plurnk_statement_tool_call(const plurnk_statement* statement, size_t call,
                                                    const char* id_prefix, int arguments_only, char** out,
                                                    size_t* out_len) {
    static constexpr const char* fn = "plurnk_statement_tool_call";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    try {
        const auto& s = *plurnk::capi::typed(statement);
        std::string text = arguments_only != 0 ? plurnk::openai::arguments_json(s)
                                               : plurnk::openai::tool_call_json(s, call, {.id_prefix = prefix_of(id_prefix)});
        return give_string(std::move(text), out, out_len, nullptr, fn);
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

PLURNK_API plurnk_status plurnk_openai_message_json(const char* input, size_t len, plurnk_tier tier,
                                                    const char* id_prefix, char** out, size_t* out_len) {
    static constexpr const char* fn = "plurnk_openai_message_json";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (const plurnk_status st = check_input(nullptr, fn, "input", input, len, tier); st != PLURNK_OK) return st;
    try {
        const std::string_view in(input == nullptr ? "" : input, len);
        const plurnk::delta whole = plurnk::project(in, plurnk::parse(in, to_tier(tier)));
        return give_string(plurnk::openai::message_json(whole, {.id_prefix = prefix_of(id_prefix)}), out, out_len, nullptr, fn);
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

PLURNK_API plurnk_status plurnk_openai_tools_json(plurnk_tier tier, plurnk_str* out) {
    static constexpr const char* fn = "plurnk_openai_tools_json";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    if (const plurnk_status st = check_input(nullptr, fn, "", "", 0, tier); st != PLURNK_OK) return st;
    try {
        static const std::string texts[4] = {
            plurnk::openai::tools_json(plurnk::tier::parse), plurnk::openai::tools_json(plurnk::tier::statements),
            plurnk::openai::tools_json(plurnk::tier::log), plurnk::openai::tools_json(plurnk::tier::client)};
        *out = view(texts[static_cast<int>(tier)]);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

}  // extern "C"
