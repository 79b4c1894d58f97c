// Selectors that match no node: a request's node_filter.labels entry (or
// --label, or a manifest's nodeSelector entry) and a required node affinity
// term that no node of the inventory satisfies are most likely typos. Each
// gets a warning where it was written, naming the nearest existing key or
// value ("no node has pool=genral; did you mean pool=general (12 nodes)?").
#pragma once

#include <cstdint>

#include "diagnostics.h"
#include "model.h"

namespace eruplan {

// The "did you mean" search is bounded (selector_hints.cpp): requests
// checked against one inventory share `budget` when given.
struct HintBudget {
  std::int64_t cells = -1;  // left; -1 until the first search sets it
};
void warn_unmatched_selectors(const Inventory& inventory, const Request& request,
                              Diagnostics& diags, HintBudget* budget = nullptr);

}  // namespace eruplan
