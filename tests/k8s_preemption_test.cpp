// Preemption under the kubernetes profile (plan/k8s_preemption): the dry
// runs re-run every filter plugin, as kube-scheduler v1.35's
// SelectVictimsOnNode does (RunFilterPluginsWithNominatedPods after the
// plugins' RemovePod/AddPod). Cases transcribed from
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption_test.go
// (table and case names as there), then eruplan's own around NodePorts,
// InterPodAffinity and PodTopologySpread, each checked against what
// kube-scheduler's code does.
#include "k8s_preemption.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kubernetes.h"
#include "requests.h"

using namespace eruplan;

namespace {

// A cluster read as kubectl prints it, and the one request of a manifest.
struct Cluster {
  Inventory inventory;
  Request request;
};

Cluster load(const std::string& nodes, const std::string& pods, const std::string& manifest) {
  Diagnostics diags;
  Cluster c;
  std::optional<Inventory> inv =
      load_nodes(Source{"nodes.yaml", nodes}, NodesFormat::Kubernetes, diags);
  INFO(diags.to_string());
  REQUIRE(inv);
  KubernetesOptions k8s;
  REQUIRE(apply_pods(*inv, Source{"pods.yaml", pods}, k8s, diags));
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"pod.yaml", manifest}, RequestOverrides{}, k8s, false,
                                      diags, matched, &*inv);
  INFO(diags.to_string());
  REQUIRE(set);
  REQUIRE(set->requests.size() == 1);
  c.inventory = std::move(*inv);
  c.request = set->requests[0];
  // A manifest's priority comes from its PriorityClass; the tables give the
  // pod's priority itself (1000, highPriority, in every case here).
  c.request.priority = 1000;
  return c;
}

std::uint32_t node_index(const Inventory& inv, const std::string& name) {
  for (std::uint32_t i = 0; i < inv.nodes.size(); ++i)
    if (inv.nodes[i].name == name) return i;
  FAIL("no node " << name);
  return 0;
}

std::vector<std::string> names(const std::vector<Victim>& victims) {
  std::vector<std::string> out;
  for (const Victim& v : victims) out.push_back(v.name);
  return out;
}

// SelectVictimsOnNode on one node, nothing placed or evicted yet.
NodeVictims victims_on(Cluster& c, const std::string& node) {
  const RunningPods pods(c.inventory);
  K8sPreemptionFilter filter(c.inventory, c.request);
  return select_victims(c.inventory, pods, node_index(c.inventory, node),
                        Preemptor{c.request.priority, false}, {}, filter.as_replica_filter());
}

// The filters' first verdict on one node.
FilterVerdict verdict_on(Cluster& c, const std::string& node) {
  const RunningPods pods(c.inventory);
  K8sPreemptionFilter filter(c.inventory, c.request);
  return filter(c.inventory, node_index(c.inventory, node), {});
}

// plan --preempt of the request: the node it lands on and its victims.
struct Planned {
  std::string node;
  std::vector<std::string> victims;
  std::string reason;
};
Planned plan(Cluster& c) {
  PlanOptions options;
  options.preempt = true;
  const std::vector<RequestOutcome> out = plan_requests(c.inventory, {c.request}, options);
  REQUIRE(out.size() == 1);
  Planned p;
  p.reason = out[0].reason.full();
  for (std::size_t i = 0; i < out[0].deploy.size(); ++i)
    if (out[0].deploy[i] > 0) p.node = c.inventory.nodes[out[0].capacity.nodes[i].node].name;
  for (const Preemption& pre : out[0].preemptions)
    for (const Victim& v : pre.victims) p.victims.push_back(v.name);
  return p;
}

// TestDryRunPreemption's nodes: veryLargeRes (cpu 500m, memory 500), a
// "zone" label from "node-a/zone1"; the hostname label is
// kubernetes.io/hostname here (the table's custom key "hostname").
std::string dry_run_nodes(const std::vector<std::pair<std::string, std::string>>& nodes) {
  std::string out = "kind: NodeList\napiVersion: v1\nitems:\n";
  for (const auto& [name, zone] : nodes)
    out += "  - metadata: {name: " + name + ", labels: {kubernetes.io/hostname: " + name +
           (zone.empty() ? "" : ", topology.kubernetes.io/zone: " + zone) +
           "}}\n    status: {allocatable: {cpu: 500m, memory: \"500\", pods: \"110\"}}\n";
  return out;
}

}  // namespace

// --- TestDryRunPreemption ---

