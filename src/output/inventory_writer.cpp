// The inventory as a document in the schema of SPEC §2 (§8.3): what `apply`
// prints and --save-inventory writes. It reads back as the same state:
// sizes in bytes and CPU in cores, or exact short units (8Gi, 1500m) with
// Units::Human; every usage field written out (0 or {} where
// nothing is used), nodes in input order.
#include "inventory_writer.h"

#include <optional>
#include <type_traits>

#include "json_writer.h"
#include "units.h"

namespace eruplan {

namespace {

// Whether write_parts writes the parts whose value is 0: the usage maps
// leave them out.
enum class Zeros { Write, Leave };

// "8Gi" as YAML writes it by hand (plain), or a JSON string.
template <class W>
void write_unit(W& w, const std::string& text) {
  if constexpr (std::is_same_v<W, YamlWriter>)
    w.number(text);
  else
    w.string(text);
}

// A size: bytes, or with Units::Human its exact short spelling (8Gi).
template <class W>
void write_bytes(W& w, Bytes bytes, Units units) {
  if (units == Units::Human) {
    const std::string text = format_bytes(bytes);
    if (text.find_first_not_of("0123456789-") != std::string::npos) return write_unit(w, text);
  }
  w.integer(bytes);
}

// A CPU amount: cores (1.5), or with Units::Human millicores where a whole
// number of them and not whole cores (1500m).
template <class W>
void write_cpu(W& w, NanoCores cpu, Units units) {
  constexpr NanoCores kMilli = 1'000'000, kCore = 1'000'000'000;
  if (units == Units::Human && cpu % kCore != 0 && cpu % kMilli == 0)
    return write_unit(w, std::to_string(cpu / kMilli) + "m");
  w.number(format_cores(cpu));
}

// A node's parts (cores, NUMA nodes, devices, extended resources) as one
// mapping, name -> an integer member, in the node's order.
// Byte-valued parts (NUMA memory, volumes) pass `sizes`: written as sizes.
template <class W, class Part>
void write_parts(W& w, const SparseList<Part>& parts, const std::string Part::*name,
                 const std::int64_t Part::*value, Zeros zeros,
                 std::optional<Units> sizes = std::nullopt) {
  w.begin_object();
  for (const Part& part : parts) {
    if (zeros == Zeros::Leave && part.*value == 0) continue;
    w.key(part.*name);
    if (sizes)
      write_bytes(w, part.*value, *sizes);
    else
      w.integer(part.*value);
  }
  w.end_object();
}

// A node's listed cores as one mapping, core id -> `value`, in core order.
template <class W>
void write_cores(W& w, const Node& n, const Pieces Core::*value, Zeros zeros) {
  w.begin_object();
  for (std::size_t i = 0; i < n.cores.size(); ++i) {
    if (zeros == Zeros::Leave && n.cores[i].*value == 0) continue;
    w.key(n.core_id(i));
    w.integer(n.cores[i].*value);
  }
  w.end_object();
}

// storage:, volumes: and extended: of a node: its totals, or with `used`
// what is in use (the maps then leave out the parts that use nothing).
template <class W>
void write_storage_and_extended(W& w, const Node& n, bool used, Units u) {
  const Zeros zeros = used ? Zeros::Leave : Zeros::Write;
  w.key("storage");
  write_bytes(w, used ? n.storage_used : n.storage, u);
  w.key("volumes");
  write_parts(w, n.devices, &Device::name, used ? &Device::used : &Device::size, zeros, u);
  w.key("extended");
  write_parts(w, n.extended, &ExtendedResource::name,
              used ? &ExtendedResource::used : &ExtendedResource::total, zeros);
}

// SPEC §11's running workloads, normalised; cpu_map only when bound.
template <class W>
void write_workloads(W& w, const Node& n, Units u) {
  if (n.workloads.empty()) return;
  w.key("workloads");
  write_objects(w, n.workloads, [&](const Workload& wl) {
    w.field("id", wl.id);
    w.field("app", wl.app);
    w.key("cpu");
    write_cpu(w, wl.cpu, u);
    w.key("cpu_limit");
    write_cpu(w, wl.cpu_limit, u);
    w.key("memory");
    write_bytes(w, wl.memory, u);
    w.key("memory_limit");
    write_bytes(w, wl.memory_limit, u);
    if (!wl.cpu_map.empty()) {
      w.key("cpu_map");
      write_mapping(w, wl.cpu_map);
    }
    if (wl.numa >= 0) {
      w.field("numa_node", n.numa_nodes[static_cast<std::size_t>(wl.numa)].id);
    }
    if (wl.priority != 0) {
      w.field("priority", wl.priority);
    }
  });
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
      w.field("memory", r.memory);
    }
    for (const auto& [name, amount] : r.extended) {
      w.field(name, amount);
    }
    if (r.storage != 0) {
      w.field("storage", r.storage);
    }
    w.end_object();
  }
  w.end_object();
}

