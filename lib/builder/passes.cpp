// SPDX-License-Identifier: MIT
// The passes over the built items (see passes.hpp), in the reference's order: the parse tier's
// advisories as items are made (near-miss op names in text, op-shaped text in a PLAN body, a path
// in EDIT/COPY/MOVE's tag slot), then at finish() the unparsed tail (with the invented-closer
// advisory) and the turn shape of the parse tier (BEHAVIOUR §4.3).
#include "builder/passes.hpp"

#include <cstring>
#include <optional>
#include <string>
#include <unordered_set>

#include "base/ascii.hpp"
#include "grammar/op_table.hpp"

namespace plurnk::detail {

namespace {

using ascii::is_word_char;

// a-z to A-Z; every other byte unchanged.
char upper_of(char c) noexcept {
    return ascii::is_lower(static_cast<unsigned char>(c)) ? static_cast<char>(c - 'a' + 'A') : c;
}

// Whether `upper` is `s` with a-z made A-Z (no copy: `s` may be a megabyte-long tag).
bool equals_upper(std::string_view upper, std::string_view s) noexcept {
    if (upper.size() != s.size()) return false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (upper[i] != upper_of(s[i])) return false;
    }
    return true;
}

// The suggestion for a near-miss op name (any case), or nullptr.
const char* near_miss(std::string_view word) {
    struct entry {
        const char* word;
        const char* suggestion;
    };
    static constexpr entry k_map[] = {
        {"CLOSE", "`<<FOLD`"},   {"HIDE", "`<<FOLD`"},    {"COLLAPSE", "`<<FOLD`"}, {"SHOW", "`<<OPEN`"},
        {"EXPAND", "`<<OPEN`"},  {"DELETE", "`<<KILL`"},  {"REMOVE", "`<<KILL`"},   {"DROP", "`<<KILL`"},
        {"GET", "`<<READ`"},     {"FETCH", "`<<READ`"},   {"CAT", "`<<READ`"},      {"WRITE", "`<<EDIT`"},
        {"CREATE", "`<<EDIT`"},  {"UPDATE", "`<<EDIT`"},  {"SET", "`<<EDIT`"},      {"LIST", "`<<FIND`"},
        {"SEARCH", "`<<FIND`"},  {"GREP", "`<<FIND`"},    {"QUERY", "`<<FIND`"},    {"RUN", "`<<EXEC`"},
        {"SHELL", "`<<EXEC`"},   {"SPAWN", "`<<WORK(worker://name)` to spawn a worker"},
        {"DELEGATE", "`<<WORK(worker://name)` to spawn a worker"},
    };
    for (const auto& e : k_map) {
        if (equals_upper(e.word, word)) return e.suggestion;
    }
    return nullptr;
}

bool path_shaped(std::string_view tag) {
    if (tag.find('/') != std::string_view::npos) return true;
    // ends with .<letter><alnum>* and the char before the dot is not '/'
    std::size_t k = tag.size();
    while (k > 0 && ascii::is_alnum(static_cast<unsigned char>(tag[k - 1]))) {
        --k;
    }
    if (k == tag.size() || k == 0 || tag[k - 1] != '.') return false;
    const char first = tag[k];
    if (!ascii::is_alpha(static_cast<unsigned char>(first))) return false;
    return !(k >= 2 && tag[k - 2] == '/');
}

position rec_position(const item_rec& r) noexcept { return position{r.line, r.column}; }

// Whether item i is a disposition SEND (a terminal one).
bool is_disposition(const record_log& log, std::size_t i) noexcept {
    if (log.kinds()[i] != item_kind::statement) return false;
    const stmt_rec& s = log.stmts()[log.items()[i].aux];
    return s.op == op::SEND && s.signal_kind == static_cast<std::uint8_t>(signal::kind_t::number) &&
           s.extras != nullptr && is_disposition_code(unpack_extras(s.extras).number);
}

// The statement's advisories (parse tier), each when it applies.
std::optional<new_diagnostic> plan_body_advisory(const statement_builder& st, position at, byte_span span) {
    if (st.op() != op::PLAN || !st.suffix().empty()) return std::nullopt;
    const auto* body = std::get_if<std::string_view>(&st.body());
    if (body == nullptr) return std::nullopt;
    const std::string_view b = *body;
    for (std::size_t i = b.find("<<"); i != std::string_view::npos; i = b.find("<<", i + 1)) {
        for (int o = 0; o < k_protocol_op_count; ++o) {
            const std::string_view name = op_name(static_cast<op>(o));
            if (b.substr(i + 2, name.size()) != name) continue;
            const std::size_t e = i + 2 + name.size();
            if (e < b.size() && is_word_char(static_cast<unsigned char>(b[e]))) continue;
            return new_diagnostic{at, source::parser, severity::warning,
                                  format_message(message_id::plan_body_op_text, {{"op", name}}),
                                  message_id::plan_body_op_text, span};
        }
    }
    return std::nullopt;
}

std::optional<new_diagnostic> misplaced_target_advisory(const statement_builder& st, position at, byte_span span) {
    if (!result_passes::tags_may_be_paths(st)) return std::nullopt;
    const plurnk::op o = st.op();
    for (const auto& tag : st.signal().tags) {
        if (!path_shaped(tag)) continue;
        const std::string name = std::string(op_name(o)).append(st.suffix());
        return new_diagnostic{at, source::parser, severity::warning,
                              format_message(message_id::misplaced_target, {{"name", name}, {"tag", tag}}),
                              message_id::misplaced_target, span};
    }
    return std::nullopt;
}

// §invented-closer-advisory: the first `:NAME` (upper case, 2+ chars, word boundary) in the
// unclosed body, when it is not the op's own closer; empty otherwise.
std::string_view invented_closer(std::string_view body, std::string_view tag) {
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] != ':') continue;
        std::size_t k = i + 1;
        if (k >= body.size() || !ascii::is_upper(static_cast<unsigned char>(body[k]))) continue;
        ++k;
        while (k < body.size() && (ascii::is_upper(static_cast<unsigned char>(body[k])) || ascii::is_digit(static_cast<unsigned char>(body[k])) || body[k] == '_')) ++k;
        if (k - i - 1 < 2) continue;
        if (k < body.size() && is_word_char(static_cast<unsigned char>(body[k]))) continue;
        const std::string_view name = body.substr(i + 1, k - i - 1);
        return equals_upper(name, tag) ? std::string_view{} : name;
    }
    return {};
}

}  // namespace

