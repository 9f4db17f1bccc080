// SPDX-License-Identifier: MIT
// The typed AST of a PLURNK parse: statements, targets, matcher bodies, items and the result.
// Every string is a view (see "Views" below).
// Shapes follow SPEC §12 and BEHAVIOUR §3; to_json() (json.hpp) writes them as the reference does.
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <array>
#include <cstddef>
#include <cstdint>
#include <compare>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "plurnk/diagnostic.hpp"

namespace plurnk {

// The sixteen minted keywords. The first thirteen are the protocol ops (SPEC §3), TURN is the
// log-tier wrapper, LOOK and BUFF are client-tier commands.
enum class op : std::uint8_t {
    FIND, READ, EDIT, COPY, MOVE, OPEN, FOLD, SEND, EXEC, WORK, FORK, KILL, PLAN, TURN, LOOK, BUFF
};
inline constexpr int k_op_count = 16;
inline constexpr int k_protocol_op_count = 13;
// The five disposition codes that make a SEND terminal (SPEC §9), ascending.
inline constexpr std::array<std::uint16_t, 5> k_disposition_codes = {102, 200, 202, 300, 499};

// Views. Every string of the AST is a std::string_view and every list a std::span into storage
// that someone else owns. In a parse_result that storage is the result's own (a copy of the input,
// or the input itself with parse_options::borrow_input, plus an arena for decoded text), so an
// item read from a result stays valid as long as the result, or any copy of it, lives. A
// statement built by hand (for format(), to_json() or item_list::push_back()) views the caller's
// strings, which must outlive it; push_back() copies them into the result's storage (spans are
// stored as 32-bit offsets: a larger one is kept as 4 GiB - 1).

// A `{key: value}` block of a URL target (request metadata).
struct header {
    std::string_view name;
    std::string_view value;
};

// A target slot after escape decoding: a local path, or a WHATWG-decomposed URL (SPEC §5); in
// the service dialect also a regex path (SERVICE.md S7: `raw` as written, its pattern and flags).
struct parsed_path {
    enum class kind_t : std::uint8_t { local, url, regex };
    kind_t kind = kind_t::local;
    std::string_view raw;  // decoded text; for URLs it includes the `{key: value}` blocks
    // The fields below are meaningful for kind_t::url only.
    std::string_view scheme;  // protocol without ':'
    std::optional<std::string_view> username;
    std::optional<std::string_view> password;
    std::optional<std::string_view> hostname;  // empty host is nullopt
    std::optional<std::uint32_t> port;         // default ports vanish
    std::string_view pathname;
    std::optional<std::string_view> query;     // nullopt when no '?', "" for a bare '?'
    std::optional<std::string_view> fragment;  // nullopt when absent or empty
    std::optional<std::span<const header>> headers;  // only when blocks were present
    // kind_t::regex only: `raw` split as a `#pattern#flags` matcher is.
    std::string_view pattern;
    std::string_view flags;
};

// The `<scope>` slot: ordered numeric components (SPEC §7).
struct line_marker {
    std::span<const double> marks;
};

enum class dialect : std::uint8_t { xpath, regex, jsonpath, semantic, graph, glob };

// A FIND/READ/OPEN/FOLD/LOOK/BUFF body, classified by its leading characters (SPEC §6).
struct matcher_body {
    plurnk::dialect dialect = plurnk::dialect::glob;
    std::string_view raw;
    std::string_view pattern;  // regex only
    std::string_view flags;    // regex only
};

// A SEND body: the exact text plus, when it parses as JSON, the value re-serialized the way
// JavaScript's JSON.stringify(JSON.parse(raw)) writes it.
struct send_body {
    std::string_view raw;
    std::optional<std::string_view> json;
};

// A COPY/MOVE body: the destination target plus an optional destination scope.
struct resource_selection {
    parsed_path target;
    std::optional<line_marker> marker;
};

// A signal's tags: a random-access range of std::string_view. Built by hand from a span of
// views (`tags = std::span<const std::string_view>(list)`, or any array of them); a result keeps
// each tag as an 8-byte offset and length into a block of text.
class tag_list {
public:
    // One tag in a result: `length` bytes at `offset` from the list's base.
    struct ref {
        std::uint32_t offset;
        std::uint32_t length;
    };

