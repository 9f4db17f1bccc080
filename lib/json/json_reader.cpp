// SPDX-License-Identifier: MIT
// Reads JSON text into a json_document (json_tape.hpp; parse_json converts it into a json_value)
// with the semantics of JavaScript's JSON.parse (the scalar readers of json_scan.hpp), in one pass
// over the text, iterative over the open containers (linked through their own words), so nesting
// depth is not limited and hostile input cannot exhaust the call stack. Object members are stored
// in JavaScript property order: array-index keys ("0".."4294967294", canonical form) first in
// ascending numeric order, then the others in insertion order; a repeated key keeps its first
// place and takes the last value (json_document.cpp puts them so when the object closes, in time
// linear in its members). canonical_json, the same text written as JSON.stringify writes it
// without a document, is in json_direct.cpp; json_value's writer in json_value.cpp.
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "plurnk/json.hpp"
#include "base/work_counter.hpp"
#include "json_scan.hpp"
#include "json_tape.hpp"

namespace plurnk {

namespace {

// The reader: one pass over the text, into a json_document.
class reader : public detail::json_scanner {
public:
    using json_scanner::json_scanner;

    // text -> ws value ws, then end of input.
    // value -> object | array | string | number | true | false | null
    // Fills `doc` (json_tape.hpp); the open containers are linked through their own words.
    bool parse_document(json_document& doc) {
        tape_builder b(doc);
        b.reserve_for_text(text_.size());
        for (;;) {
            // Here a value must start: the root, or the next element of the innermost container.
            skip_ws();
            if (pos_ >= text_.size()) return false;
            const auto c = static_cast<unsigned char>(text_[pos_]);
            if (c == '[' || c == '{') {
                // array -> '[' ws (value (',' value)*)? ']'
                // object -> '{' ws (member (',' member)*)? '}'    member -> ws string ws ':' value
                ++pos_;
                const bool is_object = c == '{';
                if (!b.open(is_object)) return false;
                skip_ws();
                if (!accept(is_object ? '}' : ']')) {
                    if (is_object && !parse_member_key(b)) return false;
                    continue;
                }
                b.close();
            } else if (!parse_scalar(b)) {
                return false;
            }
            // Here a value is complete: read what follows it, closing containers as they end.
            for (;;) {
                skip_ws();
                if (!b.is_open()) return pos_ == text_.size();
                if (pos_ >= text_.size()) return false;
                const bool in_object = b.in_object();
                const char d = text_[pos_++];
                if (d == ',') {
                    if (in_object) {
                        skip_ws();
                        if (!parse_member_key(b)) return false;
                    }
                    break;  // on to the next element's value
                }
                if (d != (in_object ? '}' : ']')) return false;
                b.close();
            }
        }
    }
private:
    // string (pos_ at its opening quote), as a string value or key of the document.
    bool parse_tape_string(tape_builder& b) {
        std::string* s = b.begin_string();
        if (s == nullptr || !parse_string(*s)) return false;
        b.end_string();
        return true;
    }

    // member-key -> string ws ':' (pos_ at the string's opening quote).
    bool parse_member_key(tape_builder& b) {
        if (!parse_tape_string(b)) return false;
        skip_ws();
        return accept(':');
    }

    // scalar -> string | number | true | false | null
    bool parse_scalar(tape_builder& b) {
        switch (text_[pos_]) {
            case '"': return parse_tape_string(b);
            case 't': return parse_word("true") && b.boolean(true);
            case 'f': return parse_word("false") && b.boolean(false);
            case 'n': return parse_word("null") && b.null();
            default: {
                double x = 0;
                return parse_number(x) && b.number(x);
            }
        }
    }

};

}  // namespace

std::optional<json_document> json_document::parse(std::string_view text) {
    std::optional<json_document> doc(std::in_place);
    detail::count_json_bytes(text.size());
    if (!reader(text).parse_document(*doc)) return std::nullopt;
    return doc;
}

std::optional<json_value> parse_json(std::string_view text) {
    const auto doc = json_document::parse(text);
    if (!doc) return std::nullopt;
    return to_json_value(doc->root());
}

}  // namespace plurnk
