// SPDX-License-Identifier: MIT
// The records of a result as they are built (private header): item records with their kinds and
// reported flags, statement and diagnostic records, the diagnostics carried over released input,
// the arena their text lives in, the interned messages and the message table (diagnostics'
// messages and classes, each kept once). The result builder appends to it; finish() hands it to a
// result_store. Live vectors hold what was built since the last share(); the frozen logs hold the
// rest, shared with copies (a stream checkpoint), so copying costs O(1) whatever the history. A
// statement's item record refers to its record by its index over frozen and live together, and
// so do a diagnostic's to its diag_rec (when it has one, see diag_aux) and to its message.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "base/frozen_log.hpp"
#include "base/memo_slots.hpp"
#include "base/pod_vector.hpp"
#include "store/result_store.hpp"

namespace plurnk::detail {

class record_log {
public:
    // The live records (those since the last share()).
    [[nodiscard]] pod_vector<item_rec>& items() noexcept { return items_; }
    [[nodiscard]] const pod_vector<item_rec>& items() const noexcept { return items_; }
    [[nodiscard]] pod_vector<item_kind>& kinds() noexcept { return kinds_; }
    [[nodiscard]] const pod_vector<item_kind>& kinds() const noexcept { return kinds_; }
    [[nodiscard]] pod_vector<stmt_rec>& stmts() noexcept { return stmts_; }
    [[nodiscard]] const pod_vector<stmt_rec>& stmts() const noexcept { return stmts_; }
    [[nodiscard]] pod_vector<diag_rec>& diags() noexcept { return diags_; }
    [[nodiscard]] const pod_vector<diag_rec>& diags() const noexcept { return diags_; }
    // Decoded text and interned messages (its chunks are shared with copies, see arena).
    [[nodiscard]] arena& strings() noexcept { return strings_; }

    // Items, statements and diagnostics before the live ones (frozen by share()).
    [[nodiscard]] std::size_t frozen_items() const noexcept { return frozen_items_.size(); }
    [[nodiscard]] std::size_t frozen_stmts() const noexcept { return frozen_stmts_.size(); }
    // The index the next statement or diagnostic record gets (over frozen and live together).
    [[nodiscard]] std::uint32_t next_stmt() const noexcept {
        return static_cast<std::uint32_t>(frozen_stmts_.size() + stmts_.size());
    }

    // Whether items were reported to a sink as they were built: parse() reports none before
    // finish() (no sink), and keeps no flags.
    [[nodiscard]] bool fires() const noexcept { return fires_; }
    void never_fires() noexcept { fires_ = false; }
    // Per item: already reported to the sink (kept only when fires()).
    void note_fired(bool fired) {
        if (fires_) fired_.push_back(fired ? 1 : 0);
    }
    [[nodiscard]] bool fired(std::size_t i) const noexcept { return fires_ && fired_[i] != 0; }

    // An unclaimed error of input the push parser released, in recording order (its diag_rec is
    // in diags() already).
    void carry(const item_rec& r) { carried_.push_back(r); }

    // Before the builder is copied (a stream checkpoint): the live records move to the frozen logs,
    // which the copy then shares instead of duplicating them.
    void share();
    // finish(): every record in the live vectors, frozen ones first.
    void take_all();
    // finish(), after take_all(): the carried errors after the items, as diagnostics not reported.
    void append_carried();

    // Room for the records of `rest` more bytes of input at the density of the `done` bytes
    // that built the live records past the given counts (and a tenth more; at most an item per
    // 4 bytes to come), so that they do not grow by copying themselves over and over: parse()
    // after its first window, a stream after the first piece of a large chunk. Room left unused
    // is address space that is never touched.
    void expect_rest(std::size_t done, std::size_t rest, std::size_t items_before, std::size_t statements_before) {
        if (done == 0 || rest == 0 || items_.size() < items_before || stmts_.size() < statements_before) return;
        const auto project = [&](std::size_t n) {
            const double more = static_cast<double>(n) * static_cast<double>(rest) / static_cast<double>(done) * 1.1;
            return static_cast<std::size_t>(std::min(more, static_cast<double>(rest / 4)));
        };
        const std::size_t items = project(items_.size() - items_before);
        items_.reserve(items_.size() + items);
        kinds_.reserve(kinds_.size() + items);
        stmts_.reserve(stmts_.size() + project(stmts_.size() - statements_before));
    }

