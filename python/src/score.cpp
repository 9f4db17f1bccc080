// SPDX-License-Identifier: MIT
// plurnk._score: the benchmark scorer (plurnk/score.hpp) for Python; plurnk/score.py wraps it in
// the typed API. Scoring releases the GIL; a Scorer serializes its own calls (its rail cache is
// not thread-safe), so threads each use their own Scorer for parallelism, and may share the
// report they score into (score_into()).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "plurnk/score.hpp"

namespace py = pybind11;
namespace score = plurnk::score;

namespace {

struct py_scorer {
    score::scorer s;
    std::mutex m;
    explicit py_scorer(score::options o) : s(std::move(o)) {}
};

// The UTF-8 text of a str or bytes argument without a copy: the bytes' own buffer, or the str's
// UTF-8 form (its data for an ASCII str, else the UTF-8 copy the str caches for its lifetime).
// The argument, held by the call, keeps it alive while the GIL is released.
std::string_view text_of(const py::handle& h) {
    if (PyBytes_Check(h.ptr())) {
        char* data = nullptr;
        Py_ssize_t n = 0;
        if (PyBytes_AsStringAndSize(h.ptr(), &data, &n) != 0) throw py::error_already_set();
        return {data, static_cast<std::size_t>(n)};
    }
    if (PyUnicode_Check(h.ptr())) {
        Py_ssize_t n = 0;
        const char* data = PyUnicode_AsUTF8AndSize(h.ptr(), &n);
        if (data == nullptr) throw py::error_already_set();  // a lone surrogate
        return {data, static_cast<std::size_t>(n)};
    }
    throw py::type_error("expected str or bytes");
}

void check_target(py_scorer& self, const score::report& into) {
    if (into.group_by != self.s.opts().group_by || into.channels != self.s.empty_report().channels) {
        throw py::value_error("the report was made with another grouping or other channels");
    }
}

// A test-only race window (microseconds), 0 in every real use: set only by the private
// `_score._set_race_window()`, which python/tests/test_score.py calls to make a lost count show on
// every run. While it is 0, update() is the plain call below it (one relaxed load).
std::atomic<unsigned> race_window_us{0};

// Every change the binding makes to a report goes through update(). With a race window, update()
// reads the report, changes a copy, waits the window and writes the copy back: a report two
// threads change at once (without the GIL) then loses one thread's change on every run, where
// otherwise it does so once in many runs.
template <class F>
void update(score::report& r, F f) {
    const unsigned window = race_window_us.load(std::memory_order_relaxed);
    if (window == 0) {
        f(r);
        return;
    }
    score::report copy = r;
    f(copy);
    std::this_thread::sleep_for(std::chrono::microseconds(window));
    r = std::move(copy);
}

// Runs `add(report&)` with the GIL released into a report of the call's own, then adds that to
// `into` with the GIL held. `into` is a Python object that other threads may hold (two Scorers
// scoring into one report, or a reader): it changes only under the GIL and in one step, so
// counts are exact and no thread sees it half written. Merging is exact (score.hpp: reports of
// disjoint inputs merge as one run over both).
template <class Add>
void score_into(py_scorer& self, score::report& into, Add add) {
    check_target(self, into);
    score::report part = self.s.empty_report();
    {
        py::gil_scoped_release release;
        std::lock_guard lock(self.m);
        update(part, add);
    }
    std::string why;
    update(into, [&](score::report& r) { why = r.merge(part); });
    if (!why.empty()) throw py::value_error(why);
}

}  // namespace

