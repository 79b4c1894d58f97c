// Preemption (SPEC §17), as kube-scheduler's DefaultPreemption PostFilter
// decides it: when a replica fits nowhere, which node to take by evicting
// running pods of lower priority, and which pods. The filters a replica must
// pass are a parameter (ReplicaFilter), so the capacity pass today and the
// Kubernetes filter plugins tomorrow answer the same question: does one more
// replica pass on this node as the inventory stands now?
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "capacity.h"
#include "disruption.h"
#include "model.h"
#include "reserve.h"

namespace eruplan {

// A filter's verdict on one node (Kubernetes' status codes): Unresolvable
// nodes are not tried for preemption at all.
enum class FilterCode : std::uint8_t { Fits, Unschedulable, Unresolvable };
struct FilterVerdict {
  FilterCode code = FilterCode::Fits;
  std::vector<std::string> reasons;  // Kubernetes' words ("Insufficient cpu", ...)
};

struct Victim;

// The running pods a dry run has taken off one node, as the changes it made
// in order (a pod taken off, -1, or given back, +1): a filter that keeps
// counts applies the changes since its last call, so a call costs what
// changed, not every pod off the node. `id` tells one dry run from the next.
struct DryRun {
  std::uint64_t id = 0;
  std::vector<std::pair<const Victim*, int>> changes;
};

// Does one more replica pass every filter on inventory.nodes[node], with the
// node's usage, instances and workloads as they stand and, for filters that
// look at the pods themselves (ports, labels, affinity), the pods `dry`
// took off (null: none) taken off it?
using ReplicaFilter =
    std::function<FilterVerdict(const Inventory&, std::uint32_t node, const DryRun* dry)>;

// The filter of the capacity pass: one more instance fits on the node
// (node_capacity >= 1), its reasons in Kubernetes' words; not available and
// taints are Unresolvable, and so is a resource the request asks more of
// than the node has in all. Nodes the request's node_filter excludes are
// Unresolvable ("didn't match Pod's node affinity/selector").
FilterVerdict capacity_filter(const Inventory& inventory, const Request& request,
                              std::uint32_t node, const CoreFit* core_fit = nullptr);

// capacity_filter for the checks of dry runs: a CPU-bind request's cores are
// planned once per dry run and node (CoreFit) while the pods it takes off
// and gives back bind no core, so a check after the first costs what the
// other dimensions cost, not a sort of every core. A victim holding cores
// (a §11 workload's cpu_map) makes the cores planned again.
class CapacityFilter {
 public:
  explicit CapacityFilter(const Request& request) : request_(request) {}
  FilterVerdict operator()(const Inventory& state, std::uint32_t node, const DryRun* dry);
  // The cores planned so far (a node's every core, each time its CoreFit was
  // worked out): the checks' work beyond their number.
  std::int64_t cores_planned() const { return cores_planned_; }

 private:
  const Request& request_;
  std::optional<CoreFit> fit_;  // valid for dry_id_ on node_ up to change seen_
  std::uint64_t dry_id_ = 0;
  std::uint32_t node_ = 0;
  std::size_t seen_ = 0;
  std::int64_t cores_planned_ = 0;
};

// A running pod eruplan may evict: a pod of Inventory::pods or a §11
// workload, with what evicting it gives back.
struct Victim {
  bool workload = false;
  std::uint32_t node = 0;
  std::uint32_t index = 0;  // into Inventory::pods (pods only)
  std::string name;         // "ns/name", or the workload's id
  std::string ns;           // pods only
  std::int32_t priority = 0;
  std::string start_time;  // empty: unknown (Kubernetes takes "now")
  std::string app;
  NanoCores cpu = 0;
  Bytes memory = 0;
  Bytes storage = 0;                                           // pods only
  std::vector<std::pair<std::string, std::int64_t>> extended;  // pods only
  NamedList<Pieces> cpu_map;                                   // workloads only
  int numa = -1;
};

// Kubernetes' MoreImportantPod: higher priority, then earlier start (an
// unknown start is "now", the latest), then name (eruplan's tie-break).
bool more_important(const Victim& a, const Victim& b);

// Every pod eruplan knows one by one, per node, most important first, less
// those evicted in this run.
class RunningPods {
 public:
  RunningPods() = default;
  explicit RunningPods(const Inventory& inventory);
  std::span<const Victim> on(std::uint32_t node) const;
  bool any() const { return any_; }

  // Evicts `victim` (one of on(victim.node)): its node gives back its usage,
  // instance and workload (the node first remembered in `undo`); a pod is
  // marked in Inventory::evicted_pods. restore() takes an eviction back (the
  // node itself comes back through the undo log).
  void evict(Inventory& inventory, const Victim& victim, UndoLog* undo);
  void restore(Inventory& inventory, const Victim& victim);

  // For the pods of on(node) below `priority`, in that order: whether
  // evicting each, the budgets spent in that order from their
  // disruptionsAllowed, violates one of `pdbs`. Each pod is matched against
  // the budgets once (the budgets that cover it and do not list it as
  // disrupted already), and a node's answer is kept until its pods or the
  // priority change, so dry runs of the same node cost no matching.
  const std::vector<char>& violating(const Inventory& inventory, std::uint32_t node,
                                     std::int64_t priority,
                                     std::span<const PodDisruptionBudget> pdbs) const;
  // The work of violating() since the last call, in the dry runs' steps:
  // 20 a budget and 20 a requirement of its selector for each pod matched,
  // 4 (and 4 a budget covering it) for each pod of a node's answer.
  double take_budget_steps() { return std::exchange(budget_steps_, 0); }
  // The matching alone went past the kubernetes profile's bound, after
  // which no pod is matched (violating()'s answers are then incomplete).
  bool budgets_past_bound() const { return past_bound_; }

