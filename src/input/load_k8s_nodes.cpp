// -n as `kubectl get nodes -o json` (SPEC §12): Nodes into an inventory,
// read by the allow-list of kubernetes_fields.h.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "k8s_read.h"

namespace eruplan::k8s {

// kubectl get nodes -o json (a List or NodeList), or one Node (kubectl get
// node NAME -o json): an inventory of one node.
bool is_kubernetes_nodes(const Doc& doc) {
  const std::string_view kind = root_kind(doc);
  if (kind == "List" || kind == "NodeList" || kind == "Node") return true;
  // A list without kind (client libraries and support bundles write
  // {"apiVersion": "v1", "items": [...]}): items, and no inventory's nodes.
  if (!kind.empty() || doc[doc.root()].kind != ValueKind::Object) return false;
  bool items = false;
  for (std::uint32_t i = 0; i < doc.size(doc.root()); ++i) {
    const std::string_view key = doc.text(doc.key(doc.root(), i));
    if (key == "nodes" || key == kKindField) return false;
    items = items || key == "items";
  }
  return items;
}

namespace {

void read_taints(Reader& r, const FieldPath& path, ValueId v, Node& node) {
  each_picked<kKubeTaintFields>(
      r, path, v, [&](const FieldPath& at, ValueId item, const Picked<kKubeTaintFields>& f) {
        node.taints.push_back(read_taint(r, at, item, f["key"], f["value"], f["effect"]));
      });
}

// status.images: each name of each image with the image's sizeBytes, sorted
// by name (a name listed twice keeps its last size, as kube-scheduler's
// snapshot of the node does).
void read_images(Reader& r, const FieldPath& path, ValueId v, Node& node) {
  if (v == kNoValue || !r.is_array(path, v)) return;
  const Doc& doc = r.doc();
  std::vector<std::pair<std::string, Bytes>> images;
  for (std::uint32_t i = 0; i < doc.size(v); ++i) {
    const FieldPath at = path.at(i);
    Picked<kKubeNodeImageFields> f;
    if (!pick(r, at, doc.element(v, i), f)) continue;
    Bytes size = 0;
    if (f["sizeBytes"] != kNoValue)
      if (auto n = r.integer(at.child("sizeBytes"), f["sizeBytes"], 0, INT64_MAX)) size = *n;
    const ValueId names = f["names"];
    if (names == kNoValue || !r.is_array(at.child("names"), names)) continue;
    for (std::uint32_t j = 0; j < doc.size(names); ++j)
      if (auto s = r.string(at.child("names").at(j), doc.element(names, j)))
        images.emplace_back(*s, size);
  }
  std::stable_sort(images.begin(), images.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t kept = 0;  // the last of each run of one name
  for (std::size_t i = 0; i < images.size(); ++i)
    if (i + 1 == images.size() || images[i + 1].first != images[i].first) {
      if (kept != i) images[kept] = std::move(images[i]);  // never onto itself
      ++kept;
    }
  images.resize(kept);
  node.images = std::move(images);
}

// status.allocatable: cpu, memory, ephemeral-storage (storage), pods
// (max_instances), hugepages-* (not modelled: a pod's hugepages are not
// planned), and every other name an extended resource.
// A node without cpu, memory or pods there has 0 of it (as Kubernetes reads
// a missing allocatable); `missing` names them.
void read_allocatable(Reader& r, const FieldPath& path, ValueId v, Pieces share_base, Node& node,
                      std::vector<std::string>& missing) {
  node.cpu_given = 0;
  node.max_instances = 0;
  bool cpu = false, memory = false, pods = false;
  auto note_missing = [&] {
    if (!cpu) missing.emplace_back("cpu");
    if (!memory) missing.emplace_back("memory");
    if (!pods) missing.emplace_back("pods");
  };
  if (v == kNoValue) {
    note_missing();
    return;
  }
  for (const Reader::Entry& e : r.members(path, v)) {
    const FieldPath here = path.child(e.key);
    if (r.doc()[e.value].kind == ValueKind::Null || e.key.starts_with("hugepages-")) continue;
    switch (resource_row(e.key)) {
      case field_index(kKubeResourceFields, "cpu"):
        cpu = true;
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
      case field_index(kKubeResourceFields, "memory"):
        memory = true;
        if (auto m = quantity(r, here, e.value, 0)) node.memory = *m;
        break;
      case field_index(kKubeResourceFields, "ephemeral-storage"):
        if (auto s = quantity(r, here, e.value, 0)) node.storage = *s;
        break;
      case field_index(kKubeResourceFields, "pods"):
        pods = true;
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
  note_missing();
}

// One Node object at `at` (an item of the list, or the file's root) into
// the inventory; its problems into diags.
void read_node(Reader& r, const FieldPath& at, ValueId item,
               std::unordered_map<std::string_view, std::string>& seen, Inventory& inventory) {
  const Doc& doc = r.doc();
  Node node;
  node.kubernetes = true;
  Picked<kKubeNodeFields> object;  // its kind is the list's to check
  pick(r, at, item, object, {"metadata", "spec", "status"});
  check_node_fields(r, at, item);
  const ValueId metadata = object["metadata"];
  const FieldPath meta_path = at.child("metadata"), spec_path = at.child("spec"),
                  status_path = at.child("status");
  Picked<kKubeMetadataFields> meta;
  Picked<kKubeNodeSpecFields> spec;
  Picked<kKubeNodeStatusFields> status;
  pick(r, meta_path, metadata, meta, {"name", "labels"});
  pick(r, spec_path, object["spec"], spec);
  pick(r, status_path, object["status"], status);
  const ValueId name = meta["name"], labels = meta["labels"], unschedulable = spec["unschedulable"],
                taints = spec["taints"], allocatable = status["allocatable"],
                images = status["images"];
  if (name == kNoValue) {
    r.error(meta_path.child("name"), metadata != kNoValue ? metadata : item,
            "metadata.name is required");
  } else if (auto s = r.string(meta_path.child("name"), name)) {
    node.name = *s;
    auto [it, fresh] = seen.emplace(doc.text(name), at.str());
    if (!fresh)  // only in a list or a stream: one Node has one name
      r.error(meta_path.child("name"), name,
              "duplicate node name " + quoted(*s) + ": " + it->second + " and " + at.str() +
                  " are both named so");
  }
  node.labels = string_map(r, meta_path.child("labels"), labels);
  if (unschedulable != kNoValue) {
    if (auto u = r.boolean(spec_path.child("unschedulable"), unschedulable)) node.available = !*u;
  }
  read_taints(r, spec_path.child("taints"), taints, node);
  read_images(r, status_path.child("images"), images, node);
  std::vector<std::string> missing;
  read_allocatable(r, status_path.child("allocatable"), allocatable, inventory.share_base, node,
                   missing);
  if (!missing.empty() && !node.name.empty()) {
    std::string what;
    for (const std::string& m : missing) what += (what.empty() ? "" : ", ") + m;
    r.warning(status_path.child("allocatable"), allocatable != kNoValue ? allocatable : item,
              "node " + quoted(node.name) + " has no allocatable " + what +
                  (allocatable == kNoValue ? " (no status.allocatable)" : "") +
                  ": it takes no pod (0 of " + (missing.size() == 1 ? "it" : "each") + ")");
  }
  inventory.nodes.push_back(std::move(node));
}

}  // namespace

namespace {

std::string_view kind_of(const Doc& doc, ValueId v) {
  return doc[v].kind == ValueKind::Object ? text_of(doc, doc.find(v, kKindField))
                                          : std::string_view();
}

// The nodes of one document at `root` (`value`): a Node, a NodeList or a
// List of Nodes, into `inventory`.
void read_nodes_document(Reader& r, const FieldPath& root, ValueId value, bool forced,
                         std::unordered_map<std::string_view, std::string>& seen,
                         Inventory& inventory) {
  const Doc& doc = r.doc();
  const std::string_view value_kind = kind_of(doc, value);
  const FieldPath items_path = root.child("items");
  // Without kind, one object with metadata and status.allocatable is a Node
  // when --nodes-format kubernetes says the file is Kubernetes'.
  bool bare_node = false;
  if (forced && value_kind.empty()) {
    Picked<kKubeListFields> l;
    pick(r, root, value, l, {"items"});
    Picked<kKubeNodeFields> f;
    pick(r, root, value, f, {"metadata", "status"});
    Picked<kKubeNodeStatusFields> st;
    if (l["items"] == kNoValue && f["metadata"] != kNoValue && f["status"] != kNoValue &&
        doc[f["status"]].kind == ValueKind::Object) {
      pick(r, root.child("status"), f["status"], st);
      bare_node = st["allocatable"] != kNoValue;
    }
  }
  if (value_kind == "Node" || bare_node) {
    // One Node (kubectl get node NAME -o json): a node, its field paths from
    // the document's root.
    read_node(r, root, value, seen, inventory);
    return;
  }
  const ValueId items = list_items(r, value, "nodes");
  if (items == kNoValue) return;
  const std::uint32_t n = doc.size(items);
  inventory.nodes.reserve(inventory.nodes.size() + n);
  std::size_t wrong_kind = 0;
  // A NodeList's items are Nodes; an item without kind of a plain List (or
  // of a list without kind) is one only when --nodes-format kubernetes says
  // so (SPEC §15).
  const bool untyped = (value_kind == "List" || value_kind.empty()) && !forced;
  for (std::uint32_t i = 0; i < n; ++i) {
    const FieldPath at = items_path.at(i);
    const ValueId item = doc.element(items, i);
    Picked<kKubeNodeFields> f;
    if (!pick(r, at, item, f, {"kind", "metadata"})) continue;
    const ValueId kind = f["kind"];
    if (kind == kNoValue && untyped) {
      Picked<kKubeMetadataFields> meta;
      pick(r, at.child("metadata"), f["metadata"], meta, {"name"});
      const std::string_view name = text_of(doc, meta["name"]);
      r.error(at, item,
              (name.empty() ? std::string("the item") : "item " + quoted(name)) +
                  " has no kind; a List's items each need one (a NodeList's are Nodes; "
                  "--nodes-format kubernetes reads kind-less items as Nodes)");
      continue;
    }
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
}

}  // namespace

std::optional<Inventory> load_kubernetes_nodes(const Doc& doc, const std::string& file,
                                               Diagnostics& diags, bool forced) {
  const std::size_t errors_before = diags.error_count();
  Reader r(doc, file, diags);
  if (doc[doc.root()].kind != ValueKind::Object) {
    r.is_object(FieldPath{}, doc.root());
    return std::nullopt;
  }
  Inventory inventory;  // share_base 100, as an eruplan inventory without one
  std::unordered_map<std::string_view, std::string> seen;  // node name -> first place
  read_nodes_document(r, FieldPath{}, doc.root(), forced, seen, inventory);
  if (diags.error_count() > errors_before) return std::nullopt;
  return inventory;
}

bool is_kubernetes_node_stream(const Doc& doc, std::span<const ValueId> documents) {
  std::size_t objects = 0;
  for (const ValueId d : documents) {
    if (doc[d].kind == ValueKind::Null) continue;
    const std::string_view kind = kind_of(doc, d);
    if (kind != "Node" && kind != "NodeList" && kind != "List") return false;
    ++objects;
  }
  return objects > 1;
}

std::optional<Inventory> load_kubernetes_node_stream(const Doc& doc,
                                                     std::span<const ValueId> documents,
                                                     const std::string& file, Diagnostics& diags,
                                                     bool forced) {
  const std::size_t errors_before = diags.error_count();
  Reader r(doc, file, diags);
  Inventory inventory;
  std::unordered_map<std::string_view, std::string> seen;  // node name -> first place
  const FieldPath root, stream = root.child("documents");
  for (std::size_t i = 0; i < documents.size(); ++i) {
    if (doc[documents[i]].kind == ValueKind::Null) continue;  // an empty document
    read_nodes_document(r, stream.at(static_cast<std::int64_t>(i)), documents[i], forced, seen,
                        inventory);
  }
  if (diags.error_count() > errors_before) return std::nullopt;
  return inventory;
}

}  // namespace eruplan::k8s
