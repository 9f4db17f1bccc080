// SPDX-License-Identifier: MIT
// C++ values to Python objects and back (see convert.hpp).
//
// The result classes are frozen, slotted dataclasses written in Python (plurnk/_model.py), so
// their repr, equality, hashing and pickling are the standard library's. Building them through
// their __init__ would cost a Python call per object, several times the parse itself on a large
// result; instead register_types() looks up, once, the offset of each slot (the member
// descriptors CPython makes for __slots__) and make() fills a freshly allocated instance's slots
// directly, as object.__new__ plus object.__setattr__ would, without the lookups.
#include "convert.hpp"

#include <structmember.h>

#include <algorithm>
#include <span>
#include <cmath>
#include <initializer_list>
#include <variant>
#include <vector>

#include "plurnk/parse.hpp"
#include "plurnk/stream.hpp"

namespace plurnk_py {
namespace {

enum type_id : int {
    t_position,
    t_statement,
    t_diagnostic,
    t_text,
    t_local_path,
    t_url_path,
    t_line_marker,
    t_matcher,
    t_send_body,
    t_resource_selection,
    t_unparsed_tail,
    t_event,
    t_verdict,
    t_url,
    t_span,
    t_open_info,
    t_regex_path,
    t_count
};

struct class_spec {
    const char* name;
    std::vector<const char*> fields;  // in the order make() receives them
};

const class_spec k_specs[t_count] = {
    {"Position", {"line", "column"}},
    {"Statement", {"op", "suffix", "signal", "target", "line_marker", "body", "position", "span"}},
    {"Diagnostic", {"position", "source", "severity", "message", "span"}},
    {"Text", {"text", "position", "span"}},
    {"LocalPath", {"raw"}},
    {"UrlPath",
     {"raw", "scheme", "username", "password", "hostname", "port", "pathname", "query", "fragment", "headers"}},
    {"LineMarker", {"marks"}},
    {"Matcher", {"dialect", "raw", "pattern", "flags"}},
    {"SendBody", {"raw", "json"}},
    {"ResourceSelection", {"target", "line_marker"}},
    {"UnparsedTail", {"position", "reason", "span"}},
    {"Event", {"item", "index"}},
    {"Verdict", {"ok", "offset", "message"}},
    {"Url", {"href", "protocol", "username", "password", "hostname", "port", "pathname", "search", "hash"}},
    {"Span", {"start", "end"}},
    {"OpenInfo", {"where", "op", "suffix", "begin", "bytes", "openers", "turn_depth"}},
    {"RegexPath", {"raw", "pattern", "flags"}},
};

struct slot_class {
    PyTypeObject* type = nullptr;
    std::vector<Py_ssize_t> offsets;
};
slot_class g_classes[t_count];

// Interned names the results repeat: op keywords, dialects, sources, severities.
PyObject* g_ops[plurnk::k_op_count] = {};
PyObject* g_dialects[6] = {};
PyObject* g_sources[3] = {};
PyObject* g_severities[2] = {};

PyObject* new_ref(PyObject* o) {
    Py_INCREF(o);
    return o;
}
PyObject* none() { return new_ref(Py_None); }

// A new instance of class `id` whose slots take `values` (new references, stolen). If any value
// is null (its conversion failed), the others are released and null is returned.
owned make(type_id id, std::initializer_list<PyObject*> values) {
    const slot_class& c = g_classes[id];
    bool failed = false;
    for (PyObject* v : values) failed = failed || v == nullptr;
    PyObject* o = failed ? nullptr : c.type->tp_alloc(c.type, 0);
    if (o == nullptr) {
        for (PyObject* v : values) Py_XDECREF(v);
        return nullptr;
    }
    std::size_t i = 0;
    for (PyObject* v : values) *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(o) + c.offsets[i++]) = v;
    // What make() stores is str, numbers, None, tuples of those and other make() objects, and the
    // classes are frozen: no reference cycle can pass through the object, so the cyclic GC need
    // not track it (as CPython does for tuples and dicts of atomic values). On a large result this
    // halves the cost of building the items.
    PyObject_GC_UnTrack(o);
    return o;
}

owned opt_str(const std::optional<std::string_view>& s) { return s ? to_str(*s) : none(); }

// A number as the JSON writer would show it: an int when it is integral (JSON has no other
// integer), a float otherwise.
owned number(double d) {
    if (std::isfinite(d) && d == std::trunc(d) && std::fabs(d) < 9007199254740992.0) {
        return PyLong_FromLongLong(static_cast<long long>(d));
    }
    return PyFloat_FromDouble(d);
}

owned position(const plurnk::position& p) {
    return make(t_position, {PyLong_FromUnsignedLong(p.line), PyLong_FromUnsignedLong(p.column)});
}

owned span(const plurnk::byte_span& s) {
    return make(t_span, {PyLong_FromSize_t(s.begin), PyLong_FromSize_t(s.end)});
}

owned str_tuple(const plurnk::tag_list& v) {
    PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(v.size()));
    if (t == nullptr) return nullptr;
    for (std::size_t i = 0; i < v.size(); ++i) {
        PyObject* s = to_str(v[i]);
        if (s == nullptr) {
            Py_DECREF(t);
            return nullptr;
        }
        PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), s);
    }
    return t;
}

