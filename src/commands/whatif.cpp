// What-if commands (SPEC §14).
//
// Choices the SPEC leaves open, decided here:
// - All three take one request; a `requests:` list is invalid input (exit 3).
// - compare: a strategy that is not feasible places nothing, so its spread
//   is that of the unchanged inventory. A `partial` placement (min_count)
//   counts as feasible; min_count is dropped for fill and each, which do not
//   take it. Unknown names in --strategies are a usage error (exit 2);
//   a name given twice is listed once.
// - grow: aims at the full count (min_count is ignored, so "fits" means every
//   instance placed). Feasibility never falls as identical nodes are added:
//   auto, global, drained and score gain capacity; fill and each gain
//   qualifying nodes (fill with nodes_limit 0 needs every node to qualify, so
//   all k >= 1 agree). Bisection over k is therefore exact for every
//   strategy: O(log max) plans. At k = 0 a fill with nothing to add is exit 5,
//   as for `plan`. A template that gets capacity 0 for the request (or that
//   node_filter leaves out) can never help: exit 4 at once, saying why.
//   --max above 100,000 is exit 3: every copy is a node the plans hold.
// - drain: min_count is ignored (every instance must find a place). A node
//   running none of the app's instances gives an empty plan even when it is
//   already cordoned. --each-node checks every available node that runs the
//   app, node_filter or not (its instances need a place either way), by name.
#include "whatif.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <utility>

#include "doc.h"
#include "explain.h"
#include "grow.h"
#include "json_writer.h"
#include "k8s_profile.h"
#include "namespaces.h"
#include "priority_classes.h"
#include "render.h"
#include "report_html.h"
#include "requests.h"
#include "selector_hints.h"
#include "whatif_parts.h"

namespace eruplan {

namespace {

// A ratio for output: six decimals, trailing zeros dropped ("0.25", "0").
std::string ratio_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0" || s.empty()) s = "0";
  return s;
}

// SPEC §13's `error` member, for documents that stand at exit 4.
template <class W>
void write_error_member(W& w, ExitCode exit, const std::string& message) {
  w.key("error");
  w.begin_object();
  w.field("exit", static_cast<int>(exit));
  w.field("kind", exit == ExitCode::Infeasible ? "infeasible" : "already_satisfied");
  w.field("message", message);
  w.key("problems");
  w.begin_array();
  w.end_array();
  w.end_object();
}

}  // namespace

