// The node inventory and the deploy request, as plain structs (SPEC §2-3).
// Quantities are parsed once, at load time, into integers: bytes, CPU pieces,
// nanocores. The loader (load.h) fills these in and guarantees the invariants
// noted on each field; everything downstream trusts them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "diagnostics.h"
#include "named_reason.h"
#include "names.h"
#include "placed.h"
#include "pods.h"
#include "quantities.h"

namespace eruplan {

// Key/value list kept sorted by key (byte order unless noted).
template <class V>
using NamedList = std::vector<std::pair<std::string, V>>;

// What SparseList and SharedList share: a std::vector<T> behind an owning
// pointer `Ptr` that stays null while the list is empty, read and changed
// like that vector. `Derived` states the ownership rule in three members:
// allocate(v) (the pointer to a new vector), get() (the vector to change,
// allocated first when the list has none) and writable() (the vector to
// change in place when the list is not empty), plus insert_at and erase.
template <class Derived, class T, class Ptr>
class PointerList {
 public:
  using Vector = std::vector<T>;
  using value_type = T;
  using size_type = typename Vector::size_type;
  using iterator = typename Vector::iterator;
  using const_iterator = typename Vector::const_iterator;

  PointerList() = default;
  PointerList(Vector v)  // NOLINT: converts, as a vector would
      : v_(v.empty() ? nullptr : Derived::allocate(std::move(v))) {}
  PointerList(std::initializer_list<T> init) : PointerList(Vector(init)) {}

  Derived& operator=(const Vector& v) {
    v_ = v.empty() ? nullptr : Derived::allocate(v);
    return self();
  }
  Derived& operator=(Vector&& v) {
    v_ = v.empty() ? nullptr : Derived::allocate(std::move(v));
    return self();
  }
  Derived& operator=(std::initializer_list<T> init) { return *this = Vector(init); }

  const Vector& get() const { return v_ ? *v_ : empty_list(); }
  operator const Vector&() const { return get(); }  // NOLINT: reads as a vector
  operator Vector&() { return self().get(); }       // NOLINT

  bool empty() const { return !v_ || v_->empty(); }
  size_type size() const { return v_ ? v_->size() : 0; }
  const_iterator begin() const { return get().begin(); }
  const_iterator end() const { return get().end(); }
  const_iterator cbegin() const { return get().begin(); }
  const_iterator cend() const { return get().end(); }
  // An empty list stays unallocated: begin() == end(), both value-initialised.
  iterator begin() { return v_ ? self().writable().begin() : iterator(); }
  iterator end() { return v_ ? self().writable().end() : iterator(); }
  const T& operator[](size_type i) const { return (*v_)[i]; }
  T& operator[](size_type i) { return self().writable()[i]; }
  const T& front() const { return v_->front(); }
  T& front() { return self().writable().front(); }
  const T& back() const { return v_->back(); }
  T& back() { return self().writable().back(); }

  void push_back(const T& x) { self().get().push_back(x); }
  void push_back(T&& x) { self().get().push_back(std::move(x)); }
  template <class... A>
  T& emplace_back(A&&... a) {
    return self().get().emplace_back(std::forward<A>(a)...);
  }
  // On an empty list `pos` can only be begin() == end().
  iterator insert(const_iterator pos, const T& x) { return self().insert_at(pos, x); }
  iterator insert(const_iterator pos, T&& x) { return self().insert_at(pos, std::move(x)); }
  template <class It>
  iterator insert(const_iterator pos, It first, It last) {
    return self().insert_at(pos, first, last);
  }
  void reserve(size_type n) {
    if (n > 0) self().get().reserve(n);
  }
  void clear() { v_.reset(); }

  friend bool operator==(const Derived& a, const Derived& b) { return a.get() == b.get(); }

