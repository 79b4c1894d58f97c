// Preemption (SPEC §17), after kube-scheduler v1.35's DefaultPreemption.
//
// Choices the SPEC leaves open, decided here:
// - Every node the replica may go to is dry-run, not a random sample of
//   them as kube-scheduler does past 100 nodes (minCandidateNodesPercentage,
//   minCandidateNodesAbsolute): the answer does not depend on chance.
// - Pods of equal priority and start time are ordered by name, where
//   kube-scheduler's sort leaves them in any order.
// - A start time is compared as text (RFC 3339 as kubectl prints it); a pod
//   without one started "now", after every pod with one.
#include "preemption.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <utility>

#include "capacity.h"
#include "k8s_profile.h"
#include "resources.h"

namespace eruplan {

namespace {

const char* const kNotHelpful = "Preemption is not helpful for scheduling";
const char* const kNoVictims = "No preemption victims found for incoming pod";

// An unknown start time sorts after every known one.
bool earlier(const std::string& a, const std::string& b) {
  if (a.empty()) return false;
  if (b.empty()) return true;
  return a < b;
}

std::string default_app(const RunningPod& pod) {
  if (const std::string* v = find_label(pod.labels, "app.kubernetes.io/name"); v && !v->empty())
    return *v;
  if (const std::string* v = find_label(pod.labels, "app"); v && !v->empty()) return *v;
  return pod.name.empty() ? "(unnamed)" : pod.name;
}

bool fits(const FilterVerdict& v) { return v.code == FilterCode::Fits; }

std::string resource_words(const Request& request, const std::string& kind) {
  if (kind == "not available") return "node(s) were unschedulable";
  if (kind == "taint") return "node(s) had untolerated taint(s)";
  if (kind == "instances") return "Too many pods";
  if (kind == "storage" && request.pod) return "Insufficient ephemeral-storage";
  return "Insufficient " + kind;
}

// The request asks more of `kind` than the node has in all.
bool beyond_node(const Node& node, const Request& request, const std::string& kind) {
  if (kind == "not available" || kind == "taint") return true;
  // Kubernetes' fitsRequest never marks "Too many pods" unresolvable.
  if (kind == "instances") return false;
  if (kind == "cpu" && !request.uses_cpu_fit()) return false;
  const ResourceAmounts a = resource_amounts(node, request, kind);
  return a.per_instance > 0 && a.per_instance > a.total;
}

}  // namespace

FilterVerdict capacity_filter(const Inventory& inventory, const Request& request,
                              std::uint32_t node, const CoreFit* core_fit) {
  const Node& n = inventory.nodes[node];
  if (!request.filter.accepts(n))
    return {FilterCode::Unresolvable, {"node(s) didn't match Pod's node affinity/selector"}};
  const NodeCapacity nc = node_capacity(inventory, request, node, CapacityOptions{1, 1, core_fit});
  if (nc.capacity > 0) return {};
  FilterVerdict v{FilterCode::Unschedulable, {}};
  for (const std::string& kind : reason_kinds(nc.reasons)) {
    v.reasons.push_back(resource_words(request, kind));
    if (beyond_node(n, request, kind)) v.code = FilterCode::Unresolvable;
  }
  return v;
}

FilterVerdict CapacityFilter::operator()(const Inventory& state, std::uint32_t node,
                                         const DryRun* dry) {
  if (!request_.cpu_bind || !request_.filter.accepts(state.nodes[node]))
    return capacity_filter(state, request_, node);
  // The CoreFit holds while this dry run on this node has moved no victim
  // that holds cores since it was worked out.
  bool valid =
      fit_ && dry != nullptr && dry->id == dry_id_ && node == node_ && dry->changes.size() >= seen_;
  for (std::size_t i = seen_; valid && i < dry->changes.size(); ++i)
    valid = dry->changes[i].first->cpu_map.empty();
  if (!valid) {
    fit_ = core_fit(state.nodes[node], state, request_);
    cores_planned_ += static_cast<std::int64_t>(state.nodes[node].core_count());
    dry_id_ = dry != nullptr ? dry->id : 0;
    node_ = node;
  }
  seen_ = dry != nullptr ? dry->changes.size() : 0;
  if (dry == nullptr) dry_id_ = 0;  // a check outside a dry run is not kept
  return capacity_filter(state, request_, node, fit_ ? &*fit_ : nullptr);
}

bool more_important(const Victim& a, const Victim& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.start_time != b.start_time) return earlier(a.start_time, b.start_time);
  return a.name < b.name;
}

