// Kubernetes objects as operators have them: mixed streams, typed lists,
// workload counts against running pods, the pods eruplan knows one by one,
// nodes without allocatable.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "kubernetes.h"
#include "pipeline.h"

using namespace eruplan;

namespace {

const char* kNodes = R"({"kind": "NodeList", "apiVersion": "v1", "items": [
  {"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}},
  {"metadata": {"name": "n2"}, "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}]})";

// A pod (JSON) of namespace ns on `node` with labels and phase.
std::string pod(const std::string& name, const std::string& ns, const std::string& node,
                const std::string& labels, const std::string& phase = "Running",
                const std::string& containers =
                    "[{\"resources\": {\"requests\": {\"cpu\": "
                    "\"250m\", \"memory\": \"1Gi\"}}}]") {
  return R"({"metadata": {"name": ")" + name + R"(", "namespace": ")" + ns + R"(", "labels": )" +
         labels + R"(}, "spec": {"nodeName": ")" + node + R"(", "priority": 7, "containers": )" +
         containers + R"(}, "status": {"phase": ")" + phase +
         R"(", "startTime": "2026-01-02T03:04:05Z"}})";
}

std::string pod_list(const std::vector<std::string>& pods) {
  std::string out = R"({"kind": "PodList", "apiVersion": "v1", "items": [)";
  for (std::size_t i = 0; i < pods.size(); ++i) out += (i ? "," : "") + pods[i];
  return out + "]}";
}

struct Loaded {
  std::optional<Inventory> inventory;
  PodCensus census;
  std::optional<RequestSet> set;
  Diagnostics diags;
};

Loaded load(const std::string& pods, const std::string& manifest,
            const KubernetesOptions& options = {}) {
  Loaded l;
  l.inventory = load_nodes(Source{"nodes.json", kNodes}, NodesFormat::Auto, l.diags);
  REQUIRE(l.inventory);
  load_pods(l.inventory, Source{"pods.json", pods}, options, l.diags, &l.census);
  bool matched = false;
  l.set = load_kubernetes_requests(Source{"app.yaml", manifest}, {}, options, true, l.diags,
                                   matched, l.inventory ? &*l.inventory : nullptr, &l.census);
  CHECK(matched);
  return l;
}

const std::string kWebPods = pod_list({
    pod("web-1", "shop", "n1", R"({"app": "web", "tier": "front"})"),
    pod("web-2", "shop", "n2", R"({"app": "web", "tier": "front"})"),
    pod("web-3", "shop", "gone", R"({"app": "web"})"),             // not in the list: counts
    pod("web-4", "other", "n1", R"({"app": "web"})"),              // another namespace
    pod("web-5", "shop", "n1", R"({"app": "web"})", "Succeeded"),  // finished
    pod("web-6", "shop", "", R"({"app": "web"})", "Pending"),      // not bound
    pod("api-1", "shop", "n1", R"({"app": "api"})"),
});

std::string deployment(const std::string& replicas, const std::string& selector) {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n"
         "  replicas: " +
         replicas + "\n" + selector +
         "  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: "
         "[{resources: {requests: {cpu: 100m}}}]\n";
}

}  // namespace

