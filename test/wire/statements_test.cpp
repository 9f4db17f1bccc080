// SPDX-License-Identifier: MIT
// The parser's output is a wire contract too: every statement the parser produces for the public
// conformance vectors (test/conformance/parser.jsonl, parsed here with each vector's tier) must be
// a valid PlurnkStatement (LOOK and BUFF, client-tier only: a valid ClientStatement, and never a
// PlurnkStatement), and every statement a valid ClientStatement. The statements are checked as
// the JSON text the library writes, read back with parse_json, as a runtime receives them.
// usage: wire_statements_test VECTORS.jsonl
#include <cstdio>
#include <fstream>
#include <string>
#include <variant>

#include "plurnk/plurnk.hpp"
#include "plurnk/wire.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: wire_statements_test VECTORS.jsonl\n");
        return 2;
    }
    namespace wire = plurnk::wire;
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    std::string line;
    std::size_t vectors = 0, statements = 0, client_only = 0, failures = 0;
    while (std::getline(in, line)) {
        const auto v = plurnk::parse_json(line);
        if (!v) continue;
        const auto* input = v->find("input");
        const auto* tier_name = v->find("tier");
        const auto tier = tier_name != nullptr ? plurnk::tier_from_name(tier_name->string) : std::nullopt;
        if (input == nullptr || !tier) {
            std::fprintf(stderr, "malformed vector line\n");
            return 1;
        }
        ++vectors;
        const auto result = plurnk::parse(input->string, *tier);
        for (const plurnk::item& it : result.items) {
            const auto* stmt = std::get_if<plurnk::statement>(&it);
            if (stmt == nullptr) continue;
            std::string text;
            plurnk::append_json(text, *stmt);
            const auto st = plurnk::parse_json(text);
            const auto* op = st ? st->find("op") : nullptr;
            const bool client_op = op != nullptr && (op->string == "LOOK" || op->string == "BUFF");
            ++statements;
            client_only += client_op;
            const auto p = wire::validate_plurnk_statement(*st);
            const auto c = wire::validate_client_statement(*st);
            if (p.valid == client_op || !c.valid) {
                if (++failures <= 10) {
                    const auto& errs = p.valid == client_op ? p.errors : c.errors;
                    std::printf("FAIL %s: %s\n  %s\n", v->find("id")->string.c_str(), text.c_str(),
                                wire::errors_json(errs).substr(0, 400).c_str());
                }
            }
        }
    }
    std::printf("%zu vectors, %zu statements (%zu LOOK/BUFF), %zu not valid\n", vectors, statements, client_only,
                failures);
    return failures == 0 && statements > 0 ? 0 : 1;
}
