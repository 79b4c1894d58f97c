// Reading a pod spec's scheduling fields (k8s_scheduling.h). Each Kubernetes
// type is read through its whole table in kubernetes_fields.h, so a
// misspelt field is an unknown field with a "did you mean"; values are
// checked as the API server would (operators, value counts, weights 1..100).
#include "k8s_scheduling.h"

#include <algorithm>
#include <array>
#include <string>

#include "kubernetes.h"
#include "kubernetes_fields.h"

namespace eruplan {

namespace {

// The pod spec's members this file reads, by name (the spec's other fields
// are the request reader's, or not modelled).
struct SpecFields {
  ValueId node_selector = kNoValue, affinity = kNoValue, spread = kNoValue, containers = kNoValue,
          init = kNoValue, node_name = kNoValue, scheduler_name = kNoValue, overhead = kNoValue;
};

SpecFields spec_fields(const Doc& doc, ValueId spec) {
  SpecFields f;
  if (spec == kNoValue || doc[spec].kind != ValueKind::Object) return f;
  for (std::uint32_t i = 0; i < doc.size(spec); ++i) {
    const std::string_view key = doc.text(doc.key(spec, i));
    const ValueId v = doc.member(spec, i);
    if (doc[v].kind == ValueKind::Null) continue;
    if (key == "nodeSelector") f.node_selector = v;
    if (key == "affinity") f.affinity = v;
    if (key == "topologySpreadConstraints") f.spread = v;
    if (key == "containers") f.containers = v;
    if (key == "initContainers") f.init = v;
    if (key == "nodeName") f.node_name = v;
    if (key == "schedulerName") f.scheduler_name = v;
    if (key == "overhead") f.overhead = v;
  }
  return f;
}

// The member `name` of a mapping, or kNoValue.
ValueId member(const Doc& doc, ValueId object, std::string_view name) {
  if (object == kNoValue || doc[object].kind != ValueKind::Object) return kNoValue;
  for (std::uint32_t i = 0; i < doc.size(object); ++i)
    if (same_text(doc.text(doc.key(object, i)), name)) {
      const ValueId v = doc.member(object, i);
      return doc[v].kind == ValueKind::Null ? kNoValue : v;
    }
  return kNoValue;
}

std::vector<std::string> string_list(Reader& r, const FieldPath& path, ValueId v) {
  std::vector<std::string> out;
  if (v == kNoValue || !r.is_array(path, v)) return out;
  for (std::uint32_t i = 0; i < r.doc().size(v); ++i)
    if (auto s = r.scalar(path.at(i), r.doc().element(v, i))) out.emplace_back(*s);
  return out;
}

Labels label_map(Reader& r, const FieldPath& path, ValueId v) {
  Labels out;
  if (v == kNoValue) return out;
  for (const Reader::Entry& e : r.members(path, v)) {
    if (r.doc()[e.value].kind == ValueKind::Null) {
      out.emplace_back(std::string(e.key), std::string());
    } else if (auto s = r.scalar(path.child(e.key), e.value)) {
      out.emplace_back(std::string(e.key), std::string(*s));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

template <class Table>
bool fields(Reader& r, const FieldPath& path, ValueId v, const Table& table, ValueId* values) {
  std::fill(values, values + table.size(), kNoValue);
  if (v == kNoValue) return false;
  return r.fields(path, v, table, values);
}

bool is_integer(std::string_view s) {
  if (s.empty()) return false;
  std::size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) return false;
  return std::all_of(s.begin() + static_cast<std::ptrdiff_t>(i), s.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

// A NodeSelectorRequirement (`node`) or a LabelSelectorRequirement.
std::optional<Requirement> requirement(Reader& r, const FieldPath& path, ValueId v, bool node) {
  Picked<kKubeRequirementFields> f;
  if (!fields(r, path, v, kKubeRequirementFields, f.data())) return std::nullopt;
  Requirement out;
  bool ok = true;
  const ValueId key = f["key"], op = f["operator"];
  if (key == kNoValue) {
    r.error(path.child("key"), v, "key is required");
    ok = false;
  } else if (auto k = r.string(path.child("key"), key)) {
    out.key = *k;
  } else {
    ok = false;
  }
  if (op == kNoValue) {
    r.error(path.child("operator"), v, "operator is required");
    return std::nullopt;
  }
  const std::string_view o = r.doc().is_scalar(op) ? r.doc().text(op) : std::string_view();
  const std::size_t ops = node ? std::size(kSelectorOpNames) : kLabelSelectorOps;
  const std::optional<SelectorOp> found = value_of(kSelectorOpNames, o, ops);
  if (!found) {
    r.error(
        path.child("operator"), op,
        "unknown operator " + r.describe(op) + "; expected " + names_text(kSelectorOpNames, ops));
    return std::nullopt;
  }
  out.op = *found;
  const FieldPath values_path = path.child("values");
  out.values = string_list(r, values_path, f["values"]);
  const ValueId at = f["values"] != kNoValue ? f["values"] : op;
  switch (out.op) {
    case SelectorOp::In:
    case SelectorOp::NotIn:
      if (out.values.empty()) {
        r.error(values_path, at, "operator " + std::string(o) + " needs at least one value");
        ok = false;
      }
      break;
    case SelectorOp::Exists:
    case SelectorOp::DoesNotExist:
      if (!out.values.empty()) {
        r.error(values_path, at, "operator " + std::string(o) + " takes no values");
        ok = false;
      }
      break;
    case SelectorOp::Gt:
    case SelectorOp::Lt:
      if (out.values.size() != 1 || !is_integer(out.values[0])) {
        r.error(values_path, at, "operator " + std::string(o) + " takes exactly one integer value");
        ok = false;
      }
      break;
  }
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace

std::optional<LabelSelector> read_label_selector(Reader& r, const FieldPath& path, ValueId v,
                                                 bool plain_map) {
  if (plain_map) {
    LabelSelector out;
    for (auto& [k, value] : label_map(r, path, v))
      out.requirements.push_back({k, SelectorOp::In, {value}});
    return out;
  }
  Picked<kKubeLabelSelectorFields> f;
  if (!fields(r, path, v, kKubeLabelSelectorFields, f.data())) return std::nullopt;
  LabelSelector out;
  for (auto& [k, value] : label_map(r, path.child("matchLabels"), f["matchLabels"]))
    out.requirements.push_back({k, SelectorOp::In, {value}});
  const ValueId exprs = f["matchExpressions"];
  const FieldPath ep = path.child("matchExpressions");
  if (exprs != kNoValue && r.is_array(ep, exprs))
    for (std::uint32_t i = 0; i < r.doc().size(exprs); ++i)
      if (auto q = requirement(r, ep.at(i), r.doc().element(exprs, i), false))
        out.requirements.push_back(std::move(*q));
  return out;
}

namespace {

NodeSelectorTerm node_selector_term(Reader& r, const FieldPath& path, ValueId v) {
  NodeSelectorTerm out;
  Picked<kKubeNodeSelectorTermFields> f;
  if (!fields(r, path, v, kKubeNodeSelectorTermFields, f.data())) return out;
  for (const bool is_field : {false, true}) {
    const ValueId list = is_field ? f["matchFields"] : f["matchExpressions"];
    const FieldPath lp = path.child(is_field ? "matchFields" : "matchExpressions");
    if (list == kNoValue || !r.is_array(lp, list)) continue;
    for (std::uint32_t i = 0; i < r.doc().size(list); ++i) {
      auto q = requirement(r, lp.at(i), r.doc().element(list, i), true);
      if (!q) continue;
      if (is_field) {
        if (q->key != "metadata.name") {
          r.error(lp.at(i).child("key"), r.doc().element(list, i),
                  "matchFields supports the key metadata.name only, got " + quoted(q->key));
          continue;
        }
        if ((q->op != SelectorOp::In && q->op != SelectorOp::NotIn) || q->values.size() != 1) {
          r.error(lp.at(i), r.doc().element(list, i),
                  "matchFields on metadata.name takes In or NotIn with exactly one value");
          continue;
        }
        out.fields.push_back(std::move(*q));
      } else {
        out.expressions.push_back(std::move(*q));
      }
    }
  }
  return out;
}

std::int32_t weight(Reader& r, const FieldPath& path, ValueId v, ValueId parent) {
  if (v == kNoValue) {
    r.error(path, parent, "weight is required (1 to 100)");
    return 0;
  }
  return static_cast<std::int32_t>(r.integer(path, v, 1, 100).value_or(0));
}

// A preferred list (`list` at `path`): each item is {weight, <term>}, its
// schema `kTable` with the weight's row first and the term's second; the
// term is read by `read(term_path, term)` into each `Weighted` of `out`.
template <const auto& kTable, class Weighted, class ReadTerm>
void weighted_terms(Reader& r, const FieldPath& path, ValueId list, ReadTerm read,
                    std::vector<Weighted>& out) {
  static_assert(kTable.size() == 2 && kTable[0].name == "weight");
  if (list == kNoValue || !r.is_array(path, list)) return;
  const std::string_view term_name = kTable[1].name;
  r.each_object<kTable>(path, list, [&](const FieldPath& at, ValueId item, const auto& t) {
    Weighted term;
    term.weight = weight(r, at.child("weight"), t["weight"], item);
    const FieldPath tp = at.child(term_name);
    const ValueId inner = t.data()[1];
    if (inner == kNoValue)
      r.error(tp, item, std::string(term_name) + " is required");
    else
      term.term = read(tp, inner);
    out.push_back(std::move(term));
  });
}

void node_affinity(Reader& r, const FieldPath& path, ValueId v, NodeAffinity& out) {
  Picked<kKubeNodeAffinityFields> f;
  if (!fields(r, path, v, kKubeNodeAffinityFields, f.data())) return;
  const ValueId req = f["requiredDuringSchedulingIgnoredDuringExecution"];
  const FieldPath rp = path.child("requiredDuringSchedulingIgnoredDuringExecution");
  Picked<kKubeNodeSelectorFields> sel;
  if (fields(r, rp, req, kKubeNodeSelectorFields, sel.data())) {
    out.required.emplace();
    const ValueId terms = sel["nodeSelectorTerms"];
    const FieldPath tp = rp.child("nodeSelectorTerms");
    if (terms == kNoValue) {
      r.error(tp, req, "nodeSelectorTerms is required");
    } else if (r.is_array(tp, terms)) {
      for (std::uint32_t i = 0; i < r.doc().size(terms); ++i)
        out.required->push_back(node_selector_term(r, tp.at(i), r.doc().element(terms, i)));
      if (out.required->empty()) r.error(tp, terms, "nodeSelectorTerms needs at least one term");
    }
  }
  weighted_terms<kKubePreferredSchedulingTermFields>(
      r, path.child("preferredDuringSchedulingIgnoredDuringExecution"),
      f["preferredDuringSchedulingIgnoredDuringExecution"],
      [&](const FieldPath& at, ValueId term) { return node_selector_term(r, at, term); },
      out.preferred);
}

// The pod's own values of `keys` join the selector (In for match, NotIn for
// mismatch), as the API server merges matchLabelKeys; keys the pod lacks
// add nothing.
void merge_label_keys(LabelSelector& selector, const std::vector<std::string>& keys,
                      const Labels& labels, SelectorOp op) {
  for (const std::string& k : keys)
    if (const std::string* v = find_label(labels, k))
      selector.requirements.push_back({k, op, {*v}});
}

PodAffinityTerm pod_affinity_term(Reader& r, const FieldPath& path, ValueId v,
                                  const Labels& labels) {
  PodAffinityTerm out;
  Picked<kKubePodAffinityTermFields> f;
  if (!fields(r, path, v, kKubePodAffinityTermFields, f.data())) return out;
  if (const ValueId s = f["labelSelector"]; s != kNoValue)
    out.selector = read_label_selector(r, path.child("labelSelector"), s);
  out.namespaces = string_list(r, path.child("namespaces"), f["namespaces"]);
  if (const ValueId s = f["namespaceSelector"]; s != kNoValue)
    out.namespace_selector = read_label_selector(r, path.child("namespaceSelector"), s);
  const ValueId key = f["topologyKey"];
  if (key == kNoValue)
    r.error(path.child("topologyKey"), v, "topologyKey is required");
  else if (auto k = r.string(path.child("topologyKey"), key))
    out.topology_key = *k;
  out.match_label_keys = string_list(r, path.child("matchLabelKeys"), f["matchLabelKeys"]);
  out.mismatch_label_keys = string_list(r, path.child("mismatchLabelKeys"), f["mismatchLabelKeys"]);
  if (out.selector) {
    merge_label_keys(*out.selector, out.match_label_keys, labels, SelectorOp::In);
    merge_label_keys(*out.selector, out.mismatch_label_keys, labels, SelectorOp::NotIn);
  }
  return out;
}

void pod_affinity(Reader& r, const FieldPath& path, ValueId v, const Labels& labels,
                  PodAffinity& out) {
  Picked<kKubePodAffinityFields> f;
  if (!fields(r, path, v, kKubePodAffinityFields, f.data())) return;
  const ValueId req = f["requiredDuringSchedulingIgnoredDuringExecution"];
  const FieldPath rp = path.child("requiredDuringSchedulingIgnoredDuringExecution");
  if (req != kNoValue && r.is_array(rp, req))
    for (std::uint32_t i = 0; i < r.doc().size(req); ++i)
      out.required.push_back(pod_affinity_term(r, rp.at(i), r.doc().element(req, i), labels));
  weighted_terms<kKubeWeightedPodAffinityTermFields>(
      r, path.child("preferredDuringSchedulingIgnoredDuringExecution"),
      f["preferredDuringSchedulingIgnoredDuringExecution"],
      [&](const FieldPath& at, ValueId term) { return pod_affinity_term(r, at, term, labels); },
      out.preferred);
}

std::optional<SpreadPolicy> policy(Reader& r, const FieldPath& path, ValueId v) {
  const std::string_view s = r.doc().is_scalar(v) ? r.doc().text(v) : std::string_view();
  if (s == "Honor") return SpreadPolicy::Honor;
  if (s == "Ignore") return SpreadPolicy::Ignore;
  r.error(path, v, "expected Honor or Ignore, got " + r.describe(v));
  return std::nullopt;
}

TopologySpreadConstraint spread_constraint(Reader& r, const FieldPath& path, ValueId v,
                                           const Labels& labels) {
  TopologySpreadConstraint out;
  Picked<kKubeSpreadFields> f;
  if (!fields(r, path, v, kKubeSpreadFields, f.data())) return out;
  const ValueId skew = f["maxSkew"], key = f["topologyKey"], when = f["whenUnsatisfiable"];
  if (skew == kNoValue)
    r.error(path.child("maxSkew"), v, "maxSkew is required (at least 1)");
  else if (auto s = r.integer(path.child("maxSkew"), skew, 1, INT32_MAX))
    out.max_skew = static_cast<std::int32_t>(*s);
  if (key == kNoValue)
    r.error(path.child("topologyKey"), v, "topologyKey is required");
  else if (auto k = r.string(path.child("topologyKey"), key))
    out.topology_key = *k;
  if (when == kNoValue) {
    r.error(path.child("whenUnsatisfiable"), v,
            "whenUnsatisfiable is required (DoNotSchedule or ScheduleAnyway)");
  } else {
    const std::string_view w = r.doc().is_scalar(when) ? r.doc().text(when) : std::string_view();
    if (w == "ScheduleAnyway")
      out.do_not_schedule = false;
    else if (w != "DoNotSchedule")
      r.error(path.child("whenUnsatisfiable"), when,
              "expected DoNotSchedule or ScheduleAnyway, got " + r.describe(when));
  }
  if (const ValueId s = f["labelSelector"]; s != kNoValue)
    out.selector = read_label_selector(r, path.child("labelSelector"), s);
  if (const ValueId m = f["minDomains"]; m != kNoValue) {
    if (auto n = r.integer(path.child("minDomains"), m, 1, INT32_MAX)) {
      out.min_domains = static_cast<std::int32_t>(*n);
      if (!out.do_not_schedule)
        r.error(path.child("minDomains"), m,
                "minDomains is allowed only with whenUnsatisfiable: DoNotSchedule");
    }
  }
  if (const ValueId p = f["nodeAffinityPolicy"]; p != kNoValue)
    if (auto s = policy(r, path.child("nodeAffinityPolicy"), p)) out.node_affinity_policy = *s;
  if (const ValueId p = f["nodeTaintsPolicy"]; p != kNoValue)
    if (auto s = policy(r, path.child("nodeTaintsPolicy"), p)) out.node_taints_policy = *s;
  out.match_label_keys = string_list(r, path.child("matchLabelKeys"), f["matchLabelKeys"]);
  if (out.selector) merge_label_keys(*out.selector, out.match_label_keys, labels, SelectorOp::In);
  return out;
}

// The host ports of `containers`; with `sidecars_only` (initContainers),
// those of the sidecars (restartPolicy Always) alone, as NodePorts counts.
void container_ports(Reader& r, const FieldPath& path, ValueId containers,
                     std::vector<HostPort>& out, bool sidecars_only = false) {
  if (containers == kNoValue || !r.is_array(path, containers)) return;
  const Doc& doc = r.doc();
  for (std::uint32_t i = 0; i < doc.size(containers); ++i) {
    if (sidecars_only) {
      const ValueId policy = member(doc, doc.element(containers, i), "restartPolicy");
      if (policy == kNoValue || !doc.is_scalar(policy) || doc.text(policy) != "Always") continue;
    }
    const ValueId ports = member(doc, doc.element(containers, i), "ports");
    const FieldPath at = path.at(i), pp = at.child("ports");
    if (ports == kNoValue || !r.is_array(pp, ports)) continue;
    for (std::uint32_t j = 0; j < doc.size(ports); ++j) {
      Picked<kKubeContainerPortFields> f;
      if (!fields(r, pp.at(j), doc.element(ports, j), kKubeContainerPortFields, f.data())) continue;
      const ValueId host = f["hostPort"];
      if (host == kNoValue) continue;
      auto port = r.integer(pp.at(j).child("hostPort"), host, 0, 65535);
      if (!port || *port == 0) continue;
      HostPort hp;
      hp.port = static_cast<std::int32_t>(*port);
      if (const ValueId p = f["protocol"]; p != kNoValue) {
        const std::string_view s = doc.is_scalar(p) ? doc.text(p) : std::string_view();
        if (s == "TCP" || s == "UDP" || s == "SCTP")
          hp.protocol = s;
        else
          r.error(pp.at(j).child("protocol"), p, "expected TCP, UDP or SCTP, got " + r.describe(p));
      }
      if (const ValueId ip = f["hostIP"]; ip != kNoValue)
        if (auto s = r.string(pp.at(j).child("hostIP"), ip)) hp.ip = *s;
      out.push_back(std::move(hp));
    }
  }
}

// The containers' images, as ImageLocality looks them up: a name without a
// tag (no ':' after the last '/') gets ":latest", as the container runtime
// reports it; a digest (name@sha256:...) stays as written.
void container_images(Reader& r, const FieldPath& path, ValueId containers,
                      std::vector<std::string>& out) {
  if (containers == kNoValue || !r.is_array(path, containers)) return;
  const Doc& doc = r.doc();
  for (std::uint32_t i = 0; i < doc.size(containers); ++i) {
    const ValueId image = member(doc, doc.element(containers, i), "image");
    std::string name;
    if (image != kNoValue)
      if (auto s = r.string(path.at(i).child("image"), image)) name = *s;
    const std::size_t colon = name.rfind(':'), slash = name.rfind('/');
    if (!name.empty() &&
        (colon == std::string::npos || (slash != std::string::npos && colon < slash)))
      name += ":latest";
    out.push_back(std::move(name));
  }
}

}  // namespace

void read_pod_images(Reader& r, const FieldPath& spec_path, ValueId spec, PodScheduling& out) {
  const SpecFields s = spec_fields(r.doc(), spec);
  container_images(r, spec_path.child("initContainers"), s.init, out.images);
  container_images(r, spec_path.child("containers"), s.containers, out.images);
}

bool read_pod_scheduling(Reader& r, const FieldPath& spec_path, ValueId spec, PodScheduling& out) {
  const SpecFields s = spec_fields(r.doc(), spec);
  bool any = false;
  if (s.node_selector != kNoValue) {
    out.node_selector = label_map(r, spec_path.child("nodeSelector"), s.node_selector);
    any = any || !out.node_selector.empty();
  }
  if (s.affinity != kNoValue) {
    const FieldPath ap = spec_path.child("affinity");
    Picked<kKubeAffinityFields> f;
    if (fields(r, ap, s.affinity, kKubeAffinityFields, f.data())) {
      node_affinity(r, ap.child("nodeAffinity"), f["nodeAffinity"], out.node_affinity);
      pod_affinity(r, ap.child("podAffinity"), f["podAffinity"], out.labels, out.affinity);
      pod_affinity(r, ap.child("podAntiAffinity"), f["podAntiAffinity"], out.labels,
                   out.anti_affinity);
      any = true;
    }
  }
  if (s.spread != kNoValue) {
    const FieldPath sp = spec_path.child("topologySpreadConstraints");
    if (r.is_array(sp, s.spread))
      for (std::uint32_t i = 0; i < r.doc().size(s.spread); ++i)
        out.spread.push_back(
            spread_constraint(r, sp.at(i), r.doc().element(s.spread, i), out.labels));
    any = any || !out.spread.empty();
  }
  container_ports(r, spec_path.child("containers"), s.containers, out.host_ports);
  container_ports(r, spec_path.child("initContainers"), s.init, out.host_ports, true);
  any = any || !out.host_ports.empty();
  if (s.node_name != kNoValue)
    if (auto n = r.string(spec_path.child("nodeName"), s.node_name)) out.node_name = *n;
  if (s.scheduler_name != kNoValue)
    if (auto n = r.string(spec_path.child("schedulerName"), s.scheduler_name))
      out.scheduler_name = *n == "default-scheduler" ? std::string() : std::string(*n);
  return any;
}

void note_unmodelled(Reader& r, const FieldPath& object_spec_path, ValueId object_spec,
                     const FieldPath& spec_path, ValueId spec, const PodScheduling& pod) {
  const Doc& doc = r.doc();
  const std::string kVolumes =
      "not modelled by eruplan: volume binding, volume zones and attach limits are not checked";
  bool volumes_noted = false;
  if (const ValueId claims = member(doc, object_spec, "volumeClaimTemplates");
      claims != kNoValue && spec != object_spec) {
    r.warning(object_spec_path.child("volumeClaimTemplates"), claims, kVolumes);
    volumes_noted = true;
  }
  if (const ValueId volumes = member(doc, spec, "volumes");
      !volumes_noted && volumes != kNoValue && doc[volumes].kind == ValueKind::Array)
    for (std::uint32_t i = 0; i < doc.size(volumes); ++i) {
      const ValueId v = doc.element(volumes, i);
      for (const char* source : {"persistentVolumeClaim", "ephemeral"})
        if (const ValueId at = member(doc, v, source); at != kNoValue && !volumes_noted) {
          r.warning(spec_path.child("volumes").at(i).child(source), at, kVolumes);
          volumes_noted = true;
        }
    }
  // An empty list (as charts render it) claims nothing, as empty scheduling
  // gates gate nothing.
  if (const ValueId claims = member(doc, spec, "resourceClaims");
      claims != kNoValue && !(doc[claims].kind == ValueKind::Array && doc.size(claims) == 0))
    r.warning(spec_path.child("resourceClaims"), claims,
              "not modelled by eruplan: dynamic resource claims are not allocated");
  if (const ValueId gates = member(doc, spec, "schedulingGates");
      gates != kNoValue && doc[gates].kind == ValueKind::Array && doc.size(gates) > 0)
    r.warning(spec_path.child("schedulingGates"), gates,
              "not modelled by eruplan: the pod is planned as if its scheduling gates were "
              "removed");
  if (!pod.scheduler_name.empty() && pod.scheduler_name != "default-scheduler")
    r.warning(spec_path.child("schedulerName"), member(doc, spec, "schedulerName"),
              "scheduler " + quoted(pod.scheduler_name) +
                  " places this pod, not kube-scheduler's default profile; eruplan plans it as "
                  "the default profile would");
}

}  // namespace eruplan
