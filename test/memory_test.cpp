// SPDX-License-Identifier: MIT
// Memory as a tested invariant: for every hostile shape (bench/hostile_shapes.hpp) at 1 MB, the
// heap a one-shot parse holds at its peak (its result included) stays within 8 times the input.
// bench_hostile reports the same bound as peak RSS in a fresh process; here the heap is counted
// by this program's own malloc, realloc and free (over glibc's), so the figure is exact and does
// not depend on the machine. Counted bytes are what the allocator hands out (capacity reserved
// but never touched counts too), so the figure is at or above the RSS it causes.
// One shape is over the bound and has its own, stated in doc/limits.md: a statement that stays
// open holds all of its tokens until its close tag (12 bytes each, plus 4 for the parser's unit
// map), and long_signal_declined is one statement of a token per byte. turn_errors_one_line, a
// diagnostic per 4 input bytes, is held to the bound like every other shape: a diagnostic whose
// message and span fit its item record takes 17 bytes (store/result_store.hpp, diag_aux).
#include <catch2/catch_test_macros.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

#include "hostile_shapes.hpp"
#include "pipeline/parse_scratch.hpp"
#include "plurnk/plurnk.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define PLURNK_OWN_ALLOCATOR 1  // the sanitizer's allocator replaces malloc
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PLURNK_OWN_ALLOCATOR 1
#endif

#if defined(__GLIBC__) && !defined(PLURNK_OWN_ALLOCATOR)
#include <malloc.h>

namespace {
std::size_t g_live = 0;  // bytes held now
std::size_t g_peak = 0;  // the most held since the last reset
bool g_counting = false;
std::size_t g_calls = 0;  // allocations (malloc, calloc, realloc, memalign) since the last reset

void add(void* p) {
    if (p == nullptr || !g_counting) return;
    ++g_calls;
    g_live += malloc_usable_size(p);
    if (g_live > g_peak) g_peak = g_live;
}
void remove(void* p) {
    if (p == nullptr || !g_counting) return;
    const std::size_t n = malloc_usable_size(p);
    g_live = n > g_live ? 0 : g_live - n;
}
}  // namespace

// glibc's own entry points, under the names the program's allocations resolve to.
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);

void* malloc(std::size_t n) {
    void* p = __libc_malloc(n);
    add(p);
    return p;
}
void* calloc(std::size_t n, std::size_t size) {
    void* p = __libc_calloc(n, size);
    add(p);
    return p;
}
void* realloc(void* old, std::size_t n) {
    remove(old);
    void* p = __libc_realloc(old, n);
    add(p != nullptr ? p : (n == 0 ? nullptr : old));
    return p;
}
void* memalign(std::size_t align, std::size_t n) {
    void* p = __libc_memalign(align, n);
    add(p);
    return p;
}
void* aligned_alloc(std::size_t align, std::size_t n) { return memalign(align, n); }
int posix_memalign(void** out, std::size_t align, std::size_t n) {
    void* p = memalign(align, n);
    if (p == nullptr) return 12;  // ENOMEM
    *out = p;
    return 0;
}
void free(void* p) {
    remove(p);
    __libc_free(p);
}
}

namespace {

constexpr std::size_t k_size = 1 << 20;
constexpr double k_max_ratio = 8.0;
// long_signal_declined: 16 bytes per token of the open statement, a token per input byte, and
// the tokens' vector grows by half again at a time.
constexpr double k_open_statement_ratio = 26.0;

// The peak heap bytes held during a one-shot parse of `in` (result alive), over the input size.
double peak_ratio(const std::string& in, plurnk::tier t) {
    g_live = g_peak = 0;
    g_counting = true;
    {
        const plurnk::parse_result r = plurnk::parse(in, t);
        REQUIRE(r.items.size() + (r.tail ? 1 : 0) > 0);
    }
    g_counting = false;
    return static_cast<double>(g_peak) / static_cast<double>(in.size());
}

// The heap bytes a one-shot parse of `in` leaves held once its result is gone: the thread's
// scratch (lib/pipeline/parse_scratch.hpp), released first so that all of it is counted.
std::size_t retained(const std::string& in, plurnk::tier t, const plurnk::parse_options& o) {
    (void)plurnk::parse(in.substr(0, 64), t, o);  // its pipeline as constructed, made beforehand
    plurnk::detail::release_parse_scratch();
    g_live = g_peak = 0;
    g_counting = true;
    (void)plurnk::parse(in, t, o);
    g_counting = false;
    return g_live;
}

}  // namespace

