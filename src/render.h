// Rendering (SPEC §6): the CapacityMap, PlanMap and DeployMap as a table for
// a person, or as one JSON/YAML document for a script. Pure: returns text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "capacity.h"
#include "model.h"

namespace eruplan {

enum class OutputFormat { Table, Json, Yaml };
enum class PlansShown { All, Assigned, None };

struct Report {
  const Inventory& inventory;
  const Request& request;
  const CapacityMap& capacity;
  // For `plan`: new instances per node, parallel to capacity.nodes. Absent
  // for `capacity`.
  const std::vector<std::int64_t>* deploy = nullptr;
  PlansShown plans = PlansShown::All;
};

std::string render(const Report& report, OutputFormat format);

// The normalised request as SPEC §6 "request" (sizes in bytes).
std::string render_request_json(const Request& request);

}  // namespace eruplan
