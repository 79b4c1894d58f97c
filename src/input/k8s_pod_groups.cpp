// Pod groups from coscheduling labels and PodGroup objects (SPEC §17).
#include "k8s_pod_groups.h"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "k8s_read.h"

namespace eruplan::k8s {

namespace {

// A label value that is a positive integer ("8"), else nullopt.
std::optional<std::int64_t> positive(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::int64_t n = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  if (n <= 0) return std::nullopt;
  return n;
}

}  // namespace

std::optional<PodGroupLabels> read_pod_group_labels(Reader& r, const FieldPath& path,
                                                    ValueId labels) {
  const Doc& doc = r.doc();
  if (labels == kNoValue || doc[labels].kind != ValueKind::Object) return std::nullopt;
  ValueId group = kNoValue, name = kNoValue, min = kNoValue;
  for (std::uint32_t i = 0; i < doc.size(labels); ++i) {
    const std::string_view key = doc.text(doc.key(labels, i));
    if (key == kPodGroupLabel) group = doc.member(labels, i);
    if (key == kPodGroupNameLabel) name = doc.member(labels, i);
    if (key == kPodGroupMinLabel) min = doc.member(labels, i);
  }
  PodGroupLabels out;
  out.name = std::string(text_of(doc, group != kNoValue ? group : name));
  if (min != kNoValue) {
    const FieldPath at = path.child(kPodGroupMinLabel);
    if (auto n = positive(text_of(doc, min)))
      out.min = *n;
    else
      r.error(at, min,
              std::string(kPodGroupMinLabel) + " must be a positive integer (the group's " +
                  "minimum in pods), got " + r.describe(min));
    if (out.name.empty())
      r.error(at, min,
              std::string(kPodGroupMinLabel) + " needs " + std::string(kPodGroupNameLabel) +
                  " beside it (the group it is the minimum of)");
  }
  if (out.name.empty()) return std::nullopt;
  return out;
}

std::string_view pod_group_name(const Labels& labels) {
  std::string_view named;
  for (const auto& [k, v] : labels) {
    if (k == kPodGroupLabel && !v.empty()) return v;
    if (k == kPodGroupNameLabel && !v.empty()) named = v;
  }
  return named;
}

std::optional<PodGroupObject> read_pod_group(Reader& r, const FieldPath& path, ValueId v) {
  Picked<kKubeManifestFields> object;
  if (!pick(r, path, v, object, {"metadata", "spec"})) return std::nullopt;
  const ValueId metadata = object["metadata"], spec = object["spec"];
  const FieldPath meta_path = path.child("metadata"), spec_path = path.child("spec");
  Picked<kKubeMetadataFields> meta;
  pick(r, meta_path, metadata, meta, {"name", "namespace", "creationTimestamp"});
  PodGroupObject out;
  bool ok = true;
  const ValueId name = meta["name"], ns = meta["namespace"];
  if (name == kNoValue) {
    r.error(meta_path.child("name"), metadata != kNoValue ? metadata : v,
            "a PodGroup needs metadata.name (the pod-group label's value)");
    ok = false;
  } else if (auto s = r.string(meta_path.child("name"), name)) {
    out.name = std::string(*s);
  } else {
    ok = false;
  }
  if (ns != kNoValue) {
    if (auto s = r.string(meta_path.child("namespace"), ns))
      out.ns = std::string(*s);
    else
      ok = false;
  }
  if (const ValueId created = meta["creationTimestamp"]; created != kNoValue) {
    out.created = timestamp(r, meta_path.child("creationTimestamp"), created);
    ok = ok && out.created.has_value();
  }
  Picked<kKubePodGroupSpecFields> f;
  f.fill(kNoValue);
  if (spec != kNoValue && !pick(r, spec_path, spec, f)) return std::nullopt;
  const ValueId min = f["minMember"];
  if (min == kNoValue) {
    r.error(spec_path.child("minMember"), spec != kNoValue ? spec : v,
            "a PodGroup needs spec.minMember (its minimum in pods, at least 1)");
    return std::nullopt;
  }
  if (auto n = r.integer(spec_path.child("minMember"), min, 1))
    out.min_member = *n;
  else
    return std::nullopt;
  if (!ok) return std::nullopt;
  return out;
}

void apply_pod_groups(std::vector<Request>& requests, const std::vector<PodGroupMember>& members,
                      const std::vector<PodGroupObject>& objects,
                      const std::vector<RunningLabels>& running) {
  using Key = std::pair<std::string, std::string>;  // namespace, group name
  std::map<Key, std::int64_t> min, count;
  std::map<Key, std::optional<std::int64_t>> created;  // of the PodGroup objects
  for (const PodGroupMember& m : members)
    if (m.labels) {
      std::int64_t& g = min[{m.ns, m.labels->name}];
      g = std::max(g, m.labels->min);
    }
  if (min.empty()) return;
  for (const PodGroupObject& o : objects)
    if (auto it = min.find({o.ns, o.name}); it != min.end()) {
      it->second = o.min_member;
      created[{o.ns, o.name}] = o.created;
    }
  for (const RunningLabels& p : running) {
    const std::string_view g = pod_group_name(*p.labels);
    if (g.empty()) continue;
    if (auto it = count.find({*p.ns, std::string(g)}); it != count.end())
      ++it->second;
    else if (min.count({*p.ns, std::string(g)}))
      count[{*p.ns, std::string(g)}] = 1;
  }
  for (std::size_t i = 0; i < requests.size() && i < members.size(); ++i) {
    const PodGroupMember& m = members[i];
    if (!m.labels) continue;
    const Key key{m.ns, m.labels->name};
    requests[i].group = m.labels->name;
    requests[i].group_min = min[key];
    requests[i].group_running = count.count(key) ? count[key] : 0;
    if (auto it = created.find(key); it != created.end()) requests[i].created = it->second;
  }
}

}  // namespace eruplan::k8s