owned signal(const plurnk::signal& s) {
    switch (s.kind) {
        case plurnk::signal::kind_t::none: return none();
        case plurnk::signal::kind_t::tags: return str_tuple(s.tags);
        case plurnk::signal::kind_t::number: return number(s.number);
        case plurnk::signal::kind_t::text: return to_str(s.text);
    }
    return none();
}

owned marker(const std::optional<plurnk::line_marker>& m) {
    if (!m) return none();
    PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(m->marks.size()));
    if (t == nullptr) return nullptr;
    for (std::size_t i = 0; i < m->marks.size(); ++i) {
        PyObject* n = number(m->marks[i]);
        if (n == nullptr) {
            Py_DECREF(t);
            return nullptr;
        }
        PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), n);
    }
    return make(t_line_marker, {t});
}

owned headers(const std::optional<std::span<const plurnk::header>>& h) {
    if (!h) return none();
    PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(h->size()));
    if (t == nullptr) return nullptr;
    for (std::size_t i = 0; i < h->size(); ++i) {
        PyObject* k = to_str((*h)[i].name);
        PyObject* v = to_str((*h)[i].value);
        PyObject* pair = k != nullptr && v != nullptr ? PyTuple_Pack(2, k, v) : nullptr;
        Py_XDECREF(k);
        Py_XDECREF(v);
        if (pair == nullptr) {
            Py_DECREF(t);
            return nullptr;
        }
        PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), pair);
    }
    return t;
}

owned target(const std::optional<plurnk::parsed_path>& p) { return p ? to_py(*p) : none(); }

struct body_to_py {
    owned operator()(const std::monostate&) const { return none(); }
    owned operator()(const std::string_view& raw) const { return to_str(raw); }
    owned operator()(const plurnk::matcher_body& m) const {
        const bool regex = m.dialect == plurnk::dialect::regex;
        return make(t_matcher, {new_ref(g_dialects[static_cast<int>(m.dialect)]), to_str(m.raw),
                                regex ? to_str(m.pattern) : none(), regex ? to_str(m.flags) : none()});
    }
    owned operator()(const plurnk::send_body& b) const { return make(t_send_body, {to_str(b.raw), opt_str(b.json)}); }
    owned operator()(const plurnk::resource_selection& r) const { return to_py(r); }
};