namespace whatif_parts {

void fail(RunResult& r, ExitCode exit, const std::string& message, OutputFormat format,
          const std::vector<Diagnostic>& problems) {
  r.exit = exit;
  r.err += message;
  if (!message.empty() && message.back() != '\n') r.err += '\n';
  if (format != OutputFormat::Table) {
    std::string first = message.substr(0, message.find('\n'));
    r.out = failure_document(format, exit, first, problems);
  }
}

// Exit 3 from a diagnostic the what-if layer finds itself.
void invalid(RunResult& r, OutputFormat format, Origin origin, const std::string& message) {
  Diagnostics d;
  d.error(std::move(origin), message);
  r.problems = d.items();
  fail(r, ExitCode::Invalid, d.to_string(), format, r.problems);
}

// Loads -n and -r as `plan` does; false (with r filled in) when they do not load.
// grow's DaemonSets: -r's, then --daemonsets' (a DaemonSet in both counts once);
// with neither, those the running pods of --pods name as their controller.
void load_daemons(const WhatIfOptions& o, const KubernetesOptions& kube,
                  std::vector<Request>& from_r, PodCensus& census, Diagnostics& diags,
                  std::vector<Request>& daemons) {
  daemons = std::move(from_r);
  if (!o.daemonsets) {
    if (daemons.empty()) daemons = std::move(census.daemons);
    return;
  }
  KubernetesOptions only = kube;
  only.daemonsets = KubernetesOptions::DaemonSets::Only;
  bool matched = false;
  auto set = load_kubernetes_requests(*o.daemonsets, RequestOverrides{}, only, false, diags,
                                      matched, nullptr, nullptr);
  if (!matched) {
    diags.error(Origin{o.daemonsets->name, 0, 0, "--daemonsets"},
                "expected DaemonSets (kubectl get daemonsets -A -o json)");
    return;
  }
  if (!set) return;
  auto key = [](const Request& d) { return (d.pod ? d.pod->ns : std::string()) + "/" + d.name; };
  for (Request& d : set->daemons) {
    if (std::any_of(daemons.begin(), daemons.end(),
                    [&](const Request& e) { return key(e) == key(d); })) {
      diags.warning(
          Origin{o.daemonsets->name, 0, 0, "--daemonsets"},
          "DaemonSet " + excerpt(key(d)) + " is also in " + o.request->name + "; counted once");
      continue;
    }
    daemons.push_back(std::move(d));
  }
}

bool load_inputs(const WhatIfOptions& o, bool count_required, RunResult& r, Inventory& inventory,
                 Request& request, std::vector<Request>* daemons) {
  if (!o.request && o.overrides.empty()) {
    usage_failure(r, o.output, "no request: give -r FILE or request flags such as --memory");
    return false;
  }
  Diagnostics diags;
  diags.set_strict(o.strict);
  auto inv = load_nodes(o.nodes, o.kubernetes.nodes_format, diags);
  KubernetesOptions kube = with_priority_classes(o.kubernetes, o.priority_classes, diags);
  if (daemons) kube.daemonsets = KubernetesOptions::DaemonSets::Apart;
  PodCensus census;
  census.want_daemons = daemons != nullptr && !o.daemonsets;
  load_pods(inv, o.pods, kube, diags, &census, o.more_pods);
  if (o.namespaces)
    if (auto namespaces = load_namespaces(*o.namespaces, diags); namespaces && inv)
      inv->namespaces = std::move(*namespaces);
  bool kubernetes = false;  // -r may be a Deployment, StatefulSet, ReplicaSet or Pod (SPEC §12)
  std::optional<RequestSet> set;
  if (o.request)
    set = load_kubernetes_requests(*o.request, o.overrides, kube, count_required, diags, kubernetes,
                                   inv ? &*inv : nullptr, &census);
  if (!kubernetes) {
    warn_replicas_unused(kube, diags);
    set = load_requests(o.request ? &*o.request : nullptr, o.overrides, count_required, diags);
  }
  if (set && set->list) {
    diags.error(Origin{o.request ? o.request->name : "<command line>", 0, 0, "requests"},
                "a what-if command takes one request, not a requests: list");
    set.reset();
  }
  std::vector<Request> no_daemons;
  if (daemons) load_daemons(o, kube, set ? set->daemons : no_daemons, census, diags, *daemons);
  if (inv && set) check_inputs(*inv, set->requests.front(), diags);
  // grow's templates may carry the labels no node has yet: checked with them.
  if (inv && set && o.command != WhatIfCommand::Grow)
    warn_unmatched_selectors(*inv, set->requests.front(), diags);
  if (diags.has_errors() || !inv || !set) {
    r.problems = diags.items();
    fail(r, ExitCode::Invalid, diags.to_string(), o.output, r.problems);
    return false;
  }
  r.err = diags.to_string();  // warnings
  inventory = std::move(*inv);
  request = set->requests.front();
  r.inventory = inventory;
  r.request = request;
  return true;
}

// "nodes.yaml:12:13" where `needle` first occurs: a name the loader no longer has.
Origin position_of(const Source& source, const std::string& needle, std::string path) {
  Origin o{source.name, 0, 0, std::move(path)};
  // The first occurrence standing alone: big-1 is not the start of big-12.
  auto word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
  };
  const std::string_view text = source.text;
  const std::string_view input = input_text(source);  // an inline input: its part of the case
  const std::size_t from = static_cast<std::size_t>(input.data() - text.data());
  std::size_t at = input.find(needle);
  while (at != std::string::npos &&
         ((at > 0 && word(input[at - 1])) ||
          (at + needle.size() < input.size() && word(input[at + needle.size()]))))
    at = input.find(needle, at + 1);
  if (at == std::string::npos) return o;
  at += from;
  o.line = 1 + static_cast<std::uint32_t>(
                   std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
  const std::size_t bol = text.rfind('\n', at);
  o.col = static_cast<std::uint32_t>(at - (bol == std::string::npos ? 0 : bol + 1) + 1);
  return o;
}

std::uint64_t whatif_input_bytes(const WhatIfOptions& o) {
  std::uint64_t n = source_bytes(o.nodes);
  for (const std::optional<Source>* s : {&o.request, &o.pods})
    if (*s) n += source_bytes(**s);
  for (const std::vector<Source>* list : {&o.more_pods, &o.templates})
    for (const Source& s : *list) n += source_bytes(s);
  return n;
}

std::int64_t plans_listed(const WhatIfOptions& o, const Inventory& inventory, const Request& r) {
  if (o.plans != PlansShown::All) return 0;
  return plans_per_node(whatif_budget(o), inventory.nodes.size(), 1, plan_weight(r));
}

void too_large(RunResult& r, const WhatIfOptions& o, const std::string& reason) {
  r.out.clear();
  r.err.clear();
  invalid(r, o.output,
          Origin{o.request ? o.request->name : std::string("<command line>"), 0, 0, "count"},
          reason);
}

ShowOptions show_options(const WhatIfOptions& o) {
  return {o.output, o.plans, o.explain, o.all_nodes};
}

// Plans `request` on `state` (changing it) and renders the §6 document as
void plan_document(Inventory& state, const Request& request, const WhatIfOptions& o, RunResult& r,
                   const std::string& head, const GrowReport* grow,
                   const std::function<Inventory()>& again) {
  PlanOptions po;
  po.max_plans = plans_listed(o, state, request);
  po.max_bound_instances = whatif_budget(o);
  po.jobs = o.jobs;
  po.explain = o.explain;
  // The one copy kept of the state before the plan. Made again after it
  // when `again` can (and no report shows the state after): one inventory
  // at a time, not two.
  const bool remake = again && grow == nullptr;
  if (!remake) r.inventory.emplace(state);
  std::vector<RequestOutcome> outs = plan_requests(state, {request}, po);
  if (remake) state = Inventory{}, r.inventory.emplace(again());
  const Inventory& before = *r.inventory;
  RequestOutcome& out = outs.front();
  if (out.too_large) {
    r.inventory.reset();
    too_large(r, o, out.reason.full());
    return;
  }
  if (grow != nullptr) r.report = grow_report(before, state, request, out, *grow);
  if (out.status == RequestStatus::Satisfied && !request.satisfied.empty()) {
    // A Kubernetes object with its pods all running, as plan says it: no
    // failure (exit 0), the plan's document.
    r.err += request.satisfied.full() + '\n';
  } else if (out.status == RequestStatus::Satisfied || out.status == RequestStatus::Rejected) {
    show_failure(r, before, request, out, show_options(o), head);
  } else {
    std::vector<ExplainLine> lines;
    if (o.explain) lines = explain(before, request, out.capacity, &out.deploy, &out);
    Report report{before,     request, out.capacity, &out.deploy,
                  o.plans,    &out,    false,        o.explain ? &lines : nullptr,
                  o.all_nodes};
    r.out = render(report, o.output);
  }
  // Kept once shown (moved, not copied).
  r.capacity = std::move(out.capacity);
  r.deploy = std::move(out.deploy);
}

}  // namespace whatif_parts

