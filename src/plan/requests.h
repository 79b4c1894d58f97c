// Planning one request or several against one cluster state (SPEC §8.3,
// §8.4): capacity pass, strategy pass (with min_count's partial placement),
// assignment of plans, and the reserve stage, request after request, with
// gangs all or nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "capacity.h"
#include "deploy_map.h"
#include "disruption.h"
#include "model.h"
#include "names.h"
#include "preemption.h"
#include "reserve.h"
#include "strategy.h"

namespace eruplan {

enum class RequestStatus { Placed, Partial, Rejected, Satisfied };
inline constexpr Named<RequestStatus> kRequestStatusNames[] = {
    {RequestStatus::Placed, "placed"},
    {RequestStatus::Partial, "partial"},
    {RequestStatus::Rejected, "rejected"},
    {RequestStatus::Satisfied, "satisfied"}};
inline std::string_view status_name(RequestStatus s) { return name_of(kRequestStatusNames, s); }

// One new instance placed by evicting running pods (SPEC §17).
struct Preemption {
  std::int64_t instance = 0;    // the request's new instances counted from 1
  std::uint32_t node = 0;       // index into the inventory
  std::vector<Victim> victims;  // most important first (priority down, then name)
};

// One request's result, as the output documents show it.
struct RequestOutcome {
  RequestStatus status = RequestStatus::Rejected;
  StrategyOutcome strategy = StrategyOutcome::Deployed;  // of the strategy pass with `count`
  std::int64_t placed = 0;
  NamedReason reason;    // rejected or satisfied: why; also the strategy's message on failure
  bool planned = false;  // a gang member after the failing one is not planned
  std::int64_t placed_at_most = 0;  // rejected with min_count: the most it could place
  // The capacity pass the request was planned against (the state then).
  CapacityMap capacity;
  DeployMap deploy;               // all 0 unless placed/partial
  std::vector<NodeScore> scores;  // score strategy: per capacity.nodes entry
  // --explain, the kubernetes profile's first cycle (StrategyResult):
  // per inventory node the filter that rejected it, and where it went.
  std::vector<std::string> first_filtered;
  std::int64_t first_pick = -1;
  std::vector<Preemption> preemptions;  // --preempt: instances placed by evicting pods
  // Past PlanOptions::max_bound_instances: not planned (rejected, placed 0),
  // the reason says what is too large, and no later request is planned.
  bool too_large = false;
};

// --queue-sort (SPEC §17): the order several requests are planned in; each
// starts with priority, highest first, and ends with file order.
enum class QueueSort {
  Priority,  // kube-scheduler's PrioritySort: priority, then file order
  // scheduler-plugins' QOSSort: equal priorities by QoS class (Guaranteed,
  // Burstable, BestEffort)
  Qos,
  // scheduler-plugins' Coscheduling: equal priorities by creation time
  // (Request::created, earliest first, none last), then "namespace/name"
  Coscheduling,
};

inline constexpr Named<QueueSort> kQueueSortNames[] = {{QueueSort::Priority, "priority"},
                                                       {QueueSort::Qos, "qos"},
                                                       {QueueSort::Coscheduling, "coscheduling"}};
// The value of --queue-sort NAME (priority when unknown).
inline QueueSort queue_sort_named(std::string_view name) {
  return value_of(kQueueSortNames, name).value_or(QueueSort::Priority);
}

struct PlanOptions {
  std::int64_t max_plans = kDefaultMaxPlans;  // plans listed per node in the PlanMap
  bool atomic = false;                        // every request one group (--atomic)
  unsigned jobs = 1;
  // --preempt (SPEC §17): a replica that fits nowhere evicts running pods of
  // lower priority, as kube-scheduler's DefaultPreemption chooses them.
  bool preempt = false;
  std::vector<PodDisruptionBudget> pdbs;       // --pdbs
  QueueSort queue_sort = QueueSort::Priority;  // --queue-sort
  bool explain = false;                        // --explain: strategies keep what the lines need
  // Keep each node's preemption answers from replica to replica while the
  // node is unchanged (PreemptionCache); false redoes every node for every
  // replica, the plain reference the tests and the benchmark compare with.
  bool preemption_cache = true;
  // New instances of binding requests (each gets its own plan) the whole
  // run may place; one past it makes that request's outcome too_large.
  std::int64_t max_bound_instances = kUnlimited;
  // Counts of an app on a node the run may add (each app a request places
  // on a node it was not on): each is kept in the state and shown in the
  // output, so their number is bounded by the input; one past it makes
  // that request's outcome too_large.
  std::int64_t max_app_entries = kUnlimited;
  // Nodes the outcomes list (each request's capacity map, twice with
  // --explain) when the caller keeps them all until the end (--atomic,
  // gangs, -o yaml, apply); one past it makes
  // that request's outcome too_large.
  std::int64_t max_listed_nodes = kUnlimited;
  bool listed_zero_only = false;  // a table's: only the nodes with capacity 0 count
};

// Caches the capacity pass per request shape: a later request with the same
// resources, filter and tolerations redoes only the nodes whose revision
// changed since (SPEC §8.3: reserving costs O(changed nodes)). The caller
// reports every change to the inventory (changed, placing), so the cache
// reads neither the nodes' revisions nor their instances node by node: it
// keeps its own copy of the revisions and, per app, the nodes that hold its
// instances, and moves `existing` from one app to the next only on those.
class CapacityCache {
 public:
  // The pass for `request`: the cached map, refreshed, is handed out (and
  // no longer cached) until given back; a first pass is computed afresh.
  CapacityMap pass(const Inventory& inventory, const Request& request,
                   const CapacityOptions& options);
  // Keeps `map` (a pass of `request`, possibly with plans added for nodes
  // that have since been reserved on) for the next request of its shape.
  void give_back(const Request& request, const CapacityOptions& options, CapacityMap&& map);
  // inventory.nodes[index] has changed (a reservation, or a gang undone).
  void changed(const Inventory& inventory, std::uint32_t index);
  // Instances of `app` are about to be placed on inventory.nodes[index].
  void placing(const Inventory& inventory, const std::string& app, std::uint32_t index);

