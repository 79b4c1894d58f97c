// SPEC §15's strict reading of a manifest: the keys of the parts eruplan
// reads, each against its API type's field names (kubernetes_api_fields.h).
#include <array>

#include "k8s_read.h"
#include "kubernetes_api_fields.h"

namespace eruplan::k8s {

namespace {

struct Checker {
  Reader& r;

  void check(const FieldPath& path, ValueId v, k8s_api::Names names, bool typos_only = false) {
    check_api_fields(r, path, v, names, typos_only);
  }
  // Checks `v` and returns the values of `wanted` (one pass over its keys).
  template <std::size_t N>
  std::array<ValueId, N> check(const FieldPath& path, ValueId v, k8s_api::Names names,
                               const std::array<std::string_view, N>& wanted) {
    std::array<ValueId, N> found{};
    check_api_fields(r, path, v, names, false, wanted, found.data());
    return found;
  }

  // The object's own keys, its metadata, and its `status` (typos only);
  // its spec.
  ValueId object(const FieldPath& path, ValueId object, k8s_api::Names own,
                 k8s_api::Names status = {}) {
    static constexpr std::array<std::string_view, 3> kParts{"metadata", "status", "spec"};
    const auto [metadata, status_value, spec] = check(path, object, own, kParts);
    check(path.child("metadata"), metadata, k8s_api::kObjectMeta);
    check(path.child("status"), status_value, status, true);
    return spec;
  }

  // Each element of `list` (at `key` of the object at `path`) against
  // `names`, and (containers) its resources.
  void each(const FieldPath& path, std::string_view key, ValueId list, k8s_api::Names names,
            bool containers) {
    const Doc& doc = r.doc();
    if (list == kNoValue || doc[list].kind != ValueKind::Array) return;
    const FieldPath list_path = path.child(key);
    static constexpr std::array<std::string_view, 1> kResources{"resources"};
    for (std::uint32_t i = 0; i < doc.size(list); ++i) {
      const FieldPath at = list_path.at(i);
      const ValueId item = doc.element(list, i);
      if (!containers) {
        check(at, item, names);
        continue;
      }
      const auto [resources] = check(at, item, names, kResources);
      check(at.child("resources"), resources, k8s_api::kResources);
    }
  }

  void pod_spec(const FieldPath& path, ValueId spec) {
    static constexpr std::array<std::string_view, 4> kLists{"containers", "initContainers",
                                                            "tolerations", "resources"};
    const auto [containers, init, tolerations, resources] =
        check(path, spec, k8s_api::kPodSpec, kLists);
    each(path, "containers", containers, k8s_api::kContainer, true);
    each(path, "initContainers", init, k8s_api::kContainer, true);
    each(path, "tolerations", tolerations, k8s_api::kToleration, false);
    check(path.child("resources"), resources, k8s_api::kResources);
  }

  // A PodTemplateSpec (or JobTemplateSpec): metadata and spec; `inner`
  // reads the spec.
  template <class Inner>
  void template_spec(const FieldPath& path, ValueId t, Inner inner) {
    static constexpr std::array<std::string_view, 2> kParts{"metadata", "spec"};
    const auto [metadata, spec] = check(path, t, k8s_api::kTemplate, kParts);
    check(path.child("metadata"), metadata, k8s_api::kObjectMeta);
    inner(path.child("spec"), spec);
  }

  // A workload's spec of `kind` (not a Pod's) and its pod template.
  void workload_spec(const FieldPath& path, ValueId spec, std::string_view kind) {
    static constexpr std::array<std::string_view, 1> kTemplatePart{"template"};
    const auto [pod_template] = check(path, spec, k8s_api::workload_spec(kind), kTemplatePart);
    template_spec(path.child("template"), pod_template,
                  [&](const FieldPath& p, ValueId s) { pod_spec(p, s); });
  }
};

}  // namespace

void check_manifest_fields(Reader& r, const FieldPath& path, ValueId object,
                           std::string_view kind) {
  Checker c{r};
  const ValueId spec =
      c.object(path, object, k8s_api::kObject,
               kind == "Pod" ? k8s_api::Names(k8s_api::kPodStatus) : k8s_api::Names());
  const FieldPath spec_path = path.child("spec");
  if (kind == "Pod") {
    c.pod_spec(spec_path, spec);
  } else if (kind == "CronJob") {
    static constexpr std::array<std::string_view, 1> kJobTemplate{"jobTemplate"};
    const auto [job_template] = c.check(spec_path, spec, k8s_api::kCronJobSpec, kJobTemplate);
    c.template_spec(spec_path.child("jobTemplate"), job_template,
                    [&](const FieldPath& p, ValueId s) { c.workload_spec(p, s, "Job"); });
  } else {
    c.workload_spec(spec_path, spec, kind);
  }
}

void check_node_fields(Reader& r, const FieldPath& path, ValueId node) {
  Checker c{r};
  const ValueId spec = c.object(path, node, k8s_api::kObject, k8s_api::kNodeStatus);
  const FieldPath spec_path = path.child("spec");
  static constexpr std::array<std::string_view, 1> kTaints{"taints"};
  const auto [taints] = c.check(spec_path, spec, k8s_api::kNodeSpec, kTaints);
  c.each(spec_path, "taints", taints, k8s_api::kTaint, false);
}

void check_priority_class_fields(Reader& r, const FieldPath& path, ValueId object) {
  Checker{r}.object(path, object, k8s_api::kPriorityClass);
}

void check_pdb_fields(Reader& r, const FieldPath& path, ValueId object) {
  Checker c{r};
  const ValueId spec = c.object(path, object, k8s_api::kObject, k8s_api::kPdbStatus);
  c.check(path.child("spec"), spec, k8s_api::kPdbSpec);
}

}  // namespace eruplan::k8s
