// SPDX-License-Identifier: MIT
// The settled front of a growing sequence, shared between copies (private header). Before the
// push parser is copied (a checkpoint), its result builder moves the items it has built here; the
// copy then shares them through one reference instead of duplicating them, so copying costs O(1)
// whatever the history. Pieces are never changed while shared: freeze() extends the newest piece
// in place only when this log is its sole owner (the checkpoint that shared it is gone), and
// take() moves pieces out only when this log is their sole owner, and copies them otherwise.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "base/pod_vector.hpp"

namespace plurnk::detail {

template <class T>
class frozen_log {
public:
    // Appends `piece` (moved) after everything frozen so far: O(1) as a new piece, or amortized
    // O(piece) into the newest piece when nothing else shares it.
    void freeze(pod_vector<T>&& piece) {
        if (piece.empty()) return;
        size_ += piece.size();
        if (head_ && head_.use_count() == 1) {
            auto& items = head_->items;
            if (items.capacity() < items.size() + piece.size()) items.reserve(2 * (items.size() + piece.size()));
            items.append(piece);
            return;
        }
        head_ = std::make_shared<node>(std::move(piece), std::move(head_));
    }

    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    // Nothing frozen (the pieces go, or stay with the copies that share them).
    void clear() noexcept {
        head_.reset();
        size_ = 0;
    }
    // The same pieces (shared), not equal contents: a state's equality.
    friend bool operator==(const frozen_log&, const frozen_log&) = default;

    // Everything frozen, oldest first, followed by `tail`, with room for `extra` more; the log is
    // empty afterwards. Pieces this log alone refers to are moved, shared ones are copied.
    [[nodiscard]] pod_vector<T> take(pod_vector<T>&& tail, std::size_t extra = 0) {
        if (size_ == 0) return std::move(tail);
        std::vector<std::pair<node*, bool>> pieces;  // newest first, with "ours alone"
        bool alone = head_.use_count() == 1;
        for (node* n = head_.get(); n != nullptr; n = n->prev.get()) {
            pieces.emplace_back(n, alone);
            alone = alone && n->prev.use_count() == 1;
        }
        pod_vector<T> out;
        auto it = pieces.rbegin();
        // The oldest piece, when ours alone, becomes the result (no copy: a stream with one
        // checkpoint at a time keeps a single piece).
        if (it->second) {
            out = std::move(it->first->items);
            ++it;
        }
        out.reserve(size_ + tail.size() + extra);
        for (; it != pieces.rend(); ++it) out.append(it->first->items);
        out.append(tail);
        head_.reset();
        size_ = 0;
        return out;
    }

private:
    struct node {
        node(pod_vector<T>&& i, std::shared_ptr<node>&& p) : items(std::move(i)), prev(std::move(p)) {}
        node(const node&) = delete;
        node& operator=(const node&) = delete;
        // Unlinks the chain one node at a time: a long history must not recurse.
        ~node() {
            std::shared_ptr<node> p = std::move(prev);
            while (p && p.use_count() == 1) {
                std::shared_ptr<node> next = std::move(p->prev);
                p = std::move(next);
            }
        }
        pod_vector<T> items;
        std::shared_ptr<node> prev;
    };

    std::shared_ptr<node> head_;
    std::size_t size_ = 0;
};

}  // namespace plurnk::detail
