// SPDX-License-Identifier: MIT
// The C API's one-shot parse, result handles, item views, statement accessors and the canonical
// producer (plurnk.h). Items render their JSON lazily, per item, cut out of the writer's output.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "c_api.hpp"
#include "plurnk/format.hpp"
#include "plurnk/json.hpp"

namespace plurnk::capi {

c_item::c_item(const plurnk::item& v, plurnk::parse_dialect d) : dialect(d) {
    own.push_back(v);
    value = own[0];
    json = render_item(value);
    if (auto* st = std::get_if<plurnk::statement>(&value)) {
        auto* sel = std::get_if<plurnk::resource_selection>(&st->body);
        plurnk::parsed_path* paths[2] = {st->target ? &*st->target : nullptr, sel != nullptr ? &sel->target : nullptr};
        if ((paths[0] && paths[0]->kind == plurnk::parsed_path::kind_t::regex) ||
            (paths[1] && paths[1]->kind == plurnk::parsed_path::kind_t::regex)) {
            auto copies = std::make_shared<std::array<std::string, 2>>();
            for (int i = 0; i < 2; ++i) {
                if (paths[i] != nullptr && paths[i]->kind == plurnk::parsed_path::kind_t::regex) {
                    (*copies)[i] = std::string(paths[i]->pattern);
                    paths[i]->pattern = (*copies)[i];
                }
            }
            regex_patterns = std::move(copies);
        }
    }
}

item_json render_item(const plurnk::item& it) {
    item_json out;
    plurnk::append_json(out.item, it);
    if (const auto* s = std::get_if<plurnk::statement>(&it)) plurnk::append_json(out.statement, *s);
    return out;
}

void fill_item(const c_item& c, plurnk_item* out) noexcept {
    const plurnk::item& it = c.value;
    const item_json& js = c.json;
    static const std::string k_empty;
    *out = plurnk_item{};
    out->struct_size = sizeof(plurnk_item);
    out->statement = nullptr;
    out->source = -1;
    out->severity = -1;
    out->op = out->suffix = out->message = out->text = view(k_empty);
    out->json = view(js.item);
    out->statement_json = view(js.statement);
    if (const auto* s = std::get_if<plurnk::statement>(&it)) {
        out->kind = PLURNK_ITEM_STATEMENT;
        out->line = s->position.line;
        out->column = s->position.column;
        out->op = view(plurnk::op_name(s->op));
        out->suffix = view(s->suffix);
        out->statement = reinterpret_cast<const plurnk_statement*>(&c);
    } else if (const auto* d = std::get_if<plurnk::diagnostic>(&it)) {
        out->kind = PLURNK_ITEM_ERROR;
        out->line = d->position.line;
        out->column = d->position.column;
        out->source = d->source == plurnk::source::lexer    ? PLURNK_SOURCE_LEXER
                      : d->source == plurnk::source::parser ? PLURNK_SOURCE_PARSER
                                                            : PLURNK_SOURCE_VISITOR;
        out->severity = d->severity == plurnk::severity::error ? PLURNK_SEVERITY_ERROR : PLURNK_SEVERITY_WARNING;
        out->message = view(d->message);
    } else if (const auto* t = std::get_if<plurnk::text_item>(&it)) {
        out->kind = PLURNK_ITEM_TEXT;
        out->line = t->position.line;
        out->column = t->position.column;
        out->text = view(t->text);
    }
    const plurnk::byte_span sp = std::visit([](const auto& x) { return x.span; }, it);
    out->span_begin = sp.begin;
    out->span_end = sp.end;
}

namespace {

// `text` as a library-allocated string in *out (and its length in *out_len, when asked).
void hand_out(const std::string& text, char** out, std::size_t* out_len) {
    char* buf = new char[text.size() + 1];
    text.copy(buf, text.size());
    buf[text.size()] = '\0';
    *out = buf;
    if (out_len != nullptr) *out_len = text.size();
}

const c_item* result_item(const plurnk_result* r, std::size_t index) {
    if (r->items.size() != r->result.items.size()) r->items.resize(r->result.items.size());
    auto& slot = r->items[index];
    if (!slot) slot.emplace(r->result.items[index], r->result.dialect);
    return &*slot;
}

// ---- Statements ----

static_assert(PLURNK_DIALECT_XPATH == static_cast<int>(plurnk::dialect::xpath) &&
                  PLURNK_DIALECT_REGEX == static_cast<int>(plurnk::dialect::regex) &&
                  PLURNK_DIALECT_JSONPATH == static_cast<int>(plurnk::dialect::jsonpath) &&
                  PLURNK_DIALECT_SEMANTIC == static_cast<int>(plurnk::dialect::semantic) &&
                  PLURNK_DIALECT_GRAPH == static_cast<int>(plurnk::dialect::graph) &&
                  PLURNK_DIALECT_GLOB == static_cast<int>(plurnk::dialect::glob),
              "plurnk_dialect follows plurnk::dialect");


plurnk_str empty_str() noexcept { return view(""); }

plurnk_str view_opt(const std::optional<std::string_view>& s) noexcept { return s ? view(*s) : empty_str(); }

// The target and the scope of `part`, or a failure (an unknown part).
struct part_view {
    const plurnk::parsed_path* target = nullptr;
    const plurnk::line_marker* marker = nullptr;
};

plurnk_status part_of(const plurnk::statement& s, int part, const char* fn, part_view& out) noexcept {
    if (part == PLURNK_PART_HEADER) {
        out.target = s.target ? &*s.target : nullptr;
        out.marker = s.marker ? &*s.marker : nullptr;
        return PLURNK_OK;
    }
    if (part == PLURNK_PART_DESTINATION) {
        if (const auto* sel = std::get_if<plurnk::resource_selection>(&s.body)) {
            out.target = &sel->target;
            out.marker = sel->marker ? &*sel->marker : nullptr;
        }
        return PLURNK_OK;
    }
    try {
        return fail(PLURNK_ERR_INVALID_ARGUMENT, nullptr, fn,
                    "part is " + std::to_string(part) +
                        ", not a plurnk_part (PLURNK_PART_HEADER 0 or PLURNK_PART_DESTINATION 1)");
    } catch (...) {
        return PLURNK_ERR_INVALID_ARGUMENT;
    }
}

}  // namespace
}  // namespace plurnk::capi

