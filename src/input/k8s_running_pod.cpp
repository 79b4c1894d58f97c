// A pod of --pods for preemption (k8s_running_pod.h).
#include "k8s_running_pod.h"

#include <algorithm>

namespace eruplan {

namespace {

ValueId member(const Doc& doc, ValueId object, std::string_view key) {
  if (object == kNoValue || doc[object].kind != ValueKind::Object) return kNoValue;
  for (std::uint32_t i = 0; i < doc.size(object); ++i)
    if (doc.text(doc.key(object, i)) == key) return doc.member(object, i);
  return kNoValue;
}

std::string text(const Doc& doc, ValueId v) {
  if (v == kNoValue || doc[v].kind == ValueKind::Object || doc[v].kind == ValueKind::Array ||
      doc[v].kind == ValueKind::Null)
    return {};
  return std::string(doc.text(v));
}

}  // namespace

RunningPod running_pod(Reader& r, const FieldPath& path, ValueId item, std::uint32_t node,
                       NanoCores cpu, Bytes memory, std::string app) {
  const Doc& doc = r.doc();
  RunningPod pod;
  pod.node = node;
  const ValueId meta = member(doc, item, "metadata"), spec = member(doc, item, "spec"),
                status = member(doc, item, "status");
  pod.ns = text(doc, member(doc, meta, "namespace"));
  if (pod.ns.empty()) pod.ns = "default";
  pod.name = text(doc, member(doc, meta, "name"));
  if (const ValueId labels = member(doc, meta, "labels");
      labels != kNoValue && doc[labels].kind == ValueKind::Object)
    for (std::uint32_t i = 0; i < doc.size(labels); ++i)
      pod.labels.emplace_back(std::string(doc.text(doc.key(labels, i))),
                              text(doc, doc.member(labels, i)));
  std::sort(pod.labels.begin(), pod.labels.end());
  if (const ValueId p = member(doc, spec, "priority");
      p != kNoValue && doc[p].kind != ValueKind::Null)
    if (auto n = r.integer(path.child("spec").child("priority"), p, INT32_MIN, INT32_MAX))
      pod.priority = static_cast<std::int32_t>(*n);
  pod.start_time = text(doc, member(doc, status, "startTime"));
  pod.cpu = cpu;
  pod.memory = memory;
  pod.app = std::move(app);
  return pod;
}

}  // namespace eruplan
