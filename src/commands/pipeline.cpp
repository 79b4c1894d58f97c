// The commands as one pure function: load -> check -> capacity -> strategy
// -> render, mapping each way of stopping to its SPEC §6 exit code.
#include "pipeline.h"

#include <algorithm>

#include "explain.h"
#include "fit_messages.h"
#include "held_sections.h"
#include "json_writer.h"
#include "load_pdbs.h"
#include "namespaces.h"
#include "pipeline_parts.h"
#include "priority_classes.h"
#include "report_html.h"
#include "reserve.h"
#include "share_command.h"
#include "wide.h"

namespace eruplan {

std::uint64_t input_bytes(const RunOptions& o) {
  std::uint64_t n = source_bytes(o.nodes);
  for (const std::optional<Source>* s : {&o.request, &o.pods, &o.pdbs})
    if (*s) n += source_bytes(**s);
  for (const Source& s : o.more_pods) n += source_bytes(s);
  return n;
}

std::optional<std::optional<std::uint64_t>> parse_tie_break(std::string_view text) {
  if (text == "name") return std::optional<std::uint64_t>();
  if (!text.starts_with("random:")) return std::nullopt;
  text.remove_prefix(7);
  if (text.empty() || text.size() > 20 ||
      text.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  std::uint64_t seed = 0;
  for (const char c : text) {
    const std::uint64_t digit = static_cast<std::uint64_t>(c - '0');
    if (seed > (UINT64_MAX - digit) / 10) return std::nullopt;
    seed = seed * 10 + digit;
  }
  return std::optional<std::uint64_t>(seed);
}

namespace {

// Plans listed per node: `--plans none|assigned` lists none up front; the
// nodes that get instances then get exactly the plans they are assigned.
// --plans all shares the run's plan budget among nodes and requests.
std::int64_t listed_plans(PlansShown plans, std::int64_t budget, const Inventory& inventory,
                          const std::vector<Request>& requests) {
  return plans == PlansShown::All ? plans_per_node(budget, inventory.nodes.size(), requests.size(),
                                                   heaviest_plan(requests))
                                  : 0;
}

// A run past its plan budget: exit 3 naming the request and what is too large.
void too_large(RunResult& result, const RunOptions& options, std::optional<std::size_t> index,
               const std::string& reason) {
  Diagnostics d;
  d.error(Origin{options.request ? options.request->name : std::string("<command line>"), 0, 0,
                 index ? "requests[" + std::to_string(*index) + "].count" : std::string("count")},
          reason);
  result.exit = ExitCode::Invalid;
  result.problems = d.items();
  result.err += d.to_string();
  result.out.clear();
  result.saved_inventory.reset();
  result.report.reset();
}

struct PlanRunner {
  const RunOptions& options;
  RunResult& result;
  const RequestSet& set;
  Inventory state;
  std::vector<std::string> entries;  // list mode, YAML: each request's entry, file order
  // List mode, table and JSON: the output written as it goes, in file order;
  // entries planned ahead of their turn (priorities, gangs) wait in `held`
  // (a temporary file when the output streams) until the ones before them
  // are in.
  std::string stream;
  std::size_t streamed = 0;
  std::optional<HeldSections> held;
  std::vector<std::size_t> name_cells;  // table_name_cells(state), once
  RequestCounts counts;
  std::string failures;  // stderr lines of rejected/satisfied requests
  // --report: per inventory node, why requests got none there and the room
  // rejected ones had; each names kReportEntries requests, then counts the
  // rest (reason_count, note_count), so the report is not requests x nodes.
  static constexpr std::size_t kReportEntries = 8;
  std::vector<std::string> reasons;
  std::vector<std::string> notes;
  std::vector<std::size_t> reason_count;
  std::vector<std::size_t> note_count;
  // `state` is the loaded inventory itself, not a copy (see run()).
  bool in_place = false;
  std::vector<PodDisruptionBudget> pdbs;  // --pdbs
  std::int64_t budget = kMinPlanBudget;   // plan_budget of the run's input
  std::string too_large_reason;           // a request past the budget (exit 3)
  std::size_t too_large_index = 0;
  // --report: the outcome stated at the top, and (several requests) each
  // request's line, in file order.
  ReportOutcome report_outcome;
  std::vector<std::string> request_lines;

  // The inventory as loaded, for what is shown.
  const Inventory& loaded() const { return in_place ? state : *result.inventory; }

  void note_reasons(const std::string& prefix, const CapacityMap& map, RequestStatus status) {
    if (!options.report) return;
    const std::size_t size = result.inventory->nodes.size();
    reasons.resize(size);
    notes.resize(size);
    reason_count.resize(size);
    note_count.resize(size);
    for (const NodeCapacity& n : map.nodes) {
      if (n.capacity == 0) {
        if (reason_count[n.node]++ < kReportEntries)
          reasons[n.node] += (reasons[n.node].empty() ? "" : "; ") + prefix + n.reason();
      } else if (status == RequestStatus::Rejected) {
        // A rejected request placed nothing: the room each node had is what
        // the headline's "the nodes can take N" adds up.
        if (note_count[n.node]++ < kReportEntries)
          notes[n.node] +=
              (notes[n.node].empty() ? "" : "; ") + prefix + "room for " + count_text(n.capacity);
      }
    }
  }

  // "; and N more requests" past kReportEntries of `count`.
  static std::string more_requests(std::size_t count) {
    if (count <= kReportEntries) return "";
    const std::size_t more = count - kReportEntries;
    return "; and " + std::to_string(more) + (more == 1 ? " more request" : " more requests");
  }

  // Nodes a request's node_filter leaves out: their reason says so; marked
  // filtered when every request leaves them out.
  void mark_filtered(ReportSection& section) const {
    const std::vector<Node>& nodes = result.inventory->nodes;
    section.filtered.assign(nodes.size(), false);
    for (std::size_t i = 0; i < nodes.size() && i < section.reasons.size(); ++i) {
      std::size_t left_out = 0;
      std::size_t count = i < reason_count.size() ? reason_count[i] : 0;
      std::string& reason = section.reasons[i];
      for (const Request& request : set.requests) {
        if (request.filter.accepts(nodes[i])) continue;
        ++left_out;
        if (count++ < kReportEntries)
          reason += (reason.empty() ? "" : "; ") + filtered_reason(request.name, set.list);
      }
      reason += more_requests(count);
      if (i < section.notes.size() && i < note_count.size())
        section.notes[i] += more_requests(note_count[i]);
      section.filtered[i] = left_out == set.requests.size();
    }
  }

  static std::vector<std::string> evicted(const RequestOutcome& outcome) {
    std::vector<std::string> out;
    for (const Preemption& p : outcome.preemptions)
      for (const Victim& v : p.victims) out.push_back(v.name);
    return out;
  }

  void single(const Request& request, RequestOutcome&& outcome) {
    if (outcome.too_large) {
      too_large_reason = outcome.reason.full();
      return;
    }
    const Inventory& inventory = loaded();
    result.requests.push_back({request.name, outcome.status, outcome.placed, evicted(outcome)});
    note_reasons("", outcome.capacity, outcome.status);
    if (options.report) report_outcome = single_outcome(loaded(), request, outcome);
    result.scores = outcome.scores;
    if (outcome.status == RequestStatus::Satisfied && !request.satisfied.empty()) {
      // A Kubernetes object with its pods all running: nothing to place,
      // which is no failure (exit 0) and prints the plan's document.
      result.err += request.satisfied.full() + '\n';
    } else if (outcome.status == RequestStatus::Satisfied ||
               outcome.status == RequestStatus::Rejected) {
      show_failure(result, inventory, request, outcome,
                   {options.output, options.plans, options.explain, options.all_nodes});
      result.capacity = std::move(outcome.capacity);
      return;
    }
    result.capacity = std::move(outcome.capacity);
    const CapacityMap& map = *result.capacity;
    if (outcome.status == RequestStatus::Partial)
      result.err += "partial: placed " + std::to_string(outcome.placed) + " of " +
                    std::to_string(request.count) +
                    (request.group_min > 0 ? ", group " + request.group + " needs at least " +
                                                 std::to_string(request.group_min) + " pods"
                                           : ", min_count " + std::to_string(request.min_count)) +
                    '\n';
    result.deploy = outcome.deploy;
    result.err += pipeline_parts::plan_cut_warnings(inventory, map, options.plans);
    if (options.command == Command::Apply) {
      // apply prints an inventory: --explain's lines go to stderr.
      if (options.explain)
        result.err += pipeline_parts::explain_text(
            explain(inventory, request, map, &*result.deploy, &outcome));
      return;
    }
    RequestOutcome kept = std::move(outcome);
    kept.capacity = CapacityMap{};
    std::vector<ExplainLine> lines;
    if (options.explain) lines = explain(inventory, request, map, &*result.deploy, &kept);
    Report report{inventory,        request, map,   &*result.deploy,
                  options.plans,    &kept,   false, options.explain ? &lines : nullptr,
                  options.all_nodes};
    result.out = render(report, options.output);
  }

  void entry(std::size_t index, RequestOutcome&& outcome) {
    if (outcome.too_large) {
      too_large_reason = outcome.reason.full();
      too_large_index = index;
    }
    if (!too_large_reason.empty()) return;
    const Request& request = set.requests[index];
    result.requests[index] = {request.name, outcome.status, outcome.placed, evicted(outcome)};
    ++counts.of(outcome.status);
    note_reasons(request.name + ": ", outcome.capacity, outcome.status);
    if (options.report) {
      request_lines.resize(set.requests.size());
      request_lines[index] =
          request.name + ": " + std::string(status_name(outcome.status)) + ", placed " +
          std::to_string(outcome.placed) +
          (outcome.reason.empty() ? "" : " (" + outcome.reason.under(request.name) + ")");
    }
    if (outcome.status == RequestStatus::Rejected || outcome.status == RequestStatus::Satisfied)
      failures += std::string(status_name(outcome.status)) + ": " + request.name + ": " +
                  outcome.reason.under(request.name) + '\n';
    std::vector<ExplainLine> lines;
    if (options.explain)
      lines = explain(state, request, outcome.capacity, &outcome.deploy, &outcome);
    Report report{state,
                  request,
                  outcome.capacity,
                  &outcome.deploy,
                  options.plans,
                  &outcome,
                  true,
                  options.explain ? &lines : nullptr,
                  options.all_nodes};
    if (options.output == OutputFormat::Table) {
      if (name_cells.empty()) name_cells = table_name_cells(state);
      report.name_cells = &name_cells;
    }
    if (options.output == OutputFormat::Yaml) {
      entries[index] = render(report, options.output);
      return;
    }
    if (index != streamed) {
      std::string text;
      append_entry(text, index, report);
      held->hold(index, std::move(text));
      return;
    }
    append_entry(stream, index, report);
    write_piece();
    for (++streamed; held->held(streamed); ++streamed) {
      held->take(streamed, stream);
      write_piece();
    }
  }

  // Plan's output streams: a full piece is written out.
  bool streams() const { return options.stream_out && options.command == Command::Plan; }
  void write_piece() {
    // `apply` prints an inventory instead when every request is placed.
    if (streams() && stream.size() >= kStreamPiece) {
      options.stream_out(stream);
      stream.clear();  // the capacity stays, for the next piece
    }
  }

  // Table: the section with its heading and the blank line after it. JSON:
  // the entry with what separates it from the one before.
  void append_entry(std::string& out, std::size_t index, const Report& report) const {
    if (options.output == OutputFormat::Json) {
      append_json_request_separator(out, index);
      render_into(out, report, OutputFormat::Json, kJsonRequestLevels);
      return;
    }
    const RequestOutcome& o = *report.outcome;
    out += "== ";
    out += report.request.name;
    out += ": ";
    out += status_name(o.status);
    out += ", placed ";
    out += std::to_string(o.placed);
    if (!o.reason.empty()) out += " (" + o.reason.under(report.request.name) + ")";
    out += '\n';
    render_into(out, report, OutputFormat::Table);
    out += '\n';
  }

  void run() {
    // One request without --explain or --report shows nothing of the
    // inventory as loaded but names and core, NUMA and device ids, which
    // planning leaves alone: it is planned in place instead of on a copy
    // (for 1,000,000 nodes, a second inventory), and result.inventory gets
    // it back, as planned, at the end.
    in_place = !set.list && !options.explain && !options.report;
    if (in_place)
      state = std::move(*result.inventory);
    else
      state = *result.inventory;
    PlanOptions plan_options;
    plan_options.max_plans = listed_plans(options.plans, budget, state, set.requests);
    plan_options.max_bound_instances = budget;
    // Counts of an app on a node: one per byte of input (plan_budget is a
    // quarter of it) and 16384 more; one per 4 bytes when gangs or --atomic
    // keep outcomes (and their sections, out of file order) until decided,
    // or YAML keeps every section until the end.
    if (set.list) {
      const bool kept = options.atomic || options.output == OutputFormat::Yaml ||
                        std::any_of(set.requests.begin(), set.requests.end(),
                                    [](const Request& r) { return !r.group.empty(); });
      plan_options.max_app_entries = (kept ? budget : 4 * budget) + 16384;
      // The nodes each request's section lists, when the sections or the
      // outcomes wait for the end (YAML, --atomic, gangs, apply's output):
      // as many as those app counts. plan's JSON and tables are written as
      // they go and list every node freely.
      const bool waiting = kept || options.command == Command::Apply;
      if (waiting) plan_options.max_listed_nodes = budget + 16384;
      // A table hides nodes with room (without --all-nodes or --explain);
      // --atomic and gangs keep each outcome whole until decided.
      plan_options.listed_zero_only =
          !kept && options.output == OutputFormat::Table && !options.all_nodes && !options.explain;
    }
    plan_options.atomic = options.atomic;
    plan_options.jobs = options.jobs;
    plan_options.preempt = options.preempt;
    plan_options.queue_sort = options.queue_sort;
    plan_options.explain = options.explain;
    plan_options.pdbs = std::move(pdbs);
    if (!set.list) {
      plan_requests(state, set.requests, plan_options, [&](std::size_t, RequestOutcome&& o) {
        single(set.requests.front(), std::move(o));
      });
      if (!too_large_reason.empty()) {
        too_large(result, options, std::nullopt, too_large_reason);
        if (in_place) *result.inventory = std::move(state);
        return;
      }
    } else {
      if (options.output == OutputFormat::Yaml) entries.resize(set.requests.size());
      held.emplace(set.requests.size(), streams());
      result.requests.resize(set.requests.size());
      if (options.output == OutputFormat::Json) stream += kJsonRequestListHead;
      plan_requests(state, set.requests, plan_options,
                    [&](std::size_t i, RequestOutcome&& o) { entry(i, std::move(o)); });
      if (!too_large_reason.empty()) {
        too_large(result, options, too_large_index, too_large_reason);
        return;
      }
      if (held->lost()) {
        result.exit = ExitCode::Internal;
        result.err += "eruplan: error: cannot read the plan back from its temporary file\n";
        result.out.clear();
        return;
      }
      if (counts.rejected > 0) {
        result.exit = ExitCode::Infeasible;
        result.err += failures + "infeasible: " + std::to_string(counts.rejected) + " of " +
                      std::to_string(set.requests.size()) + " requests rejected\n";
      } else {
        result.err += failures;
      }
      if (options.command != Command::Apply || result.exit != ExitCode::Ok) {
        if (options.output == OutputFormat::Table) {
          result.out = std::move(stream);
          result.out += "summary: " + std::to_string(counts.placed) + " placed, " +
                        std::to_string(counts.partial) + " partial, " +
                        std::to_string(counts.rejected) + " rejected, " +
                        std::to_string(counts.satisfied) + " satisfied\n";
        } else {
          const std::string error =
              result.exit == ExitCode::Ok
                  ? std::string()
                  : failure_document(options.output, ExitCode::Infeasible,
                                     std::to_string(counts.rejected) + " of " +
                                         std::to_string(set.requests.size()) + " requests rejected",
                                     {});
          if (options.output == OutputFormat::Json) {
            result.out = std::move(stream);
            append_json_request_list_tail(result.out, set.requests.empty(), &counts, error);
          } else {
            result.out = render_request_list(entries, options.output, &counts, error);
          }
        }
      }
    }
    const bool stands =
        result.exit == ExitCode::Ok || (set.list && result.exit == ExitCode::Infeasible);
    if (options.command == Command::Apply && result.exit == ExitCode::Ok) {
      const OutputFormat format =
          options.output == OutputFormat::Table ? OutputFormat::Yaml : options.output;
      result.out = render_inventory(state, format, options.units.value_or(default_units(format)));
    }
    if (stands) save_inventory(result, options, state);
    if (options.report) {
      const Request& first = set.requests.front();
      ReportSection section =
          plan_section(set.list ? std::to_string(set.requests.size()) + " requests"
                                : first.app + ": count " + std::to_string(first.count) +
                                      ", strategy " + std::string(strategy_name(first.strategy)),
                       *result.inventory, state);
      section.reasons = reasons;
      section.reasons.resize(state.nodes.size());
      section.notes = notes;
      mark_filtered(section);
      if (set.list)
        report_outcome = pipeline_parts::list_outcome(counts, set.requests.size(), request_lines);
      result.report = render_html_report(
          std::string(options.command == Command::Apply ? "eruplan apply" : "eruplan plan"),
          *result.inventory, {section}, report_outcome);
    }
    if (in_place) *result.inventory = std::move(state);
  }
};

// capacity with a requests: list keeps its whole document until the end:
// the nodes it lists (every node of each request, but in a table without
// --all-nodes or --explain only those with capacity 0) are bounded like
// plan's with -o yaml.
void capacity_list(const RunOptions& options, RunResult& result, const RequestSet& set,
                   const CapacityOptions& capacity_options, std::int64_t budget) {
  std::vector<std::string> entries;
  std::string out;
  std::int64_t listed = 0;
  for (std::size_t i = 0; i < set.requests.size(); ++i) {
    const Request& request = set.requests[i];
    const CapacityMap map = capacity_pass(*result.inventory, request, capacity_options);
    const bool zero_only =
        options.output == OutputFormat::Table && !options.all_nodes && !options.explain;
    if (std::string why =
            count_listed_nodes(listed, map, options.explain, zero_only, budget + 16384);
        !why.empty()) {
      too_large(result, options, i, why);
      return;
    }
    std::vector<ExplainLine> lines;
    if (options.explain) lines = explain(*result.inventory, request, map, nullptr, nullptr);
    Report report{*result.inventory, request, map,  nullptr,
                  options.plans,     nullptr, true, options.explain ? &lines : nullptr,
                  options.all_nodes};
    if (options.output == OutputFormat::Table)
      out += "== " + request.name + '\n' + render(report, OutputFormat::Table) + '\n';
    else
      entries.push_back(render(report, options.output));
  }
  result.out = options.output == OutputFormat::Table
                   ? std::move(out)
                   : render_request_list(entries, options.output, nullptr, {});
}

}  // namespace

namespace {

RunResult run_command(const RunOptions& options, std::string* nodes_text);
RunResult run_freeing(const RunOptions& options, std::string* nodes_text);

}  // namespace

// Every failure with -o json|yaml prints a document on stdout (SPEC §13):
// the paths that stop early (usage, invalid input) get theirs here; those
// whose capacity pass ran have written theirs already.
RunResult run(const RunOptions& options) { return run_freeing(options, nullptr); }

void load_node_inputs(RunResult& result, const RunOptions& options, Diagnostics& diags) {
  diags.set_strict(options.strict);
  result.inventory = load_nodes(options.nodes, options.kubernetes.nodes_format, diags);
  load_pods(result.inventory, options.pods, options.kubernetes, diags, nullptr, options.more_pods);
}

bool inputs_valid(RunResult& result, const RunOptions& options, const Diagnostics& diags,
                  bool loaded) {
  result.err = diags.to_string();
  if (!diags.has_errors() && loaded && result.inventory) return true;
  result.exit = ExitCode::Invalid;
  keep_problems(result, diags);
  if (options.output != OutputFormat::Table)
    result.out = failure_document(options.output, result.exit,
                                  invalid_message(result.problems, result.problems_dropped_errors),
                                  result.problems);
  return false;
}

void save_inventory(RunResult& result, const RunOptions& options, const Inventory& state) {
  if (options.save_inventory)
    result.saved_inventory =
        render_inventory(state, *options.save_inventory,
                         options.units.value_or(default_units(*options.save_inventory)));
}

void usage_failure(RunResult& result, OutputFormat format, const std::string& message) {
  result.exit = ExitCode::Usage;
  result.usage = message;
  if (format != OutputFormat::Table)
    result.out = failure_document(format, result.exit, message, {});
}

RunResult run(RunOptions&& options) { return run_freeing(options, &options.nodes.text); }

namespace {

// `nodes_text`, when given, is freed once the inventory is loaded.
RunResult run_freeing(const RunOptions& options, std::string* nodes_text) {
  RunResult result = run_command(options, nodes_text);
  const bool failure = result.exit != ExitCode::Ok && result.exit != ExitCode::Internal;
  if (options.output == OutputFormat::Table || !failure || !result.out.empty()) return result;
  std::string message;
  if (result.exit == ExitCode::Invalid) {
    message = invalid_message(result.problems, result.problems_dropped_errors);
  } else if (result.exit == ExitCode::Usage) {
    message = result.usage;
  } else {
    // A failure without a document of its own: its first line.
    message = result.err.substr(0, result.err.find('\n'));
  }
  const std::vector<Diagnostic> none;
  result.out = failure_document(options.output, result.exit, message,
                                result.exit == ExitCode::Invalid ? result.problems : none);
  return result;
}

RunResult run_command(const RunOptions& options, std::string* nodes_text) {
  RunResult result;
  const std::int64_t budget = plan_budget(input_bytes(options));
  if (options.command == Command::Share) return run_share(options);  // SPEC §10, share.h
  if (options.command != Command::Validate && !options.request && options.overrides.empty()) {
    result.exit = ExitCode::Usage;
    result.usage = "no request: give -r FILE or request flags such as --memory";
    return result;
  }
  Diagnostics diags;
  diags.set_strict(options.strict);
  result.inventory = load_nodes(options.nodes, options.kubernetes.nodes_format, diags);
  // The Inventory copies what it keeps: the text can go before planning
  // (for 1,000,000 nodes, 110 MB).
  if (nodes_text) std::string().swap(*nodes_text);
  const KubernetesOptions kube =
      with_priority_classes(options.kubernetes, options.priority_classes, diags);
  PodCensus census;  // --pods beyond the inventory's: the manifests' counts
  load_pods(result.inventory, options.pods, kube, diags, &census, options.more_pods);
  if (options.namespaces)
    if (auto namespaces = load_namespaces(*options.namespaces, diags);
        namespaces && result.inventory)
      result.inventory->namespaces = std::move(*namespaces);
  std::vector<PodDisruptionBudget> pdbs;
  if (options.pdbs) {
    if (auto read = load_pdbs(*options.pdbs, diags)) pdbs = std::move(*read);
  }

  const bool want_request = options.command != Command::Validate || options.request.has_value() ||
                            !options.overrides.empty();
  std::optional<RequestSet> set;
  if (want_request) {
    const Source* source = options.request ? &*options.request : nullptr;
    const bool count_required =
        options.command == Command::Plan || options.command == Command::Apply;
    bool kubernetes = false;  // SPEC §12: Deployment, StatefulSet, ReplicaSet, Pod manifests
    if (source)
      set = load_kubernetes_requests(*source, options.overrides, kube, count_required, diags,
                                     kubernetes, result.inventory ? &*result.inventory : nullptr,
                                     &census);
    if (!kubernetes) {
      warn_replicas_unused(kube, diags);
      set = load_requests(source, options.overrides, count_required, diags);
    }
    if (set && set->overridden && !diags.has_errors()) {
      result.exit = ExitCode::Usage;
      result.usage =
          "request flags (--count, --memory, ...) cannot change a requests: list; edit the file "
          "instead";
      return result;
    }
    // Constraints that depend on where the other replicas go need score.
    if (set && source)
      for (const Request& request : set->requests) {
        if (!request.pod || request.strategy == Strategy::Score || request.daemon) continue;
        const PodScheduling& p = *request.pod;
        const std::string field = cross_node_constraint(request);
        if (!field.empty()) {
          // At the field in the manifest: its topologySpreadConstraints, or
          // its affinity's podAffinity or podAntiAffinity.
          const bool spread = field == "topologySpreadConstraints";
          Origin at = spread ? request.spread_origin : request.node_affinity_origin;
          if (at.file.empty())
            at = Origin{source->name, 0, 0, field};
          else if (!spread)
            at.path += field.substr(field.find('.'));
          diags.error(std::move(at),
                      excerpt(request.name) + ": " + field +
                          " depends on where the other replicas go; it needs strategy score "
                          "(leave --strategy out, or give --strategy score)");
        } else if (!p.node_affinity.preferred.empty() || !p.affinity.preferred.empty() ||
                   !p.anti_affinity.preferred.empty())
          diags.warning(
              request.node_affinity_origin.file.empty() ? Origin{source->name, 0, 0, "affinity"}
                                                        : request.node_affinity_origin,
              excerpt(request.name) + ": preferred affinity terms are ignored by strategy " +
                  std::string(strategy_name(request.strategy)) +
                  " (only strategy score weighs them)");
      }
    if (set && options.tie_seed)
      for (Request& request : set->requests) {
        request.scoring.tie_random = true;
        request.scoring.tie_seed = *options.tie_seed;
      }
    if (set && !set->list) result.request = set->requests.front();
  }
  if (result.inventory && set)
    check_requests(
        *result.inventory, set->requests,
        [](const Request& request) -> const Request& { return request; }, diags);

  result.err = diags.to_string();
  if (diags.has_errors() || !result.inventory || (want_request && !set)) {
    result.exit = ExitCode::Invalid;
    keep_problems(result, diags);
    return result;
  }

  if (options.command == Command::Validate) {
    result.out = pipeline_parts::validate_summary(
        *result.inventory, result.request ? &*result.request : nullptr, options.output);
    return result;
  }

  CapacityOptions capacity_options;
  capacity_options.jobs = options.jobs;
  capacity_options.max_plans =
      plans_per_node(budget, result.inventory->nodes.size(), set ? set->requests.size() : 1,
                     set ? heaviest_plan(set->requests) : 1);
  if (options.plans == PlansShown::None && options.command == Command::Capacity)
    capacity_options.max_plans = 0;
  if (options.command == Command::Capacity) {
    if (set->list) {
      capacity_list(options, result, *set, capacity_options, budget);
      return result;
    }
    result.capacity = capacity_pass(*result.inventory, *result.request, capacity_options);
    result.err +=
        pipeline_parts::plan_cut_warnings(*result.inventory, *result.capacity, options.plans);
    std::vector<ExplainLine> lines;
    if (options.explain)
      lines = explain(*result.inventory, *result.request, *result.capacity, nullptr, nullptr);
    Report report{*result.inventory,
                  *result.request,
                  *result.capacity,
                  nullptr,
                  options.plans,
                  nullptr,
                  false,
                  options.explain ? &lines : nullptr,
                  options.all_nodes};
    result.out = render(report, options.output);
    return result;
  }
  PlanRunner{options, result,          *set,   {}, {}, {}, 0, {}, {}, {}, {}, {}, {}, {}, {},
             false,   std::move(pdbs), budget, {}, 0,  {}, {}}
      .run();
  return result;
}

}  // namespace

}  // namespace eruplan
