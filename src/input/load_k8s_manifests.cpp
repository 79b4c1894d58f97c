// -r as Kubernetes manifests (SPEC §12): Deployments, StatefulSets,
// ReplicaSets and Pods, one request each.
#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "k8s_read.h"
#include "k8s_scheduling.h"
#include "strategy.h"

namespace eruplan {

namespace {

using namespace k8s;

// The kinds that carry pods; every other kind is skipped.
constexpr std::array<std::string_view, 8> kPodKinds{
    "Pod", "Deployment", "ReplicaSet", "StatefulSet", "ReplicationController",
    "Job", "CronJob",    "DaemonSet"};

bool is_pod_kind(std::string_view kind) {
  return std::find(kPodKinds.begin(), kPodKinds.end(), kind) != kPodKinds.end();
}

std::string pod_kinds_text() {
  std::string out;
  for (std::size_t i = 0; i < kPodKinds.size(); ++i)
    out += std::string(i == 0                      ? ""
                       : i + 1 == kPodKinds.size() ? " or "
                                                   : ", ") +
           std::string(kPodKinds[i]);
  return out;
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

std::optional<SelectorOp> selector_op(std::string_view text) {
  if (text == "In") return SelectorOp::In;
  if (text == "NotIn") return SelectorOp::NotIn;
  if (text == "Exists") return SelectorOp::Exists;
  if (text == "DoesNotExist") return SelectorOp::DoesNotExist;
  return std::nullopt;
}

// A workload's spec.selector: matchLabels and matchExpressions, or (a
// ReplicationController's) a plain map of labels.
LabelSelector read_selector(Reader& r, const FieldPath& path, ValueId v, bool plain_map) {
  LabelSelector out;
  const Doc& doc = r.doc();
  if (plain_map) {
    for (auto& [k, val] : string_map(r, path, v))
      out.requirements.push_back({k, SelectorOp::In, {val}});
    return out;
  }
  std::array<ValueId, kKubeLabelSelectorFields.size()> f;
  if (!pick(r, path, v, kKubeLabelSelectorFields, f.data())) return out;
  for (auto& [k, val] :
       string_map(r, path.child("matchLabels"), f[kube_label_selector_field::kMatchLabels]))
    out.requirements.push_back({k, SelectorOp::In, {val}});
  const ValueId exprs = f[kube_label_selector_field::kMatchExpressions];
  const FieldPath exprs_path = path.child("matchExpressions");
  if (exprs == kNoValue || !r.is_array(exprs_path, exprs)) return out;
  for (std::uint32_t i = 0; i < doc.size(exprs); ++i) {
    const FieldPath at = exprs_path.at(i);
    const ValueId item = doc.element(exprs, i);
    std::array<ValueId, kKubeRequirementFields.size()> e;
    if (!pick(r, at, item, kKubeRequirementFields, e.data())) continue;
    Requirement req;
    const ValueId key = e[kube_requirement_field::kKey], op = e[kube_requirement_field::kOperator],
                  values = e[kube_requirement_field::kValues];
    if (key == kNoValue)
      r.error(at.child("key"), item, "key is required");
    else if (auto k = r.scalar(at.child("key"), key))
      req.key = *k;
    const auto parsed = selector_op(text_of(doc, op));
    if (!parsed) {
      r.error(at.child("operator"), op != kNoValue ? op : item,
              "expected In, NotIn, Exists or DoesNotExist, got " +
                  (op != kNoValue ? r.describe(op) : std::string("nothing")));
      continue;
    }
    req.op = *parsed;
    if (values != kNoValue && r.is_array(at.child("values"), values))
      for (std::uint32_t j = 0; j < doc.size(values); ++j)
        if (auto s = r.scalar(at.child("values").at(j), doc.element(values, j)))
          req.values.emplace_back(*s);
    const bool wants_values = req.op == SelectorOp::In || req.op == SelectorOp::NotIn;
    if (wants_values && req.values.empty())
      r.error(at.child("values"), item,
              "values must be non-empty for " + std::string(selector_op_name(req.op)));
    if (!wants_values && !req.values.empty())
      r.error(at.child("values"), values,
              "values must be empty for " + std::string(selector_op_name(req.op)));
    out.requirements.push_back(std::move(req));
  }
  return out;
}

Labels to_labels(const NamedList<std::string>& l) { return Labels(l.begin(), l.end()); }

// What a manifest asks for beyond one request: its count's parts, for the
// pods --pods already runs.
struct Manifest {
  Request request;
  std::string kind, ns = "default";
  LabelSelector selector;
  std::optional<std::int64_t> desired;  // replicas (the desired total)
  std::int64_t parallelism = 1;
  std::optional<std::int64_t> completions;
};

// One pod-carrying object as a request; its name even when other fields
// had errors (the caller counts them), so that a later manifest of the
// same name is still reported.
Manifest read_manifest(Reader& r, const FieldPath& path, ValueId v, std::string_view kind,
                       const KubernetesOptions& options) {
  Manifest m;
  m.kind = std::string(kind);
  Request& req = m.request;
  std::array<ValueId, kKubeManifestFields.size()> object;  // its kind is the caller's
  pick(r, path, v, kKubeManifestFields, object.data(),
       {kube_manifest_field::kMetadata, kube_manifest_field::kSpec});
  const ValueId metadata = object[kube_manifest_field::kMetadata],
                spec = object[kube_manifest_field::kSpec];
  const FieldPath meta_path = path.child("metadata"), spec_path = path.child("spec");
  std::array<ValueId, kKubeMetadataFields.size()> meta;
  pick(r, meta_path, metadata, kKubeMetadataFields, meta.data(),
       {kube_metadata_field::kName, kube_metadata_field::kLabels, kube_metadata_field::kNamespace,
        kube_metadata_field::kGenerateName});
  const ValueId name = meta[kube_metadata_field::kName],
                labels = meta[kube_metadata_field::kLabels],
                ns = meta[kube_metadata_field::kNamespace],
                generate = meta[kube_metadata_field::kGenerateName];
  if (name == kNoValue && generate != kNoValue) {
    if (auto s = r.string(meta_path.child("generateName"), generate)) req.name = *s;
  } else if (name == kNoValue) {
    r.error(meta_path.child("name"), metadata != kNoValue ? metadata : v,
            "metadata.name is required (it names the request)");
  } else if (auto s = r.string(meta_path.child("name"), name)) {
    req.name = *s;
  }
  if (ns != kNoValue)
    if (auto s = r.string(meta_path.child("namespace"), ns)) m.ns = *s;
  const NamedList<std::string> own_labels = string_map(r, meta_path.child("labels"), labels);

  NamedList<std::string> template_labels;
  ValueId pod_spec = spec;
  FieldPath pod_path = spec_path;
  req.count = 1;
  std::optional<LabelSelector> selector;
  // A CronJob's pods are its job template's. (Paths point to their parent:
  // all of them live as long as the request is read.)
  const FieldPath job_path = spec_path.child("jobTemplate"), job_spec_path = job_path.child("spec");
  const FieldPath& workload_path = kind == "CronJob" ? job_spec_path : spec_path;
  const FieldPath template_path = workload_path.child("template"),
                  template_spec_path = template_path.child("spec");
  if (kind != "Pod") {
    ValueId workload_spec = spec;
    std::array<ValueId, kKubeWorkloadSpecFields.size()> workload;
    pick(r, spec_path, spec, kKubeWorkloadSpecFields, workload.data());
    if (kind == "CronJob") {
      const ValueId job = workload[kube_workload_spec_field::kJobTemplate];
      if (job == kNoValue)
        r.error(job_path, spec != kNoValue ? spec : v,
                "spec.jobTemplate is required (the Job each run starts)");
      std::array<ValueId, kKubeTemplateFields.size()> jt;
      pick(r, job_path, job, kKubeTemplateFields, jt.data());
      workload_spec = jt[kube_template_field::kSpec];
      pick(r, workload_path, workload_spec, kKubeWorkloadSpecFields, workload.data());
    }
    const ValueId template_ = workload[kube_workload_spec_field::kTemplate],
                  replicas = workload[kube_workload_spec_field::kReplicas],
                  sel = workload[kube_workload_spec_field::kSelector],
                  parallelism = workload[kube_workload_spec_field::kParallelism],
                  completions = workload[kube_workload_spec_field::kCompletions];
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
              template_spec_path.str() + " is required (the pod to place)");
    const bool job = kind == "Job" || kind == "CronJob";
    if (!job && replicas != kNoValue) {
      if (auto n = r.integer(workload_path.child("replicas"), replicas, 0)) m.desired = *n;
    } else if (!job) {
      m.desired = 1;
    }
    if (job && parallelism != kNoValue) {
      if (auto n = r.integer(workload_path.child("parallelism"), parallelism, 0))
        m.parallelism = *n;
    }
    if (kind == "Job" && completions != kNoValue) {
      if (auto n = r.integer(workload_path.child("completions"), completions, 0))
        m.completions = *n;
    }
    if (sel != kNoValue && kind != "CronJob")
      selector =
          read_selector(r, workload_path.child("selector"), sel, kind == "ReplicationController");
  }
  if (!selector) {
    LabelSelector own;  // the template's labels (a Pod: its own)
    for (const auto& [k, val] : kind == "Pod" ? own_labels : template_labels)
      own.requirements.push_back({k, SelectorOp::In, {val}});
    selector = std::move(own);
  }
  m.selector = *selector;
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
          kube_pod_spec_field::kAffinity, kube_pod_spec_field::kNodeName,
          kube_pod_spec_field::kSchedulerName, kube_pod_spec_field::kPreemptionPolicy});
  const ValueId node_selector = f[kube_pod_spec_field::kNodeSelector],
                tolerations = f[kube_pod_spec_field::kTolerations],
                affinity = f[kube_pod_spec_field::kAffinity],
                node_name = f[kube_pod_spec_field::kNodeName],
                scheduler = f[kube_pod_spec_field::kSchedulerName],
                preemption = f[kube_pod_spec_field::kPreemptionPolicy];
  req.filter.labels = string_map(r, pod_path.child("nodeSelector"), node_selector);
  for (const auto& [key, value] : req.filter.labels)
    req.label_origins.push_back(r.origin(pod_path.child("nodeSelector").child(key), node_selector));
  if (affinity != kNoValue)
    req.node_affinity_origin = r.origin(pod_path.child("affinity"), affinity);
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
  auto sched = std::make_shared<PodScheduling>();
  sched->ns = m.ns;
  sched->name = req.name;
  sched->labels = to_labels(kind == "Pod" ? own_labels : template_labels);
  sched->node_selector = to_labels(req.filter.labels);
  if (scheduler != kNoValue)
    if (auto s = r.string(pod_path.child("schedulerName"), scheduler)) sched->scheduler_name = *s;
  if (preemption != kNoValue) {
    const std::string_view p = text_of(r.doc(), preemption);
    if (p == "Never")
      sched->preempt_never = true;
    else if (p != "PreemptLowerPriority")
      r.error(pod_path.child("preemptionPolicy"), preemption,
              "expected PreemptLowerPriority or Never, got " + r.describe(preemption));
  }
  if (kind != "Pod") sched->owner_selector = m.selector;
  // The spec's scheduling fields (affinity, spread, ports, nodeName) and its
  // non-zero request for scoring (k8s_scheduling.cpp).
  read_pod_scheduling(r, pod_path, pod_spec, *sched);
  if (pod_spec != kNoValue) {
    const NonZeroRequest nonzero = nonzero_request(r.doc(), pod_spec);
    sched->nonzero_cpu = nonzero.cpu;
    sched->nonzero_memory = nonzero.memory;
  }
  req.pod = std::move(sched);
  req.scoring.profile = ScoringProfile::Kubernetes;
  return m;
}

