// STUB: the JSON reader lands here.
#include "plurnk/json.hpp"
namespace plurnk {
const json_value* json_value::find(std::string_view key) const noexcept {
    if (kind != kind_t::object) return nullptr;
    for (const auto& [k, v] : object) if (k == key) return &v;
    return nullptr;
}
std::optional<json_value> parse_json(std::string_view) { return std::nullopt; }
std::string stringify_json(const json_value& v) { std::string s; append_json_value(s, v); return s; }
void append_json_value(std::string& out, const json_value&) { out += "null"; }
std::optional<std::string> canonical_json(std::string_view) { return std::nullopt; }
}  // namespace plurnk
