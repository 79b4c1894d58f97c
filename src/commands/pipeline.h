// The commands as pure functions: load -> capacity -> strategy -> render.
// The CLI and the fixture runner both call these; only the CLI prints and
// exits.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capacity.h"
#include "deploy_map.h"
#include "inventory_writer.h"
#include "kubernetes.h"
#include "load.h"
#include "mesos.h"
#include "model.h"
#include "render.h"
#include "report_outcome.h"
#include "requests.h"
#include "strategy.h"

namespace eruplan {

// SPEC §6 exit codes.
enum class ExitCode : int {
  Ok = 0,
  Internal = 1,
  Usage = 2,
  Invalid = 3,
  Infeasible = 4,
  AlreadySatisfied = 5,
};

enum class Command { Capacity, Plan, Validate, Apply, Share };

// The least a piece of streamed output holds (RunOptions::stream_out): 64
// KiB, enough for few writes, small enough that the string holding it stays
// a small part of a run's memory.
inline constexpr std::size_t kStreamPiece = std::size_t{1} << 16;

struct RunOptions {
  Command command = Command::Plan;
  Source nodes;
  std::optional<Source> request;
  RequestOverrides overrides;
  OutputFormat output = OutputFormat::Table;
  PlansShown plans = PlansShown::All;
  bool atomic = false;  // --atomic: every request of the file one gang
  unsigned jobs = 1;    // --jobs
  // --tie-break random:SEED (kubernetes profile); nullopt = by name.
  std::optional<std::uint64_t> tie_seed;
  // --save-inventory: write the inventory after the run into
  // RunResult::saved_inventory, in this format.
  std::optional<OutputFormat> save_inventory;
  // --units of apply's output and the saved inventory; unset: by format.
  std::optional<Units> units;
  bool report = false;     // --report: an HTML page of the plan into RunResult::report (SPEC §14)
  bool strict = false;     // --strict: unknown fields are errors (SPEC §13)
  bool explain = false;    // --explain: one line per node saying why (SPEC §13)
  bool all_nodes = false;  // --all-nodes: tables list every node (SPEC §13)
  // SPEC §12: --nodes-format, --app-label, and --pods (kubectl get pods).
  KubernetesOptions kubernetes;
  std::optional<Source> pods;
  // SPEC §17: --preempt (evict lower-priority pods for a replica that fits
  // nowhere) and --pdbs (kubectl get pdb -A -o json).
  bool preempt = false;
  // --queue-sort: priority, qos or coscheduling (SPEC §17).
  QueueSort queue_sort = QueueSort::Priority;
  std::optional<Source> pdbs;
  // --priority-classes (kubectl get priorityclasses -o json): what
  // priorityClassName means (SPEC §15).
  std::optional<Source> priority_classes;
  // --namespaces (kubectl get namespaces -o json): the namespaces' labels a
  // pod affinity term's namespaceSelector matches (SPEC §16).
  std::optional<Source> namespaces;
  // share --model mesos (set), with --seed and --cycles; unset: --model drf.
  std::optional<MesosOptions> mesos;
  std::vector<Source> more_pods;  // further --pods files, in command-line order
  // `plan` with several requests, table or JSON: when set, the output is
  // handed over in pieces of at least kStreamPiece bytes as it is rendered, and
  // RunResult::out holds only the rest; without it, all of it. The bytes are
  // the same either way; 1,000 requests over 10,000 nodes make 345 MB of
  // JSON, which then never has to be held at once.
  std::function<void(std::string_view)> stream_out;
};

// One request's result, for the fixture runner's per-request checks.
struct RequestBrief {
  std::string name;
  RequestStatus status = RequestStatus::Placed;
  std::int64_t placed = 0;
  std::vector<std::string> evicted;  // --preempt's victims, in output order
};

// --tie-break: "name" gives nullopt inside, "random:SEED" the seed; nullopt
// outside for anything else.
std::optional<std::optional<std::uint64_t>> parse_tie_break(std::string_view text);

struct RunResult {
  ExitCode exit = ExitCode::Ok;
  std::string out;  // for stdout
  std::string err;  // for stderr: diagnostics, warnings, failure reasons

