// SPDX-License-Identifier: MIT
// The records of a result as they are built (see record_log.hpp): sharing with copies, taking
// everything back at finish(), and the interned messages.
#include "store/record_log.hpp"

#include <cstring>
#include <functional>
#include <utility>

namespace plurnk::detail {

void record_log::share() {
    if (!items_.empty()) {
        frozen_items_.freeze(std::move(items_));
        frozen_kinds_.freeze(std::move(kinds_));
        frozen_fired_.freeze(std::move(fired_));
        items_.clear();
        kinds_.clear();
        fired_.clear();
    }
    if (!stmts_.empty()) {
        frozen_stmts_.freeze(std::move(stmts_));
        stmts_.clear();
    }
    if (!diags_.empty()) {
        frozen_diags_.freeze(std::move(diags_));
        diags_.clear();
    }
    if (!carried_.empty()) {
        frozen_carried_.freeze(std::move(carried_));
        carried_.clear();
    }
}

void record_log::take_all() {
    items_ = frozen_items_.take(std::move(items_));
    kinds_ = frozen_kinds_.take(std::move(kinds_));
    fired_ = frozen_fired_.take(std::move(fired_));
    stmts_ = frozen_stmts_.take(std::move(stmts_));
    diags_ = frozen_diags_.take(std::move(diags_));
}

void record_log::append_carried() {
    carried_ = frozen_carried_.take(std::move(carried_));
    // The carried records go after the items. When they are the many (an error on every line of a
    // long turn), the items go in front of them instead, so the two are not both held twice.
    if (carried_.size() > items_.size()) {
        carried_.prepend(items_);
        std::swap(items_, carried_);
    } else {
        items_.append(carried_);
    }
    const std::size_t n = items_.size() - kinds_.size();
    carried_ = pod_vector<item_rec>();
    for (std::size_t k = 0; k < n; ++k) {
        kinds_.push_back(item_kind::diagnostic);
        note_fired(false);
    }
}

const char* record_log::intern(std::string_view message) {
    const std::size_t h = std::hash<std::string_view>{}(message);
    interned& slot = intern_[h % intern_.size()];
    if (slot.s != nullptr && slot.hash == h) {
        std::uint32_t n = 0;
        std::memcpy(&n, slot.s - 4, 4);
        if (std::string_view(slot.s, n) == message) return slot.s;
    }
    slot = interned{h, strings_.lstring(message)};
    return slot.s;
}

void record_log::move_to(result_store& store) {
    store.items = std::move(items_);
    store.kinds = std::move(kinds_);
    store.stmts = std::move(stmts_);
    store.diags = std::move(diags_);
    store.strings = strings_;
}

}  // namespace plurnk::detail
