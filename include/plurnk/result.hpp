// SPDX-License-Identifier: MIT
// The one result type of the validators and checkers (validate.hpp, path.hpp, rail.hpp): a value
// or the problem that stopped it, never both. Bad input is an answer, never an exception.
#pragma once

#include "plurnk/requires_cxx20.hpp"  // one clear error unless compiled as C++20

#include <cassert>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace plurnk {

// Why an input was refused: where (a byte offset into the function's own input; 0 when the
// problem is the input as a whole) and what, in the wording of the engine the function reproduces.
struct problem {
    std::size_t offset = 0;
    std::string message;
    friend bool operator==(const problem&, const problem&) = default;
};

// A T, or a problem. value() requires ok(), problem() requires !ok().
template <class T>
class [[nodiscard]] result {
public:
    result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    result(plurnk::problem p) : state_(std::in_place_index<1>, std::move(p)) {}

    [[nodiscard]] bool ok() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }

    [[nodiscard]] const T& value() const& noexcept { return *get<0>(); }
    [[nodiscard]] T& value() & noexcept { return *get<0>(); }
    [[nodiscard]] T&& value() && noexcept { return std::move(*get<0>()); }
    [[nodiscard]] const plurnk::problem& problem() const& noexcept { return *get<1>(); }
    [[nodiscard]] plurnk::problem&& problem() && noexcept { return std::move(*get<1>()); }

    friend bool operator==(const result&, const result&) = default;

private:
    template <std::size_t I>
    auto* get() const noexcept {
        assert(state_.index() == I);
        return std::get_if<I>(&state_);
    }
    template <std::size_t I>
    auto* get() noexcept {
        assert(state_.index() == I);
        return std::get_if<I>(&state_);
    }
    std::variant<T, plurnk::problem> state_;
};

// A verdict: ok (default-constructed), or a problem.
template <>
class [[nodiscard]] result<void> {
public:
    result() = default;
    result(plurnk::problem p) : problem_(std::move(p)) {}

    [[nodiscard]] bool ok() const noexcept { return !problem_.has_value(); }
    explicit operator bool() const noexcept { return ok(); }

    [[nodiscard]] const plurnk::problem& problem() const& noexcept {
        assert(problem_.has_value());
        return *problem_;
    }
    [[nodiscard]] plurnk::problem&& problem() && noexcept {
        assert(problem_.has_value());
        return std::move(*problem_);
    }

    friend bool operator==(const result&, const result&) = default;

private:
    std::optional<plurnk::problem> problem_;
};

}  // namespace plurnk
