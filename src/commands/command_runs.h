// Each command's run: from parsed options to the command's own function
// (command_runs.cpp), private to src/commands: the rows of commands.cpp
// point at them.
#pragma once

#include "commands.h"

namespace eruplan::command_runs {

CommandOutput run_capacity(const CommandInput& in);
CommandOutput run_plan(const CommandInput& in);
CommandOutput run_validate(const CommandInput& in);
CommandOutput run_apply(const CommandInput& in);
CommandOutput run_share_row(const CommandInput& in);
CommandOutput run_realloc_row(const CommandInput& in);
CommandOutput run_compare(const CommandInput& in);
CommandOutput run_grow(const CommandInput& in);
CommandOutput run_drain(const CommandInput& in);
CommandOutput run_test(const CommandInput& in);
CommandOutput run_diff(const CommandInput& in);
CommandOutput run_schema(const CommandInput& in);
CommandOutput run_completion(const CommandInput& in);

}  // namespace eruplan::command_runs
