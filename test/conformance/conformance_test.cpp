// SPDX-License-Identifier: MIT
// Runs every conformance vector (test/conformance/parser.jsonl, the reference implementation's
// exact results) through the library and scores two levels per family, as
// tools/conformance-check does:
//   structure  items' kinds and order; statements and text items exactly; error items' line,
//              column, source and severity; unparsedTail present or absent and its `from`
//   exact      the whole result, byte for byte against the reference's JSON.stringify text
// A vector that fails either level must be listed in DIVERGENCES.md (a line "- `ID` ...")
// or the test fails; a listed vector that passes is reported so the list stays honest.
// With --dialect=NAME every vector is parsed in that dialect (service.jsonl: --dialect=service).
// usage: conformance_test VECTORS.jsonl DIVERGENCES.md [--dialect=NAME]
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/plurnk.hpp"

namespace {

using plurnk::json_value;

std::string family(const std::string& id) {
    std::size_t i = 0;
    while (i < id.size() && ((id[i] >= 'A' && id[i] <= 'Z') || (id[i] >= 'a' && id[i] <= 'z'))) ++i;
    std::string fam = id.substr(0, i);
    // validator vectors: "v11-re-00000" -> v/re
    const std::size_t d1 = id.find('-');
    const std::size_t d2 = d1 == std::string::npos ? d1 : id.find('-', d1 + 1);
    if (d2 != std::string::npos) {
        fam += '/';  // appended apart: `"/" + std::string&&` trips g++ 12's -O3 -Wrestrict
        fam += std::string_view(id).substr(d1 + 1, d2 - d1 - 1);
    }
    return fam;
}

// The structural projection of a result (see the file comment).
std::string structure(const json_value& result) {
    std::string out;
    if (const json_value* items = result.find("items")) {
        for (const json_value& it : items->array) {
            const json_value* kind = it.find("kind");
            if (kind != nullptr && kind->string == "error") {
                const json_value* e = it.find("error");
                out += "error(";
                for (const char* k : {"line", "column", "source", "severity"}) {
                    const json_value* f = e != nullptr ? e->find(k) : nullptr;
                    out += f != nullptr ? plurnk::stringify_json(*f) : "?";
                    out += ',';
                }
                out += ")\n";
            } else {
                out += plurnk::stringify_json(it) + "\n";
            }
        }
    }
    if (const json_value* tail = result.find("unparsedTail")) {
        const json_value* from = tail->find("from");
        out += "tail " + (from != nullptr ? plurnk::stringify_json(*from) : std::string("?"));
    }
    return out;
}

std::set<std::string> read_divergences(const char* path) {
    std::set<std::string> ids;
    std::ifstream f(path);
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind("- `", 0) != 0) continue;
        const std::size_t end = line.find('`', 3);
        if (end != std::string::npos) ids.insert(line.substr(3, end - 3));
    }
    return ids;
}

}  // namespace

int main(int argc, char** argv) {
    plurnk::parse_options options;
    const std::string_view dialect_arg = argc == 4 ? std::string_view(argv[3]) : std::string_view();
    if (argc == 4 && dialect_arg.starts_with("--dialect=")) {
        const auto d = plurnk::dialect_from_name(dialect_arg.substr(10));
        if (!d) {
            std::fprintf(stderr, "unknown dialect %s\n", argv[3]);
            return 2;
        }
        options.dialect = *d;
    }
    if (argc != 3 && !(argc == 4 && dialect_arg.starts_with("--dialect="))) {
        std::fprintf(stderr, "usage: conformance_test VECTORS.jsonl DIVERGENCES.md [--dialect=NAME]\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot open %s\n", argv[1]);
        return 2;
    }
    const std::set<std::string> listed = read_divergences(argv[2]);
    struct counts {
        int vectors = 0, structure = 0, exact = 0;
    };
    std::map<std::string, counts> per;
    std::vector<std::string> unlisted_failures, listed_passes;
    std::string line;
    int bad_lines = 0;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        auto v = plurnk::parse_json(line);
        const json_value* id = v ? v->find("id") : nullptr;
        const json_value* tier_name = v ? v->find("tier") : nullptr;
        const json_value* input = v ? v->find("input") : nullptr;
        const json_value* expected = v ? v->find("expected") : nullptr;
        if (id == nullptr || tier_name == nullptr || input == nullptr || expected == nullptr) {
            ++bad_lines;
            continue;
        }
        const auto t = plurnk::tier_from_name(tier_name->string);
        if (!t) {
            ++bad_lines;
            continue;
        }
        counts& c = per[family(id->string)];
        ++c.vectors;
        const std::string actual_text = plurnk::to_json(plurnk::parse(input->string, *t, options));
        const auto actual = plurnk::parse_json(actual_text);
        const bool s_ok = actual && structure(*actual) == structure(*expected);
        const bool e_ok = s_ok && actual_text == plurnk::stringify_json(*expected);
        c.structure += s_ok ? 1 : 0;
        c.exact += e_ok ? 1 : 0;
        const bool is_listed = listed.count(id->string) != 0;
        if (!e_ok && !is_listed) unlisted_failures.push_back(id->string + (s_ok ? " (exact)" : " (structure)"));
        if (e_ok && is_listed) listed_passes.push_back(id->string);
    }
    counts all;
    std::printf("%-12s%9s%11s%9s\n", "family", "vectors", "structure", "exact");
    for (const auto& [fam, c] : per) {
        std::printf("%-12s%9d%11d%9d\n", fam.c_str(), c.vectors, c.structure, c.exact);
        all.vectors += c.vectors;
        all.structure += c.structure;
        all.exact += c.exact;
    }
    std::printf("%-12s%9d%11d%9d\n", "all", all.vectors, all.structure, all.exact);
    for (const auto& id : listed_passes) std::printf("listed in DIVERGENCES.md but passes now: %s\n", id.c_str());
    for (const auto& id : unlisted_failures) std::printf("FAIL (not in DIVERGENCES.md): %s\n", id.c_str());
    if (bad_lines > 0) std::printf("unreadable vector lines: %d\n", bad_lines);
    const bool ok = unlisted_failures.empty() && bad_lines == 0 && all.vectors > 0;
    std::printf("conformance: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