TEST_CASE("k8s objects: replicas is the desired total, running pods matched by the selector") {
  // Bound, not finished, namespace shop, app=web: web-1, web-2, web-3.
  Loaded l = load(kWebPods, deployment("5", "  selector: {matchLabels: {app: web}}\n"));
  INFO(l.diags.to_string());
  REQUIRE(l.set);
  REQUIRE(l.set->requests.size() == 1);
  CHECK(l.set->requests[0].count == 2);
  CHECK(l.set->requests[0].satisfied.empty());
  REQUIRE(l.set->requests[0].pod);
  CHECK(l.set->requests[0].pod->ns == "shop");
  CHECK(l.set->requests[0].pod->owner_selector.has_value());

  // matchExpressions: NotIn matches pods without the key (web-3).
  l = load(kWebPods, deployment("5",
                                "  selector:\n    matchLabels: {app: web}\n    matchExpressions: "
                                "[{key: tier, operator: NotIn, values: [back]}]\n"));
  CHECK(l.set->requests[0].count == 2);
  // Exists: only web-1 and web-2 carry tier.
  l = load(kWebPods, deployment("5",
                                "  selector:\n    matchExpressions: [{key: tier, operator: "
                                "Exists}]\n"));
  CHECK(l.set->requests[0].count == 3);
  // No selector: the template's labels (app=web).
  l = load(kWebPods, deployment("4", ""));
  CHECK(l.set->requests[0].count == 1);
  // 3 of 3: satisfied, with the reason.
  l = load(kWebPods, deployment("3", ""));
  CHECK(l.set->requests[0].count == 0);
  CHECK(l.set->requests[0].satisfied ==
        NamedReason("web", "3 of 3 replicas running, nothing to place"));
  CHECK(l.set->requests[0].satisfied.full() == "web: 3 of 3 replicas running, nothing to place");
  // --replicas replaces spec.replicas.
  KubernetesOptions o;
  o.replicas = 10;
  l = load(kWebPods, deployment("3", ""), o);
  CHECK(l.set->requests[0].count == 7);
  // A ReplicationController's selector is a plain map.
  l = load(kWebPods,
           "apiVersion: v1\nkind: ReplicationController\nmetadata: {name: web, namespace: shop}\n"
           "spec:\n  replicas: 4\n  selector: {app: web, tier: front}\n  template:\n    spec: "
           "{containers: []}\n");
  INFO(l.diags.to_string());
  CHECK(l.set->requests[0].count == 2);
  // A selector its own template's labels do not match (a label typo; the
  // API refuses the object): a warning where the labels are, naming the
  // requirement and what the template has; the plan goes on.
  l = load(kWebPods, deployment("5", "  selector: {matchLabels: {app: wbe}}\n"));
  CHECK_FALSE(l.diags.has_errors());
  CHECK(l.diags.to_string().find(
            "\napp.yaml:8:24: warning: spec.template.metadata.labels: the selector does not "
            "match the template's labels (Kubernetes refuses such an object): it asks app=wbe, "
            "the template has app=web\n") != std::string::npos);
  l = load(kWebPods, deployment("5",
                                "  selector:\n    matchExpressions: [{key: tier, operator: In, "
                                "values: [front, back]}]\n"));
  CHECK(l.diags.to_string().find("it asks tier In [front, back], the template has no label "
                                 "tier\n") != std::string::npos);
  CHECK(l.set->requests[0].count == 3);  // web-1 and web-2 run
  // A bad operator is an error at its place.
  l = load(kWebPods, deployment("3",
                                "  selector:\n    matchExpressions: [{key: tier, operator: "
                                "Maybe}]\n"));
  CHECK(l.diags.has_errors());
  CHECK(l.diags.to_string().find("spec.selector.matchExpressions[0].operator") !=
        std::string::npos);
}

TEST_CASE("k8s objects: --namespace places manifests that name none, as kubectl apply -n") {
  // No metadata.namespace: counted in default, where no web pod runs (5 new),
  // with a warning naming where its selector's pods are.
  const std::string web =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 5\n"
      "  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
      "    spec:\n      containers: [{resources: {requests: {cpu: 100m}}}]\n";
  Loaded l = load(kWebPods, web);
  REQUIRE(l.set);
  CHECK(l.set->requests[0].count == 5);
  CHECK(l.diags.to_string().find("web: no metadata.namespace, so its running pods are counted in "
                                 "default, which has none of its selector's; it matches 1 in "
                                 "other, 3 in shop (give --namespace NS") != std::string::npos);
  // --namespace shop: web-1, web-2 and web-3 (on a node not in the list) run.
  KubernetesOptions shop;
  shop.manifest_namespace = "shop";
  l = load(kWebPods, web, shop);
  REQUIRE(l.set);
  CHECK(l.set->requests[0].count == 2);
  CHECK(l.set->requests[0].pod->ns == "shop");
  CHECK(l.diags.to_string().find("no metadata.namespace") == std::string::npos);
  // The object's own namespace wins over --namespace.
  KubernetesOptions other;
  other.manifest_namespace = "other";
  l = load(kWebPods, deployment("5", "  selector: {matchLabels: {app: web}}\n"), other);
  REQUIRE(l.set);
  CHECK(l.set->requests[0].count == 2);
}