 protected:
  Ptr v_;

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  static const Vector& empty_list() {
    static const Vector empty;
    return empty;
  }
};

// A list that is empty on most nodes (per-core records, NUMA nodes, devices,
// taints, ...): one pointer, the vector allocated when the list first holds
// something, so a 1,000,000-node inventory pays 8 bytes per empty list
// instead of 24. Reads and changes like the std::vector it holds; get()
// gives that vector where a function wants one.
template <class T>
class SparseList : public PointerList<SparseList<T>, T, std::unique_ptr<std::vector<T>>> {
  using Base = PointerList<SparseList<T>, T, std::unique_ptr<std::vector<T>>>;
  friend Base;

 public:
  using typename Base::const_iterator;
  using typename Base::iterator;
  using typename Base::size_type;
  using typename Base::Vector;
  using Base::operator=;
  using Base::get;

  using Base::Base;
  SparseList() = default;
  SparseList(const SparseList& o) : Base() { *this = o.get(); }
  SparseList(SparseList&&) noexcept = default;
  SparseList& operator=(const SparseList& o) {
    if (this != &o) *this = o.get();
    return *this;
  }
  SparseList& operator=(SparseList&&) noexcept = default;

  // The list's own vector, allocated when it has none.
  Vector& get() {
    if (!this->v_) this->v_ = std::make_unique<Vector>();
    return *this->v_;
  }
  const T* data() const { return this->v_ ? this->v_->data() : nullptr; }
  T* data() { return this->v_ ? this->v_->data() : nullptr; }
  template <class... A>
  iterator erase(A&&... a) {
    return get().erase(std::forward<A>(a)...);
  }
  void resize(size_type n) {
    if (n > 0 || this->v_) get().resize(n);
  }

 private:
  template <class V>
  static std::unique_ptr<Vector> allocate(V&& v) {
    return std::make_unique<Vector>(std::forward<V>(v));
  }
  Vector& writable() { return *this->v_; }
  template <class... A>
  iterator insert_at(const_iterator pos, A&&... a) {
    if (!this->v_) return get().insert(this->v_->end(), std::forward<A>(a)...);
    return this->v_->insert(pos, std::forward<A>(a)...);
  }
};

// A list many nodes hold alike (labels, running instances): the loader
// gives equal lists one shared copy (intern), so 1,000,000 nodes in four
// zones hold four label lists, 16 bytes each per node. Changing a node's
// list copies it first (copy on write); an empty list allocates nothing.
// Reads and changes like the std::vector it holds; get() gives that vector
// where a function wants one.
template <class T>
class SharedList : public PointerList<SharedList<T>, T, std::shared_ptr<std::vector<T>>> {
  using Base = PointerList<SharedList<T>, T, std::shared_ptr<std::vector<T>>>;
  friend Base;

 public:
  using typename Base::const_iterator;
  using typename Base::iterator;
  using typename Base::Vector;
  using Base::operator=;
  using Base::get;

  using Base::Base;

  // The list's own vector: allocated when it has none, copied first when
  // another list shares it.
  Vector& get() {
    if (!this->v_)
      this->v_ = std::make_shared<Vector>();
    else if (this->v_.use_count() > 1)
      this->v_ = std::make_shared<Vector>(*this->v_);
    return *this->v_;
  }
  // `pos` comes from this list: a copy on write moves it to the copy.
  iterator erase(const_iterator pos) {
    const auto at = pos - std::as_const(*this).get().begin();
    Vector& v = get();
    return v.erase(v.begin() + at);
  }

  // Shares one copy between this list and `other` when they are equal.
  bool share_with(const SharedList& other) {
    if (this->v_ == other.v_ || get() != other.get()) return false;
    this->v_ = other.v_;
    return true;
  }

