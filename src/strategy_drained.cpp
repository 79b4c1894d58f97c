// drained (SPEC §5): bin-packing; fill the node with the least capacity first,
// so big nodes stay free and small ones drain.
// nodes_limit: no meaning for drained.
//
// Nodes are taken by capacity ascending, then usage descending, then name, and
// each is filled to its capacity before the next.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "capacity.h"
#include "strategy.h"

namespace eruplan {
namespace {

StrategyResult infeasible(std::size_t n, std::string message) {
  return {StrategyOutcome::Infeasible, std::vector<std::int64_t>(n, 0), std::move(message)};
}

// A NaN usage would break the ordering; count it as the fullest node.
double usage_key(double usage) {
  return std::isnan(usage) ? std::numeric_limits<double>::infinity() : usage;
}

}  // namespace

StrategyResult drained_strategy(std::span<const StrategyInfo> infos, std::int64_t count,
                                std::int64_t total, std::int64_t /*nodes_limit*/) {
  const std::size_t n = infos.size();
  if (count <= 0) return infeasible(n, "drained: count must be > 0, got " + std::to_string(count));
  if (n == 0) return infeasible(n, "drained: no node has room for a new instance");

  // Sort the keys themselves, not indices into infos: far fewer cache misses.
  struct Ranked {
    std::int64_t capacity;
    double usage;
    std::size_t index;
  };
  std::vector<Ranked> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = {infos[i].capacity, usage_key(infos[i].usage), i};
  std::sort(order.begin(), order.end(), [](const Ranked& a, const Ranked& b) {
    if (a.capacity != b.capacity) return a.capacity < b.capacity;
    if (a.usage != b.usage) return a.usage > b.usage;
    return a.index < b.index;
  });

  StrategyResult result;
  result.deploy.assign(n, 0);
  std::int64_t left = count;
  for (std::size_t k = 0; k < n && left > 0 && total >= count; ++k) {
    std::int64_t take = std::min(left, order[k].capacity);
    result.deploy[order[k].index] = take;
    left -= take;
  }
  if (left > 0) {
    // `total` is the caller's sum; `count - left` is what the nodes really took.
    std::int64_t can_take = total < count ? total : count - left;
    return infeasible(n, "drained: need " + strategy_count(count, "new instance") +
                             ", the nodes can take " + std::to_string(can_take) + " in total");
  }
  return result;
}

}  // namespace eruplan
