#include "fit_messages.h"

#include <algorithm>

namespace eruplan {

std::string daemon_message(const Inventory& state, const Request& request, const CapacityMap& map) {
  std::string nodes;
  std::size_t full = 0;
  for (const NodeCapacity& n : map.nodes) {
    if (n.capacity != 0) continue;
    nodes += (full++ == 0 ? "" : "; ") + state.nodes[n.node].name + " (" + n.reason() + ")";
  }
  return "DaemonSet " + request.name + ": no room on " + std::to_string(full) + " of " +
         std::to_string(map.nodes.size()) + " eligible " +
         (map.nodes.size() == 1 ? "node" : "nodes") + " without its pod: " + nodes;
}

// Kubernetes' FitError prints the PostFilter's "preemption: ..." after the
// filters' "0/N nodes are available: ..." on the same line; eruplan's own
// lines ("placed K of N; ...") follow it.
//
// kube-scheduler v1.35's default profile runs two PostFilter plugins on a pod
// that fits nowhere: DynamicResources first, which for a pod with no resource
// claim of its own to free answers "no new claims to deallocate", then
// DefaultPreemption; their reasons are joined by ", " (so an event reads
// "... 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 ...").
// The kubernetes profile writes both; eruplan's own inventories only the
// preemption sentence.
std::string postfilter_sentence(const Request& request, const std::string& preemption) {
  if (preemption.empty() || request.strategy != Strategy::Score ||
      request.scoring.profile != ScoringProfile::Kubernetes)
    return preemption;
  return "no new claims to deallocate, " + preemption;
}

std::string dry_runs_too_large(const std::string& app, const DryRunWork& work) {
  return "too large: --preempt's dry runs for " + app + " checked the filters " +
         std::to_string(work.checks) + " times on " + std::to_string(work.nodes) + " nodes with " +
         std::to_string(work.pods) +
         " running pods (each replica that fits nowhere tries every node, taking off and "
         "giving back its lower-priority pods one by one) and planned " +
         std::to_string(work.cores) + " cores for them: " + std::to_string(work.steps) +
         " steps (150 a check, 10 a core planned, more for each hard spread constraint, "
         "domain, required affinity term and pod moved they weigh, and for budgets matched), "
         "past the bound of " +
         std::to_string(work.bound) +
         " steps this run shares with the kubernetes profile; ask for fewer replicas";
}

}  // namespace eruplan
