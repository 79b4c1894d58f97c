// The strategy table (SPEC §5, §9) and what the strategy files share.
#include "strategy.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "capacity.h"
#include "strategy_score.h"

namespace eruplan {

// A new strategy declares its functions here, outside the anonymous
// namespace, and adds its row to kStrategies below: its own file and this
// one are all it touches.

namespace {

template <StrategyFn F>
StrategyResult simple_pass(const StrategyInput& in) {
  return F(in.infos, in.count, in.total, in.nodes_limit);
}

constexpr StrategyRow kStrategies[] = {
    {"auto", "communism", simple_pass<auto_strategy>, auto_strategy, true, true, auto_deciding,
     auto_explain, nullptr,
     "old+new instances as even as possible; nodes_limit = most old+new on one node"},
    {"fill", "", simple_pass<fill_strategy>, fill_strategy, false, false, nullptr, fill_explain,
     fill_need, "nodes_limit nodes (0 = all) end with at least count instances"},
    {"each", "average", simple_pass<each_strategy>, each_strategy, false, false, nullptr,
     each_explain, each_need,
     "count new instances on each of nodes_limit nodes (0 = every node that can take them)"},
    {"global", "", simple_pass<global_strategy>, global_strategy, true, true, global_deciding,
     global_explain, nullptr, "resource usage as even as possible across nodes"},
    {"drained", "", simple_pass<drained_strategy>, drained_strategy, true, true, drained_deciding,
     drained_explain, nullptr, "fill the node with the least capacity first (bin-packing)"},
    {"score", "", score_strategy, nullptr, true, true, nullptr, score_explain, nullptr,
     "one at a time on the node with the highest Kubernetes score (scoring:)"},
};

// The strategies code names (model.h) are these rows.
static_assert(kStrategies[Strategy::Auto.row].name == "auto" &&
              kStrategies[Strategy::Fill.row].name == "fill" &&
              kStrategies[Strategy::Each.row].name == "each" &&
              kStrategies[Strategy::Global.row].name == "global" &&
              kStrategies[Strategy::Drained.row].name == "drained" &&
              kStrategies[Strategy::Score.row].name == "score");

std::string lower(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

std::span<const StrategyRow> strategy_table() { return kStrategies; }

const StrategyRow& strategy_row(Strategy s) { return kStrategies[s.row]; }

std::string_view strategy_name(Strategy s) { return strategy_row(s).name; }

std::optional<Strategy> parse_strategy(std::string_view text) {
  const std::string s = lower(text);
  for (std::uint8_t i = 0; i < std::size(kStrategies); ++i) {
    const StrategyRow& row = kStrategies[i];
    if (s == row.name) return Strategy{i};
    std::string_view aliases = row.aliases;
    while (!aliases.empty()) {
      const std::size_t space = aliases.find(' ');
      if (s == aliases.substr(0, space)) return Strategy{i};
      aliases = space == std::string_view::npos ? std::string_view() : aliases.substr(space + 1);
    }
  }
  return std::nullopt;
}

std::string strategy_choices() {
  std::string names, aliases;
  const std::size_t n = std::size(kStrategies);
  for (std::size_t i = 0; i < n; ++i) {
    const StrategyRow& row = kStrategies[i];
    names += (i == 0 ? "" : i + 1 == n ? " or " : ", ") + std::string(row.name);
    if (!row.aliases.empty())
      aliases +=
          (aliases.empty() ? "" : ", ") + std::string(row.aliases) + " = " + std::string(row.name);
  }
  return aliases.empty() ? names : names + " (" + aliases + ")";
}

std::string new_count_strategies() {
  std::vector<std::string_view> names;
  for (const StrategyRow& row : kStrategies)
    if (row.counts_new) names.push_back(row.name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
  return out;
}

StrategyFn strategy_function(Strategy s) { return strategy_row(s).simple; }

std::string ExplainPass::nothing_placed() const {
  if (!failed) return {};
  return satisfied ? "; nothing placed, already satisfied" : "; nothing placed, the request failed";
}

std::string on_each_of(std::int64_t nodes_limit) {
  return nodes_limit > 0 ? " on each of " + strategy_count(nodes_limit, "node") : "";
}

std::string explain_percent(double ratio) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f%%", ratio * 100.0);
  return buf;
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

StrategyResult strategy_failure(std::size_t n, NamedReason message, StrategyOutcome outcome) {
  return {outcome, InfoDeployMap(n), std::move(message), {}, {}, -1, {}};
}

std::optional<StrategyResult> strategy_precheck(std::string_view name, std::size_t n,
                                                std::int64_t count) {
  if (count <= 0)
    return strategy_failure(
        n, NamedReason(std::string(name), "count must be > 0, got " + std::to_string(count)));
  if (n == 0)
    return strategy_failure(n,
                            NamedReason(std::string(name), "no node has room for a new instance"));
  return std::nullopt;
}

}  // namespace eruplan
