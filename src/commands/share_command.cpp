// `eruplan share` as one pure function (load -> share -> render), and its
// document: {"placement", "apps": {name: {placed, dominant_resource,
// dominant_share, dominant_share_fraction, frozen_by, deploy, assignments}}}
// (SPEC §10), or a table per app and per node x app.
#include "share_command.h"

#include <algorithm>
#include <numeric>
#include <string_view>

#include "capacity.h"
#include "json_writer.h"
#include "kubernetes.h"
#include "mesos_command.h"
#include "plan_writer.h"
#include "render.h"
#include "report_html.h"

namespace eruplan {

namespace {

std::string weight_text(const Weight& w) {
  return w.den == 1 ? std::to_string(w.num) : std::to_string(w.num) + "/" + std::to_string(w.den);
}

// Apps in byte order of their names, as every other map of the output.
std::vector<std::size_t> app_order(const ShareSpec& spec) {
  std::vector<std::size_t> order(spec.apps.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return spec.apps[a].name < spec.apps[b].name; });
  return order;
}

template <class W>
void write_document(W& w, const Inventory& state, const ShareSpec& spec,
                    const ShareResult& result) {
  w.begin_object();
  w.field("placement", placement_name(spec.placement));
  w.key("apps");
  w.begin_object();
  for (const std::size_t a : app_order(spec)) {
    const ShareApp& app = spec.apps[a];
    const AppShare& s = result.apps[a];
    w.key(app.name);
    w.begin_object();
    w.field("placed", s.placed);
    w.field("existing", s.existing);
    w.field("weight", weight_text(app.weight));
    w.key("dominant_resource");
    if (s.dominant_resource.empty())
      w.null();
    else
      w.string(s.dominant_resource);
    w.key("dominant_share");
    w.number(decimal_text(s.dominant_share, 6));
    w.field("dominant_share_fraction", fraction_text(s.dominant_share));
    w.field("frozen_by", s.frozen_by);
    w.key("deploy");
    w.begin_object();
    for (const auto& [node, k] : s.deploy) {
      w.field(state.nodes[node].name, k);
    }
    w.end_object();
    if (binds_anything(app.request)) {
      w.key("assignments");
      w.begin_object();
      PlanShares shares(app.request);
      for (std::size_t i = 0; i < s.assignments.size();) {
        const std::uint32_t node = s.assignments[i].first;
        w.key(state.nodes[node].name);
        w.begin_array();
        for (; i < s.assignments.size() && s.assignments[i].first == node; ++i)
          write_plan(w, s.assignments[i].second, state.nodes[node], app.request, shares);
        w.end_array();
      }
      w.end_object();
    }
    w.end_object();
  }
  w.end_object();
  w.end_object();
  w.finish();
}

std::string render_table(const Inventory& state, const ShareSpec& spec, const ShareResult& result,
                         std::int64_t max_cells) {
  const std::vector<std::size_t> order = app_order(spec);
  std::vector<std::vector<std::string>> apps{
      {"APP", "WEIGHT", "EXISTING", "PLACED", "DOMINANT", "SHARE", "FROZEN BY"}};
  for (const std::size_t a : order) {
    const AppShare& s = result.apps[a];
    apps.push_back(
        {spec.apps[a].name, weight_text(spec.apps[a].weight), std::to_string(s.existing),
         std::to_string(s.placed), s.dominant_resource.empty() ? "-" : s.dominant_resource,
         decimal_text(s.dominant_share, 6) + " (" + fraction_text(s.dominant_share) + ")",
         s.frozen_by});
  }
  // New instances per node x app, for the nodes that got any, by name:
  // written row by row from each app's deploy (already by node name), with
  // no cell kept, so the memory is the output's, not nodes x apps strings.
  std::vector<bool> got(state.nodes.size(), false);
  std::vector<std::int64_t> totals(order.size(), 0);
  std::vector<std::size_t> width(order.size() + 1, 0);
  width[0] = std::max(display_cells("NODE"), display_cells("total"));
  for (std::size_t col = 0; col < order.size(); ++col) {
    std::int64_t widest = 0;
    for (const auto& [node, k] : result.apps[order[col]].deploy) {
      got[node] = true;
      totals[col] += k;
      widest = std::max(widest, k);
    }
    width[col + 1] = std::max({display_cells(spec.apps[order[col]].name),
                               std::to_string(widest).size(), std::to_string(totals[col]).size()});
  }
  std::vector<std::uint32_t> used;
  for (std::uint32_t i = 0; i < got.size(); ++i)
    if (got[i]) {
      used.push_back(i);
      width[0] = std::max(width[0], display_cells(state.nodes[i].name));
    }
  std::sort(used.begin(), used.end(), [&](std::uint32_t a, std::uint32_t b) {
    return state.nodes[a].name < state.nodes[b].name;
  });
  // As align_columns lays them out: every cell but a row's last padded to
  // its column's width plus two spaces.
  std::string out = "placement: " + std::string(placement_name(spec.placement)) + ", " +
                    std::to_string(result.steps) + " new instances\n\n" +
                    align_columns(apps, "", 2) + '\n';
  auto cell = [&](std::string_view text, std::size_t col) {
    out += text;
    if (col + 1 < width.size()) out.append(width[col] - display_cells(text) + 2, ' ');
  };
  std::vector<std::size_t> next(order.size(), 0);  // per app, its next deploy entry
  if (static_cast<double>(used.size()) * static_cast<double>(order.size()) >
      static_cast<double>(max_cells)) {
    // Too many cells for their input: each node's new instances as a list.
    out += "NODE" + std::string(width[0] - display_cells("NODE") + 2, ' ') + "NEW\n";
    for (const std::uint32_t i : used) {
      std::string row = state.nodes[i].name;
      row.append(width[0] - display_cells(row) + 2, ' ');
      const std::size_t bare = row.size();
      for (std::size_t col = 0; col < order.size(); ++col) {
        const auto& deploy = result.apps[order[col]].deploy;
        if (next[col] >= deploy.size() || deploy[next[col]].first != i) continue;
        row += (row.size() > bare ? ", " : "") + spec.apps[order[col]].name + " +" +
               std::to_string(deploy[next[col]++].second);
      }
      out += row + '\n';
    }
    return out;
  }
  cell("NODE", 0);
  for (std::size_t col = 0; col < order.size(); ++col) cell(spec.apps[order[col]].name, col + 1);
  out += '\n';
  for (const std::uint32_t i : used) {
    cell(state.nodes[i].name, 0);
    for (std::size_t col = 0; col < order.size(); ++col) {
      const auto& deploy = result.apps[order[col]].deploy;
      std::int64_t k = 0;
      if (next[col] < deploy.size() && deploy[next[col]].first == i) k = deploy[next[col]++].second;
      cell(std::to_string(k), col + 1);
    }
    out += '\n';
  }
  cell("total", 0);
  for (std::size_t col = 0; col < order.size(); ++col) cell(std::to_string(totals[col]), col + 1);
  out += '\n';
  return out;
}

}  // namespace