TEST_CASE("k8s objects: a workload's existing instances per node are its own pods") {
  // n1 runs shop/web-1 (the Deployment's) and other/web-4 (app web too,
  // another namespace); n2 runs shop/web-2. The app label counts 2 and 1.
  Loaded l = load(kWebPods, deployment("5", "  selector: {matchLabels: {app: web}}\n"));
  INFO(l.diags.to_string());
  REQUIRE(l.set);
  const Request& req = l.set->requests[0];
  REQUIRE(req.existing_delta);
  REQUIRE(req.existing_delta->size() == 2);
  CHECK((*req.existing_delta)[0] == -1);
  CHECK((*req.existing_delta)[1] == 0);
  CHECK(l.inventory->nodes[0].instances_of("web") == 2);
  CHECK(existing_instances(l.inventory->nodes[0], 0, req) == 1);
  CHECK(existing_instances(l.inventory->nodes[1], 1, req) == 1);
  // A node past the list (grow's added ones) has no correction.
  CHECK(existing_instances(l.inventory->nodes[1], 7, req) == 1);

  // Only tier=front: web-1 and web-2; no pod counted under web is left out
  // on n2, web-4 still is on n1.
  l = load(kWebPods, deployment("5", "  selector: {matchLabels: {app: web, tier: front}}\n"));
  REQUIRE(l.set);
  REQUIRE(l.set->requests[0].existing_delta);
  CHECK(existing_instances(l.inventory->nodes[0], 0, l.set->requests[0]) == 1);
  CHECK(existing_instances(l.inventory->nodes[1], 1, l.set->requests[0]) == 1);

  // Pods and app label agree: no correction at all.
  const std::string same = pod_list({pod("web-1", "shop", "n1", R"({"app": "web"})")});
  l = load(same, deployment("5", "  selector: {matchLabels: {app: web}}\n"));
  REQUIRE(l.set);
  CHECK_FALSE(l.set->requests[0].existing_delta);
}

TEST_CASE("k8s objects: Jobs, CronJobs and Pods count what already ran") {
  const std::string pods = pod_list({
      pod("j-1", "b", "n1", R"({"job-name": "j"})", "Succeeded"),
      pod("j-2", "b", "n1", R"({"job-name": "j"})", "Succeeded"),
      pod("j-3", "b", "n2", R"({"job-name": "j"})"),
      pod("solo", "b", "n2", "{}"),
  });
  auto job = [&](const std::string& spec) {
    return "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: b}\nspec:\n" + spec +
           "  template:\n    metadata: {labels: {job-name: j}}\n    spec: {containers: []}\n";
  };
  // min(parallelism 4, completions 5 - 2 succeeded) - 1 running = 2.
  Loaded l = load(pods, job("  parallelism: 4\n  completions: 5\n"));
  INFO(l.diags.to_string());
  CHECK(l.set->requests[0].count == 2);
  // completions 3 - 2 succeeded = 1, and 1 runs: satisfied.
  l = load(pods, job("  parallelism: 4\n  completions: 3\n"));
  CHECK(l.set->requests[0].count == 0);
  CHECK_FALSE(l.set->requests[0].satisfied.empty());
  // Without completions: 0 once any pod succeeded.
  l = load(pods, job("  parallelism: 4\n"));
  CHECK(l.set->requests[0].count == 0);
  // A CronJob: its job template's parallelism, earlier runs ignored.
  l = load(pods,
           "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: j, namespace: b}\nspec:\n  "
           "schedule: '* * * * *'\n  jobTemplate:\n    spec:\n      parallelism: 3\n      "
           "template:\n        metadata: {labels: {job-name: j}}\n        spec: {containers: "
           "[]}\n");
  CHECK(l.set->requests[0].count == 3);
  // A Pod already bound is 0; another name is 1.
  l = load(pods, "apiVersion: v1\nkind: Pod\nmetadata: {name: solo, namespace: b}\nspec: {}\n");
  CHECK(l.set->requests[0].count == 0);
  l = load(pods, "apiVersion: v1\nkind: Pod\nmetadata: {generateName: solo-}\nspec: {}\n");
  CHECK(l.set->requests[0].count == 1);
  CHECK(l.set->requests[0].name == "solo-");
}

