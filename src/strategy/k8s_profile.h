// The kubernetes scoring profile: `strategy: score` as kube-scheduler's
// default profile. Each replica runs one scheduling cycle against the state
// the earlier ones left: the filter plugins in kube-scheduler's order (a
// node's reasons are those of the first that rejects it), then the score
// plugins, each normalized and weighted, then the pick.
//
// Every plugin is a file of its own behind the signatures below:
//   k8s_node_filters.cpp  NodeUnschedulable, NodeName, TaintToleration,
//                         NodeAffinity, NodePorts
//   k8s_spread.cpp        PodTopologySpread
//   k8s_interpod.cpp      InterPodAffinity
//   k8s_profile.cpp       NodeResourcesFit, BalancedAllocation, ImageLocality,
//                         the cycle, the pick and the message
// Each plugin reads the cycle (K8sCycle) and returns a K8sStatus (Filter) or
// a raw score (Score) that its NormalizeScore turns into 0..100.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "capacity.h"
#include "model.h"
#include "named_reason.h"
#include "random.h"
#include "strategy.h"
#include "strategy_score.h"

namespace eruplan {

// A pod on a node as the plugins see it: running (from --pods) or a
// replica placed earlier in this run.
struct K8sPod {
  const std::string* ns = nullptr;
  const Labels* labels = nullptr;
  const PodScheduling* scheduling = nullptr;  // null: no affinity, ports, ...
  // How many such pods the entry stands for: the fast path keeps a node's
  // placed replicas as one entry (memory by nodes, not by replicas).
  std::int64_t copies = 1;
  // A running pod being deleted: PodTopologySpread counts it nowhere.
  bool terminating = false;
  // A running pod's RunningPod::label_set (kNoLabelSet for the others).
  std::uint32_t label_set = kNoLabelSet;
};

// The reason strings (kube-scheduler v1.35).
namespace k8s_reason {
inline constexpr std::string_view kUnschedulable = "node(s) were unschedulable";
inline constexpr std::string_view kNodeName = "node(s) didn't match the requested node name";
inline constexpr std::string_view kTaint = "node(s) had untolerated taint(s)";
inline constexpr std::string_view kNodeAffinity =
    "node(s) didn't match Pod's node affinity/selector";
inline constexpr std::string_view kNodePorts =
    "node(s) didn't have free ports for the requested pod ports";
inline constexpr std::string_view kSpread = "node(s) didn't match pod topology spread constraints";
inline constexpr std::string_view kSpreadLabel =
    "node(s) didn't match pod topology spread constraints (missing required label)";
inline constexpr std::string_view kAffinity = "node(s) didn't match pod affinity rules";
inline constexpr std::string_view kAntiAffinity = "node(s) didn't match pod anti-affinity rules";
inline constexpr std::string_view kExistingAntiAffinity =
    "node(s) didn't satisfy existing pods anti-affinity rules";
// NodeAffinity's PreFilter: the nodes its matchFields metadata.name In
// terms leave out, and the terms naming no node in common.
inline constexpr std::string_view kPreFilterNodeAffinity =
    "node(s) didn't satisfy plugin(s) [NodeAffinity]";
inline constexpr std::string_view kTermsConflict = "pod affinity terms conflict";
}  // namespace k8s_reason

inline constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";
inline constexpr std::string_view kZoneLabel = "topology.kubernetes.io/zone";
inline constexpr std::int64_t kMaxNodeScore = 100;

// The cluster one cycle sees.
struct K8sCluster {
  const Inventory* inventory = nullptr;
  const Request* request = nullptr;
  const PodScheduling* pod = nullptr;     // the pod to place
  std::vector<Labels> labels;             // per inventory node, as k8s_node_labels gives them
  std::vector<std::vector<K8sPod>> pods;  // per inventory node: running, then placed
  // System default spreading (zone 5, hostname 3, ScheduleAnyway) over the
  // workload's pods, when the pod has no constraints of its own.
  std::vector<TopologySpreadConstraint> default_spread;
};

// A topology domain: a node label's key and value.
using K8sDomain = std::pair<std::string, std::string>;

// What the PreFilter/PreScore steps compute once per cycle.
struct K8sCycle {
  const K8sCluster* cluster = nullptr;
  // PodTopologySpread, filter: per DoNotSchedule constraint, matching pods
  // per domain value (domains of eligible nodes only) and the minimum.
  std::vector<TopologySpreadConstraint> hard_spread;
  std::vector<std::map<std::string, std::int64_t>> spread_counts;
  // PodTopologySpread, pods moved (k8s_update_spread): per pod's labels,
  // whether each hard constraint's selector matches them, matched once.
  std::unordered_map<const Labels*, std::vector<char>> spread_matches;
  // InterPodAffinity, filter.
  std::map<K8sDomain, std::int64_t> affinity_counts, anti_counts, existing_anti_counts;
  // InterPodAffinity, pods moved (k8s_update_interpod): per pod's labels,
  // which of the terms either way match, matched once.
  struct PodMatches {
    const std::string* ns = nullptr;
    const PodScheduling* scheduling = nullptr;
    std::vector<char> matches;
  };
  std::unordered_map<const Labels*, PodMatches> interpod_matches;
};

// --- plugin helpers (k8s_node_filters.cpp) -------------------------------
// The node's labels; an eruplan inventory node's get kubernetes.io/hostname
// = its name when absent (a Kubernetes Node's stay as they are: Kubernetes
// reads a missing label as missing).
Labels k8s_node_labels(const Node& node);
// nodeSelector and required node affinity (spread's nodeAffinityPolicy).
bool k8s_required_node_affinity(const PodScheduling& pod, const Labels& labels,
                                std::string_view name);
// NodeAffinity's PreFilter: when every required node affinity term has a
// matchFields metadata.name In requirement, the names the terms allow
// (each term's In lists intersected, the terms' sets joined); nullopt when
// some term names no node that way (every node may pass). An empty set:
// the terms conflict.
std::optional<std::vector<std::string>> k8s_prefilter_node_names(const PodScheduling& pod);
// Some NoSchedule or NoExecute taint no toleration matches.
bool k8s_untolerated_taint(const Node& node, const std::vector<Toleration>& tolerations);
// A term of `owner` (in namespace owner_ns) matches a pod (ns, labels):
// namespaces (default the owner's), namespaceSelector against the
// inventory's namespaces, labelSelector (absent: no pod).
bool k8s_term_matches(const Inventory& inventory, const PodAffinityTerm& term,
                      const std::string& owner_ns, const std::string& ns, const Labels& labels);

// --- Filter plugins, in kube-scheduler's order ---------------------------
K8sStatus k8s_filter_node_unschedulable(const K8sCycle&, std::uint32_t node);
K8sStatus k8s_filter_node_name(const K8sCycle&, std::uint32_t node);
K8sStatus k8s_filter_taint_toleration(const K8sCycle&, std::uint32_t node);
K8sStatus k8s_filter_node_affinity(const K8sCycle&, std::uint32_t node);
K8sStatus k8s_filter_node_ports(const K8sCycle&, std::uint32_t node);
// (NodeResourcesFit: k8s_profile.cpp, from the capacity pass)
void k8s_prefilter_spread(K8sCycle&);
K8sStatus k8s_filter_spread(const K8sCycle&, std::uint32_t node);
void k8s_prefilter_interpod(K8sCycle&);
K8sStatus k8s_filter_interpod(const K8sCycle&, std::uint32_t node);
// The PreFilter extensions (AddPod, RemovePod): the cycle's counts as if
// `pod` were added to node `node` (delta +1) or taken off it (-1), as
// kube-scheduler updates them in preemption's dry runs. Equal to running
// the PreFilter again over the changed cluster.
void k8s_update_spread(K8sCycle&, std::uint32_t node, const K8sPod& pod, int delta);
void k8s_update_interpod(K8sCycle&, std::uint32_t node, const K8sPod& pod, int delta);

// --- Score plugins: raw scores of the feasible nodes, normalized in place --
std::vector<std::int64_t> k8s_score_taint_toleration(const K8sCycle&,
                                                     const std::vector<std::uint32_t>& nodes);
std::vector<std::int64_t> k8s_score_node_affinity(const K8sCycle&,
                                                  const std::vector<std::uint32_t>& nodes);
std::vector<std::int64_t> k8s_score_spread(const K8sCycle&,
                                           const std::vector<std::uint32_t>& nodes);
std::vector<std::int64_t> k8s_score_interpod(const K8sCycle&,
                                             const std::vector<std::uint32_t>& nodes);
// ImageLocality over every inventory node: per node, the sizes of the pod's
// images it holds, each scaled by the share of nodes holding that image,
// summed and mapped from [23 MiB, 1000 MiB x containers] onto 0..100.
// Empty when no node holds any of them (every score 0).
std::vector<std::int64_t> k8s_image_locality(const Inventory& inventory, const PodScheduling& pod);
// Kubernetes' DefaultNormalizeScore: scores x 100 / max, reversed when asked
// (all 100 reversed, all 0 not, when the max is 0).
void k8s_default_normalize(std::vector<std::int64_t>& scores, bool reverse);

// The profile's score plugins and default weights, in output order.
struct K8sScorePlugin {
  std::string_view name;
  std::int64_t weight;
};
inline constexpr std::size_t kImageLocalityPlugin = 6;  // its row below
inline constexpr K8sScorePlugin kK8sScorePlugins[] = {
    {"TaintToleration", 3},  {"NodeAffinity", 2},     {"PodTopologySpread", 2},
    {"InterPodAffinity", 2}, {"NodeResourcesFit", 1}, {"NodeResourcesBalancedAllocation", 1},
    {"ImageLocality", 1},
};

// kube-scheduler's selectHost over the feasible nodes' totals, offered in
// name order: the highest total; among equal ones the first, or (random)
// one of them uniformly, by reservoir sampling on the seeded generator.
class HostPick {
 public:
  HostPick(bool random, SplitMix64& generator) : random_(random), generator_(generator) {}
  void offer(std::size_t f, std::int64_t total) {
    if (ties_ == 0 || total > best_total_) {
      best_ = f;
      best_total_ = total;
      ties_ = 1;
    } else if (total == best_total_) {
      ++ties_;
      if (random_ && generator_.next() % ties_ == 0) best_ = f;
    }
  }
  std::size_t best() const { return best_; }