TEST_CASE("the counting allocator sees the parser's allocations", "[memory]") {
    // A parse of 1 MB of statements holds its input copy at least: the count cannot be zero.
    const std::string in = plurnk::shapes::make(plurnk::shapes::all().front(), k_size);
    CHECK(peak_ratio(in, plurnk::tier::parse) >= 1.0);
}

TEST_CASE("every hostile shape parses in at most 8 times its size of heap", "[memory]") {
    for (const plurnk::shapes::shape& s : plurnk::shapes::all()) {
        const std::string in = plurnk::shapes::make(s, k_size);
        const double ratio = peak_ratio(in, s.tier);
        INFO("shape " << s.name << ": peak heap " << ratio << "x the input");
        if (std::string_view(s.name) == "long_signal_declined") {
            CHECK(ratio > k_max_ratio);  // the stated exception: if this fails, drop it
            CHECK(ratio <= k_open_statement_ratio);
        } else {
            CHECK(ratio <= k_max_ratio);
        }
    }
}

TEST_CASE("after any hostile shape's parse, the thread's scratch holds at most its cap", "[memory]") {
    // Under the cap it is kept (with the capacity the parse gave it); past it, released.
    std::size_t kept = 0;
    for (const plurnk::shapes::shape& s : plurnk::shapes::all()) {
        for (const std::size_t size : {std::size_t{2} << 10, std::size_t{16} << 10, std::size_t{64} << 10,
                                       std::size_t{256} << 10, k_size}) {
            const std::string in = plurnk::shapes::make(s, size);
            const std::size_t held = retained(in, s.tier, s.options());
            INFO("shape " << s.name << " of " << size << " bytes: " << held << " bytes held after");
            CHECK(held <= plurnk::detail::k_parse_scratch_cap);
            kept += held > 0 ? 1 : 0;
        }
    }
    CHECK(kept > 0);  // the count sees the scratch
}

TEST_CASE("a repeated small parse allocates only its result's blocks", "[memory]") {
    // On the thread's scratch (doc/limits.md, "A thread's scratch"), the only allocations left are
    // the result's: its store, its records (items, kinds, statements), the input copy (one block
    // with its count: it was a block, a count, two one-entry vectors and two more copying them
    // into the result) and an arena chunk (one block, its link in it).
    const std::string in =
        "<<PLAN:look, then report.:PLAN\n<<READ(src/net/HttpClient.ts)<120,188>::READ\n"
        "<<FIND(config/settings.json):$.http.retry.maxAttempts:FIND\n<<SEND[200]:done:SEND\n";
    (void)plurnk::parse(in, plurnk::tier::parse);  // the scratch made
    g_calls = 0;
    g_counting = true;
    const plurnk::parse_result r = plurnk::parse(in, plurnk::tier::parse);
    g_counting = false;
    REQUIRE(r.clean());
    REQUIRE(r.items.size() >= 4);
    INFO(g_calls << " allocations");
    CHECK(g_calls <= 6);
}

TEST_CASE("a megabyte-long op name costs its input copy and its message, no more", "[memory]") {
    // The unparsed tail's reason quotes the tag twice (as the reference's does): with the input
    // copy that is 3x. A case-folded copy of the tag and a reason grown by appends took 4.4x.
    for (const plurnk::shapes::shape& s : plurnk::shapes::all()) {
        const std::string_view name = s.name;
        if (name != "opener_suffix" && name != "closer_suffix") continue;
        const std::string in = plurnk::shapes::make(s, k_size);
        const double ratio = peak_ratio(in, s.tier);
        INFO("shape " << name << ": peak heap " << ratio << "x the input");
        CHECK(ratio >= 3.0);
        CHECK(ratio <= 3.25);
    }
}

#else

TEST_CASE("every hostile shape parses in at most 8 times its size of heap", "[memory]") {
    SKIP("the heap is counted over glibc's allocator, not a sanitizer's");
}

#endif
