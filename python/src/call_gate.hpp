// SPDX-License-Identifier: MIT
// One call at a time on a Python stream object (StreamParser, DeltaStream). Every method that
// reads or changes the C++ parser holds the object's gate for the whole call: the GIL may be
// released inside it, and a Python callback may run inside it (StreamParser's on_runaway). A
// second call meanwhile raises RuntimeError without touching anything: from another thread, "X
// is in use by another thread; use one parser per thread"; from the thread in the call (its own
// callback calling back in), a one-line re-entry error naming both calls.
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

namespace plurnk_py {

class call_gate {
public:
    // `type`: the Python class name; `callback`: what can call back in from inside a call
    // ("its on_runaway callback"), or nullptr. Both are static strings.
    explicit call_gate(const char* type, const char* callback = nullptr) noexcept : type_(type), callback_(callback) {}
    call_gate(const call_gate&) = delete;
    call_gate& operator=(const call_gate&) = delete;

    // Holds the gate for the scope of a call named `what` ("feed()").
    class scope {
    public:
        scope(call_gate& g, const char* what) : g_(g) {
            std::thread::id free{};
            const std::thread::id me = std::this_thread::get_id();
            if (!g_.owner_.compare_exchange_strong(free, me)) {
                if (free != me) {
                    throw std::runtime_error(std::string(g_.type_) + " is in use by another thread; use one parser per thread");
                }
                const std::string call = g_.call_;
                throw std::runtime_error(std::string(what) + " called from inside this " + g_.type_ + "'s own " + call +
                                         (g_.callback_ != nullptr ? std::string(" (") + g_.callback_ + ")" : std::string()) +
                                         "; call it after " + call + " returns");
            }
            g_.call_ = what;
        }
        ~scope() { g_.owner_.store(std::thread::id{}); }
        scope(const scope&) = delete;
        scope& operator=(const scope&) = delete;

    private:
        call_gate& g_;
    };

private:
    const char* type_;
    const char* callback_;
    std::atomic<std::thread::id> owner_{};
    const char* call_ = "";  // the call in progress (read only by the thread that holds the gate)
};

}  // namespace plurnk_py
