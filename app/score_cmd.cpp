// SPDX-License-Identifier: MIT
// `plurnk score`: scores model output (doc/score.md) on --jobs threads, each with its own scorer
// and report, merged at the end (reports merge exactly, so the result does not depend on the
// number of threads). The main thread reads the inputs in blocks cut at line ends.
#include <fmt/core.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <charconv>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "plurnk/json.hpp"
#include "plurnk/score.hpp"
#include "sarif.hpp"

namespace plurnk::cli {

namespace {

constexpr std::size_t k_block = 1 << 20;  // bytes of JSON Lines per task

struct task {
    std::string file;
    std::size_t first_line = 1;
    bool jsonl = true;
    std::string text;
};

// A bounded queue of tasks for the workers.
class task_queue {
public:
    explicit task_queue(std::size_t limit) : limit_(limit) {}
    void push(task t) {
        std::unique_lock lock(m_);
        room_.wait(lock, [&] { return q_.size() < limit_; });
        q_.push_back(std::move(t));
        ready_.notify_one();
    }
    std::optional<task> pop() {
        std::unique_lock lock(m_);
        ready_.wait(lock, [&] { return !q_.empty() || closed_; });
        if (q_.empty()) return std::nullopt;
        task t = std::move(q_.front());
        q_.pop_front();
        room_.notify_one();
        return t;
    }
    void close() {
        std::lock_guard lock(m_);
        closed_ = true;
        ready_.notify_all();
    }

private:
    std::mutex m_;
    std::condition_variable ready_, room_;
    std::deque<task> q_;
    std::size_t limit_;
    bool closed_ = false;
};

bool is_jsonl_name(const std::string& path) {
    const std::string ext = std::filesystem::path(path).extension().string();
    return path == "-" || ext == ".jsonl" || ext == ".ndjson";
}

// Progress on a terminal: turns, rate, and (when the total is known) percent and ETA.
class progress {
public:
    progress(std::uint64_t total_bytes, bool known)
        : total_(total_bytes), known_(known), on_(::isatty(STDERR_FILENO) == 1), start_(clock::now()) {}
    std::atomic<std::uint64_t> bytes{0}, turns{0};
    void tick(bool last = false) {
        if (!on_) return;
        const auto now = clock::now();
        if (!last && now - shown_ < std::chrono::milliseconds(200)) return;
        shown_ = now;
        const double s = std::chrono::duration<double>(now - start_).count();
        const double b = static_cast<double>(bytes.load());
        std::string line = fmt::format("\r{} turns, {:.0f} turns/s, {:.1f} MB/s", turns.load(),
                                       s > 0 ? static_cast<double>(turns.load()) / s : 0.0, s > 0 ? b / s / 1e6 : 0.0);
        if (known_ && total_ > 0) {
            const double frac = b / static_cast<double>(total_);
            line += fmt::format(", {:.0f}%", frac * 100);
            if (frac > 0 && !last) line += fmt::format(", ETA {:.0f} s", s * (1 - frac) / frac);
        }
        line += last ? "\n" : "   ";
        static_cast<void>(std::fwrite(line.data(), 1, line.size(), stderr));
    }

private:
    using clock = std::chrono::steady_clock;
    std::uint64_t total_;
    bool known_;
    bool on_;
    clock::time_point start_, shown_{};
};

// The inputs: files as given, directories expanded to their regular files (sorted), "-".
bool expand_inputs(const std::vector<std::string>& given, std::vector<std::string>& out, std::uint64_t& bytes,
                   bool& known) {
    known = true;
    for (const std::string& p : given) {
        if (p == "-") {
            known = false;
            out.push_back(p);
            continue;
        }
        std::error_code ec;
        if (std::filesystem::is_directory(p, ec)) {
            std::vector<std::string> files;
            for (auto it = std::filesystem::recursive_directory_iterator(p, ec); !ec && it != std::filesystem::end(it);
                 it.increment(ec)) {
                if (it->is_regular_file(ec)) files.push_back(it->path().string());
            }
            if (ec) return file_error(p, ec.value()), false;
            std::sort(files.begin(), files.end());
            out.insert(out.end(), files.begin(), files.end());
        } else {
            out.push_back(p);
        }
    }
    for (const std::string& p : out) {
        struct stat st {};
        if (p != "-" && ::stat(p.c_str(), &st) == 0) bytes += static_cast<std::uint64_t>(st.st_size);
    }
    return true;
}

// Reads `path` and hands it to `take` as tasks: JSON Lines in blocks of about k_block bytes cut
// after a line end, a turn file whole, in one buffer of its size when that is known. False after
// a (reported) read error.
bool for_each_block(const std::string& path, const std::function<void(task&&)>& take) {
    std::FILE* f = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
    if (f == nullptr) return file_error(path, errno), false;
    const bool jsonl = is_jsonl_name(path);
    std::size_t room = k_block;  // bytes asked of each read
    if (struct stat st {}; !jsonl && ::fstat(::fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        room = static_cast<std::size_t>(st.st_size) + 1;  // the whole file, and one byte to see its end
    }
    std::string buf, carry;
    std::size_t line = 1;
    bool ok = true;
    for (;;) {
        buf = std::move(carry);
        carry.clear();
        const std::size_t old = buf.size();
        buf.resize(old + room);
        const std::size_t n = std::fread(buf.data() + old, 1, room, f);
        buf.resize(old + n);
        const bool end = n < room;
        if (end && std::ferror(f)) {
            ok = false;
            file_error(path, errno ? errno : EIO);
            break;
        }
        if (!end) {
            if (!jsonl) {  // a turn file is one text: read on, by doubling
                room = std::max(k_block, buf.size());
                carry = std::move(buf);
                continue;
            }
            const std::size_t nl = buf.rfind('\n');
            carry = nl == std::string::npos ? std::move(buf) : buf.substr(nl + 1);
            if (nl == std::string::npos) continue;
            buf.resize(nl + 1);
        }
        if (!buf.empty() || !jsonl) {
            const std::size_t lines = jsonl ? static_cast<std::size_t>(std::count(buf.begin(), buf.end(), '\n')) : 0;
            take(task{path, line, jsonl, std::move(buf)});
            line += lines;
        }
        if (end) break;
    }
    if (f != stdin) std::fclose(f);
    return ok;
}

std::uint64_t turns_of(const score::report& r) {
    std::uint64_t n = 0;
    for (const auto& [k, g] : r.groups) n += g.turns;
    return n;
}

bool read_report(const std::string& path, std::optional<score::report>& into) {
    std::string text;
    if (!read_input(path, text)) return false;
    std::string why;
    auto r = score::report::from_json(text, &why);
    if (!r) return print_error(fmt::format("{} is not a score report: {}", display_name(path), why)), false;
    if (!into) {
        into = std::move(*r);
        return true;
    }
    why = into->merge(*r);
    if (!why.empty()) return print_error(fmt::format("cannot merge {}: {}", display_name(path), why)), false;
    return true;
}

bool write_file(const std::string& path, const std::string& text) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) {
        print_error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
        return false;
    }
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (std::fclose(f) != 0 || !ok) {
        print_error(fmt::format("cannot write '{}'", path));
        return false;
    }
    return true;
}

// "FILE#ID" for a record (the id percent-encoded outside RFC 3986's unreserved characters).
std::string record_uri(const std::string& file, std::string_view id) {
    std::string uri = (file == "-" ? std::string("stdin") : file) + "#";
    for (unsigned char c : id) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
            uri += static_cast<char>(c);
        } else {
            uri += fmt::format("%{:02X}", c);
        }
    }
    return uri;
}

