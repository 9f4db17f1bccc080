// SPDX-License-Identifier: MIT
// Every conversion between the C++ library's values and Python objects, in one place: the typed
// result classes (defined in Python, plurnk/_model.py) built from C++ items, the reverse
// direction for results built or unpickled in Python, and text in both directions. A change to
// the C++ AST (ast.hpp) should need edits here only.
#pragma once

#include <Python.h>

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "plurnk/ast.hpp"
#include "plurnk/path.hpp"
#include "plurnk/stream.hpp"
#include "plurnk/validate.hpp"

namespace plurnk_py {

// A new reference, or nullptr with a Python exception set.
using owned = PyObject*;

// Records the result classes (a dict name -> class from plurnk._model). Checks that each has
// exactly the slots this file fills; raises TypeError otherwise.
bool register_types(PyObject* classes);

// UTF-8 text to str. Each byte outside well-formed UTF-8 becomes one U+FFFD, as the library's
// columns and its JSON writer count it (Python's own "replace" would merge some of them).
owned to_str(std::string_view text);
// str to UTF-8. A lone surrogate (possible in a Python str) is written as its 3-byte form
// (the "surrogatepass" encoding); the parser then treats those bytes as ill-formed UTF-8.
// Returns false with TypeError set when `obj` is not a str.
bool from_str(PyObject* obj, std::string& out, const char* what);

owned to_py(const plurnk::item& it);
owned to_py(const plurnk::parsed_path& p);
owned to_py(const plurnk::resource_selection& r);
owned to_py(const plurnk::unparsed_tail& t);
owned to_py(const plurnk::open_info& o);
owned to_py(const plurnk::result<void>& v, std::string_view input);
owned to_py(const plurnk::url_record& u);
owned event(const plurnk::item& it, std::size_t index);
// The items of a result as a tuple.
owned items_to_py(const plurnk::parse_result& r);

// A ParseResult's parts as Python holds them (a sequence of items, a tail or None) back to C++.
// Returns false with TypeError set, naming the offending field, when a value has the wrong type.
bool result_from_py(PyObject* items, PyObject* tail, plurnk::parse_result& out);

// The strings and lists of items converted from Python, which those items view: keep it alive
// while they are used.
struct text_keeper {
    std::deque<std::string> strings;
    std::deque<std::vector<std::string_view>> tags;
    std::deque<std::vector<double>> marks;
    std::deque<std::vector<plurnk::header>> headers;
};

// One item (Statement, Diagnostic or Text) back to C++, viewing `keep`; false with TypeError set
// on a wrong type.
bool item_from_py(PyObject* item, plurnk::item& out, text_keeper& keep);

// Code points in UTF-8 text (bytes that do not continue a sequence).
std::size_t count_code_points(std::string_view text) noexcept;

}  // namespace plurnk_py
