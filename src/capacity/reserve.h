// The reserve stage (SPEC §8.3): placing new instances changes the node they
// land on, so the next request sees them as existing ones. An undo log lets
// a gang (SPEC §8.4) take every member's placement back.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "capacity.h"
#include "model.h"

namespace eruplan {

// Records each node as it was before its first change, to restore it.
class UndoLog {
 public:
  void remember(std::uint32_t index, const Node& node);
  // Puts every remembered node back, newest first, and forgets them.
  void undo(Inventory& inventory);
  void clear() { saved_.clear(); }
  // Takes over `later`'s records, made after this log's: undo() then puts
  // every node back as this log first saw it.
  void absorb(UndoLog&& later) {
    for (auto& saved : later.saved_) saved_.push_back(std::move(saved));
    later.saved_.clear();
  }
  // The nodes remembered (each once), which undo() will change.
  std::vector<std::uint32_t> nodes() const {
    std::vector<std::uint32_t> out;
    out.reserve(saved_.size());
    for (const auto& saved : saved_) out.push_back(saved.first);
    return out;
  }

 private:
  std::vector<std::pair<std::uint32_t, Node>> saved_;
};

// Adds `k` new instances of `request` to inventory.nodes[index]: usage grows
// by k x the request (cpu, memory, storage, extended), each plan's cores,
// NUMA memory and volumes are taken, and instances[app] grows by k. `plans`
// holds the instances' plans in order (the first k of the node's PlanMap), or
// one plan they all share, or none when the request binds nothing.
void reserve(Inventory& inventory, std::uint32_t index, const Request& request, std::int64_t k,
             std::span<const Plan> plans, UndoLog* undo = nullptr);

// reserve() of several requests that bind nothing on one node, each entry
// (request, k) once, with instances[app] merged in one pass: `entries` sorted
// by app, no app twice. The node ends as after one reserve() per entry.
void reserve_counts(Inventory& inventory, std::uint32_t index,
                    std::span<const std::pair<const Request*, std::int64_t>> entries);

// The plan of a node's j-th new instance (SPEC §5): the j-th of its PlanMap,
// or the one shared plan of an unlimited node; null when not materialised.
const Plan* assigned_plan(const NodeCapacity& nc, std::int64_t j);

}  // namespace eruplan
