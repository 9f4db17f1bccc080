// SPDX-License-Identifier: MIT
// json_document (include/plurnk/json.hpp; the layout is in json_tape.hpp): the builder that puts
// an object's members in JavaScript's order when it closes, reading a value, walking a document
// without recursion (to write it as JSON or build a json_value), and building one from a
// json_value.
#include <algorithm>
#include <bit>
#include <functional>
#include <stdexcept>
#include <utility>

#include "json_tape.hpp"
#include "base/work_counter.hpp"

namespace plurnk {

using namespace tape;

std::string_view json_document_access::string_at(const json_document& d, std::uint32_t at) noexcept {
    std::size_t p = static_cast<std::size_t>(payload(d.tape_[at]));
    std::size_t len = 0;
    for (int shift = 0;; shift += 7) {
        const auto b = static_cast<unsigned char>(d.strings_[p++]);
        len |= static_cast<std::size_t>(b & 0x7F) << shift;
        if (b < 0x80) break;
    }
    return std::string_view(d.strings_).substr(p, len);
}

// ---------------------------------------------------------------------------------------------
// Building

tape_builder::tape_builder(json_document& d) noexcept
    : doc_(d), tape_(json_document_access::tape(d)), strings_(json_document_access::strings(d)) {
    tape_.clear();
    strings_.clear();
    json_document_access::numbers(d).clear();
    json_document_access::orders(d).clear();
}

void tape_builder::reserve_for_text(std::size_t n) {
    // Every value or key takes at least two bytes of text (with its separator or bracket), and
    // a string's bytes at most three times its text (an invalid byte becomes U+FFFD).
    tape_.reserve(std::min<std::size_t>(n / 2 + 2, k_max_words));
    strings_.reserve(n);
}

bool tape_builder::number(double x) {
    const auto bits = std::bit_cast<std::uint64_t>(x);
    if ((bits & 15) == 0) return push(word(t_inline_number, bits >> 4));
    auto& numbers = json_document_access::numbers(doc_);
    if (!push(word(t_number, numbers.size()))) return false;
    numbers.push_back(x);
    return true;
}

std::string* tape_builder::begin_string() {
    if (!push(word(t_string, strings_.size()))) return nullptr;
    strings_ += '\0';  // the length's first byte
    string_start_ = strings_.size();
    return &strings_;
}

void tape_builder::end_string() {
    std::size_t len = strings_.size() - string_start_;
    if (len < 0x80) {
        strings_[string_start_ - 1] = static_cast<char>(len);
        return;
    }
    char bytes[10];
    std::size_t n = 0;
    do {
        bytes[n++] = static_cast<char>((len & 0x7F) | 0x80);
        len >>= 7;
    } while (len != 0);
    bytes[n - 1] = static_cast<char>(bytes[n - 1] & 0x7F);
    strings_.insert(string_start_, n - 1, '\0');
    std::copy(bytes, bytes + n, strings_.begin() + static_cast<std::ptrdiff_t>(string_start_ - 1));
}

bool tape_builder::open(bool is_object) {
    if (!push(word(is_object ? t_object : t_array, open_))) return false;
    open_ = static_cast<std::uint32_t>(tape_.size());
    return true;
}

void tape_builder::close() {
    const std::uint32_t at = open_ - 1;
    const auto end = static_cast<std::uint32_t>(tape_.size());
    const std::uint64_t w = tape_[at];
    open_ = static_cast<std::uint32_t>(payload(w));
    tape_[at] = word(tag_of(w), end);
    if (tag_of(w) == t_object && end - at > 4) order_members(at, end);  // two members or more
}

namespace {

// The members of the object at `object`, whose words end at `end`: each a key word, then its
// value's words.
struct object_members {
    const json_document& d;
    std::uint32_t object;
    std::uint32_t end;

