// Each command's run: from parsed options to the command's own function.
#include "command_runs.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <set>
#include <sstream>
#include <thread>

#include "case_work.h"
#include "command_options.h"
#include "diff.h"
#include "fixture.h"
#include "mesos_spec.h"
#include "realloc_command.h"
#include "request_fields.h"
#include "schema.h"
#include "whatif.h"

namespace eruplan::command_runs {

using namespace command_options;

// --- Running: from parsed options to a command's own function.

OutputFormat output_format(const std::string& name) {
  return name == "json"   ? OutputFormat::Json
         : name == "yaml" ? OutputFormat::Yaml
                          : OutputFormat::Table;
}

OutputFormat format_for(const std::string& path) {
  return path.ends_with(".json") ? OutputFormat::Json : OutputFormat::Yaml;
}

CommandOutput usage(OutputFormat format, const std::string& message) {
  RunResult r;
  usage_failure(r, format, message);
  CommandOutput out;
  out.exit = r.exit;
  out.usage = std::move(r.usage);
  out.out = std::move(r.out);
  return out;
}

bool pods_stdin(const Args& a) {
  const std::vector<std::string>& pods = a.list("--pods");
  return std::find(pods.begin(), pods.end(), std::string(kStdin)) != pods.end();
}

RequestOverrides overrides_of(const Args& a) {
  RequestOverrides o;
  for_each_override_row([&](const RequestField& row) {
    const std::string flag(row.spec.flag);
    if (!a.has(flag)) return;
    if (row.spec.kind == FieldKind::List || row.spec.kind == FieldKind::Labels)
      for (const std::string& v : a.list(flag)) o.set(flag, v);
    else
      o.set(flag, a.value(flag));
  });
  return o;
}

KubernetesOptions kubernetes_options(const Args& a) {
  KubernetesOptions k;
  const std::string& format = a.value("--nodes-format");
  k.nodes_format = format == "kubernetes" ? NodesFormat::Kubernetes
                   : format == "eruplan"  ? NodesFormat::Eruplan
                                          : NodesFormat::Auto;
  k.app_label = a.value("--app-label");
  k.manifest_namespace = a.value("--namespace");
  k.image_locality = a.flag("--image-locality");
  if (a.has("--replicas")) {
    std::int64_t n = 0;
    const std::string& text = a.value("--replicas");
    std::from_chars(text.data() + (text[0] == '+'), text.data() + text.size(), n);
    k.replicas = n;
  }
  return k;
}

PlansShown plans_shown(const std::string& name) {
  return name == "assigned" ? PlansShown::Assigned
         : name == "none"   ? PlansShown::None
                            : PlansShown::All;
}

unsigned jobs_of(const Args& a) {
  const std::string& jobs = a.value("--jobs");
  if (!jobs.empty()) return static_cast<unsigned>(std::stoul(jobs));
  return std::max(1u, std::thread::hardware_concurrency());
}

// The files a run asked for: written by the CLI before it prints.
void add_file(CommandOutput& out, const Args& a, std::string_view key,
              const std::optional<std::string>& text) {
  if (text) out.files.emplace_back(a.value(key), *text);
}

template <class Result>
CommandOutput output_of(std::shared_ptr<Result> result) {
  CommandOutput out;
  out.exit = result->exit;
  out.out = std::move(result->out);
  out.err = std::move(result->err);
  out.usage = std::move(result->usage);
  out.keep = result;
  return out;
}

// The checks of a command that reads -n: it is given, and not both
// --strict and --lenient; a usage failure, or nothing.
std::optional<CommandOutput> nodes_misuse(const Args& a, OutputFormat output) {
  if (a.value("--nodes").empty()) return usage(output, "--nodes is required");
  if (a.flag("--strict") && a.flag("--lenient"))
    return usage(output, "--strict and --lenient contradict each other; give one");
  return std::nullopt;
}

// At most one of -n, -r and --pods reads stdin.
std::optional<CommandOutput> stdin_misuse(const Args& a, OutputFormat output) {
  const bool nodes_stdin = a.value("--nodes") == kStdin,
             request_stdin = a.value("--request") == kStdin;
  if (nodes_stdin && request_stdin)
    return usage(output, "only one of --nodes and --request may be - (stdin)");
  if (pods_stdin(a) && (nodes_stdin || request_stdin))
    return usage(output, "only one of --nodes, --request and --pods may be - (stdin)");
  return std::nullopt;
}

// capacity, plan, validate, apply, share.
CommandOutput run_pipeline(Command command, const CommandInput& in) {
  const Args& a = in.args;
  const OutputFormat output = output_format(a.value("--output"));
  if (auto misuse = nodes_misuse(a, output)) return std::move(*misuse);
  if (auto misuse = stdin_misuse(a, output)) return std::move(*misuse);
  RunOptions options;
  options.command = command;
  options.overrides = overrides_of(a);
  InputFiles inputs(in);
  inputs.read_cluster(options);
  inputs.read_given("--pdbs", options.pdbs);
  inputs.read_given("--priority-classes", options.priority_classes);
  inputs.read_given("--namespaces", options.namespaces);
  if (CommandOutput failed; !inputs.ok(output, failed)) return failed;
  options.output = output;
  options.preempt = a.flag("--preempt");
  options.queue_sort = queue_sort_named(a.value("--queue-sort"));
  if (a.has("--tie-break"))
    if (auto tie = parse_tie_break(a.value("--tie-break"))) options.tie_seed = *tie;
  // apply prints an inventory in the format of -n unless -o says otherwise.
  if (command == Command::Apply && !a.has("--output"))
    options.output =
        source_format(options.nodes) == InputFormat::Json ? OutputFormat::Json : OutputFormat::Yaml;
  options.strict = !a.flag("--lenient");
  options.explain = a.flag("--explain");
  options.all_nodes = a.flag("--all-nodes");
  options.plans = plans_shown(a.value("--plans"));
  options.kubernetes = kubernetes_options(a);
  options.atomic = a.flag("--atomic");
  options.jobs = jobs_of(a);
  if (!a.value("--save-inventory").empty())
    options.save_inventory = format_for(a.value("--save-inventory"));
  options.units = units_of(a);
  options.report = !a.value("--report").empty();
  options.stream_out = in.stream_out;
  if (command == Command::Share && a.value("--model") == "mesos") {
    MesosOptions mesos;
    if (a.has("--seed")) parse_seed(a.value("--seed"), mesos.seed);
    if (a.has("--cycles")) mesos.cycles = parse_cycles(a.value("--cycles")).value_or(0);
    options.mesos = mesos;
  }
  auto result = std::make_shared<RunResult>(run(std::move(options)));
  CommandOutput out = output_of(result);
  out.err.insert(0, inputs.warnings());
  add_file(out, a, "--save-inventory", result->saved_inventory);
  add_file(out, a, "--report", result->report);
  return out;
}

CommandOutput run_capacity(const CommandInput& in) { return run_pipeline(Command::Capacity, in); }
CommandOutput run_plan(const CommandInput& in) { return run_pipeline(Command::Plan, in); }
CommandOutput run_validate(const CommandInput& in) { return run_pipeline(Command::Validate, in); }
CommandOutput run_apply(const CommandInput& in) { return run_pipeline(Command::Apply, in); }
CommandOutput run_share_row(const CommandInput& in) {
  const Args& a = in.args;
  if (a.value("--model") != "mesos" && (a.has("--seed") || a.has("--cycles")))
    return usage(output_format(a.value("--output")), "--seed and --cycles go with --model mesos");
  return run_pipeline(Command::Share, in);
}

CommandOutput run_realloc_row(const CommandInput& in) {
  const Args& a = in.args;
  const OutputFormat output = output_format(a.value("--output"));
  if (auto misuse = nodes_misuse(a, output)) return std::move(*misuse);
  ReallocFlags flags;
  flags.workloads = a.list("--workload");
  const auto given = [&a](const char* key) {
    return a.has(key) ? std::optional<std::string>(a.value(key)) : std::nullopt;
  };
  flags.app = given("--app");
  for (std::size_t i = 0; i < kReallocDeltas.size(); ++i)
    flags.deltas[i] = given(std::string(kReallocDeltas[i].spec.flag).c_str());
  flags.cpu_bind = given("--cpu-bind");
  if (a.value("--request").empty() && flags.workloads.empty() && !flags.app)
    return usage(output,
                 "no realloc request: give -r FILE, or --workload ID (repeatable) or --app APP "
                 "with the deltas");
  if (auto misuse = stdin_misuse(a, output)) return std::move(*misuse);
  ReallocOptions options;
  options.flags = std::move(flags);
  InputFiles inputs(in);
  inputs.read_cluster(options);
  if (CommandOutput failed; !inputs.ok(output, failed)) return failed;
  options.kubernetes = kubernetes_options(a);
  options.output = output;
  options.atomic = a.flag("--atomic");
  options.strict = !a.flag("--lenient");
  if (!a.value("--save-inventory").empty())
    options.save_inventory = format_for(a.value("--save-inventory"));
  options.units = units_of(a);
  auto result = std::make_shared<ReallocRun>(run_realloc(options));
  CommandOutput out = output_of(result);
  out.err.insert(0, inputs.warnings());
  add_file(out, a, "--save-inventory", result->saved_inventory);
  return out;
}

// compare, grow, drain (SPEC §14).
CommandOutput run_whatif_row(WhatIfCommand command, const CommandInput& in) {
  const Args& a = in.args;
  const OutputFormat output = output_format(a.value("--output"));
  if (auto misuse = nodes_misuse(a, output)) return std::move(*misuse);
  if (command == WhatIfCommand::Grow && a.list("--template").empty() && a.list("--like").empty())
    return usage(output, "--template or --like is required");
  if (command == WhatIfCommand::Grow && a.flag("--mix") && a.has("--expander"))
    return usage(output, "give --mix or --expander, not both");
  const bool each_node = a.flag("--each-node");
  if (command == WhatIfCommand::Drain && a.value("--node").empty() == !each_node)
    return usage(output, "give one of --node NAME and --each-node");
  const std::vector<std::string>& templates = a.list("--template");
  const int stdin_users =
      (a.value("--nodes") == kStdin) + (a.value("--request") == kStdin) +
      (command == WhatIfCommand::Grow && a.value("--daemonsets") == kStdin) +
      static_cast<int>(std::count(templates.begin(), templates.end(), std::string(kStdin))) +
      (pods_stdin(a));
  if (stdin_users > 1) return usage(output, "only one input may be - (stdin)");
  // --explain and --all-nodes shape a plan's output; drain --each-node
  // prints one line per node already.
  if (command == WhatIfCommand::Drain && each_node &&
      (a.flag("--explain") || a.flag("--all-nodes")))
    return usage(output, std::string(a.flag("--explain") ? "--explain" : "--all-nodes") +
                             " applies to drain --node, not --each-node");
  WhatIfOptions options;
  options.command = command;
  // drain's --node names the lost node, not a node_filter entry.
  Args request_args = a;
  if (command == WhatIfCommand::Drain) request_args.given.erase("--node");
  options.overrides = overrides_of(request_args);
  InputFiles inputs(in);
  inputs.read_cluster(options);
  inputs.read_given("--priority-classes", options.priority_classes);
  if (command == WhatIfCommand::Grow) inputs.read_given("--daemonsets", options.daemonsets);
  inputs.read_given("--namespaces", options.namespaces);
  for (const std::string& t : templates) inputs.read_path(t, options.templates.emplace_back());
  options.like = a.list("--like");
  options.costs = a.list("--cost");
  if (a.has("--expander")) options.expander = a.value("--expander");
  options.mix = a.flag("--mix");
  if (CommandOutput failed; !inputs.ok(output, failed)) return failed;
  options.kubernetes = kubernetes_options(a);
  options.output = output;
  options.plans = plans_shown(a.value("--plans"));
  options.jobs = jobs_of(a);
  std::stringstream names(a.value("--strategies"));
  for (std::string name; std::getline(names, name, ',');)
    if (!name.empty()) options.strategies.push_back(name);
  options.max = kDefaultGrowMax;
  if (const std::string& max = a.value("--max"); !max.empty()) {
    // A whole number (its check saw to that) past int64 is out of range:
    // invalid input, exit 3, as for --count (SPEC §13).
    const std::string_view digits = std::string_view(max).substr(max[0] == '+' ? 1 : 0);
    const auto [end, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), options.max);
    if (ec != std::errc() || end != digits.data() + digits.size()) {
      const Diagnostic problem{
          Severity::Error, Origin{"<command line>", 0, 0, "--max"},
          "number " + max + " is out of range (at most " + std::to_string(INT64_MAX) + ")"};
      CommandOutput failed;
      failed.exit = ExitCode::Invalid;
      failed.err = format_diagnostic(problem) + '\n';
      if (output != OutputFormat::Table)
        failed.out =
            failure_document(output, ExitCode::Invalid, invalid_message({problem}), {problem});
      return failed;
    }
  }
  options.node = a.value("--node");
  options.each_node = each_node;
  options.report = !a.value("--report").empty();
  options.strict = !a.flag("--lenient");
  options.explain = a.flag("--explain");
  options.all_nodes = a.flag("--all-nodes");
  auto result = std::make_shared<WhatIfResult>(run_whatif(options));
  CommandOutput out;
  out.exit = result->run.exit;
  out.out = std::move(result->run.out);
  out.err = inputs.warnings() + result->run.err;
  out.usage = std::move(result->run.usage);
  if (!result->report.empty())
    out.files.emplace_back(a.value("--report"), std::move(result->report));
  if (result->write_report) out.written.emplace_back(a.value("--report"), result->write_report);
  out.keep = result;
  return out;
}

