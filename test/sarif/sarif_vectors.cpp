// SPDX-License-Identifier: MIT
// For the SARIF test (sarif_test.py): reads conformance vectors (JSON Lines) and prints, for
// every vector whose result has a diagnostic or an unparsed tail, one line
// {"id","diagnostics":N,"log":SARIF} with the log app/sarif.cpp writes for that input alone.
// Usage: sarif_vectors VECTORS.jsonl
#include <cstdio>
#include <fstream>
#include <string>
#include <variant>

#include "plurnk/plurnk.hpp"
#include "sarif.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: sarif_vectors VECTORS.jsonl\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "sarif_vectors: cannot read %s\n", argv[1]);
        return 2;
    }
    std::string line, out;
    while (std::getline(in, line)) {
        const auto v = plurnk::parse_json(line);
        const plurnk::json_value* id = v ? v->find("id") : nullptr;
        const plurnk::json_value* tier = v ? v->find("tier") : nullptr;
        const plurnk::json_value* input = v ? v->find("input") : nullptr;
        const auto t = tier ? plurnk::tier_from_name(tier->string) : std::nullopt;
        if (id == nullptr || input == nullptr || !t) {
            std::fprintf(stderr, "sarif_vectors: not a vector: %s\n", line.c_str());
            return 2;
        }
        const plurnk::parse_result r = plurnk::parse(input->string, *t);
        std::size_t diagnostics = r.tail ? 1 : 0;
        for (const plurnk::item& it : r.items) diagnostics += std::holds_alternative<plurnk::diagnostic>(it) ? 1 : 0;
        if (diagnostics == 0) continue;
        out = "{\"id\":";
        plurnk::append_json_string(out, id->string);
        out += ",\"diagnostics\":" + std::to_string(diagnostics) + ",\"result\":";
        plurnk::append_json(out, r);
        out += ",\"log\":";
        out += plurnk::cli::sarif_log({plurnk::cli::sarif_file{"vectors/" + id->string + ".plurnk", input->string, &r}});
        out += "}\n";
        std::fwrite(out.data(), 1, out.size(), stdout);
    }
    return 0;
}
