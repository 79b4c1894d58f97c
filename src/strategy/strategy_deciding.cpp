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

// The `count` smallest (key, index) pairs seen, kept in a max-heap: most
// nodes lose one comparison against the largest kept, so a pass over 10,000
// nodes for 30 costs little more than reading them. The index breaks ties,
// as the name does in the strategies.
template <class Key>
class Smallest {
 public:
  explicit Smallest(std::size_t count) : count_(count) { heap_.reserve(count); }
  void offer(const Key& key, std::size_t index) {
    const std::pair<Key, std::size_t> item{key, index};
    if (heap_.size() < count_) {
      heap_.push_back(item);
      std::push_heap(heap_.begin(), heap_.end());
    } else if (item < heap_.front()) {
      std::pop_heap(heap_.begin(), heap_.end());
      heap_.back() = item;
      std::push_heap(heap_.begin(), heap_.end());
    }
  }
  // Their indexes in ascending order; false when fewer than count were offered.
  bool take(std::vector<std::size_t>& chosen) const {
    if (heap_.size() < count_) return false;
    chosen.clear();
    for (const auto& item : heap_) chosen.push_back(item.second);
    std::sort(chosen.begin(), chosen.end());
    return true;
  }

 private:
  std::size_t count_;
  std::vector<std::pair<Key, std::size_t>> heap_;
};

}  // namespace

bool deciding_nodes(std::span<const StrategyInfo> infos, Strategy strategy, std::int64_t count,
                    std::int64_t total, std::int64_t nodes_limit,
                    std::vector<std::size_t>& chosen) {
  const DecidingFn deciding = strategy_row(strategy).deciding;
  if (deciding == nullptr) return false;
  if (count <= 0 || total < count) return false;
  if (infos.size() / 2 < static_cast<std::size_t>(count)) return false;  // little to gain
  return deciding(infos, count, nodes_limit, chosen);
}

// auto: the rule's order for a node not yet given any: existing ascending,
// remaining capacity (all of it; unlimited the most) descending, name. Only
// nodes that nodes_limit leaves room on take part.
bool auto_deciding(std::span<const StrategyInfo> infos, std::int64_t count,
                   std::int64_t nodes_limit, std::vector<std::size_t>& chosen) {
  Smallest<std::pair<std::int64_t, std::int64_t>> keyed(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const StrategyInfo& info = infos[i];
    if (info.capacity <= 0) continue;
    if (nodes_limit > 0 && info.existing >= nodes_limit) continue;
    // -capacity does not overflow: capacity > 0.
    keyed.offer({info.existing, -info.capacity}, i);
  }
  return keyed.take(chosen);
}

// global: a node's first key, bent as global_strategy bends usage and rate;
// its later keys are larger, so `count` first keys below a node's leave it none.
bool global_deciding(std::span<const StrategyInfo> infos, std::int64_t count, std::int64_t,
                     std::vector<std::size_t>& chosen) {
  constexpr double kMax = std::numeric_limits<double>::max();
  Smallest<double> keyed(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const StrategyInfo& info = infos[i];
    if (info.capacity <= 0) continue;
    const double usage = std::isnan(info.usage) ? std::numeric_limits<double>::infinity()
                                                : std::max(info.usage, -kMax);
    const double rate = info.rate > 0 ? std::min(info.rate, kMax) : 0;
    keyed.offer(global_key(usage, rate, 1), i);
  }
  return keyed.take(chosen);
}

// drained: capacity ascending, usage descending (NaN the fullest), name;
// every chosen node takes at least one, so the `count` first are enough.
bool drained_deciding(std::span<const StrategyInfo> infos, std::int64_t count, std::int64_t,
                      std::vector<std::size_t>& chosen) {
  Smallest<std::pair<std::int64_t, double>> keyed(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const StrategyInfo& info = infos[i];
    if (info.capacity <= 0) continue;
    const double usage =
        std::isnan(info.usage) ? std::numeric_limits<double>::infinity() : info.usage;
    keyed.offer({info.capacity, -usage}, i);
  }
  return keyed.take(chosen);
}

}  // namespace eruplan