using namespace whatif_parts;

namespace {

// A workload's pods on the lost node are gone with its instances: no
// correction of its existing instances is left there.
void forget_lost_node(Request& request, std::uint32_t index) {
  const auto& delta = request.existing_delta;
  if (!delta || index >= delta->size() || (*delta)[index] == 0) return;
  auto copy = std::make_shared<std::vector<std::int64_t>>(*delta);
  (*copy)[index] = 0;
  request.existing_delta = std::move(copy);
}

// --- compare ------------------------------------------------------------------

std::vector<Strategy> compare_set(const std::vector<std::string>& names) {
  std::vector<Strategy> out;
  if (names.empty()) {
    // SPEC §14's default: the strategies where count is the number of new
    // instances, in table order.
    const std::span<const StrategyRow> table = strategy_table();
    for (std::uint8_t i = 0; i < table.size(); ++i)
      if (table[i].counts_new) out.push_back(Strategy{i});
    return out;
  }
  for (const std::string& n : names)
    if (auto s = parse_strategy(n); s && std::find(out.begin(), out.end(), *s) == out.end())
      out.push_back(*s);
  return out;
}

template <class W>
void write_comparison(W& w, const StrategyComparison& c) {
  w.key(strategy_name(c.strategy));
  w.begin_object();
  w.key("feasible");
  w.boolean(c.feasible);
  w.key("satisfied");
  w.boolean(c.satisfied);
  if (!c.feasible) {
    w.field("reason", c.reason.full());
  }
  w.key("deploy");
  write_mapping(w, c.deploy);
  w.field("nodes_used", c.nodes_used);
  w.field("total_new", c.total_new);
  w.field("max_new_per_node", c.max_new_per_node);
  w.key("usage_spread");
  w.begin_object();
  w.key("max_minus_min");
  w.number(ratio_text(c.spread.max_minus_min));
  w.key("stddev");
  w.number(ratio_text(c.spread.stddev));
  w.end_object();
  w.end_object();
}

// A first row `before` shows the inventory's own spread, for the rows below
// to be read against.
std::string compare_table(const std::vector<StrategyComparison>& rows) {
  const std::vector<std::string> head = {"STRATEGY", "FEASIBLE",      "NODES USED", "TOTAL NEW",
                                         "MAX NEW",  "USAGE MAX-MIN", "STDDEV"};
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> reasons;
  if (!rows.empty()) {
    const UsageSpread& b = rows.front().before;
    cells.push_back(
        {"before", "-", "-", "-", "-", ratio_text(b.max_minus_min), ratio_text(b.stddev)});
    reasons.emplace_back();
  }
  for (const StrategyComparison& c : rows) {
    cells.push_back({std::string(strategy_name(c.strategy)),
                     c.satisfied  ? "yes (satisfied)"
                     : c.feasible ? "yes"
                                  : "no",
                     std::to_string(c.nodes_used), std::to_string(c.total_new),
                     std::to_string(c.max_new_per_node), ratio_text(c.spread.max_minus_min),
                     ratio_text(c.spread.stddev)});
    reasons.push_back(c.reason.full());
  }
  std::vector<std::size_t> width(head.size());
  for (std::size_t k = 0; k < head.size(); ++k) {
    width[k] = display_cells(head[k]);
    for (const auto& row : cells) width[k] = std::max(width[k], display_cells(row[k]));
  }
  auto line = [&](const std::vector<std::string>& row, const std::string& tail) {
    std::string out;
    for (std::size_t k = 0; k < row.size(); ++k) out += pad_cells(row[k], width[k] + 2);
    out += tail;
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + '\n';
  };
  std::string out = line(head, "WHY NOT");
  for (std::size_t i = 0; i < cells.size(); ++i) out += line(cells[i], reasons[i]);
  return out;
}

void run_compare(const WhatIfOptions& o, WhatIfResult& w) {
  RunResult& r = w.run;
  Inventory inventory;
  Request request;
  if (!load_inputs(o, true, r, inventory, request)) return;
  const std::vector<Strategy> set = compare_set(o.strategies);
  std::vector<Inventory> after(o.report ? set.size() : 0);
  for (std::size_t i = 0; i < set.size(); ++i)
    w.strategies.push_back(compare_one(inventory, request, set[i], o.jobs,
                                       o.report ? &after[i] : nullptr, whatif_budget(o)));
  for (const StrategyComparison& c : w.strategies)
    if (c.too_large) {
      too_large(r, o, std::string(strategy_name(c.strategy)) + ": " + c.reason.full());
      w.strategies.clear();
      return;
    }
  if (o.report) {
    std::vector<ReportSection> sections;
    for (std::size_t i = 0; i < set.size(); ++i) {
      const StrategyComparison& c = w.strategies[i];
      ReportSection s = plan_section(std::string(strategy_name(c.strategy)) + ": " +
                                         (c.satisfied  ? "already satisfied"
                                          : c.feasible ? "feasible"
                                                       : "not feasible: " + c.reason.full()),
                                     inventory, after[i]);
      s.reasons = c.zero_reasons;
      s.reasons.resize(after[i].nodes.size());
      s.filtered.assign(after[i].nodes.size(), false);
      for (std::size_t n = 0; n < inventory.nodes.size() && n < s.reasons.size(); ++n)
        if (!request.filter.accepts(inventory.nodes[n])) {
          s.filtered[n] = true;
          s.reasons[n] = filtered_reason(request.name, false);
        }
      s.outcome.kind = c.satisfied || c.feasible ? OutcomeKind::Ok : OutcomeKind::Failed;
      s.outcome.headline =
          c.satisfied  ? "already satisfied"
          : c.feasible ? "feasible: " + std::to_string(c.total_new) + " new instances placed"
                       : "infeasible: " + c.reason.full();
      sections.push_back(std::move(s));
    }
    ReportOutcome outcome;
    std::size_t feasible = 0;
    for (const StrategyComparison& c : w.strategies) feasible += c.feasible || c.satisfied ? 1 : 0;
    outcome.kind = feasible == set.size() ? OutcomeKind::Ok
                   : feasible == 0        ? OutcomeKind::Failed
                                          : OutcomeKind::Partial;
    outcome.headline = std::to_string(feasible) + " of " + std::to_string(set.size()) +
                       " strategies place " + request.app + " (count " +
                       std::to_string(request.count) + ")";
    for (const StrategyComparison& c : w.strategies)
      outcome.details.push_back(std::string(strategy_name(c.strategy)) + ": " +
                                (c.satisfied  ? "already satisfied"
                                 : c.feasible ? "feasible"
                                              : "infeasible: " + c.reason.full()));
    w.write_report = html_report_writer(
        "eruplan compare: " + request.app + ", count " + std::to_string(request.count), inventory,
        std::move(after), std::move(sections), std::move(outcome));
  }
  const bool any = std::any_of(w.strategies.begin(), w.strategies.end(),
                               [](const StrategyComparison& c) { return c.feasible; });
  std::string message;
  if (!any) {
    r.exit = ExitCode::Infeasible;
    // SPEC §13's summary line: the capacity pass does not depend on the
    // strategy, so one line counts the nodes for every row.
    message =
        "no strategy places the request\n" +
        infeasible_summary(inventory, capacity_pass(inventory, request, CapacityOptions{0, o.jobs}),
                           request.count);
    r.err += "infeasible: " + message + '\n';
    for (const StrategyComparison& c : w.strategies) {
      // Each line names its strategy (score's Kubernetes line does not).
      const std::string name(strategy_name(c.strategy));
      r.err += "  " + name + ": " + c.reason.under(name) + '\n';
    }
  }
  if (o.output == OutputFormat::Table) {
    r.out = compare_table(w.strategies);
    return;
  }
  r.out = render_document(o.output, [&](auto& wr) {
    wr.begin_object();
    if (!w.strategies.empty()) {
      const UsageSpread& b = w.strategies.front().before;
      wr.key("before");
      wr.begin_object();
      wr.key("usage_spread");
      wr.begin_object();
      wr.key("max_minus_min");
      wr.number(ratio_text(b.max_minus_min));
      wr.key("stddev");
      wr.number(ratio_text(b.stddev));
      wr.end_object();
      wr.end_object();
    }
    wr.key("strategies");
    wr.begin_object();
    for (const StrategyComparison& c : w.strategies) write_comparison(wr, c);
    wr.end_object();
    if (!any) write_error_member(wr, ExitCode::Infeasible, message);
    wr.end_object();
    wr.finish();
  });
}

// --- drain --------------------------------------------------------------------

template <class W>
void write_absorption(W& w, const std::vector<Absorption>& all, bool failed,
                      const std::string& message) {
  w.begin_object();
  w.key("nodes");
  w.begin_object();
  for (const Absorption& a : all) {
    w.key(a.node);
    w.begin_object();
    w.key("absorbable");
    w.boolean(a.absorbable);
    if (!a.absorbable) {
      w.field("reason", a.reason);
    }
    w.end_object();
  }
  w.end_object();
  w.key("unabsorbable");
  w.begin_array();
  for (const Absorption& a : all)
    if (!a.absorbable) w.string(a.node);
  w.end_array();
  if (failed) write_error_member(w, ExitCode::Infeasible, message);
  w.end_object();
  w.finish();
}

void run_drain(const WhatIfOptions& o, WhatIfResult& w) {
  RunResult& r = w.run;
  Inventory inventory;
  Request request;
  if (!load_inputs(o, false, r, inventory, request)) return;
  if (!strategy_row(request.strategy).counts_new) {
    invalid(
        r, o.output,
        Origin{o.overrides.given("--strategy") ? "<command line>"
                                               : (o.request ? o.request->name : "<command line>"),
               0, 0, o.overrides.given("--strategy") ? "--strategy" : "strategy"},
        "drain needs a strategy whose count is the number of new instances (" +
            new_count_strategies() + "), not " + std::string(strategy_name(request.strategy)));
    return;
  }
  request.min_count = 0;
  if (o.each_node) {
    std::string reason;
    w.absorption = absorb_each(inventory, request, o.jobs, &reason);
    if (!reason.empty()) {
      too_large(r, o, reason);
      return;
    }
    std::vector<std::string> lost;
    for (const Absorption& a : w.absorption)
      if (!a.absorbable) lost.push_back(a.node);
    std::string message;
    if (!lost.empty()) {
      r.exit = ExitCode::Infeasible;
      message = std::to_string(lost.size()) + " of " + std::to_string(w.absorption.size()) +
                " nodes running " + request.app + " cannot be absorbed by the others";
      r.err += "infeasible: " + message + '\n';
      for (const Absorption& a : w.absorption)
        if (!a.absorbable) r.err += "  " + a.node + ": " + a.reason + '\n';
    }
    if (o.output == OutputFormat::Table) {
      std::size_t width = 4;
      for (const Absorption& a : w.absorption) width = std::max(width, display_cells(a.node));
      r.out = pad_cells("NODE", width + 2) + "ABSORBABLE  WHY NOT\n";
      for (const Absorption& a : w.absorption) {
        std::string line =
            pad_cells(a.node, width + 2) + pad_cells(a.absorbable ? "yes" : "no", 12) + a.reason;
        while (!line.empty() && line.back() == ' ') line.pop_back();
        r.out += line + '\n';
      }
      r.out += std::to_string(w.absorption.size() - lost.size()) + " of " +
               std::to_string(w.absorption.size()) + " nodes absorbable\n";
    } else {
      r.out = render_document(
          o.output, [&](auto& wr) { write_absorption(wr, w.absorption, !lost.empty(), message); });
    }
    return;
  }
  std::uint32_t index = 0;
  while (index < inventory.nodes.size() && inventory.nodes[index].name != o.node) ++index;
  if (index == inventory.nodes.size()) {
    invalid(r, o.output, Origin{"<command line>", 0, 0, "--node"},
            "no node named " + o.node + " in " + o.nodes.name);
    return;
  }
  // The lost node's instances are the count; the request's own (a
  // workload whose replicas all run is satisfied) is not.
  request.count = existing_instances(inventory.nodes[index], index, request);
  request.satisfied = {};
  forget_lost_node(request, index);
  Inventory state = lost_node_inventory(inventory, index);
  if (request.count == 0) {
    // Nothing to move: the capacity pass of the changed inventory, no deploy.
    r.capacity = capacity_pass(state, request, {plans_listed(o, state, request), o.jobs});
    r.deploy = DeployMap(r.capacity->nodes.size());
    r.inventory = state;
    r.err += "drain: " + o.node + " runs no instance of " + request.app + "; nothing to move\n";
    Report report{state, request, *r.capacity, &*r.deploy, o.plans};
    r.out = render(report, o.output);
    return;
  }
  plan_document(state, request, o, r,
                "the " + std::to_string(request.count) +
                    (request.count == 1 ? " instance of " : " instances of ") + request.app +
                    " on " + o.node + " do not fit on the other nodes");
}

}  // namespace

