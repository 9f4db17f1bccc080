// SPDX-License-Identifier: MIT
// parse(): the pipeline (pipeline.hpp) over the whole input, in windows of tokens. The lexer
// knows the input is complete (nothing it emits is ever undone) but stops every k_window tokens;
// the statement parser and the builder take what those tokens settle, as they do for the push
// parser; and whenever nothing is open (no statement, every token and error taken) the tokens so
// far are forgotten. So the memory a parse needs besides its result is one window of tokens,
// however long the input, except inside a statement or a TURN that stays open (their tokens wait
// for it; the lexer's errors do not: it also stops every k_window errors, anywhere, and the
// builder takes them). The result is the push parser's, so it is the same as streaming the input
// in any chunks, which the stream tests check on every vector. The pipeline is the thread's
// scratch when it is free (parse_scratch.hpp).
#include <memory>
#include <utility>

#include "base/thread_spare.hpp"
#include "pipeline/parse_scratch.hpp"
#include "pipeline/pipeline.hpp"

namespace plurnk {

namespace {
// Tokens per window: enough that the per-window work (a parser attempt, a release) is noise,
// few enough that the tokens stay in cache (16 bytes each).
constexpr std::size_t k_window = 4096;

// What a pipeline may hold per input byte besides its vectors counted below (the lexer's long-token
// state, the builder's position table and statement scratch): the bound memory_test holds a whole
// parse's peak heap to (the one shape over it is an open statement's tokens, counted below).
constexpr std::size_t k_held_per_input_byte = 8;

// The bytes a pipeline holds after a parse that grow with its input: the capacity of its vectors
// (pipeline::room_bytes()), and k_held_per_input_byte for the rest. memory_test checks it against
// what the heap holds after every hostile shape.
std::size_t held_bytes(const detail::pipeline& p, std::size_t input_bytes) noexcept {
    return p.room_bytes() + k_held_per_input_byte * input_bytes;
}

// A thread's scratch (parse_scratch.hpp): the pipeline kept in the thread's spare slot
// (base/thread_spare.hpp: on the heap, as a thread's static TLS comes out of its stack and a
// pipeline is 6 KB; freed when the thread ends), reset in place for the next parse made for the
// same tier and options; beside it, whether a parse runs on it now, and what it did.
struct scratch_extra {
    bool in_use = false;
    detail::parse_scratch_stats stats;
};
using scratch_spare = detail::thread_spare<detail::pipeline, scratch_extra>;
using scratch_slot = scratch_spare::slot;

// The thread's scratch for one parse, given back when the parse ends (however it ends).
class scratch_lease {
public:
    // Null (the parse makes its own pipeline) when the scratch is in use, when the input is too
    // large for the scratch to stay under the cap after it, or when the thread's scratch is gone
    // (a parse from a destructor that runs after it at the thread's end).
    scratch_lease(tier t, const parse_options& o, std::size_t input_bytes)
        : s_(scratch_spare::here()), p_(take(s_, t, o, input_bytes)), input_bytes_(input_bytes) {}
    ~scratch_lease() {
        if (p_ != nullptr) give_back();
    }
    scratch_lease(const scratch_lease&) = delete;
    scratch_lease& operator=(const scratch_lease&) = delete;
    [[nodiscard]] detail::pipeline* get() const noexcept { return p_; }

private:
    // The pipeline for a parse, as constructed: the kept one reset, or a new one kept.
    static detail::pipeline* take(scratch_slot& s, tier t, const parse_options& o, std::size_t input_bytes) {
        if (input_bytes > detail::k_parse_scratch_cap / k_held_per_input_byte || s.gone) return nullptr;
        if (s.extra.in_use) {
            ++s.extra.stats.nested;
            return nullptr;
        }
        detail::pipeline* p = s.get();
        if (p != nullptr && p->made_for(t, o)) {
            p->reset();  // contents as constructed, capacity kept
            ++s.extra.stats.reused;
        } else {
            s.drop();  // (before the new one is made: one pipeline at a time)
            s.keep(std::make_unique<detail::pipeline>(t, o));
            p = s.get();
            ++s.extra.stats.fresh;
        }
        s.extra.in_use = true;
        return p;
    }
    // After the parse: the pipeline is kept unless it holds more than the cap, without the
    // input (its copy belongs to the result).
    void give_back() noexcept {
        if (held_bytes(*p_, input_bytes_) > detail::k_parse_scratch_cap) return release_past_cap();
        p_->builder.input() = detail::input_text{};
        s_.extra.in_use = false;
    }
    [[gnu::cold, gnu::noinline]] void release_past_cap() noexcept {
        s_.drop();
        ++s_.extra.stats.released;
        s_.extra.in_use = false;
    }

