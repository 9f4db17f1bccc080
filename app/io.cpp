// SPDX-License-Identifier: MIT
// Input and output for every subcommand, on file descriptors rather than iostreams: a read or
// write failure (a directory, EIO from /proc/self/mem, a closed descriptor) is an errno value
// to report in one line, never an exception or a silently short input.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/core.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <string>

#include "commands.hpp"
#include "plurnk/json.hpp"

namespace plurnk::cli {

namespace {

constexpr std::size_t k_read_block = 1 << 16;

// Appends what one read(2) of at most `block` bytes returns; 0 at end of input, -1 with errno
// set on failure.
ssize_t read_some(int fd, std::string& out, std::size_t block = k_read_block) {
    const std::size_t old = out.size();
    out.resize(old + block);
    ssize_t n;
    do {
        n = ::read(fd, out.data() + old, block);
    } while (n < 0 && errno == EINTR);
    out.resize(old + (n > 0 ? static_cast<std::size_t>(n) : 0));
    return n;
}

// Reads fd to its end, or to `limit` bytes and one more (which shows that the input goes on; it
// is dropped): `total` is then the file's size for a regular file, limit + 1 for anything else (a
// pipe, a FIFO, a device: what follows is not read, so that /dev/zero or a FIFO nobody closes
// cannot keep the read going). False with errno set on failure.
bool read_fd(int fd, std::string& out, std::size_t limit, std::uint64_t& total) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return false;
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return false;
    }
    const bool regular = S_ISREG(st.st_mode);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    const bool reserved = regular && size > 0;  // (a /proc file says 0)
    if (reserved) out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(size, limit)) + 1);
    for (;;) {
        const std::size_t room = limit - std::min(limit, out.size());  // the probe byte included below
        std::size_t block = std::min(k_read_block, room + 1);
        // A regular file's reads stay within what was reserved for it (its size and the probe
        // byte), so the read that finds its end cannot make the string grow: a 64 KiB block there
        // would double it, one more copy of the input at every command's peak. Only a file that
        // grew since fstat reads on past the reserve.
        const std::size_t spare = out.capacity() - out.size();
        if (reserved && spare > 0) block = std::min(block, spare);
        const ssize_t n = read_some(fd, out, block);
        if (n < 0) return false;
        if (n == 0) {
            total = out.size();
            return true;
        }
        if (out.size() > limit) {
            out.resize(limit);
            total = regular && size > limit ? size : std::uint64_t{limit} + 1;
            return true;
        }
    }
}

}  // namespace

std::string display_name(const std::string& path) { return path == "-" ? "standard input" : "'" + path + "'"; }

void print_error(std::string_view message) {
    // One line whatever the message quotes (a file name, a key from a report): each control
    // character is written as an escape (\n, \x1b), so it can neither break the line nor reach
    // the terminal. stderr is unbuffered; a failed write (stderr closed) has nowhere to be reported.
    std::string line = "plurnk: ";
    for (const char c : message) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u != 0x7F) {
            line += c;
        } else if (c == '\n') {
            line += "\\n";
        } else if (c == '\r') {
            line += "\\r";
        } else if (c == '\t') {
            line += "\\t";
        } else {
            line += fmt::format("\\x{:02x}", u);
        }
    }
    line += '\n';
    static_cast<void>(std::fwrite(line.data(), 1, line.size(), stderr));
}

int file_error(const std::string& path, int err) {
    print_error(fmt::format("cannot read {}: {}", display_name(path), std::strerror(err)));
    return 2;
}

bool read_input(const std::string& path, std::string& out, std::size_t limit, std::uint64_t& total) {
    out.clear();
    if (path == "-") {
        if (read_fd(STDIN_FILENO, out, limit, total)) return true;
        file_error(path, errno);
        return false;
    }
    int fd;
    do {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        file_error(path, errno);
        return false;
    }
    const bool ok = read_fd(fd, out, limit, total);
    const int err = errno;
    ::close(fd);
    if (!ok) file_error(path, err);
    return ok;
}

bool read_input(const std::string& path, std::string& out) {
    std::uint64_t total = 0;
    return read_input(path, out, SIZE_MAX - 1, total);
}

bool read_whole_input(const std::string& path, std::string& out, std::size_t limit) {
    std::uint64_t total = 0;
    if (!read_input(path, out, limit, total)) return false;
    if (total <= limit) return true;
    print_error(fmt::format("{} is longer than --max-input-bytes={}", display_name(path), limit));
    return false;
}

void spill_answer(std::string& out, std::string_view piece) {
    constexpr std::size_t k_piece = 1 << 16;
    out += piece;
    if (out.size() < k_piece) return;
    // A failed write sets the stream's error indicator, which the caller's last write sees.
    static_cast<void>(std::fwrite(out.data(), 1, out.size(), stdout));
    out.clear();
}

void append_answer_id(std::string& out, plurnk::json_ref id) {
    out += "{\"id\":";
    plurnk::write_json(id, [&out](std::string_view piece) { spill_answer(out, piece); });  // null when absent
}

void append_error_answer(std::string& out, plurnk::json_ref id, std::string_view message) {
    append_answer_id(out, id);
    out += ",\"error\":";
    plurnk::append_json_string(out, message);
    out += "}\n";
}

bool write_stdout(std::string_view text) {
    if (std::fwrite(text.data(), 1, text.size(), stdout) == text.size() && std::fflush(stdout) == 0) return true;
    print_error(fmt::format("cannot write standard output: {}", std::strerror(errno)));
    return false;
}

int for_each_stdin_line(const std::function<bool(std::string_view line)>& on_line) {
    std::string buffer;
    std::size_t start = 0;  // the first byte of buffer not yet handed out
    for (;;) {
        // About to wait for input: whatever was answered so far goes out first, so a client
        // that sends one request and waits for its answer is not left waiting.
        if (std::fflush(stdout) != 0) {
            print_error(fmt::format("cannot write standard output: {}", std::strerror(errno)));
            return 2;
        }
        if (start > 0) {
            buffer.erase(0, start);
            start = 0;
        }
        const std::size_t scanned = buffer.size();
        const ssize_t n = read_some(STDIN_FILENO, buffer);
        if (n < 0) return file_error("-", errno);
        if (n == 0) {
            if (buffer.size() > start && !on_line(std::string_view(buffer).substr(start))) return 2;
            if (std::fflush(stdout) == 0) return 0;
            print_error(fmt::format("cannot write standard output: {}", std::strerror(errno)));
            return 2;
        }
        for (std::size_t nl = buffer.find('\n', scanned); nl != std::string::npos; nl = buffer.find('\n', start)) {
            if (!on_line(std::string_view(buffer).substr(start, nl - start))) return 2;
            start = nl + 1;
        }
    }
}

}  // namespace plurnk::cli
