// The kubernetes profile's cycle (k8s_profile.h): what the fast path
// (k8s_fast.cpp) and the one-at-a-time reference share, and the reference:
// one replica at a time, every node of the inventory through the filters in
// kube-scheduler's order, the feasible ones scored by every score plugin,
// normalized and weighted, and the pick: the lowest name among the highest
// totals, or kube-scheduler's selectHost with a seeded splitmix64.
// NodeResourcesFit's filter is the capacity pass (resources and pods); its
// score and BalancedAllocation are the resources profile's arithmetic, the
// fit score over requests with Kubernetes' non-zero defaults (100m cpu,
// 200Mi memory per container without a request), the balanced one over the
// requests as they are.
#include "k8s_profile.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_set>

#include "case_work.h"
#include "random.h"
#include "strategy_score.h"

namespace eruplan {

namespace {

constexpr NanoCores kDefaultCpu = 100'000'000;  // 100m
constexpr Bytes kDefaultMemory = 200ll << 20;   // 200Mi
constexpr std::int64_t kMaxReplicas = 1'000'000;

std::string ordinal(std::int64_t n) {
  const std::int64_t tens = n % 100, ones = n % 10;
  const char* suffix = "th";
  if (tens < 11 || tens > 13)
    suffix = ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

// The NodeResourcesFit filter's reasons on a node holding `placed` new
// replicas: the kinds of the capacity pass (Insufficient cpu, Too many pods).
std::vector<std::string> fit_reasons(const StrategyInput& in, const K8sFit& fit, std::uint32_t node,
                                     std::int64_t placed) {
  std::vector<std::string> kinds;
  if (fit.capacity == 0) {
    for (std::string& kind : reason_kinds(fit.entry->reasons.get()))
      if (kind != "not available" && kind != "taint") kinds.push_back(std::move(kind));
    if (kinds.empty()) kinds.emplace_back("not available");
  } else {
    kinds = kinds_when_full(*in.inventory, *in.request, node, placed);
  }
  std::vector<std::string> out;
  for (const std::string& kind : kinds)
    out.push_back(kubernetes_words(kind, in.request->pod != nullptr));
  return out;
}

}  // namespace

namespace {

// The replicas tried: count, or one past what the nodes hold.
std::int64_t replicas_tried(const StrategyInput& in) {
  return in.total == kUnlimited || in.total >= in.count ? in.count : in.total + 1;
}

// Running pods: the inventory's and the nodes' shared ones, and the
// replicas earlier requests placed (an entry per node and request).
std::int64_t running_pods(const Inventory& inv) {
  auto n = static_cast<std::int64_t>(inv.pods.get().size() + inv.placed_pods.entries());
  for (const Node& node : inv.nodes)
    if (node.shared_pods) n += static_cast<std::int64_t>(node.shared_pods->pods.size());
  return n;
}

// The label count of each distinct label set of the running pods (one per
// pod without a set: grow's DaemonSet pods; one per request's replicas placed).
std::vector<std::size_t> label_set_sizes(const Inventory& inv) {
  std::vector<std::size_t> sizes;
  std::vector<char> seen(inv.pod_label_sets, 0);
  for (const RunningPod& p : inv.pods.get()) {
    if (p.label_set < seen.size()) {
      if (seen[p.label_set]) continue;
      seen[p.label_set] = 1;
    }
    sizes.push_back(p.labels.size());
  }
  for (const Node& node : inv.nodes)
    if (node.shared_pods)
      for (const RunningPod& p : node.shared_pods->pods) sizes.push_back(p.labels.size());
  inv.placed_pods.each_pod([&](const PlacedPods& p) {  // a request's replicas share their pod
    sizes.push_back(p.pod ? p.pod->labels.size() : 0);
  });
  return sizes;
}

// A replica's cpu and memory as Kubernetes scores them (the non-zero
// defaults for a pod without requests).
NanoCores nonzero_cpu(const PodScheduling& pod, const Request& request) {
  return pod.nonzero_cpu >= 0 ? pod.nonzero_cpu : (request.cpu > 0 ? request.cpu : kDefaultCpu);
}
Bytes nonzero_memory(const PodScheduling& pod, const Request& request) {
  return pod.nonzero_memory >= 0 ? pod.nonzero_memory
                                 : (request.memory > 0 ? request.memory : kDefaultMemory);
}

}  // namespace

PodScheduling k8s_plain_pod(const Request& request) {
  PodScheduling pod;
  pod.name = request.name.empty() ? request.app : request.name;
  pod.labels = {{"app", request.app}};
  return pod;
}

PlacedPods k8s_placed_pods(const Request& request, std::shared_ptr<const PodScheduling> pod) {
  PlacedPods out;
  out.nonzero_cpu_extra = nonzero_cpu(*pod, request) - request.cpu;
  out.nonzero_memory_extra = nonzero_memory(*pod, request) - request.memory;
  out.pod = std::move(pod);
  return out;
}

// The sizes the fast path's work is made of (k8s_fast.cpp), read from the
// input before it runs.
namespace {

double selector_size(const std::optional<LabelSelector>& s) {
  double n = 1;
  if (s)
    for (const Requirement& r : s->requirements) n += 1 + static_cast<double>(r.values.size());
  return n;
}

double term_size(const PodAffinityTerm& t) {
  return selector_size(t.selector) + selector_size(t.namespace_selector) +
         static_cast<double>(t.namespaces.size() + t.match_label_keys.size() +
                             t.mismatch_label_keys.size());
}

// Every term of a pod, required and preferred, affinity and anti-affinity.
template <class F>
void each_term(const PodScheduling& s, F f) {
  for (const PodAffinity* a : {&s.affinity, &s.anti_affinity}) {
    for (const PodAffinityTerm& t : a->required) f(t);
    for (const WeightedPodAffinityTerm& t : a->preferred) f(t.term);
  }
}

}  // namespace

K8sWork k8s_profile_work(const StrategyInput& in) {
  K8sWork work;
  if (in.count <= 0 || in.inventory == nullptr || in.request == nullptr) return work;
  const Inventory& inv = *in.inventory;
  const Request& request = *in.request;
  PodScheduling plain;
  const PodScheduling& pod = request.pod ? *request.pod : plain;
  const auto nodes = static_cast<double>(inv.nodes.size());
  const auto pods = static_cast<double>(running_pods(inv));

  // Node label keys: a term's key no node carries is never interned.
  std::unordered_set<std::string_view> carried;
  double taints = 0;
  for (const Node& node : inv.nodes) {
    for (const auto& [key, value] : node.labels) carried.insert(key);
    taints += static_cast<double>(node.taints.size());
  }
  carried.insert(kHostnameLabel);  // eruplan nodes get it (k8s_node_labels)
  std::unordered_set<std::string_view> keys, anti, existing, scored;
  auto carried_key = [&](std::unordered_set<std::string_view>& set, const std::string& key) {
    if (carried.count(key)) {
      set.insert(key);
      keys.insert(key);
    }
  };

  // The pod's own matching against each running pod.
  double own = 1;
  const std::size_t spread =
      !pod.spread.empty()
          ? pod.spread.size()
          : (pod.owner_selector && !pod.owner_selector->requirements.empty() ? 2 : 0);
  // A spread constraint's selector is matched once per distinct label set
  // of the running pods (k8s_fast.cpp), each pod then a lookup; the
  // constraints sharing a selector share its matching.
  std::vector<const LabelSelector*> selectors;
  auto spread_selector = [&](const std::optional<LabelSelector>& s) {
    if (s && std::none_of(selectors.begin(), selectors.end(),
                          [&](const LabelSelector* t) { return *t == *s; }))
      selectors.push_back(&*s);
  };
  for (const TopologySpreadConstraint& c : pod.spread) {
    own += 1 + static_cast<double>(c.match_label_keys.size());
    spread_selector(c.selector);
    keys.insert(c.topology_key);
  }
  if (pod.spread.empty() && spread > 0) {
    own += 2;
    spread_selector(pod.owner_selector);
    keys.insert(kZoneLabel);
    keys.insert(kHostnameLabel);
  }
  double spread_matching = 0;
  if (!selectors.empty())
    for (const std::size_t labels : label_set_sizes(inv))
      for (const LabelSelector* s : selectors) spread_matching += s->match_steps(labels);
  double own_terms = 0;  // matched again for each replica placed (its own terms, twice)
  each_term(pod, [&](const PodAffinityTerm& t) { own_terms += term_size(t); });
  own += own_terms;
  for (const PodAffinityTerm& t : pod.affinity.required) keys.insert(t.topology_key);
  for (const PodAffinityTerm& t : pod.anti_affinity.required) carried_key(anti, t.topology_key);
  for (const WeightedPodAffinityTerm& t : pod.affinity.preferred)
    carried_key(scored, t.term.topology_key);
  for (const WeightedPodAffinityTerm& t : pod.anti_affinity.preferred)
    carried_key(scored, t.term.topology_key);

  // Each running pod's terms against the new pod.
  double theirs = 0;
  // `copies`: the pods with these terms (a placed group's nodes). The sizes
  // are whole numbers, so one product adds what as many sums did.
  auto their_terms = [&](const PodScheduling* s, double copies = 1) {
    if (!s) return;
    double size = 0;
    each_term(*s, [&](const PodAffinityTerm& t) { size += term_size(t); });
    theirs += copies * size;
    for (const PodAffinityTerm& t : s->anti_affinity.required)
      carried_key(existing, t.topology_key);
    for (const PodAffinityTerm& t : s->affinity.required) carried_key(scored, t.topology_key);
    for (const WeightedPodAffinityTerm& t : s->affinity.preferred)
      carried_key(scored, t.term.topology_key);
    for (const WeightedPodAffinityTerm& t : s->anti_affinity.preferred)
      carried_key(scored, t.term.topology_key);
  };
  for (const RunningPod& p : inv.pods.get()) their_terms(p.scheduling.get());
  for (const Node& node : inv.nodes)
    if (node.shared_pods)
      for (const RunningPod& p : node.shared_pods->pods) their_terms(p.scheduling.get());
  inv.placed_pods.each_group([&](const PlacedPods& p, std::size_t nodes) {
    their_terms(p.pod.get(), static_cast<double>(nodes));
  });

  double node_affinity = 1;
  if (pod.node_affinity.required)
    for (const NodeSelectorTerm& t : *pod.node_affinity.required)
      node_affinity += 1 + static_cast<double>(t.expressions.size() + t.fields.size());
  for (const PreferredSchedulingTerm& t : pod.node_affinity.preferred)
    node_affinity += 1 + static_cast<double>(t.term.expressions.size() + t.term.fields.size());
  node_affinity += static_cast<double>(pod.node_selector.size() + pod.host_ports.size());

  work.setup = pods * own + spread_matching + theirs +
               nodes * (node_affinity + static_cast<double>(keys.size())) +
               taints * static_cast<double>(request.tolerations.size() + 1);
  // Per node and replica: a pass per filter constraint (a spread
  // constraint also once over its domains, at most one per node) and per
  // scored topology.
  // Per replica placed: its own terms against itself (as the new pod's and
  // as a running pod's), and its node's scored resources looked up among
  // the node's (about 24 steps each past the two the 100 count).
  const double extra_scored =
      static_cast<double>(std::max<std::size_t>(request.scoring.resources.size(), 2) - 2);
  work.per_replica = 100 + 2 * own_terms + 24 * extra_scored;
  work.per_node = 1 + 2 * static_cast<double>(spread) +
                  static_cast<double>(pod.affinity.required.size() + anti.size() + existing.size() +
                                      scored.size());
  return work;
}

namespace {

double steps_of(const StrategyInput& in, const K8sWork& work, double setup_weight) {
  return setup_weight * work.setup +
         static_cast<double>(replicas_tried(in)) *
             (static_cast<double>(in.inventory->nodes.size()) * work.per_node + work.per_replica);
}

}  // namespace

double k8s_profile_steps(const StrategyInput& in, double setup_weight) {
  if (in.count <= 0 || in.inventory == nullptr) return 0;
  return steps_of(in, k8s_profile_work(in), setup_weight);
}

std::optional<std::string> k8s_profile_too_large(const StrategyInput& in, double spent,
                                                 double setup_weight, double* counted) {
  if (counted != nullptr) *counted = 0;
  if (in.count <= 0 || in.inventory == nullptr) return std::nullopt;
  if (in.total == kUnlimited && in.count > kMaxReplicas) return std::nullopt;  // refused as such
  const K8sWork work = k8s_profile_work(in);
  const double steps = steps_of(in, work, setup_weight);
  if (counted != nullptr) *counted = steps;
  const double earlier = case_work_before(static_cast<double>(kK8sProfileSteps));
  if (steps + spent + earlier <= static_cast<double>(kK8sProfileSteps)) return std::nullopt;
  const std::int64_t tried = replicas_tried(in);
  const auto nodes = static_cast<std::int64_t>(in.inventory->nodes.size());
  const std::int64_t pods = running_pods(*in.inventory);
  return "too large: the kubernetes profile checks every node for each replica: " +
         std::to_string(tried) + " replicas on " + std::to_string(nodes) + " nodes" +
         (pods > 0 ? " with " + std::to_string(pods) + " running pods" : std::string()) +
         (work.per_node > 1 ? " (" + work_units(work.per_node) +
                                  " steps per node: its spread constraints, affinity terms "
                                  "and topologies)"
                            : std::string()) +
         " is " + work_units(steps) + " steps" +
         (spent > 0 ? " (and " + work_units(spent) + " for the requests before it)"
                    : std::string()) +
         case_work_before_note(earlier) + ", more than " + std::to_string(kK8sProfileSteps) +
         "; ask for fewer replicas" + case_work_hint(earlier);
}

namespace {

// Whether `placed` (an earlier request's pod) counts in any plugin for the
// cluster's pod: a spread constraint's selector (or the system default's)
// counts it, a term of the pod's matches it, a term of its own matches the
// pod, or both hold host ports. One that does not adds nothing to any count,
// filter or score (PodTopologySpread, InterPodAffinity, NodePorts), so it
// need not be among the nodes' pods. InterPodAffinity's score is then
// skipped rather than all 0, which normalizes to the same.
bool placed_pod_concerns(const Inventory& inv, const K8sCluster& cluster,
                         const PodScheduling& placed) {
  const PodScheduling& pod = *cluster.pod;
  auto counts = [&](const TopologySpreadConstraint& c) {
    return c.selector && !c.selector->requirements.empty() && placed.ns == pod.ns &&
           c.selector->matches(placed.labels);
  };
  if (std::any_of(pod.spread.begin(), pod.spread.end(), counts) ||
      std::any_of(cluster.default_spread.begin(), cluster.default_spread.end(), counts))
    return true;
  if (!pod.host_ports.empty() && !placed.host_ports.empty()) return true;
  bool matched = false;
  each_term(pod, [&](const PodAffinityTerm& t) {
    matched = matched || k8s_term_matches(inv, t, pod.ns, placed.ns, placed.labels);
  });
  each_term(placed, [&](const PodAffinityTerm& t) {
    matched = matched || k8s_term_matches(inv, t, placed.ns, pod.ns, pod.labels);
  });
  return matched;
}

}  // namespace

std::optional<StrategyResult> k8s_prepare(const StrategyInput& in, K8sRun& run) {
  const Inventory& inv = *in.inventory;
  const Request& request = *in.request;
  const std::size_t n_nodes = inv.nodes.size();
  if (in.count <= 0) return *strategy_precheck("score", in.infos.size(), in.count);
  // One cycle per replica: the replicas past what the nodes can hold are
  // never tried (the first of them fails), and an unlimited cluster is
  // planned up to kMaxReplicas.
  if (in.total == kUnlimited && in.count > kMaxReplicas)
    return strategy_failure(
        in.infos.size(),
        NamedReason("the kubernetes profile places one replica at a time, at most " +
                    std::to_string(kMaxReplicas) + "; " + std::to_string(in.count) +
                    " asked on nodes without a pod limit"));
  double steps = 0;
  if (std::optional<std::string> why = k8s_profile_too_large(in, 0, 1, &steps))
    return strategy_failure(in.infos.size(), NamedReason(std::move(*why)));
  // The run goes ahead: its steps (the check a run makes of itself, setup
  // once) count toward the cases after this one; the checks before a run
  // only read them.
  case_work_spend(steps, static_cast<double>(kK8sProfileSteps));

  // The pod: the manifest's, or for an eruplan request one with its app's
  // label in the default namespace.
  if (!request.pod) run.plain = k8s_plain_pod(request);
  run.pod = request.pod ? request.pod.get() : &run.plain;
  const PodScheduling& pod = *run.pod;

  K8sCluster& cluster = run.cluster;
  cluster.inventory = &inv;
  cluster.request = &request;
  cluster.pod = &pod;
  cluster.labels.reserve(n_nodes);
  for (const Node& node : inv.nodes) cluster.labels.push_back(k8s_node_labels(node));
  cluster.pods.resize(n_nodes);
  run.nonzero_cpu_extra.assign(n_nodes, 0);
  run.nonzero_memory_extra.assign(n_nodes, 0);
  auto add_pod = [&](const RunningPod& p, std::uint32_t node) {
    cluster.pods[node].push_back(
        {&p.ns, &p.labels, p.scheduling.get(), 1, p.terminating, p.label_set});
    run.nonzero_cpu_extra[node] += p.nonzero_cpu - p.cpu;
    run.nonzero_memory_extra[node] += p.nonzero_memory - p.memory;
  };
  const auto& running = inv.pods.get();
  for (std::size_t i = 0; i < running.size(); ++i)
    if (running[i].node < n_nodes && !inv.pod_evicted(i)) add_pod(running[i], running[i].node);
  for (std::uint32_t i = 0; i < n_nodes; ++i)
    if (inv.nodes[i].shared_pods)
      for (const RunningPod& p : inv.nodes[i].shared_pods->pods) add_pod(p, i);
  if (pod.spread.empty() && pod.owner_selector && !pod.owner_selector->requirements.empty()) {
    TopologySpreadConstraint zone, host;
    zone.max_skew = 5;
    zone.topology_key = kZoneLabel;
    zone.do_not_schedule = false;
    zone.selector = pod.owner_selector;
    host = zone;
    host.max_skew = 3;
    host.topology_key = kHostnameLabel;
    cluster.default_spread = {zone, host};
  }
  // The replicas earlier requests placed: their scoring extras from the
  // nodes' running sums, and as pods only the groups some plugin reads for
  // this pod (placed_pod_concerns): listing every group on every node cost
  // each request all the replicas placed before it.
  for (std::uint32_t i = 0; i < n_nodes; ++i) {
    run.nonzero_cpu_extra[i] += inv.placed_pods.nonzero_cpu_extra(i);
    run.nonzero_memory_extra[i] += inv.placed_pods.nonzero_memory_extra(i);
  }
  inv.placed_pods.each_kept(
      [&](const PlacedPods& p) { return placed_pod_concerns(inv, cluster, *p.pod); },
      [&](const PlacedPods& p, std::uint32_t node, std::int64_t copies) {
        if (node < n_nodes && copies > 0)
          cluster.pods[node].push_back({&p.pod->ns, &p.pod->labels, p.pod.get(), copies});
      });
  run.image_score = k8s_image_locality(inv, pod);
  run.pod_nonzero_cpu = nonzero_cpu(pod, request);
  run.pod_nonzero_memory = nonzero_memory(pod, request);

  run.order.resize(n_nodes);
  std::iota(run.order.begin(), run.order.end(), 0u);
  std::sort(run.order.begin(), run.order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return inv.nodes[a].name < inv.nodes[b].name;
  });
  run.fit.assign(n_nodes, K8sFit{});
  if (in.capacity != nullptr)
    for (const NodeCapacity& nc : in.capacity->nodes) run.fit[nc.node] = {nc.capacity, &nc};
  run.info_of.assign(n_nodes, -1);
  for (std::size_t k = 0; k < in.infos.size(); ++k)
    run.info_of[in.infos[k].node] = static_cast<std::int64_t>(k);
  if (const auto names = k8s_prefilter_node_names(*run.pod)) {
    run.terms_conflict = names->empty();
    run.prefiltered_out.assign(n_nodes, 1);
    for (std::uint32_t i = 0; i < n_nodes; ++i)
      if (std::binary_search(names->begin(), names->end(), inv.nodes[i].name))
        run.prefiltered_out[i] = 0;
  }
  return std::nullopt;
}

std::vector<K8sStatus> k8s_filter_all(const StrategyInput& in, const K8sRun& run,
                                      const K8sCycle& cycle,
                                      const std::vector<std::int64_t>& placed,
                                      std::vector<std::uint32_t>& feasible) {
  struct Filter {
    std::string_view plugin;
    K8sStatus (*run)(const K8sCycle&, std::uint32_t);
  };
  static constexpr Filter kBefore[] = {{"NodeUnschedulable", k8s_filter_node_unschedulable},
                                       {"NodeName", k8s_filter_node_name},
                                       {"TaintToleration", k8s_filter_taint_toleration},
                                       {"NodeAffinity", k8s_filter_node_affinity},
                                       {"NodePorts", k8s_filter_node_ports}};
  static constexpr Filter kAfter[] = {{"PodTopologySpread", k8s_filter_spread},
                                      {"InterPodAffinity", k8s_filter_interpod}};
  auto apply = [&](const Filter& f, std::uint32_t i, K8sStatus& status) {
    status = f.run(cycle, i);
    status.plugin = f.plugin;
    return status.ok();
  };
  std::vector<K8sStatus> statuses(run.order.size());
  feasible.clear();
  for (const std::uint32_t i : run.order) {
    K8sStatus status;
    if (!run.prefiltered_out.empty() && run.prefiltered_out[i]) {
      // Not among the nodes NodeAffinity's PreFilter kept: no filter runs.
      status = K8sStatus::fail_unresolvable(std::string(
          run.terms_conflict ? k8s_reason::kTermsConflict : k8s_reason::kPreFilterNodeAffinity));
      status.plugin = "NodeAffinity";
      statuses[i] = std::move(status);
      continue;
    }
    for (const Filter& f : kBefore)
      if (!apply(f, i, status)) break;
    if (status.ok() && run.fit[i].capacity >= 0 && placed[i] >= run.fit[i].capacity) {
      status.reasons = fit_reasons(in, run.fit[i], i, placed[i]);
      status.plugin = "NodeResourcesFit";
    }
    if (status.ok() && run.fit[i].capacity < 0) {  // filtered out before the capacity pass
      status = K8sStatus::fail_unresolvable(std::string(k8s_reason::kNodeAffinity));
      status.plugin = "NodeAffinity";
    }
    if (status.ok())
      for (const Filter& f : kAfter)
        if (!apply(f, i, status)) break;
    if (status.ok())
      feasible.push_back(i);
    else
      statuses[i] = std::move(status);
  }
  return statuses;
}

std::vector<std::string> k8s_first_filtered(const StrategyInput& in, const K8sRun& run) {
  K8sCycle cycle;
  cycle.cluster = &run.cluster;
  k8s_prefilter_spread(cycle);
  k8s_prefilter_interpod(cycle);
  const std::vector<std::int64_t> none_placed(in.inventory->nodes.size(), 0);
  std::vector<std::uint32_t> feasible;
  const std::vector<K8sStatus> statuses = k8s_filter_all(in, run, cycle, none_placed, feasible);
  std::vector<std::string> out(statuses.size());
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    if (statuses[i].ok()) continue;
    out[i] = std::string(statuses[i].plugin) + ": ";
    for (std::size_t r = 0; r < statuses[i].reasons.size(); ++r)
      out[i] += (r == 0 ? "" : ", ") + statuses[i].reasons[r];
  }
  return out;
}

