// What the plan pipeline says besides the plan (pipeline.cpp): validate's
// summary, the per-node reasons of a failure, the report's outcome, the
// failure document of -o json|yaml.
#include <algorithm>

#include "explain.h"
#include "json_writer.h"
#include "pipeline.h"
#include "pipeline_parts.h"
#include "wide.h"

namespace eruplan {

namespace pipeline_parts {

// "valid: 4 nodes (1 not available), 32 cores, 128Gi memory", or for -o
// json/yaml the same facts as a document.
std::string validate_summary(const Inventory& inventory, const Request* request,
                             OutputFormat format) {
  // The sums may pass INT64_MAX (two nodes of 7Ei): add in 128 bits, which
  // no inventory of fewer than 2^64 nodes can overflow, and print exactly.
  // CPU is each node's as given (a Kubernetes node's allocatable 3920m is
  // 3.92 cores, not the 3 whole cores binding may use), in nanocores.
  i128 nanocores = 0, memory = 0;
  std::int64_t cordoned = 0;
  for (const Node& n : inventory.nodes) {
    nanocores += static_cast<i128>(n.cpu_total());
    memory += n.memory;
    cordoned += n.available ? 0 : 1;
  }
  auto decimal = [](i128 v) {  // v >= 0: sizes and counts are never negative
    if (v <= INT64_MAX) return std::to_string(static_cast<std::int64_t>(v));
    std::string digits;
    for (; v > 0; v /= 10)
      digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    return digits;
  };
  // "25.59": whole cores, then the nanocores left without trailing zeros.
  const std::string cores = [&] {
    std::string text = decimal(nanocores / kNanoPerCore);
    std::string rest = std::to_string(static_cast<std::int64_t>(nanocores % kNanoPerCore));
    if (rest == "0") return text;
    rest.insert(0, 9 - rest.size(), '0');
    while (rest.back() == '0') rest.pop_back();
    return text + "." + rest;
  }();
  auto bytes_text = [&](i128 v) {
    if (v <= INT64_MAX) return format_bytes(static_cast<Bytes>(v));
    const i128 exbi = static_cast<i128>(1) << 60;
    return v % exbi == 0 ? decimal(v / exbi) + "Ei" : decimal(v);
  };
  if (format != OutputFormat::Table) {
    std::string out;
    auto write = [&](auto&& w) {
      w.begin_object();
      w.key("valid");
      w.boolean(true);
      w.field("nodes", static_cast<std::int64_t>(inventory.nodes.size()));
      w.field("not_available", cordoned);
      w.key("cores");
      w.number(cores);
      w.key("memory");
      w.number(decimal(memory));
      w.end_object();
      w.finish();
    };
    if (format == OutputFormat::Json)
      write(JsonWriter(out));
    else
      write(YamlWriter(out));
    return out;
  }
  std::string out = "valid: " + std::to_string(inventory.nodes.size()) + " nodes";
  if (cordoned > 0) out += " (" + std::to_string(cordoned) + " not available)";
  out += ", " + cores + " cores, " + bytes_text(memory) + " memory";
  if (request != nullptr) {
    out += "; request: app " + (request->app.empty() ? std::string("(none)") : request->app) +
           ", strategy " + std::string(strategy_name(request->strategy));
    if (request->count > 0) out += ", count " + std::to_string(request->count);
  }
  return out + '\n';
}

// The per-node facts that explain a failed strategy pass: each node's
// capacity, or its reason when 0. Past kShown nodes, the zero-capacity ones
// (those with a reason) come first, so 1,000 nodes with room do not hide
// the few that have none; then a count of the rest.
std::string zero_capacity_reasons(const Inventory& inventory, const CapacityMap& map) {
  constexpr std::size_t kShown = 100;
  std::vector<const NodeCapacity*> order;
  order.reserve(map.nodes.size());
  for (const NodeCapacity& n : map.nodes)
    if (map.nodes.size() <= kShown || n.capacity == 0) order.push_back(&n);
  if (map.nodes.size() > kShown)
    for (const NodeCapacity& n : map.nodes)
      if (n.capacity != 0) order.push_back(&n);
  std::string out;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i == kShown) {
      out += "  ... and " + std::to_string(order.size() - kShown) + " more nodes\n";
      break;
    }
    const NodeCapacity& n = *order[i];
    out += "  " + inventory.nodes[n.node].name + ": ";
    if (n.capacity == 0)
      out += "capacity 0 (" + n.reason() + ")";
    else
      out += "capacity " + count_text(n.capacity) + ", " + std::to_string(n.existing) + " existing";
    out += '\n';
  }
  return out;
}

// --explain's lines for stderr, below a failure's per-node reasons.
std::string explain_text(const std::vector<ExplainLine>& lines) {
  std::string out = "explain:\n";
  for (const ExplainLine& line : lines) out += "  " + line.node + ": " + line.text + '\n';
  return out;
}

// The PlanMap lists at most kDefaultMaxPlans plans per node; say so where
// that cut a node's list short.
std::string plan_cut_warnings(const Inventory& inventory, const CapacityMap& map,
                              PlansShown shown) {
  std::string out;
  if (!map.binds || shown != PlansShown::All) return out;
  for (const NodeCapacity& n : map.nodes) {
    if (n.capacity == kUnlimited || static_cast<std::int64_t>(n.plans.size()) >= n.capacity)
      continue;
    out += "warning: " + inventory.nodes[n.node].name +
           ": plans listed: " + std::to_string(n.plans.size()) + " of " +
           std::to_string(n.capacity) + '\n';
  }
  return out;
}

