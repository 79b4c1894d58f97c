// fill (SPEC §5): top nodes up so that at least nodes_limit of them end with
// >= count instances of the app (old+new).
// nodes_limit: how many nodes to fill (0 = every node).
//
// Nodes are taken by existing instances descending, then capacity descending,
// then name, skipping those that cannot reach count; each taken node gets
// max(count - existing, 0). Fails when fewer nodes qualify than needed, and is
// "already satisfied" when the taken nodes need nothing.
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "capacity.h"
#include "strategy.h"

namespace eruplan {
namespace {

bool can_reach(const StrategyInfo& info, std::int64_t count) {
  // existing + capacity >= count, without overflow (kUnlimited is INT64_MAX).
  return info.existing >= count || info.capacity >= count - info.existing;
}

}  // namespace

StrategyResult fill_strategy(std::span<const StrategyInfo> infos, std::int64_t count,
                             std::int64_t /*total*/, std::int64_t nodes_limit) {
  const std::size_t n = infos.size();
  if (auto failed = strategy_precheck("fill", n, count)) return *failed;

  std::vector<std::size_t> qualifying;
  for (std::size_t i = 0; i < n; ++i) {
    if (can_reach(infos[i], count)) qualifying.push_back(i);
  }
  const auto needed = nodes_limit > 0 ? static_cast<std::uint64_t>(nodes_limit) : n;
  if (qualifying.size() < needed) {
    std::string message = strategy_count(std::ssize(qualifying), "node") + " can reach " +
                          strategy_count(count, "instance");
    if (!qualifying.empty()) message += " (" + strategy_node_names(infos, qualifying) + ")";
    message += ", " + std::to_string(needed) + " needed";
    if (nodes_limit == 0) message += " (nodes_limit 0 means every node)";
    return strategy_failure(n, NamedReason("fill", std::move(message)));
  }
  if (qualifying.size() > needed) {
    // Only which nodes come first matters, not their order among themselves.
    auto first = [&](std::size_t a, std::size_t b) {
      if (infos[a].existing != infos[b].existing) return infos[a].existing > infos[b].existing;
      if (infos[a].capacity != infos[b].capacity) return infos[a].capacity > infos[b].capacity;
      return a < b;
    };
    std::nth_element(qualifying.begin(), qualifying.begin() + static_cast<std::ptrdiff_t>(needed),
                     qualifying.end(), first);
    qualifying.resize(needed);
  }

  StrategyResult result;
  result.deploy.assign(n, 0);
  bool adds = false;
  for (std::size_t i : qualifying) {
    result.deploy[i] = std::max<std::int64_t>(count - infos[i].existing, 0);
    adds = adds || result.deploy[i] > 0;
  }
  if (!adds) {
    std::sort(qualifying.begin(), qualifying.end());  // name order reads best
    return strategy_failure(
        n,
        NamedReason("fill", "already filled: " + strategy_node_names(infos, qualifying) +
                                (qualifying.size() == 1 ? " has" : " have") +
                                " >= " + strategy_count(count, "instance")),
        StrategyOutcome::AlreadySatisfied);
  }
  return result;
}

namespace {

// No wider integer is needed: capacity and existing are non-negative int64s.
bool can_reach(std::int64_t existing, std::int64_t capacity, std::int64_t count) {
  return existing >= count || capacity >= count - existing;
}

}  // namespace
// --explain (SPEC §13): the line of a node with room.
std::string fill_explain(const ExplainPass& c, const ExplainNode& s) {
  const std::int64_t e = s.existing, count = c.request.count;
  if (s.k > 0)
    return "fill: has " + std::to_string(e) + ", +" + std::to_string(s.k) + " to reach " +
           std::to_string(count);
  if (e >= count) return "fill: already has " + std::to_string(e) + " of " + std::to_string(count);
  if (!can_reach(e, s.capacity, count))
    return "fill: has " + std::to_string(e) + ", can take " + count_text(s.capacity) +
           ", cannot reach " + std::to_string(count);
  std::string out = "fill: has " + std::to_string(e) + ", could reach " + std::to_string(count);
  if (c.failed) return out + c.nothing_placed();
  return out + ", but nodes_limit " + std::to_string(c.request.nodes_limit) +
         " went to nodes with more instances or capacity";
}

// The infeasible summary's head: fill needs count on nodes, not in all.
std::string fill_need(const Request& request) {
  const std::int64_t count = request.count;
  return "need " + strategy_count(count, "instance") + " of " +
         (request.app.empty() ? "the app" : request.app) +
         (request.nodes_limit > 0 ? on_each_of(request.nodes_limit) : " on every node");
}

}  // namespace eruplan