struct item_to_py {
    owned operator()(const plurnk::statement& s) const {
        return make(t_statement, {new_ref(g_ops[static_cast<int>(s.op)]), to_str(s.suffix), signal(s.signal),
                                  target(s.target), marker(s.marker), std::visit(body_to_py{}, s.body),
                                  position(s.position), span(s.span)});
    }
    owned operator()(const plurnk::diagnostic& d) const {
        return make(t_diagnostic, {position(d.position), new_ref(g_sources[static_cast<int>(d.source)]),
                                   new_ref(g_severities[static_cast<int>(d.severity)]), to_str(d.message),
                                   span(d.span)});
    }
    owned operator()(const plurnk::text_item& t) const {
        return make(t_text, {to_str(t.text), position(t.position), span(t.span)});
    }
};

// ---- Python to C++ ----------------------------------------------------------------------------

const char* type_name(PyObject* o) { return Py_TYPE(o)->tp_name; }

bool is(PyObject* o, type_id id) { return PyObject_TypeCheck(o, g_classes[id].type) != 0; }

// A new reference to attribute `name`, or null with AttributeError set.
owned attr(PyObject* o, const char* name) { return PyObject_GetAttrString(o, name); }

// The keeper in use by the conversion running on this thread (item_from, result_from_py).
thread_local text_keeper* t_keep = nullptr;

// `obj` (a str) as a view kept in t_keep.
bool keep_str(PyObject* obj, std::string_view& out, const char* what) {
    std::string s;
    if (!from_str(obj, s, what)) return false;
    out = t_keep->strings.emplace_back(std::move(s));
    return true;
}

// Reads attribute `name` of `o` into `out` (a str), or into nullopt when None and `optional`.
bool get_str(PyObject* o, const char* cls, const char* name, std::string_view& out) {
    PyObject* v = attr(o, name);
    if (v == nullptr) return false;
    const std::string what = std::string(cls) + "." + name;
    const bool ok = keep_str(v, out, what.c_str());
    Py_DECREF(v);
    return ok;
}
bool get_str(PyObject* o, const char* cls, const char* name, std::string& out) {
    std::string_view v;
    if (!get_str(o, cls, name, v)) return false;
    out = v;
    return true;
}
bool get_opt_str(PyObject* o, const char* cls, const char* name, std::optional<std::string_view>& out) {
    PyObject* v = attr(o, name);
    if (v == nullptr) return false;
    bool ok = true;
    if (v == Py_None) {
        out.reset();
    } else {
        std::string_view s;
        const std::string what = std::string(cls) + "." + name + " (str or None)";
        ok = keep_str(v, s, what.c_str());
        out = s;
    }
    Py_DECREF(v);
    return ok;
}

bool as_number(PyObject* v, double& out, const char* what) {
    if (PyBool_Check(v) || !(PyLong_Check(v) || PyFloat_Check(v))) {
        PyErr_Format(PyExc_TypeError, "%s must be int or float, not %.100s", what, type_name(v));
        return false;
    }
    out = PyFloat_AsDouble(v);
    return !(out == -1.0 && PyErr_Occurred());
}

bool get_u32(PyObject* o, const char* what, std::uint32_t& out) {
    if (PyBool_Check(o) || !PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be int, not %.100s", what, type_name(o));
        return false;
    }
    const unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (PyErr_Occurred() || v > 0xFFFFFFFFull) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be in 0..4294967295", what);
        return false;
    }
    out = static_cast<std::uint32_t>(v);
    return true;
}

bool position_from(PyObject* o, const char* owner, plurnk::position& out) {
    PyObject* p = attr(o, "position");
    if (p == nullptr) return false;
    bool ok = is(p, t_position);
    if (!ok) PyErr_Format(PyExc_TypeError, "%s.position must be Position, not %.100s", owner, type_name(p));
    PyObject* line = ok ? attr(p, "line") : nullptr;
    PyObject* column = line != nullptr ? attr(p, "column") : nullptr;
    ok = column != nullptr && get_u32(line, "Position.line", out.line) && get_u32(column, "Position.column", out.column);
    Py_XDECREF(line);
    Py_XDECREF(column);
    Py_DECREF(p);
    return ok;
}

