// SPDX-License-Identifier: MIT
// The suite's scorer for the wire vectors, as ../shared/tools/wire-check scores them:
//   wire_score --requests VECTORS.jsonl      prints the requests (each vector without "expected")
//   wire_score VECTORS.jsonl REPLIES.jsonl   scores the replies of `plurnk validate --batch`
// A vector passes when every member of its "expected" equals the reply's by JSON equality (key
// order ignored, 1 == 1.0, true != 1). Prints per-contract counts and the failing ids; exits 1
// unless every vector passes (and when a file cannot be read).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "plurnk/json.hpp"

namespace {

using plurnk::json_value;
using kind_t = json_value::kind_t;

// JSON equality as wire-check has it; written here rather than taken from plurnk_wire (whose
// js_equal is the same relation) so the scorer does not depend on the library it scores.
bool same(const json_value& a, const json_value& b) {
    if (a.kind != b.kind) return false;
    switch (a.kind) {
        case kind_t::null: return true;
        case kind_t::boolean: return a.boolean == b.boolean;
        case kind_t::number: return a.number == b.number;
        case kind_t::string: return a.string == b.string;
        case kind_t::array:
            if (a.array.size() != b.array.size()) return false;
            for (std::size_t i = 0; i < a.array.size(); ++i) {
                if (!same(a.array[i], b.array[i])) return false;
            }
            return true;
        case kind_t::object:
            if (a.object.size() != b.object.size()) return false;
            for (const auto& [k, v] : a.object) {
                const json_value* w = b.find(k);
                if (w == nullptr || !same(v, *w)) return false;
            }
            return true;
    }
    return false;
}

bool read_lines(const char* path, std::vector<json_value>& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "wire_score: cannot read %s\n", path);
        return false;
    }
    std::string line;
    while (std::getline(in, line)) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        auto v = plurnk::parse_json(line);
        if (!v) {
            std::fprintf(stderr, "wire_score: %s: a line is not JSON\n", path);
            return false;
        }
        out.push_back(std::move(*v));
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--requests") {
        std::vector<json_value> vectors;
        if (!read_lines(argv[2], vectors)) return 1;
        std::string out;
        for (json_value& v : vectors) {
            std::erase_if(v.object, [](const auto& m) { return m.first == "expected"; });
            plurnk::append_json_value(out, v);
            out += '\n';
        }
        std::fwrite(out.data(), 1, out.size(), stdout);
        return 0;
    }
    if (argc != 3) {
        std::fprintf(stderr, "usage: wire_score --requests VECTORS | wire_score VECTORS REPLIES\n");
        return 2;
    }
    std::vector<json_value> vectors, replies;
    if (!read_lines(argv[1], vectors) || !read_lines(argv[2], replies)) return 1;
    std::map<std::string, const json_value*> by_id;
    for (const json_value& r : replies) {
        if (const json_value* id = r.find("id"); id != nullptr && id->kind == kind_t::string) by_id[id->string] = &r;
    }
    std::vector<std::pair<std::string, std::pair<int, int>>> per;  // contract -> passed, total
    std::vector<std::string> failed;
    for (const json_value& v : vectors) {
        const std::string& id = v.find("id")->string;
        const std::string& contract = v.find("contract")->string;
        auto it = by_id.find(id);
        bool good = it != by_id.end();
        for (const auto& [k, e] : v.find("expected")->object) {
            const json_value* got = good ? it->second->find(k) : nullptr;
            good = good && got != nullptr && same(*got, e);
        }
        auto slot = std::find_if(per.begin(), per.end(), [&](const auto& p) { return p.first == contract; });
        if (slot == per.end()) slot = per.insert(per.end(), {contract, {0, 0}});
        slot->second.first += good;
        slot->second.second += 1;
        if (!good) failed.push_back(id);
    }
    int passed = 0, total = 0;
    for (const auto& [c, n] : per) {
        std::printf("%-28s %6d/%-6d\n", c.c_str(), n.first, n.second);
        passed += n.first;
        total += n.second;
    }
    for (const std::string& id : failed) std::printf("  FAIL %s\n", id.c_str());
    std::printf("wire: %d/%d\n", passed, total);
    return passed == total && total > 0 ? 0 : 1;
}
