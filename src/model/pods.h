// Kubernetes' pod scheduling vocabulary as plain structs: label selectors,
// node selector terms, pod (anti-)affinity terms, topology spread
// constraints, host ports, and the running pods eruplan knows one by one.
// Readers fill them (src/input), the scheduling plugins read them; nothing
// here knows a file format.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "names.h"
#include "quantities.h"

namespace eruplan {

// Labels sorted by key (byte order), keys unique.
using Labels = std::vector<std::pair<std::string, std::string>>;
// The value of `key`, or nullptr.
const std::string* find_label(const Labels& labels, std::string_view key);

// One requirement of a label or node selector. Gt and Lt are node selectors'
// only; their one value is an integer (checked when read).
enum class SelectorOp { In, NotIn, Exists, DoesNotExist, Gt, Lt };
inline constexpr Named<SelectorOp> kSelectorOpNames[] = {
    {SelectorOp::In, "In"},         {SelectorOp::NotIn, "NotIn"},
    {SelectorOp::Exists, "Exists"}, {SelectorOp::DoesNotExist, "DoesNotExist"},
    {SelectorOp::Gt, "Gt"},         {SelectorOp::Lt, "Lt"}};
// The operators of a pod label selector: the first four.
inline constexpr std::size_t kLabelSelectorOps = 4;
inline std::string_view selector_op_name(SelectorOp op) { return name_of(kSelectorOpNames, op); }

struct Requirement {
  std::string key;
  SelectorOp op = SelectorOp::In;
  std::vector<std::string> values;

  // As Kubernetes' labels.Requirement.Matches: NotIn and DoesNotExist match
  // labels without the key; Gt/Lt compare integers (a non-integer label
  // value does not match).
  bool matches(const Labels& labels) const;
  bool matches_value(const std::string* value) const;  // value of the key, or null
  bool operator==(const Requirement&) const = default;
};

// metav1.LabelSelector: matchLabels ANDed with matchExpressions. `everything`
// distinguishes an empty selector `{}` (matches every object) from an absent
// one, which callers treat as their context says (an affinity term's absent
// selector matches nothing).
struct LabelSelector {
  std::vector<Requirement> requirements;  // matchLabels as In with one value, then matchExpressions
  bool matches(const Labels& labels) const;
  bool operator==(const LabelSelector&) const = default;
  // The work of matching it against `labels` labels, in the steps the work
  // bounds count: per requirement, a binary search among the labels (a
  // step per halving, as many again per 16 characters of its key) and a
  // pass over its values.
  double match_steps(std::size_t labels) const;
};

// Equal label lists as one number: intern() gives the same id to equal
// lists, ids counting from 0 in the order first met. The index keeps a
// pointer to the first list of each id; they must outlive it.
class LabelSets {
 public:
  std::uint32_t intern(const Labels& labels);
  std::uint32_t size() const { return static_cast<std::uint32_t>(first_.size()); }
  const Labels& operator[](std::uint32_t id) const { return *first_[id]; }