UsageSpread usage_spread(const std::vector<double>& usages) {
  UsageSpread s;
  if (usages.empty()) return s;
  const auto [lo, hi] = std::minmax_element(usages.begin(), usages.end());
  s.max_minus_min = *hi - *lo;
  double mean = 0;
  for (double u : usages) mean += u;
  mean /= static_cast<double>(usages.size());
  double sq = 0;
  for (double u : usages) sq += (u - mean) * (u - mean);
  s.stddev = std::sqrt(sq / static_cast<double>(usages.size()));
  return s;
}

StrategyComparison compare_one(const Inventory& inventory, Request request, Strategy strategy,
                               unsigned jobs, Inventory* after, std::int64_t max_bound_instances) {
  StrategyComparison c;
  c.strategy = strategy;
  request.strategy = strategy;
  if (!strategy_row(strategy).min_count) request.min_count = 0;
  // As plan --strategy refuses it: the other strategies would place the
  // replicas as if the constraint were not there, so they place nothing.
  const std::string cross_node = strategy == Strategy::Score ? "" : cross_node_constraint(request);
  Inventory state = inventory;
  PlanOptions po;
  po.max_plans = 0;
  po.max_bound_instances = max_bound_instances;
  po.jobs = jobs;
  std::vector<RequestOutcome> outs = plan_requests(state, {request}, po);
  const RequestOutcome& out = outs.front();
  c.too_large = out.too_large;
  c.satisfied = out.status == RequestStatus::Satisfied && cross_node.empty();
  c.feasible = out.status != RequestStatus::Rejected && cross_node.empty();
  if (!cross_node.empty())
    c.reason = NamedReason(
        cross_node + " depends on where the other replicas go; only strategy score honours it");
  else if (!c.feasible)
    c.reason = out.reason.empty()
                   ? NamedReason(infeasible_summary(inventory, out.capacity, request.count))
                   : out.reason;
  std::vector<double> usages, before;
  for (std::size_t i = 0; i < out.capacity.nodes.size(); ++i) {
    const NodeCapacity& nc = out.capacity.nodes[i];
    const std::int64_t k = out.deploy.empty() || !cross_node.empty() ? 0 : out.deploy[i];
    if (k > 0) {
      c.deploy.emplace_back(state.nodes[nc.node].name, k);
      ++c.nodes_used;
      c.total_new += k;
      c.max_new_per_node = std::max(c.max_new_per_node, k);
    }
    if (nc.capacity <= 0) continue;
    before.push_back(nc.usage);
    // Usage after the plan: only nodes that got instances changed.
    usages.push_back(k > 0 ? node_capacity(state, request, nc.node, CapacityOptions{0, 1}).usage
                           : nc.usage);
  }
  c.spread = usage_spread(usages);
  c.before = usage_spread(before);
  if (after) {
    *after = cross_node.empty() ? std::move(state) : inventory;
    // Each section shows why nodes got nothing: their reasons in this pass.
    c.zero_reasons.assign(after->nodes.size(), {});
    for (const NodeCapacity& nc : out.capacity.nodes)
      if (nc.capacity == 0) c.zero_reasons[nc.node] = nc.reason();
  }
  return c;
}

