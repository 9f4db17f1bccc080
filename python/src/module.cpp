// SPDX-License-Identifier: MIT
// plurnk._plurnk: the pybind11 extension under the `plurnk` package. It parses (with the GIL
// released), holds C++ results until Python asks for their items, writes JSON with the library's
// writer, and wraps the push parser for serving loops. Every conversion of a value lives in
// convert.cpp; this file only moves values across and checks arguments. Bad input never raises
// (it is a diagnostic in the result); misuse raises TypeError, ValueError or RuntimeError.
#include <pybind11/pybind11.h>

#include <time.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "binding.hpp"
#include "call_gate.hpp"
#include "convert.hpp"
#include "plurnk/plurnk.hpp"

namespace py = pybind11;

namespace plurnk_py {
namespace {

py::object g_result_class;  // plurnk.ParseResult, set by _register

py::object wrap_result(plurnk::parse_result&& r) {
    return g_result_class.attr("_wrap")(py::cast(native_result{std::move(r)}));
}

// ---- The stream parser --------------------------------------------------------------------

// What the parser reported and Python has not been handed yet. The engine's event is a view of
// its buffers, valid during its callback only (the next step of the same feed may release and
// reuse them), and the callback may run with the GIL released, so each item is copied into
// `items` there (item_list::push_back copies its strings) and converted after the feed.
struct undelivered {
    plurnk::item_list items;
    std::vector<std::size_t> index;          // each item's stream_event::index
    std::deque<plurnk::open_info> runaways;  // for on_runaway, or for take_runaways() without it
};

// Everything a checkpoint captures: the C++ parser, the binding's bookkeeping of what was fed
// (the input from the last take_safe() on, and the fed units up to the watermark), and what was
// reported and not delivered yet, so that restore() drops what the rejected input reported.
struct stream_state {
    explicit stream_state(plurnk::stream_parser p) : parser(std::move(p)) {}
    plurnk::stream_parser parser;
    mode m = mode::unset;
    std::string unshown;        // input from shown_bytes on
    std::size_t shown_bytes = 0;
    std::size_t shown_units = 0;  // code points (str mode) or bytes up to shown_bytes
    std::size_t cache_bytes = 0;  // last converted safe_prefix, >= shown_bytes
    std::size_t cache_units = 0;
    bool ended = false;
    py::object result;  // the ParseResult once ended
    undelivered pending;
};

struct checkpoint {
    std::uint64_t owner;
    stream_state state;
};

std::atomic<std::uint64_t> g_next_stream_id{1};

class stream {
public:
    stream(plurnk::tier t, const plurnk::parse_options& o, std::size_t max_open_bytes = 0,
           py::object on_runaway = py::none())
        : id_(g_next_stream_id++), st_(stream_state(plurnk::stream_parser(t, o))), tier_(t),
          max_open_bytes_(max_open_bytes), on_runaway_(std::move(on_runaway)) {
        hook();
    }
    // copy.copy(): a new parser in the state of `other` (what it has not delivered included).
    stream(stream& other)
        : id_(g_next_stream_id++), st_(other.state_copy()), tier_(other.tier_),
          max_open_bytes_(other.max_open_bytes_), on_runaway_(other.on_runaway_) {
        hook();
    }
    stream(const stream&) = delete;
    stream& operator=(const stream&) = delete;

    py::list feed(py::handle chunk) {
        const call_gate::scope busy(gate_, "feed()");
        stream_state& s = open_state("feed()");
        if (s.ended) throw py::value_error("feed() after the end of input (end() or finish() was called)");
        const input_text in = read_input(chunk, "chunk");
        const mode m = kind_of(in);
        if (s.m != mode::unset && s.m != m) {
            throw py::type_error(s.m == mode::text ? "this StreamParser was fed str; feed str chunks only"
                                                   : "this StreamParser was fed bytes; feed bytes chunks only");
        }
        s.m = m;
        s.unshown.append(in.view);
        if (in.view.size() + s.parser.retained() >= k_release_gil_bytes) {
            py::gil_scoped_release release;
            s.parser.feed(in.view);
        } else {
            s.parser.feed(in.view);
        }
        call_on_runaway(s);
        return take_events(s);
    }

    // What is open now (an OpenInfo).
    py::object open_now() {
        const call_gate::scope busy(gate_, "open()");
        stream_state& s = open_state("open()");
        return steal(to_py(s.ended ? plurnk::open_info{} : s.parser.open()));
    }

