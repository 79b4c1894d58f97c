// Growing the cluster: one template by bisection, several by an expander, or
// the cheapest mix.
//
// The mix is found without planning every combination: a lone copy of a
// template adds a fixed amount toward what the request still needs, so the
// search is a small covering problem solved exactly by enumeration with
// pruning, and its answer is then planned. For strategies whose count is a
// total (auto, global, drained, score) a copy adds its capacity and the need
// is the count less the inventory's capacity; for fill and each a copy that
// qualifies adds one node toward the nodes still needed. When the planned
// answer disagrees (nodes_limit and other limits the model does not see),
// every combination is planned in cost order instead, within a bound.
#include "grow.h"

#include <algorithm>
#include <utility>

#include "bisect.h"
#include "capacity.h"
#include "case_work.h"
#include "k8s_daemonset.h"
#include "k8s_profile.h"
#include "requests.h"
#include "strategy.h"
#include "wide.h"

namespace eruplan {

namespace {

// The order of two growths: cost (when given), then nodes, then more copies
// of earlier templates.
struct MixKey {
  i128 cost = 0;
  std::int64_t nodes = 0;
  const std::vector<std::int64_t>* counts = nullptr;
};

bool better(const MixKey& a, const MixKey& b) {
  if (a.cost != b.cost) return a.cost < b.cost;
  if (a.nodes != b.nodes) return a.nodes < b.nodes;
  for (std::size_t t = 0; t < a.counts->size(); ++t)
    if ((*a.counts)[t] != (*b.counts)[t]) return (*a.counts)[t] > (*b.counts)[t];
  return false;
}

MixKey key_of(std::span<const GrowTemplate> templates, const std::vector<std::int64_t>& counts) {
  MixKey k;
  k.counts = &counts;
  for (std::size_t t = 0; t < templates.size(); ++t) {
    k.cost += static_cast<i128>(counts[t]) * templates[t].cost.value_or(0);
    k.nodes += counts[t];
  }
  return k;
}

// The plans the budget counts: the kubernetes profile's.
bool counted(const Request& request) {
  return request.strategy == Strategy::Score &&
         request.scoring.profile == ScoringProfile::Kubernetes;
}

// Counts the plan of `input` against the budget (GrowBudget, grow.h).
bool count_plan(const StrategyInput& input, GrowBudget& budget) {
  if (budget.over()) return false;
  const auto nodes = static_cast<double>(input.inventory->nodes.size());
  budget.nodes += nodes;
  case_work_spend(nodes, budget.node_bound);
  if (const double earlier = case_work_before(budget.node_bound);
      budget.nodes + earlier > budget.node_bound) {
    budget.too_large =
        "too large: grow plans the request for each count it tries, reading every node: " +
        work_units(budget.nodes) + (budget.nodes == 1 ? " node" : " nodes") + " in all" +
        case_work_before_note(earlier) + ", more than " + work_units(budget.node_bound) +
        "; ask for fewer instances, or give fewer templates or a smaller --max" +
        case_work_hint(earlier);
    return false;
  }
  if (input.request->cpu_bind) {
    for (const Node& node : input.inventory->nodes)
      budget.cores += static_cast<std::int64_t>(node.core_count());
    if (budget.cores > kGrowBoundCores) {
      budget.too_large =
          "too large: grow plans the CPU-bind request for each count it tries, "
          "reading every core: " +
          std::to_string(budget.cores) + " cores (the last plan on " +
          std::to_string(input.inventory->nodes.size()) + " nodes), more than " +
          std::to_string(kGrowBoundCores) +
          "; ask for fewer instances, or give a smaller --max or template";
      return false;
    }
  }
  if (!counted(*input.request)) return true;
  // The profile holds the running pods of every node apart: the copies'
  // DaemonSet pods, one list they share, become one entry per copy.
  std::int64_t daemon_pods = 0, running = 0;
  for (const Node& node : input.inventory->nodes)
    if (node.shared_pods) {
      daemon_pods += static_cast<std::int64_t>(node.shared_pods->pods.size());
      ++running;
    }
  if (daemon_pods > kGrowDaemonPods) {
    budget.too_large = "too large: the kubernetes profile keeps the DaemonSet pods of each node: " +
                       std::to_string(running) + " added nodes run " + std::to_string(daemon_pods) +
                       " of them, more than " + std::to_string(kGrowDaemonPods) +
                       "; ask for fewer replicas, or give fewer DaemonSets or a smaller --max";
    return false;
  }
  double steps = 0;
  k8s_profile_too_large(input, 0, 1, &steps);
  budget.steps += steps;
  ++budget.plans;
  if (budget.steps <= static_cast<double>(kK8sProfileSteps)) return true;
  budget.too_large =
      "too large: grow plans the request under the kubernetes profile for each count it tries: " +
      std::to_string(budget.plans) + " plans (the last on " +
      std::to_string(input.inventory->nodes.size()) + " nodes) are " +
      std::to_string(static_cast<std::int64_t>(budget.steps)) + " steps, more than " +
      std::to_string(kK8sProfileSteps) +
      "; ask for fewer replicas, or give fewer templates or a smaller --max";
  return false;
}

// The strategy's placement of `request` alone on `inventory`; `infos` gets
// the nodes it saw (those with capacity), parallel to its deploy. Nothing is
// placed once the budget is spent.
Placement place_alone(const Inventory& inventory, const Request& request, unsigned jobs,
                      std::vector<StrategyInfo>& infos, GrowBudget* budget) {
  if (budget && budget->over()) return Placement{};
  const CapacityMap map = capacity_pass(inventory, request, CapacityOptions{0, jobs});
  std::vector<std::size_t> where;
  infos = strategy_infos(inventory, map, where);
  // The capacity pass goes with it: the kubernetes profile reads its filters there.
  const StrategyInput input{infos,      request.count, map.total, request.nodes_limit,
                            &inventory, &request,      jobs,      &map};
  if (budget && !count_plan(input, *budget)) {
    infos.clear();
    return Placement{};
  }
  return place(input, request.min_count, request.strategy);
}

bool spent(const GrowBudget* budget) { return budget && budget->over(); }

}  // namespace

std::int64_t copy_items(const Node& node) {
  const auto& labels = std::as_const(node.labels);
  const bool hostname = std::any_of(labels.begin(), labels.end(),
                                    [](const auto& l) { return l.first == kHostnameLabel; });
  return static_cast<std::int64_t>(node.taints.size() + node.extended.size() + node.devices.size() +
                                   node.reservations.size() + node.instances.size() +
                                   node.numa_nodes.size() + (hostname ? labels.size() : 0));
}

bool copies_within(std::span<const GrowTemplate> templates, std::span<const std::int64_t> counts,
                   GrowBudget* budget) {
  if (budget == nullptr || budget->over()) return !spent(budget);
  i128 listed = 0, items = 0;
  for (std::size_t t = 0; t < templates.size() && t < counts.size(); ++t) {
    listed += static_cast<i128>(counts[t]) * templates[t].node.listed_from_count();
    items += static_cast<i128>(counts[t]) * copy_items(templates[t].node);
  }
  if (items > budget->copy_items) {
    budget->too_large =
        "too large: each copy carries its template's own taints, extended resources, "
        "volumes, reservations, instances, NUMA nodes and hostname-labelled labels: " +
        std::to_string(static_cast<std::int64_t>(items)) +
        " entries for the copies tried, more than the " + std::to_string(budget->copy_items) +
        " this input may make (" + std::to_string(kGrowCopyItems) +
        ", or one per byte of input when more); give a smaller template or a smaller --max";
    return false;
  }
  if (listed <= budget->listed_cores) return true;
  budget->too_large =
      "too large: each copy keeps its template's cores one by one (a node given as a core "
      "count that names some of them): " +
      std::to_string(static_cast<std::int64_t>(listed)) +
      " cores for the copies tried, more than the " + std::to_string(budget->listed_cores) +
      " this input may keep (" + listed_core_rule() +
      ", less the inventory's own); "
      "give the template's cores as a cpu map, or a smaller --max";
  return false;
}

namespace {

bool copies_within(const Node& node_template, std::int64_t k, GrowBudget* budget) {
  const GrowTemplate t{node_template, std::nullopt};
  return copies_within(std::span(&t, 1), std::span(&k, 1), budget);
}

// New instances a plan on `grown` puts on nodes from index `from` on.
std::int64_t placed_from(const Inventory& grown, const Request& request, std::size_t from,
                         unsigned jobs, GrowBudget* budget) {
  std::vector<StrategyInfo> infos;
  const Placement p = place_alone(grown, request, jobs, infos, budget);
  std::int64_t n = 0;
  for (std::size_t i = 0; i < infos.size() && i < p.result.deploy.size(); ++i)
    if (infos[i].node >= from) n += p.result.deploy[i];
  return n;
}

// The capacity of one copy of `t` for the request, at most `cap`.
std::int64_t copy_capacity(const Inventory& inventory, const Request& request,
                           const GrowTemplate& t, std::int64_t cap) {
  const Inventory one = grown_inventory(inventory, t.node, 1);
  if (!request.filter.accepts(one.nodes.back())) return 0;
  const NodeCapacity nc = node_capacity(
      one, request, static_cast<std::uint32_t>(one.nodes.size() - 1), CapacityOptions{0, 1});
  return std::min(nc.capacity, cap);
}

bool total_count(Strategy s) { return s != Strategy::Fill && s != Strategy::Each; }

}  // namespace

void set_hostname(Node& node) {
  const auto& labels = std::as_const(node.labels);
  auto it = std::find_if(labels.begin(), labels.end(),
                         [](const auto& l) { return l.first == kHostnameLabel; });
  if (it == labels.end() || it->second == node.name) return;
  const auto at = it - labels.begin();
  node.labels.get()[static_cast<std::size_t>(at)].second = node.name;
}

std::string cost_text(CostSum nano) {
  const bool negative = nano < 0;
  if (negative) nano = -nano;
  const i128 whole = nano / kCostScale;
  std::int64_t frac = static_cast<std::int64_t>(nano % kCostScale);
  std::string digits;
  i128 w = whole;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(w % 10)));
    w /= 10;
  } while (w > 0);
  if (frac != 0) {
    std::string f = std::to_string(frac);
    f.insert(0, 9 - f.size(), '0');
    while (f.back() == '0') f.pop_back();
    digits += '.' + f;
  }
  return (negative ? "-" : "") + digits;
}