 private:
  struct Entry {
    CapacityMap map;  // empty while lent
    bool lent = false;
    // `existing` in the map is that of `app`, and nonzero only at the
    // positions listed; false when unknown (two lends of one shape at once).
    bool known = false;
    std::string app;
    std::vector<std::uint32_t> nonzero;  // positions in map.nodes
    std::vector<std::int32_t> position;  // node index -> position in map.nodes, or -1
  };
  static std::string key(const Request& request, const CapacityOptions& options);
  const std::vector<std::uint32_t>& holders(const Inventory& inventory, const std::string& app);
  void track(const Inventory& inventory);
  void move_existing(Entry& entry, CapacityMap& map, const Inventory& inventory,
                     const std::string& app, std::vector<std::uint32_t>& refreshed);
  std::map<std::string, Entry> maps_;
  std::vector<std::uint64_t> revisions_;  // inventory.nodes[i].revision, as reported
  std::map<std::string, std::vector<std::uint32_t>, std::less<>> holders_;  // app -> nodes
};

// Receives each request's outcome once its gang (or itself) is settled, in
// planning order; `index` is the request's place in file order. A sink that
// renders and drops the outcome keeps memory flat over many requests.
using OutcomeSink = std::function<void(std::size_t index, RequestOutcome&& outcome)>;

// Plans `requests` (file order) against `state`, changing it as they are
// placed: priority descending, then file order; gangs pulled up behind their
// first member.
void plan_requests(Inventory& state, const std::vector<Request>& requests,
                   const PlanOptions& options, const OutcomeSink& sink);
// The same, collecting the outcomes in file order.
std::vector<RequestOutcome> plan_requests(Inventory& state, const std::vector<Request>& requests,
                                          const PlanOptions& options);

// Strategy pass with min_count (SPEC §8.4): when `count` cannot be placed,
// the largest n >= min_count that can; status placed, partial or not.
struct Placement {
  StrategyResult result;  // deploy parallel to the infos, for the n placed
  std::int64_t placed = 0;
  bool partial = false;
  StrategyResult first;  // the pass with `count`, for its message
};
Placement place(const StrategyInput& input, std::int64_t min_count, Strategy strategy);
// The largest n in 1..hi that `run` places, 0 when it places not even one
// (bisection: placing n is monotone for the strategies with min_count).
// `first`, if given: `run`'s failed run for input.count; the kubernetes
// profile's says how far it got (StrategyResult::placed_first), and a run
// for fewer places those same first ones, so `run` is not run again.
std::int64_t most_placed(const StrategyInput& input, StrategyPass run, std::int64_t hi,
                         const StrategyResult* first = nullptr);
// Where `run` places the first k instances: as `first` (its failed run for
// input.count) placed them when it placed k first, else a run for k.
InfoDeployMap first_placed(const StrategyInput& input, StrategyPass run, std::int64_t k,
                           const StrategyResult& first);

// The pod field of `request` that depends on where its other replicas go
// (topology spread, required pod affinity, anti-affinity other than its own
// pods by hostname), which only strategy score honours; empty when none.
std::string cross_node_constraint(const Request& request);

// The plan budget's count (kListedCoresPerPlan) of the cores listed one by
// one on the nodes `deploy` gives instances of a CPU-bind `request`.
std::int64_t listed_core_weight(const Inventory& state, const Request& request,
                                const std::vector<StrategyInfo>& infos,
                                const InfoDeployMap& deploy);

// The infos a strategy sees: capacity.nodes entries with capacity > 0.
std::vector<StrategyInfo> strategy_infos(const Inventory& inventory, const CapacityMap& map,
                                         std::vector<std::size_t>& where);

}  // namespace eruplan