TEST_CASE("TestDryRunPreemption: pod with anti-affinity is preempted") {
  // p (1000, label foo, smallRes) against node1: p1.1 (0, foo, anti-affinity
  // Exists foo by hostname), p1.2 (100), p1.3 (1000); node2: p2 (1000).
  // p1.1's anti-affinity rejects p on node1 (Unschedulable); removing the
  // lower-priority pods and reprieving p1.2 leaves p1.1 the only victim.
  Cluster c = load(dry_run_nodes({{"node1", ""}, {"node2", ""}}), R"(
kind: List
apiVersion: v1
items:
  - metadata: {name: p1.1, namespace: default, labels: {foo: ""}}
    spec:
      nodeName: node1
      priority: 0
      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - labelSelector: {matchExpressions: [{key: foo, operator: Exists}]}
              topologyKey: kubernetes.io/hostname
      containers: [{name: c, resources: {requests: {cpu: 100m, memory: "100"}}}]
  - metadata: {name: p1.2, namespace: default}
    spec: {nodeName: node1, priority: 100, containers: [{name: c, resources: {requests: {cpu: 100m, memory: "100"}}}]}
  - metadata: {name: p1.3, namespace: default}
    spec: {nodeName: node1, priority: 1000, containers: [{name: c, resources: {requests: {cpu: 100m, memory: "100"}}}]}
  - metadata: {name: p2, namespace: default}
    spec: {nodeName: node2, priority: 1000, containers: [{name: c, resources: {requests: {cpu: 100m, memory: "100"}}}]}
)",
                   R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, labels: {foo: ""}}
spec:
  containers: [{name: c, resources: {requests: {cpu: 100m, memory: "100"}}}]
)");
  const FilterVerdict first = verdict_on(c, "node1");
  CHECK(first.code == FilterCode::Unschedulable);
  CHECK(first.reasons == std::vector<std::string>{"node(s) didn't satisfy existing pods "
                                                  "anti-affinity rules"});
  const NodeVictims nv = victims_on(c, "node1");
  CHECK(nv.verdict.code == FilterCode::Fits);
  CHECK(names(nv.victims) == std::vector<std::string>{"default/p1.1"});
  // node2 has room (p2 uses 100m of 500m): the plan puts p there.
  CHECK(verdict_on(c, "node2").code == FilterCode::Fits);
  const Planned p = plan(c);
  CHECK(p.node == "node2");
  CHECK(p.victims.empty());
}

TEST_CASE("TestDryRunPreemption: preemption to resolve pod topology spread filter failure") {
  // Nodes node-a/zone1, node-b/zone1, node-x/zone2; p (1000, foo) spreads
  // foo with maxSkew 1 over zone and hostname. Candidates: node-a {pod-a2},
  // node-b {pod-b1}; node-x none.
  Cluster c = load(dry_run_nodes({{"node-a", "zone1"}, {"node-b", "zone1"}, {"node-x", "zone2"}}),
                   R"(
kind: List
apiVersion: v1
items:
  - metadata: {name: pod-a1, namespace: default, labels: {foo: ""}}
    spec: {nodeName: node-a, priority: 100, containers: [{name: c}]}
  - metadata: {name: pod-a2, namespace: default, labels: {foo: ""}}
    spec: {nodeName: node-a, priority: 0, containers: [{name: c}]}
  - metadata: {name: pod-b1, namespace: default, labels: {foo: ""}}
    spec: {nodeName: node-b, priority: 0, containers: [{name: c}]}
  - metadata: {name: pod-x1, namespace: default, labels: {foo: ""}}
    spec: {nodeName: node-x, priority: 1000, containers: [{name: c}]}
  - metadata: {name: pod-x2, namespace: default, labels: {foo: ""}}
    spec: {nodeName: node-x, priority: 1000, containers: [{name: c}]}
)",
                   R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, labels: {foo: ""}}
spec:
  topologySpreadConstraints:
    - maxSkew: 1
      topologyKey: topology.kubernetes.io/zone
      whenUnsatisfiable: DoNotSchedule
      labelSelector: {matchExpressions: [{key: foo, operator: Exists}]}
    - maxSkew: 1
      topologyKey: kubernetes.io/hostname
      whenUnsatisfiable: DoNotSchedule
      labelSelector: {matchExpressions: [{key: foo, operator: Exists}]}
  containers: [{name: c}]
)");
  for (const char* node : {"node-a", "node-b", "node-x"}) {
    CAPTURE(node);
    const FilterVerdict v = verdict_on(c, node);
    CHECK(v.code == FilterCode::Unschedulable);
    CHECK(v.reasons == std::vector<std::string>{"node(s) didn't match pod topology spread "
                                                "constraints"});
  }
  CHECK(names(victims_on(c, "node-a").victims) == std::vector<std::string>{"default/pod-a2"});
  CHECK(names(victims_on(c, "node-b").victims) == std::vector<std::string>{"default/pod-b1"});
  const NodeVictims x = victims_on(c, "node-x");
  CHECK(x.verdict.code == FilterCode::Unresolvable);
  CHECK(x.victims.empty());
  // The two candidates tie on every score; eruplan breaks the tie by name.
  const Planned p = plan(c);
  CHECK(p.node == "node-a");
  CHECK(p.victims == std::vector<std::string>{"default/pod-a2"});
}

