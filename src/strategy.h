// The strategy pass (SPEC §5): which nodes get how many new instances.
// Every strategy is the same pure function over one shared record, one file
// each (strategy_auto.cpp, strategy_fill.cpp, ...), picked from one table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model.h"

namespace eruplan {

// A node with capacity > 0, as the strategies see it. Inputs are sorted by
// name (byte order), so "ties broken by name" means "ties broken by index".
struct StrategyInfo {
  std::string_view name;
  std::int64_t existing = 0;  // instances of the app already there
  std::int64_t capacity = 0;  // > 0; kUnlimited (capacity.h) when unlimited
  double usage = 0;
  double rate = 0;
};

enum class StrategyOutcome { Deployed, Infeasible, AlreadySatisfied };

struct StrategyResult {
  StrategyOutcome outcome = StrategyOutcome::Deployed;
  std::vector<std::int64_t> deploy;  // parallel to the infos; new instances per node
  std::string message;               // why, when not Deployed
};

using StrategyFn = StrategyResult (*)(std::span<const StrategyInfo> infos, std::int64_t count,
                                      std::int64_t total, std::int64_t nodes_limit);

StrategyResult auto_strategy(std::span<const StrategyInfo>, std::int64_t count,
                             std::int64_t total, std::int64_t nodes_limit);
StrategyResult fill_strategy(std::span<const StrategyInfo>, std::int64_t count,
                             std::int64_t total, std::int64_t nodes_limit);
StrategyResult each_strategy(std::span<const StrategyInfo>, std::int64_t count,
                             std::int64_t total, std::int64_t nodes_limit);
StrategyResult global_strategy(std::span<const StrategyInfo>, std::int64_t count,
                               std::int64_t total, std::int64_t nodes_limit);
StrategyResult drained_strategy(std::span<const StrategyInfo>, std::int64_t count,
                                std::int64_t total, std::int64_t nodes_limit);

StrategyFn strategy_function(Strategy s);

// For strategy messages: the named infos as "node1, node2, node3", or
// "node1, ..., node10 and 5 more" past `shown` names (strategy.cpp).
std::string strategy_node_names(std::span<const StrategyInfo> infos,
                                std::span<const std::size_t> indices, std::size_t shown = 10);
// "1 node", "3 nodes", "1 new instance": n and the noun, plural unless n is 1.
std::string strategy_count(std::int64_t n, std::string_view noun);

}  // namespace eruplan
