// SPDX-License-Identifier: MIT
// The service dialect's schemas (schema/service/, doc/dialects.md) against the service vectors
// (test/conformance/service.jsonl): every statement a vector expects is a valid service
// ClientStatement, and a valid service PlurnkStatement unless it is a LOOK or BUFF. A statement
// holding one of the three shapes only the service dialect yields (a regex path, an OPEN or FOLD
// lineMarker, a FORK with a null body) is not valid against the 1.4.0 schemas; every other
// statement is, so the variant differs from 1.4.0 in exactly those places. Then each such shape is
// broken (mutants) and must be refused, with an error at the broken place.
// usage: wire_service_statements_test SERVICE.jsonl
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "plurnk/json.hpp"
#include "plurnk/wire.hpp"

namespace {

namespace wire = plurnk::wire;
using plurnk::json_value;
using plurnk::parse_dialect;
using kind_t = json_value::kind_t;

json_value* member(json_value& v, std::string_view key) { return const_cast<json_value*>(v.find(key)); }

bool is_regex_path(const json_value* p) {
    const json_value* kind = p != nullptr ? p->find("kind") : nullptr;
    return kind != nullptr && kind->string == "regex";
}

// The statement's regex path: its target, or its COPY/MOVE destination's; nullptr without one.
json_value* regex_path(json_value& stmt) {
    if (json_value* t = member(stmt, "target"); is_regex_path(t)) return t;
    json_value* body = member(stmt, "body");
    json_value* dest = body != nullptr ? member(*body, "target") : nullptr;
    return is_regex_path(dest) ? dest : nullptr;
}

std::string op_of(const json_value& stmt) {
    const json_value* op = stmt.find("op");
    return op != nullptr ? op->string : std::string();
}

bool open_scope(const json_value& stmt) {
    const std::string op = op_of(stmt);
    const json_value* lm = stmt.find("lineMarker");
    return (op == "OPEN" || op == "FOLD") && lm != nullptr && lm->kind != kind_t::null;
}

bool fork_without_prompt(const json_value& stmt) {
    const json_value* body = stmt.find("body");
    return op_of(stmt) == "FORK" && body != nullptr && body->kind == kind_t::null;
}

json_value string_value(std::string s) {
    json_value v;
    v.kind = kind_t::string;
    v.string = std::move(s);
    return v;
}

int failures = 0;

void fail(const std::string& id, const std::string& what, const json_value& stmt) {
    if (++failures <= 20) std::printf("FAIL %s: %s\n  %s\n", id.c_str(), what.c_str(), plurnk::stringify_json(stmt).c_str());
}

// A mutant of stmt must be refused by the service ClientStatement, with an error whose instance
// location starts with `where` (the broken place).
void expect_refused(const std::string& id, const std::string& what, const json_value& mutant, const std::string& where) {
    const auto r = wire::validate(wire::contract::client_statement, mutant, parse_dialect::service);
    bool located = false;
    for (const auto& e : r.errors) located = located || e.instance_location.rfind(where, 0) == 0;
    if (r.valid || !located) fail(id, "mutant (" + what + ") not refused at " + where + ": " + wire::errors_json(r.errors).substr(0, 300), mutant);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: wire_service_statements_test SERVICE.jsonl\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    std::string line;
    std::size_t vectors = 0, statements = 0, regex = 0, scoped = 0, forks = 0, mutants = 0;
    while (std::getline(in, line)) {
        auto v = plurnk::parse_json(line);
        const json_value* items = v ? v->find("expected") : nullptr;
        items = items != nullptr ? items->find("items") : nullptr;
        if (items == nullptr || v->find("id") == nullptr) {
            std::fprintf(stderr, "malformed vector line\n");
            return 1;
        }
        const std::string id = v->find("id")->string;
        ++vectors;
        for (const json_value& item : items->array) {
            const json_value* s = item.find("statement");
            if (s == nullptr) continue;
            json_value stmt = *s;
            ++statements;
            const std::string op = op_of(stmt);
            const bool client_op = op == "LOOK" || op == "BUFF";
            const auto p = wire::validate(wire::contract::plurnk_statement, stmt, parse_dialect::service);
            const auto c = wire::validate(wire::contract::client_statement, stmt, parse_dialect::service);
            if (p.valid == client_op || !c.valid) {
                fail(id, "not valid against the service schemas: " + wire::errors_json(c.errors).substr(0, 300), stmt);
            }
            json_value* path = regex_path(stmt);
            const bool service_only = path != nullptr || open_scope(stmt) || fork_without_prompt(stmt);
            const bool valid_1_4 = wire::validate(wire::contract::client_statement, stmt).valid;
            if (valid_1_4 == service_only) {
                fail(id, service_only ? "a service-only shape valid against the 1.4.0 schemas"
                                      : "not valid against the 1.4.0 schemas, with no service-only shape", stmt);
            }
            if (path != nullptr) {
                ++regex;
                const bool target = is_regex_path(stmt.find("target"));
                const std::string where = target ? "#/target" : "#/body/target";
                if (!wire::validate(wire::contract::parsed_path, *path, parse_dialect::service).valid ||
                    wire::validate(wire::contract::parsed_path, *path).valid) {
                    fail(id, "the regex path is not a service ParsedPath only", stmt);
                }
                const json_value keep = *path;
                const std::vector<std::pair<std::string, std::function<void(json_value&)>>> breaks = {
                    {"no flags", [](json_value& x) { std::erase_if(x.object, [](const auto& m) { return m.first == "flags"; }); }},
                    {"an extra key", [](json_value& x) { x.object.emplace_back("query", json_value{}); }},
                    {"a 1-character raw", [](json_value& x) { *member(x, "raw") = string_value("#"); }},
                    {"a number pattern", [](json_value& x) { member(x, "pattern")->kind = kind_t::number; }},
                };
                for (const auto& [what, mutate] : breaks) {
                    mutate(*path);
                    expect_refused(id, what, stmt, where);
                    ++mutants;
                    *path = keep;
                }
            }
            if (open_scope(stmt)) {
                ++scoped;
                json_value* lm = member(stmt, "lineMarker");
                const json_value keep = *lm;
                *lm = string_value("1,10");
                expect_refused(id, "a string lineMarker", stmt, "#/lineMarker");
                ++mutants;
                *lm = keep;
            }
            if (fork_without_prompt(stmt)) {
                ++forks;
                *member(stmt, "body") = string_value("");
                expect_refused(id, "an empty prompt", stmt, "#/body");
                ++mutants;
            }
        }
    }
    std::printf("%zu vectors, %zu statements (%zu with a regex path, %zu OPEN/FOLD scopes, %zu FORKs without a "
                "prompt: none valid in 1.4.0), %zu mutants refused, %d failures\n",
                vectors, statements, regex, scoped, forks, mutants - static_cast<std::size_t>(failures), failures);
    return failures == 0 && regex > 0 && scoped > 0 && forks > 0 ? 0 : 1;
}