bool path_from(PyObject* v, const char* what, plurnk::parsed_path& out) {
    if (is(v, t_local_path)) {
        out.kind = plurnk::parsed_path::kind_t::local;
        return get_str(v, "LocalPath", "raw", out.raw);
    }
    if (is(v, t_regex_path)) {
        out.kind = plurnk::parsed_path::kind_t::regex;
        return get_str(v, "RegexPath", "raw", out.raw) && get_str(v, "RegexPath", "pattern", out.pattern) &&
               get_str(v, "RegexPath", "flags", out.flags);
    }
    if (!is(v, t_url_path)) {
        PyErr_Format(PyExc_TypeError, "%s must be LocalPath, UrlPath or RegexPath, not %.100s", what, type_name(v));
        return false;
    }
    out.kind = plurnk::parsed_path::kind_t::url;
    if (!get_str(v, "UrlPath", "raw", out.raw) || !get_str(v, "UrlPath", "scheme", out.scheme) ||
        !get_opt_str(v, "UrlPath", "username", out.username) || !get_opt_str(v, "UrlPath", "password", out.password) ||
        !get_opt_str(v, "UrlPath", "hostname", out.hostname) || !get_str(v, "UrlPath", "pathname", out.pathname) ||
        !get_opt_str(v, "UrlPath", "query", out.query) || !get_opt_str(v, "UrlPath", "fragment", out.fragment)) {
        return false;
    }
    PyObject* port = attr(v, "port");
    if (port == nullptr) return false;
    bool ok = true;
    if (port != Py_None) {
        std::uint32_t n = 0;
        ok = get_u32(port, "UrlPath.port", n);
        out.port = n;
    }
    Py_DECREF(port);
    PyObject* h = ok ? attr(v, "headers") : nullptr;
    if (h == nullptr) return false;
    if (h != Py_None) {
        PyObject* seq = PySequence_Fast(h, "UrlPath.headers must be a sequence of (key, value) pairs or None");
        ok = seq != nullptr;
        std::vector<plurnk::header>& list = t_keep->headers.emplace_back();
        for (Py_ssize_t i = 0; ok && i < PySequence_Fast_GET_SIZE(seq); ++i) {
            PyObject* pair = PySequence_Fast_GET_ITEM(seq, i);
            std::string_view k, val;
            ok = PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2;
            if (!ok) PyErr_SetString(PyExc_TypeError, "UrlPath.headers items must be (key, value) tuples of str");
            ok = ok && keep_str(PyTuple_GET_ITEM(pair, 0), k, "UrlPath.headers key") &&
                 keep_str(PyTuple_GET_ITEM(pair, 1), val, "UrlPath.headers value");
            if (ok) list.push_back(plurnk::header{k, val});
        }
        out.headers = std::span<const plurnk::header>(list);
        Py_XDECREF(seq);
    }
    Py_DECREF(h);
    return ok;
}

bool marker_from(PyObject* o, const char* owner, std::optional<plurnk::line_marker>& out) {
    PyObject* m = attr(o, "line_marker");
    if (m == nullptr) return false;
    bool ok = true;
    if (m != Py_None) {
        ok = is(m, t_line_marker);
        if (!ok) PyErr_Format(PyExc_TypeError, "%s.line_marker must be LineMarker or None, not %.100s", owner, type_name(m));
        PyObject* marks = ok ? attr(m, "marks") : nullptr;
        PyObject* seq = marks != nullptr ? PySequence_Fast(marks, "LineMarker.marks must be a sequence of numbers") : nullptr;
        ok = seq != nullptr;
        std::vector<double>& list = t_keep->marks.emplace_back();
        for (Py_ssize_t i = 0; ok && i < PySequence_Fast_GET_SIZE(seq); ++i) {
            double d = 0;
            ok = as_number(PySequence_Fast_GET_ITEM(seq, i), d, "LineMarker.marks item");
            list.push_back(d);
        }
        out = plurnk::line_marker{list};
        Py_XDECREF(seq);
        Py_XDECREF(marks);
    } else {
        out.reset();
    }
    Py_DECREF(m);
    return ok;
}

