// SPDX-License-Identifier: MIT
// Differential fuzzing of the targets' fast path (lib/url/fast_path.hpp): a text as a raw target
// through parse_path and parse_path_full, and its decoded form as a URL through parse_url's
// route and parse_url_record_full. The fast path may decline anything; whatever it accepts must
// come out exactly as the full parser gives it, field by field (lib/url/fast_path_check.hpp).
// Any disagreement aborts with the field that differs. Three texts per input: the input itself;
// its tail behind a URL prefix that the first byte picks, so that most executions reach the
// authority, path, query and fragment rules instead of stopping at the scheme; and the same with
// every tail byte mapped into the bytes the fast path accepts somewhere (where it stands decides
// whether they are accepted), so that many texts are compared component by component.
#include <array>
#include <string>
#include <string_view>

#include "fuzz_target.hpp"
#include "url/fast_path_check.hpp"

namespace {

constexpr std::array<std::string_view, 8> k_prefixes = {
    "http://", "https://", "worker://", "worker:///", "log:///", "ws://h", "foo://h:1/", "ftp://a.b",
};
// Lowercase letters, digits, the path's marks, the delimiters and `%`.
constexpr std::string_view k_alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?#%";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view in = plurnk::fuzz::as_view(data, size);
    plurnk::fuzz::require(plurnk::url_detail::fast_path_disagreement(in));
    if (in.empty()) return 0;
    std::string text(k_prefixes[static_cast<unsigned char>(in[0]) % k_prefixes.size()]);
    const std::size_t prefix = text.size();
    text.append(in.substr(1));
    plurnk::fuzz::require(plurnk::url_detail::fast_path_disagreement(text));
    for (std::size_t i = prefix; i < text.size(); ++i) {
        text[i] = k_alphabet[static_cast<unsigned char>(text[i]) % k_alphabet.size()];
    }
    plurnk::fuzz::require(plurnk::url_detail::fast_path_disagreement(text));
    return 0;
}
