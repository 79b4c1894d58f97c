// A pod's QoS class (SPEC §17's queue order), as Kubernetes computes it
// (pkg/apis/core/v1/helper/qos ComputePodQOS): over the containers and init
// containers, cpu and memory only, positive quantities only.
#include <array>
#include <map>

#include "k8s_read.h"

namespace eruplan::k8s {

QosClass pod_qos(const Doc& doc, ValueId spec) {
  // Errors were reported when the request was read; these reads are quiet.
  Diagnostics quiet;
  Reader r(doc, "", quiet);
  const FieldPath path;
  Picked<kKubePodSpecFields> f;
  if (spec == kNoValue || doc[spec].kind != ValueKind::Object ||
      !pick(r, path, spec, f, {"containers", "initContainers"}))
    return QosClass::BestEffort;
  // Summed over containers, each kind present only when some container
  // gives it a positive quantity.
  std::map<std::string, std::int64_t> requests, limits;
  bool guaranteed = true;
  // `cpu` and `memory` say whether the list names the kind at all (a
  // request of 0 is given, and keeps its limit from becoming the request).
  auto add_list = [&](ValueId list, std::map<std::string, std::int64_t>& to, bool& cpu,
                      bool& memory) {
    if (list == kNoValue || doc[list].kind != ValueKind::Object) return;
    for (std::uint32_t i = 0; i < doc.size(list); ++i) {
      const std::string_view name = doc.text(doc.key(list, i));
      const bool is_cpu = name == "cpu", is_memory = name == "memory";
      if (!is_cpu && !is_memory) continue;
      (is_cpu ? cpu : memory) = true;
      // cpu in nanocores, memory in bytes: exact enough to compare.
      const auto q = quantity(r, path, doc.member(list, i), is_cpu ? 9 : 0);
      if (!q || *q <= 0) continue;
      to[std::string(name)] = saturating_add(to[std::string(name)], *q);
    }
  };
  for (const ValueId containers : {f["containers"], f["initContainers"]}) {
    if (containers == kNoValue || doc[containers].kind != ValueKind::Array) continue;
    for (std::uint32_t i = 0; i < doc.size(containers); ++i) {
      const ValueId c = doc.element(containers, i);
      Picked<kKubeContainerFields> cf;
      cf.fill(kNoValue);
      if (doc[c].kind != ValueKind::Object || !pick(r, path, c, cf, {"resources"})) continue;
      Picked<kKubeResourcesFields> rf;
      rf.fill(kNoValue);
      const ValueId resources = cf["resources"];
      if (resources == kNoValue || doc[resources].kind != ValueKind::Object ||
          !pick(r, path, resources, rf))
        continue;
      const ValueId req = rf["requests"], lim = rf["limits"];
      bool req_cpu = false, req_memory = false, lim_cpu = false, lim_memory = false;
      add_list(req, requests, req_cpu, req_memory);
      // Kubernetes defaults a missing request to its limit (the API's
      // defaulting, which kubectl's output has already applied).
      std::map<std::string, std::int64_t> own_limits;
      add_list(lim, own_limits, lim_cpu, lim_memory);
      for (const auto& [name, value] : own_limits) {
        limits[name] = saturating_add(limits[name], value);
        if ((name == "cpu" && !req_cpu) || (name == "memory" && !req_memory))
          requests[name] = saturating_add(requests[name], value);
      }
      // Guaranteed needs a positive cpu and memory limit in every container.
      if (!own_limits.count("cpu") || !own_limits.count("memory")) guaranteed = false;
    }
  }
  if (requests.empty() && limits.empty()) return QosClass::BestEffort;
  if (guaranteed)
    for (const auto& [name, value] : requests)
      if (auto it = limits.find(name); it == limits.end() || it->second != value) {
        guaranteed = false;
        break;
      }
  return guaranteed && requests.size() == limits.size() ? QosClass::Guaranteed
                                                        : QosClass::Burstable;
}

}  // namespace eruplan::k8s
