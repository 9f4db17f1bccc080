// SPDX-License-Identifier: MIT
// Writes a parse_result as the reference's JSON: key order and shapes of BEHAVIOUR §3, compact
// like JSON.stringify(result) or indented like JSON.stringify(result, null, 2). Strings are
// escaped as JSON.stringify escapes them; input bytes that are not valid UTF-8 are written as
// U+FFFD, one replacement per invalid byte, so the output is always valid UTF-8.
// Speed: output goes into room made ahead in the string (json_out), a key with its comma and
// colon is one copy of a literal, the fixed enum words are written without an escape scan,
// numbers go through std::to_chars, and string values are scanned eight bytes at a time for the
// bytes that need attention (controls, '"', '\\', non-ASCII), copying clean runs at once.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>

#include "plurnk/json.hpp"
#include "base/utf8.hpp"

namespace plurnk {

namespace {

using detail::utf8_sequence_length;

// Whether any of the eight bytes in `w` is a control character, '"', '\\' or non-ASCII: the
// exact "any byte" forms of the has-less-than and has-zero-byte word tricks.
constexpr bool word_needs_attention(std::uint64_t w) noexcept {
    constexpr std::uint64_t k_ones = 0x0101010101010101ULL;
    constexpr std::uint64_t k_highs = 0x8080808080808080ULL;
    const std::uint64_t below_space = (w - k_ones * 0x20) & ~w & k_highs;
    const std::uint64_t q = w ^ (k_ones * '"');
    const std::uint64_t quote = (q - k_ones) & ~q & k_highs;
    const std::uint64_t b = w ^ (k_ones * '\\');
    const std::uint64_t backslash = (b - k_ones) & ~b & k_highs;
    return ((below_space | quote | backslash | w) & k_highs) != 0;
}

constexpr bool byte_needs_attention(unsigned char c) noexcept { return c < 0x20 || c == '"' || c == '\\' || c >= 0x80; }

// End of the run starting at `i` in which no byte needs attention.
std::size_t clean_run_end(std::string_view s, std::size_t i) noexcept {
    const std::size_t n = s.size();
    while (i + 8 <= n) {
        std::uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        if (word_needs_attention(w)) break;
        i += 8;
    }
    while (i < n && !byte_needs_attention(static_cast<unsigned char>(s[i]))) ++i;
    return i;
}

// `text` escaped as in a JSON string literal, without the quotes (append_json_string), into a
// std::string or the writer's json_out.
template <class Out>
void append_escaped(Out& out, std::string_view text) {
    static constexpr char k_hex[] = "0123456789abcdef";
    std::size_t i = 0;
    const std::size_t n = text.size();
    while (i < n) {
        // Copy the longest run that needs no escaping in one append.
        const std::size_t run = clean_run_end(text, i);
        out.append(text.data() + i, run - i);
        i = run;
        if (i >= n) break;
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            const std::size_t len = utf8_sequence_length(text, i);
            if (len == 0) {
                out.append("\xEF\xBF\xBD", 3);
                ++i;
            } else {
                out.append(text.data() + i, len);
                i += len;
            }
            continue;
        }
        switch (c) {
            case '"': out.append("\\\"", 2); break;
            case '\\': out.append("\\\\", 2); break;
            case '\b': out.append("\\b", 2); break;
            case '\f': out.append("\\f", 2); break;
            case '\n': out.append("\\n", 2); break;
            case '\r': out.append("\\r", 2); break;
            case '\t': out.append("\\t", 2); break;
            default:
                out.append("\\u00", 4);
                out += k_hex[c >> 4];
                out += k_hex[c & 0xF];
        }
        ++i;
    }
}


// The writer's output: appends go straight into a block of the string resized ahead of them
// (and cut back to what was written when the writer is done), so each is a bounds check and a
// copy, not a call into std::string that also writes its terminator. Its API is the part of
// std::string's that the writer uses.
class json_out {
public:
    explicit json_out(std::string& s) : s_(s), n_(s.size()) { reacquire(); }
    ~json_out() { s_.resize(n_); }
    json_out(const json_out&) = delete;
    json_out& operator=(const json_out&) = delete;