std::int64_t Growth::added() const {
  std::int64_t n = 0;
  for (std::int64_t k : counts) n += k;
  return n;
}

// A DaemonSet's pod as kube-scheduler sees it once the controller placed
// it: its namespace, labels, priority, requests and affinity or ports.
RunningPod daemon_pod(const Request& d) {
  RunningPod p;
  p.ns = d.pod ? d.pod->ns : std::string("default");
  p.name = d.name;
  if (d.pod) p.labels = d.pod->labels;
  p.priority = d.pod ? d.pod->priority : static_cast<std::int32_t>(d.priority);
  p.cpu = d.cpu;
  p.memory = d.memory;
  p.nonzero_cpu = d.pod && d.pod->nonzero_cpu >= 0 ? d.pod->nonzero_cpu : d.cpu;
  p.nonzero_memory = d.pod && d.pod->nonzero_memory >= 0 ? d.pod->nonzero_memory : d.memory;
  p.app = d.app;
  p.scheduling = d.pod;
  return p;
}

std::vector<const Request*> run_daemons(Node& node_template, std::span<const Request> daemons) {
  std::vector<const Request*> ran;
  const PodScheduling none;
  auto saturating_add = [](std::int64_t a, std::int64_t b) {
    std::int64_t sum = 0;
    return __builtin_add_overflow(a, b, &sum) ? INT64_MAX : sum;
  };
  Node& n = node_template;
  auto shared = std::make_shared<SharedPods>(n.shared_pods ? *n.shared_pods : SharedPods{});
  for (const Request& d : daemons) {
    if (!daemon_should_run(n, d.pod ? *d.pod : none, d.tolerations)) continue;
    ran.push_back(&d);
    n.cpu_used = saturating_add(n.cpu_used, d.cpu);
    n.memory_used = saturating_add(n.memory_used, d.memory);
    n.storage_used = saturating_add(n.storage_used, d.storage);
    for (const auto& [name, value] : d.extended)
      for (ExtendedResource& e : n.extended)
        if (e.name == name) e.used = saturating_add(e.used, value);
    // One pod, one instance of its app: shared by every copy (SharedPods).
    shared->pods.push_back(daemon_pod(d));
    auto& apps = shared->instances;
    auto it = std::lower_bound(apps.begin(), apps.end(), d.app,
                               [](const auto& e, const std::string& k) { return e.first < k; });
    if (it != apps.end() && it->first == d.app)
      it->second = saturating_add(it->second, 1);
    else
      apps.insert(it, {d.app, 1});
  }
  if (!shared->pods.empty()) n.shared_pods = std::move(shared);
  return ran;
}

