// Placeholder: replaced by the jsonpath unit's table-driven tests.
#include <catch2/catch_test_macros.hpp>
#include "plurnk/plurnk.hpp"
TEST_CASE("jsonpath placeholder", "[jsonpath][!mayfail]") { FAIL("jsonpath tests not written yet"); }
