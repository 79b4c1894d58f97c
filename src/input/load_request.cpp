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
#include "strategy.h"
#include "units.h"

namespace eruplan {

namespace {

__extension__ typedef __int128 i128;

const char* const kCommandLine = "<command line>";

Origin flag(const char* name) { return Origin{kCommandLine, 0, 0, name}; }

bool byte_less(std::string_view a, std::string_view b) { return a < b; }

std::string unknown_strategy(std::string_view text) {
  return "unknown strategy " + quoted(text) + "; expected " + strategy_choices();
}

// SRC:DST[:FLAGS[:SIZE]] (SPEC §4, volume plans).
bool parse_volume(std::string_view binding, VolumeRequest& out, std::string& error) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t colon = binding.find(':', start);
    parts.push_back(binding.substr(start, colon == std::string_view::npos ? colon : colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  const std::string prefix = quoted(binding) + ": ";
  if (parts.size() < 2 || parts.size() > 4) {
    error = prefix + "expected SRC:DST[:FLAGS[:SIZE]], got " + std::to_string(parts.size()) +
            (parts.size() == 1 ? " part" : " parts");
    return false;
  }
  if (parts[0].empty() || parts[1].empty()) {
    error =
        prefix + (parts[0].empty() ? "SRC" : "DST") + " is empty; expected SRC:DST[:FLAGS[:SIZE]]";
    return false;
  }
  out = VolumeRequest{};
  out.binding = binding;
  out.source = parts[0];
  out.destination = parts[1];
  if (parts.size() > 2) {
    out.flags = parts[2];
    const bool letters = std::all_of(out.flags.begin(), out.flags.end(),
                                     [](unsigned char c) { return std::isalpha(c) != 0; });
    if (!letters) {
      error = prefix + "FLAGS " + quoted(out.flags) + " must be letters such as rw, ro or rwm" +
              (parts.size() == 3 ? " (to give a size write SRC:DST:FLAGS:SIZE)" : "");
      return false;
    }
  }
  if (parts.size() > 3) {
    std::string problem;
    const auto size = parse_size(parts[3], problem);
    if (!size) {
      error = prefix + problem;
      return false;
    }
    out.size = *size;
  }
  if (out.monopoly() && out.size == 0) {
    error = prefix + "flag m (monopoly) needs a SIZE > 0";
    return false;
  }
  return true;
}

std::optional<bool> parse_flag_bool(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (s == "true" || s == "1" || s == "yes") return true;
  if (s == "false" || s == "0" || s == "no") return false;
  return std::nullopt;
}

// The request as read so far, with where the fields that later checks talk
// about came from.
struct Draft {
  Request request;
  ValueId name_id = kNoValue;
  Origin min_count_origin;
  bool count_given = false;
  bool count_written = false;  // present, valid or not: a bad count is reported once
  Origin cpu_origin, cpu_limit_origin, cpu_bind_origin;
  Origin scoring_origin;     // the scoring block, for the shape check after --scoring
  bool shape_given = false;  // scoring.shape present, valid or not
};

class RequestReader {
 public:
  // Fields a flag overrides are not read from the file at all: the flag
  // replaces them, so a bad value there is no problem.
  RequestReader(Reader& r, Draft& d, const RequestOverrides& o) : r_(r), d_(d), o_(o) {}

  void read(const FieldPath& root, ValueId top) {
    if (r_.doc()[top].kind == ValueKind::Null) return;  // an empty file: everything defaults
    std::array<ValueId, kRequestFields.size()> v;
    if (!r_.fields(root, top, kRequestFields, v.data())) return;
    const ValueId name = v[kName], priority = v[kPriority], min_count = v[kMinCount],
                  group = v[kGroup], tolerations = v[kTolerations], scoring = v[kScoring];
    Request& r = d_.request;
    if (name != kNoValue) {
      if (auto n = r_.string(root.child("name"), name)) r.name = *n;
      d_.name_id = name;
    }
    if (priority != kNoValue) {
      if (auto p = r_.integer(root.child("priority"), priority, INT64_MIN)) r.priority = *p;
    }
    if (min_count != kNoValue) {
      if (auto m = r_.integer(root.child("min_count"), min_count, 1)) r.min_count = *m;
      d_.min_count_origin = r_.origin(root.child("min_count"), min_count);
    }
    if (group != kNoValue) {
      if (auto g = r_.scalar(root.child("group"), group)) r.group = *g;
    }
    if (tolerations != kNoValue) read_tolerations(root.child("tolerations"), tolerations);
    if (scoring != kNoValue) read_scoring(root.child("scoring"), scoring);
    overridden(kRequestFields, v.data());
    const ValueId app = v[kApp], count = v[kCount], strategy = v[kStrategy],
                  nodes_limit = v[kNodesLimit], resources = v[kResources],
                  node_filter = v[kNodeFilter];
    Request& req = d_.request;
    (void)r;
    if (app != kNoValue) {
      if (auto a = r_.string(root.child("app"), app)) req.app = *a;
    }
    if (count != kNoValue) {
      d_.count_written = true;
      if (auto c = r_.integer(root.child("count"), count, 1)) {
        req.count = *c;
        d_.count_given = true;
      }
    }
    if (strategy != kNoValue) {
      const FieldPath here = root.child("strategy");
      if (auto s = r_.string(here, strategy)) {
        if (auto parsed = parse_strategy(*s))
          req.strategy = *parsed;
        else
          r_.error(here, strategy, unknown_strategy(*s));
      }
    }
    if (nodes_limit != kNoValue) {
      if (auto n = r_.integer(root.child("nodes_limit"), nodes_limit, 0)) req.nodes_limit = *n;
    }
    if (resources != kNoValue) read_resources(root.child("resources"), resources);
    if (node_filter != kNoValue) read_filter(root.child("node_filter"), node_filter);
  }

  // The per-instance parts alone: SPEC §10's apps file reads them as here.
  void read_parts(const FieldPath& root, ValueId resources, ValueId node_filter,
                  ValueId tolerations) {
    if (tolerations != kNoValue) read_tolerations(root.child("tolerations"), tolerations);
    if (resources != kNoValue) read_resources(root.child("resources"), resources);
    if (node_filter != kNoValue) read_filter(root.child("node_filter"), node_filter);
  }

 private:
  void read_resources(const FieldPath& path, ValueId object) {
    std::array<ValueId, kResourceFields.size()> v;
    if (!r_.fields(path, object, kResourceFields, v.data())) return;
    const ValueId cpu_fit = v[kCpuFit], extended = v[kExtended];
    if (cpu_fit != kNoValue) {
      if (auto b = r_.boolean(path.child("cpu_fit"), cpu_fit)) d_.request.cpu_fit = *b;
    }
    if (extended != kNoValue) read_extended(path.child("extended"), extended);
    overridden(kResourceFields, v.data());
    const ValueId cpu = v[kCpu], cpu_limit = v[kCpuLimit], cpu_bind = v[kCpuBind],
                  memory = v[kMemory], memory_limit = v[kMemoryLimit], storage = v[kStorage],
                  volumes = v[kVolumes];
    Request& req = d_.request;
    if (cpu != kNoValue) {
      const FieldPath here = path.child("cpu");
      if (auto c = r_.cpu(here, cpu)) req.cpu = *c;
      d_.cpu_origin = r_.origin(here, cpu);
    }
    if (cpu_limit != kNoValue) {
      const FieldPath here = path.child("cpu_limit");
      if (auto c = r_.cpu(here, cpu_limit)) req.cpu_limit = *c;
      d_.cpu_limit_origin = r_.origin(here, cpu_limit);
    }
    if (cpu_bind != kNoValue) {
      const FieldPath here = path.child("cpu_bind");
      if (auto b = r_.boolean(here, cpu_bind)) req.cpu_bind = *b;
      d_.cpu_bind_origin = r_.origin(here, cpu_bind);
    }
    if (memory != kNoValue) {
      if (auto m = r_.size(path.child("memory"), memory)) req.memory = *m;
    }
    if (memory_limit != kNoValue) {
      if (auto m = r_.size(path.child("memory_limit"), memory_limit)) req.memory_limit = *m;
    }
    if (storage != kNoValue) {
      if (auto s = r_.size(path.child("storage"), storage)) req.storage = *s;
    }
    if (volumes != kNoValue) {
      const FieldPath here = path.child("volumes");
      if (!r_.is_array(here, volumes)) return;
      const std::uint32_t n = r_.doc().size(volumes);
      for (std::uint32_t i = 0; i < n; ++i) {
        const FieldPath at = here.at(i);
        const ValueId e = r_.doc().element(volumes, i);
        const auto binding = r_.string(at, e);
        if (!binding) continue;
        VolumeRequest vol;
        std::string problem;
        if (parse_volume(*binding, vol, problem))
          req.volumes.push_back(std::move(vol));
        else
          r_.error(at, e, problem);
      }
    }
  }

  void read_extended(const FieldPath& path, ValueId v) {
    std::vector<Reader::Entry> list = r_.members(path, v);
    r_.sort_unique(path, list, byte_less);
    for (const auto& e : list) {
      const FieldPath here = path.child(e.key);
      if (e.key.empty() || e.key == "cpu" || e.key == "memory" || e.key == "storage") {
        r_.error(here, e.key_id,
                 e.key.empty()
                     ? std::string("an extended resource name must not be empty")
                     : quoted(e.key) + " is not an extended resource; ask for it as resources." +
                           std::string(e.key));
        continue;
      }
      if (auto n = r_.size(here, e.value)) d_.request.extended.emplace_back(std::string(e.key), *n);
    }
  }

  void read_tolerations(const FieldPath& path, ValueId v) {
    if (!r_.is_array(path, v)) return;
    const std::uint32_t n = r_.doc().size(v);
    for (std::uint32_t i = 0; i < n; ++i) {
      const FieldPath at = path.at(i);
      const ValueId item = r_.doc().element(v, i);
      std::array<ValueId, kTolerationFields.size()> f;
      if (!r_.fields(at, item, kTolerationFields, f.data())) continue;
      const ValueId key = f[toleration_field::kKey], op = f[toleration_field::kOperator],
                    value = f[toleration_field::kValue], effect = f[toleration_field::kEffect];
      Toleration t;
      if (key != kNoValue) {
        if (auto k = r_.scalar(at.child("key"), key)) t.key = *k;
      }
      if (op != kNoValue) {
        if (auto o = r_.string(at.child("operator"), op)) {
          if (*o == "Exists")
            t.exists = true;
          else if (*o != "Equal")
            r_.error(at.child("operator"), op,
                     "unknown operator " + quoted(*o) + "; expected Equal or Exists");
        }
      }
      if (value != kNoValue) {
        if (auto s = r_.scalar(at.child("value"), value)) t.value = *s;
        if (t.exists && !t.value.empty())
          r_.error(at.child("value"), value, "a toleration with operator Exists takes no value");
      }
      if (effect != kNoValue) {
        if (auto e = r_.scalar(at.child("effect"), effect)) {
          if (!e->empty() && *e != "NoSchedule" && *e != "PreferNoSchedule" && *e != "NoExecute")
            r_.error(at.child("effect"), effect,
                     "unknown effect " + quoted(*e) +
                         "; expected NoSchedule, PreferNoSchedule or NoExecute");
          t.effect = *e;
        }
      }
      if (!t.exists && t.key.empty())
        r_.error(
            at, item,
            "a toleration with operator Equal needs a key (an empty key needs operator Exists)");
      d_.request.tolerations.push_back(std::move(t));
    }
  }

  void read_scoring(const FieldPath& path, ValueId v) {
    std::array<ValueId, kScoringFields.size()> f;
    if (!r_.fields(path, v, kScoringFields, f.data())) return;
    ValueId type = f[scoring_field::kType];
    const ValueId resources = f[scoring_field::kResources], shape = f[scoring_field::kShape],
                  fit_weight = f[scoring_field::kFitWeight],
                  balanced_weight = f[scoring_field::kBalancedWeight];
    Scoring& sc = d_.request.scoring;
    d_.scoring_origin = r_.origin(path, v);
    d_.shape_given = shape != kNoValue;
    if (o_.scoring) type = kNoValue;  // --scoring replaces it
    if (const ValueId profile = f[scoring_field::kProfile]; profile != kNoValue) {
      if (auto p = r_.string(path.child("profile"), profile)) {
        if (*p == "kubernetes")
          sc.profile = ScoringProfile::Kubernetes;
        else if (*p == "resources")
          sc.profile = ScoringProfile::Resources;
        else
          r_.error(
              path.child("profile"), profile,
              "unknown profile " + r_.describe(profile) + "; expected kubernetes or resources");
      }
    }
    if (type != kNoValue) {
      if (auto t = r_.string(path.child("type"), type)) {
        if (auto parsed = parse_scoring_type(*t))
          sc.type = *parsed;
        else
          r_.error(path.child("type"), type, unknown_scoring(*t));
      }
    }
    if (fit_weight != kNoValue) {
      if (auto w = r_.integer(path.child("fit_weight"), fit_weight, 0, 100)) sc.fit_weight = *w;
    }
    if (balanced_weight != kNoValue) {
      if (auto w = r_.integer(path.child("balanced_weight"), balanced_weight, 0, 100))
        sc.balanced_weight = *w;
    }
    if (resources != kNoValue) {
      const FieldPath here = path.child("resources");
      if (r_.is_array(here, resources)) {
        sc.resources.clear();
        const std::uint32_t n = r_.doc().size(resources);
        // Nothing to score on would make every node tie: surely a slip.
        if (n == 0)
          r_.error(here, resources,
                   "the list is empty; give at least one of cpu, memory, storage or an "
                   "extended resource");
        for (std::uint32_t i = 0; i < n; ++i) {
          const FieldPath at = here.at(i);
          const ValueId item = r_.doc().element(resources, i);
          std::array<ValueId, kScoringResourceFields.size()> rf;
          if (!r_.fields(at, item, kScoringResourceFields, rf.data())) continue;
          const ValueId name = rf[scoring_resource_field::kName],
                        weight = rf[scoring_resource_field::kWeight];
          ScoringResource res;
          if (name == kNoValue)
            r_.error(at, item, "name is required (cpu, memory, storage or an extended resource)");
          else if (auto nm = r_.string(at.child("name"), name))
            res.name = *nm;
          if (weight != kNoValue) {
            if (auto w = r_.integer(at.child("weight"), weight, 1, 100)) res.weight = *w;
          }
          for (const auto& other : sc.resources)
            if (!res.name.empty() && other.name == res.name)
              r_.error(at.child("name"), name, "resource " + quoted(res.name) + " is listed twice");
          sc.resources.push_back(std::move(res));
        }
      }
    }
    if (shape != kNoValue) {
      const FieldPath here = path.child("shape");
      if (r_.is_array(here, shape)) {
        const std::uint32_t n = r_.doc().size(shape);
        if (n < 1 || n > 20)
          r_.error(here, shape, "a shape has 1 to 20 points, got " + std::to_string(n));
        for (std::uint32_t i = 0; i < n; ++i) {
          const FieldPath at = here.at(i);
          const ValueId item = r_.doc().element(shape, i);
          std::array<ValueId, kShapePointFields.size()> pf;
          if (!r_.fields(at, item, kShapePointFields, pf.data())) continue;
          const ValueId utilization = pf[shape_point_field::kUtilization],
                        score = pf[shape_point_field::kScore];
          ShapePoint p;
          if (utilization == kNoValue || score == kNoValue) {
            r_.error(at, item, "a shape point needs utilization (0..100) and score (0..10)");
            continue;
          }
          const auto u = r_.integer(at.child("utilization"), utilization, 0, 100);
          const auto sv = r_.integer(at.child("score"), score, 0, 10);
          if (!u || !sv) continue;
          p.utilization = *u;
          p.score = *sv;
          if (!sc.shape.empty() && sc.shape.back().utilization >= p.utilization)
            r_.error(at.child("utilization"), utilization,
                     "utilization must increase strictly along the shape (" +
                         std::to_string(sc.shape.back().utilization) + " before " +
                         std::to_string(p.utilization) + ")");
          sc.shape.push_back(p);
        }
      }
    }
  }

  void read_filter(const FieldPath& path, ValueId object) {
    std::array<ValueId, kNodeFilterFields.size()> v;
    if (!r_.fields(path, object, kNodeFilterFields, v.data())) return;
    overridden(kNodeFilterFields, v.data());
    const ValueId labels = v[kLabels], nodes = v[kNodes], exclude = v[kExclude];
    NodeFilter& filter = d_.request.filter;
    if (labels != kNoValue) {
      const FieldPath here = path.child("labels");
      std::vector<Reader::Entry> list = r_.members(here, labels);
      r_.sort_unique(here, list, byte_less);
      for (const auto& e : list) {
        if (e.key.empty()) {
          r_.error(here.child(e.key), e.key_id, "a label name must not be empty");
          continue;
        }
        if (auto value = r_.scalar(here.child(e.key), e.value)) {
          filter.labels.emplace_back(std::string(e.key), std::string(*value));
          d_.request.label_origins.push_back(r_.origin(here.child(e.key), e.key_id));
        }
      }
    }
    if (nodes != kNoValue)
      names(path.child("nodes"), nodes, filter.nodes, d_.request.nodes_origins);
    if (exclude != kNoValue)
      names(path.child("exclude"), exclude, filter.exclude, d_.request.exclude_origins);
  }

  // Fields a given flag replaces read as absent.
  template <std::size_t N>
  void overridden(const std::array<FieldSpec, N>& table, ValueId* values) const {
    for (std::size_t i = 0; i < N; ++i)
      if (o_.given(table[i].flag)) values[i] = kNoValue;
  }

  void names(const FieldPath& path, ValueId v, std::vector<std::string>& out,
             std::vector<Origin>& origins) {
    if (!r_.is_array(path, v)) return;
    const std::uint32_t n = r_.doc().size(v);
    for (std::uint32_t i = 0; i < n; ++i) {
      const FieldPath at = path.at(i);
      const ValueId e = r_.doc().element(v, i);
      if (auto name = r_.string(at, e)) {
        out.emplace_back(*name);
        origins.push_back(r_.origin(at, e));
      }
    }
  }

  Reader& r_;
  Draft& d_;
  const RequestOverrides& o_;
};

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
  if (text == "least_allocated") return ScoringType::LeastAllocated;
  if (text == "most_allocated") return ScoringType::MostAllocated;
  if (text == "requested_to_capacity_ratio") return ScoringType::RequestedToCapacityRatio;
  return std::nullopt;
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
  const RequestOverrides none;
  RequestReader(r, d, none).read_parts(at, resources, node_filter, tolerations);
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
      RequestReader(r, d, overrides).read(FieldPath{}, doc->root());
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
  std::array<ValueId, kRequestListFields.size()> ignored;
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
    RequestReader(r, d, none).read(at, item);
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
