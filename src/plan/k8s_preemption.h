// The kubernetes profile's filters as preemption's ReplicaFilter (SPEC §16,
// §17): kube-scheduler's SelectVictimsOnNode takes the lower-priority pods
// off a node and runs every filter plugin again (NodePorts, NodeResourcesFit,
// PodTopologySpread, InterPodAffinity, ...), the PreFilter's counts updated
// for each pod taken off or given back (the plugins' RemovePod and AddPod).
// This filter does the same over the cluster as the plan stands: the running
// pods less those evicted in this run, plus the replicas placed so far (the
// run's earlier requests' and this one's); the planner tells it of each
// replica placed and each pod evicted after it is made.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "k8s_profile.h"
#include "preemption.h"

namespace eruplan {

class K8sPreemptionFilter {
 public:
  // The cluster as `state` stands: its running pods less those evicted,
  // and the replicas placed so far (Inventory::placed_pods, this request's
  // too).
  K8sPreemptionFilter(const Inventory& state, const Request& request);
  // The plan changed: one more replica on `node`; `victim` evicted.
  void placed(std::uint32_t node);
  void evicted(const Victim& victim);
  // The filters on `node` in kube-scheduler's order, the node's reasons
  // those of the first that rejects it, with the pods `dry` took off (null:
  // none) taken off the node. A dry run's changes are applied as they come
  // (the counts kept from the call before), and taken back at the next call
  // of another dry run, or none, or at placed() and evicted().
  FilterVerdict operator()(const Inventory& state, std::uint32_t node, const DryRun* dry);
  // A pod coming or going on one node can change another node's verdict
  // (spread, pod affinity, anti-affinity either way): verdicts kept per
  // node (PreemptionCache) are stale after every change.
  bool cross_node() const { return cross_node_; }
  // NodeResourcesFit's cores planned so far (CapacityFilter::cores_planned).
  std::int64_t cores_planned() const { return capacity_.cores_planned(); }
  // The work on the cross-node counts so far, in the profile's steps, beyond
  // the flat 150 of a check: for each check, each hard spread constraint
  // (its label looked up), each domain whose count it takes the least of
  // and each required pod affinity term; for each pod moved on or off (a
  // dry run's, a replica placed, a pod evicted), each constraint and term.
  double count_steps() const { return count_steps_; }
  ReplicaFilter as_replica_filter() {
    return [this](const Inventory& inv, std::uint32_t n, const DryRun* dry) {
      return (*this)(inv, n, dry);
    };
  }

 private:
  // Runs `pod` through the PreFilter extensions on `node`.
  void update(std::uint32_t node, const K8sPod& pod, int delta);
  // A running pod's entry in run_->cluster.pods[victim.node]; null for a
  // workload or a pod not found. Entries are never erased: a pod off the
  // node (evicted, or taken off by a dry run) has copies 0.
  K8sPod* find(const Victim& victim);
  // One pod off (-1) or back (+1) for a dry run: its entry and the counts.
  void move(std::uint32_t node, K8sPod& pod, int sign);
  // The dry run's changes since the last call applied (or, for another dry
  // run or none, the applied ones taken back first).
  void follow(std::uint32_t node, const DryRun* dry);
  void settle();

  CapacityFilter capacity_;
  std::unique_ptr<K8sRun> run_;  // K8sRun is not movable
  // Per pod of Inventory::pods, its entry's position in its node's list of
  // run_->cluster.pods (kNoEntry: none): how a victim is found on its node.
  static constexpr std::uint32_t kNoEntry = UINT32_MAX;
  // count_steps(): a check's per hard spread constraint, per domain and per
  // required term; a move's per constraint or term.
  static constexpr double kConstraintSteps = 25, kDomainSteps = 2, kTermSteps = 5;
  static constexpr double kMoveSteps = 20, kMoveTermSteps = 4;
  std::vector<std::uint32_t> entry_of_;
  // The dry run whose changes are applied: its id, node, how many of its
  // changes and which entries moved (position, sign), to take them back.
  std::uint64_t dry_id_ = 0;
  std::uint32_t dry_node_ = 0;
  std::size_t dry_applied_ = 0;
  std::vector<std::pair<std::uint32_t, int>> dry_moved_;
  bool take_off_ = false;  // a dry run's pods are taken off at all (see the constructor)
  bool prepared_ = true;   // false: the capacity pass alone (see the constructor)
  K8sCycle cycle_;
  bool cross_node_ = false;
  double check_steps_ = 0, move_steps_ = 0;  // count_steps() per check, per move
  double count_steps_ = 0;
};

}  // namespace eruplan