NamedReason k8s_unschedulable_message(const std::vector<K8sStatus>& statuses, std::int64_t replica,
                                      std::int64_t count) {
  std::map<std::string, std::int64_t> counts;
  bool prefilter_failed = false;
  for (const K8sStatus& s : statuses)
    for (const std::string& reason : s.reasons)
      if (reason == k8s_reason::kTermsConflict) prefilter_failed = true;
  if (!prefilter_failed)  // else a PreFilter's reason alone, not counted per node
    for (const K8sStatus& s : statuses)
      for (const std::string& reason : s.reasons) ++counts[reason];
  std::vector<std::string> parts;
  for (const auto& [reason, n] : counts) parts.push_back(std::to_string(n) + " " + reason);
  std::sort(parts.begin(), parts.end());
  std::string message = "0/" + std::to_string(statuses.size()) + " nodes are available";
  if (prefilter_failed) message += ": " + std::string(k8s_reason::kTermsConflict);
  for (std::size_t p = 0; p < parts.size(); ++p) message += (p == 0 ? ": " : ", ") + parts[p];
  message += ".";
  NamedReason out(std::move(message));
  if (replica > 0) out.placed = k8s_placed_line(replica, count);
  return out;
}

std::string k8s_placed_line(std::int64_t replica, std::int64_t count) {
  return "placed " + std::to_string(replica) + " of " + std::to_string(count) + "; the " +
         ordinal(replica + 1) + " could not be placed";
}

