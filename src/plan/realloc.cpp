// Realloc (SPEC §11). Eru resizes running containers in place: the
// workloads of a node that want the same new resources form a group; the
// group gives its old resources back, the capacity pass (memory mode, no CPU
// fit) must find room for all of it, and then each member in id order takes
// a plan — a bound one the plan keeping most of its old pieces, so its
// process moves as little as possible. A group with no room keeps what it had.
#include "realloc.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "capacity.h"
#include "cpu_plans.h"
#include "reserve.h"
#include "units.h"
#include "wide.h"

namespace eruplan {

namespace {

// A bound member weighing the plans on its old cores pays a plan of the
// allowance per this many plans it looks at (a look is a few ns; listing a
// plan costs more).
constexpr std::int64_t kVisitsPerPlan = 16;

WorkloadResources resources_of(const Workload& w) {
  return WorkloadResources{w.cpu, w.cpu_limit, w.memory, w.memory_limit, w.cpu_map, w.numa};
}

// Takes (sign -1) or gives back (sign +1) a workload's resources on its node.
void apply_usage(Node& node, const WorkloadResources& r, int sign) {
  node.cpu_used += sign * r.cpu;
  node.memory_used += sign * r.memory;
  if (r.bound()) node.list_cores();
  for (const auto& [core, pieces] : r.cpu_map) {
    const std::size_t i = node.core_lower_bound(core);
    if (i < node.cores.size()) node.cores[i].used += sign * pieces;
  }
  if (r.numa >= 0 && static_cast<std::size_t>(r.numa) < node.numa_nodes.size())
    node.numa_nodes[static_cast<std::size_t>(r.numa)].used += sign * r.memory;
  ++node.revision;
}

// A bound member's old pieces by core index: each core of the node whose id
// the old map names, with the pieces the map gives it.
std::vector<std::pair<std::size_t, Pieces>> old_cores(const Node& node,
                                                      const NamedList<Pieces>& old) {
  std::vector<std::pair<std::size_t, Pieces>> out;
  for (const auto& [id, pieces] : old) {
    const std::size_t i = node.find_core(id);
    if (i >= node.cores.size()) continue;
    // The first entry naturally equal to the core's id, as the map is
    // searched by id.
    const std::string core = node.core_id(i);
    auto it = std::lower_bound(old.begin(), old.end(), core, [](const auto& e, const auto& k) {
      return natural_less(e.first, k);
    });
    if (it != old.end() && it->first == core) out.emplace_back(i, it->second);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// A plan that keeps every old piece of a bound workload: its old cores,
// each with at least its old pieces, and free cores added to make `pieces`
// (the new request) — the old plan's extension, which a growing workload
// takes when the capacity pass lists none keeping its cores. Whole parts
// take cores with a multiple of share_base free, the fraction a core with
// enough pieces (an old fraction core first, then cores already split, then
// whole ones within max_fragment_cores); added cores come from the old
// cores' NUMA node first, then fewest free pieces, then core order. nullopt
// when the node has no such plan.
std::optional<Plan> extension_plan(const Inventory& inventory, const Node& node,
                                   const NamedList<Pieces>& old, Pieces pieces, Bytes memory) {
  const Pieces P = inventory.share_base;
  const auto whole = static_cast<std::size_t>(pieces / P);
  const Pieces fraction = pieces % P;
  const std::size_t n = node.cores.size();
  auto avail = [&](std::size_t i) { return node.cores[i].capacity - node.cores[i].used; };
  auto whole_ok = [&](std::size_t i) { return avail(i) >= P && avail(i) % P == 0; };
  std::vector<char> in(n, 0);
  std::vector<std::size_t> whole_cores;
  std::optional<std::size_t> fraction_core;
  int numa = -2;  // the old cores' NUMA node: -2 none seen, -1 mixed
  for (const auto& [id, p] : old) {
    const std::size_t i = node.core_lower_bound(id);
    if (i >= n || !node.core_id_is(i, id)) return std::nullopt;
    if (p < P && !fraction_core && fraction >= p && avail(i) >= fraction)
      fraction_core = i;
    else if (p <= P && whole_ok(i))
      whole_cores.push_back(i);
    else
      return std::nullopt;
    in[i] = 1;
    numa = numa == -2 || numa == node.cores[i].numa ? node.cores[i].numa : -1;
  }
  if (whole_cores.size() > whole) return std::nullopt;
  auto order = [&](std::vector<std::size_t>& list) {
    std::sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) {
      return std::make_tuple(node.cores[a].numa != numa, avail(a), a) <
             std::make_tuple(node.cores[b].numa != numa, avail(b), b);
    });
  };
  std::vector<std::size_t> free;
  for (std::size_t i = 0; i < n; ++i)
    if (!in[i] && whole_ok(i)) free.push_back(i);
  order(free);
  if (whole_cores.size() + free.size() < whole) return std::nullopt;
  for (std::size_t k = 0; whole_cores.size() < whole; ++k) {
    whole_cores.push_back(free[k]);
    in[free[k]] = 1;
  }
  if (fraction > 0 && !fraction_core) {
    // Cores already split first; a whole core becomes one only within
    // max_fragment_cores.
    std::int64_t split = 0;
    std::vector<std::size_t> split_cores, whole_free;
    for (std::size_t i = 0; i < n; ++i) {
      const bool is_split = avail(i) % P != 0;
      split += is_split ? 1 : 0;
      if (in[i] || avail(i) < fraction) continue;
      (is_split ? split_cores : whole_free).push_back(i);
    }
    order(split_cores);
    order(whole_free);
    if (!split_cores.empty())
      fraction_core = split_cores.front();
    else if (!whole_free.empty() &&
             (inventory.max_fragment_cores < 0 || split < inventory.max_fragment_cores))
      fraction_core = whole_free.front();
    else
      return std::nullopt;
  }
  Plan plan;
  for (std::size_t i : whole_cores) plan.cpu.push_back(CoreShare{static_cast<std::uint32_t>(i), P});
  if (fraction_core)
    plan.cpu.push_back(CoreShare{static_cast<std::uint32_t>(*fraction_core), fraction});
  std::sort(plan.cpu.begin(), plan.cpu.end(),
            [](const CoreShare& a, const CoreShare& b) { return a.core < b.core; });
  // Within one NUMA node with the memory free there, it is that node's plan.
  const int first = node.cores[plan.cpu.front().core].numa;
  const bool one = first >= 0 && std::all_of(plan.cpu.begin(), plan.cpu.end(), [&](const auto& s) {
                     return node.cores[s.core].numa == first;
                   });
  if (one) {
    const NumaNode& nn = node.numa_nodes[static_cast<std::size_t>(first)];
    if (nn.memory - nn.used >= memory) plan.numa = first;
  }
  return plan;
}

// A bound member's old cores with their pieces (old_cores).
using OldCores = std::vector<std::pair<std::size_t, Pieces>>;

// A group's capacity pass: its capacity and reasons, how many plans it
// lists, and of those only what the members choosing from it may take.
// Each member in turn takes the plan keeping most of its old pieces (a
// plan keeps Σ min(old, share) over the member's old cores; ties by plan
// order), else the first plan left. With m members choosing, fewer than m
// plans are gone when one chooses, so its plan is among the first m plans
// or among its own m best, and the pass holds only those:
// - a member with one old core (old pieces > 0) keeps as much of every
//   plan giving that core a share of one size: its m best are among the
//   first m plans of each share size on the core, held with their places
//   among the plans on the core, as it looks at them in order;
// - a member with several old cores has its m best found as the plans go
//   by, for as many of these members, in order, as the run's allowance can
//   pay the looks of (the plans on their old cores; a member past them
//   ends the run before it chooses).
struct Listing {
  struct Entry {
    std::uint32_t plan = 0;
    std::uint32_t place = 0;  // among the plans on the core
    Pieces pieces = 0;
  };
  struct Best {
    std::uint32_t plan = 0;
    Pieces kept = 0;
  };
  struct Core {
    std::vector<Entry> held;                             // the held plans on the core, by place
    std::size_t plans = 0;                               // plans on the core
    std::size_t left = 0;                                // places before it are all taken
    bool single = false;                                 // a member holds it alone
    std::vector<std::pair<Pieces, std::int64_t>> sizes;  // share size, plans of it held
  };
  NodeCapacity nc;
  std::size_t listed = 0;
  std::size_t from = 0;                               // the group's first member choosing from it
  std::vector<std::pair<std::uint32_t, Plan>> plans;  // the ones held, by plan
  std::vector<std::uint32_t> at;                      // per core of the node: its Core, or kNone
  std::vector<Core> cores;
  std::vector<std::uint32_t> best_of;    // per member choosing, by index from the first: its bests
  std::vector<std::vector<Best>> bests;  // per set of several old cores: its m best (a heap)
  static constexpr std::uint32_t kNone = UINT32_MAX;

