// What the Kubernetes loaders (load_k8s_nodes.cpp, load_k8s_pods.cpp,
// load_k8s_manifests.cpp, load_nodes.cpp) share: picking fields by the
// tables of kubernetes_fields.h, quantities, label maps, and one pod's
// effective request. Internal to the input layer.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "doc.h"
#include "kubernetes.h"
#include "kubernetes_fields.h"
#include "reader.h"

namespace eruplan::k8s {

constexpr std::int64_t kMaxCoresPerNode = 4096;  // as for an eruplan inventory

// The rows of a table (kubernetes_fields.h) a reader takes, by index; empty:
// all of them.
using Rows = std::span<const std::size_t>;

// Picks the members that `rows` of `table` name out of `object` into
// values[row] (every other value kNoValue), without a word about the other
// members (the Kubernetes API's, not typos; see kubernetes_fields.h). A null member, or
// a null object, counts as absent. False (after an error) when `object` is
// neither a mapping nor null.
bool pick(Reader& r, const FieldPath& path, ValueId object, std::span<const FieldSpec> table,
          ValueId* values, Rows rows = {});
// The same into `values`, the rows named ({"metadata", "spec"}; checked
// when compiled).
template <const auto& Table>
bool pick(Reader& r, const FieldPath& path, ValueId object, Picked<Table>& values,
          std::type_identity_t<std::initializer_list<FieldOf<Table>>> rows = {}) {
  std::array<std::size_t, Table.size()> index{};
  std::size_t n = 0;
  for (const FieldOf<Table> row : rows) index[n++] = row.index;
  return pick(r, path, object, Table, values.data(), Rows(index.data(), n));
}

// Each element of the list `v` (absent: none) picked by `Table` as pick()
// does: `read(path, element, picked)`; an element that is neither a
// mapping nor null is reported and skipped.
template <const auto& Table, class Read>
void each_picked(Reader& r, const FieldPath& path, ValueId v, Read read) {
  if (v == kNoValue || !r.is_array(path, v)) return;
  for (std::uint32_t i = 0; i < r.doc().size(v); ++i) {
    const FieldPath at = path.at(i);
    const ValueId item = r.doc().element(v, i);
    Picked<Table> f;
    if (pick(r, at, item, f)) read(at, item, f);
  }
}

// The objects of a kubectl-shaped stream, each with its field path: every
// non-null document of `documents` (paths begin documents[i] when there are
// several); a document with the `items` row of `list_fields` is a List,
// `on_list(path, document)` then each item read by `read_one(path, item)`;
// any other document is one object. Paths live on the caller's stack.
using ObjectReader = std::function<void(const FieldPath&, ValueId)>;
void each_listed_object(Reader& r, std::span<const ValueId> documents,
                        std::span<const FieldSpec> list_fields, std::size_t items_row,
                        const ObjectReader& read_one, const ObjectReader& on_list = {});

// A kubectl-shaped file of one kind of object (--namespaces,
// --priority-classes): its stream of documents parsed, then each object read
// by `read_one(r, path, object)` as each_listed_object does, `on_list(r,
// path, list)` on each List. False when the file does not parse or reading
// it reported an error.
using FileObjectReader = std::function<void(Reader&, const FieldPath&, ValueId)>;
bool read_object_file(const Source& source, Diagnostics& diags,
                      std::span<const FieldSpec> list_fields, const FileObjectReader& read_one,
                      const FileObjectReader& on_list = {});

// True when an object's `kind` (its kind row's value) is absent or `want`;
// else an error "expected a <want> (<how>), got ...".
bool kind_is(Reader& r, const FieldPath& at, ValueId kind, std::string_view want,
             std::string_view how);

// The name of every object's kind field (checked to be one in
// kubernetes_fields.h), looked up before the object's type is known.
constexpr std::string_view kKindField = kKubeListFields[field_index(kKubeListFields, "kind")].name;

// The row of kKubeResourceFields named `name`, or kKubeResourceFields.size()
// (an extended resource, or one eruplan leaves out).
std::size_t resource_row(std::string_view name);

// A quantity in Kubernetes' grammar, times 10^scale, rounded up.
std::optional<std::int64_t> quantity(Reader& r, const FieldPath& path, ValueId v, int scale);

// A timestamp (metadata.creationTimestamp) in RFC 3339, as Kubernetes'
// metav1.Time reads it: YYYY-MM-DDTHH:MM:SS, optional fraction, then Z or
// an offset +HH:MM; microseconds since the Unix epoch. Else an error.
std::optional<std::int64_t> timestamp(Reader& r, const FieldPath& path, ValueId v);

// A string -> scalar mapping (labels, nodeSelector), sorted by key.
NamedList<std::string> string_map(Reader& r, const FieldPath& path, ValueId v);

// A scalar's text; empty for an absent value, a list or a mapping.
std::string_view text_of(const Doc& doc, ValueId v);

// The non-empty value of `key`, or empty.
std::string_view label_value(const NamedList<std::string>& labels, std::string_view key);

// SPEC §12: the app is the label app.kubernetes.io/name, else app (or the
// one key --app-label names), first among `primary`, then `secondary`.
std::string app_of(const KubernetesOptions& options, const NamedList<std::string>& primary,
                   const NamedList<std::string>& secondary, std::string_view name);

// The `items` of a List (an error when it has none).
ValueId list_items(Reader& r, ValueId root, std::string_view what);

// " (and 4999 more items that are not Nodes)" when there are more.
std::string wrong_kind_note(const Doc& doc, ValueId items, std::string_view want);

// The root's kind, empty when it has none.
std::string_view root_kind(const Doc& doc);

// Kubernetes' defaults for a container without a cpu or memory request, in
// scoring (k8s.io/component-helpers: DefaultMilliCPURequest, DefaultMemoryRequest).
inline constexpr NanoCores kNonZeroCpu = 100'000'000;  // 100m
inline constexpr Bytes kNonZeroMemory = 200LL << 20;   // 200Mi

inline std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  return a > INT64_MAX - b ? INT64_MAX : a + b;
}

