// Memory mode (cpu_bind false), SPEC §4: the CPU request is a soft limit, so
// it only has to fit the node's core count; memory is never oversold.
#include <algorithm>

#include "capacity.h"

namespace eruplan {

DimensionResult divide_bytes(const char* what, Bytes available, Bytes per_instance) {
  DimensionResult result;
  if (per_instance == 0) return result;  // nothing asked: no limit
  // kUnlimited means "no limit": a finite count never takes its value.
  result.capacity = std::min(available / per_instance, kUnlimited - 1);
  if (result.capacity == 0)
    result.reason = std::string(what) + ": " + format_bytes(available) + " available, " +
                    format_bytes(per_instance) + " per instance";
  return result;
}

DimensionResult memory_dimension(const Node& node, const Request& request) {
  DimensionResult result = divide_bytes("memory", node.memory - node.memory_used, request.memory);
  const std::size_t cores = node.core_count();
  if (request.cpu > static_cast<NanoCores>(cores) * kNanoPerCore) {
    // Both limits go into the reason when both stop the node.
    std::string cpu = "cpu: " + format_cores(request.cpu) + " cores per instance, node has " +
                      std::to_string(cores) + (cores == 1 ? " core" : " cores");
    result.reason = result.capacity == 0 ? cpu + "; " + result.reason : cpu;
    result.capacity = 0;
  }
  return result;
}

}  // namespace eruplan
