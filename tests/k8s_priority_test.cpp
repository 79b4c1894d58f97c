// Priorities of Kubernetes inputs (priorityClassName through
// --priority-classes, the built-in system classes, globalDefault) and the
// strict reading of manifests (API field names, "did you mean").
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "kubernetes.h"
#include "pipeline.h"
#include "priority_classes.h"

using namespace eruplan;

namespace {

const char* kClasses = R"({"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "high"},
   "value": 1000, "description": "what matters"},
  {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "batch"},
   "value": -5, "globalDefault": true, "preemptionPolicy": "Never"},
  {"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass", "metadata": {"name": "low-default"},
   "value": -10, "globalDefault": true}]})";

const char* kNodes = R"({"kind": "NodeList", "apiVersion": "v1", "items": [
  {"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}}}]})";

std::string deployment(const std::string& name, const std::string& pod_spec_extra,
                       const std::string& cpu = "500m") {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + name +
         "}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: " + name +
         "}}\n  template:\n    metadata: {labels: {app: " + name + "}}\n    spec:\n" +
         pod_spec_extra +
         "      containers:\n      - name: c\n        resources: {requests: {cpu: " + cpu + "}}\n";
}

struct Read {
  Diagnostics diags;
  std::optional<RequestSet> set;
};

Read read(const std::string& manifests, bool with_classes = true) {
  Read out;
  KubernetesOptions options;
  if (with_classes) {
    auto classes = load_priority_classes(Source{"classes.json", kClasses}, out.diags);
    REQUIRE(classes);
    options.priority_classes = std::make_shared<const PriorityClasses>(std::move(*classes));
  }
  auto inv = load_nodes(Source{"nodes.json", kNodes}, NodesFormat::Auto, out.diags);
  REQUIRE(inv);
  bool matched = false;
  out.set = load_kubernetes_requests(Source{"app.yaml", manifests}, {}, options, true, out.diags,
                                     matched, &*inv, nullptr);
  CHECK(matched);
  return out;
}

}  // namespace

TEST_CASE("priority classes: read from a List, a stream or one object; built-ins; defaults") {
  Diagnostics diags;
  auto classes = load_priority_classes(Source{"classes.json", kClasses}, diags);
  REQUIRE(classes);
  CHECK(diags.items().empty());
  REQUIRE(classes->classes.size() == 3);
  CHECK(classes->find("high")->value == 1000);
  CHECK(classes->find("system-node-critical")->value == 2000001000);
  CHECK(classes->find("system-cluster-critical")->value == 2000000000);
  CHECK(classes->find("nope") == nullptr);
  // Two classes claim globalDefault: the lowest value wins, as admission takes it.
  REQUIRE(classes->global_default() != nullptr);
  CHECK(classes->global_default()->name == "low-default");

  const std::string stream =
      "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: a}\nvalue: 7\n---\n"
      "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: "
      "system-node-critical}\nvalue: 5\n";
  auto s = load_priority_classes(Source{"s.yaml", stream}, diags);
  REQUIRE(s);
  CHECK(s->find("a")->value == 7);
  CHECK(s->find("system-node-critical")->value == 5);  // the file's class replaces the built-in

  Diagnostics bad;
  CHECK_FALSE(load_priority_classes(
      Source{
          "b.yaml",
          "kind: List\nitems:\n- {kind: PriorityClass, metadata: {name: x}}\n"
          "- {kind: Pod, metadata: {name: y}, value: 1}\n"
          "- {kind: PriorityClass, metadata: {name: z}, value: 1, preemptionPolicy: Sometimes}\n"},
      bad));
  const std::string text = bad.to_string();
  CHECK(text.find("b.yaml:3:3: error: items[0].value: value is required") != std::string::npos);
  CHECK(text.find("items[1].kind: expected a PriorityClass") != std::string::npos);
  CHECK(text.find("items[2].preemptionPolicy: expected PreemptLowerPriority or Never") !=
        std::string::npos);
}

TEST_CASE("priority classes: a manifest's priority is its class's, else the default class's") {
  Read r = read(deployment("api", "      priorityClassName: high\n") + "---\n" +
                deployment("agent", "      priorityClassName: system-node-critical\n") + "---\n" +
                deployment("plain", ""));
  CHECK_FALSE(r.diags.has_errors());
  REQUIRE(r.set);
  REQUIRE(r.set->requests.size() == 3);
  CHECK(r.set->requests[0].priority == 1000);
  CHECK(r.set->requests[0].pod->priority == 1000);
  CHECK_FALSE(r.set->requests[0].pod->preempt_never);
  CHECK(r.set->requests[1].priority == 2000001000);
  CHECK(r.set->requests[2].priority == -10);  // the globalDefault class (the lowest of two)
  CHECK_FALSE(r.set->requests[2].pod->preempt_never);

  // Without --priority-classes: the built-ins, and 0 for no class.
  Read plain = read(deployment("agent", "      priorityClassName: system-cluster-critical\n") +
                        "---\n" + deployment("plain", ""),
                    false);
  CHECK_FALSE(plain.diags.has_errors());
  CHECK(plain.set->requests[0].priority == 2000000000);
  CHECK(plain.set->requests[1].priority == 0);
}