 private:
  template <class V>
  static std::shared_ptr<Vector> allocate(V&& v) {
    return std::make_shared<Vector>(std::forward<V>(v));
  }
  Vector& writable() { return get(); }
  template <class... A>
  iterator insert_at(const_iterator pos, A&&... a) {
    const auto at = this->v_ ? pos - this->v_->cbegin() : 0;
    Vector& v = get();
    return v.insert(v.begin() + at, std::forward<A>(a)...);
  }
};

// Core ids and NUMA ids order naturally: "2" before "10"; all-digit ids
// compare as numbers, and come before other ids, which compare by bytes.
bool natural_less(std::string_view a, std::string_view b);

// A listed core; its id is the node's (Node::core_id), so the record is
// 24 bytes: a 4096-core node lists 96 KB of them, not 229 KB.
struct Core {
  Pieces capacity = 0;  // may exceed share_base: an oversold core
  Pieces used = 0;      // usage.cpu_map; 0 <= used <= capacity
  int numa = -1;        // index into Node::numa_nodes, -1 when the node has no NUMA map
};

struct NumaNode {
  std::string id;
  Bytes memory = 0;  // numa_memory
  Bytes used = 0;    // usage.numa_memory; 0 <= used <= memory
};

struct Device {
  std::string name;  // device or mount, e.g. /data0
  Bytes size = 0;
  Bytes used = 0;  // usage.volumes; 0 <= used <= size
};

// A node taint (SPEC §9): NoSchedule and NoExecute taints keep out every
// request that does not tolerate them; PreferNoSchedule ones do not filter.
struct Taint {
  std::string key;  // non-empty
  std::string value;
  std::string effect;  // NoSchedule | PreferNoSchedule | NoExecute
};

// A request's toleration (SPEC §9). Operator Equal (the default) matches key
// and value, Exists matches the key alone; an empty key with Exists matches
// every taint; an empty effect matches every effect.
struct Toleration {
  std::string key;
  bool exists = false;  // operator Exists
  std::string value;
  std::string effect;  // empty = every effect

  bool tolerates(const Taint& taint) const;
};

// A named integer resource beyond CPU, memory and storage (SPEC §8.1):
// nvidia.com/gpu, example.com/fpga, ...
struct ExtendedResource {
  std::string name;
  std::int64_t total = 0;
  std::int64_t used = 0;  // usage.extended; 0 <= used <= total

  bool operator==(const ExtendedResource&) const = default;
};

// A running workload (SPEC §11), normalised as a request is.
struct Workload {
  std::string id;  // unique in the inventory
  std::string app;
  NanoCores cpu = 0, cpu_limit = 0;
  Bytes memory = 0, memory_limit = 0;
  NamedList<Pieces> cpu_map;  // core id -> pieces, natural order; empty = unbound
  int numa = -1;              // index into Node::numa_nodes, -1 = none
  std::int32_t priority = 0;  // pod priority, for preemption (SPEC §17)
  // A pod read from --pods: realloc resizes it with CPU fit, as Kubernetes
  // never oversells CPU requests.
  bool cpu_fit = false;
};

// Resources of a node that only one role may be offered (`eruplan share
// --model mesos`): `reservations: {role: {cpu: 4, memory: 16Gi}}`.
struct Reservation {
  std::string role;
  NanoCores cpu = 0;
  Bytes memory = 0, storage = 0;
  NamedList<std::int64_t> extended;  // sorted by name
  Origin origin;                     // where the role was named, for checks against the roles
};

struct Node {
  std::string name;                                        // unique, non-empty
  SharedList<std::pair<std::string, std::string>> labels;  // sorted by key; shared (intern)
  bool available = true;                                   // false = cordoned
  // Read from a Kubernetes Node object: its labels are all it has (the
  // kubernetes profile then adds no kubernetes.io/hostname of its own).
  bool kubernetes = false;
  // The cores. A node given as `cpu: N` with nothing per core (no numa, no
  // usage.cpu_map) keeps them as a count: N cores "0".."N-1" of share_base
  // pieces, none used, so a large memory-mode inventory costs no per-core
  // memory. Otherwise `cores` lists them, in natural id order. Read them
  // through core_count() and the core_* accessors.
  SparseList<Core> cores;
  // The listed cores' ids, parallel to `cores`; empty while they are
  // "0".."N-1" in order (always for plain cores), as most nodes' are.
  // add_core keeps it so.
  SparseList<std::string> core_ids;
  std::int64_t plain_cores = 0;     // N while `cores` is empty
  Pieces plain_core_pieces = 0;     // share_base
  SparseList<NumaNode> numa_nodes;  // natural id order; empty without `numa`
  Bytes memory = 0;
  Bytes memory_used = 0;
  Bytes storage = 0;
  Bytes storage_used = 0;
  NanoCores cpu_used = 0;      // usage.cpu; default sum(usage.cpu_map) / share_base
  SparseList<Device> devices;  // `volumes`, sorted by name
  SharedList<std::pair<std::string, std::int64_t>> instances;  // app -> running, by app; shared
  // Pods it runs alike with other nodes (grow's DaemonSet pods on an added
  // node), null when none: running pods to the kubernetes profile and the
  // pod constraints, instances to instances_of and instances_total (not in
  // `instances`, so reserving on the node copies no list of theirs); not
  // preemption victims. Inventory::pods holds every other running pod.
  std::shared_ptr<const SharedPods> shared_pods;
  // The node's `cpu` as written, fractional allowed (15890m); -1 when the
  // node gives cpu_map (or nothing) instead. Binding uses floor(cpu) cores.
  NanoCores cpu_given = -1;
  SparseList<ExtendedResource> extended;  // sorted by name
  std::int64_t max_instances = -1;        // -1 = no limit (Kubernetes' pods)
  SparseList<Taint> taints;               // in input order
  // The images it holds (a Kubernetes Node's status.images): every name of
  // each image with the image's size, sorted by name; shared by the node's
  // copies.
  SharedList<std::pair<std::string, Bytes>> images;
  SparseList<Workload> workloads;         // in input order (SPEC §11)
  std::vector<Reservation> reservations;  // by role name
  // Bumped by every reservation, so a cached capacity pass knows which nodes
  // to redo (SPEC §8.3); not part of the inventory as written.
  std::uint64_t revision = 0;