bool selection_from(PyObject* v, plurnk::resource_selection& out) {
    PyObject* t = attr(v, "target");
    if (t == nullptr) return false;
    plurnk::parsed_path p;
    const bool ok = path_from(t, "ResourceSelection.target", p);
    Py_DECREF(t);
    if (!ok) return false;
    out.target = std::move(p);
    return marker_from(v, "ResourceSelection", out.marker);
}

bool body_from(PyObject* v, plurnk::body& out) {
    if (v == Py_None) {
        out = std::monostate{};
        return true;
    }
    if (PyUnicode_Check(v)) {
        std::string_view s;
        if (!keep_str(v, s, "Statement.body")) return false;
        out = s;
        return true;
    }
    if (is(v, t_matcher)) {
        plurnk::matcher_body m;
        std::string dialect;
        std::optional<std::string_view> pattern, flags;
        if (!get_str(v, "Matcher", "dialect", dialect) || !get_str(v, "Matcher", "raw", m.raw) ||
            !get_opt_str(v, "Matcher", "pattern", pattern) || !get_opt_str(v, "Matcher", "flags", flags)) {
            return false;
        }
        static constexpr const char* k_names[] = {"xpath", "regex", "jsonpath", "semantic", "graph", "glob"};
        int d = 0;
        while (d < 6 && dialect != k_names[d]) ++d;
        if (d == 6) {
            PyErr_Format(PyExc_ValueError, "Matcher.dialect must be one of xpath, regex, jsonpath, semantic, graph, glob, not '%s'",
                         dialect.c_str());
            return false;
        }
        m.dialect = static_cast<plurnk::dialect>(d);
        m.pattern = pattern.value_or("");
        m.flags = flags.value_or("");
        out = std::move(m);
        return true;
    }
    if (is(v, t_send_body)) {
        plurnk::send_body b;
        if (!get_str(v, "SendBody", "raw", b.raw) || !get_opt_str(v, "SendBody", "json", b.json)) return false;
        out = std::move(b);
        return true;
    }
    if (is(v, t_resource_selection)) {
        plurnk::resource_selection r;
        if (!selection_from(v, r)) return false;
        out = std::move(r);
        return true;
    }
    PyErr_Format(PyExc_TypeError, "Statement.body must be None, str, Matcher, SendBody or ResourceSelection, not %.100s",
                 type_name(v));
    return false;
}

bool signal_from(PyObject* v, plurnk::signal& out) {
    using k = plurnk::signal::kind_t;
    if (v == Py_None) {
        out.kind = k::none;
        return true;
    }
    if (PyUnicode_Check(v)) {
        out.kind = k::text;
        return keep_str(v, out.text, "Statement.signal");
    }
    if (PyLong_Check(v) || PyFloat_Check(v)) {
        out.kind = k::number;
        return as_number(v, out.number, "Statement.signal");
    }
    if (PyTuple_Check(v) || PyList_Check(v)) {
        out.kind = k::tags;
        PyObject* seq = PySequence_Fast(v, "Statement.signal");
        if (seq == nullptr) return false;
        bool ok = true;
        std::vector<std::string_view>& list = t_keep->tags.emplace_back();
        for (Py_ssize_t i = 0; ok && i < PySequence_Fast_GET_SIZE(seq); ++i) {
            std::string_view s;
            ok = keep_str(PySequence_Fast_GET_ITEM(seq, i), s, "Statement.signal tag");
            list.push_back(s);
        }
        out.tags = list;
        Py_DECREF(seq);
        return ok;
    }
    PyErr_Format(PyExc_TypeError, "Statement.signal must be None, str, a number or a tuple of str, not %.100s", type_name(v));
    return false;
}