// A pod spec's QoS class, as Kubernetes' ComputePodQOS (k8s_qos.cpp).
QosClass pod_qos(const Doc& doc, ValueId spec);

// One pod's (or one pod template's) effective request (SPEC §12).
struct PodRequest {
  NanoCores cpu = 0;
  Bytes memory = 0;
  Bytes storage = 0;
  // cpu and memory with Kubernetes' scoring defaults: a container without a
  // cpu (memory) request counts 100m (200Mi).
  NanoCores nonzero_cpu = 0;
  Bytes nonzero_memory = 0;
  NamedList<std::int64_t> extended;    // sorted by name
  std::vector<std::string> hugepages;  // requested hugepages-* names (not modelled)
  // One container's: it names cpu (memory) in its requests or limits.
  bool names_cpu = false, names_memory = false;

  std::int64_t& slot(std::string_view name) {
    switch (resource_row(name)) {
      case field_index(kKubeResourceFields, "cpu"):
        return cpu;
      case field_index(kKubeResourceFields, "memory"):
        return memory;
      case field_index(kKubeResourceFields, "ephemeral-storage"):
        return storage;
      default:  // pods, in a request, is an extended resource
        break;
    }
    auto it = std::lower_bound(extended.begin(), extended.end(), name,
                               [](const auto& e, std::string_view k) { return e.first < k; });
    if (it == extended.end() || it->first != name) it = extended.insert(it, {std::string(name), 0});
    return it->second;
  }
  // Applies `f(mine, theirs)` to every resource either side names.
  template <class F>
  void combine(const PodRequest& o, F f) {
    cpu = f(cpu, o.cpu);
    memory = f(memory, o.memory);
    storage = f(storage, o.storage);
    nonzero_cpu = f(nonzero_cpu, o.nonzero_cpu);
    nonzero_memory = f(nonzero_memory, o.nonzero_memory);
    for (const auto& [name, value] : o.extended) slot(name);
    for (auto& [name, value] : extended) {
      std::int64_t theirs = 0;
      for (const auto& [n, v] : o.extended)
        if (n == name) theirs = v;
      value = f(value, theirs);
    }
    for (const std::string& h : o.hugepages)
      if (std::find(hugepages.begin(), hugepages.end(), h) == hugepages.end())
        hugepages.push_back(h);
  }
};

// Whose resource list is read: a container's (and the pod-level
// requests and limits) take only the names Kubernetes' API accepts there.
enum class ResourceListOf { container, pod, overhead };

// A resource list (requests, limits, overhead) into `out`, adding; `names`
// (when given) skips a name already read.
void read_resource_list(Reader& r, const FieldPath& path, ValueId v, PodRequest& out,
                        std::vector<std::string_view>* names,
                        ResourceListOf of = ResourceListOf::container);

