// `eruplan share` as a command: load, share, render.
#pragma once

#include <string>

#include "pipeline.h"
#include "render.h"
#include "share.h"

namespace eruplan {

// The result as SPEC §10's document (JSON, YAML) or tables for a person:
// new instances per node x app, or per node as a list ("a +2, b +1") when
// that grid has more than `max_cells` cells.
std::string render_share(const Inventory& state, const ShareSpec& spec, const ShareResult& result,
                         OutputFormat format,
                         std::int64_t max_cells = std::numeric_limits<std::int64_t>::max());

// `eruplan share`: load, share, render (table, JSON, YAML); exit 3 for
// invalid input, 4 when stage 1 freezes an app before its quota.
RunResult run_share(const RunOptions& options);

}  // namespace eruplan
