// SPDX-License-Identifier: MIT
// Deltas (include/plurnk/serve.hpp): a turn split into content, reasoning and statements as its
// items settle. One splitter does it for a whole turn (project()) and for a stream (delta_stream),
// so the two agree by construction on what each byte is; the stream adds only the streaming of an
// open reasoning block's body before the block's text item settles.
#include <algorithm>
#include <stdexcept>
#include <utility>

#include "lex/lexer.hpp"
#include "grammar/op_table.hpp"
#include "plurnk/serve.hpp"

namespace plurnk {

namespace {

constexpr std::size_t npos = static_cast<std::size_t>(-1);

// The reasoning block a text item is: the pair's index (-1: none) and whether its closer ends it.
struct enclosure_match {
    int pair = -1;
    bool closed = false;
};

enclosure_match enclosure_of(std::string_view text) noexcept {
    for (int n = 0; n < 2; ++n) {
        const detail::enclosure_pair& p = detail::k_enclosures[n];
        if (!text.starts_with(p.open)) continue;
        return {n, text.size() >= p.open.size() + p.close.size() && text.ends_with(p.close)};
    }
    return {};
}

bool is_terminal_send(const statement& s) noexcept {
    return s.op == op::SEND && s.signal.kind == signal::kind_t::number && detail::is_disposition_code(s.signal.number);
}

bool is_blank(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t code_points(std::string_view s) noexcept {
    std::size_t n = 0;
    for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

// How many bytes at the end of `s` are the start of a UTF-8 sequence that has not arrived whole.
std::size_t partial_utf8(std::string_view s) noexcept {
    for (std::size_t k = 1; k <= 3 && k <= s.size(); ++k) {
        const auto b = static_cast<unsigned char>(s[s.size() - k]);
        if ((b & 0xC0) == 0x80) continue;  // a continuation byte: look further back
        const std::size_t need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
        return need > k ? k : 0;
    }
    return 0;
}

// The longest proper prefix of `tag` that `s` ends with (a closer that may be arriving).
std::size_t partial_tag(std::string_view s, std::string_view tag) noexcept {
    for (std::size_t k = std::min(tag.size() - 1, s.size()); k > 0; --k) {
        if (s.ends_with(tag.substr(0, k))) return k;
    }
    return 0;
}

}  // namespace

// Splits a turn into the channels as its items settle, in order. It keeps the input from
// `base` on (what is not classified yet, and an open reasoning block whole).
class splitter {
public:
    explicit splitter(bool code_points) : counting_(code_points) {}

    void append(std::string_view chunk) { pending_.append(chunk); }

    // A statement item, in order.
    void statement_item(const statement& s, std::size_t index, std::size_t call, delta& d) {
        if (d.statements.empty()) d.first_call = call;
        if (!unclosed_) {
            content_to(s.span.begin, d);
            emitted_ = s.span.end;
        }
        d.statements.push_back(s);
        d.indices.push_back(index);
        if (counting_) {
            const std::size_t b = code_point_at(s.span.begin);
            d.code_point_spans.push_back(byte_span{b, code_point_at(s.span.end)});
        }
        if (!unclosed_ && is_terminal_send(s)) d.ends_turn = true;
    }

    // A text item, in order: a reasoning block's text goes to reasoning (plain text is content,
    // which the gaps between the other items give).
    void text_item(const plurnk::text_item& t, std::size_t fed, delta& d) {
        if (unclosed_) return;
        const enclosure_match m = enclosure_of(t.text);
        if (m.pair < 0) return;
        const detail::enclosure_pair& p = detail::k_enclosures[m.pair];
        const std::size_t body = t.span.begin + p.open.size();
        if (!m.closed) {
            // No closer after it anywhere in the turn: the turn ended inside it (the lexer took
            // the opener as plain text), and the rest of the turn is reasoning.
            if (view(body, fed).find(p.close) != std::string_view::npos) return;  // plain text
            unclosed_ = true;
        }
        content_to(t.span.begin, d);
        const std::size_t from = open_at_ == t.span.begin ? std::max(body, reasoning_to_) : body;
        const std::size_t to = m.closed ? t.span.end - p.close.size() : fed;
        if (to > from) d.reasoning.append(view(from, to));
        emitted_ = m.closed ? t.span.end : fed;
        open_at_ = npos;
    }

    // Everything before `settled` is settled (no item will start there), and the input fed ends at
    // `fed`; at the end, the unparsed tail (if any) starts at `tail`. Prose up to the settled point,
    // then the body of a reasoning block open there as far as it has arrived.
    void settle(std::size_t settled, std::size_t fed, bool ended, std::size_t tail, delta& d) {
        if (unclosed_) return;
        content_to(ended ? std::min(tail, fed) : settled, d);
        if (ended) {
            emitted_ = std::max(emitted_, fed);
            return;
        }
        stream_open_block(fed, d);
    }

    // Whether prose up to `settled` may hold the opener of a statement that is still open: the
    // parser settles what error recovery consumed, an unclosed statement's opener included, and
    // the end makes that statement the unparsed tail, which is no prose. Looks at each byte once
    // (and again while capped, which the caller lifts as soon as the statement closes).
    bool may_hold_opener(std::size_t settled) {
        const std::size_t from = std::max(emitted_, opener_scan_);
        const bool found = settled > from + 1 && view(from, settled).find("<<") != std::string_view::npos;
        opener_scan_ = std::max(from, settled > 0 ? settled - 1 : 0);
        return found || capped_;
    }
    void set_capped(bool c) noexcept { capped_ = c; }
    [[nodiscard]] bool capped() const noexcept { return capped_; }
    // Whether everything up to `limit` is in a channel and no reasoning block is being streamed
    // (then the end adds nothing below `limit`).
    [[nodiscard]] bool settled_at(std::size_t limit) const noexcept {
        return !unclosed_ && emitted_ >= limit && open_at_ != emitted_;
    }
    // What the end would add when all that is unsettled is a reasoning block whose closer has not
    // arrived and whose body holds no statement opener (only text can follow the opener then, so
    // the end makes the rest of the turn reasoning, as text_item() does for an unclosed block):
    // the rest of its body, without lexing it again. False when that is not the case.
    bool open_block_end(std::size_t settled, std::size_t fed, delta& d) const {
        if (unclosed_ || open_at_ != emitted_ || settled != emitted_ || block_scanned_ != fed || opener_in_block_ ||
            block_closed_) {
            return false;
        }
        if (fed > reasoning_to_) d.reasoning.append(view(reasoning_to_, fed));
        return true;
    }

    // Drops the input no longer needed (amortized: only when it is most of what is held).
    void compact() {
        const std::size_t keep_from = emitted_;
        const std::size_t drop = keep_from - base_;
        if (drop == 0 || 2 * drop < pending_.size()) return;
        if (counting_ && cursor_ < keep_from) {
            cursor_points_ += code_points(view(cursor_, keep_from));
            cursor_ = keep_from;
        }
        pending_.erase(0, drop);
        base_ = keep_from;
    }

private:
    std::string_view view(std::size_t from, std::size_t to) const noexcept {
        return std::string_view(pending_).substr(from - base_, to - from);
    }
    void content_to(std::size_t to, delta& d) {
        if (to > emitted_) d.content.append(view(emitted_, to));
        emitted_ = std::max(emitted_, to);
    }
    std::size_t code_point_at(std::size_t at) {
        cursor_points_ += code_points(view(cursor_, at));
        cursor_ = at;
        return cursor_points_;
    }

    // A reasoning block whose opener is at the settled point and whose closer has not arrived (or
    // has, but its text item has not settled): its body so far is reasoning. Streamed once it holds
    // a blank, which makes it a block for sure once its closer comes (before that, a closer with
    // text glued after it would make the whole a plain word); a closer's first bytes at the end and
    // half a UTF-8 sequence wait for what follows.
    void stream_open_block(std::size_t fed, delta& d) {
        const std::string_view rest = view(emitted_, fed);
        int pair = -1;
        for (int n = 0; n < 2; ++n) {
            if (rest.starts_with(detail::k_enclosures[n].open)) pair = n;
        }
        if (pair < 0) return;
        const detail::enclosure_pair& p = detail::k_enclosures[pair];
        const std::size_t body = emitted_ + p.open.size();
        if (open_at_ != emitted_) {
            open_at_ = emitted_;
            reasoning_to_ = body;
            blank_ = false;
            opener_in_block_ = false;
            block_scanned_ = body;
        }
        // Whether the body so far holds a statement opener (each byte looked at once).
        if (!opener_in_block_ && fed > block_scanned_) {
            const std::size_t from = block_scanned_ > body ? block_scanned_ - 1 : body;
            opener_in_block_ = view(from, fed).find("<<") != std::string_view::npos;
        }
        block_scanned_ = fed;
        // A closer starts at reasoning_to_ or later (what was streamed held back any prefix of it).
        const std::size_t close = view(reasoning_to_, fed).find(p.close);
        block_closed_ = close != std::string_view::npos;
        std::size_t to = close != std::string_view::npos ? reasoning_to_ + close : fed;
        if (close == std::string_view::npos) {
            to -= partial_tag(view(reasoning_to_, fed), p.close);
            if (to == fed) to -= partial_utf8(view(reasoning_to_, fed));
        }
        if (!blank_) {
            const std::string_view b = view(body, to);
            if (std::none_of(b.begin(), b.end(), is_blank)) return;
            blank_ = true;
        }
        if (to > reasoning_to_) {
            d.reasoning.append(view(reasoning_to_, to));
            reasoning_to_ = to;
        }
    }

    std::string pending_;       // the input from base_ on
    bool opener_in_block_ = false;   // the block's body holds "<<" (up to block_scanned_)
    std::size_t block_scanned_ = 0;
    bool block_closed_ = false;      // its closer has arrived
    std::size_t base_ = 0;
    std::size_t emitted_ = 0;   // every byte before it is in a channel
    std::size_t open_at_ = npos;  // the opener of the reasoning block being streamed
    std::size_t reasoning_to_ = 0;  // its body is streamed up to here
    bool blank_ = false;        // its body holds a blank
    bool unclosed_ = false;     // the turn ended inside a reasoning block: the rest is reasoning
    std::size_t opener_scan_ = 0;  // may_hold_opener() has looked at the bytes before this
    bool capped_ = false;       // prose stops at an open statement's opener
    bool counting_ = false;     // code point spans
    std::size_t cursor_ = 0;    // code points before cursor_: cursor_points_
    std::size_t cursor_points_ = 0;
};

void delta::append(const delta& later) {
    if (statements.empty()) first_call = later.first_call;
    content += later.content;
    reasoning += later.reasoning;
    for (const item& it : later.statements) statements.push_back(it);
    indices.insert(indices.end(), later.indices.begin(), later.indices.end());
    code_point_spans.insert(code_point_spans.end(), later.code_point_spans.begin(), later.code_point_spans.end());
    runaways.insert(runaways.end(), later.runaways.begin(), later.runaways.end());
    ends_turn = ends_turn || later.ends_turn;
}

delta project(std::string_view input, const parse_result& result) {
    splitter sp(false);
    sp.append(input);
    delta d;
    std::size_t calls = 0;
    for (auto it = result.items.begin(); it != result.items.end(); ++it) {
        const item x = *it;
        if (const auto* s = std::get_if<statement>(&x)) {
            sp.statement_item(*s, it.index(), calls++, d);
        } else if (const auto* t = std::get_if<text_item>(&x)) {
            sp.text_item(*t, input.size(), d);
        }
    }
    if (d.statements.empty()) d.first_call = 0;
    sp.settle(input.size(), input.size(), true, result.tail ? result.tail->span.begin : input.size(), d);
    return d;
}

// ---- delta_stream --------------------------------------------------------------------------

struct delta_stream::core {
    core(tier t, const parse_options& o, const serve_options& s)
        : parser(t, o), serve(s), split(s.code_points), limit(std::min(o.max_input_bytes, parse_options::k_max_input_bytes)) {
        parser.set_release_threshold(s.release_threshold);
        bind();
    }
    core(const core& o)
        : parser(o.parser), serve(o.serve), split(o.split), limit(o.limit), calls(o.calls), ended(o.ended),
          result(o.result) {
        bind();
    }
    core& operator=(const core&) = delete;

    // The parser's events and runaways go to the delta being made.
    void bind() {
        parser.set_callback([this](const stream_event& e) { on_event(e, *out); });
        if (serve.max_open_bytes != 0) {
            parser.set_runaway_limit(serve.max_open_bytes, [this](const open_info& o) { out->runaways.push_back(o); });
        }
    }
    void on_event(const stream_event& e, delta& d) {
        if (const auto* s = std::get_if<statement>(&e.value)) {
            split.statement_item(*s, e.index, calls++, d);
        } else if (const auto* t = std::get_if<text_item>(&e.value)) {
            split.text_item(*t, parser.size(), d);
        }
    }

    delta feed(std::string_view chunk) {
        delta d;
        if (ended || chunk.empty()) return d;
        d.first_call = calls;
        out = &d;
        // What the parser keeps (it counts the rest only, and reports it at the end).
        const std::size_t room = parser.size() < limit ? limit - parser.size() : 0;
        split.append(chunk.substr(0, room));
        parser.feed(chunk);
        split.settle(settled_prose(), parser.size(), false, npos, d);
        split.compact();
        out = nullptr;
        return d;
    }

    // How far prose is settled: the safe prefix, or the opener of a statement still open when
    // error recovery has taken it (the end would make it the unparsed tail).
    std::size_t settled_prose() {
        const std::size_t settled = parser.safe_prefix();
        if (!split.may_hold_opener(settled)) return settled;
        const open_info o = parser.open();
        const bool open = o.where != open_info::where_t::none && o.where != open_info::where_t::turn;
        split.set_capped(open && o.begin < settled);
        return open && o.begin < settled ? o.begin : settled;
    }

    delta end() {
        delta d;
        if (ended) return d;
        d.first_call = calls;
        out = &d;
        result = parser.finish();
        ended = true;
        split.settle(parser.size(), parser.size(), true, result.tail ? result.tail->span.begin : parser.size(), d);
        split.compact();
        out = nullptr;
        return d;
    }

    // end() on a copy of what is pending: the parser's peek, and the splitter copied only when
    // the end would settle something (or prose is held back).
    delta peek() const {
        delta d;
        if (ended) return d;
        d.first_call = calls;
        const std::size_t fed = parser.size();
        std::size_t tail = fed;
        item_list items;
        std::vector<std::size_t> indices;
        // Only a reasoning block open, with no statement in it: its rest is all the end adds.
        if (!split.capped() && split.open_block_end(parser.safe_prefix(), fed, d)) return d;
        // Nothing unsettled and no statement open: the end settles no item and leaves no tail.
        if (parser.safe_prefix() < fed || split.capped()) {
            tail = parser.peek_end([&](const stream_event& e) {
                items.push_back(e.value);
                indices.push_back(e.index);
            });
        }
        if (items.empty() && split.settled_at(std::min(tail, fed))) return d;
        splitter sp = split;
        std::size_t n = calls;
        for (std::size_t i = 0; i < items.size(); ++i) {
            const item it = items[i];
            if (const auto* st = std::get_if<statement>(&it)) {
                sp.statement_item(*st, indices[i], n++, d);
            } else if (const auto* t = std::get_if<text_item>(&it)) {
                sp.text_item(*t, fed, d);
            }
        }
        sp.settle(fed, fed, true, tail, d);
        return d;
    }

    stream_parser parser;
    serve_options serve;
    splitter split;
    std::size_t limit;
    std::size_t calls = 0;  // tool calls so far
    bool ended = false;
    parse_result result;
    delta* out = nullptr;  // the delta being made, during feed() and end()
};

struct delta_stream::draft_state {
    std::unique_ptr<core> saved;  // the stream before the draft
    delta held;                   // what the draft's chunks settled
    std::vector<std::string> chunks;
};

delta_stream::delta_stream(tier t, const parse_options& options, const serve_options& serve)
    : core_(std::make_unique<core>(t, options, serve)) {}
delta_stream::~delta_stream() = default;
delta_stream::delta_stream(const delta_stream& other) : core_(std::make_unique<core>(*other.core_)) {
    if (other.draft_) {
        draft_ = std::make_unique<draft_state>(
            draft_state{std::make_unique<core>(*other.draft_->saved), other.draft_->held, other.draft_->chunks});
    }
}
delta_stream& delta_stream::operator=(const delta_stream& other) {
    if (this != &other) *this = delta_stream(other);
    return *this;
}
delta_stream::delta_stream(delta_stream&&) noexcept = default;
delta_stream& delta_stream::operator=(delta_stream&&) noexcept = default;

delta delta_stream::feed(std::string_view chunk) {
    if (!draft_) return core_->feed(chunk);
    draft_->held.append(core_->feed(chunk));
    draft_->chunks.emplace_back(chunk);
    return {};
}

delta delta_stream::end() {
    if (draft_) throw std::logic_error("plurnk::delta_stream::end(): a draft is open; accept() or reject() it first");
    return core_->end();
}

delta delta_stream::peek_end() const { return core_->peek(); }

parse_result delta_stream::finish() {
    if (!core_->ended) (void)end();
    return core_->result;
}

bool delta_stream::ended() const noexcept { return core_->ended; }

void delta_stream::draft() {
    if (draft_) return;
    auto d = std::make_unique<draft_state>();
    d->saved = std::make_unique<core>(*core_);
    d->held.first_call = core_->calls;
    draft_ = std::move(d);
}

delta delta_stream::accept(std::size_t chunks) {
    if (!draft_) return {};
    std::unique_ptr<draft_state> d = std::move(draft_);
    if (chunks >= d->chunks.size()) return std::move(d->held);
    core_ = std::move(d->saved);
    delta out;
    out.first_call = core_->calls;
    for (std::size_t i = 0; i < chunks; ++i) out.append(core_->feed(d->chunks[i]));
    return out;
}

void delta_stream::reject() { (void)accept(0); }

bool delta_stream::drafting() const noexcept { return draft_ != nullptr; }

const stream_parser& delta_stream::parser() const noexcept { return core_->parser; }

}  // namespace plurnk