  Core* core(std::size_t i) { return i < at.size() && at[i] != kNone ? &cores[at[i]] : nullptr; }
  auto find(std::size_t p) const {
    return std::lower_bound(plans.begin(), plans.end(), p,
                            [](const auto& e, std::size_t k) { return e.first < k; });
  }
  bool holds(std::size_t p) const { return find(p) != plans.end() && find(p)->first == p; }
  const Plan& plan(std::size_t p) const {
    if (!holds(p)) throw std::logic_error("realloc: a member's plan is not held");
    return find(p)->second;
  }
};

bool better(const Listing::Best& a, const Listing::Best& b) {
  return a.kept != b.kept ? a.kept > b.kept : a.plan < b.plan;
}

// Lists the first `listed` plans of the pass on the node as it stands for
// the members choosing (`olds`, in order), holding what they may take.
// `looks`: what the run's allowance can still pay of their looks.
void list_plans(const Inventory& inventory, const Node& node, const Request& request,
                const std::vector<OldCores>& olds, std::int64_t looks, Listing& out) {
  const auto m = static_cast<std::int64_t>(olds.size());
  out.at.assign(node.cores.size(), Listing::kNone);
  auto watch = [&](std::size_t i) -> Listing::Core& {
    if (out.at[i] == Listing::kNone) {
      out.at[i] = static_cast<std::uint32_t>(out.cores.size());
      out.cores.emplace_back();
    }
    return out.cores[out.at[i]];
  };
  // The sets of several old cores, each once.
  std::vector<OldCores> sets;
  std::vector<std::uint32_t> set_of(olds.size(), Listing::kNone);
  for (std::size_t k = 0; k < olds.size(); ++k) {
    const bool one = olds[k].size() == 1 && olds[k].front().second > 0;
    for (const auto& [i, pieces] : olds[k]) watch(i).single |= one;
    if (one || olds[k].empty()) continue;
    auto it = std::find(sets.begin(), sets.end(), olds[k]);
    set_of[k] = static_cast<std::uint32_t>(it - sets.begin());
    if (it == sets.end()) sets.push_back(olds[k]);
  }
  // First: the first m plans, and on each core a member holds alone the
  // first m of each share size, with every held plan's places on those cores.
  std::vector<std::pair<std::uint32_t, Listing::Entry>> places;  // core, entry
  std::uint32_t next = 0;
  cpu_plans::each_plan(
      node, inventory, request, static_cast<std::int64_t>(out.listed), [&](Plan&& plan) {
        const std::uint32_t p = next++;
        bool held = p < m;
        places.clear();
        for (const CoreShare& share : plan.cpu) {
          Listing::Core* c = out.core(share.core);
          if (c == nullptr) continue;
          const auto place = static_cast<std::uint32_t>(c->plans++);
          if (!c->single) continue;
          places.push_back({out.at[share.core], {0, place, share.pieces}});
          auto size = std::find_if(c->sizes.begin(), c->sizes.end(),
                                   [&](const auto& s) { return s.first == share.pieces; });
          if (size == c->sizes.end()) size = c->sizes.insert(size, {share.pieces, 0});
          if (size->second < m) ++size->second, held = true;
        }
        if (!held) return;
        for (auto& [c, e] : places) {
          e.plan = p;
          out.cores[c].held.push_back(e);
        }
        out.plans.emplace_back(p, std::move(plan));
      });
  // The members with several old cores the allowance can pay the looks of.
  out.best_of.assign(olds.size(), Listing::kNone);
  std::vector<char> wanted(sets.size(), 0);
  for (std::size_t k = 0; k < olds.size(); ++k) {
    if (set_of[k] == Listing::kNone) continue;
    for (const auto& [i, pieces] : olds[k]) looks -= static_cast<std::int64_t>(out.core(i)->plans);
    if (looks < 0) break;
    out.best_of[k] = set_of[k];
    wanted[set_of[k]] = 1;
  }
  if (std::find(wanted.begin(), wanted.end(), 1) == wanted.end()) return;
  // Second: their m best, as the plans go by.
  out.bests.assign(sets.size(), {});
  std::vector<std::vector<std::pair<std::uint32_t, Pieces>>> sets_on(out.cores.size());
  for (std::uint32_t s = 0; s < sets.size(); ++s)
    if (wanted[s])
      for (const auto& [i, pieces] : sets[s]) sets_on[out.at[i]].emplace_back(s, pieces);
  std::vector<Pieces> kept(sets.size(), 0);
  std::vector<std::uint32_t> touched;
  next = 0;
  cpu_plans::each_plan(node, inventory, request, static_cast<std::int64_t>(out.listed),
                       [&](Plan&& plan) {
                         const std::uint32_t p = next++;
                         for (const CoreShare& share : plan.cpu) {
                           if (out.core(share.core) == nullptr) continue;
                           for (const auto& [s, pieces] : sets_on[out.at[share.core]]) {
                             if (kept[s] == 0) touched.push_back(s);
                             kept[s] += std::min(pieces, share.pieces);
                           }
                         }
                         for (std::uint32_t s : touched) {
                           const Listing::Best b{p, kept[s]};
                           kept[s] = 0;
                           if (b.kept == 0) continue;
                           std::vector<Listing::Best>& heap = out.bests[s];  // worst on top
                           if (static_cast<std::int64_t>(heap.size()) < m) {
                             heap.push_back(b);
                             std::push_heap(heap.begin(), heap.end(), better);
                           } else if (better(b, heap.front())) {
                             std::pop_heap(heap.begin(), heap.end(), better);
                             heap.back() = b;
                             std::push_heap(heap.begin(), heap.end(), better);
                           }
                         }
                         touched.clear();
                       });
  // Third: the plans of those bests not held yet, with their places.
  std::vector<std::uint32_t> fetch;
  for (const auto& heap : out.bests)
    for (const Listing::Best& b : heap) fetch.push_back(b.plan);
  std::sort(fetch.begin(), fetch.end());
  fetch.erase(std::unique(fetch.begin(), fetch.end()), fetch.end());
  std::erase_if(fetch, [&](std::uint32_t p) { return out.holds(p); });
  if (fetch.empty()) return;
  for (Listing::Core& c : out.cores) c.plans = 0;
  next = 0;
  std::size_t f = 0;
  cpu_plans::each_plan(node, inventory, request, static_cast<std::int64_t>(out.listed),
                       [&](Plan&& plan) {
                         const std::uint32_t p = next++;
                         const bool held = f < fetch.size() && fetch[f] == p;
                         f += held ? 1 : 0;
                         for (const CoreShare& share : plan.cpu) {
                           Listing::Core* c = out.core(share.core);
                           if (c == nullptr) continue;
                           const auto place = static_cast<std::uint32_t>(c->plans++);
                           if (held && c->single) c->held.push_back({p, place, share.pieces});
                         }
                         if (held) out.plans.emplace_back(p, std::move(plan));
                       });
  std::sort(out.plans.begin(), out.plans.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (Listing::Core& c : out.cores)
    std::sort(c.held.begin(), c.held.end(),
              [](const Listing::Entry& a, const Listing::Entry& b) { return a.place < b.place; });
}

struct Group {
  std::uint32_t node = 0;
  std::vector<std::size_t> members;  // indexes into the changes, by id
};

// The key §11 groups by: node and the new (cpu, cpu_limit, memory, memory_limit, bound).
auto group_key(const WorkloadChange& c) {
  return std::make_tuple(c.node, c.after.cpu, c.after.cpu_limit, c.after.memory,
                         c.after.memory_limit, c.bind, c.cpu_fit);
}

// One group (step 2): give back, capacity pass, hand out plans; on failure
// take the old resources again. Returns the failure reason, empty on success.
// `plans_left`: what the run's allowance has left, less the plans this
// group's passes list (weighed by plan_weight).
std::string realloc_group(Inventory& inventory, const Group& g,
                          std::vector<WorkloadChange>& changes, std::int64_t& plans_left) {
  Node& node = inventory.nodes[g.node];
  const WorkloadChange& first = changes[g.members.front()];
  // Members that held no cores all choose the first plans left (none keeps
  // any of theirs): a plan each is all the pass need list.
  const bool held = std::any_of(g.members.begin(), g.members.end(),
                                [&](std::size_t m) { return !changes[m].before.cpu_map.empty(); });
  for (std::size_t m : g.members) apply_usage(node, changes[m].before, -1);

  Request request;
  request.cpu = first.after.cpu;
  request.cpu_limit = first.after.cpu_limit;
  request.memory = first.after.memory;
  request.memory_limit = first.after.memory_limit;
  request.cpu_bind = first.bind;
  // A pod read from --pods: Kubernetes never oversells CPU requests.
  request.cpu_fit = node.workloads[first.workload].cpu_fit;
  const auto size = static_cast<std::int64_t>(g.members.size());
  // A member's weighing visits the plans on its old cores: charged to the
  // allowance as a plan per kVisitsPerPlan visits.
  std::int64_t unpaid = 0;
  // The capacity pass for `count` more members, the node's availability,
  // taints and max_instances set aside: in place, a cordoned node, its
  // taints and max_instances keep out new instances, not the resizing of
  // running ones.
  auto pass = [&](std::int64_t count) {
    const bool was_available = node.available;
    const std::int64_t was_max = node.max_instances;
    std::vector<Taint> was_taints = std::move(node.taints);
    node.available = true;
    node.max_instances = -1;
    node.taints.clear();
    CapacityOptions options;
    const std::int64_t max_plans =
        held ? std::max(options.max_plans, count) : count;  // one per member
    options.max_plans = 0;  // the plans come below, held only as members may choose them
    Listing out;
    out.nc = node_capacity(inventory, request, g.node, options);
    const std::int64_t listed =
        request.cpu_bind && out.nc.capacity > 0 ? std::min(out.nc.capacity, max_plans) : 0;
    plans_left -=
        listed > plans_left / plan_weight(request) ? plans_left + 1 : listed * plan_weight(request);
    // Past the allowance the run ends (exit 3): no plan of it is looked at.
    if (out.nc.capacity >= count && listed > 0 && plans_left >= 0) {
      out.listed = static_cast<std::size_t>(listed);
      out.from = g.members.size() - static_cast<std::size_t>(count);
      std::vector<OldCores> olds;
      for (std::size_t k = out.from; k < g.members.size(); ++k)
        olds.push_back(old_cores(node, changes[g.members[k]].before.cpu_map));
      // The looks the allowance pays before the run ends.
      const std::int64_t looks =
          plans_left < std::numeric_limits<std::int64_t>::max() / (2 * kVisitsPerPlan)
              ? kVisitsPerPlan * (plans_left + 1) - 1 - unpaid
              : std::numeric_limits<std::int64_t>::max();
      list_plans(inventory, node, request, olds, looks, out);
    }
    node.available = was_available;
    node.max_instances = was_max;
    node.taints = std::move(was_taints);
    return out;
  };
  Listing listing = pass(size);
  const NodeCapacity& nc = listing.nc;
  if (nc.capacity < size) {
    for (std::size_t m : g.members) apply_usage(node, changes[m].before, +1);
    if (nc.capacity == 0) return format_reasons(nc.reasons);
    return "room for " + std::to_string(nc.capacity) + " of the group's " + std::to_string(size) +
           " workloads (cpu " + format_cores(request.cpu) + ", memory " +
           format_bytes(request.memory) + (request.cpu_bind ? ", bound" : "") + ")";
  }
  std::vector<bool> taken(listing.listed, false);
  std::size_t first_free = 0;  // no plan before it is left
  auto charge = [&](std::int64_t visits) {
    unpaid += visits;
    const std::int64_t plans = unpaid / kVisitsPerPlan;
    unpaid %= kVisitsPerPlan;
    plans_left -= plans > plans_left ? plans_left + 1 : plans;
  };
  for (std::size_t k = 0; k < g.members.size(); ++k) {
    WorkloadChange& c = changes[g.members[k]];
    c.after.cpu_map.clear();
    c.after.numa = -1;
    if (c.bind) {
      if (plans_left < 0) return {};  // the run ends with exit 3: nothing of it is kept
      // Of the plans no earlier member took, the one keeping most old
      // pieces; ties by plan order. Capacity >= size leaves one for each.
      // A plan's kept pieces are Σ_core min(old, new) over its old cores;
      // every plan off them keeps none, so with no plan keeping any, the
      // first plan left is the one.
      const std::size_t listed = listing.listed;
      while (first_free < listed && taken[first_free]) ++first_free;
      std::size_t best = listed;
      Pieces best_kept = -1;
      if (first_free < listed) best = first_free, best_kept = 0;
      std::int64_t visits = 0;
      bool unweighed = false;  // past what the allowance pays: the run ends here
      const auto olds = old_cores(node, c.before.cpu_map);
      auto weigh = [&](std::uint32_t p, Pieces k) {
        if (k > best_kept || (k == best_kept && p < best)) best = p, best_kept = k;
      };
      if (olds.size() == 1 && olds.front().second > 0) {
        // One old core: its plans in plan order, from the first not taken;
        // the first keeping all its old pieces is the one. Of the plans on
        // it not held, none is taken and an earlier held one keeps as much.
        const auto [core, pieces] = olds.front();
        Listing::Core& on = *listing.core(core);
        const std::vector<Listing::Entry>& held = on.held;
        std::size_t& at = on.left;
        auto h = static_cast<std::size_t>(
            std::lower_bound(held.begin(), held.end(), at,
                             [](const Listing::Entry& e, std::size_t k) { return e.place < k; }) -
            held.begin());
        for (; at < on.plans && h < held.size() && held[h].place == at && taken[held[h].plan];
             ++at, ++h)
          ++visits;
        std::size_t stop = on.plans;  // where the look ends
        for (std::size_t j = h; j < held.size(); ++j) {
          if (taken[held[j].plan]) continue;
          weigh(held[j].plan, std::min(pieces, held[j].pieces));
          if (best_kept == pieces) {
            stop = held[j].place + 1;
            break;
          }
        }
        visits += static_cast<std::int64_t>(stop - at);
      } else if (!olds.empty()) {
        // Several: every plan on them is looked at; the best left is among
        // the member's m best.
        for (const auto& [core, pieces] : olds)
          visits += static_cast<std::int64_t>(listing.core(core)->plans);
        const std::uint32_t set = listing.best_of[k - listing.from];
        unweighed = set == Listing::kNone;
        if (!unweighed)
          for (const Listing::Best& b : listing.bests[set])
            if (!taken[b.plan]) weigh(b.plan, b.kept);
      }
      charge(visits);
      if (plans_left < 0) return {};  // the run ends with exit 3: nothing of it is kept
      if (unweighed) throw std::logic_error("realloc: a member's plans were not weighed");
      // None keeps all its old pieces: the extension of its old plan does,
      // when the node has one and the members after it still find room
      // (then they choose among the plans of a fresh pass).
      Pieces old_pieces = 0;
      for (const auto& [core, p] : c.before.cpu_map) old_pieces += p;
      std::optional<Plan> extension;
      if (best_kept < old_pieces)
        extension =
            extension_plan(inventory, node, c.before.cpu_map,
                           cpu_request_pieces(c.after.cpu, inventory.share_base), c.after.memory);
      if (extension) {
        WorkloadResources trial = c.after;
        for (const CoreShare& share : extension->cpu)
          trial.cpu_map.emplace_back(node.core_id(share.core), share.pieces);
        trial.numa = extension->numa;
        apply_usage(node, trial, +1);
        const auto rest = static_cast<std::int64_t>(g.members.size() - k - 1);
        Listing after = rest > 0 ? pass(rest) : Listing{};
        apply_usage(node, trial, -1);
        if (rest == 0 || after.nc.capacity >= rest) {
          listing = std::move(after);
          taken.assign(listing.listed, false);
          first_free = 0;
        } else {
          extension.reset();
        }
      }
      if (!extension) taken[best] = true;
      const Plan& plan = extension ? *extension : listing.plan(best);
      for (const CoreShare& share : plan.cpu)
        c.after.cpu_map.emplace_back(node.core_id(share.core), share.pieces);
      std::sort(c.after.cpu_map.begin(), c.after.cpu_map.end(),
                [](const auto& a, const auto& b) { return natural_less(a.first, b.first); });
      c.after.numa = plan.numa;
    }
    apply_usage(node, c.after, +1);
    Workload& w = node.workloads[c.workload];
    w.cpu = c.after.cpu;
    w.cpu_limit = c.after.cpu_limit;
    w.memory = c.after.memory;
    w.memory_limit = c.after.memory_limit;
    w.cpu_map = c.after.cpu_map;
    w.numa = c.after.numa;
  }
  return {};
}

WorkloadChange make_change(const Inventory& inventory, std::uint32_t node, std::uint32_t index) {
  WorkloadChange c;
  c.node = node;
  c.workload = index;
  c.id = inventory.nodes[node].workloads[index].id;
  c.app = inventory.nodes[node].workloads[index].app;
  c.cpu_fit = inventory.nodes[node].workloads[index].cpu_fit;
  return c;
}

// old + delta, or an error naming the field that went negative.
bool add_delta(std::int64_t old, std::int64_t delta, std::int64_t& out) {
  return !__builtin_add_overflow(old, delta, &out) && out >= 0;
}

}  // namespace

NodeUsage node_usage(const Node& node) {
  NodeUsage u{node.cpu_used, node.memory_used, {}};
  for (std::size_t i = 0; i < node.cores.size(); ++i)
    if (node.cores[i].used > 0) u.cpu_map.emplace_back(node.core_id(i), node.cores[i].used);
  return u;
}

std::optional<std::vector<WorkloadChange>> select_workloads(const Inventory& inventory,
                                                            const ReallocRequest& request,
                                                            Diagnostics& diags) {
  std::vector<WorkloadChange> selected;
  std::vector<Origin> origins;  // where each selected workload was asked for
  const auto errors = [&] { return diags.error_count(); };
  const auto errors_before = errors();
  if (request.app) {
    for (std::uint32_t n = 0; n < inventory.nodes.size(); ++n) {
      const Node& node = inventory.nodes[n];
      for (std::uint32_t i = 0; i < node.workloads.size(); ++i)
        if (node.workloads[i].app == *request.app) {
          selected.push_back(make_change(inventory, n, i));
          origins.push_back(request.app_origin);
        }
    }
    if (selected.empty())
      diags.error(request.app_origin, "no workload of app " + quoted(*request.app) +
                                          " in the inventory: nothing to reallocate");
  } else {
    std::unordered_map<std::string_view, std::pair<std::uint32_t, std::uint32_t>> where;
    for (std::uint32_t n = 0; n < inventory.nodes.size(); ++n)
      for (std::uint32_t i = 0; i < inventory.nodes[n].workloads.size(); ++i)
        where.emplace(inventory.nodes[n].workloads[i].id, std::make_pair(n, i));
    for (std::size_t k = 0; k < request.ids.size(); ++k) {
      auto it = where.find(request.ids[k]);
      if (it == where.end()) {
        diags.error(request.id_origins[k],
                    "unknown workload " + quoted(request.ids[k]) + ": no node lists it");
        continue;
      }
      const auto [n, i] = it->second;
      selected.push_back(make_change(inventory, n, i));
      origins.push_back(request.id_origins[k]);
    }
  }
  for (std::size_t k = 0; k < selected.size(); ++k) {
    WorkloadChange& c = selected[k];
    const Node& node = inventory.nodes[c.node];
    c.before = resources_of(node.workloads[c.workload]);
    c.bind = request.cpu_bind == CpuBindChange::Keep ? c.before.bound()
                                                     : request.cpu_bind == CpuBindChange::Bind;
    WorkloadResources& a = c.after;
    const std::string who = "workload " + quoted(c.id) + " on " + excerpt(node.name) + ": ";
    bool ok = true;
    auto add = [&](std::int64_t old, std::int64_t delta, std::int64_t& out, const char* field,
                   bool bytes) {
      if (add_delta(old, delta, out)) return;
      const auto text = [&](std::int64_t v) { return bytes ? format_bytes(v) : format_cores(v); };
      diags.error(origins[k], who + field + " " + text(old) + (delta < 0 ? " - " : " + ") +
                                  text(delta < 0 ? -delta : delta) + " is negative");
      ok = false;
    };
    add(c.before.cpu, request.cpu, a.cpu, "cpu", false);
    add(c.before.cpu_limit, request.cpu_limit, a.cpu_limit, "cpu_limit", false);
    add(c.before.memory, request.memory, a.memory, "memory", true);
    add(c.before.memory_limit, request.memory_limit, a.memory_limit, "memory_limit", true);
    if (!ok) continue;
    // SPEC §3's normalisation again, on the new values.
    if (a.cpu == 0 && a.cpu_limit > 0) a.cpu = a.cpu_limit;
    a.cpu_limit = std::max(a.cpu_limit, a.cpu);
    if (a.memory == 0 && a.memory_limit > 0) a.memory = a.memory_limit;
    a.memory_limit = std::max(a.memory_limit, a.memory);
    if (c.bind) a.cpu = a.cpu_limit;
    if (c.bind && a.cpu == 0)
      diags.error(origins[k], who + "binding cores with cpu 0; a bound workload needs cpu > 0");
    else if (c.bind && cpu_request_pieces(a.cpu, inventory.share_base) == -1)
      diags.error(origins[k], who + "cpu " + format_cores(a.cpu) + " at share_base " +
                                  std::to_string(inventory.share_base) +
                                  " is not a whole number of pieces; a bound workload's cpu x "
                                  "share_base must be whole");
  }
  if (errors() > errors_before) return std::nullopt;
  // By id: sort a permutation, then move each change once (they are large).
  std::vector<std::uint32_t> order(selected.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t x, std::uint32_t y) { return selected[x].id < selected[y].id; });
  std::vector<WorkloadChange> by_id;
  by_id.reserve(selected.size());
  for (std::uint32_t i : order) by_id.push_back(std::move(selected[i]));
  return by_id;
}

std::string realloc_too_large(const Inventory& inventory,
                              const std::vector<WorkloadChange>& selected,
                              std::int64_t listed_cores) {
  std::vector<char> counted(inventory.nodes.size(), 0);
  std::int64_t listed = 0, nodes = 0;
  for (const WorkloadChange& c : selected) {
    const Node& node = inventory.nodes[c.node];
    if (!c.bind || counted[c.node] || !node.cores.empty()) continue;
    counted[c.node] = 1;
    listed += node.plain_cores;
    ++nodes;
  }
  if (listed <= listed_cores) return {};
  return "too large: binding CPUs on " + std::to_string(nodes) +
         " nodes given as a core count keeps their cores one by one: " + std::to_string(listed) +
         " cores, more than the " + std::to_string(listed_cores) + " this input may keep (" +
         listed_core_rule() +
         ", less the inventory's own); "
         "give those nodes' cores as a cpu map, or select fewer workloads";
}

ReallocResult realloc(Inventory& inventory, std::vector<WorkloadChange> selected, bool atomic,
                      std::int64_t plan_allowance) {
  ReallocResult result;
  // Groups: node and new resources; in order of node name, then smallest id.
  std::vector<std::size_t> order(selected.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;  // already by id
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return group_key(selected[a]) < group_key(selected[b]);
  });
  std::vector<Group> groups;
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k == 0 || group_key(selected[order[k]]) != group_key(selected[order[k - 1]]))
      groups.push_back(Group{selected[order[k]].node, {}});
    groups.back().members.push_back(order[k]);
  }
  std::sort(groups.begin(), groups.end(), [&](const Group& a, const Group& b) {
    const std::string& na = inventory.nodes[a.node].name;
    const std::string& nb = inventory.nodes[b.node].name;
    if (na != nb) return na < nb;
    return selected[a.members.front()].id < selected[b.members.front()].id;
  });

  // The nodes holding selected workloads, by name, with their usage before.
  std::vector<std::uint32_t> nodes;
  for (const Group& g : groups)
    if (nodes.empty() || nodes.back() != g.node) nodes.push_back(g.node);
  for (std::uint32_t n : nodes)
    result.nodes.push_back(NodeChange{n, node_usage(inventory.nodes[n]), {}});

  UndoLog undo;
  std::int64_t plans_left = plan_allowance;
  for (const Group& g : groups) {
    if (atomic) undo.remember(g.node, inventory.nodes[g.node]);
    const std::string reason = realloc_group(inventory, g, selected, plans_left);
    if (plans_left < 0) {
      result.too_large = "too large: the binding groups' capacity passes list more than " +
                         std::to_string(plan_allowance) +
                         " plans for this input (each weighing once per 2 cores; " +
                         std::to_string(kReallocPlansPerBudget) +
                         " per 4 bytes of input, at least " +
                         std::to_string(kReallocPlansPerBudget * kMinPlanBudget) +
                         "; a bound workload looking at "
                         "the plans on its old cores, to keep most of them, weighs one per " +
                         std::to_string(kVisitsPerPlan) +
                         " it looks at): a group whose workloads hold cores lists every plan of "
                         "its node; select fewer workloads";
      break;
    }
    ++result.groups;
    if (reason.empty()) continue;
    ++result.failed_groups;
    for (std::size_t m : g.members) {
      selected[m].status = ReallocStatus::Failed;
      selected[m].reason = reason;
    }
  }
  if (atomic && result.failed_groups > 0) {
    undo.undo(inventory);
    for (WorkloadChange& c : selected)
      if (c.status == ReallocStatus::Ok) c.status = ReallocStatus::NotApplied;
  }
  for (WorkloadChange& c : selected)
    if (c.status != ReallocStatus::Ok) c.after = c.before;
  for (NodeChange& n : result.nodes) n.after = node_usage(inventory.nodes[n.node]);
  result.workloads = std::move(selected);
  return result;
}

}  // namespace eruplan
