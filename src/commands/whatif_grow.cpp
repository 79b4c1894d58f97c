// What-if `grow` (SPEC §14): how many template nodes to add so the request
// fits; the choices it makes are listed at the top of whatif.cpp.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <span>

#include "doc.h"
#include "explain.h"
#include "grow.h"
#include "json_writer.h"
#include "render.h"
#include "report_html.h"
#include "requests.h"
#include "selector_hints.h"
#include "whatif.h"
#include "whatif_parts.h"

namespace eruplan::whatif_parts {

namespace {

bool template_name_taken(const std::string& name, const std::string& base) {
  if (name.size() <= base.size() + 1 || name.compare(0, base.size(), base) != 0 ||
      name[base.size()] != '-')
    return false;
  return std::all_of(name.begin() + static_cast<long>(base.size()) + 1, name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

// --like NODE: the node as a template, its usage, instances and workloads
// emptied, named NODE-new (so is its hostname label, when it has one).
Node template_like(const Node& n) {
  Node t = n;
  t.name = n.name + "-new";
  set_hostname(t);
  for (Core& c : t.cores) c.used = 0;
  for (NumaNode& m : t.numa_nodes) m.used = 0;
  for (Device& d : t.devices) d.used = 0;
  for (ExtendedResource& e : t.extended) e.used = 0;
  // Its cpu stays as given: a Kubernetes node's allocatable 3920m is the
  // copies' CPU too, not the 3 whole cores binding may use.
  t.memory_used = t.storage_used = t.cpu_used = 0;
  t.instances.clear();
  t.shared_pods.reset();
  t.workloads.clear();
  t.available = true;
  t.revision = 0;
  return t;
}

// The templates of --template, then of --like, with --cost applied; false
// after reporting (exit 3).
bool load_templates(const WhatIfOptions& o, const Inventory& inventory, const Request& request,
                    RunResult& r, std::vector<GrowTemplate>& templates) {
  Diagnostics diags;
  diags.set_strict(o.strict);
  for (const Source& source : o.templates) {
    if (auto t = load_template(source, inventory.share_base, diags)) {
      t->node.workloads.clear();
      templates.push_back(std::move(*t));
    }
  }
  for (const std::string& name : o.like) {
    auto it = std::find_if(inventory.nodes.begin(), inventory.nodes.end(),
                           [&](const Node& n) { return n.name == name; });
    if (it == inventory.nodes.end()) {
      std::vector<std::string_view> names;
      for (const Node& n : inventory.nodes) names.emplace_back(n.name);
      const std::string_view best = nearest_name(name, names, 2);
      diags.error(Origin{"<command line>", 0, 0, "--like"},
                  "node " + excerpt(name) + " is not in the inventory" +
                      (best.empty() ? "" : "; did you mean " + excerpt(best) + "?"));
    } else
      templates.push_back(GrowTemplate{template_like(*it), std::nullopt});
  }
  for (const std::string& given : o.costs) {
    const std::size_t eq = given.find('=');
    const std::string name = given.substr(0, eq);
    auto it = std::find_if(templates.begin(), templates.end(),
                           [&](const GrowTemplate& t) { return t.node.name == name; });
    const auto cost = eq == std::string::npos ? std::nullopt : parse_cost(given.substr(eq + 1));
    if (eq == std::string::npos || !cost)
      diags.error(Origin{"<command line>", 0, 0, "--cost"},
                  "expected NAME=COST with a cost >= 0 of at most 9 decimals, such as big=0.192, "
                  "got " +
                      excerpt(given));
    else if (it == templates.end()) {
      std::vector<std::string_view> names;
      for (const GrowTemplate& t : templates) names.emplace_back(t.node.name);
      const std::string_view best = nearest_name(name, names, 2);
      diags.error(Origin{"<command line>", 0, 0, "--cost"},
                  "no template is named " + excerpt(name) +
                      (best.empty() ? "" : "; did you mean " + excerpt(best) + "?") +
                      " (templates are named by their name field; --like NODE makes NODE-new)");
    } else
      it->cost = cost;
  }
  for (std::size_t i = 0; i < templates.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (templates[i].node.name == templates[j].node.name)
        diags.error(Origin{"<command line>", 0, 0, "--template"},
                    "two templates are named " + excerpt(templates[i].node.name) +
                        "; their copies would share names");
  const bool priced = o.mix || o.expander == "price";
  if (priced)
    for (const GrowTemplate& t : templates)
      if (!t.cost)
        diags.error(Origin{"<command line>", 0, 0, o.mix ? "--mix" : "--expander"},
                    "template " + excerpt(t.node.name) + " has no cost; " +
                        (o.mix ? std::string("--mix") : std::string("--expander price")) +
                        " weighs costs (give cost: in the template or --cost " +
                        excerpt(t.node.name) + "=VALUE)");
  for (const GrowTemplate& t : templates) {
    Inventory probe = grown_inventory(inventory, t.node, 1);
    check_inputs(probe, request, diags);
  }
  {
    // A selector no node nor any template's copy satisfies.
    Inventory with_templates = inventory;
    for (const GrowTemplate& t : templates) with_templates.nodes.push_back(t.node);
    warn_unmatched_selectors(with_templates, request, diags);
  }
  if (diags.has_errors() || templates.size() != o.templates.size() + o.like.size()) {
    r.problems = diags.items();
    fail(r, ExitCode::Invalid, diags.to_string(), o.output, r.problems);
    return false;
  }
  r.err += diags.to_string();
  for (const GrowTemplate& t : templates)
    for (std::size_t i = 0; i < inventory.nodes.size(); ++i) {
      const std::string& name = inventory.nodes[i].name;
      if (!template_name_taken(name, t.node.name)) continue;
      invalid(r, o.output, position_of(o.nodes, name, "nodes[" + std::to_string(i) + "].name"),
              "node " + excerpt(name) + " is already named like a copy of the template " +
                  excerpt(t.node.name) + " (" + excerpt(t.node.name) +
                  "-1, -2, ...); rename it or the template");
      return false;
    }
  return true;
}

// `added: ...` before the plan document: the one figure for one template,
// per template and the cost for several.
// "daemonsets: big: kube-system/fluentd; small: none\n", or nothing
// without DaemonSets.
std::string daemons_line(const std::vector<GrowTemplate>& templates,
                         const std::vector<std::vector<std::string>>* daemons) {
  if (!daemons) return {};
  std::string line = "daemonsets on each added node:";
  for (std::size_t t = 0; t < templates.size(); ++t) {
    line += (t ? "; " : " ") + templates[t].node.name + ": ";
    std::string names;
    for (const std::string& d : (*daemons)[t]) names += (names.empty() ? "" : ", ") + d;
    line += names.empty() ? "none" : names;
  }
  return line + '\n';
}

// The growth's cost, when every template has one.
std::optional<CostSum> growth_cost(const std::vector<GrowTemplate>& templates, const Growth& g) {
  CostSum cost = 0;
  for (std::size_t t = 0; t < templates.size(); ++t) {
    if (!templates[t].cost) return std::nullopt;
    cost += static_cast<CostSum>(g.counts[t]) * *templates[t].cost;
  }
  return cost;
}

// With DaemonSets, also the ones each template's copies run.
void head_growth(const WhatIfOptions& o, const std::vector<GrowTemplate>& templates,
                 const Growth& g, const std::vector<std::vector<std::string>>* daemons,
                 RunResult& r) {
  const std::string added = std::to_string(g.added());
  const std::optional<CostSum> priced = growth_cost(templates, g);
  const CostSum cost = priced.value_or(0);
  if (o.output == OutputFormat::Json && r.out.starts_with("{")) {
    std::string head = "\n  \"added\": " + added + ",";
    if (templates.size() > 1 || priced) {
      head += "\n  \"added_by_template\": {";
      for (std::size_t t = 0; t < templates.size(); ++t)
        head += (t ? ", " : ""), append_quoted(head, templates[t].node.name),
            head += ": " + std::to_string(g.counts[t]);
      head += "},";
      if (priced) head += "\n  \"cost\": " + cost_text(cost) + ",";
    }
    if (daemons) {
      head += "\n  \"daemonsets_by_template\": {";
      for (std::size_t t = 0; t < templates.size(); ++t) {
        head += (t ? ", " : ""), append_quoted(head, templates[t].node.name), head += ": [";
        for (std::size_t d = 0; d < (*daemons)[t].size(); ++d)
          head += (d ? ", " : ""), append_quoted(head, (*daemons)[t][d]);
        head += "]";
      }
      head += "},";
    }
    r.out.insert(1, head);
  } else if (o.output == OutputFormat::Yaml) {
    std::string head = "added: " + added + '\n';
    if (templates.size() > 1 || priced) {
      head += "added_by_template:\n";
      for (std::size_t t = 0; t < templates.size(); ++t)
        head += "  ", append_yaml_string(head, templates[t].node.name),
            head += ": " + std::to_string(g.counts[t]) + '\n';
      if (priced) head += "cost: " + cost_text(cost) + '\n';
    }
    if (daemons) {
      head += "daemonsets_by_template:\n";
      for (std::size_t t = 0; t < templates.size(); ++t) {
        head += "  ", append_yaml_string(head, templates[t].node.name);
        head += (*daemons)[t].empty() ? ": []\n" : ":\n";
        for (const std::string& d : (*daemons)[t])
          head += "    - ", append_yaml_string(head, d), head += '\n';
      }
    }
    r.out.insert(0, head);  // in place: the plan can be large, no second copy
  } else if (templates.size() == 1) {
    r.out.insert(0, "added: " + added + " node" + (g.added() == 1 ? "" : "s") + " like " +
                        templates[0].node.name + (priced ? ", cost " + cost_text(cost) : "") +
                        '\n' + daemons_line(templates, daemons));
  } else {
    std::string parts;
    for (std::size_t t = 0; t < templates.size(); ++t)
      parts += (t ? ", " : "") + templates[t].node.name + " " + std::to_string(g.counts[t]);
    r.out.insert(0, "added: " + added + " node" + (g.added() == 1 ? "" : "s") + " (" + parts + ")" +
                        (priced ? ", cost " + cost_text(cost) : "") + '\n' +
                        daemons_line(templates, daemons));
  }
}

// The report's note on the copies of each template, in grown_inventory's
// order, with their count: which template they copy and the DaemonSets each
// runs first; "tried" when growing did not suffice (the copies shown are not
// a plan).
std::vector<std::pair<std::string, std::int64_t>> added_notes(
    const std::vector<GrowTemplate>& templates, std::span<const std::int64_t> counts,
    const std::vector<std::vector<std::string>>& daemons, bool tried) {
  std::vector<std::pair<std::string, std::int64_t>> notes;
  for (std::size_t t = 0; t < templates.size() && t < counts.size(); ++t) {
    std::string note =
        std::string(tried ? "tried by grow" : "added by grow") + ", like " + templates[t].node.name;
    if (t < daemons.size() && !daemons[t].empty()) {
      note += "; runs ";
      for (std::size_t d = 0; d < daemons[t].size(); ++d) note += (d ? ", " : "") + daemons[t][d];
    }
    notes.emplace_back(std::move(note), counts[t]);
  }
  return notes;
}

// The report lists at most this many copies of each template: alike rows,
// and 9,000 copies made a 5.8 MB page (32 MB to make it) from a 124-byte
// input. The last one listed says how many more there are.
constexpr std::int64_t kReportCopies = 100;

// The nodes of `inventory` whose `keep` is set, in order (the page reads
// nodes only).
Inventory kept_nodes(const Inventory& inventory, const std::vector<char>& keep) {
  Inventory out;
  out.share_base = inventory.share_base;
  out.max_fragment_cores = inventory.max_fragment_cores;
  for (std::size_t i = 0; i < inventory.nodes.size(); ++i)
    if (keep[i]) out.nodes.push_back(inventory.nodes[i]);
  return out;
}

}  // namespace

// grow --report: the plan section of the grown inventory, the added
// copies marked and noted, the outcome headed by grow's own line.
std::string grow_report(const Inventory& before, const Inventory& after, const Request& request,
                        const RequestOutcome& out, const GrowReport& g) {
  ReportOutcome outcome = single_outcome(before, request, out);
  outcome.details.insert(outcome.details.begin(), outcome.headline);
  outcome.headline = (g.failed ? "infeasible: " : "") + g.head;
  if (g.failed) outcome.kind = OutcomeKind::Failed;
  // Each node's note, and whether its row is listed.
  const std::size_t n = std::min(before.nodes.size(), after.nodes.size());
  std::vector<std::string> notes(n);
  std::vector<char> keep(n, 1);
  std::size_t i = g.first_added;
  for (const auto& [note, count] : g.added)
    for (std::int64_t k = 0; k < count && i < n; ++k, ++i) {
      keep[i] = k < kReportCopies;
      notes[i] = note;
      if (k == kReportCopies - 1 && count > kReportCopies)
        notes[i] += "; " + std::to_string(count - kReportCopies) + " more like it not listed";
    }
  for (; i < n; ++i) notes[i] = "added by grow";
  std::optional<Inventory> listed_before, listed_after;
  if (std::find(keep.begin(), keep.end(), 0) != keep.end()) {
    listed_before = kept_nodes(before, keep);
    listed_after = kept_nodes(after, keep);
  }
  const Inventory& b = listed_before ? *listed_before : before;
  const Inventory& a = listed_after ? *listed_after : after;
  ReportSection s = plan_section(request.app + ": count " + std::to_string(request.count) +
                                     ", strategy " + std::string(strategy_name(request.strategy)),
                                 b, a);
  std::vector<std::size_t> row(n, SIZE_MAX);  // a node's row, when listed
  for (std::size_t j = 0, r = 0; j < n; ++j)
    if (keep[j]) row[j] = r++;
  const std::size_t rows = b.nodes.size();
  s.reasons.assign(rows, {});
  s.filtered.assign(rows, false);
  s.notes.assign(rows, {});
  s.added.assign(rows, false);
  for (const NodeCapacity& c : out.capacity.nodes)
    if (c.capacity == 0 && c.node < n && row[c.node] != SIZE_MAX)
      s.reasons[row[c.node]] = c.reason();
  for (std::size_t j = 0; j < n; ++j) {
    if (row[j] == SIZE_MAX) continue;
    s.added[row[j]] = j >= g.first_added;
    if (j >= g.first_added) s.notes[row[j]] = notes[j];
    if (!request.filter.accepts(before.nodes[j])) {
      s.filtered[row[j]] = true;
      s.reasons[row[j]] = filtered_reason(request.name, false);
    }
  }
  return render_html_report("eruplan grow", b, {s}, outcome);
}

void run_grow(const WhatIfOptions& o, WhatIfResult& w) {
  RunResult& r = w.run;
  Inventory inventory;
  Request request;
  std::vector<Request> daemons;
  if (!load_inputs(o, true, r, inventory, request, &daemons)) return;
  if (o.max < 0) {
    invalid(r, o.output, Origin{"<command line>", 0, 0, "--max"},
            "must be >= 0, got " + std::to_string(o.max));
    return;
  }
  // Each copy is a node to plan on: the work follows --max.
  const std::int64_t largest =
      std::clamp(static_cast<std::int64_t>(whatif_input_bytes(o)) / kGrowMaxBytesPerCopy,
                 kDefaultGrowMax, kLargestGrowMax);
  if (o.max > largest) {
    invalid(r, o.output, Origin{"<command line>", 0, 0, "--max"},
            "too large: at most " + std::to_string(largest) + " copies for this input (" +
                std::to_string(kDefaultGrowMax) + ", or one per " +
                std::to_string(kGrowMaxBytesPerCopy) + " bytes of input, up to " +
                std::to_string(kLargestGrowMax) + "; each is a node to plan on), got " +
                std::to_string(o.max));
    return;
  }
  if (o.templates.empty() && o.like.empty()) {
    usage_failure(r, o.output, "--template or --like is required");
    return;
  }
  std::optional<Expander> expander = Expander::LeastWaste;
  if (o.expander) expander = value_of(kExpanderNames, *o.expander);
  if (!expander) {
    usage_failure(r, o.output,
                  "--expander: unknown expander " + *o.expander +
                      "; expected least-waste, most-pods, price or priority");
    return;
  }
  std::vector<GrowTemplate> templates;
  if (!load_templates(o, inventory, request, r, templates)) return;
  // Each copy first runs the DaemonSets it is eligible for.
  for (GrowTemplate& t : templates) {
    std::vector<std::string>& ran = w.daemons_by_template.emplace_back();
    for (const Request* d : run_daemons(t.node, daemons))
      ran.push_back((d->pod ? d->pod->ns : std::string("default")) + "/" + d->name);
  }
  request.min_count = 0;
  // Binding plans past the run's budget fail whatever grows: said before probing.
  const std::int64_t plans = whatif_budget(o);
  if (binds_anything(request) && request.count > plans / plan_weight(request)) {
    too_large(r, o, too_many_bound(request, request.count, plans));
    return;
  }
  // Every plan of the search below and the one shown share one bound.
  GrowBudget budget;
  budget.listed_cores = listed_core_budget(whatif_input_bytes(o));
  for (const Node& node : inventory.nodes) budget.listed_cores -= node.listed_from_count();
  budget.copy_items = std::max<std::int64_t>(
      kGrowCopyItems,
      static_cast<std::int64_t>(std::min<std::uint64_t>(whatif_input_bytes(o), INT64_MAX)));
  budget.node_bound = static_cast<double>(std::max(
      kGrowPlannedNodes, kGrowNodesPerNode * static_cast<std::int64_t>(inventory.nodes.size())));
  auto spent = [&](const Inventory& state) {
    if (!budget.over() && within_budget(state, request, o.jobs, budget)) return false;
    invalid(r, o.output, Origin{"<command line>", 0, 0, "--max"}, budget.too_large);
    return true;
  };
  Growth g;
  std::string head;        // why growing does not help, when it does not
  std::int64_t shown = 0;  // copies of each template whose failure is shown
  if (!request.satisfied.empty()) {
    // A workload whose pods all run already fits: no copy is needed.
    g = Growth{std::vector<std::int64_t>(templates.size(), 0), true};
  } else if (o.mix) {
    std::string too_large;
    auto mix = cheapest_mix(inventory, request, templates, o.max, o.jobs, too_large, &budget);
    if (!mix && !budget.over()) {
      invalid(r, o.output, Origin{"<command line>", 0, 0, "--mix"}, too_large);
      return;
    }
    if (mix) g = *mix;
  } else if (templates.size() == 1) {
    if (auto k = smallest_growth(inventory, request, templates[0].node, o.max, o.jobs, &budget))
      g = Growth{{*k}, true};
  } else {
    g = expand(inventory, request, templates, *expander, o.max, o.jobs, &budget);
  }
  if (budget.over()) {
    invalid(r, o.output, Origin{"<command line>", 0, 0, "--max"}, budget.too_large);
    return;
  }
  if (!g.found) {
    std::string why;
    for (const GrowTemplate& t : templates) {
      const std::string useless = template_useless(inventory, request, t.node);
      if (useless.empty()) {
        why.clear();
        break;
      }
      why += (why.empty() ? "" : "; ") + useless;
    }
    const bool one = templates.size() == 1;
    if (!why.empty()) {
      head = (one ? "the template can never help: " : "no template can ever help: ") + why;
      shown = 1;
    } else {
      const std::string like = one ? " like " + templates[0].node.name
                                   : " of " + (o.mix ? std::string("any mix of the templates")
                                                     : std::string("any one template"));
      head = "even " + std::to_string(o.max) + (o.max == 1 ? " node" : " nodes") + like +
             (o.max == 1 && one ? " does not suffice" : " do not suffice") + " (--max " +
             std::to_string(o.max) + ")";
      shown = o.max;
    }
    // Not feasible: the failure as `plan` reports it for the inventory with
    // the copies that were tried (one copy for a useless template, so its
    // reason shows), the what-if answer first. Several templates share the
    // --max copies shown (at least one each): the plan shown stays the
    // size of one template's.
    std::vector<std::int64_t> counts(templates.size(), shown);
    if (shown > 1 && templates.size() > 1) counts = shared_copies(templates.size(), shown);
    if (!copies_within(templates, counts, &budget)) {
      invalid(r, o.output, Origin{"<command line>", 0, 0, "--max"}, budget.too_large);
      return;
    }
    Inventory state = grown_inventory(inventory, templates, counts);
    if (spent(state)) return;
    GrowReport report{head, true, inventory.nodes.size(), {}};
    if (o.report) report.added = added_notes(templates, counts, w.daemons_by_template, true);
    plan_document(state, request, o, r, head, o.report ? &report : nullptr,
                  [&] { return grown_inventory(inventory, templates, counts); });
    w.report = r.report.value_or(std::string());
    return;
  }
  Inventory state = grown_inventory(inventory, templates, g.counts);
  if (spent(state)) return;
  std::string added;
  for (std::size_t t = 0; t < templates.size(); ++t)
    added += (t ? ", " : "") + templates[t].node.name + " " + std::to_string(g.counts[t]);
  const std::optional<CostSum> cost = growth_cost(templates, g);
  GrowReport report{"add " + std::to_string(g.added()) + (g.added() == 1 ? " node (" : " nodes (") +
                        added + ")" + (cost ? ", cost " + cost_text(*cost) : ""),
                    false,
                    inventory.nodes.size(),
                    {}};
  if (o.report) report.added = added_notes(templates, g.counts, w.daemons_by_template, false);
  plan_document(state, request, o, r, {}, o.report ? &report : nullptr,
                [&] { return grown_inventory(inventory, templates, g.counts); });
  w.report = r.report.value_or(std::string());
  w.added = g.added();
  w.added_by_template = g.counts;
  for (const GrowTemplate& t : templates) w.template_names.push_back(t.node.name);
  if (r.exit != ExitCode::Ok) return;
  head_growth(o, templates, g, daemons.empty() ? nullptr : &w.daemons_by_template, r);
}

}  // namespace eruplan::whatif_parts
