// Memory in memory mode (cpu_bind false), SPEC §4: floor(available memory /
// memory per instance); memory is never oversold. With cpu_bind the core
// plans carry memory themselves (NUMA memory included), see cpu_plans.cpp.
#include "capacity.h"

namespace eruplan {

DimensionResult memory_dimension(const DimensionInput& in) {
  if (in.request.cpu_bind) return {};
  return divide_bytes("memory", in.node.memory - in.node.memory_used, in.request.memory);
}

}  // namespace eruplan
