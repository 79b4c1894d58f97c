// auto (SPEC §5; Eru's "communism"): after deploying, the app's old+new
// instances are as even as possible across the nodes.
// nodes_limit: the most old+new instances one node may end with (0 = no cap).
//
// The rule places one instance at a time on the node with the fewest old+new
// instances; tie -> more remaining capacity (unlimited counts as infinite);
// tie -> name. Doing that count times would cost O(count); instead we find by
// binary search the level L every node gets topped up to, then hand the few
// instances left over to nodes sitting exactly at L, in the rule's tie order.
// The cost is O(n log(range)), whatever count is.
#include <algorithm>
#include <string>
#include <vector>

#include "capacity.h"
#include "strategy.h"
#include "wide.h"

namespace eruplan {
namespace {

constexpr i128 kInfinite = i128{1} << 100;  // beyond any sum of int64 capacities

// How many new instances the node may take: its capacity, cut by nodes_limit.
i128 room(const StrategyInfo& info, std::int64_t nodes_limit) {
  i128 r = info.capacity == kUnlimited ? kInfinite : i128{info.capacity};
  if (nodes_limit > 0) r = std::min(r, std::max(i128{0}, i128{nodes_limit} - info.existing));
  return r;
}

// New instances needed to bring every node up to `level` (as far as its room allows).
i128 placed_up_to(std::span<const StrategyInfo> infos, const std::vector<i128>& rooms, i128 level) {
  i128 placed = 0;
  for (std::size_t i = 0; i < infos.size(); ++i) {
    i128 gap = level - infos[i].existing;
    if (gap > 0) placed += std::min(gap, rooms[i]);
  }
  return placed;
}

}  // namespace

StrategyResult auto_strategy(std::span<const StrategyInfo> infos, std::int64_t count,
                             std::int64_t total, std::int64_t nodes_limit) {
  const std::size_t n = infos.size();
  if (auto failed = strategy_precheck("auto", n, count)) return *failed;

  std::vector<i128> rooms(n);
  i128 room_sum = 0;
  i128 capacity_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    rooms[i] = room(infos[i], nodes_limit);
    room_sum += rooms[i];
    capacity_sum += infos[i].capacity == kUnlimited ? kInfinite : i128{infos[i].capacity};
  }
  // `total` is the caller's sum; the recomputed one guards against a stale value.
  if (total < count || capacity_sum < count) {
    auto can_take = std::min(i128{total}, capacity_sum);
    return strategy_failure(
        n, NamedReason("auto",
                       "need " + strategy_count(count, "new instance") + ", the nodes can take " +
                           std::to_string(static_cast<std::int64_t>(can_take)) + " in total"));
  }
  if (room_sum < count) {
    auto limit = std::to_string(nodes_limit);
    return strategy_failure(
        n, NamedReason("auto",
                       "with nodes_limit " + limit + " (at most " + limit +
                           " old+new instances per node) the nodes can take " +
                           strategy_count(static_cast<std::int64_t>(room_sum), "new instance") +
                           ", " + std::to_string(count) + " needed"));
  }

  // Smallest level whose top-up places >= count; the level below it, `base`, is
  // filled completely and the rest goes to nodes sitting exactly at `base`.
  i128 lo = infos[0].existing, hi = infos[0].existing;
  for (const auto& info : infos) {
    lo = std::min(lo, i128{info.existing});
    hi = std::max(hi, i128{info.existing});
  }
  hi += count;  // placed_up_to(lo) = 0 < count <= placed_up_to(hi)
  while (hi - lo > 1) {
    i128 mid = lo + (hi - lo) / 2;
    (placed_up_to(infos, rooms, mid) >= count ? hi : lo) = mid;
  }
  const i128 base = lo;
  i128 left = count - placed_up_to(infos, rooms, base);

  StrategyResult result;
  result.deploy.assign(n, 0);
  std::vector<std::size_t> at_base;   // nodes at `base` with room for one more
  std::vector<i128> remaining(n, 0);  // their capacity left at that moment
  for (std::size_t i = 0; i < n; ++i) {
    i128 gap = std::max(i128{0}, base - infos[i].existing);
    i128 added = std::min(gap, rooms[i]);
    result.deploy[i] = static_cast<std::int64_t>(added);
    if (infos[i].existing <= base && rooms[i] > added) {
      at_base.push_back(i);
      remaining[i] = infos[i].capacity == kUnlimited ? kInfinite : infos[i].capacity - added;
    }
  }
  // 0 < left <= at_base.size(): pick the `left` first by (remaining desc, name).
  auto first = [&](std::size_t a, std::size_t b) {
    return remaining[a] != remaining[b] ? remaining[a] > remaining[b] : a < b;
  };
  auto cut = at_base.begin() + static_cast<std::ptrdiff_t>(left);
  std::nth_element(at_base.begin(), cut - 1, at_base.end(), first);
  for (auto it = at_base.begin(); it != cut; ++it) ++result.deploy[*it];
  return result;
}

// --explain (SPEC §13): the line of a node with room.
std::string auto_explain(const ExplainPass& c, const ExplainNode& s) {
  const std::int64_t e = s.existing;
  const std::int64_t top = c.top;
  const bool any = c.any_placed;
  const std::int64_t limit = c.request.nodes_limit;
  if (s.k > 0) {
    const std::string plus = "auto: +" + std::to_string(s.k);
    if (e + s.k >= top - 1)  // the levels differ by at most one instance
      return plus + ", at level " + std::to_string(e + s.k) + " with the others";
    if (s.k == s.capacity)
      return plus + ", full at level " + std::to_string(e + s.k) + ", the others reach " +
             std::to_string(top);
    return plus + ", at level " + std::to_string(e + s.k) + ", nodes_limit " +
           std::to_string(limit) + ", the others reach " + std::to_string(top);
  }
  if (limit > 0 && e >= limit)
    return "auto: has " + std::to_string(e) + ", nodes_limit " + std::to_string(limit);
  if (!any)
    return "auto: has " + std::to_string(e) + ", can take " + count_text(s.capacity) +
           c.nothing_placed();
  if (e >= top)
    return "auto: has " + std::to_string(e) + ", at or above level " + std::to_string(top) +
           " that the others reach";
  return "auto: has " + std::to_string(e) + ", level " + std::to_string(top) +
         " went to nodes with more room or earlier names";
}

}  // namespace eruplan
