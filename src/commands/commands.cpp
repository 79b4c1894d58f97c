// The command table (commands.h): the option groups commands share, each
// command's run (from parsed options to the command's own function), and the
// rows.
#include "commands.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <sstream>
#include <thread>

#include "diff.h"
#include "fixture.h"
#include "mesos_spec.h"
#include "realloc_command.h"
#include "request_fields.h"
#include "schema.h"
#include "whatif.h"

namespace eruplan {

std::string OptionSpec::key() const {
  std::stringstream parts(names);
  for (std::string name; std::getline(parts, name, ',');)
    if (name.starts_with("--")) return name.substr(0, name.find('{'));
  return names;  // a positional
}

const std::string& Args::value(std::string_view key) const {
  static const std::string kNone;
  const auto it = values.find(key);
  return it == values.end() ? kNone : it->second;
}

const std::vector<std::string>& Args::list(std::string_view key) const {
  static const std::vector<std::string> kNone;
  const auto it = lists.find(key);
  return it == lists.end() ? kNone : it->second;
}

bool Args::flag(std::string_view key) const {
  const auto it = flags.find(key);
  return it != flags.end() && it->second;
}

namespace {

constexpr const char* kStdin = "-";

// --- Value checks (SPEC §13): a value that does not parse as its type is a
// usage error naming the flag; one out of range is left to the loader (exit 3).

std::string check_whole_number(const std::string& s) {
  const std::size_t start = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
  const bool ok = s.size() > start && s.find_first_not_of("0123456789", start) == std::string::npos;
  return ok ? std::string() : "expected a whole number, got \"" + s + '"';
}

// A size or CPU amount: the library's own parser decides; only "expected
// ..." (not a quantity at all) is a usage error, the rest (negative,
// overflowing, fractional bytes) is left to the loader.
template <std::optional<std::int64_t> (*Parse)(std::string_view, std::string&)>
std::string check_quantity(const std::string& s) {
  std::string error;
  if (Parse(s, error) || !error.starts_with("expected")) return std::string();
  return error;
}

// A signed quantity: the sign, then what Parse reads.
template <std::optional<std::int64_t> (*Parse)(std::string_view, std::string&)>
std::string check_delta(const std::string& s) {
  const bool signed_ = !s.empty() && (s.front() == '-' || s.front() == '+');
  return check_quantity<Parse>(signed_ ? s.substr(1) : s);
}

std::string check_label(const std::string& s) {
  return s.find('=') == std::string::npos || s.front() == '='
             ? "expected k=v (e.g. pool=gpu), got \"" + s + '"'
             : std::string();
}

std::string check_strategy(const std::string& s) {
  return parse_strategy(s) ? std::string() : "unknown strategy; expected " + strategy_choices();
}

std::string check_strategy_list(const std::string& list) {
  std::stringstream names(list);
  for (std::string name; std::getline(names, name, ',');)
    if (!parse_strategy(name))
      return "unknown strategy '" + name + "'; expected " + strategy_choices();
  return std::string();
}

std::string check_scoring(const std::string& s) {
  return parse_scoring_type(s) ? std::string() : unknown_scoring(s);
}

std::string check_jobs(const std::string& s) {
  const bool digits =
      !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
  return digits && std::stoul(s) >= 1 ? std::string()
                                      : "expected a whole number >= 1, got \"" + s + '"';
}

std::string check_seed(const std::string& s) {
  std::optional<std::uint64_t> seed;
  return parse_seed(s, seed) ? std::string()
                             : "expected a whole number 0..2^64-1 or none, got \"" + s + '"';
}

std::string check_cycles(const std::string& s) {
  return parse_cycles(s) ? std::string() : "expected a whole number >= 1, got \"" + s + '"';
}

std::string check_tie_break(const std::string& s) {
  return parse_tie_break(s)
             ? std::string()
             : "expected name or random:SEED (SEED a whole number), got \"" + s + '"';
}

std::string check_cost(const std::string& s) {
  const std::size_t eq = s.find('=');
  return eq == std::string::npos || eq == 0
             ? "expected NAME=COST (e.g. big=0.192), got \"" + s + '"'
             : std::string();
}

// --- Option groups: the options several commands share. A command's row
// lists the groups it takes, in --help order; a new option of a group is one
// line here.

std::vector<std::string> strategy_names() {
  std::vector<std::string> out;
  for (const StrategyRow& row : strategy_table()) out.emplace_back(row.name);
  return out;
}

OptionSpec value(std::string names, std::string help) {
  OptionSpec o;
  o.names = std::move(names);
  o.help = std::move(help);
  return o;
}
OptionSpec choice(std::string names, std::string help, std::vector<std::string> choices,
                  std::string default_value = {}) {
  OptionSpec o = value(std::move(names), std::move(help));
  o.choices = std::move(choices);
  o.default_value = std::move(default_value);
  return o;
}
OptionSpec checked(std::string names, std::string help, OptionCheck check,
                   std::string check_name = {}) {
  OptionSpec o = value(std::move(names), std::move(help));
  o.check = check;
  o.check_name = std::move(check_name);
  return o;
}
OptionSpec file(std::string names, std::string help) {
  OptionSpec o = value(std::move(names), std::move(help));
  o.file = true;
  return o;
}
OptionSpec flag(std::string names, std::string help) {
  OptionSpec o = value(std::move(names), std::move(help));
  o.kind = OptionKind::Flag;
  return o;
}
OptionSpec suggesting(OptionSpec o, std::vector<std::string> values) {
  o.suggest = std::move(values);
  return o;
}
OptionSpec list(OptionSpec o) {
  o.kind = OptionKind::List;
  return o;
}

using Group = std::vector<OptionSpec>;

void append(Group& to, const Group& group) { to.insert(to.end(), group.begin(), group.end()); }

Group without(Group group, std::initializer_list<std::string_view> keys) {
  std::erase_if(group, [&](const OptionSpec& o) {
    return std::find(keys.begin(), keys.end(), o.key()) != keys.end();
  });
  return group;
}

// Unknown fields are errors by default (SPEC §19); --strict stays accepted.
Group strictness_group() {
  return {flag("--strict", "Unknown fields in the inputs are errors (exit 3; the default)"),
          flag("--lenient", "Unknown fields in the inputs are warnings, not errors")};
}

OptionSpec input_format_option() {
  return choice("--input-format", "Force the input format", {"json", "yaml"});
}

OptionSpec output_option() {
  return choice("-o,--output", "Output format", {"table", "json", "yaml"}, "table");
}

OptionSpec jobs_option() {
  OptionSpec o = checked("--jobs", "Threads for the per-node work (default: the number of cores)",
                         check_jobs, "N>=1");
  o.type_name = "UINT";
  return o;
}

OptionSpec report_option() {
  return file("--report",
              "Write a self-contained HTML page of usage before/after per node to FILE");
}

OptionSpec units_option() {
  return choice("--units",
                "Sizes and CPU in the written inventory: human (8Gi, 1500m) or bytes (default: "
                "human for YAML, bytes for JSON)",
                {"bytes", "human"});
}

std::optional<Units> units_of(const Args& a) {
  if (!a.has("--units")) return std::nullopt;
  return a.value("--units") == "human" ? Units::Human : Units::Bytes;
}

OptionSpec save_inventory_option(const std::string& after) {
  return file("--save-inventory", "Write the inventory after the " + after +
                                      " to FILE (YAML, or JSON for a .json name)");
}

// -n as a Kubernetes node list and --pods (SPEC §12).
Group kubernetes_group() {
  return {
      choice("--nodes-format",
             "How -n is read: auto (by its kind), eruplan or kubernetes (kubectl get nodes)",
             {"auto", "eruplan", "kubernetes"}, "auto"),
      list(file("--pods",
                "Running pods (kubectl get pods -A -o json), a file or a directory of them; "
                "repeatable: their requests become usage")),
      value("--app-label", "Label naming a pod's app (default app.kubernetes.io/name, then app)"),
  };
}

// The request overrides (SPEC §1), their help from the request's field table.
Group request_flags_group() {
  OptionSpec cpu_bind =
      flag("--cpu-bind{true}", flag_help("--cpu-bind") + " (--cpu-bind=false to unset)");
  cpu_bind.kind = OptionKind::Switch;
  return {
      value("--app", flag_help("--app")),
      checked("--count", flag_help("--count"), check_whole_number, "INTEGER"),
      checked("--replicas",
              "A Kubernetes workload's desired total of pods, instead of its spec.replicas",
              check_whole_number, "INTEGER"),
      suggesting(checked("--strategy", "Override: " + strategy_choices(), check_strategy),
                 strategy_names()),
      suggesting(checked("--scoring",
                         "Override: scoring.type of strategy score (least_allocated, "
                         "most_allocated or requested_to_capacity_ratio)",
                         check_scoring),
                 {"least_allocated", "most_allocated", "requested_to_capacity_ratio"}),
      checked("--nodes-limit", flag_help("--nodes-limit"), check_whole_number, "INTEGER"),
      checked("--cpu", flag_help("--cpu"), check_quantity<parse_cpu>, "QUANTITY"),
      cpu_bind,
      checked("--memory", flag_help("--memory"), check_quantity<parse_size>, "QUANTITY"),
      checked("--storage", flag_help("--storage"), check_quantity<parse_size>, "QUANTITY"),
      list(value("--volume", flag_help("--volume"))),
      list(checked("--label", flag_help("--label"), check_label, "K=V")),
      list(value("--node", flag_help("--node"))),
      list(value("--exclude", flag_help("--exclude"))),
  };
}

// One request planned on an inventory: capacity, plan, validate, apply and
// the what-if commands. `output` is the -o option (apply's differs).
Group planning_group(OptionSpec output) {
  Group g = {
      file("-n,--nodes", "Node inventory file (JSON or YAML); - for stdin (required)"),
      file("-r,--request", "Deploy request file (JSON or YAML); - for stdin"),
      input_format_option(),
      std::move(output),
      choice("--plans", "Which plans to print: all, assigned or none", {"all", "assigned", "none"},
             "all"),
  };
  append(g, request_flags_group());
  g.push_back(jobs_option());
  append(g, strictness_group());
  append(g, {
                flag("--explain", "Say for every node why it gets what it gets"),
                flag("--all-nodes",
                     "Tables list every node (default: past 50, the used ones and those with a "
                     "reason)"),
            });
  append(g, kubernetes_group());
  return g;
}

Group planning_group() { return planning_group(output_option()); }

// plan, apply: the options that change the cluster state.
Group state_group() {
  return {
      flag("--atomic", "All requests of the file succeed together or none is placed"),
      save_inventory_option("plan"),
      units_option(),
      report_option(),
      flag("--preempt", "A replica that fits nowhere evicts running pods of lower priority"),
      file("--pdbs", "PodDisruptionBudgets (kubectl get pdb -A -o json) that --preempt respects"),
      checked("--tie-break",
              "Equal totals under the kubernetes profile: name (the lowest node name) or "
              "random:SEED (kube-scheduler's pick, seeded)",
              check_tie_break, "name|random:SEED")};
}

// --- Running: from parsed options to a command's own function.

OutputFormat output_format(const std::string& name) {
  return name == "json"   ? OutputFormat::Json
         : name == "yaml" ? OutputFormat::Yaml
                          : OutputFormat::Table;
}

// The format a file is written in: JSON for a .json name, else YAML.
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

// Reads the input files a command names (-n, -r, --pods, --template), each
// one even after another cannot be read, so that one run names every
// unreadable file (SPEC §6); ok() then reports them all at once.
class InputFiles {
 public:
  explicit InputFiles(const CommandInput& in) : in_(in) {
    const std::string& forced = in.args.value("--input-format");
    format_ = forced == "json"   ? InputFormat::Json
              : forced == "yaml" ? InputFormat::Yaml
                                 : InputFormat::Auto;
  }

