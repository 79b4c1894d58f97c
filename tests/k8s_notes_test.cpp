// What a manifest uses that eruplan does not model is said once, where it is
// written; preferred terms under a strategy other than score are ignored
// with a warning.
#include <doctest/doctest.h>

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
  if (strategy) o.overrides.strategy = *strategy;
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
