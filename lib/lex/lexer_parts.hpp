// SPDX-License-Identifier: MIT
// The lexer's state beside its cursor (private header, read by lexer_state.hpp), each piece a
// small class with its own members: the resume points of runs an undone step scanned
// (run_hints), where the next reasoning-enclosure closer is (closer_memo), and the open TURNs'
// suffixes (open_turns). Each shifts its offsets itself when the input before a cut is dropped
// (stream_lexer::release).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/work_counter.hpp"

namespace plurnk::detail {

inline constexpr std::size_t k_no_offset = static_cast<std::size_t>(-1);

// Resume hints for tokens an undone attempt already scanned: valid for the same token start
// (the input only grows, so what was scanned stays scanned). An undone step is retried at the
// same offset and in the same mode, so one hint per scanner suffices.
struct run_hint {
    std::size_t start = k_no_offset;
    std::size_t k = 0;
    int depth = 0;  // scanner state at k (target depth, scope phase)

    friend bool operator==(const run_hint&, const run_hint&) = default;
};
enum hint_slot : std::uint8_t {
    h_text, h_target, h_opener, h_tag, h_int, h_ident, h_scope, h_colon_tag, h_colon_blanks,
    h_turn_suffix, h_body_tag, h_unit, h_count
};
class run_hints {
public:
    run_hint& operator[](std::size_t slot) noexcept { return at_[slot]; }  // slot: a hint_slot
    const run_hint& operator[](std::size_t slot) const noexcept { return at_[slot]; }
    // Whether the scan of `slot`, for the token at `start`, reached the end of an input of `size` bytes.
    [[nodiscard]] bool stalled_at_end(hint_slot slot, std::size_t start, std::size_t size) const noexcept {
        return at_[slot].start == start && at_[slot].k == size;
    }
    // The input before `cut` is dropped: hints for tokens after it move back, the others go.
    void released(std::size_t cut) noexcept {
        for (run_hint& h : at_) {
            if (h.start != k_no_offset && h.start >= cut) {
                h.start -= cut;
                h.k -= cut;
            } else {
                h = run_hint{};
            }
        }
    }
    // As constructed: every hint unset (stored field by field: assigning a fresh array goes
    // through a copy on the stack).
    void reset() noexcept {
        for (run_hint& h : at_) {
            h.start = k_no_offset;
            h.k = 0;
            h.depth = 0;
        }
    }
    friend bool operator==(const run_hints&, const run_hints&) = default;

private:
    std::array<run_hint, h_count> at_{};
};

// Where the next closer of a reasoning enclosure is: no closer starts in [from, at), and one
// starts at `at`; or, with at == k_no_offset, none starts before `searched`. One per closer.
class closer_memo {
public:
    // The first `closer` starting at or after q in `s`, or k_no_offset. Queries move forward
    // (openers come in input order; a retried step asks the same q again), so with the memo each
    // byte is searched about once however many openers share one closer, or none. `examined`
    // counts the bytes searched (work_counter.hpp).
    std::size_t next(std::string_view s, std::size_t q, std::string_view closer, std::uint64_t& examined) noexcept {
        if (from_ != k_no_offset && q >= from_) {
            if (at_ != k_no_offset && at_ >= q) return at_;
            if (at_ == k_no_offset && searched_ > q) q = searched_;  // none in [q, searched)
            else from_ = q;
        } else {
            from_ = q;
        }
        const std::size_t close = q < s.size() ? s.find(closer, q) : std::string_view::npos;
        if constexpr (k_work_counter) {
            examined += (close == std::string_view::npos ? s.size() : close + closer.size()) - std::min(q, s.size());
        }
        if (close != std::string_view::npos) {
            at_ = close;
            return close;
        }
        at_ = k_no_offset;
        // A closer starting before size - |closer| + 1 would have fit: those starts are checked.
        const std::size_t fit = s.size() >= closer.size() ? s.size() - closer.size() + 1 : 0;
        searched_ = std::max(q, fit);
        if (from_ > searched_) from_ = searched_;
        return k_no_offset;
    }
    // The input before `cut` is dropped.
    void released(std::size_t cut) noexcept {
        if (from_ != k_no_offset && from_ >= cut) {
            from_ -= cut;
            if (at_ != k_no_offset) at_ -= cut;
            searched_ = searched_ >= cut ? searched_ - cut : 0;
        } else {
            *this = closer_memo{};
        }
    }
    friend bool operator==(const closer_memo&, const closer_memo&) = default;

private:
    std::size_t from_ = k_no_offset;
    std::size_t at_ = k_no_offset;
    std::size_t searched_ = 0;
};

// The open TURN bodies, innermost last: each one's suffix (the closer `:TURN<suffix>` must
// repeat it) as [b, e) of the input, or of a store of their own once the input before it was
// released.
class open_turns {
    struct entry {
        std::uint32_t b = 0, e = 0;
        bool kept = false;  // in kept_