// The pods of `m` that --pods runs, and (a Job's) that succeeded.
struct Running {
  std::int64_t running = 0, succeeded = 0;
};

Running count_running(const Manifest& m, const Inventory* inventory, const PodCensus* census) {
  Running out;
  if (m.kind == "Pod") {
    auto same = [&](const std::string& ns, const std::string& name) {
      return ns == m.ns && name == m.request.name;
    };
    if (inventory)
      for (const RunningPod& p : inventory->pods)
        if (same(p.ns, p.name)) ++out.running;
    if (census)
      for (const PodCensus::Pod& p : census->elsewhere)
        if (same(p.ns, p.name)) ++out.running;
    return out;
  }
  if (inventory)
    for (const RunningPod& p : inventory->pods)
      if (p.ns == m.ns && m.selector.matches(p.labels)) ++out.running;
  if (census) {
    for (const PodCensus::Pod& p : census->elsewhere)
      if (p.ns == m.ns && m.selector.matches(p.labels)) ++out.running;
    for (const PodCensus::Pod& p : census->succeeded)
      if (p.ns == m.ns && m.selector.matches(p.labels)) ++out.succeeded;
  }
  return out;
}

// SPEC §15: new instances from the kind's count and the pods already there;
// `why` says so when that is none.
std::int64_t new_instances(const Manifest& m, const Running& pods, const KubernetesOptions& options,
                           std::string& why) {
  const std::string& name = m.request.name;
  if (m.kind == "Pod") {
    if (pods.running > 0) why = name + ": already running, nothing to place";
    return pods.running > 0 ? 0 : 1;
  }
  if (m.kind == "CronJob") {
    if (m.parallelism == 0) why = name + ": parallelism 0, nothing to place";
    return m.parallelism;
  }
  if (m.kind == "Job") {
    std::int64_t want = m.parallelism;
    if (m.completions)
      want = std::min(want, std::max<std::int64_t>(0, *m.completions - pods.succeeded));
    else if (pods.succeeded > 0)
      want = 0;
    const std::int64_t n = std::max<std::int64_t>(0, want - pods.running);
    if (n == 0)
      why = name + ": " + std::to_string(pods.running) + " running, " +
            std::to_string(pods.succeeded) + " succeeded, nothing to place";
    return n;
  }
  const std::int64_t desired = options.replicas ? *options.replicas : m.desired.value_or(1);
  const std::int64_t n = std::max<std::int64_t>(0, desired - pods.running);
  if (n == 0)
    why = name + ": " + std::to_string(pods.running) + " of " + std::to_string(desired) +
          " replicas running, nothing to place";
  return n;
}

}  // namespace