// --- eruplan's own, after kube-scheduler's plugin code ---

namespace {

const char* const kTwoNodes = R"(
kind: NodeList
apiVersion: v1
items:
  - metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
    status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
  - metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}
    status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
)";

}  // namespace

TEST_CASE("NodePorts: a hostPort held by a lower-priority pod is freed by evicting it") {
  // NodePorts' Filter is Unschedulable, so n1 is dry-run; taking old off
  // frees 9100. other (0, no port) is reprieved. On n2 keeper (5000) holds
  // the port and is of higher priority: no victims there.
  Cluster c = load(kTwoNodes, R"(
kind: List
apiVersion: v1
items:
  - metadata: {name: old, namespace: default, labels: {app: old}}
    spec:
      nodeName: n1
      priority: 0
      containers: [{name: c, ports: [{containerPort: 9100, hostPort: 9100}], resources: {requests: {cpu: "1"}}}]
  - metadata: {name: other, namespace: default, labels: {app: other}}
    spec: {nodeName: n1, priority: 0, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
  - metadata: {name: keeper, namespace: default, labels: {app: keeper}}
    spec:
      nodeName: n2
      priority: 5000
      containers: [{name: c, ports: [{containerPort: 9100, hostPort: 9100}]}]
)",
                   R"(
apiVersion: v1
kind: Pod
metadata: {name: exporter, namespace: default, labels: {app: exporter}}
spec:
  containers: [{name: c, ports: [{containerPort: 9100, hostPort: 9100}], resources: {requests: {cpu: "1"}}}]
)");
  const FilterVerdict v = verdict_on(c, "n1");
  CHECK(v.code == FilterCode::Unschedulable);
  CHECK(v.reasons ==
        std::vector<std::string>{"node(s) didn't have free ports for the requested pod ports"});
  CHECK(names(victims_on(c, "n1").victims) == std::vector<std::string>{"default/old"});
  const NodeVictims n2 = victims_on(c, "n2");
  CHECK(n2.verdict.reasons ==
        std::vector<std::string>{"No preemption victims found for incoming pod"});
  const Planned p = plan(c);
  CHECK(p.node == "n1");
  CHECK(p.victims == std::vector<std::string>{"default/old"});
}

TEST_CASE("InterPodAffinity: the pod's own required anti-affinity is resolved by evicting") {
  // db repels app=cache by hostname: Unschedulable on n1 (cache-low, 0) and
  // n2 (cache-high, 5000). n1's dry run evicts cache-low.
  Cluster c = load(kTwoNodes, R"(
kind: List
apiVersion: v1
items:
  - metadata: {name: cache-low, namespace: default, labels: {app: cache}}
    spec: {nodeName: n1, priority: 0, containers: [{name: c}]}
  - metadata: {name: cache-high, namespace: default, labels: {app: cache}}
    spec: {nodeName: n2, priority: 5000, containers: [{name: c}]}
)",
                   R"(
apiVersion: v1
kind: Pod
metadata: {name: db, namespace: default, labels: {app: db}}
spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - labelSelector: {matchLabels: {app: cache}}
          topologyKey: kubernetes.io/hostname
  containers: [{name: c}]
)");
  const FilterVerdict v = verdict_on(c, "n1");
  CHECK(v.code == FilterCode::Unschedulable);
  CHECK(v.reasons == std::vector<std::string>{"node(s) didn't match pod anti-affinity rules"});
  const Planned p = plan(c);
  CHECK(p.node == "n1");
  CHECK(p.victims == std::vector<std::string>{"default/cache-low"});
}