TEST_CASE("priority classes: the class's preemptionPolicy applies unless the pod's own says") {
  Read r = read(deployment("a", "      priorityClassName: batch\n") + "---\n" +
                deployment("b",
                           "      priorityClassName: batch\n"
                           "      preemptionPolicy: PreemptLowerPriority\n"));
  CHECK_FALSE(r.diags.has_errors());
  CHECK(r.set->requests[0].priority == -5);
  CHECK(r.set->requests[0].pod->preempt_never);
  CHECK_FALSE(r.set->requests[1].pod->preempt_never);
}

TEST_CASE("priority classes: an unknown class is exit 3 with file, line:col, path, nearest name") {
  Read r = read(deployment("api", "      priorityClassName: hihg\n"));
  CHECK(r.diags.to_string() ==
        "app.yaml:10:26: error: spec.template.spec.priorityClassName: unknown priority class "
        "\"hihg\"; classes.json does not define it and it is not built in; did you mean high?\n");
  Read none = read(deployment("api", "      priorityClassName: high\n"), false);
  CHECK(none.diags.to_string().find("unknown priority class \"high\"; give its class with "
                                    "--priority-classes FILE") != std::string::npos);
}

TEST_CASE("priority classes: PriorityClass objects in the -r stream, with or without a file") {
  const std::string urgent =
      "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: urgent}\n"
      "value: 7000\npreemptionPolicy: Never\n";
  // After the workload that names it, without --priority-classes.
  Read alone = read(deployment("api", "      priorityClassName: urgent\n") + "---\n" + urgent +
                        "---\n" + deployment("plain", ""),
                    false);
  CHECK(alone.diags.to_string() == "");
  REQUIRE(alone.set);
  REQUIRE(alone.set->requests.size() == 2);
  CHECK(alone.set->requests[0].priority == 7000);
  CHECK(alone.set->requests[0].pod->preempt_never);
  CHECK(alone.set->requests[1].priority == 0);
  // Beside a file's classes: both resolve, the file's default still applies.
  Read both =
      read(urgent + "---\n" + deployment("api", "      priorityClassName: urgent\n") + "---\n" +
           deployment("b", "      priorityClassName: high\n") + "---\n" + deployment("plain", ""));
  CHECK_FALSE(both.diags.has_errors());
  CHECK(both.set->requests[0].priority == 7000);
  CHECK(both.set->requests[1].priority == 1000);
  CHECK(both.set->requests[2].priority == -10);
  // The same class again with another value, or twice in the stream.
  Read changed = read(
      "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\n"
      "value: 5\n---\n" +
      deployment("api", ""));
  CHECK(changed.diags.to_string() ==
        "app.yaml:1:1: error: documents[0].metadata.name: priority class \"high\" has value "
        "1000 in classes.json; a class's value and preemption policy cannot change\n");
  Read twice = read(urgent + "---\n" + urgent + "---\n" + deployment("api", ""), false);
  CHECK(twice.diags.to_string() ==
        "app.yaml:7:1: error: documents[1].metadata.name: priority class \"urgent\" is given "
        "twice\n");
}

TEST_CASE("priority classes: running pods without spec.priority take their class's") {
  Diagnostics diags;
  KubernetesOptions options;
  auto classes = load_priority_classes(Source{"classes.json", kClasses}, diags);
  REQUIRE(classes);
  options.priority_classes = std::make_shared<const PriorityClasses>(std::move(*classes));
  std::optional<Inventory> inv = load_nodes(Source{"nodes.json", kNodes}, NodesFormat::Auto, diags);
  const std::string pods = R"({"kind": "PodList", "apiVersion": "v1", "items": [
    {"metadata": {"name": "a", "namespace": "x"}, "spec": {"nodeName": "n1", "priority": 3, "priorityClassName": "high", "containers": []}},
    {"metadata": {"name": "b", "namespace": "x"}, "spec": {"nodeName": "n1", "priorityClassName": "high", "containers": []}},
    {"metadata": {"name": "c", "namespace": "x"}, "spec": {"nodeName": "n1", "containers": []}}]})";
  load_pods(inv, Source{"pods.json", pods}, options, diags);
  REQUIRE(inv);
  REQUIRE(inv->pods.size() == 3);
  CHECK(inv->pods[0].priority == 3);     // spec.priority, as admission wrote it
  CHECK(inv->pods[1].priority == 1000);  // its class
  CHECK(inv->pods[2].priority == -10);   // the default class
}

