// -r as Kubernetes manifests (SPEC §12): Deployments, StatefulSets,
// ReplicaSets and Pods, one request each.
#include <algorithm>
#include <string>
#include <vector>

#include "k8s_read.h"
#include "k8s_scheduling.h"
#include "strategy.h"

namespace eruplan {

namespace {

using namespace k8s;

bool is_workload_kind(std::string_view kind) {
  return kind == "Deployment" || kind == "StatefulSet" || kind == "ReplicaSet" || kind == "Pod";
}

// kind and apiVersion, both strings, at the top of a document.
bool is_manifest(const Doc& doc, ValueId v, std::string_view* kind) {
  if (doc[v].kind != ValueKind::Object) return false;
  bool api = false, has_kind = false;
  for (std::uint32_t i = 0; i < doc.size(v); ++i) {
    const std::string_view key = doc.text(doc.key(v, i));
    const ValueId m = doc.member(v, i);
    if (doc[m].kind != ValueKind::String) continue;
    if (key == kKubeManifestFields[kube_manifest_field::kApiVersion].name) api = true;
    if (key == kKubeManifestFields[kube_manifest_field::kKind].name)
      has_kind = true, *kind = doc.text(m);
  }
  return api && has_kind;
}

void read_tolerations(Reader& r, const FieldPath& path, ValueId v, Request& req) {
  if (v == kNoValue || !r.is_array(path, v)) return;
  for (std::uint32_t i = 0; i < r.doc().size(v); ++i) {
    const FieldPath at = path.at(i);
    const ValueId item = r.doc().element(v, i);
    std::array<ValueId, kKubeTolerationFields.size()> f;
    if (!pick(r, at, item, kKubeTolerationFields, f.data())) continue;
    const ValueId key = f[kube_toleration_field::kKey], op = f[kube_toleration_field::kOperator],
                  value = f[kube_toleration_field::kValue],
                  effect = f[kube_toleration_field::kEffect];
    Toleration t;
    if (key != kNoValue) {
      if (auto k = r.scalar(at.child("key"), key)) t.key = *k;
    }
    if (op != kNoValue) {
      const std::string_view o = text_of(r.doc(), op);
      if (o == "Exists")
        t.exists = true;
      else if (o != "Equal")
        r.error(at.child("operator"), op,
                "unknown operator " + r.describe(op) + "; expected Equal or Exists");
    }
    if (value != kNoValue) {
      if (auto s = r.scalar(at.child("value"), value)) t.value = *s;
    }
    if (effect != kNoValue) {
      if (auto s = r.scalar(at.child("effect"), effect)) t.effect = *s;
    }
    if (t.key.empty() && !t.exists)
      r.error(at, item, "a toleration with an empty key must use operator Exists");
    req.tolerations.push_back(std::move(t));
  }
}

// The manifest's pod for the scheduling plugins: name, namespace, labels,
// the workload's selector (its template labels), the spec's scheduling
// fields and its non-zero request (k8s_scheduling.cpp).
std::shared_ptr<const PodScheduling> manifest_pod(Reader& r, const FieldPath& spec_path,
                                                  ValueId spec, const std::string& name, ValueId ns,
                                                  const NamedList<std::string>& labels,
                                                  bool workload) {
  auto pod = std::make_shared<PodScheduling>();
  pod->name = name;
  if (ns != kNoValue && r.doc().is_scalar(ns)) pod->ns = r.doc().text(ns);
  pod->labels = labels;
  if (workload && !labels.empty()) {
    LabelSelector selector;
    for (const auto& [k, v] : labels) selector.requirements.push_back({k, SelectorOp::In, {v}});
    pod->owner_selector = std::move(selector);
  }
  read_pod_scheduling(r, spec_path, spec, *pod);
  const NonZeroRequest nonzero = nonzero_request(r.doc(), spec);
  pod->nonzero_cpu = nonzero.cpu;
  pod->nonzero_memory = nonzero.memory;
  return pod;
}

// One Deployment, StatefulSet, ReplicaSet or Pod as a request; its name
// even when other fields had errors (the caller counts them), so that a
// later manifest of the same name is still reported.
Request read_manifest(Reader& r, const FieldPath& path, ValueId v, std::string_view kind,
                      const KubernetesOptions& options) {
  std::array<ValueId, kKubeManifestFields.size()> object;  // its kind is the caller's
  pick(r, path, v, kKubeManifestFields, object.data(),
       {kube_manifest_field::kMetadata, kube_manifest_field::kSpec});
  const ValueId metadata = object[kube_manifest_field::kMetadata],
                spec = object[kube_manifest_field::kSpec];
  const FieldPath meta_path = path.child("metadata"), spec_path = path.child("spec");
  std::array<ValueId, kKubeMetadataFields.size()> meta;
  pick(r, meta_path, metadata, kKubeMetadataFields, meta.data(),
       {kube_metadata_field::kName, kube_metadata_field::kNamespace, kube_metadata_field::kLabels});
  const ValueId name = meta[kube_metadata_field::kName],
                labels = meta[kube_metadata_field::kLabels];
  Request req;
  if (name == kNoValue)
    r.error(meta_path.child("name"), metadata != kNoValue ? metadata : v,
            "metadata.name is required (it names the request)");
  else if (auto s = r.string(meta_path.child("name"), name))
    req.name = *s;
  const NamedList<std::string> own_labels = string_map(r, meta_path.child("labels"), labels);

  NamedList<std::string> template_labels;
  ValueId pod_spec = spec;
  FieldPath pod_path = spec_path;
  ValueId template_ = kNoValue, replicas = kNoValue;
  FieldPath template_path = spec_path.child("template");
  FieldPath template_spec_path = template_path.child("spec");
  req.count = 1;
  if (kind != "Pod") {
    std::array<ValueId, kKubeWorkloadSpecFields.size()> workload;
    pick(r, spec_path, spec, kKubeWorkloadSpecFields, workload.data());
    template_ = workload[kube_workload_spec_field::kTemplate];
    replicas = workload[kube_workload_spec_field::kReplicas];
    std::array<ValueId, kKubeTemplateFields.size()> pod_template;
    pick(r, template_path, template_, kKubeTemplateFields, pod_template.data());
    const ValueId t_meta = pod_template[kube_template_field::kMetadata],
                  t_spec = pod_template[kube_template_field::kSpec];
    std::array<ValueId, kKubeMetadataFields.size()> t_fields;
    pick(r, template_path.child("metadata"), t_meta, kKubeMetadataFields, t_fields.data(),
         {kube_metadata_field::kLabels});
    const ValueId t_labels = t_fields[kube_metadata_field::kLabels];
    template_labels = string_map(r, template_path.child("metadata").child("labels"), t_labels);
    pod_spec = t_spec;
    pod_path = template_spec_path;
    if (t_spec == kNoValue)
      r.error(template_spec_path, template_ != kNoValue ? template_ : v,
              "spec.template.spec is required (the pod to place)");
    if (replicas != kNoValue) {
      if (auto n = r.integer(spec_path.child("replicas"), replicas, 0)) {
        req.count = *n;
        if (*n == 0)
          r.warning(spec_path.child("replicas"), replicas,
                    "replicas is 0: nothing to place unless --count says how many");
      }
    }
  }
  req.app = app_of(options, template_labels, own_labels, req.name);
  if (auto s = parse_strategy("score")) req.strategy = *s;  // SPEC §12: score unless --strategy
  // Kubernetes never oversells CPU requests, so a manifest keeps CPU fit
  // (SPEC §8.2) under any strategy --strategy picks.
  req.cpu_fit = true;

  const PodRequest pod = pod_request(r, pod_path, pod_spec);
  req.cpu = pod.cpu;
  req.memory = pod.memory;
  req.storage = pod.storage;
  req.extended = pod.extended;
  for (const std::string& h : pod.hugepages)
    r.warning(pod_path, pod_spec, h + " is not modelled by eruplan; the request leaves it out");

  // The request is pod_request's, which has said so if the spec is no mapping.
  std::array<ValueId, kKubePodSpecFields.size()> f;
  f.fill(kNoValue);
  if (pod_spec != kNoValue && r.doc()[pod_spec].kind == ValueKind::Object)
    pick(r, pod_path, pod_spec, kKubePodSpecFields, f.data(),
         {kube_pod_spec_field::kNodeSelector, kube_pod_spec_field::kTolerations,
          kube_pod_spec_field::kAffinity, kube_pod_spec_field::kNodeName});
  const ValueId selector = f[kube_pod_spec_field::kNodeSelector],
                tolerations = f[kube_pod_spec_field::kTolerations],
                affinity = f[kube_pod_spec_field::kAffinity],
                node_name = f[kube_pod_spec_field::kNodeName];
  req.filter.labels = string_map(r, pod_path.child("nodeSelector"), selector);
  read_tolerations(r, pod_path.child("tolerations"), tolerations, req);
  (void)affinity;  // read by read_pod_scheduling
  if (node_name != kNoValue) {
    if (kind == "Pod") {
      if (auto n = r.string(pod_path.child("nodeName"), node_name)) {
        req.filter.nodes.emplace_back(*n);
        req.nodes_origins.push_back(r.origin(pod_path.child("nodeName"), node_name));
      }
    }
  }
  req.pod = manifest_pod(r, pod_path, pod_spec, req.name, meta[kube_metadata_field::kNamespace],
                         kind == "Pod" ? own_labels : template_labels, kind != "Pod");
  req.scoring.profile = ScoringProfile::Kubernetes;
  return req;
}

}  // namespace

std::optional<RequestSet> load_kubernetes_requests(const Source& source,
                                                   const RequestOverrides& overrides,
                                                   const KubernetesOptions& options,
                                                   bool count_required, Diagnostics& diags,
                                                   bool& matched) {
  matched = false;
  Diagnostics parse_diags;  // a file that does not parse is the eruplan reader's to report
  std::vector<ValueId> documents;
  auto doc = parse_document_stream(source, parse_diags, documents);
  if (!doc) return std::nullopt;
  std::string_view kind;
  const auto first = std::find_if(documents.begin(), documents.end(),
                                  [&](ValueId d) { return (*doc)[d].kind != ValueKind::Null; });
  if (first == documents.end() || !is_manifest(*doc, *first, &kind)) return std::nullopt;
  matched = true;

  const std::size_t errors_before = count_errors(diags);
  Reader r(*doc, source.name, diags);
  // The manifests in file order: a document, or an item of a List.
  struct Item {
    std::size_t document;  // in the stream
    std::int64_t index;    // in its List's items, -1 for a document
    ValueId value;
  };
  std::vector<Item> manifests;
  bool is_list = false;
  // In a stream of several documents, paths begin with the document's
  // place in it, counting every document from 0: documents[1].spec.replicas.
  const bool several = std::count_if(documents.begin(), documents.end(), [&](ValueId d) {
                         return (*doc)[d].kind != ValueKind::Null;
                       }) > 1;
  const FieldPath root, stream = root.child("documents");
  for (std::size_t di = 0; di < documents.size(); ++di) {
    const ValueId d = documents[di];
    if ((*doc)[d].kind == ValueKind::Null) continue;  // an empty document
    const FieldPath at = several ? stream.at(static_cast<std::int64_t>(di)) : root;
    std::string_view k;
    if (!is_manifest(*doc, d, &k)) {
      r.error(at, d, "expected a Kubernetes manifest (with kind and apiVersion)");
      continue;
    }
    if (k.ends_with("List")) {
      is_list = true;
      std::array<ValueId, kKubeListFields.size()> f;  // its kind is is_manifest's
      pick(r, at, d, kKubeListFields, f.data(), {kube_list_field::kItems});
      const ValueId items = f[kube_list_field::kItems];
      if (items == kNoValue || !r.is_array(at.child("items"), items)) continue;
      for (std::uint32_t i = 0; i < doc->size(items); ++i)
        manifests.push_back({di, i, doc->element(items, i)});
    } else {
      manifests.push_back({di, -1, d});
    }
  }
  RequestSet set;
  set.list = is_list || manifests.size() > 1;
  // With several manifests only --strategy applies (to each; SPEC §12 lets
  // it replace score); the other request flags are a usage error as for a
  // requests: list (§8.4).
  RequestOverrides per_request = overrides;
  if (set.list) {
    per_request = RequestOverrides{};
    per_request.strategy = overrides.strategy;
    RequestOverrides rest = overrides;
    rest.strategy.reset();
    set.overridden = !rest.empty();
  }
  if (manifests.empty() && count_errors(diags) == errors_before)
    r.error(FieldPath{}, doc->root(),
            "the file holds no Deployment, StatefulSet, ReplicaSet or Pod");
  std::vector<std::string> names;  // every manifest's name so far
  for (std::size_t i = 0; i < manifests.size(); ++i) {
    const ValueId value = manifests[i].value;
    const FieldPath in_stream =
        several ? stream.at(static_cast<std::int64_t>(manifests[i].document)) : root;
    const FieldPath items_path = in_stream.child("items"), item = items_path.at(manifests[i].index);
    const FieldPath& path = manifests[i].index >= 0 ? item : in_stream;
    std::string_view k;
    std::array<ValueId, kKubeManifestFields.size()> f;
    pick(r, path, value, kKubeManifestFields, f.data(), {kube_manifest_field::kKind});
    const ValueId kind_id = f[kube_manifest_field::kKind];
    if (kind_id == kNoValue || !is_workload_kind(k = text_of(*doc, kind_id))) {
      r.error(kind_id == kNoValue ? path : path.child("kind"),
              kind_id == kNoValue ? value : kind_id,
              "expected a Deployment, StatefulSet, ReplicaSet or Pod, got " +
                  (kind_id == kNoValue ? std::string("no kind") : r.describe(kind_id)));
      continue;
    }
    Request req = read_manifest(r, path, value, k, options);
    const std::string prefix = path.str().empty() ? "" : path.str() + ".";
    // The flags apply and §3's checks run even after errors: every problem at once.
    finish_request(req, per_request, count_required, source.name, prefix, diags);
    // Every problem at once: a name is checked even when the manifest has
    // other errors, against every earlier manifest's.
    if (!req.name.empty() && std::find(names.begin(), names.end(), req.name) != names.end())
      r.error(path.child("metadata").child("name"), value,
              "two manifests are named " + quoted(req.name) + "; give each a unique name");
    if (!req.name.empty()) names.push_back(req.name);
    // Every manifest comes back as read even with errors, as for a
    // requests: list: the checks against the inventory then report its
    // other problems too. The caller sees the errors in diags.
    set.requests.push_back(std::move(req));
    set.indexes.push_back(static_cast<std::uint32_t>(i));
  }
  if (count_errors(diags) > errors_before && set.requests.empty()) return std::nullopt;
  return set;
}

}  // namespace eruplan
