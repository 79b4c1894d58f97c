// Storage, SPEC §4: floor(available storage / storage per instance).
#include "capacity.h"

namespace eruplan {

DimensionResult storage_dimension(const Node& node, const Request& request) {
  return divide_bytes("storage", node.storage - node.storage_used, request.storage);
}

}  // namespace eruplan
