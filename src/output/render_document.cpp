// A report as a JSON or YAML document (SPEC §6, §13), and the several-
// requests list of such documents.
#include <utf8proc.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <span>

#include "json_writer.h"
#include "k8s_profile.h"
#include "plan_writer.h"
#include "render_parts.h"
#include "request_fields.h"

namespace eruplan {

using namespace render_parts;

namespace {

template <class W>
void write_capacity_value(W& w, std::int64_t capacity) {
  if (capacity == kUnlimited) {
    w.string("unlimited");
  } else {
    w.integer(capacity);
  }
}

template <class W>
void write_fields(W& w, const Request& r, std::span<const RequestField> rows);

template <class W>
void write_tolerations(W& w, const std::vector<Toleration>& tolerations) {
  write_objects(w, tolerations, [&](const Toleration& t) {
    w.field("key", t.key);
    w.field("operator", t.exists ? "Exists" : "Equal");
    w.field("value", t.value);
    w.field("effect", t.effect);
  });
}

template <class W>
void write_scoring(W& w, const Scoring& sc) {
  w.begin_object();
  w.field("type", name_of(kScoringTypeNames, sc.type));
  w.key("resources");
  write_objects(w, sc.resources, [&](const ScoringResource& res) {
    w.field("name", res.name);
    w.field("weight", res.weight);
  });
  if (sc.type == ScoringType::RequestedToCapacityRatio) {
    w.key("shape");
    write_objects(w, sc.shape, [&](const ShapePoint& p) {
      w.field("utilization", p.utilization);
      w.field("score", p.score);
    });
  }
  w.field("fit_weight", sc.fit_weight);
  w.field("balanced_weight", sc.balanced_weight);
  w.end_object();
}

// Whether the writers show the field: its `shown`, and for the blocks of
// their own code, tolerations when there are any and scoring (SPEC §9: the
// scoring the scores came from) for strategy score.
bool is_shown(const Request& r, const RequestField& f) {
  const RequestMember& m = f.member;
  switch (m.shown) {
    case Shown::Never:
      return false;
    case Shown::IfSet:
      return m.text ? !(r.*m.text).empty() : m.number ? r.*m.number != 0 : true;
    case Shown::Always:
    case Shown::NullIfUnset:
      break;
  }
  if (f.spec.name == "tolerations") return !r.tolerations.empty();
  if (f.spec.name == "scoring") return r.strategy == Strategy::Score;
  return true;
}

template <class W>
void write_fields(W& w, const Request& r, std::span<const RequestField> rows);

// One field of the request, by its row: its codec says how.
template <class W>
void write_field(W& w, const Request& r, const RequestField& f) {
  const RequestMember& m = f.member;
  if (!is_shown(r, f)) return;
  w.key(f.spec.name);
  switch (m.codec) {
    case Codec::Text:
    case Codec::Scalar:
      w.string(r.*m.text);
      break;
    case Codec::Integer:
      if (m.shown == Shown::NullIfUnset && r.*m.number == 0)
        w.null();
      else
        w.integer(r.*m.number);
      break;
    case Codec::Strategy:
      w.string(strategy_name(r.strategy));
      break;
    case Codec::ScoringType:
      w.string(name_of(kScoringTypeNames, r.scoring.type));
      break;
    case Codec::Cpu:
      w.number(format_cores(r.*m.number));
      break;
    case Codec::Size:
      w.integer(r.*m.number);
      break;
    case Codec::Bool:
      w.boolean(m.shown_value ? (r.*m.shown_value)() : r.*m.boolean);
      break;
    case Codec::Volumes:
      w.begin_array();
      for (const auto& v : r.volumes) w.string(v.binding);
      w.end_array();
      break;
    case Codec::Labels:
      write_mapping(w, r.filter.labels);
      break;
    case Codec::Names:
      if (const NodeSet* set = r.filter.node_set.get()) {
        // A DaemonSet's nodes; with none, every node is left out.
        const bool exclude = m.names == &NodeFilter::exclude;
        w.begin_array();
        if (exclude == (set->size() == 0))
          for (const std::string_view name : set->names(exclude)) w.string(name);
        w.end_array();
      } else {
        write_string_list(w, r.filter.*m.names);
      }
      break;
    case Codec::None:
      if (!m.rows.empty()) {
        w.begin_object();
        write_fields(w, r, m.rows);
        w.end_object();
      } else if (f.spec.name == "extended") {
        write_mapping(w, r.extended);
      } else if (f.spec.name == "tolerations") {
        write_tolerations(w, r.tolerations);
      } else if (f.spec.name == "scoring") {
        write_scoring(w, r.scoring);
      }
      break;
  }
}

template <class W>
void write_fields(W& w, const Request& r, std::span<const RequestField> rows) {
  for (const RequestField& f : rows) write_field(w, r, f);
}

// The request, its fields in table order but for priority, written after
// min_count as Part II's documents have it.
template <class W>
void write_request(W& w, const Request& r) {
  const RequestField& min_count = kRequestRows[field_index(kRequestFields, "min_count")];
  const RequestField& priority = kRequestRows[field_index(kRequestFields, "priority")];
  w.begin_object();
  for (const RequestField& f : kRequestRows) {
    if (&f == &priority) continue;
    write_field(w, r, f);
    if (&f == &min_count) write_field(w, r, priority);
  }
  w.end_object();
}

// capacity, reasons, reason_kinds and (with --explain) explain: the members
// a §6 document and a §13 failure document share.
template <class W>
void write_capacity_members(W& w, const Report& report) {
  const auto& nodes = report.capacity.nodes;
  const auto name = [&](const NodeCapacity& nc) -> const std::string& {
    return report.inventory.nodes[nc.node].name;
  };
  w.key("capacity");
  w.begin_object();
  w.key("total");
  write_capacity_value(w, report.capacity.total);
  w.key("nodes");
  w.begin_object();
  for (const auto& nc : nodes) {
    w.key(name(nc));
    write_capacity_value(w, nc.capacity);
  }
  w.end_object();
  w.end_object();

  w.key("reasons");
  w.begin_object();
  for (const auto& nc : nodes) {
    if (nc.capacity != 0) continue;
    w.field(name(nc), nc.reason());
  }
  w.end_object();

  w.key("reason_kinds");
  w.begin_object();
  for (const auto& nc : nodes) {
    if (nc.capacity != 0) continue;
    w.key(name(nc));
    write_string_list(w, reason_kinds(nc.reasons));
  }
  w.end_object();
  if (report.explain != nullptr) {
    w.key("explain");
    w.begin_object();
    for (const ExplainLine& line : *report.explain) {
      w.field(line.node, line.text);
    }
    w.end_object();
  }
}

template <class W>
void write_report_document(W& w, const Report& report) {
  const auto& nodes = report.capacity.nodes;
  const auto& inv = report.inventory;
  const auto name = [&](const NodeCapacity& nc) -> const std::string& {
    return inv.nodes[nc.node].name;
  };
  PlanShares shares(report.request);
  const RequestOutcome* outcome = report.outcome;

  w.begin_object();
  if (report.entry) {
    w.field("name", report.request.name);
  }
  if (outcome != nullptr &&
      (report.entry || report.request.min_count > 0 || !report.request.satisfied.empty())) {
    w.field("status", status_name(outcome->status));
    w.field("placed", outcome->placed);
    if (report.entry && !outcome->reason.empty() &&
        (outcome->status == RequestStatus::Rejected ||
         outcome->status == RequestStatus::Satisfied)) {
      w.field("reason", outcome->reason.full());
    }
  }
  w.key("request");
  write_request(w, report.request);

  write_capacity_members(w, report);

  if (outcome != nullptr && !outcome->scores.empty()) {
    w.key("scores");
    w.begin_object();
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (nodes[i].capacity <= 0 || outcome->scores[i].filtered) continue;
      const NodeScore& sc = outcome->scores[i];
      w.key(name(nodes[i]));
      w.begin_object();
      w.field("fit", sc.fit);
      w.field("balanced", sc.balanced);
      w.field("total", sc.total);
      if (!sc.plugins.empty()) {  // the kubernetes profile: every plugin's normalized score
        w.key("plugins");
        w.begin_object();
        for (std::size_t p = 0; p < sc.plugins.size() && p < std::size(kK8sScorePlugins); ++p) {
          w.field(kK8sScorePlugins[p].name, sc.plugins[p]);
        }
        w.end_object();
      }
      w.end_object();
    }
    w.end_object();
  }