TEST_CASE("InterPodAffinity: the pod's unmet required affinity is Unresolvable, not preempted") {
  // kube-scheduler's satisfyPodAffinity failing is UnschedulableAndUnresolvable:
  // the node is not dry-run even though a lower-priority pod fills it.
  Cluster c = load(kTwoNodes, R"(
kind: List
apiVersion: v1
items:
  - metadata: {name: web, namespace: default, labels: {app: web}}
    spec: {nodeName: n1, priority: 0, containers: [{name: c, resources: {requests: {cpu: "4"}}}]}
  - metadata: {name: filler, namespace: default, labels: {app: filler}}
    spec: {nodeName: n2, priority: 0, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
)",
                   R"(
apiVersion: v1
kind: Pod
metadata: {name: sidecar, namespace: default, labels: {app: sidecar}}
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - labelSelector: {matchLabels: {app: web}}
          topologyKey: kubernetes.io/hostname
  containers: [{name: c, resources: {requests: {cpu: "1"}}}]
)");
  // n1 holds web: the affinity passes and NodeResourcesFit rejects
  // (Unschedulable); n2 fails the affinity (Unresolvable).
  CHECK(verdict_on(c, "n1").reasons == std::vector<std::string>{"Insufficient cpu"});
  const FilterVerdict n2 = verdict_on(c, "n2");
  CHECK(n2.code == FilterCode::Unresolvable);
  CHECK(n2.reasons == std::vector<std::string>{"node(s) didn't match pod affinity rules"});
  // On n1, evicting web (the only lower-priority pod) frees the cpu but
  // leaves no pod for the affinity: the dry run fails with its reason.
  const NodeVictims n1 = victims_on(c, "n1");
  CHECK(n1.verdict.code == FilterCode::Unresolvable);
  CHECK(n1.verdict.reasons == std::vector<std::string>{"node(s) didn't match pod affinity rules"});
  const Planned p = plan(c);
  CHECK(p.node.empty());
  INFO(p.reason);
  CHECK(p.reason.find("preemption: 0/2 nodes are available: 1 Preemption is not helpful for "
                      "scheduling, 1 node(s) didn't match pod affinity rules.") !=
        std::string::npos);
}

TEST_CASE("PodTopologySpread: a node without the topology label is Unresolvable") {
  // ErrReasonNodeLabelNotMatch is UnschedulableAndUnresolvable: n2 (no
  // zone label) is never dry-run.
  Cluster c = load(R"(
kind: NodeList
apiVersion: v1
items:
  - metadata: {name: n1, labels: {topology.kubernetes.io/zone: z1}}
    status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
  - metadata: {name: n2}
    status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
)",
                   R"(
kind: List
apiVersion: v1
items:
  - metadata: {name: low, namespace: default, labels: {app: batch}}
    spec: {nodeName: n2, priority: 0, containers: [{name: c}]}
)",
                   R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, labels: {app: web}}
spec:
  topologySpreadConstraints:
    - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
  containers: [{name: c}]
)");
  const FilterVerdict v = verdict_on(c, "n2");
  CHECK(v.code == FilterCode::Unresolvable);
  CHECK(v.reasons == std::vector<std::string>{"node(s) didn't match pod topology spread "
                                              "constraints (missing required label)"});
}