// --format=sarif: every turn's diagnostics as one SARIF log (app/sarif.hpp), one artifact per
// turn: a turn file by its path, a record as FILE#ID. Turns are read a block at a time, and each
// is parsed, written and dropped before the next, so memory stays that of one block and one turn.
int write_sarif(const score::scorer& s, const std::vector<std::string>& files) {
    sarif_writer log([](std::string_view piece) { return write_stdout(piece); });
    const plurnk::tier turn_tier = s.opts().forced_tier.value_or(plurnk::tier::parse);
    plurnk::parse_options borrowing;
    borrowing.borrow_input = true;  // each result is written before its text goes
    borrowing.dialect = s.opts().dialect;
    bool written = true;
    const auto turn = [&](const std::string& uri, std::string_view text, plurnk::tier t) {
        const plurnk::parse_result r = plurnk::parse(text, t, borrowing);
        written = written && log.add(sarif_file{uri, text, &r});
    };
    for (const std::string& f : files) {
        std::string why;
        const bool read = for_each_block(f, [&](task&& block) {
            if (!written) return;
            if (!block.jsonl) return turn(f, block.text, turn_tier);
            std::string_view rest = block.text;
            for (std::size_t line = block.first_line; !rest.empty(); ++line) {
                const std::size_t nl = rest.find('\n');
                const auto rec = s.read_record(rest.substr(0, nl), f, line, why);
                rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
                if (rec) turn(record_uri(f, rec->id), rec->text, rec->tier);  // blank lines and non-records have no turn
            }
        });
        if (!read || !written) return 2;
    }
    return log.finish() && write_stdout("\n") ? 0 : 2;
}

