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
#include "pipeline.h"
#include "render.h"

namespace eruplan {

enum class CpuBindChange { Keep, Bind, Unbind };  // cpu_bind: keep | true | false

// The realloc request as written: which workloads, and the deltas.
struct ReallocRequest {
  std::vector<std::string> ids;  // `workloads:`, file order
  std::vector<Origin> id_origins;
  std::optional<std::string> app;  // `app:`: every workload of it
  Origin app_origin;
  NanoCores cpu = 0, cpu_limit = 0;  // signed deltas
  Bytes memory = 0, memory_limit = 0;
  CpuBindChange cpu_bind = CpuBindChange::Keep;
  Origin origin;  // the file's root, for problems that belong to no field
};

// load_realloc.cpp: every problem of the file itself goes to `diags`; the
// request comes back (as far as it was read) whenever the document parsed,
// so select_workloads can add its problems to the same list.
std::optional<ReallocRequest> load_realloc(const Source& source, Diagnostics& diags);

// A workload's resources, normalised (SPEC §3); cpu_map empty when unbound.
struct WorkloadResources {
  NanoCores cpu = 0, cpu_limit = 0;
  Bytes memory = 0, memory_limit = 0;
  NamedList<Pieces> cpu_map;  // natural core order
  int numa = -1;

  bool bound() const { return !cpu_map.empty(); }
};

enum class ReallocStatus { Ok, Failed, NotApplied };
std::string_view realloc_status_name(ReallocStatus s);  // ok, failed, not_applied

struct WorkloadChange {
  std::uint32_t node = 0;      // index into Inventory::nodes
  std::uint32_t workload = 0;  // index into Node::workloads
  std::string id, app;
  WorkloadResources before, after;  // after: what it asks for until done, then what it got
  bool bind = false;                // after the change, bound to cores
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
};

// Step 1 of §11: the selected workloads with their new resources, or
// nullopt with every problem in `diags` (unknown or repeated ids, nothing
// selected, a negative result, binding with cpu 0 or a fractional piece
// count).
std::optional<std::vector<WorkloadChange>> select_workloads(const Inventory& inventory,
                                                            const ReallocRequest& request,
                                                            Diagnostics& diags);

// Steps 2-3 of §11: changes `inventory` in place (nothing, with `atomic`,
// when a group fails).
ReallocResult realloc(Inventory& inventory, std::vector<WorkloadChange> selected, bool atomic);

// §11's document (JSON/YAML) or a table per node. `error` is §13's failure
// document to add as the `error` member, or empty.
std::string render_realloc(const Inventory& inventory, const ReallocResult& result,
                           OutputFormat format, const std::string& error);

struct ReallocOptions {
  Source nodes;                // an inventory, or a Kubernetes node list (SPEC §12)
  std::optional<Source> pods;  // --pods: each running pod is also a workload
  KubernetesOptions kubernetes;
  Source request;
  OutputFormat output = OutputFormat::Table;
  bool atomic = false;
  bool strict = false;  // --strict: unknown fields are errors (SPEC §13)
  std::optional<OutputFormat> save_inventory;
};

// RunResult::inventory holds the inventory after the realloc.
struct ReallocRun : RunResult {
  std::optional<ReallocResult> realloc;
};

// load -> select -> realloc -> render, with §6's exit codes: 0 when every
// group succeeds, 4 otherwise, 3 for invalid input.
ReallocRun run_realloc(const ReallocOptions& options);

}  // namespace eruplan