Inventory lost_node_inventory(const Inventory& inventory, std::uint32_t index) {
  Inventory out = inventory;
  Node& n = out.nodes[index];
  n.available = false;
  n.instances.clear();
  n.workloads.clear();
  ++n.revision;
  return out;
}

Absorption absorb_one(const Inventory& inventory, const Request& request, std::uint32_t index) {
  Absorption a;
  a.node = inventory.nodes[index].name;
  Request r = request;
  r.min_count = 0;
  r.count = existing_instances(inventory.nodes[index], index, request);
  if (r.count == 0) {
    a.absorbable = true;
    return a;
  }
  forget_lost_node(r, index);
  Inventory state = lost_node_inventory(inventory, index);
  const CapacityMap map = capacity_pass(state, r, CapacityOptions{0, 1});
  std::vector<std::size_t> where;
  const std::vector<StrategyInfo> infos = strategy_infos(state, map, where);
  const StrategyInput input{infos, r.count, map.total, r.nodes_limit, &state, &r, 1, &map};
  const StrategyResult res = strategy_row(r.strategy).run(input);
  a.absorbable = res.outcome == StrategyOutcome::Deployed;
  if (!a.absorbable) a.reason = res.message.full();
  return a;
}

std::vector<Absorption> absorb_each(const Inventory& inventory, const Request& request,
                                    unsigned jobs, std::string* too_large) {
  const CapacityMap map = capacity_pass(inventory, request, CapacityOptions{0, jobs});
  std::vector<std::size_t> where;
  const std::vector<StrategyInfo> base = strategy_infos(inventory, map, where);
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < inventory.nodes.size(); ++i)
    if (inventory.nodes[i].available && existing_instances(inventory.nodes[i], i, request) > 0)
      order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return inventory.nodes[a].name < inventory.nodes[b].name;
  });
  const bool score = request.strategy == Strategy::Score,
             k8s = score && request.scoring.profile == ScoringProfile::Kubernetes;
  // The kubernetes profile's bound is the sum of the checks' runs (two when one fails).
  if (too_large != nullptr && k8s) {
    double steps = 0;
    for (const std::uint32_t lost : order) {
      Request r = request;
      r.count = existing_instances(inventory.nodes[lost], lost, request);
      const StrategyInput input{base, r.count, map.total, r.nodes_limit, &inventory, &r, 1};
      steps += 2 * k8s_profile_steps(input);
    }
    if (steps > static_cast<double>(kK8sProfileSteps)) {
      *too_large =
          "too large: drain --each-node runs the kubernetes profile once per node "
          "(twice when it fails): " +
          std::to_string(order.size()) + " nodes are " +
          std::to_string(static_cast<std::int64_t>(steps)) + " steps, more than " +
          std::to_string(kK8sProfileSteps) + "; drain fewer nodes (--node)";
      return {};
    }
  }
  std::vector<Absorption> out(order.size());
  const StrategyPass run = strategy_row(request.strategy).run;
  parallel_for(order.size(), jobs, [&](std::size_t j) {
    const std::uint32_t lost = order[j];
    Absorption& a = out[j];
    a.node = inventory.nodes[lost].name;
    Request r = request;
    r.count = existing_instances(inventory.nodes[lost], lost, request);
    // The others' entries as they are; the lost node's leaves the infos.
    std::vector<StrategyInfo> infos;
    infos.reserve(base.size());
    std::int64_t total = 0;
    for (const StrategyInfo& info : base) {
      if (info.node == lost) continue;
      infos.push_back(info);
      add_capacity(total, info.capacity);
    }
    StrategyInput input{infos, r.count, total, r.nodes_limit, &inventory, &r, 1};
    // global, and score by resources, place all when the others hold it (global_failure).
    a.absorbable = request.strategy == Strategy::Global || (score && !k8s)
                       ? !global_failure(infos, r.count, total)
                       : run(input).outcome == StrategyOutcome::Deployed;
    if (a.absorbable) return;
    // Failures' messages (score's Kubernetes line) read the pass as if the node were lost.
    CapacityMap with_loss = map;
    for (NodeCapacity& nc : with_loss.nodes) {
      if (nc.node != lost) continue;
      nc.capacity = 0;
      nc.existing = 0;
      nc.plans.clear();
      nc.reasons = {Reason::words("not available", {})};
    }
    with_loss.total = total;
    input.capacity = &with_loss;
    const StrategyResult res = run(input);
    // The kubernetes profile filters through the capacity pass: this run is the answer.
    a.absorbable = res.outcome == StrategyOutcome::Deployed;
    if (!a.absorbable) a.reason = res.message.full();
  });
  return out;
}

WhatIfResult run_whatif(const WhatIfOptions& options) {
  // By WhatIfCommand: Compare, Grow, Drain.
  static constexpr void (*kRuns[])(const WhatIfOptions&, WhatIfResult&) = {run_compare, run_grow,
                                                                           run_drain};
  WhatIfResult w;
  kRuns[static_cast<std::size_t>(options.command)](options, w);
  return w;
}

}  // namespace eruplan
