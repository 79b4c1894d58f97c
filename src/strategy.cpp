// The strategy table (SPEC §5) and what the strategy files share.
#include "strategy.h"

namespace eruplan {

StrategyFn strategy_function(Strategy s) {
  switch (s) {
    case Strategy::Auto:
      return auto_strategy;
    case Strategy::Fill:
      return fill_strategy;
    case Strategy::Each:
      return each_strategy;
    case Strategy::Global:
      return global_strategy;
    case Strategy::Drained:
      return drained_strategy;
  }
  return auto_strategy;  // unreachable: every enumerator is handled above
}

std::string strategy_node_names(std::span<const StrategyInfo> infos,
                                std::span<const std::size_t> indices, std::size_t shown) {
  std::string out;
  for (std::size_t k = 0; k < indices.size() && k < shown; ++k) {
    if (k > 0) out += ", ";
    out += infos[indices[k]].name;
  }
  if (indices.size() > shown) {
    out += " and " + std::to_string(indices.size() - shown) + " more";
  }
  return out;
}

std::string strategy_count(std::int64_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

StrategyResult strategy_failure(std::size_t n, std::string message, StrategyOutcome outcome) {
  return {outcome, std::vector<std::int64_t>(n, 0), std::move(message)};
}

std::optional<StrategyResult> strategy_precheck(std::string_view name, std::size_t n,
                                                std::int64_t count) {
  if (count <= 0)
    return strategy_failure(n, std::string(name) + ": count must be > 0, got " + std::to_string(count));
  if (n == 0) return strategy_failure(n, std::string(name) + ": no node has room for a new instance");
  return std::nullopt;
}

}  // namespace eruplan