TEST_CASE("k8s objects: --replicas is a Job's parallelism; a suspended Job places nothing") {
  const std::string pods = pod_list({
      pod("j-1", "b", "n1", R"({"job-name": "j"})", "Succeeded"),
      pod("j-2", "b", "n2", R"({"job-name": "j"})"),
  });
  auto job = [&](const std::string& spec) {
    return "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: b}\nspec:\n" + spec +
           "  template:\n    metadata: {labels: {job-name: j}}\n    spec: {containers: []}\n";
  };
  auto cron = [&](const std::string& spec, const std::string& job_spec) {
    return "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: j, namespace: b}\nspec:\n"
           "  schedule: '* * * * *'\n" +
           spec + "  jobTemplate:\n    spec:\n" + job_spec +
           "      template:\n        metadata: {labels: {job-name: j}}\n        spec: "
           "{containers: []}\n";
  };
  KubernetesOptions replicas;
  replicas.replicas = 6;
  // kubectl scale job set parallelism: min(6, completions 5 - 1 succeeded) - 1 running = 3.
  Loaded l = load(pods, job("  parallelism: 2\n  completions: 5\n"), replicas);
  INFO(l.diags.to_string());
  CHECK(l.set->requests[0].count == 3);
  // A CronJob's run: --replicas pods at once, whatever its template says.
  l = load(pods, cron("", "      parallelism: 2\n"), replicas);
  CHECK(l.set->requests[0].count == 6);
  // Suspended (the Job's, the CronJob's or its job template's spec.suspend):
  // the Job controller creates no pod, --replicas or not.
  const std::string suspended_job = job("  suspend: true\n  parallelism: 2\n  completions: 5\n");
  for (const KubernetesOptions& options : {KubernetesOptions{}, replicas}) {
    l = load(pods, suspended_job, options);
    CHECK(l.diags.error_count() == 0);
    CHECK(l.set->requests[0].count == 0);
    CHECK(l.set->requests[0].satisfied ==
          NamedReason("j", "suspended (spec.suspend: true), no pods until resumed"));
    l = load(pods, cron("  suspend: true\n", "      parallelism: 2\n"), options);
    CHECK(l.set->requests[0].count == 0);
    CHECK(l.set->requests[0].satisfied ==
          NamedReason("j", "suspended (spec.suspend: true), no pods until resumed"));
    l = load(pods, cron("", "      suspend: true\n"), options);
    CHECK(l.set->requests[0].count == 0);
    CHECK(
        l.set->requests[0].satisfied ==
        NamedReason("j", "suspended (spec.jobTemplate.spec.suspend: true), no pods until resumed"));
  }
  // suspend: false is a running Job.
  l = load(pods, job("  suspend: false\n  parallelism: 2\n  completions: 5\n"));
  CHECK(l.set->requests[0].count == 1);
  CHECK(l.set->requests[0].satisfied.empty());
  // Not a boolean: exit 3 with its path.
  l = load(pods, job("  suspend: yes please\n"));
  CHECK(l.diags.to_string().find("spec.suspend") != std::string::npos);
  CHECK(l.diags.error_count() == 1);
}

TEST_CASE("k8s objects: a container resource without a domain must be a standard one") {
  auto deployment = [](const std::string& requests) {
    return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n"
           "    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - name: web\n"
           "        resources: {requests: {" +
           requests + "}}\n";
  };
  auto read = [&](const std::string& requests, bool strict, Diagnostics& diags) {
    diags.set_strict(strict);
    bool matched = false;
    return load_kubernetes_requests(Source{"app.yaml", deployment(requests)}, {}, {}, true, diags,
                                    matched, nullptr, nullptr);
  };
  // memroy was an extended resource no node has: "Insufficient memroy", exit 4.
  Diagnostics strict;
  read("cpu: 100m, memroy: 128Mi", true, strict);
  CHECK(strict.error_count() == 1);
  CHECK(strict.to_string() ==
        "app.yaml:10:43: error: spec.template.spec.containers[0].resources.requests.memroy: "
        "unknown resource (a container's are cpu, memory, ephemeral-storage, hugepages-SIZE or a "
        "name with a domain such as nvidia.com/gpu); did you mean memory?\n");
  // Names with a domain are extended resources.
  Diagnostics fine;
  auto set = read("cpu: 1, example.com/foo: 2, nvidia.com/gpu: 1, memory: 1Gi", true, fine);
  CHECK(fine.error_count() == 0);
  REQUIRE(set);
  CHECK(set->requests[0].extended.size() == 2);
  // --lenient: a warning, and the name is left out of the request.
  Diagnostics lenient;
  set = read("cpu: 1, gpu: 1", false, lenient);
  CHECK(lenient.error_count() == 0);
  REQUIRE(set);
  CHECK(set->requests[0].extended.empty());
  CHECK(lenient.to_string().find("requests.gpu: unknown resource, ignored") != std::string::npos);
  // pods and storage are standard names but not a container's
  // (IsStandardContainerResourceName): the API server refuses the object,
  // so they are errors even under --lenient; before, pods was accepted.
  for (const bool is_strict : {true, false}) {
    Diagnostics refused;
    read("cpu: 1, pods: 1", is_strict, refused);
    CHECK(refused.error_count() == 1);
    CHECK(refused.to_string() ==
          "app.yaml:10:40: error: spec.template.spec.containers[0].resources.requests.pods: "
          "Kubernetes refuses pods in a container's resources (they are cpu, memory, "
          "ephemeral-storage, hugepages-SIZE or names with a domain such as nvidia.com/gpu); the "
          "pods a node takes are its allocatable pods\n");
  }
  Diagnostics storage;
  read("storage: 1Gi", true, storage);
  CHECK(storage.error_count() == 1);
  CHECK(storage.to_string().find("requests.storage: Kubernetes refuses storage in a "
                                 "container's resources") != std::string::npos);
}

