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

// A NaN usage would break the ordering; count it as the fullest node.
double usage_key(double usage) {
  return std::isnan(usage) ? std::numeric_limits<double>::infinity() : usage;
}

}  // namespace

StrategyResult drained_strategy(std::span<const StrategyInfo> infos, std::int64_t count,
                                std::int64_t total, std::int64_t /*nodes_limit*/) {
  const std::size_t n = infos.size();
  if (auto failed = strategy_precheck("drained", n, count)) return *failed;

  // Sort the keys themselves, not indices into infos: far fewer cache misses.
  struct Ranked {
    std::int64_t capacity;
    double usage;
    std::size_t index;
  };
  std::vector<Ranked> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = {infos[i].capacity, usage_key(infos[i].usage), i};
  auto first = [](const Ranked& a, const Ranked& b) {
    if (a.capacity != b.capacity) return a.capacity < b.capacity;
    if (a.usage != b.usage) return a.usage > b.usage;
    return a.index < b.index;
  };

  // Usually few nodes are filled before count is reached: order only a
  // growing prefix (select it, then sort it) instead of every node.
  StrategyResult result;
  result.deploy.assign(n, 0);
  std::int64_t left = total >= count ? count : 0;
  std::size_t sorted = 0;
  for (std::size_t chunk = 64; left > 0 && sorted < n; chunk *= 2) {
    const std::size_t end = std::min(n, sorted + chunk);
    if (end < n) std::nth_element(order.begin() + sorted, order.begin() + end, order.end(), first);
    std::sort(order.begin() + sorted, order.begin() + end, first);
    for (; sorted < end && left > 0; ++sorted) {
      const std::int64_t take = std::min(left, order[sorted].capacity);
      result.deploy[order[sorted].index] = take;
      left -= take;
    }
  }
  if (total < count) left = count;
  if (left > 0) {
    // `total` is the caller's sum; `count - left` is what the nodes really took.
    std::int64_t can_take = total < count ? total : count - left;
    return strategy_failure(
        n, NamedReason("drained", "need " + strategy_count(count, "new instance") +
                                      ", the nodes can take " + std::to_string(can_take) +
                                      " in total"));
  }
  return result;
}

// --explain (SPEC §13): the line of a node with room.
std::string drained_explain(const ExplainPass& c, const ExplainNode& s) {
  const std::string cap = count_text(s.capacity);
  if (s.k > 0)
    return "drained: +" + std::to_string(s.k) +
           (s.k == s.capacity ? ", filled to its capacity " + cap
                              : " of its capacity " + cap + ", the rest of count");
  if (c.failed) return "drained: capacity " + cap + c.nothing_placed();
  return "drained: capacity " + cap + ", the count fit on nodes filled before it";
}

}  // namespace eruplan
