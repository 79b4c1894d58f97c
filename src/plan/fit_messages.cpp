#include "fit_messages.h"

#include <algorithm>

namespace eruplan {

std::string daemon_message(const Inventory& state, const Request& request, const CapacityMap& map) {
  std::string nodes;
  std::size_t full = 0;
  for (const NodeCapacity& n : map.nodes) {
    if (n.capacity != 0) continue;
    if (full < kMessageNodes)
      append_message_node(nodes, full, state.nodes[n.node].name, n.reason());
    ++full;
  }
  return "DaemonSet " + request.name + ": no room on " + std::to_string(full) + " of " +
         std::to_string(map.nodes.size()) + " eligible " +
         (map.nodes.size() == 1 ? "node" : "nodes") + " without its pod: " + nodes +
         more_message_nodes(full);
}

void append_message_node(std::string& list, std::size_t listed, const std::string& name,
                         const std::string& why) {
  if (listed >= kMessageNodes) return;
  if (listed > 0) list += "; ";
  list += name + " (" + why + ")";
}

NamedReason daemon_preemption_reason(const std::string& name, std::size_t failures,
                                     std::int64_t wanted, const std::string& failed) {
  return NamedReason("DaemonSet " + name, "no room on " + std::to_string(failures) + " of " +
                                              std::to_string(wanted) + " eligible " +
                                              (wanted == 1 ? "node" : "nodes") +
                                              " without its pod, even by preemption: " + failed +
                                              more_message_nodes(failures));
}

std::string app_entries_too_large(std::int64_t entries, std::int64_t bound) {
  return "too large: the requests place their apps on " + std::to_string(entries) +
         " app-and-node pairs so far (a Kubernetes pod's counting three times), each "
         "kept in the plan and listed in its output; at most " +
         std::to_string(bound) +
         " for this input (one per byte of it, or per 4 bytes with gangs, --atomic "
         "or -o yaml, and 16384 more); ask for fewer requests or nodes";
}

std::string count_listed_nodes(std::int64_t& listed, const CapacityMap& map, bool explain,
                               bool zero_only, std::int64_t bound) {
  if (bound == kUnlimited) return "";
  const auto nodes = zero_only
                         ? std::count_if(map.nodes.begin(), map.nodes.end(),
                                         [](const NodeCapacity& n) { return n.capacity == 0; })
                         : static_cast<std::ptrdiff_t>(map.nodes.size());
  listed += static_cast<std::int64_t>(nodes) * (explain ? 2 : 1);
  if (listed <= bound) return "";
  return "too large: the requests' documents list " + std::to_string(listed) +
         " nodes so far (each request's capacity names every node it may use, and --explain "
         "adds a line for each), all kept until the end; at most " +
         std::to_string(bound) +
         " for this input (one per 4 bytes of it, and 16384 more); ask for fewer requests "
         "or nodes, or have plan write -o json or a table as it goes (without --atomic or "
         "gangs)";
}

std::string more_message_nodes(std::size_t listed) {
  if (listed <= kMessageNodes) return "";
  const std::size_t more = listed - kMessageNodes;
  return "; and " + std::to_string(more) + (more == 1 ? " more node" : " more nodes");
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