  std::int64_t instances_of(std::string_view app) const;  // `instances` and shared_pods'
  Pieces cpu_pieces() const;                              // sum of core capacities
  // SPEC §8.1 "CPU": its `cpu`, else the number of cores of its cpu_map
  // (oversold or not), else 0; in nanocores.
  NanoCores cpu_total() const;
  std::int64_t instances_total() const;  // all apps together
  const ExtendedResource* find_extended(std::string_view name) const;

  std::size_t core_count() const {
    return cores.empty() ? static_cast<std::size_t>(plain_cores) : cores.size();
  }
  std::string core_id(std::size_t i) const {
    return core_ids.empty() ? std::to_string(i) : core_ids[i];
  }
  bool core_id_is(std::size_t i, std::string_view id) const;  // core_id(i) == id
  // The first core whose id is not naturally less than `id` (lower_bound
  // over the ids in natural order); core_count() when there is none.
  std::size_t core_lower_bound(std::string_view id) const;
  // The core with id `id`; core_count() when there is none.
  std::size_t find_core(std::string_view id) const;
  // Appends a listed core with id `id`, naturally after the ones before.
  void add_core(std::string_view id, const Core& core);
  Pieces core_available(std::size_t i) const {
    return cores.empty() ? plain_core_pieces : cores[i].capacity - cores[i].used;
  }
  int core_numa(std::size_t i) const { return cores.empty() ? -1 : cores[i].numa; }
  // Turns plain cores into listed ones, for per-core data (numa, usage).
  void list_cores();
  // Cores it keeps one by one though given as a count (`cpu: N`): what
  // list_cores made of them, 0 while they are a count.
  std::int64_t listed_from_count() const {
    return cpu_given >= 0 ? static_cast<std::int64_t>(cores.size()) : 0;
  }
};

// Bounded memory: listing a node's cores (Node::list_cores) costs 24 bytes
// a core, however few the input names. A run keeps at most
// listed_core_budget such cores for its input: two per byte (48 bytes),
// and at least kMinListedCores (16 nodes of 4096 cores). The loaders count
// the cores listed while reading, grow its copies' and realloc the nodes
// it binds on; a plan's binding instances count theirs in the plan budget
// (kListedCoresPerPlan).
inline constexpr std::int64_t kMinListedCores = 65536;
inline constexpr std::int64_t kListedCoresPerByte = 2;
inline std::int64_t listed_core_budget(std::uint64_t input_bytes) {
  const std::uint64_t by_input =
      std::min<std::uint64_t>(input_bytes, INT64_MAX / 4) * kListedCoresPerByte;
  return std::max<std::int64_t>(static_cast<std::int64_t>(by_input), kMinListedCores);
}
// The rule in words, for the messages: "65536, or 2 per byte of input".
std::string listed_core_rule();

struct Inventory;
// Gives every running pod of `inventory` its label set's id (RunningPod::
// label_set, equal labels alike) and sets pod_label_sets.
void intern_pod_labels(Inventory& inventory);

struct Inventory {
  Pieces share_base = 100;               // > 0
  std::int64_t max_fragment_cores = -1;  // -1 = no limit, else >= 0
  std::vector<Node> nodes;               // file order
  // Running pods known one by one (Kubernetes --pods), in the order read;
  // shared between copies of the inventory until one changes them.
  SharedList<RunningPod> pods;
  // The label sets of `pods` (each pod's label_set is below it; 0: none
  // interned), given by intern_pod_labels.
  std::uint32_t pod_label_sets = 0;
  // While requests are planned: the pods evicted so far (parallel to
  // `pods`; shorter when the rest are not) and the replicas placed with a
  // pod. The pod filters (the kubernetes profile, the capacity pass's ports
  // and anti-affinity) see both; the inventory written out has neither
  // (evicted pods are dropped, placed replicas are the nodes' instances).
  std::vector<bool> evicted_pods;
  PlacedReplicas placed_pods;
  bool pod_evicted(std::size_t i) const { return i < evicted_pods.size() && evicted_pods[i]; }
  // Namespaces' labels (--namespaces), sorted by name, for namespaceSelector.
  std::vector<std::pair<std::string, Labels>> namespaces;
};

// A strategy: its row in the strategy table (strategy.cpp). The ones code
// names have a constant here, in the table's order; a new strategy needs
// none (a request holds whichever row its name picked).
struct Strategy {
  std::uint8_t row = 0;
  static const Strategy Auto, Fill, Each, Global, Drained, Score;
  friend bool operator==(Strategy, Strategy) = default;
};
inline constexpr Strategy Strategy::Auto{0}, Strategy::Fill{1}, Strategy::Each{2},
    Strategy::Global{3}, Strategy::Drained{4}, Strategy::Score{5};

std::string_view strategy_name(Strategy s);  // "auto", "fill", ... (strategy.cpp's table)

// One entry of resources.volumes: SRC:DST[:FLAGS[:SIZE]].
struct VolumeRequest {
  std::string binding;  // as written, e.g. "AUTO:/data:rw:100"; the key in plans
  std::string source;
  std::string destination;
  std::string flags;
  Bytes size = 0;  // 0 = unlimited quota (or no SIZE given)

