// SPDX-License-Identifier: MIT
// plurnk._serve: the serving layer (include/plurnk/serve.hpp) for Python. DeltaStream.feed()
// returns a Delta: the prose, reasoning and statements one chunk settled, as str when the stream
// is fed str (bytes when fed bytes), each statement with its span in bytes and in code points.
// A Delta keeps the C++ delta and builds Python values on access; its OpenAI JSON (a chunk's
// `delta`, a whole message) is written by the library, not through Python dicts. Misuse raises
// (TypeError, ValueError, RuntimeError); bad input never does.
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "binding.hpp"
#include "call_gate.hpp"
#include "convert.hpp"
#include "plurnk/plurnk.hpp"

namespace py = pybind11;

namespace plurnk_py {
namespace {

py::object g_span_class;    // plurnk.Span
py::object g_result_class;  // plurnk.ParseResult

// Text of the input in the type it was fed: str (surrogatepass, as it was encoded) or bytes.
py::object text_of(std::string_view s, mode m) {
    if (m == mode::bytes) return steal(PyBytes_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size())));
    return steal(PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "surrogatepass"));
}

py::object span_of(plurnk::byte_span s) { return g_span_class(s.begin, s.end); }

// ---- Delta ----------------------------------------------------------------------------------

struct delta_ref {
    std::shared_ptr<const plurnk::delta> d;
    mode m = mode::text;
};

// One statement of a delta: a tool call.
struct call {
    delta_ref ref;
    std::size_t i = 0;

    const plurnk::statement& statement_ref(plurnk::item& hold) const {
        hold = ref.d->statements[i];
        return std::get<plurnk::statement>(hold);
    }
    py::object index() const {
        const std::size_t x = ref.d->indices[i];
        if (x == plurnk::stream_event::npos) return py::none();
        return py::int_(x);
    }
    std::size_t number() const { return ref.d->first_call + i; }
    py::object statement() const { return steal(to_py(ref.d->statements[i])); }
    py::object span() const {
        plurnk::item hold;
        return span_of(statement_ref(hold).span);
    }
    py::object char_span() const {
        if (ref.m == mode::bytes || ref.d->code_point_spans.empty()) return span();
        return span_of(ref.d->code_point_spans[i]);
    }
    std::string tool_call_json(std::string_view prefix) const {
        plurnk::item hold;
        return plurnk::openai::tool_call_json(statement_ref(hold), number(), {.id_prefix = prefix});
    }
    std::string arguments_json() const {
        plurnk::item hold;
        return plurnk::openai::arguments_json(statement_ref(hold));
    }
};

py::object make_delta(plurnk::delta&& d, mode m) {
    return py::cast(delta_ref{std::make_shared<const plurnk::delta>(std::move(d)), m == mode::unset ? mode::text : m});
}

py::tuple statements_of(const delta_ref& r) {
    py::tuple out(r.d->statements.size());
    for (std::size_t i = 0; i < r.d->statements.size(); ++i) out[i] = py::cast(call{r, i});
    return out;
}

py::tuple runaways_of(const delta_ref& r) {
    py::tuple out(r.d->runaways.size());
    for (std::size_t i = 0; i < r.d->runaways.size(); ++i) out[i] = steal(to_py(r.d->runaways[i]));
    return out;
}

py::object add(const delta_ref& a, const delta_ref& b) {
    if (a.m != b.m && !a.d->empty() && !b.d->empty()) throw py::type_error("cannot add a str Delta and a bytes Delta");
    plurnk::delta sum = *a.d;
    sum.append(*b.d);
    return make_delta(std::move(sum), a.d->empty() ? b.m : a.m);
}

std::string repr(const delta_ref& r) {
    std::string out = "Delta(content=" + py::repr(text_of(r.d->content, r.m)).cast<std::string>() +
                      ", reasoning=" + py::repr(text_of(r.d->reasoning, r.m)).cast<std::string>() + ", statements=[";
    for (std::size_t i = 0; i < r.d->statements.size(); ++i) {
        plurnk::item hold = r.d->statements[i];
        if (i != 0) out += ", ";
        out += plurnk::op_name(std::get<plurnk::statement>(hold).op);
    }
    out += "], runaways=" + std::to_string(r.d->runaways.size()) + (r.d->ends_turn ? ", ends_turn=True)" : ")");
    return out;
}

