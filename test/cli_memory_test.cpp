// SPDX-License-Identifier: MIT
// Peak memory of the CLI's surfaces beside the parser, as a tested invariant (the hostile-input
// issue, round three): `plurnk score` on a turn file and on JSON Lines of short records, `plurnk
// score --format=sarif` on both, `plurnk parse --format=sarif` and `plurnk fmt`, each on 1 MB of
// the repetition loops and the item- and error-dense shapes of bench/hostile_shapes.hpp. The
// figure is the command's peak RSS (its ru_maxrss, from wait4) over the same command's on 16 KB
// of the same input, divided by the input's size; the bound is 8 for each of them, and for
// `plurnk parse` itself.
//
// And on large JSON values (row 9): a 4 MiB request id for `plurnk batch`, a 4 MiB instance for
// `plurnk validate` (and in a `validate --batch` request), a record with a 4 MiB field for
// `plurnk score`, in each shape of shapes::k_json_values: the peak RSS over the same command's on
// a tiny value, divided by the input's size, within 8.
//
// And `plurnk gbnf` with thousands of suffixes (row 15): the peak RSS over the grammar written.
//
// Meson's test runner sets MALLOC_PERTURB_, and glibc then fills every block it hands out, so
// capacity a command reserves and never touches would count as resident: the commands run
// without it, as they run outside the runner.
//
// A child's ru_maxrss includes the memory of the process it was forked from (its image before
// exec), so the commands are started by a spawner forked first thing in main(), while this
// program is still small, and never by this process once it has built inputs.
// Usage: cli_memory_test PLURNK        (prints a line per case; exit status 1 when one fails)
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "hostile_shapes.hpp"
#include "plurnk/rail.hpp"

