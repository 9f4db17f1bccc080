// SPDX-License-Identifier: MIT
// The public face of the storage: item_list (items decoded on access, hand-built items encoded
// by append_item, store/record_writer.hpp), parse_result::clean(), and equality of the public views.
#include <algorithm>
#include <memory>
#include <utility>

#include "plurnk/ast.hpp"
#include "plurnk/parse.hpp"
#include "store/record_writer.hpp"
#include "store/result_store.hpp"

namespace plurnk {

using detail::result_store;

bool parse_result::clean() const noexcept {
    if (tail) return false;
    const detail::result_store* s = items.store();
    if (s == nullptr) return true;
    return std::none_of(s->kinds.begin(), s->kinds.end(),
                        [](detail::item_kind k) { return k == detail::item_kind::diagnostic; });
}

item_list::item_list() noexcept = default;
item_list::~item_list() = default;
item_list::item_list(const item_list&) noexcept = default;
item_list::item_list(item_list&&) noexcept = default;
item_list& item_list::operator=(const item_list&) noexcept = default;
item_list& item_list::operator=(item_list&&) noexcept = default;
item_list::item_list(std::shared_ptr<detail::result_store> s) noexcept : store_(std::move(s)) {}

std::size_t item_list::size() const noexcept { return store_ ? store_->items.size() : 0; }

item item_list::operator[](std::size_t i) const { return store_->decode(i); }

item item_list::iterator::operator*() const { return s_->decode(i_); }

void item_list::push_back(const item& it) {
    if (!store_) {
        store_ = std::make_shared<result_store>();
    } else if (store_.use_count() > 1) {
        store_ = std::make_shared<result_store>(*store_);  // records copied, text shared
    }
    detail::append_item(*store_, it);
}

void item_list::pop_back() {
    if (store_.use_count() > 1) store_ = std::make_shared<result_store>(*store_);
    store_->items.pop_back();
    store_->kinds.pop_back();  // (its statement, diagnostic or text record stays, unreferenced)
}

void item_list::clear() noexcept { store_.reset(); }

item_list::storage_stats item_list::storage() const noexcept {
    storage_stats st;
    if (!store_) return st;
    const result_store& s = *store_;
    const auto vec = [&st](const auto& v) {
        st.bytes += v.capacity() * sizeof(v[0]);
        st.blocks += v.capacity() > 0 ? 1 : 0;
    };
    vec(s.items);
    vec(s.kinds);
    vec(s.stmts);
    vec(s.diags);
    vec(s.messages);
    vec(s.texts);
    st.bytes += sizeof(result_store) + s.strings.capacity() + s.input.bytes();
    st.blocks += 1 + s.strings.chunks() + s.input.blocks();
    return st;
}

bool operator==(const item_list& a, const item_list& b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (!(a[i] == b[i])) return false;
    }
    return true;
}

// ---- equality of views --------------------------------------------------------------------------

bool operator==(const parsed_path& a, const parsed_path& b) noexcept {
    if (a.headers.has_value() != b.headers.has_value()) return false;
    if (a.headers && !std::ranges::equal(*a.headers, *b.headers)) return false;
    return a.kind == b.kind && a.raw == b.raw && a.scheme == b.scheme && a.username == b.username &&
           a.password == b.password && a.hostname == b.hostname && a.port == b.port && a.pathname == b.pathname &&
           a.query == b.query && a.fragment == b.fragment && a.pattern == b.pattern && a.flags == b.flags;
}

bool operator==(const line_marker& a, const line_marker& b) noexcept { return std::ranges::equal(a.marks, b.marks); }

bool operator==(const tag_list& a, const tag_list& b) noexcept { return std::ranges::equal(a, b); }

bool operator==(const signal& a, const signal& b) noexcept {
    return a.kind == b.kind && std::ranges::equal(a.tags, b.tags) && a.number == b.number && a.text == b.text;
}

bool operator==(const resource_selection& a, const resource_selection& b) noexcept {
    return a.target == b.target && a.marker == b.marker;
}

bool operator==(const statement& a, const statement& b) noexcept {
    return a.op == b.op && a.suffix == b.suffix && a.signal == b.signal && a.target == b.target &&
           a.marker == b.marker && a.body == b.body && a.position == b.position && a.span == b.span;
}

}  // namespace plurnk
