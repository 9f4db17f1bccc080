// SPDX-License-Identifier: MIT
// The typed AST of a PLURNK parse: statements, targets, matcher bodies, items and the result.
// Shapes follow SPEC §12 and BEHAVIOUR §3; to_json() (json.hpp) writes them as the reference does.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
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

// A target slot after escape decoding: a local path, or a WHATWG-decomposed URL (SPEC §5).
// A value kept on the heap, or nothing. It has std::optional's interface (has_value, `*`, `->`,
// value(), emplace, reset, comparison with std::nullopt, assignment from a value or an optional)
// but is one pointer wide: a path is large, and keeping it out of line keeps `statement`, and so
// every item of a result, small. Copies are deep.
template <class T>
class boxed {
public:
    boxed() noexcept = default;
    boxed(std::nullopt_t) noexcept {}
    boxed(const T& v) : p_(std::make_unique<T>(v)) {}
    boxed(T&& v) : p_(std::make_unique<T>(std::move(v))) {}
    boxed(const std::optional<T>& v) : p_(v ? std::make_unique<T>(*v) : nullptr) {}
    boxed(std::optional<T>&& v) : p_(v ? std::make_unique<T>(std::move(*v)) : nullptr) {}
    boxed(const boxed& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
    boxed(boxed&&) noexcept = default;
    ~boxed() = default;

    boxed& operator=(const boxed& o) {
        if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
        return *this;
    }
    boxed& operator=(boxed&&) noexcept = default;
    boxed& operator=(std::nullopt_t) noexcept {
        p_.reset();
        return *this;
    }
    boxed& operator=(T v) {
        emplace(std::move(v));
        return *this;
    }
    boxed& operator=(std::optional<T> v) {
        if (v) {
            emplace(std::move(*v));
        } else {
            p_.reset();
        }
        return *this;
    }

    template <class... Args>
    T& emplace(Args&&... args) {
        p_ = std::make_unique<T>(std::forward<Args>(args)...);
        return *p_;
    }
    void reset() noexcept { p_.reset(); }

    [[nodiscard]] bool has_value() const noexcept { return p_ != nullptr; }
    explicit operator bool() const noexcept { return p_ != nullptr; }
    T& operator*() noexcept { return *p_; }
    const T& operator*() const noexcept { return *p_; }
    T* operator->() noexcept { return p_.get(); }
    const T* operator->() const noexcept { return p_.get(); }
    T& value() {
        if (!p_) throw std::bad_optional_access();
        return *p_;
    }
    [[nodiscard]] const T& value() const {
        if (!p_) throw std::bad_optional_access();
        return *p_;
    }

    friend bool operator==(const boxed& b, std::nullopt_t) noexcept { return !b.p_; }

private:
    std::unique_ptr<T> p_;
};

struct parsed_path {
    enum class kind_t : std::uint8_t { local, url };
    kind_t kind = kind_t::local;
    std::string raw;  // decoded text; for URLs it includes the `{key: value}` blocks
    // The fields below are meaningful for kind_t::url only.
    std::string scheme;  // protocol without ':'
    std::optional<std::string> username;
    std::optional<std::string> password;
    std::optional<std::string> hostname;  // empty host is nullopt
    std::optional<std::uint32_t> port;    // default ports vanish
    std::string pathname;
    std::optional<std::string> query;     // nullopt when no '?', "" for a bare '?'
    std::optional<std::string> fragment;  // nullopt when absent or empty
    std::optional<std::vector<std::pair<std::string, std::string>>> headers;  // only when blocks were present
};

// The `<scope>` slot: ordered numeric components (SPEC §7).
struct line_marker {
    std::vector<double> marks;
};

enum class dialect : std::uint8_t { xpath, regex, jsonpath, semantic, graph, glob };

// A FIND/READ/OPEN/FOLD/LOOK/BUFF body, classified by its leading characters (SPEC §6).
struct matcher_body {
    plurnk::dialect dialect = plurnk::dialect::glob;
    std::string raw;
    std::string pattern;  // regex only
    std::string flags;    // regex only
};

// A SEND body: the exact text plus, when it parses as JSON, the value re-serialized the way
// JavaScript's JSON.stringify(JSON.parse(raw)) writes it.
struct send_body {
    std::string raw;
    std::optional<std::string> json;
};

// A COPY/MOVE body: the destination target plus an optional destination scope.
struct resource_selection {
    boxed<parsed_path> target;  // always holds a path
    std::optional<line_marker> marker;
};

// The `[signal]` slot, whose shape depends on the op family.
struct signal {
    enum class kind_t : std::uint8_t { none, tags, number, text };
    kind_t kind = kind_t::none;
    std::vector<std::string> tags;  // kind_t::tags
    double number = 0;              // kind_t::number (SEND, KILL)
    std::string text;               // kind_t::text (EXEC executor, WORK/FORK branch)
};

using body = std::variant<std::monostate, std::string, matcher_body, send_body, resource_selection>;

struct statement {
    plurnk::op op = plurnk::op::PLAN;
    std::string suffix;
    plurnk::signal signal;
    boxed<parsed_path> target;  // optional-like: empty when the statement has no target
    std::optional<line_marker> marker;  // JSON key "lineMarker"
    plurnk::body body;                  // monostate = null
    plurnk::position position;
};

struct text_item {
    std::string text;
    plurnk::position position;
};

using item = std::variant<statement, diagnostic, text_item>;

struct unparsed_tail {
    position from;
    std::string reason;
    // The reason's template: one of the tail_* ids (tail_body_unclosed also when the
    // invented-closer advisory, tail_invented_closer, is appended to it).
    message_id reason_id = message_id::external;
};

struct [[nodiscard]] parse_result {
    std::vector<item> items;
    std::optional<unparsed_tail> tail;

    // True when there is no error item (warnings included, as the reference CLI counts them)
    // and no unparsed tail: the CLI exits 0 exactly then.
    [[nodiscard]] bool clean() const noexcept;
};

// Keyword text of an op ("FIND", ...).
[[nodiscard]] const char* op_name(op o) noexcept;
// The op whose keyword is exactly `word`, if any.
[[nodiscard]] std::optional<op> op_from_name(std::string_view word) noexcept;

}  // namespace plurnk
