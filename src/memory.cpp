// Memory mode (cpu_bind false), SPEC §4: the CPU request is a soft limit, so
// it only has to fit the node's core count; memory is never oversold.
#include "capacity.h"

namespace eruplan {

DimensionResult memory_dimension(const Node& node, const Request& request) {
  DimensionResult result;
  const NanoCores node_cores = static_cast<NanoCores>(node.cores.size()) * kNanoPerCore;
  if (request.cpu > node_cores) {
    result.capacity = 0;
    result.reason = "cpu: " + format_cores(request.cpu) + " cores per instance, node has " +
                    std::to_string(node.cores.size()) + " cores";
    return result;
  }
  if (request.memory == 0) return result;  // nothing to limit
  const Bytes available = node.memory - node.memory_used;
  result.capacity = available / request.memory;
  if (result.capacity == 0)
    result.reason = "memory: " + format_bytes(available) + " available, " +
                    format_bytes(request.memory) + " per instance";
  return result;
}

}  // namespace eruplan
