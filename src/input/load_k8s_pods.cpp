// --pods as `kubectl get pods -A -o json` (SPEC §12): every bound pod that
// is still running adds its request to its node's usage and one instance of
// its app. A JSON pod list is read a piece at a time (PodStream below).
#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "json_reader.h"
#include "json_scan.h"
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
        if (same_text(key, options.app_label)) return std::string(value);
      } else if (same_text(key, "app.kubernetes.io/name")) {
        by_name = value;
      } else if (same_text(key, "app")) {
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

// Pods already read (namespace/name -> where), across --pods files.
struct SeenPod {
  const std::string* file;  // the Source's name, alive for the whole load
  std::uint32_t index;      // in its items
};

// Pods already read (namespace/name -> where), across --pods files: one
// flat table probed linearly and the keys side by side in one string, so
// that 150,000 pods cost a few large allocations rather than two small ones
// each (a std::unordered_map<std::string, ...>: its allocations and, at the
// end, its frees were a tenth of reading a large pod list).
class SeenPods {
 public:
  // The pod first seen under `key` and that key; when there is none, records
  // `pod` under it and returns nullptr.
  const std::pair<std::string_view, SeenPod>* add(std::string_view key, SeenPod pod) {
    const std::size_t hash = std::hash<std::string_view>{}(key);
    std::size_t at = hash & mask_;
    for (; !slots_.empty() && slots_[at] != 0; at = (at + 1) & mask_) {
      const Entry& e = entries_[slots_[at] - 1];
      if (e.hash == hash && this->key(e) == key) {
        found_ = {this->key(e), e.pod};
        return &found_;
      }
    }
    entries_.push_back({hash, keys_.size(), key.size(), pod});
    keys_ += key;
    if (2 * entries_.size() > slots_.size())
      rehash();
    else
      slots_[at] = static_cast<std::uint32_t>(entries_.size());
    return nullptr;
  }

  // Forgets the pods of `file`.
  void erase_file(const std::string* file) {
    std::erase_if(entries_, [file](const Entry& e) { return e.pod.file == file; });
    rehash();
  }

 private:
  struct Entry {
    std::size_t hash;
    std::size_t start, length;  // of the key in keys_
    SeenPod pod;
  };
  std::string_view key(const Entry& e) const {
    return std::string_view(keys_).substr(e.start, e.length);
  }
  void rehash() {
    std::size_t capacity = 1024;
    while (capacity < 2 * entries_.size()) capacity *= 2;
    slots_.assign(capacity, 0);
    mask_ = capacity - 1;
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      std::size_t at = entries_[i].hash & mask_;
      while (slots_[at] != 0) at = (at + 1) & mask_;
      slots_[at] = static_cast<std::uint32_t>(i + 1);
    }
  }

  std::vector<std::uint32_t> slots_;  // 1 + index into entries_, or 0
  std::size_t mask_ = 0;
  std::vector<Entry> entries_;
  std::string keys_;
  std::pair<std::string_view, SeenPod> found_;
};

// Node name -> index into the inventory's nodes, looked up once per pod:
// one flat table probed linearly (the name's hash and index per slot) and
// the names side by side in one string. A std::unordered_map over views of
// each Node's name went through three scattered pointers per lookup and
// showed at 6% of reading 150,000 pods. The first of equal names wins.
class NodeIndex {
 public:
  explicit NodeIndex(const std::vector<Node>& nodes) {
    std::size_t capacity = 16;
    while (capacity < 2 * nodes.size()) capacity *= 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    starts_.reserve(nodes.size() + 1);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::string& name = nodes[i].name;
      starts_.push_back(names_.size());
      names_ += name;
      const std::size_t hash = std::hash<std::string_view>{}(name);
      std::size_t at = hash & mask_;
      for (; slots_[at].index != kEmpty; at = (at + 1) & mask_)
        if (slots_[at].hash == static_cast<std::uint32_t>(hash) &&
            this->name(slots_[at].index) == name)
          break;
      if (slots_[at].index == kEmpty)
        slots_[at] = {static_cast<std::uint32_t>(hash), static_cast<std::uint32_t>(i)};
    }
    starts_.push_back(names_.size());
  }

  // The index of the node named `name`, or nullopt.
  std::optional<std::size_t> find(std::string_view name) const {
    const std::size_t hash = std::hash<std::string_view>{}(name);
    for (std::size_t at = hash & mask_; slots_[at].index != kEmpty; at = (at + 1) & mask_)
      if (slots_[at].hash == static_cast<std::uint32_t>(hash) &&
          this->name(slots_[at].index) == name)
        return slots_[at].index;
    return std::nullopt;
  }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  struct Slot {
    std::uint32_t hash = 0;  // the low half of the name's
    std::uint32_t index = kEmpty;
  };
  std::string_view name(std::uint32_t i) const {
    return std::string_view(names_).substr(starts_[i], starts_[i + 1] - starts_[i]);
  }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::string names_;
  std::vector<std::size_t> starts_;  // of each node's name in names_, then the end
};

