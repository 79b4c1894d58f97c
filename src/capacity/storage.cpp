// Storage, SPEC §4: floor(available storage / storage per instance).
#include "capacity.h"

namespace eruplan {

DimensionResult storage_dimension(const DimensionInput& in) {
  return divide_bytes("storage", in.node.storage - in.node.storage_used, in.request.storage);
}

}  // namespace eruplan