    // The runaway events raised since the last call (without an on_runaway callback).
    py::list take_runaways() {
        const call_gate::scope busy(gate_, "take_runaways()");
        std::deque<plurnk::open_info>& queued = open_state("take_runaways()").pending.runaways;
        py::list out;
        for (const plurnk::open_info& o : queued) out.append(steal(to_py(o)));
        queued.clear();
        return out;
    }

    py::list end() {
        const call_gate::scope busy(gate_, "end()");
        return end_now();
    }

    py::object finish() {
        const call_gate::scope busy(gate_, "finish()");
        if (!st_ && result_after_close_) return result_after_close_;
        stream_state& s = open_state("finish()");
        if (!s.ended) end_now();
        return s.result;
    }

    // (No gate: these read fields that change only while the GIL is held and no call is inside
    // the parser, so they answer at any time, also during another thread's feed().)
    py::object result() const {
        if (!st_) return result_after_close_ ? result_after_close_ : py::none();
        return st_->ended ? st_->result : py::none();
    }

    std::size_t safe_prefix() {
        const call_gate::scope busy(gate_, "safe_prefix");
        return safe_units(open_state("safe_prefix"));
    }

    py::object take_safe() {
        const call_gate::scope busy(gate_, "take_safe()");
        stream_state& s = open_state("take_safe()");
        const std::size_t units = safe_units(s);
        const std::size_t n = s.cache_bytes - s.shown_bytes;
        py::object out = s.m != mode::bytes
                             ? steal(PyUnicode_DecodeUTF8(s.unshown.data(), static_cast<Py_ssize_t>(n), "surrogatepass"))
                             : py::bytes(s.unshown.data(), n);
        s.unshown.erase(0, n);
        s.shown_bytes = s.cache_bytes;
        s.shown_units = units;
        return out;
    }

    checkpoint make_checkpoint() {
        const call_gate::scope busy(gate_, "checkpoint()");
        return checkpoint{id_, stream_state(open_state("checkpoint()"))};
    }

    // Back to the checkpoint, with what it had not delivered: the events and runaways the
    // rejected input reported and this parser had not handed over yet are dropped.
    void restore(const checkpoint& cp) {
        const call_gate::scope busy(gate_, "restore()");
        open_state("restore()");
        if (cp.owner != id_) throw py::value_error("this checkpoint was taken from another StreamParser");
        st_ = cp.state;
        hook();
    }

    void close() {
        const call_gate::scope busy(gate_, "close()");
        if (!st_) return;
        result_after_close_ = st_->ended ? st_->result : py::object();
        st_.reset();
    }

    bool ended() const { return st_ ? st_->ended : true; }
    bool closed() const { return !st_; }
    std::string tier() const { return plurnk::tier_name(tier_); }

private:
    // The watermark in the units fed: code points for str chunks, bytes for bytes chunks. The
    // code points are counted only over the stretch the watermark moved since the last call.
    static std::size_t safe_units(stream_state& s) {
        const std::size_t b = safe_bytes(s);
        if (b < s.cache_bytes) {
            s.cache_bytes = s.shown_bytes;
            s.cache_units = s.shown_units;
        }
        if (s.m == mode::text) {
            const std::string_view moved = std::string_view(s.unshown).substr(s.cache_bytes - s.shown_bytes, b - s.cache_bytes);
            s.cache_units += count_code_points(moved);
        } else {
            s.cache_units = b;
        }
        s.cache_bytes = b;
        return s.cache_units;
    }

    stream_state& open_state(const char* what) {
        if (!st_) throw py::value_error(std::string(what) + " on a closed StreamParser");
        return *st_;
    }
    stream_state state_copy() {
        const call_gate::scope busy(gate_, "copy.copy()");
        if (!st_) throw py::value_error("copy of a closed StreamParser");
        return stream_state(*st_);
    }

    // The parser's watermark in bytes, moved back to a code point boundary in str mode.
    static std::size_t safe_bytes(const stream_state& s) {
        std::size_t b = s.parser.safe_prefix();
        if (s.m == mode::text) {
            while (b > s.shown_bytes && b - s.shown_bytes < s.unshown.size() &&
                   (static_cast<unsigned char>(s.unshown[b - s.shown_bytes]) & 0xC0) == 0x80) {
                --b;
            }
        }
        return std::max(b, s.shown_bytes);
    }