// ---- DeltaStream ------------------------------------------------------------------------------

class delta_stream;

// draft() as a context manager: the draft is rejected when the block raises, accepted (whole)
// when it ends while the draft is still open; `delta` is what that accept returned.
struct draft_handle {
    py::object stream;  // the DeltaStream
    py::object delta;
};

// Every method that reads or changes the C++ stream holds the gate (call_gate.hpp), as
// StreamParser's do. `drafting` and `ended` answer at any time: they read copies taken under the
// GIL as each call leaves the stream (returning or raising), never the stream another thread may
// be feeding with the GIL released.
class delta_stream {
public:
    delta_stream(plurnk::tier t, const plurnk::parse_options& o, std::size_t max_open_bytes)
        : s_(t, o, {.max_open_bytes = max_open_bytes, .code_points = true}), tier_(t) {}
    // copy.copy(): `o` is held for the whole copy (a feed in another thread would change it).
    delta_stream(delta_stream& o) : delta_stream(o, call_gate::scope(o.gate_, "copy.copy()")) {}
    delta_stream(const delta_stream&) = delete;
    delta_stream& operator=(const delta_stream&) = delete;

    py::object feed(py::handle chunk) {
        const in_call c(*this, "feed()");
        if (s_.ended()) throw py::value_error("feed() after the end of input (end() or finish() was called)");
        const input_text in = read_input(chunk, "chunk");
        if (m_ != mode::unset && m_ != kind_of(in)) {
            throw py::type_error(m_ == mode::text ? "this DeltaStream was fed str; feed str chunks only"
                                                  : "this DeltaStream was fed bytes; feed bytes chunks only");
        }
        m_ = kind_of(in);
        plurnk::delta d;
        if (in.view.size() + s_.parser().retained() >= k_release_gil_bytes) {
            py::gil_scoped_release release;
            d = s_.feed(in.view);
        } else {
            d = s_.feed(in.view);
        }
        return delta_of(std::move(d));
    }

    py::object end() {
        const in_call c(*this, "end()");
        if (s_.drafting()) throw py::value_error("end() while a draft is open: accept() or reject() it first");
        if (s_.ended()) throw py::value_error("end() was already called");
        plurnk::delta d;
        {
            py::gil_scoped_release release;
            d = s_.end();
        }
        return make_delta(std::move(d), m_);
    }

    py::object peek_end() {
        const in_call c(*this, "peek_end()");
        return delta_of(s_.peek_end());
    }

    py::object finish() {
        const in_call c(*this, "finish()");
        if (!result_.is_none()) return result_;
        if (s_.drafting()) throw py::value_error("finish() while a draft is open: accept() or reject() it first");
        plurnk::parse_result r;
        {
            py::gil_scoped_release release;
            r = s_.finish();
        }
        result_ = g_result_class.attr("_wrap")(py::cast(native_result{std::move(r)}));
        return result_;
    }

    void draft() {
        const in_call c(*this, "draft()");
        if (s_.ended()) throw py::value_error("draft() after the end of input");
        s_.draft();
    }
    py::object accept(const py::object& chunks) {
        const in_call c(*this, "accept()");
        std::size_t n = plurnk::delta_stream::all;
        count_arg(chunks, "chunks", n);
        return make_delta(s_.accept(n), m_);
    }
    void reject() {
        const in_call c(*this, "reject()");
        s_.reject();
    }
    py::object open_now() {
        const in_call c(*this, "open()");
        return steal(to_py(s_.ended() ? plurnk::open_info{} : s_.parser().open()));
    }
    bool drafting() const { return drafting_; }
    bool ended() const { return ended_; }
    std::string tier() const { return plurnk::tier_name(tier_); }

private:
    // One call on the stream: holds the gate, and as the call leaves (returning or raising)
    // copies what the properties report. Made and left with the GIL held.
    class in_call {
    public:
        in_call(delta_stream& s, const char* what) : s_(s), held_(s.gate_, what) {}
        ~in_call() { s_.settle(); }
        in_call(const in_call&) = delete;
        in_call& operator=(const in_call&) = delete;

