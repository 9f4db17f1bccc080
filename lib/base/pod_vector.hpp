// SPDX-License-Identifier: MIT
// A vector of trivially copyable records that grows with std::realloc (private header). For the
// large record arrays of a parse (items, statements, diagnostics, pending errors) this matters
// for memory, not speed: a std::vector doubling from 64 MB allocates 128 MB, copies, then frees
// the 64 MB, so for a moment it holds three times what it needs; realloc of a block that large
// moves its pages (mremap on Linux) without a copy, and the unused capacity is address space
// that is never touched. The interface is the part of std::vector the parser uses.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace plurnk::detail {

template <class T>
class pod_vector {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;

    pod_vector() noexcept = default;
    ~pod_vector() { std::free(data_); }
    pod_vector(const pod_vector& o) { assign(o.data_, o.size_); }
    pod_vector(pod_vector&& o) noexcept
        : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)), cap_(std::exchange(o.cap_, 0)) {}
    pod_vector& operator=(const pod_vector& o) {
        if (this != &o) assign(o.data_, o.size_);
        return *this;
    }
    pod_vector& operator=(pod_vector&& o) noexcept {
        if (this != &o) {
            if (data_ != nullptr) std::free(data_);  // an empty one calls nothing (parse() moves a dozen)
            data_ = std::exchange(o.data_, nullptr);
            size_ = std::exchange(o.size_, 0);
            cap_ = std::exchange(o.cap_, 0);
        }
        return *this;
    }

    [[nodiscard]] std::size_t size() const noexcept { return size_; }
    [[nodiscard]] std::size_t capacity() const noexcept { return cap_; }
    [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
    T& operator[](std::size_t i) noexcept { return data_[i]; }
    const T& operator[](std::size_t i) const noexcept { return data_[i]; }
    T& back() noexcept { return data_[size_ - 1]; }
    const T& back() const noexcept { return data_[size_ - 1]; }
    T* data() noexcept { return data_; }
    const T* data() const noexcept { return data_; }
    T* begin() noexcept { return data_; }
    T* end() noexcept { return data_ + size_; }
    const T* begin() const noexcept { return data_; }
    const T* end() const noexcept { return data_ + size_; }

    void push_back(const T& v) {
        if (size_ == cap_) grow(size_ + 1);
        data_[size_++] = v;
    }
    template <class... Args>
    T& emplace_back(Args&&... args) {
        push_back(T{std::forward<Args>(args)...});
        return back();
    }
    // A default record made in place (no temporary copied in), for a caller to fill there.
    T& emplace_back() {
        if (size_ == cap_) grow(size_ + 1);
        return *::new (static_cast<void*>(data_ + size_++)) T{};
    }
    // Room for `n` records past the end, for the caller to write there and then count with
    // added(): a few records appended with one capacity check (the lexer's tokens).
    T* room(std::size_t n) {
        if (cap_ - size_ < n) grow(size_ + n);
        return data_ + size_;
    }
    // The first `k` records of the last room() are written (k at most the room's size).
    void added(std::size_t k) noexcept { size_ += k; }
    void pop_back() noexcept { --size_; }
    void clear() noexcept { size_ = 0; }
    void reserve(std::size_t n) {
        if (n > cap_) reallocate(n);
    }
    // Shrinks to `n` (never grows: the records have no default worth writing).
    void resize(std::size_t n) noexcept {
        if (n < size_) size_ = n;
    }
    // Grows to `n` leaving the new records unwritten, for a caller that writes each before it
    // is read (the parser's token marks: most of them are written once, by a clean unit), or
    // shrinks; with room for `spare` more past them, which the caller may write as scratch.
    void resize_unwritten(std::size_t n, std::size_t spare = 0) {
        if (n + spare > cap_) grow(n + spare);
        size_ = n;
    }
    // Grows to `n` with copies of `v` (or shrinks).
    void resize(std::size_t n, const T& v) {
        if (n > cap_) grow(n);
        for (std::size_t i = size_; i < n; ++i) data_[i] = v;
        size_ = n;
    }
    T* insert(T* at, const T& v) {
        const std::size_t k = static_cast<std::size_t>(at - data_);
        if (size_ == cap_) grow(size_ + 1);
        std::memmove(static_cast<void*>(data_ + k + 1), data_ + k, (size_ - k) * sizeof(T));
        data_[k] = v;
        ++size_;
        return data_ + k;
    }
    // Puts the records of `o` before these.
    void prepend(const pod_vector& o) {
        reserve(size_ + o.size_);
        if (o.size_ == 0) return;
        std::memmove(static_cast<void*>(data_ + o.size_), data_, size_ * sizeof(T));
        std::memcpy(static_cast<void*>(data_), o.data_, o.size_ * sizeof(T));
        size_ += o.size_;
    }
    // Equal records, in order (a state's equality: capacity aside). Records without an equality
    // of their own compare as bytes (trivially copyable: the bytes are the value).
    friend bool operator==(const pod_vector& a, const pod_vector& b) noexcept {
        if (a.size_ != b.size_) return false;
        if constexpr (std::equality_comparable<T>) {
            return std::equal(a.begin(), a.end(), b.begin());
        } else {
            return a.size_ == 0 || std::memcmp(a.data_, b.data_, a.size_ * sizeof(T)) == 0;
        }
    }
    // Appends the records of `o`.
    void append(const pod_vector& o) {
        reserve(size_ + o.size_);
        if (o.size_ > 0) std::memcpy(static_cast<void*>(data_ + size_), o.data_, o.size_ * sizeof(T));
        size_ += o.size_;
    }

private:
    // Half again while small; a quarter again past 64 KB, where realloc moves pages instead of
    // copying (the more frequent calls cost little) and the reserved tail is smaller.
    void grow(std::size_t need) {
        const std::size_t step = cap_ * sizeof(T) < (std::size_t{64} << 10) ? cap_ / 2 : cap_ / 4;
        reallocate(std::max(need, cap_ < 16 ? 16 : cap_ + step));
    }
    void reallocate(std::size_t n) {
        void* p = std::realloc(static_cast<void*>(data_), n * sizeof(T));
        if (p == nullptr) out_of_memory();
        data_ = static_cast<T*>(p);
        cap_ = n;
    }
    // What std::vector does when memory runs out: bad_alloc, or abort in a build without
    // exceptions (the core compiles either way).
    [[noreturn]] static void out_of_memory() {
#if defined(__cpp_exceptions)
        throw std::bad_alloc();
#else
        std::abort();
#endif
    }
    void assign(const T* src, std::size_t n) {
        size_ = 0;
        reserve(n);
        if (n > 0) std::memcpy(static_cast<void*>(data_), src, n * sizeof(T));
        size_ = n;
    }

    T* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t cap_ = 0;
};

}  // namespace plurnk::detail
