// The node-local plugins of the kubernetes profile (k8s_profile.h):
// NodeUnschedulable, NodeName, TaintToleration, NodeAffinity and NodePorts,
// each as kube-scheduler's plugin of that name decides and scores, and
// ImageLocality's score.
#include <algorithm>
#include <iterator>

#include "k8s_profile.h"

namespace eruplan {

Labels k8s_node_labels(const Node& node) {
  Labels out(node.labels.begin(), node.labels.end());
  if (!node.kubernetes && !find_label(out, kHostnameLabel)) {
    const auto at = std::lower_bound(out.begin(), out.end(), kHostnameLabel,
                                     [](const auto& l, std::string_view k) { return l.first < k; });
    out.insert(at, {std::string(kHostnameLabel), node.name});
  }
  return out;
}

bool k8s_required_node_affinity(const PodScheduling& pod, const Labels& labels,
                                std::string_view name) {
  for (const auto& [k, v] : pod.node_selector) {
    const std::string* have = find_label(labels, k);
    if (!have || *have != v) return false;
  }
  if (!pod.node_affinity.required) return true;
  return std::any_of(pod.node_affinity.required->begin(), pod.node_affinity.required->end(),
                     [&](const NodeSelectorTerm& t) { return t.matches(labels, name); });
}

std::optional<std::vector<std::string>> k8s_prefilter_node_names(const PodScheduling& pod) {
  if (!pod.node_affinity.required || pod.node_affinity.required->empty()) return std::nullopt;
  std::vector<std::string> names;  // sorted, unique
  for (const NodeSelectorTerm& t : *pod.node_affinity.required) {
    std::optional<std::vector<std::string>> term;
    for (const Requirement& r : t.fields) {
      if (r.key != "metadata.name" || r.op != SelectorOp::In) continue;
      std::vector<std::string> values = r.values;
      std::sort(values.begin(), values.end());
      values.erase(std::unique(values.begin(), values.end()), values.end());
      if (!term) {
        term = std::move(values);
        continue;
      }
      std::vector<std::string> both;
      std::set_intersection(term->begin(), term->end(), values.begin(), values.end(),
                            std::back_inserter(both));
      term = std::move(both);
    }
    if (!term) return std::nullopt;  // the terms are ORed: any node may match this one
    std::vector<std::string> joined;
    std::set_union(names.begin(), names.end(), term->begin(), term->end(),
                   std::back_inserter(joined));
    names = std::move(joined);
  }
  return names;
}

bool k8s_untolerated_taint(const Node& node, const std::vector<Toleration>& tolerations) {
  for (const Taint& taint : node.taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    if (std::none_of(tolerations.begin(), tolerations.end(),
                     [&](const Toleration& t) { return t.tolerates(taint); }))
      return true;
  }
  return false;
}

bool k8s_term_matches(const Inventory& inventory, const PodAffinityTerm& term,
                      const std::string& owner_ns, const std::string& ns, const Labels& labels) {
  if (!term.selector) return false;
  bool in_namespace = false;
  if (term.namespaces.empty() && !term.namespace_selector) {
    in_namespace = ns == owner_ns;
  } else {
    in_namespace =
        std::find(term.namespaces.begin(), term.namespaces.end(), ns) != term.namespaces.end();
    if (!in_namespace && term.namespace_selector) {
      const auto it =
          std::lower_bound(inventory.namespaces.begin(), inventory.namespaces.end(), ns,
                           [](const auto& e, const std::string& n) { return e.first < n; });
      if (it != inventory.namespaces.end() && it->first == ns) {
        in_namespace = term.namespace_selector->matches(it->second);
      } else {  // not listed (or no --namespaces): only its name label
        in_namespace =
            term.namespace_selector->matches(Labels{{"kubernetes.io/metadata.name", ns}});
      }
    }
  }
  return in_namespace && term.selector->matches(labels);
}

K8sStatus k8s_filter_node_unschedulable(const K8sCycle& c, std::uint32_t i) {
  const Node& node = c.cluster->inventory->nodes[i];
  if (node.available) return {};
  const Taint unschedulable{"node.kubernetes.io/unschedulable", "", "NoSchedule"};
  const auto& tolerations = c.cluster->request->tolerations;
  if (std::any_of(tolerations.begin(), tolerations.end(),
                  [&](const Toleration& t) { return t.tolerates(unschedulable); }))
    return {};
  return K8sStatus::fail_unresolvable(std::string(k8s_reason::kUnschedulable));
}

K8sStatus k8s_filter_node_name(const K8sCycle& c, std::uint32_t i) {
  const std::string& want = c.cluster->pod->node_name;
  if (want.empty() || want == c.cluster->inventory->nodes[i].name) return {};
  return K8sStatus::fail_unresolvable(std::string(k8s_reason::kNodeName));
}

K8sStatus k8s_filter_taint_toleration(const K8sCycle& c, std::uint32_t i) {
  if (!k8s_untolerated_taint(c.cluster->inventory->nodes[i], c.cluster->request->tolerations))
    return {};
  return K8sStatus::fail_unresolvable(std::string(k8s_reason::kTaint));
}

// nodeSelector, required terms, and an eruplan request's node_filter (its
// labels are the nodeSelector of a manifest; nodes/exclude name nodes).
K8sStatus k8s_filter_node_affinity(const K8sCycle& c, std::uint32_t i) {
  const Node& node = c.cluster->inventory->nodes[i];
  if (c.cluster->request->filter.accepts(node) &&
      k8s_required_node_affinity(*c.cluster->pod, c.cluster->labels[i], node.name))
    return {};
  return K8sStatus::fail_unresolvable(std::string(k8s_reason::kNodeAffinity));
}

namespace {

// Two host ports clash: same protocol and port, and the same address or
// either one every address.
bool clash(const HostPort& a, const HostPort& b) {
  return a.port == b.port && a.protocol == b.protocol &&
         (a.ip == b.ip || a.ip == "0.0.0.0" || b.ip == "0.0.0.0");
}

}  // namespace

K8sStatus k8s_filter_node_ports(const K8sCycle& c, std::uint32_t i) {
  const std::vector<HostPort>& wanted = c.cluster->pod->host_ports;
  if (wanted.empty()) return {};
  for (const K8sPod& p : c.cluster->pods[i]) {
    if (!p.scheduling || p.copies <= 0) continue;  // copies 0: off the node
    for (const HostPort& have : p.scheduling->host_ports)
      for (const HostPort& want : wanted)
        if (clash(have, want)) return K8sStatus::fail(std::string(k8s_reason::kNodePorts));
  }
  return {};
}

void k8s_default_normalize(std::vector<std::int64_t>& scores, bool reverse) {
  std::int64_t max = 0;
  for (std::int64_t s : scores) max = std::max(max, s);
  if (max == 0) {
    if (reverse) std::fill(scores.begin(), scores.end(), kMaxNodeScore);
    return;
  }
  for (std::int64_t& s : scores) {
    s = kMaxNodeScore * s / max;
    if (reverse) s = kMaxNodeScore - s;
  }
}

// Raw: the node's PreferNoSchedule taints that no toleration with effect
// PreferNoSchedule (or none) matches; normalized reversed.
std::vector<std::int64_t> k8s_score_taint_toleration(const K8sCycle& c,
                                                     const std::vector<std::uint32_t>& nodes) {
  std::vector<Toleration> prefer;
  for (const Toleration& t : c.cluster->request->tolerations)
    if (t.effect.empty() || t.effect == "PreferNoSchedule") prefer.push_back(t);
  std::vector<std::int64_t> out;
  out.reserve(nodes.size());
  for (std::uint32_t i : nodes) {
    std::int64_t n = 0;
    for (const Taint& taint : c.cluster->inventory->nodes[i].taints)
      if (taint.effect == "PreferNoSchedule" &&
          std::none_of(prefer.begin(), prefer.end(),
                       [&](const Toleration& t) { return t.tolerates(taint); }))
        ++n;
    out.push_back(n);
  }
  k8s_default_normalize(out, true);
  return out;
}

// Raw: the weights of the preferred terms the node matches.
std::vector<std::int64_t> k8s_score_node_affinity(const K8sCycle& c,
                                                  const std::vector<std::uint32_t>& nodes) {
  std::vector<std::int64_t> out;
  out.reserve(nodes.size());
  for (std::uint32_t i : nodes) {
    std::int64_t sum = 0;
    for (const PreferredSchedulingTerm& t : c.cluster->pod->node_affinity.preferred)
      if (t.term.matches(c.cluster->labels[i], c.cluster->inventory->nodes[i].name))
        sum += t.weight;
    out.push_back(sum);
  }
  k8s_default_normalize(out, false);
  return out;
}

// ImageLocality, as kube-scheduler scores it on a snapshot of the nodes:
// an image's size on the node, times the share of all nodes that list its
// name (as a double, truncated), summed over the pod's containers and init
// containers; the sum clamped to [23 MiB, 1000 MiB x containers] and mapped
// onto 0..100 (integer division). No normalization after.
std::vector<std::int64_t> k8s_image_locality(const Inventory& inventory, const PodScheduling& pod) {
  constexpr std::int64_t kMiB = 1024 * 1024, kMin = 23 * kMiB, kMaxPerContainer = 1000 * kMiB;
  const std::size_t n = inventory.nodes.size();
  std::vector<std::int64_t> sums(n, 0);
  bool any = false;
  auto size_on = [](const Node& node, const std::string& image) -> const Bytes* {
    const auto& images = node.images.get();
    auto it =
        std::lower_bound(images.begin(), images.end(), image,
                         [](const auto& e, const std::string& name) { return e.first < name; });
    return it != images.end() && it->first == image ? &it->second : nullptr;
  };
  for (const std::string& image : pod.images) {
    if (image.empty()) continue;
    std::int64_t holders = 0;
    for (const Node& node : inventory.nodes) holders += size_on(node, image) != nullptr;
    if (holders == 0) continue;
    any = true;
    const double spread = static_cast<double>(holders) / static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i)
      if (const Bytes* size = size_on(inventory.nodes[i], image)) {
        // Past 9e18 bytes (no real image) the sum saturates instead of
        // overflowing.
        const auto v =
            static_cast<std::int64_t>(std::min(static_cast<double>(*size) * spread, 9e18));
        sums[i] = v > INT64_MAX - sums[i] ? INT64_MAX : sums[i] + v;
      }
  }
  if (!any) return {};
  const std::int64_t max = kMaxPerContainer * static_cast<std::int64_t>(std::min<std::size_t>(
                                                  pod.images.size(), 1 << 20));
  for (std::int64_t& s : sums) s = kMaxNodeScore * (std::clamp(s, kMin, max) - kMin) / (max - kMin);
  return sums;
}

}  // namespace eruplan