namespace {

// A node whose pods ask more memory, ephemeral-storage or of an extended
// resource than it has was read as full (its usage counted as its
// allocatable). What its pods ask beyond that, per resource, so that
// taking pods off frees only what Kubernetes would see freed.
struct Overflow {
  Bytes memory = 0, storage = 0;
  std::vector<std::int64_t> extended;  // per Node::extended
  bool any() const {
    return memory > 0 || storage > 0 ||
           std::any_of(extended.begin(), extended.end(), [](std::int64_t x) { return x > 0; });
  }
};

Overflow overflow_of(const Node& node, std::span<const Victim> pods) {
  Overflow o;
  o.extended.assign(node.extended.size(), 0);
  Bytes memory = 0, storage = 0;
  for (const Victim& v : pods) {
    if (v.workload) continue;
    memory += v.memory;
    storage += v.storage;
    for (const auto& [name, n] : v.extended)
      for (std::size_t e = 0; e < node.extended.size(); ++e)
        if (node.extended[e].name == name) o.extended[e] += n;
  }
  const auto beyond = [](std::int64_t asked, std::int64_t used, std::int64_t total) {
    return used >= total && asked > used ? asked - used : std::int64_t{0};
  };
  o.memory = beyond(memory, node.memory_used, node.memory);
  o.storage = beyond(storage, node.storage_used, node.storage);
  for (std::size_t e = 0; e < node.extended.size(); ++e)
    o.extended[e] = beyond(o.extended[e], node.extended[e].used, node.extended[e].total);
  return o;
}

// `used` (counted as at most `total`, `over` beyond it) changed by `delta`.
void shift(std::int64_t& used, std::int64_t total, std::int64_t& over, std::int64_t delta) {
  const std::int64_t real = used + over + delta;
  used = std::min(real, total);
  over = real - used;
}

// adjust_node on a node read as full: its overflow is spent first.
void adjust_full_node(Node& node, const Victim& v, int sign, Overflow& o) {
  const Victim plain = [&] {
    Victim c = v;
    c.memory = c.storage = 0;
    c.extended.clear();
    return c;
  }();
  adjust_node(node, plain, sign);
  shift(node.memory_used, node.memory, o.memory, sign * v.memory);
  shift(node.storage_used, node.storage, o.storage, sign * v.storage);
  for (const auto& [name, n] : v.extended)
    for (std::size_t e = 0; e < node.extended.size(); ++e)
      if (node.extended[e].name == name)
        shift(node.extended[e].used, node.extended[e].total, o.extended[e], sign * n);
}

}  // namespace

void adjust_node(Node& node, const Victim& v, int sign) {
  node.cpu_used += sign * v.cpu;
  node.memory_used += sign * v.memory;
  node.storage_used += sign * v.storage;
  for (const auto& [name, n] : v.extended)
    for (ExtendedResource& e : node.extended)
      if (e.name == name) e.used += sign * n;
  if (!v.cpu_map.empty()) {
    node.list_cores();
    for (const auto& [core, pieces] : v.cpu_map) {
      const std::size_t i = node.core_lower_bound(core);
      if (i < node.cores.size()) node.cores[i].used += sign * pieces;
    }
  }
  if (v.numa >= 0 && static_cast<std::size_t>(v.numa) < node.numa_nodes.size())
    node.numa_nodes[static_cast<std::size_t>(v.numa)].used += sign * v.memory;
  auto& apps = node.instances;
  auto it = std::lower_bound(apps.begin(), apps.end(), v.app,
                             [](const auto& e, const std::string& k) { return e.first < k; });
  if (it != apps.end() && it->first == v.app)
    it->second += sign;
  else
    apps.insert(it, {v.app, sign});
}