    [[nodiscard]] std::uint32_t first() const noexcept { return object + 1; }
    [[nodiscard]] std::string_view key(std::uint32_t k) const noexcept {
        return json_document_access::string_at(d, k);
    }
    [[nodiscard]] std::uint32_t next(std::uint32_t k) const noexcept {
        return json_document_access::end_of(d, k + 1);
    }
};

constexpr std::size_t k_linear_members = 8;  // up to this many, keys are compared pairwise

// How many members there are, and whether an index key comes after another key that is not
// one or not smaller (JavaScript would list it earlier).
struct member_count {
    std::uint32_t members = 0;
    bool reorder = false;
};
member_count count_members(const object_members& m) noexcept {
    member_count r;
    bool named = false;
    std::uint64_t last = 0;
    for (std::uint32_t k = m.first(); k < m.end; k = m.next(k)) {
        ++r.members;
        const std::uint64_t index = array_index(m.key(k));
        if (index != k_not_index) {
            r.reorder = r.reorder || named || (r.members > 1 && index <= last);
            last = index;
        } else {
            named = true;
        }
    }
    return r;
}

// Whether a key comes twice. Past k_linear_members the keys go through `slots`, a hash index
// of `mask` + 1 entries (each a key's offset from the object, 0: free), left filled.
bool has_repeated_key(const object_members& m, std::uint32_t members, std::vector<std::uint32_t>& slots,
                      std::size_t& mask) {
    if (members <= k_linear_members) {
        for (std::uint32_t k = m.first(); k < m.end; k = m.next(k)) {
            for (std::uint32_t j = m.first(); j < k; j = m.next(j)) {
                if (m.key(j) == m.key(k)) return true;
            }
        }
        return false;
    }
    std::size_t size = 16;
    while (size < std::size_t{members} * 2) size *= 2;
    slots.assign(size, 0);
    mask = size - 1;
    for (std::uint32_t k = m.first(); k < m.end; k = m.next(k)) {
        for (std::size_t i = std::hash<std::string_view>{}(m.key(k)) & mask;; i = (i + 1) & mask) {
            if (slots[i] == 0) {
                slots[i] = k - m.object;
                break;
            }
            if (m.key(m.object + slots[i]) == m.key(k)) return true;
        }
    }
    return false;
}

// Appends to `orders` the value word of each distinct key in the order it first came, taking
// a repeated key's last value; `first` is where the object's list begins. Past
// k_linear_members the keys go through `slots` (cleared here), of `mask` + 1 entries.
void list_last_values(const object_members& m, std::uint32_t members, std::vector<std::uint32_t>& orders,
                      std::size_t first, std::vector<std::uint32_t>& slots, std::size_t mask) {
    if (members <= k_linear_members) {
        for (std::uint32_t k = m.first(); k < m.end; k = m.next(k)) {
            std::size_t e = first;
            while (e < orders.size() && m.key(orders[e] - 1) != m.key(k)) ++e;
            if (e < orders.size()) orders[e] = k + 1;
            else orders.push_back(k + 1);
        }
        return;
    }
    std::fill(slots.begin(), slots.end(), 0);
    for (std::uint32_t k = m.first(); k < m.end; k = m.next(k)) {
        for (std::size_t i = std::hash<std::string_view>{}(m.key(k)) & mask;; i = (i + 1) & mask) {
            if (slots[i] == 0) {
                orders.push_back(k + 1);
                slots[i] = static_cast<std::uint32_t>(orders.size() - first);
                break;
            }
            std::uint32_t& entry = orders[first + slots[i] - 1];
            if (m.key(entry - 1) == m.key(k)) {
                entry = k + 1;
                break;
            }
        }
    }
}

// Puts the list of value words from `first` on (their keys distinct) in JavaScript's order:
// the index keys sorted by value first; the others keep their order after them, moved back
// from the end.
void sort_index_keys_first(const object_members& m, std::vector<std::uint32_t>& orders, std::size_t first) {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> indexed;  // (index, value word)
    for (std::size_t e = first; e < orders.size(); ++e) {
        const std::uint64_t index = array_index(m.key(orders[e] - 1));
        if (index != k_not_index) indexed.emplace_back(index, orders[e]);
    }
    std::sort(indexed.begin(), indexed.end());
    std::size_t to = orders.size();
    for (std::size_t e = orders.size(); e-- > first;) {
        if (array_index(m.key(orders[e] - 1)) == k_not_index) orders[--to] = orders[e];
    }
    for (std::size_t i = 0; i < indexed.size(); ++i) orders[first + i] = indexed[i].second;
}

}  // namespace

// Puts the members of the object at `object` in JavaScript property order when the text's
// differs: array-index keys first, ascending, then the others in the order they came; a repeated
// key keeps its first place and takes its last value. Linear in the members (small objects
// compare keys pairwise, larger ones through a hash index of their keys). A reordered object's
// word points at its entry in the order list: its end, its count of values, then their words.
void tape_builder::order_members(std::uint32_t object, std::uint32_t end) {
    const object_members m{doc_, object, end};
    const member_count c = count_members(m);
    std::size_t mask = 0;
    const bool repeats = has_repeated_key(m, c.members, slots_, mask);
    detail::count_json_bytes(c.members);
    if (!c.reorder && !repeats) return;

    auto& orders = json_document_access::orders(doc_);
    const auto base = orders.size();
    orders.push_back(end);
    orders.push_back(0);
    const std::size_t first = orders.size();
    if (!repeats) {
        for (std::uint32_t k = m.first(); k < end; k = m.next(k)) orders.push_back(k + 1);
    } else {
        list_last_values(m, c.members, orders, first, slots_, mask);
    }
    if (slots_.capacity() > 4096) std::vector<std::uint32_t>().swap(slots_);
    const std::size_t count = orders.size() - first;
    detail::count_json_bytes(c.members + count);
    orders[base + 1] = static_cast<std::uint32_t>(count);
    if (c.reorder) sort_index_keys_first(m, orders, first);
    tape_[object] = word(t_ordered, base);
}

// ---------------------------------------------------------------------------------------------
// Reading

json_document::json_document() : tape_{word(t_null, 0)} {}

std::size_t json_document::memory() const noexcept {
    return tape_.size() * sizeof(std::uint64_t) + numbers_.size() * sizeof(double) + strings_.size() +
           orders_.size() * sizeof(std::uint32_t);
}

json_ref::kind_t json_ref::kind() const noexcept {
    if (doc_ == nullptr) return kind_t::null;
    switch (tag_of(doc_->tape_[at_])) {
        case t_false:
        case t_true: return kind_t::boolean;
        case t_inline_number:
        case t_number: return kind_t::number;
        case t_string: return kind_t::string;
        case t_array: return kind_t::array;
        case t_object:
        case t_ordered: return kind_t::object;
        default: return kind_t::null;
    }
}

bool json_ref::boolean() const noexcept { return doc_ != nullptr && tag_of(doc_->tape_[at_]) == t_true; }

double json_ref::number() const noexcept {
    if (doc_ == nullptr) return 0;
    const std::uint64_t w = doc_->tape_[at_];
    if (tag_of(w) == t_inline_number) return std::bit_cast<double>(payload(w) << 4);
    if (tag_of(w) == t_number) return doc_->numbers_[payload(w)];
    return 0;
}

std::string_view json_ref::string() const noexcept {
    if (doc_ == nullptr || tag_of(doc_->tape_[at_]) != t_string) return {};
    return json_document_access::string_at(*doc_, at_);
}

bool json_ref::empty() const noexcept { return begin() == end(); }

std::size_t json_ref::size() const noexcept {
    if (doc_ != nullptr && tag_of(doc_->tape_[at_]) == t_ordered) return doc_->orders_[payload(doc_->tape_[at_]) + 1];
    std::size_t n = 0;
    for (auto it = begin(), e = end(); it != e; ++it) ++n;
    return n;
}

json_ref json_ref::find(std::string_view key) const noexcept {
    if (kind() != kind_t::object) return {};
    for (const member m : *this) {
        if (m.key == key) return m.value;
    }
    return {};
}

json_ref::iterator json_ref::begin() const noexcept {
    iterator it;
    if (doc_ == nullptr) return it;
    it.doc_ = doc_;
    const std::uint64_t w = doc_->tape_[at_];
    switch (tag_of(w)) {
        case t_array: it.at_ = at_ + 1; break;
        case t_object:
            it.at_ = at_ + 1;
            it.object_ = true;
            break;
        case t_ordered:
            it.slot_ = static_cast<std::uint32_t>(payload(w) + 2);
            it.object_ = it.ordered_ = true;
            break;
        default: it.at_ = at_ + 1; break;
    }
    return it;
}

json_ref::iterator json_ref::end() const noexcept {
    iterator it;
    if (doc_ == nullptr) return it;
    it.doc_ = doc_;
    const std::uint64_t w = doc_->tape_[at_];
    if (tag_of(w) == t_ordered) {
        it.slot_ = static_cast<std::uint32_t>(payload(w) + 2 + doc_->orders_[payload(w) + 1]);
        it.object_ = it.ordered_ = true;
    } else {
        it.at_ = json_document_access::end_of(*doc_, at_);
        it.object_ = tag_of(w) == t_object;
    }
    return it;
}

json_ref::member json_ref::iterator::operator*() const noexcept {
    if (ordered_) {
        const std::uint32_t v = doc_->orders_[slot_];
        return {json_document_access::string_at(*doc_, v - 1), json_ref(doc_, v)};
    }
    if (object_) return {json_document_access::string_at(*doc_, at_), json_ref(doc_, at_ + 1)};
    return {{}, json_ref(doc_, at_)};
}

json_ref::iterator& json_ref::iterator::operator++() noexcept {
    if (ordered_) ++slot_;
    else at_ = json_document_access::end_of(*doc_, object_ ? at_ + 1 : at_);
    return *this;
}

// ---------------------------------------------------------------------------------------------
// Walking without recursion

namespace {

// The containers a walk is in, kept as a stack of bytes: each the distance from the one it is
// in (a varint, read back from its end), so text nested a million deep costs a few bytes per
// level.
class open_containers {
public:
    [[nodiscard]] bool empty() const noexcept { return top_ == UINT32_MAX; }
    [[nodiscard]] std::uint32_t top() const noexcept { return top_; }