bool statement_from(PyObject* v, plurnk::statement& s) {
    std::string op;
    if (!get_str(v, "Statement", "op", op)) return false;
    const auto o = plurnk::op_from_name(op);
    if (!o) {
        PyErr_Format(PyExc_ValueError, "Statement.op '%s' is not a PLURNK keyword", op.c_str());
        return false;
    }
    s.op = *o;
    if (!get_str(v, "Statement", "suffix", s.suffix)) return false;
    PyObject* sig = attr(v, "signal");
    if (sig == nullptr) return false;
    bool ok = signal_from(sig, s.signal);
    Py_DECREF(sig);
    PyObject* t = ok ? attr(v, "target") : nullptr;
    if (t == nullptr) return false;
    if (t != Py_None) {
        plurnk::parsed_path p;
        ok = path_from(t, "Statement.target", p);
        s.target = std::move(p);
    }
    Py_DECREF(t);
    PyObject* b = ok ? attr(v, "body") : nullptr;
    if (b == nullptr) return false;
    ok = body_from(b, s.body);
    Py_DECREF(b);
    return ok && marker_from(v, "Statement", s.marker) && position_from(v, "Statement", s.position);
}

bool item_from(PyObject* v, plurnk::item& out) {
    if (is(v, t_statement)) {
        plurnk::statement s;
        if (!statement_from(v, s)) return false;
        out = std::move(s);
        return true;
    }
    if (is(v, t_diagnostic)) {
        plurnk::diagnostic d;
        std::string source, severity;
        if (!position_from(v, "Diagnostic", d.position) || !get_str(v, "Diagnostic", "source", source) ||
            !get_str(v, "Diagnostic", "severity", severity) || !get_str(v, "Diagnostic", "message", d.message)) {
            return false;
        }
        if (source == "lexer") {
            d.source = plurnk::source::lexer;
        } else if (source == "parser") {
            d.source = plurnk::source::parser;
        } else if (source == "visitor") {
            d.source = plurnk::source::visitor;
        } else {
            PyErr_Format(PyExc_ValueError, "Diagnostic.source must be 'lexer', 'parser' or 'visitor', not '%s'", source.c_str());
            return false;
        }
        if (severity != "error" && severity != "warning") {
            PyErr_Format(PyExc_ValueError, "Diagnostic.severity must be 'error' or 'warning', not '%s'", severity.c_str());
            return false;
        }
        d.severity = severity == "error" ? plurnk::severity::error : plurnk::severity::warning;
        out = std::move(d);
        return true;
    }
    if (is(v, t_text)) {
        plurnk::text_item t;
        if (!get_str(v, "Text", "text", t.text) || !position_from(v, "Text", t.position)) return false;
        out = std::move(t);
        return true;
    }
    PyErr_Format(PyExc_TypeError, "ParseResult items must be Statement, Diagnostic or Text, not %.100s", type_name(v));
    return false;
}

}  // namespace