 private:
  // The budgets of `pdbs` covering `p`, as an index in lists_.
  std::uint32_t covering_list(const RunningPod& p, std::span<const PodDisruptionBudget> pdbs) const;

  std::vector<std::vector<Victim>> by_node_;
  std::vector<std::uint64_t> versions_;  // per node, bumped when its pods change
  bool any_ = false;
  // violating()'s matches (per pod index, empty until matched) and answers
  // (per node), for the budgets at budgets_of_.
  struct Answer {
    bool known = false;
    std::uint64_t version = 0;
    std::int64_t priority = 0;
    std::vector<char> violating;
  };
  mutable const PodDisruptionBudget* budgets_of_ = nullptr;
  mutable std::size_t budget_count_ = 0;
  // Per pod index, its covering budgets' list in lists_ (kUnmatched until
  // matched). The pods of one namespace and one label set share a list
  // (lists_ index by_labels_) unless a budget names one of them as disrupted:
  // memory by distinct labels, not pods x budgets. lists_[0] is empty.
  static constexpr std::uint32_t kUnmatched = UINT32_MAX;
  mutable std::vector<std::uint32_t> covering_;
  mutable std::vector<std::vector<std::uint32_t>> lists_;
  mutable std::map<std::pair<std::string, std::uint32_t>, std::uint32_t> by_labels_;
  mutable std::vector<Answer> answers_;
  mutable std::vector<std::int64_t> allowed_;  // violating()'s scratch
  mutable double budget_steps_ = 0;
  mutable double match_steps_ = 0;    // a pod's matching against every budget
  mutable double matched_steps_ = 0;  // all pods' so far
  mutable bool past_bound_ = false;
};

// Inventory::pods without the pods marked evicted, for the inventory
// written out; the marks are cleared.
void remove_evicted_pods(Inventory& inventory);

// Adds (sign +1) or takes away (sign -1) a victim's usage and instance on its
// node; the dry runs' primitive, exactly reversible.
void adjust_node(Node& node, const Victim& victim, int sign);

// The preemptor: its priority and whether it may preempt at all.
struct Preemptor {
  std::int64_t priority = 0;
  bool never = false;  // preemptionPolicy: Never
};

// SelectVictimsOnNode's answer for one node.
struct NodeVictims {
  std::uint32_t node = 0;
  FilterVerdict verdict;        // Fits when the node is a candidate
  std::vector<Victim> victims;  // most important first
  std::int64_t pdb_violations = 0;
};

// The victims on one node, as Kubernetes' SelectVictimsOnNode: every pod of
// lower priority removed; if the replica then passes, each is given back,
// budget-violating pods first, most important first, and stays whenever the
// replica still passes. The node is left as it was.
NodeVictims select_victims(Inventory& state, const RunningPods& pods, std::uint32_t node,
                           const Preemptor& preemptor, std::span<const PodDisruptionBudget> pdbs,
                           const ReplicaFilter& filter);

// pickOneNodeForPreemption's order over candidates (each with victims):
// fewest budget violations, lowest highest-victim priority, lowest sum of
// (priority + 2^31), fewest victims, latest earliest start time among the
// highest-priority victims, then node name. Returns an index into
// `candidates`; candidates must not be empty.
std::size_t pick_candidate(const Inventory& inventory, std::span<const NodeVictims> candidates);
// The same over pointers (no candidate is copied).
std::size_t pick_candidate(const Inventory& inventory,
                           std::span<const NodeVictims* const> candidates);

// Per-node answers of find_preemption for one preemptor and filter, kept
// from call to call while a node's revision stays: its first filter verdict
// and its victims. Placing a replica or evicting a pod changes only its own
// node's revision, so planning many replicas redoes one node per replica
// instead of every node. Valid only while nodes change through reserve()
// and RunningPods::evict (which bump revisions), never through an undo.
class PreemptionCache {
 public:
  const FilterVerdict& verdict(const Inventory& state, std::uint32_t node,
                               const ReplicaFilter& filter);
  const NodeVictims& victims(Inventory& state, const RunningPods& pods, std::uint32_t node,
                             const Preemptor& preemptor, std::span<const PodDisruptionBudget> pdbs,
                             const ReplicaFilter& filter);

 private:
  struct Entry {
    std::uint64_t revision = 0;
    bool has_verdict = false, has_victims = false;
    FilterVerdict verdict;
    NodeVictims victims;
  };
  Entry& entry(const Inventory& state, std::uint32_t node);
  std::vector<Entry> entries_;
};

struct PreemptionResult {
  std::optional<NodeVictims> chosen;
  // When nothing is chosen: Kubernetes' words, "preemption: 0/5 nodes are
  // available: 2 No preemption victims found for incoming pod, 3 Preemption
  // is not helpful for scheduling."
  std::string message;
};

// DefaultPreemption over `nodes` (the nodes the replica may go to; every
// other inventory node counts as "Preemption is not helpful"). `state` is
// changed during the dry runs and left as it was.
PreemptionResult find_preemption(Inventory& state, const RunningPods& pods,
                                 std::span<const std::uint32_t> nodes, const Preemptor& preemptor,
                                 std::span<const PodDisruptionBudget> pdbs,
                                 const ReplicaFilter& filter, PreemptionCache* cache = nullptr);

// "would place it on n1 by evicting 1 pod"
std::string preemption_line(const Inventory& inventory, const NodeVictims& chosen);

}  // namespace eruplan