// One parsed item on its way to the thread that reads the pods (PodQueue).
struct PodSlot {
  Doc doc{std::string_view()};
  std::string text;  // the item's, which doc views
  std::uint32_t index = 0;
  std::unique_ptr<Reader> reader;  // over `doc`
};

// The memory a pod list is read through, kept from one --pods file to the
// next: the window onto the file, the parsing thread's Doc, the queue's
// slots. Each file starting over with empty ones (the slots' trees and
// texts grown again a push_back at a time, a fresh 1 MiB window) showed as
// memmove, malloc and cache misses when reading 40 per-namespace files.
struct PodBuffers {
  std::unique_ptr<char[]> window = std::make_unique<char[]>(1);
  std::size_t window_capacity = 1;
  Doc doc{std::string_view()};
  std::vector<PodSlot> slots;
};

// What the --pods files of one load share: the node index, the pods seen
// (for duplicates, when tracked), and what is added to the inventory once
// at the end: the running pods, and each pod's node and app counted into
// Node::instances. Merged after each file instead (sorted, then a
// lower_bound into the list of every node the file touched), the instances
// were 3.7% of reading 40 per-namespace files, against well under 1% for one
// file of the same pods. A file given up on drops its own entries
// (PodListRead::abandon).
class PodLoad {
 public:
  PodLoad(const Inventory* nodes, bool track_seen)
      : node_index(nodes ? nodes->nodes : kNoNodes), track_seen_(track_seen) {}

  SeenPods* seen() { return track_seen_ ? &seen_ : nullptr; }

  // The app's id in app_names.
  std::uint32_t app_id(std::string app) {
    const auto [id, fresh] =
        app_ids_.try_emplace(std::move(app), static_cast<std::uint32_t>(app_names_.size()));
    if (fresh) app_names_.push_back(&id->first);
    return id->second;
  }

  // Hands the running pods and the instances to `inventory`.
  void finish(Inventory& inventory) {
    if (!running.empty()) {
      std::vector<RunningPod>& all = inventory.pods.get();
      if (all.empty())
        all = std::move(running);
      else
        all.insert(all.end(), std::make_move_iterator(running.begin()),
                   std::make_move_iterator(running.end()));
      running.clear();
    }
    std::sort(placed.begin(), placed.end());
    for (std::size_t run = 0, next = 0; run < placed.size(); run = next) {
      while (next < placed.size() && placed[next] == placed[run]) ++next;
      Node& node = inventory.nodes[placed[run] >> 32];
      const std::string& app = *app_names_[placed[run] & UINT32_MAX];
      const auto count = static_cast<std::int64_t>(next - run);
      auto it = std::lower_bound(node.instances.begin(), node.instances.end(), app,
                                 [](const auto& e, const std::string& k) { return e.first < k; });
      if (it != node.instances.end() && it->first == app)
        it->second = saturating_add(it->second, count);
      else
        node.instances.insert(it, {app, count});
    }
    placed.clear();
  }

  const NodeIndex node_index;
  PodBuffers buffers;
  std::vector<RunningPod> running;  // Inventory::pods (SPEC §17), in file and item order
  // Each pod's node and app (node << 32 | app id), counted into
  // Node::instances at the end: a few hundred apps over thousands of nodes
  // made a map per node cost a tenth of reading 150,000 pods.
  std::vector<std::uint64_t> placed;

 private:
  static inline const std::vector<Node> kNoNodes;
  bool track_seen_;
  SeenPods seen_;
  std::unordered_map<std::string, std::uint32_t> app_ids_;
  std::vector<const std::string*> app_names_;  // by id, in app_ids_
};