    class iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using iterator_concept = std::random_access_iterator_tag;
        using value_type = std::string_view;
        using difference_type = std::ptrdiff_t;
        using reference = std::string_view;
        using pointer = void;

        iterator() = default;
        std::string_view operator*() const noexcept { return list_[i_]; }
        std::string_view operator[](difference_type n) const noexcept {
            return list_[static_cast<std::size_t>(static_cast<difference_type>(i_) + n)];
        }
        iterator& operator++() noexcept {
            ++i_;
            return *this;
        }
        iterator operator++(int) noexcept {
            iterator t = *this;
            ++i_;
            return t;
        }
        iterator& operator--() noexcept {
            --i_;
            return *this;
        }
        iterator operator--(int) noexcept {
            iterator t = *this;
            --i_;
            return t;
        }
        iterator& operator+=(difference_type n) noexcept {
            i_ = static_cast<std::size_t>(static_cast<difference_type>(i_) + n);
            return *this;
        }
        iterator& operator-=(difference_type n) noexcept { return *this += -n; }
        friend iterator operator+(iterator a, difference_type n) noexcept { return a += n; }
        friend iterator operator+(difference_type n, iterator a) noexcept { return a += n; }
        friend iterator operator-(iterator a, difference_type n) noexcept { return a -= n; }
        friend difference_type operator-(const iterator& a, const iterator& b) noexcept {
            return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
        }
        friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.i_ == b.i_; }
        friend auto operator<=>(const iterator& a, const iterator& b) noexcept { return a.i_ <=> b.i_; }

    private:
        friend class tag_list;
        iterator(const tag_list& l, std::size_t i) noexcept;
        // (a copy of the list's pointers: an iterator does not refer to the tag_list object)
        struct lookup {
            const std::string_view* views = nullptr;
            const char* base = nullptr;
            const ref* refs = nullptr;
            std::string_view operator[](std::size_t i) const noexcept {
                return views != nullptr ? views[i] : std::string_view(base + refs[i].offset, refs[i].length);
            }
        } list_;
        std::size_t i_ = 0;
    };
    using const_iterator = iterator;
    using value_type = std::string_view;

    tag_list() noexcept = default;
    tag_list(std::span<const std::string_view> views) noexcept : views_(views.data()), n_(views.size()) {}
    tag_list(const std::vector<std::string_view>& views) noexcept : views_(views.data()), n_(views.size()) {}
    tag_list(const char* base, const ref* refs, std::size_t n) noexcept : base_(base), refs_(refs), n_(n) {}

    [[nodiscard]] std::size_t size() const noexcept { return n_; }
    [[nodiscard]] bool empty() const noexcept { return n_ == 0; }
    [[nodiscard]] std::string_view operator[](std::size_t i) const noexcept {
        return views_ != nullptr ? views_[i] : std::string_view(base_ + refs_[i].offset, refs_[i].length);
    }
    [[nodiscard]] std::string_view front() const noexcept { return (*this)[0]; }
    [[nodiscard]] std::string_view back() const noexcept { return (*this)[n_ - 1]; }
    [[nodiscard]] iterator begin() const noexcept { return iterator(*this, 0); }
    [[nodiscard]] iterator end() const noexcept { return iterator(*this, n_); }

private:
    const std::string_view* views_ = nullptr;
    const char* base_ = nullptr;
    const ref* refs_ = nullptr;
    std::size_t n_ = 0;
};
inline tag_list::iterator::iterator(const tag_list& l, std::size_t i) noexcept
    : list_{l.views_, l.base_, l.refs_}, i_(i) {}
[[nodiscard]] bool operator==(const tag_list& a, const tag_list& b) noexcept;