    private:
        delta_stream& s_;
        call_gate::scope held_;
    };

    delta_stream(const delta_stream& o, const call_gate::scope& /*o held*/) : s_(o.s_), tier_(o.tier_), m_(o.m_) {
        settle();
    }

    void settle() noexcept {
        drafting_ = s_.drafting();
        ended_ = s_.ended();
    }

    // Most feeds of a token settle nothing: their empty Delta is made once (per tool-call count).
    py::object delta_of(plurnk::delta&& d) {
        if (!d.empty()) return make_delta(std::move(d), m_);
        if (empty_.is_none() || empty_calls_ != d.first_call || empty_mode_ != m_) {
            empty_calls_ = d.first_call;
            empty_mode_ = m_;
            empty_ = make_delta(std::move(d), m_);
        }
        return empty_;
    }

    call_gate gate_{"DeltaStream"};
    plurnk::delta_stream s_;
    plurnk::tier tier_;
    mode m_ = mode::unset;
    py::object empty_ = py::none();
    std::size_t empty_calls_ = 0;
    mode empty_mode_ = mode::unset;
    bool drafting_ = false;
    bool ended_ = false;
    py::object result_ = py::none();
};

// The one-shot split of a whole turn, as a Delta (char spans counted here: project() has none).
py::object project(py::handle text, const std::string& tier, const std::string& dialect) {
    const input_text c = read_input(text, "text");
    const plurnk::parse_options options = options_arg(py::none(), py::none(), dialect);
    plurnk::delta d;
    {
        py::gil_scoped_release release;
        d = plurnk::project(c.view, plurnk::parse(c.view, tier_arg(tier), options));
        std::size_t at = 0, points = 0;
        for (const plurnk::item& it : d.statements) {
            const plurnk::byte_span sp = std::get<plurnk::statement>(it).span;
            points += count_code_points(c.view.substr(at, sp.begin - at));
            const std::size_t b = points;
            points += count_code_points(c.view.substr(sp.begin, sp.end - sp.begin));
            at = sp.end;
            d.code_point_spans.push_back(plurnk::byte_span{b, points});
        }
    }
    return make_delta(std::move(d), kind_of(c));
}

}  // namespace
}  // namespace plurnk_py