    // The engine's callbacks copy what they report into st_->pending (they may run with the GIL
    // released; feed() and end() hand it to Python after the call).
    void hook() {
        st_->parser.set_callback([this](const plurnk::stream_event& e) {
            st_->pending.items.push_back(e.value);
            st_->pending.index.push_back(e.index);
        });
        if (max_open_bytes_ != 0) {
            st_->parser.set_runaway_limit(max_open_bytes_,
                                          [this](const plurnk::open_info& o) { st_->pending.runaways.push_back(o); });
        }
    }

    py::list end_now() {
        stream_state& s = open_state("end()");
        if (s.ended) throw py::value_error("end() was already called");
        call_on_runaway(s);  // what an earlier feed() left when on_runaway raised
        plurnk::parse_result r;
        {
            py::gil_scoped_release release;
            r = s.parser.finish();
        }
        s.ended = true;
        s.result = wrap_result(std::move(r));
        return take_events(s);
    }

    // Hands each queued runaway to on_runaway (when set), in order, each taken off the queue
    // before its call. When the callback raises, the exception propagates and nothing is lost:
    // the runaways after it and the undelivered events stay queued, and the next feed() or end()
    // delivers them before its own (restore() drops them with the rest of a rejected input).
    void call_on_runaway(stream_state& s) {
        if (on_runaway_.is_none()) return;
        std::deque<plurnk::open_info>& queued = s.pending.runaways;
        while (!queued.empty()) {
            py::object info = steal(to_py(queued.front()));
            queued.pop_front();
            on_runaway_(info);
        }
    }

    // The undelivered events as Python Events (each item converted from the copy the callback
    // took); they leave the queue only once the whole list is made.
    static py::list take_events(stream_state& s) {
        undelivered& u = s.pending;
        py::list out(u.items.size());
        for (std::size_t i = 0; i < u.items.size(); ++i) {
            PyObject* e = event(u.items[i], u.index[i]);
            if (e == nullptr) throw py::error_already_set();
            PyList_SET_ITEM(out.ptr(), static_cast<Py_ssize_t>(i), e);
        }
        u.items.clear();
        u.index.clear();
        return out;
    }

    std::uint64_t id_;
    call_gate gate_{"StreamParser", "its on_runaway callback"};  // held by every call (call_gate.hpp)
    std::optional<stream_state> st_;
    plurnk::tier tier_;
    std::size_t max_open_bytes_ = 0;
    py::object on_runaway_;
    py::object result_after_close_;
};

py::object parse(py::handle text, const std::string& tier, py::object max_input_bytes, py::object max_turn_depth,
                 const std::string& dialect) {
    const plurnk::tier t = tier_arg(tier);
    const plurnk::parse_options o = options_arg(std::move(max_input_bytes), std::move(max_turn_depth), dialect);
    const input_text in = read_input(text, "text");
    plurnk::parse_result r;
    {
        py::gil_scoped_release release;
        r = plurnk::parse(in.view, t, o);
    }
    return py::cast(native_result{std::move(r)});
}

py::object result_to_json(py::handle items, py::handle tail, bool pretty) {
    plurnk::parse_result r;
    if (!result_from_py(items.ptr(), tail.ptr(), r)) throw py::error_already_set();
    return native_result{std::move(r)}.to_json(pretty);
}

// Thread CPU time, the clock the Python benchmark reads too (time.thread_time_ns).
double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// For plurnk.bench: the C++ figures of the same run, without Python in the loop. Best of
// `repeat` seconds per parse (result destroyed inside the timing, as Python's loop does).
double bench_parse(py::handle text, const std::string& tier, int repeat) {
    const plurnk::tier t = tier_arg(tier);
    const input_text in = read_input(text, "text");
    py::gil_scoped_release release;
    double best = 1e300;
    for (int i = 0; i < repeat; ++i) {
        const double t0 = cpu_seconds();
        { const plurnk::parse_result r = plurnk::parse(in.view, t); }
        best = std::min(best, cpu_seconds() - t0);
    }
    return best;
}

// Best of `repeat` nanoseconds per stream_parser::feed of `chunk`-byte pieces (finish() untimed).
double bench_feed(py::handle text, const std::string& tier, std::size_t chunk, int repeat) {
    const plurnk::tier t = tier_arg(tier);
    const input_text in = read_input(text, "text");
    if (chunk == 0) throw py::value_error("chunk must be > 0");
    py::gil_scoped_release release;
    double best = 1e300;
    const std::size_t feeds = (in.view.size() + chunk - 1) / chunk;
    for (int i = 0; i < repeat; ++i) {
        plurnk::stream_parser p(t);
        std::size_t events = 0;
        p.set_callback([&events](const plurnk::stream_event&) { ++events; });
        const double t0 = cpu_seconds();
        for (std::size_t at = 0; at < in.view.size(); at += chunk) p.feed(in.view.substr(at, chunk));
        best = std::min(best, (cpu_seconds() - t0) * 1e9 / static_cast<double>(feeds));
        (void)p.finish();
    }
    return best;
}

// One element of a result's "items", as the result's JSON holds it.
py::object item_to_json(py::handle item, bool pretty) {
    text_keeper keep;
    plurnk::item it;
    if (!item_from_py(item.ptr(), it, keep)) throw py::error_already_set();
    std::string out;
    plurnk::append_json(out, it, {.pretty = pretty});
    return steal(PyUnicode_DecodeUTF8(out.data(), static_cast<Py_ssize_t>(out.size()), nullptr));
}

py::object verdict_of(const plurnk::result<void>& v, std::string_view input) { return steal(to_py(v, input)); }

}  // namespace
}  // namespace plurnk_py

