// `eruplan share --model mesos`: load -> mesos_share -> render. The
// document: {"model": "mesos", "seed", "cycles": [{"cycle", "offers": [{node,
// role, framework, offered, launched, declined}]}], "frameworks": {name:
// {role, existing, placed, dominant_resource, dominant_share,
// dominant_share_fraction, deploy}}, "roles": {name: {weight, quota,
// allocation, dominant_resource, dominant_share, dominant_share_fraction,
// quota_met}}}; or tables: the offers per cycle, then per framework and role.
#include "mesos_command.h"

#include <algorithm>
#include <numeric>

#include "json_writer.h"
#include "kubernetes.h"
#include "report_html.h"
#include "units.h"

namespace eruplan {

namespace {

std::string weight_text(const Weight& w) {
  return w.den == 1 ? std::to_string(w.num) : std::to_string(w.num) + "/" + std::to_string(w.den);
}

std::string u128_text(u128 v) {
  std::string s;
  do s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
  while ((v /= 10) != 0);
  return s;
}

// An amount of a kind as the document writes it: cpu in cores, the others
// as integers (bytes for memory and storage).
std::string amount_json(std::string_view kind, u128 v) {
  if (kind == "cpu" && v <= static_cast<u128>(INT64_MAX))
    return format_cores(static_cast<NanoCores>(v));
  return kind == "cpu" ? u128_text(v / kNanoPerCore) : u128_text(v);
}

// ... and as a table shows it: cpu 2.5, memory 4Gi.
std::string amount_text(std::string_view kind, u128 v) {
  if ((kind == "memory" || kind == "storage") && v <= static_cast<u128>(INT64_MAX))
    return format_bytes(static_cast<Bytes>(v));
  return amount_json(kind, v);
}

template <class Names>
std::vector<std::size_t> by_name(const Names& list) {
  std::vector<std::size_t> order(list.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return list[a].name < list[b].name; });
  return order;
}

// The items of `list` as one mapping keyed by their names, in name order;
// write(i) writes the members of list[i].
template <class W, class Named, class F>
void write_by_name(W& w, const Named& list, F write) {
  write_keyed_objects(
      w, by_name(list), [&](std::size_t i) -> const std::string& { return list[i].name; }, write);
}

// The kinds of `amounts` to show: those a framework asks for (offers), or
// the non-zero ones.
std::vector<std::pair<std::string, u128>> shown(const MesosResult& r, const KindVector& amounts,
                                                const Request* asks) {
  std::vector<std::pair<std::string, u128>> out;
  for (std::size_t k = 0; k < r.kinds.size(); ++k) {
    const std::string& kind = r.kinds[k];
    bool show = amounts[k] != 0;
    if (asks != nullptr) {
      std::int64_t per = kind == "cpu"       ? asks->cpu
                         : kind == "memory"  ? asks->memory
                         : kind == "storage" ? asks->storage
                                             : 0;
      for (const auto& [name, n] : asks->extended)
        if (name == kind) per = n;
      show = per > 0;
    }
    if (show) out.emplace_back(kind, static_cast<u128>(amounts[k]));
  }
  return out;
}

std::vector<std::pair<std::string, u128>> quota_of(const MesosRole& role) {
  std::vector<std::pair<std::string, u128>> out;
  const KindAmounts& q = role.quota;
  if (q.cpu) out.emplace_back("cpu", static_cast<u128>(*q.cpu));
  if (q.memory) out.emplace_back("memory", static_cast<u128>(*q.memory));
  if (q.storage) out.emplace_back("storage", static_cast<u128>(*q.storage));
  for (const auto& [name, n] : q.extended) out.emplace_back(name, static_cast<u128>(n));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::pair<std::string, u128>> allocation_of(const MesosResult& r,
                                                        const MesosRoleShare& role) {
  std::vector<std::pair<std::string, u128>> out;
  for (std::size_t k = 0; k < r.kinds.size(); ++k)
    if (role.allocation[k] != 0) out.emplace_back(r.kinds[k], role.allocation[k]);
  return out;
}

template <class W>
void write_amounts(W& w, const std::vector<std::pair<std::string, u128>>& amounts) {
  w.begin_object();
  for (const auto& [kind, v] : amounts) {
    w.key(kind);
    w.number(amount_json(kind, v));
  }
  w.end_object();
}

std::string amounts_text(const std::vector<std::pair<std::string, u128>>& amounts) {
  std::string out;
  for (const auto& [kind, v] : amounts)
    out += (out.empty() ? "" : ", ") + kind + " " + amount_text(kind, v);
  return out.empty() ? "-" : out;
}

template <class W>
void write_share(W& w, const std::string& kind, const Fraction& share) {
  w.key("dominant_resource");
  if (kind.empty())
    w.null();
  else
    w.string(kind);
  w.key("dominant_share");
  w.number(decimal_text(share, 6));
  w.field("dominant_share_fraction", fraction_text(share));
}

template <class W>
void write_document(W& w, const Inventory& state, const MesosSpec& spec, const MesosResult& result,
                    const MesosOptions& options) {
  w.begin_object();
  w.field("model", "mesos");
  w.key("seed");
  if (options.seed)
    w.number(std::to_string(*options.seed));
  else
    w.null();
  w.key("cycles");
  w.begin_array();
  for (std::size_t c = 0; c < result.cycles.size(); ++c) {
    w.begin_object();
    w.field("cycle", static_cast<std::int64_t>(c + 1));
    w.key("offers");
    w.begin_array();
    for (const MesosOffer& o : result.cycles[c]) {
      const MesosFramework& fw = spec.frameworks[o.framework];
      w.begin_object();
      w.field("node", state.nodes[o.node].name);
      w.field("role", spec.roles[fw.role].name);
      w.field("framework", fw.name);
      w.key("offered");
      write_amounts(w, shown(result, o.offered, &fw.request));
      w.field("launched", o.launched);
      w.key("declined");
      write_amounts(w, shown(result, o.declined, &fw.request));
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("frameworks");
  write_by_name(w, spec.frameworks, [&](std::size_t f) {
    const MesosFrameworkShare& s = result.frameworks[f];
    w.field("role", spec.roles[spec.frameworks[f].role].name);
    w.field("existing", s.existing);
    w.field("placed", s.placed);
    write_share(w, s.dominant_resource, s.dominant_share);
    w.key("deploy");
    w.begin_object();
    for (const auto& [node, k] : s.deploy) {
      w.field(state.nodes[node].name, k);
    }
    w.end_object();
  });
  w.key("roles");
  write_by_name(w, spec.roles, [&](std::size_t r) {
    const MesosRoleShare& s = result.roles[r];
    w.field("weight", weight_text(spec.roles[r].weight));
    w.key("quota");
    write_amounts(w, quota_of(spec.roles[r]));
    w.key("allocation");
    write_amounts(w, allocation_of(result, s));
    write_share(w, s.dominant_resource, s.dominant_share);
    w.key("quota_met");
    w.boolean(s.quota_met);
  });
  w.end_object();
  w.finish();
}

std::string share_text(const std::string& kind, const Fraction& share) {
  if (kind.empty()) return "0";
  return decimal_text(share, 6) + " (" + fraction_text(share) + ") of " + kind;
}

std::string render_table(const Inventory& state, const MesosSpec& spec, const MesosResult& result,
                         const MesosOptions& options) {
  std::string out = "model: mesos, seed " +
                    (options.seed ? std::to_string(*options.seed) : std::string("none")) + ", " +
                    std::to_string(result.cycles.size()) +
                    (result.cycles.size() == 1 ? " cycle, " : " cycles, ") +
                    std::to_string(result.launched) + " new instances\n";
  std::vector<std::vector<std::string>> offers{
      {"CYCLE", "NODE", "ROLE", "FRAMEWORK", "OFFERED", "LAUNCHED", "DECLINED"}};
  for (std::size_t c = 0; c < result.cycles.size(); ++c)
    for (const MesosOffer& o : result.cycles[c]) {
      const MesosFramework& fw = spec.frameworks[o.framework];
      offers.push_back({std::to_string(c + 1), state.nodes[o.node].name, spec.roles[fw.role].name,
                        fw.name, amounts_text(shown(result, o.offered, &fw.request)),
                        std::to_string(o.launched),
                        amounts_text(shown(result, o.declined, nullptr))});
    }
  if (offers.size() > 1) out += '\n' + align_columns(offers, "", 2);
  std::vector<std::vector<std::string>> frameworks{
      {"FRAMEWORK", "ROLE", "EXISTING", "PLACED", "DOMINANT SHARE"}};
  for (const std::size_t f : by_name(spec.frameworks)) {
    const MesosFrameworkShare& s = result.frameworks[f];
    frameworks.push_back({spec.frameworks[f].name, spec.roles[spec.frameworks[f].role].name,
                          std::to_string(s.existing), std::to_string(s.placed),
                          share_text(s.dominant_resource, s.dominant_share)});
  }
  out += '\n' + align_columns(frameworks, "", 2);
  std::vector<std::vector<std::string>> roles{
      {"ROLE", "WEIGHT", "QUOTA", "ALLOCATION", "DOMINANT SHARE", "QUOTA MET"}};
  for (const std::size_t r : by_name(spec.roles)) {
    const MesosRoleShare& s = result.roles[r];
    roles.push_back({spec.roles[r].name, weight_text(spec.roles[r].weight),
                     amounts_text(quota_of(spec.roles[r])), amounts_text(allocation_of(result, s)),
                     share_text(s.dominant_resource, s.dominant_share),
                     spec.roles[r].has_quota() ? (s.quota_met ? "yes" : "no") : "-"});
  }
  out += '\n' + align_columns(roles, "", 2);
  return out;
}

// --report: the nodes before and after, each node's new instances per
// framework, and a row per framework.
std::string mesos_report(const Inventory& before, const Inventory& after, const MesosSpec& spec,
                         const MesosResult& result) {
  ReportSection section =
      plan_section(std::to_string(spec.frameworks.size()) + " frameworks, " +
                       std::to_string(result.cycles.size()) + " cycles, " +
                       std::to_string(result.launched) + " new instances (model mesos)",
                   before, after);
  section.by_app.assign(after.nodes.size(), {});
  section.table_head = {"framework", "role", "existing", "placed", "dominant share"};
  for (const std::size_t f : by_name(spec.frameworks)) {
    const MesosFrameworkShare& s = result.frameworks[f];
    for (const auto& [node, k] : s.deploy) {
      std::string& text = section.by_app[node];
      text += (text.empty() ? "" : ", ") + spec.frameworks[f].name + " +" + std::to_string(k);
    }
    section.table_rows.push_back({spec.frameworks[f].name, spec.roles[spec.frameworks[f].role].name,
                                  std::to_string(s.existing), std::to_string(s.placed),
                                  s.dominant_resource.empty() ? "0"
                                                              : fraction_text(s.dominant_share) +
                                                                    " of " + s.dominant_resource});
  }
  return render_html_report("eruplan share --model mesos", before, {section});
}

}  // namespace

std::string render_mesos(const Inventory& state, const MesosSpec& spec, const MesosResult& result,
                         const MesosOptions& options, OutputFormat format) {
  if (format == OutputFormat::Table) return render_table(state, spec, result, options);
  return render_document(format, [&](auto& w) { write_document(w, state, spec, result, options); });
}

RunResult run_mesos(const RunOptions& options) {
  RunResult result;
  const std::optional<MesosSpec> spec = load_share_inputs<MesosSpec>(
      result, options, "share needs -r FILE (the roles and frameworks)", load_mesos, check_mesos);
  if (!spec) return result;
  Inventory state = *result.inventory;
  // Bounded work: the offers and cycles listed grow with the input.
  MesosOptions bounded = *options.mesos;
  const std::uint64_t bytes = input_bytes(options);
  bounded.max_listed = mesos_listed_budget(bytes);
  bounded.max_steps = kMesosSteps;
  bounded.max_kind_cells = mesos_kind_cells_budget(bytes);
  const MesosResult shared = mesos_share(state, *spec, bounded);
  if (!shared.too_large.empty()) {
    Diagnostics d;
    // No cycle ran: the input itself (its kinds) is too large.
    d.error(shared.cycles.empty() ? Origin{options.request->name, 0, 0, "frameworks"}
                                  : Origin{"<command line>", 0, 0, "--cycles"},
            shared.too_large);
    result.exit = ExitCode::Invalid;
    result.problems = d.items();
    result.err += d.to_string();
    return result;
  }
  if (options.report) result.report = mesos_report(*result.inventory, state, *spec, shared);
  for (std::size_t f = 0; f < spec->frameworks.size(); ++f)
    result.requests.push_back(
        {spec->frameworks[f].name, RequestStatus::Placed, shared.frameworks[f].placed, {}});
  for (std::size_t c = 0; c < shared.cycles.size(); ++c)
    for (const MesosOffer& o : shared.cycles[c])
      result.offers.push_back(std::to_string(c + 1) + " " + state.nodes[o.node].name + " " +
                              spec->frameworks[o.framework].name + " +" +
                              std::to_string(o.launched));
  result.out = render_mesos(state, *spec, shared, *options.mesos, options.output);
  save_inventory(result, options, state);
  return result;
}

}  // namespace eruplan