// Linear in the text item: the words that follow a ':' are collected once, and positions
// advance with one forward-moving map.
void result_passes::text_advisories(const text_item& t, message_interner intern, diagnostic_sink add) {
    const std::string_view s = t.text;
    if (s.size() < 2 || std::memchr(s.data(), '<', s.size() - 1) == nullptr || s.find("<<") == std::string_view::npos) return;
    // `:Word` at a word boundary closes `<<Word`: the maximal word run after a ':' equals Word.
    std::unordered_set<std::string_view> closers;
    for (std::size_t f = s.find(':'); f != std::string_view::npos; f = s.find(':', f + 1)) {
        std::size_t e = f + 1;
        while (e < s.size() && is_word_char(static_cast<unsigned char>(s[e]))) ++e;
        if (e > f + 1) closers.insert(s.substr(f + 1, e - f - 1));
    }
    if (closers.empty()) return;
    position_map pm(s);
    // A hostile text repeats its word: what a word gets (its advisory's message, interned, or
    // none) is worked out once for a run of the same word.
    std::string_view last_word;
    const char* message = nullptr;
    for (std::size_t i = s.find("<<"); i != std::string_view::npos && i + 2 < s.size(); i = s.find("<<", i + 1)) {
        std::size_t k = i + 2;
        while (k < s.size() && ascii::is_alpha(static_cast<unsigned char>(s[k]))) ++k;
        if (k == i + 2) continue;
        const std::string_view word = s.substr(i + 2, k - i - 2);
        if (last_word.data() == nullptr || word != last_word) {
            last_word = word;
            const char* suggestion = near_miss(word);
            message = suggestion == nullptr || closers.count(word) == 0
                          ? nullptr
                          : intern(format_message(message_id::near_miss_op, {{"word", word}, {"suggestion", suggestion}}));
        }
        if (message == nullptr) continue;
        // Position of byte i, across any newlines the item holds (a think block, say).
        const position in_text = pm.at(i);
        position p = t.position;
        if (in_text.line == 1) {
            p.column += in_text.column;
        } else {
            p.line += in_text.line - 1;
            p.column = in_text.column;
        }
        add(new_diagnostic{p, source::parser, severity::warning, {}, message_id::near_miss_op,
                           byte_span{t.span.begin + i, t.span.begin + k}, message});
    }
}

// Both are worked out before either is added.
void result_passes::advise_statement(const statement_builder& st, position at, byte_span span, diagnostic_sink add) {
    std::optional<new_diagnostic> plan = plan_body_advisory(st, at, span);
    std::optional<new_diagnostic> misplaced = misplaced_target_advisory(st, at, span);
    if (plan) add(*plan);
    if (misplaced) add(*misplaced);
}

