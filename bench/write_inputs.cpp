// SPDX-License-Identifier: MIT
// Writes the generated benchmark inputs (body-heavy, statement-dense, the statements-1m turn and
// the 1 MB hostile shapes) as files into a folder, for `plurnk bench` and callgrind.sh.
// usage: bench_write_inputs DIR
#include <cstdio>
#include <fstream>
#include <string>

#include "inputs.hpp"

namespace {
bool write(const std::string& dir, const std::string& name, const std::string& text) {
    std::ofstream f(dir + "/" + name, std::ios::binary);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!f) std::fprintf(stderr, "bench_write_inputs: cannot write %s/%s\n", dir.c_str(), name.c_str());
    return static_cast<bool>(f);
}
}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: bench_write_inputs DIR\n");
        return 2;
    }
    using namespace plurnk::bench;
    const std::string dir = argv[1];
    bool ok = write(dir, "body-heavy-1m.txt", body_heavy(1'000'000));
    ok = write(dir, "statement-dense.txt", statement_dense(6000)) && ok;
    ok = write(dir, "statements-1m-turn.txt",
               "<<PLAN:work through the list:PLAN\n" + data_file("statements-1m.txt") + "<<SEND[200]:done:SEND\n") &&
         ok;
    for (hostile h : k_hostile_all) {
        ok = write(dir, std::string("hostile-") + hostile_name(h) + ".txt", hostile_input(h, 1'000'000)) && ok;
    }
    return ok ? 0 : 1;
}
