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

void apply_overrides(const RequestOverrides& o, Draft& d, Diagnostics& diags) {
  Request& req = d.request;
  std::string problem;
  if (o.app) req.app = *o.app;
  if (o.count) {
    d.count_written = true;
    const auto c = parse_integer(*o.count, problem);
    if (!c)
      diags.error(flag("--count"), problem);
    else if (*c <= 0)
      diags.error(flag("--count"), "expected a whole number > 0, got " + *o.count);
    else
      req.count = *c, d.count_given = true;
  }
  if (o.strategy) {
    if (auto s = parse_strategy(*o.strategy))
      req.strategy = *s;
    else
      diags.error(flag("--strategy"), unknown_strategy(*o.strategy));
  }
  if (o.scoring) {
    d.scoring_origin = flag("--scoring");
    if (auto t = parse_scoring_type(*o.scoring))
      req.scoring.type = *t;
    else
      diags.error(flag("--scoring"), unknown_scoring(*o.scoring));
  }
  if (o.nodes_limit) {
    const auto n = parse_integer(*o.nodes_limit, problem);
    if (!n)
      diags.error(flag("--nodes-limit"), problem);
    else if (*n < 0)
      diags.error(flag("--nodes-limit"), "expected a whole number >= 0, got " + *o.nodes_limit);
    else
      req.nodes_limit = *n;
  }
  if (o.cpu) {
    d.cpu_origin = flag("--cpu");
    if (auto c = parse_cpu(*o.cpu, problem))
      req.cpu = *c;
    else
      diags.error(flag("--cpu"), problem);
  }
  if (o.cpu_bind) {
    d.cpu_bind_origin = flag("--cpu-bind");
    if (auto b = parse_flag_bool(*o.cpu_bind))
      req.cpu_bind = *b;
    else
      diags.error(flag("--cpu-bind"),
                  "expected true, false, 1, 0, yes or no, got " + quoted(*o.cpu_bind));
  }
  if (o.memory) {
    if (auto m = parse_size(*o.memory, problem))
      req.memory = *m;
    else
      diags.error(flag("--memory"), problem);
  }
  if (o.storage) {
    if (auto s = parse_size(*o.storage, problem))
      req.storage = *s;
    else
      diags.error(flag("--storage"), problem);
  }
  if (!o.volumes.empty()) {
    req.volumes.clear();
    for (const auto& binding : o.volumes) {
      VolumeRequest v;
      if (parse_volume(binding, v, problem))
        req.volumes.push_back(std::move(v));
      else
        diags.error(flag("--volume"), problem);
    }
  }
  if (!o.labels.empty()) {
    req.filter.labels.clear();
    req.label_origins.clear();  // the flags replace the file's labels
    for (const auto& label : o.labels) {
      const auto eq = label.find('=');
      if (eq == std::string::npos || eq == 0) {
        diags.error(flag("--label"), "expected k=v (e.g. zone=a), got " + quoted(label));
        continue;
      }
      std::string key = label.substr(0, eq), value = label.substr(eq + 1);
      auto& labels = req.filter.labels;
      auto it = std::lower_bound(labels.begin(), labels.end(), key,
                                 [](const auto& l, const std::string& k) { return l.first < k; });
      if (it != labels.end() && it->first == key) {
        diags.error(flag("--label"), "label " + key + " given twice (" + key + "=" + it->second +
                                         ", " + label + ")");
        continue;
      }
      labels.insert(it, {std::move(key), std::move(value)});
    }
    req.label_origins.assign(req.filter.labels.size(), flag("--label"));
  }
  auto names = [&](const std::vector<std::string>& given, std::vector<std::string>& out,
                   std::vector<Origin>& origins, const char* name) {
    if (given.empty()) return;
    out.clear();
    origins.clear();
    for (const auto& n : given) {
      if (n.empty()) {
        diags.error(flag(name), "expected a node name, got \"\"");
      } else {
        out.push_back(n);
        origins.push_back(flag(name));
      }
    }
  };
  names(o.nodes, req.filter.nodes, req.nodes_origins, "--node");
  names(o.exclude, req.filter.exclude, req.exclude_origins, "--exclude");
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

namespace {

// The override of the flag `name` (a request flag of request_fields.h);
// `O` is RequestOverrides, const or not.
template <class O>
auto* scalar_flag(O& o, std::string_view name) {
  using Result = decltype(&o.app);
  if (name == "--app") return &o.app;
  if (name == "--count") return &o.count;
  if (name == "--strategy") return &o.strategy;
  if (name == "--nodes-limit") return &o.nodes_limit;
  if (name == "--cpu") return &o.cpu;
  if (name == "--cpu-bind") return &o.cpu_bind;
  if (name == "--memory") return &o.memory;
  if (name == "--storage") return &o.storage;
  return Result{};
}
template <class O>
auto* list_flag(O& o, std::string_view name) {
  using Result = decltype(&o.volumes);
  if (name == "--volume") return &o.volumes;
  if (name == "--label") return &o.labels;
  if (name == "--node") return &o.nodes;
  if (name == "--exclude") return &o.exclude;
  return Result{};
}

}  // namespace

bool RequestOverrides::given(std::string_view flag) const {
  if (const auto* s = scalar_flag(*this, flag)) return s->has_value();
  if (const auto* l = list_flag(*this, flag)) return !l->empty();
  return false;
}

bool RequestOverrides::set(std::string_view flag, std::string value) {
  if (auto* s = scalar_flag(*this, flag)) {
    *s = std::move(value);
    return true;
  }
  if (auto* l = list_flag(*this, flag)) {
    l->push_back(std::move(value));
    return true;
  }
  return false;
}

bool RequestOverrides::empty() const {
  return !app && !count && !strategy && !scoring && !nodes_limit && !cpu && !cpu_bind && !memory &&
         !storage && volumes.empty() && labels.empty() && nodes.empty() && exclude.empty();
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
  if (count_required && !d.count_written)
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

void read_request_parts(Reader& r, const std::string& file, const FieldPath& at, ValueId resources,
                        ValueId node_filter, ValueId tolerations, Request& out,
                        Diagnostics& diags) {
  Draft d = new_draft(file, at.str() + ".", true);
  read_draft_parts(r, d, at, resources, node_filter, tolerations);
  normalise(d, diags);
  d.request.app = out.app;
  d.request.name = out.name;
  out = std::move(d.request);
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
      r.error(
          d.name_id != kNoValue ? at.child("name") : at, d.name_id != kNoValue ? d.name_id : item,
          "two requests are named " + quoted(d.request.name) + " (requests[" + std::to_string(j) +
              "] and requests[" + std::to_string(i) + "]); give each a unique name");
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
  d.count_given = d.count_written = d.request.count > 0;
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
