// What-if commands (SPEC §14): `compare` runs several strategies on the same
// input side by side, `grow` finds how many nodes like a template must be
// added for a request to fit, `drain` asks whether a lost node's instances
// fit on the others. Each plans on a copy of the inventory; nothing here
// prints or exits.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capacity.h"
#include "kubernetes.h"
#include "load.h"
#include "model.h"
#include "pipeline.h"
#include "render.h"

namespace eruplan {

enum class WhatIfCommand { Compare, Grow, Drain };

inline constexpr std::int64_t kDefaultGrowMax = 10'000;

struct WhatIfOptions {
  WhatIfCommand command = WhatIfCommand::Compare;
  Source nodes;
  std::optional<Source> request;
  RequestOverrides overrides;
  KubernetesOptions kubernetes;   // SPEC §12: --nodes-format, --app-label
  std::optional<Source> pods;     // SPEC §12: --pods
  std::vector<Source> more_pods;  // further --pods files, in command-line order
  OutputFormat output = OutputFormat::Table;
  PlansShown plans = PlansShown::All;
  unsigned jobs = 1;
  std::vector<std::string> strategies;  // compare: names as given; empty = the default set
  std::optional<Source> template_node;  // grow: --template
  std::int64_t max = kDefaultGrowMax;   // grow: --max
  std::string node;                     // drain: --node
  bool each_node = false;               // drain: --each-node
  bool report = false;                  // compare --report: an HTML page per strategy
  bool strict = false;                  // --strict: unknown fields are errors (SPEC §13)
  bool explain = false;                 // grow, drain --node: --explain (SPEC §13)
  bool all_nodes = false;               // grow, drain --node: --all-nodes
};

// The spread of SPEC §4's usage over a set of nodes.
struct UsageSpread {
  double max_minus_min = 0;
  double stddev = 0;  // population standard deviation
};
UsageSpread usage_spread(const std::vector<double>& usages);

// One row of `compare`.
struct StrategyComparison {
  Strategy strategy = Strategy::Auto;
  bool feasible = false;
  bool satisfied = false;
  std::string reason;                                        // only when not feasible
  std::vector<std::pair<std::string, std::int64_t>> deploy;  // nodes with new instances, by name
  std::int64_t nodes_used = 0;
  std::int64_t max_new_per_node = 0;
  UsageSpread spread;
  std::vector<std::string> zero_reasons;  // with `after`: per inventory node, why it took none
};

// `after`, when given, receives the inventory after the strategy's plan.
StrategyComparison compare_one(const Inventory& inventory, Request request, Strategy strategy,
                               unsigned jobs, Inventory* after = nullptr);

// grow: the inventory with k copies of `node_template` after its nodes,
// named <template name>-1..k (no workloads).
Inventory grown_inventory(const Inventory& inventory, const Node& node_template, std::int64_t k);
// The request is feasible on the inventory (placed, partial or satisfied).
bool request_fits(const Inventory& inventory, const Request& request, unsigned jobs);
// The smallest k in [0, max] with the request feasible after adding k
// copies; nullopt when max do not suffice.
std::optional<std::int64_t> smallest_growth(const Inventory& inventory, const Request& request,
                                            const Node& node_template, std::int64_t max,
                                            unsigned jobs);

// drain: the inventory with the node lost (available false, no instances).
Inventory lost_node_inventory(const Inventory& inventory, std::uint32_t index);

// drain --each-node: one check per available node running the app.
struct Absorption {
  std::string node;
  bool absorbable = false;
  std::string reason;  // only when not absorbable
};
// Every check against one capacity pass: losing a node changes only that
// node's entry (capacity 0, no instances), so the others' entries are reused.
std::vector<Absorption> absorb_each(const Inventory& inventory, const Request& request,
                                    unsigned jobs);
// The same question for one node, the slow way: a full plan on the inventory
// with the node lost (the oracle of absorb_each in tests).
Absorption absorb_one(const Inventory& inventory, const Request& request, std::uint32_t index);

struct WhatIfResult {
  RunResult run;  // exit, stdout, stderr; inventory/capacity/deploy for grow and drain
  std::vector<StrategyComparison> strategies;  // compare
  std::optional<std::int64_t> added;           // grow
  std::vector<Absorption> absorption;          // drain --each-node
  std::string report;                          // compare --report: the HTML page
};

WhatIfResult run_whatif(const WhatIfOptions& options);

}  // namespace eruplan
