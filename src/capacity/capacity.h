// The capacity pass (SPEC §4): per node, how many instances fit, the concrete
// resources each would bind (PlanMap), the reason when none fit, and the
// usage and rate the global and drained strategies weigh.
//
// Each resource dimension lives in its own file behind the same shape: given
// a node and the request it returns a DimensionResult (see kDimensions in
// capacity.cpp for the table).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model.h"
#include "parallel.h"
#include "units.h"

namespace eruplan {

inline constexpr std::int64_t kUnlimited = std::numeric_limits<std::int64_t>::max();

// A capacity or count as users read it: "unlimited" for kUnlimited.
inline std::string count_text(std::int64_t n) {
  return n == kUnlimited ? "unlimited" : std::to_string(n);
}

struct CoreShare {
  std::uint32_t core = 0;  // index into Node::cores
  Pieces pieces = 0;
};

struct VolumeShare {
  std::uint32_t binding = 0;  // index into Request::volumes
  std::uint32_t device = 0;   // index into Node::devices
  Bytes size = 0;             // bytes taken; for an unlimited quota, 0
};

// What one instance would bind. Empty parts mean "binds nothing there".
struct Plan {
  std::vector<CoreShare> cpu;        // sorted by core index; whole cores share_base each,
                                     // at most one core with the fractional pieces
  int numa = -1;                     // index into Node::numa_nodes; -1 = across NUMA nodes / none
  std::vector<VolumeShare> volumes;  // by binding index, then device index
};

// Why a node takes no instance, as data (SPEC §8.5): the dimension that
// stops it, what is available and what one instance needs; turned into words
// only when shown (format_reason).
enum class Quantity : std::uint8_t { Bytes, Cores, Count };
struct Reason {
  std::string
      dimension;  // the kind: "memory", "cpu", "nvidia.com/gpu", "taint", "not available", ...
  Quantity unit = Quantity::Count;
  std::int64_t available = 0;
  std::int64_t per_instance = 0;
  std::string detail;  // when set, the words after "dimension: " (cpu plans, volumes, taints)

  static Reason amounts(std::string dimension, Quantity unit, std::int64_t available,
                        std::int64_t per_instance) {
    return Reason{std::move(dimension), unit, available, per_instance, {}};
  }
  static Reason words(std::string dimension, std::string detail) {
    return Reason{std::move(dimension), Quantity::Count, 0, 0, std::move(detail)};
  }
};

// "memory: 300Mi available, 512Mi per instance"; "not available".
std::string format_reason(const Reason& reason);
// Every reason of a node, joined by "; ".
std::string format_reasons(const std::vector<Reason>& reasons);
// SPEC §8.5: the kinds of a node's reasons, each once, in the order
// not available, taint, cpu, memory, storage, volumes, extended names (byte
// order), instances.
std::vector<std::string> reason_kinds(const std::vector<Reason>& reasons);
bool reason_kind_less(std::string_view a, std::string_view b);

// One dimension's verdict on one node.
struct DimensionResult {
  std::int64_t capacity = kUnlimited;  // kUnlimited when this dimension does not limit
  std::vector<Reason> reasons;         // when capacity is 0
  std::vector<Plan> plans;             // for binding dimensions: exactly min(capacity, max_plans)
                                       // plans, or one shared plan when unlimited
  bool binds = false;                  // this dimension produces plans

  void stop(Reason reason) {
    capacity = 0;
    reasons.push_back(std::move(reason));
  }
  std::string reason() const { return format_reasons(reasons); }
};

struct NodeCapacity {
  std::uint32_t node = 0;      // index into Inventory::nodes
  std::int64_t capacity = 0;   // kUnlimited when nothing limits
  SparseList<Reason> reasons;  // why capacity is 0; empty otherwise
  SparseList<Plan> plans;      // PlanMap entry; empty when nothing binds
  std::int64_t existing = 0;   // running instances of the request's app
  double usage = 0;            // SPEC §4 "Usage and rate"
  double rate = 0;
  std::uint64_t revision = 0;  // the node's revision this entry was computed at