// The pods of one --pods file, one item at a time: the items of the whole
// document (YAML, or JSON that the streamed reading gave up on), or items
// parsed one by one from a JSON pod list read a piece at a time
// (PodStream), each item in a Doc of its own whose positions are the
// file's. Everything it says goes to its own Diagnostics, handed over by
// finish(), and everything it changes abandon() undoes: the streamed
// reading may give up anywhere (malformed JSON, an odd root) and the
// whole-document reading then starts as if it had never run.
// With no inventory (-n had errors) the file is read for its own problems
// alone: no node list to match the pods against, so nothing about nodes
// is said.
class PodListRead {
 public:
  // `file`: the name pods seen are recorded under (alive for the whole load).
  PodListRead(Inventory* nodes, const Source& pods, const std::string* file,
              const KubernetesOptions& options, bool strict, PodCensus* census, PodLoad& load)
      : inventory_(nodes ? *nodes : none_),
        nodes_(nodes),
        pods_(pods),
        file_(file),
        options_(options),
        census_(census),
        seen_pods_(load.seen()),
        load_(load),
        node_index_(load.node_index),
        running_mark_(load.running.size()),
        placed_mark_(load.placed.size()) {
    diags_.set_strict(strict);
    if (census_) census_sizes_ = {census_->succeeded.size(), census_->elsewhere.size()};
    before_.reserve(inventory_.nodes.size());
    for (const Node& n : inventory_.nodes) {
      Usage u{n.cpu_used, n.memory_used, n.storage_used, n.workloads.size(), {}};
      for (const ExtendedResource& e : n.extended) u.extended.push_back(e.used);
      before_.push_back(std::move(u));
    }
  }

  Diagnostics& diags() { return diags_; }

  // items[i], read with `r` (over `doc`, reporting into diags()).
  void item(Reader& r, const Doc& doc, ValueId item, std::uint32_t i);

  // Undoes every change to the inventory, the census and the pods seen.
  void abandon() {
    for (std::size_t i = 0; i < inventory_.nodes.size(); ++i) {
      Node& n = inventory_.nodes[i];
      const Usage& u = before_[i];
      n.cpu_used = u.cpu;
      n.memory_used = u.memory;
      n.storage_used = u.storage;
      n.workloads.resize(u.workloads);
      for (std::size_t j = 0; j < n.extended.size(); ++j) n.extended[j].used = u.extended[j];
    }
    if (census_) {
      census_->succeeded.resize(census_sizes_.first);
      census_->elsewhere.resize(census_sizes_.second);
    }
    if (seen_pods_) seen_pods_->erase_file(file_);
    load_.running.erase(load_.running.begin() + static_cast<std::ptrdiff_t>(running_mark_),
                        load_.running.end());
    load_.placed.resize(placed_mark_);
  }

  // Hands the diagnostics to `diags` and completes the inventory: the
  // summary of pods on unknown nodes (`quiet`: not that, as the reader had
  // exhausted its budget), the running pods, the instances, usage clamped.
  void finish(Diagnostics& diags, bool quiet);

 private:
  struct Unknown {
    std::uint32_t index;  // of the first such pod
    std::uint32_t line, col;
    std::string first_pod;
    std::int64_t pods = 0;
  };
  struct Usage {
    std::int64_t cpu, memory, storage;
    std::size_t workloads;
    std::vector<std::int64_t> extended;
  };

  Inventory none_;
  Inventory& inventory_;
  Inventory* nodes_;
  const Source& pods_;
  const std::string* file_;
  const KubernetesOptions& options_;
  PodCensus* census_;
  SeenPods* seen_pods_;
  Diagnostics diags_;
  PodLoad& load_;
  const NodeIndex& node_index_;
  std::size_t running_mark_, placed_mark_;  // where this file's entries start in load_'s
  std::vector<std::pair<std::string, Unknown>> unknown_;  // in order first seen
  std::size_t wrong_kind_ = 0;
  std::size_t not_pods_ = 0;                          // items whose kind is not Pod
  std::optional<std::size_t> wrong_kind_diag_;        // in diags_
  std::pair<std::size_t, std::size_t> census_sizes_;  // succeeded, elsewhere
  std::vector<Usage> before_;
  std::string key_;  // namespace/name of the pod being read
};

