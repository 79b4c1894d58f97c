// Rendering choices SPEC §6 and §13 leave open:
// - Past kTableNodes nodes (without --all-nodes) the node table keeps the
//   nodes with new instances or a reason, in name order, and counts the rest
//   in one line; the totals still cover every node.
// - --explain adds an "explain:" section after the node table, every node.
// - request.count is null when not given (0), so every command has the same keys.
// - --plans assigned: the PlanMap of the nodes receiving instances, cut to their
//   first k plans (an unlimited node's one shared plan once); for `capacity`,
//   which assigns nothing, the same as none. "assignments" ignore --plans.
// - Table: `plan` lists every new instance's bindings; `capacity` (with
//   --plans all) summarises each node's plans, the first 3 and "... N more",
//   since the full PlanMap belongs in JSON/YAML. Names with invisible
//   characters are shown JSON-quoted; columns count display cells.
#include "render.h"

#include "render_parts.h"

namespace eruplan {

using namespace render_parts;

std::string render(const Report& report, OutputFormat format) {
  std::string out;
  render_into(out, report, format);
  return out;
}

void render_into(std::string& out, const Report& report, OutputFormat format,
                 std::size_t json_levels) {
  if (format == OutputFormat::Table) {
    append_table(out, report);
    return;
  }
  make_room(out, estimated_size(report));
  if (format == OutputFormat::Json) {
    JsonWriter w(out, json_levels);
    write_document(w, report);
    if (json_levels > 0) out.pop_back();  // finish()'s newline
  } else {
    YamlWriter w(out);
    write_document(w, report);
  }
}

}  // namespace eruplan