// One container: each resource its request, or its limit when it has no
// request; `name` (when given) its name.
PodRequest container_request(Reader& r, const FieldPath& path, ValueId container, bool* sidecar,
                             std::string_view* name = nullptr);

// What a running pod's status says of its containers' resources, as
// kube-scheduler reads it for the pods already on a node (in-place resize):
// status.containerStatuses and initContainerStatuses, and whether
// status.conditions holds PodResizePending with reason Infeasible.
struct PodStatusResources {
  const FieldPath* path = nullptr;  // the pod's status
  ValueId container_statuses = kNoValue, init_container_statuses = kNoValue, conditions = kNoValue;
};

// A DaemonSet as grow needs it, read from one of its running pods (`pod`, at
// `path`), as load_k8s_manifests.cpp reads a DaemonSet manifest: the pod's
// request, labels, nodeSelector, required node affinity and tolerations,
// less what its controller gave that pod alone (spec.nodeName, and the
// matchFields metadata.name each required node affinity term carries).
// `owner`: the DaemonSet's name.
Request daemon_from_pod(Reader& r, const FieldPath& path, ValueId pod, std::string owner,
                        const KubernetesOptions& options);

// Kubernetes' PodRequests: per resource, the larger of (the containers
// plus the sidecar init containers) and (each other init container plus the
// sidecars started before it), plus spec.overhead; cpu rounded up to a
// whole millicore. nonzero_cpu and nonzero_memory the same with the
// scoring defaults per container. With `status` (a running pod), a container
// or sidecar whose status entry has `resources` counts, per resource, the
// largest of its spec's request, the status' resources.requests and its
// allocatedResources; while a resize is Infeasible, only the last two.
PodRequest pod_request(Reader& r, const FieldPath& path, ValueId spec,
                       const PodStatusResources* status = nullptr);

// SPEC §15: every key of `object` (a mapping; anything else is the
// reader's to report) that the API type's `names` (kubernetes_api_fields.h)
// lack is an unknown field, with the nearest name within two edits: an
// error by default, a warning with --lenient. `typos_only`: only a key
// within two edits of a name (a status the cluster writes may carry fields
// newer than these lists; a near miss is a typo in a hand-written file).
// `wanted`/`found`: in the same pass, the values of the keys named in
// `wanted` (kNoValue when absent), for a checker that descends into them.
void check_api_fields(Reader& r, const FieldPath& path, ValueId object,
                      std::span<const std::string_view> names, bool typos_only = false,
                      std::span<const std::string_view> wanted = {}, ValueId* found = nullptr);

// A Node's metadata, spec, taints and (typos only) status; a PriorityClass;
// a PodDisruptionBudget's metadata, spec and (typos only) status
// (k8s_api_check.cpp).
void check_node_fields(Reader& r, const FieldPath& path, ValueId node);
void check_priority_class_fields(Reader& r, const FieldPath& path, ValueId object);
void check_pdb_fields(Reader& r, const FieldPath& path, ValueId object);

// The same over a pod-carrying object of `kind` (k8s_api_check.cpp): the
// object, its metadata, its workload spec (a CronJob's job template and its
// Job spec), its pod template's metadata and spec, the containers, init
// containers, their resources, and the tolerations.
void check_manifest_fields(Reader& r, const FieldPath& path, ValueId object, std::string_view kind);

// kubectl get nodes -o json (a List or NodeList), or one Node.
bool is_kubernetes_nodes(const Doc& doc);
// `forced`: --nodes-format kubernetes (kind-less items and objects are Nodes).
std::optional<Inventory> load_kubernetes_nodes(const Doc& doc, const std::string& file,
                                               Diagnostics& diags, bool forced);
// -n as a YAML stream of Nodes, NodeLists or Lists of Nodes (documents
// separated by ---, as kubectl get node A -o yaml; echo ---; ... writes):
// their nodes in order, field paths from documents[i].
bool is_kubernetes_node_stream(const Doc& doc, std::span<const ValueId> documents);
std::optional<Inventory> load_kubernetes_node_stream(const Doc& doc,
                                                     std::span<const ValueId> documents,
                                                     const std::string& file, Diagnostics& diags,
                                                     bool forced);

}  // namespace eruplan::k8s