  bool scheduled() const { return source == "AUTO"; }
  bool monopoly() const { return flags.find('m') != std::string::npos; }
};

// The names of an inventory's nodes, sorted, and each node's place among
// them: the table many NodeSets of one inventory share.
struct NodeNameTable {
  std::vector<std::string> sorted;
  std::vector<std::uint32_t> rank;  // by inventory index: its place in `sorted`

  explicit NodeNameTable(const std::vector<Node>& nodes);
};

// Some of a NodeNameTable's names, one bit each: a DaemonSet's target nodes.
// Kept as names, 200 DaemonSets over 3,000 nodes held 26 MB for an 88 KB
// input; as bits they hold 75 KB.
class NodeSet {
 public:
  explicit NodeSet(std::shared_ptr<const NodeNameTable> table);
  void add(std::uint32_t inventory_index);
  bool contains(std::string_view name) const;
  std::size_t size() const { return size_; }
  // The first kFirstNames members added.
  static constexpr std::size_t kFirstNames = 3;
  const std::vector<std::string>& first() const { return first_; }
  // The members, or with `others` the table's other names, in inventory order.
  std::vector<std::string_view> names(bool others) const;
  // The members, one byte per 8 of the table's names, for a cache key.
  void append_key(std::string& key) const;

 private:
  std::shared_ptr<const NodeNameTable> table_;
  std::vector<bool> bits_;  // parallel to table_->sorted
  std::size_t size_ = 0;
  std::vector<std::string> first_;
};

struct NodeFilter {
  NamedList<std::string> labels;   // a node must carry every one
  std::vector<std::string> nodes;  // if non-empty: only these
  std::vector<std::string> exclude;
  // When set, only its members as well (a DaemonSet's nodes without its pod).
  std::shared_ptr<const NodeSet> node_set;

