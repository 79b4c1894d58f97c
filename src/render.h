// Rendering (SPEC §6): the CapacityMap, PlanMap and DeployMap as a table for
// a person, or as one JSON/YAML document for a script. Pure: returns text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "capacity.h"
#include "model.h"
#include "requests.h"

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
  // Part II: the request's outcome (status, placed, reason, scores); null for
  // `capacity`. `entry`: one entry of a requests: list (adds name, status,
  // placed and reason); else status and placed appear only with min_count.
  const RequestOutcome* outcome = nullptr;
  bool entry = false;
};

std::string render(const Report& report, OutputFormat format);

// SPEC §8.4: the document of several requests from their entries, each
// rendered alone by render() with Report::entry set, in file order.
// `summary` (plan, apply) counts the statuses; `error` (exit 4) is the §13
// member, already rendered alone as a document, or empty.
struct RequestCounts {
  std::int64_t placed = 0, partial = 0, rejected = 0, satisfied = 0;
};
std::string render_request_list(const std::vector<std::string>& entries, OutputFormat format,
                                const RequestCounts* summary, const std::string& error);

// The normalised request as SPEC §6 "request" (sizes in bytes).
std::string render_request_json(const Request& request);

}  // namespace eruplan