    [[nodiscard]] std::size_t size() const noexcept { return n_; }
    [[nodiscard]] std::string_view view() const noexcept { return {d_, n_}; }
    void clear() noexcept { n_ = 0; }
    json_out& operator+=(char c) {
        if (n_ == cap_) grow(1);
        d_[n_++] = c;
        return *this;
    }
    json_out& operator+=(std::string_view v) { return append(v.data(), v.size()); }
    json_out& append(std::string_view v) { return append(v.data(), v.size()); }
    json_out& append(const char* p, std::size_t n) {
        if (cap_ - n_ < n) grow(n);
        if (n != 0) std::memcpy(d_ + n_, p, n);
        n_ += n;
        return *this;
    }
    json_out& append(std::size_t count, char c) {
        if (cap_ - n_ < count) grow(count);
        if (count != 0) std::memset(d_ + n_, c, count);
        n_ += count;
        return *this;
    }

private:
    // Room for `more` bytes past n_, and as much again as is written (from k_first to k_step):
    // the room is zero-filled, so it is kept small, while the string's own capacity grows
    // geometrically (a fresh string for a large result touches little more than it keeps).
    [[gnu::noinline]] void grow(std::size_t more) {
        s_.resize(n_ + std::max(more, std::clamp(n_, k_first, k_step)));
        reacquire();
    }
    void reacquire() noexcept {
        d_ = s_.data();
        cap_ = s_.size();
    }
    static constexpr std::size_t k_first = 256;
    static constexpr std::size_t k_step = 16 * 1024;

