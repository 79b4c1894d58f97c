// The HTML report (SPEC §14, `--report FILE.html`): one self-contained page
// (inline CSS, no scripts, no external resources) showing, per node, the
// usage before and after as bars per resource, the new instances and the
// reasons. Pure: returns the text; the CLI writes the file.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "deploy_map.h"
#include "model.h"
#include "report_outcome.h"

namespace eruplan {

// One picture of the cluster after something was placed: a plan, or one
// strategy of `compare`.
struct ReportSection {
  std::string title;                 // "web: placed 4", "auto: feasible"
  const Inventory* after = nullptr;  // same nodes, same order as `before` (more allowed)
  InventoryDeployMap new_instances;  // of after->nodes
  std::vector<std::string> reasons;  // parallel to after->nodes; "" = none
  // Optional: the new instances of each app on the node ("A +3, B +2"),
  // parallel to after->nodes, shown before the reason.
  std::vector<std::string> by_app;
  // Optional: a table above the node rows (share: one row per app).
  std::vector<std::string> table_head;
  std::vector<std::vector<std::string>> table_rows;
  // Optional: nodes the request's node_filter leaves out (parallel to
  // after->nodes): marked `filtered`, greyed, their reason saying so.
  std::vector<bool> filtered;
  // Optional: a note per node (parallel to after->nodes; "" = none), shown
  // before the reason in a neutral colour: grow's added nodes ("added by
  // grow, like big; runs kube-system/fluentd"), the room a rejected request
  // had ("room for 5"). A note is not a reason: the row is not marked
  // `zero` for it.
  std::vector<std::string> notes;
  // Optional: nodes grow added (parallel to after->nodes): marked `grown`.
  std::vector<bool> added;
  // Optional: this section's own outcome, under its heading (compare: each
  // strategy's).
  ReportOutcome outcome;
};

// Every node of each section, in inventory order, one `div.node` each with a
// bar per resource the cluster has (memory, cpu, storage): the usage before
// (dark) and what the plan adds (light). `outcome`, when given, is stated
// first, under the title.
std::string render_html_report(const std::string& title, const Inventory& before,
                               const std::vector<ReportSection>& sections,
                               const ReportOutcome& outcome = {});
// The same page handed to `sink` a piece at a time (about 64 KiB each, whole
// node rows), so that it is never held whole: compare's sections are a row
// per node per strategy.
using ReportSink = std::function<void(std::string_view)>;
void write_html_report(const ReportSink& sink, const std::string& title, const Inventory& before,
                       const std::vector<ReportSection>& sections,
                       const ReportOutcome& outcome = {});
// write_html_report of the page, later: the writer keeps `before`, the
// inventories the sections point to (`after`) and the sections.
std::function<void(const ReportSink&)> html_report_writer(std::string title,
                                                          const Inventory& before,
                                                          std::vector<Inventory> after,
                                                          std::vector<ReportSection> sections,
                                                          ReportOutcome outcome);

// A section of a plan's result: new instances = instances after - before, per
// node (all apps together).
ReportSection plan_section(std::string title, const Inventory& before, const Inventory& after);

}  // namespace eruplan