    void push(std::uint32_t c) {
        std::uint32_t delta = top_ == UINT32_MAX ? 0 : c - top_;
        stack_ += static_cast<char>((delta & 0x7F) | 0x80);  // the first byte, marked
        for (delta >>= 7; delta != 0; delta >>= 7) stack_ += static_cast<char>(delta & 0x7F);
        top_ = c;
    }
    void pop() noexcept {
        std::uint32_t delta = 0;
        for (;;) {
            const auto b = static_cast<unsigned char>(stack_.back());
            stack_.pop_back();
            delta = (delta << 7) | (b & 0x7F);
            if (b >= 0x80) break;
        }
        top_ = delta == 0 ? UINT32_MAX : top_ - delta;
    }

private:
    std::string stack_;               // a varint per open container but the innermost
    std::uint32_t top_ = UINT32_MAX;  // the innermost open container
};

// Where a walk is: the value at `at`, with `key` when it is a member (a null view otherwise),
// `first` when it opens its container. A reordered object's place in its order list goes on
// `slots`.
struct walk_position {
    const json_document& d;
    std::uint32_t at;
    std::string_view key{};
    bool first = true;
    open_containers open{};
    std::vector<std::uint32_t> slots{};  // the innermost and enclosing reordered objects' places

    // Goes into the container at `at` (word `w`, tag `t`, not empty), to its first child.
    void enter(tag t, std::uint64_t w) {
        open.push(at);
        first = true;
        if (t == t_ordered) {
            const auto slot = static_cast<std::uint32_t>(payload(w) + 2);
            slots.push_back(slot);
            at = json_document_access::orders(d)[slot];
            key = json_document_access::string_at(d, at - 1);
        } else if (t == t_object) {
            key = json_document_access::string_at(d, at + 1);
            at += 2;
        } else {
            key = {};
            at += 1;
        }
    }

