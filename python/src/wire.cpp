// SPDX-License-Identifier: MIT
// plurnk._wire: the wire contracts (plurnk/wire.hpp) for Python; plurnk/wire.py wraps it in the
// typed API. Built only when the wire library is (Meson feature `wire`). Values cross as JSON
// values with JavaScript semantics: a Python int and float are both one JS number (1 == 1.0), a
// bool is not a number, str keys only; a str's surrogate pair is one character, as in a JS string.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plurnk/json.hpp"
#include "plurnk/parse.hpp"
#include "plurnk/wire.hpp"

namespace py = pybind11;
namespace wire = plurnk::wire;
using plurnk::json_value;
using kind_t = json_value::kind_t;

namespace {

py::object steal(PyObject* o) {
    if (o == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(o);
}

std::string encode(PyObject* s, const char* encoding) {
    const py::object b = steal(PyUnicode_AsEncodedString(s, encoding, "surrogatepass"));
    return {PyBytes_AS_STRING(b.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(b.ptr()))};
}

// A str as a JS string holds it, in UTF-8: a high surrogate followed by a low one is one
// character (a round trip through UTF-16 joins them), any other surrogate stays lone and takes
// its 3-byte generalized form (WTF-8, as parse_json stores an escaped lone surrogate).
std::string js_string(PyObject* s) {
    Py_ssize_t n = 0;
    if (const char* p = PyUnicode_AsUTF8AndSize(s, &n)) return {p, static_cast<std::size_t>(n)};
    PyErr_Clear();
    const std::string units = encode(s, "utf-16-le");
    int order = -1;  // little-endian
    const py::object joined = steal(PyUnicode_DecodeUTF16(units.data(), static_cast<Py_ssize_t>(units.size()),
                                                          "surrogatepass", &order));
    return encode(joined.ptr(), "utf-8");
}

// A library string (UTF-8, lone surrogates in WTF-8 form) as str.
py::object to_str(std::string_view s) {
    PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogatepass");
    if (o == nullptr) {
        PyErr_Clear();
        o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
    }
    return steal(o);
}

// Whether key is an array index in canonical form ("0".."4294967294"): JavaScript lists those
// keys first, ascending, as parse_json orders them.
bool is_index_key(std::string_view k) {
    if (k.empty() || k.size() > 10 || (k.size() > 1 && k[0] == '0')) return false;
    std::uint64_t v = 0;
    for (char ch : k) {
        if (ch < '0' || ch > '9') return false;
        v = v * 10 + static_cast<std::uint64_t>(ch - '0');
    }
    return v < 4294967295ull;
}

// The open containers of a conversion, each counted against Python's recursion limit as a nested
// call would be (so a cyclic or absurdly deep value raises RecursionError, as before), while the
// conversion itself keeps them on a heap stack: no C stack grows with the depth, and a value
// nested to k_json_max_depth converts in a 64 KiB thread (doc/limits.md, "Stack").
class recursion_levels {
public:
    explicit recursion_levels(const char* where) : where_(where) {}
    ~recursion_levels() {
        for (; entered_ > 0; --entered_) Py_LeaveRecursiveCall();
    }
    recursion_levels(const recursion_levels&) = delete;
    recursion_levels& operator=(const recursion_levels&) = delete;
    void enter() {
        if (Py_EnterRecursiveCall(where_) != 0) throw py::error_already_set();
        ++entered_;
    }
    void leave() {
        Py_LeaveRecursiveCall();
        --entered_;
    }

private:
    const char* where_;
    std::size_t entered_ = 0;
};

// A TypeError whose message may hold a lone surrogate (a key's), as str.
[[noreturn]] void raise_type_error(const std::string& message) {
    PyErr_SetObject(PyExc_TypeError, to_str(message).ptr());
    throw py::error_already_set();
}

// A scalar as a JSON value; nullopt for a list, tuple or dict; a TypeError for anything else.
std::optional<json_value> scalar_from_py(PyObject* o, const std::string& where) {
    json_value v;
    if (o == Py_None) return v;
    if (PyBool_Check(o)) {
        v.kind = kind_t::boolean;
        v.boolean = o == Py_True;
        return v;
    }
    if (PyLong_Check(o)) {
        v.kind = kind_t::number;
        v.number = PyLong_AsDouble(o);
        if (v.number == -1.0 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) throw py::error_already_set();
            PyErr_Clear();  // JSON.parse reads such an integer as +-Infinity
            v.number = PyObject_RichCompareBool(o, py::int_(0).ptr(), Py_LT) == 1 ? -INFINITY : INFINITY;
        }
        return v;
    }
    if (PyFloat_Check(o)) {
        v.kind = kind_t::number;
        v.number = PyFloat_AS_DOUBLE(o);
        return v;
    }
    if (PyUnicode_Check(o)) {
        v.kind = kind_t::string;
        v.string = js_string(o);
        return v;
    }
    if (PyList_Check(o) || PyTuple_Check(o) || PyDict_Check(o)) return std::nullopt;
    raise_type_error(where + " is a " + Py_TYPE(o)->tp_name +
                     "; a JSON value is None, bool, int, float, str, list, tuple or dict with str keys");
}

// `where` is the path to h ("value['a'][1]"), for the TypeError a non-JSON value raises; children
// extend it in place and restore it. Depth first, in the order a recursive walk would take, with
// the open lists and dicts on a heap stack.
json_value from_py(py::handle h, std::string& where) {
    struct open_container {
        py::object object;  // the list, tuple or dict
        json_value value;   // what it converts to so far
        std::size_t next = 0;  // list or tuple: the next index
        Py_ssize_t pos = 0;    // dict: PyDict_Next's position
        std::vector<std::pair<std::string, json_value>> index_members;  // dict: the array-index keys
        std::string key;       // dict: the key of the member being converted
        std::size_t where_at = 0;  // where's length before the member being converted
    };
    if (auto v = scalar_from_py(h.ptr(), where)) return std::move(*v);
    recursion_levels levels(" while converting a value to JSON");
    std::vector<open_container> open;
    const auto open_one = [&open, &levels](py::handle c) {
        levels.enter();
        open_container f;
        f.object = py::reinterpret_borrow<py::object>(c);
        f.value.kind = PyDict_Check(c.ptr()) ? kind_t::object : kind_t::array;
        open.push_back(std::move(f));
    };
    open_one(h);
    for (;;) {
        open_container& f = open.back();
        PyObject* o = f.object.ptr();
        py::object child;
        if (f.value.kind == kind_t::array) {
            const py::sequence seq = py::reinterpret_borrow<py::sequence>(o);
            if (f.next == 0) f.value.array.reserve(seq.size());
            if (f.next < seq.size()) {
                f.where_at = where.size();
                where += "[" + std::to_string(f.next) + "]";
                child = seq[f.next++];
            }
        } else {
            PyObject *key = nullptr, *val = nullptr;
            if (PyDict_Next(o, &f.pos, &key, &val)) {
                if (!PyUnicode_Check(key)) {
                    raise_type_error(where + " has a key of type " + Py_TYPE(key)->tp_name +
                                     "; JSON object keys must be str");
                }
                f.key = js_string(key);
                f.where_at = where.size();
                where += "['" + f.key + "']";
                child = py::reinterpret_borrow<py::object>(val);
            }
        }
        std::optional<json_value> done;
        if (child) {
            done = scalar_from_py(child.ptr(), where);
            if (!done) {
                open_one(child);
                continue;
            }
        } else {
            // The container is complete: order a dict's members as JavaScript does, then hand it
            // to its parent.
            if (!f.index_members.empty()) {
                // Dict keys are distinct, so the order is total and std::sort is as good as a
                // stable sort (whose temporary buffer is deprecated and warns under clang).
                std::sort(f.index_members.begin(), f.index_members.end(), [](const auto& a, const auto& b) {
                    return a.first.size() != b.first.size() ? a.first.size() < b.first.size() : a.first < b.first;
                });
                std::move(f.value.object.begin(), f.value.object.end(), std::back_inserter(f.index_members));
                f.value.object = std::move(f.index_members);
            }
            done = std::move(f.value);
            open.pop_back();
            levels.leave();
            if (open.empty()) return std::move(*done);
        }
        open_container& parent = open.back();
        where.resize(parent.where_at);
        if (parent.value.kind == kind_t::array) {
            parent.value.array.push_back(std::move(*done));
        } else {
            (is_index_key(parent.key) ? parent.index_members : parent.value.object)
                .emplace_back(std::move(parent.key), std::move(*done));
        }
    }
}

json_value json_arg(py::handle value) {
    std::string where = "value";
    return from_py(value, where);
}

// A number as Python holds it: an int when it is an integer within 2**53 (JavaScript's safe
// range, where every integer is exact), else a float. A list or dict comes back empty, for
// to_py to fill.
py::object scalar_to_py(const json_value& v) {
    switch (v.kind) {
        case kind_t::null: return py::none();
        case kind_t::boolean: return py::bool_(v.boolean);
        case kind_t::number:
            if (std::isfinite(v.number) && std::trunc(v.number) == v.number && std::fabs(v.number) <= 9007199254740992.0) {
                return steal(PyLong_FromLongLong(static_cast<long long>(v.number)));
            }
            return py::float_(v.number);
        case kind_t::string: return to_str(v.string);
        case kind_t::array: return py::list(v.array.size());
        case kind_t::object: return py::dict();
    }
    return py::none();
}

// The value as Python objects, the open lists and dicts on a heap stack.
py::object to_py(const json_value& v) {
    struct open_container {
        const json_value* value;
        py::object object;
        std::size_t next = 0;
    };
    const auto is_container = [](const json_value& x) { return x.kind == kind_t::array || x.kind == kind_t::object; };
    py::object root = scalar_to_py(v);
    if (!is_container(v)) return root;
    recursion_levels levels(" while converting JSON to Python");
    levels.enter();
    std::vector<open_container> open{{&v, root}};
    while (!open.empty()) {
        open_container& f = open.back();
        const json_value& x = *f.value;
        const std::size_t n = x.kind == kind_t::array ? x.array.size() : x.object.size();
        if (f.next == n) {
            open.pop_back();
            levels.leave();
            continue;
        }
        const std::size_t i = f.next++;
        const json_value& child = x.kind == kind_t::array ? x.array[i] : x.object[i].second;
        py::object c = scalar_to_py(child);
        if (x.kind == kind_t::array) {
            py::reinterpret_borrow<py::list>(f.object)[i] = c;
        } else {
            py::reinterpret_borrow<py::dict>(f.object)[to_str(x.object[i].first)] = c;
        }
        if (is_container(child)) {
            levels.enter();
            open.push_back({&child, std::move(c)});
        }
    }
    return root;
}

wire::contract contract_arg(const std::string& name) {
    if (const auto c = wire::contract_from_name(name)) return *c;
    std::string known;
    for (std::size_t i = 0; i < wire::k_contract_count; ++i) {
        known += i ? ", " : "";
        known += wire::contract_name(static_cast<wire::contract>(i));
    }
    throw py::value_error("unknown contract '" + name + "' (one of " + known + ")");
}

// JSON text: a str, or UTF-8 bytes-like.
std::string text_arg(py::handle h) {
    PyObject* o = h.ptr();
    if (PyUnicode_Check(o)) return js_string(o);
    if (PyObject_CheckBuffer(o)) {
        Py_buffer b;
        if (PyObject_GetBuffer(o, &b, PyBUF_SIMPLE) != 0) throw py::error_already_set();
        std::string s(static_cast<const char*>(b.buf), static_cast<std::size_t>(b.len));
        PyBuffer_Release(&b);
        return s;
    }
    throw py::type_error(std::string("json_text must be str or bytes-like, not ") + Py_TYPE(o)->tp_name);
}

plurnk::parse_dialect dialect_arg(const std::string& name) {
    if (const auto d = plurnk::dialect_from_name(name)) return *d;
    throw py::value_error("dialect must be 'contracts' or 'service', not '" + name + "'");
}

std::string name_arg(py::handle h) {
    if (!PyUnicode_Check(h.ptr())) throw py::type_error(std::string("name must be str, not ") + Py_TYPE(h.ptr())->tp_name);
    return js_string(h.ptr());
}

// (valid, [(keyword, keyword_location, instance_location, message), ...], exception or None)
py::tuple result_to_py(const wire::validation_result& r) {
    py::list errors;
    for (const wire::validation_error& e : r.errors) {
        errors.append(py::make_tuple(to_str(e.keyword), to_str(e.keyword_location), to_str(e.instance_location),
                                     to_str(e.message)));
    }
    return py::make_tuple(r.valid, std::move(errors), r.exception.empty() ? py::none() : to_str(r.exception));
}

// (ok, error_class, message); the class and message are empty strings when ok.
py::tuple assertion_to_py(const wire::assertion& a) {
    return py::make_tuple(a.ok, to_str(a.error_class), to_str(a.message));
}

template <class F>
auto released(F&& f) {
    py::gil_scoped_release release;
    return f();
}

}  // namespace

