// Storage, SPEC §4: floor(available storage / storage per instance).
#include "capacity.h"

namespace eruplan {

DimensionResult storage_dimension(const Node& node, const Request& request) {
  DimensionResult result;
  if (request.storage == 0) return result;  // nothing to limit
  const Bytes available = node.storage - node.storage_used;
  result.capacity = available / request.storage;
  if (result.capacity == 0)
    result.reason = "storage: " + format_bytes(available) + " available, " +
                    format_bytes(request.storage) + " per instance";
  return result;
}

}  // namespace eruplan