RunningPods::RunningPods(const Inventory& inventory)
    : by_node_(inventory.nodes.size()), versions_(inventory.nodes.size(), 0) {
  const auto& pods = inventory.pods.get();
  for (std::uint32_t i = 0; i < pods.size(); ++i) {
    const RunningPod& p = pods[i];
    if (p.node >= by_node_.size() || inventory.pod_evicted(i)) continue;
    Victim v;
    v.node = p.node;
    v.index = i;
    v.name = p.ns + "/" + p.name;
    v.ns = p.ns;
    v.priority = p.priority;
    v.start_time = p.start_time;
    v.app = p.app.empty() ? default_app(p) : p.app;
    v.cpu = p.cpu;
    v.memory = p.memory;
    v.storage = p.storage;
    v.extended = p.extended;
    by_node_[p.node].push_back(std::move(v));
  }
  for (std::uint32_t n = 0; n < inventory.nodes.size(); ++n)
    for (const Workload& w : inventory.nodes[n].workloads) {
      Victim v;
      v.workload = true;
      v.node = n;
      v.name = w.id;
      v.priority = w.priority;
      v.app = w.app;
      v.cpu = w.cpu;
      v.memory = w.memory;
      v.cpu_map = w.cpu_map;
      v.numa = w.numa;
      by_node_[n].push_back(std::move(v));
    }
  for (auto& list : by_node_) {
    std::sort(list.begin(), list.end(), more_important);
    any_ = any_ || !list.empty();
  }
}

std::uint32_t RunningPods::covering_list(const RunningPod& p,
                                         std::span<const PodDisruptionBudget> pdbs) const {
  const auto list_of = [&] {
    std::vector<std::uint32_t> list;
    for (std::uint32_t b = 0; b < pdbs.size(); ++b)
      if (pdbs[b].covers(p.ns, p.labels)) list.push_back(b);
    return list;
  };
  const auto add = [&](std::vector<std::uint32_t> list) {
    lists_.push_back(std::move(list));
    return static_cast<std::uint32_t>(lists_.size() - 1);
  };
  std::uint32_t shared = 0;
  if (p.label_set == kNoLabelSet) {
    shared = add(list_of());
  } else {
    const auto [it, added] = by_labels_.try_emplace({p.ns, p.label_set}, 0);
    if (added) it->second = add(list_of());
    shared = it->second;
  }
  // A budget that names the pod as disrupted already does not cover it.
  const auto disrupted = [&](std::uint32_t b) {
    return std::binary_search(pdbs[b].disrupted_pods.begin(), pdbs[b].disrupted_pods.end(), p.name);
  };
  const std::vector<std::uint32_t>& list = lists_[shared];
  if (std::none_of(list.begin(), list.end(), disrupted)) return shared;
  std::vector<std::uint32_t> own;
  for (const std::uint32_t b : list)
    if (!disrupted(b)) own.push_back(b);
  return add(std::move(own));
}

