// The commands as one pure function: load -> check -> capacity -> strategy
// -> render, mapping each way of stopping to its SPEC §6 exit code.
#include "pipeline.h"

#include <algorithm>

#include "json_writer.h"

namespace eruplan {

namespace {

std::string count_text(std::int64_t n) { return n == kUnlimited ? "unlimited" : std::to_string(n); }

// "valid: 4 nodes (1 not available), 32 cores, 128Gi memory", or for -o
// json/yaml the same facts as a document.
std::string validate_summary(const Inventory& inventory, const Request* request,
                             OutputFormat format) {
  // The sums may pass INT64_MAX (two nodes of 7Ei): add in 128 bits, which
  // no inventory of fewer than 2^64 nodes can overflow, and print exactly.
  __extension__ typedef __int128 i128;
  i128 cores = 0, memory = 0;
  std::int64_t cordoned = 0;
  for (const Node& n : inventory.nodes) {
    cores += static_cast<i128>(n.core_count());
    memory += n.memory;
    cordoned += n.available ? 0 : 1;
  }
  auto decimal = [](i128 v) {  // v >= 0: sizes and counts are never negative
    if (v <= INT64_MAX) return std::to_string(static_cast<std::int64_t>(v));
    std::string digits;
    for (; v > 0; v /= 10) digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    return digits;
  };
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
      w.key("nodes");
      w.integer(static_cast<std::int64_t>(inventory.nodes.size()));
      w.key("not_available");
      w.integer(cordoned);
      w.key("cores");
      w.number(decimal(cores));
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
  out += ", " + decimal(cores) + " cores, " + bytes_text(memory) + " memory";
  if (request != nullptr) {
    out += "; request: app " + (request->app.empty() ? std::string("(none)") : request->app) +
           ", strategy " + std::string(strategy_name(request->strategy));
    if (request->count > 0) out += ", count " + std::to_string(request->count);
  }
  return out + '\n';
}

// The per-node facts that explain a failed strategy pass: each node's
// capacity, or its reason when 0; the first kShown nodes by name.
std::string zero_capacity_reasons(const Inventory& inventory, const CapacityMap& map) {
  constexpr std::size_t kShown = 100;
  std::string out;
  for (std::size_t i = 0; i < map.nodes.size(); ++i) {
    if (i == kShown) {
      out += "  ... and " + std::to_string(map.nodes.size() - kShown) + " more nodes\n";
      break;
    }
    const NodeCapacity& n = map.nodes[i];
    out += "  " + inventory.nodes[n.node].name + ": ";
    if (n.capacity == 0)
      out += "capacity 0 (" + n.reason + ")";
    else
      out += "capacity " + count_text(n.capacity) + ", " + std::to_string(n.existing) + " existing";
    out += '\n';
  }
  return out;
}

// The PlanMap lists at most kDefaultMaxPlans plans per node; say so where
// that cut a node's list short.
std::string plan_cut_warnings(const Inventory& inventory, const CapacityMap& map, PlansShown shown) {
  std::string out;
  if (!map.binds || shown != PlansShown::All) return out;
  for (const NodeCapacity& n : map.nodes) {
    if (n.capacity == kUnlimited || static_cast<std::int64_t>(n.plans.size()) >= n.capacity) continue;
    out += "warning: " + inventory.nodes[n.node].name + ": plans listed: " +
           std::to_string(n.plans.size()) + " of " + std::to_string(n.capacity) + '\n';
  }
  return out;
}

void plan_strategy(RunResult& result, const RunOptions& options) {
  const Inventory& inventory = *result.inventory;
  const Request& request = *result.request;
  const CapacityMap& map = *result.capacity;  // plans may be topped up below

  std::vector<StrategyInfo> infos;
  std::vector<size_t> where;  // infos index -> capacity.nodes index
  infos.reserve(map.nodes.size());
  for (size_t i = 0; i < map.nodes.size(); ++i) {
    const NodeCapacity& n = map.nodes[i];
    if (n.capacity <= 0) continue;
    infos.push_back({inventory.nodes[n.node].name, n.existing, n.capacity, n.usage, n.rate});
    where.push_back(i);
  }
  const StrategyResult outcome = strategy_function(request.strategy)(
      infos, request.count, map.total, request.nodes_limit);

  if (outcome.outcome != StrategyOutcome::Deployed) {
    const bool satisfied = outcome.outcome == StrategyOutcome::AlreadySatisfied;
    result.exit = satisfied ? ExitCode::AlreadySatisfied : ExitCode::Infeasible;
    result.err += std::string(satisfied ? "already satisfied: " : "infeasible: ") +
                  outcome.message + '\n';
    if (!satisfied) {
      result.err += "nodes (" + std::to_string(map.nodes.size()) + " after the node filter, total capacity " +
                    count_text(map.total) + "):\n" + zero_capacity_reasons(inventory, map);
    }
    return;
  }
  std::vector<std::int64_t> deploy(map.nodes.size(), 0);
  for (size_t k = 0; k < infos.size(); ++k) deploy[where[k]] = outcome.deploy[k];
  // A node given more instances than the plans listed under the default cap
  // gets its plans again, as many as it needs.
  for (size_t i = 0; i < map.nodes.size(); ++i) {
    NodeCapacity& n = result.capacity->nodes[i];
    if (map.binds && n.capacity != kUnlimited && deploy[i] > static_cast<std::int64_t>(n.plans.size()))
      n = node_capacity(inventory, request, n.node, CapacityOptions{deploy[i]});
  }
  result.deploy = std::move(deploy);
  result.err += plan_cut_warnings(inventory, map, options.plans);
  Report report{inventory, request, map, &*result.deploy, options.plans};
  result.out = render(report, options.output);
}

}  // namespace

RunResult run(const RunOptions& options) {
  RunResult result;
  if (options.command != Command::Validate && !options.request && options.overrides.empty()) {
    result.exit = ExitCode::Usage;
    result.err =
        "eruplan: error: no request: give -r FILE or request flags such as --memory\n"
        "Run with --help for more information.\n";
    return result;
  }
  Diagnostics diags;
  result.inventory = load_inventory(options.nodes, diags);

  const bool want_request = options.command != Command::Validate || options.request.has_value() ||
                            !options.overrides.empty();
  if (want_request) {
    const Source* source = options.request ? &*options.request : nullptr;
    result.request =
        load_request(source, options.overrides, options.command == Command::Plan, diags);
  }
  if (result.inventory && result.request) check_inputs(*result.inventory, *result.request, diags);

  result.err = diags.to_string();
  if (diags.has_errors() || !result.inventory || (want_request && !result.request)) {
    result.exit = ExitCode::Invalid;
    return result;
  }

  if (options.command == Command::Validate) {
    result.out = validate_summary(*result.inventory, result.request ? &*result.request : nullptr,
                                  options.output);
    return result;
  }

  CapacityOptions capacity_options;
  if (options.plans == PlansShown::None && options.command == Command::Capacity)
    capacity_options.max_plans = 0;
  result.capacity = capacity_pass(*result.inventory, *result.request, capacity_options);

  if (options.command == Command::Capacity) {
    result.err += plan_cut_warnings(*result.inventory, *result.capacity, options.plans);
    Report report{*result.inventory, *result.request, *result.capacity, nullptr, options.plans};
    result.out = render(report, options.output);
    return result;
  }
  plan_strategy(result, options);
  return result;
}

}  // namespace eruplan