std::string render_share(const Inventory& state, const ShareSpec& spec, const ShareResult& result,
                         OutputFormat format, std::int64_t max_cells) {
  if (format == OutputFormat::Table) return render_table(state, spec, result, max_cells);
  return render_document(format, [&](auto& w) { write_document(w, state, spec, result); });
}

namespace {

// --report (SPEC §14): the nodes before and after the share, each node's new
// instances per app, a row per app (placed, dominant share, frozen_by), and
// for every app why each node that got none of it cannot take one more now.
std::string share_report(const Inventory& before, const Inventory& after, const ShareSpec& spec,
                         const ShareResult& shared, unsigned jobs) {
  ReportSection section =
      plan_section(std::to_string(spec.apps.size()) + " apps, " + std::to_string(shared.steps) +
                       " new instances, placement " + std::string(placement_name(spec.placement)),
                   before, after);
  section.by_app.assign(after.nodes.size(), {});
  section.table_head = {"app", "weight", "existing", "placed", "dominant share", "frozen_by"};
  // A node's reasons name 8 apps (in the report's order of apps) and count
  // the rest: every app on every node would make the report apps x nodes.
  constexpr std::int64_t kReasonsPerNode = 8;
  std::vector<std::int64_t> stopped(after.nodes.size(), 0);
  CapacityOptions capacity;
  capacity.max_plans = 0;
  capacity.jobs = jobs;
  for (const std::size_t a : app_order(spec)) {
    const ShareApp& app = spec.apps[a];
    const AppShare& s = shared.apps[a];
    for (const auto& [node, k] : s.deploy) {
      std::string& text = section.by_app[node];
      text += (text.empty() ? "" : ", ") + app.name + " +" + std::to_string(k);
    }
    section.table_rows.push_back(
        {app.name, weight_text(app.weight), std::to_string(s.existing), std::to_string(s.placed),
         s.dominant_resource.empty()
             ? "0"
             : fraction_text(s.dominant_share) + " of " + s.dominant_resource,
         s.frozen_by});
    std::vector<bool> got(after.nodes.size(), false);
    for (const auto& entry : s.deploy) got[entry.first] = true;
    for (const NodeCapacity& n : capacity_pass(after, app.request, capacity).nodes) {
      if (n.capacity != 0 || got[n.node]) continue;
      if (++stopped[n.node] > kReasonsPerNode) continue;
      std::string& reason = section.reasons[n.node];
      reason += (reason.empty() ? "" : "; ") + app.name + ": " + n.reason();
    }
  }
  for (std::size_t i = 0; i < stopped.size(); ++i)
    if (stopped[i] > kReasonsPerNode)
      section.reasons[i] += "; and " + std::to_string(stopped[i] - kReasonsPerNode) + " more apps";
  return render_html_report("eruplan share", before, {section});
}

}  // namespace

