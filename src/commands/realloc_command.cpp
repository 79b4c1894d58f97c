// `eruplan realloc` (SPEC §11) as a pure function: load the inventory and
// the realloc request, select, realloc, render; and the §11 document / table.
#include "realloc_command.h"

#include <algorithm>

#include "json_writer.h"
#include "render.h"
#include "units.h"

namespace eruplan {

namespace {

template <class W>
void write_cpu_map(W& w, const NamedList<Pieces>& cpu_map) {
  w.key("cpu_map");
  write_mapping(w, cpu_map);
}

template <class W>
void write_resources(W& w, const WorkloadResources& r) {
  w.begin_object();
  w.key("cpu");
  w.number(format_cores(r.cpu));
  w.key("cpu_limit");
  w.number(format_cores(r.cpu_limit));
  w.field("memory", r.memory);
  w.field("memory_limit", r.memory_limit);
  write_cpu_map(w, r.cpu_map);
  w.end_object();
}

template <class W>
void write_usage(W& w, const NodeUsage& u) {
  w.begin_object();
  w.key("cpu");
  w.number(format_cores(u.cpu));
  w.field("memory", u.memory);
  write_cpu_map(w, u.cpu_map);
  w.end_object();
}

template <class W>
void write_document(W& w, const Inventory& inventory, const ReallocResult& result) {
  w.begin_object();
  w.key("workloads");
  write_keyed_objects(
      w, result.workloads, [](const WorkloadChange& c) -> const std::string& { return c.id; },
      [&](const WorkloadChange& c) {
        w.field("node", inventory.nodes[c.node].name);
        w.field("app", c.app);
        w.field("status", realloc_status_name(c.status));
        if (c.status == ReallocStatus::Failed) {
          w.field("reason", c.reason);
        }
        write_change(w, "before", c.before, "after", c.after, write_resources<W>);
      });
  w.key("nodes");
  write_keyed_objects(
      w, result.nodes,
      [&](const NodeChange& n) -> const std::string& { return inventory.nodes[n.node].name; },
      [&](const NodeChange& n) {
        write_change(w, "before", n.before, "after", n.after, write_usage<W>);
      });
  w.end_object();
  w.finish();
}

std::string cpu_map_text(const NamedList<Pieces>& cpu_map) {
  if (cpu_map.empty()) return "-";
  std::string out;
  for (const auto& [core, pieces] : cpu_map)
    out += (out.empty() ? "" : ",") + core + ":" + std::to_string(pieces);
  return out;
}

template <class T, class F>
std::string change(const T& before, const T& after, F text) {
  return before == after ? text(before) : text(before) + " -> " + text(after);
}

// One section per node: its usage before -> after, then a row per workload.
std::string render_table(const Inventory& inventory, const ReallocResult& result) {
  std::string out;
  std::int64_t counts[3] = {0, 0, 0};
  for (const WorkloadChange& c : result.workloads) ++counts[static_cast<int>(c.status)];
  for (const NodeChange& n : result.nodes) {
    out += "node " + inventory.nodes[n.node].name + ": cpu " +
           change(n.before.cpu, n.after.cpu, format_cores) + ", memory " +
           change(n.before.memory, n.after.memory, format_bytes) + ", cpu_map " +
           change(n.before.cpu_map, n.after.cpu_map, cpu_map_text) + '\n';
    std::vector<std::vector<std::string>> rows = {
        {"WORKLOAD", "APP", "STATUS", "CPU", "CPU_LIMIT", "MEMORY", "MEMORY_LIMIT", "CPU_MAP"}};
    std::vector<const WorkloadChange*> failed;
    for (const WorkloadChange& c : result.workloads) {
      if (c.node != n.node) continue;
      const WorkloadResources &b = c.before, &a = c.after;
      rows.push_back({c.id, c.app, std::string(realloc_status_name(c.status)),
                      change(b.cpu, a.cpu, format_cores),
                      change(b.cpu_limit, a.cpu_limit, format_cores),
                      change(b.memory, a.memory, format_bytes),
                      change(b.memory_limit, a.memory_limit, format_bytes),
                      change(b.cpu_map, a.cpu_map, cpu_map_text)});
      if (c.status == ReallocStatus::Failed) failed.push_back(&c);
    }
    out += align_columns(rows, "  ", 2);
    for (const WorkloadChange* c : failed) out += "  " + c->id + " failed: " + c->reason + '\n';
    out += '\n';
  }
  out += "realloc: " + std::to_string(counts[0]) + " ok, " + std::to_string(counts[1]) +
         " failed, " + std::to_string(counts[2]) + " not_applied (" +
         std::to_string(result.groups) + " groups, " + std::to_string(result.failed_groups) +
         " failed)\n";
  return out;
}

// A signed delta given as a flag: "-0.5", "+1", "512Mi".
std::optional<std::int64_t> flag_delta(const std::string& given, const ReallocDelta& delta,
                                       Diagnostics& diags) {
  std::string_view text = given;
  const bool negative = !text.empty() && text.front() == '-';
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  std::string error;
  const auto value = delta.parse(text, error);
  if (!value) {
    diags.error(Origin{"<command line>", 0, 0, std::string(delta.spec.flag)}, error);
    return std::nullopt;
  }
  return negative ? -*value : *value;
}

// The flags over the file's request (or an empty one): a selection flag
// replaces the file's selection, a delta its delta, --cpu-bind its cpu_bind.
void apply_flags(const ReallocFlags& f, ReallocRequest& req, bool from_file, Diagnostics& diags) {
  const auto flag = [](const char* name) { return Origin{"<command line>", 0, 0, name}; };
  if (!f.workloads.empty() && f.app)
    diags.error(flag("--app"), "give --workload or --app, not both");
  if (!f.workloads.empty() || f.app) {
    req.ids.clear();
    req.id_origins.clear();
    req.app.reset();
  }
  for (const std::string& id : f.workloads) {
    if (std::find(req.ids.begin(), req.ids.end(), id) != req.ids.end()) {
      diags.error(flag("--workload"), "workload " + quoted(id) + " is given twice");
      continue;
    }
    req.ids.push_back(id);
    req.id_origins.push_back(flag("--workload"));
  }
  if (f.app) {
    req.app = *f.app;
    req.app_origin = flag("--app");
  }
  if (!from_file && f.workloads.empty() && !f.app)
    diags.error(flag("--workload"),
                "give --workload ID (repeatable) or --app APP: which workloads to change");
  for (std::size_t i = 0; i < kReallocDeltas.size(); ++i)
    if (f.deltas[i])
      if (auto d = flag_delta(*f.deltas[i], kReallocDeltas[i], diags))
        req.*kReallocDeltas[i].member = *d;
  if (f.cpu_bind) {
    if (*f.cpu_bind == "keep")
      req.cpu_bind = CpuBindChange::Keep;
    else if (*f.cpu_bind == "true")
      req.cpu_bind = CpuBindChange::Bind;
    else if (*f.cpu_bind == "false")
      req.cpu_bind = CpuBindChange::Unbind;
    else
      diags.error(flag("--cpu-bind"), "expected keep, true or false, got " + quoted(*f.cpu_bind));
  }
}

}  // namespace

std::string render_realloc(const Inventory& inventory, const ReallocResult& result,
                           OutputFormat format, const std::string& error) {
  if (format == OutputFormat::Table) return render_table(inventory, result);
  std::string out;
  // About 520 bytes per workload and 200 per node in JSON: one allocation.
  out.reserve(600 * result.workloads.size() + 250 * result.nodes.size() + 256);
  append_document(out, format, [&](auto& w) { write_document(w, inventory, result); });
  if (error.empty()) return out;
  if (format == OutputFormat::Yaml) return out + error;  // one more top-level member
  // JSON: `error` is a whole {"error": {...}} document; its one member goes
  // in before the closing brace.
  std::string_view body = error;
  while (!body.empty() && body.back() == '\n') body.remove_suffix(1);
  body.remove_prefix(std::min(body.find('\n') + 1, body.size()));
  body = body.substr(0, body.rfind('\n'));
  out.resize(out.rfind('}'));
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out + ",\n" + std::string(body) + "\n}\n";
}

ReallocRun run_realloc(const ReallocOptions& options) {
  ReallocRun result;
  Diagnostics diags;
  diags.set_strict(options.strict);
  result.inventory = load_nodes(options.nodes, options.kubernetes.nodes_format, diags);
  // Pods become workloads (ids namespace/name) as well as usage.
  KubernetesOptions kubernetes = options.kubernetes;
  kubernetes.pods_as_workloads = true;
  load_pods(result.inventory, options.pods, kubernetes, diags, nullptr, options.more_pods);
  std::optional<ReallocRequest> request =
      options.request ? load_realloc(*options.request, diags) : ReallocRequest{};
  if (request && !options.flags.empty())
    apply_flags(options.flags, *request, options.request.has_value(), diags);
  std::optional<std::vector<WorkloadChange>> selected;
  if (result.inventory && request) selected = select_workloads(*result.inventory, *request, diags);
  std::uint64_t bytes = source_bytes(options.nodes);  // the run's input, which bounds its work
  if (options.pods) bytes += source_bytes(*options.pods);
  if (options.request) bytes += source_bytes(*options.request);
  for (const Source& s : options.more_pods) bytes += source_bytes(s);
  if (selected) {
    std::int64_t listed = listed_core_budget(bytes);
    for (const Node& node : result.inventory->nodes) listed -= node.listed_from_count();
    if (std::string why = realloc_too_large(*result.inventory, *selected, listed); !why.empty())
      diags.error(options.flags.cpu_bind || !options.request
                      ? Origin{"<command line>", 0, 0, "--cpu-bind"}
                      : Origin{options.request->name, 0, 0, "cpu_bind"},
                  why);
  }
  auto invalid = [&] {
    result.err = diags.to_string();
    result.exit = ExitCode::Invalid;
    keep_problems(result, diags);
    if (options.output != OutputFormat::Table)  // SPEC §13: a document on stdout too
      result.out = failure_document(
          options.output, ExitCode::Invalid,
          invalid_message(result.problems, result.problems_dropped_errors), result.problems);
    return result;
  };
  if (diags.has_errors() || !selected) return invalid();
  result.err = diags.to_string();
  // The run changes the inventory it loaded; result.inventory is then the
  // inventory after the realloc.
  Inventory& state = *result.inventory;
  result.realloc = realloc(state, std::move(*selected), options.atomic,
                           kReallocPlansPerBudget * plan_budget(bytes));
  const ReallocResult& r = *result.realloc;
  if (!r.too_large.empty()) {
    diags.error(Origin{"<command line>", 0, 0, options.request ? "-r" : "--app"}, r.too_large);
    result.realloc.reset();
    return invalid();
  }
  std::string error;
  if (r.failed_groups > 0) {
    result.exit = ExitCode::Infeasible;
    std::int64_t failed = 0;
    for (const WorkloadChange& c : r.workloads) {
      if (c.status != ReallocStatus::Failed) continue;
      ++failed;
      result.err += "failed: " + c.id + " on " + state.nodes[c.node].name + ": " + c.reason + '\n';
    }
    const std::string message =
        std::to_string(r.failed_groups) + " of " + std::to_string(r.groups) + " groups failed (" +
        std::to_string(failed) + " of " + std::to_string(r.workloads.size()) + " workloads)" +
        (options.atomic ? "; --atomic: nothing changed" : "");
    result.err += "infeasible: " + message + '\n';
    if (options.output != OutputFormat::Table)
      error = failure_document(options.output, ExitCode::Infeasible, message, {});
  }
  result.out = render_realloc(state, r, options.output, error);
  if (options.save_inventory)
    result.saved_inventory =
        render_inventory(state, *options.save_inventory,
                         options.units.value_or(default_units(*options.save_inventory)));
  return result;
}

}  // namespace eruplan