const std::vector<char>& RunningPods::violating(const Inventory& inventory, std::uint32_t node,
                                                std::int64_t priority,
                                                std::span<const PodDisruptionBudget> pdbs) const {
  static const std::vector<char> none;
  constexpr std::int64_t kUntouched = std::numeric_limits<std::int64_t>::min();
  if (pdbs.empty() || node >= by_node_.size()) return none;
  if (budgets_of_ != pdbs.data() || budget_count_ != pdbs.size()) {
    budgets_of_ = pdbs.data();
    budget_count_ = pdbs.size();
    covering_.clear();
    lists_.assign(1, {});
    by_labels_.clear();
    allowed_.clear();
    answers_.clear();
    match_steps_ = 0;
    for (const PodDisruptionBudget& b : pdbs)
      match_steps_ += 20.0 * static_cast<double>(1 + b.selector.requirements.size());
  }
  if (answers_.size() < by_node_.size()) answers_.resize(by_node_.size());
  Answer& a = answers_[node];
  if (a.known && a.version == versions_[node] && a.priority == priority) return a.violating;
  a.known = true;
  a.version = versions_[node];
  a.priority = priority;
  a.violating.clear();
  // Read-only: a write access would copy a shared pod list.
  const std::vector<RunningPod>& running = inventory.pods.get();
  std::vector<std::int64_t>& allowed = allowed_;  // each budget's, once touched
  allowed.resize(pdbs.size(), kUntouched);
  std::vector<std::uint32_t> touched;
  for (const Victim& v : by_node_[node]) {
    if (v.priority >= priority) continue;
    bool violated = false;
    if (!v.workload && v.index < running.size()) {
      if (covering_.size() <= v.index) covering_.resize(running.size(), kUnmatched);
      if (covering_[v.index] == kUnmatched) {
        budget_steps_ += match_steps_;
        matched_steps_ += match_steps_;
        // Past the bound the run is refused at its next check: no more matching.
        past_bound_ = past_bound_ || matched_steps_ > static_cast<double>(kK8sProfileSteps);
        covering_[v.index] = past_bound_ ? 0 : covering_list(running[v.index], pdbs);
      }
      const std::vector<std::uint32_t>& covering = lists_[covering_[v.index]];
      budget_steps_ += 4.0 * static_cast<double>(1 + covering.size());
      for (const std::uint32_t b : covering) {
        if (allowed[b] == kUntouched) {
          allowed[b] = pdbs[b].disruptions_allowed;
          touched.push_back(b);
        }
        if (--allowed[b] < 0) violated = true;
      }
    }
    a.violating.push_back(violated ? 1 : 0);
  }
  for (const std::uint32_t b : touched) allowed[b] = kUntouched;
  return a.violating;
}

std::span<const Victim> RunningPods::on(std::uint32_t node) const {
  if (node >= by_node_.size()) return {};
  return by_node_[node];
}

void RunningPods::evict(Inventory& inventory, const Victim& victim, UndoLog* undo) {
  Node& node = inventory.nodes[victim.node];
  if (undo != nullptr) undo->remember(victim.node, node);
  Overflow over = overflow_of(node, on(victim.node));
  if (over.any())
    adjust_full_node(node, victim, -1, over);
  else
    adjust_node(node, victim, -1);
  node.cpu_used = std::max<NanoCores>(node.cpu_used, 0);
  node.memory_used = std::max<Bytes>(node.memory_used, 0);
  node.storage_used = std::max<Bytes>(node.storage_used, 0);
  for (ExtendedResource& e : node.extended) e.used = std::max<std::int64_t>(e.used, 0);
  auto& apps = node.instances;
  for (auto it = apps.begin(); it != apps.end(); ++it)
    if (it->first == victim.app && it->second <= 0) {
      apps.erase(it);
      break;
    }
  if (victim.workload) {
    auto& ws = node.workloads;
    for (auto it = ws.begin(); it != ws.end(); ++it)
      if (it->id == victim.name) {
        ws.erase(it);
        break;
      }
  } else {
    std::vector<bool>& evicted = inventory.evicted_pods;
    if (evicted.size() <= victim.index) evicted.resize(victim.index + 1, false);
    evicted[victim.index] = true;
  }
  ++node.revision;
  ++versions_[victim.node];
  auto& list = by_node_[victim.node];
  const Victim copy = victim;  // `victim` may live in `list`
  list.erase(std::remove_if(list.begin(), list.end(),
                            [&](const Victim& v) {
                              return v.workload == copy.workload && v.name == copy.name;
                            }),
             list.end());
}

void RunningPods::restore(Inventory& inventory, const Victim& victim) {
  if (!victim.workload && victim.index < inventory.evicted_pods.size())
    inventory.evicted_pods[victim.index] = false;
  ++versions_[victim.node];
  auto& list = by_node_[victim.node];
  list.insert(std::upper_bound(list.begin(), list.end(), victim, more_important), victim);
}

void remove_evicted_pods(Inventory& inventory) {
  std::vector<bool> evicted = std::move(inventory.evicted_pods);
  inventory.evicted_pods.clear();
  if (std::find(evicted.begin(), evicted.end(), true) == evicted.end()) return;
  std::vector<RunningPod> kept;
  const auto& pods = inventory.pods.get();
  for (std::size_t i = 0; i < pods.size(); ++i)
    if (i >= evicted.size() || !evicted[i]) kept.push_back(pods[i]);
  inventory.pods = std::move(kept);
}