namespace {

// ---- The spawner: runs a command line, answers its peak RSS (KB) and exit status ---------------

int g_to_spawner = -1, g_from_spawner = -1;

bool write_all(int fd, const void* p, std::size_t n) {
    const char* c = static_cast<const char*>(p);
    while (n > 0) {
        const ssize_t w = ::write(fd, c, n);
        if (w <= 0) return false;
        c += w, n -= static_cast<std::size_t>(w);
    }
    return true;
}
bool read_all(int fd, void* p, std::size_t n) {
    char* c = static_cast<char*>(p);
    while (n > 0) {
        const ssize_t r = ::read(fd, c, n);
        if (r <= 0) return false;
        c += r, n -= static_cast<std::size_t>(r);
    }
    return true;
}

// Requests: a length and NUL-separated arguments; answers: two longs.
[[noreturn]] void spawner_loop(int in, int out) {
    for (;;) {
        std::uint32_t n = 0;
        if (!read_all(in, &n, sizeof n)) _exit(0);
        std::string req(n, '\0');
        if (!read_all(in, req.data(), n)) _exit(0);
        std::vector<char*> argv;
        for (std::size_t at = 0;;) {
            argv.push_back(req.data() + at);
            at = req.find('\0', at);
            if (at == std::string::npos) break;
            ++at;
        }
        argv.push_back(nullptr);
        const pid_t pid = ::fork();
        if (pid == 0) {  // argv[0] is the file for standard input, the command follows
            const int null = ::open("/dev/null", O_RDWR);
            const int in = ::open(argv[0], O_RDONLY);
            ::dup2(in, 0), ::dup2(null, 1), ::dup2(null, 2);
            ::execv(argv[1], argv.data() + 1);
            _exit(127);
        }
        int status = 0;
        rusage ru{};
        long answer[2] = {-1, -1};
        if (pid > 0 && ::wait4(pid, &status, 0, &ru) == pid) {
            answer[0] = ru.ru_maxrss;
            answer[1] = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        if (!write_all(out, answer, sizeof answer)) _exit(0);
    }
}

void start_spawner() {
    int to[2], from[2];
    if (::pipe(to) != 0 || ::pipe(from) != 0) std::exit(2);
    const pid_t pid = ::fork();
    if (pid < 0) std::exit(2);
    if (pid == 0) {
        ::close(to[1]), ::close(from[0]);
        spawner_loop(to[0], from[1]);
    }
    ::close(to[0]), ::close(from[1]);
    g_to_spawner = to[1], g_from_spawner = from[0];
}

struct outcome {
    long kb = -1;
    long status = -1;
};

// Runs `args` with standard input from the file `input`.
outcome run(const std::vector<std::string>& args, const std::string& input = "/dev/null") {
    std::string req = input + '\0';
    for (const std::string& a : args) req += a, req += '\0';
    req.pop_back();
    const auto n = static_cast<std::uint32_t>(req.size());
    outcome o;
    long answer[2];
    if (write_all(g_to_spawner, &n, sizeof n) && write_all(g_to_spawner, req.data(), n) &&
        read_all(g_from_spawner, answer, sizeof answer)) {
        o.kb = answer[0], o.status = answer[1];
    }
    return o;
}

// ---- The cases -----------------------------------------------------------------------------

constexpr std::size_t k_size = 1 << 20;
constexpr std::size_t k_small = 16 << 10;
constexpr double k_bound = 8.0;

void write_file(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// The same command's peak on the small and the large input: the KB it adds, over the size.
struct surface {
    const char* name;
    bool records;  // the input as JSON Lines of short records (else the shape itself)
    std::vector<std::string> args;  // FILE and TIER are replaced
};

// ---- Large JSON values (row 9) ----------------------------------------------------------------

constexpr std::size_t k_value_size = 4 << 20;

struct json_command {
    const char* name;
    std::vector<std::string> args;  // FILE is replaced by the input's path
    bool on_stdin;                   // the input goes to standard input (else only as FILE)
    bool wire;                       // needs the wire contracts (the validate command)
    std::string (*input)(const std::string& value);
};

const json_command k_json_commands[] = {
    {"batch", {"batch"}, true, false,
     [](const std::string& v) { return "{\"id\":" + v + ",\"input\":\"<<PLAN:p:PLAN\"}\n"; }},
    {"validate", {"validate", "--contract=EntryReadResult", "FILE"}, false, true,
     [](const std::string& v) {
         return "{\"status\":200,\"entry\":{\"entryId\":1,\"target\":\"t\",\"channels\":{},\"tags\":" + v + "}}";
     }},
    {"validate_batch", {"validate", "--batch"}, true, true,
     [](const std::string& v) { return "{\"id\":" + v + ",\"contract\":\"Position\",\"instance\":" + v + "}\n"; }},
    {"score", {"score", "FILE"}, false, false,
     [](const std::string& v) { return "{\"id\":\"a\",\"model\":\"m\",\"meta\":" + v + ",\"text\":\"<<PLAN:p:PLAN\"}\n"; }},
};

// Each command on each value shape; returns the number of failures.
int json_values(const std::string& plurnk, const std::string& dir) {
    int failed = 0;
    const std::string file = dir + "/value.jsonl";  // JSON Lines to `score`
    const auto peak_kb = [&](const json_command& c, const std::string& input) {
        write_file(file, input);
        std::vector<std::string> cmd = {plurnk};
        for (const std::string& a : c.args) cmd.push_back(a == "FILE" ? file : a);
        const outcome o = run(cmd, c.on_stdin ? file : "/dev/null");
        std::remove(file.c_str());
        return o.status > 1 ? -1 : o.kb;
    };
    for (const json_command& c : k_json_commands) {
#ifndef PLURNK_HAVE_WIRE
        if (c.wire) continue;
#endif
        const long base = peak_kb(c, c.input("1"));
        for (const char* shape : plurnk::shapes::k_json_values) {
            const std::string input = c.input(plurnk::shapes::json_value(shape, k_value_size));
            const long peak = peak_kb(c, input);
            const double ratio = static_cast<double>(peak - base) * 1024.0 / static_cast<double>(input.size());
            const bool ok = base > 0 && peak > 0 && ratio <= k_bound;
            failed += ok ? 0 : 1;
            std::printf("%s %-22s %-32s %5.1fx the input (bound %.1f)%s\n", ok ? "ok  " : "FAIL", shape, c.name, ratio,
                        k_bound, peak > 0 ? "" : " (did not run)");
            std::fflush(stdout);
        }
    }
    return failed;
}

// ---- plurnk gbnf --suffixes (row 15) ------------------------------------------------------------
//
// The rail with 2,000 suffixes (about 10 MB of GBNF): the peak RSS over the same command's with
// the default suffixes, over the size of the grammar it writes (rail::write_gbnf's, which
// rail_test holds to to_gbnf's), within 8. Holding the grammar whole took 23x.

constexpr std::size_t k_suffixes = 2000;

int gbnf_suffixes(const std::string& plurnk) {
    plurnk::rail::options o;
    o.suffixes = plurnk::shapes::suffixes(k_suffixes);
    std::size_t bytes = 0;
    const auto w = plurnk::rail::write_gbnf(o, [&bytes](std::string_view piece) { bytes += piece.size(); });
    const outcome base = run({plurnk, "gbnf"});
    const outcome big = run({plurnk, "gbnf", "--suffixes=" + plurnk::shapes::suffix_list(k_suffixes)});
    const bool ran = w && bytes > 0 && base.status == 0 && big.status == 0;
    const double ratio = static_cast<double>(big.kb - base.kb) * 1024.0 / static_cast<double>(bytes > 0 ? bytes : 1);
    const bool ok = ran && ratio <= k_bound;
    std::printf("%s %-22s %-32s %5.1fx the grammar (bound %.1f)%s\n", ok ? "ok  " : "FAIL", "2,000 suffixes",
                "gbnf --suffixes=LIST", ratio, k_bound, ran ? "" : " (did not run)");
    std::fflush(stdout);
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    unsetenv("MALLOC_PERTURB_");  // before the spawner, whose children inherit it (see the top)
    start_spawner();  // first: while this process is small
    if (argc != 2) {
        std::fprintf(stderr, "usage: cli_memory_test PLURNK\n");
        return 2;
    }
    const std::string plurnk = argv[1];
    char dir_template[] = "/tmp/plurnk-cli-memory-XXXXXX";
    const char* dir = ::mkdtemp(dir_template);
    if (dir == nullptr) return 2;

    const std::vector<surface> surfaces = {
        {"score FILE", false, {"score", "--tier=TIER", "FILE"}},
        {"score FILE.jsonl", true, {"score", "FILE"}},
        {"score --format=sarif FILE", false, {"score", "--format=sarif", "--tier=TIER", "FILE"}},
        {"score --format=sarif FILE.jsonl", true, {"score", "--format=sarif", "FILE"}},
        {"parse --format=sarif", false, {"parse", "--format=sarif", "--allow-invalid-utf8", "--tier=TIER", "FILE"}},
        {"fmt", false, {"fmt", "--tier=TIER", "FILE"}},
    };
    std::vector<plurnk::shapes::shape> list = plurnk::shapes::loops();
    for (const char* name : {"read_statements", "text_items_e_acute", "exec_ident_errors", "signal_int_errors",
                             "scope_errors", "turn_errors_one_line", "send_index_keys", "tag_lists"}) {
        for (const plurnk::shapes::shape& s : plurnk::shapes::all()) {
            if (name == std::string_view(s.name)) list.push_back(s);
        }
    }
    int failed = 0;
    const auto measure = [&](const plurnk::shapes::shape& s, const std::vector<std::string>& args, bool records,
                             double& ratio) {
        long kb[2] = {0, 0};
        std::size_t size = 0;
        for (int big = 0; big < 2; ++big) {
            const std::size_t want = big ? k_size : k_small;
            const std::string in = records ? plurnk::shapes::as_records(s, want) : plurnk::shapes::make(s, want);
            const std::string file = std::string(dir) + "/" + s.name + (records ? ".jsonl" : ".txt");
            write_file(file, in);
            size = in.size();
            std::vector<std::string> cmd = {plurnk};
            for (const std::string& a : args) {
                if (a == "FILE") cmd.push_back(file);
                else if (a == "--tier=TIER") cmd.push_back(std::string("--tier=") + plurnk::tier_name(s.tier));
                else cmd.push_back(a);
            }
            const outcome o = run(cmd);
            std::remove(file.c_str());
            if (o.kb < 0 || o.status > 1) return false;
            kb[big] = o.kb;
        }
        ratio = static_cast<double>(kb[1] - kb[0]) * 1024.0 / static_cast<double>(size);
        return true;
    };
    for (const plurnk::shapes::shape& s : list) {
        double parse_ratio = 0;
        if (!measure(s, {"parse", "--allow-invalid-utf8", "--tier=TIER", "FILE"}, false, parse_ratio)) {
            std::printf("FAIL %s: plurnk parse did not run\n", s.name);
            ++failed;
            continue;
        }
        const double bound = k_bound;
        if (parse_ratio > bound) {
            std::printf("FAIL %-22s %-32s %5.1fx the input (bound %.1f)\n", s.name, "parse", parse_ratio, bound);
            ++failed;
        }
        for (const surface& f : surfaces) {
            double ratio = 0;
            const bool ran = measure(s, f.args, f.records, ratio);
            const bool ok = ran && ratio <= bound;
            failed += ok ? 0 : 1;
            std::printf("%s %-22s %-32s %5.1fx the input (bound %.1f; parse %.1f)%s\n", ok ? "ok  " : "FAIL", s.name, f.name,
                        ratio, bound, parse_ratio, ran ? "" : " (did not run)");
            std::fflush(stdout);
        }
    }
    failed += json_values(plurnk, dir);
    failed += gbnf_suffixes(plurnk);
    ::rmdir(dir);
    std::printf("%d failed\n", failed);
    return failed == 0 ? 0 : 1;
}