  void read(std::string_view key, Source& out) { read_path(in_.args.value(key), out); }

  // One path of a repeatable flag (grow --template).
  void read_path(const std::string& path, Source& out) {
    out.format = format_;
    out.name = path == kStdin ? "<stdin>" : path;
    std::string why;
    if (auto text = in_.files.read(path, why))
      out.text = std::move(*text);
    else
      problems_.push_back({Severity::Error, Origin{out.name, 0, 0, ""}, "cannot read: " + why});
  }

  // --pods: each file, and each directory's .json, .yaml and .yml files in
  // byte order (not recursing), in command-line order; the first into
  // `first`, the others into `more` (a command that takes one file passes
  // null and gets an error for a second).
  void read_pods(std::optional<Source>& first, std::vector<Source>* more) {
    std::vector<std::string> files;
    for (const std::string& p : in_.args.list("--pods")) {
      auto entries = in_.files.list_dir ? in_.files.list_dir(p) : std::nullopt;
      if (!entries) {
        files.push_back(p);
        continue;
      }
      std::vector<std::string> in_dir;
      for (const std::string& e : *entries)
        if (e.ends_with(".json") || e.ends_with(".yaml") || e.ends_with(".yml"))
          in_dir.push_back(e);
      std::sort(in_dir.begin(), in_dir.end());
      if (in_dir.empty())
        problems_.push_back({Severity::Error, Origin{p, 0, 0, ""},
                             "no .json, .yaml or .yml file in this directory"});
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (i == 0) {
        read_path(files[i], first.emplace());
      } else if (more) {
        read_path(files[i], more->emplace_back());
      } else {
        problems_.push_back(
            {Severity::Error, Origin{files[i], 0, 0, ""}, "this command takes one --pods file"});
        break;
      }
    }
  }

