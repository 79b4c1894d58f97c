// `eruplan share` as a command: load, share, render.
#pragma once

#include <string>

#include "pipeline.h"
#include "render.h"
#include "share.h"

namespace eruplan {

// The result as SPEC §10's document (JSON, YAML) or tables for a person.
std::string render_share(const Inventory& state, const ShareSpec& spec, const ShareResult& result,
                         OutputFormat format);

// `eruplan share`: load, share, render (table, JSON, YAML); exit 3 for
// invalid input, 4 when stage 1 freezes an app before its quota.
RunResult run_share(const RunOptions& options);

}  // namespace eruplan