PYBIND11_MODULE(_wire, m) {
    m.doc() = "The C++ wire contracts under plurnk.wire (use `import plurnk.wire`).";

    py::list names;
    for (std::size_t i = 0; i < wire::k_contract_count; ++i) {
        const auto c = static_cast<wire::contract>(i);
        names.append(py::make_tuple(wire::contract_name(c), wire::has_assert_method(c)));
    }
    m.attr("contracts") = py::tuple(names);

    m.def("validate", [](const std::string& contract, py::handle value, const std::string& dialect) {
        const wire::contract c = contract_arg(contract);
        const auto d = dialect_arg(dialect);
        const json_value v = json_arg(value);
        return result_to_py(released([&] { return wire::validate(c, v, d); }));
    }, py::arg("contract"), py::arg("value"), py::kw_only(), py::arg("dialect") = "contracts");
    m.def("validate_json", [](const std::string& contract, py::handle text, const std::string& dialect) {
        const wire::contract c = contract_arg(contract);
        const auto d = dialect_arg(dialect);
        const std::string t = text_arg(text);
        return result_to_py(released([&] { return wire::validate_json(c, t, d); }));
    }, py::arg("contract"), py::arg("json_text"), py::kw_only(), py::arg("dialect") = "contracts");
    m.def("assert_contract", [](const std::string& contract, py::handle value, const std::string& dialect) {
        const wire::contract c = contract_arg(contract);
        const auto d = dialect_arg(dialect);
        const json_value v = json_arg(value);
        return assertion_to_py(released([&] { return wire::assert_contract(c, v, d); }));
    }, py::arg("contract"), py::arg("value"), py::kw_only(), py::arg("dialect") = "contracts");
    m.def("assert_json", [](const std::string& contract, py::handle text, const std::string& dialect) {
        const wire::contract c = contract_arg(contract);
        const auto d = dialect_arg(dialect);
        const std::string t = text_arg(text);
        return assertion_to_py(released([&]() -> wire::assertion {
            const auto v = plurnk::parse_json(t);
            if (!v) {  // the class assert_contract gives c's failures: "Invalid" + name + "Error"
                const std::string cls = wire::has_assert_method(c)
                                            ? std::string("Invalid") + wire::contract_name(c) + "Error"
                                            : std::string("InvalidContractError");
                return {false, cls, "invalid JSON"};
            }
            return wire::assert_contract(c, *v, d);
        }));
    }, py::arg("contract"), py::arg("json_text"), py::kw_only(), py::arg("dialect") = "contracts");
    m.def("parse_json", [](py::handle text) -> py::object {
        const auto v = plurnk::parse_json(text_arg(text));
        return v ? to_py(*v) : py::none();
    }, py::arg("json_text"));
    m.def("create_problem", [](py::sequence args) {
        std::vector<json_value> values;
        for (std::size_t i = 0; i < args.size(); ++i) {
            std::string where = "argument " + std::to_string(i);
            values.push_back(from_py(args[i], where));
        }
        const wire::problems::result r = wire::problems::create_args(values);
        return py::make_tuple(r.ok, r.ok ? to_py(r.value) : py::none(), to_str(r.message));
    }, py::arg("args"));
    m.def("type_uri", [](const std::string& owner, const std::string& code) {
        return to_str(wire::problems::type_uri(owner, code));
    }, py::arg("owner"), py::arg("code"));
    m.def("default_title", [](const std::string& code) { return to_str(wire::problems::default_title(code)); },
          py::arg("code"));
    m.def("default_loop_flags", [] { return to_py(wire::default_loop_flags()); });
    m.def("unknown_position", [] { return to_py(wire::unknown_position()); });
    m.def("schema_text", [](const std::string& contract, const std::string& dialect) {
        return to_str(wire::schema_text(contract_arg(contract), dialect_arg(dialect)));
    }, py::arg("contract"), py::kw_only(), py::arg("dialect") = "contracts");
    m.def("schema_id", [](const std::string& contract, const std::string& dialect) {
        return to_str(wire::schema_id(contract_arg(contract), dialect_arg(dialect)));
    }, py::arg("contract"), py::kw_only(), py::arg("dialect") = "contracts");
    m.def("is_worker_name", [](py::handle name) { return wire::is_worker_name(name_arg(name)); }, py::arg("name"));
    m.def("is_reserved_authority", [](py::handle name) { return wire::is_reserved_authority(name_arg(name)); },
          py::arg("name"));

    py::list authorities, ops;
    for (std::string_view a : wire::k_reserved_authorities) authorities.append(to_str(a));
    for (std::string_view o : wire::k_plurnk_ops) ops.append(to_str(o));
    m.attr("reserved_authorities") = py::tuple(authorities);
    m.attr("plurnk_ops") = py::tuple(ops);
    m.attr("worker_name_pattern") = to_str(wire::k_worker_name_pattern);
}
