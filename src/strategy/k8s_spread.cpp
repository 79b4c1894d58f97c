// PodTopologySpread (k8s_profile.h), as kube-scheduler's plugin: the
// DoNotSchedule constraints filter by skew against the least loaded domain;
// the ScheduleAnyway ones (or the system defaults) score by the matching
// pods in each node's domains, fewer being better.
#include <algorithm>
#include <climits>
#include <cmath>
#include <set>

#include "k8s_profile.h"

namespace eruplan {

namespace {

// Kubernetes counts no pod for an empty selector ({}) and none for an
// absent one; otherwise the pods of the new pod's namespace it matches,
// terminating ones bypassed (countPodsMatchSelector).
std::int64_t count_matching(const std::vector<K8sPod>& pods,
                            const std::optional<LabelSelector>& selector, const std::string& ns) {
  if (!selector || selector->requirements.empty()) return 0;
  std::int64_t n = 0;
  for (const K8sPod& p : pods)
    if (!p.terminating && *p.ns == ns && selector->matches(*p.labels)) n += p.copies;
  return n;
}

bool has_all_keys(const Labels& labels, const std::vector<TopologySpreadConstraint>& cs) {
  return std::all_of(cs.begin(), cs.end(), [&](const TopologySpreadConstraint& c) {
    return find_label(labels, c.topology_key) != nullptr;
  });
}

// nodeAffinityPolicy and nodeTaintsPolicy: does the node count?
bool included(const K8sCluster& k, const TopologySpreadConstraint& c, std::uint32_t i) {
  const Node& node = k.inventory->nodes[i];
  if (c.node_affinity_policy == SpreadPolicy::Honor &&
      !k8s_required_node_affinity(*k.pod, k.labels[i], node.name))
    return false;
  if (c.node_taints_policy == SpreadPolicy::Honor &&
      k8s_untolerated_taint(node, k.request->tolerations))
    return false;
  return true;
}

}  // namespace

void k8s_prefilter_spread(K8sCycle& c) {
  const K8sCluster& k = *c.cluster;
  c.hard_spread.clear();
  for (const TopologySpreadConstraint& s : k.pod->spread)
    if (s.do_not_schedule) c.hard_spread.push_back(s);
  c.spread_counts.assign(c.hard_spread.size(), {});
  c.spread_matches.clear();
  if (c.hard_spread.empty()) return;
  for (std::uint32_t i = 0; i < k.inventory->nodes.size(); ++i) {
    if (!has_all_keys(k.labels[i], c.hard_spread)) continue;
    for (std::size_t ci = 0; ci < c.hard_spread.size(); ++ci) {
      const TopologySpreadConstraint& s = c.hard_spread[ci];
      if (!included(k, s, i)) continue;
      c.spread_counts[ci][*find_label(k.labels[i], s.topology_key)] +=
          count_matching(k.pods[i], s.selector, k.pod->ns);
    }
  }
}

// Kubernetes' RemovePod counts a pod for an empty selector ({}), which its
// PreFilter does not; the skew of such a constraint stays 1 either way, so
// eruplan counts it as the PreFilter does. A terminating pod, which the
// PreFilter bypasses, RemovePod (updateWithPod) does count: removing one as
// a victim lowers its domain below what the PreFilter found, as there.
void k8s_update_spread(K8sCycle& c, std::uint32_t i, const K8sPod& pod, int delta) {
  const K8sCluster& k = *c.cluster;
  if (c.hard_spread.empty() || *pod.ns != k.pod->ns || !has_all_keys(k.labels[i], c.hard_spread))
    return;
  // The same pods move again and again (each dry run takes them off and
  // gives them back): each pod's labels are matched once per constraint.
  std::vector<char>& matches = c.spread_matches[pod.labels];
  if (matches.size() != c.hard_spread.size()) {
    matches.assign(c.hard_spread.size(), 0);
    for (std::size_t ci = 0; ci < c.hard_spread.size(); ++ci) {
      const std::optional<LabelSelector>& selector = c.hard_spread[ci].selector;
      matches[ci] = selector && !selector->requirements.empty() && selector->matches(*pod.labels);
    }
  }
  for (std::size_t ci = 0; ci < c.hard_spread.size(); ++ci) {
    const TopologySpreadConstraint& s = c.hard_spread[ci];
    if (matches[ci] == 0 || !included(k, s, i)) continue;
    c.spread_counts[ci][*find_label(k.labels[i], s.topology_key)] += delta * pod.copies;
  }
}

K8sStatus k8s_filter_spread(const K8sCycle& c, std::uint32_t i) {
  const K8sCluster& k = *c.cluster;
  for (std::size_t ci = 0; ci < c.hard_spread.size(); ++ci) {
    const TopologySpreadConstraint& s = c.hard_spread[ci];
    const std::string* value = find_label(k.labels[i], s.topology_key);
    if (!value) return K8sStatus::fail_unresolvable(std::string(k8s_reason::kSpreadLabel));
    const auto& counts = c.spread_counts[ci];
    std::int64_t min = INT32_MAX;
    for (const auto& [v, n] : counts) min = std::min(min, n);
    if (s.min_domains && static_cast<std::int64_t>(counts.size()) < *s.min_domains) min = 0;
    const std::int64_t self = s.selector && s.selector->matches(k.pod->labels) ? 1 : 0;
    const auto it = counts.find(*value);
    const std::int64_t here = it == counts.end() ? 0 : it->second;
    if (here + self - min > s.max_skew) return K8sStatus::fail(std::string(k8s_reason::kSpread));
  }
  return {};
}

std::vector<std::int64_t> k8s_score_spread(const K8sCycle& c,
                                           const std::vector<std::uint32_t>& nodes) {
  const K8sCluster& k = *c.cluster;
  std::vector<TopologySpreadConstraint> cs;
  const bool own = !k.pod->spread.empty();
  if (own) {
    for (const TopologySpreadConstraint& s : k.pod->spread)
      if (!s.do_not_schedule) cs.push_back(s);
  } else {
    cs = k.default_spread;
  }
  std::vector<std::int64_t> out(nodes.size(), 0);
  if (cs.empty() || nodes.empty()) return out;  // Skip: 0 everywhere
  const bool require_all = own;
  // PreScore: the domains of the feasible nodes, and the ignored nodes.
  std::vector<std::map<std::string, std::int64_t>> counts(cs.size());
  std::vector<bool> ignored(nodes.size(), false);
  std::size_t n_ignored = 0;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    const Labels& labels = k.labels[nodes[n]];
    if (require_all && !has_all_keys(labels, cs)) {
      ignored[n] = true;
      ++n_ignored;
      continue;
    }
    for (std::size_t ci = 0; ci < cs.size(); ++ci) {
      if (cs[ci].topology_key == kHostnameLabel) continue;
      const std::string* v = find_label(labels, cs[ci].topology_key);
      counts[ci].emplace(v ? *v : std::string(), 0);
    }
  }
  std::vector<double> weight(cs.size());
  for (std::size_t ci = 0; ci < cs.size(); ++ci) {
    const std::size_t size =
        cs[ci].topology_key == kHostnameLabel ? nodes.size() - n_ignored : counts[ci].size();
    weight[ci] = std::log(static_cast<double>(size + 2));
  }
  // Every node of the cluster adds its matching pods to its domains.
  for (std::uint32_t i = 0; i < k.inventory->nodes.size(); ++i) {
    if (require_all && !has_all_keys(k.labels[i], cs)) continue;
    for (std::size_t ci = 0; ci < cs.size(); ++ci) {
      if (cs[ci].topology_key == kHostnameLabel || !included(k, cs[ci], i)) continue;
      const std::string* v = find_label(k.labels[i], cs[ci].topology_key);
      const auto it = counts[ci].find(v ? *v : std::string());
      if (it == counts[ci].end()) continue;
      it->second += count_matching(k.pods[i], cs[ci].selector, k.pod->ns);
    }
  }
  // Score: the sum over the constraints whose key the node has.
  std::int64_t min = INT64_MAX, max = 0;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    if (ignored[n]) continue;
    const std::uint32_t i = nodes[n];
    double score = 0;
    for (std::size_t ci = 0; ci < cs.size(); ++ci) {
      const std::string* v = find_label(k.labels[i], cs[ci].topology_key);
      if (!v) continue;
      const std::int64_t cnt = cs[ci].topology_key == kHostnameLabel
                                   ? count_matching(k.pods[i], cs[ci].selector, k.pod->ns)
                                   : counts[ci].at(*v);
      score += static_cast<double>(cnt) * weight[ci] + static_cast<double>(cs[ci].max_skew - 1);
    }
    out[n] = static_cast<std::int64_t>(std::round(score));
    min = std::min(min, out[n]);
    max = std::max(max, out[n]);
  }
  // NormalizeScore: fewer matching pods score higher; ignored nodes 0.
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    if (ignored[n])
      out[n] = 0;
    else if (max == 0)
      out[n] = kMaxNodeScore;
    else
      out[n] = kMaxNodeScore * (max + min - out[n]) / max;
  }
  return out;
}

}  // namespace eruplan
