// SPDX-License-Identifier: MIT
// What the extensions _plurnk and _serve share: the arguments they read from Python, checked one
// way in both (input text, str or bytes-like, and its kind; a tier name; a byte count; the parse
// options), and the C++ result a ParseResult wraps. A wrong type raises TypeError and a wrong
// value ValueError, each naming the argument.
#pragma once

#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "plurnk/ast.hpp"
#include "plurnk/parse.hpp"

namespace plurnk_py {

namespace py = pybind11;

// A new reference as an object; nullptr (a Python exception set) raises it.
py::object steal(PyObject* o);

// str to its UTF-8 (lone surrogates as their surrogatepass bytes); TypeError for another type.
std::string text_arg(py::handle obj, const char* what);

// Input text: a str (read as its UTF-8), or bytes-like (read as is). `view` stays valid while
// `keep` lives; a mutable buffer is copied, so another thread cannot change it mid-parse.
struct input_text {
    py::object keep;
    std::string copy;
    std::string_view view;
    bool is_str = false;
};
input_text read_input(py::handle obj, const char* what);

// The kind of text a stream is fed (one kind per stream): none yet, str, or bytes-like.
enum class mode : std::uint8_t { unset, text, bytes };
inline mode kind_of(const input_text& in) { return in.is_str ? mode::text : mode::bytes; }

// A stream's feeds at least this large (the chunk plus what the parser still holds) release the
// GIL; below it the release would cost more than the feed.
constexpr std::size_t k_release_gil_bytes = 16 * 1024;

// 'parse', 'statements', 'log' or 'client'.
plurnk::tier tier_arg(const std::string& name);

// A byte count argument: an int >= 0 stored in `out`, or None, which leaves `out` alone. A count
// too large for size_t acts as the largest (no limit), as any past the library's own maximum does.
void count_arg(const py::object& v, const char* name, std::size_t& out);

// max_input_bytes and max_turn_depth (each a count or None) as parse options.
// A dialect name: 'contracts' or 'service' (ValueError otherwise).
plurnk::parse_dialect dialect_arg(const std::string& name);

plurnk::parse_options options_arg(const py::object& max_input_bytes, const py::object& max_turn_depth,
                                  const std::string& dialect = "contracts");

// A finished C++ result, kept until Python asks for its items (ParseResult._wrap wraps it).
struct native_result {
    plurnk::parse_result r;

    py::object items() const;
    py::object tail() const;
    bool ok() const { return r.clean(); }
    py::object to_json(bool pretty) const;  // with the GIL released while writing
};

// Defines the class _NativeResult in `m` (local to the module: each extension has its own).
void def_native_result(py::module_& m);

}  // namespace plurnk_py