void PodListRead::item(Reader& r, const Doc& doc, ValueId item, std::uint32_t i) {
  // As wrong_kind_note counts them, over every item.
  if (doc[item].kind == ValueKind::Object)
    for (std::uint32_t j = 0; j < doc.size(item); ++j)
      if (same_text(doc.text(doc.key(item, j)), kKindField) &&
          !same_text(text_of(doc, doc.member(item, j)), "Pod"))
        ++not_pods_;
  const FieldPath root, items_path = root.child("items"), at = items_path.at(i);
  Picked<kKubePodFields> object;
  if (!pick(r, at, item, object)) return;
  const ValueId kind = object["kind"], spec = object["spec"];
  if (kind != kNoValue && !same_text(text_of(doc, kind), "Pod")) {
    if (wrong_kind_++ == 0) {
      const std::size_t before = diags_.items().size();
      // The count of the others is known at the end (finish).
      r.error(
          at.child("kind"), kind,
          "expected a Pod (a pod list, as kubectl get pods -A -o json), got " + r.describe(kind));
      if (diags_.items().size() > before) wrong_kind_diag_ = before;
    }
    return;
  }
  const FieldPath meta_path = at.child("metadata"), spec_path = at.child("spec");
  Picked<kKubeMetadataFields> meta;
  Picked<kKubePodStatusFields> status;
  pick(r, meta_path, object["metadata"], meta);
  pick(r, at.child("status"), object["status"], status);
  const ValueId name = meta["name"], ns = meta["namespace"], labels = meta["labels"],
                phase = status["phase"];
  auto seen = [&] {
    PodCensus::Pod p;
    p.ns = ns != kNoValue ? std::string(text_of(doc, ns)) : "default";
    p.name = std::string(text_of(doc, name));
    if (labels != kNoValue && doc[labels].kind == ValueKind::Object)
      for (std::uint32_t j = 0; j < doc.size(labels); ++j)
        p.labels.emplace_back(std::string(doc.text(doc.key(labels, j))),
                              std::string(text_of(doc, doc.member(labels, j))));
    std::sort(p.labels.begin(), p.labels.end());
    return p;
  };
  // A pod twice counts once, whatever its phase: a Succeeded pod twice
  // would count twice toward its Job's completions.
  if (seen_pods_ && name != kNoValue) {
    key_.assign(ns != kNoValue ? text_of(doc, ns) : std::string_view("default"));
    key_ += '/';
    key_ += text_of(doc, name);
    if (const auto* first = seen_pods_->add(key_, SeenPod{file_, i})) {
      r.warning(meta_path.child("name"), name,
                "pod " + std::string(first->first) + " appears twice: first in " +
                    *first->second.file + " at items[" + std::to_string(first->second.index) +
                    "], again here (" + pods_.name + " items[" + std::to_string(i) +
                    "]); counted once");
      return;
    }
  }
  if (same_text(text_of(doc, phase), "Succeeded")) {
    if (census_) census_->succeeded.push_back(seen());
    return;  // finished pods hold no resources
  }
  if (same_text(text_of(doc, phase), "Failed")) return;
  // Where it runs; what it requests is pod_request's to pick.
  Picked<kKubePodSpecFields> placed;
  pick(r, spec_path, spec, placed, {"nodeName", "priority", "priorityClassName"});
  const ValueId node_name = placed["nodeName"], priority = placed["priority"],
                class_name = placed["priorityClassName"];
  if (node_name == kNoValue || text_of(doc, node_name).empty()) return;  // not bound yet
  const PodRequest req = pod_request(r, spec_path, spec);
  if (!nodes_) return;
  const std::optional<std::size_t> found = node_index_.find(doc.text(node_name));
  if (!found) {
    const std::string_view key = doc.text(node_name);
    auto u = std::find_if(unknown_.begin(), unknown_.end(),
                          [&](const auto& e) { return e.first == key; });
    if (u == unknown_.end()) {
      const auto [line, col] = doc.line_col(doc[node_name].pos);
      unknown_.push_back({std::string(key), Unknown{i, line, col, pod_name(doc, ns, name), 0}});
      u = unknown_.end() - 1;
    }
    ++u->second.pods;
    if (census_) census_->elsewhere.push_back(seen());
    return;
  }
  Node& node = inventory_.nodes[*found];
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
  std::string app = pod_app(doc, labels, options_, text_of(doc, name));
  if (!options_.pods_as_workloads) {
    RunningPod pod;
    pod.node = static_cast<std::uint32_t>(*found);
    pod.ns = ns != kNoValue ? std::string(text_of(doc, ns)) : "default";
    pod.name = std::string(text_of(doc, name));
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
                                            options_.priority_classes.get())
                         .value;
    }
    pod.cpu = req.cpu;
    pod.memory = req.memory;
    pod.storage = req.storage;
    for (const auto& entry : req.extended) {
      const std::string& res = entry.first;
      if (std::any_of(node.extended.begin(), node.extended.end(),
                      [&res](const ExtendedResource& e) { return e.name == res; }))
        pod.extended.emplace_back(res, entry.second);
    }
    pod.nonzero_cpu = req.nonzero_cpu;
    pod.nonzero_memory = req.nonzero_memory;
    pod.start_time = std::string(text_of(doc, status["startTime"]));
    pod.app = app;
    // Affinity, spread and ports, kept only when the pod has any (most
    // have none: the pod's labels are lent to the reading, and copied with
    // its names only for a pod that keeps them).
    PodScheduling scheduling;
    scheduling.labels = std::move(pod.labels);
    const bool any = read_pod_scheduling(r, spec_path, spec, scheduling);
    pod.labels = std::move(scheduling.labels);
    if (any) {
      scheduling.ns = pod.ns;
      scheduling.name = pod.name;
      scheduling.labels = pod.labels;
      pod.scheduling = std::make_shared<PodScheduling>(std::move(scheduling));
    }
    load_.running.push_back(std::move(pod));
  }
  if (options_.pods_as_workloads) {
    Workload w;
    w.id = pod_name(doc, ns, name);
    w.app = app;
    w.cpu = w.cpu_limit = req.cpu;
    w.memory = w.memory_limit = req.memory;
    w.cpu_fit = true;
    node.workloads.push_back(std::move(w));
  }
  load_.placed.push_back(static_cast<std::uint64_t>(*found) << 32 | load_.app_id(std::move(app)));
}

