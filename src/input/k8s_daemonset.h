// A DaemonSet as its controller sees the nodes: one pod on every eligible
// node (nodeName, nodeSelector and required node affinity, taints with the
// tolerations the controller adds to every DaemonSet pod), the eligible
// nodes already running one of its pods being done. load_k8s_manifests.cpp
// reads the DaemonSet, this decides where its pods go; grow (plan/grow.cpp)
// asks it which DaemonSets run on a template node.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model.h"

namespace eruplan {

// The tolerations the DaemonSet controller adds to its pods' template:
// not-ready and unreachable NoExecute; disk-pressure, memory-pressure,
// pid-pressure and unschedulable NoSchedule; network-unavailable NoSchedule
// with hostNetwork. Each with operator Exists.
std::vector<Toleration> daemon_tolerations(bool host_network);

// The controller's predicates for one node: the pod's nodeName (when set)
// is the node's, its nodeSelector and required node affinity match the
// node's labels (kubernetes.io/hostname its name when absent), and every
// NoSchedule or NoExecute taint is tolerated. Resources are not looked at
// (the scheduler's business), nor is a cordon (tolerated).
bool daemon_should_run(const Node& node, const PodScheduling& pod,
                       const std::vector<Toleration>& tolerations);

// Where a DaemonSet's pods go on an inventory.
struct DaemonPlacement {
  std::vector<std::uint32_t> eligible;  // inventory indexes, in inventory order
  std::vector<std::uint32_t> done;      // eligible and running a pod of it
  std::vector<std::uint32_t> wanted;    // eligible and not done: one new pod each
};
// `selector` in namespace `ns` picks the DaemonSet's running pods among
// inventory.pods: `match` is its answer per label set, `sets` each pod's
// label set (PodSelectorMatch; a null `match` picks none). Linear in nodes
// and pods.
DaemonPlacement place_daemon(const Inventory& inventory, const PodScheduling& pod,
                             const std::vector<Toleration>& tolerations, const std::string& ns,
                             const LabelSelector& selector, const std::vector<char>* match,
                             const std::vector<std::uint32_t>& sets);

// Makes `req` a DaemonSet's request: each with count 1 on p.wanted (nodes_limit
// all of them, filter.node_set those nodes); satisfied when p.wanted is empty,
// then over p.done. Without an inventory, count 1 on no set. `names` is the
// inventory's NodeNameTable, made on first use and shared by its DaemonSets.
void daemon_request(Request& req, const DaemonPlacement& p, const Inventory* inventory,
                    std::shared_ptr<const NodeNameTable>& names);

}  // namespace eruplan