        friend bool operator==(const entry&, const entry&) = default;
    };

public:
    [[nodiscard]] bool empty() const noexcept { return stack_.empty(); }
    [[nodiscard]] std::size_t size() const noexcept { return stack_.size(); }
    // A TURN body was opened; it is open until a closer when `push`ed, its suffix at [b, e) of
    // the input (past parse_options::max_turn_depth it is not: no closer will close it).
    void opened(std::uint32_t b, std::uint32_t e, bool push) {
        since_release_ = true;
        if (push) stack_.push_back(entry{b, e, false});
    }
    // The innermost one's closer came.
    void close() noexcept { stack_.pop_back(); }
    // The innermost one's suffix; `input` is the input lexed.
    [[nodiscard]] std::string_view innermost_suffix(std::string_view input) const noexcept {
        return suffix_of(stack_.back(), input);
    }
    // Whether one is open, or was opened since the last release (an undone step may leave that
    // set: it only ever says "maybe").
    [[nodiscard]] bool touched() const noexcept { return !stack_.empty() || since_release_; }

    // What an undone step puts back (a step opens or closes at most one).
    struct mark {
        std::size_t size = 0;
        entry top;
    };
    [[nodiscard]] mark marked() const noexcept { return mark{stack_.size(), stack_.empty() ? entry{} : stack_.back()}; }
    void restore(const mark& m) {
        if (stack_.size() > m.size) stack_.pop_back();
        if (stack_.size() < m.size) stack_.push_back(m.top);
    }

    // The input before the lexer's position is dropped, `input` the input it held: the open
    // ones' suffixes are kept aside, each once. Closed ones' text stays in the store (a step that
    // closed one can be undone until it settles) until it is more than what is live, then the
    // store is rebuilt: each kept byte is copied O(1) times however often input is released.
    // Returns the bytes copied.
    std::size_t released(std::string_view input) {
        since_release_ = false;
        const auto keep = [this, input](entry& t, std::string& store) {
            const std::string_view text = suffix_of(t, input);
            t.b = static_cast<std::uint32_t>(store.size());
            store.append(text);
            t.e = static_cast<std::uint32_t>(store.size());
            t.kept = true;
            return text.size();
        };
        std::size_t live = 0, copied = 0;
        for (entry& t : stack_) {
            if (!t.kept) copied += keep(t, kept_);
            live += t.e - t.b;
        }
        if (kept_.size() > 2 * live + 256) {
            std::string store;
            for (entry& t : stack_) copied += keep(t, store);
            kept_ = std::move(store);
        }
        return copied;
    }
    // None open, none opened (as constructed), with the vector's and the store's capacity kept.
    void reset() noexcept {
        stack_.clear();
        kept_.clear();
        since_release_ = false;
    }
    friend bool operator==(const open_turns&, const open_turns&) = default;

private:
    [[nodiscard]] std::string_view suffix_of(const entry& t, std::string_view input) const noexcept {
        return (t.kept ? std::string_view(kept_) : input).substr(t.b, t.e - t.b);
    }
    std::vector<entry> stack_;
    std::string kept_;  // the kept suffixes (only the open ones' as of the last release)
    bool since_release_ = false;
};

}  // namespace plurnk::detail
