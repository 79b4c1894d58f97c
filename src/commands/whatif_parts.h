// What-if's shared steps (whatif.cpp), private to src/commands: grow
// (whatif_grow.cpp) loads, fails and plans as compare and drain do.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "capacity.h"
#include "whatif.h"

namespace eruplan::whatif_parts {

// Sets exit and stderr, and for JSON/YAML the §13 failure document.
void fail(RunResult& r, ExitCode exit, const std::string& message, OutputFormat format,
          const std::vector<Diagnostic>& problems = {});
// Exit 3 from a diagnostic the what-if layer finds itself.
void invalid(RunResult& r, OutputFormat format, Origin origin, const std::string& message);
// Loads -n and -r as `plan` does; false (with r filled in) when they do not load.
// `daemons` (grow): the DaemonSets of -r's stream and of --daemonsets, which
// are then not the request.
bool load_inputs(const WhatIfOptions& o, bool count_required, RunResult& r, Inventory& inventory,
                 Request& request, std::vector<Request>* daemons = nullptr);
// "nodes.yaml:12:13" where `needle` first occurs in the text: the position
// of a node name the loader no longer has.
Origin position_of(const Source& source, const std::string& needle, std::string path);
// The bytes of the run's input files, which its budgets follow (plan_budget,
// listed_core_budget).
std::uint64_t whatif_input_bytes(const WhatIfOptions& o);
inline std::int64_t whatif_budget(const WhatIfOptions& o) {
  return plan_budget(whatif_input_bytes(o));
}
// Plans listed per node, as `plan` lists them: none up front unless --plans
// all, which shares the budget among the nodes by the request's plan weight.
std::int64_t plans_listed(const WhatIfOptions& o, const Inventory& inventory,
                          const Request& request);
// A request past the budget: exit 3 naming it and what is too large.
void too_large(RunResult& r, const WhatIfOptions& o, const std::string& reason);
ShowOptions show_options(const WhatIfOptions& o);
// Plans `request` on `state` (changing it) and renders the §6 document as
// `plan` would, or its failure as `plan` reports it (SPEC §13), `head` (the
// what-if question) first; sets exit, out, err, capacity and deploy of `r`.
// grow --report: the page of the grown inventory, its outcome first
// (`head`: what was added, or why growing does not help), nodes from
// `first_added` on marked as the added copies.
struct GrowReport {
  std::string head;
  bool failed = false;
  std::size_t first_added = 0;
  // Per template, in order: the note on each of its copies' rows ("added by
  // grow, like big; runs kube-system/fluentd") and how many copies follow
  // one another from first_added on.
  std::vector<std::pair<std::string, std::int64_t>> added;
};
// With `grow`, also r.report. `again`, when given, makes `state` again as
// it was: the plan is then made on `state` itself (left empty after) and the
// state before it made again, so that the two are never held at once.
void plan_document(Inventory& state, const Request& request, const WhatIfOptions& o, RunResult& r,
                   const std::string& head = {}, const GrowReport* grow = nullptr,
                   const std::function<Inventory()>& again = {});
// grow --report's page of the plan `out` from `before` to `after`.
std::string grow_report(const Inventory& before, const Inventory& after, const Request& request,
                        const RequestOutcome& out, const GrowReport& g);

void run_grow(const WhatIfOptions& o, WhatIfResult& w);

}  // namespace eruplan::whatif_parts