void PodListRead::finish(Diagnostics& diags, bool quiet) {
  if (wrong_kind_diag_ && not_pods_ > 1)
    diags_.extend_message(*wrong_kind_diag_, " (and " + std::to_string(not_pods_ - 1) +
                                                 " more items that are not Pods)");
  const FieldPath root, items_path = root.child("items");
  if (!quiet)
    for (const auto& [node, u] : unknown_)
      diags_.warning(Origin{pods_.name, u.line, u.col,
                            items_path.at(u.index).child("spec").child("nodeName").str()},
                     std::to_string(u.pods) + (u.pods == 1 ? " pod" : " pods") + " on node " +
                         quoted(node) +
                         ", which is not in the node list, ignored (first: " + u.first_pod + ")");
  diags.append(diags_);

  // Keep usage within what the node has: pods that ask for more than the
  // allocatable (static pods, a shrunk node) leave it full, with a warning.
  // usage.cpu may exceed the CPU (SPEC §8.1). The running pods and the
  // instances are handed over once, at the end of the load (PodLoad).
  for (std::size_t i = 0; i < inventory_.nodes.size(); ++i) {
    Node& node = inventory_.nodes[i];
    auto clamp = [&](std::int64_t& used, std::int64_t total, const std::string& what) {
      if (used <= total) return;
      diags.warning(Origin{pods_.name, 0, 0, "items"},
                    "pods on " + node.name + " request " + std::to_string(used) + " " + what +
                        ", more than its allocatable " + std::to_string(total) +
                        "; counted as full");
      used = total;
    };
    clamp(node.memory_used, node.memory, "bytes of memory");
    clamp(node.storage_used, node.storage, "bytes of ephemeral-storage");
    for (ExtendedResource& e : node.extended) clamp(e.used, e.total, e.name);
  }
}

// The whole document at once.
// `file`: the name pods seen are recorded under (alive for the whole load).
bool read_pods_whole(Inventory* nodes, const Source& pods, const std::string* file,
                     const KubernetesOptions& options, Diagnostics& diags, PodCensus* census,
                     PodLoad& load) {
  const std::size_t errors_before = diags.error_count();
  auto doc = parse_document(pods, diags);
  if (!doc) return false;
  PodListRead list(nodes, pods, file, options, diags.strict(), census, load);
  Reader r(*doc, pods.name, list.diags());
  const ValueId items =
      r.is_object(FieldPath{}, doc->root()) ? list_items(r, doc->root(), "pods") : kNoValue;
  if (items == kNoValue) {
    diags.append(list.diags());
    return false;
  }
  for (std::uint32_t i = 0; i < doc->size(items); ++i)
    list.item(r, *doc, doc->element(items, i), i);
  list.finish(diags, r.exhausted());
  return diags.error_count() == errors_before;
}

