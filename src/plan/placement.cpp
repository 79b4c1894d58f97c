// One request's placement by its strategy (SPEC §8.4): min_count's
// bisection over the count, the infos a strategy sees, and the pod fields
// only strategy score honours.
#include <algorithm>
#include <limits>

#include "requests.h"

namespace eruplan {

std::int64_t listed_core_weight(const Inventory& state, const Request& request,
                                const std::vector<StrategyInfo>& infos,
                                const InfoDeployMap& deploy) {
  if (!request.cpu_bind) return 0;
  std::int64_t cores = 0;
  for (std::size_t k = 0; k < infos.size() && k < deploy.size(); ++k)
    if (deploy[k] > 0 && state.nodes[infos[k].node].cores.empty())
      cores += state.nodes[infos[k].node].plain_cores;
  return (cores + kListedCoresPerPlan - 1) / kListedCoresPerPlan;
}

namespace {

bool places(const StrategyInput& input, StrategyPass run, std::int64_t n) {
  // score fills every node before it refuses one (SPEC §9): it places n
  // exactly when the nodes can take n, so min_count's bisection need not run it.
  // The kubernetes profile can refuse before the nodes are full (spread,
  // affinity, ports): it is run.
  if (input.request != nullptr && input.request->strategy == Strategy::Score &&
      input.request->scoring.profile == ScoringProfile::Resources)
    return input.total >= n;
  StrategyInput in = input;
  in.count = n;
  return run(in).outcome == StrategyOutcome::Deployed;
}

// The kubernetes profile: a run that fails says how many replicas it placed
// first (StrategyResult::placed_first).
bool says_placed_first(const StrategyInput& input) {
  return input.request != nullptr && input.request->strategy == Strategy::Score &&
         input.request->scoring.profile == ScoringProfile::Kubernetes;
}

// The largest n in [lo, hi] the strategy places, given that lo is placed.
// A run that says how many it placed first (the kubernetes profile) answers
// at once; any other is bisected.
std::int64_t largest_placed(const StrategyInput& input, StrategyPass run, std::int64_t lo,
                            std::int64_t hi) {
  if (lo < hi && says_placed_first(input)) {
    StrategyInput in = input;
    in.count = hi;
    const StrategyResult r = run(in);
    if (r.outcome == StrategyOutcome::Deployed) return hi;
    if (r.placed_first >= 0) return std::clamp(r.placed_first, lo, hi);
  }
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (places(input, run, mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

}  // namespace

std::int64_t most_placed(const StrategyInput& input, StrategyPass run, std::int64_t hi,
                         const StrategyResult* first) {
  if (hi >= 1 && first != nullptr && first->placed_first >= 0 && hi <= input.count)
    return std::min(first->placed_first, hi);
  if (hi >= 1 && says_placed_first(input)) {
    StrategyInput in = input;
    in.count = hi;
    const StrategyResult r = run(in);
    if (r.outcome == StrategyOutcome::Deployed) return hi;
    if (r.placed_first >= 0) return std::min(r.placed_first, hi);
  }
  return places(input, run, 1) ? largest_placed(input, run, 1, hi) : 0;
}

InfoDeployMap first_placed(const StrategyInput& input, StrategyPass run, std::int64_t k,
                           const StrategyResult& first) {
  if (first.placed_first == k && first.placed_first_deploy.size() == input.infos.size())
    return first.placed_first_deploy;
  StrategyInput in = input;
  in.count = k;
  return run(in).deploy;
}

std::vector<StrategyInfo> strategy_infos(const Inventory& inventory, const CapacityMap& map,
                                         std::vector<std::size_t>& where) {
  std::vector<StrategyInfo> infos;
  infos.reserve(map.nodes.size());
  where.clear();
  for (std::size_t i = 0; i < map.nodes.size(); ++i) {
    const NodeCapacity& n = map.nodes[i];
    if (n.capacity <= 0) continue;
    infos.push_back(
        {inventory.nodes[n.node].name, n.node, n.existing, n.capacity, n.usage, n.rate});
    where.push_back(i);
  }
  return infos;
}

Placement place(const StrategyInput& input, std::int64_t min_count, Strategy strategy) {
  const StrategyRow& row = strategy_row(strategy);
  Placement p;
  p.first = row.run(input);
  if (p.first.outcome == StrategyOutcome::Deployed) {
    p.result = p.first;
    // New instances in all: `count` for most strategies, but fill tops nodes
    // up to count and each puts count on every chosen node (SPEC §8.4
    // "placed"). Saturating, as each on unlimited nodes can exceed int64.
    p.placed = 0;
    for (const std::int64_t k : p.result.deploy)
      p.placed = k > std::numeric_limits<std::int64_t>::max() - p.placed
                     ? std::numeric_limits<std::int64_t>::max()
                     : p.placed + k;
    return p;
  }
  if (p.first.too_large || p.first.outcome != StrategyOutcome::Infeasible || min_count <= 0 ||
      min_count >= input.count || !row.min_count)
    return p;
  std::int64_t n = 0;
  if (p.first.placed_first >= 0) {  // the kubernetes profile said how far it got
    if (p.first.placed_first < min_count) return p;
    n = std::min(p.first.placed_first, input.count - 1);
  } else {
    if (!places(input, row.run, min_count)) return p;
    n = largest_placed(input, row.run, min_count, input.count - 1);
  }
  StrategyInput in = input;
  in.count = n;
  p.result = row.run(in);
  p.placed = n;
  p.partial = true;
  return p;
}

std::string cross_node_constraint(const Request& request) {
  if (!request.pod || request.daemon) return {};
  const PodScheduling& p = *request.pod;
  if (!p.spread.empty()) return "topologySpreadConstraints";
  if (!p.affinity.required.empty()) return "affinity.podAffinity";
  for (const PodAffinityTerm& t : p.anti_affinity.required)
    if (t.topology_key != "kubernetes.io/hostname" || !t.selector || !t.selector->matches(p.labels))
      return "affinity.podAntiAffinity";
  return {};
}

}  // namespace eruplan
