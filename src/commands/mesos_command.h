// `eruplan share --model mesos` as a command: load roles, frameworks and
// reservations, run the cycles, render.
#pragma once

#include <string>

#include "mesos.h"
#include "pipeline.h"
#include "render.h"

namespace eruplan {

// {"model", "seed", "cycles": [{cycle, offers}], "frameworks", "roles"}
// (JSON, YAML) or tables for a person.
std::string render_mesos(const Inventory& state, const MesosSpec& spec, const MesosResult& result,
                         const MesosOptions& options, OutputFormat format);

// Exit 0, or 3 for invalid input.
RunResult run_mesos(const RunOptions& options);

}  // namespace eruplan