// --- A JSON pod list read a piece at a time --------------------------------
//
// `kubectl get pods -A -o json` of a large cluster runs to hundreds of
// megabytes, and its document tree would take several times that. A JSON
// pod list is therefore read through a window of about kPodChunkBytes of
// the file: the root object's members are followed by hand (strings and
// brackets), each element of `items` is parsed on its own into a small Doc
// whose positions are the file's, read exactly as the whole-document reader
// reads it, and dropped. The root's other members are parsed on their own
// and checked as the whole-document reader checks them. Anything out of the
// ordinary (malformed JSON anywhere, a NUL, an odd root) gives up: PodListRead undoes what was read
// and the whole file is read again as a document, which reports it as always.

// The part of the file being read, with the line and column of a position
// in it kept up to date as reading moves on.
class PodWindow {
 public:
  // `buffers`: the window's memory, kept from file to file.
  PodWindow(ByteStream& in, std::size_t chunk, PodBuffers& buffers)
      : in_(in),
        chunk_(std::max<std::size_t>(chunk, 1)),
        data_(buffers.window),
        capacity_(buffers.window_capacity) {}

  bool bad() const { return bad_; }
  std::string_view rest() const { return {data_.get() + pos_, size_ - pos_}; }
  void skip(std::size_t n) { pos_ += n; }

  // The next byte that is not a JSON space (consumed up to it), or -1 at the end.
  int peek() {
    for (;;) {
      while (pos_ < size_) {
        const char c = data_[pos_];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return static_cast<unsigned char>(c);
        ++pos_;
      }
      if (!more()) return -1;
    }
  }
  // At least `n` bytes unread, unless the file ends first.
  void need(std::size_t n) {
    while (size_ - pos_ < n && more()) {
    }
  }

  // The value at the current position into `doc`; `end` past it (and the
  // spaces after it). Reads more of the file while the value is cut short.
  bool value(Doc& doc, std::uint32_t& end) {
    for (;;) {
      const auto [line, col] = where();
      const std::string_view text = rest();
      const bool ok =
          !bad_ && text.size() < UINT32_MAX && parse_json_value(text, doc, line, col, end);
      // A number could go on in the bytes not read yet.
      if (ok && (end < text.size() || eof_)) return true;
      if (bad_) return false;
      if (!more() && !ok) return false;
    }
  }

 private:
  // Drops what was read and reads another piece; false at the end.
  bool more() {
    if (eof_) return false;
    where();
    std::memmove(data_.get(), data_.get() + pos_, size_ - pos_);
    size_ -= pos_;
    pos_ = lc_at_ = 0;
    if (size_ + chunk_ + 1 > capacity_) {
      capacity_ = std::max(2 * capacity_, size_ + chunk_ + 1);
      auto bigger = std::make_unique_for_overwrite<char[]>(capacity_);
      std::memcpy(bigger.get(), data_.get(), size_);
      data_ = std::move(bigger);
    }
    const std::size_t n = in_.read(data_.get() + size_, chunk_);
    if (n == 0) {
      eof_ = true;
      data_[size_] = '\0';
      return false;
    }
    if (std::memchr(data_.get() + size_, '\0', n)) bad_ = true;  // the document reader says so
    size_ += n;
    data_[size_] = '\0';
    return true;
  }
  // Line and column of the current position (moving the count there).
  std::pair<std::uint32_t, std::uint32_t> where() {
    const char* from = data_.get() + lc_at_;
    const char* to = data_.get() + pos_;
    const auto lines = static_cast<std::uint32_t>(count_newlines(from, to));
    if (lines > 0) {
      line_ += lines;
      const char* last = to - 1;
      while (*last != '\n') --last;
      col_ = static_cast<std::uint32_t>(to - last);
    } else {
      col_ += static_cast<std::uint32_t>(to - from);
    }
    lc_at_ = pos_;
    return {line_, col_};
  }

  ByteStream& in_;
  const std::size_t chunk_;
  std::unique_ptr<char[]>& data_;
  std::size_t& capacity_;
  std::size_t size_ = 0, pos_ = 0;
  std::size_t lc_at_ = 0;  // the position whose line and column these are
  std::uint32_t line_ = 1, col_ = 1;
  bool eof_ = false, bad_ = false;
};