std::optional<RequestSet> load_kubernetes_requests(const Source& source,
                                                   const RequestOverrides& overrides,
                                                   const KubernetesOptions& options,
                                                   bool count_required, Diagnostics& diags,
                                                   bool& matched, const Inventory* inventory,
                                                   const PodCensus* census) {
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

  const std::size_t errors_before = diags.error_count();
  Reader r(*doc, source.name, diags);
  // The pod-carrying objects in file order: a document, or an item of a List.
  struct Item {
    std::size_t document;  // in the stream
    std::int64_t index;    // in its List's items, -1 for a document
    ValueId value;
    std::string_view kind;
  };
  std::vector<Item> manifests;
  std::map<std::string, std::int64_t> skipped_kinds;  // kind -> objects skipped
  std::vector<std::string> skipped_order;             // kinds in the order first met
  std::int64_t skipped = 0;
  auto skip = [&](std::string_view k) {
    ++skipped;
    auto [it, fresh] = skipped_kinds.emplace(std::string(k), 0);
    if (fresh) skipped_order.emplace_back(k);
    ++it->second;
  };
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
      r.error(at, d, "expected a Kubernetes object (with kind and apiVersion)");
      continue;
    }
    if (!k.ends_with("List")) {
      if (is_pod_kind(k))
        manifests.push_back({di, -1, d, k});
      else
        skip(k);
      continue;
    }
    // A typed list (PodList, DeploymentList) gives its items its kind.
    const std::string_view typed = k == "List" ? std::string_view() : k.substr(0, k.size() - 4);
    std::array<ValueId, kKubeListFields.size()> f;  // its kind is is_manifest's
    pick(r, at, d, kKubeListFields, f.data(), {kube_list_field::kItems});
    const ValueId items = f[kube_list_field::kItems];
    const FieldPath items_path = at.child("items");
    if (items == kNoValue || !r.is_array(items_path, items)) continue;
    for (std::uint32_t i = 0; i < doc->size(items); ++i) {
      const ValueId item = doc->element(items, i);
      const FieldPath item_path = items_path.at(i);
      std::array<ValueId, kKubeManifestFields.size()> g;
      if (!pick(r, item_path, item, kKubeManifestFields, g.data(),
                {kube_manifest_field::kKind, kube_manifest_field::kMetadata}))
        continue;
      const ValueId item_kind = g[kube_manifest_field::kKind];
      std::string_view ik = item_kind != kNoValue ? text_of(*doc, item_kind) : typed;
      if (ik.empty()) {
        std::array<ValueId, kKubeMetadataFields.size()> meta;
        pick(r, item_path.child("metadata"), g[kube_manifest_field::kMetadata], kKubeMetadataFields,
             meta.data(), {kube_metadata_field::kName});
        const std::string_view n = text_of(*doc, meta[kube_metadata_field::kName]);
        r.error(item_path, item,
                (n.empty() ? std::string("the item") : quoted(n)) +
                    " has no kind; a List's items each need one (or use a typed list such as "
                    "DeploymentList)");
        continue;
      }
      if (is_pod_kind(ik))
        manifests.push_back({di, i, item, ik});
      else
        skip(ik);
    }
  }
  if (skipped > 0) {
    std::string what;
    for (const std::string& k : skipped_order)
      what += (what.empty() ? "" : ", ") + k + " \u00d7" + std::to_string(skipped_kinds[k]);
    r.warning(FieldPath{}, doc->root(),
              "skipped " + std::to_string(skipped) +
                  (skipped == 1 ? " object that places" : " objects that place") +
                  " no pods: " + what);
  }
  RequestSet set;
  set.list = manifests.size() > 1;
  // With several manifests only --strategy applies (to each; SPEC §12 lets
  // it replace score); the other request flags are a usage error as for a
  // requests: list (§8.4), and so is --replicas.
  RequestOverrides per_request = overrides;
  if (set.list) {
    per_request = RequestOverrides{};
    per_request.strategy = overrides.strategy;
    RequestOverrides rest = overrides;
    rest.strategy.reset();
    set.overridden = !rest.empty() || options.replicas.has_value();
  }
  if (manifests.empty() && diags.error_count() == errors_before)
    r.error(FieldPath{}, doc->root(),
            "the file holds no object that places pods (" + pod_kinds_text() + ")");
  std::vector<std::string> names;  // every manifest's name so far
  for (std::size_t i = 0; i < manifests.size(); ++i) {
    const ValueId value = manifests[i].value;
    const FieldPath in_stream =
        several ? stream.at(static_cast<std::int64_t>(manifests[i].document)) : root;
    const FieldPath items_path = in_stream.child("items"), item = items_path.at(manifests[i].index);
    const FieldPath& path = manifests[i].index >= 0 ? item : in_stream;
    const std::string_view k = manifests[i].kind;
    if (k == "DaemonSet") {
      r.error(path, value,
              "a DaemonSet (one pod per eligible node) is not planned by this version of eruplan");
      continue;
    }
    Manifest m = read_manifest(r, path, value, k, options);
    Request& req = m.request;
    std::string why;
    req.count = new_instances(m, count_running(m, inventory, census), options, why);
    const std::string prefix = path.str().empty() ? "" : path.str() + ".";
    // The flags apply and §3's checks run even after errors: every problem at once.
    const bool satisfied = req.count == 0 && !per_request.count;
    finish_request(req, per_request, count_required && !satisfied, source.name, prefix, diags);
    if (satisfied && !per_request.count) req.satisfied = why;
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
  if (diags.error_count() > errors_before && set.requests.empty()) return std::nullopt;
  return set;
}

}  // namespace eruplan