  // The structured results, for the fixture runner; set as far as the run got.
  std::optional<Inventory> inventory;
  std::optional<Request> request;
  std::optional<CapacityMap> capacity;
  std::optional<DeployMap> deploy;             // of capacity->nodes
  std::vector<RequestBrief> requests;          // plan/apply: every request, file order
  std::vector<NodeScore> scores;               // score: parallel to capacity->nodes
  std::optional<std::string> saved_inventory;  // --save-inventory's text, when it is written
  std::optional<std::string> report;           // --report's HTML, when the plan ran
  std::vector<Diagnostic> problems;            // exit 3: what the loaders found (kept ones)
  std::size_t problems_dropped_errors = 0;     // errors found past those kept
  std::vector<std::string> offers;  // share --model mesos: "cycle node framework +launched"
  std::string usage;  // exit 2: what is wrong with the command line (the CLI adds its hint)
};

// A usage error (exit 2) found by a command: `message` into result.usage and,
// with -o json|yaml, SPEC §13's failure document with it into result.out.
void usage_failure(RunResult& result, OutputFormat format, const std::string& message);

// SPEC §13's failure document, {"error": {exit, kind, message, problems}},
// plus capacity, reasons, reason_kinds (and explain) from `report` when the
// capacity pass ran. Problems are the errors only, warnings left out.
std::string failure_document(OutputFormat format, ExitCode exit, const std::string& message,
                             const std::vector<Diagnostic>& problems,
                             const Report* report = nullptr);

// How a single request's result is shown (plan, apply, grow, drain).
struct ShowOptions {
  OutputFormat output = OutputFormat::Table;
  PlansShown plans = PlansShown::All;
  bool explain = false;    // --explain
  bool all_nodes = false;  // --all-nodes
};

// A single request that failed (exit 4) or had nothing to add (exit 5), as
// `plan` reports it: sets `result.exit`; appends to `result.err` the reason,
// SPEC §13's summary line and the per-node capacities (and --explain's
// lines under a table); with -o json|yaml sets `result.out` to the failure
// document with capacity, reasons and reason_kinds. `head`, when given,
// is a first line before the message (grow's and drain's own question).
void show_failure(RunResult& result, const Inventory& inventory, const Request& request,
                  const RequestOutcome& outcome, const ShowOptions& show,
                  const std::string& head = {});

// "invalid input: 2 errors; the first: nodes.yaml:3:13: error: ..." for the
// failure document of exit 3; the count adds `dropped_errors`, the errors
// found past the kept problems (Diagnostics::dropped_errors).
std::string invalid_message(const std::vector<Diagnostic>& problems,
                            std::size_t dropped_errors = 0);

// Exit 3's problems from `diags` into `result`: those kept, and the count of
// errors past them.
void keep_problems(RunResult& result, const Diagnostics& diags);

// The run's input in bytes (-n, -r, --pods, --pdbs and more pods): what
// bounds its work.
std::uint64_t input_bytes(const RunOptions& options);

// share's, share --model mesos' and realloc's first step: -n (an eruplan
// inventory or Kubernetes nodes) and --pods into result.inventory.
void load_node_inputs(RunResult& result, const RunOptions& options, Diagnostics& diags);
// After a command's inputs loaded (`loaded` false when one did not): the
// diagnostics into result.err and, when any is an error, exit 3 with the
// failure document; true when the command may go on.
bool inputs_valid(RunResult& result, const RunOptions& options, const Diagnostics& diags,
                  bool loaded);
// share's and share --model mesos' first step: -r is required (`needs` is
// the usage message otherwise), -n (an eruplan inventory or Kubernetes
// nodes, SPEC §12) and --pods into result.inventory, the -r file read by
// `load` and checked against the inventory by `check`. The spec; nothing
// when `result` holds the failure.
template <class Spec>
std::optional<Spec> load_share_inputs(RunResult& result, const RunOptions& options,
                                      const std::string& needs,
                                      std::optional<Spec> (*load)(const Source&, Diagnostics&),
                                      void (*check)(const Inventory&, const Spec&, Diagnostics&)) {
  if (!options.request) {
    usage_failure(result, options.output, needs);
    return std::nullopt;
  }
  Diagnostics diags;
  load_node_inputs(result, options, diags);
  std::optional<Spec> spec = load(*options.request, diags);
  if (result.inventory && spec) check(*result.inventory, *spec, diags);
  if (!inputs_valid(result, options, diags, spec.has_value())) return std::nullopt;
  return spec;
}
// --save-inventory: the state after the command, when asked for.
void save_inventory(RunResult& result, const RunOptions& options, const Inventory& state);
// The HTML report's outcome of one request (--report): placed N of M,
// partial, infeasible with the summary a table run prints, or satisfied and
// why.
ReportOutcome single_outcome(const Inventory& inventory, const Request& request,
                             const RequestOutcome& outcome);

RunResult run(const RunOptions& options);
// The same, freeing options.nodes.text once the inventory is loaded.
RunResult run(RunOptions&& options);

}  // namespace eruplan