  std::string reason() const { return format_reasons(reasons); }
};

struct CapacityMap {
  std::vector<NodeCapacity> nodes;  // sorted by node name (byte order); filtered-out nodes absent
  std::int64_t total = 0;           // sum of capacities; kUnlimited if any is
  bool binds = false;               // plans are meaningful (CPU-bind or AUTO volumes)
};

// Upper bound on the plans materialised per node; the capacity is computed
// exactly regardless. A node whose capacity runs to millions (1-byte volumes
// on a terabyte device) would otherwise list them all.
inline constexpr std::int64_t kDefaultMaxPlans = 100'000;
// Bounded work: the binding plans one run lists in its PlanMaps or gives to
// new instances (each instance of a binding request gets its own plan) are
// at most 4,096, or one per 4 bytes of the run's input when that is more,
// each plan weighing one per 2 cores and one per volume it binds
// (plan_weight). A PlanMap shares its part evenly among the inventory's
// nodes (the capacity stays exact; a warning says where a list was cut).
inline constexpr std::int64_t kMinPlanBudget = 4096;
inline std::int64_t plan_budget(std::uint64_t input_bytes) {
  const std::uint64_t by_input = input_bytes / 4;
  return by_input > static_cast<std::uint64_t>(kMinPlanBudget) ? static_cast<std::int64_t>(by_input)
                                                               : kMinPlanBudget;
}
// A plan's weight: one per 2 cores it binds (started) and one per volume,
// at least 1, so that the memory and output of the plans a budget allows
// follow the budget (a volume's binding, device and size take about what 2
// cores do).
inline constexpr std::int64_t kPlanCoresPerWeight = 2;
// Bounded memory: binding a core of a node given as a core count lists its
// cores one by one (Node::list_cores, 24 bytes a core); the budget
// counts one per 8 cores so listed (started): with a plan's budget of one
// per 4 bytes of input, 2 cores (48 bytes) per byte at most.
inline constexpr std::int64_t kListedCoresPerPlan = 8;
std::int64_t plan_weight(const Request& request);
// Why `n` new instances of binding `request` pass a budget of `budget` plans.
// `listed`: plans' worth of cores listed one by one to bind them (nodes
// given as a core count), said when they are what passes the budget.
std::string too_many_bound(const Request& request, std::int64_t n, std::int64_t budget,
                           std::int64_t listed = 0);
// The largest plan_weight of `requests` (1 when none).
std::int64_t heaviest_plan(const std::vector<Request>& requests);
// Plans listed per node when `budget` plans are shared among `nodes` nodes
// and `requests` requests whose heaviest plan weighs `weight`: at most
// kDefaultMaxPlans; at least 1 when plans weigh 1 (their memory follows the
// nodes), else possibly none.
inline std::int64_t plans_per_node(std::int64_t budget, std::size_t nodes, std::size_t requests,
                                   std::int64_t weight = 1) {
  const auto parts = static_cast<std::int64_t>(std::max<std::size_t>(nodes, 1)) *
                     static_cast<std::int64_t>(std::max<std::size_t>(requests, 1)) *
                     std::max<std::int64_t>(weight, 1);
  return std::clamp<std::int64_t>(budget / parts, weight > 1 ? 0 : 1, kDefaultMaxPlans);
}
// What a CPU-bind request's core plans come to on one node's cores as they
// stand, memory aside: whether each NUMA node's cores hold a plan, and all
// the cores together (core_fit, cpu_plans.cpp). It stays true while the
// cores stay as they are, whatever the node's memory does.
struct CoreFit {
  std::vector<bool> numa;  // per Node::numa_nodes
  bool across = false;
};

struct CapacityOptions {
  std::int64_t max_plans = kDefaultMaxPlans;
  unsigned jobs = 1;  // threads for the per-node map (SPEC §9 --jobs); output never depends on it
  // Set: only whether one instance fits is asked (capacity 1 or 0, no
  // plans), a CPU-bind request's cores answered by this CoreFit of the
  // node instead of being planned again (preemption's dry runs).
  const CoreFit* core_fit = nullptr;
};

CapacityMap capacity_pass(const Inventory& inventory, const Request& request,
                          const CapacityOptions& options = {});

// The nodes `filter` keeps, as indexes into inventory.nodes, by name.
std::vector<std::uint32_t> filtered_nodes(const Inventory& inventory, const NodeFilter& filter);
// A CapacityMap total: adds a node's capacity, kUnlimited absorbing, saturating below it.
void add_capacity(std::int64_t& total, std::int64_t capacity);
// The request binds concrete resources (CPU cores or AUTO volumes): plans matter.
bool binds_anything(const Request& request);

// One node's entry of the CapacityMap (capacity_pass calls this per node);
// used again when a node must list more plans than the default cap.
NodeCapacity node_capacity(const Inventory& inventory, const Request& request, std::uint32_t index,
                           const CapacityOptions& options);

// The dimensions (SPEC §4, §8.1, §8.2, §9), one file each, all behind one
// signature, and their table (kDimensions, below), which capacity.cpp folds
// into a node's capacity, plans and reasons. A new resource kind is one file
// and, here, its declaration and its row.
struct DimensionInput {
  const Inventory& inventory;
  const Node& node;
  const Request& request;
  std::int64_t max_plans;
  const CoreFit* core_fit = nullptr;  // CapacityOptions::core_fit
};
using DimensionFn = DimensionResult (*)(const DimensionInput&);

DimensionResult taint_dimension(const DimensionInput&);  // taints.cpp
DimensionResult cpu_dimension(
    const DimensionInput&);  // cpu.cpp: cores check, CPU fit, or cpu plans
DimensionResult memory_dimension(const DimensionInput&);     // memory.cpp (memory mode)
DimensionResult storage_dimension(const DimensionInput&);    // storage.cpp
DimensionResult volumes_dimension(const DimensionInput&);    // volume_plans.cpp
DimensionResult extended_dimension(const DimensionInput&);   // extended.cpp
DimensionResult instances_dimension(const DimensionInput&);  // instances.cpp (max_instances)
// A manifest's node affinity, host ports and self anti-affinity by hostname
// (pod_constraints.cpp), for every strategy but the kubernetes profile.
DimensionResult pod_constraints_dimension(const DimensionInput&);

// The extended resources that stop a node holding `cap` new instances from
// taking one more: those that allow exactly `cap` (extended.cpp).
void extended_full_kinds(const DimensionInput& in, std::int64_t cap,
                         std::vector<std::string>& kinds);

// A row of the dimension table.
struct DimensionRow {
  DimensionFn capacity;
  // The kind a full node names (score's "Insufficient <kind>" for a node
  // holding `cap` new instances) when this dimension alone allows exactly
  // `cap`; empty when it names none there (taints and the pod's constraints
  // allow none or any number).
  std::string_view kind;
  // Instead of `kind`: the kinds this dimension names for a full node.
  void (*full_kinds)(const DimensionInput& in, std::int64_t cap,
                     std::vector<std::string>& kinds) = nullptr;
};

// The dimension table. Rows come in SPEC §8.5's reason order, so a node's
// reasons read in that order too.
inline constexpr DimensionRow kDimensions[] = {
    {taint_dimension, ""},
    {pod_constraints_dimension, ""},
    {cpu_dimension, "cpu"},
    {memory_dimension, "memory"},
    {storage_dimension, "storage"},
    {volumes_dimension, "volumes"},
    {extended_dimension, "", extended_full_kinds},
    {instances_dimension, "instances"},
};

// Scheduled (AUTO) volume plans (volume_plans.cpp).
DimensionResult volume_dimension(const Node& node, const Request& request, std::int64_t max_plans);
// The same by the simple computation of the monopoly plans (every count in
// turn, the leftover devices found afresh for each), for tests.
DimensionResult volume_dimension_by_scan(const Node& node, const Request& request,
                                         std::int64_t max_plans);
// The steps the volume plans (volume_dimension) have taken on this thread so
// far: device visits, sort and search steps, a few nanoseconds each. Work
// bounds charge the difference across a call, so a node of many devices
// counts for what its plans cost.
std::int64_t volume_plan_steps();

// "dedicated=gpu:NoSchedule", "key:NoExecute" when the taint has no value.
std::string taint_text(const Taint& taint);
// The first NoSchedule or NoExecute taint of the node, in its order, that no
// toleration of the request matches; nullptr when the request may run there.
const Taint* untolerated_taint(const Node& node, const Request& request);  // taints.cpp

// CPU-bind mode's core plans, capped by memory (cpu_plans.cpp).
DimensionResult cpu_plans_dimension(const Node& node, const Inventory& inventory,
                                    const Request& request, std::int64_t max_plans);
// The node's CoreFit for `request` (cpu_bind): what one cpu_plans_dimension
// call costs, sorting every core. Empty (nullopt) when the request's CPU is
// no plan shape at all, which cpu_plans_dimension answers at once.
std::optional<CoreFit> core_fit(const Node& node, const Inventory& inventory,
                                const Request& request);
// cpu_plans_dimension's answer to "does one instance fit" from the node's
// CoreFit and its memory as it stands now: capacity 1 or 0, the same
// reasons at 0, no plans. Costs a look at each NUMA node, not each core.
DimensionResult cpu_plans_fit_one(const Node& node, const Inventory& inventory,
                                  const Request& request, const CoreFit& fit);

// A dimension that divides what is available by what each instance takes:
// unlimited when nothing is asked, else floor(available / per_instance), with
// a reason such as "memory: 300Mi available, 512Mi per instance" at 0.
DimensionResult divide(const char* what, Quantity unit, std::int64_t available,
                       std::int64_t per_instance);
inline DimensionResult divide_bytes(const char* what, Bytes available, Bytes per_instance) {
  return divide(what, Quantity::Bytes, available, per_instance);
}

}  // namespace eruplan
