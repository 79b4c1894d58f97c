// -r as Kubernetes manifests (SPEC §12): Deployments, StatefulSets,
// ReplicaSets and Pods, one request each.
#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <vector>

#include "k8s_daemonset.h"
#include "k8s_pod_groups.h"
#include "k8s_read.h"
#include "k8s_scheduling.h"
#include "k8s_selector_match.h"
#include "priority_classes.h"
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
    out += (i == 0 ? "" : i + 1 == kPodKinds.size() ? " or " : ", ") + std::string(kPodKinds[i]);
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
    if (key == "apiVersion") api = true;
    if (key == "kind") has_kind = true, *kind = doc.text(m);
  }
  return api && has_kind;
}

void read_tolerations(Reader& r, const FieldPath& path, ValueId v, Request& req) {
  each_picked<kKubeTolerationFields>(
      r, path, v, [&](const FieldPath& at, ValueId item, const Picked<kKubeTolerationFields>& f) {
        const ValueId key = f["key"], op = f["operator"], value = f["value"], effect = f["effect"];
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
      });
}

Labels to_labels(const NamedList<std::string>& l) { return Labels(l.begin(), l.end()); }

// The first requirement of `selector` that `labels` fail, as written, and
// what the labels have for its key: "app=api, the template has app=apii".
std::string unmatched_requirement(const LabelSelector& selector,
                                  const NamedList<std::string>& labels) {
  const Labels set = to_labels(labels);
  for (const Requirement& q : selector.requirements) {
    if (q.matches(set)) continue;
    std::string asked = q.key;
    if (q.op == SelectorOp::In && q.values.size() == 1) {
      asked += "=" + q.values.front();
    } else {
      asked += " " + std::string(selector_op_name(q.op));
      if (!q.values.empty()) {
        asked += " [";
        for (std::size_t i = 0; i < q.values.size(); ++i) asked += (i ? ", " : "") + q.values[i];
        asked += "]";
      }
    }
    const auto has =
        std::find_if(labels.begin(), labels.end(), [&](const auto& l) { return l.first == q.key; });
    return "it asks " + asked + ", the template has " +
           (has != labels.end() ? q.key + "=" + has->second : "no label " + q.key);
  }
  return {};
}

// What a manifest asks for beyond one request: its count's parts, for the
// pods --pods already runs.
struct Manifest {
  Request request;
  std::string kind, ns = "default";
  bool ns_given = false;  // metadata.namespace or --namespace
  LabelSelector selector;
  std::optional<std::int64_t> desired;  // replicas (the desired total)
  std::int64_t parallelism = 1;
  std::optional<std::int64_t> completions;
  // A Job's (or a CronJob's, or its jobTemplate's) spec.suspend: the Job
  // controller creates no pods until it is resumed; the field that says so.
  std::string suspended;
  bool host_network = false;            // spec.hostNetwork (a DaemonSet's tolerations)
  std::optional<PodGroupLabels> group;  // coscheduling labels (SPEC §17)
};