TEST_CASE("k8s objects: only ReplicaSet, StatefulSet and RC pods spread by their owner") {
  // kube-scheduler's system default spreading takes its selector from the
  // pod's controlling ReplicaSet, StatefulSet or ReplicationController
  // (pkg/scheduler/framework/plugins/helper/spread.go, DefaultSelector); a
  // Job's, CronJob's or DaemonSet's pods get none from their owner.
  const std::string tmpl =
      "  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: "
      "web}}\n    spec: {containers: []}\n";
  auto object = [&](const std::string& api, const std::string& kind, const std::string& spec) {
    return "apiVersion: " + api + "\nkind: " + kind +
           "\nmetadata: {name: web, namespace: shop}\nspec:\n" + spec;
  };
  for (const char* kind : {"Deployment", "ReplicaSet", "StatefulSet"}) {
    Loaded l = load(kWebPods, object("apps/v1", kind, "  replicas: 5\n" + tmpl));
    INFO(kind << ": " << l.diags.to_string());
    REQUIRE(l.set);
    REQUIRE(l.set->requests[0].pod);
    CHECK(l.set->requests[0].pod->owner_selector.has_value());
  }
  Loaded rc =
      load(kWebPods, object("v1", "ReplicationController",
                            "  replicas: 5\n  selector: {app: web}\n  template:\n    "
                            "metadata: {labels: {app: web}}\n    spec: {containers: []}\n"));
  INFO(rc.diags.to_string());
  REQUIRE(rc.set);
  CHECK(rc.set->requests[0].pod->owner_selector.has_value());
  for (const char* kind : {"Job", "DaemonSet"}) {
    Loaded l =
        load(kWebPods, object(std::string(kind) == "Job" ? "batch/v1" : "apps/v1", kind, tmpl));
    INFO(kind << ": " << l.diags.to_string());
    REQUIRE(l.set);
    REQUIRE(l.set->requests[0].pod);
    CHECK_FALSE(l.set->requests[0].pod->owner_selector.has_value());
  }
  Loaded cron = load(kWebPods, object("batch/v1", "CronJob",
                                      "  schedule: '* * * * *'\n  jobTemplate:\n    spec:\n      "
                                      "template:\n        metadata: {labels: {app: web}}\n        "
                                      "spec: {containers: []}\n"));
  INFO(cron.diags.to_string());
  REQUIRE(cron.set);
  CHECK_FALSE(cron.set->requests[0].pod->owner_selector.has_value());
}

TEST_CASE("k8s objects: streams of any kinds, typed lists, kind-less items") {
  Loaded l = load(pod_list({}),
                  "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\n---\napiVersion: "
                  "v1\nkind: ConfigMap\nmetadata: {name: c}\n---\napiVersion: v1\nkind: "
                  "Service\nmetadata: {name: t}\n---\napiVersion: v1\nkind: Pod\nmetadata: "
                  "{name: p}\nspec: {}\n");
  REQUIRE(l.set);
  CHECK_FALSE(l.set->list);  // one pod-carrying object: one request
  CHECK(l.diags.to_string().find("skipped 3 objects that place no pods: Service \u00d72, "
                                 "ConfigMap \u00d71") != std::string::npos);
  CHECK_FALSE(l.diags.has_errors());

  l = load(
      pod_list({}),
      R"({"apiVersion": "v1", "kind": "PodList", "items": [{"metadata": {"name": "a"}, "spec": {}}, {"metadata": {"name": "b"}, "spec": {}}]})");
  REQUIRE(l.set);
  CHECK(l.set->list);
  CHECK(l.set->requests.size() == 2);

  l = load(
      pod_list({}),
      R"({"apiVersion": "v1", "kind": "List", "items": [{"kind": "Pod", "metadata": {"name": "a"}, "spec": {}}, {"metadata": {"name": "b"}, "spec": {}}]})");
  CHECK(l.diags.has_errors());
  CHECK(l.diags.to_string().find("items[1]: \"b\" has no kind") != std::string::npos);
}

