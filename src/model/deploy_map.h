// The DeployMap (SPEC §6): new instances per node. A count list only means
// something next to the list of nodes it is parallel to, so that list is part
// of the type: a strategy's result counts per strategy input (its infos), a
// request's outcome per node of its capacity pass, and one cannot be handed
// where the other is meant; moving counts between them goes through the
// index that maps one list onto the other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

namespace eruplan {

// Counts parallel to the node list `Nodes` names (a tag type, never defined).
template <class Nodes>
class NodeCounts {
 public:
  NodeCounts() = default;
  // `nodes` zeros: nothing placed on any node yet.
  explicit NodeCounts(std::size_t nodes) : counts_(nodes, 0) {}
  // The counts given, in the order of the nodes.
  NodeCounts(std::initializer_list<std::int64_t> counts) : counts_(counts) {}
  explicit NodeCounts(std::vector<std::int64_t> counts) : counts_(std::move(counts)) {}

  // Nothing placed on any of `nodes` nodes.
  void assign(std::size_t nodes, std::int64_t count) { counts_.assign(nodes, count); }
  // Nothing placed, on as many nodes as before.
  void clear_counts() { counts_.assign(counts_.size(), 0); }

  std::size_t size() const { return counts_.size(); }
  bool empty() const { return counts_.empty(); }
  std::int64_t& operator[](std::size_t i) { return counts_[i]; }
  std::int64_t operator[](std::size_t i) const { return counts_[i]; }
  // The count at `i`, 0 past the end (a node the map does not cover).
  std::int64_t at_or_zero(std::size_t i) const { return i < counts_.size() ? counts_[i] : 0; }

  auto begin() const { return counts_.begin(); }
  auto end() const { return counts_.end(); }

  bool operator==(const NodeCounts&) const = default;

 private:
  std::vector<std::int64_t> counts_;
};

// Tags: the lists a DeployMap can be parallel to.
struct CapacityNodes;   // CapacityMap::nodes, the capacity pass's nodes
struct StrategyInfos;   // a strategy's input (StrategyInput::infos)
struct InventoryNodes;  // Inventory::nodes, in the inventory's order

// New instances per node of a capacity pass (RequestOutcome, the documents).
using DeployMap = NodeCounts<CapacityNodes>;
// New instances per strategy input, as a strategy returns them.
using InfoDeployMap = NodeCounts<StrategyInfos>;
// New instances per node of an inventory, in its order (the HTML report).
using InventoryDeployMap = NodeCounts<InventoryNodes>;

}  // namespace eruplan
