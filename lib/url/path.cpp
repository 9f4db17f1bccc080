// STUB: target paths land here.
#include "plurnk/path.hpp"
namespace plurnk {
path_result parse_path(std::string_view raw) {
    path_result r;
    if (raw.empty()) return r;
    parsed_path p;
    p.raw = std::string(raw);
    r.path = std::move(p);
    return r;
}
selection_result parse_resource_selection(std::string_view raw) {
    selection_result r;
    auto p = parse_path(raw);
    if (p.error) { r.error = p.error; return r; }
    if (p.path) r.selection = resource_selection{*p.path, std::nullopt};
    return r;
}
bool has_glob(std::string_view) noexcept { return false; }
std::optional<std::size_t> glob_magic_index(std::string_view) noexcept { return std::nullopt; }
bool is_worker_name(std::string_view) noexcept { return false; }
bool is_reserved_authority(std::string_view name) noexcept {
    for (auto r : k_reserved_authorities) if (r == name) return true;
    return false;
}
}  // namespace plurnk
