// The reserve stage (SPEC §8.3): placing new instances changes the node they
// land on, so the next request sees them as existing ones. An undo log lets
// a gang (SPEC §8.4) take every member's placement back.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "capacity.h"
#include "model.h"

namespace eruplan {

// Records each node as it was before its first change, to restore it.
class UndoLog {
 public:
  void remember(std::uint32_t index, const Node& node);
  // Before instances of `app` are added to the node (reserve): the node is
  // remembered without its instance counts, and the app's count before
  // (none: the app had no entry), so that the node's list is not copied
  // (nor kept twice) for each request of a gang: undo() puts the counts
  // back app by app.
  void remember_added(std::uint32_t index, const Node& node, const std::string& app);
  // Puts every remembered node back, newest first, and forgets them.
  void undo(Inventory& inventory);
  void clear() {
    saved_.clear();
    newest_.clear();
  }
  // Takes over `later`'s records, made after this log's: undo() then puts
  // every node back as this log first saw it.
  void absorb(UndoLog&& later) {
    for (auto& saved : later.saved_) {
      newest_[saved.index] = saved_.size();
      saved_.push_back(std::move(saved));
    }
    later.clear();
  }
  // The nodes remembered (each once), which undo() will change.
  std::vector<std::uint32_t> nodes() const {
    std::vector<std::uint32_t> out;
    out.reserve(saved_.size());
    for (const auto& saved : saved_) out.push_back(saved.index);
    return out;
  }

 private:
  struct Saved {
    std::uint32_t index = 0;
    Node node;
    // remember_added: `node` without its instances; the counts changed
    // since, each as it was (nullopt: no entry). A change after a newer
    // record of the node is that record's, so these are all this record's.
    bool counts_only = false;
    std::size_t listed = 0;  // counts_only: the apps the node listed then
    std::vector<std::pair<std::string, std::optional<std::int64_t>>> counts;
  };
  // The newest record of inventory node `index`, or null.
  Saved* newest(std::uint32_t index);
  void keep_whole(Saved& s, const Node& node);
  std::vector<Saved> saved_;
  std::unordered_map<std::uint32_t, std::size_t> newest_;  // node index -> its newest record
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
