// --pods as `kubectl get pods -A -o json` (SPEC §12): every bound pod that
// is still running adds its request to its node's usage and one instance of
// its app.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "k8s_read.h"
#include "k8s_scheduling.h"
#include "priority_classes.h"

namespace eruplan {

namespace {

using namespace k8s;

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

// apply_pods, or with no inventory (-n had errors) the pods file read for
// its own problems alone: no node list to match the pods against, so
// nothing about nodes is said.
// Pods already read (namespace/name -> where), across --pods files.
struct SeenPod {
  const std::string* file;  // the Source's name, alive for the whole load
  std::uint32_t index;      // in its items
};
using SeenPods = std::unordered_map<std::string, SeenPod>;

bool read_pods(Inventory* nodes, const Source& pods, const KubernetesOptions& options,
               Diagnostics& diags, PodCensus* census, SeenPods* seen_pods = nullptr) {
  Inventory none;
  Inventory& inventory = nodes ? *nodes : none;
  const std::size_t errors_before = diags.error_count();
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
  std::vector<RunningPod> running;  // Inventory::pods, for preemption (SPEC §17)

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
    auto seen = [&] {
      PodCensus::Pod p;
      p.ns = ns != kNoValue ? std::string(text_of(*doc, ns)) : "default";
      p.name = std::string(text_of(*doc, name));
      if (labels != kNoValue && (*doc)[labels].kind == ValueKind::Object)
        for (std::uint32_t j = 0; j < doc->size(labels); ++j)
          p.labels.emplace_back(std::string(doc->text(doc->key(labels, j))),
                                std::string(text_of(*doc, doc->member(labels, j))));
      std::sort(p.labels.begin(), p.labels.end());
      return p;
    };
    if (text_of(*doc, phase) == "Succeeded") {
      if (census) census->succeeded.push_back(seen());
      continue;  // finished pods hold no resources
    }
    if (text_of(*doc, phase) == "Failed") continue;
    if (seen_pods && name != kNoValue) {
      std::string key = (ns != kNoValue ? std::string(text_of(*doc, ns)) : "default") + "/" +
                        std::string(text_of(*doc, name));
      auto [it, fresh] = seen_pods->try_emplace(std::move(key), SeenPod{&pods.name, i});
      if (!fresh) {
        r.warning(meta_path.child("name"), name,
                  "pod " + it->first + " appears twice: first in " + *it->second.file +
                      " at items[" + std::to_string(it->second.index) + "], again here (" +
                      pods.name + " items[" + std::to_string(i) + "]); counted once");
        continue;
      }
    }
    // Where it runs; what it requests is pod_request's to pick.
    std::array<ValueId, kKubePodSpecFields.size()> placed;
    pick(r, spec_path, spec, kKubePodSpecFields, placed.data(),
         {kube_pod_spec_field::kNodeName, kube_pod_spec_field::kPriority,
          kube_pod_spec_field::kPriorityClassName});
    const ValueId node_name = placed[kube_pod_spec_field::kNodeName],
                  priority = placed[kube_pod_spec_field::kPriority],
                  class_name = placed[kube_pod_spec_field::kPriorityClassName];
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
      if (census) census->elsewhere.push_back(seen());
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
    if (!options.pods_as_workloads) {
      RunningPod pod;
      pod.node = static_cast<std::uint32_t>(found->second);
      pod.ns = ns != kNoValue ? std::string(text_of(*doc, ns)) : "default";
      pod.name = std::string(text_of(*doc, name));
      if (labels != kNoValue) {
        NamedList<std::string> l = string_map(r, meta_path.child("labels"), labels);
        pod.labels.assign(std::make_move_iterator(l.begin()), std::make_move_iterator(l.end()));
      }
      if (priority != kNoValue) {
        if (auto p = r.integer(spec_path.child("priority"), priority, INT32_MIN, INT32_MAX))
          pod.priority = static_cast<std::int32_t>(*p);
      } else {
        // Admission writes spec.priority; a pod without it (written by
        // hand) takes its class's, or the globalDefault class's.
        pod.priority = resolve_priority_class(r, spec_path.child("priorityClassName"), class_name,
                                              options.priority_classes.get())
                           .value;
      }
      pod.cpu = req.cpu;
      pod.memory = req.memory;
      pod.nonzero_cpu = req.nonzero_cpu;
      pod.nonzero_memory = req.nonzero_memory;
      pod.start_time = std::string(text_of(*doc, status[kube_pod_status_field::kStartTime]));
      pod.app = app;
      // Affinity, spread and ports, kept only when the pod has any.
      auto scheduling = std::make_shared<PodScheduling>();
      scheduling->ns = pod.ns;
      scheduling->name = pod.name;
      scheduling->labels = pod.labels;
      if (read_pod_scheduling(r, spec_path, spec, *scheduling))
        pod.scheduling = std::move(scheduling);
      running.push_back(std::move(pod));
    }
    if (options.pods_as_workloads) {
      Workload w;
      w.id = pod_name(*doc, ns, name);
      w.app = app;
      w.cpu = w.cpu_limit = req.cpu;
      w.memory = w.memory_limit = req.memory;
      w.cpu_fit = true;
      node.workloads.push_back(std::move(w));
    }
    ++apps[found->second][std::move(app)];
  }
  for (const auto& [node, u] : unknown)
    r.warning(items_path.at(u.index).child("spec").child("nodeName"), u.first,
              std::to_string(u.pods) + (u.pods == 1 ? " pod" : " pods") + " on node " +
                  quoted(node) + ", which is not in the node list, ignored (first: " + u.first_pod +
                  ")");

  if (!running.empty()) {
    std::vector<RunningPod>& all = inventory.pods.get();
    if (all.empty())
      all = std::move(running);
    else
      all.insert(all.end(), std::make_move_iterator(running.begin()),
                 std::make_move_iterator(running.end()));
  }
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
  return diags.error_count() == errors_before;
}

}  // namespace

bool apply_pods(Inventory& inventory, const Source& pods, const KubernetesOptions& options,
                Diagnostics& diags, PodCensus* census) {
  return read_pods(&inventory, pods, options, diags, census);
}

void load_pods(std::optional<Inventory>& inventory, const std::optional<Source>& pods,
               const KubernetesOptions& options, Diagnostics& diags, PodCensus* census,
               std::span<const Source> more) {
  if (!pods) return;
  SeenPods seen;
  bool ok = read_pods(inventory ? &*inventory : nullptr, *pods, options, diags, census, &seen);
  for (const Source& s : more)
    ok = read_pods(inventory ? &*inventory : nullptr, s, options, diags, census, &seen) && ok;
  if (!ok) inventory.reset();
}

}  // namespace eruplan
