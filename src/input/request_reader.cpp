// One deploy request's fields into a Draft (request_reader.h).
#include "request_reader.h"

#include <algorithm>
#include <array>
#include <initializer_list>
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

// The order a block's fields are read in, and so the order a file's
// problems are reported in: the fields named first, as the reader has always
// had them (so that a file with several errors reports them as before), then
// the others in table order (a new field needs no entry here).
template <const auto& Table>
consteval std::array<std::size_t, Table.size()> read_order(
    std::initializer_list<std::string_view> first) {
  std::array<std::size_t, Table.size()> order{};
  std::array<bool, Table.size()> taken{};
  std::size_t n = 0;
  for (const std::string_view name : first) {
    std::size_t i = 0;
    while (i < Table.size() && Table[i].name != name) ++i;
    if (i == Table.size()) throw "no field of that name in the table";
    order[n++] = i;
    taken[i] = true;
  }
  for (std::size_t i = 0; i < Table.size(); ++i)
    if (!taken[i]) order[n++] = i;
  return order;
}
constexpr auto kRequestReadOrder = read_order<kRequestFields>(
    {"name", "priority", "min_count", "group", "tolerations", "scoring"});
constexpr auto kResourceReadOrder = read_order<kResourceFields>({"cpu_fit", "extended"});
constexpr auto kNodeFilterReadOrder = read_order<kNodeFilterFields>({});

std::span<const std::size_t> read_order_of(std::span<const RequestField> rows) {
  if (rows.data() == kRequestRows.data()) return kRequestReadOrder;
  if (rows.data() == kResourceRows.data()) return kResourceReadOrder;
  return kNodeFilterReadOrder;
}

class RequestReader {
 public:
  // Fields a flag overrides are not read from the file at all: the flag
  // replaces them, so a bad value there is no problem.
  RequestReader(Reader& r, Draft& d, const RequestOverrides& o) : r_(r), d_(d), o_(o) {}

  void read(const FieldPath& root, ValueId top) {
    if (r_.doc()[top].kind == ValueKind::Null) return;  // an empty file: everything defaults
    read_fields(root, top, kRequestRows, kRequestFields);
  }

  // The per-instance parts alone: SPEC §10's apps file reads them as here.
  void read_parts(const FieldPath& root, ValueId resources, ValueId node_filter,
                  ValueId tolerations) {
    constexpr auto row = [](FieldOf<kRequestFields> f) -> const RequestField& {
      return kRequestRows[f.index];
    };
    if (tolerations != kNoValue) read_field(root, tolerations, row("tolerations"));
    if (resources != kNoValue) read_field(root, resources, row("resources"));
    if (node_filter != kNoValue) read_field(root, node_filter, row("node_filter"));
  }

 private:
  // The fields of `rows` (schema rows `table`) out of the mapping `object`.
  void read_fields(const FieldPath& path, ValueId object, std::span<const RequestField> rows,
                   std::span<const FieldSpec> table) {
    std::array<ValueId, kRequestRows.size()> v;
    if (!r_.fields(path, object, table, v.data())) return;
    for (const std::size_t i : read_order_of(rows))
      if (v[i] != kNoValue) read_field(path, v[i], rows[i]);
  }

  // One field's value `v` into its member, by its codec.
  void read_field(const FieldPath& path, ValueId v, const RequestField& f) {
    const RequestMember& m = f.member;
    if (!f.spec.flag.empty() && o_.given(f.spec.flag)) return;  // the flag replaces it
    const FieldPath here = path.child(f.spec.name);
    if (m.origin) d_.*m.origin = r_.origin(here, v);
    Request& req = d_.request;
    switch (m.codec) {
      case Codec::Text:
        if (auto t = r_.string(here, v)) req.*m.text = *t;
        break;
      case Codec::Scalar:
        if (auto t = r_.scalar(here, v)) req.*m.text = *t;
        break;
      case Codec::Integer:
        if (auto n = r_.integer(here, v, m.min)) req.*m.number = *n;
        break;
      case Codec::Cpu:
      case Codec::Size:
        if (auto q = m.codec == Codec::Cpu ? r_.cpu(here, v) : r_.size(here, v)) req.*m.number = *q;
        break;
      case Codec::Bool:
        if (auto b = r_.boolean(here, v)) req.*m.boolean = *b;
        break;
      case Codec::Strategy:
        if (auto t = r_.string(here, v)) {
          if (auto parsed = parse_strategy(*t))
            req.strategy = *parsed;
          else
            r_.error(here, v, unknown_strategy(*t));
        }
        break;
      case Codec::ScoringType:
        if (auto t = r_.string(here, v)) {
          if (auto parsed = parse_scoring_type(*t))
            req.scoring.type = *parsed;
          else
            r_.error(here, v, unknown_scoring(*t));
        }
        break;
      case Codec::Volumes:
        read_volumes(here, v);
        break;
      case Codec::Labels:
        read_labels(here, v);
        break;
      case Codec::Names:
        names(here, v, req.filter.*m.names, req.*m.origins);
        break;
      case Codec::None:
        if (!m.rows.empty())
          read_fields(here, v, m.rows, f.spec.inner);
        else if (f.spec.name == "extended")
          read_extended(here, v);
        else if (f.spec.name == "tolerations")
          read_tolerations(here, v);
        else if (f.spec.name == "scoring")
          read_scoring(here, v);
        break;
    }
  }