PYBIND11_MODULE(_serve, m) {
    using namespace plurnk_py;
    m.doc() = "The serving layer of the plurnk package (use `import plurnk`): deltas and the OpenAI mapping.";

    m.def("_register", [](py::dict classes, py::object result_class, py::object span_class) {
        if (!register_types(classes.ptr())) throw py::error_already_set();
        g_result_class = std::move(result_class);
        g_span_class = std::move(span_class);
    });

    def_native_result(m);

    py::class_<call>(m, "Call", "A statement of a Delta: one tool call.")
        .def_property_readonly("index", &call::index, "Its index in the final result's items (None while not known).")
        .def_property_readonly("call", &call::number, "Its tool call number in the turn (0, 1, ...).")
        .def_property_readonly("statement", &call::statement)
        .def_property_readonly("span", &call::span, "Its span in bytes of the UTF-8 input.")
        .def_property_readonly("char_span", &call::char_span,
                               "Its span in the units fed: code points for str (== span for bytes).")
        .def("tool_call_json", &call::tool_call_json, py::arg("id_prefix") = "call_",
             "{\"id\":…,\"type\":\"function\",\"function\":{\"name\":…,\"arguments\":…}} as JSON text.")
        .def("arguments_json", &call::arguments_json, "The tool call's arguments object as JSON text.")
        .def("__repr__", [](const call& c) {
            plurnk::item hold;
            return "Call(" + std::to_string(c.number()) + ", " + plurnk::op_name(c.statement_ref(hold).op) + ")";
        });

    py::class_<delta_ref>(m, "Delta", "What a stretch of a turn adds: prose, reasoning, statements, runaways.")
        .def_property_readonly("content", [](const delta_ref& r) { return text_of(r.d->content, r.m); })
        .def_property_readonly("reasoning", [](const delta_ref& r) { return text_of(r.d->reasoning, r.m); })
        .def_property_readonly("statements", &statements_of)
        .def_property_readonly("runaways", &runaways_of)
        .def_property_readonly("first_call", [](const delta_ref& r) { return r.d->first_call; })
        .def_property_readonly("ends_turn", [](const delta_ref& r) { return r.d->ends_turn; })
        .def("chunk_json", [](const delta_ref& r, std::string_view prefix) {
                 return plurnk::openai::chunk_delta_json(*r.d, {.id_prefix = prefix});
             }, py::arg("id_prefix") = "call_",
             "The `delta` of an OpenAI chat.completion.chunk, as JSON text ({} when empty).")
        .def("message_json", [](const delta_ref& r, std::string_view prefix) {
                 return plurnk::openai::message_json(*r.d, {.id_prefix = prefix});
             }, py::arg("id_prefix") = "call_",
             "The assistant `message` of an OpenAI chat.completion for this (whole-turn) Delta, as JSON text.")
        .def("__bool__", [](const delta_ref& r) { return !r.d->empty(); })
        .def("__add__", &add)
        .def("__repr__", &repr);

    py::class_<delta_stream>(m, "DeltaStream",
                             "The push parser for a server: feed() returns the Delta each chunk settled.\n"
                             "DeltaStream(tier='parse', *, max_input_bytes=None, max_turn_depth=None, max_open_bytes=None,\n"
                             "dialect='contracts').")
        .def(py::init([](const std::string& tier, py::object max_input_bytes, py::object max_turn_depth,
                         py::object max_open_bytes, const std::string& dialect) {
                 std::size_t limit = 0;
                 count_arg(max_open_bytes, "max_open_bytes", limit);
                 return new delta_stream(tier_arg(tier), options_arg(max_input_bytes, max_turn_depth, dialect), limit);
             }),
             py::arg("tier") = "parse", py::kw_only(), py::arg("max_input_bytes") = py::none(),
             py::arg("max_turn_depth") = py::none(), py::arg("max_open_bytes") = py::none(),
             py::arg("dialect") = "contracts")
        .def("feed", &delta_stream::feed, py::arg("chunk"), "Appends a chunk; returns the Delta it settled.")
        .def("end", &delta_stream::end, "Ends the input; returns the last Delta.")
        .def("peek_end", &delta_stream::peek_end, "What end() would return now, without ending.")
        .def("finish", &delta_stream::finish, "Ends the input if needed; the ParseResult (== plurnk.parse of it all).")
        .def("draft", [](py::object self) {
                 self.cast<delta_stream&>().draft();
                 return draft_handle{self, py::none()};
             }, "Starts a draft (or continues the open one); a context manager.")
        .def("accept", &delta_stream::accept, py::arg("chunks") = py::none(),
             "Keeps the first `chunks` chunks of the draft (None: all); returns the Delta they settled.")
        .def("reject", &delta_stream::reject, "Drops the draft.")
        .def("open", &delta_stream::open_now, "What is open now: an OpenInfo.")
        .def_property_readonly("drafting", &delta_stream::drafting)
        .def_property_readonly("ended", &delta_stream::ended)
        .def_property_readonly("tier", &delta_stream::tier)
        .def("__copy__", [](delta_stream& s) { return new delta_stream(s); });

    py::class_<draft_handle>(m, "Draft", "DeltaStream.draft() in a with block: rejected on an exception, else accepted.")
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](draft_handle& d, py::object type, py::object, py::object) {
            auto& s = d.stream.cast<delta_stream&>();
            if (!s.drafting()) return false;
            if (type.is_none()) {
                d.delta = s.accept(py::none());
            } else {
                s.reject();
            }
            return false;
        })
        .def_property_readonly("delta", [](const draft_handle& d) { return d.delta; },
                               "What the accept at the end of the with block returned (None before, or when rejected).");

    m.def("project", &project, py::arg("text"), py::arg("tier") = "parse", py::kw_only(), py::arg("dialect") = "contracts",
          "The whole turn's prose, reasoning and statements as one Delta (what a stream's deltas add up to).");
    m.def("openai_tools", [](const std::string& tier) { return plurnk::openai::tools_json(tier_arg(tier)); },
          py::arg("tier") = "parse", "A request's `tools` (one function per op) as JSON text.");
}
