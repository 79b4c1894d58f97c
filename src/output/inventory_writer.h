// The inventory as a document in the schema of SPEC §2 (§8.3): what `apply`
// prints and --save-inventory writes.
#pragma once

#include <string>

#include "model.h"
#include "render.h"

namespace eruplan {

// It reads back as the same state: sizes in bytes, CPU in cores, every usage
// field written out (0 or {} where nothing is used), nodes in input order.
std::string render_inventory(const Inventory& inventory, OutputFormat format);

}  // namespace eruplan
