// eruplan snapshot: the cluster's state as eruplan reads it, written by
// kubectl into files (nodes, pods, priority classes, disruption budgets,
// DaemonSets). kubectl runs through FileAccess::run (the CLI's), never from
// the library itself.
#pragma once

#include <string>
#include <vector>

#include "commands.h"

namespace eruplan {

// What snapshot asks kubectl for: the file it writes and kubectl's
// arguments after the global flags.
struct SnapshotPart {
  std::string_view file;
  std::vector<std::string_view> args;
};
const std::vector<SnapshotPart>& snapshot_parts();

CommandOutput run_snapshot(const CommandInput& in);

}  // namespace eruplan
