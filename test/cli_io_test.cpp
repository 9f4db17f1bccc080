// SPDX-License-Identifier: MIT
// The CLI's input reading (app/io.cpp): a regular file of N bytes is read whole into a string
// whose capacity stays what was reserved for it (N and the probe byte that finds the end), never
// doubled by the last read: every command holds its input for its whole run, so a doubled string
// is one more copy of the input at each command's peak (massif showed it on `plurnk parse`).
// Usage: cli_io_test            (prints a line per case; exit status 1 when one fails)
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "commands.hpp"

int main() {
    char path[] = "/tmp/plurnk-cli-io-XXXXXX";
    const int fd = ::mkstemp(path);
    if (fd < 0) return 2;
    ::close(fd);
    int failed = 0;
    constexpr std::size_t k_block = 1 << 16;  // io.cpp's read block
    for (const std::size_t n : {std::size_t{1}, std::size_t{100}, k_block - 1, k_block, k_block + 1, std::size_t{1} << 20,
                                (std::size_t{1} << 20) + 3}) {
        std::string text(n, '\0');
        for (std::size_t i = 0; i < n; ++i) text[i] = static_cast<char>('a' + i % 26);
        std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
        std::string out;
        const bool read = plurnk::cli::read_input(path, out);
        // The reserve (n + 1), with room for the small-string buffer; a doubled string is 2n.
        const bool ok = read && out == text && out.capacity() <= n + 16;
        failed += ok ? 0 : 1;
        std::printf("%s %8zu bytes: read %zu, capacity %zu (bound %zu)\n", ok ? "ok  " : "FAIL", n, out.size(),
                    out.capacity(), n + 16);
    }
    std::remove(path);
    std::printf("%d failed\n", failed);
    return failed == 0 ? 0 : 1;
}
