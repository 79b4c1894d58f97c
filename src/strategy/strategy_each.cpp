// each (SPEC §5; Eru's "average"): count new instances on each chosen node.
// nodes_limit: how many nodes to deploy on (0 = every node that can take count).
//
// Nodes are ranked by capacity descending, then name; those with capacity >=
// count are eligible and the first nodes_limit of them get count each. (Eru's
// code reads 0 as "every node must qualify"; the design note wins, SPEC §5.)
#include <algorithm>
#include <string>
#include <vector>

#include "capacity.h"
#include "strategy.h"

namespace eruplan {

StrategyResult each_strategy(std::span<const StrategyInfo> infos, std::int64_t count,
                             std::int64_t /*total*/, std::int64_t nodes_limit) {
  const std::size_t n = infos.size();
  if (auto failed = strategy_precheck("each", n, count)) return *failed;

  std::vector<std::size_t> eligible;
  std::size_t largest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (infos[i].capacity >= count) eligible.push_back(i);
    if (infos[i].capacity > infos[largest].capacity) largest = i;
  }
  if (eligible.empty()) {
    return strategy_failure(
        n, NamedReason("each", "no node can take " + strategy_count(count, "instance") +
                                   " (largest capacity: " + std::string(infos[largest].name) +
                                   " with " + count_text(infos[largest].capacity) + ")"));
  }
  const auto wanted = static_cast<std::uint64_t>(nodes_limit);
  if (nodes_limit > 0 && eligible.size() < wanted) {
    return strategy_failure(
        n, NamedReason("each", strategy_count(std::ssize(eligible), "node") + " can take " +
                                   strategy_count(count, "instance") + " (" +
                                   strategy_node_names(infos, eligible) +
                                   "), nodes_limit asks for " + std::to_string(nodes_limit)));
  }
  if (nodes_limit > 0 && eligible.size() > wanted) {
    // Only which nodes rank first matters, not their order among themselves.
    auto first = [&](std::size_t a, std::size_t b) {
      return infos[a].capacity != infos[b].capacity ? infos[a].capacity > infos[b].capacity : a < b;
    };
    std::nth_element(eligible.begin(), eligible.begin() + nodes_limit, eligible.end(), first);
    eligible.resize(wanted);
  }

  StrategyResult result;
  result.deploy.assign(n, 0);
  for (std::size_t i : eligible) result.deploy[i] = count;
  return result;
}

// --explain (SPEC §13): the line of a node with room.
std::string each_explain(const ExplainPass& c, const ExplainNode& s) {
  const std::string cap = count_text(s.capacity);
  const std::string count = std::to_string(c.request.count);
  if (s.capacity < c.request.count) return "each: capacity " + cap + " < count " + count;
  if (s.k > 0) return "each: +" + std::to_string(s.k) + ", capacity " + cap + " >= count " + count;
  std::string out = "each: capacity " + cap + " >= count " + count;
  if (c.failed) return out + c.nothing_placed();
  return out + ", but nodes_limit " + std::to_string(c.request.nodes_limit) +
         " went to nodes with more capacity or earlier names";
}

// The infeasible summary's head: each needs count new on nodes, not in all.
std::string each_need(const Request& request) {
  return "need " + strategy_count(request.count, "new instance") +
         (request.nodes_limit > 0 ? on_each_of(request.nodes_limit) : " on at least one node");
}

}  // namespace eruplan
