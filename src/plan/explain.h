// `--explain` (SPEC §13): one line per node of the inventory saying why it
// gets what it gets: left out by node_filter (which rule, and what the node
// has), capacity 0 (its reason), or the strategy's own reason for a node with
// room. Computed after the fact from the capacity pass and the DeployMap, so
// no strategy has to carry explanations of its own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "capacity.h"
#include "deploy_map.h"
#include "model.h"
#include "requests.h"

namespace eruplan {

struct ExplainLine {
  std::string node;
  std::string text;
};

// Why `node_filter` leaves the node out ("node_filter.labels: pool=general
// does not match pool=gpu"), or empty when it keeps it.
std::string filter_reason(const NodeFilter& filter, const Node& node);

// Every node of `inventory`, by name (byte order). `deploy` (parallel to
// map.nodes) and `outcome` are null for `capacity`, which runs no strategy.
std::vector<ExplainLine> explain(const Inventory& inventory, const Request& request,
                                 const CapacityMap& map, const DeployMap* deploy,
                                 const RequestOutcome* outcome);

// SPEC §13's summary of an infeasible request: "need 400 new instances, the
// nodes can take 312: 1 node not available, 5 nodes limited by cpu, 4 left
// out by node_filter".
std::string infeasible_summary(const Inventory& inventory, const CapacityMap& map,
                               std::int64_t count);
// The same headed by what the request's strategy needed: "need 5 new
// instances on each of 3 nodes" (each), "need 4 instances of web on every
// node" (fill), "need 10 new instances (at least 6)" (min_count).
std::string infeasible_summary(const Inventory& inventory, const CapacityMap& map,
                               const Request& request);

}  // namespace eruplan