bool register_types(PyObject* classes) {
    if (!PyDict_Check(classes)) {
        PyErr_SetString(PyExc_TypeError, "register_types needs a dict of classes");
        return false;
    }
    for (int id = 0; id < t_count; ++id) {
        const class_spec& spec = k_specs[id];
        PyObject* cls = PyDict_GetItemString(classes, spec.name);  // borrowed
        if (cls == nullptr || !PyType_Check(cls)) {
            PyErr_Format(PyExc_TypeError, "register_types: class %s missing", spec.name);
            return false;
        }
        auto* type = reinterpret_cast<PyTypeObject*>(cls);
        slot_class c;
        c.type = type;
        for (const char* field : spec.fields) {
            PyObject* d = PyDict_GetItemString(type->tp_dict, field);  // borrowed
            if (d == nullptr || !Py_IS_TYPE(d, &PyMemberDescr_Type) ||
                reinterpret_cast<PyMemberDescrObject*>(d)->d_member->type != T_OBJECT_EX) {
                PyErr_Format(PyExc_TypeError, "register_types: %s.%s is not a slot", spec.name, field);
                return false;
            }
            c.offsets.push_back(reinterpret_cast<PyMemberDescrObject*>(d)->d_member->offset);
        }
        if (type->tp_dictoffset != 0 || !PyType_IS_GC(type) ||
            type->tp_basicsize != static_cast<Py_ssize_t>(sizeof(PyObject) + sizeof(PyObject*) * spec.fields.size())) {
            PyErr_Format(PyExc_TypeError, "register_types: %s must be a slotted class with exactly %zu slots", spec.name,
                         spec.fields.size());
            return false;
        }
        Py_INCREF(cls);
        Py_XDECREF(reinterpret_cast<PyObject*>(g_classes[id].type));
        g_classes[id] = std::move(c);
    }
    auto intern = [](PyObject*& slot, const char* s) {
        if (slot == nullptr) slot = PyUnicode_InternFromString(s);
        return slot != nullptr;
    };
    bool ok = true;
    for (int i = 0; i < plurnk::k_op_count; ++i) ok = ok && intern(g_ops[i], plurnk::op_name(static_cast<plurnk::op>(i)));
    const char* dialects[] = {"xpath", "regex", "jsonpath", "semantic", "graph", "glob"};
    for (int i = 0; i < 6; ++i) ok = ok && intern(g_dialects[i], dialects[i]);
    ok = ok && intern(g_sources[0], "lexer") && intern(g_sources[1], "parser") && intern(g_sources[2], "visitor");
    ok = ok && intern(g_severities[0], "error") && intern(g_severities[1], "warning");
    return ok;
}

owned to_str(std::string_view text) {
    PyObject* o = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), nullptr);
    if (o != nullptr || !PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return o;
    PyErr_Clear();
    std::string fixed;
    fixed.reserve(text.size() + 8);
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t bad = plurnk::first_invalid_utf8(text.substr(i));
        if (bad == std::string_view::npos) {
            fixed.append(text.substr(i));
            break;
        }
        fixed.append(text.substr(i, bad));
        fixed += "\xEF\xBF\xBD";
        i += bad + 1;
    }
    return PyUnicode_DecodeUTF8(fixed.data(), static_cast<Py_ssize_t>(fixed.size()), nullptr);
}

bool from_str(PyObject* obj, std::string& out, const char* what) {
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be str, not %.100s", what, type_name(obj));
        return false;
    }
    Py_ssize_t n = 0;
    if (const char* p = PyUnicode_AsUTF8AndSize(obj, &n)) {
        out.assign(p, static_cast<std::size_t>(n));
        return true;
    }
    PyErr_Clear();
    PyObject* b = PyUnicode_AsEncodedString(obj, "utf-8", "surrogatepass");
    if (b == nullptr) return false;
    out.assign(PyBytes_AS_STRING(b), static_cast<std::size_t>(PyBytes_GET_SIZE(b)));
    Py_DECREF(b);
    return true;
}

owned to_py(const plurnk::item& it) { return std::visit(item_to_py{}, it); }

owned to_py(const plurnk::parsed_path& p) {
    if (p.kind == plurnk::parsed_path::kind_t::local) return make(t_local_path, {to_str(p.raw)});
    if (p.kind == plurnk::parsed_path::kind_t::regex) {
        return make(t_regex_path, {to_str(p.raw), to_str(p.pattern), to_str(p.flags)});
    }
    return make(t_url_path, {to_str(p.raw), to_str(p.scheme), opt_str(p.username), opt_str(p.password),
                             opt_str(p.hostname), p.port ? PyLong_FromUnsignedLong(*p.port) : none(),
                             to_str(p.pathname), opt_str(p.query), opt_str(p.fragment), headers(p.headers)});
}

