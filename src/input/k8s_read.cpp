// The Kubernetes loaders' shared readers (k8s_read.h).
#include "k8s_read.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "kubernetes_api_fields.h"

namespace eruplan::k8s {

bool pick(Reader& r, const FieldPath& path, ValueId object, std::span<const FieldSpec> table,
          ValueId* values, Rows rows) {
  std::fill(values, values + table.size(), kNoValue);
  if (object == kNoValue) return true;
  const Doc& doc = r.doc();
  if (doc[object].kind == ValueKind::Null) return true;
  if (!r.is_object(path, object)) return false;
  auto slot = [&](std::string_view key) -> ValueId* {
    if (rows.size() == 0) {
      for (std::size_t f = 0; f < table.size(); ++f)
        if (same_text(table[f].name, key)) return values + f;
      return nullptr;
    }
    for (const std::size_t f : rows)
      if (same_text(table[f].name, key)) return values + f;
    return nullptr;
  };
  const std::uint32_t n = doc.size(object);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::string_view key = doc.text(doc.key(object, i));
    ValueId* value = slot(key);
    if (!value) continue;
    const ValueId v = doc.member(object, i);
    if (*value != kNoValue)
      r.error(path.child(key), doc.key(object, i),
              "given twice (first at " + r.where(*value) + ")");
    else if (doc[v].kind != ValueKind::Null)
      *value = v;
  }
  return true;
}

namespace {

// Equal texts; std::string_view's == calls an out-of-line compare() here,
// which the per-pod check below would make a tenth of reading a pod list.
bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0;
}

// A table's names behind a 128-slot open-addressing index. Every pod of a
// pod list is checked: scanning PodSpec's 42 names for each key cost 13% of
// reading a 30,000-pod list; one or two probes cost (see README).
class NameIndex {
 public:
  explicit NameIndex(k8s_api::Names names) : names_(names.data()) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      std::size_t h = hash(names[i]);
      while (slot_[h] != 0) h = (h + 1) & 127;
      slot_[h] = static_cast<std::uint8_t>(i + 1);
    }
  }
  const std::string_view* names() const { return names_; }
  bool contains(std::string_view name) const {
    if (name.empty()) return false;
    for (std::size_t h = hash(name); slot_[h] != 0; h = (h + 1) & 127)
      if (same_name(names_[slot_[h] - 1], name)) return true;
    return false;
  }

 private:
  static std::size_t hash(std::string_view s) {
    const auto at = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    return (s.size() * 131 + at(0) * 31 + at(s.size() - 1) * 7 + at(s.size() / 2)) & 127;
  }
  const std::string_view* names_;
  std::array<std::uint8_t, 128> slot_{};  // 1 + a name's index; 0: empty
};

// The index of one of kubernetes_api_fields.h's tables, null for another
// list: found by the table's address in a 64-slot open-addressing map.
const NameIndex* index_of(k8s_api::Names names) {
  struct Indexes {
    std::vector<NameIndex> all;
    std::array<std::uint8_t, 64> slot{};  // 1 + index into all; 0: empty
    static std::size_t hash(const void* p) {
      const auto a = reinterpret_cast<std::uintptr_t>(p);
      return ((a >> 3) ^ (a >> 9)) & 63;
    }
  };
  static const Indexes indexes = [] {
    Indexes x;
    for (const k8s_api::Names t : k8s_api::kAllTables) {
      x.all.emplace_back(t);
      std::size_t h = Indexes::hash(t.data());
      while (x.slot[h] != 0) h = (h + 1) & 63;
      x.slot[h] = static_cast<std::uint8_t>(x.all.size());
    }
    return x;
  }();
  for (std::size_t h = Indexes::hash(names.data()); indexes.slot[h] != 0; h = (h + 1) & 63)
    if (const NameIndex& x = indexes.all[indexes.slot[h] - 1]; x.names() == names.data()) return &x;
  return nullptr;
}

}  // namespace

