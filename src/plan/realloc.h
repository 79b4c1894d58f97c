// Realloc (SPEC §11, Eru's realloc; seed 001 "实时重分配"): change the
// resources of running workloads in place by deltas. The workloads are
// grouped by node and new resources; each group gives its old resources back
// to its node, then the capacity pass (memory mode semantics, no CPU fit)
// must find room for the whole group, or the group keeps what it had.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "diagnostics.h"
#include "kubernetes.h"
#include "load.h"
#include "model.h"
#include "names.h"
#include "realloc_spec.h"

namespace eruplan {

// A workload's resources, normalised (SPEC §3); cpu_map empty when unbound.
struct WorkloadResources {
  NanoCores cpu = 0, cpu_limit = 0;
  Bytes memory = 0, memory_limit = 0;
  NamedList<Pieces> cpu_map;  // natural core order
  int numa = -1;

  bool bound() const { return !cpu_map.empty(); }
};

enum class ReallocStatus { Ok, Failed, NotApplied };
inline constexpr Named<ReallocStatus> kReallocStatusNames[] = {
    {ReallocStatus::Ok, "ok"},
    {ReallocStatus::Failed, "failed"},
    {ReallocStatus::NotApplied, "not_applied"}};
inline std::string_view realloc_status_name(ReallocStatus s) {
  return name_of(kReallocStatusNames, s);
}

struct WorkloadChange {
  std::uint32_t node = 0;      // index into Inventory::nodes
  std::uint32_t workload = 0;  // index into Node::workloads
  std::string id, app;
  WorkloadResources before, after;  // after: what it asks for until done, then what it got
  bool bind = false;                // after the change, bound to cores
  bool cpu_fit = false;             // a pod from --pods: resized with CPU fit
  ReallocStatus status = ReallocStatus::Ok;
  std::string reason;  // failed only
};

// A node's usage as §11's document shows it.
struct NodeUsage {
  NanoCores cpu = 0;
  Bytes memory = 0;
  NamedList<Pieces> cpu_map;  // cores with pieces in use, natural order
};
NodeUsage node_usage(const Node& node);

struct NodeChange {
  std::uint32_t node = 0;
  NodeUsage before, after;
};

struct ReallocResult {
  std::vector<WorkloadChange> workloads;  // by id (byte order)
  std::vector<NodeChange> nodes;          // the nodes holding them, by name
  std::int64_t groups = 0, failed_groups = 0;
  // Set when the groups' plans passed the run's allowance (realloc's
  // plan_allowance): the groups after it were not tried, and the run ends
  // with exit 3 saying this.
  std::string too_large;
};

// The plans a run's capacity passes may list, each weighing plan_weight:
// kReallocPlansPerBudget times the run's plan_budget. A group whose members
// bind and held cores lists every plan of the node (up to kDefaultMaxPlans)
// to find the one keeping most of each member's old cores; one that held
// none needs a plan per member.
inline constexpr std::int64_t kReallocPlansPerBudget = 64;

// Step 1 of §11: the selected workloads with their new resources, or
// nullopt with every problem in `diags` (unknown or repeated ids, nothing
// selected, a negative result, binding with cpu 0 or a fractional piece
// count).
std::optional<std::vector<WorkloadChange>> select_workloads(const Inventory& inventory,
                                                            const ReallocRequest& request,
                                                            Diagnostics& diags);

// Why the changes pass the run's bounds, empty when they do not: binding on
// a node given as a core count lists its cores (Node::list_cores), at most
// `listed_cores` more (listed_core_budget less the inventory's own).
std::string realloc_too_large(const Inventory& inventory,
                              const std::vector<WorkloadChange>& selected,
                              std::int64_t listed_cores);

// Steps 2-3 of §11: changes `inventory` in place (nothing, with `atomic`,
// when a group fails).
ReallocResult realloc(Inventory& inventory, std::vector<WorkloadChange> selected, bool atomic,
                      std::int64_t plan_allowance = INT64_MAX);

}  // namespace eruplan
