// The deciding nodes of a strategy pass (strategy.h, deciding_nodes): with
// 10,000 nodes and a request of 30 instances, auto, global and drained look
// at the 30 nodes they would pick first instead of at every node, which is
// what lets many requests be planned in one run cheaply (SPEC §8.4). The
// strategies themselves are unchanged; tests/strategy_test.cpp runs each on
// the chosen nodes and on all of them and compares the DeployMaps.
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "capacity.h"
#include "strategy.h"

namespace eruplan {
namespace {

// The `count` smallest of `keyed` (pairs of a key and an index into the
// infos; the index breaks ties, as the name does in the strategies), their
// indexes put back in ascending order.
template <class Key>
void smallest(std::vector<std::pair<Key, std::size_t>>& keyed, std::size_t count,
              std::vector<std::size_t>& chosen) {
  std::nth_element(keyed.begin(), keyed.begin() + static_cast<std::ptrdiff_t>(count - 1),
                   keyed.end());
  chosen.clear();
  for (std::size_t k = 0; k < count; ++k) chosen.push_back(keyed[k].second);
  std::sort(chosen.begin(), chosen.end());
}

}  // namespace

bool deciding_nodes(std::span<const StrategyInfo> infos, Strategy strategy, std::int64_t count,
                    std::int64_t total, std::int64_t nodes_limit,
                    std::vector<std::size_t>& chosen) {
  if (strategy != Strategy::Auto && strategy != Strategy::Global && strategy != Strategy::Drained)
    return false;
  if (count <= 0 || total < count) return false;
  const auto wanted = static_cast<std::size_t>(count);
  if (infos.size() / 2 < wanted) return false;  // little to gain
  const std::size_t n = infos.size();

  if (strategy == Strategy::Auto) {
    // The rule's order for a node not yet given any: existing ascending,
    // remaining capacity (all of it; unlimited the most) descending, name.
    // Only nodes that nodes_limit leaves room on take part.
    std::vector<std::pair<std::pair<std::int64_t, std::int64_t>, std::size_t>> keyed;
    keyed.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const StrategyInfo& info = infos[i];
      if (info.capacity <= 0) continue;
      if (nodes_limit > 0 && info.existing >= nodes_limit) continue;
      // -capacity does not overflow: capacity > 0.
      keyed.push_back({{info.existing, -info.capacity}, i});
    }
    if (keyed.size() < wanted) return false;
    smallest(keyed, wanted, chosen);
    return true;
  }
  if (strategy == Strategy::Global) {
    // A node's first key, bent as global_strategy bends usage and rate; its
    // later keys are larger, so `count` first keys below a node's leave it none.
    constexpr double kMax = std::numeric_limits<double>::max();
    std::vector<std::pair<double, std::size_t>> keyed;
    keyed.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const StrategyInfo& info = infos[i];
      if (info.capacity <= 0) continue;
      const double usage = std::isnan(info.usage) ? std::numeric_limits<double>::infinity()
                                                  : std::max(info.usage, -kMax);
      const double rate = info.rate > 0 ? std::min(info.rate, kMax) : 0;
      keyed.push_back({global_key(usage, rate, 1), i});
    }
    if (keyed.size() < wanted) return false;
    smallest(keyed, wanted, chosen);
    return true;
  }
  // drained: capacity ascending, usage descending (NaN the fullest), name;
  // every chosen node takes at least one, so the `count` first are enough.
  std::vector<std::pair<std::pair<std::int64_t, double>, std::size_t>> keyed;
  keyed.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const StrategyInfo& info = infos[i];
    if (info.capacity <= 0) continue;
    const double usage =
        std::isnan(info.usage) ? std::numeric_limits<double>::infinity() : info.usage;
    keyed.push_back({{info.capacity, -usage}, i});
  }
  if (keyed.size() < wanted) return false;
  smallest(keyed, wanted, chosen);
  return true;
}

}  // namespace eruplan
