// InterPodAffinity (k8s_profile.h), as kube-scheduler's plugin. Filter: the
// new pod's required affinity (every term's domain on the node holds a pod
// matching all terms; or no pod anywhere does and the pod matches its own
// terms), its required anti-affinity (no term's domain holds a matching
// pod), and the running pods' required anti-affinity against it. Score:
// preferred terms both ways and running pods' required affinity (weight 1),
// summed per domain, normalized between the lowest and highest node.
#include <algorithm>
#include <climits>

#include "k8s_profile.h"

namespace eruplan {

namespace {

void add(std::map<K8sDomain, std::int64_t>& m, const Labels& node, const std::string& key,
         std::int64_t n) {
  if (const std::string* v = find_label(node, key)) m[{key, *v}] += n;
}

bool matches_all(const Inventory& inv, const std::vector<PodAffinityTerm>& terms,
                 const std::string& owner_ns, const std::string& ns, const Labels& labels) {
  return std::all_of(terms.begin(), terms.end(), [&](const PodAffinityTerm& t) {
    return k8s_term_matches(inv, t, owner_ns, ns, labels);
  });
}

// Kubernetes' topologyToMatchedTermCount.update: a count down to zero is
// erased (the affinity filter asks whether any count is left).
void update(std::map<K8sDomain, std::int64_t>& m, const Labels& node, const std::string& key,
            std::int64_t n) {
  const std::string* v = find_label(node, key);
  if (!v) return;
  const auto it = m.emplace(K8sDomain{key, *v}, 0).first;
  if ((it->second += n) == 0) m.erase(it);
}

}  // namespace

void k8s_update_interpod(K8sCycle& c, std::uint32_t i, const K8sPod& p, int delta) {
  const K8sCluster& k = *c.cluster;
  const Inventory& inv = *k.inventory;
  const PodScheduling& pod = *k.pod;
  const Labels& labels = k.labels[i];
  const std::int64_t n = delta * p.copies;
  // The same pods move again and again (each dry run takes them off and
  // gives them back): each pod's terms and labels are matched once. Per
  // pod: its own anti-affinity terms against the new pod, then the new
  // pod's affinity terms all against it, then each anti-affinity term.
  const std::vector<PodAffinityTerm> none;
  const std::vector<PodAffinityTerm>& own =
      p.scheduling ? p.scheduling->anti_affinity.required : none;
  K8sCycle::PodMatches& m = c.interpod_matches[p.labels];
  const std::size_t size = own.size() + 1 + pod.anti_affinity.required.size();
  if (m.matches.size() != size || m.ns != p.ns || m.scheduling != p.scheduling) {
    m.ns = p.ns;
    m.scheduling = p.scheduling;
    m.matches.clear();
    for (const PodAffinityTerm& t : own)
      m.matches.push_back(k8s_term_matches(inv, t, *p.ns, pod.ns, pod.labels));
    m.matches.push_back(!pod.affinity.required.empty() &&
                        matches_all(inv, pod.affinity.required, pod.ns, *p.ns, *p.labels));
    for (const PodAffinityTerm& t : pod.anti_affinity.required)
      m.matches.push_back(k8s_term_matches(inv, t, pod.ns, *p.ns, *p.labels));
  }
  std::size_t at = 0;
  for (const PodAffinityTerm& t : own)
    if (m.matches[at++] != 0) update(c.existing_anti_counts, labels, t.topology_key, n);
  if (m.matches[at++] != 0)
    for (const PodAffinityTerm& t : pod.affinity.required)
      update(c.affinity_counts, labels, t.topology_key, n);
  for (const PodAffinityTerm& t : pod.anti_affinity.required)
    if (m.matches[at++] != 0) update(c.anti_counts, labels, t.topology_key, n);
}

void k8s_prefilter_interpod(K8sCycle& c) {
  const K8sCluster& k = *c.cluster;
  const Inventory& inv = *k.inventory;
  const PodScheduling& pod = *k.pod;
  c.affinity_counts.clear();
  c.anti_counts.clear();
  c.existing_anti_counts.clear();
  c.interpod_matches.clear();
  for (std::uint32_t i = 0; i < inv.nodes.size(); ++i) {
    const Labels& labels = k.labels[i];
    for (const K8sPod& p : k.pods[i]) {
      if (p.scheduling)
        for (const PodAffinityTerm& t : p.scheduling->anti_affinity.required)
          if (k8s_term_matches(inv, t, *p.ns, pod.ns, pod.labels))
            add(c.existing_anti_counts, labels, t.topology_key, p.copies);
      if (!pod.affinity.required.empty() &&
          matches_all(inv, pod.affinity.required, pod.ns, *p.ns, *p.labels))
        for (const PodAffinityTerm& t : pod.affinity.required)
          add(c.affinity_counts, labels, t.topology_key, p.copies);
      for (const PodAffinityTerm& t : pod.anti_affinity.required)
        if (k8s_term_matches(inv, t, pod.ns, *p.ns, *p.labels))
          add(c.anti_counts, labels, t.topology_key, p.copies);
    }
  }
}

K8sStatus k8s_filter_interpod(const K8sCycle& c, std::uint32_t i) {
  const K8sCluster& k = *c.cluster;
  const PodScheduling& pod = *k.pod;
  const Labels& labels = k.labels[i];
  // The pod's affinity.
  bool exist = true;
  for (const PodAffinityTerm& t : pod.affinity.required) {
    const std::string* v = find_label(labels, t.topology_key);
    if (!v) return K8sStatus::fail_unresolvable(std::string(k8s_reason::kAffinity));
    const auto it = c.affinity_counts.find({t.topology_key, *v});
    if (it == c.affinity_counts.end() || it->second <= 0) exist = false;
  }
  if (!exist && !(c.affinity_counts.empty() &&
                  matches_all(*k.inventory, pod.affinity.required, pod.ns, pod.ns, pod.labels)))
    return K8sStatus::fail_unresolvable(std::string(k8s_reason::kAffinity));
  // The pod's anti-affinity.
  for (const PodAffinityTerm& t : pod.anti_affinity.required) {
    const std::string* v = find_label(labels, t.topology_key);
    if (!v) continue;
    const auto it = c.anti_counts.find({t.topology_key, *v});
    if (it != c.anti_counts.end() && it->second > 0)
      return K8sStatus::fail(std::string(k8s_reason::kAntiAffinity));
  }
  // The running pods' anti-affinity.
  for (const auto& [key, value] : labels) {
    const auto it = c.existing_anti_counts.find({key, value});
    if (it != c.existing_anti_counts.end() && it->second > 0)
      return K8sStatus::fail(std::string(k8s_reason::kExistingAntiAffinity));
  }
  return {};
}

std::vector<std::int64_t> k8s_score_interpod(const K8sCycle& c,
                                             const std::vector<std::uint32_t>& nodes) {
  const K8sCluster& k = *c.cluster;
  const Inventory& inv = *k.inventory;
  const PodScheduling& pod = *k.pod;
  std::vector<std::int64_t> out(nodes.size(), 0);
  const bool has_preferred =
      !pod.affinity.preferred.empty() || !pod.anti_affinity.preferred.empty();
  std::map<K8sDomain, std::int64_t> scores;
  bool any_affinity = false;
  for (std::uint32_t i = 0; i < inv.nodes.size(); ++i) {
    const Labels& labels = k.labels[i];
    for (const K8sPod& p : k.pods[i]) {
      const PodScheduling* s = p.scheduling;
      const bool with_affinity =
          s && (!s->affinity.required.empty() || !s->affinity.preferred.empty() ||
                !s->anti_affinity.required.empty() || !s->anti_affinity.preferred.empty());
      any_affinity = any_affinity || with_affinity;
      if (!has_preferred && !with_affinity) continue;
      // The new pod's preferred terms against this pod.
      for (const WeightedPodAffinityTerm& t : pod.affinity.preferred)
        if (k8s_term_matches(inv, t.term, pod.ns, *p.ns, *p.labels))
          add(scores, labels, t.term.topology_key, t.weight * p.copies);
      for (const WeightedPodAffinityTerm& t : pod.anti_affinity.preferred)
        if (k8s_term_matches(inv, t.term, pod.ns, *p.ns, *p.labels))
          add(scores, labels, t.term.topology_key, -t.weight * p.copies);
      if (!s) continue;
      // This pod's terms against the new pod.
      for (const PodAffinityTerm& t : s->affinity.required)
        if (k8s_term_matches(inv, t, *p.ns, pod.ns, pod.labels))
          add(scores, labels, t.topology_key, p.copies);  // hardPodAffinityWeight
      for (const WeightedPodAffinityTerm& t : s->affinity.preferred)
        if (k8s_term_matches(inv, t.term, *p.ns, pod.ns, pod.labels))
          add(scores, labels, t.term.topology_key, t.weight * p.copies);
      for (const WeightedPodAffinityTerm& t : s->anti_affinity.preferred)
        if (k8s_term_matches(inv, t.term, *p.ns, pod.ns, pod.labels))
          add(scores, labels, t.term.topology_key, -t.weight * p.copies);
    }
  }
  if (!has_preferred && !any_affinity) return out;  // Skip
  std::int64_t min = INT64_MAX, max = INT64_MIN;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    std::int64_t sum = 0;
    for (const auto& [key, value] : k.labels[nodes[n]]) {
      const auto it = scores.find({key, value});
      if (it != scores.end()) sum += it->second;
    }
    out[n] = sum;
    min = std::min(min, sum);
    max = std::max(max, sum);
  }
  const std::int64_t diff = max - min;
  for (std::int64_t& s : out) {
    double f = 0;
    if (diff > 0)
      f = static_cast<double>(kMaxNodeScore) *
          (static_cast<double>(s - min) / static_cast<double>(diff));
    s = static_cast<std::int64_t>(f);
  }
  return out;
}

}  // namespace eruplan
