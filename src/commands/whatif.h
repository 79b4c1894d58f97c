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
#include "grow.h"
#include "kubernetes.h"
#include "load.h"
#include "model.h"
#include "pipeline.h"
#include "render.h"
#include "report_html.h"

namespace eruplan {

enum class WhatIfCommand { Compare, Grow, Drain };

inline constexpr std::int64_t kDefaultGrowMax = 10'000;
// grow plans on inventories holding the copies, about 1 KB each: --max may
// pass the default by one copy per kGrowMaxBytesPerCopy bytes of input, up
// to kLargestGrowMax; beyond is exit 3.
inline constexpr std::int64_t kLargestGrowMax = 100'000;
inline constexpr std::int64_t kGrowMaxBytesPerCopy = 10;

struct WhatIfOptions {
  WhatIfCommand command = WhatIfCommand::Compare;
  Source nodes;
  std::optional<Source> request;
  RequestOverrides overrides;
  KubernetesOptions kubernetes;            // SPEC §12: --nodes-format, --app-label
  std::optional<Source> pods;              // SPEC §12: --pods
  std::vector<Source> more_pods;           // further --pods files, in command-line order
  std::optional<Source> priority_classes;  // SPEC §15: --priority-classes
  std::optional<Source> daemonsets;        // grow: --daemonsets, run on the added nodes
  std::optional<Source> namespaces;        // SPEC §16: --namespaces
  OutputFormat output = OutputFormat::Table;
  PlansShown plans = PlansShown::All;
  unsigned jobs = 1;
  std::vector<std::string> strategies;  // compare: names as given; empty = the default set
  std::vector<Source> templates;        // grow: --template, in order given
  std::vector<std::string> like;        // grow: --like NODE, after the templates
  std::vector<std::string> costs;       // grow: --cost NAME=VALUE
  std::optional<std::string> expander;  // grow: --expander (default least-waste)
  bool mix = false;                     // grow: --mix
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
  NamedReason reason;                                        // only when not feasible
  std::vector<std::pair<std::string, std::int64_t>> deploy;  // nodes with new instances, by name
  std::int64_t nodes_used = 0;
  std::int64_t total_new = 0;  // new instances placed in all
  std::int64_t max_new_per_node = 0;
  UsageSpread spread;
  UsageSpread before;                     // the inventory's own spread, over the same nodes
  std::vector<std::string> zero_reasons;  // with `after`: per inventory node, why it took none
  bool too_large = false;  // past max_bound_instances (reason says so): compare exits 3
};

// `after`, when given, receives the inventory after the strategy's plan;
// `max_bound_instances` as PlanOptions has it.
StrategyComparison compare_one(const Inventory& inventory, Request request, Strategy strategy,
                               unsigned jobs, Inventory* after = nullptr,
                               std::int64_t max_bound_instances = kUnlimited);

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
// Under the kubernetes profile the checks share its step bound; past it,
// none is run and `too_large` says why.
std::vector<Absorption> absorb_each(const Inventory& inventory, const Request& request,
                                    unsigned jobs, std::string* too_large = nullptr);
// The same question for one node, the slow way: a full plan on the inventory
// with the node lost (the oracle of absorb_each in tests).
Absorption absorb_one(const Inventory& inventory, const Request& request, std::uint32_t index);

struct WhatIfResult {
  RunResult run;  // exit, stdout, stderr; inventory/capacity/deploy for grow and drain
  std::vector<StrategyComparison> strategies;   // compare
  std::optional<std::int64_t> added;            // grow
  std::vector<std::int64_t> added_by_template;  // grow: parallel to template_names
  std::vector<std::string> template_names;      // grow: the templates, in order
  // grow: per template, the DaemonSets (namespace/name) each copy runs.
  std::vector<std::vector<std::string>> daemons_by_template;
  std::vector<Absorption> absorption;  // drain --each-node
  std::string report;                  // grow --report: the HTML page
  // compare --report: writes the HTML page a piece at a time (it holds what
  // the page shows), or empty.
  std::function<void(const ReportSink&)> write_report;
};

WhatIfResult run_whatif(const WhatIfOptions& options);

}  // namespace eruplan