// The `[signal]` slot, whose shape depends on the op family.
struct signal {
    enum class kind_t : std::uint8_t { none, tags, number, text };
    kind_t kind = kind_t::none;
    tag_list tags;                           // kind_t::tags
    double number = 0;                       // kind_t::number (SEND, KILL)
    std::string_view text;                   // kind_t::text (EXEC executor, WORK/FORK branch)
};

using body = std::variant<std::monostate, std::string_view, matcher_body, send_body, resource_selection>;

struct statement {
    plurnk::op op = plurnk::op::PLAN;
    std::string_view suffix;
    plurnk::signal signal;
    std::optional<parsed_path> target;  // empty when the statement has no target
    std::optional<line_marker> marker;  // JSON key "lineMarker"
    plurnk::body body;                  // monostate = null
    plurnk::position position;
    byte_span span{};                   // from its `<<` to the end of its close tag
};

struct text_item {
    std::string_view text;
    plurnk::position position;
    byte_span span{};  // its text: input[span.begin, span.end) == text
};

// One element of a result: a statement, a diagnostic or a text item. A value whose strings view
// the result it came from.
using item = std::variant<statement, diagnostic, text_item>;

// Equality of content: strings and lists by value; positions and spans included.
[[nodiscard]] bool operator==(const parsed_path& a, const parsed_path& b) noexcept;
[[nodiscard]] bool operator==(const line_marker& a, const line_marker& b) noexcept;
[[nodiscard]] bool operator==(const signal& a, const signal& b) noexcept;
[[nodiscard]] bool operator==(const resource_selection& a, const resource_selection& b) noexcept;
[[nodiscard]] bool operator==(const statement& a, const statement& b) noexcept;
inline bool operator==(const header& a, const header& b) noexcept { return a.name == b.name && a.value == b.value; }
inline bool operator==(const matcher_body& a, const matcher_body& b) noexcept {
    return a.dialect == b.dialect && a.raw == b.raw && a.pattern == b.pattern && a.flags == b.flags;
}
inline bool operator==(const send_body& a, const send_body& b) noexcept { return a.raw == b.raw && a.json == b.json; }
inline bool operator==(const text_item& a, const text_item& b) noexcept {
    return a.text == b.text && a.position == b.position && a.span == b.span;
}

namespace detail {
class result_store;
}  // namespace detail

// The items of a parse_result: a random-access range of `item` values, each made on access from
// the result's compact storage (a few dozen bytes per item, not one object each). Copies share
// the storage, so copying a result costs O(1). Elements are values: bind one to a variable
// before taking a reference into it.
//   for (const item& it : r.items) ...                         // fine: `it` lives for the body
//   const item it = r.items[3]; const auto& s = std::get<statement>(it);  // fine
//   const auto& s = std::get<statement>(r.items[3]);          // dangles: the item was a temporary
class item_list {
public:
    using value_type = item;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = item;

    class iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using iterator_concept = std::random_access_iterator_tag;
        using value_type = item;
        using difference_type = std::ptrdiff_t;
        using reference = item;
        using pointer = void;