NodeVictims select_victims(Inventory& state, const RunningPods& pods, std::uint32_t node,
                           const Preemptor& preemptor, std::span<const PodDisruptionBudget> pdbs,
                           const ReplicaFilter& filter) {
  NodeVictims out;
  out.node = node;
  std::vector<const Victim*> potential;  // most important first
  for (const Victim& v : pods.on(node))
    if (v.priority < preemptor.priority) potential.push_back(&v);
  if (potential.empty()) {
    out.verdict = {FilterCode::Unresolvable, {kNoVictims}};
    return out;
  }
  Node saved = state.nodes[node];
  Node& n = state.nodes[node];
  Overflow over = overflow_of(n, pods.on(node));
  const bool full = over.any();
  const auto adjust = [&](const Victim& v, int sign) {
    if (full)
      adjust_full_node(n, v, sign, over);
    else
      adjust_node(n, v, sign);
  };
  // The pods off the node while the filters run: the potential victims,
  // less those reprieved, plus those kept as victims.
  static std::atomic<std::uint64_t> dry_runs{0};
  DryRun dry;
  dry.id = ++dry_runs;
  dry.changes.reserve(2 * potential.size());
  for (const Victim* v : potential) {
    adjust(*v, -1);
    dry.changes.push_back({v, -1});
  }
  out.verdict = filter(state, node, &dry);
  if (fits(out.verdict)) {
    // Budgets spent in importance order over every potential victim.
    const std::vector<char>& violated = pods.violating(state, node, preemptor.priority, pdbs);
    std::vector<const Victim*> violating, other;
    for (std::size_t i = 0; i < potential.size(); ++i)
      (i < violated.size() && violated[i] != 0 ? violating : other).push_back(potential[i]);
    const auto reprieve = [&](const Victim* v) {
      adjust(*v, +1);
      dry.changes.push_back({v, +1});
      if (fits(filter(state, node, &dry))) return true;
      adjust(*v, -1);
      dry.changes.push_back({v, -1});
      out.victims.push_back(*v);
      return false;
    };
    for (const Victim* v : violating)
      if (!reprieve(v)) ++out.pdb_violations;
    for (const Victim* v : other) reprieve(v);
    if (!violating.empty() && !other.empty())
      std::stable_sort(out.victims.begin(), out.victims.end(), more_important);
  }
  state.nodes[node] = std::move(saved);
  return out;
}

std::size_t pick_candidate(const Inventory& inventory, std::span<const NodeVictims> candidates) {
  std::vector<const NodeVictims*> pointers;
  pointers.reserve(candidates.size());
  for (const NodeVictims& c : candidates) pointers.push_back(&c);
  return pick_candidate(inventory, pointers);
}

std::size_t pick_candidate(const Inventory& inventory,
                           std::span<const NodeVictims* const> candidates) {
  std::vector<std::size_t> left(candidates.size());
  for (std::size_t i = 0; i < left.size(); ++i) left[i] = i;
  // Keeps the candidates whose key is smallest (`less` orders keys).
  const auto keep_best = [&](auto key, auto less) {
    if (left.size() <= 1) return;
    auto best = key(*candidates[left.front()]);
    for (const std::size_t i : left) {
      auto k = key(*candidates[i]);
      if (less(k, best)) best = k;
    }
    std::vector<std::size_t> next;
    for (const std::size_t i : left) {
      auto k = key(*candidates[i]);
      if (!less(k, best) && !less(best, k)) next.push_back(i);
    }
    left.swap(next);
  };
  const auto lower = [](auto a, auto b) { return a < b; };
  keep_best([](const NodeVictims& c) { return c.pdb_violations; }, lower);
  keep_best([](const NodeVictims& c) { return std::int64_t{c.victims.front().priority}; }, lower);
  keep_best(
      [](const NodeVictims& c) {
        std::int64_t sum = 0;
        for (const Victim& v : c.victims) sum += std::int64_t{v.priority} + (std::int64_t{1} << 31);
        return sum;
      },
      lower);
  keep_best([](const NodeVictims& c) { return static_cast<std::int64_t>(c.victims.size()); },
            lower);
  // The latest earliest start time among the highest-priority victims.
  keep_best(
      [](const NodeVictims& c) {
        const std::int32_t top = c.victims.front().priority;
        std::string earliest = c.victims.front().start_time;
        for (const Victim& v : c.victims)
          if (v.priority == top && earlier(v.start_time, earliest)) earliest = v.start_time;
        return earliest;
      },
      [](const std::string& a, const std::string& b) { return earlier(b, a); });
  keep_best([&](const NodeVictims& c) { return std::string_view(inventory.nodes[c.node].name); },
            lower);
  return left.front();
}