    std::string& s_;
    char* d_ = nullptr;
    std::size_t n_ = 0;    // bytes written (the string's size is cap_ until the end)
    std::size_t cap_ = 0;
};

constexpr bool is_continuation(char c) noexcept { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

class writer {
public:
    writer(std::string& out, const json_options& o) : out_(out), pretty_(o.pretty), spans_(o.spans) {}
    // With a flush, the writer hands `out` to it and empties it whenever it holds at least
    // k_flush_bytes (after an item, an array element, a slice of a long string), so neither the
    // whole text nor one large item's is ever held at once.
    writer(std::string& out, const json_options& o, const json_flush* flush)
        : out_(out), pretty_(o.pretty), spans_(o.spans), flush_(flush) {}
    static constexpr std::size_t k_flush_bytes = 1 << 16;
    // A long string or JSON text is written a slice at a time (at most 6 bytes out per byte in),
    // so a piece stays within a few KB of k_flush_bytes.
    static constexpr std::size_t k_slice_bytes = 1 << 10;

    void one_item(const item& it) {
        std::visit([this](const auto& x) { this->item_(x); }, it);
    }
    void one_statement(const statement& st) { stmt(st); }

    void result(const parse_result& r) {
        open('{');
        key("items");
        if (r.items.empty()) {
            out_.append("[]", 2);
        } else {
            open('[');
            bool first = true;
            for (const item& it : r.items) {
                element(first);
                std::visit([this](const auto& x) { this->item_(x); }, it);
                maybe_flush();
            }
            close(']');
        }
        if (r.tail) {
            ckey("unparsedTail");
            open('{');
            key("from");
            pos(r.tail->from);
            ckey("reason");
            str(r.tail->reason);
            span(r.tail->span);
            close('}');
        }
        close('}');
    }

private:
    void item_(const statement& s) {
        open('{');
        key("kind");
        lit("statement");
        ckey("statement");
        stmt(s);
        span(s.span);
        close('}');
    }
    void item_(const diagnostic& d) {
        open('{');
        key("kind");
        lit("error");
        ckey("error");
        open('{');
        key("line");
        num(d.position.line);
        ckey("column");
        num(d.position.column);
        ckey("source");
        lit(d.source == source::lexer ? "lexer" : d.source == source::parser ? "parser" : "visitor");
        ckey("severity");
        lit(d.severity == severity::error ? "error" : "warning");
        ckey("message");
        str(d.message);
        close('}');
        span(d.span);
        close('}');
    }
    void item_(const text_item& t) {
        open('{');
        key("kind");
        lit("text");
        ckey("text");
        str(t.text);
        ckey("position");
        pos(t.position);
        span(t.span);
        close('}');
    }

    // ,"span":{"start":B,"end":E} when spans were asked for.
    void span(const byte_span& sp) {
        if (!spans_) return;
        ckey("span");
        open('{');
        key("start");
        offset(sp.begin);
        ckey("end");
        offset(sp.end);
        close('}');
    }

    void stmt(const statement& s) {
        open('{');
        key("op");
        lit(op_name(s.op));
        ckey("suffix");
        str(s.suffix);
        ckey("signal");
        switch (s.signal.kind) {
            case signal::kind_t::none: out_.append("null", 4); break;
            case signal::kind_t::number: number(s.signal.number); break;
            case signal::kind_t::text: str(s.signal.text); break;
            case signal::kind_t::tags:
                if (s.signal.tags.empty()) {
                    out_.append("[]", 2);
                } else {
                    open('[');
                    bool first = true;
                    for (const auto& t : s.signal.tags) {
                        element(first);
                        str(t);
                        maybe_flush();
                    }
                    close(']');
                }
                break;
        }
        ckey("target");
        path(s.target);
        ckey("lineMarker");
        marker(s.marker);
        ckey("body");
        std::visit([this](const auto& b) { this->body_(b); }, s.body);
        ckey("position");
        pos(s.position);
        close('}');
    }

    void body_(const std::monostate&) { out_.append("null", 4); }
    void body_(const std::string_view& raw) { str(raw); }
    void body_(const matcher_body& m) {
        static constexpr const char* k_dialects[] = {"xpath", "regex", "jsonpath", "semantic", "graph", "glob"};
        open('{');
        key("dialect");
        lit(k_dialects[static_cast<int>(m.dialect)]);
        ckey("raw");
        str(m.raw);
        if (m.dialect == dialect::regex) {
            ckey("pattern");
            str(m.pattern);
            ckey("flags");
            str(m.flags);
        }
        close('}');
    }
    void body_(const send_body& b) {
        open('{');
        key("raw");
        str(b.raw);
        ckey("json");
        if (!b.json) {
            out_.append("null", 4);
        } else if (!pretty_) {
            raw(*b.json);
        } else {
            reindent(*b.json);
        }
        close('}');
    }
    void body_(const resource_selection& r) {
        open('{');
        key("target");
        path(r.target);
        ckey("lineMarker");
        marker(r.marker);
        close('}');
    }

    void path(const std::optional<parsed_path>& p) {
        if (!p) {
            out_.append("null", 4);
            return;
        }
        path(*p);
    }
    void path(const parsed_path& p) {
        open('{');
        key("kind");
        if (p.kind == parsed_path::kind_t::local) {
            lit("local");
            ckey("raw");
            str(p.raw);
            close('}');
            return;
        }
        if (p.kind == parsed_path::kind_t::regex) {  // SERVICE.md S7
            lit("regex");
            ckey("raw");
            str(p.raw);
            ckey("pattern");
            str(p.pattern);
            ckey("flags");
            str(p.flags);
            close('}');
            return;
        }
        lit("url");
        ckey("raw");
        str(p.raw);
        ckey("scheme");
        str(p.scheme);
        ckey("username");
        opt_str(p.username);
        ckey("password");
        opt_str(p.password);
        ckey("hostname");
        opt_str(p.hostname);
        ckey("port");
        if (p.port) {
            num(*p.port);
        } else {
            out_.append("null", 4);
        }
        ckey("pathname");
        str(p.pathname);
        ckey("query");
        opt_str(p.query);
        ckey("fragment");
        opt_str(p.fragment);
        if (p.headers) {
            ckey("headers");
            if (p.headers->empty()) {
                out_.append("[]", 2);
            } else {
                open('[');
                bool first = true;
                for (const header& h : *p.headers) {
                    element(first);
                    open('[');
                    bool first_inner = true;
                    element(first_inner);
                    str(h.name);
                    element(first_inner);
                    str(h.value);
                    close(']');
                    maybe_flush();
                }
                close(']');
            }
        }
        close('}');
    }

    void marker(const std::optional<line_marker>& m) {
        if (!m) {
            out_.append("null", 4);
            return;
        }
        open('{');
        key("marks");
        if (m->marks.empty()) {
            out_.append("[]", 2);
        } else {
            open('[');
            bool first = true;
            for (double d : m->marks) {
                element(first);
                number(d);
                maybe_flush();
            }
            close(']');
        }
        close('}');
    }

    void pos(const position& p) {
        open('{');
        key("line");
        num(p.line);
        ckey("column");
        num(p.column);
        close('}');
    }

    void opt_str(const std::optional<std::string_view>& s) {
        if (s) {
            str(*s);
        } else {
            out_.append("null", 4);
        }
    }
    void str(std::string_view s) {
        if (flush_ == nullptr || s.size() <= k_slice_bytes) {
            out_ += '"';
            append_escaped(out_, s);
            out_ += '"';
            return;
        }
        // A long string goes out in slices. Each is cut before a byte that starts a code point,
        // or before a stray continuation byte (one with no lead byte within the 3 before it), so
        // no well-formed sequence is split and the escaping is what one pass would write.
        out_ += '"';
        while (!s.empty()) {
            std::size_t cut = std::min(s.size(), k_slice_bytes);
            if (cut < s.size()) {
                std::size_t c = cut;
                while (c > cut - 3 && is_continuation(s[c])) --c;
                if (!is_continuation(s[c])) cut = c;
            }
            append_escaped(out_, s.substr(0, cut));
            s.remove_prefix(cut);
            maybe_flush();
        }
        out_ += '"';
    }
    // Text already JSON (a SEND body's canonical form), in slices when there is a flush.
    void raw(std::string_view s) {
        while (flush_ != nullptr && s.size() > k_slice_bytes) {
            out_.append(s.substr(0, k_slice_bytes));
            s.remove_prefix(k_slice_bytes);
            maybe_flush();
        }
        out_.append(s);
    }
    void maybe_flush() {
        if (flush_ != nullptr && out_.size() >= k_flush_bytes) {
            (*flush_)(out_.view());
            out_.clear();
        }
    }
    // A string known to need no escaping (op and enum names): one append with its quotes.
    void lit(std::string_view s) {
        char buf[k_short_lit + 2];
        if (s.size() > k_short_lit) {
            out_ += '"';
            out_.append(s);
            out_ += '"';
            return;
        }
        buf[0] = '"';
        std::memcpy(buf + 1, s.data(), s.size());
        buf[s.size() + 1] = '"';
        out_.append(buf, s.size() + 2);
    }
    static constexpr std::size_t k_short_lit = 30;
    // A number as JavaScript writes it (append_js_number, through a scratch string that keeps
    // its room).
    void number(double d) {
        number_.clear();
        append_js_number(number_, d);
        out_.append(number_);
    }
    std::string number_;
    void num(std::uint32_t v) {
        char buf[16];
        const auto res = std::to_chars(buf, buf + sizeof buf, v);
        out_.append(buf, static_cast<std::size_t>(res.ptr - buf));
    }
    void offset(std::size_t v) {
        char buf[24];
        const auto res = std::to_chars(buf, buf + sizeof buf, v);
        out_.append(buf, static_cast<std::size_t>(res.ptr - buf));
    }

    // Object keys: the writer's own (ASCII, nothing to escape) as literals; keys of re-indented
    // SEND JSON go through key_text.
    // `"k":` (and a space when pretty) in one append: every key is a literal, its length known
    // where it is written.
    template <std::size_t N>
    void key(const char (&k)[N]) {
        char buf[N + 3];
        buf[0] = '"';
        std::memcpy(buf + 1, k, N - 1);
        buf[N] = '"';
        buf[N + 1] = ':';
        buf[N + 2] = ' ';
        out_.append(buf, pretty_ ? N + 3 : N + 2);
    }
    // comma() and key(k), in one append when compact.
    template <std::size_t N>
    void ckey(const char (&k)[N]) {
        if (pretty_) {
            comma();
            key(k);
            return;
        }
        char buf[N + 3];
        buf[0] = ',';
        buf[1] = '"';
        std::memcpy(buf + 2, k, N - 1);
        buf[N + 1] = '"';
        buf[N + 2] = ':';
        out_.append(buf, N + 3);
    }
    void key_text(std::string_view k) {
        str(k);
        out_.append(pretty_ ? ": " : ":", pretty_ ? 2 : 1);
    }
    void open(char c) {
        out_ += c;
        ++depth_;
        newline();
    }
    void close(char c) {
        --depth_;
        newline();
        out_ += c;
    }
    void comma() {
        out_ += ',';
        newline();
    }
    void element(bool& first) {
        if (!first) comma();
        first = false;
    }
    void newline() {
        if (!pretty_) return;
        out_ += '\n';
        out_.append(static_cast<std::size_t>(depth_) * 2, ' ');
    }

    // Re-emits compact canonical JSON text (JSON.stringify output) with pretty indentation at the
    // current depth, in one pass over the text: no parse, no recursion, so any nesting depth is
    // fine and every escape (lone surrogates included) is kept exactly.
    void reindent(std::string_view json) {
        const int base = depth_;
        std::size_t i = 0;
        while (i < json.size()) {
            const char c = json[i];
            if (c == '"') {
                // Copy the string literal through its closing quote, escapes included.
                std::size_t k = i + 1;
                while (k < json.size() && json[k] != '"') k += json[k] == '\\' ? 2 : 1;
                k = std::min(k + 1, json.size());
                raw(json.substr(i, k - i));
                i = k;
                maybe_flush();
                continue;
            }
            if ((c == '{' || c == '[') && i + 1 < json.size() && json[i + 1] == (c == '{' ? '}' : ']')) {
                out_ += c;
                out_ += json[i + 1];
                i += 2;
                continue;
            }
            switch (c) {
                case '{':
                case '[': open(c); break;
                case '}':
                case ']': close(c); break;
                case ',':
                    comma();
                    maybe_flush();
                    break;
                case ':': out_ += ": "; break;
                default: out_ += c;
            }
            ++i;
        }
        depth_ = base;
    }

    json_out out_;
    bool pretty_;
    bool spans_;
    const json_flush* flush_ = nullptr;
    int depth_ = 0;
};

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
    out += '"';
    append_escaped(out, text);
    out += '"';
}


void append_json(std::string& out, const parse_result& result, const json_options& options) {
    writer(out, options).result(result);
}

void append_json(std::string& out, const item& it, const json_options& options) {
    writer(out, options).one_item(it);
}

void append_json(std::string& out, const statement& st, const json_options& options) {
    writer(out, options).one_statement(st);
}

void write_json(const parse_result& result, const json_flush& flush, const json_options& options) {
    std::string out;
    out.reserve(writer::k_flush_bytes + 4096);
    writer(out, options, &flush).result(result);
    flush(out);
}

std::string to_json(const parse_result& result, const json_options& options) {
    // Room for about the whole text at once: a large string grown by doubling is a series of
    // fresh blocks, each faulted in page by page and copied (on statements-1m, parse + to_json
    // took 3,281 page faults and 36 ms; with the room made first, none and 6.2 ms). The compact
    // text of a parse result is about its storage plus a tenth (statements-1m: 4.51 MB of
    // storage, 5.22 MB of JSON; turn-2k 4.5 and 5.0 KB); an estimate short of it only grows
    // from there, as before.
    const plurnk::item_list::storage_stats stored = result.items.storage();
    std::string out;
    out.reserve(256 + stored.bytes + stored.bytes / 4 + 16 * result.items.size() + (options.pretty ? stored.bytes : 0));
    append_json(out, result, options);
    return out;
}

}  // namespace plurnk
