// SPDX-License-Identifier: MIT
// Runs a function on a new thread with a small stack and measures how much of that stack it
// used (doc/limits.md, "Stack"). The thread's stack has a guard page below it, so an overflow is
// a crash, not silent corruption; a signal handler on a stack of its own can then report it.
// Before the function runs, the unused part of the stack is painted with a byte pattern; after
// it, the lowest byte that is no longer paint gives the high-water mark, counted from the frame
// that calls the function. Header-only, POSIX threads; used by test/stack_test.cpp and by the
// unit tests of the surfaces that once recursed.
#pragma once

#include <pthread.h>
#include <signal.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PLURNK_STACK_PROBE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PLURNK_STACK_PROBE_ASAN 1
#endif

namespace plurnk::test {

// The stack every surface must run in (doc/limits.md).
inline constexpr std::size_t k_small_stack = 64 * 1024;

struct stack_use {
    std::size_t high_water = 0;  // bytes of stack below the probe's frame the function wrote
    std::size_t room = 0;        // bytes of stack there were below the probe's frame
};

namespace stack_probe_detail {

inline constexpr unsigned char k_paint = 0xA5;
// How far below the probe's frame painting stops: the painter's own frame lives there.
inline constexpr std::size_t k_margin = 1024;

struct job {
    const std::function<void()>* fn;
    stack_use use;
};

// The paint and the scan read and write stack memory no frame owns; ASan must not check them.
__attribute__((noinline, no_sanitize("address"))) inline void paint(unsigned char* low, unsigned char* high) {
    for (volatile unsigned char* p = low; p < high; ++p) *p = k_paint;
}

__attribute__((noinline, no_sanitize("address"))) inline unsigned char* lowest_written(unsigned char* low,
                                                                                       unsigned char* high) {
    volatile unsigned char* p = low;
    while (p < high && *p == k_paint) ++p;
    return const_cast<unsigned char*>(p);
}

__attribute__((noinline, no_sanitize("address"))) inline void* thread_main(void* arg) {
    auto* j = static_cast<job*>(arg);
#ifndef PLURNK_STACK_PROBE_ASAN
    // A stack for a SIGSEGV handler (ASan keeps its own), so an overflow can be reported.
    std::vector<char> alt(64 * 1024);
    stack_t ss{};
    ss.ss_sp = alt.data();
    ss.ss_size = alt.size();
    sigaltstack(&ss, nullptr);
#endif
    pthread_attr_t attr;
    void* addr = nullptr;
    std::size_t size = 0;
    pthread_getattr_np(pthread_self(), &attr);
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    auto* low = static_cast<unsigned char*>(addr);
    auto* top = static_cast<unsigned char*>(__builtin_frame_address(0));
    unsigned char* const paint_top = top - k_margin;
    paint(low, paint_top);
    (*j->fn)();
    j->use.high_water = static_cast<std::size_t>(top - lowest_written(low, paint_top));
    j->use.room = static_cast<std::size_t>(top - low);
#ifndef PLURNK_STACK_PROBE_ASAN
    ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, nullptr);
#endif
    return nullptr;
}

}  // namespace stack_probe_detail

// Runs fn on a new thread whose stack is `stack_bytes` (the guard page comes on top); returns
// how much of it fn used. A high-water mark reads at least the margin (1 KiB).
inline stack_use run_on_stack(const std::function<void()>& fn, std::size_t stack_bytes = k_small_stack) {
    stack_probe_detail::job j{&fn, {}};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    if (pthread_attr_setstacksize(&attr, stack_bytes) != 0) {
        std::fprintf(stderr, "stack probe: pthread_attr_setstacksize(%zu) refused\n", stack_bytes);
        std::abort();
    }
    pthread_t t;
    if (pthread_create(&t, &attr, stack_probe_detail::thread_main, &j) != 0) {
        std::fprintf(stderr, "stack probe: pthread_create failed\n");
        std::abort();
    }
    pthread_join(t, nullptr);
    pthread_attr_destroy(&attr);
    return j.use;
}

}  // namespace plurnk::test