CommandOutput run_compare(const CommandInput& in) {
  return run_whatif_row(WhatIfCommand::Compare, in);
}
CommandOutput run_grow(const CommandInput& in) { return run_whatif_row(WhatIfCommand::Grow, in); }
CommandOutput run_drain(const CommandInput& in) { return run_whatif_row(WhatIfCommand::Drain, in); }

// `eruplan test --print-expect CASE`: runs the case and prints the expect:
// block its current results make, to paste into the case file.
CommandOutput print_expect(const std::string& file, const ReadFile& reader,
                           const FileAccess& files) {
  CommandOutput out;
  std::string why;
  const std::optional<std::string> text = files.read(file, why);
  if (!text) {
    out.exit = ExitCode::Invalid;
    out.err = file + ": error: cannot read: " + why + '\n';
    return out;
  }
  std::string error;
  const std::optional<std::string> expect = fixture_expect(file, *text, reader, error);
  if (!expect) {
    out.exit = ExitCode::Internal;
    out.err = file + ": error: " + error + '\n';
    return out;
  }
  out.out = *expect;
  return out;
}

// What the cases of one `eruplan test` run read: every byte each time (an
// input named by several cases counts each time), and the distinct files.
// Past kCaseReadsPerByte times the distinct files' bytes plus
// kCaseReadsFloor, the later cases do not run: a small directory of many
// cases naming one large input must not plan it without end.
constexpr std::uint64_t kCaseReadsPerByte = 32;
constexpr std::uint64_t kCaseReadsFloor = std::uint64_t{1} << 20;

