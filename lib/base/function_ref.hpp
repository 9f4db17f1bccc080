// SPDX-License-Identifier: MIT
// A non-owning reference to a callable (C++26's std::function_ref, reduced to what the core
// needs): two pointers, no allocation, one indirect call. For a callback that a function uses
// while it runs and never keeps: the callable must outlive the call it is passed to.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace plurnk::detail {

template <class Signature>
class function_ref;

template <class R, class... Args>
class function_ref<R(Args...)> {
public:
    template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, function_ref> &&
                                                std::is_invocable_r_v<R, F&, Args...>>>
    function_ref(F&& f) noexcept  // NOLINT(google-explicit-constructor): passed as a callback
        : obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
          call_([](void* o, Args... args) -> R {
              return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<Args>(args)...);
          }) {}

    R operator()(Args... args) const { return call_(obj_, std::forward<Args>(args)...); }

private:
    void* obj_;
    R (*call_)(void*, Args...);
};

}  // namespace plurnk::detail