void check_api_fields(Reader& r, const FieldPath& path, ValueId object,
                      std::span<const std::string_view> names, bool typos_only,
                      std::span<const std::string_view> wanted, ValueId* found) {
  const Doc& doc = r.doc();
  if (found != nullptr) std::fill(found, found + wanted.size(), kNoValue);
  if (object == kNoValue || doc[object].kind != ValueKind::Object) return;
  const NameIndex* index = index_of(names);
  for (std::uint32_t i = 0; i < doc.size(object); ++i) {
    const ValueId key = doc.key(object, i);
    const std::string_view name = doc.text(key);
    for (std::size_t w = 0; w < wanted.size(); ++w)
      if (same_name(name, wanted[w])) found[w] = doc.member(object, i);
    if (names.empty()) continue;
    if (index != nullptr ? index->contains(name)
                         : std::find(names.begin(), names.end(), name) != names.end())
      continue;
    const std::string_view best = nearest_name(name, names, 2);
    if (typos_only && best.empty()) continue;
    r.unknown_field(
        path.child(name), key,
        "unknown field, ignored" +
            (best.empty() ? std::string() : "; did you mean " + std::string(best) + "?"));
  }
}

std::size_t resource_row(std::string_view name) {
  for (std::size_t f = 0; f < kKubeResourceFields.size(); ++f)
    if (same_text(kKubeResourceFields[f].name, name)) return f;
  return kKubeResourceFields.size();
}

// A quantity in Kubernetes' grammar, times 10^scale, rounded up.
std::optional<std::int64_t> quantity(Reader& r, const FieldPath& path, ValueId v, int scale) {
  const Doc& doc = r.doc();
  const ValueKind k = doc[v].kind;
  if (k != ValueKind::Number && k != ValueKind::String) {
    r.error(path, v,
            "expected a Kubernetes quantity (like 1.5, 500m or 8Gi), got " + r.describe(v));
    return std::nullopt;
  }
  std::string problem;
  auto q = k8s_whole(doc.text(v), scale, problem);
  if (!q) r.error(path, v, problem);
  return q;
}

