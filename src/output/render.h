// Rendering (SPEC §6): the CapacityMap, PlanMap and DeployMap as a table for
// a person, or as one JSON/YAML document for a script. Pure: returns text.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "capacity.h"
#include "deploy_map.h"
#include "explain.h"
#include "json_writer.h"
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
  const DeployMap* deploy = nullptr;
  PlansShown plans = PlansShown::All;
  // Part II: the request's outcome (status, placed, reason, scores); null for
  // `capacity`. `entry`: one entry of a requests: list (adds name, status,
  // placed and reason); else status and placed appear only with min_count.
  const RequestOutcome* outcome = nullptr;
  bool entry = false;
  // --explain (SPEC §13): one line per inventory node, by name; null without.
  const std::vector<ExplainLine>* explain = nullptr;
  // --all-nodes: the table lists every node, not only the first 50 and then
  // those with new instances or a reason (SPEC §13).
  bool all_nodes = false;
  // Optional: table_name_cells(inventory), for a caller rendering many
  // tables of one inventory; the table's name column is as wide as the
  // widest name of every node it counts, listed or not.
  const std::vector<std::size_t>* name_cells = nullptr;
};

std::string render(const Report& report, OutputFormat format);
// The same appended to `out`; a JSON document nested `json_levels` deep (its
// lines after the first indented by 2 x json_levels more spaces), without
// the final newline then.
void render_into(std::string& out, const Report& report, OutputFormat format,
                 std::size_t json_levels = 0);

// The table lists at most this many nodes without --all-nodes (SPEC §13).
inline constexpr std::size_t kTableNodes = 50;

// SPEC §13: a failure document's members after `error` when the capacity
// pass ran: capacity, reasons, reason_kinds, and explain with --explain;
// never deploy or assignments.
void write_failure_members(JsonWriter& w, const Report& report);
void write_failure_members(YamlWriter& w, const Report& report);

// One document in `format` (Json or Yaml; never Table) appended to `out`:
// `write(w)` is called once with a JsonWriter or a YamlWriter on `out`, so
// every document is written once, as code generic over the writer.
template <class Write>
void append_document(std::string& out, OutputFormat format, Write&& write) {
  if (format == OutputFormat::Json) {
    JsonWriter w(out);
    write(w);
  } else {
    YamlWriter w(out);
    write(w);
  }
}
template <class Write>
std::string render_document(OutputFormat format, Write&& write) {
  std::string out;
  append_document(out, format, write);
  return out;
}

// Display cells of a UTF-8 string in a terminal (utf8proc): CJK characters
// two wide, combining marks none; an invalid byte counts one.
std::size_t display_cells(std::string_view text);
// Rows laid out as columns: each line is `indent`, then every cell but the
// last padded to its column's widest cell (display cells) plus `gap`
// spaces, then the last cell. Rows may have fewer cells than others.
std::string align_columns(const std::vector<std::vector<std::string>>& rows,
                          std::string_view indent, std::size_t gap);
// `text` padded with spaces to `cells` display cells (unchanged if wider).
std::string pad_cells(std::string text, std::size_t cells);
// Per inventory node, the display cells of its name as a table shows it
// (JSON-quoted when it has invisible characters).
std::vector<std::size_t> table_name_cells(const Inventory& inventory);

// SPEC §8.4: the document of several requests from their entries, each
// rendered alone by render() with Report::entry set, in file order.
// `summary` (plan, apply) counts the statuses; `error` (exit 4) is the §13
// member, already rendered alone as a document, or empty.
struct RequestCounts {
  std::int64_t placed = 0, partial = 0, rejected = 0, satisfied = 0;

  // The count of requests whose status is `status`.
  std::int64_t& of(RequestStatus status) {
    switch (status) {
      case RequestStatus::Placed:
        return placed;
      case RequestStatus::Partial:
        return partial;
      case RequestStatus::Rejected:
        return rejected;
      case RequestStatus::Satisfied:
        break;
    }
    return satisfied;
  }
};
std::string render_request_list(const std::vector<std::string>& entries, OutputFormat format,
                                const RequestCounts* summary, const std::string& error);
// The same JSON document written as it goes: the head, then each entry after
// its separator (entry i rendered by render_into with json_levels 2), then
// the tail -- byte for byte what render_request_list writes.
inline constexpr std::string_view kJsonRequestListHead = "{\n  \"requests\": [";
inline constexpr std::size_t kJsonRequestLevels = 2;
void append_json_request_separator(std::string& out, std::size_t index);
void append_json_request_list_tail(std::string& out, bool empty, const RequestCounts* summary,
                                   const std::string& error);

// The normalised request as SPEC §6 "request" (sizes in bytes).
std::string render_request_json(const Request& request);

}  // namespace eruplan