PYBIND11_MODULE(_score, m) {
    m.doc() = "The C++ scorer under plurnk.score (use `import plurnk.score`).";

    py::class_<score::report>(m, "Report")
        .def(py::init<>())
        .def_static(
            "from_json",
            [](const py::handle& text) {
                std::string why;
                auto r = score::report::from_json(text_of(text), &why);
                if (!r) throw py::value_error("not a score report: " + why);
                return *r;
            },
            py::arg("text"))
        .def("to_json", &score::report::to_json, py::arg("pretty") = false)
        .def(
            "merge",
            [](score::report& self, const score::report& other) {
                const std::string why = self.merge(other);
                if (!why.empty()) throw py::value_error(why);
            },
            py::arg("other"))
        .def(
            "to_table", [](const score::report& r, std::size_t top) { return score::render_table(r, {.top = top}); },
            py::arg("top") = 10)
        .def(
            "to_html", [](const score::report& r, std::size_t top) { return score::render_html(r, {.top = top}); },
            py::arg("top") = 10)
        .def(
            "to_csv", [](const score::report& r) { return score::render_csv(r); })
        .def(
            "to_latex", [](const score::report& r, std::size_t top) { return score::render_latex(r, {.top = top}); },
            py::arg("top") = 10)
        .def_property_readonly("group_by", [](const score::report& r) { return r.group_by; })
        .def_property_readonly("channels", [](const score::report& r) { return r.channels; })
        .def_property_readonly("turns", [](const score::report& r) { return r.total().turns; })
        .def_property_readonly("clean", [](const score::report& r) { return r.total().clean; })
        .def_property_readonly("invalid_records", [](const score::report& r) { return r.invalid_records; })
        .def_property_readonly("groups",
                               [](const score::report& r) {
                                   std::vector<std::string> keys;
                                   for (const auto& [k, g] : r.groups) keys.push_back(k);
                                   return keys;
                               })
        .def("__eq__", [](const score::report& a, const score::report& b) { return a == b; })
        .def("copy", [](const score::report& r) { return score::report(r); })
        .def(py::pickle([](const score::report& r) { return r.to_json(); },
                        [](const std::string& s) {
                            auto r = score::report::from_json(s);
                            if (!r) throw py::value_error("not a score report");
                            return *r;
                        }));

    py::class_<py_scorer>(m, "Scorer")
        .def(py::init([](const std::string& group_by, std::optional<std::string> tier,
                         const std::vector<std::string>& channels, std::optional<std::string> text_field,
                         const std::string& dialect) {
                 score::options o;
                 o.group_by = group_by;
                 const auto d = plurnk::dialect_from_name(dialect);
                 if (!d) throw py::value_error("unknown dialect '" + dialect + "' (expected contracts or service)");
                 o.dialect = *d;
                 if (text_field) {
                     if (text_field->empty()) throw py::value_error("text_field needs a field name");
                     o.text_field = *text_field;
                 }
                 if (tier) {
                     const auto t = plurnk::tier_from_name(*tier);
                     if (!t) throw py::value_error("unknown tier '" + *tier + "'");
                     o.forced_tier = *t;
                 }
                 o.channels.clear();
                 for (const std::string& c : channels) {
                     const auto f = plurnk::rail::channel_from_name(c);
                     if (!f || *f == plurnk::rail::channel_format::custom) {
                         throw py::value_error("unknown channel '" + c + "' (expected gemma, think or none)");
                     }
                     o.channels.push_back(*f);
                 }
                 return std::make_unique<py_scorer>(std::move(o));
             }),
             py::arg("group_by") = "model", py::arg("tier") = py::none(),
             py::arg("channels") = std::vector<std::string>{"gemma", "think", "none"},
             py::arg("text_field") = py::none(), py::arg("dialect") = "contracts")
        .def_property_readonly("fields_seen",
                               [](py_scorer& self) {
                                   std::vector<std::string> out;
                                   {
                                       py::gil_scoped_release release;
                                       std::lock_guard lock(self.m);
                                       out = self.s.fields_seen();
                                   }
                                   return out;
                               })
        .def("report", [](py_scorer& self) { return self.s.empty_report(); })
        .def(
            "score_jsonl",
            [](py_scorer& self, const py::handle& text, const std::string& file, std::size_t first_line,
               score::report& into) {
                const std::string_view t = text_of(text);
                score_into(self, into, [&](score::report& r) { self.s.add_jsonl(r, t, file, first_line); });
            },
            py::arg("text"), py::arg("file"), py::arg("first_line"), py::arg("into"))
        .def(
            "score_turn",
            [](py_scorer& self, const py::handle& text, const std::string& id, const std::string& group,
               const std::string& file, std::optional<std::string> tier, score::report& into) {
                const std::string_view t = text_of(text);
                plurnk::tier tr = self.s.opts().forced_tier.value_or(plurnk::tier::parse);
                if (tier && !self.s.opts().forced_tier) {
                    const auto named = plurnk::tier_from_name(*tier);
                    if (!named) throw py::value_error("unknown tier '" + *tier + "'");
                    tr = *named;
                }
                score_into(self, into, [&](score::report& r) {
                    self.s.add(r, {.text = t, .file = file, .id = id, .group = group, .tier = tr});
                });
            },
            py::arg("text"), py::arg("id"), py::arg("group"), py::arg("file"), py::arg("tier"), py::arg("into"))
        .def(
            "score_turn_file",
            [](py_scorer& self, const py::handle& text, const std::string& file, score::report& into) {
                const std::string_view t = text_of(text);
                score_into(self, into, [&](score::report& r) { self.s.add_turn_file(r, t, file); });
            },
            py::arg("text"), py::arg("file"), py::arg("into"))
        .def(
            "on_rail",
            [](py_scorer& self, const py::handle& text) {
                const std::string_view t = text_of(text);
                std::vector<bool> v;
                {
                    py::gil_scoped_release release;
                    std::lock_guard lock(self.m);
                    v = self.s.on_rail(t);
                }
                py::dict d;
                const auto names = self.s.empty_report().channels;
                for (std::size_t i = 0; i < v.size(); ++i) d[py::str(names[i])] = static_cast<bool>(v[i]);
                return d;
            },
            py::arg("text"));

    // Test-only (see race_window_us): not in _score.pyi, not re-exported by plurnk.score.
    m.def(
        "_set_race_window", [](unsigned microseconds) { race_window_us.store(microseconds, std::memory_order_relaxed); },
        py::arg("microseconds"));
}