 private:
  std::vector<const Labels*> first_;                              // by id
  std::vector<std::pair<std::uint64_t, std::uint32_t>> by_hash_;  // open addressing: hash, id + 1
};
inline constexpr std::uint32_t kNoLabelSet = UINT32_MAX;

// A node selector term: expressions over node labels and fields
// (metadata.name only), ANDed. A term with neither matches no node.
struct NodeSelectorTerm {
  std::vector<Requirement> expressions;
  std::vector<Requirement> fields;  // key "metadata.name"
  bool matches(const Labels& node_labels, std::string_view node_name) const;
};

struct PreferredSchedulingTerm {
  std::int32_t weight = 0;  // 1..100
  NodeSelectorTerm term;
};

struct NodeAffinity {
  // requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms, ORed;
  // nullopt when absent (every node passes).
  std::optional<std::vector<NodeSelectorTerm>> required;
  std::vector<PreferredSchedulingTerm> preferred;
};

struct PodAffinityTerm {
  std::optional<LabelSelector> selector;            // absent: matches no pod
  std::vector<std::string> namespaces;              // empty + no namespace_selector: the pod's own
  std::optional<LabelSelector> namespace_selector;  // `{}`: every namespace
  std::string topology_key;
  std::vector<std::string> match_label_keys, mismatch_label_keys;
};

struct WeightedPodAffinityTerm {
  std::int32_t weight = 0;  // 1..100
  PodAffinityTerm term;
};

struct PodAffinity {
  std::vector<PodAffinityTerm> required;
  std::vector<WeightedPodAffinityTerm> preferred;
};

enum class SpreadPolicy { Honor, Ignore };

struct TopologySpreadConstraint {
  std::int32_t max_skew = 1;
  std::string topology_key;
  bool do_not_schedule = true;  // whenUnsatisfiable: DoNotSchedule (else ScheduleAnyway)
  std::optional<LabelSelector> selector;
  std::optional<std::int32_t> min_domains;
  std::vector<std::string> match_label_keys;
  SpreadPolicy node_affinity_policy = SpreadPolicy::Honor;
  SpreadPolicy node_taints_policy = SpreadPolicy::Ignore;
};

// A container port with a hostPort (> 0); others do not constrain placement.
struct HostPort {
  std::string ip = "0.0.0.0";  // hostIP, default 0.0.0.0 (every address)
  std::string protocol = "TCP";
  std::int32_t port = 0;
  bool operator==(const HostPort&) const = default;
};

// What a pod (new or running) carries for the scheduling plugins beyond its
// resources, node_filter and tolerations.
struct PodScheduling {
  std::string ns = "default";
  std::string name;
  Labels labels;
  Labels node_selector;  // spec.nodeSelector
  NodeAffinity node_affinity;
  PodAffinity affinity, anti_affinity;
  std::vector<TopologySpreadConstraint> spread;
  std::vector<HostPort> host_ports;
  std::string node_name;       // spec.nodeName of a new pod
  std::string scheduler_name;  // spec.schedulerName; empty = default-scheduler
  std::int32_t priority = 0;
  bool preempt_never = false;  // preemptionPolicy: Never
  // The workload's selector (its pods: spread's system defaults, counts).
  std::optional<LabelSelector> owner_selector;
  // Its cpu and memory request with Kubernetes' scoring defaults (a
  // container without a cpu request counts 100m, without a memory request
  // 200Mi); -1 when not known (the request's own are used then).
  NanoCores nonzero_cpu = -1;
  Bytes nonzero_memory = -1;
  // ImageLocality: its init containers' and containers' images, in that
  // order, one per container (empty when it names none), each as the
  // container runtime reports it (":latest" added to an untagged name).
  std::vector<std::string> images;
};

// A running pod eruplan knows one by one (from --pods): its place and what
// the plugins, counts and preemption read of it.
struct RunningPod {
  std::uint32_t node = 0;  // index into Inventory::nodes
  std::string ns, name;
  Labels labels;
  // Its labels' id among the inventory's running pods (LabelSets; equal
  // labels, equal ids; Inventory::pod_label_sets counts them), so a
  // selector is matched once per distinct labels; kNoLabelSet: none.
  std::uint32_t label_set = kNoLabelSet;
  std::int32_t priority = 0;
  NanoCores cpu = 0;  // its request as added to the node's usage
  Bytes memory = 0;
  Bytes storage = 0;                                           // ephemeral-storage
  std::vector<std::pair<std::string, std::int64_t>> extended;  // as added to the node's
  NanoCores nonzero_cpu = 0;  // the same with Kubernetes' scoring defaults (100m, 200Mi)
  Bytes nonzero_memory = 0;
  std::string start_time;  // status.startTime as written (RFC 3339 sorts as text)
  // metadata.deletionTimestamp is set: the pod is terminating. It still
  // holds its resources, ports and affinity, but PodTopologySpread bypasses
  // it when counting pods (countPodsMatchSelector).
  bool terminating = false;
  // The app its node's instances count it under (Node::instances); empty =
  // its labels' app as the default --app-label rules give it.
  std::string app;
  // Affinity, anti-affinity and ports, when the pod has any (most have none).
  std::shared_ptr<const PodScheduling> scheduling;
};

// Pods several nodes run alike: grow's DaemonSet pods on the copies of a
// template, one list every copy shares (each pod's `node` unused), so a
// copy costs a pointer, not a pod per DaemonSet. `instances` counts them
// per app, sorted by app: the instances they are on each such node.
struct SharedPods {
  std::vector<RunningPod> pods;
  std::vector<std::pair<std::string, std::int64_t>> instances;
};

}  // namespace eruplan
