// What a manifest uses that eruplan does not model is said once, where it is
// written; preferred terms under a strategy other than score are ignored
// with a warning.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "pipeline.h"

using namespace eruplan;

namespace {

const std::string kNodes =
    R"({"kind": "List", "apiVersion": "v1", "items": [{"kind": "Node", "metadata": {"name": "a"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}}]})";

RunResult plan(const std::string& request, std::optional<std::string> strategy = std::nullopt) {
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{"nodes.json", kNodes};
  o.request = Source{"app.yaml", request};
  o.output = OutputFormat::Json;
  if (strategy) o.overrides.set("--strategy", *strategy);
  return run(o);
}

std::string workload(const std::string& kind, const std::string& pod_spec,
                     const std::string& spec_extra = "") {
  return "apiVersion: apps/v1\nkind: " + kind + "\nmetadata: {name: db}\nspec:\n  replicas: 1\n" +
         spec_extra + "  template:\n    metadata: {labels: {app: db}}\n    spec:\n" + pod_spec +
         "      containers:\n      - name: c\n        resources: {requests: {cpu: 100m}}\n";
}

}  // namespace

TEST_CASE("k8s notes: volumes, claims, gates and other schedulers are not modelled") {
  RunResult r = plan(workload("Deployment",
                              "      volumes:\n      - name: data\n        persistentVolumeClaim: "
                              "{claimName: data}\n      - name: more\n        "
                              "persistentVolumeClaim: {claimName: more}\n"));
  CHECK(r.exit == ExitCode::Ok);
  CHECK(r.err.find("spec.template.spec.volumes[0].persistentVolumeClaim: not modelled by "
                   "eruplan: volume binding, volume zones and attach limits are not checked") !=
        std::string::npos);
  CHECK(r.err.find("volumes[1]") == std::string::npos);  // said once

  r = plan(workload("StatefulSet", "",
                    "  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {}\n"));
  CHECK(r.err.find("spec.volumeClaimTemplates: not modelled by eruplan") != std::string::npos);

  r = plan(workload("Deployment", "      schedulingGates: [{name: wait}]\n"));
  CHECK(r.err.find("spec.template.spec.schedulingGates: not modelled by eruplan: the pod is "
                   "planned as if its scheduling gates were removed") != std::string::npos);

  r = plan(workload("Deployment", "      resourceClaims: [{name: gpu}]\n"));
  CHECK(r.err.find("spec.template.spec.resourceClaims: not modelled by eruplan: dynamic "
                   "resource claims are not allocated") != std::string::npos);
  // An empty list claims nothing: no note (it had one).
  r = plan(workload("Deployment", "      resourceClaims: []\n"));
  CHECK(r.err.find("resourceClaims") == std::string::npos);

  r = plan(workload("Deployment", "      schedulerName: volcano\n"));
  CHECK(r.err.find("scheduler \"volcano\" places this pod, not kube-scheduler's default "
                   "profile") != std::string::npos);
  r = plan(workload("Deployment", "      schedulerName: default-scheduler\n"));
  CHECK(r.err.find("places this pod") == std::string::npos);
  r = plan(workload("Deployment", ""));
  CHECK(r.err.find("not modelled") == std::string::npos);
}

TEST_CASE("k8s notes: preferred terms are ignored by other strategies, with a warning") {
  const std::string preferred =
      "      affinity:\n        nodeAffinity:\n          "
      "preferredDuringSchedulingIgnoredDuringExecution:\n          - weight: 10\n            "
      "preference: {matchExpressions: [{key: pool, operator: In, values: [x]}]}\n";
  RunResult r = plan(workload("Deployment", preferred), "fill");
  CHECK(r.exit == ExitCode::Ok);
  CHECK(r.err.find("db: preferred affinity terms are ignored by strategy fill (only strategy "
                   "score weighs them)") != std::string::npos);
  r = plan(workload("Deployment", preferred));  // score: weighed, no warning
  CHECK(r.err.find("ignored by strategy") == std::string::npos);
}

TEST_CASE("k8s node-local constraints are capacity dimensions for every other strategy") {
  const std::string nodes =
      R"({"kind": "List", "apiVersion": "v1", "items": [)"
      R"({"kind": "Node", "metadata": {"name": "a", "labels": {"pool": "x"}}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}},)"
      R"({"kind": "Node", "metadata": {"name": "b", "labels": {"pool": "x"}}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}},)"
      R"({"kind": "Node", "metadata": {"name": "c", "labels": {"pool": "x"}}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}},)"
      R"({"kind": "Node", "metadata": {"name": "d", "labels": {"pool": "y"}}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}}]})";
  const std::string pods =
      R"({"kind": "List", "apiVersion": "v1", "items": [{"kind": "Pod", "metadata": {"name": "old", "namespace": "default", "labels": {"app": "old"}}, "spec": {"nodeName": "b", "containers": [{"name": "c", "ports": [{"containerPort": 80, "hostPort": 80}]}]}, "status": {"phase": "Running"}}]})";
  auto run_with = [&](const std::string& pod_spec, int replicas) {
    RunOptions o;
    o.command = Command::Plan;
    o.nodes = Source{"nodes.json", nodes};
    o.pods = Source{"pods.json", pods};
    o.request =
        Source{"app.yaml",
               "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  "
               "replicas: " +
                   std::to_string(replicas) +
                   "\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n" + pod_spec +
                   "      containers:\n      - name: c\n        ports: [{containerPort: "
                   "80, hostPort: 80}]\n        resources: {requests: {cpu: 100m}}\n"};
    o.output = OutputFormat::Json;
    o.overrides.set("--strategy", "auto");
    return run(o);
  };
  // hostPort 80: one per node, none on b (old holds port 80); required
  // node affinity pool=x leaves d out. Three nodes could take 2 at most.
  const std::string affinity =
      "      affinity:\n        nodeAffinity:\n          "
      "requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n           "
      " "
      "- matchExpressions: [{key: pool, operator: In, values: [x]}]\n";
  RunResult r = run_with(affinity, 2);
  INFO(r.err);
  REQUIRE(r.exit == ExitCode::Ok);
  REQUIRE(r.capacity);
  std::map<std::string, std::int64_t> cap;
  for (const NodeCapacity& nc : r.capacity->nodes)
    cap[r.inventory->nodes[nc.node].name] = nc.capacity;
  CHECK(cap == std::map<std::string, std::int64_t>{{"a", 1}, {"b", 0}, {"c", 1}, {"d", 0}});
  CHECK(r.out.find("host port 80/TCP in use by default/old") != std::string::npos);
  CHECK(r.out.find("required node affinity not matched") != std::string::npos);
  r = run_with(affinity, 3);
  CHECK(r.exit == ExitCode::Infeasible);
}
