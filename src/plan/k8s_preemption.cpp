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
#include <unordered_map>

namespace eruplan {

namespace {

FilterVerdict verdict_of(const K8sStatus& status) {
  return {status.unresolvable ? FilterCode::Unresolvable : FilterCode::Unschedulable,
          status.reasons};
}

}  // namespace

K8sPreemptionFilter::K8sPreemptionFilter(const Inventory& state, const Request& request)
    : capacity_(request), run_(std::make_unique<K8sRun>()) {
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
  const std::vector<RunningPod>& pods = state.pods.get();
  std::unordered_map<const Labels*, std::uint32_t> index_of;
  index_of.reserve(pods.size());
  for (std::uint32_t i = 0; i < pods.size(); ++i) index_of.emplace(&pods[i].labels, i);
  entry_of_.assign(pods.size(), kNoEntry);
  for (const std::vector<K8sPod>& list : cluster.pods)
    for (std::uint32_t at = 0; at < list.size(); ++at)
      if (const auto it = index_of.find(list[at].labels); it != index_of.end())
        entry_of_[it->second] = at;
  const PodScheduling& self = *run_->pod;
  cycle_.cluster = &cluster;
  k8s_prefilter_spread(cycle_);
  k8s_prefilter_interpod(cycle_);
  cross_node_ = !cycle_.hard_spread.empty() || !self.affinity.required.empty() ||
                !self.anti_affinity.required.empty() || !cycle_.existing_anti_counts.empty();
  // Only NodePorts reads the node's pods and only spread and pod affinity
  // their counts: without either, a dry run's pods need not be taken off.
  take_off_ = cross_node_ || !self.host_ports.empty();
  // count_steps()'s weights, measured: 200 constraints over 40 hostnames
  // and 8 zones (5,000 domains) take about 65 us a check with its moves,
  // 23,000 steps; spread over 100 to 200 nodes, 100 to 600 constraints,
  // the bound is reached in 0.8 to 1.2 s. A required anti-affinity term is
  // a lookup of one count: 100 of them, about 5 us a check with its moves.
  std::size_t domains = 0;
  for (const auto& counts : cycle_.spread_counts) domains += counts.size();
  const auto terms =
      static_cast<double>(self.affinity.required.size() + self.anti_affinity.required.size());
  move_steps_ =
      kMoveSteps * static_cast<double>(cycle_.hard_spread.size()) + kMoveTermSteps * terms;
  check_steps_ = kConstraintSteps * static_cast<double>(cycle_.hard_spread.size()) +
                 kDomainSteps * static_cast<double>(domains) + kTermSteps * terms;
}

void K8sPreemptionFilter::update(std::uint32_t node, const K8sPod& pod, int delta) {
  k8s_update_spread(cycle_, node, pod, delta);
  k8s_update_interpod(cycle_, node, pod, delta);
}

K8sPod* K8sPreemptionFilter::find(const Victim& victim) {
  if (victim.workload) return nullptr;  // §11 workloads have no labels or ports here
  if (victim.index >= entry_of_.size() || entry_of_[victim.index] == kNoEntry) return nullptr;
  std::vector<K8sPod>& list = run_->cluster.pods[victim.node];
  const std::uint32_t at = entry_of_[victim.index];
  return at < list.size() ? &list[at] : nullptr;
}

void K8sPreemptionFilter::move(std::uint32_t node, K8sPod& pod, int sign) {
  if ((sign < 0) != (pod.copies > 0)) return;  // already off (or on)
  count_steps_ += move_steps_;
  K8sPod one = pod;
  one.copies = 1;
  pod.copies = sign < 0 ? 0 : 1;
  update(node, one, sign);
}

void K8sPreemptionFilter::settle() {
  std::vector<K8sPod>& list = run_->cluster.pods[dry_node_];
  for (auto it = dry_moved_.rbegin(); it != dry_moved_.rend(); ++it)
    move(dry_node_, list[it->first], -it->second);
  dry_moved_.clear();
  dry_id_ = 0;
  dry_applied_ = 0;
}

void K8sPreemptionFilter::follow(std::uint32_t node, const DryRun* dry) {
  if (dry == nullptr || !take_off_) {
    if (!dry_moved_.empty() || dry_id_ != 0) settle();
    return;
  }
  if (dry->id != dry_id_ || node != dry_node_ || dry->changes.size() < dry_applied_) {
    settle();
    dry_id_ = dry->id;
    dry_node_ = node;
  }
  std::vector<K8sPod>& list = run_->cluster.pods[node];
  for (; dry_applied_ < dry->changes.size(); ++dry_applied_) {
    const auto& [victim, sign] = dry->changes[dry_applied_];
    if (victim->node != node) continue;
    K8sPod* p = find(*victim);
    if (p == nullptr || (sign < 0) != (p->copies > 0)) continue;
    move(node, *p, sign);
    dry_moved_.push_back({static_cast<std::uint32_t>(p - list.data()), sign});
  }
}

void K8sPreemptionFilter::placed(std::uint32_t node) {
  if (!prepared_) return;
  settle();
  const PodScheduling& self = *run_->pod;
  const K8sPod pod{&self.ns, &self.labels, &self};
  run_->cluster.pods[node].push_back(pod);
  update(node, pod, +1);
}

void K8sPreemptionFilter::evicted(const Victim& victim) {
  if (!prepared_) return;
  settle();
  if (K8sPod* p = find(victim)) move(victim.node, *p, -1);
}

FilterVerdict K8sPreemptionFilter::operator()(const Inventory& state, std::uint32_t node,
                                              const DryRun* dry) {
  if (!prepared_) return capacity_(state, node, dry);
  const K8sRun& run = *run_;
  if (!run.prefiltered_out.empty() && run.prefiltered_out[node])
    return {FilterCode::Unresolvable,
            {std::string(run.terms_conflict ? k8s_reason::kTermsConflict
                                            : k8s_reason::kPreFilterNodeAffinity)}};
  // The dry run's pods off the node: out of the counts, their entries
  // marked off (copies 0).
  follow(node, dry);
  count_steps_ += check_steps_;
  static constexpr K8sStatus (*kBefore[])(const K8sCycle&, std::uint32_t) = {
      k8s_filter_node_unschedulable, k8s_filter_node_name, k8s_filter_taint_toleration,
      k8s_filter_node_affinity, k8s_filter_node_ports};
  for (const auto filter : kBefore)
    if (const K8sStatus s = filter(cycle_, node); !s.ok()) return verdict_of(s);
  FilterVerdict out = capacity_(state, node, dry);
  if (out.code != FilterCode::Fits) return out;
  K8sStatus s = k8s_filter_spread(cycle_, node);
  if (s.ok()) s = k8s_filter_interpod(cycle_, node);
  if (!s.ok()) out = verdict_of(s);
  return out;
}

}  // namespace eruplan