Inventory grown_inventory(const Inventory& inventory, std::span<const GrowTemplate> templates,
                          std::span<const std::int64_t> counts) {
  Inventory out = inventory;
  std::int64_t total = 0;
  for (std::int64_t k : counts) total += k;
  out.nodes.reserve(inventory.nodes.size() + static_cast<std::size_t>(total));
  for (std::size_t t = 0; t < templates.size(); ++t) {
    if (counts[t] <= 0) continue;
    // Copies run none of the template's workloads: left out once, not
    // copied into each copy and dropped there.
    Node base = templates[t].node;
    base.workloads.clear();
    base.revision = 0;
    for (std::int64_t j = 1; j <= counts[t]; ++j) {
      Node copy = base;
      copy.name = templates[t].node.name + "-" + std::to_string(j);
      set_hostname(copy);
      out.nodes.push_back(std::move(copy));
    }
  }
  return out;
}

Inventory grown_inventory(const Inventory& inventory, const Node& node_template, std::int64_t k) {
  const GrowTemplate t{node_template, std::nullopt};
  return grown_inventory(inventory, std::span(&t, 1), std::span(&k, 1));
}

std::string template_useless(const Inventory& inventory, const Request& request,
                             const Node& node_template) {
  const Inventory one = grown_inventory(inventory, node_template, 1);
  const Node& copy = one.nodes.back();
  if (!request.filter.accepts(copy)) return copy.name + ": left out by node_filter";
  const NodeCapacity nc = node_capacity(
      one, request, static_cast<std::uint32_t>(one.nodes.size() - 1), CapacityOptions{0, 1});
  if (nc.capacity == 0) return copy.name + ": capacity 0 (" + nc.reason() + ")";
  return {};
}

