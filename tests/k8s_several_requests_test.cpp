// Several manifests in one run under the kubernetes profile: each request's
// new pods are pods to the requests planned after it (as bound pods are to
// kube-scheduler), and pods an earlier request evicted are gone.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kubernetes.h"
#include "requests.h"

using namespace eruplan;

namespace {

struct Run {
  Inventory inventory;
  std::vector<Request> requests;
  std::vector<RequestOutcome> outcomes;
};

// `priorities`: each request's, in file order (a manifest's comes from its
// PriorityClass, which these cases do not load); `min_counts` likewise (a
// manifest has none).
Run plan(const std::string& nodes, const std::string& pods, const std::string& manifests,
         bool preempt = false, const std::vector<std::int32_t>& priorities = {},
         const std::vector<std::int64_t>& min_counts = {}) {
  Diagnostics diags;
  Run run;
  std::optional<Inventory> inv =
      load_nodes(Source{"nodes.yaml", nodes}, NodesFormat::Kubernetes, diags);
  INFO(diags.to_string());
  REQUIRE(inv);
  KubernetesOptions k8s;
  if (!pods.empty()) REQUIRE(apply_pods(*inv, Source{"pods.yaml", pods}, k8s, diags));
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"d.yaml", manifests}, RequestOverrides{}, k8s, false,
                                      diags, matched, &*inv);
  INFO(diags.to_string());
  REQUIRE(set);
  run.inventory = std::move(*inv);
  run.requests = set->requests;
  for (std::size_t i = 0; i < priorities.size() && i < run.requests.size(); ++i)
    run.requests[i].priority = priorities[i];
  for (std::size_t i = 0; i < min_counts.size() && i < run.requests.size(); ++i)
    run.requests[i].min_count = min_counts[i];
  PlanOptions options;
  options.preempt = preempt;
  run.outcomes = plan_requests(run.inventory, run.requests, options);
  return run;
}

// The nodes request `i` placed new pods on, by name, with their counts.
std::string placed_on(const Run& run, std::size_t i) {
  std::string out;
  const RequestOutcome& o = run.outcomes[i];
  for (std::size_t k = 0; k < o.deploy.size(); ++k)
    if (o.deploy[k] > 0)
      out += (out.empty() ? "" : " ") + run.inventory.nodes[o.capacity.nodes[k].node].name + "=" +
             std::to_string(o.deploy[k]);
  return out;
}

// One node of a kubectl node list, with its labels ("k: v, ..."), if any.
std::string node(const std::string& name, const std::string& cpu, const std::string& memory,
                 const std::string& labels = "") {
  return "  - metadata: {name: " + name + (labels.empty() ? "" : ", labels: {" + labels + "}") +
         "}\n    status: {allocatable: {cpu: \"" + cpu + "\", memory: " + memory +
         ", pods: \"110\"}}\n";
}

std::string node_list(const std::string& items) {
  return "kind: NodeList\napiVersion: v1\nitems:\n" + items;
}

std::string deployment(const std::string& name, int replicas, const std::string& requests,
                       const std::string& extra = "") {
  return "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + name +
         "}\nspec:\n  replicas: " + std::to_string(replicas) +
         "\n  selector: {matchLabels: {app: " + name +
         "}}\n  template:\n    metadata: {labels: "
         "{app: " +
         name + "}}\n    spec:\n" + extra + "      containers: [{name: c, resources: {requests: {" +
         requests + "}}}]\n";
}

}  // namespace

TEST_CASE("several manifests: an earlier request's pods count with the non-zero defaults") {
  // a's pod asks for nothing: kube-scheduler scores the node it is bound to
  // as holding 100m and 200Mi, so b's pod (asking for nothing either) goes
  // to the other node. Had a's pod counted 0, the nodes would tie and b
  // would join a on n1, the first by name.
  const Run run = plan(node_list(node("n1", "4", "16Gi") + node("n2", "4", "16Gi")), "",
                       deployment("a", 1, "") + deployment("b", 1, ""));
  REQUIRE(run.outcomes.size() == 2);
  CHECK(placed_on(run, 0) == "n1=1");
  CHECK(placed_on(run, 1) == "n2=1");
}

