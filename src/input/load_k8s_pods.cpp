// --pods as `kubectl get pods -A -o json` (SPEC §12): every bound pod that
// is still running adds its request to its node's usage and one instance of
// its app. A JSON pod list is read a piece at a time (k8s_pod_stream.h).
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "k8s_pod_stream.h"
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
      intern_pod_labels(inventory);
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
    if (census_) {
      census_sizes_ = {census_->succeeded.size(), census_->elsewhere.size()};
      daemons_mark_ = census_->daemons.size();
    }
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

  // grow: the DaemonSet `pod` (at `at`) belongs to, from its first pod, into
  // the census. Read quietly: the pod list's own reading reports its problems.
  void note_daemon(const Doc& doc, ValueId pod, const FieldPath& at, ValueId owners, ValueId ns) {
    if (owners == kNoValue || doc[owners].kind != ValueKind::Array) return;
    const std::string pod_ns = ns != kNoValue ? std::string(text_of(doc, ns)) : "default";
    Diagnostics quiet;
    Reader scratch(doc, pods_.name, quiet);
    for (std::uint32_t j = 0; j < doc.size(owners); ++j) {
      Picked<kKubeOwnerReferenceFields> f;
      if (!pick(scratch, at, doc.element(owners, j), f)) continue;
      if (text_of(doc, f["kind"]) != "DaemonSet" || text_of(doc, f["controller"]) != "true")
        continue;
      const std::string_view owner = text_of(doc, f["name"]);
      if (owner.empty()) continue;
      std::vector<Request>& daemons = census_->daemons;
      if (std::any_of(daemons.begin(), daemons.end(), [&](const Request& d) {
            return d.name == owner && d.pod && d.pod->ns == pod_ns;
          }))
        return;
      daemons.push_back(daemon_from_pod(scratch, at, pod, std::string(owner), options_));
      return;
    }
  }

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
      census_->daemons.resize(daemons_mark_);
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
  std::size_t daemons_mark_ = 0;                      // census daemons before this file
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
  check_manifest_fields(r, at, item, "Pod");
  const FieldPath meta_path = at.child("metadata"), spec_path = at.child("spec"),
                  status_path = at.child("status");
  Picked<kKubeMetadataFields> meta;
  Picked<kKubePodStatusFields> status;
  pick(r, meta_path, object["metadata"], meta);
  pick(r, status_path, object["status"], status);
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
                "pod " + excerpt(first->first) + " appears twice: first in " + *first->second.file +
                    " at items[" + std::to_string(first->second.index) + "], again here (" +
                    pods_.name + " items[" + std::to_string(i) + "]); counted once");
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
  // As the scheduler counts a pod on its node: with its containers' status
  // resources, which differ from the spec while it is resized in place.
  const PodStatusResources resize{&status_path, status["containerStatuses"],
                                  status["initContainerStatuses"], status["conditions"]};
  const PodRequest req = pod_request(r, spec_path, spec, &resize);
  if (census_ && census_->want_daemons) note_daemon(doc, item, at, meta["ownerReferences"], ns);
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
    const ValueId deletion = meta["deletionTimestamp"];
    pod.terminating = deletion != kNoValue;
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
      diags_.warning(
          Origin{pods_.name, u.line, u.col,
                 items_path.at(u.index).child("spec").child("nodeName").str()},
          std::to_string(u.pods) + (u.pods == 1 ? " pod" : " pods") + " on node " + quoted(node) +
              ", which is not in the node list, ignored (first: " + excerpt(u.first_pod) + ")");
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
                    "pods on " + excerpt(node.name) + " request " + std::to_string(used) + " " +
                        what + ", more than its allocatable " + std::to_string(total) +
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
  if (pods.member.empty() && has_later_document(pods.text)) {
    // Pods one document each, or several pod lists (kubectl get pod A -o
    // yaml, ---, ...): their pods in order, items[k] counting across the
    // documents; an empty document holds none.
    std::vector<ValueId> documents;
    auto doc = parse_document_stream(pods, diags, documents);
    if (!doc) return false;
    PodListRead list(nodes, pods, file, options, diags.strict(), census, load);
    Reader r(*doc, pods.name, list.diags());
    std::uint32_t k = 0;
    for (const ValueId d : documents) {
      if ((*doc)[d].kind == ValueKind::Null) continue;
      if ((*doc)[d].kind != ValueKind::Object || doc->find(d, "items") == kNoValue) {
        list.item(r, *doc, d, k++);
        continue;
      }
      const ValueId items = list_items(r, d, "pods");
      if (items == kNoValue) continue;
      for (std::uint32_t i = 0; i < doc->size(items); ++i)
        list.item(r, *doc, doc->element(items, i), k++);
    }
    list.finish(diags, r.exhausted());
    return diags.error_count() == errors_before;
  }
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
    if (stream_pods(in, how.chunk_bytes, pods, list.diags(), load.buffers, two_threads,
                    [&](Reader& r, const Doc& doc, std::uint32_t i) {
                      list.item(r, doc, doc.root(), i);
                    })) {
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
