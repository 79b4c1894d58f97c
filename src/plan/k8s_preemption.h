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
  // those of the first that rejects it, with `removed` taken off the node.
  FilterVerdict operator()(const Inventory& state, std::uint32_t node,
                           std::span<const Victim* const> removed);
  // A pod coming or going on one node can change another node's verdict
  // (spread, pod affinity, anti-affinity either way): verdicts kept per
  // node (PreemptionCache) are stale after every change.
  bool cross_node() const { return cross_node_; }
  ReplicaFilter as_replica_filter() {
    return [this](const Inventory& inv, std::uint32_t n, std::span<const Victim* const> removed) {
      return (*this)(inv, n, removed);
    };
  }

 private:
  // Runs `pod` through the PreFilter extensions on `node`.
  void update(std::uint32_t node, const K8sPod& pod, int delta);
  const K8sPod* find(std::uint32_t node, const Victim& victim) const;

  const Request& request_;
  std::unique_ptr<K8sRun> run_;  // K8sRun is not movable
  // Per pod of Inventory::pods, its labels as the cluster's K8sPods point
  // at them: how a victim is found on its node.
  std::vector<const Labels*> labels_of_;
  bool prepared_ = true;  // false: the capacity pass alone (see the constructor)
  K8sCycle cycle_;
  bool cross_node_ = false;
};

}  // namespace eruplan