TEST_CASE("priority classes: the higher priority is planned first (several requests)") {
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{"nodes.json", kNodes};
  // Room for one of the two 1.5-core pods; the later, higher one gets it.
  o.request =
      Source{"app.yaml", deployment("first", "", "1500m") + "---\n" +
                             deployment("urgent", "      priorityClassName: high\n", "1500m")};
  o.priority_classes = Source{"classes.json", kClasses};
  o.strict = true;
  const RunResult r = run(o);
  CHECK(r.exit == ExitCode::Infeasible);
  REQUIRE(r.requests.size() == 2);
  CHECK(r.requests[0].status == RequestStatus::Rejected);
  CHECK(r.requests[1].status == RequestStatus::Placed);
}

TEST_CASE("strict manifests: a field the API does not define is an unknown field") {
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{"nodes.json", kNodes};
  o.strict = true;
  const std::string misspelt =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  replica: 2\n"
      "  template:\n    metadata: {labels: {app: api}}\n    spec:\n      containers:\n"
      "      - name: c\n        resource: {requests: {cpu: 100m}}\n"
      "        resources: {request: {cpu: 100m}}\n";
  o.request = Source{"app.yaml", misspelt};
  RunResult r = run(o);
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(r.err.find("app.yaml:5:3: error: spec.replica: unknown field; did you mean replicas?") !=
        std::string::npos);
  CHECK(r.err.find("app.yaml:11:9: error: spec.template.spec.containers[0].resource: unknown "
                   "field; did you mean resources?") != std::string::npos);
  CHECK(r.err.find("spec.template.spec.containers[0].resources.request: unknown field; did you "
                   "mean requests?") != std::string::npos);
  o.strict = false;  // --lenient: warnings, and the plan
  r = run(o);
  CHECK(r.exit == ExitCode::Ok);
  CHECK(r.err.find("warning: spec.replica: unknown field, ignored; did you mean replicas?") !=
        std::string::npos);
}

TEST_CASE("strict manifests: every field the API defines stays silent") {
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{"nodes.json", kNodes};
  o.strict = true;
  // A chart-like Deployment, a Job in a CronJob and a StatefulSet with
  // many of their types' fields.
  o.request = Source{"app.yaml", R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: shop
  labels: {app: api}
  annotations: {deployment.kubernetes.io/revision: "3"}
  uid: 1b2c
  resourceVersion: "42"
  generation: 3
  creationTimestamp: "2026-01-01T00:00:00Z"
  managedFields: []
spec:
  replicas: 1
  revisionHistoryLimit: 10
  progressDeadlineSeconds: 600
  minReadySeconds: 5
  paused: false
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}
  selector: {matchLabels: {app: api}}
  template:
    metadata:
      labels: {app: api}
      annotations: {checksum/config: abc}
      creationTimestamp: null
    spec:
      serviceAccountName: api
      automountServiceAccountToken: false
      securityContext: {runAsNonRoot: true, fsGroup: 1000}
      terminationGracePeriodSeconds: 30
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      enableServiceLinks: false
      imagePullSecrets: [{name: registry}]
      volumes: [{name: tmp, emptyDir: {}}]
      tolerations: [{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 30}]
      initContainers:
      - name: migrate
        image: api:1
        command: [migrate]
        resources: {requests: {cpu: 100m}, limits: {cpu: 200m}}
      containers:
      - name: api
        image: api:1
        imagePullPolicy: IfNotPresent
        args: [--port=8080]
        env: [{name: A, value: b}]
        envFrom: [{configMapRef: {name: api}}]
        ports: [{name: http, containerPort: 8080, protocol: TCP}]
        livenessProbe: {httpGet: {path: /healthz, port: http}}
        readinessProbe: {httpGet: {path: /ready, port: http}}
        startupProbe: {tcpSocket: {port: 8080}}
        lifecycle: {preStop: {exec: {command: [sleep, "5"]}}}
        securityContext: {allowPrivilegeEscalation: false}
        volumeMounts: [{name: tmp, mountPath: /tmp}]
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
        resizePolicy: [{resourceName: cpu, restartPolicy: NotRequired}]
        resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {memory: 128Mi}}
status: {}
)"};
  const RunResult r = run(o);
  CHECK(r.exit == ExitCode::Ok);
  CHECK(r.err.find("unknown field") == std::string::npos);
}