  // One node: the name lists are searched in place. A pass over many nodes
  // uses a NodeFilterIndex instead.
  bool accepts(const Node& node) const;
};

// A NodeFilter with its name lists sorted once, for a pass over every node
// of an inventory: names x nodes by linear search is 100K x 100K (11 s).
// Holds views into `filter`, which must outlive it and not change.
class NodeFilterIndex {
 public:
  explicit NodeFilterIndex(const NodeFilter& filter);
  bool accepts(const Node& node) const;

 private:
  const NodeFilter& filter_;
  std::vector<std::string_view> nodes_, exclude_;  // sorted
};

// `strategy: score` settings (SPEC §9).
enum class ScoringType { LeastAllocated, MostAllocated, RequestedToCapacityRatio };
inline constexpr Named<ScoringType> kScoringTypeNames[] = {
    {ScoringType::LeastAllocated, "least_allocated"},
    {ScoringType::MostAllocated, "most_allocated"},
    {ScoringType::RequestedToCapacityRatio, "requested_to_capacity_ratio"}};
struct ScoringResource {
  std::string name;         // cpu, memory, storage or an extended name
  std::int64_t weight = 1;  // 1..100
};
struct ShapePoint {
  std::int64_t utilization = 0;  // 0..100, strictly increasing
  std::int64_t score = 0;        // 0..10 as written
};
// kubernetes: kube-scheduler's default profile (every filter and score
// plugin); resources: NodeResourcesFit and BalancedAllocation alone.
enum class ScoringProfile { Resources, Kubernetes };
struct Scoring {
  ScoringProfile profile = ScoringProfile::Resources;  // Kubernetes for manifest requests
  ScoringType type = ScoringType::LeastAllocated;
  std::vector<ScoringResource> resources{{"cpu", 1}, {"memory", 1}};
  std::vector<ShapePoint> shape;     // requested_to_capacity_ratio only
  std::int64_t fit_weight = 1;       // 0..100
  std::int64_t balanced_weight = 1;  // 0..100
  // --tie-break: false = the lowest name among the highest totals; true =
  // kube-scheduler's selectHost driven by splitmix64 seeded with tie_seed.
  bool tie_random = false;
  std::uint64_t tie_seed = 0;
};

// A pod's QoS class, as Kubernetes computes it from requests and limits
// (cpu and memory): the order --queue-sort qos puts equal priorities in.
enum class QosClass : std::uint8_t { Guaranteed, Burstable, BestEffort };
inline constexpr Named<QosClass> kQosNames[] = {{QosClass::Guaranteed, "Guaranteed"},
                                                {QosClass::Burstable, "Burstable"},
                                                {QosClass::BestEffort, "BestEffort"}};
inline std::string_view qos_name(QosClass q) { return name_of(kQosNames, q); }

// A normalised request (SPEC §3): missing requests take their limits,
// limits are raised to requests, and with cpu_bind cpu is raised to cpu_limit.
struct Request {
  std::string app;
  std::int64_t count = 0;  // > 0 when given; 0 = not given (capacity ignores it)
  Strategy strategy = Strategy::Auto;
  std::int64_t nodes_limit = 0;  // >= 0
  NanoCores cpu = 0;             // cpu_request per instance
  NanoCores cpu_limit = 0;
  bool cpu_bind = false;
  Bytes memory = 0;  // memory_request per instance
  Bytes memory_limit = 0;
  Bytes storage = 0;
  std::vector<VolumeRequest> volumes;  // in request order
  NamedList<std::int64_t> extended;    // per instance, sorted by name (SPEC §8.1)
  bool cpu_fit = false;                // SPEC §8.2; always on for score
  NodeFilter filter;
  std::vector<Toleration> tolerations;  // SPEC §9
  Scoring scoring;
  // A request read from a Kubernetes object: its pod's labels, affinity,
  // spread, ports and priority for the scheduling plugins; null otherwise.
  std::shared_ptr<const PodScheduling> pod;
  // A Kubernetes object that needs no new pod (its replicas already run):
  // why, e.g. {"web", "30 of 30 replicas running, nothing to place"}. The
  // request is then satisfied without planning (count 0).
  NamedReason satisfied;
  // A DaemonSet (SPEC §15): one instance on every node of filter.nodes (its
  // eligible nodes without its pod), all or nothing; the strategy is each
  // with count 1 and nodes_limit the number of those nodes.
  bool daemon = false;

