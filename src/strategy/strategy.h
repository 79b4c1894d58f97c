// The strategy pass (SPEC §5): which nodes get how many new instances.
// Every strategy is the same pure function over one shared record, one file
// each (strategy_auto.cpp, strategy_fill.cpp, ...), picked from one table.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "deploy_map.h"
#include "model.h"
#include "named_reason.h"

namespace eruplan {

struct CapacityMap;  // capacity.h

// A node with capacity > 0, as the strategies see it. Inputs are sorted by
// name (byte order), so "ties broken by name" means "ties broken by index".
struct StrategyInfo {
  std::string_view name;
  std::uint32_t node = 0;     // index into the inventory (for strategies that read the node)
  std::int64_t existing = 0;  // instances of the app already there
  std::int64_t capacity = 0;  // > 0; kUnlimited (capacity.h) when unlimited
  double usage = 0;
  double rate = 0;
};

enum class StrategyOutcome { Deployed, Infeasible, AlreadySatisfied };

// A kubernetes-profile filter's verdict on a node (k8s_profile.h): no
// reasons = the node passes. Reasons are kube-scheduler's own strings; its
// status code is Unschedulable, or UnschedulableAndUnresolvable
// (`unresolvable`) where evicting pods cannot make the node pass, which
// preemption then skips ("Preemption is not helpful for scheduling").
struct K8sStatus {
  std::vector<std::string> reasons;
  std::string_view plugin;  // the filter plugin that failed (k8s_filter_all sets it)
  bool unresolvable = false;
  bool ok() const { return reasons.empty(); }
  static K8sStatus fail(std::string reason) { return K8sStatus{{std::move(reason)}, {}, false}; }
  static K8sStatus fail_unresolvable(std::string reason) {
    return K8sStatus{{std::move(reason)}, {}, true};
  }
};

// The score strategy's scores of one node for its first new instance (SPEC §9).
struct NodeScore {
  std::int64_t fit = 0;       // unweighted
  std::int64_t balanced = 0;  // unweighted
  std::int64_t total = 0;     // fit_weight x fit + balanced_weight x balanced
  // The kubernetes profile: every score plugin's normalized score, in the
  // order of kK8sScorePlugins (k8s_profile.h); empty otherwise.
  std::vector<std::int64_t> plugins;
  // The kubernetes profile: a filter rejected the node for the first replica,
  // so it has no scores (kube-scheduler scores the feasible nodes only).
  bool filtered = false;
};

struct StrategyResult {
  StrategyOutcome outcome = StrategyOutcome::Deployed;
  InfoDeployMap deploy;           // new instances per node
  NamedReason message;            // why, when not Deployed
  std::vector<NodeScore> scores;  // score only: parallel to the infos
  // --explain under the kubernetes profile (StrategyInput::explain): the
  // first replica's cycle. Per inventory node, the filter plugin that
  // rejected it and its reasons ("NodePorts: node(s) didn't have free ports
  // for the requested pod ports"), empty when it passed; and the inventory
  // node that replica went to (-1: none).
  std::vector<std::string> first_filtered;
  std::int64_t first_pick = -1;
  // The kubernetes profile, Infeasible: the cycle that found no node, each
  // inventory node's status (what preemption reads).
  std::vector<K8sStatus> rejected;
  // The kubernetes profile, Infeasible: the replicas it placed before the
  // one that fit nowhere. It places one replica at a time, nothing in a
  // cycle depending on the count asked, so a run for fewer places exactly
  // these first ones: min_count's search reads the answer here instead of
  // running the profile again per guess. -1 from any other strategy.
  std::int64_t placed_first = -1;
  // ... and where those replicas went, per info: the deploy of a run for
  // placed_first, which a caller placing them need not run again. Empty
  // from any other strategy.
  InfoDeployMap placed_first_deploy{};
  // The strategy's own work passed its bound (score placing one instance
  // at a time, strategy_score.h): Infeasible, the message says so, and the run
  // ends with exit 3 rather than answer on part of the search.
  bool too_large = false;
};

// Part I's strategies need only the infos and three numbers.
using StrategyFn = StrategyResult (*)(std::span<const StrategyInfo> infos, std::int64_t count,
                                      std::int64_t total, std::int64_t nodes_limit);

// What every strategy gets: the infos plus the state they describe, for
// strategies that read nodes and the request (score).
struct StrategyInput {
  std::span<const StrategyInfo> infos;
  std::int64_t count = 0;
  std::int64_t total = 0;
  std::int64_t nodes_limit = 0;
  const Inventory* inventory = nullptr;
  const Request* request = nullptr;
  unsigned jobs = 1;  // threads a strategy may use for its per-node map
  // The capacity pass the infos come from, zero-capacity nodes included, for
  // messages that count every node (score's Kubernetes line); may be null.
  const CapacityMap* capacity = nullptr;
  bool explain = false;  // --explain: keep what the explain lines need (first_filtered)
};
using StrategyPass = StrategyResult (*)(const StrategyInput&);

// The nodes that decide a pass (deciding_nodes below): the `count` nodes
// first in the strategy's own order, as indexes into `infos`; false when
// fewer than `count` nodes can take one.
using DecidingFn = bool (*)(std::span<const StrategyInfo> infos, std::int64_t count,
                            std::int64_t nodes_limit, std::vector<std::size_t>& chosen);

// What --explain says of a node with room (SPEC §13), from what the strategy
// saw and what it decided; plan/explain.cpp gathers it, the strategy words it.
struct ExplainNode {
  std::string_view name;
  std::int64_t existing = 0;
  std::int64_t capacity = 0;  // > 0; kUnlimited when unlimited
  double usage = 0;
  double rate = 0;
  std::int64_t k = 0;                // new instances
  const NodeScore* score = nullptr;  // score only
};
struct ExplainPass {
  const Request& request;
  bool failed = false;  // rejected or satisfied: nothing placed
  bool satisfied = false;
  bool any_placed = false;            // some node gets new instances
  std::int64_t top = 0;               // the highest level a node with new instances reaches
  double last_key = 0;                // the largest global_key of a placed instance
  const ExplainNode* best = nullptr;  // the highest first score total, ties by name
  // "; nothing placed, the request failed" when it failed, else empty.
  std::string nothing_placed() const;
};
using StrategyExplain = std::string (*)(const ExplainPass& pass, const ExplainNode& node);
// The head of the infeasible summary for a strategy whose count is not the
// number of new instances: "need 3 instances of web on every node".
using StrategyNeed = std::string (*)(const Request& request);
// For explain lines: a ratio ("12.5%"); capacities read as count_text.
std::string explain_percent(double ratio);

// One row of the strategy table: a new strategy is one file and one row.
struct StrategyRow {
  std::string_view name;
  std::string_view aliases;  // space-separated, e.g. "communism"
  StrategyPass run;
  StrategyFn simple;  // the same as a Part I function, or null
  bool min_count;     // SPEC §8.4: min_count may be given
  // `count` is the number of new instances (not a per-node target, as for
  // fill and each): compare's default set, what drain accepts, and the
  // infeasible summary's "need N new instances".
  bool counts_new;
  DecidingFn deciding;      // null: the pass always looks at every node
  StrategyExplain explain;  // the --explain line of a node with room
  StrategyNeed need;        // null: "need N new instances (at least M)"
  std::string_view help;    // one line for --help and the man page
};
std::span<const StrategyRow> strategy_table();
const StrategyRow& strategy_row(Strategy s);
// Case-insensitive, aliases included; nullopt when unknown.
std::optional<Strategy> parse_strategy(std::string_view text);
// "auto, fill, each, global or drained (communism = auto, average = each)"
std::string strategy_choices();
// The strategies whose count is the number of new instances, as
// "auto, global, drained or score".
std::string new_count_strategies();

StrategyResult auto_strategy(std::span<const StrategyInfo>, std::int64_t count, std::int64_t total,
                             std::int64_t nodes_limit);
StrategyResult fill_strategy(std::span<const StrategyInfo>, std::int64_t count, std::int64_t total,
                             std::int64_t nodes_limit);
StrategyResult each_strategy(std::span<const StrategyInfo>, std::int64_t count, std::int64_t total,
                             std::int64_t nodes_limit);
StrategyResult global_strategy(std::span<const StrategyInfo>, std::int64_t count,
                               std::int64_t total, std::int64_t nodes_limit);
// global fails only when it cannot place count at all (the precheck, or
// the nodes' room in total): that failure, else nullopt (it deploys all
// count). drain --each-node asks it instead of placing.
std::optional<StrategyResult> global_failure(std::span<const StrategyInfo>, std::int64_t count,
                                             std::int64_t total);
StrategyResult drained_strategy(std::span<const StrategyInfo>, std::int64_t count,
                                std::int64_t total, std::int64_t nodes_limit);

StrategyFn strategy_function(Strategy s);

// Each strategy's deciding order (strategy_deciding.cpp) and explain line
// (its own file).
bool auto_deciding(std::span<const StrategyInfo>, std::int64_t count, std::int64_t nodes_limit,
                   std::vector<std::size_t>& chosen);
bool global_deciding(std::span<const StrategyInfo>, std::int64_t count, std::int64_t nodes_limit,
                     std::vector<std::size_t>& chosen);
bool drained_deciding(std::span<const StrategyInfo>, std::int64_t count, std::int64_t nodes_limit,
                      std::vector<std::size_t>& chosen);
std::string auto_explain(const ExplainPass&, const ExplainNode&);
std::string fill_explain(const ExplainPass&, const ExplainNode&);
std::string each_explain(const ExplainPass&, const ExplainNode&);
std::string global_explain(const ExplainPass&, const ExplainNode&);
std::string drained_explain(const ExplainPass&, const ExplainNode&);
std::string score_explain(const ExplainPass&, const ExplainNode&);
std::string fill_need(const Request&);
std::string each_need(const Request&);
// " on each of 3 nodes", or empty for nodes_limit 0.
std::string on_each_of(std::int64_t nodes_limit);

// The nodes that decide a pass of auto, global or drained (SPEC §5), when the
// pass cannot fail: `count` nodes can each take one more instance and `total`
// >= count. Then only the `count` nodes first in the strategy's own order can
// receive an instance (auto: fewest existing, then more capacity, then name;
// global: smallest usage + rate, then name; drained: least capacity, then
// more usage, then name) -- each of them is chosen before any later node --
// so the strategy run on these alone, in name order, gives the same
// DeployMap. Fills `chosen` with their indexes into `infos`, ascending, and
// returns true; false (chosen untouched) for a strategy without a deciding
// order in its row, a pass that may fail, or when there are not at least
// twice as many nodes to gain from. strategy_deciding.cpp.
bool deciding_nodes(std::span<const StrategyInfo> infos, Strategy strategy, std::int64_t count,
                    std::int64_t total, std::int64_t nodes_limit, std::vector<std::size_t>& chosen);

// global's key for a node's k-th new instance: usage + k x rate, rounded to
// a grid of 2^-40. Usage and rate are ratios computed in floating point, so
// keys that are equal in exact arithmetic (3 x 1/6 and 2 x 1/4) can differ in
// the last bit; on the grid they tie and the name decides, as SPEC §5 wants.
// Keys closer than about 1e-12 count as equal.
inline double global_key(double usage, double rate, std::int64_t k) {
  constexpr double kGrid = 1099511627776.0;  // 2^40
  return std::nearbyint((usage + static_cast<double>(k) * rate) * kGrid) / kGrid;
}

// A failed strategy pass: no deploy (all zeros) and why.
StrategyResult strategy_failure(std::size_t n, NamedReason message,
                                StrategyOutcome outcome = StrategyOutcome::Infeasible);
// The failures every strategy shares, named for it: count <= 0, or no node
// with room at all. Nullopt when neither applies.
std::optional<StrategyResult> strategy_precheck(std::string_view name, std::size_t n,
                                                std::int64_t count);

// For strategy messages: the named infos as "node1, node2, node3", or
// "node1, ..., node10 and 5 more" past `shown` names (strategy.cpp).
std::string strategy_node_names(std::span<const StrategyInfo> infos,
                                std::span<const std::size_t> indices, std::size_t shown = 10);
// "1 node", "3 nodes", "1 new instance": n and the noun, plural unless n is 1.
std::string strategy_count(std::int64_t n, std::string_view noun);

}  // namespace eruplan