RunResult run_share(const RunOptions& options) {
  if (options.mesos) return run_mesos(options);
  RunResult result;
  const std::optional<ShareSpec> spec = load_share_inputs<ShareSpec>(
      result, options, "share needs -r APPS (the apps file)", load_share, check_share);
  if (!spec) return result;
  Inventory state = *result.inventory;
  ShareOptions share_options;
  share_options.jobs = options.jobs;
  share_options.max_work = kShareWork;
  const std::uint64_t input = input_bytes(options);
  share_options.max_plans = plan_budget(input);
  share_options.max_entries = static_cast<std::int64_t>(input) + 16384;
  const ShareResult shared = share(state, *spec, share_options);
  if (!shared.too_large.empty()) {
    Diagnostics d;
    d.error(Origin{options.request->name, 0, 0, "apps"}, shared.too_large);
    result.exit = ExitCode::Invalid;
    result.problems = d.items();
    result.err += d.to_string();
    return result;
  }
  if (options.report)  // SPEC §14: whenever the share ran, also when a quota failed
    result.report = share_report(*result.inventory, state, *spec, shared, options.jobs);
  for (std::size_t a = 0; a < spec->apps.size(); ++a)
    result.requests.push_back(
        {spec->apps[a].name, RequestStatus::Placed, shared.apps[a].placed, {}});
  if (shared.quota_failed) {
    result.exit = ExitCode::Infeasible;
    result.err += "infeasible: " + shared.message + '\n';
    if (options.output != OutputFormat::Table)
      result.out = failure_document(options.output, result.exit, shared.message, {});
    return result;
  }
  result.out = render_share(state, *spec, shared, options.output, share_options.max_entries);
  save_inventory(result, options, state);
  return result;
}

}  // namespace eruplan