// One pod-carrying object as a request; its name even when other fields
// had errors (the caller counts them), so that a later manifest of the
// same name is still reported.
Manifest read_manifest(Reader& r, const FieldPath& path, ValueId v, std::string_view kind,
                       const KubernetesOptions& options) {
  Manifest m;
  m.kind = std::string(kind);
  Request& req = m.request;
  Picked<kKubeManifestFields> object;  // its kind is the caller's
  pick(r, path, v, object, {"metadata", "spec"});
  const ValueId metadata = object["metadata"], spec = object["spec"];
  const FieldPath meta_path = path.child("metadata"), spec_path = path.child("spec");
  Picked<kKubeMetadataFields> meta;
  pick(r, meta_path, metadata, meta,
       {"name", "labels", "namespace", "generateName", "creationTimestamp"});
  const ValueId name = meta["name"], labels = meta["labels"], ns = meta["namespace"],
                generate = meta["generateName"];
  if (name == kNoValue && generate != kNoValue) {
    if (auto s = r.string(meta_path.child("generateName"), generate)) req.name = *s;
  } else if (name == kNoValue) {
    r.error(meta_path.child("name"), metadata != kNoValue ? metadata : v,
            "metadata.name is required (it names the request)");
  } else if (auto s = r.string(meta_path.child("name"), name)) {
    req.name = *s;
  }
  if (ns != kNoValue) {
    if (auto s = r.string(meta_path.child("namespace"), ns)) m.ns = *s;
    m.ns_given = true;
  } else if (!options.manifest_namespace.empty()) {
    m.ns = options.manifest_namespace;
    m.ns_given = true;
  }
  if (const ValueId created = meta["creationTimestamp"]; created != kNoValue)
    req.created = timestamp(r, meta_path.child("creationTimestamp"), created);
  const NamedList<std::string> own_labels = string_map(r, meta_path.child("labels"), labels);
  if (kind == "Pod") m.group = read_pod_group_labels(r, meta_path.child("labels"), labels);

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
    Picked<kKubeWorkloadSpecFields> workload;
    pick(r, spec_path, spec, workload);
    if (kind == "CronJob") {
      // A suspended CronJob starts no Job (read before its jobTemplate's spec).
      if (const ValueId s = workload["suspend"]; s != kNoValue)
        if (auto b = r.boolean(spec_path.child("suspend"), s); b && *b)
          m.suspended = "spec.suspend";
      workload["suspend"] = kNoValue;
      const ValueId job = workload["jobTemplate"];
      if (job == kNoValue)
        r.error(job_path, spec != kNoValue ? spec : v,
                "spec.jobTemplate is required (the Job each run starts)");
      Picked<kKubeTemplateFields> jt;
      pick(r, job_path, job, jt);
      workload_spec = jt["spec"];
      pick(r, workload_path, workload_spec, workload);
    }
    const ValueId template_ = workload["template"], replicas = workload["replicas"],
                  sel = workload["selector"], parallelism = workload["parallelism"],
                  completions = workload["completions"];
    Picked<kKubeTemplateFields> pod_template;
    pick(r, template_path, template_, pod_template);
    const ValueId t_meta = pod_template["metadata"], t_spec = pod_template["spec"];
    Picked<kKubeMetadataFields> t_fields;
    pick(r, template_path.child("metadata"), t_meta, t_fields, {"labels"});
    const ValueId t_labels = t_fields["labels"];
    template_labels = string_map(r, template_path.child("metadata").child("labels"), t_labels);
    m.group = read_pod_group_labels(r, template_path.child("metadata").child("labels"), t_labels);
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
    if (const ValueId s = workload["suspend"]; job && s != kNoValue && m.suspended.empty()) {
      if (auto b = r.boolean(workload_path.child("suspend"), s); b && *b)
        m.suspended = kind == "CronJob" ? "spec.jobTemplate.spec.suspend" : "spec.suspend";
    }
    if (kind == "Job" && completions != kNoValue) {
      if (auto n = r.integer(workload_path.child("completions"), completions, 0))
        m.completions = *n;
    }
    if (sel != kNoValue && kind != "CronJob") {
      selector = read_label_selector(r, workload_path.child("selector"), sel,
                                     kind == "ReplicationController");
      // The API refuses a workload whose selector does not match its own
      // template's labels (ValidatePodTemplateSpecForReplicaSet and its
      // kin): its new pods would never count as its replicas. A label typo
      // most often; warned about where the labels are, the plan goes on
      // (running pods are still matched by the selector).
      if (selector && !selector->requirements.empty() && t_meta != kNoValue &&
          !selector->matches(to_labels(template_labels)))
        r.warning(template_path.child("metadata").child("labels"),
                  t_labels != kNoValue ? t_labels : t_meta,
                  "the selector does not match the template's labels (Kubernetes refuses such "
                  "an object): " +
                      unmatched_requirement(*selector, template_labels));
    }
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
  req.qos = pod_qos(r.doc(), pod_spec);
  for (const std::string& h : pod.hugepages)
    r.warning(pod_path, pod_spec, h + " is not modelled by eruplan; the request leaves it out");

  // The request is pod_request's, which has said so if the spec is no mapping.
  Picked<kKubePodSpecFields> f;
  f.fill(kNoValue);
  if (pod_spec != kNoValue && r.doc()[pod_spec].kind == ValueKind::Object)
    pick(r, pod_path, pod_spec, f,
         {"nodeSelector", "tolerations", "affinity", "nodeName", "schedulerName",
          "preemptionPolicy", "hostNetwork", "priorityClassName"});
  const ValueId node_selector = f["nodeSelector"], tolerations = f["tolerations"],
                affinity = f["affinity"], node_name = f["nodeName"], scheduler = f["schedulerName"],
                preemption = f["preemptionPolicy"], host_network = f["hostNetwork"],
                class_name = f["priorityClassName"];
  if (host_network != kNoValue)
    if (auto b = r.boolean(pod_path.child("hostNetwork"), host_network)) m.host_network = *b;
  req.filter.labels = string_map(r, pod_path.child("nodeSelector"), node_selector);
  for (const auto& [key, value] : req.filter.labels)
    req.label_origins.push_back(r.origin(pod_path.child("nodeSelector").child(key), node_selector));
  if (affinity != kNoValue)
    req.node_affinity_origin = r.origin(pod_path.child("affinity"), affinity);
  if (const ValueId spread = r.doc().find(pod_spec, "topologySpreadConstraints");
      spread != kNoValue)
    req.spread_origin = r.origin(pod_path.child("topologySpreadConstraints"), spread);
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
  // Its priority (the §8.4 order and preemption's): the class's, or the
  // globalDefault class's; the class's preemptionPolicy unless its own says.
  const ResolvedPriority priority = resolve_priority_class(
      r, pod_path.child("priorityClassName"), class_name, options.priority_classes.get());
  req.priority = priority.value;
  sched->priority = priority.value;
  if (preemption == kNoValue && priority.preempt_never) sched->preempt_never = true;
  // kube-scheduler's default spreading selects by the pod's Services and
  // its controlling ReplicaSet (a Deployment's), StatefulSet or
  // ReplicationController (helper.DefaultSelector); a Job's, CronJob's or
  // DaemonSet's pods are not spread by their owner.
  if (kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet" ||
      kind == "ReplicationController")
    sched->owner_selector = m.selector;
  // The spec's scheduling fields (affinity, spread, ports, nodeName) and its
  // non-zero request for scoring (k8s_scheduling.cpp).
  read_pod_scheduling(r, pod_path, pod_spec, *sched);
  if (options.image_locality) read_pod_images(r, pod_path, pod_spec, *sched);
  note_unmodelled(r, spec_path, spec, pod_path, pod_spec, *sched);
  if (pod_spec != kNoValue) {
    sched->nonzero_cpu = pod.nonzero_cpu;
    sched->nonzero_memory = pod.nonzero_memory;
  }
  req.pod = std::move(sched);
  req.scoring.profile = ScoringProfile::Kubernetes;
  return m;
}