using namespace plurnk::capi;

extern "C" {

PLURNK_API plurnk_status plurnk_parse(const char* input, size_t len, plurnk_tier tier, plurnk_result** out) {
    static constexpr const char* fn = "plurnk_parse";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (const plurnk_status st = check_input(nullptr, fn, "input", input, len, tier); st != PLURNK_OK) return st;
    try {
        auto r = std::make_unique<plurnk_result>();
        r->result = plurnk::parse(std::string_view(input == nullptr ? "" : input, len), to_tier(tier));
        *out = r.release();
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

PLURNK_API plurnk_status plurnk_parse_ex(const char* input, size_t len, plurnk_tier tier,
                                         const plurnk_stream_options* options, plurnk_result** out) {
    static constexpr const char* fn = "plurnk_parse_ex";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (const plurnk_status st = check_input(nullptr, fn, "input", input, len, tier); st != PLURNK_OK) return st;
    plurnk::parse_options po;
    std::size_t release = 0, max_open = 0;
    if (const plurnk_status st = read_options(options, po, release, max_open, fn); st != PLURNK_OK) return st;
    if (options != nullptr && (options->release_threshold != 0 || max_open != 0)) {
        return fail(PLURNK_ERR_INVALID_ARGUMENT, nullptr, fn,
                    "options->release_threshold and options->max_open_bytes are for streams; leave them 0 here");
    }
    try {
        auto r = std::make_unique<plurnk_result>();
        r->result = plurnk::parse(std::string_view(input == nullptr ? "" : input, len), to_tier(tier), po);
        *out = r.release();
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

PLURNK_API plurnk_status plurnk_parse_to_json(const char* input, size_t len, plurnk_tier tier, unsigned flags,
                                              char** out_json, size_t* out_len) {
    static constexpr const char* fn = "plurnk_parse_to_json";
    if (out_json == nullptr) return null_argument(nullptr, fn, "out_json");
    *out_json = nullptr;
    if (out_len != nullptr) *out_len = 0;
    if (const plurnk_status st = check_input(nullptr, fn, "input", input, len, tier); st != PLURNK_OK) return st;
    try {
        const plurnk::parse_result r =
            plurnk::parse(std::string_view(input == nullptr ? "" : input, len), to_tier(tier));
        hand_out(plurnk::to_json(r, {.pretty = (flags & PLURNK_JSON_PRETTY) != 0}), out_json, out_len);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

PLURNK_API void plurnk_result_free(plurnk_result* result) { delete result; }

PLURNK_API plurnk_status plurnk_result_json(const plurnk_result* result, unsigned flags, plurnk_str* out) {
    static constexpr const char* fn = "plurnk_result_json";
    if (result == nullptr) return null_argument(nullptr, fn, "result");
    if (out == nullptr) return null_argument(&result->last_error, fn, "out");
    try {
        const bool pretty = (flags & PLURNK_JSON_PRETTY) != 0;
        auto& slot = result->json[pretty ? 1 : 0];
        if (!slot) slot = plurnk::to_json(result->result, {.pretty = pretty});
        *out = view(*slot);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(&result->last_error, fn);
    }
}

PLURNK_API size_t plurnk_result_item_count(const plurnk_result* result) {
    return result == nullptr ? 0 : result->result.items.size();
}

PLURNK_API plurnk_status plurnk_result_item(const plurnk_result* result, size_t index, plurnk_item* out) {
    static constexpr const char* fn = "plurnk_result_item";
    if (result == nullptr) return null_argument(nullptr, fn, "result");
    std::string* const slot = &result->last_error;
    if (const plurnk_status st = check_out(out, k_item_v1, slot, fn, "out", "plurnk_item"); st != PLURNK_OK) return st;
    try {
        if (index >= result->result.items.size()) {
            return out_of_range(slot, fn, index, result->result.items.size(), "the result has", "items");
        }
        const c_item* c = result_item(result, index);
        plurnk_item full;
        fill_item(*c, &full);
        deliver(out, full);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(slot, fn);
    }
}

PLURNK_API int plurnk_result_clean(const plurnk_result* result) {
    return result != nullptr && result->result.clean() ? 1 : 0;
}

PLURNK_API int plurnk_result_tail(const plurnk_result* result, uint32_t* line, uint32_t* column, plurnk_str* reason) {
    if (result == nullptr || !result->result.tail) return 0;
    const plurnk::unparsed_tail& t = *result->result.tail;
    if (line != nullptr) *line = t.from.line;
    if (column != nullptr) *column = t.from.column;
    if (reason != nullptr) *reason = view(t.reason);
    return 1;
}

PLURNK_API int plurnk_result_tail_span(const plurnk_result* result, size_t* begin, size_t* end) {
    if (result == nullptr || !result->result.tail) return 0;
    if (begin != nullptr) *begin = result->result.tail->span.begin;
    if (end != nullptr) *end = result->result.tail->span.end;
    return 1;
}

PLURNK_API plurnk_status plurnk_statement_signal(const plurnk_statement* statement, plurnk_signal* out) {
    static constexpr const char* fn = "plurnk_statement_signal";
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    if (const plurnk_status st = check_out(out, k_signal_v1, nullptr, fn, "out", "plurnk_signal"); st != PLURNK_OK) {
        return st;
    }
    const plurnk::signal& sig = typed(statement)->signal;
    plurnk_signal full{};
    full.text = empty_str();
    switch (sig.kind) {
        case plurnk::signal::kind_t::none: full.kind = PLURNK_SIGNAL_NONE; break;
        case plurnk::signal::kind_t::tags:
            full.kind = PLURNK_SIGNAL_TAGS;
            full.tag_count = sig.tags.size();
            break;
        case plurnk::signal::kind_t::number:
            full.kind = PLURNK_SIGNAL_NUMBER;
            full.number = sig.number;
            break;
        case plurnk::signal::kind_t::text:
            full.kind = PLURNK_SIGNAL_TEXT;
            full.text = view(sig.text);
            break;
    }
    deliver(out, full);
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_statement_tag(const plurnk_statement* statement, size_t index, plurnk_str* out) {
    static constexpr const char* fn = "plurnk_statement_tag";
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    const plurnk::signal& sig = typed(statement)->signal;
    const std::size_t n = sig.kind == plurnk::signal::kind_t::tags ? sig.tags.size() : 0;
    if (index >= n) return out_of_range(nullptr, fn, index, n, "the signal has", "tags");
    *out = view(sig.tags[index]);
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_statement_target(const plurnk_statement* statement, plurnk_part part,
                                                 plurnk_target* out) {
    static constexpr const char* fn = "plurnk_statement_target";
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    if (const plurnk_status st = check_out(out, k_target_v1, nullptr, fn, "out", "plurnk_target"); st != PLURNK_OK) {
        return st;
    }
    part_view pv;
    if (const plurnk_status st = part_of(*typed(statement), part, fn, pv); st != PLURNK_OK) return st;
    if (pv.target == nullptr) return PLURNK_NOT_PRESENT;
    const plurnk::parsed_path& t = *pv.target;
    plurnk_target full{};
    const bool url = t.kind == plurnk::parsed_path::kind_t::url;
    full.kind = url ? PLURNK_TARGET_URL
                    : (t.kind == plurnk::parsed_path::kind_t::regex ? PLURNK_TARGET_REGEX : PLURNK_TARGET_LOCAL);
    full.pattern = view(t.pattern);
    full.flags = view(t.flags);
    full.raw = view(t.raw);
    full.scheme = url ? view(t.scheme) : empty_str();
    full.pathname = url ? view(t.pathname) : empty_str();
    full.username = view_opt(t.username);
    full.password = view_opt(t.password);
    full.hostname = view_opt(t.hostname);
    full.query = view_opt(t.query);
    full.fragment = view_opt(t.fragment);
    if (url) {
        full.present = (t.username ? PLURNK_TARGET_HAS_USERNAME : 0u) | (t.password ? PLURNK_TARGET_HAS_PASSWORD : 0u) |
                       (t.hostname ? PLURNK_TARGET_HAS_HOSTNAME : 0u) | (t.port ? PLURNK_TARGET_HAS_PORT : 0u) |
                       (t.query ? PLURNK_TARGET_HAS_QUERY : 0u) | (t.fragment ? PLURNK_TARGET_HAS_FRAGMENT : 0u) |
                       (t.headers ? PLURNK_TARGET_HAS_HEADERS : 0u);
        full.port = t.port.value_or(0);
        full.header_count = t.headers ? t.headers->size() : 0;
    }
    deliver(out, full);
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_statement_target_header(const plurnk_statement* statement, plurnk_part part,
                                                        size_t index, plurnk_str* key, plurnk_str* value) {
    static constexpr const char* fn = "plurnk_statement_target_header";
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    if (key == nullptr) return null_argument(nullptr, fn, "key");
    if (value == nullptr) return null_argument(nullptr, fn, "value");
    part_view pv;
    if (const plurnk_status st = part_of(*typed(statement), part, fn, pv); st != PLURNK_OK) return st;
    if (pv.target == nullptr) return PLURNK_NOT_PRESENT;
    const std::size_t n = pv.target->headers ? pv.target->headers->size() : 0;
    if (index >= n) return out_of_range(nullptr, fn, index, n, "the target has", "header blocks");
    *key = view((*pv.target->headers)[index].name);
    *value = view((*pv.target->headers)[index].value);
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_statement_scope(const plurnk_statement* statement, plurnk_part part,
                                                const double** marks, size_t* count) {
    static constexpr const char* fn = "plurnk_statement_scope";
    static constexpr double k_none = 0;
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    if (marks == nullptr) return null_argument(nullptr, fn, "marks");
    if (count == nullptr) return null_argument(nullptr, fn, "count");
    *marks = &k_none;
    *count = 0;
    part_view pv;
    if (const plurnk_status st = part_of(*typed(statement), part, fn, pv); st != PLURNK_OK) return st;
    if (pv.marker == nullptr) return PLURNK_NOT_PRESENT;
    if (!pv.marker->marks.empty()) *marks = pv.marker->marks.data();
    *count = pv.marker->marks.size();
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_statement_body(const plurnk_statement* statement, plurnk_body* out) {
    static constexpr const char* fn = "plurnk_statement_body";
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    if (const plurnk_status st = check_out(out, k_body_v1, nullptr, fn, "out", "plurnk_body"); st != PLURNK_OK) {
        return st;
    }
    plurnk_body full{};
    full.dialect = -1;
    full.raw = full.pattern = full.flags = full.json = empty_str();
    const plurnk::body& b = typed(statement)->body;
    if (const auto* text = std::get_if<std::string_view>(&b)) {
        full.kind = PLURNK_BODY_TEXT;
        full.raw = view(*text);
    } else if (const auto* m = std::get_if<plurnk::matcher_body>(&b)) {
        full.kind = PLURNK_BODY_MATCHER;
        full.dialect = static_cast<int32_t>(m->dialect);
        full.raw = view(m->raw);
        full.pattern = view(m->pattern);
        full.flags = view(m->flags);
    } else if (const auto* send = std::get_if<plurnk::send_body>(&b)) {
        full.kind = PLURNK_BODY_SEND;
        full.raw = view(send->raw);
        full.json = view_opt(send->json);
        full.has_json = send->json ? 1 : 0;
    } else if (std::holds_alternative<plurnk::resource_selection>(b)) {
        full.kind = PLURNK_BODY_SELECTION;
    } else {
        full.kind = PLURNK_BODY_NONE;
    }
    deliver(out, full);
    return PLURNK_OK;
}

PLURNK_API plurnk_status plurnk_format_statement(const plurnk_statement* statement, char** out, size_t* out_len) {
    static constexpr const char* fn = "plurnk_format_statement";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (out_len != nullptr) *out_len = 0;
    if (statement == nullptr) return null_argument(nullptr, fn, "statement");
    try {
        const plurnk::format_result f = plurnk::format(*typed(statement), holder(statement)->dialect);
        if (!f) return fail(PLURNK_ERR_INVALID_ARGUMENT, nullptr, fn, *f.error);
        hand_out(f.text, out, out_len);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

PLURNK_API plurnk_status plurnk_format_result(const plurnk_result* result, char** out, size_t* out_len) {
    static constexpr const char* fn = "plurnk_format_result";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (out_len != nullptr) *out_len = 0;
    if (result == nullptr) return null_argument(nullptr, fn, "result");
    try {
        const plurnk::format_result f = plurnk::format_turn(result->result);
        if (!f) return fail(PLURNK_ERR_INVALID_ARGUMENT, &result->last_error, fn, *f.error);
        hand_out(f.text, out, out_len);
        return PLURNK_OK;
    } catch (...) {
        return fail_current(&result->last_error, fn);
    }
}

PLURNK_API plurnk_status plurnk_format_source(const char* input, size_t len, plurnk_tier tier, char** out,
                                              size_t* out_len, int* changed) {
    static constexpr const char* fn = "plurnk_format_source";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (out_len != nullptr) *out_len = 0;
    if (changed != nullptr) *changed = 0;
    if (const plurnk_status st = check_input(nullptr, fn, "input", input, len, tier); st != PLURNK_OK) return st;
    try {
        const plurnk::source_format sf =
            plurnk::format_source(std::string_view(input == nullptr ? "" : input, len), to_tier(tier));
        hand_out(sf.text, out, out_len);
        if (changed != nullptr) *changed = sf.changed ? 1 : 0;
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

PLURNK_API plurnk_status plurnk_migrate_source(const char* input, size_t len, plurnk_tier tier,
                                               plurnk_parse_dialect from, plurnk_parse_dialect to, char** out,
                                               size_t* out_len, int* changed, char** notes, size_t* note_count) {
    static constexpr const char* fn = "plurnk_migrate_source";
    if (out == nullptr) return null_argument(nullptr, fn, "out");
    *out = nullptr;
    if (out_len != nullptr) *out_len = 0;
    if (changed != nullptr) *changed = 0;
    if (notes != nullptr) *notes = nullptr;
    if (note_count != nullptr) *note_count = 0;
    if (const plurnk_status st = check_input(nullptr, fn, "input", input, len, tier); st != PLURNK_OK) return st;
    const auto known = [](plurnk_parse_dialect d) {
        return d == PLURNK_PARSE_DIALECT_CONTRACTS || d == PLURNK_PARSE_DIALECT_SERVICE;
    };
    if (!known(from) || !known(to)) {
        return fail(PLURNK_ERR_INVALID_ARGUMENT, nullptr, fn,
                    std::string(known(from) ? "to" : "from") + " is not a plurnk_parse_dialect");
    }
    try {
        plurnk::parse_options o;
        o.dialect = static_cast<plurnk::parse_dialect>(from);
        const plurnk::source_migration sm = plurnk::migrate_source(std::string_view(input == nullptr ? "" : input, len),
                                                                   to_tier(tier), static_cast<plurnk::parse_dialect>(to), o);
        std::string lines;
        for (const plurnk::migration_note& n : sm.notes) {
            ((((lines += std::to_string(n.at.line)) += ':') += std::to_string(n.at.column + 1)) += ": ") += n.message;
            lines += '\n';
        }
        char* listed = nullptr;
        if (notes != nullptr) hand_out(lines, &listed, nullptr);
        try {
            hand_out(sm.text, out, out_len);
        } catch (...) {
            plurnk_free_string(listed);  // nothing half handed out
            throw;
        }
        if (notes != nullptr) *notes = listed;
        if (changed != nullptr) *changed = sm.changed ? 1 : 0;
        if (note_count != nullptr) *note_count = sm.notes.size();
        return PLURNK_OK;
    } catch (...) {
        return fail_current(nullptr, fn);
    }
}

}  // extern "C"
