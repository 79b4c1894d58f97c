// The capacity pass (SPEC §4, §8): for every node the filter keeps, the
// minimum over the dimensions of kDimensions (capacity.h), the plans of the binding
// dimensions paired up, the structured reasons of the dimensions that stop
// it, and the usage/rate the global and drained strategies weigh.
#include "capacity.h"

#include <algorithm>
#include <numeric>

#include "wide.h"

namespace eruplan {

namespace {

struct Weighted {
  double usage = 0, rate = 0, weight = 0;
  void add(double u, double r, double w) {
    usage += u * w;
    rate += r * w;
    weight += w;
  }
  void ratio(i128 used, i128 asked, i128 size, double w) {
    if (size <= 0) return;
    const double s = static_cast<double>(size);
    add(static_cast<double>(used) / s, static_cast<double>(asked) / s, w);
  }
};

// SPEC §4 "Usage and rate": memory mode weighs memory (1), CPU-bind mode
// weighs CPU (100); storage, volumes and each extended resource (§8.1) add
// weight 1 each when requested. Sums of sizes are exact (128-bit).
void usage_and_rate(const Node& node, const Request& request, NodeCapacity& out) {
  Weighted w;
  if (request.cpu_bind) {
    if (node.core_count() > 0) {
      const double cores = static_cast<double>(node.core_count());
      w.add(static_cast<double>(node.cpu_used) / kNanoPerCore / cores,
            static_cast<double>(request.cpu) / kNanoPerCore / cores, 100);
    }
  } else {
    w.ratio(node.memory_used, request.memory, node.memory, 1);
  }
  if (request.storage > 0) w.ratio(node.storage_used, request.storage, node.storage, 1);
  if (request.binds_volumes()) {
    i128 size = 0, used = 0, asked = 0;
    for (const Device& d : node.devices) size += d.size, used += d.used;
    for (const VolumeRequest& v : request.volumes)
      if (v.scheduled()) asked += v.size;
    w.ratio(used, asked, size, 1);
  }
  for (const auto& [name, per_instance] : request.extended) {
    if (per_instance <= 0) continue;
    if (const ExtendedResource* e = node.find_extended(name))
      w.ratio(e->used, per_instance, e->total, 1);
  }
  if (w.weight > 0) {
    out.usage = w.usage / w.weight;
    out.rate = w.rate / w.weight;
  }
}

// Plan i of a node pairs the i-th plan of each binding dimension; a
// dimension with one shared plan (unlimited) lends it to every instance.
std::vector<Plan> pair_plans(const std::vector<const DimensionResult*>& binding,
                             std::int64_t count) {
  std::vector<Plan> plans;
  plans.reserve(static_cast<size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    Plan plan;
    for (const DimensionResult* d : binding) {
      const Plan& p = d->plans[std::min<size_t>(static_cast<size_t>(i), d->plans.size() - 1)];
      plan.cpu.insert(plan.cpu.end(), p.cpu.begin(), p.cpu.end());
      if (p.numa >= 0) plan.numa = p.numa;
      plan.volumes.insert(plan.volumes.end(), p.volumes.begin(), p.volumes.end());
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

int kind_rank(std::string_view kind) {
  static constexpr std::string_view kFixed[] = {"not available", "taint",   "cpu",
                                                "memory",        "storage", "volumes"};
  for (int i = 0; i < 6; ++i)
    if (kind == kFixed[i]) return i;
  return kind == "instances" ? 7 : 6;
}

}  // namespace

DimensionResult divide(const char* what, Quantity unit, std::int64_t available,
                       std::int64_t per_instance) {
  DimensionResult result;
  if (per_instance <= 0) return result;  // nothing asked: no limit
  // kUnlimited means "no limit": a finite count never takes its value.
  result.capacity = std::min(std::max<std::int64_t>(available, 0) / per_instance, kUnlimited - 1);
  if (result.capacity == 0)
    result.reasons.push_back(
        Reason::amounts(what, unit, std::max<std::int64_t>(available, 0), per_instance));
  return result;
}

std::string format_reason(const Reason& r) {
  if (r.dimension == "not available") return r.dimension;
  std::string out = r.dimension + ": ";
  if (!r.detail.empty()) return out + r.detail;
  const auto amount = [&](std::int64_t v) {
    switch (r.unit) {
      case Quantity::Bytes:
        return format_bytes(v);
      case Quantity::Cores:
        return format_cores(v);
      case Quantity::Count:
        break;
    }
    return std::to_string(v);
  };
  return out + amount(r.available) + " available, " + amount(r.per_instance) + " per instance";
}

std::string format_reasons(const std::vector<Reason>& reasons) {
  std::string out;
  for (const Reason& r : reasons) {
    if (!out.empty()) out += "; ";
    out += format_reason(r);
  }
  return out;
}

bool reason_kind_less(std::string_view a, std::string_view b) {
  const int ra = kind_rank(a), rb = kind_rank(b);
  return ra != rb ? ra < rb : a < b;
}

std::vector<std::string> reason_kinds(const std::vector<Reason>& reasons) {
  std::vector<std::string> kinds;
  for (const Reason& r : reasons) kinds.push_back(r.dimension);
  std::sort(kinds.begin(), kinds.end(), reason_kind_less);
  kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
  return kinds;
}

namespace {

// A Kubernetes pod that tolerates node.kubernetes.io/unschedulable:NoSchedule
// (a DaemonSet's do) may go to a cordoned node, as kube-scheduler's
// NodeUnschedulable filter lets it; an eruplan request never does.
bool tolerates_cordon(const Request& request) {
  if (!request.pod) return false;
  const Taint cordon{"node.kubernetes.io/unschedulable", "", "NoSchedule"};
  return std::any_of(request.tolerations.begin(), request.tolerations.end(),
                     [&](const Toleration& t) { return t.tolerates(cordon); });
}

}  // namespace

NodeCapacity node_capacity(const Inventory& inventory, const Request& request, std::uint32_t index,
                           const CapacityOptions& options) {
  const Node& node = inventory.nodes[index];
  NodeCapacity out;
  out.node = index;
  out.revision = node.revision;
  out.existing = existing_instances(node, index, request);
  usage_and_rate(node, request, out);
  if (!node.available && !tolerates_cordon(request)) {
    out.capacity = 0;
    out.reasons.push_back(Reason::words("not available", {}));
    return out;
  }

  const DimensionInput input{inventory, node, request, options.max_plans, options.core_fit};
  std::vector<DimensionResult> results;
  results.reserve(std::size(kDimensions));
  out.capacity = kUnlimited;
  for (const DimensionRow& dimension : kDimensions) {
    results.push_back(dimension.capacity(input));
    out.capacity = std::min(out.capacity, results.back().capacity);
  }
  if (options.core_fit != nullptr) out.capacity = std::min<std::int64_t>(out.capacity, 1);
  if (out.capacity == 0) {
    for (DimensionResult& d : results)
      if (d.capacity == 0)
        for (Reason& r : d.reasons) out.reasons.push_back(std::move(r));
    return out;
  }
  if (options.core_fit != nullptr) return out;  // plans not asked for
  std::vector<const DimensionResult*> binding;
  for (const DimensionResult& d : results)
    if (d.binds) binding.push_back(&d);
  if (!binding.empty()) {
    const std::int64_t shown =
        out.capacity == kUnlimited ? 1 : std::min(out.capacity, options.max_plans);
    const bool have_plans = std::all_of(binding.begin(), binding.end(),
                                        [](const DimensionResult* d) { return !d->plans.empty(); });
    if (have_plans && shown > 0) out.plans = pair_plans(binding, shown);
  }
  return out;
}

void add_capacity(std::int64_t& total, std::int64_t capacity) {
  if (total == kUnlimited || capacity == kUnlimited)
    total = kUnlimited;
  else if (__builtin_add_overflow(total, capacity, &total))
    total = kUnlimited - 1;  // a finite total too large to count: saturate
}

std::vector<std::uint32_t> filtered_nodes(const Inventory& inventory, const NodeFilter& filter) {
  std::vector<std::uint32_t> order;
  order.reserve(inventory.nodes.size());
  const NodeFilterIndex index(filter);
  for (std::uint32_t i = 0; i < inventory.nodes.size(); ++i)
    if (index.accepts(inventory.nodes[i])) order.push_back(i);
  auto by_name = [&](std::uint32_t a, std::uint32_t b) {
    return inventory.nodes[a].name < inventory.nodes[b].name;
  };
  if (std::is_sorted(order.begin(), order.end(), by_name)) return order;
  // Sorted on each name's first 8 bytes as one big-endian number (zeros
  // past its end), which orders as the bytes do and decides most
  // comparisons; equal keys fall back to the names. By hand because the
  // sort of names was a fifth of grow's time (it sorts its copies for every
  // count it tries), most of it in memcmp.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;
  keyed.reserve(order.size());
  for (const std::uint32_t i : order) {
    const std::string& name = inventory.nodes[i].name;
    std::uint64_t key = 0;
    for (std::size_t b = 0; b < 8; ++b)
      key = key << 8 | (b < name.size() ? static_cast<unsigned char>(name[b]) : 0U);
    keyed.emplace_back(key, i);
  }
  std::sort(keyed.begin(), keyed.end(), [&](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : by_name(a.second, b.second);
  });
  for (std::size_t k = 0; k < keyed.size(); ++k) order[k] = keyed[k].second;
  return order;
}

bool binds_anything(const Request& request) { return request.cpu_bind || request.binds_volumes(); }

std::int64_t plan_weight(const Request& request) {
  const NanoCores per = kPlanCoresPerWeight * kNanoPerCore;
  std::int64_t weight = request.cpu_bind ? (request.cpu + per - 1) / per : 0;
  for (const VolumeRequest& v : request.volumes) weight += v.scheduled() ? 1 : 0;
  return std::max<std::int64_t>(1, weight);
}

std::string too_many_bound(const Request& request, std::int64_t n, std::int64_t budget,
                           std::int64_t listed) {
  const std::int64_t weight = plan_weight(request);
  if (listed > 0 && n <= budget / weight && listed > budget - n * weight)
    return "too large: " + std::to_string(n) +
           " new instances that bind CPUs on nodes given as a core count, whose cores are then "
           "kept one by one: about " +
           std::to_string(listed * kListedCoresPerPlan) + " cores, counting as " +
           std::to_string(listed) + " plans (one per " + std::to_string(kListedCoresPerPlan) +
           "); at most " + std::to_string(budget) +
           " plans for this input (4096, or one per 4 bytes of input); ask for fewer";
  const std::string counted = weight > 1 ? ", each of these counting " + std::to_string(weight) +
                                               " times: once per 2 cores and per volume it binds"
                                         : "";
  return "too large: " + std::to_string(n) +
         " new instances that bind CPUs or volumes, each with a plan of its own; at most " +
         std::to_string(budget / weight) + " for this input (4096, or one per 4 bytes of input" +
         counted + "); ask for fewer";
}

std::int64_t heaviest_plan(const std::vector<Request>& requests) {
  std::int64_t most = 1;
  for (const Request& r : requests) most = std::max(most, plan_weight(r));
  return most;
}

CapacityMap capacity_pass(const Inventory& inventory, const Request& request,
                          const CapacityOptions& options) {
  const std::vector<std::uint32_t> order = filtered_nodes(inventory, request.filter);
  CapacityMap map;
  map.binds = binds_anything(request);
  map.nodes.resize(order.size());
  parallel_for(order.size(), options.jobs, [&](std::size_t i) {
    map.nodes[i] = node_capacity(inventory, request, order[i], options);
  });
  for (const NodeCapacity& n : map.nodes) add_capacity(map.total, n.capacity);
  return map;
}

}  // namespace eruplan
