// SPDX-License-Identifier: MIT
#include "binding.hpp"

#include <cstdint>

#include "convert.hpp"
#include "plurnk/json.hpp"

namespace plurnk_py {

py::object steal(PyObject* o) {
    if (o == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(o);
}

std::string text_arg(py::handle obj, const char* what) {
    std::string out;
    if (!from_str(obj.ptr(), out, what)) throw py::error_already_set();
    return out;
}

input_text read_input(py::handle obj, const char* what) {
    input_text in;
    PyObject* o = obj.ptr();
    if (PyUnicode_Check(o)) {
        in.is_str = true;
        Py_ssize_t n = 0;
        if (const char* p = PyUnicode_AsUTF8AndSize(o, &n)) {
            in.keep = py::reinterpret_borrow<py::object>(obj);
            in.view = std::string_view(p, static_cast<std::size_t>(n));
            return in;
        }
        PyErr_Clear();
        in.copy = text_arg(obj, what);  // lone surrogates: the surrogatepass bytes
    } else if (PyBytes_Check(o)) {
        in.keep = py::reinterpret_borrow<py::object>(obj);
        in.view = std::string_view(PyBytes_AS_STRING(o), static_cast<std::size_t>(PyBytes_GET_SIZE(o)));
        return in;
    } else if (PyObject_CheckBuffer(o)) {
        Py_buffer b;
        if (PyObject_GetBuffer(o, &b, PyBUF_SIMPLE) != 0) throw py::error_already_set();
        in.copy.assign(static_cast<const char*>(b.buf), static_cast<std::size_t>(b.len));
        PyBuffer_Release(&b);
    } else {
        throw py::type_error(std::string(what) + " must be str or bytes-like, not " + Py_TYPE(o)->tp_name);
    }
    in.view = in.copy;
    return in;
}

plurnk::tier tier_arg(const std::string& name) {
    if (const auto t = plurnk::tier_from_name(name)) return *t;
    throw py::value_error("tier must be 'parse', 'statements', 'log' or 'client', not '" + name + "'");
}

void count_arg(const py::object& v, const char* name, std::size_t& out) {
    if (v.is_none()) return;
    if (PyBool_Check(v.ptr()) || !PyLong_Check(v.ptr())) {
        throw py::type_error(std::string(name) + " must be an int or None");
    }
    int overflow = 0;
    const long long n = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (overflow == 0 && n == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow < 0 || (overflow == 0 && n < 0)) throw py::value_error(std::string(name) + " must be >= 0");
    out = overflow > 0 || static_cast<unsigned long long>(n) > SIZE_MAX ? SIZE_MAX : static_cast<std::size_t>(n);
}

plurnk::parse_dialect dialect_arg(const std::string& name) {
    if (const auto d = plurnk::dialect_from_name(name)) return *d;
    throw py::value_error("dialect must be 'contracts' or 'service', not '" + name + "'");
}

plurnk::parse_options options_arg(const py::object& max_input_bytes, const py::object& max_turn_depth,
                                  const std::string& dialect) {
    plurnk::parse_options o;
    count_arg(max_input_bytes, "max_input_bytes", o.max_input_bytes);
    count_arg(max_turn_depth, "max_turn_depth", o.max_turn_depth);
    o.dialect = dialect_arg(dialect);
    return o;
}

py::object native_result::items() const { return steal(items_to_py(r)); }

py::object native_result::tail() const { return r.tail ? steal(to_py(*r.tail)) : py::none(); }

py::object native_result::to_json(bool pretty) const {
    std::string out;
    {
        py::gil_scoped_release release;
        out = plurnk::to_json(r, {.pretty = pretty});
    }
    return steal(to_str(out));
}

void def_native_result(py::module_& m) {
    py::class_<native_result>(m, "_NativeResult", py::module_local())
        .def("items", &native_result::items)
        .def("tail", &native_result::tail)
        .def_property_readonly("ok", &native_result::ok)
        .def_property_readonly("dialect", [](const native_result& n) { return plurnk::dialect_name(n.r.dialect); })
        .def("to_json", &native_result::to_json, py::arg("pretty") = false)
        .def("__len__", [](const native_result& n) { return n.r.items.size(); });
}

}  // namespace plurnk_py