  // Assigned without a DeployMap (the capacity command) has nothing to show.
  const bool assigned_only = report.plans == PlansShown::Assigned;
  const bool show_plans = report.capacity.binds && report.plans != PlansShown::None &&
                          !(assigned_only && report.deploy == nullptr);
  if (show_plans) {
    w.key("plans");
    w.begin_object();
    for (size_t i = 0; i < nodes.size(); ++i) {
      const auto& nc = nodes[i];
      size_t shown = nc.plans.size();
      if (assigned_only) {
        const std::int64_t k = deployed(report, i);
        if (k <= 0) continue;
        shown = std::min(shown, static_cast<size_t>(k));
      }
      w.key(name(nc));
      w.begin_array();
      for (size_t j = 0; j < shown; ++j)
        write_plan(w, nc.plans[j], inv.nodes[nc.node], report.request, shares);
      w.end_array();
    }
    w.end_object();
  }

  if (report.deploy != nullptr) {
    w.key("deploy");
    w.begin_object();
    for (size_t i = 0; i < nodes.size(); ++i) {
      const std::int64_t k = deployed(report, i);
      if (k <= 0) continue;
      w.field(name(nodes[i]), k);
    }
    w.end_object();

    if (outcome != nullptr && !outcome->preemptions.empty()) {
      w.key("preemptions");
      w.begin_array();
      for (const Preemption& p : outcome->preemptions) {
        w.begin_object();
        w.field("instance", p.instance);
        w.field("node", inv.nodes[p.node].name);
        w.key("victims");
        w.begin_array();
        for (const Victim& v : p.victims) {
          w.begin_object();
          w.field("pod", v.name);
          w.field("priority", v.priority);
          w.field("node", inv.nodes[v.node].name);
          w.end_object();
        }
        w.end_array();
        w.end_object();
      }
      w.end_array();
    }

    if (report.capacity.binds) {
      w.key("assignments");
      w.begin_object();
      for (size_t i = 0; i < nodes.size(); ++i) {
        const std::int64_t k = deployed(report, i);
        if (k <= 0) continue;
        const auto& nc = nodes[i];
        w.key(name(nc));
        w.begin_array();
        for (std::int64_t j = 0; j < k; ++j) {
          const Plan* plan = assigned_plan(nc, j);
          if (plan == nullptr) break;
          write_plan(w, *plan, inv.nodes[nc.node], report.request, shares);
        }
        w.end_array();
      }
      w.end_object();
    }
  }