K8sResourceRows k8s_resource_rows(const StrategyInput& in, const K8sRun& run, std::uint32_t i) {
  const Scoring& scoring = in.request->scoring;
  K8sResourceRows rows;
  rows.actual = scored_resources(in.inventory->nodes[i], *in.request);
  rows.nonzero = rows.actual;
  for (std::size_t r = 0; r < rows.nonzero.size(); ++r) {
    if (scoring.resources[r].name == "cpu") {
      rows.nonzero[r].used += run.nonzero_cpu_extra[i];
      rows.nonzero[r].per_instance = run.pod_nonzero_cpu;
    } else if (scoring.resources[r].name == "memory") {
      rows.nonzero[r].used += run.nonzero_memory_extra[i];
      rows.nonzero[r].per_instance = run.pod_nonzero_memory;
    }
  }
  return rows;
}

NodeScore k8s_resource_score(const Scoring& scoring, const K8sResourceRows& rows,
                             std::int64_t placed) {
  NodeScore out;
  out.fit = fit_score(rows.nonzero, scoring, placed);
  out.balanced = score_node(rows.actual, scoring, placed).balanced;
  return out;
}

StrategyResult k8s_profile_reference(const StrategyInput& in) {
  K8sRun run;
  if (auto early = k8s_prepare(in, run)) return std::move(*early);
  const Inventory& inv = *in.inventory;
  const Scoring& scoring = in.request->scoring;
  StrategyResult result;
  result.deploy.assign(in.infos.size(), 0);
  result.scores.resize(in.infos.size());
  for (NodeScore& s : result.scores) s.filtered = true;  // until the first cycle scores it
  std::vector<std::int64_t> placed(inv.nodes.size(), 0);
  SplitMix64 random(scoring.tie_seed);
  std::vector<std::uint32_t> feasible;
  if (in.explain) result.first_filtered = k8s_first_filtered(in, run);
  for (std::int64_t replica = 0; replica < in.count; ++replica) {
    K8sCycle cycle;
    cycle.cluster = &run.cluster;
    k8s_prefilter_spread(cycle);
    k8s_prefilter_interpod(cycle);
    std::vector<K8sStatus> statuses = k8s_filter_all(in, run, cycle, placed, feasible);
    if (feasible.empty()) {
      result.outcome = StrategyOutcome::Infeasible;
      result.message = k8s_unschedulable_message(statuses, replica, in.count);
      result.placed_first = replica;
      result.placed_first_deploy = result.deploy;
      result.rejected = std::move(statuses);
      result.deploy.clear_counts();
      return result;
    }
    // Score.
    const std::vector<std::int64_t> plugin_scores[] = {
        k8s_score_taint_toleration(cycle, feasible), k8s_score_node_affinity(cycle, feasible),
        k8s_score_spread(cycle, feasible), k8s_score_interpod(cycle, feasible)};
    HostPick pick(scoring.tie_random, random);
    for (std::size_t f = 0; f < feasible.size(); ++f) {
      const std::uint32_t i = feasible[f];
      NodeScore score = k8s_resource_score(scoring, k8s_resource_rows(in, run, i), placed[i]);
      std::int64_t total = 0;
      for (std::size_t p = 0; p < 4; ++p) {
        score.plugins.push_back(plugin_scores[p][f]);
        total += kK8sScorePlugins[p].weight * plugin_scores[p][f];
      }
      score.plugins.push_back(score.fit);
      score.plugins.push_back(score.balanced);
      score.plugins.push_back(run.image_locality(i));
      total += scoring.fit_weight * score.fit + scoring.balanced_weight * score.balanced +
               kK8sScorePlugins[kImageLocalityPlugin].weight * run.image_locality(i);
      score.total = total;
      if (replica == 0 && run.info_of[i] >= 0)
        result.scores[static_cast<std::size_t>(run.info_of[i])] = score;
      pick.offer(f, total);  // nodes in name order
    }
    const std::uint32_t chosen = feasible[pick.best()];
    if (replica == 0) result.first_pick = chosen;
    ++placed[chosen];
    run.cluster.pods[chosen].push_back({&run.pod->ns, &run.pod->labels, run.pod});
    if (run.info_of[chosen] >= 0) ++result.deploy[static_cast<std::size_t>(run.info_of[chosen])];
  }
  return result;
}

}  // namespace eruplan
