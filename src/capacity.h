// The capacity pass (SPEC §4): per node, how many instances fit, the concrete
// resources each would bind (PlanMap), the reason when none fit, and the
// usage and rate the global and drained strategies weigh.
//
// Each resource dimension lives in its own file behind the same shape: given
// a node and the request it returns a DimensionResult.
//   memory.cpp       memory mode (cpu_bind false): cores check + memory
//   storage.cpp      storage
//   cpu_plans.cpp    CPU-bind mode: core plans, NUMA, capped by memory
//   volume_plans.cpp scheduled (AUTO) volumes
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "model.h"

namespace eruplan {

inline constexpr std::int64_t kUnlimited = std::numeric_limits<std::int64_t>::max();

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
  std::vector<CoreShare> cpu;  // sorted by core index; whole cores share_base each,
                               // at most one core with the fractional pieces
  int numa = -1;               // index into Node::numa_nodes; -1 = across NUMA nodes / none
  std::vector<VolumeShare> volumes;  // by binding index, then device index
};

// One dimension's verdict on one node.
struct DimensionResult {
  std::int64_t capacity = kUnlimited;  // kUnlimited when this dimension does not limit
  std::string reason;                  // when capacity is 0: "memory: 300Mi available, 512Mi per instance"
  std::vector<Plan> plans;  // for binding dimensions: exactly min(capacity, max_plans)
                            // plans, or one shared plan when unlimited
  bool binds = false;       // this dimension produces plans
};

struct NodeCapacity {
  std::uint32_t node = 0;              // index into Inventory::nodes
  std::int64_t capacity = 0;           // kUnlimited when nothing limits
  std::string reason;                  // why capacity is 0; empty otherwise
  std::vector<Plan> plans;             // PlanMap entry; empty when nothing binds
  std::int64_t existing = 0;           // running instances of the request's app
  double usage = 0;                    // SPEC §4 "Usage and rate"
  double rate = 0;
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
struct CapacityOptions {
  std::int64_t max_plans = kDefaultMaxPlans;
};

CapacityMap capacity_pass(const Inventory& inventory, const Request& request,
                          const CapacityOptions& options = {});

// One node's entry of the CapacityMap (capacity_pass calls this per node);
// used again when a node must list more plans than the default cap.
NodeCapacity node_capacity(const Inventory& inventory, const Request& request,
                           std::uint32_t index, const CapacityOptions& options);

// The dimensions, one file each.
DimensionResult memory_dimension(const Node& node, const Request& request);
DimensionResult storage_dimension(const Node& node, const Request& request);
DimensionResult cpu_dimension(const Node& node, const Inventory& inventory,
                              const Request& request, std::int64_t max_plans);
DimensionResult volume_dimension(const Node& node, const Request& request,
                                 std::int64_t max_plans);

// A dimension that divides what is available by what each instance takes:
// unlimited when nothing is asked, else floor(available / per_instance), with
// a reason such as "memory: 300Mi available, 512Mi per instance" at 0.
DimensionResult divide_bytes(const char* what, Bytes available, Bytes per_instance);

// Human-readable byte sizes for reasons and tables: 314572800 -> "300Mi",
// 1500 -> "1500" (exact binary suffix when it divides, else plain bytes).
std::string format_bytes(Bytes bytes);
// 1500000000 nanocores -> "1.5"
std::string format_cores(NanoCores cpu);

}  // namespace eruplan