TEST_CASE("k8s objects: --pods fills the inventory's pods with Kubernetes' non-zero requests") {
  Loaded l = load(
      pod_list(
          {pod("a", "ns", "n2", R"({"z": "1", "a": "2"})"),
           pod("b", "", "n1", "{}", "Running",
               R"([{"resources": {"requests": {"cpu": "1"}}}, {"resources": {"limits": {"memory": "1Gi"}}}, {}])"),
           pod("gone", "ns", "n9", "{}")}),
      "apiVersion: v1\nkind: Pod\nmetadata: {name: x}\nspec: {}\n");
  REQUIRE(l.inventory);
  const auto& pods = l.inventory->pods;
  REQUIRE(pods.size() == 2);  // n9 is not in the list
  CHECK(pods[0].node == 1);
  CHECK(pods[0].ns == "ns");
  CHECK(pods[0].name == "a");
  CHECK(pods[0].labels == Labels{{"a", "2"}, {"z", "1"}});
  CHECK(pods[0].priority == 7);
  CHECK(pods[0].cpu == 250'000'000);
  CHECK(pods[0].nonzero_cpu == 250'000'000);
  CHECK(pods[0].memory == (1LL << 30));
  CHECK(pods[0].start_time == "2026-01-02T03:04:05Z");
  // b: cpu 1 + 0 + 0 requested; non-zero 1 + 100m + 100m. memory 0 + 1Gi
  // (its limit) + 0; non-zero 200Mi + 1Gi + 200Mi.
  CHECK(pods[1].node == 0);
  CHECK(pods[1].cpu == 1'000'000'000);
  CHECK(pods[1].nonzero_cpu == 1'200'000'000);
  CHECK(pods[1].memory == (1LL << 30));
  CHECK(pods[1].nonzero_memory == (1LL << 30) + (400LL << 20));
  REQUIRE(l.census.elsewhere.size() == 1);
  CHECK(l.census.elsewhere[0].name == "gone");
}

TEST_CASE("k8s objects: a node without allocatable cpu, memory or pods takes nothing") {
  Diagnostics diags;
  auto inv = load_nodes(Source{"nodes.json", R"({"kind": "NodeList", "apiVersion": "v1", "items": [
    {"metadata": {"name": "bare"}, "status": {}},
    {"metadata": {"name": "half"}, "status": {"allocatable": {"cpu": "4"}}}]})"},
                        NodesFormat::Auto, diags);
  REQUIRE(inv);
  CHECK(inv->nodes[0].max_instances == 0);
  CHECK(inv->nodes[0].memory == 0);
  CHECK(inv->nodes[1].max_instances == 0);
  const std::string text = diags.to_string();
  CHECK(text.find("node \"bare\" has no allocatable cpu, memory, pods (no status.allocatable)") !=
        std::string::npos);
  CHECK(text.find("node \"half\" has no allocatable memory, pods") != std::string::npos);
}

