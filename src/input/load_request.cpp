// The deploy request (SPEC §3): read from a file, then the command-line
// overrides replace the fields they name, then Eru's normalisation. Also the
// checks that need both inputs.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

#include "doc.h"
#include "load.h"
#include "request_fields.h"
#include "request_reader.h"
#include "strategy.h"
#include "units.h"
#include "wide.h"

namespace eruplan {

using namespace request_reading;

namespace {

const char* const kCommandLine = "<command line>";

Origin flag(const char* name) { return Origin{kCommandLine, 0, 0, name}; }

std::optional<bool> parse_flag_bool(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (s == "true" || s == "1" || s == "yes") return true;
  if (s == "false" || s == "0" || s == "no") return false;
  return std::nullopt;
}

// --label k=v, repeated: they replace the file's labels.
void apply_labels(std::span<const std::string> given, const Origin& at, Request& req,
                  Diagnostics& diags) {
  req.filter.labels.clear();
  req.label_origins.clear();
  for (const auto& label : given) {
    const auto eq = label.find('=');
    if (eq == std::string::npos || eq == 0) {
      diags.error(at, "expected k=v (e.g. zone=a), got " + quoted(label));
      continue;
    }
    std::string key = label.substr(0, eq), value = label.substr(eq + 1);
    auto& labels = req.filter.labels;
    auto it = std::lower_bound(labels.begin(), labels.end(), key,
                               [](const auto& l, const std::string& k) { return l.first < k; });
    if (it != labels.end() && it->first == key) {
      diags.error(at, "label " + excerpt(key) + " given twice (" + excerpt(key) + "=" +
                          excerpt(it->second) + ", " + excerpt(label) + ")");
      continue;
    }
    labels.insert(it, {std::move(key), std::move(value)});
  }
  req.label_origins.assign(req.filter.labels.size(), at);
}

// A flag's values into its field, by the field's codec; the flag is where
// the field came from.
void apply_flag(const RequestField& f, std::span<const std::string> given, Draft& d,
                Diagnostics& diags) {
  const RequestMember& m = f.member;
  Request& req = d.request;
  const std::string flag_name(f.spec.flag);
  const Origin at = flag(flag_name.c_str());
  if (m.origin) d.*m.origin = at;
  const std::string& text = given.back();
  std::string problem;
  switch (m.codec) {
    case Codec::Text:
    case Codec::Scalar:
      req.*m.text = text;
      break;
    case Codec::Integer:
      if (const auto n = parse_integer(text, problem); !n)
        diags.error(at, problem);
      else if (*n < m.min)
        diags.error(at, "expected a whole number " +
                            (m.min == 1 ? std::string("> 0") : ">= " + std::to_string(m.min)) +
                            ", got " + excerpt(text));
      else
        req.*m.number = *n;
      break;
    case Codec::Strategy:
      if (auto s = parse_strategy(text))
        req.strategy = *s;
      else
        diags.error(at, unknown_strategy(text));
      break;
    case Codec::ScoringType:
      d.scoring_origin = at;  // for the shape check
      if (auto t = parse_scoring_type(text))
        req.scoring.type = *t;
      else
        diags.error(at, unknown_scoring(text));
      break;
    case Codec::Cpu:
    case Codec::Size:
      if (auto q = m.codec == Codec::Cpu ? parse_cpu(text, problem) : parse_size(text, problem))
        req.*m.number = *q;
      else
        diags.error(at, problem);
      break;
    case Codec::Bool:
      if (auto b = parse_flag_bool(text))
        req.*m.boolean = *b;
      else
        diags.error(at, "expected true, false, 1, 0, yes or no, got " + quoted(text));
      break;
    case Codec::Volumes:
      req.volumes.clear();
      for (const auto& binding : given) {
        VolumeRequest v;
        if (parse_volume(binding, v, problem))
          req.volumes.push_back(std::move(v));
        else
          diags.error(at, problem);
      }
      break;
    case Codec::Labels:
      apply_labels(given, at, req, diags);
      break;
    case Codec::Names: {
      auto& out = req.filter.*m.names;
      auto& origins = req.*m.origins;
      out.clear();
      origins.clear();
      for (const auto& n : given) {
        if (n.empty()) {
          diags.error(at, "expected a node name, got \"\"");
        } else {
          out.push_back(n);
          origins.push_back(at);
        }
      }
      break;
    }
    case Codec::None:
      break;
  }
}

// Every flag given into its field, in table order (--scoring after
// --strategy, as always).
void apply_overrides(const RequestOverrides& o, Draft& d, Diagnostics& diags) {
  if (o.empty()) return;
  auto apply = [&](const RequestField& row) {
    if (o.given(row.spec.flag)) apply_flag(row, o.values(row.spec.flag), d, diags);
  };
  for_each_flag_row([&](const RequestField& row) {
    apply(row);
    if (row.member.codec == Codec::Strategy)
      apply(kScoringRows[field_index(kScoringFields, "type")]);
  });
}

// SPEC §3, as Eru: a missing request takes its limit, a limit below the
// request is raised to it, and with cpu_bind cpu is raised to cpu_limit.
void normalise(Draft& d, Diagnostics& diags) {
  Request& req = d.request;
  // QoS as Kubernetes has it for one container: BestEffort without requests
  // and limits; Guaranteed with both limits and requests equal to them (a
  // missing request takes its limit); else Burstable.
  // (A Kubernetes object's class is its pod's, computed when it is read.)
  if (req.pod)
    ;
  else if (req.cpu == 0 && req.cpu_limit == 0 && req.memory == 0 && req.memory_limit == 0)
    req.qos = QosClass::BestEffort;
  else if (req.cpu_limit > 0 && req.memory_limit > 0 &&
           (req.cpu == 0 || req.cpu == req.cpu_limit) &&
           (req.memory == 0 || req.memory == req.memory_limit))
    req.qos = QosClass::Guaranteed;
  else
    req.qos = QosClass::Burstable;
  if (req.cpu == 0 && req.cpu_limit > 0) {
    req.cpu = req.cpu_limit;
    d.cpu_origin = d.cpu_limit_origin;
  }
  if (req.cpu_limit < req.cpu) req.cpu_limit = req.cpu;
  if (req.memory == 0 && req.memory_limit > 0) req.memory = req.memory_limit;
  if (req.memory_limit < req.memory) req.memory_limit = req.memory;
  if (req.cpu_bind) {
    if (req.cpu_limit > req.cpu) {
      req.cpu = req.cpu_limit;
      d.cpu_origin = d.cpu_limit_origin;
    }
    if (req.cpu == 0)
      diags.error(d.cpu_bind_origin,
                  "with cpu_bind, cpu must be > 0 (give resources.cpu or --cpu: the cores each "
                  "instance binds)");
  }
  req.cpu_origin = d.cpu_origin;
}

}  // namespace

const RequestField* request_flag_row(std::string_view flag) {
  const RequestField* found = nullptr;
  for_each_override_row([&](const RequestField& row) {
    if (row.spec.flag == flag) found = &row;
  });
  return found;
}

const std::vector<std::string>* RequestOverrides::find(std::string_view flag) const {
  for (const auto& [name, values] : given_)
    if (name == flag) return &values;
  return nullptr;
}

bool RequestOverrides::given(std::string_view flag) const { return find(flag) != nullptr; }

std::span<const std::string> RequestOverrides::values(std::string_view flag) const {
  const auto* v = find(flag);
  return v ? std::span<const std::string>(*v) : std::span<const std::string>();
}

const std::string* RequestOverrides::value(std::string_view flag) const {
  const auto* v = find(flag);
  return v ? &v->back() : nullptr;
}

bool RequestOverrides::set(std::string_view flag, std::string value) {
  const RequestField* row = request_flag_row(flag);
  if (!row) return false;
  auto it =
      std::find_if(given_.begin(), given_.end(), [&](const auto& g) { return g.first == flag; });
  if (it == given_.end()) it = given_.insert(it, {std::string(flag), {}});
  const bool repeatable = row->spec.kind == FieldKind::List || row->spec.kind == FieldKind::Labels;
  if (!repeatable) it->second.clear();
  it->second.push_back(std::move(value));
  return true;
}

void RequestOverrides::reset(std::string_view flag) {
  std::erase_if(given_, [&](const auto& g) { return g.first == flag; });
}

std::optional<ScoringType> parse_scoring_type(std::string_view text) {
  return value_of(kScoringTypeNames, text);
}

std::string unknown_scoring(std::string_view text) {
  return "unknown scoring type " + quoted(text) +
         "; expected least_allocated, most_allocated or requested_to_capacity_ratio";
}

namespace {

Draft new_draft(const std::string& file, const std::string& prefix, bool from_file) {
  Draft d;
  d.cpu_origin = Origin{file, 0, 0, from_file ? prefix + "resources.cpu" : "--cpu"};
  d.cpu_limit_origin = Origin{file, 0, 0, from_file ? prefix + "resources.cpu_limit" : "--cpu"};
  d.cpu_bind_origin = Origin{file, 0, 0, from_file ? prefix + "resources.cpu_bind" : "--cpu-bind"};
  return d;
}

// The checks SPEC §8.4 adds to one request: min_count within 1..count and
// only where the strategy can place fewer than count.
void check_min_count(const Draft& d, Diagnostics& diags) {
  const Request& r = d.request;
  if (r.min_count == 0) return;
  if (!strategy_row(r.strategy).min_count)
    diags.error(d.min_count_origin, "min_count is not valid with strategy " +
                                        std::string(strategy_name(r.strategy)) +
                                        " (only with auto, global, drained and score)");
  else if (r.count > 0 && r.min_count > r.count)
    diags.error(d.min_count_origin, "min_count " + std::to_string(r.min_count) +
                                        " is more than count " + std::to_string(r.count));
}

void finish_draft(Draft& d, bool count_required, const Origin& count_origin, Diagnostics& diags) {
  if (count_required && !d.count_written())
    diags.error(
        count_origin,
        "count is required for plan (how many instances to deploy; set count or pass --count)");
  normalise(d, diags);
  check_min_count(d, diags);
  // Checked once the type is final (--scoring may have set it).
  if (d.request.scoring.type == ScoringType::RequestedToCapacityRatio && !d.shape_given)
    diags.error(d.scoring_origin,
                "requested_to_capacity_ratio needs scoring.shape (a list of {utilization, score} "
                "points)");
  if (d.request.name.empty()) d.request.name = d.request.app;
}

}  // namespace

bool read_request_parts(Reader& r, const std::string& file, const FieldPath& at, ValueId resources,
                        ValueId node_filter, ValueId tolerations, const std::string& name,
                        Request& out, Diagnostics& diags) {
  const std::size_t before = diags.error_count();
  Draft d = new_draft(file, at.str() + ".", true);
  read_draft_parts(r, d, at, resources, node_filter, tolerations);
  normalise(d, diags);
  d.request.app = name;
  d.request.name = name;
  out = std::move(d.request);
  return diags.error_count() == before;
}

std::optional<RequestSet> load_requests(const Source* source, const RequestOverrides& overrides,
                                        bool count_required, Diagnostics& diags) {
  const std::size_t errors_before = diags.error_count();
  const std::string file = source ? source->name : kCommandLine;
  RequestSet set;
  std::optional<Doc> doc;
  ValueId list = kNoValue;
  if (source) {
    doc = parse_document(*source, diags);
    if (!doc) return std::nullopt;
    const ValueId root = doc->root();
    if ((*doc)[root].kind == ValueKind::Object) {
      for (std::uint32_t i = 0; i < doc->size(root); ++i)
        if (doc->text(doc->key(root, i)) == "requests") list = doc->member(root, i);
    }
  }
  if (list == kNoValue) {
    Draft d = new_draft(file, "", source != nullptr);
    if (doc) {
      Reader r(*doc, source->name, diags);
      read_draft(r, d, overrides, FieldPath{}, doc->root());
    }
    apply_overrides(overrides, d, diags);
    finish_draft(d, count_required, Origin{file, 0, 0, source ? "count" : "--count"}, diags);
    // Even with errors (an unknown strategy), the request as read comes
    // back, so the checks against the inventory report its other problems.
    set.requests.push_back(std::move(d.request));
    return set;
  }

  // `requests:` (SPEC §8.4): a list of requests, each one as §3 plus name,
  // priority, min_count and group; nothing else may sit beside the list.
  set.list = true;
  set.overridden = !overrides.empty();
  Reader r(*doc, source->name, diags);
  const FieldPath root;
  Picked<kRequestListFields> ignored;
  r.fields(root, doc->root(), kRequestListFields, ignored.data());
  const FieldPath path = root.child("requests");
  if (!r.is_array(path, list)) return std::nullopt;
  const std::uint32_t n = doc->size(list);
  if (n == 0) r.error(path, list, "requests is empty; give at least one request");
  const RequestOverrides none;
  // Every request's name so far, with its index, those with errors too:
  // a later duplicate is reported whatever else is wrong (every problem at once).
  std::vector<std::pair<std::string, std::uint32_t>> names;
  for (std::uint32_t i = 0; i < n; ++i) {
    const FieldPath at = path.at(i);
    const std::string prefix = at.str() + ".";
    Draft d = new_draft(file, prefix, true);
    const ValueId item = doc->element(list, i);
    if (!r.is_object(at, item)) continue;
    read_draft(r, d, none, at, item);
    finish_draft(d, count_required, r.origin(at, item), diags);
    // A later request with an earlier one's name (an unnamed one goes by its app).
    for (const auto& [name, j] : names) {
      if (d.request.name.empty() || name != d.request.name) continue;
      std::string message = "two requests are named " + quoted(d.request.name) + " (requests[" +
                            std::to_string(j) + "] and requests[" + std::to_string(i) +
                            "]); give each a unique name";
      if (d.name_origin.path.empty())
        r.error(at, item, std::move(message));
      else if (!r.exhausted())
        diags.error(d.name_origin, std::move(message));
      break;
    }
    if (!d.request.name.empty()) names.emplace_back(d.request.name, i);
    // With errors too, so that the checks against the inventory report
    // this request's problems in the same run; the caller sees the errors.
    set.requests.push_back(std::move(d.request));
    set.indexes.push_back(i);
  }
  if (diags.error_count() > errors_before && set.requests.empty()) return std::nullopt;
  return set;
}

bool finish_request(Request& request, const RequestOverrides& overrides, bool count_required,
                    const std::string& file, const std::string& prefix, Diagnostics& diags) {
  const std::size_t errors_before = diags.error_count();
  Draft d = new_draft(file, prefix, true);
  d.request = std::move(request);
  if (d.request.count > 0) d.count_origin = Origin{file, 0, 0, prefix + "count"};
  apply_overrides(overrides, d, diags);
  finish_draft(d, count_required, Origin{file, 0, 0, prefix + "count"}, diags);
  request = std::move(d.request);
  return diags.error_count() == errors_before;
}

std::optional<Request> load_request(const Source* source, const RequestOverrides& overrides,
                                    bool count_required, Diagnostics& diags) {
  const std::size_t errors_before = diags.error_count();
  auto set = load_requests(source, overrides, count_required, diags);
  if (!set || diags.error_count() > errors_before) return std::nullopt;
  if (set->list) {
    diags.error(Origin{source ? source->name : kCommandLine, 0, 0, "requests"},
                "expected one request here, not a requests: list");
    return std::nullopt;
  }
  return std::move(set->requests.front());
}

namespace {

// With cpu_bind, cpu x share_base must be a whole number of pieces; say the
// exact count (e.g. 29.5), never a truncated one.
void check_cpu_pieces(const Inventory& inventory, const Request& request, Diagnostics& diags) {
  if (!request.cpu_bind || cpu_request_pieces(request.cpu, inventory.share_base) != -1) return;
  const i128 scaled = static_cast<i128>(request.cpu) * inventory.share_base;
  const i128 whole = scaled / kNanoPerCore;
  std::string pieces = whole > INT64_MAX ? "over 9223372036854775807"
                                         : std::to_string(static_cast<std::int64_t>(whole));
  std::string frac = std::to_string(static_cast<std::int64_t>(scaled % kNanoPerCore));
  frac.insert(0, 9 - frac.size(), '0');
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  if (whole <= INT64_MAX) pieces += '.' + frac;
  diags.error(request.cpu_origin, "cpu " + format_cores(request.cpu) + " at share_base " +
                                      std::to_string(inventory.share_base) + " is " + pieces +
                                      " pieces; cpu x share_base must be a whole number");
}

}  // namespace

void check_inputs(const Inventory& inventory, const Request& request, Diagnostics& diags) {
  check_cpu_pieces(inventory, request, diags);
  if (request.filter.nodes.empty() && request.filter.exclude.empty()) return;
  // A filter naming a node the inventory lacks is most likely a typo.
  std::vector<std::string_view> names;
  names.reserve(inventory.nodes.size());
  for (const auto& n : inventory.nodes) names.push_back(n.name);
  std::sort(names.begin(), names.end());
  // Each name at the place it was given (file:line:col and path, or the
  // flag), when the loader kept it.
  auto check = [&](const std::vector<std::string>& listed, const std::vector<Origin>& origins,
                   const char* path) {
    for (std::size_t i = 0; i < listed.size(); ++i)
      if (!std::binary_search(names.begin(), names.end(), std::string_view(listed[i])))
        diags.warning(origins.size() == listed.size() ? origins[i] : Origin{{}, 0, 0, path},
                      "node " + quoted(listed[i]) + " is not in the inventory");
  };
  check(request.filter.nodes, request.nodes_origins, "node_filter.nodes");
  check(request.filter.exclude, request.exclude_origins, "node_filter.exclude");
}

}  // namespace eruplan
