// A manifest's node-local pod constraints as a capacity dimension, for every
// strategy but the kubernetes profile (which filters them itself, one replica
// at a time): required node affinity (terms ORed, matchFields on the node's
// name), host ports (at most one replica per node, none where a running pod
// holds a clashing port) and required anti-affinity of the pod with itself
// by kubernetes.io/hostname (at most one replica per node, none where a
// running pod it repels runs).
#include <algorithm>

#include "capacity.h"

namespace eruplan {

namespace {

constexpr std::string_view kHostname = "kubernetes.io/hostname";

bool clash(const HostPort& a, const HostPort& b) {
  return a.port == b.port && a.protocol == b.protocol &&
         (a.ip == b.ip || a.ip == "0.0.0.0" || b.ip == "0.0.0.0");
}

// A term's namespaces: the pod's own unless it names some.
bool in_namespaces(const PodAffinityTerm& t, const std::string& own, const std::string& ns) {
  if (t.namespaces.empty() && !t.namespace_selector) return ns == own;
  return std::find(t.namespaces.begin(), t.namespaces.end(), ns) != t.namespaces.end();
}

}  // namespace

DimensionResult pod_constraints_dimension(const DimensionInput& in) {
  DimensionResult result;
  const Request& request = in.request;
  if (!request.pod || (request.strategy == Strategy::Score &&
                       request.scoring.profile == ScoringProfile::Kubernetes))
    return result;
  const PodScheduling& pod = *request.pod;
  const Node& node = in.node;
  if (pod.node_affinity.required) {
    Labels labels(node.labels.begin(), node.labels.end());
    if (!find_label(labels, kHostname)) {
      labels.emplace_back(std::string(kHostname), node.name);
      std::sort(labels.begin(), labels.end());
    }
    const auto& terms = *pod.node_affinity.required;
    if (std::none_of(terms.begin(), terms.end(),
                     [&](const NodeSelectorTerm& t) { return t.matches(labels, node.name); })) {
      result.stop(Reason::words("node affinity", "required node affinity not matched"));
      return result;
    }
  }
  std::vector<const PodAffinityTerm*> self;  // anti-affinity with itself by hostname
  for (const PodAffinityTerm& t : pod.anti_affinity.required)
    if (t.topology_key == kHostname && t.selector && t.selector->matches(pod.labels) &&
        in_namespaces(t, pod.ns, pod.ns))
      self.push_back(&t);
  if (pod.host_ports.empty() && self.empty()) return result;
  // A pod on the node (running, or placed by an earlier request) that keeps
  // every replica out: a clashing host port or a pod the anti-affinity repels.
  auto repels = [&](const std::string& ns, const std::string& name, const Labels& labels,
                    const PodScheduling* scheduling) {
    if (scheduling)
      for (const HostPort& have : scheduling->host_ports)
        for (const HostPort& want : pod.host_ports)
          if (clash(have, want)) {
            result.stop(Reason::words("ports", "host port " + std::to_string(want.port) + "/" +
                                                   want.protocol + " in use by " + ns + "/" +
                                                   name));
            return true;
          }
    for (const PodAffinityTerm* t : self)
      if (in_namespaces(*t, pod.ns, ns) && t->selector->matches(labels)) {
        result.stop(
            Reason::words("anti-affinity", "required anti-affinity with " + ns + "/" + name));
        return true;
      }
    return false;
  };
  auto running = [&](const RunningPod& p) {
    return repels(p.ns, p.name, p.labels, p.scheduling.get());
  };
  const Inventory& inv = in.inventory;
  const auto index = static_cast<std::uint32_t>(&node - inv.nodes.data());
  const auto& pods = inv.pods.get();
  for (std::size_t i = 0; i < pods.size(); ++i)
    if (pods[i].node == index && !inv.pod_evicted(i) && running(pods[i])) return result;
  if (node.shared_pods)
    for (const RunningPod& p : node.shared_pods->pods)
      if (running(p)) return result;
  if (inv.placed_pods.each_on(index, [&](const PlacedPods& p, std::int64_t) {
        return repels(p.pod->ns, p.pod->name, p.pod->labels, p.pod.get());
      }))
    return result;
  result.capacity = 1;  // the replicas' own ports or anti-affinity: one per node
  return result;
}

}  // namespace eruplan