    // The value at `at` is complete: closes what ends here (close() for each), then goes on to
    // the next child. False when the walk is done.
    template <class Visitor>
    bool next(Visitor& visit) {
        const auto& tape = json_document_access::tape(d);
        const auto& orders = json_document_access::orders(d);
        at = json_document_access::end_of(d, at);
        first = false;
        for (;;) {
            if (open.empty()) return false;
            const std::uint64_t tw = tape[open.top()];
            const tag tt = tag_of(tw);
            if (tt == t_ordered) {
                const auto base = static_cast<std::uint32_t>(payload(tw));
                std::uint32_t& slot = slots.back();
                if (++slot < base + 2 + orders[base + 1]) {
                    at = orders[slot];
                    key = json_document_access::string_at(d, at - 1);
                    return true;
                }
                at = orders[base];
                slots.pop_back();
            } else if (at != payload(tw)) {
                if (tt == t_object) {
                    key = json_document_access::string_at(d, at);
                    ++at;
                } else {
                    key = {};
                }
                return true;
            }
            visit.close(tt == t_array);
            open.pop();
        }
    }
};

// Visits a value and its descendants in JavaScript's order: value() for each (with its key when
// it is a member, a null view otherwise), then, for a container, its children and close().
template <class Visitor>
void walk(const json_document& d, std::uint32_t root, Visitor&& visit) {
    const auto& tape = json_document_access::tape(d);
    walk_position pos{d, root};
    for (;;) {
        const std::uint64_t w = tape[pos.at];
        visit.value(json_document_access::ref(d, pos.at), pos.key, pos.first);
        const tag t = tag_of(w);
        if (t == t_array || t == t_object || t == t_ordered) {
            if (json_document_access::end_of(d, pos.at) != pos.at + 1) {
                pos.enter(t, w);
                continue;
            }
            visit.close(t == t_array);
        }
        if (!pos.next(visit)) return;
    }
}

}  // namespace

namespace {

// Writes a value as JSON.stringify does; with a flush, hands the text over whenever it passes
// k_piece bytes.
struct value_writer {
    static constexpr std::size_t k_piece = 1 << 16;
    std::string& out;
    const json_flush* flush = nullptr;