  // An input given by an optional flag: read when the flag was given.
  void read_given(std::string_view key, std::optional<Source>& out) {
    if (in_.args.value(key).empty()) return;
    read(key, out.emplace());
  }

  // True when every file could be read; otherwise false with `failed` set
  // to exit 3 naming each one (and the failure document with -o json|yaml).
  bool ok(OutputFormat output, CommandOutput& failed) const {
    if (problems_.empty()) return true;
    failed.exit = ExitCode::Invalid;
    for (const Diagnostic& problem : problems_) failed.err += format_diagnostic(problem) + '\n';
    if (output != OutputFormat::Table)
      failed.out =
          failure_document(output, ExitCode::Invalid, invalid_message(problems_), problems_);
    return false;
  }

 private:
  const CommandInput& in_;
  InputFormat format_ = InputFormat::Auto;
  std::vector<Diagnostic> problems_;
};

bool pods_stdin(const Args& a) {
  const std::vector<std::string>& pods = a.list("--pods");
  return std::find(pods.begin(), pods.end(), std::string(kStdin)) != pods.end();
}

RequestOverrides overrides_of(const Args& a) {
  RequestOverrides o;
  for_each_flag_field([&](const FieldSpec& spec) {
    const std::string flag(spec.flag);
    if (!a.has(flag)) return;
    if (spec.kind == FieldKind::List || spec.kind == FieldKind::Labels)
      for (const std::string& v : a.list(flag)) o.set(flag, v);
    else
      o.set(flag, a.value(flag));
  });
  if (a.has("--scoring")) o.scoring = a.value("--scoring");
  return o;
}

KubernetesOptions kubernetes_options(const Args& a) {
  KubernetesOptions k;
  const std::string& format = a.value("--nodes-format");
  k.nodes_format = format == "kubernetes" ? NodesFormat::Kubernetes
                   : format == "eruplan"  ? NodesFormat::Eruplan
                                          : NodesFormat::Auto;
  k.app_label = a.value("--app-label");
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

// capacity, plan, validate, apply, share.
CommandOutput run_pipeline(Command command, const CommandInput& in) {
  const Args& a = in.args;
  const OutputFormat output = output_format(a.value("--output"));
  if (a.value("--nodes").empty()) return usage(output, "--nodes is required");
  if (a.flag("--strict") && a.flag("--lenient"))
    return usage(output, "--strict and --lenient contradict each other; give one");
  const bool nodes_stdin = a.value("--nodes") == kStdin,
             request_stdin = a.value("--request") == kStdin;
  if (nodes_stdin && request_stdin)
    return usage(output, "only one of --nodes and --request may be - (stdin)");
  if (pods_stdin(a) && (nodes_stdin || request_stdin))
    return usage(output, "only one of --nodes, --request and --pods may be - (stdin)");
  RunOptions options;
  options.command = command;
  options.overrides = overrides_of(a);
  InputFiles inputs(in);
  inputs.read("--nodes", options.nodes);
  inputs.read_given("--request", options.request);
  inputs.read_pods(options.pods, command == Command::Share ? nullptr : &options.more_pods);
  inputs.read_given("--pdbs", options.pdbs);
  if (CommandOutput failed; !inputs.ok(output, failed)) return failed;
  options.output = output;
  options.preempt = a.flag("--preempt");
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
  if (a.value("--nodes").empty()) return usage(output, "--nodes is required");
  if (a.flag("--strict") && a.flag("--lenient"))
    return usage(output, "--strict and --lenient contradict each other; give one");
  ReallocFlags flags;
  flags.workloads = a.list("--workload");
  const auto given = [&a](const char* key) {
    return a.has(key) ? std::optional<std::string>(a.value(key)) : std::nullopt;
  };
  flags.app = given("--app");
  flags.cpu = given("--cpu");
  flags.cpu_limit = given("--cpu-limit");
  flags.memory = given("--memory");
  flags.memory_limit = given("--memory-limit");
  flags.cpu_bind = given("--cpu-bind");
  if (a.value("--request").empty() && flags.workloads.empty() && !flags.app)
    return usage(output,
                 "no realloc request: give -r FILE, or --workload ID (repeatable) or --app APP "
                 "with the deltas");
  const bool nodes_stdin = a.value("--nodes") == kStdin,
             request_stdin = a.value("--request") == kStdin;
  if (nodes_stdin && request_stdin)
    return usage(output, "only one of --nodes and --request may be - (stdin)");
  if (pods_stdin(a) && (nodes_stdin || request_stdin))
    return usage(output, "only one of --nodes, --request and --pods may be - (stdin)");
  ReallocOptions options;
  options.flags = std::move(flags);
  InputFiles inputs(in);
  inputs.read("--nodes", options.nodes);
  if (!a.value("--request").empty()) {
    options.request.emplace();
    inputs.read("--request", *options.request);
  }
  inputs.read_pods(options.pods, nullptr);
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
  add_file(out, a, "--save-inventory", result->saved_inventory);
  return out;
}

// compare, grow, drain (SPEC §14).
CommandOutput run_whatif_row(WhatIfCommand command, const CommandInput& in) {
  const Args& a = in.args;
  const OutputFormat output = output_format(a.value("--output"));
  if (a.value("--nodes").empty()) return usage(output, "--nodes is required");
  if (a.flag("--strict") && a.flag("--lenient"))
    return usage(output, "--strict and --lenient contradict each other; give one");
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
  inputs.read("--nodes", options.nodes);
  inputs.read_given("--request", options.request);
  inputs.read_pods(options.pods, &options.more_pods);
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
  out.err = std::move(result->run.err);
  out.usage = std::move(result->run.usage);
  if (!result->report.empty()) out.files.emplace_back(a.value("--report"), result->report);
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

CommandOutput run_test(const CommandInput& in) {
  const Args& a = in.args;
  const FileAccess& files = in.files;
  const ReadFile reader = [&files](const std::string& p) {
    std::string why;
    return p == kStdin ? std::nullopt : files.read(p, why);
  };
  if (!a.value("--print-expect").empty())
    return print_expect(a.value("--print-expect"), reader, files);
  if (a.list("paths").empty())
    return usage(OutputFormat::Table,
                 "test: give case files or directories (or --print-expect CASE)");
  const std::string& filter = a.value("--filter");
  std::vector<FixtureResult> results;
  for (const auto& [file, root] : collect_cases(a.list("paths"), reader)) {
    std::string why;
    const std::optional<std::string> text = files.read(file, why);
    FixtureResult r;
    if (!text) {
      r.file = r.name = file;
      r.differences.push_back("cannot read: " + why);
    } else {
      r = run_fixture_under(root, file, *text, reader);
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
  const std::optional<Inventory> old_inventory = load_inventory(old_source, diags);
  const std::optional<Inventory> new_inventory = load_inventory(new_source, diags);
  CommandOutput out;
  out.err = diags.to_string();
  if (diags.has_errors() || !old_inventory || !new_inventory) {
    out.exit = ExitCode::Invalid;
    std::vector<Diagnostic> errors;
    for (const Diagnostic& d : diags.items())
      if (d.severity == Severity::Error) errors.push_back(d);
    if (output != OutputFormat::Table)
      out.out = failure_document(output, ExitCode::Invalid, invalid_message(errors), errors);
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

// --- The rows, in --help order.

std::vector<CommandRow> make_table() {
  std::vector<CommandRow> rows;
  {
    Group o = planning_group();
    rows.push_back(
        {"capacity",
         "Capacity pass only: CapacityMap and PlanMap",
         o,
         run_capacity,
         {"eruplan capacity -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml",
          "eruplan capacity -n nodes.yaml --memory 512Mi --cpu 1 --cpu-bind -o json"}});
  }
  {
    Group o = planning_group();
    append(o, state_group());
    rows.push_back({"plan",
                    "Capacity pass, then strategy pass: DeployMap and bindings",
                    o,
                    run_plan,
                    {"eruplan plan -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml",
                     "eruplan plan -n nodes.yaml --app web --count 6 --memory 1Gi --strategy fill "
                     "--explain"}});
  }
  {
    // validate checks the inputs and prints no plan.
    const std::string no_plan = "validate prints no plan; use plan ";
    rows.push_back({"validate",
                    "Check the inputs and list every problem found",
                    without(planning_group(), {"--plans", "--explain", "--all-nodes"}),
                    run_validate,
                    {"eruplan validate -n fixtures/example/nodes.yaml -r "
                     "fixtures/example/request.yaml",
                     "eruplan validate -n nodes.yaml --lenient -o json"},
                    {{"--plans", no_plan + "--plans"},
                     {"--explain", no_plan + "--explain"},
                     {"--all-nodes", no_plan + "--all-nodes"}}});
  }
  {
    Group o = planning_group(
        choice("-o,--output", "Output format (default: the format of -n)", {"json", "yaml"}));
    append(o, state_group());
    rows.push_back(
        {"apply",
         "Plan, then print the inventory as it is after the plan",
         o,
         run_apply,
         {"eruplan apply -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml",
          "eruplan apply -n nodes.yaml -r requests.yaml --atomic --save-inventory after.yaml"}});
  }
  {
    Group o = strictness_group();
    append(o, {file("-n,--nodes", "Node inventory file (JSON or YAML); - for stdin (required)"),
               file("-r,--request,--apps",
                    "Apps file (JSON or YAML): placement and apps; - for stdin (required)"),
               input_format_option(), output_option(), jobs_option(),
               save_inventory_option("share"), units_option(), report_option(),
               choice("--model",
                      "drf: progressive filling of apps; mesos: Mesos' offers to frameworks in "
                      "roles",
                      {"drf", "mesos"}, "drf"),
               checked("--seed", "mesos: shuffle of the nodes each cycle, N or none (default 0)",
                       check_seed, "N|none"),
               checked("--cycles",
                       "mesos: at most K allocation cycles (default: until nothing more fits, "
                       "1000 at most)",
                       check_cycles, "K>=1")});
    append(o, kubernetes_group());
    rows.push_back(
        {"share",
         "Fair share of the nodes among several apps (DRF)",
         o,
         run_share_row,
         {"eruplan share -n fixtures/example/nodes.yaml -r apps.yaml",
          "eruplan share -n nodes.yaml -r apps.yaml -o json --save-inventory after.yaml"}});
  }
  {
    Group o = strictness_group();
    append(o, {file("-n,--nodes", "Node inventory file with workloads; - for stdin"),
               file("-r,--request",
                    "Realloc request: workloads: [ids] or app:, resources deltas, cpu_bind"),
               list(value("--workload",
                          "Override: a workload (or pod namespace/name) to change (repeatable)")),
               value("--app", "Override: change every workload of this app"),
               checked("--cpu", "Override: CPU request delta (--cpu=-0.5 to shrink)",
                       check_delta<parse_cpu>, "DELTA"),
               checked("--cpu-limit", "Override: CPU limit delta", check_delta<parse_cpu>, "DELTA"),
               checked("--memory", "Override: memory request delta (--memory=-512Mi to shrink)",
                       check_delta<parse_size>, "DELTA"),
               checked("--memory-limit", "Override: memory limit delta", check_delta<parse_size>,
                       "DELTA"),
               choice("--cpu-bind", "Override: keep (bound iff bound now), true or false",
                      {"keep", "true", "false"}),
               input_format_option(), output_option(),
               flag("--atomic", "When any group fails, change nothing"),
               save_inventory_option("realloc"), units_option()});
    append(o, kubernetes_group());
    rows.push_back({"realloc",
                    "Change the resources of running workloads in place (deltas)",
                    o,
                    run_realloc_row,
                    {"eruplan realloc -n nodes.yaml -r realloc.yaml",
                     "eruplan realloc -n nodes.yaml -r realloc.yaml --atomic -o json"}});
  }
  {
    // compare prints one row per strategy: no per-node plan to explain or list.
    Group o = without(planning_group(), {"--explain", "--all-nodes", "--strategy", "--plans"});
    o.push_back(report_option());
    o.push_back(suggesting(
        checked("--strategies",
                "Comma-separated strategies to compare (default: auto,global,drained,score)",
                check_strategy_list),
        strategy_names()));
    rows.push_back(
        {"compare",
         "Every strategy on the same input, side by side",
         o,
         run_compare,
         {"eruplan compare -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml",
          "eruplan compare -n nodes.yaml -r request.yaml --strategies auto,fill --report "
          "cmp.html"},
         {{"--strategy", "use --strategies to name the strategies to compare"},
          {"--plans", "compare prints one row per strategy and no plans; use plan --plans"},
          {"--explain", "compare prints one row per strategy; use plan --explain"},
          {"--all-nodes", "compare prints one row per strategy; use plan --all-nodes"}}});
  }
  {
    Group o = planning_group();
    o.push_back(list(file("--template",
                          "A node object (YAML or JSON, or a Kubernetes Node) to add copies of; "
                          "repeatable")));
    o.push_back(list(value("--like",
                           "A node of the inventory to add copies of, emptied (named NODE-new); "
                           "repeatable")));
    o.push_back(list(checked("--cost", "NAME=VALUE: what one node of a template costs", check_cost,
                             "NAME=VALUE")));
    o.push_back(choice("--expander", "How to pick among several templates (default least-waste)",
                       {"least-waste", "most-pods", "price", "priority"}));
    o.push_back(flag("--mix", "Find the cheapest mix of the templates instead"));
    o.push_back(
        checked("--max", "Most copies to add (default 10000)", check_whole_number, "INTEGER"));
    o.push_back(report_option());
    rows.push_back(
        {"grow",
         "How many nodes like a template must be added for the request",
         o,
         run_grow,
         {"eruplan grow -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml --count 20 "
          "--template node.yaml",
          "eruplan grow -n nodes.yaml -r request.yaml --template node.yaml --max 50 -o json"}});
  }
  {
    // drain's --node names the lost node, not a node_filter entry.
    Group o = without(planning_group(), {"--node", "--count"});
    o.push_back(value("--node", "The node that is lost"));
    o.push_back(
        flag("--each-node", "Ask for every available node running the app (the N-1 check)"));
    rows.push_back(
        {"drain",
         "Can a node's instances be placed elsewhere if it is lost",
         o,
         run_drain,
         {"eruplan drain -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml --node "
          "node-a",
          "eruplan drain -n nodes.yaml -r request.yaml --each-node -o json"},
         {{"--count",
           "drain places the lost node's own instances of the app, as many as it runs; leave "
           "--count out"}}});
  }
  {
    OptionSpec old_file = file("old", "The inventory before (JSON or YAML); - for stdin");
    OptionSpec new_file = file("new", "The inventory after (JSON or YAML); - for stdin");
    for (OptionSpec* o : {&old_file, &new_file}) {
      o->kind = OptionKind::Positional;
      o->required = true;
    }
    Group o = {old_file, new_file, input_format_option(), output_option(),
               flag("--exit-code", "Exit 1 when the inventories differ, 0 when not (as git diff)")};
    append(o, strictness_group());
    rows.push_back({"diff",
                    "Compare two inventories as values: nodes added, removed and changed",
                    o,
                    run_diff,
                    {"eruplan diff before.yaml after.yaml",
                     "eruplan diff nodes.yaml <(eruplan apply -n nodes.yaml -r request.yaml) "
                     "--exit-code -o json"}});
  }
  {
    OptionSpec paths = file("paths", "Case files and directories");
    paths.kind = OptionKind::Positionals;
    Group o = {
        paths,
        file("--print-expect", "Print the expect: block the current results of CASE would make"),
        value("--filter", "Run only cases whose name or file contains this"),
        choice("-o,--output", "Report format", {"text", "json", "junit"}, "text")};
    rows.push_back({"test",
                    "Run fixture cases; ends with 'N passed, N failed'",
                    o,
                    run_test,
                    {"eruplan test fixtures/", "eruplan test -o junit fixtures/ > report.xml"}});
  }
  {
    OptionSpec kind = choice("kind", "The input file described", schema_kinds());
    kind.kind = OptionKind::Positional;
    kind.required = true;
    rows.push_back({"schema",
                    "Print the JSON Schema of an input file, for editors and validators",
                    {kind},
                    run_schema,
                    {"eruplan schema inventory > eruplan-inventory.schema.json",
                     "eruplan schema case | check-jsonschema --schemafile /dev/stdin case.yaml"}});
  }
  {
    OptionSpec shell = choice("shell", "bash or zsh", {"bash", "zsh"});
    shell.kind = OptionKind::Positional;
    shell.required = true;
    rows.push_back(
        {"completion",
         "Print the bash or zsh completion script",
         {shell},
         run_completion,
         {"source <(eruplan completion bash)", "eruplan completion zsh > ~/.zfunc/_eruplan"}});
  }
  return rows;
}

}  // namespace

std::span<const CommandRow> command_table() {
  static const std::vector<CommandRow> rows = make_table();
  return rows;
}

const CommandRow* find_command(std::string_view name) {
  for (const CommandRow& row : command_table())
    if (row.name == name) return &row;
  return nullptr;
}

std::string command_names() {
  std::string out;
  for (const CommandRow& row : command_table()) {
    if (!out.empty()) out += ", ";
    out += row.name;
  }
  return out;
}

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// Every name of an option ("-n", "--nodes"), without a flag's {default}.
std::vector<std::string> option_names(const OptionSpec& o) {
  std::vector<std::string> out;
  std::stringstream parts(o.names);
  for (std::string name; std::getline(parts, name, ',');)
    if (name.starts_with("-")) out.push_back(name.substr(0, name.find('{')));
  return out;
}

}  // namespace

std::optional<std::string> check_flags(const CommandRow& row,
                                       const std::vector<std::string>& args) {
  const std::string command(row.name);
  std::map<std::string, bool> known = {{"-h", false}, {"--help", false}, {"--version", false}};
  for (const OptionSpec& o : row.options)
    for (const std::string& name : option_names(o))
      known[name] = o.kind == OptionKind::Value || o.kind == OptionKind::List;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (!arg.starts_with("-") || arg == "-") continue;
    const bool long_name = arg.starts_with("--");
    // -ojson and --output=json carry their value.
    const std::string name = long_name ? arg.substr(0, arg.find('=')) : arg.substr(0, 2);
    for (const RefusedOption& r : row.refused)
      if (r.key == name) return command + " does not take " + name + ": " + r.instead;
    if (const auto it = known.find(name); it != known.end()) {
      if (it->second && arg == name) ++i;  // its value, whatever it looks like
      continue;
    }
    if (!long_name) continue;  // a short option CLI11 reports itself
    std::string message = "unknown flag " + name + " for " + command;
    std::string nearest;
    std::size_t best = 3;  // at most 2 edits away
    for (const auto& [candidate, takes_value] : known) {
      if (!candidate.starts_with("--")) continue;
      const std::size_t d = edit_distance(name, candidate);
      if (d < best) best = d, nearest = candidate;
    }
    if (!nearest.empty()) return message + "; did you mean " + nearest + "?";
    for (const CommandRow& other : command_table())
      for (const OptionSpec& o : other.options)
        for (const std::string& n : option_names(o))
          if (n == name)
            return message + " (" + name + " is a flag of " + std::string(other.name) + ")";
    return message;
  }
  return std::nullopt;
}

std::string completion_script(std::string_view shell) {
  return shell == "bash" ? bash_completion() : zsh_completion();
}

}  // namespace eruplan
