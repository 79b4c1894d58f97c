// Extended resources, SPEC §8.1: each one the request asks for is one more
// dimension, floor((total - used) / per instance); a node without it has 0.
#include "capacity.h"

namespace eruplan {

DimensionResult extended_dimension(const DimensionInput& in) {
  DimensionResult result;
  for (const auto& [name, per_instance] : in.request.extended) {
    const ExtendedResource* e = in.node.find_extended(name);
    DimensionResult one =
        divide(name.c_str(), Quantity::Count, e ? e->total - e->used : 0, per_instance);
    result.capacity = std::min(result.capacity, one.capacity);
    for (Reason& r : one.reasons) result.reasons.push_back(std::move(r));
  }
  return result;
}

}  // namespace eruplan