// The report's outcome of several requests: the counts, then each request.
ReportOutcome list_outcome(const RequestCounts& counts, std::size_t n,
                           const std::vector<std::string>& lines) {
  ReportOutcome o;
  o.kind = counts.rejected == 0 && counts.partial == 0 ? OutcomeKind::Ok
           : counts.placed == 0 && counts.partial == 0 ? OutcomeKind::Failed
                                                       : OutcomeKind::Partial;
  o.headline = std::to_string(n) + " requests: " + std::to_string(counts.placed) + " placed, " +
               std::to_string(counts.partial) + " partial, " + std::to_string(counts.rejected) +
               " rejected, " + std::to_string(counts.satisfied) + " satisfied";
  o.details = lines;
  return o;
}

}  // namespace pipeline_parts

ReportOutcome single_outcome(const Inventory& inventory, const Request& request,
                             const RequestOutcome& outcome) {
  ReportOutcome o;
  const std::string placed = std::to_string(outcome.placed);
  const std::string count = std::to_string(request.count);
  const bool counts_new = strategy_row(request.strategy).counts_new;
  switch (outcome.status) {
    case RequestStatus::Placed:
      o.headline = counts_new
                       ? "placed " + placed + " of " + count + " new instances of " + request.app
                       : "placed " + placed + " new instances of " + request.app + " (count " +
                             count + ", strategy " + std::string(strategy_name(request.strategy)) +
                             ")";
      break;
    case RequestStatus::Partial:
      o.kind = OutcomeKind::Partial;
      o.headline = "partial: placed " + placed + " of " + count + " new instances of " +
                   request.app + ", min_count " + std::to_string(request.min_count);
      break;
    case RequestStatus::Satisfied:
      o.headline = request.satisfied.empty() ? "already satisfied: " + outcome.reason.full()
                                             : "satisfied: " + request.satisfied.full();
      break;
    case RequestStatus::Rejected: {
      o.kind = OutcomeKind::Failed;
      o.headline = "infeasible: " + outcome.reason.full();
      const std::string summary = infeasible_summary(inventory, outcome.capacity, request);
      for (std::size_t at = 0; at < summary.size();) {
        const std::size_t end = std::min(summary.find('\n', at), summary.size());
        if (end > at) o.details.push_back(summary.substr(at, end - at));
        at = end + 1;
      }
      break;
    }
  }
  return o;
}

std::string failure_document(OutputFormat format, ExitCode exit, const std::string& message,
                             const std::vector<Diagnostic>& problems, const Report* report) {
  const char* kind = exit == ExitCode::Infeasible         ? "infeasible"
                     : exit == ExitCode::AlreadySatisfied ? "already_satisfied"
                     : exit == ExitCode::Usage            ? "usage"
                                                          : "invalid";
  return render_document(format, [&](auto& w) {
    w.begin_object();
    w.key("error");
    w.begin_object();
    w.field("exit", static_cast<int>(exit));
    w.field("kind", kind);
    w.field("message", message);
    w.key("problems");
    w.begin_array();
    for (const Diagnostic& d : problems) {
      if (d.severity != Severity::Error) continue;
      w.begin_object();
      w.field("file", d.origin.file);
      w.key("line");
      if (d.origin.line > 0)
        w.integer(d.origin.line);
      else
        w.null();
      w.key("column");
      if (d.origin.col > 0)
        w.integer(d.origin.col);
      else
        w.null();
      w.field("path", d.origin.path);
      w.field("message", d.message);
      w.end_object();
    }
    w.end_array();
    w.end_object();
    if (report != nullptr) write_failure_members(w, *report);
    w.end_object();
    w.finish();
  });
}

void show_failure(RunResult& result, const Inventory& inventory, const Request& request,
                  const RequestOutcome& outcome, const ShowOptions& show, const std::string& head) {
  const CapacityMap& map = outcome.capacity;
  std::string message = head.empty() ? outcome.reason.full() : head + '\n' + outcome.reason.full();
  if (outcome.status == RequestStatus::Satisfied) {
    result.exit = ExitCode::AlreadySatisfied;
    result.err +=
        (head.empty() ? "" : head + '\n') + "already satisfied: " + outcome.reason.full() + '\n';
  } else {
    result.exit = ExitCode::Infeasible;
    const std::string summary = infeasible_summary(inventory, map, request);
    message += '\n' + summary;
    result.err += (head.empty() ? "" : head + '\n') + "infeasible: " + outcome.reason.full() +
                  '\n' + summary + '\n' + "nodes (" + std::to_string(map.nodes.size()) +
                  " after the node filter, total capacity " + count_text(map.total) + "):\n" +
                  pipeline_parts::zero_capacity_reasons(inventory, map);
  }
  std::vector<ExplainLine> lines;
  if (show.explain) lines = explain(inventory, request, map, &outcome.deploy, &outcome);
  if (show.output == OutputFormat::Table) {
    if (show.explain) result.err += pipeline_parts::explain_text(lines);
    return;
  }
  Report report{inventory,     request,  map,   nullptr,
                show.plans,    &outcome, false, show.explain ? &lines : nullptr,
                show.all_nodes};
  result.out = failure_document(show.output, result.exit, message, {}, &report);
}

std::string invalid_message(const std::vector<Diagnostic>& problems, std::size_t dropped_errors) {
  std::size_t errors = dropped_errors;
  const Diagnostic* first = nullptr;
  for (const Diagnostic& d : problems) {
    if (d.severity != Severity::Error) continue;
    if (first == nullptr) first = &d;
    ++errors;
  }
  if (first == nullptr) return "invalid input";
  return "invalid input: " + std::to_string(errors) + (errors == 1 ? " error" : " errors") +
         "; the first: " + format_diagnostic(*first);
}

void keep_problems(RunResult& result, const Diagnostics& diags) {
  result.problems = diags.items();
  result.problems_dropped_errors = diags.dropped_errors();
}

}  // namespace eruplan