  void read_volumes(const FieldPath& here, ValueId volumes) {
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
        d_.request.volumes.push_back(std::move(vol));
      else
        r_.error(at, e, problem);
    }
  }

  void read_labels(const FieldPath& here, ValueId labels) {
    std::vector<Reader::Entry> list = r_.members(here, labels);
    r_.sort_unique(here, list, byte_less);
    for (const auto& e : list) {
      if (e.key.empty()) {
        r_.error(here.child(e.key), e.key_id, "a label name must not be empty");
        continue;
      }
      if (auto value = r_.scalar(here.child(e.key), e.value)) {
        d_.request.filter.labels.emplace_back(std::string(e.key), std::string(*value));
        d_.request.label_origins.push_back(r_.origin(here.child(e.key), e.key_id));
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
    r_.each_object<
        kTolerationFields>(path, v, [&](const FieldPath& at, ValueId item, const auto& f) {
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
    });
  }

  void read_scoring(const FieldPath& path, ValueId v) {
    Picked<kScoringFields> f;
    if (!r_.fields(path, v, kScoringFields, f.data())) return;
    const ValueId resources = f["resources"], shape = f["shape"], fit_weight = f["fit_weight"],
                  balanced_weight = f["balanced_weight"];
    Scoring& sc = d_.request.scoring;
    d_.scoring_origin = r_.origin(path, v);
    d_.shape_given = shape != kNoValue;
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
    if (const ValueId type = f["type"]; type != kNoValue)
      read_field(path, type, kScoringRows[field_index(kScoringFields, "type")]);
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
        r_.each_object<kScoringResourceFields>(
            here, resources, [&](const FieldPath& at, ValueId item, const auto& rf) {
              const ValueId name = rf["name"], weight = rf["weight"];
              ScoringResource res;
              if (auto nm = r_.required_string(
                      at, item, "name", name,
                      "name is required (cpu, memory, storage or an extended resource)"))
                res.name = *nm;
              if (weight != kNoValue) {
                if (auto w = r_.integer(at.child("weight"), weight, 1, 100)) res.weight = *w;
              }
              for (const auto& other : sc.resources)
                if (!res.name.empty() && other.name == res.name)
                  r_.error(at.child("name"), name,
                           "resource " + quoted(res.name) + " is listed twice");
              sc.resources.push_back(std::move(res));
            });
      }
    }
    if (shape != kNoValue) {
      const FieldPath here = path.child("shape");
      if (r_.is_array(here, shape)) {
        const std::uint32_t n = r_.doc().size(shape);
        if (n < 1 || n > 20)
          r_.error(here, shape, "a shape has 1 to 20 points, got " + std::to_string(n));
        r_.each_object<kShapePointFields>(
            here, shape, [&](const FieldPath& at, ValueId item, const auto& pf) {
              const ValueId utilization = pf["utilization"], score = pf["score"];
              ShapePoint p;
              if (utilization == kNoValue || score == kNoValue) {
                r_.error(at, item, "a shape point needs utilization (0..100) and score (0..10)");
                return;
              }
              const auto u = r_.integer(at.child("utilization"), utilization, 0, 100);
              const auto sv = r_.integer(at.child("score"), score, 0, 10);
              if (!u || !sv) return;
              p.utilization = *u;
              p.score = *sv;
              if (!sc.shape.empty() && sc.shape.back().utilization >= p.utilization)
                r_.error(at.child("utilization"), utilization,
                         "utilization must increase strictly along the shape (" +
                             std::to_string(sc.shape.back().utilization) + " before " +
                             std::to_string(p.utilization) + ")");
              sc.shape.push_back(p);
            });
      }
    }
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
