// SPDX-License-Identifier: MIT
// A thread's spare object (private header): one T that a thread keeps on the heap between uses
// (parse()'s scratch pipeline, pipeline/parse.cpp; a stream's spare state, pipeline/stream.cpp),
// with what its user keeps beside it (`Extra`: counts and flags, trivially destructible), freed
// when the thread ends.
//
// The slot is a constinit thread-local with nothing to construct or destroy: a use reaches all of
// it with one lookup, and a thread that never keeps an object sets nothing up. The first object
// kept arms an owner, a thread-local whose destructor frees what the slot holds when the thread
// ends and marks the slot gone. From then on the slot keeps nothing: code that runs later on the
// thread (a thread_local or static destructor that parses or destroys a stream) gets a null
// get(), and keep() frees what it is handed, so nothing is left that no one frees and no
// destroyed object is written.
//
// Each instantiation has its own slot. Instantiate it with an `Extra` of the user's own, declared
// in an unnamed namespace: that also keeps the slot local to the user's file.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace plurnk::detail {

template <class T, class Extra>
class thread_spare {
    static_assert(std::is_trivially_destructible_v<Extra>, "the slot is destroyed after the owner, with nothing to run");

public:
    struct slot {
        T* kept = nullptr;  // owned
        bool gone = false;  // the thread's owner is destroyed: nothing is kept from now on
        Extra extra{};

        // The object kept, or null.
        [[nodiscard]] T* get() const noexcept { return kept; }
        // Takes the kept object out (null when none).
        [[nodiscard]] std::unique_ptr<T> take() noexcept { return std::unique_ptr<T>(std::exchange(kept, nullptr)); }
        // Keeps `p` in place of what was kept (freed first). After the thread's owner is gone it
        // frees `p` instead and returns false.
        bool keep(std::unique_ptr<T> p) noexcept {
            if (gone) return false;
            owner_.armed = true;  // (its first use constructs it, which registers its destructor)
            drop();
            kept = p.release();
            return true;
        }
        // Frees what is kept.
        void drop() noexcept { delete std::exchange(kept, nullptr); }
    };

    // This thread's slot.
    [[nodiscard]] static slot& here() noexcept { return slot_; }

private:
    struct owner {
        bool armed = false;
        owner() = default;
        owner(const owner&) = delete;
        owner& operator=(const owner&) = delete;
        ~owner() {
            slot_.drop();
            slot_.gone = true;
        }
    };
    static constinit inline thread_local slot slot_{};
    static inline thread_local owner owner_{};
};

}  // namespace plurnk::detail