// A run that scored no turn is an error, not an empty report: one line saying what the records
// had instead of a text field (the field names of the objects read, JSON-quoted, sorted).
void no_turn_error(const score::report& r, const std::vector<score::scorer>& scorers) {
    std::vector<std::string> seen;
    for (const score::scorer& s : scorers) seen.insert(seen.end(), s.fields_seen().begin(), s.fields_seen().end());
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    if (seen.size() > score::scorer::k_max_fields_seen) seen.resize(score::scorer::k_max_fields_seen);
    std::string msg = "no record yielded a turn";
    if (r.invalid_records == 0) {
        msg += " (the input has no records)";
    } else {
        msg += fmt::format(" ({} {}: {}", r.invalid_records,
                           r.invalid_records == 1 ? "line is not a record" : "lines are not records",
                           r.invalid_example ? r.invalid_example->message : std::string());
        if (!seen.empty()) {
            msg += "; fields seen: ";
            for (std::size_t i = 0; i < seen.size(); ++i) {
                if (i > 0) msg += ", ";
                plurnk::append_json_string(msg, seen[i]);
            }
            msg += "; name the text's with --text-field=NAME";
        }
        msg += ")";
    }
    print_error(msg);
}

}  // namespace

int cmd_score(const args& a) {
    score::options o;
    bool json = false, pretty = false, merge = false, sarif = false;
    std::string format, format_option;  // the output format asked for, and the option that asked
    std::optional<std::string> html;
    std::size_t jobs = std::max(1u, std::thread::hardware_concurrency());
    std::size_t top = 10;
    std::vector<std::string> inputs;
    for (const auto& x : a) {
        const auto value = [&](std::string_view name) -> std::optional<std::string> {
            if (x.size() > name.size() && x.compare(0, name.size(), name) == 0 && x[name.size()] == '=') {
                return x.substr(name.size() + 1);
            }
            return std::nullopt;
        };
        const auto number = [&](const std::string& v, std::size_t& into) {
            std::size_t n = 0;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (v.empty() || ec != std::errc() || end != v.data() + v.size() || n == 0) return false;
            into = n;
            return true;
        };
        int status = 0;
        if (dialect_option(x, o.dialect, status)) {
            if (status != 0) return status;
        } else if (auto v = value("--tier")) {
            const auto t = tier_from_name(*v);
            if (!t) return usage_error(fmt::format("unknown tier '{}' (expected parse, statements, log or client)", *v));
            o.forced_tier = *t;
        } else if (auto v = value("--group-by")) {
            if (v->empty()) return usage_error("--group-by needs a field name");
            const auto keys = score::group_by_keys(*v);
            if (keys.size() > 2 || (keys.size() == 2 && (keys[0].empty() || keys[1].empty()))) {
                return usage_error(fmt::format("--group-by takes one key or two (A,B), not '{}'", *v));
            }
            o.group_by = *v;
        } else if (auto v = value("--text-field")) {
            if (v->empty()) return usage_error("--text-field needs a field name");
            o.text_field = *v;
        } else if (auto v = value("--channel")) {
            o.channels.clear();  // an empty list checks no rail
            for (std::size_t at = 0; !v->empty() && at <= v->size();) {
                const std::size_t comma = std::min(v->find(',', at), v->size());
                const std::string name = v->substr(at, comma - at);
                const auto f = rail::channel_from_name(name);
                if (!f || *f == rail::channel_format::custom) {
                    return usage_error(fmt::format("unknown channel '{}' (expected gemma, think or none)", name));
                }
                if (std::find(o.channels.begin(), o.channels.end(), *f) == o.channels.end()) o.channels.push_back(*f);
                at = comma + 1;
            }
        } else if (auto v = value("--jobs")) {
            if (!number(*v, jobs)) return usage_error(fmt::format("--jobs expects a positive number, got '{}'", *v));
        } else if (auto v = value("--top")) {
            if (!number(*v, top)) return usage_error(fmt::format("--top expects a positive number, got '{}'", *v));
        } else if (auto v = value("--html")) {
            html = *v;
        } else if (x == "--json" || x.rfind("--format=", 0) == 0) {
            // One output format: a second option naming another is a usage error, not a silent choice.
            const std::string f = x == "--json" ? "json" : x.substr(9);
            if (f != "table" && f != "json" && f != "sarif" && f != "csv" && f != "latex") {
                return usage_error(fmt::format("unknown format '{}' (expected table, json, csv, latex or sarif)", f));
            }
            if (!format.empty() && f != format) {
                return usage_error(fmt::format("{} conflicts with {} (one output format)", x, format_option));
            }
            format = f;
            format_option = x;
            json = f == "json";
            sarif = f == "sarif";
        } else if (x == "--pretty") {
            pretty = true;
        } else if (x == "--merge") {
            merge = true;
        } else if (x == "-" || x.rfind('-', 0) != 0) {
            inputs.push_back(x);
        } else {
            return usage_error(fmt::format("unknown option '{}'", x));
        }
    }

    std::optional<score::report> result;
    if (merge && sarif) return usage_error("--format=sarif reports on turns, not on merged reports");
    if (sarif && html) return usage_error("--format=sarif prints diagnostics, not the report --html draws: run them apart");
    if (pretty && !json) return usage_error("--pretty indents JSON: it needs --json");
    if (merge) {
        if (inputs.empty()) return usage_error("--merge needs report files (written by `plurnk score --json`)");
        for (const std::string& p : inputs) {
            if (!read_report(p, result)) return 2;
        }
    } else {
        if (inputs.empty()) inputs.push_back("-");
        std::vector<std::string> files;
        std::uint64_t total = 0;
        bool known = true;
        if (!expand_inputs(inputs, files, total, known)) return 2;
        if (sarif) {
            try {
                return write_sarif(score::scorer(o), files);
            } catch (const std::invalid_argument& e) {
                return usage_error(e.what());
            }
        }
        std::vector<score::scorer> scorers;
        try {
            for (std::size_t i = 0; i < jobs; ++i) scorers.emplace_back(o);
        } catch (const std::invalid_argument& e) {
            return usage_error(e.what());
        }
        std::vector<score::report> reports(jobs, scorers.front().empty_report());
        task_queue q(2 * jobs);
        progress bar(total, known);
        std::vector<std::thread> workers;
        for (std::size_t i = 0; i < jobs; ++i) {
            workers.emplace_back([&, i] {
                while (auto t = q.pop()) {
                    const std::uint64_t before = turns_of(reports[i]);
                    if (t->jsonl) {
                        scorers[i].add_jsonl(reports[i], t->text, t->file, t->first_line);
                    } else {
                        scorers[i].add_turn_file(reports[i], t->text, t->file);
                    }
                    bar.turns += turns_of(reports[i]) - before;
                    bar.bytes += t->text.size();
                }
            });
        }
        bool ok = true;
        for (const std::string& f : files) {
            ok = for_each_block(f, [&](task&& t) {
                q.push(std::move(t));
                bar.tick();
            });
            if (!ok) break;
        }
        q.close();
        for (std::thread& w : workers) w.join();
        bar.tick(true);
        if (!ok) return 2;
        result = std::move(reports.front());
        for (std::size_t i = 1; i < jobs; ++i) {
            if (const std::string why = result->merge(reports[i]); !why.empty()) return print_error(why), 2;
        }
        if (turns_of(*result) == 0) return no_turn_error(*result, scorers), 2;
    }

    if (html && !write_file(*html, score::render_html(*result, {.top = top}))) return 2;
    if (json) return write_stdout(result->to_json(pretty) + "\n") ? 0 : 2;
    if (format == "csv") return write_stdout(score::render_csv(*result, {.top = top})) ? 0 : 2;
    if (format == "latex") return write_stdout(score::render_latex(*result, {.top = top})) ? 0 : 2;
    return write_stdout(score::render_table(*result, {.top = top})) ? 0 : 2;
}

}  // namespace plurnk::cli