struct CaseReads {
  std::uint64_t all = 0, distinct = 0;
  std::set<std::string> files;
  void count(const std::string& path, std::size_t bytes) {
    all += bytes;
    if (files.insert(path).second) distinct += bytes;
  }
  std::uint64_t bound() const { return kCaseReadsPerByte * distinct + kCaseReadsFloor; }
  bool over() const { return all > bound(); }
};

CommandOutput run_test(const CommandInput& in) {
  const Args& a = in.args;
  const FileAccess& files = in.files;
  CaseReads reads;
  const ReadFile reader = [&files, &reads](const std::string& p) {
    std::string why;
    std::optional<std::string> text = p == kStdin ? std::nullopt : files.read(p, why);
    if (text) reads.count(p, text->size());
    return text;
  };
  if (!a.value("--print-expect").empty())
    return print_expect(a.value("--print-expect"), reader, files);
  if (a.list("paths").empty())
    return usage(OutputFormat::Table,
                 "test: give case files or directories (or --print-expect CASE)");
  const std::string& filter = a.value("--filter");
  std::vector<FixtureResult> results;
  // The cases share the work bounds (case_work.h); a case file reached
  // twice (a symlink to another case, a path given twice) runs once.
  CaseWork shared;
  std::set<std::string> seen;
  for (const auto& [file, root] : collect_cases(a.list("paths"), reader)) {
    std::error_code ec;
    const std::filesystem::path resolved = std::filesystem::weakly_canonical(file, ec);
    if (!seen.insert(ec ? file : resolved.string()).second) continue;
    std::string why;
    const std::optional<std::string> text = files.read(file, why);
    if (text) reads.count(file, text->size());
    FixtureResult r;
    if (!text) {
      r.file = r.name = file;
      r.differences.push_back("cannot read: " + why);
    } else if (reads.over()) {
      r.file = r.name = file;
      r.differences.push_back(
          "too large: the run has read " + std::to_string(reads.all) +
          " bytes of case files and inputs (an input named by several cases counts each "
          "time), more than " +
          std::to_string(kCaseReadsPerByte) + " times the " + std::to_string(reads.distinct) +
          " bytes of distinct files plus 1 MiB; run fewer cases at once");
    } else {
      r = run_fixture_under(root, file, *text, reader);
      shared.case_done();
    }
    if (!filter.empty() && r.name.find(filter) == std::string::npos &&
        r.file.find(filter) == std::string::npos)
      continue;
    results.push_back(std::move(r));
  }
  const std::string& format = a.value("--output");
  CommandOutput out;
  out.out = render_fixture_report(results, format == "json"    ? FixtureReportFormat::Json
                                           : format == "junit" ? FixtureReportFormat::Junit
                                                               : FixtureReportFormat::Text);
  if (results.empty()) {
    // A mistyped path or filter must not pass a CI job silently.
    out.err = std::string("eruplan: error: no fixture cases found") +
              (filter.empty() ? "" : " matching --filter") + '\n';
    out.exit = ExitCode::Internal;
    return out;
  }
  const bool all_passed =
      std::all_of(results.begin(), results.end(), [](const FixtureResult& r) { return r.passed; });
  out.exit = all_passed ? ExitCode::Ok : ExitCode::Internal;
  return out;
}