bool within_budget(const Inventory& grown, const Request& request, unsigned jobs,
                   GrowBudget& budget) {
  if (budget.over()) return false;
  if (!counted(request)) return true;
  const CapacityMap map = capacity_pass(grown, request, CapacityOptions{0, jobs});
  std::vector<std::size_t> where;
  const std::vector<StrategyInfo> infos = strategy_infos(grown, map, where);
  const StrategyInput input{infos,  request.count, map.total, request.nodes_limit,
                            &grown, &request,      jobs,      &map};
  return count_plan(input, budget);
}

bool request_fits(const Inventory& inventory, const Request& request, unsigned jobs,
                  GrowBudget* budget) {
  std::vector<StrategyInfo> infos;
  const Placement p = place_alone(inventory, request, jobs, infos, budget);
  return p.placed > 0 || p.first.outcome == StrategyOutcome::AlreadySatisfied;
}

std::optional<std::int64_t> smallest_growth(const Inventory& inventory, const Request& request,
                                            const Node& node_template, std::int64_t max,
                                            unsigned jobs, GrowBudget* budget) {
  auto fits = [&](std::int64_t k) {
    return copies_within(node_template, k, budget) &&
           request_fits(grown_inventory(inventory, node_template, k), request, jobs, budget);
  };
  if (fits(0)) return 0;
  if (max <= 0 || !template_useless(inventory, request, node_template).empty()) return std::nullopt;
  // Doubling first, then bisection: the copies planned on follow the
  // answer (at most twice it), not --max (10,000 by default), so a small
  // growth takes little memory and time.
  std::int64_t lo = 0, hi = 1;  // fits(lo) false; fits(hi) true once the loop ends
  while (!fits(hi)) {
    if (hi >= max || spent(budget)) return std::nullopt;
    lo = hi;
    hi = hi > max / 2 ? max : 2 * hi;
  }
  const std::int64_t k = first_true(lo, hi, fits);
  if (spent(budget)) return std::nullopt;
  return k;
}