// Follows the pod list in `in`, parsing each item into `buffers.doc` and
// handing it to `sink(index, text)` (`text`: the item's, which the doc views
// until the next item); false when it gave up.
template <class Sink>
bool scan_pods(ByteStream& in, std::size_t chunk_bytes, const Source& pods, bool strict,
               PodBuffers& buffers, Sink&& sink) {
  PodWindow w(in, chunk_bytes, buffers);
  Doc& doc = buffers.doc;
  w.need(3);
  if (w.rest().starts_with("\xEF\xBB\xBF")) w.skip(3);
  if (w.peek() != '{') return false;
  w.skip(1);
  std::uint32_t end = 0;
  std::string root = "{";  // the root without its items, checked at the end
  bool have_items = false;
  for (bool first = true;; first = false) {
    int c = w.peek();
    if (c == '}') {
      w.skip(1);
      break;
    }
    if (!first) {
      if (c != ',') return false;
      w.skip(1);
      c = w.peek();
      root += ',';
    }
    if (c != '"' || !w.value(doc, end) || doc[doc.root()].kind != ValueKind::String) return false;
    const std::string key(doc.text(doc.root()));
    root.append(w.rest().substr(0, end));
    w.skip(end);
    if (w.peek() != ':') return false;
    w.skip(1);
    root += ':';
    if (key != "items") {
      if (!w.value(doc, end)) return false;
      root.append(w.rest().substr(0, end));
      w.skip(end);
      continue;
    }
    if (have_items || w.peek() != '[') return false;
    have_items = true;
    root += "[]";
    w.skip(1);
    if (w.peek() == ']') {
      w.skip(1);
      continue;
    }
    for (std::uint32_t i = 0;; ++i) {
      if (!w.value(doc, end)) return false;
      sink(i, w.rest().substr(0, end));
      w.skip(end);
      const int next = w.peek();
      if (next != ']' && next != ',') return false;
      w.skip(1);
      if (next == ']') break;
    }
  }
  if (w.peek() != -1 || w.bad()) return false;
  // The root as the whole-document reader checks it, without a word.
  root += '}';
  Diagnostics quiet;
  quiet.set_strict(strict);
  const Source alone{pods.name, std::move(root), InputFormat::Json};
  const auto root_doc = parse_json(alone, &quiet);
  if (!root_doc) return false;
  Reader r(*root_doc, pods.name, quiet);
  return list_items(r, root_doc->root(), "pods") != kNoValue && quiet.items().empty();
}

// Parsed items on their way from the thread that reads and parses the file
// to the one that reads the pods out of them, in batches, in order.
class PodQueue {
 public:
  static constexpr std::size_t kBatch = 64, kDepth = 4;

  // `slots`: kept from file to file (PodBuffers); their readers are this file's.
  PodQueue(std::vector<PodSlot>& slots, const std::string& file, Diagnostics& diags)
      : slots_(slots) {
    slots_.resize(kBatch * kDepth);
    for (PodSlot& s : slots_) s.reader = std::make_unique<Reader>(s.doc, file, diags);
  }

  // The reading thread: a copy of the item, the Doc then viewing the copy.
  // `doc` is swapped with the slot's (no copy of the tree); the parser
  // empties it before the next item, keeping its memory.
  void push(Doc& doc, std::uint32_t index, std::string_view text) {
    if (fill_ == 0) {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return produced_ - consumed_ < kDepth; });
    }
    PodSlot& s = slots_[(produced_ % kDepth) * kBatch + fill_];
    s.text.assign(text);
    std::swap(s.doc, doc);
    s.doc.set_source(s.text);
    s.index = index;
    if (++fill_ == kBatch) publish();
  }
  void close() {
    publish();
    std::lock_guard lock(mutex_);
    done_ = true;
    changed_.notify_all();
  }

  // The calling thread: fn(reader, doc, index) for every item, until close().
  template <class Fn>
  void drain(Fn&& fn) {
    for (;;) {
      std::size_t count = 0;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return consumed_ < produced_ || done_; });
        if (consumed_ == produced_) return;
        count = counts_[consumed_ % kDepth];
      }
      for (std::size_t k = 0; k < count; ++k) {
        PodSlot& s = slots_[(consumed_ % kDepth) * kBatch + k];
        s.reader->restart();
        fn(*s.reader, s.doc, s.index);
      }
      std::lock_guard lock(mutex_);
      ++consumed_;
      changed_.notify_all();
    }
  }

 private:
  void publish() {
    if (fill_ == 0) return;
    std::lock_guard lock(mutex_);
    counts_[produced_ % kDepth] = fill_;
    ++produced_;
    fill_ = 0;
    changed_.notify_all();
  }

  std::vector<PodSlot>& slots_;  // kDepth batches of kBatch
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t produced_ = 0, consumed_ = 0;  // batches
  std::size_t fill_ = 0;                     // items in the batch being filled
  std::array<std::size_t, kDepth> counts_{};
  bool done_ = false;
};