TEST_CASE("PodTopologySpread: replicas placed in the run count; evicted pods do not") {
  // Three replicas of web (1000, 2 cpu), maxSkew 1 by hostname over
  // tier=front; n1 runs web-old (0, tier=front, another app, 3 cpu), n2
  // nothing.
  Cluster c = load(kTwoNodes, R"(
kind: List
apiVersion: v1
items:
  - metadata: {name: web-old, namespace: default, labels: {app: legacy, tier: front}}
    spec: {nodeName: n1, priority: 0, containers: [{name: c, resources: {requests: {cpu: "3"}}}]}
)",
                   R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: front}}
    spec:
      topologySpreadConstraints:
        - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {tier: front}}}
      containers: [{name: c, resources: {requests: {cpu: "2"}}}]
)");
  // Counts n1 1 (web-old), n2 0. Replica 1: n1 1+1-0=2 fails, n2 fits.
  // Replica 2: n1 1+1-1=1 passes but has 1 cpu left (Unschedulable, fit);
  // n2 1+1-1 passes, 2 cpu left: fits. Replica 3: n2 2+1-1=2 fails
  // (spread), n1 fit fails: preemption. n1's dry run takes web-old off:
  // counts n1 0, n2 2, min 0: 0+1-0=1 passes, 4 cpu free; web-old given
  // back fails fit: it is the victim.
  Cluster d = c;  // before the plan evicts web-old
  const Planned p = plan(c);
  INFO(p.reason);
  CHECK(p.victims == std::vector<std::string>{"default/web-old"});
  // The filter itself: with two replicas on n1 (placed in the run), n1's
  // count is 3 (web-old too) against n2's 0: 3+1-0 fails the skew, and
  // without web-old 2+1-0 still does.
  d.inventory.nodes[node_index(d.inventory, "n1")].cpu_used = 0;  // resources aside
  const RunningPods pods(d.inventory);
  const std::uint32_t n1 = node_index(d.inventory, "n1");
  d.inventory.placed_pods.open(k8s_placed_pods(d.request, d.request.pod));
  d.inventory.placed_pods.add(n1, 2);
  K8sPreemptionFilter filter(d.inventory, d.request);
  CHECK(filter(d.inventory, n1, {}).reasons ==
        std::vector<std::string>{"node(s) didn't match pod topology spread constraints"});
  const Victim* old = &pods.on(n1)[0];
  DryRun dry{1, {{old, -1}}};
  CHECK(filter(d.inventory, n1, &dry).code == FilterCode::Unschedulable);
  // The dry run's changes are applied as they come (bounded work, issue
  // 26): web-old given back, the same dry run is 3+1-0 again; a call
  // without one, or with another, sees the cluster as it stands.
  dry.changes.push_back({old, +1});
  CHECK(filter(d.inventory, n1, &dry).reasons ==
        std::vector<std::string>{"node(s) didn't match pod topology spread constraints"});
  dry.changes.push_back({old, -1});
  CHECK(filter(d.inventory, n1, &dry).code == FilterCode::Unschedulable);
  CHECK(filter(d.inventory, n1, {}).reasons ==
        std::vector<std::string>{"node(s) didn't match pod topology spread constraints"});
  const DryRun other{2, {{old, -1}}};
  CHECK(filter(d.inventory, n1, &other).code == FilterCode::Unschedulable);
  // Evicted for good, and two replicas on n2: 2+1-2 passes.
  filter.evicted(*old);
  filter.placed(node_index(d.inventory, "n2"));
  CHECK(filter(d.inventory, n1, {}).code == FilterCode::Unschedulable);  // 2+1-1
  filter.placed(node_index(d.inventory, "n2"));
  CHECK(filter(d.inventory, n1, {}).code == FilterCode::Fits);
}

// --- What a victim gives back ---

TEST_CASE("A victim gives back its ephemeral-storage; a node read as full frees only the excess") {
  const char* const node = R"(
kind: NodeList
apiVersion: v1
items:
  - metadata: {name: n1}
    status: {allocatable: {cpu: "8", memory: 4Gi, ephemeral-storage: 4Gi, pods: "110"}}
)";
  SUBCASE("ephemeral-storage: the low-priority pod's 3Gi make room for 2Gi") {
    Cluster c = load(node, R"(
kind: List
apiVersion: v1
items:
  - metadata: {name: low, namespace: default}
    spec: {nodeName: n1, priority: 0, containers: [{name: c, resources: {requests: {ephemeral-storage: 3Gi}}}]}
)",
                     R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec: {containers: [{name: c, resources: {requests: {ephemeral-storage: 2Gi}}}]}
)");
    CHECK(verdict_on(c, "n1").reasons ==
          std::vector<std::string>{"Insufficient ephemeral-storage"});
    CHECK(names(victims_on(c, "n1").victims) == std::vector<std::string>{"default/low"});
  }
  SUBCASE(
      "memory asked beyond allocatable (6Gi on 4Gi, read as 4Gi): evicting low's 3Gi "
      "leaves high's 3Gi, no room for 2Gi, as Kubernetes counts it") {
    Cluster c = load(node, R"(
kind: List
apiVersion: v1
items:
  - metadata: {name: high, namespace: default}
    spec: {nodeName: n1, priority: 5000, containers: [{name: c, resources: {requests: {memory: 3Gi}}}]}
  - metadata: {name: low, namespace: default}
    spec: {nodeName: n1, priority: 0, containers: [{name: c, resources: {requests: {memory: 3Gi}}}]}
)",
                     R"(
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec: {containers: [{name: c, resources: {requests: {memory: 2Gi}}}]}
)");
    CHECK(c.inventory.nodes[0].memory_used == 4LL << 30);  // read as full
    const NodeVictims nv = victims_on(c, "n1");
    CHECK(nv.verdict.code == FilterCode::Unschedulable);
    CHECK(nv.verdict.reasons == std::vector<std::string>{"Insufficient memory"});
    CHECK(nv.victims.empty());
    CHECK(c.inventory.nodes[0].memory_used == 4LL << 30);  // the dry run leaves it as it was
  }
}
