// SPDX-License-Identifier: MIT
// Fuzzes the JSON writer (to_json, write_json, append_json_string, append_js_number) on
// synthetic results: every string field holds arbitrary bytes (invalid UTF-8, NUL, controls,
// lone-surrogate WTF-8), every number arbitrary bits (NaN, infinities, -0, subnormals), every
// position any uint32. The output must be valid UTF-8 JSON that simdjson and plurnk::parse_json
// accept, that re-serializes to itself, and whose exit rule matches clean() (check_result_json);
// write_json's pieces must join to the same text.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <vector>

#include "fuzz_target.hpp"

namespace {

using namespace plurnk;

// What the synthetic items view (the AST is views): kept for one input.
struct storage {
    std::deque<std::string> strings;
    std::deque<std::vector<std::string_view>> tags;
    std::deque<std::vector<double>> marks;
    std::deque<std::vector<header>> headers;
};
storage* g_keep = nullptr;

std::string_view bytes(FuzzedDataProvider& fdp) { return g_keep->strings.emplace_back(fdp.ConsumeRandomLengthString(64)); }

double number(FuzzedDataProvider& fdp) {
    if (fdp.ConsumeBool()) return static_cast<double>(fdp.ConsumeIntegral<std::int32_t>());
    const std::uint64_t bits = fdp.ConsumeIntegral<std::uint64_t>();
    double d = 0;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

position pos(FuzzedDataProvider& fdp) {
    return position{fdp.ConsumeIntegral<std::uint32_t>(), fdp.ConsumeIntegral<std::uint32_t>()};
}

std::optional<std::string_view> opt(FuzzedDataProvider& fdp) {
    if (fdp.ConsumeBool()) return std::nullopt;
    return bytes(fdp);
}

parsed_path path(FuzzedDataProvider& fdp) {
    parsed_path p;
    p.raw = bytes(fdp);
    if (fdp.ConsumeBool()) return p;
    p.kind = parsed_path::kind_t::url;
    p.scheme = bytes(fdp);
    p.username = opt(fdp);
    p.password = opt(fdp);
    p.hostname = opt(fdp);
    if (fdp.ConsumeBool()) p.port = fdp.ConsumeIntegral<std::uint32_t>();
    p.pathname = bytes(fdp);
    p.query = opt(fdp);
    p.fragment = opt(fdp);
    if (fdp.ConsumeBool()) {
        std::vector<header>& list = g_keep->headers.emplace_back();
        const int n = fdp.ConsumeIntegralInRange(0, 4);
        for (int i = 0; i < n; ++i) {
            const std::string_view name = bytes(fdp);
            list.push_back(header{name, bytes(fdp)});
        }
        p.headers = std::span<const header>(list);
    }
    return p;
}

line_marker marker(FuzzedDataProvider& fdp) {
    std::vector<double>& list = g_keep->marks.emplace_back();
    const int n = fdp.ConsumeIntegralInRange(0, 4);
    for (int i = 0; i < n; ++i) list.push_back(number(fdp));
    return line_marker{list};
}

statement stmt(FuzzedDataProvider& fdp) {
    statement s;
    s.op = static_cast<op>(fdp.ConsumeIntegralInRange(0, k_op_count - 1));
    s.suffix = bytes(fdp);
    switch (fdp.ConsumeIntegralInRange(0, 3)) {
        case 0: break;
        case 1:
            s.signal.kind = signal::kind_t::tags;
            {
                std::vector<std::string_view>& list = g_keep->tags.emplace_back();
                for (int i = fdp.ConsumeIntegralInRange(0, 3); i > 0; --i) list.push_back(bytes(fdp));
                s.signal.tags = list;
            }
            break;
        case 2:
            s.signal.kind = signal::kind_t::number;
            s.signal.number = number(fdp);
            break;
        default:
            s.signal.kind = signal::kind_t::text;
            s.signal.text = bytes(fdp);
    }
    if (fdp.ConsumeBool()) s.target = path(fdp);
    if (fdp.ConsumeBool()) s.marker = marker(fdp);
    switch (fdp.ConsumeIntegralInRange(0, 4)) {
        case 0: break;
        case 1: s.body = bytes(fdp); break;
        case 2: {
            matcher_body m;
            m.dialect = static_cast<dialect>(fdp.ConsumeIntegralInRange(0, 5));
            m.raw = bytes(fdp);
            m.pattern = bytes(fdp);
            m.flags = bytes(fdp);
            s.body = std::move(m);
            break;
        }
        case 3: {
            send_body b;
            b.raw = bytes(fdp);
            // The writer trusts `json` to be canonical JSON text: give it what the parser would.
            if (fdp.ConsumeBool()) {
                if (std::optional<std::string> j = canonical_json(b.raw)) b.json = g_keep->strings.emplace_back(std::move(*j));
            }
            s.body = std::move(b);
            break;
        }
        default: {
            resource_selection r;
            r.target = path(fdp);
            if (fdp.ConsumeBool()) r.marker = marker(fdp);
            s.body = std::move(r);
        }
    }
    s.position = pos(fdp);
    return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider fdp(data, size);
    storage keep;
    g_keep = &keep;
    parse_result r;
    const int n = fdp.ConsumeIntegralInRange(0, 6);
    for (int i = 0; i < n && fdp.remaining_bytes() > 0; ++i) {
        switch (fdp.ConsumeIntegralInRange(0, 2)) {
            case 0: r.items.emplace_back(stmt(fdp)); break;
            case 1: {
                diagnostic d;
                d.position = pos(fdp);
                d.source = static_cast<source>(fdp.ConsumeIntegralInRange(0, 2));
                d.severity = fdp.ConsumeBool() ? severity::error : severity::warning;
                d.message = bytes(fdp);
                r.items.emplace_back(std::move(d));
                break;
            }
            default: r.items.emplace_back(text_item{bytes(fdp), pos(fdp)});
        }
    }
    if (fdp.ConsumeBool()) r.tail = unparsed_tail{pos(fdp), std::string(bytes(fdp))};
    const std::string compact = to_json(r);
    plurnk::fuzz::require(plurnk::fuzz::check_result_json(compact, to_json(r, json_options{true}), r.clean()));
    // append_json appends: a prefix must survive untouched.
    std::string appended = "x";
    append_json(appended, r);
    if (appended.compare(1, std::string::npos, compact) != 0) plurnk::fuzz::require("append_json differs from to_json");
    // write_json hands out the same text in pieces, long strings in slices (cut at code points).
    for (const bool pretty : {false, true}) {
        std::string joined;
        std::size_t largest = 0;
        write_json(r, [&](std::string_view piece) {
            joined += piece;
            largest = std::max(largest, piece.size());
        }, json_options{pretty});
        if (joined != (pretty ? to_json(r, json_options{true}) : compact)) plurnk::fuzz::require("write_json differs from to_json");
        if (largest > (1 << 16) + 8192) plurnk::fuzz::require("write_json handed out a piece far over 64 KB");
    }
    return 0;
}
