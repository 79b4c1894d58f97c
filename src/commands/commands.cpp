// The command table (commands.h): the rows, lookup, "did you mean" and the
// completions' inputs. The option groups are in command_options.cpp, each
// command's run in command_runs.cpp.
#include "commands.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <sstream>
#include <thread>

#include "command_options.h"
#include "command_runs.h"
#include "diff.h"
#include "fixture.h"
#include "mesos_spec.h"
#include "realloc_command.h"
#include "request_fields.h"
#include "schema.h"
#include "snapshot.h"
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

using namespace command_options;
using namespace command_runs;

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
               value("--app", "Override: change every workload of this app")});
    for (const ReallocDelta& delta : kReallocDeltas) o.push_back(realloc_delta_option(delta));
    append(o, {choice("--cpu-bind", "Override: keep (bound iff bound now), true or false",
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
                       names_of(kExpanderNames)));
    o.push_back(flag("--mix", "Find the cheapest mix of the templates instead"));
    o.push_back(file("--daemonsets",
                     "DaemonSets (kubectl get daemonsets -A -o json) that every added node runs "
                     "first"));
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
    Group o = without(planning_group(), {"--node", "--count", "--replicas"});
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
           "--count out"},
          {"--replicas",
           "drain places the lost node's own pods of the workload, whatever its replicas; leave "
           "--replicas out"}}});
  }
  {
    OptionSpec old_file = file(
        "old", "The nodes before: an inventory or kubectl get nodes (JSON or YAML); - for stdin");
    OptionSpec new_file = file(
        "new", "The nodes after: an inventory or kubectl get nodes (JSON or YAML); - for stdin");
    for (OptionSpec* o : {&old_file, &new_file}) {
      o->kind = OptionKind::Positional;
      o->required = true;
    }
    Group o = {old_file,
               new_file,
               input_format_option(),
               choice("--nodes-format",
                      "How OLD and NEW are read: auto (each by its kind), eruplan or kubernetes "
                      "(kubectl get nodes)",
                      {"auto", "eruplan", "kubernetes"}, "auto"),
               output_option(),
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
  rows.push_back(
      {"snapshot",
       "Save the cluster's nodes, pods, priority classes, PDBs and DaemonSets with kubectl",
       {file("-o,--output-dir", "Existing directory the files go to (default: the current one)"),
        value("--context", "kubectl's --context: the kubeconfig context to read"),
        file("--kubeconfig", "kubectl's --kubeconfig: the kubeconfig file")},
       run_snapshot,
       {"mkdir -p cluster && eruplan snapshot -o cluster/ && eruplan plan -n cluster/nodes.json "
        "--pods cluster/pods.json -r deploy.yaml",
        "mkdir -p prod && eruplan snapshot --context prod -o prod/"}});
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
    // A short option: a letter (-5 may be a value CLI11 takes).
    if (!long_name && !std::isalpha(static_cast<unsigned char>(arg[1]))) continue;
    std::string message = "unknown flag " + name + " for " + command;
    // -count for --count: one dash before a long name.
    if (!long_name && arg.size() > 2)
      if (const std::string dashed = "-" + arg.substr(0, arg.find('=')); known.count(dashed))
        return "unknown flag " + arg.substr(0, arg.find('=')) + " for " + command +
               "; did you mean " + dashed + "?";
    std::vector<std::string_view> long_names;
    for (const auto& [candidate, takes_value] : known)
      if (candidate.starts_with("--")) long_names.push_back(candidate);
    if (long_name)
      if (const std::string_view nearest = nearest_name(name, long_names, 2); !nearest.empty())
        return message + "; did you mean " + std::string(nearest) + "?";
    // Every command that takes it (it named only the first), or, for a
    // near miss of another command's flag, that flag.
    auto owners_of = [](const std::string& flag) {
      std::string owners;
      for (const CommandRow& other : command_table()) {
        bool has = false;
        for (const OptionSpec& o : other.options)
          for (const std::string& n : option_names(o)) has = has || n == flag;
        if (has) owners += (owners.empty() ? "" : ", ") + std::string(other.name);
      }
      return owners;
    };
    if (const std::string owners = owners_of(name); !owners.empty())
      return message + " (" + name + " is a flag of " + owners + ")";
    std::vector<std::string> every_name;  // every command's long flags
    for (const CommandRow& other : command_table())
      for (const OptionSpec& o : other.options)
        for (const std::string& n : option_names(o))
          if (n.starts_with("--")) every_name.push_back(n);
    if (long_name)
      if (const std::string_view nearest = nearest_name(name, every_name, 2); !nearest.empty())
        return message + " (did you mean " + std::string(nearest) + "? a flag of " +
               owners_of(std::string(nearest)) + ")";
    return message;
  }
  return std::nullopt;
}

std::string completion_script(std::string_view shell) {
  return shell == "bash" ? bash_completion() : zsh_completion();
}

}  // namespace eruplan
