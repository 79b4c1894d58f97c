// The strategies as SPEC §5 words them, one instance at a time or one sorted
// pass, with no cleverness: the reference the fast versions in src/ must match
// (outcome and deploy; messages are not compared). Small inputs only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "capacity.h"
#include "strategy.h"

namespace eruplan::oracle {

__extension__ typedef __int128 Wide;

struct Result {
  StrategyOutcome outcome = StrategyOutcome::Deployed;
  std::vector<std::int64_t> deploy;
};

inline Result fail(std::size_t n, StrategyOutcome outcome = StrategyOutcome::Infeasible) {
  return {outcome, std::vector<std::int64_t>(n, 0)};
}

inline std::vector<std::size_t> by_name(std::size_t n) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  return order;
}

// Place one at a time on the node with the fewest old+new; tie -> more
// remaining capacity (unlimited = infinite); tie -> name.
inline Result auto_rule(std::span<const StrategyInfo> infos, std::int64_t count, std::int64_t total,
                        std::int64_t nodes_limit) {
  const std::size_t n = infos.size();
  if (count <= 0 || n == 0 || total < count) return fail(n);
  Result r{StrategyOutcome::Deployed, std::vector<std::int64_t>(n, 0)};
  auto remaining = [&](std::size_t i) {
    return infos[i].capacity == kUnlimited ? kUnlimited : infos[i].capacity - r.deploy[i];
  };
  for (std::int64_t placed = 0; placed < count; ++placed) {
    std::size_t best = n;
    for (std::size_t i = 0; i < n; ++i) {
      std::int64_t now = infos[i].existing + r.deploy[i];
      if (remaining(i) == 0 || (nodes_limit > 0 && now >= nodes_limit)) continue;
      if (best == n) {
        best = i;
        continue;
      }
      std::int64_t best_now = infos[best].existing + r.deploy[best];
      if (now < best_now || (now == best_now && remaining(i) > remaining(best))) best = i;
    }
    if (best == n) return fail(n);
    ++r.deploy[best];
  }
  return r;
}

// By count descending, capacity descending, name; take nodes with
// existing + capacity >= count until nodes_limit (0 = all nodes) are taken.
inline Result fill_rule(std::span<const StrategyInfo> infos, std::int64_t count,
                        std::int64_t /*total*/, std::int64_t nodes_limit) {
  const std::size_t n = infos.size();
  if (count <= 0 || n == 0) return fail(n);
  auto order = by_name(n);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (infos[a].existing != infos[b].existing) return infos[a].existing > infos[b].existing;
    return infos[a].capacity > infos[b].capacity;
  });
  const std::size_t needed = nodes_limit > 0 ? static_cast<std::size_t>(nodes_limit) : n;
  Result r{StrategyOutcome::Deployed, std::vector<std::int64_t>(n, 0)};
  std::size_t taken = 0;
  for (std::size_t i : order) {
    if (taken == needed) break;
    if (Wide{infos[i].existing} + infos[i].capacity < count) continue;
    r.deploy[i] = std::max<std::int64_t>(count - infos[i].existing, 0);
    ++taken;
  }
  if (taken < needed) return fail(n);
  if (std::all_of(r.deploy.begin(), r.deploy.end(), [](std::int64_t d) { return d == 0; })) {
    return fail(n, StrategyOutcome::AlreadySatisfied);
  }
  return r;
}

// By capacity descending, name; count on each of the first nodes_limit nodes
// with capacity >= count (all of them when 0).
inline Result each_rule(std::span<const StrategyInfo> infos, std::int64_t count,
                        std::int64_t /*total*/, std::int64_t nodes_limit) {
  const std::size_t n = infos.size();
  if (count <= 0 || n == 0) return fail(n);
  auto order = by_name(n);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return infos[a].capacity > infos[b].capacity;
  });
  Result r{StrategyOutcome::Deployed, std::vector<std::int64_t>(n, 0)};
  std::int64_t chosen = 0;
  for (std::size_t i : order) {
    if (infos[i].capacity < count || (nodes_limit > 0 && chosen == nodes_limit)) continue;
    r.deploy[i] = count;
    ++chosen;
  }
  if (chosen == 0 || chosen < nodes_limit) return fail(n);
  return r;
}

// One at a time on the node with the smallest usage + rate, ties by name; a
// node's (k+1)-th new instance is keyed usage + (k + 1) * rate.
inline Result global_rule(std::span<const StrategyInfo> infos, std::int64_t count,
                          std::int64_t total, std::int64_t /*nodes_limit*/) {
  const std::size_t n = infos.size();
  if (count <= 0 || n == 0 || total < count) return fail(n);
  Result r{StrategyOutcome::Deployed, std::vector<std::int64_t>(n, 0)};
  for (std::int64_t placed = 0; placed < count; ++placed) {
    std::size_t best = n;
    double best_key = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (infos[i].capacity != kUnlimited && r.deploy[i] == infos[i].capacity) continue;
      std::int64_t k = r.deploy[i];
      double key = global_key(infos[i].usage, infos[i].rate, k + 1);
      if (best == n || key < best_key) {
        best = i;
        best_key = key;
      }
    }
    if (best == n) return fail(n);
    ++r.deploy[best];
  }
  return r;
}

// By capacity ascending, usage descending, name; fill each node in turn.
inline Result drained_rule(std::span<const StrategyInfo> infos, std::int64_t count,
                           std::int64_t total, std::int64_t /*nodes_limit*/) {
  const std::size_t n = infos.size();
  if (count <= 0 || n == 0 || total < count) return fail(n);
  auto order = by_name(n);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (infos[a].capacity != infos[b].capacity) return infos[a].capacity < infos[b].capacity;
    return infos[a].usage > infos[b].usage;
  });
  Result r{StrategyOutcome::Deployed, std::vector<std::int64_t>(n, 0)};
  std::int64_t left = count;
  for (std::size_t i : order) {
    std::int64_t take = std::min(left, infos[i].capacity);
    r.deploy[i] = take;
    left -= take;
  }
  if (left > 0) return fail(n);
  return r;
}

}  // namespace eruplan::oracle
