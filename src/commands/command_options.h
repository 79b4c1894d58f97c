// The command table's option groups and value checks (command_options.cpp),
// private to src/commands: commands.cpp builds the rows from them.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commands.h"
#include "eruplan_fields.h"

namespace eruplan::command_options {

inline constexpr const char* kStdin = "-";

using Group = std::vector<OptionSpec>;

// Value checks: "" when the value parses, else the message.
std::string check_whole_number(const std::string& s);
std::string check_strategy_list(const std::string& list);
std::string check_seed(const std::string& s);
std::string check_cycles(const std::string& s);
std::string check_cost(const std::string& s);
// A signed CPU amount or size: realloc's deltas.
std::string check_cpu_delta(const std::string& s);
std::string check_size_delta(const std::string& s);
// A realloc delta's flag (--cpu, --memory-limit, ...), from its row.
OptionSpec realloc_delta_option(const ReallocDelta& delta);

std::vector<std::string> strategy_names();
// Option makers: a value, one of `choices`, a checked value, a file, a flag.
OptionSpec value(std::string names, std::string help);
OptionSpec choice(std::string names, std::string help, std::vector<std::string> choices,
                  std::string default_value = "");
OptionSpec checked(std::string names, std::string help, OptionCheck check,
                   std::string check_name = "");
OptionSpec file(std::string names, std::string help);
OptionSpec flag(std::string names, std::string help);
OptionSpec suggesting(OptionSpec o, std::vector<std::string> values);
OptionSpec list(OptionSpec o);
void append(Group& to, const Group& group);
Group without(Group group, std::initializer_list<std::string_view> keys);

// The groups and the options several commands share.
Group strictness_group();
OptionSpec input_format_option();
OptionSpec output_option();
OptionSpec jobs_option();
OptionSpec report_option();
OptionSpec units_option();
std::optional<Units> units_of(const Args& a);
OptionSpec save_inventory_option(const std::string& after);
Group kubernetes_group();
Group request_flags_group();
Group planning_group(OptionSpec output);
Group planning_group();
Group state_group();

}  // namespace eruplan::command_options