template <class W>
void write_node(W& w, const Node& n, Units u) {
  w.begin_object();
  w.field("name", n.name);
  w.key("labels");
  write_mapping(w, n.labels);
  w.key("available");
  w.boolean(n.available);
  if (n.cpu_given >= 0) {
    w.key("cpu");
    write_cpu(w, n.cpu_given, u);
  } else if (!n.cores.empty()) {
    w.key("cpu_map");
    write_cores(w, n, &Core::capacity, Zeros::Write);
  }
  w.key("memory");
  write_bytes(w, n.memory, u);
  if (!n.numa_nodes.empty()) {
    w.key("numa");
    w.begin_object();
    for (std::size_t i = 0; i < n.cores.size(); ++i) {
      const int numa = n.cores[i].numa;
      if (numa >= 0) w.field(n.core_id(i), n.numa_nodes[static_cast<std::size_t>(numa)].id);
    }
    w.end_object();
    w.key("numa_memory");
    write_parts(w, n.numa_nodes, &NumaNode::id, &NumaNode::memory, Zeros::Write, u);
  }
  write_storage_and_extended(w, n, false, u);
  if (n.max_instances >= 0) {
    w.field("max_instances", n.max_instances);
  }
  if (!n.taints.empty()) {
    w.key("taints");
    write_objects(w, n.taints, [&](const Taint& t) {
      w.field("key", t.key);
      if (!t.value.empty()) {
        w.field("value", t.value);
      }
      w.field("effect", t.effect);
    });
  }

  w.key("usage");
  w.begin_object();
  w.key("cpu");
  write_cpu(w, n.cpu_used, u);
  w.key("cpu_map");
  write_cores(w, n, &Core::used, Zeros::Leave);
  w.key("memory");
  write_bytes(w, n.memory_used, u);
  w.key("numa_memory");
  write_parts(w, n.numa_nodes, &NumaNode::id, &NumaNode::used, Zeros::Leave, u);
  write_storage_and_extended(w, n, true, u);
  w.end_object();

  w.key("instances");
  write_mapping(w, n.instances);
  write_workloads(w, n, u);
  write_reservations(w, n);
  w.end_object();
}

template <class W>
void write_inventory(W& w, const Inventory& inventory, Units units) {
  w.begin_object();
  w.field("share_base", inventory.share_base);
  w.field("max_fragment_cores", inventory.max_fragment_cores);
  w.key("nodes");
  w.begin_array();
  for (const Node& n : inventory.nodes) write_node(w, n, units);
  w.end_array();
  w.end_object();
  w.finish();
}

}  // namespace

std::string render_inventory(const Inventory& inventory, OutputFormat format, Units units) {
  std::string out;
  out.reserve(256 + inventory.nodes.size() * 400);
  append_document(out, format, [&](auto& w) { write_inventory(w, inventory, units); });
  return out;
}

}  // namespace eruplan
