// One node of the inventory (SPEC §2), read field by field into a Node that
// holds every invariant model.h promises; its workloads are in
// node_workloads.cpp.
#include "node_loader.h"

namespace eruplan::node_loading {

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

Node NodeLoader::load(const FieldPath& path, ValueId v, ValueId& name_id) {
  node_ = Node{};
  name_id = kNoValue;
  cores_ok_ = numa_ok_ = memory_ok_ = storage_ok_ = devices_ok_ = true;
  Fields f{};
  if (!r_.fields(path, v, kNodeFields, f.data())) return std::move(node_);

  if (auto name = r_.required_string(path, v, "name", f["name"],
                                     "name is required (a unique, non-empty string)")) {
    node_.name = *name;
    name_id = f["name"];
  }
  if (f["labels"] != kNoValue) labels(path.child("labels"), f["labels"]);
  if (f["available"] != kNoValue) {
    if (auto a = r_.boolean(path.child("available"), f["available"])) node_.available = *a;
  }

  if (f["cpu"] != kNoValue && f["cpu_map"] != kNoValue) {
    r_.error(path.child("cpu_map"), f["cpu_map"],
             "give cpu or cpu_map, not both (cpu: 4 is short for cpu_map: {\"0\": " +
                 std::to_string(share_base_) + ", ..., \"3\": " + std::to_string(share_base_) +
                 "})");
    cores_ok_ = false;
  } else if (f["cpu"] != kNoValue) {
    cores_from_cpu(path.child("cpu"), f["cpu"]);
  } else if (f["cpu_map"] != kNoValue) {
    cores_from_map(path.child("cpu_map"), f["cpu_map"]);
  }

  if (f["memory"] != kNoValue) {
    auto m = r_.size(path.child("memory"), f["memory"]);
    memory_ok_ = m.has_value();
    node_.memory = m.value_or(0);
  }
  if (f["storage"] != kNoValue) {
    auto s = r_.size(path.child("storage"), f["storage"]);
    storage_ok_ = s.has_value();
    node_.storage = s.value_or(0);
  }
  if (f["numa"] != kNoValue) numa(path.child("numa"), f["numa"]);
  if (f["numa_memory"] != kNoValue || (f["numa"] != kNoValue && numa_ok_)) numa_memory(path, f);
  if (f["volumes"] != kNoValue) volumes(path.child("volumes"), f["volumes"]);
  if (f["extended"] != kNoValue) extended(path.child("extended"), f["extended"]);
  if (f["max_instances"] != kNoValue) {
    if (auto m = r_.integer(path.child("max_instances"), f["max_instances"], 0))
      node_.max_instances = *m;
  }
  if (f["taints"] != kNoValue) taints(path.child("taints"), f["taints"]);
  if (f["usage"] != kNoValue) {
    usage(path.child("usage"), f["usage"]);
  }
  if (f["instances"] != kNoValue) instances(path.child("instances"), f["instances"]);
  if (f["workloads"] != kNoValue) workloads(path, f);
  if (f["reservations"] != kNoValue) reservations(path.child("reservations"), f["reservations"]);
  cost_ = f["cost"];
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
    node_.add_core(e.key, Core{*pieces, 0, -1});
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
  return std::min(node_.find_core(id), node_.cores.size());
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
  // No core_ids: ids 0..n-1, as `cpu: n` makes them.
  if (node_.core_ids.empty())
    return "the node's cores are 0 to " + std::to_string(cores.size() - 1);
  const std::vector<std::string_view> ids(node_.core_ids.begin(), node_.core_ids.end());
  return "the node's cores are " + list_ids(ids);
}

std::size_t NodeLoader::known_core(const FieldPath& here, const Entry& e) {
  const std::size_t core = find_core(e.key);
  if (core == node_.cores.size())
    r_.error(here, e.key_id,
             "core " + quoted(e.key) + " is not one of the node's cores (" + cores_summary() + ")");
  return core;
}

bool NodeLoader::list_cores(const FieldPath& path, ValueId v) {
  const std::int64_t n = node_.cores.empty() ? node_.plain_cores : 0;
  if (n > listed_left_) {
    r_.error(path, v,
             "too large: naming a core of a node given as a core count keeps its " +
                 std::to_string(n) +
                 " cores one by one, past the cores this file's nodes may keep so (" +
                 std::to_string(listed_core_budget(r_.doc().source().size())) + ": " +
                 listed_core_rule() + "); give the node's cores as a cpu map");
    cores_ok_ = false;
    return false;
  }
  listed_left_ -= n;
  node_.list_cores();
  return true;
}

void NodeLoader::numa(const FieldPath& path, ValueId v) {
  numa_ok_ = false;
  std::vector<Entry> list = r_.members(path, v);
  if (r_.doc()[v].kind != ValueKind::Object || !cores_ok_ || !list_cores(path, v)) return;
  auto& cores = node_.cores;
  std::vector<std::string_view> numa_of(cores.size());
  std::vector<ValueId> seen(cores.size(), kNoValue);
  bool ok = true;
  for (const Entry& e : list) {
    const FieldPath here = path.child(e.key);
    const std::size_t core = known_core(here, e);
    if (core == cores.size()) {
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
  if (f["numa"] == kNoValue) {
    r_.error(path, f["numa_memory"], "numa_memory needs numa (which NUMA node each core is on)");
    return;
  }
  if (!numa_ok_) return;
  auto& numa_nodes = node_.numa_nodes;
  std::vector<ValueId> seen(numa_nodes.size(), kNoValue);
  bool ok = true;
  if (f["numa_memory"] != kNoValue) {
    ok = r_.doc()[f["numa_memory"]].kind == ValueKind::Object;
    for (const Entry& e : r_.members(path, f["numa_memory"])) {
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
    const bool given = f["numa_memory"] != kNoValue;
    r_.error(given ? path : node_path.child("numa"), given ? f["numa_memory"] : f["numa"],
             std::string("numa names NUMA node") + (missing.size() == 1 ? " " : "s ") +
                 list_ids(missing) + " but numa_memory gives no memory for " +
                 (missing.size() == 1 ? "it" : "them") + "; every NUMA node needs its memory");
    ok = false;
  }
  if (!ok || !memory_ok_) return;
  i128 sum = 0;
  for (const auto& n : numa_nodes) sum += n.memory;
  if (sum > node_.memory) {
    r_.error(path, f["numa_memory"],
             "NUMA memories add up to " +
                 format_bytes(static_cast<Bytes>(std::min<i128>(sum, INT64_MAX))) +
                 ", more than the node's memory " + format_bytes(node_.memory));
  }
}

std::vector<Entry> NodeLoader::named_members(const FieldPath& path, ValueId v,
                                             std::string_view empty_error, bool* unnamed) {
  std::vector<Entry> list = r_.members(path, v);
  r_.sort_unique(path, list, byte_less);
  // Sorted by bytes, an empty name comes first (once: sort_unique dropped
  // the others).
  if (!list.empty() && list.front().key.empty()) {
    r_.error(path.child(""), list.front().key_id, std::string(empty_error));
    list.erase(list.begin());
    if (unnamed) *unnamed = true;
  }
  return list;
}

void NodeLoader::volumes(const FieldPath& path, ValueId v) {
  bool unnamed = false;
  const std::vector<Entry> list =
      named_members(path, v, "a device name must not be empty", &unnamed);
  devices_ok_ = r_.doc()[v].kind == ValueKind::Object && !unnamed;
  node_.devices.reserve(list.size());
  for (const Entry& e : list) {
    const FieldPath here = path.child(e.key);
    if (auto size = r_.size(here, e.value))
      node_.devices.push_back(Device{std::string(e.key), *size, 0});
    else
      devices_ok_ = false;
  }
}

void NodeLoader::used_size(const FieldPath& path, ValueId v, std::string_view what, Bytes total,
                           bool total_ok, Bytes& used) {
  const FieldPath here = path.child(what);
  const std::optional<Bytes> size = r_.size(here, v);
  if (!size) return;
  used = *size;
  if (total_ok && *size > total)
    r_.error(here, v,
             format_bytes(*size) + " used, more than the node's " + std::string(what) + " " +
                 format_bytes(total));
}

void NodeLoader::usage(const FieldPath& path, ValueId v) {
  Picked<kUsageFields> f;
  if (!r_.fields(path, v, kUsageFields, f.data())) return;
  const ValueId cpu = f["cpu"], cpu_map = f["cpu_map"], memory = f["memory"],
                numa_memory = f["numa_memory"], storage = f["storage"], volumes = f["volumes"],
                extended = f["extended"];
  if (extended != kNoValue) usage_extended(path.child("extended"), extended);
  if (memory != kNoValue)
    used_size(path, memory, "memory", node_.memory, memory_ok_, node_.memory_used);
  if (storage != kNoValue)
    used_size(path, storage, "storage", node_.storage, storage_ok_, node_.storage_used);
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
  if (!cores_ok_ || !list_cores(path, v)) return;
  auto& cores = node_.cores;
  std::vector<ValueId> seen(cores.size(), kNoValue);
  for (const Entry& e : list) {
    const FieldPath here = path.child(e.key);
    const std::size_t i = known_core(here, e);
    if (i == cores.size()) continue;
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
  const std::vector<Entry> list = named_members(path, v, "a label name must not be empty");
  node_.labels.reserve(list.size());
  for (const Entry& e : list)
    if (auto value = r_.scalar(path.child(e.key), e.value))
      node_.labels.emplace_back(std::string(e.key), std::string(*value));
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
                   " " + excerpt(e.key));
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
    Picked<kTaintFields> f;
    if (!r_.fields(at, r_.doc().element(v, i), kTaintFields, f.data())) continue;
    const ValueId key = f["key"], value = f["value"], effect = f["effect"];
    node_.taints.push_back(read_taint(r_, at, r_.doc().element(v, i), key, value, effect));
  }
}

void NodeLoader::instances(const FieldPath& path, ValueId v) {
  // "" is the instances of requests without an app, as apply writes them.
  std::vector<Entry> list = r_.members(path, v);
  r_.sort_unique(path, list, byte_less);
  node_.instances.reserve(list.size());
  for (const Entry& e : list)
    if (auto n = r_.integer(path.child(e.key), e.value, 0))
      node_.instances.emplace_back(std::string(e.key), *n);
}

}  // namespace eruplan::node_loading
