// SPDX-License-Identifier: MIT
// The body segment rules: per op the part that never starts with the op, per op and suffix the
// rest (build.cpp's file comment says how a segment keeps the close out).
#include <string>
#include <string_view>
#include <utility>

#include "plurnk/rail.hpp"
#include "rail/builder.hpp"

namespace plurnk::rail::detail {

// The first (`lead`) and later (`seg`) segment rules of one op per suffix: each is the op's
// run (`.first`) or the op word followed by the suffix trie; the rule is the stem plus `.second`.
void builder::segment_rules(const seg_kind& k, op o, const std::pair<std::string, std::string_view>& lead,
                            const std::pair<std::string, std::string_view>& seg) {
    const std::string word(op_name(o));
    const expr lead_end = first_end(k);
    const expr seg_end = later_end(k);
    for (const std::string& sfx : o_.suffixes) {
        const std::string st = stem(o, sfx);
        add(st + std::string(lead.second), alt({rref(lead.first), seq({lit(word), suffix_tail(k, sfx, lead_end)})}));
        add(st + std::string(seg.second), alt({rref(seg.first), seq({lit(word), suffix_tail(k, sfx, seg_end)})}));
    }
}

// The segment rules of every body: per op the part that never starts with the op (`-run`,
// `-line`, `-mrun`), per op and suffix the rest (see the file comment).
void builder::bodies() {
    const seg_kind text{U":", "text-rest", false};
    const seg_kind line{U":\r\n", "line-rest", false};
    bool any_text = false, any_line = false;
    bool first = true;
    auto note = [&first]() {
        std::string c = first ? "bodies: colon-separated segments that never hold the close where the parser sees it" : "";
        first = false;
        return c;
    };
    for (const op_shape& s : internal_ops(o_.dialect)) {
        const std::string o(op_name(s.op));
        const std::string name = lower(o);
        switch (s.body) {
            case body_shape::empty:
            case body_shape::selection: break;
            case body_shape::text:
            case body_shape::text_nonempty: {
                any_text = true;
                add(name + "-run", word_trie(text, o, U"", nullptr), note());
                segment_rules(text, s.op, {name + "-run", "-lead"}, {name + "-run", "-seg"});
                break;
            }
            case body_shape::matcher: {
                any_line = true;
                // One line; the first character is not `:` and claims no dialect: `/` or `$`,
                // and `#` in the service dialect (where a lone `/` would be a glob, kept off).
                add(name + "-mrun", word_trie(line, o, service() ? U"/#$" : U"/$", nullptr), note());
                add(name + "-line", word_trie(line, o, U"", nullptr));
                segment_rules(line, s.op, {name + "-mrun", "-mlead"}, {name + "-line", "-mline"});
                break;
            }
        }
    }
    if (any_text) add("text-rest", star(none_of(U":")));
    if (any_line) add("line-rest", star(none_of(U":\r\n")));
    if (any_line && service()) add("slash-glob", seq({lit("/"), opt(seq({none_of(U"/:\r\n"), rref("line-rest")}))}));
}

}  // namespace plurnk::rail::detail
