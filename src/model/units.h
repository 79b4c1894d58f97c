// Human-readable quantities for reasons and tables (units.cpp), usable by
// the loaders without the capacity pass.
#pragma once

#include <string>

#include "model.h"

namespace eruplan {

// Exact byte sizes: 314572800 -> "300Mi", 1500 -> "1500" (the shortest exact
// spelling with one suffix, else plain bytes).
std::string format_bytes(Bytes bytes);
// 1500000000 nanocores -> "1.5"
std::string format_cores(NanoCores cpu);

}  // namespace eruplan