    void value(json_ref v, std::string_view key, bool first) {
        if (!first) out += ',';
        if (key.data() != nullptr) {
            append_json_value_string(out, key);
            out += ':';
        }
        switch (v.kind()) {
            case json_value::kind_t::null: out += "null"; break;
            case json_value::kind_t::boolean: out += v.boolean() ? "true" : "false"; break;
            case json_value::kind_t::number: append_js_number(out, v.number()); break;
            case json_value::kind_t::string: append_json_value_string(out, v.string()); break;
            case json_value::kind_t::array: out += '['; break;
            case json_value::kind_t::object: out += '{'; break;
        }
        spill();
    }
    void close(bool array) {
        out += array ? ']' : '}';
        spill();
    }
    void spill() {
        if (flush != nullptr && out.size() >= k_piece) {
            (*flush)(out);
            out.clear();
        }
    }
    void write(json_ref v) {
        if (v) walk(*v.document(), v.index(), *this);
        else out += "null";
    }
};

}  // namespace

void append_json_value(std::string& out, json_ref value) { value_writer{out}.write(value); }

void write_json(json_ref value, const json_flush& flush) {
    std::string out;
    value_writer{out, &flush}.write(value);
    flush(out);
}

std::string stringify_json(json_ref value) {
    std::string out;
    append_json_value(out, value);
    return out;
}

json_value to_json_value(json_ref value) {
    json_value root;
    if (!value) return root;
    struct builder {
        json_value& root;
        std::vector<json_value*> open;
        void value(json_ref v, std::string_view key, bool) {
            json_value* slot = &root;
            if (!open.empty()) {
                json_value& parent = *open.back();
                if (parent.kind == json_value::kind_t::array) {
                    slot = &parent.array.emplace_back();
                } else {
                    slot = &parent.object.emplace_back(std::string(key), json_value{}).second;
                }
            }
            slot->kind = v.kind();
            switch (v.kind()) {
                case json_value::kind_t::boolean: slot->boolean = v.boolean(); break;
                case json_value::kind_t::number: slot->number = v.number(); break;
                case json_value::kind_t::string: slot->string = v.string(); break;
                case json_value::kind_t::array:
                case json_value::kind_t::object:
                    // Sized before the children are added, so `slot` stays where it is.
                    if (v.kind() == json_value::kind_t::array) slot->array.reserve(v.size());
                    else slot->object.reserve(v.size());
                    open.push_back(slot);
                    break;
                default: break;
            }
        }
        void close(bool) { open.pop_back(); }
    };
    walk(*value.document(), value.index(), builder{root, {}});
    return root;
}

// ---------------------------------------------------------------------------------------------
// From a json_value

json_document::json_document(const json_value& v) {
    tape_builder b(*this);
    struct frame {
        const json_value* value;
        std::size_t next;  // the next element or member to add
    };
    std::vector<frame> open;
    const json_value* at = &v;
    const auto full = [] { throw std::length_error("json_document: more than 2^32 - 2 values"); };
    for (;;) {
        bool ok = true;
        switch (at->kind) {
            case json_value::kind_t::null: ok = b.null(); break;
            case json_value::kind_t::boolean: ok = b.boolean(at->boolean); break;
            case json_value::kind_t::number: ok = b.number(at->number); break;
            case json_value::kind_t::string: {
                std::string* s = b.begin_string();
                if (s == nullptr) full();
                *s += at->string;
                b.end_string();
                break;
            }
            case json_value::kind_t::array:
            case json_value::kind_t::object:
                ok = b.open(at->kind == json_value::kind_t::object);
                open.push_back({at, 0});
                break;
        }
        if (!ok) full();
        at = nullptr;
        while (!open.empty()) {
            frame& f = open.back();
            if (f.value->kind == json_value::kind_t::array && f.next < f.value->array.size()) {
                at = &f.value->array[f.next++];
                break;
            }
            if (f.value->kind == json_value::kind_t::object && f.next < f.value->object.size()) {
                const auto& m = f.value->object[f.next++];
                std::string* s = b.begin_string();
                if (s == nullptr) full();
                *s += m.first;
                b.end_string();
                at = &m.second;
                break;
            }
            b.close();
            open.pop_back();
        }
        if (at == nullptr) return;
    }
}

}  // namespace plurnk
