// The inventory as a document in the schema of SPEC §2 (§8.3): what `apply`
// prints and --save-inventory writes.
#pragma once

#include <string>

#include "model.h"
#include "render.h"

namespace eruplan {

// How sizes and CPU amounts are written: Bytes (sizes in bytes, CPU in
// cores: 8589934592, 1.5) or Human (8Gi, 1500m where exact, else as Bytes).
enum class Units { Bytes, Human };
// --units' default: human for YAML, bytes for JSON.
inline Units default_units(OutputFormat format) {
  return format == OutputFormat::Yaml ? Units::Human : Units::Bytes;
}

// It reads back as the same state: every usage field written out (0 or {}
// where nothing is used), nodes in input order.
std::string render_inventory(const Inventory& inventory, OutputFormat format, Units units);

}  // namespace eruplan