Growth expand(const Inventory& inventory, const Request& request,
              std::span<const GrowTemplate> templates, Expander expander, std::int64_t max,
              unsigned jobs, GrowBudget* budget) {
  Growth best;
  best.counts.assign(templates.size(), 0);
  std::optional<std::size_t> chosen;
  // The chosen template's figures: idle cpu and memory as fractions
  // (num/den, compared exactly), instances held, cost.
  i128 idle_cpu_num = 0, idle_cpu_den = 1, idle_mem_num = 0, idle_mem_den = 1, held = 0, price = 0;
  std::int64_t chosen_k = 0;
  for (std::size_t t = 0; t < templates.size(); ++t) {
    const std::optional<std::int64_t> k =
        smallest_growth(inventory, request, templates[t].node, max, jobs, budget);
    if (spent(budget)) return best;
    if (!k) continue;
    if (*k == 0) {  // nothing to add
      best.found = true;
      return best;
    }
    const Node& n = templates[t].node;
    i128 cpu_num = 0, cpu_den = 1, mem_num = 0, mem_den = 1, t_held = 0, t_price = 0;
    if (expander == Expander::LeastWaste) {
      std::vector<std::int64_t> counts(templates.size(), 0);
      counts[t] = *k;
      const std::int64_t placed = copies_within(templates, counts, budget)
                                      ? placed_from(grown_inventory(inventory, templates, counts),
                                                    request, inventory.nodes.size(), jobs, budget)
                                      : 0;
      if (spent(budget)) return best;
      cpu_den = static_cast<i128>(*k) * n.cpu_total();
      cpu_num =
          cpu_den - static_cast<i128>(*k) * n.cpu_used - static_cast<i128>(placed) * request.cpu;
      mem_den = static_cast<i128>(*k) * n.memory;
      mem_num = mem_den - static_cast<i128>(*k) * n.memory_used -
                static_cast<i128>(placed) * request.memory;
      if (cpu_den == 0) cpu_num = 0, cpu_den = 1;
      if (mem_den == 0) mem_num = 0, mem_den = 1;
    } else if (expander == Expander::MostPods) {
      const std::int64_t c = copy_capacity(inventory, request, templates[t], kUnlimited);
      t_held =
          c == kUnlimited ? static_cast<i128>(kUnlimited) * (max + 1) : static_cast<i128>(c) * *k;
    } else if (expander == Expander::Price) {
      t_price = static_cast<i128>(*k) * templates[t].cost.value_or(0);
    }
    bool take = !chosen;
    if (chosen) {
      switch (expander) {
        case Expander::LeastWaste: {
          // cluster-autoscaler's wasted score: the idle fractions of CPU and
          // memory added up, in float64 as it does.
          auto waste = [](i128 c, i128 cd, i128 m, i128 md) {
            return static_cast<double>(c) / static_cast<double>(cd) +
                   static_cast<double>(m) / static_cast<double>(md);
          };
          take = waste(cpu_num, cpu_den, mem_num, mem_den) <
                 waste(idle_cpu_num, idle_cpu_den, idle_mem_num, idle_mem_den);
          break;
        }
        case Expander::MostPods:
          take = t_held > held;
          break;
        case Expander::Price:
          take = t_price < price;
          break;
        case Expander::Priority:
          take = false;
          break;
      }
    }
    if (take) {
      chosen = t;
      chosen_k = *k;
      idle_cpu_num = cpu_num, idle_cpu_den = cpu_den, idle_mem_num = mem_num,
      idle_mem_den = mem_den;
      held = t_held, price = t_price;
    }
  }
  if (!chosen) return best;
  best.counts[*chosen] = chosen_k;
  best.found = true;
  return best;
}

