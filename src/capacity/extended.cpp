// Extended resources, SPEC §8.1: each one the request asks for is one more
// dimension, floor((total - used) / per instance); a node without it has 0.
#include "capacity.h"

namespace eruplan {

namespace {

// One extended resource's own dimension.
DimensionResult one_extended(const Node& node, const std::string& name, std::int64_t per_instance) {
  const ExtendedResource* e = node.find_extended(name);
  return divide(name.c_str(), Quantity::Count, e ? e->total - e->used : 0, per_instance);
}

}  // namespace

DimensionResult extended_dimension(const DimensionInput& in) {
  DimensionResult result;
  for (const auto& [name, per_instance] : in.request.extended) {
    DimensionResult one = one_extended(in.node, name, per_instance);
    result.capacity = std::min(result.capacity, one.capacity);
    for (Reason& r : one.reasons) result.reasons.push_back(std::move(r));
  }
  return result;
}

void extended_full_kinds(const DimensionInput& in, std::int64_t cap,
                         std::vector<std::string>& kinds) {
  for (const auto& [name, per_instance] : in.request.extended)
    if (per_instance > 0 && one_extended(in.node, name, per_instance).capacity == cap)
      kinds.push_back(name);
}

}  // namespace eruplan
