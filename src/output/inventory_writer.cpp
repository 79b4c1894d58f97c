// The inventory as a document in the schema of SPEC §2 (§8.3): what `apply`
// prints and --save-inventory writes. It reads back as the same state:
// sizes in bytes, CPU in cores, every usage field written out (0 or {} where
// nothing is used), nodes in input order.
#include "inventory_writer.h"

#include "json_writer.h"

namespace eruplan {

namespace {

// Whether write_parts writes the parts whose value is 0: the usage maps
// leave them out.
enum class Zeros { Write, Leave };

// A node's parts (cores, NUMA nodes, devices, extended resources) as one
// mapping, name -> an integer member, in the node's order.
template <class W, class Part>
void write_parts(W& w, const SparseList<Part>& parts, const std::string Part::*name,
                 const std::int64_t Part::*value, Zeros zeros) {
  w.begin_object();
  for (const Part& part : parts) {
    if (zeros == Zeros::Leave && part.*value == 0) continue;
    w.key(part.*name);
    w.integer(part.*value);
  }
  w.end_object();
}

// SPEC §11's running workloads, normalised; cpu_map only when bound.
template <class W>
void write_workloads(W& w, const Node& n) {
  if (n.workloads.empty()) return;
  w.key("workloads");
  w.begin_array();
  for (const Workload& wl : n.workloads) {
    w.begin_object();
    w.key("id");
    w.string(wl.id);
    w.key("app");
    w.string(wl.app);
    w.key("cpu");
    w.number(format_cores(wl.cpu));
    w.key("cpu_limit");
    w.number(format_cores(wl.cpu_limit));
    w.key("memory");
    w.integer(wl.memory);
    w.key("memory_limit");
    w.integer(wl.memory_limit);
    if (!wl.cpu_map.empty()) {
      w.key("cpu_map");
      write_mapping(w, wl.cpu_map);
    }
    if (wl.numa >= 0) {
      w.key("numa_node");
      w.string(n.numa_nodes[static_cast<std::size_t>(wl.numa)].id);
    }
    if (wl.priority != 0) {
      w.key("priority");
      w.integer(wl.priority);
    }
    w.end_object();
  }
  w.end_array();
}

// Resources kept for one role (share --model mesos), the kinds given.
template <class W>
void write_reservations(W& w, const Node& n) {
  if (n.reservations.empty()) return;
  w.key("reservations");
  w.begin_object();
  for (const Reservation& r : n.reservations) {
    w.key(r.role);
    w.begin_object();
    if (r.cpu != 0) {
      w.key("cpu");
      w.number(format_cores(r.cpu));
    }
    if (r.memory != 0) {
      w.key("memory");
      w.integer(r.memory);
    }
    for (const auto& [name, amount] : r.extended) {
      w.key(name);
      w.integer(amount);
    }
    if (r.storage != 0) {
      w.key("storage");
      w.integer(r.storage);
    }
    w.end_object();
  }
  w.end_object();
}

template <class W>
void write_node(W& w, const Node& n) {
  w.begin_object();
  w.key("name");
  w.string(n.name);
  w.key("labels");
  write_mapping(w, n.labels);
  w.key("available");
  w.boolean(n.available);
  if (n.cpu_given >= 0) {
    w.key("cpu");
    w.number(format_cores(n.cpu_given));
  } else if (!n.cores.empty()) {
    w.key("cpu_map");
    write_parts(w, n.cores, &Core::id, &Core::capacity, Zeros::Write);
  }
  w.key("memory");
  w.integer(n.memory);
  if (!n.numa_nodes.empty()) {
    w.key("numa");
    w.begin_object();
    for (const Core& c : n.cores) {
      if (c.numa < 0) continue;
      w.key(c.id);
      w.string(n.numa_nodes[static_cast<std::size_t>(c.numa)].id);
    }
    w.end_object();
    w.key("numa_memory");
    write_parts(w, n.numa_nodes, &NumaNode::id, &NumaNode::memory, Zeros::Write);
  }
  w.key("storage");
  w.integer(n.storage);
  w.key("volumes");
  write_parts(w, n.devices, &Device::name, &Device::size, Zeros::Write);
  w.key("extended");
  write_parts(w, n.extended, &ExtendedResource::name, &ExtendedResource::total, Zeros::Write);
  if (n.max_instances >= 0) {
    w.key("max_instances");
    w.integer(n.max_instances);
  }
  if (!n.taints.empty()) {
    w.key("taints");
    w.begin_array();
    for (const Taint& t : n.taints) {
      w.begin_object();
      w.key("key");
      w.string(t.key);
      if (!t.value.empty()) {
        w.key("value");
        w.string(t.value);
      }
      w.key("effect");
      w.string(t.effect);
      w.end_object();
    }
    w.end_array();
  }

  w.key("usage");
  w.begin_object();
  w.key("cpu");
  w.number(format_cores(n.cpu_used));
  w.key("cpu_map");
  write_parts(w, n.cores, &Core::id, &Core::used, Zeros::Leave);
  w.key("memory");
  w.integer(n.memory_used);
  w.key("numa_memory");
  write_parts(w, n.numa_nodes, &NumaNode::id, &NumaNode::used, Zeros::Leave);
  w.key("storage");
  w.integer(n.storage_used);
  w.key("volumes");
  write_parts(w, n.devices, &Device::name, &Device::used, Zeros::Leave);
  w.key("extended");
  write_parts(w, n.extended, &ExtendedResource::name, &ExtendedResource::used, Zeros::Leave);
  w.end_object();

  w.key("instances");
  write_mapping(w, n.instances);
  write_workloads(w, n);
  write_reservations(w, n);
  w.end_object();
}

template <class W>
void write_inventory(W& w, const Inventory& inventory) {
  w.begin_object();
  w.key("share_base");
  w.integer(inventory.share_base);
  w.key("max_fragment_cores");
  w.integer(inventory.max_fragment_cores);
  w.key("nodes");
  w.begin_array();
  for (const Node& n : inventory.nodes) write_node(w, n);
  w.end_array();
  w.end_object();
  w.finish();
}

}  // namespace

std::string render_inventory(const Inventory& inventory, OutputFormat format) {
  std::string out;
  out.reserve(256 + inventory.nodes.size() * 400);
  append_document(out, format, [&](auto& w) { write_inventory(w, inventory); });
  return out;
}

}  // namespace eruplan
