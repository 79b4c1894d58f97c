// One deploy request's fields into a Draft (request_reader.h).
#include "request_reader.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "doc.h"
#include "request_fields.h"
#include "strategy.h"
#include "units.h"
#include "wide.h"

namespace eruplan::request_reading {

namespace {

bool byte_less(std::string_view a, std::string_view b) { return a < b; }

class RequestReader {
 public:
  // Fields a flag overrides are not read from the file at all: the flag
  // replaces them, so a bad value there is no problem.
  RequestReader(Reader& r, Draft& d, const RequestOverrides& o) : r_(r), d_(d), o_(o) {}

  void read(const FieldPath& root, ValueId top) {
    if (r_.doc()[top].kind == ValueKind::Null) return;  // an empty file: everything defaults
    Picked<kRequestFields> v;
    if (!r_.fields(root, top, kRequestFields, v.data())) return;
    const ValueId name = v["name"], priority = v["priority"], min_count = v["min_count"],
                  group = v["group"], tolerations = v["tolerations"], scoring = v["scoring"];
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
    const ValueId app = v["app"], count = v["count"], strategy = v["strategy"],
                  nodes_limit = v["nodes_limit"], resources = v["resources"],
                  node_filter = v["node_filter"];
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
    Picked<kResourceFields> v;
    if (!r_.fields(path, object, kResourceFields, v.data())) return;
    const ValueId cpu_fit = v["cpu_fit"], extended = v["extended"];
    if (cpu_fit != kNoValue) {
      if (auto b = r_.boolean(path.child("cpu_fit"), cpu_fit)) d_.request.cpu_fit = *b;
    }
    if (extended != kNoValue) read_extended(path.child("extended"), extended);
    overridden(kResourceFields, v.data());
    const ValueId cpu = v["cpu"], cpu_limit = v["cpu_limit"], cpu_bind = v["cpu_bind"],
                  memory = v["memory"], memory_limit = v["memory_limit"], storage = v["storage"],
                  volumes = v["volumes"];
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
      Picked<kTolerationFields> f;
      if (!r_.fields(at, item, kTolerationFields, f.data())) continue;
      const ValueId key = f["key"], op = f["operator"], value = f["value"], effect = f["effect"];
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
    Picked<kScoringFields> f;
    if (!r_.fields(path, v, kScoringFields, f.data())) return;
    ValueId type = f["type"];
    const ValueId resources = f["resources"], shape = f["shape"], fit_weight = f["fit_weight"],
                  balanced_weight = f["balanced_weight"];
    Scoring& sc = d_.request.scoring;
    d_.scoring_origin = r_.origin(path, v);
    d_.shape_given = shape != kNoValue;
    if (o_.scoring) type = kNoValue;  // --scoring replaces it
    if (const ValueId profile = f["profile"]; profile != kNoValue) {
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
          Picked<kScoringResourceFields> rf;
          if (!r_.fields(at, item, kScoringResourceFields, rf.data())) continue;
          const ValueId name = rf["name"], weight = rf["weight"];
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
          Picked<kShapePointFields> pf;
          if (!r_.fields(at, item, kShapePointFields, pf.data())) continue;
          const ValueId utilization = pf["utilization"], score = pf["score"];
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
    Picked<kNodeFilterFields> v;
    if (!r_.fields(path, object, kNodeFilterFields, v.data())) return;
    overridden(kNodeFilterFields, v.data());
    const ValueId labels = v["labels"], nodes = v["nodes"], exclude = v["exclude"];
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

}  // namespace

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

void read_draft(Reader& r, Draft& d, const RequestOverrides& o, const FieldPath& root,
                ValueId top) {
  RequestReader(r, d, o).read(root, top);
}

void read_draft_parts(Reader& r, Draft& d, const FieldPath& root, ValueId resources,
                      ValueId node_filter, ValueId tolerations) {
  const RequestOverrides none;
  RequestReader(r, d, none).read_parts(root, resources, node_filter, tolerations);
}

}  // namespace eruplan::request_reading
