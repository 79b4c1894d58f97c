// `eruplan realloc` as a command: load, select, realloc, render.
#pragma once

#include <optional>
#include <string>

#include "kubernetes.h"
#include "pipeline.h"
#include "realloc.h"
#include "render.h"

namespace eruplan {

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