// The pods of `m` that --pods runs, and (a Job's) that succeeded.
struct Running {
  std::int64_t running = 0, succeeded = 0;
};

// `match`: per label set of `pods`, whether m's selector matches it (null
// past the matching's bound: none counted).
Running count_running(const Manifest& m, const Inventory* inventory, const PodCensus* census,
                      const PodSelectorMatch& pods, const std::vector<char>* match) {
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
  // A ReplicaSet's controller replaces a terminating pod at once (not active).
  const bool replaced =
      m.kind == "Deployment" || m.kind == "ReplicaSet" || m.kind == "ReplicationController";
  if (match == nullptr) return out;
  auto counts = [&](const auto& list, const std::vector<std::uint32_t>& sets, std::size_t i) {
    return list[i].ns == m.ns && (*match)[sets[i]];
  };
  if (inventory)
    for (std::size_t i = 0; i < inventory->pods.size(); ++i)
      if (counts(inventory->pods.get(), pods.running(), i) &&
          !(replaced && inventory->pods[i].terminating))
        ++out.running;
  if (census) {
    for (std::size_t i = 0; i < census->elsewhere.size(); ++i)
      if (counts(census->elsewhere, pods.elsewhere(), i)) ++out.running;
    for (std::size_t i = 0; i < census->succeeded.size(); ++i)
      if (counts(census->succeeded, pods.succeeded(), i)) ++out.succeeded;
  }
  return out;
}

