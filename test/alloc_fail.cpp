// SPDX-License-Identifier: MIT
// Allocation failure on demand (stream_spare_test): operator new (the form the others call)
// throws std::bad_alloc at the n-th allocation on this thread after fail_allocation(n). Its own
// file, so that no caller sees it inlined.
#include <cstddef>
#include <cstdlib>
#include <new>

namespace {
thread_local std::size_t t_fail_in = 0;
}  // namespace

// The n-th allocation from now fails (0: none); returns how many were still to go (0: it failed).
std::size_t fail_allocation(std::size_t n) noexcept {
    const std::size_t left = t_fail_in;
    t_fail_in = n;
    return left;
}

void* operator new(std::size_t n) {
    if (t_fail_in != 0 && --t_fail_in == 0) throw std::bad_alloc();
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
