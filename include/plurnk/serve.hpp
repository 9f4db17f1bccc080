// SPDX-License-Identifier: MIT
// Serving: what each fed chunk of a model's turn adds, as an inference server shows it (prose,
// reasoning and tool calls), and the OpenAI-compatible mapping of it. doc/serving.md is the guide.
//
// A turn is split into three channels, exactly once each byte:
//   statements  the statement items (each one tool call);
//   reasoning   the bodies of the reasoning blocks (`<think>…</think>`, `<|channel>…<channel|>`);
//               a block the turn never closes is reasoning to the end of the turn;
//   content     everything else (prose, the whitespace between items, statements the parser
//               refused), except an unclosed statement at the end (the unparsed tail), which is
//               half an op and never shown.
// project() makes the three of a whole turn; a delta_stream gives them piece by piece as the
// turn arrives, and the concatenation of its deltas equals project() of the whole, however the
// input is cut, with drafts accepted or rejected on the way (test/serve_test.cpp checks every
// conformance vector).
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/stream.hpp"

namespace plurnk {

// What a stretch of a turn adds to each channel.
struct delta {
    std::string content;    // prose, bytes of the input (never half of a UTF-8 sequence)
    std::string reasoning;  // reasoning text, streamed as it arrives (never half a sequence either)
    item_list statements;   // the statements settled, in order (copies: they outlive the feed)
    std::vector<std::size_t> indices;  // each statement's index in finish().items (stream_event::npos
                                       // while not known: after a parse-tier parser error)
    // Each statement's span in code points ({begin, end}), when serve_options::code_points asks
    // for it (for callers that index text by characters); empty otherwise.
    std::vector<byte_span> code_point_spans;
    std::size_t first_call = 0;        // statements[i] is tool call number first_call + i
    std::vector<open_info> runaways;   // runaway events raised (serve_options::max_open_bytes)
    // A terminal SEND (a disposition code) is among the statements, outside any reasoning block:
    // the turn is over as far as the language goes (only prose may follow it).
    bool ends_turn = false;

    [[nodiscard]] bool empty() const noexcept {
        return content.empty() && reasoning.empty() && statements.empty() && runaways.empty();
    }
    // Appends what `later` adds (the concatenation of two consecutive deltas).
    void append(const delta& later);
};

// The three channels of a whole turn: the delta a stream of it adds up to. `input` is the text
// that was parsed into `result`.
[[nodiscard]] delta project(std::string_view input, const parse_result& result);

struct serve_options {
    std::size_t max_open_bytes = 0;  // the runaway limit (doc/streaming.md); 0: off
    bool code_points = false;        // fill delta::code_point_spans
    // stream_parser::set_release_threshold() (0 keeps all input)
    std::size_t release_threshold = stream_parser::k_default_release_threshold;
};

// The push parser for a server: each feed() returns the delta it settled. Copyable (a copy is a
// checkpoint, as for stream_parser). Not for use from two threads at once.
class delta_stream {
public:
    explicit delta_stream(tier t = tier::parse, const parse_options& options = {}, const serve_options& serve = {});
    ~delta_stream();
    delta_stream(const delta_stream& other);
    delta_stream& operator=(const delta_stream& other);
    delta_stream(delta_stream&&) noexcept;
    delta_stream& operator=(delta_stream&&) noexcept;

    // Appends a chunk; returns what it settled. During a draft, returns nothing: the draft's
    // deltas are held until accept(). Ignored (an empty delta) after end().
    delta feed(std::string_view chunk);
    // Ends the input: the last delta (the rest of the prose, a terminal SEND, an unclosed reasoning
    // block's rest). Throws std::logic_error during a draft. An empty delta after the first call.
    delta end();
    // What end() would return now, without ending: O(what is pending), not O(turn). The adapter
    // rule for a framework that never says the turn ended (doc/serving.md): after each feed,
    // when peek_end().ends_turn, call end() and send what it returns with this feed's delta.
    [[nodiscard]] delta peek_end() const;
    // The final result (ends the input first if needed): parse() of everything fed.
    parse_result finish();
    [[nodiscard]] bool ended() const noexcept;

    // Speculative decoding. draft() starts a draft (or continues the open one): the chunks fed
    // from now on are draft tokens, whose deltas are held. accept(n) keeps the first n chunks of
    // the draft (all of them by default) and returns what they settled; reject() drops the draft
    // (accept(0)). What a rejected chunk settled (statements, prose, runaways) is never returned.
    static constexpr std::size_t all = static_cast<std::size_t>(-1);
    void draft();
    delta accept(std::size_t chunks = all);
    void reject();
    [[nodiscard]] bool drafting() const noexcept;

    // The parser underneath, for what it answers (open(), safe_prefix(), size(), retained()).
    [[nodiscard]] const stream_parser& parser() const noexcept;

private:
    struct core;
    std::unique_ptr<core> core_;
    struct draft_state;
    std::unique_ptr<draft_state> draft_;
};

// The OpenAI-compatible mapping (doc/serving.md): a statement is a tool call whose function name
// is its op and whose arguments are its fields; a delta is the `delta` of a chat.completion.chunk.
namespace openai {

struct call_options {
    // Tool call ids are id_prefix followed by the call number (0, 1, ... in the turn). A server
    // that keeps ids unique across turns puts something of the request in the prefix.
    std::string_view id_prefix = "call_";
};

// The arguments of a statement's tool call: its JSON object (doc/library.md) without "op" and
// "position": {"suffix","signal","target","lineMarker","body"}.
[[nodiscard]] std::string arguments_json(const statement& s);
// {"id":…,"type":"function","function":{"name":"READ","arguments":"{…}"}}
[[nodiscard]] std::string tool_call_json(const statement& s, std::size_t call, const call_options& o = {});
// The `delta` of a chat.completion.chunk: {"content":…,"reasoning_content":…,"tool_calls":[{"index":N,
// "id":…,"type":"function","function":{"name":…,"arguments":…}},…]}, each member only when the
// delta has some; {} for an empty delta.
[[nodiscard]] std::string chunk_delta_json(const delta& d, const call_options& o = {});
// The assistant `message` of a chat.completion for a whole turn (project(), or every delta
// appended): {"role":"assistant","content":… or null,"reasoning_content":…,"tool_calls":[…]}.
[[nodiscard]] std::string message_json(const delta& whole, const call_options& o = {});
// The JSON Schema of the arguments of `op`'s tool call, derived from schema/PlurnkStatement.json
// (LOOK and BUFF: ClientStatement.json) with every reference resolved in place.
[[nodiscard]] std::string parameters_json(op o);
// A request's `tools`: [{"type":"function","function":{"name":…,"description":…,"parameters":…}},…]
// for the ops of `t` (the protocol ops; the client tier adds LOOK and BUFF).
[[nodiscard]] std::string tools_json(tier t = tier::parse);

}  // namespace openai

}  // namespace plurnk
