// max_instances, SPEC §8.1 (Kubernetes' pods): instances of all apps
// together; capacity is what is left, 0 when already over.
#include "capacity.h"

namespace eruplan {

DimensionResult instances_dimension(const DimensionInput& in) {
  DimensionResult result;
  const Node& node = in.node;
  if (node.max_instances < 0) return result;
  const std::int64_t running = node.instances_total();
  result.capacity =
      std::min(std::max<std::int64_t>(node.max_instances - running, 0), kUnlimited - 1);
  if (result.capacity == 0)
    result.reasons.push_back(Reason::words(
        "instances",
        std::to_string(running) + " running, at most " + std::to_string(node.max_instances)));
  return result;
}

}  // namespace eruplan