 private:
  bool random_;
  SplitMix64& generator_;
  std::int64_t best_total_ = 0;
  std::size_t best_ = 0;
  std::uint64_t ties_ = 0;
};

// The pod of an eruplan request (no manifest): its app's label, in the
// default namespace, named after the request.
PodScheduling k8s_plain_pod(const Request& request);
// The replicas of `request` as the requests after it see them
// (Inventory::placed_pods); `pod` is the request's pod (its manifest's, or
// k8s_plain_pod's).
PlacedPods k8s_placed_pods(const Request& request, std::shared_ptr<const PodScheduling> pod);

// --- The run (k8s_profile.cpp): what the fast path and the reference share --
// NodeResourcesFit's filter on one node: the replicas the capacity pass
// allows there (-1: the node never reached it, node_filter left it out).
struct K8sFit {
  std::int64_t capacity = -1;
  const NodeCapacity* entry = nullptr;
};
// One run's fixed parts. Not movable: `cluster.pod` may point at `plain`.
struct K8sRun {
  K8sRun() = default;
  K8sRun(const K8sRun&) = delete;
  K8sRun& operator=(const K8sRun&) = delete;
  PodScheduling plain;  // the pod of an eruplan request (its app's label, default namespace)
  const PodScheduling* pod = nullptr;
  K8sCluster cluster;
  // Per node: what Kubernetes' non-zero defaults add to its running pods'
  // cpu and memory in scoring; the pod's own scoring request.
  std::vector<NanoCores> nonzero_cpu_extra;
  std::vector<Bytes> nonzero_memory_extra;
  NanoCores pod_nonzero_cpu = 0;
  Bytes pod_nonzero_memory = 0;
  std::vector<std::uint32_t> order;   // every node, in name order
  std::vector<K8sFit> fit;            // per node
  std::vector<std::int64_t> info_of;  // per node: its place in the infos, or -1
  // NodeAffinity's PreFilter: per node, left out by the pod's matchFields
  // (empty: none is); every node is when the terms conflict.
  std::vector<char> prefiltered_out;
  bool terms_conflict = false;
  // ImageLocality's score per node (it never changes within a run: placing
  // a replica pulls no image); empty when the pod names no image a node
  // holds.
  std::vector<std::int64_t> image_score;
  std::int64_t image_locality(std::uint32_t node) const {
    return image_score.empty() ? 0 : image_score[node];
  }
};
// Fills `run`; a result when the run ends before any cycle (count 0, too
// many replicas for an unlimited cluster).
std::optional<StrategyResult> k8s_prepare(const StrategyInput& in, K8sRun& run);
// The filters of one cycle over every node in name order, each node's
// status (reasons of the first filter that rejects it); the nodes that pass
// go to `feasible` in name order. `placed`: new replicas per node so far.
std::vector<K8sStatus> k8s_filter_all(const StrategyInput& in, const K8sRun& run,
                                      const K8sCycle& cycle,
                                      const std::vector<std::int64_t>& placed,
                                      std::vector<std::uint32_t>& feasible);
// --explain: the first cycle's verdict per inventory node, "Plugin: reason,
// reason" for a node a filter rejects, empty for one that passes; call it
// before any replica is placed.
std::vector<std::string> k8s_first_filtered(const StrategyInput& in, const K8sRun& run);
// Kubernetes' "0/N nodes are available: ..." for the statuses of a cycle
// with no feasible node, then eruplan's line when `replica` > 0 were placed.
NamedReason k8s_unschedulable_message(const std::vector<K8sStatus>& statuses, std::int64_t replica,
                                      std::int64_t count);
// eruplan's line after it: "placed 93 of 120; the 94th could not be placed".
std::string k8s_placed_line(std::int64_t replica, std::int64_t count);
// A node's scored resources as NodeResourcesFit sees them (`nonzero`: with
// the non-zero defaults) and as BalancedAllocation does (`actual`: the
// requests as they are). They stay the same while a request is planned: its
// replicas on the node are score_node's k.
struct K8sResourceRows {
  std::vector<ScoredResource> actual;
  std::vector<ScoredResource> nonzero;
};
K8sResourceRows k8s_resource_rows(const StrategyInput& in, const K8sRun& run, std::uint32_t node);
// NodeResourcesFit's and BalancedAllocation's scores of the node's next
// replica, `placed` being there; `plugins` left empty.
NodeScore k8s_resource_score(const Scoring& scoring, const K8sResourceRows& rows,
                             std::int64_t placed);

// The strategy for a request with scoring.profile kubernetes (k8s_fast.cpp):
// the same cycle on counts kept per node and per domain, updated as each
// replica is placed, so no cycle rescans the running pods.
StrategyResult k8s_profile_strategy(const StrategyInput& input);
// The one-at-a-time reference (k8s_profile.cpp): every cycle runs every
// plugin over the cluster's pods as kube-scheduler would. The tests compare
// the fast path with it; the bench times it.
StrategyResult k8s_profile_reference(const StrategyInput& input);

// Bounded work. The fast path's cost, as it is made of:
//   setup     each running pod matched against the pod's constraints and
//             terms (and its own terms against the pod), the node-local
//             filters over each node, each topology key interned;
//   per_node  a replica's pass over a node: one step, plus one per filter
//             constraint (spread twice: its domains are passed once more)
//             and per topology the scores or filters sum;
//   per_replica  a replica's own: the pick, its node's scores redone (24
//             steps per scored resource), its own affinity terms matched
//             against itself twice.
// The steps are setup + the replicas tried (count, or one past what the
// nodes hold) x (nodes x per_node + per_replica), at most
// kK8sProfileSteps; past it, what is too large, in words. A step is a few nanoseconds of a pass
// over contiguous counts (bench/k8s_bench.cpp; tests/bounded_test.cpp times inputs at the bound).
// `spent`: the steps the run's earlier requests took (several manifests
// share the bound).
inline constexpr std::int64_t kK8sProfileSteps = 400'000'000;
struct K8sWork {
  double setup = 0;
  double per_node = 1;
  double per_replica = 100;
};
K8sWork k8s_profile_work(const StrategyInput& input);
// `setup_weight`: how many times the setup counts. A request's own run
// counts it once; --preempt's run per replica (a cycle over the cluster for
// one replica) counts it 4 times: there the setup is most of the run, and
// a setup step (a running pod's labels matched, its entry copied) takes
// about 4 times a pass step. `steps`, if given, gets the steps counted.
std::optional<std::string> k8s_profile_too_large(const StrategyInput& input, double spent = 0,
                                                 double setup_weight = 1, double* steps = nullptr);
// The steps of one request, as the bound counts them.
double k8s_profile_steps(const StrategyInput& input, double setup_weight = 1);

}  // namespace eruplan