TEST_CASE("several manifests: topology spread counts the earlier request's pods it selects") {
  // web-v2 spreads over the pods of tier=web, web-v1's included (maxSkew 1
  // by hostname, DoNotSchedule). web-v1 puts its 2 pods on n1 (nodeSelector),
  // so web-v2's pods cannot go there (2+1-min > 1): n2, n3, then n2 again
  // (n2 and n3 tie; the first by name). Had web-v1's pods not counted, n1,
  // the largest node and the least allocated, would take one.
  const std::string nodes =
      node_list(node("n1", "32", "64Gi", "kubernetes.io/hostname: n1, pin: \"yes\"") +
                node("n2", "8", "16Gi", "kubernetes.io/hostname: n2") +
                node("n3", "8", "16Gi", "kubernetes.io/hostname: n3"));
  const std::string v1 =
      "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web-v1}\nspec:\n"
      "  replicas: 2\n  selector: {matchLabels: {app: web-v1}}\n  template:\n"
      "    metadata: {labels: {app: web-v1, tier: web}}\n    spec:\n"
      "      nodeSelector: {pin: \"yes\"}\n"
      "      containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n";
  const std::string v2 =
      "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web-v2}\nspec:\n"
      "  replicas: 3\n  selector: {matchLabels: {app: web-v2}}\n  template:\n"
      "    metadata: {labels: {app: web-v2, tier: web}}\n    spec:\n"
      "      topologySpreadConstraints:\n"
      "        - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: "
      "DoNotSchedule, labelSelector: {matchLabels: {tier: web}}}\n"
      "      containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n";
  const Run run = plan(nodes, "", v1 + v2);
  REQUIRE(run.outcomes.size() == 2);
  CHECK(placed_on(run, 0) == "n1=2");
  CHECK(placed_on(run, 1) == "n2=2 n3=1");
}

TEST_CASE("several manifests: a pod an earlier request evicted no longer repels a later one") {
  // n1 runs cache (priority 0, app=cache, 2 cpu). critical (priority 1000,
  // 3 cpu) fits nowhere (n1 has 2 free, n2 500m) and evicts cache on n1.
  // db (priority 10, 1 cpu, anti-affinity with app=cache) then fits only on
  // n1, with 1 cpu left: kube-scheduler places it there, cache being gone.
  // Had cache still counted, db would be rejected.
  const std::string nodes = node_list(node("n1", "4", "16Gi") + node("n2", "500m", "16Gi"));
  const std::string pods =
      "kind: List\napiVersion: v1\nitems:\n"
      "  - metadata: {name: cache, namespace: default, labels: {app: cache}}\n"
      "    spec:\n      nodeName: n1\n      priority: 0\n"
      "      containers: [{name: c, resources: {requests: {cpu: \"2\", memory: 1Gi}}}]\n";
  const std::string critical = deployment("critical", 1, "cpu: \"3\"");
  const std::string db = deployment("db", 1, "cpu: \"1\"",
                                    "      affinity:\n        podAntiAffinity:\n"
                                    "          requiredDuringSchedulingIgnoredDuringExecution:\n"
                                    "            - labelSelector: {matchLabels: {app: cache}}\n"
                                    "              topologyKey: kubernetes.io/hostname\n");
  const Run run = plan(nodes, pods, critical + db, true, {1000, 10});
  REQUIRE(run.outcomes.size() == 2);
  CHECK(placed_on(run, 0) == "n1=1");
  REQUIRE(run.outcomes[0].preemptions.size() == 1);
  REQUIRE(run.outcomes[0].preemptions[0].victims.size() == 1);
  CHECK(run.outcomes[0].preemptions[0].victims[0].name == "default/cache");
  INFO(run.outcomes[1].reason.full());
  CHECK(placed_on(run, 1) == "n1=1");
  CHECK(run.outcomes[1].preemptions.empty());
  CHECK(run.inventory.pods.get().empty());  // cache left the inventory written out
}

TEST_CASE("--preempt: a request left partial by min_count reports its last replica's FitError") {
  // n1 (4 cpu, 4Gi) runs two priority-0 pods of 500m and 2Gi: memory is what
  // stops critical (2 cpu, 1Gi, priority 1000) there at first; n2 is full
  // of a priority-2000 pod. Replicas 1 and 2 each evict one pod on n1;
  // replica 3 then finds n1 out of cpu (2+2 of 4), not of memory, and no
  // victim anywhere. The request ends partial (min_count 1) with that
  // cycle's FitError, as a rejected request's is, not the first replica's.
  const std::string nodes = node_list(node("n1", "4", "4Gi") + node("n2", "4", "8Gi"));
  std::string pods = "kind: List\napiVersion: v1\nitems:\n";
  for (const char* name : {"low-1", "low-2"})
    pods += std::string("  - metadata: {name: ") + name +
            ", namespace: default, labels: {app: batch}}\n"
            "    spec:\n      nodeName: n1\n      priority: 0\n"
            "      containers: [{name: c, resources: {requests: {cpu: 500m, memory: 2Gi}}}]\n";
  pods +=
      "  - metadata: {name: api, namespace: default, labels: {app: api}}\n"
      "    spec:\n      nodeName: n2\n      priority: 2000\n"
      "      containers: [{name: c, resources: {requests: {cpu: \"4\", memory: 1Gi}}}]\n";
  const Run run =
      plan(nodes, pods, deployment("critical", 4, "cpu: \"2\", memory: 1Gi"), true, {1000}, {1});
  REQUIRE(run.outcomes.size() == 1);
  CHECK(run.outcomes[0].status == RequestStatus::Partial);
  CHECK(placed_on(run, 0) == "n1=2");
  CHECK(run.outcomes[0].preemptions.size() == 2);
  CHECK(run.outcomes[0].reason.full() ==
        "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 "
        "nodes are available: 2 No "
        "preemption victims found for incoming pod.");
}
