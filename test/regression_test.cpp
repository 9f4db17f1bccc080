// SPDX-License-Identifier: MIT
// Replays every input under test/regression/ (crash and invariant-failure inputs kept from
// fuzzing, see fuzz/README.md) through every entry point: the four parse tiers, the URL, JSON,
// regex, XPath and JSONPath validators, parse_path / parse_resource_selection and the JSON
// writer, checking the same invariants the fuzz targets assert (fuzz/invariants.hpp).
// The folder is found from PLURNK_REGRESSION_DIR, else beside this source file, else as
// test/regression under the working directory.
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "../fuzz/invariants.hpp"

namespace {

namespace fs = std::filesystem;

fs::path regression_dir() {
    if (const char* env = std::getenv("PLURNK_REGRESSION_DIR")) return env;
    // __FILE__ is absolute or relative to the build directory, meson's working directory for
    // tests; run by hand from the top of the tree, test/regression is the folder.
    const fs::path beside = fs::path(__FILE__).parent_path() / "regression";
    std::error_code ec;
    if (fs::is_directory(beside, ec) || !fs::is_directory("test/regression", ec)) return beside;
    return "test/regression";
}

std::vector<fs::path> regression_files() {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(regression_dir(), ec)) {
        if (e.is_regular_file() && e.path().filename() != "README.md") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("regression inputs keep every invariant on every entry point") {
    const std::vector<fs::path> files = regression_files();
    INFO("regression folder: " << regression_dir().string());
    REQUIRE(!files.empty());
    for (const fs::path& f : files) {
        INFO("input: " << f.filename().string());
        CHECK(plurnk::fuzz::check_all(read_file(f)) == "");
    }
}

TEST_CASE("the JSON writer keeps its invariants on the regression inputs' parses") {
    for (const fs::path& f : regression_files()) {
        const std::string in = read_file(f);
        INFO("input: " << f.filename().string());
        for (plurnk::tier t : {plurnk::tier::parse, plurnk::tier::statements, plurnk::tier::log, plurnk::tier::client}) {
            const plurnk::parse_result r = plurnk::parse(in, t);
            CHECK(plurnk::fuzz::check_result_json(plurnk::to_json(r), plurnk::to_json(r, plurnk::json_options{true}),
                                                  r.clean()) == "");
        }
    }
}
