// SPDX-License-Identifier: MIT
// A program outside plurnk using it as an installed or subproject library: the C++ API, the C
// API and the version macros, which must agree with the run-time version.
#include <plurnk/plurnk.h>
#include <plurnk/plurnk.hpp>

#include <cstdio>
#include <cstring>
#include <string>

static_assert(PLURNK_VERSION_NUMBER == PLURNK_VERSION_MAJOR * 10000 + PLURNK_VERSION_MINOR * 100 + PLURNK_VERSION_PATCH);
static_assert(plurnk::k_version_major == PLURNK_VERSION_MAJOR);

int main(int argc, char** argv) {
    const std::string expected = argc > 1 ? argv[1] : "";
    const std::string macro = std::to_string(PLURNK_VERSION_MAJOR) + "." + std::to_string(PLURNK_VERSION_MINOR) + "." +
                              std::to_string(PLURNK_VERSION_PATCH);
    if (macro != PLURNK_VERSION_STRING || expected != plurnk_version() || expected != plurnk::k_version) {
        std::printf("version mismatch: macros %s (%s), plurnk_version() %s, expected %s\n", macro.c_str(),
                    PLURNK_VERSION_STRING, plurnk_version(), expected.c_str());
        return 1;
    }
    const plurnk::parse_result r = plurnk::parse_statements("<<READ(a.md)::READ");
    const std::string json = plurnk::to_json(r);
    if (!r.clean() || json.find("\"op\":\"READ\"") == std::string::npos) {
        std::printf("unexpected parse: %s\n", json.c_str());
        return 1;
    }
    if (std::strcmp(plurnk::build_commit(), plurnk_build_commit()) != 0) {
        std::printf("commit mismatch: %s, C %s\n", plurnk::build_commit(), plurnk_build_commit());
        return 1;
    }
    std::printf("plurnk %s (commit %s): %s\n", plurnk_version(), plurnk::build_commit(), json.c_str());
    return 0;
}