  // Several requests in one run (SPEC §8.4).
  std::string name;  // unique in the file; default the app
  std::int64_t priority = 0;
  std::int64_t min_count = 0;  // 0 = not given (count)
  std::string group;           // empty = none
  // A pod group (coscheduling labels or a PodGroup object): its minimum in
  // pods, running members counting; 0 = none (every member's count is its
  // minimum). Every member of the group carries the same values.
  std::int64_t group_min = 0;
  std::int64_t group_running = 0;       // the group's pods already running
  QosClass qos = QosClass::BestEffort;  // from the request's or pod's requests and limits
  // --queue-sort coscheduling: when it was created, in microseconds since the
  // Unix epoch (a PodGroup member: its PodGroup's metadata.creationTimestamp,
  // else its object's own); none for an object not created yet.
  std::optional<std::int64_t> created;

  Origin cpu_origin;  // where resources.cpu came from, for cross-file checks
  // Where each name of filter.nodes and of filter.exclude was given
  // (parallel to them when known, else empty), for the warning about a name
  // the inventory lacks.
  std::vector<Origin> nodes_origins, exclude_origins;
  // Where each filter.labels entry (node_filter.labels, --label, a
  // manifest's nodeSelector) was given, parallel to it when known, and the
  // manifest's required node affinity: for the warning about a selector no
  // node satisfies.
  std::vector<Origin> label_origins;
  Origin node_affinity_origin;
  // A manifest's topologySpreadConstraints: where a strategy that cannot
  // honour them (all but score) is refused.
  Origin spread_origin;
  // A Kubernetes workload's existing instances are its own running pods
  // (its selector in its namespace), not the pods counted under `app`: by
  // node index, the first less the second (a pod of another namespace with
  // the same app label, one of the workload whose app label differs); null
  // when they agree on every node. Read through existing_instances().
  std::shared_ptr<const std::vector<std::int64_t>> existing_delta;

  bool binds_volumes() const;  // any scheduled (AUTO) volume
  // CPU fit applies: asked for, or implied by the score strategy.
  bool uses_cpu_fit() const { return (cpu_fit || strategy == Strategy::Score) && !cpu_bind; }
};

// The request's instances already on inventory node `index`:
// node.instances_of(app), corrected by the request's existing_delta.
std::int64_t existing_instances(const Node& node, std::uint32_t index, const Request& request);

// Pieces a request of `cpu` nanocores takes at `share_base`; -1 when that is
// not a whole number of pieces.
Pieces cpu_request_pieces(NanoCores cpu, Pieces share_base);

}  // namespace eruplan