PYBIND11_MODULE(_plurnk, m) {
    using namespace plurnk_py;
    m.doc() = "The C++ core of the plurnk package (use `import plurnk`).";
    m.attr("__version__") = plurnk::k_version;
    m.attr("language_version") = plurnk::k_language_version;
    m.attr("build_commit") = plurnk::build_commit();

    m.def("_register", [](py::dict classes, py::object result_class) {
        if (!register_types(classes.ptr())) throw py::error_already_set();
        g_result_class = std::move(result_class);
    });

    def_native_result(m);

    m.def("parse", &parse, py::arg("text"), py::arg("tier") = "parse", py::kw_only(),
          py::arg("max_input_bytes") = py::none(), py::arg("max_turn_depth") = py::none(),
          py::arg("dialect") = "contracts");
    m.def("_bench_parse", &bench_parse, py::arg("text"), py::arg("tier"), py::arg("repeat"));
    m.def("_bench_feed", &bench_feed, py::arg("text"), py::arg("tier"), py::arg("chunk"), py::arg("repeat"));
    m.def("item_to_json", &item_to_json, py::arg("item"), py::arg("pretty") = false);
    m.def("result_to_json", &result_to_json, py::arg("items"), py::arg("tail"), py::arg("pretty") = false);

    py::class_<checkpoint>(m, "Checkpoint", "A saved StreamParser state; pass it to restore().");

    py::class_<stream>(m, "StreamParser",
                       "The push parser: feed a turn as it arrives, get each item the moment it is settled.\n"
                       "StreamParser(tier='parse', *, max_input_bytes=None, max_turn_depth=None); see doc/python.md.")
        .def(py::init([](const std::string& tier, py::object max_input_bytes, py::object max_turn_depth,
                         py::object max_open_bytes, py::object on_runaway, const std::string& dialect) {
                 std::size_t limit = 0;
                 count_arg(max_open_bytes, "max_open_bytes", limit);
                 if (!on_runaway.is_none() && !PyCallable_Check(on_runaway.ptr())) {
                     throw py::type_error("on_runaway must be callable or None");
                 }
                 return new stream(tier_arg(tier), options_arg(max_input_bytes, max_turn_depth, dialect), limit,
                                   std::move(on_runaway));
             }),
             py::arg("tier") = "parse", py::kw_only(), py::arg("max_input_bytes") = py::none(),
             py::arg("max_turn_depth") = py::none(), py::arg("max_open_bytes") = py::none(),
             py::arg("on_runaway") = py::none(), py::arg("dialect") = "contracts")
        .def("feed", &stream::feed, py::arg("chunk"),
             "Appends a chunk (str or bytes-like, one kind per parser); returns the list of Events it settled\n"
             "(first any an earlier feed() left when its on_runaway raised).")
        .def("end", &stream::end, "Ends the input; returns the Events the end settles (a terminal SEND, errors).")
        .def("finish", &stream::finish,
             "Ends the input if needed and returns the ParseResult (== plurnk.parse of everything fed).")
        .def_property_readonly("result", &stream::result)
        .def_property_readonly("safe_prefix", &stream::safe_prefix,
                               "Settled leading input, in the units fed: code points for str, bytes for bytes.")
        .def("take_safe", &stream::take_safe,
             "The settled input not taken yet (str or bytes, as fed), each piece once: what is safe to show.")
        .def("open", &stream::open_now, "What is open now: an OpenInfo (where 'none' when nothing is).")
        .def("take_runaways", &stream::take_runaways,
             "The runaway events (OpenInfo) raised since the last call, when there is no on_runaway.")
        .def("checkpoint", &stream::make_checkpoint, "A snapshot of the parser, for restore().")
        .def("restore", &stream::restore, py::arg("checkpoint"),
             "Goes back to a checkpoint of this parser; what the rejected input raised and was not handed over\n"
             "(queued runaways, undelivered events) is dropped. Events returned since are not taken back.")
        .def("close", &stream::close, "Frees the parser; `result` stays if it finished. `with` calls it.")
        .def_property_readonly("ended", &stream::ended)
        .def_property_readonly("closed", &stream::closed)
        .def_property_readonly("tier", &stream::tier)
        .def("__copy__", [](stream& s) { return new stream(s); })
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](stream& s, py::args) {
            s.close();
            return false;
        });

    m.def("validate_regex", [](py::handle pattern, py::handle flags) {
        const std::string p = text_arg(pattern, "pattern"), f = text_arg(flags, "flags");
        return verdict_of(plurnk::validate_regex(p, f), p);
    }, py::arg("pattern"), py::arg("flags") = "",
       "ECMAScript RegExp syntax as V8 (Node 20) accepts `new RegExp(pattern, flags)`: a Verdict.");
    m.def("validate_xpath", [](py::handle expr) {
        const std::string e = text_arg(expr, "expr");
        return verdict_of(plurnk::validate_xpath(e), e);
    }, py::arg("expr"), "XPath 1.0 syntax as the npm xpath package parses it: a Verdict.");
    m.def("validate_jsonpath", [](py::handle expr) {
        const std::string e = text_arg(expr, "expr");
        return verdict_of(plurnk::validate_jsonpath(e), e);
    }, py::arg("expr"), "RFC 9535 JSONPath syntax as json-p3 compiles it: a Verdict.");
    m.def("parse_url", [](py::handle text) -> py::object {
        const plurnk::result<plurnk::url_record> u = plurnk::parse_url(text_arg(text, "url"));
        return u ? steal(to_py(u.value())) : py::none();
    }, py::arg("url"), "The WHATWG URL record of `url` (no base), or None when it does not parse.");
    m.def("parse_path", [](py::handle raw) {
        const plurnk::result<std::optional<plurnk::path_value>> r = plurnk::parse_path(text_arg(raw, "raw"));
        if (!r) return py::make_tuple(py::none(), steal(to_str(r.problem().message)));
        return py::make_tuple(r.value() ? steal(to_py(*r.value())) : py::none(), py::none());
    }, py::arg("raw"));
    m.def("parse_resource_selection", [](py::handle raw) {
        const plurnk::result<std::optional<plurnk::selection_value>> r =
            plurnk::parse_resource_selection(text_arg(raw, "raw"));
        if (!r) return py::make_tuple(py::none(), steal(to_str(r.problem().message)));
        return py::make_tuple(r.value() ? steal(to_py(*r.value())) : py::none(), py::none());
    }, py::arg("raw"));
    m.def("has_glob", [](py::handle pathname) { return plurnk::has_glob(text_arg(pathname, "pathname")); },
          py::arg("pathname"), "Whether a path has glob magic (*, ?, a class, a brace, an extglob, an escape).");
    m.def("gbnf", [](std::size_t max_statements, py::handle suffixes, const std::string& channel,
                     py::object channel_open, py::object channel_close, const std::string& dialect) {
        plurnk::rail::options o;
        o.max_statements = max_statements;
        o.dialect = dialect_arg(dialect);
        const bool custom = !channel_open.is_none() || !channel_close.is_none();
        if (custom) {
            if (channel != "gemma") throw py::value_error("channel and channel_open/channel_close exclude each other");
            if (channel_open.is_none() || channel_close.is_none()) {
                throw py::value_error("channel_open and channel_close go together");
            }
            o.channel = plurnk::rail::channel_format::custom;
            o.channel_open = text_arg(channel_open, "channel_open");
            o.channel_close = text_arg(channel_close, "channel_close");
        } else {
            const auto f = plurnk::rail::channel_from_name(channel);
            if (!f || *f == plurnk::rail::channel_format::custom) {
                throw py::value_error("channel must be 'gemma', 'think' or 'none' (or give channel_open and channel_close), not '" +
                                      channel + "'");
            }
            o.channel = *f;
        }
        if (PyUnicode_Check(suffixes.ptr())) throw py::type_error("suffixes must be a sequence of str, not a str");
        o.suffixes.clear();
        for (py::handle s : py::iter(suffixes)) o.suffixes.push_back(text_arg(s, "suffixes item"));
        // Written piece by piece, as `plurnk gbnf` does: the grammar's tree is never held whole.
        std::string text;
        const plurnk::result<plurnk::rail::gbnf_written> w =
            plurnk::rail::write_gbnf(o, [&text](std::string_view piece) { text.append(piece); });
        if (!w) throw py::value_error(w.problem().message);
        return text;
    }, py::arg("max_statements") = 14, py::arg("suffixes") = py::make_tuple("", "1", "2"), py::kw_only(),
       py::arg("channel") = "gemma", py::arg("channel_open") = py::none(), py::arg("channel_close") = py::none(),
       py::arg("dialect") = "contracts",
       "The generation rail in llama.cpp's GBNF syntax, as `plurnk gbnf` writes it; dialect=\"service\" gives the "
       "rail of the service dialect (`plurnk gbnf --dialect=service`).");
    m.def("format", [](py::handle statement, const std::string& dialect) {
        text_keeper keep;
        plurnk::item it;
        if (!item_from_py(statement.ptr(), it, keep)) throw py::error_already_set();
        const auto* s = std::get_if<plurnk::statement>(&it);
        if (s == nullptr) throw py::type_error("format() takes a Statement");
        const plurnk::format_result f = plurnk::format(*s, dialect_arg(dialect));
        if (!f) throw py::value_error(*f.error);
        return steal(to_str(f.text));
    }, py::arg("statement"), py::kw_only(), py::arg("dialect") = "contracts",
       "The canonical text of a Statement; ValueError for a part PLURNK cannot spell.");
    m.def("format_turn", [](py::handle items, py::handle tail, const std::string& dialect) {
        plurnk::parse_result r;
        if (!result_from_py(items.ptr(), tail.ptr(), r)) throw py::error_already_set();
        r.dialect = dialect_arg(dialect);
        const plurnk::format_result f = plurnk::format_turn(r);
        if (!f) throw py::value_error(*f.error);
        return steal(to_str(f.text));
    }, py::arg("items"), py::arg("tail"), py::kw_only(), py::arg("dialect") = "contracts");
    m.def("format_source", [](py::handle text, const std::string& tier, const std::string& dialect) {
        const plurnk::tier t = tier_arg(tier);
        plurnk::parse_options o;
        o.dialect = dialect_arg(dialect);
        const input_text in = read_input(text, "text");
        std::string out;
        {
            py::gil_scoped_release release;
            out = plurnk::format_source(in.view, t, o).text;
        }
        if (in.is_str) return steal(to_str(out));
        return py::reinterpret_steal<py::object>(PyBytes_FromStringAndSize(out.data(), static_cast<Py_ssize_t>(out.size())));
    }, py::arg("text"), py::arg("tier") = "parse", py::kw_only(), py::arg("dialect") = "contracts");
    m.def("migrate_source", [](py::handle text, const std::string& tier, const std::string& from, const std::string& to) {
        const plurnk::tier t = tier_arg(tier);
        plurnk::parse_options o;
        o.dialect = dialect_arg(from);
        const plurnk::parse_dialect into = dialect_arg(to);
        const input_text in = read_input(text, "text");
        plurnk::source_migration sm;
        {
            py::gil_scoped_release release;
            sm = plurnk::migrate_source(in.view, t, into, o);
        }
        py::list notes;
        for (const plurnk::migration_note& n : sm.notes) {
            notes.append(py::make_tuple(n.at.line, n.at.column, steal(to_str(n.message))));
        }
        py::object out = in.is_str ? steal(to_str(sm.text))
                                   : py::reinterpret_steal<py::object>(
                                         PyBytes_FromStringAndSize(sm.text.data(), static_cast<Py_ssize_t>(sm.text.size())));
        return py::make_tuple(out, sm.changed, notes);
    }, py::arg("text"), py::arg("tier"), py::arg("from_dialect"), py::arg("to_dialect"));
}