namespace {

// Runs the built binary from the source tree: exit status, stdout + stderr.
std::pair<int, std::string> cli(const std::string& args) {
  const std::string out = std::string(ERUPLAN_BINARY) + ".k8s_objects_test.out";
  const std::string cmd = std::string("cd ") + ERUPLAN_SOURCE_DIR + " && " + ERUPLAN_BINARY + " " +
                          args + " </dev/null >" + out + " 2>&1";
  const int status = std::system(cmd.c_str());
  std::ifstream in(out, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(out.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

}  // namespace

TEST_CASE("k8s objects cli: a DaemonSet's nodeSelector that no node has is warned about") {
  // It said only "no node is eligible for its pods", exit 0; a Deployment's
  // got "did you mean". The DaemonSet's node_filter names its eligible
  // nodes, so its pod's own nodeSelector is checked.
  const std::string dir = std::string(ERUPLAN_BINARY) + ".ds_selector";
  REQUIRE(std::system(("mkdir -p " + dir).c_str()) == 0);
  std::ofstream(dir + "/ds.yaml")
      << "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: ops}\nspec:\n"
         "  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: "
         "agent}}\n    spec:\n      nodeSelector: {kubernetes.io/os: linx}\n      containers: "
         "[{name: a, resources: {requests: {cpu: 10m}}}]\n";
  auto [code, out] = cli("plan -n fixtures/kubernetes/nodes.json -r " + dir + "/ds.yaml");
  CHECK(code == 0);
  CHECK(out.find("ds.yaml:9:21: warning: spec.template.spec.nodeSelector.kubernetes.io/os: no "
                 "node has kubernetes.io/os=linx; did you mean kubernetes.io/os=linux (") !=
        std::string::npos);
  CHECK(out.find("agent: no node is eligible for its pods") != std::string::npos);
  CHECK(std::system(("rm -rf " + dir).c_str()) == 0);
}

TEST_CASE("k8s objects cli: a Succeeded pod in two pod files counts once toward its Job") {
  // A support bundle copied twice (or --pods given a directory and a file
  // of it): the Succeeded pod counted twice made completions 3 - 2 = 1, one
  // new pod where 2 are wanted.
  const std::string dir = std::string(ERUPLAN_BINARY) + ".dup_succeeded";
  REQUIRE(std::system(("mkdir -p " + dir).c_str()) == 0);
  std::ofstream(dir + "/nodes.json") << kNodes;
  const std::string pods =
      pod_list({pod("migrate-x1", "shop", "n1", R"({"job-name": "migrate"})", "Succeeded")});
  std::ofstream(dir + "/a.json") << pods;
  std::ofstream(dir + "/b.json") << pods;
  std::ofstream(dir + "/job.yaml")
      << "apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate, namespace: shop}\nspec:\n"
         "  completions: 3\n  parallelism: 2\n  template:\n    metadata: {labels: {job-name: "
         "migrate}}\n    spec:\n      restartPolicy: Never\n      containers: [{name: m, "
         "resources: {requests: {cpu: 1}}}]\n";
  const std::string plan = "plan -n " + dir + "/nodes.json -r " + dir + "/job.yaml -o json";
  auto [once, one] = cli(plan + " --pods " + dir + "/a.json");
  CHECK(once == 0);
  CHECK(one.find("\"count\": 2,") != std::string::npos);
  auto [twice_code, twice] = cli(plan + " --pods " + dir + "/a.json --pods " + dir + "/b.json");
  CHECK(twice_code == 0);
  CHECK(twice.find("\"count\": 2,") != std::string::npos);
  CHECK(twice.find("pod shop/migrate-x1 appears twice: first in " + dir +
                   "/a.json at items[0], again here (" + dir + "/b.json items[0]); counted once") !=
        std::string::npos);
  CHECK(std::system(("rm -rf " + dir).c_str()) == 0);
}

TEST_CASE("k8s objects cli: --pods directories and repeats, --replicas") {
  const std::string k = "fixtures/kubernetes/";
  const std::string plan = "plan -n " + k + "nodes.json -r " + k + "deployment.yaml -o json";
  // A support bundle's per-namespace pod lists (items without kind) plan as
  // the one pod list does.
  auto [code, one] = cli(plan + " --pods " + k + "pods.json");
  CHECK(code == 0);
  auto [code2, dir] = cli(plan + " --pods " + k + "bundle");
  CHECK(code2 == 0);
  const auto body = [](const std::string& s) { return s.substr(s.find("\n{") + 1); };
  CHECK(body(one) == body(dir));
  CHECK(one.find("\"worker-1\": 3") != std::string::npos);
  // The same pods twice: counted once, with a warning naming both places.
  auto [code3, twice] = cli(plan + " --pods " + k + "bundle --pods " + k + "pods.json");
  CHECK(code3 == 0);
  CHECK(body(twice) == body(one));
  CHECK(twice.find("pod shop/cache-0 appears twice: first in "
                   "fixtures/kubernetes/bundle/shop.json at items[2], again here "
                   "(fixtures/kubernetes/pods.json items[5]); counted once") != std::string::npos);
  // --replicas: the desired total (3 run, so 2 new of 5); 3 is satisfied.
  auto [code4, five] = cli(plan + " --pods " + k + "pods.json --replicas 5");
  CHECK(code4 == 0);
  CHECK(five.find("\"worker-1\": 2") != std::string::npos);
  auto [code5, three] = cli(plan + " --pods " + k + "pods.json --replicas 3");
  CHECK(code5 == 0);
  CHECK(three.find("\"status\": \"satisfied\"") != std::string::npos);
  CHECK(three.find("web: 3 of 3 replicas running, nothing to place") != std::string::npos);
  // A negative desired total is refused as spec.replicas: -1 is (it read
  // "web: 0 of -1 replicas running, nothing to place", exit 0).
  auto [code_neg, negative] = cli(plan + " --pods " + k + "pods.json --replicas -1");
  CHECK(code_neg == 3);
  CHECK(negative.find("<command line>: error: --replicas: expected a whole number >= 0, got -1") !=
        std::string::npos);
  // In a stream, a satisfied request's lines name it once (they read
  // "satisfied: etl: etl: suspended ...").
  auto [code_s, stream] =
      cli("plan -n " + k + "nodes.json --pods " + k + "pods.json -r " + k + "job-suspended.yaml");
  CHECK(code_s == 0);
  CHECK(stream.find("== etl: satisfied, placed 0 (suspended (spec.suspend: true), no pods until "
                    "resumed)\n") != std::string::npos);
  CHECK(stream.find("\nsatisfied: export: suspended (spec.jobTemplate.spec.suspend: true), no "
                    "pods until resumed\n") != std::string::npos);
  CHECK(stream.find("etl: etl:") == std::string::npos);
  // With several pod-carrying objects, --replicas is a usage error.
  const std::string two = std::string(ERUPLAN_BINARY) + ".two.yaml";
  std::ofstream(two) << "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {}\n---\n"
                        "apiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec: {}\n";
  auto [code6, several] = cli("plan -n " + k + "nodes.json -r " + two + " --replicas 2");
  CHECK(code6 == 2);
  std::tie(code6, several) = cli("plan -n " + k + "nodes.json -r " + two);
  CHECK(code6 == 0);
  std::remove(two.c_str());

  // realloc and share read a bundle directory as the one pod list too (they
  // refused a second --pods file: "this command takes one --pods file").
  const std::string realloc =
      "realloc -n " + k + "nodes.json --app web --cpu 0.5 --memory 512Mi -o json";
  auto [code7, one_r] = cli(realloc + " --pods " + k + "pods.json");
  auto [code8, dir_r] = cli(realloc + " --pods " + k + "bundle");
  CHECK(code7 == 0);
  CHECK(code8 == 0);
  CHECK(body(one_r) == body(dir_r));
  CHECK(dir_r.find("\"shop/web-7d9c6b5f4-abcde\"") != std::string::npos);
  CHECK(dir_r.find("takes one --pods file") == std::string::npos);
  const std::string apps = std::string(ERUPLAN_BINARY) + ".share.yaml";
  std::ofstream(apps) << "placement: least_allocated\napps:\n  - {app: web, resources: {cpu: "
                         "0.5, memory: 1Gi}}\n  - {app: cache, resources: {cpu: 1.5, memory: "
                         "4Gi}}\n";
  const std::string share = "share -n " + k + "nodes.json -r " + apps + " -o json";
  auto [code9, one_s] = cli(share + " --pods " + k + "pods.json");
  auto [code10, dir_s] = cli(share + " --pods " + k + "bundle");
  std::remove(apps.c_str());
  CHECK(code9 == 0);
  CHECK(code10 == 0);
  CHECK(body(one_s) == body(dir_s));
  CHECK(dir_s.find("takes one --pods file") == std::string::npos);
}

TEST_CASE("k8s objects: a kind-less Node under --nodes-format kubernetes") {
  const std::string bare =
      R"({"metadata": {"name": "solo"}, "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "10"}}})";
  Diagnostics diags;
  auto inv = load_nodes(Source{"node.json", bare}, NodesFormat::Kubernetes, diags);
  INFO(diags.to_string());
  REQUIRE(inv);
  REQUIRE(inv->nodes.size() == 1);
  CHECK(inv->nodes[0].name == "solo");
  CHECK(inv->nodes[0].max_instances == 10);
  // Without the flag it is no Kubernetes file (an eruplan inventory's errors).
  Diagnostics auto_diags;
  CHECK_FALSE(load_nodes(Source{"node.json", bare}, NodesFormat::Auto, auto_diags));
}