// SPEC §15: a workload's existing instances per node are its running pods
// (selector, namespace), not the pods of its app label: the difference per
// node index, or null when there is none (the common case).
std::shared_ptr<const std::vector<std::int64_t>> existing_delta(const Manifest& m,
                                                                const Inventory& inventory,
                                                                const KubernetesOptions& options,
                                                                const PodSelectorMatch& pods,
                                                                const std::vector<char>* match) {
  std::vector<std::int64_t> delta(inventory.nodes.size(), 0);
  bool differs = false;
  const Request& req = m.request;
  for (std::size_t i = 0; i < inventory.pods.size(); ++i) {
    const RunningPod& p = inventory.pods[i];
    if (p.node >= delta.size()) continue;
    const bool own = match != nullptr && p.ns == m.ns && (*match)[pods.running()[i]];
    const bool counted = (p.app.empty() ? app_of(options, p.labels, {}, p.name) : p.app) == req.app;
    if (own == counted) continue;
    delta[p.node] += own ? 1 : -1;
    differs = true;
  }
  if (!differs) return nullptr;
  return std::make_shared<const std::vector<std::int64_t>>(std::move(delta));
}

// A workload without a namespace is counted in "default"; when none of its
// selector's running pods are there but some are elsewhere (a chart render
// meant for kubectl apply -n), a warning names where they are.
void warn_namespace(Reader& r, const FieldPath& path, ValueId v, const Manifest& m,
                    const Inventory* inventory, const PodCensus* census,
                    const PodSelectorMatch& pods, const std::vector<char>* match) {
  if (m.ns_given || m.kind == "Pod" || inventory == nullptr || match == nullptr) return;
  std::map<std::string, std::int64_t> elsewhere;
  // True when a pod of the selector runs in the workload's namespace.
  auto look = [&](const std::string& ns, std::uint32_t set) {
    if (!(*match)[set]) return false;
    if (ns == m.ns) return true;
    ++elsewhere[ns];
    return false;
  };
  for (std::size_t i = 0; i < inventory->pods.size(); ++i)
    if (look(inventory->pods[i].ns, pods.running()[i])) return;
  if (census)
    for (std::size_t i = 0; i < census->elsewhere.size(); ++i)
      if (look(census->elsewhere[i].ns, pods.elsewhere()[i])) return;
  if (elsewhere.empty()) return;
  std::string where;
  for (const auto& [ns, n] : elsewhere)
    where += (where.empty() ? "" : ", ") + std::to_string(n) + " in " + ns;
  r.warning(path.child("metadata"), v,
            excerpt(m.request.name) +
                ": no metadata.namespace, so its running pods are counted in " + m.ns +
                ", which has none of its selector's; it matches " + where +
                " (give --namespace NS, as kubectl apply -n NS)");
}