void result_passes::finish(const pass_input& at_end, record_log& log) {
    apply_tail(at_end, log);
    if (advises() && !tail_) turn_shape(log);
}

void result_passes::apply_tail(const pass_input& at_end, record_log& log) {
    const tail_facts& tail = at_end.tail;
    if (tail.open == open_slot::none) return;
    const std::string_view in = at_end.in;
    const position from = at_end.pos.at(tail.last_open_begin);
    const std::string_view tag = in.substr(tail.open_tag_begin, tail.open_tag_end - tail.open_tag_begin);
    const std::string line = std::to_string(from.line);
    message_id id = message_id::tail_statement_unclosed;
    switch (tail.open) {
        case open_slot::body: id = message_id::tail_body_unclosed; break;
        case open_slot::signal: id = message_id::tail_signal_unclosed; break;
        case open_slot::target: id = message_id::tail_target_unclosed; break;
        default: break;
    }
    // The invented-closer advisory rides the body reason (its id stays the body's). The reason
    // quotes the tag twice, and the tag may be most of the input: it is sized once.
    const std::string_view invented =
        id == message_id::tail_body_unclosed ? invented_closer(in.substr(tail.body_begin), tag) : std::string_view{};
    std::string reason;
    reason.reserve(message_size(id, {{"tag", tag}, {"line", line}}) +
                   (invented.empty() ? 0 : message_size(message_id::tail_invented_closer, {{"name", invented}})));
    append_message(reason, id, {{"tag", tag}, {"line", line}});
    if (!invented.empty()) append_message(reason, message_id::tail_invented_closer, {{"name", invented}});
    log.keep_items([&](std::size_t i) { return rec_position(log.items()[i]) < from; });
    tail_ = unparsed_tail{from, std::move(reason), id,
                          byte_span{at_end.byte_base + tail.last_open_begin, at_end.byte_base + in.size()}};
}

void result_passes::turn_shape(record_log& log) {
    // Both shapes below only remove or reword parser errors: with none in the message table,
    // there is nothing to do (the common clean turn is not walked).
    if (!log.had_parser_errors()) return;
    pod_vector<item_rec>& items = log.items();
    const pod_vector<item_kind>& kinds = log.kinds();
    bool has_plan = false, has_terminal = false, hard_non_parser = false, any_parser_error = false;
    const auto parser_error = [&](std::size_t i) {
        if (kinds[i] != item_kind::diagnostic) return false;
        const diag_message& d = log.message_of(items[i]);
        return d.severity() == severity::error && d.source() == source::parser;
    };
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (kinds[i] == item_kind::statement) {
            has_plan = has_plan || log.stmts()[items[i].aux].op == op::PLAN;
            has_terminal = has_terminal || is_disposition(log, i);
        } else if (kinds[i] == item_kind::diagnostic) {
            const diag_message& d = log.message_of(items[i]);
            if (d.severity() == severity::error) (d.source() == source::parser ? any_parser_error : hard_non_parser) = true;
        }
    }
    if (!any_parser_error) return;
    if (!has_plan || !has_terminal) {
        std::optional<item_rec> first_removed;
        std::uint64_t removed_end = 0;
        log.keep_items([&](std::size_t i) {
            if (!parser_error(i)) return true;
            if (!first_removed) {
                first_removed = items[i];
                removed_end = log.diagnostic_of(items[i]).end;
            }
            return false;
        });
        if (first_removed && !hard_non_parser) {
            // The one imperative stands where the first parser error stood.
            const message_id id = !has_plan ? message_id::turn_missing_plan : message_id::turn_missing_terminal_send;
            const std::uint32_t message =
                log.message(log.intern(message_template(id)), source::parser, severity::error, id);
            const byte_span span{first_removed->begin, static_cast<std::size_t>(removed_end)};
            items.push_back(log.diagnostic(rec_position(*first_removed), span, message));
            log.kinds().push_back(item_kind::diagnostic);
            log.note_fired(false);
        }
        return;
    }
    if (hard_non_parser) return;
    // Mid-termination: parser hard errors after the first disposition SEND.
    position terminal{};
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (is_disposition(log, i)) {
            terminal = rec_position(items[i]);
            break;
        }
    }
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (parser_error(i) && terminal < rec_position(items[i])) {
            const message_id id = message_id::turn_ended_by_send;
            log.set_message(items[i], log.message(log.intern(message_template(id)), source::parser, severity::error, id));
        }
    }
}

}  // namespace plurnk::detail
