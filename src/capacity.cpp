// The capacity pass (SPEC §4): for every node the filter keeps, the minimum
// over the dimensions the request uses, the plans of the binding dimensions
// paired up, and the usage/rate the global and drained strategies weigh.
#include "capacity.h"

#include <algorithm>
#include <numeric>

namespace eruplan {

namespace {

struct Weighted {
  double usage = 0, rate = 0, weight = 0;
  void add(double u, double r, double w) {
    usage += u * w;
    rate += r * w;
    weight += w;
  }
};

// SPEC §4 "Usage and rate": memory mode weighs memory (1), CPU-bind mode
// weighs CPU (100); storage and volumes add weight 1 each when requested.
void usage_and_rate(const Node& node, const Request& request, NodeCapacity& out) {
  Weighted w;
  if (request.cpu_bind) {
    if (node.core_count() > 0) {
      const double cores = static_cast<double>(node.core_count());
      w.add(static_cast<double>(node.cpu_used) / kNanoPerCore / cores,
            static_cast<double>(request.cpu) / kNanoPerCore / cores, 100);
    }
  } else if (node.memory > 0) {
    const double memory = static_cast<double>(node.memory);
    w.add(node.memory_used / memory, request.memory / memory, 1);
  }
  if (request.storage > 0 && node.storage > 0) {
    const double storage = static_cast<double>(node.storage);
    w.add(node.storage_used / storage, request.storage / storage, 1);
  }
  if (request.binds_volumes()) {
    Bytes size = 0, used = 0, asked = 0;
    for (const Device& d : node.devices) size += d.size, used += d.used;
    for (const VolumeRequest& v : request.volumes)
      if (v.scheduled()) asked += v.size;
    if (size > 0)
      w.add(static_cast<double>(used) / size, static_cast<double>(asked) / size, 1);
  }
  if (w.weight > 0) {
    out.usage = w.usage / w.weight;
    out.rate = w.rate / w.weight;
  }
}

// Plan i of a node pairs the i-th plan of each binding dimension; a
// dimension with one shared plan (unlimited) lends it to every instance.
std::vector<Plan> pair_plans(const DimensionResult& cpu, const DimensionResult& volumes,
                             std::int64_t count) {
  std::vector<Plan> plans;
  plans.reserve(static_cast<size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    Plan plan;
    if (cpu.binds) {
      const Plan& p = cpu.plans[std::min<size_t>(i, cpu.plans.size() - 1)];
      plan.cpu = p.cpu;
      plan.numa = p.numa;
    }
    if (volumes.binds) plan.volumes = volumes.plans[std::min<size_t>(i, volumes.plans.size() - 1)].volumes;
    plans.push_back(std::move(plan));
  }
  return plans;
}

}  // namespace

NodeCapacity node_capacity(const Inventory& inventory, const Request& request,
                           std::uint32_t index, const CapacityOptions& options) {
  const Node& node = inventory.nodes[index];
  NodeCapacity out;
  out.node = index;
  out.existing = node.instances_of(request.app);
  usage_and_rate(node, request, out);
  if (!node.available) {
    out.capacity = 0;
    out.reason = "not available";
    return out;
  }

  DimensionResult cpu = request.cpu_bind ? cpu_dimension(node, inventory, request, options.max_plans)
                                         : memory_dimension(node, request);
  if (request.cpu_bind) cpu.capacity = std::min(cpu.capacity, kUnlimited - 1);  // always finite
  DimensionResult storage = storage_dimension(node, request);
  DimensionResult volumes = volume_dimension(node, request, options.max_plans);

  out.capacity = std::min({cpu.capacity, storage.capacity, volumes.capacity});
  if (out.capacity == 0) {
    for (const DimensionResult* d : {&cpu, &storage, &volumes}) {
      if (d->capacity != 0) continue;
      if (!out.reason.empty()) out.reason += "; ";
      out.reason += d->reason;
    }
    return out;
  }
  if (cpu.binds || volumes.binds) {
    const std::int64_t shown =
        out.capacity == kUnlimited ? 1 : std::min(out.capacity, options.max_plans);
    const bool have_plans = (!cpu.binds || !cpu.plans.empty()) && (!volumes.binds || !volumes.plans.empty());
    if (have_plans) out.plans = pair_plans(cpu, volumes, shown);
  }
  return out;
}

CapacityMap capacity_pass(const Inventory& inventory, const Request& request,
                          const CapacityOptions& options) {
  std::vector<std::uint32_t> order;
  order.reserve(inventory.nodes.size());
  for (std::uint32_t i = 0; i < inventory.nodes.size(); ++i)
    if (request.filter.accepts(inventory.nodes[i])) order.push_back(i);
  auto by_name = [&](std::uint32_t a, std::uint32_t b) {
    return inventory.nodes[a].name < inventory.nodes[b].name;
  };
  if (!std::is_sorted(order.begin(), order.end(), by_name))
    std::sort(order.begin(), order.end(), by_name);

  CapacityMap map;
  map.binds = request.cpu_bind || request.binds_volumes();
  map.nodes.reserve(order.size());
  for (std::uint32_t index : order) {
    map.nodes.push_back(node_capacity(inventory, request, index, options));
    const std::int64_t c = map.nodes.back().capacity;
    if (map.total == kUnlimited || c == kUnlimited)
      map.total = kUnlimited;
    else if (__builtin_add_overflow(map.total, c, &map.total))
      map.total = kUnlimited - 1;  // a finite total too large to count: saturate
  }
  return map;
}

}  // namespace eruplan
