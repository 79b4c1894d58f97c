// Kubernetes objects as eruplan inputs (SPEC §12). Each object is read by
// an allow-list of the fields eruplan models, its table in
// kubernetes_fields.h; everything else kubectl writes (managedFields,
// status.conditions, images, ...) is skipped without a word, also under
// --strict. JSON null is "not given" everywhere. Positions and field paths
// (items[3].status.allocatable.memory) refer to the file as written, through
// the same Doc/Reader as every other input.
#include <algorithm>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "doc.h"
#include "k8s_scheduling.h"
#include "kubernetes.h"
#include "kubernetes_fields.h"
#include "strategy.h"

namespace eruplan {

namespace {

std::string quoted(std::string_view s) { return '"' + std::string(s) + '"'; }

std::size_t count_errors(const Diagnostics& diags) {
  return static_cast<std::size_t>(
      std::count_if(diags.items().begin(), diags.items().end(),
                    [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

constexpr std::int64_t kMaxCoresPerNode = 4096;  // as for an eruplan inventory

// The rows of a table (kubernetes_fields.h) a reader takes, by index; empty:
// all of them.
using Rows = std::initializer_list<std::size_t>;

// Picks the members that `rows` of `table` name out of `object` into
// values[row] (every other value kNoValue), without a word about the other
// members (the Kubernetes API's, not typos; see kubernetes_fields.h). A null member, or
// a null object, counts as absent. False (after an error) when `object` is
// neither a mapping nor null.
bool pick(Reader& r, const FieldPath& path, ValueId object, std::span<const FieldSpec> table,
          ValueId* values, Rows rows = {}) {
  std::fill(values, values + table.size(), kNoValue);
  if (object == kNoValue) return true;
  const Doc& doc = r.doc();
  if (doc[object].kind == ValueKind::Null) return true;
  if (!r.is_object(path, object)) return false;
  auto slot = [&](std::string_view key) -> ValueId* {
    if (rows.size() == 0) {
      for (std::size_t f = 0; f < table.size(); ++f)
        if (table[f].name == key) return values + f;
      return nullptr;
    }
    for (const std::size_t f : rows)
      if (table[f].name == key) return values + f;
    return nullptr;
  };
  const std::uint32_t n = doc.size(object);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::string_view key = doc.text(doc.key(object, i));
    ValueId* value = slot(key);
    if (!value) continue;
    const ValueId v = doc.member(object, i);
    if (*value != kNoValue)
      r.error(path.child(key), doc.key(object, i),
              "given twice (first at " + r.where(*value) + ")");
    else if (doc[v].kind != ValueKind::Null)
      *value = v;
  }
  return true;
}

// The name of every object's kind field (checked to be one in
// kubernetes_fields.h), looked up before the object's type is known.
constexpr std::string_view kKindField = kKubeListFields[kube_list_field::kKind].name;

// The row of kKubeResourceFields named `name`, or kube_resource_field::kCount
// (an extended resource, or one eruplan leaves out).
std::size_t resource_row(std::string_view name) {
  for (std::size_t f = 0; f < kKubeResourceFields.size(); ++f)
    if (kKubeResourceFields[f].name == name) return f;
  return kube_resource_field::kCount;
}

// A quantity in Kubernetes' grammar, times 10^scale, rounded up.
std::optional<std::int64_t> quantity(Reader& r, const FieldPath& path, ValueId v, int scale) {
  const Doc& doc = r.doc();
  const ValueKind k = doc[v].kind;
  if (k != ValueKind::Number && k != ValueKind::String) {
    r.error(path, v,
            "expected a Kubernetes quantity (like 1.5, 500m or 8Gi), got " + r.describe(v));
    return std::nullopt;
  }
  std::string problem;
  auto q = k8s_whole(doc.text(v), scale, problem);
  if (!q) r.error(path, v, problem);
  return q;
}

// A string -> scalar mapping (labels, nodeSelector), sorted by key.
NamedList<std::string> string_map(Reader& r, const FieldPath& path, ValueId v) {
  NamedList<std::string> out;
  if (v == kNoValue) return out;
  for (const Reader::Entry& e : r.members(path, v)) {
    if (r.doc()[e.value].kind == ValueKind::Null) {
      out.emplace_back(std::string(e.key), std::string());
      continue;
    }
    if (auto s = r.scalar(path.child(e.key), e.value))
      out.emplace_back(std::string(e.key), std::string(*s));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A scalar's text; empty for an absent value, a list or a mapping.
std::string_view text_of(const Doc& doc, ValueId v) {
  return v != kNoValue && doc.is_scalar(v) ? doc.text(v) : std::string_view();
}

std::string_view find_label(const NamedList<std::string>& labels, std::string_view key) {
  for (const auto& [k, v] : labels)
    if (k == key && !v.empty()) return v;
  return {};
}

// SPEC §12: the app is the label app.kubernetes.io/name, else app (or the
// one key --app-label names), first among `primary`, then `secondary`.
std::string app_of(const KubernetesOptions& options, const NamedList<std::string>& primary,
                   const NamedList<std::string>& secondary, std::string_view name) {
  for (const auto* labels : {&primary, &secondary}) {
    if (!options.app_label.empty()) {
      if (auto a = find_label(*labels, options.app_label); !a.empty()) return std::string(a);
      continue;
    }
    if (auto a = find_label(*labels, "app.kubernetes.io/name"); !a.empty()) return std::string(a);
    if (auto a = find_label(*labels, "app"); !a.empty()) return std::string(a);
  }
  return std::string(name);
}

// The `items` of a List, checking the top-level kind when asked.
ValueId list_items(Reader& r, ValueId root, std::string_view what) {
  std::array<ValueId, kKubeListFields.size()> f;
  if (!pick(r, FieldPath{}, root, kKubeListFields, f.data())) return kNoValue;
  const ValueId items = f[kube_list_field::kItems];
  if (items == kNoValue) {
    r.error(FieldPath{}.child("items"), root,
            "items is required (the " + std::string(what) + " of a Kubernetes List)");
    return kNoValue;
  }
  return r.is_array(FieldPath{}.child("items"), items) ? items : kNoValue;
}

// " (and 4999 more items that are not Nodes)" when there are more.
std::string wrong_kind_note(const Doc& doc, ValueId items, std::string_view want) {
  std::size_t n = 0;
  for (std::uint32_t i = 0; i < doc.size(items); ++i) {
    const ValueId item = doc.element(items, i);
    if (doc[item].kind != ValueKind::Object) continue;
    for (std::uint32_t j = 0; j < doc.size(item); ++j)
      if (doc.text(doc.key(item, j)) == kKindField && text_of(doc, doc.member(item, j)) != want)
        ++n;
  }
  if (n <= 1) return {};
  return " (and " + std::to_string(n - 1) + " more items that are not " + std::string(want) + "s)";
}

// --- Nodes --------------------------------------------------------------

// The root's kind, empty when it has none.
std::string_view root_kind(const Doc& doc) {
  const ValueId root = doc.root();
  if (doc[root].kind != ValueKind::Object) return {};
  for (std::uint32_t i = 0; i < doc.size(root); ++i)
    if (doc.text(doc.key(root, i)) == kKindField) return text_of(doc, doc.member(root, i));
  return {};
}

// kubectl get nodes -o json (a List or NodeList), or one Node (kubectl get
// node NAME -o json): an inventory of one node.
bool is_kubernetes_nodes(const Doc& doc) {
  const std::string_view kind = root_kind(doc);
  return kind == "List" || kind == "NodeList" || kind == "Node";
}

void read_taints(Reader& r, const FieldPath& path, ValueId v, Node& node) {
  if (v == kNoValue || !r.is_array(path, v)) return;
  for (std::uint32_t i = 0; i < r.doc().size(v); ++i) {
    const FieldPath at = path.at(i);
    const ValueId item = r.doc().element(v, i);
    std::array<ValueId, kKubeTaintFields.size()> f;
    if (!pick(r, at, item, kKubeTaintFields, f.data())) continue;
    node.taints.push_back(read_taint(r, at, item, f[kube_taint_field::kKey],
                                     f[kube_taint_field::kValue], f[kube_taint_field::kEffect]));
  }
}

// status.allocatable: cpu, memory, ephemeral-storage (storage), pods
// (max_instances), hugepages-* (not modelled: a pod's hugepages are not
// planned), and every other name an extended resource.
void read_allocatable(Reader& r, const FieldPath& path, ValueId v, Pieces share_base, Node& node) {
  node.cpu_given = 0;
  if (v == kNoValue) return;
  for (const Reader::Entry& e : r.members(path, v)) {
    const FieldPath here = path.child(e.key);
    if (r.doc()[e.value].kind == ValueKind::Null || e.key.starts_with("hugepages-")) continue;
    switch (resource_row(e.key)) {
      case kube_resource_field::kCpu:
        if (auto c = quantity(r, here, e.value, 9)) {
          if (*c / kNanoPerCore > kMaxCoresPerNode) {
            r.error(here, e.value,
                    "at most " + std::to_string(kMaxCoresPerNode) + " cores per node, got " +
                        std::to_string(*c / kNanoPerCore));
            continue;
          }
          node.cpu_given = *c;
          node.plain_cores = *c / kNanoPerCore;
          node.plain_core_pieces = share_base;
        }
        break;
      case kube_resource_field::kMemory:
        if (auto m = quantity(r, here, e.value, 0)) node.memory = *m;
        break;
      case kube_resource_field::kEphemeralStorage:
        if (auto s = quantity(r, here, e.value, 0)) node.storage = *s;
        break;
      case kube_resource_field::kPods:
        if (auto p = quantity(r, here, e.value, 0)) node.max_instances = *p;
        break;
      default:
        // "storage" is not a Kubernetes allocatable name; eruplan's storage
        // is ephemeral-storage, and §8.1 keeps "storage" from being extended.
        if (e.key == "storage" || e.key.empty()) continue;
        if (auto n = quantity(r, here, e.value, 0))
          node.extended.push_back({std::string(e.key), *n, 0});
    }
  }
  std::sort(node.extended.begin(), node.extended.end(),
            [](const ExtendedResource& a, const ExtendedResource& b) { return a.name < b.name; });
}

// One Node object at `at` (an item of the list, or the file's root) into
// the inventory; its problems into diags.
void read_node(Reader& r, const FieldPath& at, ValueId item,
               std::unordered_map<std::string_view, std::int64_t>& seen, Inventory& inventory) {
  const Doc& doc = r.doc();
  Node node;
  std::array<ValueId, kKubeNodeFields.size()> object;  // its kind is the list's to check
  pick(r, at, item, kKubeNodeFields, object.data(),
       {kube_node_field::kMetadata, kube_node_field::kSpec, kube_node_field::kStatus});
  const ValueId metadata = object[kube_node_field::kMetadata];
  const FieldPath meta_path = at.child("metadata"), spec_path = at.child("spec"),
                  status_path = at.child("status");
  std::array<ValueId, kKubeMetadataFields.size()> meta;
  std::array<ValueId, kKubeNodeSpecFields.size()> spec;
  std::array<ValueId, kKubeNodeStatusFields.size()> status;
  pick(r, meta_path, metadata, kKubeMetadataFields, meta.data(),
       {kube_metadata_field::kName, kube_metadata_field::kLabels});
  pick(r, spec_path, object[kube_node_field::kSpec], kKubeNodeSpecFields, spec.data());
  pick(r, status_path, object[kube_node_field::kStatus], kKubeNodeStatusFields, status.data());
  const ValueId name = meta[kube_metadata_field::kName],
                labels = meta[kube_metadata_field::kLabels],
                unschedulable = spec[kube_node_spec_field::kUnschedulable],
                taints = spec[kube_node_spec_field::kTaints],
                allocatable = status[kube_node_status_field::kAllocatable];
  if (name == kNoValue) {
    r.error(meta_path.child("name"), metadata != kNoValue ? metadata : item,
            "metadata.name is required");
  } else if (auto s = r.string(meta_path.child("name"), name)) {
    node.name = *s;
    auto [it, fresh] = seen.emplace(doc.text(name), at.index);
    if (!fresh)  // only in a list: one Node has one name
      r.error(meta_path.child("name"), name,
              "duplicate node name " + quoted(*s) + ": items[" + std::to_string(it->second) +
                  "] and items[" + std::to_string(at.index) + "] are both named so");
  }
  node.labels = string_map(r, meta_path.child("labels"), labels);
  if (unschedulable != kNoValue) {
    if (auto u = r.boolean(spec_path.child("unschedulable"), unschedulable)) node.available = !*u;
  }
  read_taints(r, spec_path.child("taints"), taints, node);
  read_allocatable(r, status_path.child("allocatable"), allocatable, inventory.share_base, node);
  inventory.nodes.push_back(std::move(node));
}

std::optional<Inventory> load_kubernetes_nodes(const Doc& doc, const std::string& file,
                                               Diagnostics& diags) {
  const std::size_t errors_before = count_errors(diags);
  Reader r(doc, file, diags);
  if (doc[doc.root()].kind != ValueKind::Object) {
    r.is_object(FieldPath{}, doc.root());
    return std::nullopt;
  }
  Inventory inventory;  // share_base 100, as an eruplan inventory without one
  std::unordered_map<std::string_view, std::int64_t> seen;  // node name -> first item
  const FieldPath root, items_path = root.child("items");
  if (root_kind(doc) == "Node") {
    // One Node (kubectl get node NAME -o json): an inventory of one node,
    // its field paths from the file's root.
    read_node(r, root, doc.root(), seen, inventory);
    if (count_errors(diags) > errors_before) return std::nullopt;
    return inventory;
  }
  const ValueId items = list_items(r, doc.root(), "nodes");
  if (items == kNoValue) return std::nullopt;
  const std::uint32_t n = doc.size(items);
  inventory.nodes.reserve(n);
  std::size_t wrong_kind = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const FieldPath at = items_path.at(i);
    const ValueId item = doc.element(items, i);
    std::array<ValueId, kKubeNodeFields.size()> f;
    if (!pick(r, at, item, kKubeNodeFields, f.data(), {kube_node_field::kKind})) continue;
    const ValueId kind = f[kube_node_field::kKind];
    if (kind != kNoValue && text_of(doc, kind) != "Node") {
      // The first one says it; a whole list of something else is one mistake.
      if (wrong_kind++ == 0)
        r.error(at.child("kind"), kind,
                "expected a Node (a node list, as kubectl get nodes -o json), got " +
                    r.describe(kind) + wrong_kind_note(doc, items, "Node"));
      continue;
    }
    read_node(r, at, item, seen, inventory);
  }
  if (count_errors(diags) > errors_before) return std::nullopt;
  return inventory;
}

// --- Pods ---------------------------------------------------------------

// One pod's (or one pod template's) effective request (SPEC §12).
struct PodRequest {
  NanoCores cpu = 0;
  Bytes memory = 0;
  Bytes storage = 0;
  NamedList<std::int64_t> extended;    // sorted by name
  std::vector<std::string> hugepages;  // requested hugepages-* names (not modelled)

  std::int64_t& slot(std::string_view name) {
    switch (resource_row(name)) {
      case kube_resource_field::kCpu:
        return cpu;
      case kube_resource_field::kMemory:
        return memory;
      case kube_resource_field::kEphemeralStorage:
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

std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  return a > INT64_MAX - b ? INT64_MAX : a + b;
}

// A resource list (requests, limits, overhead) into `out`, adding.
void read_resource_list(Reader& r, const FieldPath& path, ValueId v, PodRequest& out,
                        std::vector<std::string_view>* names) {
  if (v == kNoValue) return;
  for (const Reader::Entry& e : r.members(path, v)) {
    if (r.doc()[e.value].kind == ValueKind::Null) continue;
    if (e.key.starts_with("hugepages-")) {
      out.hugepages.emplace_back(e.key);
      continue;
    }
    if (e.key.empty() || e.key == "storage") continue;  // see read_allocatable
    if (names) {
      if (std::find(names->begin(), names->end(), e.key) != names->end()) continue;
      names->push_back(e.key);
    }
    const bool cpu = resource_row(e.key) == kube_resource_field::kCpu;
    if (auto q = quantity(r, path.child(e.key), e.value, cpu ? 9 : 0)) {
      std::int64_t& slot = out.slot(e.key);
      slot = saturating_add(slot, *q);
    }
  }
}

// One container: each resource its request, or its limit when it has no
// request.
PodRequest container_request(Reader& r, const FieldPath& path, ValueId container, bool* sidecar) {
  PodRequest out;
  std::array<ValueId, kKubeContainerFields.size()> f;
  if (!pick(r, path, container, kKubeContainerFields, f.data())) return out;
  if (sidecar) *sidecar = text_of(r.doc(), f[kube_container_field::kRestartPolicy]) == "Always";
  std::array<ValueId, kKubeResourcesFields.size()> res;
  const FieldPath res_path = path.child("resources");
  if (!pick(r, res_path, f[kube_container_field::kResources], kKubeResourcesFields, res.data()))
    return out;
  const ValueId requests = res[kube_resources_field::kRequests],
                limits = res[kube_resources_field::kLimits];
  std::vector<std::string_view> named;
  read_resource_list(r, res_path.child("requests"), requests, out, &named);
  read_resource_list(r, res_path.child("limits"), limits, out, &named);
  return out;
}

// SPEC §12: per resource, the larger of (the containers plus the init
// containers with restartPolicy Always) and (the largest other init
// container), plus spec.overhead.
PodRequest pod_request(Reader& r, const FieldPath& path, ValueId spec) {
  PodRequest sum, init_max, extra;
  std::array<ValueId, kKubePodSpecFields.size()> f;
  if (!pick(r, path, spec, kKubePodSpecFields, f.data(),
            {kube_pod_spec_field::kContainers, kube_pod_spec_field::kInitContainers,
             kube_pod_spec_field::kOverhead}))
    return sum;
  const ValueId containers = f[kube_pod_spec_field::kContainers],
                init = f[kube_pod_spec_field::kInitContainers],
                overhead = f[kube_pod_spec_field::kOverhead];
  auto add = [](std::int64_t a, std::int64_t b) { return saturating_add(a, b); };
  auto larger = [](std::int64_t a, std::int64_t b) { return std::max(a, b); };
  if (containers != kNoValue && r.is_array(path.child("containers"), containers)) {
    for (std::uint32_t i = 0; i < r.doc().size(containers); ++i)
      sum.combine(container_request(r, path.child("containers").at(i),
                                    r.doc().element(containers, i), nullptr),
                  add);
  }
  if (init != kNoValue && r.is_array(path.child("initContainers"), init)) {
    for (std::uint32_t i = 0; i < r.doc().size(init); ++i) {
      bool sidecar = false;
      PodRequest c = container_request(r, path.child("initContainers").at(i),
                                       r.doc().element(init, i), &sidecar);
      if (sidecar)
        sum.combine(c, add);
      else
        init_max.combine(c, larger);
    }
  }
  sum.combine(init_max, larger);
  read_resource_list(r, path.child("overhead"), overhead, extra, nullptr);
  sum.combine(extra, add);
  return sum;
}

// A running pod's app, straight from its labels (no copy of them: there
// may be 150,000 pods).
std::string pod_app(const Doc& doc, ValueId labels, const KubernetesOptions& options,
                    std::string_view name) {
  std::string_view by_name, by_app;
  if (labels != kNoValue && doc[labels].kind == ValueKind::Object) {
    for (std::uint32_t i = 0; i < doc.size(labels); ++i) {
      const std::string_view key = doc.text(doc.key(labels, i));
      const std::string_view value = text_of(doc, doc.member(labels, i));
      if (value.empty()) continue;
      if (!options.app_label.empty()) {
        if (key == options.app_label) return std::string(value);
      } else if (key == "app.kubernetes.io/name") {
        by_name = value;
      } else if (key == "app") {
        by_app = value;
      }
    }
  }
  if (!by_name.empty()) return std::string(by_name);
  if (!by_app.empty()) return std::string(by_app);
  return std::string(name.empty() ? "(unnamed)" : name);
}

std::string pod_name(const Doc& doc, ValueId ns, ValueId name) {
  std::string out = ns != kNoValue ? std::string(doc.text(ns)) + "/" : std::string();
  return out + (name != kNoValue ? std::string(doc.text(name)) : std::string("(unnamed)"));
}

}  // namespace

std::optional<Inventory> load_nodes(const Source& source, NodesFormat format, Diagnostics& diags) {
  if (format == NodesFormat::Eruplan) return load_inventory(source, diags);
  if (format == NodesFormat::Auto)  // a JSON inventory holds no "kind": it is not a NodeList
    if (auto inventory = load_inventory_streamed(source)) return inventory;
  auto doc = parse_document(source, diags);
  if (!doc) return std::nullopt;
  if (format == NodesFormat::Kubernetes || is_kubernetes_nodes(*doc))
    return load_kubernetes_nodes(*doc, source.name, diags);
  return load_inventory(*doc, source.name, diags);
}

namespace {

// apply_pods, or with no inventory (-n had errors) the pods file read for
// its own problems alone: no node list to match the pods against, so
// nothing about nodes is said.
bool read_pods(Inventory* nodes, const Source& pods, const KubernetesOptions& options,
               Diagnostics& diags) {
  Inventory none;
  Inventory& inventory = nodes ? *nodes : none;
  const std::size_t errors_before = count_errors(diags);
  auto doc = parse_document(pods, diags);
  if (!doc) return false;
  Reader r(*doc, pods.name, diags);
  if (!r.is_object(FieldPath{}, doc->root())) return false;
  const ValueId items = list_items(r, doc->root(), "pods");
  if (items == kNoValue) return false;

  std::unordered_map<std::string_view, std::size_t> node_index;
  node_index.reserve(inventory.nodes.size());
  for (std::size_t i = 0; i < inventory.nodes.size(); ++i)
    node_index.emplace(inventory.nodes[i].name, i);
  // Per node: app -> new instances, merged into Node::instances at the end.
  std::vector<std::unordered_map<std::string, std::int64_t>> apps(inventory.nodes.size());
  struct Unknown {
    std::uint32_t index;  // of the first such pod
    ValueId first;
    std::string first_pod;
    std::int64_t pods = 0;
  };
  std::vector<std::pair<std::string_view, Unknown>> unknown;  // in order first seen
  std::size_t wrong_kind = 0;

  const FieldPath root, items_path = root.child("items");
  for (std::uint32_t i = 0; i < doc->size(items); ++i) {
    const FieldPath at = items_path.at(i);
    const ValueId item = doc->element(items, i);
    std::array<ValueId, kKubePodFields.size()> object;
    if (!pick(r, at, item, kKubePodFields, object.data())) continue;
    const ValueId kind = object[kube_pod_field::kKind], spec = object[kube_pod_field::kSpec];
    if (kind != kNoValue && text_of(*doc, kind) != "Pod") {
      if (wrong_kind++ == 0)
        r.error(at.child("kind"), kind,
                "expected a Pod (a pod list, as kubectl get pods -A -o json), got " +
                    r.describe(kind) + wrong_kind_note(*doc, items, "Pod"));
      continue;
    }
    const FieldPath meta_path = at.child("metadata"), spec_path = at.child("spec");
    std::array<ValueId, kKubeMetadataFields.size()> meta;
    std::array<ValueId, kKubePodStatusFields.size()> status;
    pick(r, meta_path, object[kube_pod_field::kMetadata], kKubeMetadataFields, meta.data());
    pick(r, at.child("status"), object[kube_pod_field::kStatus], kKubePodStatusFields,
         status.data());
    const ValueId name = meta[kube_metadata_field::kName],
                  ns = meta[kube_metadata_field::kNamespace],
                  labels = meta[kube_metadata_field::kLabels],
                  phase = status[kube_pod_status_field::kPhase];
    if (text_of(*doc, phase) == "Succeeded" || text_of(*doc, phase) == "Failed")
      continue;  // finished pods hold no resources
    // Where it runs; what it requests is pod_request's to pick.
    std::array<ValueId, kKubePodSpecFields.size()> placed;
    pick(r, spec_path, spec, kKubePodSpecFields, placed.data(), {kube_pod_spec_field::kNodeName});
    const ValueId node_name = placed[kube_pod_spec_field::kNodeName];
    if (node_name == kNoValue || text_of(*doc, node_name).empty()) continue;  // not bound yet
    const PodRequest req = pod_request(r, spec_path, spec);
    if (!nodes) continue;
    const auto found = node_index.find(doc->text(node_name));
    if (found == node_index.end()) {
      const std::string_view key = doc->text(node_name);
      auto u = std::find_if(unknown.begin(), unknown.end(),
                            [&](const auto& e) { return e.first == key; });
      if (u == unknown.end()) {
        unknown.push_back({key, Unknown{i, node_name, pod_name(*doc, ns, name), 0}});
        u = unknown.end() - 1;
      }
      ++u->second.pods;
      continue;
    }
    Node& node = inventory.nodes[found->second];
    node.cpu_used = saturating_add(node.cpu_used, req.cpu);
    node.memory_used = saturating_add(node.memory_used, req.memory);
    node.storage_used = saturating_add(node.storage_used, req.storage);
    for (const auto& entry : req.extended) {
      const std::string& res = entry.first;
      const std::int64_t value = entry.second;
      auto it = std::find_if(node.extended.begin(), node.extended.end(),
                             [&res](const ExtendedResource& e) { return e.name == res; });
      if (it != node.extended.end()) it->used = saturating_add(it->used, value);
    }
    std::string app = pod_app(*doc, labels, options, text_of(*doc, name));
    if (options.pods_as_workloads) {
      Workload w;
      w.id = pod_name(*doc, ns, name);
      w.app = app;
      w.cpu = w.cpu_limit = req.cpu;
      w.memory = w.memory_limit = req.memory;
      node.workloads.push_back(std::move(w));
    }
    ++apps[found->second][std::move(app)];
    inventory.pods.push_back(
        read_running_pod(r, spec_path, spec, found->second, ns, name, labels, req.cpu, req.memory));
  }
  for (const auto& [node, u] : unknown)
    r.warning(items_path.at(u.index).child("spec").child("nodeName"), u.first,
              std::to_string(u.pods) + (u.pods == 1 ? " pod" : " pods") + " on node " +
                  quoted(node) + ", which is not in the node list, ignored (first: " + u.first_pod +
                  ")");

  // Merge the instances, and keep usage within what the node has: pods that
  // ask for more than the allocatable (static pods, a shrunk node) leave it
  // full, with a warning. usage.cpu may exceed the CPU (SPEC §8.1).
  for (std::size_t i = 0; i < inventory.nodes.size(); ++i) {
    Node& node = inventory.nodes[i];
    for (auto& [app, count] : apps[i]) {
      auto it = std::lower_bound(node.instances.begin(), node.instances.end(), app,
                                 [](const auto& e, const std::string& k) { return e.first < k; });
      if (it != node.instances.end() && it->first == app)
        it->second = saturating_add(it->second, count);
      else
        node.instances.insert(it, {app, count});
    }
    auto clamp = [&](std::int64_t& used, std::int64_t total, const std::string& what) {
      if (used <= total) return;
      diags.warning(Origin{pods.name, 0, 0, "items"},
                    "pods on " + node.name + " request " + std::to_string(used) + " " + what +
                        ", more than its allocatable " + std::to_string(total) +
                        "; counted as full");
      used = total;
    };
    clamp(node.memory_used, node.memory, "bytes of memory");
    clamp(node.storage_used, node.storage, "bytes of ephemeral-storage");
    for (ExtendedResource& e : node.extended) clamp(e.used, e.total, e.name);
  }
  return count_errors(diags) == errors_before;
}

}  // namespace

bool apply_pods(Inventory& inventory, const Source& pods, const KubernetesOptions& options,
                Diagnostics& diags) {
  return read_pods(&inventory, pods, options, diags);
}

void load_pods(std::optional<Inventory>& inventory, const std::optional<Source>& pods,
               const KubernetesOptions& options, Diagnostics& diags) {
  if (!pods) return;
  if (!read_pods(inventory ? &*inventory : nullptr, *pods, options, diags)) inventory.reset();
}

// --- Manifests ----------------------------------------------------------

namespace {

bool is_workload_kind(std::string_view kind) {
  return kind == "Deployment" || kind == "StatefulSet" || kind == "ReplicaSet" || kind == "Pod";
}

// kind and apiVersion, both strings, at the top of a document.
bool is_manifest(const Doc& doc, ValueId v, std::string_view* kind) {
  if (doc[v].kind != ValueKind::Object) return false;
  bool api = false, has_kind = false;
  for (std::uint32_t i = 0; i < doc.size(v); ++i) {
    const std::string_view key = doc.text(doc.key(v, i));
    const ValueId m = doc.member(v, i);
    if (doc[m].kind != ValueKind::String) continue;
    if (key == kKubeManifestFields[kube_manifest_field::kApiVersion].name) api = true;
    if (key == kKubeManifestFields[kube_manifest_field::kKind].name)
      has_kind = true, *kind = doc.text(m);
  }
  return api && has_kind;
}

void read_tolerations(Reader& r, const FieldPath& path, ValueId v, Request& req) {
  if (v == kNoValue || !r.is_array(path, v)) return;
  for (std::uint32_t i = 0; i < r.doc().size(v); ++i) {
    const FieldPath at = path.at(i);
    const ValueId item = r.doc().element(v, i);
    std::array<ValueId, kKubeTolerationFields.size()> f;
    if (!pick(r, at, item, kKubeTolerationFields, f.data())) continue;
    const ValueId key = f[kube_toleration_field::kKey], op = f[kube_toleration_field::kOperator],
                  value = f[kube_toleration_field::kValue],
                  effect = f[kube_toleration_field::kEffect];
    Toleration t;
    if (key != kNoValue) {
      if (auto k = r.scalar(at.child("key"), key)) t.key = *k;
    }
    if (op != kNoValue) {
      const std::string_view o = text_of(r.doc(), op);
      if (o == "Exists")
        t.exists = true;
      else if (o != "Equal")
        r.error(at.child("operator"), op,
                "unknown operator " + r.describe(op) + "; expected Equal or Exists");
    }
    if (value != kNoValue) {
      if (auto s = r.scalar(at.child("value"), value)) t.value = *s;
    }
    if (effect != kNoValue) {
      if (auto s = r.scalar(at.child("effect"), effect)) t.effect = *s;
    }
    if (t.key.empty() && !t.exists)
      r.error(at, item, "a toleration with an empty key must use operator Exists");
    req.tolerations.push_back(std::move(t));
  }
}

// The manifest's pod for the scheduling plugins: name, namespace, labels,
// the workload's selector (its template labels) and the spec's scheduling
// fields (k8s_scheduling.cpp).
std::shared_ptr<const PodScheduling> manifest_pod(Reader& r, const FieldPath& spec_path,
                                                  ValueId spec, const std::string& name, ValueId ns,
                                                  const NamedList<std::string>& labels,
                                                  bool workload) {
  auto pod = std::make_shared<PodScheduling>();
  pod->name = name;
  if (ns != kNoValue && r.doc().is_scalar(ns)) pod->ns = r.doc().text(ns);
  pod->labels = labels;
  if (workload && !labels.empty()) {
    LabelSelector selector;
    for (const auto& [k, v] : labels) selector.requirements.push_back({k, SelectorOp::In, {v}});
    pod->owner_selector = std::move(selector);
  }
  read_pod_scheduling(r, spec_path, spec, *pod);
  const NonZeroRequest nonzero = nonzero_request(r.doc(), spec);
  pod->nonzero_cpu = nonzero.cpu;
  pod->nonzero_memory = nonzero.memory;
  return pod;
}

// One Deployment, StatefulSet, ReplicaSet or Pod as a request; its name
// even when other fields had errors (the caller counts them), so that a
// later manifest of the same name is still reported.
Request read_manifest(Reader& r, const FieldPath& path, ValueId v, std::string_view kind,
                      const KubernetesOptions& options) {
  std::array<ValueId, kKubeManifestFields.size()> object;  // its kind is the caller's
  pick(r, path, v, kKubeManifestFields, object.data(),
       {kube_manifest_field::kMetadata, kube_manifest_field::kSpec});
  const ValueId metadata = object[kube_manifest_field::kMetadata],
                spec = object[kube_manifest_field::kSpec];
  const FieldPath meta_path = path.child("metadata"), spec_path = path.child("spec");
  std::array<ValueId, kKubeMetadataFields.size()> meta;
  pick(r, meta_path, metadata, kKubeMetadataFields, meta.data(),
       {kube_metadata_field::kName, kube_metadata_field::kNamespace, kube_metadata_field::kLabels});
  const ValueId name = meta[kube_metadata_field::kName],
                labels = meta[kube_metadata_field::kLabels];
  Request req;
  if (name == kNoValue)
    r.error(meta_path.child("name"), metadata != kNoValue ? metadata : v,
            "metadata.name is required (it names the request)");
  else if (auto s = r.string(meta_path.child("name"), name))
    req.name = *s;
  const NamedList<std::string> own_labels = string_map(r, meta_path.child("labels"), labels);

  NamedList<std::string> template_labels;
  ValueId pod_spec = spec;
  FieldPath pod_path = spec_path;
  ValueId template_ = kNoValue, replicas = kNoValue;
  FieldPath template_path = spec_path.child("template");
  FieldPath template_spec_path = template_path.child("spec");
  req.count = 1;
  if (kind != "Pod") {
    std::array<ValueId, kKubeWorkloadSpecFields.size()> workload;
    pick(r, spec_path, spec, kKubeWorkloadSpecFields, workload.data());
    template_ = workload[kube_workload_spec_field::kTemplate];
    replicas = workload[kube_workload_spec_field::kReplicas];
    std::array<ValueId, kKubeTemplateFields.size()> pod_template;
    pick(r, template_path, template_, kKubeTemplateFields, pod_template.data());
    const ValueId t_meta = pod_template[kube_template_field::kMetadata],
                  t_spec = pod_template[kube_template_field::kSpec];
    std::array<ValueId, kKubeMetadataFields.size()> t_fields;
    pick(r, template_path.child("metadata"), t_meta, kKubeMetadataFields, t_fields.data(),
         {kube_metadata_field::kLabels});
    const ValueId t_labels = t_fields[kube_metadata_field::kLabels];
    template_labels = string_map(r, template_path.child("metadata").child("labels"), t_labels);
    pod_spec = t_spec;
    pod_path = template_spec_path;
    if (t_spec == kNoValue)
      r.error(template_spec_path, template_ != kNoValue ? template_ : v,
              "spec.template.spec is required (the pod to place)");
    if (replicas != kNoValue) {
      if (auto n = r.integer(spec_path.child("replicas"), replicas, 0)) {
        req.count = *n;
        if (*n == 0)
          r.warning(spec_path.child("replicas"), replicas,
                    "replicas is 0: nothing to place unless --count says how many");
      }
    }
  }
  req.app = app_of(options, template_labels, own_labels, req.name);
  if (auto s = parse_strategy("score")) req.strategy = *s;  // SPEC §12: score unless --strategy
  // Kubernetes never oversells CPU requests, so a manifest keeps CPU fit
  // (SPEC §8.2) under any strategy --strategy picks.
  req.cpu_fit = true;

  const PodRequest pod = pod_request(r, pod_path, pod_spec);
  req.cpu = pod.cpu;
  req.memory = pod.memory;
  req.storage = pod.storage;
  req.extended = pod.extended;
  for (const std::string& h : pod.hugepages)
    r.warning(pod_path, pod_spec, h + " is not modelled by eruplan; the request leaves it out");

  // The request is pod_request's, which has said so if the spec is no mapping.
  std::array<ValueId, kKubePodSpecFields.size()> f;
  f.fill(kNoValue);
  if (pod_spec != kNoValue && r.doc()[pod_spec].kind == ValueKind::Object)
    pick(r, pod_path, pod_spec, kKubePodSpecFields, f.data(),
         {kube_pod_spec_field::kNodeSelector, kube_pod_spec_field::kTolerations,
          kube_pod_spec_field::kAffinity, kube_pod_spec_field::kNodeName});
  const ValueId selector = f[kube_pod_spec_field::kNodeSelector],
                tolerations = f[kube_pod_spec_field::kTolerations],
                affinity = f[kube_pod_spec_field::kAffinity],
                node_name = f[kube_pod_spec_field::kNodeName];
  req.filter.labels = string_map(r, pod_path.child("nodeSelector"), selector);
  read_tolerations(r, pod_path.child("tolerations"), tolerations, req);
  (void)affinity;  // read by read_pod_scheduling
  if (node_name != kNoValue) {
    if (kind == "Pod") {
      if (auto n = r.string(pod_path.child("nodeName"), node_name)) {
        req.filter.nodes.emplace_back(*n);
        req.nodes_origins.push_back(r.origin(pod_path.child("nodeName"), node_name));
      }
    }
  }
  req.pod = manifest_pod(r, pod_path, pod_spec, req.name, meta[kube_metadata_field::kNamespace],
                         kind == "Pod" ? own_labels : template_labels, kind != "Pod");
  req.scoring.profile = ScoringProfile::Kubernetes;
  return req;
}

}  // namespace

std::optional<RequestSet> load_kubernetes_requests(const Source& source,
                                                   const RequestOverrides& overrides,
                                                   const KubernetesOptions& options,
                                                   bool count_required, Diagnostics& diags,
                                                   bool& matched) {
  matched = false;
  Diagnostics parse_diags;  // a file that does not parse is the eruplan reader's to report
  std::vector<ValueId> documents;
  auto doc = parse_document_stream(source, parse_diags, documents);
  if (!doc) return std::nullopt;
  std::string_view kind;
  const auto first = std::find_if(documents.begin(), documents.end(),
                                  [&](ValueId d) { return (*doc)[d].kind != ValueKind::Null; });
  if (first == documents.end() || !is_manifest(*doc, *first, &kind)) return std::nullopt;
  matched = true;

  const std::size_t errors_before = count_errors(diags);
  Reader r(*doc, source.name, diags);
  // The manifests in file order: a document, or an item of a List.
  struct Item {
    std::size_t document;  // in the stream
    std::int64_t index;    // in its List's items, -1 for a document
    ValueId value;
  };
  std::vector<Item> manifests;
  bool is_list = false;
  // In a stream of several documents, paths begin with the document's
  // place in it, counting every document from 0: documents[1].spec.replicas.
  const bool several = std::count_if(documents.begin(), documents.end(), [&](ValueId d) {
                         return (*doc)[d].kind != ValueKind::Null;
                       }) > 1;
  const FieldPath root, stream = root.child("documents");
  for (std::size_t di = 0; di < documents.size(); ++di) {
    const ValueId d = documents[di];
    if ((*doc)[d].kind == ValueKind::Null) continue;  // an empty document
    const FieldPath at = several ? stream.at(static_cast<std::int64_t>(di)) : root;
    std::string_view k;
    if (!is_manifest(*doc, d, &k)) {
      r.error(at, d, "expected a Kubernetes manifest (with kind and apiVersion)");
      continue;
    }
    if (k.ends_with("List")) {
      is_list = true;
      std::array<ValueId, kKubeListFields.size()> f;  // its kind is is_manifest's
      pick(r, at, d, kKubeListFields, f.data(), {kube_list_field::kItems});
      const ValueId items = f[kube_list_field::kItems];
      if (items == kNoValue || !r.is_array(at.child("items"), items)) continue;
      for (std::uint32_t i = 0; i < doc->size(items); ++i)
        manifests.push_back({di, i, doc->element(items, i)});
    } else {
      manifests.push_back({di, -1, d});
    }
  }
  RequestSet set;
  set.list = is_list || manifests.size() > 1;
  // With several manifests only --strategy applies (to each; SPEC §12 lets
  // it replace score); the other request flags are a usage error as for a
  // requests: list (§8.4).
  RequestOverrides per_request = overrides;
  if (set.list) {
    per_request = RequestOverrides{};
    per_request.strategy = overrides.strategy;
    RequestOverrides rest = overrides;
    rest.strategy.reset();
    set.overridden = !rest.empty();
  }
  if (manifests.empty() && count_errors(diags) == errors_before)
    r.error(FieldPath{}, doc->root(),
            "the file holds no Deployment, StatefulSet, ReplicaSet or Pod");
  std::vector<std::string> names;  // every manifest's name so far
  for (std::size_t i = 0; i < manifests.size(); ++i) {
    const ValueId value = manifests[i].value;
    const FieldPath in_stream =
        several ? stream.at(static_cast<std::int64_t>(manifests[i].document)) : root;
    const FieldPath items_path = in_stream.child("items"), item = items_path.at(manifests[i].index);
    const FieldPath& path = manifests[i].index >= 0 ? item : in_stream;
    std::string_view k;
    std::array<ValueId, kKubeManifestFields.size()> f;
    pick(r, path, value, kKubeManifestFields, f.data(), {kube_manifest_field::kKind});
    const ValueId kind_id = f[kube_manifest_field::kKind];
    if (kind_id == kNoValue || !is_workload_kind(k = text_of(*doc, kind_id))) {
      r.error(kind_id == kNoValue ? path : path.child("kind"),
              kind_id == kNoValue ? value : kind_id,
              "expected a Deployment, StatefulSet, ReplicaSet or Pod, got " +
                  (kind_id == kNoValue ? std::string("no kind") : r.describe(kind_id)));
      continue;
    }
    Request req = read_manifest(r, path, value, k, options);
    const std::string prefix = path.str().empty() ? "" : path.str() + ".";
    // The flags apply and §3's checks run even after errors: every problem at once.
    finish_request(req, per_request, count_required, source.name, prefix, diags);
    // Every problem at once: a name is checked even when the manifest has
    // other errors, against every earlier manifest's.
    if (!req.name.empty() && std::find(names.begin(), names.end(), req.name) != names.end())
      r.error(path.child("metadata").child("name"), value,
              "two manifests are named " + quoted(req.name) + "; give each a unique name");
    if (!req.name.empty()) names.push_back(req.name);
    // Every manifest comes back as read even with errors, as for a
    // requests: list: the checks against the inventory then report its
    // other problems too. The caller sees the errors in diags.
    set.requests.push_back(std::move(req));
    set.indexes.push_back(static_cast<std::uint32_t>(i));
  }
  if (count_errors(diags) > errors_before && set.requests.empty()) return std::nullopt;
  return set;
}

}  // namespace eruplan