// SPEC §15: new instances from the kind's count and the pods already there;
// `why` says so when that is none (the sentence; the workload's name is the
// reason's subject).
std::int64_t new_instances(const Manifest& m, const Running& pods, const KubernetesOptions& options,
                           std::string& why) {
  if (m.kind == "Pod") {
    if (pods.running > 0) why = "already running, nothing to place";
    return pods.running > 0 ? 0 : 1;
  }
  // The Job controller creates no pod of a suspended Job; kube-scheduler
  // has nothing to place until it is resumed.
  if (!m.suspended.empty()) {
    why = "suspended (" + m.suspended + ": true), no pods until resumed";
    return 0;
  }
  // --replicas sets a Job's pods at once, as kubectl scale job did.
  const std::int64_t parallelism = options.replicas ? *options.replicas : m.parallelism;
  if (m.kind == "CronJob") {
    if (parallelism == 0) why = "parallelism 0, nothing to place";
    return parallelism;
  }
  if (m.kind == "Job") {
    std::int64_t want = parallelism;
    if (m.completions)
      want = std::min(want, std::max<std::int64_t>(0, *m.completions - pods.succeeded));
    else if (pods.succeeded > 0)
      want = 0;
    const std::int64_t n = std::max<std::int64_t>(0, want - pods.running);
    if (n == 0)
      why = std::to_string(pods.running) + " running, " + std::to_string(pods.succeeded) +
            " succeeded, nothing to place";
    return n;
  }
  const std::int64_t desired = options.replicas ? *options.replicas : m.desired.value_or(1);
  const std::int64_t n = std::max<std::int64_t>(0, desired - pods.running);
  if (n == 0)
    why = std::to_string(pods.running) + " of " + std::to_string(desired) +
          " replicas running, nothing to place";
  return n;
}

// SPEC §15: a DaemonSet's pods go one to every eligible node that runs none
// of them yet. Adds the controller's tolerations to the request and says
// where its pods go (nothing without an inventory: -n's errors are reported).
DaemonPlacement daemon_targets(Manifest& m, const Inventory* inventory,
                               const PodSelectorMatch* pods = nullptr,
                               const std::vector<char>* match = nullptr) {
  Request& req = m.request;
  const std::vector<Toleration> added = daemon_tolerations(m.host_network);
  req.tolerations.insert(req.tolerations.end(), added.begin(), added.end());
  req.daemon = true;
  if (inventory == nullptr || pods == nullptr || !req.pod) return {};
  return place_daemon(*inventory, *req.pod, req.tolerations, m.ns, m.selector, match,
                      pods->running());
}

}  // namespace

namespace k8s {

Request daemon_from_pod(Reader& r, const FieldPath& path, ValueId pod, std::string owner,
                        const KubernetesOptions& options) {
  Manifest m = read_manifest(r, path, pod, "Pod", options);
  m.kind = "DaemonSet";
  Request& req = m.request;
  req.name = std::move(owner);
  req.filter.nodes.clear();  // its node, from spec.nodeName
  req.nodes_origins.clear();
  if (req.pod) {
    auto pod_copy = std::make_shared<PodScheduling>(*req.pod);
    pod_copy->name = req.name;
    pod_copy->node_name.clear();
    // The controller pins each pod to its node with matchFields
    // metadata.name in every required term (a term of its own when the
    // DaemonSet had none): without them the terms are the DaemonSet's.
    if (auto& required = pod_copy->node_affinity.required) {
      for (NodeSelectorTerm& t : *required) t.fields.clear();
      std::erase_if(*required, [](const NodeSelectorTerm& t) { return t.expressions.empty(); });
      if (required->empty()) required.reset();
    }
    req.pod = std::move(pod_copy);
  }
  daemon_targets(m, nullptr);
  req.count = 1;
  std::shared_ptr<const NodeNameTable> no_table;
  daemon_request(req, {}, nullptr, no_table);
  return std::move(m.request);
}

}  // namespace k8s

