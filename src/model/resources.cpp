// The resource kinds' table (resources.h).
#include "resources.h"

#include <algorithm>

namespace eruplan {

const std::array<ResourceKind, 3> kResourceKinds = {{
    {"cpu", [](const Node& n) { return n.cpu_total(); }, [](const Node& n) { return n.cpu_used; },
     [](const Request& r) { return r.cpu; }, [](const Reservation& r) { return r.cpu; }},
    {"memory", [](const Node& n) { return n.memory; }, [](const Node& n) { return n.memory_used; },
     [](const Request& r) { return r.memory; }, [](const Reservation& r) { return r.memory; }},
    {"storage", [](const Node& n) { return n.storage; },
     [](const Node& n) { return n.storage_used; }, [](const Request& r) { return r.storage; },
     [](const Reservation& r) { return r.storage; }},
}};

const ResourceKind* resource_kind(std::string_view name) {
  for (const ResourceKind& k : kResourceKinds)
    if (k.name == name) return &k;
  return nullptr;
}

std::int64_t per_instance_of(const Request& request, std::string_view name) {
  if (const ResourceKind* k = resource_kind(name)) return k->per_instance(request);
  const auto it = std::lower_bound(request.extended.begin(), request.extended.end(), name,
                                   [](const auto& e, std::string_view n) { return e.first < n; });
  return it != request.extended.end() && it->first == name ? it->second : 0;
}

ResourceAmounts resource_amounts(const Node& node, const Request& request, std::string_view name) {
  if (const ResourceKind* k = resource_kind(name))
    return {k->total(node), k->used(node), k->per_instance(request), true};
  if (const ExtendedResource* e = node.find_extended(name))
    return {e->total, e->used, per_instance_of(request, name), true};
  return {0, 0, per_instance_of(request, name), false};
}

}  // namespace eruplan