        iterator() = default;
        item operator*() const;
        item operator[](difference_type n) const { return *(*this + n); }
        iterator& operator++() noexcept {
            ++i_;
            return *this;
        }
        iterator operator++(int) noexcept {
            iterator t = *this;
            ++i_;
            return t;
        }
        iterator& operator--() noexcept {
            --i_;
            return *this;
        }
        iterator operator--(int) noexcept {
            iterator t = *this;
            --i_;
            return t;
        }
        iterator& operator+=(difference_type n) noexcept {
            i_ = static_cast<std::size_t>(static_cast<difference_type>(i_) + n);
            return *this;
        }
        iterator& operator-=(difference_type n) noexcept { return *this += -n; }
        friend iterator operator+(iterator a, difference_type n) noexcept { return a += n; }
        friend iterator operator+(difference_type n, iterator a) noexcept { return a += n; }
        friend iterator operator-(iterator a, difference_type n) noexcept { return a -= n; }
        friend difference_type operator-(const iterator& a, const iterator& b) noexcept {
            return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
        }
        friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.i_ == b.i_; }
        friend auto operator<=>(const iterator& a, const iterator& b) noexcept { return a.i_ <=> b.i_; }
        // The index of the item this iterator is at.
        [[nodiscard]] std::size_t index() const noexcept { return i_; }

    private:
        friend class item_list;
        iterator(const detail::result_store* s, std::size_t i) noexcept : s_(s), i_(i) {}
        const detail::result_store* s_ = nullptr;
        std::size_t i_ = 0;
    };
    using const_iterator = iterator;

    item_list() noexcept;
    ~item_list();
    item_list(const item_list&) noexcept;
    item_list(item_list&&) noexcept;
    item_list& operator=(const item_list&) noexcept;
    item_list& operator=(item_list&&) noexcept;

    [[nodiscard]] std::size_t size() const noexcept;
    [[nodiscard]] bool empty() const noexcept { return size() == 0; }
    [[nodiscard]] item operator[](std::size_t i) const;  // i < size(); the library throws nothing
    [[nodiscard]] item front() const { return (*this)[0]; }
    [[nodiscard]] item back() const { return (*this)[size() - 1]; }
    [[nodiscard]] iterator begin() const noexcept { return iterator(store_.get(), 0); }
    [[nodiscard]] iterator end() const noexcept { return iterator(store_.get(), size()); }

    // Appends a copy of `it`: its strings and lists are copied into this list's storage, so they
    // may view anything. A list that shares its storage with copies gets storage of its own first
    // (copy-on-write: earlier items are shared, not copied).
    void push_back(const item& it);
    template <class T>
    void emplace_back(T&& v) {
        push_back(item(std::forward<T>(v)));
    }
    void pop_back();
    void clear() noexcept;

    // What the storage holds (shared with copies): bytes allocated and the number of heap blocks.
    struct storage_stats {
        std::size_t bytes = 0;
        std::size_t blocks = 0;
    };
    [[nodiscard]] storage_stats storage() const noexcept;

    friend bool operator==(const item_list& a, const item_list& b) noexcept;

    // Library use: the storage behind the list.
    explicit item_list(std::shared_ptr<detail::result_store> s) noexcept;
    [[nodiscard]] const detail::result_store* store() const noexcept { return store_.get(); }

private:
    std::shared_ptr<detail::result_store> store_;
};

struct unparsed_tail {
    position from;
    std::string reason;
    // The reason's template: one of the tail_* ids (tail_body_unclosed also when the
    // invented-closer advisory, tail_invented_closer, is appended to it).
    message_id reason_id = message_id::external;
    byte_span span{};  // from the unclosed statement's `<<` to the end of the input
    friend bool operator==(const unparsed_tail&, const unparsed_tail&) = default;
};

// The spelling of the language read (SERVICE.md): `contracts`, PLURNK 1.4.0 (the default), or
// `service`, the older spelling the "Plurnk Service" model document teaches (`#pattern#flags`
// regexes, regex targets, OPEN/FOLD scopes, WORK/FORK without a signal). Both give the same
// result shapes, plus a regex target (parsed_path::kind_t::regex) in `service`.
enum class parse_dialect : std::uint8_t { contracts, service };

struct [[nodiscard]] parse_result {
    item_list items;
    std::optional<unparsed_tail> tail;
    // The dialect the items were read in (parse_options::dialect): what format_turn() writes
    // them in. Not part of the result JSON.
    parse_dialect dialect = parse_dialect::contracts;

    // True when there is no error item (warnings included, as the reference CLI counts them)
    // and no unparsed tail: the CLI exits 0 exactly then.
    [[nodiscard]] bool clean() const noexcept;
    friend bool operator==(const parse_result&, const parse_result&) = default;
};

// Keyword text of an op ("FIND", ...).
[[nodiscard]] const char* op_name(op o) noexcept;
// The op whose keyword is exactly `word`, if any.
[[nodiscard]] std::optional<op> op_from_name(std::string_view word) noexcept;

}  // namespace plurnk