std::optional<RequestSet> load_kubernetes_requests(const Source& source,
                                                   const RequestOverrides& overrides,
                                                   const KubernetesOptions& given,
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
  // A desired total below 0 is what the API refuses in spec.replicas.
  if (given.replicas && *given.replicas < 0)
    diags.error(Origin{"<command line>", 0, 0, "--replicas"},
                "expected a whole number >= 0, got " + std::to_string(*given.replicas));
  Reader r(*doc, source.name, diags);
  // The pod-carrying objects in file order: a document, or an item of a List.
  struct Item {
    std::size_t document;  // in the stream
    std::int64_t index;    // in its List's items, -1 for a document
    ValueId value;
    std::string_view kind;
  };
  std::vector<Item> manifests;
  std::vector<Item> pod_group_items;                  // PodGroup objects (SPEC §17)
  std::vector<Item> class_items;                      // PriorityClass objects
  std::map<std::string, std::int64_t> skipped_kinds;  // kind -> objects skipped
  std::vector<std::string> skipped_order;             // kinds in the order first met
  std::int64_t skipped = 0;
  auto skip = [&](std::string_view k) {
    ++skipped;
    auto [it, fresh] = skipped_kinds.emplace(std::string(k), 0);
    if (fresh) skipped_order.emplace_back(k);
    ++it->second;
  };
  auto collect = [&](const Item& item) {
    if (is_pod_kind(item.kind))
      manifests.push_back(item);
    else if (item.kind == "PodGroup")
      pod_group_items.push_back(item);
    else if (item.kind == "PriorityClass")
      class_items.push_back(item);
    else
      skip(item.kind);
  };
  // In a stream of several documents, paths begin with the document's
  // place in it, counting every document from 0: documents[1].spec.replicas.
  const bool several = std::count_if(documents.begin(), documents.end(), [&](ValueId d) {
                         return (*doc)[d].kind != ValueKind::Null;
                       }) > 1;
  const FieldPath root, stream = root.child("documents");
  // Calls f with the path of a collected object (paths live on this stack).
  auto with_path = [&](const Item& m, auto&& f) {
    const FieldPath in_stream = several ? stream.at(static_cast<std::int64_t>(m.document)) : root;
    const FieldPath items_path = in_stream.child("items"), item = items_path.at(m.index);
    return f(m.index >= 0 ? item : in_stream);
  };
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
      collect({di, -1, d, k});
      continue;
    }
    // A typed list (PodList, DeploymentList) gives its items its kind.
    const std::string_view typed = k == "List" ? std::string_view() : k.substr(0, k.size() - 4);
    Picked<kKubeListFields> f;  // its kind is is_manifest's
    pick(r, at, d, f, {"items"});
    const ValueId items = f["items"];
    const FieldPath items_path = at.child("items");
    if (items == kNoValue || !r.is_array(items_path, items)) continue;
    for (std::uint32_t i = 0; i < doc->size(items); ++i) {
      const ValueId item = doc->element(items, i);
      const FieldPath item_path = items_path.at(i);
      Picked<kKubeManifestFields> g;
      if (!pick(r, item_path, item, g, {"kind", "metadata"})) continue;
      const ValueId item_kind = g["kind"];
      std::string_view ik = item_kind != kNoValue ? text_of(*doc, item_kind) : typed;
      if (ik.empty()) {
        Picked<kKubeMetadataFields> meta;
        pick(r, item_path.child("metadata"), g["metadata"], meta, {"name"});
        const std::string_view n = text_of(*doc, meta["name"]);
        r.error(item_path, item,
                (n.empty() ? std::string("the item") : quoted(n)) +
                    " has no kind; a List's items each need one (or use a typed list such as "
                    "DeploymentList)");
        continue;
      }
      collect({di, i, item, ik});
    }
  }
  // The stream's PriorityClass objects name classes for its workloads, as
  // kubectl apply would create them first.
  KubernetesOptions options = given;
  if (!class_items.empty()) {
    StreamClasses classes(given.priority_classes);
    for (const Item& c : class_items)
      with_path(c, [&](const FieldPath& at) { classes.add(r, at, c.value); });
    options.priority_classes = classes.classes();
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
  using DaemonSets = KubernetesOptions::DaemonSets;
  const bool daemons_apart = options.daemonsets != DaemonSets::Requests;
  if (options.daemonsets == DaemonSets::Only)  // --daemonsets: nothing but DaemonSets
    manifests.erase(
        std::remove_if(manifests.begin(), manifests.end(),
                       [&](const Item& m) {
                         if (m.kind == "DaemonSet") return false;
                         const FieldPath in_stream =
                             several ? stream.at(static_cast<std::int64_t>(m.document)) : root;
                         r.error(m.index >= 0 ? in_stream.child("items").at(m.index).child("kind")
                                              : in_stream.child("kind"),
                                 m.value,
                                 "expected DaemonSets (kubectl get daemonsets -A -o "
                                 "json), got a " +
                                     std::string(m.kind));
                         return true;
                       }),
        manifests.end());
  RequestSet set;
  set.list = (daemons_apart ? std::count_if(manifests.begin(), manifests.end(),
                                            [](const Item& m) { return m.kind != "DaemonSet"; })
                            : static_cast<std::ptrdiff_t>(manifests.size())) > 1;
  // With several manifests only --strategy applies (to each; SPEC §12 lets
  // it replace score); the other request flags are a usage error as for a
  // requests: list (§8.4), and so is --replicas.
  RequestOverrides per_request = overrides;
  if (set.list) {
    per_request = RequestOverrides{};
    if (const std::string* strategy = overrides.value("--strategy"))
      per_request.set("--strategy", *strategy);
    RequestOverrides rest = overrides;
    rest.reset("--strategy");
    set.overridden = !rest.empty() || options.replicas.has_value();
  }
  if (manifests.empty() && diags.error_count() == errors_before &&
      options.daemonsets != DaemonSets::Only)
    r.error(FieldPath{}, doc->root(),
            "the file holds no object that places pods (" + pod_kinds_text() + ")");
  std::vector<std::string> names;                   // every manifest's name so far
  std::shared_ptr<const NodeNameTable> node_names;  // made for the first DaemonSet
  std::vector<PodGroupMember> group_members;        // parallel to set.requests
  PodSelectorMatch selections(inventory, census);   // the selectors' running pods
  for (std::size_t i = 0; i < manifests.size(); ++i) {
    const ValueId value = manifests[i].value;
    const FieldPath in_stream =
        several ? stream.at(static_cast<std::int64_t>(manifests[i].document)) : root;
    const FieldPath items_path = in_stream.child("items"), item = items_path.at(manifests[i].index);
    const FieldPath& path = manifests[i].index >= 0 ? item : in_stream;
    const std::string_view k = manifests[i].kind;
    check_manifest_fields(r, path, value, k);
    Manifest m = read_manifest(r, path, value, k, options);
    // A Pod manifest counts its own pod by name, not by a selector.
    const std::vector<char>* match = k == "Pod" ? nullptr : selections.matches(m.selector);
    if (std::string why = selections.take_too_large(); !why.empty())
      r.error(path.child("spec").child("selector"), value, why);
    warn_namespace(r, path, value, m, inventory, census, selections, match);
    Request& req = m.request;
    std::string why;
    const std::string prefix = path.str().empty() ? "" : path.str() + ".";
    if (k == "DaemonSet") {
      // One pod per eligible node: count, strategy and node flags do not apply.
      RequestOverrides flags = per_request;
      auto ignore = [&](bool given, std::string_view flag) {
        if (given)
          diags.warning(Origin{source.name, 0, 0, std::string(flag)},
                        excerpt(req.name) + ": " + std::string(flag) +
                            " does not apply to a DaemonSet (one pod on every eligible node); "
                            "ignored");
      };
      ignore(flags.given("--count"), "--count");
      // --daemonsets' DaemonSets (Only) are no request: -r's flags are not theirs.
      ignore(options.replicas.has_value() && !set.list && options.daemonsets != DaemonSets::Only,
             "--replicas");
      ignore(flags.given("--strategy"), "--strategy");
      ignore(flags.given("--nodes-limit"), "--nodes-limit");
      ignore(flags.given("--label") || flags.given("--node") || flags.given("--exclude"),
             "the node filter flags");
      for (const char* flag :
           {"--count", "--strategy", "--nodes-limit", "--label", "--node", "--exclude"})
        flags.reset(flag);
      const DaemonPlacement targets = daemon_targets(m, inventory, &selections, match);
      req.count = 1;
      finish_request(req, flags, false, source.name, prefix, diags);
      daemon_request(req, targets, inventory, node_names);
    } else {
      if (per_request.given("--count") && options.replicas)
        diags.warning(
            Origin{"<command line>", 0, 0, "--replicas"},
            excerpt(req.name) + ": --count gives the new pods itself; --replicas ignored");
      req.count =
          new_instances(m, count_running(m, inventory, census, selections, match), options, why);
      const std::string subject = req.name;  // as the manifest names it
      // The flags apply and §3's checks run even after errors: every problem at once.
      const bool satisfied = req.count == 0 && !per_request.given("--count");
      finish_request(req, per_request, count_required && !satisfied, source.name, prefix, diags);
      if (satisfied && !per_request.given("--count")) req.satisfied = NamedReason(subject, why);
    }
    // Every problem at once: a name is checked even when the manifest has
    // other errors, against every earlier manifest's.
    // kubectl get daemonsets -A names them per namespace.
    const std::string unique =
        options.daemonsets == DaemonSets::Only ? m.ns + "/" + req.name : req.name;
    if (!req.name.empty() && std::find(names.begin(), names.end(), unique) != names.end())
      r.error(path.child("metadata").child("name"), value,
              "two manifests are named " + quoted(unique) + "; give each a unique name");
    if (!req.name.empty()) names.push_back(unique);
    if (req.daemon && daemons_apart) {  // run on grow's added nodes, not planned
      set.daemons.push_back(std::move(req));
      continue;
    }
    if (inventory != nullptr && k != "Pod")
      req.existing_delta = existing_delta(m, *inventory, options, selections, match);
    // Every manifest comes back as read even with errors, as for a
    // requests: list: the checks against the inventory then report its
    // other problems too. The caller sees the errors in diags.
    set.requests.push_back(std::move(req));
    set.indexes.push_back(static_cast<std::uint32_t>(i));
    group_members.push_back({m.ns, std::move(m.group)});
  }
  if (options.daemonsets == DaemonSets::Apart && set.requests.empty() && !set.daemons.empty())
    r.error(FieldPath{}, doc->root(),
            "the file holds only DaemonSets; grow runs them on the nodes it adds and needs one "
            "other workload to grow for (a Deployment, StatefulSet, ...)");
  // Pod groups: PodGroup objects and the members' labels (SPEC §17).
  std::vector<PodGroupObject> pod_groups;
  for (const Item& g : pod_group_items) {
    if (auto o = with_path(g, [&](const FieldPath& at) { return read_pod_group(r, at, g.value); }))
      pod_groups.push_back(std::move(*o));
  }
  std::vector<RunningLabels> running;
  if (inventory)
    for (const RunningPod& p : inventory->pods) running.push_back({&p.ns, &p.labels});
  if (census)
    for (const PodCensus::Pod& p : census->elsewhere) running.push_back({&p.ns, &p.labels});
  apply_pod_groups(set.requests, group_members, pod_groups, running);
  if (diags.error_count() > errors_before && set.requests.empty()) return std::nullopt;
  return set;
}

void warn_replicas_unused(const KubernetesOptions& options, Diagnostics& diags) {
  if (options.replicas)
    diags.warning(Origin{"<command line>", 0, 0, "--replicas"},
                  "applies to a Kubernetes workload's pods, and the request is none; ignored "
                  "(use --count for the instances to deploy)");
}

}  // namespace eruplan
