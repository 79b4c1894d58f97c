// Growing the cluster (`eruplan grow`): how many nodes like one of several
// templates must be added for a request to fit, the template chosen as
// cluster-autoscaler's expanders choose a node group, or the cheapest mix of
// templates. Every answer is checked by planning on the grown inventory.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "load.h"
#include "model.h"
#include "names.h"

namespace eruplan {

// Sums of k x cost (GrowTemplate::cost, load.h) are exact in 128 bits.
__extension__ typedef __int128 CostSum;
std::string cost_text(CostSum nano);  // "0.384", "12", "0"

enum class Expander { LeastWaste, MostPods, Price, Priority };
inline constexpr Named<Expander> kExpanderNames[] = {{Expander::LeastWaste, "least-waste"},
                                                     {Expander::MostPods, "most-pods"},
                                                     {Expander::Price, "price"},
                                                     {Expander::Priority, "priority"}};
inline std::string_view expander_name(Expander e) { return name_of(kExpanderNames, e); }

// The inventory with counts[t] copies of templates[t] after its nodes, in
// template order.
Inventory grown_inventory(const Inventory& inventory, std::span<const GrowTemplate> templates,
                          std::span<const std::int64_t> counts);
Inventory grown_inventory(const Inventory& inventory, const Node& node_template, std::int64_t k);

// A copy of a template is a node of its own name: its
// kubernetes.io/hostname label, when it has one, becomes its name (as
// cluster-autoscaler names a template node's hostname), so spreading and
// anti-affinity by hostname see each copy as a domain of its own. A node
// without the label keeps none (the kubernetes profile reads an eruplan
// node's name as its hostname; a Kubernetes Node's missing label stays
// missing).
void set_hostname(Node& node);

// Cluster-autoscaler's template node: the DaemonSets whose node selection
// the template passes (nodeName, nodeSelector, required node affinity, its
// taints tolerated with the controller's tolerations) each run one pod on
// it, its requests the template's usage, one instance of its app (a pod
// slot) and a running pod (namespace, labels, priority, affinity, ports)
// that spreading, inter-pod affinity and host ports see. The pods are one
// list every copy shares (Node::shared_pods). Returns those that run, in
// the order given.
std::vector<const Request*> run_daemons(Node& node_template, std::span<const Request> daemons);

// The work of one grow run's plans, each count tried of each template and
// each combination of the mix, bounded as a whole (a count of replicas must
// not multiply it). Under the kubernetes profile: their steps (as
// k8s_profile_steps counts them) add up to at most kK8sProfileSteps, and no
// plan's added nodes run more than kGrowDaemonPods DaemonSet pods (the
// profile holds each copy's pods on its own). Past either, `too_large` says
// what in words and every later plan is refused at once, so the search
// ends without an answer.
inline constexpr std::int64_t kGrowDaemonPods = 30'000;
// A CPU-bind request's plans read every core of every node (about 20 ns
// each): the plans of one grow read at most this many cores.
inline constexpr std::int64_t kGrowBoundCores = 40'000'000;
// Every plan reads every node, the copies made for it (about 0.5 us each):
// the plans of one grow, and of all the cases of one `eruplan test`
// (case_work.h), read at most this many nodes in all, or kGrowNodesPerNode
// per node of a larger inventory (GrowBudget::node_bound).
inline constexpr std::int64_t kGrowPlannedNodes = 3'000'000;
inline constexpr std::int64_t kGrowNodesPerNode = 64;
// Copies of a template that keeps its cores listed though given as a count
// keep as many each (Node::listed_from_count): the copies of a count tried
// list at most `listed_cores` (the run's listed_core_budget less the
// inventory's own), else too large before they are made.
// Each copy carries its template's per-node lists (copy_items): the copies
// of a count tried carry at most `copy_items` entries of them (kGrowCopyItems,
// or one per byte of the input when more), else too large before they are
// made. The node objects themselves are bounded by --max and the planned
// nodes; a template of 1,000 reservations made 10,000 copies of each.
inline constexpr std::int64_t kGrowCopyItems = 20'000;
// The entries a copy of `node` holds of its own: taints, extended
// resources, volumes, reservations, running instances, NUMA nodes, and its
// labels when it has a hostname label (each copy names itself there).
// Labels otherwise, images and DaemonSet pods are shared by the copies;
// workloads are not copied; listed cores are counted apart.
std::int64_t copy_items(const Node& node);
struct GrowBudget {
  double steps = 0;
  std::int64_t cores = 0;  // cores the CPU-bind plans read so far
  std::int64_t plans = 0;
  double nodes = 0;  // nodes planned on so far
  double node_bound = kGrowPlannedNodes;
  std::int64_t listed_cores = INT64_MAX;
  std::int64_t copy_items = INT64_MAX;
  std::string too_large;
  bool over() const { return !too_large.empty(); }
};
// Whether `counts` copies of `templates` keep within the budget's listed
// cores and copy items; sets `too_large` past either (true without a
// budget).
bool copies_within(std::span<const GrowTemplate> templates, std::span<const std::int64_t> counts,
                   GrowBudget* budget);
// Counts a plan of the request on `grown` against the budget; false (and
// `too_large` set) past it.
bool within_budget(const Inventory& grown, const Request& request, unsigned jobs,
                   GrowBudget& budget);

// The request is feasible on the inventory (placed, partial or satisfied);
// false without planning once `budget` (when given) is spent.
bool request_fits(const Inventory& inventory, const Request& request, unsigned jobs,
                  GrowBudget* budget = nullptr);

// Why a copy of the template can never take an instance (its name, then
// "left out by node_filter" or its capacity-0 reason); empty when it can.
// Copies add nothing but room of their own, so when one cannot take an
// instance no number of them helps.
std::string template_useless(const Inventory& inventory, const Request& request,
                             const Node& node_template);

// The smallest k in [0, max] with the request feasible after adding k
// copies; nullopt when max do not suffice (at once when a copy is useless).
// Feasibility never falls as identical nodes are added, so this bisects:
// O(log max) plans.
std::optional<std::int64_t> smallest_growth(const Inventory& inventory, const Request& request,
                                            const Node& node_template, std::int64_t max,
                                            unsigned jobs, GrowBudget* budget = nullptr);

// A choice of copies per template (parallel to the templates), or none.
struct Growth {
  std::vector<std::int64_t> counts;
  bool found = false;
  std::int64_t added() const;
};

// --expander: each template on its own needs its smallest count; the
// expander picks one template among those that can help within `max`.
// least-waste: the least idle CPU on the copies as a fraction of what they
// add, then idle memory; most-pods: the copies holding the most instances of
// the request; price: the lowest count x cost (every template has a cost);
// priority: the first template given. Ties go to the earlier template.
Growth expand(const Inventory& inventory, const Request& request,
              std::span<const GrowTemplate> templates, Expander expander, std::int64_t max,
              unsigned jobs, GrowBudget* budget = nullptr);

// --mix: the cheapest combination of counts (each at most `max`) that makes
// the request fit, exactly; ties: fewer nodes, then more copies of earlier
// templates. Every template has a cost. nullopt with `too_large` set when
// the search would exceed its bound (more than kMixLimit combinations, or
// when planning decides, more than kMixPlans plans).
inline constexpr std::int64_t kMixLimit = 20'000'000;
inline constexpr std::int64_t kMixPlans = 4096;
std::optional<Growth> cheapest_mix(const Inventory& inventory, const Request& request,
                                   std::span<const GrowTemplate> templates, std::int64_t max,
                                   unsigned jobs, std::string& too_large,
                                   GrowBudget* budget = nullptr);

// The plain search cheapest_mix must agree with: every combination in the
// box, each planned (the tests' oracle; small cases only).
// The copies a failure of several templates shows: `shown` in all, shared
// among the templates in turn (the earlier ones take the remainder), and at
// least one of each, so that every template's copies are planned.
std::vector<std::int64_t> shared_copies(std::size_t templates, std::int64_t shown);

Growth cheapest_mix_oracle(const Inventory& inventory, const Request& request,
                           std::span<const GrowTemplate> templates, std::int64_t max, unsigned jobs,
                           GrowBudget* budget = nullptr);

}  // namespace eruplan
