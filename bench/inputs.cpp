// SPDX-License-Identifier: MIT
// Benchmark inputs (see inputs.hpp).
#include "inputs.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#ifndef PLURNK_BENCH_DATA
#define PLURNK_BENCH_DATA "bench/data"
#endif

namespace plurnk::bench {

const std::string& data_file(std::string_view name) {
    static std::map<std::string, std::string, std::less<>> cache;
    if (auto it = cache.find(name); it != cache.end()) return it->second;
    const char* dir = std::getenv("PLURNK_BENCH_DATA");
    const std::string path = std::string(dir != nullptr ? dir : PLURNK_BENCH_DATA) + "/" + std::string(name);
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        std::fprintf(stderr, "bench: cannot read %s (set PLURNK_BENCH_DATA to the bench/data folder)\n", path.c_str());
        std::exit(2);
    }
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    return cache.emplace(std::string(name), std::move(text)).first->second;
}

std::string body_heavy(std::size_t size) {
    static constexpr std::string_view k_lines[] = {
        "export function backoffDelay(attempt: number, base = 250): number {\n",
        "    const cap = Math.min(30_000, base * 2 ** attempt);\n",
        "    // jitter window is [0, cap) - previously [0, cap] which could exceed the cap\n",
        "    const jitter = Math.floor(Math.random() * cap);\n",
        "    return Math.max(base, jitter);\n",
        "}\n",
        "interface RetryOptions { attempts: number; base: number; cap?: number }\n",
        "const defaults: RetryOptions = { attempts: 5, base: 250 };\n",
        "for (let a = 0; a < opts.attempts; a++) { await sleep(backoffDelay(a, opts.base)); }\n",
        "    if (res.status >= 500 && res.status !== 501) continue; // retry on server errors\n",
    };
    constexpr std::size_t k_statements = 8;
    const std::size_t per_body = size / k_statements;
    std::string out;
    out.reserve(size + 1024);
    for (std::size_t s = 0; s < k_statements; ++s) {
        out += "<<EDIT(src/net/backoff" + std::to_string(s) + ".ts)<1,400>:";
        const std::size_t body_start = out.size();
        for (std::size_t i = 0; out.size() - body_start < per_body; ++i) out += k_lines[i % std::size(k_lines)];
        out += ":EDIT\n";
    }
    return out;
}

std::string statement_dense(std::size_t count) {
    std::string out;
    out.reserve(count * 56);
    for (std::size_t i = 0; i < count; ++i) {
        const std::string n = std::to_string(i);
        switch (i % 6) {
            case 0: out += "<<READ(src/m" + n + "/f.ts)<" + n + "," + std::to_string(i + 20) + ">::READ\n"; break;
            case 1: out += "<<FIND[t" + n + "](src/**/*.ts)<1,50>:*.test.ts:FIND\n"; break;
            case 2: out += "<<FIND(src/m" + n + ")<1,9>:/handler" + n + "|worker/i:FIND\n"; break;
            case 3: out += "<<FIND(cfg/s" + n + ".json):$.items[?@.id==" + n + "].name:FIND\n"; break;
            case 4: out += "<<FIND(cfg/**/*.xml)<2,4>://client[@id='" + n + "']/timeout:FIND\n"; break;
            default: out += "<<READ[notes](docs/r" + n + ".md)<-1>::READ\n"; break;
        }
    }
    return out;
}

std::string as_log(std::string_view turn) {
    std::string out = "<<TURN:\n";
    out += turn;
    out += "\n:TURN\n";
    return out;
}

const char* hostile_name(hostile h) {
    switch (h) {
        case hostile::lt: return "lt";
        case hostile::open_read: return "open_read";
        case hostile::open_read_paren: return "open_read_paren";
        case hostile::near_miss_body: return "near_miss_body";
        case hostile::nested_turns: return "nested_turns";
        case hostile::target_parens: return "target_parens";
        case hostile::regex_groups: return "regex_groups";
        case hostile::jsonpath_filters: return "jsonpath_filters";
        case hostile::crlf_soup: return "crlf_soup";
        case hostile::invalid_utf8: return "invalid_utf8";
        case hostile::slot_junk: return "slot_junk";
    }
    return "?";
}

plurnk::tier hostile_tier(hostile h) { return h == hostile::nested_turns ? plurnk::tier::log : plurnk::tier::parse; }

namespace {
std::string repeat_to(std::string_view head, std::string_view unit, std::string_view tail, std::size_t size) {
    std::string out(head);
    out.reserve(size + unit.size() + tail.size());
    while (out.size() + unit.size() + tail.size() <= size) out += unit;
    out += tail;
    return out;
}
}  // namespace

std::string hostile_input(hostile h, std::size_t size) {
    switch (h) {
        case hostile::lt: return std::string(size, '<');
        case hostile::open_read: return repeat_to("", "<<READ", "", size);
        case hostile::open_read_paren: return repeat_to("", "<<READ(", "", size);
        case hostile::near_miss_body: return repeat_to("<<READ:", ":READX:REA:READ_", "", size);
        case hostile::nested_turns: return repeat_to("", "<<TURN:", "", size);
        case hostile::target_parens: return repeat_to("<<READ(", "(", "", size);
        case hostile::regex_groups: {
            // Several statements, each a 4 KB-deep group nest.
            const std::string one = "<<FIND(src):/" + std::string(2048, '(') + "a" + std::string(2048, ')') + "/:FIND\n";
            return repeat_to("", one, "", size);
        }
        case hostile::jsonpath_filters: {
            const std::string one = "<<FIND(a.json):$[?" + std::string(2048, '(') + "@.a" + std::string(2048, ')') + "]:FIND\n";
            return repeat_to("", one, "", size);
        }
        case hostile::crlf_soup:
            return repeat_to("<<PLAN:p:PLAN\r\n", "text\r<<READ(a.ts)\r\n<1,2>\r::READ\r\r\n<<EDIT(b)<3>:x\ry\r\n:EDIT\n\r", "", size);
        case hostile::invalid_utf8:
            return repeat_to("<<PLAN:p:PLAN\n",
                             "\xff\xfe text \xc3\x28<<EDIT(\xe2\x82)<1>:\xf0\x28\x8c\xbc\xa0\xa1:EDIT\n<<READ(\xc0\xaf)::READ\n", "",
                             size);
        case hostile::slot_junk: return repeat_to("<<READ", "$%&*!~", "", size);
    }
    return {};
}

std::size_t statement_count(const plurnk::parse_result& r) {
    std::size_t n = 0;
    for (const auto& it : r.items) {
        if (std::holds_alternative<plurnk::statement>(it)) {
            ++n;
        } else if (const auto* d = std::get_if<plurnk::diagnostic>(&it); d && d->severity == plurnk::severity::error) {
            ++n;
        }
    }
    return n;
}

}  // namespace plurnk::bench