    scratch_slot& s_;
    detail::pipeline* p_;
    std::size_t input_bytes_;
};

parse_result run_windows(detail::pipeline& p, std::string_view input, std::string_view in,
                         const parse_options& options, std::size_t window) {
    detail::lex_in_windows(p, in, options.borrow_input, window);
    p.parse(true);
    parse_result r = p.finish(in, {});
    r.dialect = options.dialect;
    if (in.size() < input.size()) {
        detail::position_map pos(in);
        detail::append_input_limit_error(r, pos.at(in.size()), in.size(), input.size());
    }
    return r;
}

}  // namespace

void detail::lex_in_windows(pipeline& p, std::string_view in, bool borrow_input, std::size_t window) {
    detail::stream_lexer& lexer = p.lexer;
    detail::result_builder& b = p.builder;
    b.never_fires();
    if (borrow_input) {
        b.input().set_borrowed(in);
    } else {
        b.input().set_copied(in);
    }
    const std::size_t reserved = std::min<std::size_t>(in.size() / 3 + 4, window < k_window ? 2 * window : 2 * k_window);
    p.reserve_tokens(reserved);
    lexer.set_error_budget(window);
    // A stop for errors (the lexer's error budget) leaves the token budget as it is: a window ends
    // where the token budget says, however many error stops fall inside it (were each to set a new
    // budget, error stops landing inside statements could keep every window from ending).
    bool new_window = true;
    bool projected = false;
    for (;;) {
        if (new_window) {
            const std::size_t held = p.tokens().size();
            lexer.set_token_budget(window > SIZE_MAX - held ? SIZE_MAX : held + window);
        }
        lexer.advance(in, true);
        if (lexer.at_end()) break;
        new_window = lexer.output().errors.size() < window;  // not an error stop
        p.parse(false);
        p.build(in, {});
        if (!projected) {  // room for the rest of the records at the density of the first window
            projected = true;
            const std::size_t done = lexer.position();
            if (done < in.size()) b.expect_rest(done, in.size() - done, 0, 0);
        }
        // The builder keeps what it needs of each lexer error: the lexer need not (an error-dense
        // statement that stays open would otherwise hold them all).
        lexer.forget_errors();
        b.forget_lexer_errors();
        if (p.can_release()) {
            p.release_tokens();
            new_window = true;
        }
    }
}

parse_result detail::parse_in_windows(std::string_view input, tier t, const parse_options& options,
                                      std::size_t window) {
    const std::string_view in = input.substr(0, detail::input_limit(options));
    const scratch_lease scratch(t, options, in.size());
    if (detail::pipeline* p = scratch.get()) return run_windows(*p, input, in, options, window);
    detail::pipeline own(t, options);
    return run_windows(own, input, in, options, window);
}

detail::parse_scratch_stats detail::parse_scratch_state() noexcept {
    const scratch_slot& slot = scratch_spare::here();
    parse_scratch_stats s = slot.extra.stats;
    s.held = slot.get() != nullptr;
    s.in_use = slot.extra.in_use;
    return s;
}

void detail::release_parse_scratch() noexcept {
    scratch_slot& slot = scratch_spare::here();
    if (!slot.extra.in_use) slot.drop();
}

void detail::with_parse_scratch_in_use(function_ref<void()> f) {
    struct mark {
        bool& in_use = scratch_spare::here().extra.in_use;
        bool was = std::exchange(in_use, true);
        ~mark() { in_use = was; }
    } const marked;
    f();
}

parse_result parse(std::string_view input, tier t, const parse_options& options) {
    return detail::parse_in_windows(input, t, options, k_window);
}

}  // namespace plurnk