owned to_py(const plurnk::resource_selection& r) {
    return make(t_resource_selection, {target(r.target), marker(r.marker)});
}

owned to_py(const plurnk::unparsed_tail& t) {
    return make(t_unparsed_tail, {position(t.from), to_str(t.reason), span(t.span)});
}

owned to_py(const plurnk::open_info& o) {
    static constexpr const char* k_where[] = {"none", "slots", "signal", "target", "body", "turn"};
    const bool none_open = o.where == plurnk::open_info::where_t::none;
    return make(t_open_info, {PyUnicode_FromString(k_where[static_cast<int>(o.where)]),
                              none_open ? none() : new_ref(g_ops[static_cast<int>(o.op)]), to_str(o.suffix),
                              PyLong_FromSize_t(o.begin), PyLong_FromSize_t(o.bytes), PyLong_FromSize_t(o.openers),
                              PyLong_FromSize_t(o.turn_depth)});
}

owned to_py(const plurnk::result<void>& v, std::string_view input) {
    if (v) return make(t_verdict, {new_ref(Py_True), none(), none()});
    const plurnk::problem& p = v.problem();
    const std::size_t at = count_code_points(input.substr(0, std::min(p.offset, input.size())));
    return make(t_verdict, {new_ref(Py_False), PyLong_FromSize_t(at), to_str(p.message)});
}

owned to_py(const plurnk::url_record& u) {
    return make(t_url, {to_str(u.href), to_str(u.protocol), to_str(u.username), to_str(u.password), to_str(u.hostname),
                        to_str(u.port), to_str(u.pathname), to_str(u.search), to_str(u.hash)});
}

owned event(const plurnk::item& it, std::size_t index) {
    constexpr std::size_t npos = plurnk::stream_event::npos;
    return make(t_event, {to_py(it), index == npos ? none() : PyLong_FromSize_t(index)});
}

owned items_to_py(const plurnk::parse_result& r) {
    PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(r.items.size()));
    if (t == nullptr) return nullptr;
    for (std::size_t i = 0; i < r.items.size(); ++i) {
        PyObject* o = to_py(r.items[i]);
        if (o == nullptr) {
            Py_DECREF(t);
            return nullptr;
        }
        PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), o);
    }
    return t;
}

bool result_from_py(PyObject* items, PyObject* tail, plurnk::parse_result& out) {
    PyObject* seq = PySequence_Fast(items, "ParseResult.items must be a sequence");
    if (seq == nullptr) return false;
    bool ok = true;
    for (Py_ssize_t i = 0; ok && i < PySequence_Fast_GET_SIZE(seq); ++i) {
        // Each item is copied into the result, so its strings need to live only until then.
        text_keeper keep;
        plurnk::item it;
        ok = item_from_py(PySequence_Fast_GET_ITEM(seq, i), it, keep);
        if (ok) out.items.push_back(it);
    }
    Py_DECREF(seq);
    if (!ok || tail == Py_None) return ok;
    if (!is(tail, t_unparsed_tail)) {
        PyErr_Format(PyExc_TypeError, "ParseResult.unparsed_tail must be UnparsedTail or None, not %.100s", type_name(tail));
        return false;
    }
    plurnk::unparsed_tail t;
    text_keeper keep;
    text_keeper* const saved = t_keep;
    t_keep = &keep;
    const bool ok_tail = position_from(tail, "UnparsedTail", t.from) && get_str(tail, "UnparsedTail", "reason", t.reason);
    t_keep = saved;
    if (!ok_tail) return false;
    out.tail = std::move(t);
    return true;
}

bool item_from_py(PyObject* item, plurnk::item& out, text_keeper& keep) {
    text_keeper* const saved = t_keep;
    t_keep = &keep;
    const bool ok = item_from(item, out);
    t_keep = saved;
    return ok;
}

std::size_t count_code_points(std::string_view text) noexcept {
    std::size_t n = 0;
    for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return n;
}

}  // namespace plurnk_py
