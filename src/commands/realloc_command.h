// `eruplan realloc` as a command: load, select, realloc, render.
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "eruplan_fields.h"
#include "kubernetes.h"
#include "pipeline.h"
#include "realloc.h"
#include "render.h"

namespace eruplan {

// §11's document (JSON/YAML) or a table per node. `error` is §13's failure
// document to add as the `error` member, or empty.
std::string render_realloc(const Inventory& inventory, const ReallocResult& result,
                           OutputFormat format, const std::string& error);

// realloc's request flags: each replaces its field of the request file (or
// makes the request without one). Deltas as written ("-0.5", "+512Mi").
struct ReallocFlags {
  std::vector<std::string> workloads;  // --workload ID (repeatable): replaces the selection
  std::optional<std::string> app;      // --app: replaces the selection
  // The signed deltas, by kReallocDeltas' rows (--cpu, --cpu-limit, ...).
  std::array<std::optional<std::string>, kReallocDeltas.size()> deltas;
  std::optional<std::string> cpu_bind;  // keep, true or false
  bool empty() const {
    return workloads.empty() && !app && !cpu_bind &&
           std::none_of(deltas.begin(), deltas.end(), [](const auto& d) { return d.has_value(); });
  }
};

struct ReallocOptions {
  Source nodes;                   // an inventory, or a Kubernetes node list (SPEC §12)
  std::optional<Source> pods;     // --pods: each running pod is also a workload
  std::vector<Source> more_pods;  // the other --pods files, in command-line order
  KubernetesOptions kubernetes;
  std::optional<Source> request;  // -r; absent: the flags alone
  ReallocFlags flags;
  OutputFormat output = OutputFormat::Table;
  bool atomic = false;
  bool strict = false;  // --strict: unknown fields are errors (SPEC §13)
  std::optional<OutputFormat> save_inventory;
  std::optional<Units> units;  // --units of the saved inventory; unset: by format
};

// RunResult::inventory holds the inventory after the realloc.
struct ReallocRun : RunResult {
  std::optional<ReallocResult> realloc;
};

// load -> select -> realloc -> render, with §6's exit codes: 0 when every
// group succeeds, 4 otherwise, 3 for invalid input.
ReallocRun run_realloc(const ReallocOptions& options);

}  // namespace eruplan
