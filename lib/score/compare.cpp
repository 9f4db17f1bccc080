// SPDX-License-Identifier: MIT
// Pairwise differences between groups (doc/score.md, "Comparing groups"): Newcombe's hybrid score
// interval for each difference of proportions, a two-proportion z test, and Holm's step-down
// correction over every comparison made.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "plurnk/score.hpp"

namespace plurnk::score {

rate newcombe(std::uint64_t ka, std::uint64_t na, std::uint64_t kb, std::uint64_t nb) noexcept {
    if (na == 0 || nb == 0) return {};
    const rate a = wilson(ka, na), b = wilson(kb, nb);
    const double d = a.value - b.value;
    return {d, d - std::sqrt((a.value - a.low) * (a.value - a.low) + (b.high - b.value) * (b.high - b.value)),
            d + std::sqrt((a.high - a.value) * (a.high - a.value) + (b.value - b.low) * (b.value - b.low))};
}

namespace {

double z_test(std::uint64_t ka, std::uint64_t na, std::uint64_t kb, std::uint64_t nb) {
    const double n1 = static_cast<double>(na), n2 = static_cast<double>(nb);
    const double pooled = static_cast<double>(ka + kb) / (n1 + n2);
    const double se = std::sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
    if (!(se > 0)) return 1;  // both shares 0 or both 1: no difference to test
    const double z = (static_cast<double>(ka) / n1 - static_cast<double>(kb) / n2) / se;
    return std::erfc(std::fabs(z) / std::sqrt(2.0));
}

std::uint64_t turns_with(const std::map<std::string, tally>& m, const std::string& k) {
    const auto it = m.find(k);
    return it == m.end() ? 0 : it->second.turns;
}

}  // namespace

std::vector<comparison> compare_groups(const report& r) {
    std::vector<std::pair<const std::string*, const group*>> gs;
    for (const auto& [k, g] : r.groups) {
        if (g.turns > 0) gs.push_back({&k, &g});
    }
    std::vector<comparison> out;
    if (gs.size() < 2 || gs.size() > k_compared_groups) return out;

    // The classes in most turns overall, of every kind (ties by kind, then key).
    const group t = r.total();
    struct cls {
        std::uint64_t turns;
        int kind;
        std::string key;
    };
    std::vector<cls> classes;
    const std::map<std::string, tally> group::*kinds[] = {&group::errors, &group::warnings, &group::tails, &group::shape,
                                                          &group::near_misses};
    const char* kind_names[] = {"errors", "warnings", "tails", "shape", "nearMisses"};
    for (int k = 0; k < 5; ++k) {
        for (const auto& [key, x] : t.*kinds[k]) classes.push_back({x.turns, k, key});
    }
    std::sort(classes.begin(), classes.end(), [](const cls& a, const cls& b) {
        return a.turns != b.turns ? a.turns > b.turns : a.kind != b.kind ? a.kind < b.kind : a.key < b.key;
    });
    if (classes.size() > k_compared_classes) classes.resize(k_compared_classes);

    const auto add = [&](const std::string& name, auto count_of, auto turns_of) {
        for (std::size_t i = 0; i < gs.size(); ++i) {
            for (std::size_t j = i + 1; j < gs.size(); ++j) {
                comparison c;
                c.metric = name;
                c.a = *gs[i].first, c.b = *gs[j].first;
                c.a_count = count_of(*gs[i].second), c.a_turns = turns_of(*gs[i].second);
                c.b_count = count_of(*gs[j].second), c.b_turns = turns_of(*gs[j].second);
                if (c.a_turns == 0 || c.b_turns == 0) continue;  // a shape class of a group without parse-tier turns
                const rate d = newcombe(c.a_count, c.a_turns, c.b_count, c.b_turns);
                c.difference = d.value, c.low = d.low, c.high = d.high;
                c.p = z_test(c.a_count, c.a_turns, c.b_count, c.b_turns);
                out.push_back(std::move(c));
            }
        }
    };
    add("clean", [](const group& g) { return g.clean; }, [](const group& g) { return g.turns; });
    for (const cls& c : classes) {
        const auto m = kinds[c.kind];
        const bool shape = m == &group::shape;
        add(std::string(kind_names[c.kind]) + "/" + c.key, [&](const group& g) { return turns_with(g.*m, c.key); },
            [&](const group& g) { return shape ? g.shape_checked : g.turns; });
    }

    // Holm: the i-th smallest of m p-values times (m - i), made monotone, at most 1.
    std::vector<std::size_t> order(out.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return out[a].p < out[b].p || (out[a].p == out[b].p && a < b); });
    double running = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        running = std::max(running, std::min(1.0, static_cast<double>(order.size() - i) * out[order[i]].p));
        out[order[i]].p_holm = running;
    }
    return out;
}

}  // namespace plurnk::score