    // Keeps the items (and their reported flags) for which keep(index) holds (finish() only, when
    // every item is in the live vectors).
    template <class Pred>
    void keep_items(Pred keep) {
        std::size_t w = 0;
        for (std::size_t r = 0; r < items_.size(); ++r) {
            if (!keep(r)) continue;
            if (w != r) {
                items_[w] = items_[r];
                kinds_[w] = kinds_[r];
                if (fires_) fired_[w] = fired_[r];
            }
            ++w;
        }
        items_.resize(w);
        kinds_.resize(w);
        if (fires_) fired_.resize(w);
    }

    // Equal messages share one copy in the arena.
    const char* intern(std::string_view message);
    // The index in the message table of `message` (interned) with its class: recent ones are found
    // again, so that an error-dense input repeating a few messages adds no entries.
    std::uint32_t message(const char* message, plurnk::source src, plurnk::severity sev, plurnk::message_id id);
    // Whether message() was ever asked for a parser error: when not, no record is one (the turn
    // shape's passes look for none in a clean turn).
    [[nodiscard]] bool had_parser_errors() const noexcept { return parser_errors_; }
    // A diagnostic's item record (its diag_rec appended when the item record cannot hold it).
    [[nodiscard]] item_rec diagnostic(position at, byte_span span, std::uint32_t message);
    // After take_all(): the message and span end of the diagnostic of `r`, and a new message for it.
    [[nodiscard]] diag_aux diagnostic_of(const item_rec& r) const noexcept { return diag_aux::of(r, diags_.data()); }
    [[nodiscard]] const diag_message& message_of(const item_rec& r) const noexcept {
        return messages_[diagnostic_of(r).message];
    }
    void set_message(item_rec& r, std::uint32_t message);

    // The records as a result's storage (after take_all(); the log is spent).
    void move_to(result_store& store);

    // Back to as constructed, the live vectors' room kept (see record_log.cpp).
    void reset() noexcept;
    // The same records, frozen pieces, chunks and memos: a state's equality, for the tests.
    friend bool operator==(const record_log&, const record_log&) = default;

private:
    pod_vector<item_rec> items_;
    pod_vector<item_kind> kinds_;
    pod_vector<char> fired_;  // per item: already reported to the sink (unless !fires_: none is)
    bool fires_ = true;
    bool parser_errors_ = false;  // see had_parser_errors()
    pod_vector<stmt_rec> stmts_;
    pod_vector<diag_rec> diags_;
    pod_vector<item_rec> carried_;  // unclaimed errors of released input, in recording order
    frozen_log<item_rec> frozen_items_;
    frozen_log<item_kind> frozen_kinds_;
    frozen_log<char> frozen_fired_;
    frozen_log<stmt_rec> frozen_stmts_;
    frozen_log<diag_rec> frozen_diags_;
    frozen_log<item_rec> frozen_carried_;
    pod_vector<diag_message> messages_;
    frozen_log<diag_message> frozen_messages_;

    arena strings_;
    // Recently interned messages (a direct-mapped cache: hostile input repeats a few messages).
    struct interned {
        std::size_t hash = 0;
        const char* s = nullptr;
        friend bool operator==(const interned&, const interned&) = default;
    };
    memo_slots<interned, 64> intern_;
    // Recent message table entries (a direct-mapped cache, by text address and class).
    struct recent_message {
        diag_message m;
        std::uint32_t index = 0;
        friend bool operator==(const recent_message&, const recent_message&) = default;
    };
    memo_slots<recent_message, 64> recent_messages_;
};

}  // namespace plurnk::detail