// `eruplan diff OLD NEW`: exit 0, or with --exit-code 1 when they differ
// (git's convention); 3 when either does not load.
CommandOutput run_diff(const CommandInput& in) {
  const Args& a = in.args;
  const OutputFormat output = output_format(a.value("--output"));
  if (a.flag("--strict") && a.flag("--lenient"))
    return usage(output, "--strict and --lenient contradict each other; give one");
  if (a.value("old") == kStdin && a.value("new") == kStdin)
    return usage(output, "only one of OLD and NEW may be - (stdin)");
  Source old_source, new_source;
  InputFiles inputs(in);
  inputs.read("old", old_source);
  inputs.read("new", new_source);
  if (CommandOutput failed; !inputs.ok(output, failed)) return failed;
  Diagnostics diags;
  diags.set_strict(!a.flag("--lenient"));
  // Either may be what -n takes: an inventory or kubectl's Nodes.
  const NodesFormat format = kubernetes_options(a).nodes_format;
  const std::optional<Inventory> old_inventory = load_nodes(old_source, format, diags);
  const std::optional<Inventory> new_inventory = load_nodes(new_source, format, diags);
  CommandOutput out;
  out.err = diags.to_string();
  if (diags.has_errors() || !old_inventory || !new_inventory) {
    out.exit = ExitCode::Invalid;
    std::vector<Diagnostic> errors;
    for (const Diagnostic& d : diags.items())
      if (d.severity == Severity::Error) errors.push_back(d);
    if (output != OutputFormat::Table)
      out.out = failure_document(output, ExitCode::Invalid,
                                 invalid_message(errors, diags.dropped_errors()), errors);
    return out;
  }
  const InventoryDiff diff = diff_inventories(*old_inventory, *new_inventory);
  out.out = render_diff(diff, output);
  if (a.flag("--exit-code") && !diff.empty()) out.exit = ExitCode::Internal;  // 1: they differ
  return out;
}

// `eruplan schema KIND`: the JSON Schema of one of eruplan's input files.
CommandOutput run_schema(const CommandInput& in) {
  CommandOutput out;
  out.out = render_schema(in.args.value("kind")).value_or("");
  return out;
}

CommandOutput run_completion(const CommandInput& in) {
  CommandOutput out;
  out.out = completion_script(in.args.value("shell"));
  return out;
}

}  // namespace eruplan::command_runs