PreemptionCache::Entry& PreemptionCache::entry(const Inventory& state, std::uint32_t node) {
  if (entries_.size() < state.nodes.size()) entries_.resize(state.nodes.size());
  Entry& e = entries_[node];
  if (e.revision != state.nodes[node].revision) {
    e.revision = state.nodes[node].revision;
    e.has_verdict = e.has_victims = false;
  }
  return e;
}

const FilterVerdict& PreemptionCache::verdict(const Inventory& state, std::uint32_t node,
                                              const ReplicaFilter& filter) {
  Entry& e = entry(state, node);
  if (!e.has_verdict) {
    e.verdict = filter(state, node, {});
    e.has_verdict = true;
  }
  return e.verdict;
}

const NodeVictims& PreemptionCache::victims(Inventory& state, const RunningPods& pods,
                                            std::uint32_t node, const Preemptor& preemptor,
                                            std::span<const PodDisruptionBudget> pdbs,
                                            const ReplicaFilter& filter) {
  Entry& e = entry(state, node);
  if (!e.has_victims) {
    e.victims = select_victims(state, pods, node, preemptor, pdbs, filter);
    e.has_victims = true;
  }
  return e.victims;
}

PreemptionResult find_preemption(Inventory& state, const RunningPods& pods,
                                 std::span<const std::uint32_t> nodes, const Preemptor& preemptor,
                                 std::span<const PodDisruptionBudget> pdbs,
                                 const ReplicaFilter& filter, PreemptionCache* cache) {
  PreemptionResult result;
  if (preemptor.never) {
    result.message = "preemption: not eligible due to preemptionPolicy=Never.";
    return result;
  }
  PreemptionCache local;
  PreemptionCache& answers = cache != nullptr ? *cache : local;
  std::vector<const NodeVictims*> candidates;
  std::map<std::string, std::int64_t> histogram;
  std::size_t with_status = 0;
  for (const std::uint32_t node : nodes) {
    if (answers.verdict(state, node, filter).code != FilterCode::Unschedulable)
      continue;  // absent: not helpful
    const NodeVictims& nv = answers.victims(state, pods, node, preemptor, pdbs, filter);
    if (fits(nv.verdict) && !nv.victims.empty()) {
      candidates.push_back(&nv);
      continue;
    }
    if (fits(nv.verdict)) continue;
    ++with_status;
    for (const std::string& reason : nv.verdict.reasons) ++histogram[reason];
  }
  if (!candidates.empty()) {
    result.chosen = *candidates[pick_candidate(state, candidates)];
    return result;
  }
  const std::int64_t absent = static_cast<std::int64_t>(state.nodes.size() - with_status);
  if (absent > 0) histogram[kNotHelpful] += absent;
  std::vector<std::string> parts;
  for (const auto& [reason, n] : histogram) parts.push_back(std::to_string(n) + " " + reason);
  std::sort(parts.begin(), parts.end());
  result.message = "preemption: 0/" + std::to_string(state.nodes.size()) + " nodes are available";
  for (std::size_t i = 0; i < parts.size(); ++i)
    result.message += (i == 0 ? ": " : ", ") + parts[i];
  result.message += ".";
  return result;
}

std::string preemption_line(const Inventory& inventory, const NodeVictims& chosen) {
  const std::size_t n = chosen.victims.size();
  return "--preempt would place it on " + inventory.nodes[chosen.node].name + " by evicting " +
         std::to_string(n) + (n == 1 ? " pod" : " pods");
}

}  // namespace eruplan
