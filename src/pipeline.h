// The commands as pure functions: load -> capacity -> strategy -> render.
// The CLI and the fixture runner both call these; only the CLI prints and
// exits.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "capacity.h"
#include "load.h"
#include "model.h"
#include "render.h"
#include "strategy.h"

namespace eruplan {

// SPEC §6 exit codes.
enum class ExitCode : int {
  Ok = 0,
  Internal = 1,
  Usage = 2,
  Invalid = 3,
  Infeasible = 4,
  AlreadySatisfied = 5,
};

enum class Command { Capacity, Plan, Validate };

struct RunOptions {
  Command command = Command::Plan;
  Source nodes;
  std::optional<Source> request;
  RequestOverrides overrides;
  OutputFormat output = OutputFormat::Table;
  PlansShown plans = PlansShown::All;
};

struct RunResult {
  ExitCode exit = ExitCode::Ok;
  std::string out;  // for stdout
  std::string err;  // for stderr: diagnostics, warnings, failure reasons

  // The structured results, for the fixture runner; set as far as the run got.
  std::optional<Inventory> inventory;
  std::optional<Request> request;
  std::optional<CapacityMap> capacity;
  std::optional<std::vector<std::int64_t>> deploy;  // parallel to capacity->nodes
};

RunResult run(const RunOptions& options);

}  // namespace eruplan