// Reads the pod list from `in` into `list`; false when it gave up. With
// `two_threads`, one thread reads and parses the file while this one reads
// the pods out of the items (each about half of the work); the items are
// read in order either way, so the result is the same.
bool stream_pods(ByteStream& in, std::size_t chunk_bytes, const Source& pods, PodListRead& list,
                 PodBuffers& buffers, bool two_threads) {
  const bool strict = list.diags().strict();
  if (!two_threads) {
    Reader r(buffers.doc, pods.name, list.diags());  // over each item in turn
    return scan_pods(in, chunk_bytes, pods, strict, buffers,
                     [&](std::uint32_t i, std::string_view) {
                       r.restart();
                       list.item(r, buffers.doc, buffers.doc.root(), i);
                     });
  }
  PodQueue queue(buffers.slots, pods.name, list.diags());
  bool ok = false;
  std::thread parsing([&] {
    ok = scan_pods(
        in, chunk_bytes, pods, strict, buffers,
        [&](std::uint32_t i, std::string_view text) { queue.push(buffers.doc, i, text); });
    queue.close();
  });
  queue.drain(
      [&](Reader& r, const Doc& doc, std::uint32_t i) { list.item(r, doc, doc.root(), i); });
  parsing.join();
  return ok;
}

// Reads `in` into `buffer` up to its size or the stream's end; the buffer
// is cut to what was read.
void read_into(ByteStream& in, std::string& buffer) {
  std::size_t got = 0;
  while (got < buffer.size())
    if (const std::size_t n = in.read(buffer.data() + got, buffer.size() - got); n > 0)
      got += n;
    else
      break;
  buffer.resize(got);
}

// The format of a streamed file: from its name, else its first bytes.
InputFormat stream_format(const Source& pods, ByteStream& in) {
  std::string head(256, '\0');
  read_into(in, head);
  in.rewind();
  return source_format(Source{pods.name, std::move(head), pods.format});
}

// --pods file: streamed when it is JSON, else (or when that gives up) whole.
bool read_pods(Inventory* nodes, const Source& pods, const KubernetesOptions& options,
               Diagnostics& diags, PodCensus* census, PodLoad& load, const PodReading& how) {
  if (!how.streamed || !pods.member.empty() || source_bytes(pods) >= UINT32_MAX)
    return read_pods_whole(nodes, pods, &pods.name, options, diags, census, load);
  ViewStream text(pods.text);
  ByteStream& in = pods.stream ? *pods.stream : static_cast<ByteStream&>(text);
  const InputFormat format = pods.stream ? stream_format(pods, in) : source_format(pods);
  if (format == InputFormat::Json) {
    PodListRead list(nodes, pods, &pods.name, options, diags.strict(), census, load);
    const bool two_threads = how.two_threads && std::thread::hardware_concurrency() > 1;
    if (stream_pods(in, how.chunk_bytes, pods, list, load.buffers, two_threads)) {
      const std::size_t errors_before = diags.error_count();
      list.finish(diags, false);
      return diags.error_count() == errors_before;
    }
    list.abandon();
  }
  if (how.read_whole) ++*how.read_whole;
  if (!pods.stream) return read_pods_whole(nodes, pods, &pods.name, options, diags, census, load);
  // Read whole, as any other input is.
  Source whole{pods.name, {}, pods.format};
  in.rewind();
  whole.text.resize(static_cast<std::size_t>(in.size()));
  read_into(in, whole.text);
  return read_pods_whole(nodes, whole, &pods.name, options, diags, census, load);
}

}  // namespace

bool apply_pods(Inventory& inventory, const Source& pods, const KubernetesOptions& options,
                Diagnostics& diags, PodCensus* census) {
  PodLoad load(&inventory, false);
  const bool ok = read_pods(&inventory, pods, options, diags, census, load, PodReading{});
  load.finish(inventory);
  return ok;
}

void load_pods(std::optional<Inventory>& inventory, const std::optional<Source>& pods,
               const KubernetesOptions& options, Diagnostics& diags, PodCensus* census,
               std::span<const Source> more, const PodReading& how) {
  if (!pods) return;
  Inventory* nodes = inventory ? &*inventory : nullptr;
  PodLoad load(nodes, true);
  bool ok = read_pods(nodes, *pods, options, diags, census, load, how);
  for (const Source& s : more) ok = read_pods(nodes, s, options, diags, census, load, how) && ok;
  if (!ok) {
    inventory.reset();
    return;
  }
  if (nodes) load.finish(*nodes);
}

}  // namespace eruplan
