// SPDX-License-Identifier: MIT
// The SARIF 2.1.0 writer (sarif.hpp). The log is written as text with the library's JSON string
// writer: tool.driver with every diagnostic class as a rule, the results in file order (each
// file's items in result order and its unparsed tail last), then the files as artifacts.
#include "sarif.hpp"

#include <charconv>
#include <cstdio>
#include <string>
#include <utility>

#include "plurnk/diagnostic.hpp"
#include "plurnk/json.hpp"
#include "plurnk/version.hpp"

namespace plurnk::cli {

namespace {

void append_string(std::string& out, std::string_view s) { plurnk::append_json_string(out, s); }

void append_number(std::string& out, std::size_t n) {
    char buf[24];
    out.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
}

// What every result of a file shares: the start of its location, up to the region.
std::string location_prefix(std::size_t artifact, const sarif_file& f) {
    std::string out = R"([{"physicalLocation":{"artifactLocation":{"uri":)";
    append_string(out, f.uri);
    out += R"(,"index":)";
    append_number(out, artifact);
    out += R"(},"region":{"startLine":)";
    return out;
}

// One result: the rule, the level, the message, a zero-width region at a parser point (1-based
// line, 0-based code-point column) after the file's location prefix, and the properties.
void append_result(std::string& out, bool& first, plurnk::message_id id, bool error, std::string_view message,
                   std::string_view properties, std::string_view location, plurnk::position p) {
    if (!first) out += ',';
    first = false;
    out += R"({"ruleId":)";
    append_string(out, plurnk::message_name(id));
    out += R"(,"ruleIndex":)";
    append_number(out, static_cast<std::size_t>(id));
    out += error ? R"(,"level":"error")" : R"(,"level":"warning")";
    out += R"(,"message":{"text":)";
    append_string(out, message);
    out += R"(},"locations":)";
    out += location;
    char line[24], column[24];
    const std::string_view l(line, static_cast<std::size_t>(std::to_chars(line, line + sizeof line, p.line).ptr - line));
    const std::string_view c(column, static_cast<std::size_t>(std::to_chars(column, column + sizeof column,
                                                                            std::size_t{p.column} + 1).ptr - column));
    out += l;
    out += R"(,"startColumn":)";
    out += c;
    out += R"(,"endLine":)";
    out += l;
    out += R"(,"endColumn":)";
    out += c;
    out += R"(}}}],"properties":)";
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

constexpr std::size_t k_piece = 64 << 10;  // bytes handed to the sink at a time

}  // namespace

sarif_writer::sarif_writer(sink out) : out_(std::move(out)) {
    buf_ = R"({"$schema":"https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",)"
           R"("version":"2.1.0","runs":[{"tool":{"driver":{"name":"plurnk","version":)";
    append_string(buf_, plurnk::k_version);
    buf_ += R"(,"rules":[)";
    for (std::size_t i = 0; i < plurnk::k_message_count; ++i) {
        const auto id = static_cast<plurnk::message_id>(i);
        if (i > 0) buf_ += ',';
        buf_ += R"({"id":)";
        append_string(buf_, plurnk::message_name(id));
        buf_ += R"(,"shortDescription":{"text":)";
        append_string(buf_, plurnk::message_template(id));
        buf_ += "}}";
    }
    buf_ += R"(]}},"columnKind":"unicodeCodePoints","results":[)";
}

sarif_writer::~sarif_writer() {
    if (spool_ != nullptr) std::fclose(spool_);
}

bool sarif_writer::flush(bool all) {
    if (ok_ && !buf_.empty() && (all || buf_.size() >= k_piece)) ok_ = out_(buf_);
    if (all || buf_.size() >= k_piece) buf_.clear();
    return ok_;
}

// The file's artifact record, kept for finish(): in memory up to a piece, then in a temporary
// file (in memory still when none can be made).
bool sarif_writer::spool_artifact(const sarif_file& f) {
    if (files_ > 0) artifacts_ += ',';
    artifacts_ += R"({"location":{"uri":)";
    append_string(artifacts_, f.uri);
    artifacts_ += R"(},"length":)" + std::to_string(f.text.size()) + "}";
    if (artifacts_.size() < k_piece) return true;
    if (spool_ == nullptr) spool_ = std::tmpfile();
    if (spool_ == nullptr) return true;
    const bool written = std::fwrite(artifacts_.data(), 1, artifacts_.size(), spool_) == artifacts_.size();
    artifacts_.clear();
    return written;
}

bool sarif_writer::add(const sarif_file& f) {
    if (!ok_) return false;
    const std::size_t index = files_;
    if (f.result != nullptr) {
        const std::string location = location_prefix(index, f);
        for (const plurnk::item& it : f.result->items) {
            const auto* d = std::get_if<plurnk::diagnostic>(&it);
            if (d == nullptr) continue;
            append_result(buf_, first_result_, d->id, d->severity == plurnk::severity::error, d->message,
                          source_properties(d->source), location, d->position);
            if (!flush(false)) return false;
        }
        if (const auto& tail = f.result->tail) {
            // The tail is a boundary, not a diagnostic (SPEC §unparsed-tail-boundary): its own result.
            append_result(buf_, first_result_, tail->reason_id, true, tail->reason, R"({"unparsedTail":true})", location,
                          tail->from);
        }
    }
    if (!spool_artifact(f)) ok_ = false;
    ++files_;
    return flush(false);
}

bool sarif_writer::finish() {
    buf_ += R"(],"artifacts":[)";
    if (spool_ != nullptr) {
        if (!flush(true)) return false;
        if (std::fflush(spool_) != 0 || std::fseek(spool_, 0, SEEK_SET) != 0) return ok_ = false;
        buf_.resize(k_piece);
        for (std::size_t n; (n = std::fread(buf_.data(), 1, k_piece, spool_)) > 0;) {
            buf_.resize(n);
            if (!flush(true)) return false;
            buf_.resize(k_piece);
        }
        buf_.clear();
        if (std::ferror(spool_)) return ok_ = false;
    }
    buf_ += artifacts_;
    buf_ += "]}]}";
    return flush(true);
}

std::string sarif_log(const std::vector<sarif_file>& files) {
    std::string log;
    sarif_writer w([&log](std::string_view piece) {
        log += piece;
        return true;
    });
    for (const sarif_file& f : files) static_cast<void>(w.add(f));
    static_cast<void>(w.finish());
    return log;
}

}  // namespace plurnk::cli
