// The command table's option groups: the options several commands share,
// and the checks of their values.
#include "command_options.h"

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
#include "request_reader.h"
#include "whatif.h"

namespace eruplan::command_options {

// --- Value checks (SPEC §13): a value that does not parse as its type is a
// usage error naming the flag; one out of range is left to the loader (exit 3).

std::string check_whole_number(const std::string& s) {
  const std::size_t start = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
  const bool ok = s.size() > start && s.find_first_not_of("0123456789", start) == std::string::npos;
  return ok ? std::string() : "expected a whole number, got " + quoted(s);
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
             ? "expected k=v (e.g. pool=gpu), got " + quoted(s)
             : std::string();
}

std::string check_strategy(const std::string& s) {
  return parse_strategy(s) ? std::string() : request_reading::unknown_strategy(s);
}

std::string check_strategy_list(const std::string& list) {
  std::stringstream names(list);
  for (std::string name; std::getline(names, name, ',');)
    if (!parse_strategy(name)) return request_reading::unknown_strategy(name);
  return std::string();
}

std::string check_scoring(const std::string& s) {
  return parse_scoring_type(s) ? std::string() : unknown_scoring(s);
}

std::string check_jobs(const std::string& s) {
  const bool digits =
      !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos;
  return digits && std::stoul(s) >= 1 ? std::string()
                                      : "expected a whole number >= 1, got " + quoted(s);
}

std::string check_seed(const std::string& s) {
  std::optional<std::uint64_t> seed;
  return parse_seed(s, seed) ? std::string()
                             : "expected a whole number 0..2^64-1 or none, got " + quoted(s);
}

std::string check_cycles(const std::string& s) {
  return parse_cycles(s) ? std::string()
                         : "expected a whole number from 1 to 1000000000, got " + quoted(s);
}

std::string check_tie_break(const std::string& s) {
  return parse_tie_break(s)
             ? std::string()
             : "expected name or random:SEED (SEED a whole number), got " + quoted(s);
}

std::string check_cpu_delta(const std::string& s) { return check_delta<parse_cpu>(s); }
std::string check_size_delta(const std::string& s) { return check_delta<parse_size>(s); }

OptionSpec realloc_delta_option(const ReallocDelta& delta) {
  const std::string name(delta.spec.flag);
  std::string help = "Override: " + std::string(delta.spec.help);
  if (!delta.shrink.empty()) help += " (" + name + "=" + std::string(delta.shrink) + " to shrink)";
  return checked(name, help, delta.parse == parse_cpu ? check_cpu_delta : check_size_delta,
                 "DELTA");
}

std::string check_cost(const std::string& s) {
  const std::size_t eq = s.find('=');
  return eq == std::string::npos || eq == 0
             ? "expected NAME=COST (e.g. big=0.192), got " + quoted(s)
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
                  std::string default_value) {
  OptionSpec o = value(std::move(names), std::move(help));
  o.choices = std::move(choices);
  o.default_value = std::move(default_value);
  return o;
}
OptionSpec checked(std::string names, std::string help, OptionCheck check, std::string check_name) {
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
      flag("--image-locality",
           "Kubernetes profile: ImageLocality scores the nodes whose status.images hold the "
           "pod's images, as kube-scheduler does (default: 0 on every node)"),
  };
}

// A request flag's option, by its field's codec; its help from the field.
OptionSpec request_flag_option(const RequestField& row) {
  const std::string name(row.spec.flag);
  const std::string help = flag_help(name);
  switch (row.member.codec) {
    case Codec::Integer:
      return checked(name, help, check_whole_number, "INTEGER");
    case Codec::Strategy:
      return suggesting(checked(name, "Override: " + strategy_choices(), check_strategy),
                        strategy_names());
    case Codec::ScoringType:
      return suggesting(checked(name,
                                "Override: scoring.type of strategy score (least_allocated, "
                                "most_allocated or requested_to_capacity_ratio)",
                                check_scoring),
                        names_of(kScoringTypeNames));
    case Codec::Cpu:
      return checked(name, help, check_quantity<parse_cpu>, "QUANTITY");
    case Codec::Size:
      return checked(name, help, check_quantity<parse_size>, "QUANTITY");
    case Codec::Bool: {
      OptionSpec o = flag(name + "{true}", help + " (" + name + "=false to unset)");
      o.kind = OptionKind::Switch;
      return o;
    }
    case Codec::Labels:
      return list(checked(name, help, check_label, "K=V"));
    case Codec::Volumes:
    case Codec::Names:
      return list(value(name, help));
    case Codec::Text:
    case Codec::Scalar:
    case Codec::None:
      break;
  }
  return value(name, help);
}

// The request overrides (SPEC §1), one per request field that has a flag,
// in table order; --replicas and --namespace (no request fields: a
// Kubernetes workload's) after --count.
Group request_flags_group() {
  Group g;
  for_each_override_row([&g](const RequestField& row) {
    OptionSpec o = request_flag_option(row);
    if (row.member.codec == Codec::ScoringType) {  // beside --strategy
      auto strategy = std::find_if(g.begin(), g.end(),
                                   [](const OptionSpec& s) { return s.key() == "--strategy"; });
      g.insert(strategy + 1, std::move(o));
    } else {
      g.push_back(std::move(o));
    }
    if (row.spec.flag == "--count") {
      g.push_back(
          checked("--replicas",
                  "A Kubernetes workload's desired total of pods, instead of its spec.replicas "
                  "(a Job's or CronJob's pods at once, instead of its parallelism)",
                  check_whole_number, "INTEGER"));
      g.push_back(value("--namespace",
                        "Namespace of Kubernetes objects that name none (as kubectl apply -n; "
                        "default: default)"));
    }
  });
  return g;
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
  g.push_back(file("--priority-classes",
                   "PriorityClasses (kubectl get priorityclasses -o json): what a manifest's "
                   "priorityClassName means"));
  g.push_back(file("--namespaces",
                   "Namespaces (kubectl get namespaces -o json): the labels a pod affinity "
                   "term's namespaceSelector matches"));
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
      choice("--queue-sort",
             "Order of several requests: priority; qos (then QoS class: Guaranteed, "
             "Burstable, BestEffort); coscheduling (then creation time, then namespace/name)",
             names_of(kQueueSortNames), "priority"),
      checked("--tie-break",
              "Equal totals under the kubernetes profile: name (the lowest node name) or "
              "random:SEED (kube-scheduler's pick, seeded)",
              check_tie_break, "name|random:SEED")};
}

}  // namespace eruplan::command_options