std::optional<Growth> cheapest_mix(const Inventory& inventory, const Request& request,
                                   std::span<const GrowTemplate> templates, std::int64_t max,
                                   unsigned jobs, std::string& too_large, GrowBudget* budget) {
  const std::size_t n = templates.size();
  Growth best;
  best.counts.assign(n, 0);
  if (request_fits(inventory, request, jobs, budget)) {
    best.found = true;
    return best;
  }
  // What each copy adds toward the need, and the need.
  std::vector<std::int64_t> adds(n, 0);
  std::int64_t need = 0;
  if (total_count(request.strategy)) {
    const CapacityMap map = capacity_pass(inventory, request, CapacityOptions{0, jobs});
    const std::int64_t have = std::min(map.total, request.count);
    need = request.count - have;
    for (std::size_t t = 0; t < n; ++t)
      adds[t] = copy_capacity(inventory, request, templates[t], request.count);
  } else {
    need = -1;
    for (std::size_t t = 0; t < n; ++t) {
      const auto k = smallest_growth(inventory, request, templates[t].node, max, jobs, budget);
      if (!k) continue;
      adds[t] = 1;
      need = need < 0 ? *k : std::min(need, *k);
    }
    if (need < 0 || spent(budget)) return best;  // no template helps
  }
  // Enumerate counts template by template, the last one closed-form; a
  // prefix that already covers the need leaves the rest at 0.
  std::vector<std::int64_t> counts(n, 0), found;
  std::int64_t visited = 0;
  bool over = false;
  auto search = [&](auto&& self, std::size_t t, std::int64_t still) -> void {
    if (over) return;
    if (++visited > kMixLimit) {
      over = true;
      return;
    }
    if (still <= 0) {
      std::fill(counts.begin() + static_cast<long>(t), counts.end(), 0);
      if (found.empty() || better(key_of(templates, counts), key_of(templates, found)))
        found = counts;
      return;
    }
    if (t == n) return;
    const std::int64_t a = adds[t];
    const std::int64_t enough = a > 0 ? (still + a - 1) / a : 0;
    if (t + 1 == n) {
      if (a == 0 || enough > max) return;
      counts[t] = enough;
      self(self, t + 1, 0);
      return;
    }
    for (std::int64_t k = 0; k <= std::min(max, enough); ++k) {
      counts[t] = k;
      self(self, t + 1, still - k * a);
      if (over) return;
    }
    counts[t] = 0;
  };
  search(search, 0, need);
  if (over) {
    too_large = "the mix of " + std::to_string(n) + " templates up to --max " +
                std::to_string(max) + " has more than " + std::to_string(kMixLimit) +
                " combinations to weigh; give fewer templates or a smaller --max";
    return std::nullopt;
  }
  if (!found.empty() && copies_within(templates, found, budget) &&
      request_fits(grown_inventory(inventory, templates, found), request, jobs, budget)) {
    best.counts = found;
    best.found = true;
    return best;
  }
  // The capacity model did not settle it (limits it does not see). A
  // further copy never makes the request infeasible, nor cheaper, so for
  // each choice of the other templates' counts the best is the smallest
  // count of the first that plans, bisected: (max+1)^(n-1) choices of
  // O(log max) plans each, within a bound.
  std::int64_t per_choice = 2;
  for (std::int64_t span = max; span > 0; span /= 2) ++per_choice;
  i128 plans = per_choice;
  for (std::size_t t = 1; t < n && plans <= kMixPlans; ++t) plans *= max + 1;
  if (plans > kMixPlans) {
    too_large =
        "the mix could not be settled from the templates' capacities (the request's "
        "nodes_limit or limits decide it), and planning the combinations of " +
        std::to_string(n) + " templates up to --max " + std::to_string(max) + " exceeds " +
        std::to_string(kMixPlans) + " plans; give a smaller --max";
    return std::nullopt;
  }
  std::fill(counts.begin(), counts.end(), 0);
  auto fits = [&](std::int64_t k) {
    counts[0] = k;
    return copies_within(templates, counts, budget) &&
           request_fits(grown_inventory(inventory, templates, counts), request, jobs, budget);
  };
  while (!spent(budget)) {
    counts[0] = 0;
    if (!best.found || better(key_of(templates, counts), key_of(templates, best.counts))) {
      std::int64_t k = -1;
      if (fits(0))
        k = 0;
      else if (max > 0 && fits(max))
        k = first_true(0, max, fits);
      counts[0] = k;
      if (k >= 0 &&
          (!best.found || better(key_of(templates, counts), key_of(templates, best.counts)))) {
        best.counts = counts;
        best.found = true;
      }
    }
    std::size_t t = 1;
    while (t < n && counts[t] == max) counts[t++] = 0;
    if (t >= n) break;
    ++counts[t];
  }
  if (!best.found) best.counts.assign(n, 0);
  return best;
}

Growth cheapest_mix_oracle(const Inventory& inventory, const Request& request,
                           std::span<const GrowTemplate> templates, std::int64_t max, unsigned jobs,
                           GrowBudget* budget) {
  const std::size_t n = templates.size();
  Growth best;
  std::vector<std::int64_t> counts(n, 0);
  while (!spent(budget)) {
    if ((!best.found || better(key_of(templates, counts), key_of(templates, best.counts))) &&
        request_fits(grown_inventory(inventory, templates, counts), request, jobs, budget)) {
      best.counts = counts;
      best.found = true;
    }
    std::size_t t = 0;
    while (t < n && counts[t] == max) counts[t++] = 0;
    if (t == n) break;
    ++counts[t];
  }
  if (!best.found) best.counts.assign(n, 0);
  return best;
}

std::vector<std::int64_t> shared_copies(std::size_t templates, std::int64_t shown) {
  std::vector<std::int64_t> counts(templates, 0);
  if (templates == 0) return counts;
  const auto n = static_cast<std::int64_t>(templates);
  for (std::int64_t t = 0; t < n; ++t)
    counts[static_cast<std::size_t>(t)] = std::max<std::int64_t>(1, shown / n + (t < shown % n));
  return counts;
}

}  // namespace eruplan
