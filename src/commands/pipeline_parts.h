// The plan pipeline's texts (pipeline_text.cpp), private to src/commands.
#pragma once

#include <string>
#include <vector>

#include "explain.h"
#include "pipeline.h"

namespace eruplan::pipeline_parts {

// "valid: 4 nodes (1 not available), 32 cores, 128Gi memory", or for -o
// json/yaml the same facts as a document.
std::string validate_summary(const Inventory& inventory, const Request* request,
                             OutputFormat format);
// Each node's capacity, or its reason when 0 (those first past a screenful).
std::string zero_capacity_reasons(const Inventory& inventory, const CapacityMap& map);
// --explain's lines for stderr.
std::string explain_text(const std::vector<ExplainLine>& lines);
// Where the per-node plan list was cut short.
std::string plan_cut_warnings(const Inventory& inventory, const CapacityMap& map, PlansShown shown);
// The report's outcome of several requests: the counts, then each request.
ReportOutcome list_outcome(const RequestCounts& counts, std::size_t n,
                           const std::vector<std::string>& lines);

}  // namespace eruplan::pipeline_parts
