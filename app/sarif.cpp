// SPDX-License-Identifier: MIT
// The SARIF 2.1.0 writer (sarif.hpp). The log is built as text with the library's JSON string
// writer: tool.driver with every diagnostic class as a rule, the files as artifacts, then the
// results in file order, each file's items in result order and its unparsed tail last.
#include "sarif.hpp"

#include <string>

#include "plurnk/diagnostic.hpp"
#include "plurnk/json.hpp"
#include "plurnk/version.hpp"

namespace plurnk::cli {

namespace {

void append_string(std::string& out, std::string_view s) { plurnk::append_json_string(out, s); }

// A zero-width region at a parser point (1-based line, 0-based code-point column).
void append_location(std::string& out, std::size_t artifact, const sarif_file& f, plurnk::position p) {
    const std::string line = std::to_string(p.line), column = std::to_string(p.column + 1);
    out += R"([{"physicalLocation":{"artifactLocation":{"uri":)";
    append_string(out, f.uri);
    out += R"(,"index":)" + std::to_string(artifact) + R"(},"region":{"startLine":)" + line +
           R"(,"startColumn":)" + column + R"(,"endLine":)" + line + R"(,"endColumn":)" + column + "}}}]";
}

void append_result(std::string& out, bool& first, plurnk::message_id id, bool error, std::string_view message,
                   std::string_view properties, std::size_t artifact, const sarif_file& f, plurnk::position p) {
    if (!first) out += ',';
    first = false;
    out += R"({"ruleId":)";
    append_string(out, plurnk::message_name(id));
    out += R"(,"ruleIndex":)" + std::to_string(static_cast<std::size_t>(id));
    out += error ? R"(,"level":"error")" : R"(,"level":"warning")";
    out += R"(,"message":{"text":)";
    append_string(out, message);
    out += R"(},"locations":)";
    append_location(out, artifact, f, p);
    out += R"(,"properties":)";
    out += properties;
    out += '}';
}

// A diagnostic's `source` (SPEC §14), kept beside the level as its own fact.
const char* source_properties(plurnk::source s) {
    switch (s) {
        case plurnk::source::lexer: return R"({"source":"lexer"})";
        case plurnk::source::parser: return R"({"source":"parser"})";
        case plurnk::source::visitor: return R"({"source":"visitor"})";
    }
    return R"({"source":"parser"})";
}

}  // namespace

std::string sarif_log(const std::vector<sarif_file>& files) {
    std::string out =
        R"({"$schema":"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",)"
        R"("version":"2.1.0","runs":[{"tool":{"driver":{"name":"plurnk","version":)";
    append_string(out, plurnk::k_version);
    out += R"(,"rules":[)";
    for (std::size_t i = 0; i < plurnk::k_message_count; ++i) {
        const auto id = static_cast<plurnk::message_id>(i);
        if (i > 0) out += ',';
        out += R"({"id":)";
        append_string(out, plurnk::message_name(id));
        out += R"(,"shortDescription":{"text":)";
        append_string(out, plurnk::message_template(id));
        out += "}}";
    }
    out += R"(]}},"columnKind":"unicodeCodePoints","artifacts":[)";
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (i > 0) out += ',';
        out += R"({"location":{"uri":)";
        append_string(out, files[i].uri);
        out += R"(},"length":)" + std::to_string(files[i].text.size()) + "}";
    }
    out += R"(],"results":[)";
    bool first = true;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const sarif_file& f = files[i];
        if (f.result == nullptr) continue;
        for (const plurnk::item& it : f.result->items) {
            const auto* d = std::get_if<plurnk::diagnostic>(&it);
            if (d == nullptr) continue;
            append_result(out, first, d->id, d->severity == plurnk::severity::error, d->message, source_properties(d->source), i,
                          f, d->position);
        }
        if (const auto& tail = f.result->tail) {
            // The tail is a boundary, not a diagnostic (SPEC §unparsed-tail-boundary): its own result.
            append_result(out, first, tail->reason_id, true, tail->reason, R"({"unparsedTail":true})", i, f, tail->from);
        }
    }
    out += "]}]}";
    return out;
}

}  // namespace plurnk::cli