// A string -> scalar mapping (labels, nodeSelector), sorted by key.
NamedList<std::string> string_map(Reader& r, const FieldPath& path, ValueId v) {
  NamedList<std::string> out;
  if (v == kNoValue) return out;
  for (const Reader::Entry& e : r.members(path, v)) {
    if (r.doc()[e.value].kind == ValueKind::Null) {
      out.emplace_back(std::string(e.key), std::string());
      continue;
    }
    if (auto s = r.scalar(path.child(e.key), e.value))
      out.emplace_back(std::string(e.key), std::string(*s));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A scalar's text; empty for an absent value, a list or a mapping.
namespace {

// Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian; the
// usual era arithmetic).
std::int64_t days_from_civil(std::int64_t y, std::int64_t m, std::int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;
  const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// RFC 3339 text as microseconds since the epoch (years 0000-9999 fit in
// 64 bits; Kubernetes writes whole seconds), or nullopt.
std::optional<std::int64_t> parse_rfc3339(std::string_view t) {
  std::size_t at = 0;
  auto digits = [&](std::size_t n) -> std::optional<std::int64_t> {
    if (at + n > t.size()) return std::nullopt;
    std::int64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const char c = t[at + i];
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + (c - '0');
    }
    at += n;
    return v;
  };
  auto expect = [&](char c) {
    if (at < t.size() && (t[at] == c || (c == 'T' && t[at] == 't'))) return ++at, true;
    return false;
  };
  const auto year = digits(4);
  if (!year || !expect('-')) return std::nullopt;
  const auto month = digits(2);
  if (!month || !expect('-')) return std::nullopt;
  const auto day = digits(2);
  if (!day || !expect('T')) return std::nullopt;
  const auto hour = digits(2);
  if (!hour || !expect(':')) return std::nullopt;
  const auto minute = digits(2);
  if (!minute || !expect(':')) return std::nullopt;
  const auto second = digits(2);
  if (!second) return std::nullopt;
  static constexpr int kMonthDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (*month < 1 || *month > 12 || *day < 1 || *day > kMonthDays[*month - 1] || *hour > 23 ||
      *minute > 59 || *second > 59)
    return std::nullopt;
  const bool leap = (*year % 4 == 0 && *year % 100 != 0) || *year % 400 == 0;
  if (*month == 2 && *day == 29 && !leap) return std::nullopt;
  std::int64_t micros = 0;
  if (at < t.size() && t[at] == '.') {
    ++at;
    std::int64_t scale = 100000;
    const std::size_t first = at;
    for (; at < t.size() && t[at] >= '0' && t[at] <= '9'; ++at, scale /= 10)
      micros += scale * (t[at] - '0');  // digits past the sixth add 0
    if (at == first) return std::nullopt;
  }
  std::int64_t offset = 0;  // seconds east of UTC
  if (expect('Z') || expect('z')) {
  } else if (at < t.size() && (t[at] == '+' || t[at] == '-')) {
    const std::int64_t sign = t[at++] == '-' ? -1 : 1;
    const auto oh = digits(2);
    if (!oh || !expect(':')) return std::nullopt;
    const auto om = digits(2);
    if (!om || *oh > 23 || *om > 59) return std::nullopt;
    offset = sign * (*oh * 3600 + *om * 60);
  } else {
    return std::nullopt;
  }
  if (at != t.size()) return std::nullopt;
  const std::int64_t seconds =
      days_from_civil(*year, *month, *day) * 86400 + *hour * 3600 + *minute * 60 + *second - offset;
  return seconds * 1000000 + micros;
}

}  // namespace

std::optional<std::int64_t> timestamp(Reader& r, const FieldPath& path, ValueId v) {
  const std::optional<std::string_view> text = r.string(path, v);
  if (!text) return std::nullopt;
  if (std::optional<std::int64_t> t = parse_rfc3339(*text)) return t;
  r.error(path, v, "not an RFC 3339 timestamp (like 2026-03-08T17:20:00Z), got " + r.describe(v));
  return std::nullopt;
}

std::string_view text_of(const Doc& doc, ValueId v) {
  return v != kNoValue && doc.is_scalar(v) ? doc.text(v) : std::string_view();
}

std::string_view label_value(const NamedList<std::string>& labels, std::string_view key) {
  for (const auto& [k, v] : labels)
    if (k == key && !v.empty()) return v;
  return {};
}

std::string app_of(const KubernetesOptions& options, const NamedList<std::string>& primary,
                   const NamedList<std::string>& secondary, std::string_view name) {
  for (const auto* labels : {&primary, &secondary}) {
    if (!options.app_label.empty()) {
      if (auto a = label_value(*labels, options.app_label); !a.empty()) return std::string(a);
      continue;
    }
    if (auto a = label_value(*labels, "app.kubernetes.io/name"); !a.empty()) return std::string(a);
    if (auto a = label_value(*labels, "app"); !a.empty()) return std::string(a);
  }
  return std::string(name);
}

// The `items` of a List, checking the top-level kind when asked.
ValueId list_items(Reader& r, ValueId root, std::string_view what) {
  Picked<kKubeListFields> f;
  if (!pick(r, FieldPath{}, root, f)) return kNoValue;
  const ValueId items = f["items"];
  if (items == kNoValue) {
    r.error(FieldPath{}.child("items"), root,
            "items is required (the " + std::string(what) + " of a Kubernetes List)");
    return kNoValue;
  }
  return r.is_array(FieldPath{}.child("items"), items) ? items : kNoValue;
}

// " (and 4999 more items that are not Nodes)" when there are more.
std::string wrong_kind_note(const Doc& doc, ValueId items, std::string_view want) {
  std::size_t n = 0;
  for (std::uint32_t i = 0; i < doc.size(items); ++i) {
    const ValueId item = doc.element(items, i);
    if (doc[item].kind != ValueKind::Object) continue;
    for (std::uint32_t j = 0; j < doc.size(item); ++j)
      if (doc.text(doc.key(item, j)) == kKindField && text_of(doc, doc.member(item, j)) != want)
        ++n;
  }
  if (n <= 1) return {};
  return " (and " + std::to_string(n - 1) + " more items that are not " + std::string(want) + "s)";
}

std::string_view root_kind(const Doc& doc) {
  const ValueId root = doc.root();
  if (doc[root].kind != ValueKind::Object) return {};
  for (std::uint32_t i = 0; i < doc.size(root); ++i)
    if (doc.text(doc.key(root, i)) == kKindField) return text_of(doc, doc.member(root, i));
  return {};
}

// A resource list (requests, limits, overhead) into `out`, adding.
void read_resource_list(Reader& r, const FieldPath& path, ValueId v, PodRequest& out,
                        std::vector<std::string_view>* names, ResourceListOf of) {
  if (v == kNoValue) return;
  for (const Reader::Entry& e : r.members(path, v)) {
    if (r.doc()[e.value].kind == ValueKind::Null) continue;
    if (e.key.starts_with("hugepages-")) {
      out.hugepages.emplace_back(e.key);
      continue;
    }
    // pods and storage are standard resource names, but not a container's
    // (IsStandardContainerResourceName: cpu, memory, ephemeral-storage,
    // hugepages-*), nor the pod level's (cpu, memory, hugepages-*): the API
    // server refuses the object, so eruplan does too.
    if (of != ResourceListOf::overhead && (e.key == "pods" || e.key == "storage")) {
      r.error(path.child(e.key), e.key_id,
              "Kubernetes refuses " + std::string(e.key) + " in a " +
                  (of == ResourceListOf::container ? "container's" : "pod's") +
                  (of == ResourceListOf::container
                       ? " resources (they are cpu, memory, ephemeral-storage, hugepages-SIZE or "
                         "names with a domain such as nvidia.com/gpu)"
                       : " resources (they are cpu, memory and hugepages-SIZE)") +
                  (e.key == "pods" ? "; the pods a node takes are its allocatable pods" : ""));
      continue;
    }
    if (e.key.empty() || e.key == "storage") continue;  // see read_allocatable
    // Kubernetes' API refuses a container resource without a domain that is
    // not a standard one (validateContainerResourceName): memroy is a typo,
    // not an extended resource no node has.
    constexpr std::array<std::string_view, 3> kStandard{"cpu", "memory", "ephemeral-storage"};
    if (e.key.find('/') == std::string_view::npos &&
        resource_row(e.key) == kKubeResourceFields.size()) {
      std::string message =
          "unknown resource, ignored (a container's are cpu, memory, ephemeral-storage, "
          "hugepages-SIZE or a name with a domain such as nvidia.com/gpu)";
      if (const std::string_view best = nearest_name(e.key, kStandard, 2); !best.empty())
        message += "; did you mean " + std::string(best) + "?";
      r.unknown_field(path.child(e.key), e.key_id, std::move(message));
      continue;
    }
    if (names) {
      if (std::find(names->begin(), names->end(), e.key) != names->end()) continue;
      names->push_back(e.key);
    }
    const bool cpu = resource_row(e.key) == field_index(kKubeResourceFields, "cpu");
    if (auto q = quantity(r, path.child(e.key), e.value, cpu ? 9 : 0)) {
      std::int64_t& slot = out.slot(e.key);
      slot = saturating_add(slot, *q);
    }
  }
}

// One container: each resource its request, or its limit when it has no
// request.
PodRequest container_request(Reader& r, const FieldPath& path, ValueId container, bool* sidecar,
                             std::string_view* name) {
  PodRequest out;
  out.nonzero_cpu = kNonZeroCpu;  // as when it names no resource
  out.nonzero_memory = kNonZeroMemory;
  Picked<kKubeContainerFields> f;
  if (!pick(r, path, container, f)) return out;
  if (sidecar) *sidecar = text_of(r.doc(), f["restartPolicy"]) == "Always";
  if (name) *name = text_of(r.doc(), f["name"]);
  Picked<kKubeResourcesFields> res;
  const FieldPath res_path = path.child("resources");
  if (!pick(r, res_path, f["resources"], res)) return out;
  const ValueId requests = res["requests"], limits = res["limits"];
  std::vector<std::string_view> named;
  read_resource_list(r, res_path.child("requests"), requests, out, &named);
  read_resource_list(r, res_path.child("limits"), limits, out, &named);
  const auto has = [&](std::string_view n) {
    return std::find(named.begin(), named.end(), n) != named.end();
  };
  out.names_cpu = has("cpu");
  out.names_memory = has("memory");
  out.nonzero_cpu = out.names_cpu ? out.cpu : kNonZeroCpu;
  out.nonzero_memory = out.names_memory ? out.memory : kNonZeroMemory;
  return out;
}

namespace {

// A running pod's container statuses by container name, for pod_request:
// kube-scheduler counts the pods already on a node with their status'
// resources (in-place resize, on by default since Kubernetes 1.33). A name
// in both lists, or twice, is the last entry's, initContainerStatuses after
// containerStatuses.
class ResizedContainers {
 public:
  ResizedContainers(Reader& r, const PodStatusResources* status) : status_(status) {
    if (!status) return;
    const Doc& doc = r.doc();
    const FieldPath& at = *status->path;
    const ValueId lists[2] = {status->container_statuses, status->init_container_statuses};
    for (std::uint8_t l = 0; l < 2; ++l) {
      const FieldPath list_path = at.child(kLists[l]);
      if (lists[l] == kNoValue || !r.is_array(list_path, lists[l])) continue;
      for (std::uint32_t i = 0; i < doc.size(lists[l]); ++i) {
        Picked<kKubeContainerStatusFields> f;
        if (!pick(r, list_path.at(i), doc.element(lists[l], i), f)) continue;
        entries_.push_back(
            {text_of(doc, f["name"]), l, i, f["resources"], f["allocatedResources"]});
      }
    }
    std::stable_sort(entries_.begin(), entries_.end(),
                     [](const Entry& a, const Entry& b) { return a.name < b.name; });
    const ValueId conditions = status->conditions;
    const FieldPath cond_path = at.child("conditions");
    if (conditions == kNoValue || !r.is_array(cond_path, conditions)) return;
    // The first PodResizePending condition decides, as Kubernetes'
    // IsPodResizeInfeasible reads it.
    for (std::uint32_t i = 0; i < doc.size(conditions); ++i) {
      Picked<kKubePodConditionFields> f;
      if (!pick(r, cond_path.at(i), doc.element(conditions, i), f)) continue;
      if (text_of(doc, f["type"]) != "PodResizePending") continue;
      infeasible_ = text_of(doc, f["reason"]) == "Infeasible";
      break;
    }
  }

  // Container `name`'s request `c` as the scheduler counts it on its node.
  void apply(Reader& r, std::string_view name, PodRequest& c) const {
    auto it = std::upper_bound(entries_.begin(), entries_.end(), name,
                               [](std::string_view n, const Entry& e) { return n < e.name; });
    if (it == entries_.begin() || (--it)->name != name || it->resources == kNoValue) return;
    const FieldPath list_path = status_->path->child(kLists[it->list]);
    const FieldPath at = list_path.at(it->index), res_path = at.child("resources");
    Picked<kKubeResourcesFields> res;
    if (!pick(r, res_path, it->resources, res, {"requests"})) return;
    PodRequest reported, allocated;
    std::vector<std::string_view> reported_names, allocated_names;
    read_resource_list(r, res_path.child("requests"), res["requests"], reported, &reported_names);
    read_resource_list(r, at.child("allocatedResources"), it->allocated, allocated,
                       &allocated_names);
    const auto names = [&](std::string_view n) {
      return std::find(reported_names.begin(), reported_names.end(), n) != reported_names.end() ||
             std::find(allocated_names.begin(), allocated_names.end(), n) != allocated_names.end();
    };
    PodRequest out;
    if (!infeasible_) out = c;
    out.hugepages = c.hugepages;
    out.names_cpu = out.names_cpu || names("cpu");
    out.names_memory = out.names_memory || names("memory");
    const auto larger = [](std::int64_t a, std::int64_t b) { return std::max(a, b); };
    out.combine(reported, larger);
    out.combine(allocated, larger);
    out.nonzero_cpu = out.names_cpu ? out.cpu : kNonZeroCpu;
    out.nonzero_memory = out.names_memory ? out.memory : kNonZeroMemory;
    c = std::move(out);
  }

 private:
  static constexpr std::string_view kLists[2] = {"containerStatuses", "initContainerStatuses"};
  struct Entry {
    std::string_view name;
    std::uint8_t list;  // kLists
    std::uint32_t index;
    ValueId resources, allocated;
  };
  const PodStatusResources* status_;
  std::vector<Entry> entries_;  // by name, stable
  bool infeasible_ = false;
};

}  // namespace

// Kubernetes' PodRequests (k8s.io/component-helpers): the containers
// summed; then the init containers in order, each sidecar (restartPolicy
// Always) added to the sum and to the sidecars started so far, each other
// init container needing its own request plus those sidecars; per resource
// the larger of the sum and the largest init container's need; plus
// spec.overhead. The cpu sum rounds up to a whole millicore, as Kubernetes'
// MilliValue of the summed quantity does. Pod-level resources
// (spec.resources, on by default since Kubernetes 1.34): a pod-level cpu or
// memory request replaces the containers' (for scoring too); a pod-level
// limit stands for a request the pod-level requests lack when no container
// names that resource (the API's defaulting of a Pod, defaultPodRequests).
PodRequest pod_request(Reader& r, const FieldPath& path, ValueId spec,
                       const PodStatusResources* status) {
  PodRequest sum, sidecars, init_max, extra;
  Picked<kKubePodSpecFields> f;
  if (!pick(r, path, spec, f, {"containers", "initContainers", "overhead", "resources"}))
    return sum;
  const ResizedContainers resized(r, status);
  const ValueId containers = f["containers"], init = f["initContainers"], overhead = f["overhead"],
                pod_level = f["resources"];
  auto add = [](std::int64_t a, std::int64_t b) { return saturating_add(a, b); };
  auto larger = [](std::int64_t a, std::int64_t b) { return std::max(a, b); };
  bool named_cpu = false, named_memory = false;  // by any container
  if (containers != kNoValue && r.is_array(path.child("containers"), containers)) {
    for (std::uint32_t i = 0; i < r.doc().size(containers); ++i) {
      std::string_view name;
      PodRequest c = container_request(r, path.child("containers").at(i),
                                       r.doc().element(containers, i), nullptr, &name);
      resized.apply(r, name, c);
      named_cpu = named_cpu || c.names_cpu;
      named_memory = named_memory || c.names_memory;
      sum.combine(c, add);
    }
  }
  if (init != kNoValue && r.is_array(path.child("initContainers"), init)) {
    for (std::uint32_t i = 0; i < r.doc().size(init); ++i) {
      bool sidecar = false;
      std::string_view name;
      PodRequest c = container_request(r, path.child("initContainers").at(i),
                                       r.doc().element(init, i), &sidecar, &name);
      if (sidecar) resized.apply(r, name, c);
      named_cpu = named_cpu || c.names_cpu;
      named_memory = named_memory || c.names_memory;
      if (sidecar) {
        sum.combine(c, add);
        sidecars.combine(c, add);
        init_max.combine(sidecars, larger);
      } else {
        c.combine(sidecars, add);
        init_max.combine(c, larger);
      }
    }
  }
  sum.combine(init_max, larger);
  Picked<kKubeResourcesFields> pod_res;
  const FieldPath pod_res_path = path.child("resources");
  if (pod_level != kNoValue && pick(r, pod_res_path, pod_level, pod_res)) {
    PodRequest requests, limits;
    std::vector<std::string_view> asked, capped;
    read_resource_list(r, pod_res_path.child("requests"), pod_res["requests"], requests, &asked,
                       ResourceListOf::pod);
    read_resource_list(r, pod_res_path.child("limits"), pod_res["limits"], limits, &capped,
                       ResourceListOf::pod);
    const auto in = [](const std::vector<std::string_view>& names, std::string_view name) {
      return std::find(names.begin(), names.end(), name) != names.end();
    };
    if (in(asked, "cpu"))
      sum.cpu = sum.nonzero_cpu = requests.cpu;
    else if (!named_cpu && in(capped, "cpu"))
      sum.cpu = sum.nonzero_cpu = limits.cpu;
    if (in(asked, "memory"))
      sum.memory = sum.nonzero_memory = requests.memory;
    else if (!named_memory && in(capped, "memory"))
      sum.memory = sum.nonzero_memory = limits.memory;
  }
  read_resource_list(r, path.child("overhead"), overhead, extra, nullptr, ResourceListOf::overhead);
  extra.nonzero_cpu = extra.cpu;
  extra.nonzero_memory = extra.memory;
  sum.combine(extra, add);
  constexpr NanoCores kMilli = 1'000'000;
  for (NanoCores* cpu : {&sum.cpu, &sum.nonzero_cpu})
    if (*cpu % kMilli != 0 && *cpu < INT64_MAX - kMilli) *cpu += kMilli - *cpu % kMilli;
  return sum;
}

void each_listed_object(Reader& r, std::span<const ValueId> documents,
                        std::span<const FieldSpec> list_fields, std::size_t items_row,
                        const ObjectReader& read_one, const ObjectReader& on_list) {
  const Doc& doc = r.doc();
  const FieldPath root, stream = root.child("documents");
  const bool several = std::count_if(documents.begin(), documents.end(),
                                     [&](ValueId d) { return doc[d].kind != ValueKind::Null; }) > 1;
  std::vector<ValueId> list(list_fields.size());
  for (std::size_t di = 0; di < documents.size(); ++di) {
    const ValueId d = documents[di];
    if (doc[d].kind == ValueKind::Null) continue;
    const FieldPath at = several ? stream.at(static_cast<std::int64_t>(di)) : root;
    if (!pick(r, at, d, list_fields, list.data())) continue;
    const ValueId arr = list[items_row];
    if (arr == kNoValue) {
      read_one(at, d);
      continue;
    }
    if (on_list) on_list(at, d);
    const FieldPath items_path = at.child("items");
    if (!r.is_array(items_path, arr)) continue;
    for (std::uint32_t i = 0; i < doc.size(arr); ++i)
      read_one(items_path.at(i), doc.element(arr, i));
  }
}

bool read_object_file(const Source& source, Diagnostics& diags,
                      std::span<const FieldSpec> list_fields, const FileObjectReader& read_one,
                      const FileObjectReader& on_list) {
  std::vector<ValueId> documents;
  const std::optional<Doc> doc = parse_document_stream(source, diags, documents);
  if (!doc) return false;
  Reader r(*doc, source.name, diags);
  const std::size_t errors_before = diags.error_count();
  std::size_t items_row = 0;
  while (list_fields[items_row].name != "items") ++items_row;
  const ObjectReader list_read = [&](const FieldPath& at, ValueId d) { on_list(r, at, d); };
  each_listed_object(
      r, documents, list_fields, items_row,
      [&](const FieldPath& at, ValueId item) { read_one(r, at, item); },
      on_list ? list_read : ObjectReader{});
  return diags.error_count() == errors_before;
}

bool kind_is(Reader& r, const FieldPath& at, ValueId kind, std::string_view want,
             std::string_view how) {
  if (kind == kNoValue || text_of(r.doc(), kind) == want) return true;
  r.error(
      at.child("kind"), kind,
      "expected a " + std::string(want) + " (" + std::string(how) + "), got " + r.describe(kind));
  return false;
}

}  // namespace eruplan::k8s
