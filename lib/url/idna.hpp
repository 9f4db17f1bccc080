// SPDX-License-Identifier: MIT
// Private: UTS #46 domain-to-ASCII as the WHATWG URL Standard invokes it (lib/url only).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace plurnk::url_detail {

// Consumes a percent-decoded host as raw bytes (UTF-8 expected) and returns the ASCII domain,
// or nullopt on any UTS #46 failure (invalid UTF-8, disallowed code point, bad punycode, bad
// label). Options: CheckHyphens=false, CheckBidi=true, CheckJoiners=true,
// UseSTD3ASCIIRules=false, Transitional_Processing=false, VerifyDnsLength=false.
// The caller still checks forbidden domain code points and emptiness.
[[nodiscard]] std::optional<std::string> domain_to_ascii(std::string_view domain);

// RFC 3492 punycode, exposed for unit tests. encode appends to `out`; both fail on overflow.
[[nodiscard]] bool punycode_encode(std::u32string_view input, std::string& out);
[[nodiscard]] bool punycode_decode(std::string_view input, std::u32string& out);

}  // namespace plurnk::url_detail
