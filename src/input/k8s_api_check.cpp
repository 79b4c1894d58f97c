// SPEC §15's strict reading of a manifest: the keys of the parts eruplan
// reads, each against its API type's field names (kubernetes_api_fields.h).
#include "k8s_read.h"
#include "kubernetes_api_fields.h"

namespace eruplan::k8s {

namespace {

struct Checker {
  Reader& r;
  Diagnostics& diags;

  void check(const FieldPath& path, ValueId v, k8s_api::Names names) {
    check_api_fields(r, diags, path, v, names);
  }

  // Each element of the list at `key` of `object` against `names`, and
  // (containers) its resources.
  void each(const FieldPath& path, ValueId object, std::string_view key, k8s_api::Names names,
            bool containers) {
    const Doc& doc = r.doc();
    const ValueId list = doc.find(object, key);
    if (list == kNoValue || doc[list].kind != ValueKind::Array) return;
    const FieldPath list_path = path.child(key);
    for (std::uint32_t i = 0; i < doc.size(list); ++i) {
      const FieldPath at = list_path.at(i);
      const ValueId item = doc.element(list, i);
      check(at, item, names);
      if (containers)
        check(at.child("resources"), doc.find(item, "resources"), k8s_api::kResources);
    }
  }

  void pod_spec(const FieldPath& path, ValueId spec) {
    check(path, spec, k8s_api::kPodSpec);
    each(path, spec, "containers", k8s_api::kContainer, true);
    each(path, spec, "initContainers", k8s_api::kContainer, true);
    each(path, spec, "tolerations", k8s_api::kToleration, false);
    check(path.child("resources"), r.doc().find(spec, "resources"), k8s_api::kResources);
  }

  // A PodTemplateSpec (or JobTemplateSpec): metadata and spec; `inner`
  // reads the spec.
  template <class Inner>
  void template_spec(const FieldPath& path, ValueId t, Inner inner) {
    check(path, t, k8s_api::kTemplate);
    check(path.child("metadata"), r.doc().find(t, "metadata"), k8s_api::kObjectMeta);
    const FieldPath spec_path = path.child("spec");
    inner(spec_path, r.doc().find(t, "spec"));
  }

  // A workload's spec of `kind` (not a Pod's) and its pod template.
  void workload_spec(const FieldPath& path, ValueId spec, std::string_view kind) {
    check(path, spec, k8s_api::workload_spec(kind));
    template_spec(path.child("template"), r.doc().find(spec, "template"),
                  [&](const FieldPath& p, ValueId s) { pod_spec(p, s); });
  }
};

}  // namespace

void check_manifest_fields(Reader& r, Diagnostics& diags, const FieldPath& path, ValueId object,
                           std::string_view kind) {
  Checker c{r, diags};
  const Doc& doc = r.doc();
  c.check(path, object, k8s_api::kObject);
  c.check(path.child("metadata"), doc.find(object, "metadata"), k8s_api::kObjectMeta);
  const FieldPath spec_path = path.child("spec");
  const ValueId spec = doc.find(object, "spec");
  if (kind == "Pod") {
    c.pod_spec(spec_path, spec);
  } else if (kind == "CronJob") {
    c.check(spec_path, spec, k8s_api::kCronJobSpec);
    c.template_spec(spec_path.child("jobTemplate"), doc.find(spec, "jobTemplate"),
                    [&](const FieldPath& p, ValueId s) { c.workload_spec(p, s, "Job"); });
  } else {
    c.workload_spec(spec_path, spec, kind);
  }
}

}  // namespace eruplan::k8s
