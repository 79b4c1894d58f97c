// A node's running workloads (SPEC §11): each read as a request is, and
// their cores, memory and volumes added to the node's usage.
#include "node_loader.h"

namespace eruplan::node_loading {

// SPEC §11: one running workload, normalised as a request is (§3); bound
// when its cpu_map has pieces, and then cpu x share_base must be exactly
// those pieces.
bool NodeLoader::workload(const FieldPath& path, ValueId v, Workload& w) {
  Picked<kWorkloadFields> f;
  if (!r_.fields(path, v, kWorkloadFields, f.data())) return false;
  const ValueId id = f["id"], app = f["app"], cpu = f["cpu"], cpu_limit = f["cpu_limit"],
                memory = f["memory"], memory_limit = f["memory_limit"], cpu_map = f["cpu_map"],
                numa_node = f["numa_node"];
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
  if (const ValueId priority = f["priority"]; priority != kNoValue) {
    if (auto p = r_.integer(path.child("priority"), priority, INT32_MIN, INT32_MAX))
      w.priority = static_cast<std::int32_t>(*p);
    else
      ok = false;
  }
  read(cpu_limit, "cpu_limit", &Reader::cpu, w.cpu_limit);
  read(memory, "memory", &Reader::size, w.memory);
  read(memory_limit, "memory_limit", &Reader::size, w.memory_limit);
  i128 pieces = 0;
  if (cpu_map != kNoValue) {
    const FieldPath here = path.child("cpu_map");
    std::vector<Entry> list = r_.members(here, cpu_map);
    r_.sort_unique(here, list, natural_less);
    if (cores_ok_ && !list_cores(here, cpu_map)) return false;
    if (!cores_ok_) ok = false;  // the node's cores are reported already
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
  if (!r_.is_array(path, f["workloads"])) return;
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
  for (std::uint32_t i = 0; i < doc.size(f["workloads"]); ++i) {
    const FieldPath at = path.at(i);
    const ValueId v = doc.element(f["workloads"], i);
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
  const ValueId usage = f["usage"];
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
    r_.error(path, f["workloads"],
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
    const std::string id = node_.core_id(i);
    const std::string sum =
        std::to_string(static_cast<std::int64_t>(std::min<i128>(core_pieces[i], INT64_MAX)));
    if (const ValueId given = member(usage_map, id); given != kNoValue) {
      if (core.used < core_pieces[i])
        below(usage_path.child("cpu_map").child(id), given,
              std::to_string(core.used) + " pieces < " + sum);
    } else if (usage_map != kNoValue) {
      // usage.cpu_map given: a core it leaves out is in use by nothing,
      // less than the workloads bind there.
      r_.error(
          usage_path.child("cpu_map"), usage_map,
          "leaves out core " + quoted(id) + ", where the node's workloads bind " + sum + " pieces");
    } else if (core_pieces[i] > core.capacity) {
      r_.error(path, f["workloads"],
               "the workloads bind " + sum + " pieces of core " + quoted(id) +
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
      r_.error(path, f["workloads"],
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
      const ValueId instances = f["instances"];
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

}  // namespace eruplan::node_loading
