// SPDX-License-Identifier: MIT
// The records of a result as they are built (see record_log.hpp): sharing with copies, taking
// everything back at finish(), and the interned messages.
#include "store/record_log.hpp"

#include <cstring>
#include <functional>
#include <utility>

#include "store/record_writer.hpp"

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
    if (!messages_.empty()) {
        frozen_messages_.freeze(std::move(messages_));
        messages_.clear();
    }
}

namespace {
// The frozen records before the live ones (nothing to move when none were frozen: parse()).
template <class T>
void take_into(frozen_log<T>& frozen, pod_vector<T>& live) {
    if (!frozen.empty()) live = frozen.take(std::move(live));
}
}  // namespace

void record_log::take_all() {
    take_into(frozen_items_, items_);
    take_into(frozen_kinds_, kinds_);
    take_into(frozen_fired_, fired_);
    take_into(frozen_stmts_, stmts_);
    take_into(frozen_diags_, diags_);
    take_into(frozen_messages_, messages_);
}

void record_log::append_carried() {
    if (carried_.empty() && frozen_carried_.empty()) return;  // (most results)
    take_into(frozen_carried_, carried_);
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
    kinds_.reserve(items_.size());
    if (fires_) fired_.reserve(items_.size());
    for (std::size_t k = 0; k < n; ++k) {
        kinds_.push_back(item_kind::diagnostic);
        note_fired(false);
    }
}

const char* record_log::intern(std::string_view message) {
    const std::size_t h = std::hash<std::string_view>{}(message);
    const std::size_t i = h % intern_.size();
    if (const interned& slot = intern_[i]; slot.s != nullptr && slot.hash == h) {
        std::uint32_t n = 0;
        std::memcpy(&n, slot.s - 4, 4);
        if (std::string_view(slot.s, n) == message) return slot.s;
    }
    interned& slot = intern_.place(i);
    slot = interned{h, strings_.lstring(message)};
    return slot.s;
}

std::uint32_t record_log::message(const char* message, plurnk::source src, plurnk::severity sev,
                                  plurnk::message_id id) {
    if (src == plurnk::source::parser && sev == plurnk::severity::error) parser_errors_ = true;
    const diag_message m = diag_message::make(src, sev, id, message);
    const std::uint64_t key = std::uint64_t{m.id} << 8 | m.source_severity;
    const std::uint64_t h = (reinterpret_cast<std::uintptr_t>(message) ^ key) * 0x9e3779b97f4a7c15ULL;
    const std::size_t i = (h >> 58) % recent_messages_.size();
    if (const recent_message& slot = recent_messages_[i];
        slot.m.message == message && slot.m.id == m.id && slot.m.source_severity == m.source_severity) {
        return slot.index;
    }
    const auto index = static_cast<std::uint32_t>(frozen_messages_.size() + messages_.size());
    messages_.push_back(m);
    recent_messages_.place(i) = recent_message{m, index};
    return index;
}

item_rec record_log::diagnostic(position at, byte_span span, std::uint32_t message) {
    item_rec rec = item_record(at, span);
    if (diag_aux::fits(message, span.begin, span.end)) {
        rec.aux = diag_aux::pack(message, span.begin, span.end);
        return rec;
    }
    rec.aux = static_cast<std::uint32_t>(frozen_diags_.size() + diags_.size());
    const auto end = static_cast<std::uint64_t>(span.end);
    diags_.push_back(diag_rec{message, static_cast<std::uint32_t>(end), static_cast<std::uint32_t>(end >> 32)});
    return rec;
}

void record_log::set_message(item_rec& r, std::uint32_t message) {
    if ((r.aux & diag_aux::k_inline) == 0) {
        diags_[r.aux].message = message;
        return;
    }
    const diag_aux d = diagnostic_of(r);
    r = diagnostic(position{r.line, r.column}, byte_span{r.begin, static_cast<std::size_t>(d.end)}, message);
}

void record_log::move_to(result_store& store) {
    store.items = std::move(items_);
    store.kinds = std::move(kinds_);
    store.stmts = std::move(stmts_);
    store.diags = std::move(diags_);
    store.messages = std::move(messages_);
    store.strings = std::exchange(strings_, arena{});  // the log keeps no chunk (a reused builder)
}

// Every field as the constructor leaves it (operator== enumerates them for the tests): the live
// vectors cleared (a parse's records went to its result, what is left keeps its room), the
// frozen logs and the arena let go of what they share, the memos marked unused.
void record_log::reset() noexcept {
    items_.clear();
    kinds_.clear();
    fired_.clear();
    fires_ = true;
    parser_errors_ = false;
    stmts_.clear();
    diags_.clear();
    carried_.clear();
    frozen_items_.clear();
    frozen_kinds_.clear();
    frozen_fired_.clear();
    frozen_stmts_.clear();
    frozen_diags_.clear();
    frozen_carried_.clear();
    messages_.clear();
    frozen_messages_.clear();
    strings_.clear();
    intern_.reset();
    recent_messages_.reset();
}

}  // namespace plurnk::detail
