// The kubernetes profile's filters for preemption (k8s_preemption.h).
//
// Choices made here:
// - The PreFilter runs once over the cluster as the plan stands and is then
//   kept up to date pod by pod (AddPod, RemovePod), for the replicas placed
//   and the pods evicted as well as inside each dry run; kube-scheduler runs
//   it again for each replica, which gives the same counts.
// - NodeResourcesFit is the capacity pass on the node as the dry run left
//   it (capacity_filter), as it is for every other strategy.
// - The replicas placed by the run's earlier requests are pods like the
//   running ones (Inventory::placed_pods), but never victims: requests are
//   planned in priority order, so none placed before has a lower priority.
#include "k8s_preemption.h"

#include <algorithm>

namespace eruplan {

namespace {

FilterVerdict verdict_of(const K8sStatus& status) {
  return {status.unresolvable ? FilterCode::Unresolvable : FilterCode::Unschedulable,
          status.reasons};
}

}  // namespace

K8sPreemptionFilter::K8sPreemptionFilter(const Inventory& state, const Request& request)
    : request_(request), run_(std::make_unique<K8sRun>()) {
  const std::vector<StrategyInfo> none;
  StrategyInput in{none, 1, 1, 0, &state, &request, 1, nullptr};
  // One replica: no early result unless the cluster alone is over the
  // profile's work bound, which the request itself was checked against.
  if (k8s_prepare(in, *run_)) {
    prepared_ = false;
    return;
  }
  K8sCluster& cluster = run_->cluster;
  // A victim is found on its node by its labels' address in Inventory::pods.
  for (const RunningPod& p : state.pods.get()) labels_of_.push_back(&p.labels);
  const PodScheduling& self = *run_->pod;
  cycle_.cluster = &cluster;
  k8s_prefilter_spread(cycle_);
  k8s_prefilter_interpod(cycle_);
  cross_node_ = !cycle_.hard_spread.empty() || !self.affinity.required.empty() ||
                !self.anti_affinity.required.empty() || !cycle_.existing_anti_counts.empty();
}

void K8sPreemptionFilter::update(std::uint32_t node, const K8sPod& pod, int delta) {
  k8s_update_spread(cycle_, node, pod, delta);
  k8s_update_interpod(cycle_, node, pod, delta);
}

const K8sPod* K8sPreemptionFilter::find(std::uint32_t node, const Victim& victim) const {
  if (victim.workload) return nullptr;  // §11 workloads have no labels or ports here
  if (victim.index >= labels_of_.size()) return nullptr;
  const Labels* labels = labels_of_[victim.index];
  for (const K8sPod& p : run_->cluster.pods[node])
    if (p.labels == labels) return &p;
  return nullptr;
}

void K8sPreemptionFilter::placed(std::uint32_t node) {
  if (!prepared_) return;
  const PodScheduling& self = *run_->pod;
  const K8sPod pod{&self.ns, &self.labels, &self};
  run_->cluster.pods[node].push_back(pod);
  update(node, pod, +1);
}

void K8sPreemptionFilter::evicted(const Victim& victim) {
  if (!prepared_) return;
  const K8sPod* p = find(victim.node, victim);
  if (p == nullptr) return;
  const K8sPod pod = *p;
  update(victim.node, pod, -1);
  auto& list = run_->cluster.pods[victim.node];
  list.erase(list.begin() + (p - list.data()));
}

FilterVerdict K8sPreemptionFilter::operator()(const Inventory& state, std::uint32_t node,
                                              std::span<const Victim* const> removed) {
  if (!prepared_) return capacity_filter(state, request_, node);
  const K8sRun& run = *run_;
  if (!run.prefiltered_out.empty() && run.prefiltered_out[node])
    return {FilterCode::Unresolvable,
            {std::string(run.terms_conflict ? k8s_reason::kTermsConflict
                                            : k8s_reason::kPreFilterNodeAffinity)}};
  // The dry run's pods off the node: off its list and out of the counts.
  std::vector<K8sPod>& list = run_->cluster.pods[node];
  std::vector<K8sPod> kept;
  std::vector<K8sPod> off;
  // Only NodePorts reads the node's pods and only spread and pod affinity
  // their counts: without either, a dry run's pods need not be taken off.
  const bool take_off = !removed.empty() && (cross_node_ || !run.pod->host_ports.empty());
  if (take_off) {
    kept = list;
    for (const Victim* v : removed)
      if (const K8sPod* p = find(node, *v)) {
        off.push_back(*p);
        list.erase(list.begin() + (p - list.data()));
      }
    for (const K8sPod& p : off) update(node, p, -1);
  }
  static constexpr K8sStatus (*kBefore[])(const K8sCycle&, std::uint32_t) = {
      k8s_filter_node_unschedulable, k8s_filter_node_name, k8s_filter_taint_toleration,
      k8s_filter_node_affinity, k8s_filter_node_ports};
  FilterVerdict out;
  bool done = false;
  for (const auto filter : kBefore) {
    const K8sStatus s = filter(cycle_, node);
    if (!s.ok()) {
      out = verdict_of(s);
      done = true;
      break;
    }
  }
  if (!done) {
    out = capacity_filter(state, request_, node);
    done = out.code != FilterCode::Fits;
  }
  if (!done) {
    K8sStatus s = k8s_filter_spread(cycle_, node);
    if (s.ok()) s = k8s_filter_interpod(cycle_, node);
    if (!s.ok()) out = verdict_of(s);
  }
  if (take_off) {
    for (const K8sPod& p : off) update(node, p, +1);
    list = std::move(kept);
  }
  return out;
}

}  // namespace eruplan
