// SPDX-License-Identifier: MIT
// plurnk::result, the validators' one result type: a value or a problem, and result<void>.
#include <catch2/catch_test_macros.hpp>

#include <optional>
#include <string>

#include "plurnk/result.hpp"

using plurnk::problem;
using plurnk::result;

TEST_CASE("result: a value", "[result]") {
    result<std::string> r = std::string("x");
    REQUIRE(r.ok());
    CHECK(static_cast<bool>(r));
    CHECK(r.value() == "x");
    r.value() += "y";
    CHECK(std::move(r).value() == "xy");
}

TEST_CASE("result: a problem", "[result]") {
    const result<int> r = problem{3, "bad"};
    REQUIRE_FALSE(r.ok());
    CHECK_FALSE(static_cast<bool>(r));
    CHECK(r.problem() == problem{3, "bad"});
}

TEST_CASE("result: an optional value stays a value", "[result]") {
    const result<std::optional<int>> none = std::optional<int>();
    REQUIRE(none.ok());
    CHECK_FALSE(none.value().has_value());
    const result<std::optional<int>> failed = problem{0, "no"};
    CHECK_FALSE(failed.ok());
}

TEST_CASE("result<void>: a verdict", "[result]") {
    const result<void> ok;
    CHECK(ok.ok());
    const result<void> bad = problem{1, "why"};
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.problem().offset == 1);
    CHECK(bad.problem().message == "why");
    CHECK(bad == result<void>(problem{1, "why"}));
    CHECK_FALSE(bad == ok);
    CHECK(result<int>(2) == result<int>(2));
    CHECK_FALSE(result<int>(2) == result<int>(problem{0, "x"}));
}
