// Where a DaemonSet's pods go (k8s_daemonset.h).
#include "k8s_daemonset.h"

#include <algorithm>

#include "k8s_profile.h"

namespace eruplan {

std::vector<Toleration> daemon_tolerations(bool host_network) {
  auto exists = [](const char* key, const char* effect) {
    Toleration t;
    t.key = key;
    t.exists = true;
    t.effect = effect;
    return t;
  };
  std::vector<Toleration> out = {
      exists("node.kubernetes.io/not-ready", "NoExecute"),
      exists("node.kubernetes.io/unreachable", "NoExecute"),
      exists("node.kubernetes.io/disk-pressure", "NoSchedule"),
      exists("node.kubernetes.io/memory-pressure", "NoSchedule"),
      exists("node.kubernetes.io/pid-pressure", "NoSchedule"),
      exists("node.kubernetes.io/unschedulable", "NoSchedule"),
  };
  if (host_network) out.push_back(exists("node.kubernetes.io/network-unavailable", "NoSchedule"));
  return out;
}

bool daemon_should_run(const Node& node, const PodScheduling& pod,
                       const std::vector<Toleration>& tolerations) {
  if (!pod.node_name.empty() && pod.node_name != node.name) return false;
  if (!k8s_required_node_affinity(pod, k8s_node_labels(node), node.name)) return false;
  return !k8s_untolerated_taint(node, tolerations);
}

DaemonPlacement place_daemon(const Inventory& inventory, const PodScheduling& pod,
                             const std::vector<Toleration>& tolerations, const std::string& ns,
                             const LabelSelector& selector, const std::vector<char>* match,
                             const std::vector<std::uint32_t>& sets) {
  DaemonPlacement out;
  const std::size_t n = inventory.nodes.size();
  std::vector<char> running(n, 0);
  const std::vector<RunningPod>& pods = inventory.pods.get();
  for (std::size_t i = 0; i < pods.size() && match != nullptr; ++i)
    if (pods[i].node < n && pods[i].ns == ns && (*match)[sets[i]]) running[pods[i].node] = 1;
  for (std::uint32_t i = 0; i < n; ++i)
    if (const auto& shared = inventory.nodes[i].shared_pods)
      for (const RunningPod& p : shared->pods)
        if (p.ns == ns && selector.matches(p.labels)) running[i] = 1;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!daemon_should_run(inventory.nodes[i], pod, tolerations)) continue;
    out.eligible.push_back(i);
    (running[i] ? out.done : out.wanted).push_back(i);
  }
  return out;
}

void daemon_request(Request& req, const DaemonPlacement& p, const Inventory* inventory,
                    std::shared_ptr<const NodeNameTable>& names) {
  req.strategy = Strategy::Each;
  req.filter.labels.clear();
  req.filter.nodes.clear();
  req.filter.exclude.clear();
  req.filter.node_set.reset();
  req.nodes_origins.clear();
  req.exclude_origins.clear();
  req.count = p.wanted.empty() ? 0 : 1;
  req.nodes_limit = static_cast<std::int64_t>(p.wanted.size());
  if (inventory == nullptr) {
    req.count = 1;
    return;
  }
  if (!names) names = std::make_shared<const NodeNameTable>(inventory->nodes);
  auto set = std::make_shared<NodeSet>(names);
  for (const std::uint32_t i : p.wanted.empty() ? p.done : p.wanted) set->add(i);
  req.filter.node_set = std::move(set);  // no node at all when empty
  if (!p.wanted.empty()) return;
  req.satisfied = NamedReason(
      req.name, p.eligible.empty()
                    ? "no node is eligible for its pods (nodeSelector, node affinity, taints), "
                      "nothing to place"
                    : std::to_string(p.done.size()) + " of " + std::to_string(p.eligible.size()) +
                          " eligible nodes run its pod, nothing to place");
}

}  // namespace eruplan
