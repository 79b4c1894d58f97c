// The node inventory (SPEC §2): a schema walk over the document tree that
// builds an Inventory holding every invariant model.h promises, and reports
// every problem it meets rather than stopping at the first.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "doc.h"
#include "inventory_fields.h"
#include "kubernetes.h"
#include "load.h"
#include "units.h"

namespace eruplan {

namespace {

__extension__ typedef __int128 i128;

// Bounds that keep a typo from turning into gigabytes of cores.
constexpr std::int64_t kMaxCoresPerNode = 4096;
constexpr std::int64_t kMaxShareBase = 1'000'000'000;  // pieces never finer than nanocores

std::size_t count_errors(const Diagnostics& diags) {
  return static_cast<std::size_t>(
      std::count_if(diags.items().begin(), diags.items().end(),
                    [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

std::string quoted(std::string_view s) { return '"' + std::string(s) + '"'; }

using Entry = Reader::Entry;

bool byte_less(std::string_view a, std::string_view b) { return a < b; }

// Marks which targets a keyed mapping (numa, usage.cpu_map, ...) has already
// named, to report a key given twice.
bool first_time(Reader& r, const FieldPath& path, const Entry& e, std::vector<ValueId>& seen,
                std::size_t index) {
  if (seen[index] == kNoValue) {
    seen[index] = e.key_id;
    return true;
  }
  r.error(path.child(e.key), e.key_id, "given twice (first at " + r.where(seen[index]) + ")");
  return false;
}

std::string list_ids(const std::vector<std::string_view>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size() && i < 8; ++i)
    out += (i ? ", " : "") + std::string(ids[i]);
  if (ids.size() > 8) out += ", ... (" + std::to_string(ids.size()) + " in all)";
  return out;
}

// SPEC §8.1: a name is any non-empty string but cpu, memory and storage.
bool extended_name_ok(Reader& r, const FieldPath& path, const Entry& e) {
  if (e.key.empty()) {
    r.error(path.child(e.key), e.key_id, "an extended resource name must not be empty");
    return false;
  }
  if (e.key == "cpu" || e.key == "memory" || e.key == "storage") {
    r.error(path.child(e.key), e.key_id,
            quoted(e.key) + " is not an extended resource; give it as the node's own " +
                std::string(e.key) + " field");
    return false;
  }
  return true;
}

// Equal label lists, and equal instance lists, share one copy (SharedList):
// generated and real inventories repeat a few zones and counts over many
// nodes. At most kMaxInterned distinct lists of each are remembered.
template <class T>
class Interner {
 public:
  void intern(SharedList<T>& list) {
    if (list.empty()) return;
    key_.clear();
    for (const auto& entry : list.get()) {
      append(entry.first);
      append(entry.second);
    }
    auto it = seen_.find(key_);
    if (it != seen_.end())
      list.share_with(it->second);  // compares the lists: the key only finds a candidate
    else if (seen_.size() < kMaxInterned)
      seen_.emplace(key_, list);
  }

 private:
  static constexpr std::size_t kMaxInterned = 4096;
  void append(const std::string& s) {
    key_ += std::to_string(s.size());
    key_ += ':';
    key_ += s;
  }
  void append(std::int64_t v) {
    key_ += std::to_string(v);
    key_ += ',';
  }

  std::string key_;
  std::unordered_map<std::string, SharedList<T>> seen_;
};

class NodeLoader {
 public:
  NodeLoader(Reader& r, Pieces share_base) : r_(r), share_base_(share_base) {}

  Node load(const FieldPath& path, ValueId v, ValueId& name_id);
  // A grow template may carry `cost`; a node of an inventory may not.
  void allow_cost() { cost_allowed_ = true; }
  ValueId cost() const { return cost_; }

 private:
  // A node's fields, indexed by node_field.
  using Fields = std::array<ValueId, kNodeFields.size()>;

  void cores_from_cpu(const FieldPath& path, ValueId v);
  void cores_from_map(const FieldPath& path, ValueId v);
  void numa(const FieldPath& path, ValueId v);
  void numa_memory(const FieldPath& path, const Fields& f);
  void volumes(const FieldPath& path, ValueId v);
  void usage(const FieldPath& path, ValueId v);
  void usage_cpu_map(const FieldPath& path, ValueId v);
  void usage_numa_memory(const FieldPath& path, ValueId v);
  void usage_volumes(const FieldPath& path, ValueId v);
  // usage.numa_memory and usage.volumes: bytes used per NUMA node or device
  // (`what`), each named once (find gives its index, parts.size() when the
  // node has none: the error says `unknown`) and at most its `size` (called
  // `size_word` in the error).
  using Find = std::size_t (NodeLoader::*)(std::string_view) const;
  template <class Part>
  void usage_bytes(const FieldPath& path, const std::vector<Entry>& list, SparseList<Part>& parts,
                   Find find, Bytes Part::*size, std::string_view what, std::string_view unknown,
                   std::string_view size_word);
  void labels(const FieldPath& path, ValueId v);
  void instances(const FieldPath& path, ValueId v);
  void extended(const FieldPath& path, ValueId v);
  void usage_extended(const FieldPath& path, ValueId v);
  void taints(const FieldPath& path, ValueId v);
  void reservations(const FieldPath& path, ValueId v);
  void workloads(const FieldPath& path, const Fields& f);
  bool workload(const FieldPath& path, ValueId v, Workload& w);

  std::size_t find_core(std::string_view id) const;  // cores.size() when absent
  std::size_t find_numa(std::string_view id) const;
  std::size_t find_device(std::string_view name) const;
  std::string cores_summary() const;

  Reader& r_;
  Pieces share_base_;
  bool cost_allowed_ = false;
  ValueId cost_ = kNoValue;
  Node node_;
  // Whether each part read cleanly; checks that lean on a broken part are
  // skipped rather than reported twice.
  bool cores_ok_ = true, numa_ok_ = true, memory_ok_ = true, storage_ok_ = true, devices_ok_ = true;
  // SPEC §11: workload id -> where it was first given, across the inventory.
  std::unordered_map<std::string_view, ValueId> workload_ids_;  // views into the document
  Interner<std::pair<std::string, std::string>> labels_seen_;
  Interner<std::pair<std::string, std::int64_t>> instances_seen_;
};

Node NodeLoader::load(const FieldPath& path, ValueId v, ValueId& name_id) {
  node_ = Node{};
  name_id = kNoValue;
  cores_ok_ = numa_ok_ = memory_ok_ = storage_ok_ = devices_ok_ = true;
  Fields f{};
  if (!r_.fields(path, v, kNodeFields, f.data())) return std::move(node_);

  if (f[node_field::kName] == kNoValue) {
    r_.error(path, v, "name is required (a unique, non-empty string)");
  } else if (auto name = r_.string(path.child("name"), f[node_field::kName])) {
    node_.name = *name;
    name_id = f[node_field::kName];
  }
  if (f[node_field::kLabels] != kNoValue) labels(path.child("labels"), f[node_field::kLabels]);
  if (f[node_field::kAvailable] != kNoValue) {
    if (auto a = r_.boolean(path.child("available"), f[node_field::kAvailable]))
      node_.available = *a;
  }

  if (f[node_field::kCpu] != kNoValue && f[node_field::kCpuMap] != kNoValue) {
    r_.error(path.child("cpu_map"), f[node_field::kCpuMap],
             "give cpu or cpu_map, not both (cpu: 4 is short for cpu_map: {\"0\": " +
                 std::to_string(share_base_) + ", ..., \"3\": " + std::to_string(share_base_) +
                 "})");
    cores_ok_ = false;
  } else if (f[node_field::kCpu] != kNoValue) {
    cores_from_cpu(path.child("cpu"), f[node_field::kCpu]);
  } else if (f[node_field::kCpuMap] != kNoValue) {
    cores_from_map(path.child("cpu_map"), f[node_field::kCpuMap]);
  }

  if (f[node_field::kMemory] != kNoValue) {
    auto m = r_.size(path.child("memory"), f[node_field::kMemory]);
    memory_ok_ = m.has_value();
    node_.memory = m.value_or(0);
  }
  if (f[node_field::kStorage] != kNoValue) {
    auto s = r_.size(path.child("storage"), f[node_field::kStorage]);
    storage_ok_ = s.has_value();
    node_.storage = s.value_or(0);
  }
  if (f[node_field::kNuma] != kNoValue) numa(path.child("numa"), f[node_field::kNuma]);
  if (f[node_field::kNumaMemory] != kNoValue || (f[node_field::kNuma] != kNoValue && numa_ok_))
    numa_memory(path, f);
  if (f[node_field::kVolumes] != kNoValue) volumes(path.child("volumes"), f[node_field::kVolumes]);
  if (f[node_field::kExtended] != kNoValue)
    extended(path.child("extended"), f[node_field::kExtended]);
  if (f[node_field::kMaxInstances] != kNoValue) {
    if (auto m = r_.integer(path.child("max_instances"), f[node_field::kMaxInstances], 0))
      node_.max_instances = *m;
  }
  if (f[node_field::kTaints] != kNoValue) taints(path.child("taints"), f[node_field::kTaints]);
  if (f[node_field::kUsage] != kNoValue) {
    usage(path.child("usage"), f[node_field::kUsage]);
  }
  if (f[node_field::kInstances] != kNoValue)
    instances(path.child("instances"), f[node_field::kInstances]);
  if (f[node_field::kWorkloads] != kNoValue) workloads(path, f);
  if (f[node_field::kReservations] != kNoValue)
    reservations(path.child("reservations"), f[node_field::kReservations]);
  cost_ = f[node_field::kCost];
  if (cost_ != kNoValue && !cost_allowed_)
    r_.error(path.child("cost"), cost_,
             "only a grow template has a cost (grow --template); an inventory's node has none");
  labels_seen_.intern(node_.labels);
  instances_seen_.intern(node_.instances);
  return std::move(node_);
}

void NodeLoader::cores_from_cpu(const FieldPath& path, ValueId v) {
  cores_ok_ = false;
  const auto cpu = r_.cpu(path, v);
  if (!cpu) return;
  // A fractional cpu (15890m, as Kubernetes reports allocatable CPU) binds
  // floor(cpu) cores; its exact value is the node's CPU for every other rule.
  const std::int64_t n = *cpu / kNanoPerCore;
  if (n > kMaxCoresPerNode) {
    r_.error(path, v,
             "at most " + std::to_string(kMaxCoresPerNode) + " cores per node, got " +
                 std::to_string(n));
    return;
  }
  // Kept as a count until numa or usage.cpu_map needs per-core records.
  node_.plain_cores = n;
  node_.plain_core_pieces = share_base_;
  node_.cpu_given = *cpu;
  cores_ok_ = true;
}

void NodeLoader::cores_from_map(const FieldPath& path, ValueId v) {
  std::vector<Entry> list = r_.members(path, v);
  cores_ok_ = r_.doc()[v].kind == ValueKind::Object;
  r_.sort_unique(path, list, natural_less);
  if (static_cast<std::int64_t>(list.size()) > kMaxCoresPerNode) {
    r_.error(path, v,
             "at most " + std::to_string(kMaxCoresPerNode) + " cores per node, got " +
                 std::to_string(list.size()));
    cores_ok_ = false;
    return;
  }
  node_.cores.reserve(list.size());
  i128 total = 0;
  for (const Entry& e : list) {
    const FieldPath here = path.child(e.key);
    if (e.key.empty()) {
      r_.error(here, e.key_id, "a core id must not be empty");
      cores_ok_ = false;
      continue;
    }
    const auto pieces = r_.integer(here, e.value, 0);
    if (!pieces) {
      cores_ok_ = false;
      continue;
    }
    total += *pieces;
    node_.cores.push_back(Core{std::string(e.key), *pieces, 0, -1});
  }
  if (total > INT64_MAX) {
    r_.error(path, v, "the cores' pieces add up to more than 9223372036854775807");
    cores_ok_ = false;
  }
}

// The index of the part named `name` in `parts`, sorted by `less` on
// their names; parts.size() when there is none.
template <class Part>
std::size_t find_named(const SparseList<Part>& parts, const std::string Part::*name_of,
                       std::string_view name, bool (*less)(std::string_view, std::string_view)) {
  const auto it = std::lower_bound(
      parts.begin(), parts.end(), name,
      [&](const Part& part, std::string_view k) { return less(part.*name_of, k); });
  return it != parts.end() && (*it).*name_of == name ? static_cast<std::size_t>(it - parts.begin())
                                                     : parts.size();
}

std::size_t NodeLoader::find_core(std::string_view id) const {
  return find_named(node_.cores, &Core::id, id, natural_less);
}

std::size_t NodeLoader::find_numa(std::string_view id) const {
  return find_named(node_.numa_nodes, &NumaNode::id, id, natural_less);
}

std::size_t NodeLoader::find_device(std::string_view name) const {
  return find_named(node_.devices, &Device::name, name, byte_less);
}

std::string NodeLoader::cores_summary() const {
  const auto& cores = node_.cores;
  if (cores.empty()) return "the node has no cores";
  bool counted = true;  // ids 0..n-1, as `cpu: n` makes them
  for (std::size_t i = 0; i < cores.size() && counted; ++i)
    counted = cores[i].id == std::to_string(i);
  if (counted) return "the node's cores are 0 to " + std::to_string(cores.size() - 1);
  std::vector<std::string_view> ids;
  for (const auto& c : cores) ids.push_back(c.id);
  return "the node's cores are " + list_ids(ids);
}

void NodeLoader::numa(const FieldPath& path, ValueId v) {
  numa_ok_ = false;
  std::vector<Entry> list = r_.members(path, v);
  if (r_.doc()[v].kind != ValueKind::Object || !cores_ok_) return;
  node_.list_cores();
  auto& cores = node_.cores;
  std::vector<std::string_view> numa_of(cores.size());
  std::vector<ValueId> seen(cores.size(), kNoValue);
  bool ok = true;
  for (const Entry& e : list) {
    const FieldPath here = path.child(e.key);
    const std::size_t core = find_core(e.key);
    if (core == cores.size()) {
      r_.error(
          here, e.key_id,
          "core " + quoted(e.key) + " is not one of the node's cores (" + cores_summary() + ")");
      ok = false;
      continue;
    }
    if (!first_time(r_, path, e, seen, core)) continue;
    const auto id = r_.scalar(here, e.value);
    if (!id || id->empty()) {
      if (id) r_.error(here, e.value, "expected a NUMA node id, got \"\"");
      ok = false;
      continue;
    }
    numa_of[core] = *id;
  }
  if (!ok) return;
  // Cores numa leaves out belong to no NUMA node: only the pass across NUMA
  // nodes uses them.
  std::vector<std::string_view> ids;
  for (std::size_t i = 0; i < cores.size(); ++i)
    if (seen[i] != kNoValue) ids.push_back(numa_of[i]);
  std::sort(ids.begin(), ids.end(), natural_less);
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  for (std::string_view id : ids) node_.numa_nodes.push_back(NumaNode{std::string(id), 0, 0});
  for (std::size_t i = 0; i < cores.size(); ++i)
    cores[i].numa = seen[i] == kNoValue ? -1 : static_cast<int>(find_numa(numa_of[i]));
  numa_ok_ = true;
}

void NodeLoader::numa_memory(const FieldPath& node_path, const Fields& f) {
  const FieldPath path = node_path.child("numa_memory");
  if (f[node_field::kNuma] == kNoValue) {
    r_.error(path, f[node_field::kNumaMemory],
             "numa_memory needs numa (which NUMA node each core is on)");
    return;
  }
  if (!numa_ok_) return;
  auto& numa_nodes = node_.numa_nodes;
  std::vector<ValueId> seen(numa_nodes.size(), kNoValue);
  bool ok = true;
  if (f[node_field::kNumaMemory] != kNoValue) {
    ok = r_.doc()[f[node_field::kNumaMemory]].kind == ValueKind::Object;
    for (const Entry& e : r_.members(path, f[node_field::kNumaMemory])) {
      const FieldPath here = path.child(e.key);
      const std::size_t i = find_numa(e.key);
      if (i == numa_nodes.size()) {
        std::vector<std::string_view> ids;
        for (const auto& n : numa_nodes) ids.push_back(n.id);
        r_.error(here, e.key_id,
                 "NUMA node " + quoted(e.key) + " has no cores in numa (its NUMA nodes are " +
                     list_ids(ids) + ")");
        ok = false;
        continue;
      }
      if (!first_time(r_, path, e, seen, i)) continue;
      if (auto m = r_.size(here, e.value))
        numa_nodes[i].memory = *m;
      else
        ok = false;
    }
  }
  std::vector<std::string_view> missing;
  for (std::size_t i = 0; i < numa_nodes.size(); ++i)
    if (seen[i] == kNoValue) missing.push_back(numa_nodes[i].id);
  if (!missing.empty() && ok) {
    const bool given = f[node_field::kNumaMemory] != kNoValue;
    r_.error(given ? path : node_path.child("numa"),
             given ? f[node_field::kNumaMemory] : f[node_field::kNuma],
             std::string("numa names NUMA node") + (missing.size() == 1 ? " " : "s ") +
                 list_ids(missing) + " but numa_memory gives no memory for " +
                 (missing.size() == 1 ? "it" : "them") + "; every NUMA node needs its memory");
    ok = false;
  }
  if (!ok || !memory_ok_) return;
  i128 sum = 0;
  for (const auto& n : numa_nodes) sum += n.memory;
  if (sum > node_.memory) {
    r_.error(path, f[node_field::kNumaMemory],
             "NUMA memories add up to " +
                 format_bytes(static_cast<Bytes>(std::min<i128>(sum, INT64_MAX))) +
                 ", more than the node's memory " + format_bytes(node_.memory));
  }
}

void NodeLoader::volumes(const FieldPath& path, ValueId v) {
  std::vector<Entry> list = r_.members(path, v);
  devices_ok_ = r_.doc()[v].kind == ValueKind::Object;
  r_.sort_unique(path, list, byte_less);
  node_.devices.reserve(list.size());
  for (const Entry& e : list) {
    const FieldPath here = path.child(e.key);
    if (e.key.empty()) {
      r_.error(here, e.key_id, "a device name must not be empty");
      devices_ok_ = false;
      continue;
    }
    if (auto size = r_.size(here, e.value))
      node_.devices.push_back(Device{std::string(e.key), *size, 0});
    else
      devices_ok_ = false;
  }
}

void NodeLoader::usage(const FieldPath& path, ValueId v) {
  std::array<ValueId, kUsageFields.size()> f;
  if (!r_.fields(path, v, kUsageFields, f.data())) return;
  const ValueId cpu = f[usage_field::kCpu], cpu_map = f[usage_field::kCpuMap],
                memory = f[usage_field::kMemory], numa_memory = f[usage_field::kNumaMemory],
                storage = f[usage_field::kStorage], volumes = f[usage_field::kVolumes],
                extended = f[usage_field::kExtended];
  if (extended != kNoValue) usage_extended(path.child("extended"), extended);
  if (memory != kNoValue) {
    const FieldPath here = path.child("memory");
    if (auto used = r_.size(here, memory)) {
      node_.memory_used = *used;
      if (memory_ok_ && *used > node_.memory)
        r_.error(here, memory,
                 format_bytes(*used) + " used, more than the node's memory " +
                     format_bytes(node_.memory));
    }
  }
  if (storage != kNoValue) {
    const FieldPath here = path.child("storage");
    if (auto used = r_.size(here, storage)) {
      node_.storage_used = *used;
      if (storage_ok_ && *used > node_.storage)
        r_.error(here, storage,
                 format_bytes(*used) + " used, more than the node's storage " +
                     format_bytes(node_.storage));
    }
  }
  if (cpu_map != kNoValue) usage_cpu_map(path.child("cpu_map"), cpu_map);
  Pieces used_pieces = 0;
  for (const Core& c : node_.cores) used_pieces += c.used;
  if (cpu != kNoValue) {
    const FieldPath here = path.child("cpu");
    // usage.cpu may exceed the node's CPU (SPEC §8.1): memory mode oversells
    // CPU, and `apply` writes what it placed.
    if (auto used = r_.cpu(here, cpu)) node_.cpu_used = *used;
  } else {
    // Default: what the bound cores hold, in cores, rounded to the nearest nanocore.
    const i128 scaled = static_cast<i128>(used_pieces) * kNanoPerCore;
    node_.cpu_used = static_cast<NanoCores>((scaled + share_base_ / 2) / share_base_);
  }
  if (numa_memory != kNoValue) usage_numa_memory(path.child("numa_memory"), numa_memory);
  if (volumes != kNoValue) usage_volumes(path.child("volumes"), volumes);
}

void NodeLoader::usage_cpu_map(const FieldPath& path, ValueId v) {
  std::vector<Entry> list = r_.members(path, v);
  if (!cores_ok_) return;
  node_.list_cores();
  auto& cores = node_.cores;
  std::vector<ValueId> seen(cores.size(), kNoValue);
  for (const Entry& e : list) {
    const FieldPath here = path.child(e.key);
    const std::size_t i = find_core(e.key);
    if (i == cores.size()) {
      r_.error(
          here, e.key_id,
          "core " + quoted(e.key) + " is not one of the node's cores (" + cores_summary() + ")");
      continue;
    }
    if (!first_time(r_, path, e, seen, i)) continue;
    const auto used = r_.integer(here, e.value, 0);
    if (!used) continue;
    if (*used > cores[i].capacity) {
      r_.error(here, e.value,
               std::to_string(*used) + " pieces used, more than core " + quoted(e.key) + " has (" +
                   std::to_string(cores[i].capacity) + ")");
      continue;
    }
    cores[i].used = *used;
  }
}

void NodeLoader::usage_numa_memory(const FieldPath& path, ValueId v) {
  const std::vector<Entry> list = r_.members(path, v);
  if (!numa_ok_) return;
  usage_bytes(
      path, list, node_.numa_nodes, &NodeLoader::find_numa, &NumaNode::memory, "NUMA node",
      node_.numa_nodes.empty() ? " is unknown: the node has no numa" : " is not named in numa",
      "memory");
}

void NodeLoader::usage_volumes(const FieldPath& path, ValueId v) {
  const std::vector<Entry> list = r_.members(path, v);
  if (!devices_ok_) return;
  usage_bytes(path, list, node_.devices, &NodeLoader::find_device, &Device::size, "device",
              " is not one of the node's volumes", "size");
}

template <class Part>
void NodeLoader::usage_bytes(const FieldPath& path, const std::vector<Entry>& list,
                             SparseList<Part>& parts, Find find, Bytes Part::*size,
                             std::string_view what, std::string_view unknown,
                             std::string_view size_word) {
  const std::string part = std::string(what) + " ";
  std::vector<ValueId> seen(parts.size(), kNoValue);
  for (const Entry& e : list) {
    const FieldPath here = path.child(e.key);
    const std::size_t i = (this->*find)(e.key);
    if (i == parts.size()) {
      r_.error(here, e.key_id, part + quoted(e.key) + std::string(unknown));
      continue;
    }
    if (!first_time(r_, path, e, seen, i)) continue;
    const auto used = r_.size(here, e.value);
    if (!used) continue;
    parts[i].used = *used;
    if (*used > parts[i].*size)
      r_.error(here, e.value,
               format_bytes(*used) + " used, more than " + part + quoted(e.key) + "'s " +
                   std::string(size_word) + " " + format_bytes(parts[i].*size));
  }
}

void NodeLoader::labels(const FieldPath& path, ValueId v) {
  std::vector<Entry> list = r_.members(path, v);
  r_.sort_unique(path, list, byte_less);
  node_.labels.reserve(list.size());
  for (const Entry& e : list) {
    const FieldPath here = path.child(e.key);
    if (e.key.empty()) {
      r_.error(here, e.key_id, "a label name must not be empty");
      continue;
    }
    if (auto value = r_.scalar(here, e.value))
      node_.labels.emplace_back(std::string(e.key), std::string(*value));
  }
}

void NodeLoader::extended(const FieldPath& path, ValueId v) {
  std::vector<Entry> list = r_.members(path, v);
  r_.sort_unique(path, list, byte_less);
  node_.extended.reserve(list.size());
  for (const Entry& e : list) {
    if (!extended_name_ok(r_, path, e)) continue;
    if (auto total = r_.size(path.child(e.key), e.value))
      node_.extended.push_back(ExtendedResource{std::string(e.key), *total, 0});
  }
}

void NodeLoader::usage_extended(const FieldPath& path, ValueId v) {
  std::vector<Entry> list = r_.members(path, v);
  r_.sort_unique(path, list, byte_less);
  for (const Entry& e : list) {
    const FieldPath here = path.child(e.key);
    if (!extended_name_ok(r_, path, e)) continue;
    const auto used = r_.size(here, e.value);
    if (!used) continue;
    auto it =
        std::lower_bound(node_.extended.begin(), node_.extended.end(), e.key,
                         [](const ExtendedResource& x, std::string_view k) { return x.name < k; });
    if (it == node_.extended.end() || it->name != e.key) {
      r_.error(here, e.key_id, quoted(e.key) + " is not one of the node's extended resources");
      continue;
    }
    it->used = *used;
    if (*used > it->total)
      r_.error(here, e.value,
               std::to_string(*used) + " used, more than the node's " + std::to_string(it->total) +
                   " " + std::string(e.key));
  }
}

// reservations: {role: {cpu, memory, storage, extended name: amount}}, each
// kind's sum at most the node's capacity (eruplan share --model mesos).
void NodeLoader::reservations(const FieldPath& path, ValueId v) {
  std::vector<Entry> roles = r_.members(path, v);
  r_.sort_unique(path, roles, byte_less);
  NanoCores cpu = 0;
  Bytes memory = 0, storage = 0;
  NamedList<std::int64_t> extended;
  std::vector<std::pair<std::string, ValueId>> where;  // kind -> its last value
  for (const Entry& role : roles) {
    const FieldPath at = path.child(role.key);
    Reservation res;
    res.role = std::string(role.key);
    res.origin = r_.origin(at, role.key_id);
    std::vector<Entry> kinds = r_.members(at, role.value);
    r_.sort_unique(at, kinds, byte_less);
    for (const Entry& k : kinds) {
      const FieldPath here = at.child(k.key);
      if (k.key == "cpu") {
        if (auto c = r_.cpu(here, k.value)) res.cpu = *c, cpu += *c;
      } else if (k.key == "memory" || k.key == "storage") {
        if (auto b = r_.size(here, k.value)) {
          (k.key == "memory" ? res.memory : res.storage) = *b;
          (k.key == "memory" ? memory : storage) += *b;
        }
      } else if (extended_name_ok(r_, at, k)) {
        if (auto n = r_.size(here, k.value)) {
          res.extended.emplace_back(std::string(k.key), *n);
          auto it = std::find_if(extended.begin(), extended.end(),
                                 [&](const auto& e) { return e.first == k.key; });
          if (it == extended.end())
            extended.emplace_back(std::string(k.key), *n);
          else
            it->second += *n;
        }
      } else {
        continue;
      }
      where.emplace_back(std::string(k.key), k.value);
    }
    node_.reservations.push_back(std::move(res));
  }
  // Sums above the node's capacity, reported at the last amount of the kind.
  auto above = [&](std::string_view kind, std::int64_t sum, std::int64_t capacity,
                   std::string (*shown)(std::int64_t)) {
    if (sum <= capacity) return;
    ValueId at = kNoValue;
    for (const auto& [k, id] : where)
      if (k == kind) at = id;
    r_.error(path, at,
             "reservations of " + std::string(kind) + " add up to " + shown(sum) +
                 ", more than the node's " + shown(capacity));
  };
  auto plain = [](std::int64_t n) { return std::to_string(n); };
  above("cpu", cpu, node_.cpu_total(), [](std::int64_t n) { return format_cores(n); });
  above("memory", memory, node_.memory, [](std::int64_t n) { return format_bytes(n); });
  above("storage", storage, node_.storage, [](std::int64_t n) { return format_bytes(n); });
  for (const auto& [name, sum] : extended) {
    const ExtendedResource* e = node_.find_extended(name);
    above(name, sum, e != nullptr ? e->total : 0, plain);
  }
}

void NodeLoader::taints(const FieldPath& path, ValueId v) {
  if (!r_.is_array(path, v)) return;
  const std::uint32_t n = r_.doc().size(v);
  for (std::uint32_t i = 0; i < n; ++i) {
    const FieldPath at = path.at(i);
    std::array<ValueId, kTaintFields.size()> f;
    if (!r_.fields(at, r_.doc().element(v, i), kTaintFields, f.data())) continue;
    const ValueId key = f[taint_field::kKey], value = f[taint_field::kValue],
                  effect = f[taint_field::kEffect];
    node_.taints.push_back(read_taint(r_, at, r_.doc().element(v, i), key, value, effect));
  }
}

void NodeLoader::instances(const FieldPath& path, ValueId v) {
  std::vector<Entry> list = r_.members(path, v);
  r_.sort_unique(path, list, byte_less);
  node_.instances.reserve(list.size());
  for (const Entry& e : list) {
    const FieldPath here = path.child(e.key);
    if (e.key.empty()) {
      r_.error(here, e.key_id, "an app name must not be empty");
      continue;
    }
    if (auto n = r_.integer(here, e.value, 0)) node_.instances.emplace_back(std::string(e.key), *n);
  }
}

// SPEC §11: one running workload, normalised as a request is (§3); bound
// when its cpu_map has pieces, and then cpu x share_base must be exactly
// those pieces.
bool NodeLoader::workload(const FieldPath& path, ValueId v, Workload& w) {
  std::array<ValueId, kWorkloadFields.size()> f;
  if (!r_.fields(path, v, kWorkloadFields, f.data())) return false;
  const ValueId id = f[workload_field::kId], app = f[workload_field::kApp],
                cpu = f[workload_field::kCpu], cpu_limit = f[workload_field::kCpuLimit],
                memory = f[workload_field::kMemory], memory_limit = f[workload_field::kMemoryLimit],
                cpu_map = f[workload_field::kCpuMap], numa_node = f[workload_field::kNumaNode];
  bool ok = true;
  auto need = [&](ValueId field, const char* name) {
    if (field != kNoValue) return true;
    r_.error(path, v, std::string(name) + " is required");
    return ok = false;
  };
  if (need(id, "id")) {
    auto text = r_.scalar(path.child("id"), id);
    if (text && text->empty()) r_.error(path.child("id"), id, "an id must not be empty");
    if (text && !text->empty())
      w.id = *text;
    else
      ok = false;
  }
  if (need(app, "app")) {
    if (auto a = r_.string(path.child("app"), app))
      w.app = *a;
    else
      ok = false;
  }
  auto read = [&](ValueId field, const char* name, auto reader, std::int64_t& out) {
    if (field == kNoValue) return;
    if (auto x = (r_.*reader)(path.child(name), field))
      out = *x;
    else
      ok = false;
  };
  read(cpu, "cpu", &Reader::cpu, w.cpu);
  read(cpu_limit, "cpu_limit", &Reader::cpu, w.cpu_limit);
  read(memory, "memory", &Reader::size, w.memory);
  read(memory_limit, "memory_limit", &Reader::size, w.memory_limit);
  i128 pieces = 0;
  if (cpu_map != kNoValue) {
    const FieldPath here = path.child("cpu_map");
    std::vector<Entry> list = r_.members(here, cpu_map);
    r_.sort_unique(here, list, natural_less);
    if (!cores_ok_) ok = false;  // the node's cores are reported already
    if (cores_ok_) node_.list_cores();
    for (const Entry& e : list) {
      if (cores_ok_ && find_core(e.key) == node_.cores.size()) {
        r_.error(
            here.child(e.key), e.key_id,
            "core " + quoted(e.key) + " is not one of the node's cores (" + cores_summary() + ")");
        ok = false;
        continue;
      }
      const auto p = r_.integer(here.child(e.key), e.value, 0);
      if (!p) ok = false;
      if (p && *p > 0) w.cpu_map.emplace_back(std::string(e.key), *p), pieces += *p;
    }
  }
  if (numa_node != kNoValue) {
    const auto text = r_.scalar(path.child("numa_node"), numa_node);
    const std::size_t i = text ? find_numa(*text) : 0;
    if (text && i == node_.numa_nodes.size()) {
      r_.error(path.child("numa_node"), numa_node,
               "NUMA node " + quoted(*text) + " is not named in the node's numa");
      ok = false;
    }
    if (text && i < node_.numa_nodes.size()) w.numa = static_cast<int>(i);
    if (!text) ok = false;
  }
  if (!ok) return false;
  // SPEC §3 as Eru; a bound workload's cpu is raised to its limit.
  if (w.cpu == 0 && w.cpu_limit > 0) w.cpu = w.cpu_limit;
  w.cpu_limit = std::max(w.cpu_limit, w.cpu);
  if (w.memory == 0 && w.memory_limit > 0) w.memory = w.memory_limit;
  w.memory_limit = std::max(w.memory_limit, w.memory);
  if (!w.cpu_map.empty()) w.cpu = w.cpu_limit;
  if (!w.cpu_map.empty() &&
      static_cast<i128>(w.cpu) * share_base_ != pieces * static_cast<i128>(kNanoPerCore)) {
    r_.error(path.child("cpu_map"), cpu_map,
             "a bound workload's cpu x share_base must equal its cpu_map: cpu " +
                 format_cores(w.cpu) + " at share_base " + std::to_string(share_base_) +
                 " but cpu_map holds " + std::to_string(static_cast<std::int64_t>(pieces)) +
                 " pieces");
    return false;
  }
  return true;
}

// SPEC §11: the node's workloads are part of its usage. Each usage field
// left out (usage.cpu, usage.memory, a core of usage.cpu_map, a NUMA node of
// usage.numa_memory) and each app left out of instances takes their sum; one
// given must be at least their sum.
void NodeLoader::workloads(const FieldPath& node_path, const Fields& f) {
  const FieldPath path = node_path.child("workloads");
  if (!r_.is_array(path, f[node_field::kWorkloads])) return;
  const Doc& doc = r_.doc();
  auto member = [&](ValueId object, std::string_view key) {
    if (object == kNoValue || doc[object].kind != ValueKind::Object) return kNoValue;
    for (std::uint32_t i = 0; i < doc.size(object); ++i)
      if (doc.text(doc.key(object, i)) == key) return doc.member(object, i);
    return kNoValue;
  };
  i128 cpu = 0, memory = 0;
  std::vector<i128> core_pieces, numa_memory(node_.numa_nodes.size());
  NamedList<std::int64_t> per_app;
  bool ok = true;
  for (std::uint32_t i = 0; i < doc.size(f[node_field::kWorkloads]); ++i) {
    const FieldPath at = path.at(i);
    const ValueId v = doc.element(f[node_field::kWorkloads], i);
    Workload w;
    if (!workload(at, v, w)) {
      ok = false;
      continue;
    }
    const ValueId id = member(v, "id");
    if (auto [it, fresh] = workload_ids_.emplace(doc.text(id), id); !fresh) {
      r_.error(
          at.child("id"), id,
          "duplicate workload id " + quoted(w.id) + " (first at " + r_.where(it->second) + ")");
      ok = false;
    }
    cpu += w.cpu;
    memory += w.memory;
    if (w.numa >= 0) numa_memory[static_cast<std::size_t>(w.numa)] += w.memory;
    if (!w.cpu_map.empty()) {
      node_.list_cores();
      core_pieces.resize(node_.cores.size());
      for (const auto& [core, p] : w.cpu_map) core_pieces[find_core(core)] += p;
    }
    auto it = std::lower_bound(per_app.begin(), per_app.end(), w.app,
                               [](const auto& e, const std::string& a) { return e.first < a; });
    if (it != per_app.end() && it->first == w.app)
      ++it->second;
    else
      per_app.insert(it, {w.app, 1});
    node_.workloads.push_back(std::move(w));
  }
  if (!ok) return;
  const ValueId usage = f[node_field::kUsage];
  const FieldPath usage_path = node_path.child("usage");
  auto below = [&](const FieldPath& here, ValueId given, const std::string& what) {
    r_.error(here, given, what + ", less than the node's workloads add up to");
  };
  if (const ValueId given = member(usage, "cpu"); given != kNoValue) {
    if (node_.cpu_used < cpu)
      below(usage_path.child("cpu"), given,
            "usage.cpu " + format_cores(node_.cpu_used) + " < " +
                format_cores(static_cast<NanoCores>(cpu)));
  } else {
    node_.cpu_used = static_cast<NanoCores>(std::min<i128>(cpu, INT64_MAX));
  }
  if (const ValueId given = member(usage, "memory"); given != kNoValue) {
    if (node_.memory_used < memory)
      below(usage_path.child("memory"), given,
            "usage.memory " + format_bytes(node_.memory_used) + " < " +
                format_bytes(static_cast<Bytes>(std::min<i128>(memory, INT64_MAX))));
  } else if (memory_ok_ && memory > node_.memory) {
    r_.error(path, f[node_field::kWorkloads],
             "the workloads use " +
                 format_bytes(static_cast<Bytes>(std::min<i128>(memory, INT64_MAX))) +
                 " memory, more than the node's memory " + format_bytes(node_.memory));
  } else {
    node_.memory_used = static_cast<Bytes>(memory);
  }
  const ValueId usage_map = member(usage, "cpu_map");
  for (std::size_t i = 0; i < core_pieces.size(); ++i) {
    if (core_pieces[i] == 0) continue;
    Core& core = node_.cores[i];
    const std::string sum =
        std::to_string(static_cast<std::int64_t>(std::min<i128>(core_pieces[i], INT64_MAX)));
    if (const ValueId given = member(usage_map, core.id); given != kNoValue) {
      if (core.used < core_pieces[i])
        below(usage_path.child("cpu_map").child(core.id), given,
              std::to_string(core.used) + " pieces < " + sum);
    } else if (core_pieces[i] > core.capacity) {
      r_.error(path, f[node_field::kWorkloads],
               "the workloads bind " + sum + " pieces of core " + quoted(core.id) +
                   ", more than it has (" + std::to_string(core.capacity) + ")");
    } else {
      core.used = static_cast<Pieces>(core_pieces[i]);
    }
  }
  const ValueId usage_numa = member(usage, "numa_memory");
  for (std::size_t i = 0; i < numa_memory.size(); ++i) {
    if (numa_memory[i] == 0) continue;
    NumaNode& numa = node_.numa_nodes[i];
    const Bytes sum = static_cast<Bytes>(std::min<i128>(numa_memory[i], INT64_MAX));
    if (const ValueId given = member(usage_numa, numa.id); given != kNoValue) {
      if (numa.used < sum)
        below(usage_path.child("numa_memory").child(numa.id), given,
              format_bytes(numa.used) + " < " + format_bytes(sum));
    } else if (sum > numa.memory) {
      r_.error(path, f[node_field::kWorkloads],
               "the workloads use " + format_bytes(sum) + " of NUMA node " + quoted(numa.id) +
                   ", more than its memory " + format_bytes(numa.memory));
    } else {
      numa.used = sum;
    }
  }
  for (const auto& [app, n] : per_app) {
    auto it = std::lower_bound(node_.instances.begin(), node_.instances.end(), app,
                               [](const auto& e, const std::string& a) { return e.first < a; });
    if (it == node_.instances.end() || it->first != app) {
      node_.instances.insert(it, {app, n});
    } else if (it->second < n) {
      const ValueId instances = f[node_field::kInstances];
      r_.error(node_path.child("instances").child(app), member(instances, app),
               std::to_string(it->second) + " instances of " + quoted(app) + ", fewer than its " +
                   std::to_string(n) + " workloads on the node");
    }
  }
}

// Duplicate node names: each later one is an error naming the first.
void check_unique_names(Reader& r, const FieldPath& nodes_path, const std::vector<Node>& nodes,
                        const std::vector<ValueId>& name_ids) {
  // Names usually come in increasing order (generated inventories); then
  // none repeats and no sort is needed.
  std::vector<std::pair<std::string_view, std::size_t>> named;
  named.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (name_ids[i] != kNoValue) named.emplace_back(nodes[i].name, i);
  auto out_of_order = [](const auto& a, const auto& b) { return a.first >= b.first; };
  if (std::adjacent_find(named.begin(), named.end(), out_of_order) == named.end()) return;
  std::sort(named.begin(), named.end());  // by name, then file order
  std::vector<std::size_t> order;
  order.reserve(named.size());
  for (const auto& n : named) order.push_back(n.second);
  std::size_t group = 0;  // a group of equal names starts with the first one given
  for (std::size_t k = 1; k < order.size(); ++k) {
    const std::size_t i = order[k];
    if (nodes[i].name != nodes[order[group]].name) {
      group = k;
      continue;
    }
    const std::size_t first = order[group];
    r.error(nodes_path.at(static_cast<std::int64_t>(i)).child("name"), name_ids[i],
            "duplicate node name " + quoted(nodes[i].name) + ": nodes[" + std::to_string(first) +
                "] (" + r.where(name_ids[first]) + ") and nodes[" + std::to_string(i) + "] (" +
                r.where(name_ids[i]) + ") are both named so");
  }
}

// --- A JSON inventory read a few nodes at a time ---------------------------
//
// The document tree costs about 20 bytes per value, 3-4 times the JSON text:
// for 1,000,000 nodes, more than the Inventory itself. A clean JSON inventory
// is therefore read in slices: a scan finds the root's members and where each
// element of `nodes` starts and ends (strings and brackets only, validating
// nothing else), then the nodes are parsed and read about kStreamChunkBytes
// of text at a time, each slice's tree freed before the next. Any problem at
// all (a malformed slice, a warning, an error, a duplicate name or workload
// id) gives up, and the whole-document reader reads the file again and
// reports exactly as before: this path never writes a diagnostic.

bool json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class JsonSkeleton {
 public:
  explicit JsonSkeleton(std::string_view text) : s_(text) {}

  std::size_t pos() const { return pos_; }
  bool at_end() {
    space();
    return pos_ == s_.size();
  }
  bool eat(char c) {
    space();
    if (pos_ == s_.size() || s_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  bool peek(char c) {
    space();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  // A key without escapes (the root's keys are plain words); nullopt else.
  std::optional<std::string_view> plain_string() {
    space();
    if (pos_ == s_.size() || s_[pos_] != '"') return std::nullopt;
    const std::size_t close = s_.find_first_of("\"\\", pos_ + 1);
    if (close == std::string_view::npos || s_[close] != '"') return std::nullopt;
    const std::string_view text = s_.substr(pos_ + 1, close - pos_ - 1);
    pos_ = close + 1;
    return text;
  }
  // Steps over one value; its text is s_[begin, pos()). Only strings and
  // brackets are followed; the parser checks the rest.
  bool skip_value(std::size_t& begin) {
    space();
    begin = pos_;
    if (pos_ == s_.size()) return false;
    const char c = s_[pos_];
    if (c == '"') return skip_string();
    if (c == '{' || c == '[') {
      std::size_t depth = 0;
      while (pos_ < s_.size()) {
        const char d = s_[pos_];
        if (d == '"') {
          if (!skip_string()) return false;
          continue;
        }
        ++pos_;
        if (d == '{' || d == '[') {
          ++depth;
        } else if (d == '}' || d == ']') {
          if (--depth == 0) return true;
        }
      }
      return false;
    }
    while (pos_ < s_.size() && !json_space(s_[pos_]) && s_[pos_] != ',' && s_[pos_] != '}' &&
           s_[pos_] != ']')
      ++pos_;
    return pos_ > begin;
  }

 private:
  void space() {
    while (pos_ < s_.size() && json_space(s_[pos_])) ++pos_;
  }
  bool skip_string() {  // at the opening quote
    for (++pos_; pos_ < s_.size(); ++pos_) {
      if (s_[pos_] == '\\') {
        ++pos_;
      } else if (s_[pos_] == '"') {
        ++pos_;
        return true;
      }
    }
    return false;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

struct Span {
  std::uint32_t begin = 0, end = 0;
};

// The root object's layout: its scalar members and the extent of each node.
struct InventoryLayout {
  std::optional<Span> share_base, max_fragment_cores;
  std::vector<Span> nodes;
};

std::optional<InventoryLayout> scan_layout(std::string_view text) {
  JsonSkeleton k(text);
  InventoryLayout layout;
  bool have_nodes = false;
  if (!k.eat('{')) return std::nullopt;
  for (bool first = true; !k.peek('}'); first = false) {
    if (!first && !k.eat(',')) return std::nullopt;
    const auto key = k.plain_string();
    if (!key || !k.eat(':')) return std::nullopt;
    std::size_t begin = 0;
    auto is = [&key](std::size_t field) { return *key == kInventoryFields[field].name; };
    if (is(inventory_field::kNodes)) {
      if (have_nodes || !k.eat('[')) return std::nullopt;
      have_nodes = true;
      for (bool first_node = true; !k.peek(']'); first_node = false) {
        if (!first_node && !k.eat(',')) return std::nullopt;
        if (!k.peek('{') || !k.skip_value(begin)) return std::nullopt;
        layout.nodes.push_back(
            {static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(k.pos())});
      }
      k.eat(']');
      continue;
    }
    std::optional<Span>* field = is(inventory_field::kShareBase) ? &layout.share_base
                                 : is(inventory_field::kMaxFragmentCores)
                                     ? &layout.max_fragment_cores
                                     : nullptr;
    if (field == nullptr || field->has_value() || !k.skip_value(begin)) return std::nullopt;
    *field = Span{static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(k.pos())};
  }
  k.eat('}');
  if (!have_nodes || !k.at_end()) return std::nullopt;
  return layout;
}

bool names_unique(std::vector<std::string_view> names) {
  auto out_of_order = [](std::string_view a, std::string_view b) { return a >= b; };
  if (std::adjacent_find(names.begin(), names.end(), out_of_order) == names.end()) return true;
  std::sort(names.begin(), names.end());
  return std::adjacent_find(names.begin(), names.end()) == names.end();
}

// A piece of the file parsed on its own; the Doc views source.text.
struct Slice {
  Source source;
  std::optional<Doc> doc;
};

bool parse_slice(const std::string& file, std::string text, Slice& slice, Diagnostics& diags) {
  slice.doc.reset();
  slice.source.name = file;
  slice.source.format = InputFormat::Json;
  slice.source.text = std::move(text);
  slice.doc = parse_document(slice.source, diags);
  return slice.doc.has_value() && diags.items().empty();
}

}  // namespace

std::optional<Inventory> load_inventory_streamed(const Source& source, std::size_t chunk_bytes) {
  const std::string_view text = source.text;
  if (source.format == InputFormat::Yaml || text.size() >= UINT32_MAX) return std::nullopt;
  if (source.format == InputFormat::Auto) {
    std::string name = source.name;
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (name.ends_with(".yaml") || name.ends_with(".yml")) return std::nullopt;
  }
  auto layout = scan_layout(text);
  if (!layout) return std::nullopt;

  Diagnostics quiet;  // any entry at all: give up
  const FieldPath root;
  Inventory inventory;
  Slice slice;
  auto scalar = [&](const std::optional<Span>& span, std::size_t field, std::int64_t min,
                    std::int64_t max, auto& out) {
    if (!span) return true;
    if (!parse_slice(source.name, std::string(text.substr(span->begin, span->end - span->begin)),
                     slice, quiet))
      return false;
    Reader r(*slice.doc, source.name, quiet);
    const auto v = r.integer(root.child(kInventoryFields[field].name), slice.doc->root(), min, max);
    if (!v || !quiet.items().empty()) return false;
    out = *v;
    return true;
  };
  if (!scalar(layout->share_base, inventory_field::kShareBase, 1, kMaxShareBase,
              inventory.share_base) ||
      !scalar(layout->max_fragment_cores, inventory_field::kMaxFragmentCores, -1, INT64_MAX,
              inventory.max_fragment_cores))
    return std::nullopt;

  const std::vector<Span>& spans = layout->nodes;
  inventory.nodes.reserve(spans.size());
  const FieldPath nodes_path = root.child("nodes");
  for (std::size_t first = 0; first < spans.size();) {
    std::size_t last = first + 1;  // nodes [first, last) make one slice
    while (last < spans.size() && spans[last].end - spans[first].begin <= chunk_bytes) ++last;
    std::string piece;
    piece.reserve(spans[last - 1].end - spans[first].begin + 2);
    piece += '[';
    piece.append(text.substr(spans[first].begin, spans[last - 1].end - spans[first].begin));
    piece += ']';
    if (!parse_slice(source.name, std::move(piece), slice, quiet)) return std::nullopt;
    const Doc& doc = *slice.doc;
    if (doc[doc.root()].kind != ValueKind::Array || doc.size(doc.root()) != last - first)
      return std::nullopt;
    Reader r(doc, source.name, quiet);
    NodeLoader loader(r, inventory.share_base);
    for (std::size_t i = first; i < last; ++i) {
      ValueId name_id = kNoValue;
      inventory.nodes.push_back(
          loader.load(nodes_path.at(static_cast<std::int64_t>(i)),
                      doc.element(doc.root(), static_cast<std::uint32_t>(i - first)), name_id));
    }
    if (!quiet.items().empty()) return std::nullopt;
    first = last;
  }
  slice.doc.reset();
  slice.source = Source{};

  std::vector<std::string_view> names, workload_ids;
  names.reserve(inventory.nodes.size());
  for (const Node& node : inventory.nodes) {
    names.push_back(node.name);
    for (const Workload& w : node.workloads) workload_ids.push_back(w.id);
  }
  if (!names_unique(std::move(names)) || !names_unique(std::move(workload_ids)))
    return std::nullopt;
  return inventory;
}

std::optional<Inventory> load_inventory(const Source& source, Diagnostics& diags) {
  if (auto inventory = load_inventory_streamed(source)) return inventory;
  auto doc = parse_document(source, diags);
  if (!doc) return std::nullopt;
  return load_inventory(*doc, source.name, diags);
}

std::optional<Inventory> load_inventory(const Doc& parsed, const std::string& file,
                                        Diagnostics& diags) {
  const std::size_t errors_before = count_errors(diags);
  const Doc* doc = &parsed;
  Reader r(*doc, file, diags);
  const FieldPath root;
  const ValueId top = doc->root();
  if ((*doc)[top].kind == ValueKind::Null) {
    r.error(root, kNoValue, "the inventory is empty; expected a mapping with a list of nodes");
    return std::nullopt;
  }
  std::array<ValueId, kInventoryFields.size()> f;
  if (!r.fields(root, top, kInventoryFields, f.data())) return std::nullopt;
  const ValueId share_base = f[inventory_field::kShareBase],
                max_fragment_cores = f[inventory_field::kMaxFragmentCores],
                nodes = f[inventory_field::kNodes];

  Inventory inventory;
  if (share_base != kNoValue) {
    if (auto s = r.integer(root.child("share_base"), share_base, 1, kMaxShareBase))
      inventory.share_base = *s;
  }
  if (max_fragment_cores != kNoValue) {
    if (auto m = r.integer(root.child("max_fragment_cores"), max_fragment_cores, -1))
      inventory.max_fragment_cores = *m;
  }
  const FieldPath nodes_path = root.child("nodes");
  if (nodes == kNoValue) {
    r.error(nodes_path, top, "nodes is required (a list of nodes)");
  } else if (r.is_array(nodes_path, nodes)) {
    const std::uint32_t n = doc->size(nodes);
    inventory.nodes.reserve(n);
    std::vector<ValueId> name_ids(n, kNoValue);
    NodeLoader loader(r, inventory.share_base);
    for (std::uint32_t i = 0; i < n; ++i)
      inventory.nodes.push_back(loader.load(nodes_path.at(i), doc->element(nodes, i), name_ids[i]));
    check_unique_names(r, nodes_path, inventory.nodes, name_ids);
  }
  if (count_errors(diags) > errors_before) return std::nullopt;
  return inventory;
}

}  // namespace eruplan

namespace eruplan {

// One node object of SPEC §2 on its own (grow's --template, SPEC §14), read
// by the inventory's node reader with the inventory's share_base; positions
// and field paths refer to the template file as written.
std::optional<Node> load_node(const Source& source, Pieces share_base, Diagnostics& diags) {
  auto t = load_template(source, share_base, diags);
  if (!t) return std::nullopt;
  return std::move(t->node);
}

std::optional<std::int64_t> parse_cost(std::string_view text) {
  std::int64_t whole = 0, frac = 0;
  std::size_t i = 0, digits = 0, decimals = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
    if (whole > 100'000'000) return std::nullopt;
    whole = whole * 10 + (text[i] - '0');
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++decimals) {
      if (decimals >= 9) return std::nullopt;
      frac = frac * 10 + (text[i] - '0');
    }
    if (decimals == 0) return std::nullopt;
  }
  if (i != text.size() || digits == 0 || whole > 1'000'000'000) return std::nullopt;
  for (std::size_t d = decimals; d < 9; ++d) frac *= 10;
  const std::int64_t nano = whole * kCostScale + frac;
  if (nano > 1'000'000'000 * kCostScale) return std::nullopt;
  return nano;
}

// A grow template (SPEC §14, §19): an eruplan node object read by the
// inventory's node reader with the inventory's share_base, positions and
// field paths from the template file as written; or a Kubernetes Node.
std::optional<GrowTemplate> load_template(const Source& source, Pieces share_base,
                                          Diagnostics& diags) {
  const std::size_t errors_before = count_errors(diags);
  auto doc = parse_document(source, diags);
  if (!doc) return std::nullopt;
  Reader r(*doc, source.name, diags);
  const FieldPath root;
  const ValueId top = doc->root();
  if ((*doc)[top].kind == ValueKind::Null) {
    r.error(root, kNoValue, "the node is empty; expected a mapping such as {name: n, cpu: 4}");
    return std::nullopt;
  }
  bool kubernetes = false;
  if ((*doc)[top].kind == ValueKind::Object)
    for (std::uint32_t i = 0; i < doc->size(top); ++i)
      kubernetes |=
          doc->text(doc->key(top, i)) == "kind" || doc->text(doc->key(top, i)) == "apiVersion";
  if (kubernetes) {
    // kubectl get node X -o yaml: read as a node list of one.
    auto inv = load_nodes(source, NodesFormat::Kubernetes, diags);
    if (!inv || inv->nodes.size() != 1) {
      if (inv) r.error(root, top, "expected one Node, got " + std::to_string(inv->nodes.size()));
      return std::nullopt;
    }
    return GrowTemplate{std::move(inv->nodes.front()), std::nullopt};
  }
  ValueId name_id = kNoValue;
  NodeLoader loader(r, share_base);
  loader.allow_cost();
  GrowTemplate t{loader.load(root, top, name_id), std::nullopt};
  if (const ValueId c = loader.cost(); c != kNoValue) {
    if (auto text = r.scalar(root.child("cost"), c)) {
      t.cost = parse_cost(*text);
      if (!t.cost)
        r.error(root.child("cost"), c,
                "expected a cost: a number >= 0 with at most 9 decimals, such as 0.192, got " +
                    quoted(*text));
    }
  }
  if (count_errors(diags) > errors_before) return std::nullopt;
  return t;
}

Taint read_taint(Reader& r, const FieldPath& at, ValueId item, ValueId key, ValueId value,
                 ValueId effect) {
  Taint taint;
  if (key == kNoValue)
    r.error(at, item, "key is required");
  else if (auto k = r.string(at.child("key"), key))
    taint.key = *k;
  if (value != kNoValue) {
    if (auto s = r.scalar(at.child("value"), value)) taint.value = *s;
  }
  if (effect == kNoValue) {
    r.error(at, item, "effect is required (NoSchedule, PreferNoSchedule or NoExecute)");
  } else if (auto e = r.string(at.child("effect"), effect)) {
    if (*e != "NoSchedule" && *e != "PreferNoSchedule" && *e != "NoExecute")
      r.error(
          at.child("effect"), effect,
          "unknown effect " + quoted(*e) + "; expected NoSchedule, PreferNoSchedule or NoExecute");
    else
      taint.effect = *e;
  }
  return taint;
}

}  // namespace eruplan