  w.end_object();
  w.finish();
}

}  // namespace

namespace render_parts {

void write_document(JsonWriter& w, const Report& report) { write_report_document(w, report); }
void write_document(YamlWriter& w, const Report& report) { write_report_document(w, report); }

size_t estimated_size(const Report& report) {
  size_t plans = 0;
  for (const auto& nc : report.capacity.nodes) plans += nc.plans.size();
  // --explain's lines are known: their text and a line of quotes and indent
  // each (an estimate short of them doubles the string at the end).
  size_t explained = 0;
  if (report.explain != nullptr)
    for (const ExplainLine& line : *report.explain)
      explained += line.node.size() + line.text.size() + 16;
  return 1024 + report.capacity.nodes.size() * 96 + (report.capacity.binds ? plans * 80 : 0) +
         explained;
}

}  // namespace render_parts

void write_failure_members(JsonWriter& w, const Report& report) {
  write_capacity_members(w, report);
}

void write_failure_members(YamlWriter& w, const Report& report) {
  write_capacity_members(w, report);
}

namespace {

// Indents every line of a standalone document for its place in the list.
void append_indented(std::string& out, std::string_view doc, std::string_view first,
                     std::string_view rest) {
  std::string_view prefix = first;
  while (!doc.empty()) {
    const std::size_t end =
        std::min(doc.find('\n'), doc.size() - 1) + 1;  // the line with its newline
    out += prefix;
    out.append(doc.data(), end);
    doc.remove_prefix(end);
    prefix = rest;
  }
}

std::string_view trim_newline(std::string_view s) {
  while (!s.empty() && s.back() == '\n') s.remove_suffix(1);
  return s;
}

}  // namespace

std::string render_request_list(const std::vector<std::string>& entries, OutputFormat format,
                                const RequestCounts* summary, const std::string& error) {
  std::string out;
  std::size_t size = 256 + error.size();
  for (const auto& e : entries) size += e.size() + e.size() / 8;
  out.reserve(size);
  const std::pair<const char*, std::int64_t> counts[] = {
      {"placed", summary ? summary->placed : 0},
      {"partial", summary ? summary->partial : 0},
      {"rejected", summary ? summary->rejected : 0},
      {"satisfied", summary ? summary->satisfied : 0}};
  if (format == OutputFormat::Json) {
    out += kJsonRequestListHead;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      append_json_request_separator(out, i);
      append_indented(out, trim_newline(entries[i]), "", "    ");
    }
    append_json_request_list_tail(out, entries.empty(), summary, error);
    return out;
  }
  out += entries.empty() ? "requests: []\n" : "requests:\n";
  for (const auto& e : entries) append_indented(out, e, "- ", "  ");
  if (summary != nullptr) {
    out += "summary:\n";
    for (const auto& [key, n] : counts) {
      out += "  ";
      out += key;
      out += ": ";
      append_int(out, n);
      out += '\n';
    }
  }
  out += error;
  return out;
}

void append_json_request_separator(std::string& out, std::size_t index) {
  out += index == 0 ? "\n    " : ",\n    ";
}

void append_json_request_list_tail(std::string& out, bool empty, const RequestCounts* summary,
                                   const std::string& error) {
  out += empty ? "]" : "\n  ]";
  if (summary != nullptr) {
    const std::pair<const char*, std::int64_t> counts[] = {{"placed", summary->placed},
                                                           {"partial", summary->partial},
                                                           {"rejected", summary->rejected},
                                                           {"satisfied", summary->satisfied}};
    out += ",\n  \"summary\": {";
    for (std::size_t i = 0; i < 4; ++i) {
      out += i == 0 ? "\n    \"" : ",\n    \"";
      out += counts[i].first;
      out += "\": ";
      append_int(out, counts[i].second);
    }
    out += "\n  }";
  }
  if (!error.empty()) {
    // `error` is a whole {"error": {...}} document: its one member goes in
    // as it is, between the outer braces.
    std::string_view body = trim_newline(error);
    body.remove_prefix(std::min<std::size_t>(body.find('\n') + 1, body.size()));
    body = body.substr(0, body.rfind('\n'));
    out += ",\n";
    out += body;
  }
  out += "\n}\n";
}

std::string render_request_json(const Request& request) {
  std::string out;
  JsonWriter w(out);
  write_request(w, request);
  w.finish();
  return out;
}

}  // namespace eruplan
