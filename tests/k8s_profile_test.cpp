// The kubernetes scoring profile: the scheduling fields read from manifests,
// each plugin against cases transcribed from Kubernetes' own plugin tests
// (table and case names in comments), and whole runs one replica at a time.
#include "k8s_profile.h"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "kubernetes.h"
#include "pipeline.h"
#include "random.h"

using namespace eruplan;

namespace {

Taint taint(std::string key, std::string value, std::string effect) {
  return Taint{std::move(key), std::move(value), std::move(effect)};
}

Toleration toleration(std::string key, std::string value, std::string effect) {
  Toleration t;
  t.key = std::move(key);
  t.value = std::move(value);
  t.effect = std::move(effect);
  return t;
}

// A cluster of plain nodes for calling the plugins directly.
struct Bench {
  Inventory inventory;
  Request request;
  PodScheduling pod;
  K8sCluster cluster;
  K8sCycle cycle;

  void add_node(std::string name, Labels labels = {}, std::vector<Taint> taints = {}) {
    Node n;
    n.name = std::move(name);
    n.labels = std::move(labels);
    for (Taint& t : taints) n.taints.push_back(std::move(t));
    inventory.nodes.push_back(std::move(n));
  }
  // Builds the cluster (no running pods) and the cycle's filter state.
  void ready() {
    cluster = K8sCluster{};
    cluster.inventory = &inventory;
    cluster.request = &request;
    cluster.pod = &pod;
    for (const Node& n : inventory.nodes) cluster.labels.push_back(k8s_node_labels(n));
    cluster.pods.resize(inventory.nodes.size());
    cycle = K8sCycle{};
    cycle.cluster = &cluster;
    k8s_prefilter_spread(cycle);
    k8s_prefilter_interpod(cycle);
  }
  std::vector<std::uint32_t> all() const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < inventory.nodes.size(); ++i) out.push_back(i);
    return out;
  }
};

LabelSelector match_labels(Labels labels) {
  LabelSelector s;
  for (auto& [k, v] : labels) s.requirements.push_back({k, SelectorOp::In, {v}});
  return s;
}

// A Kubernetes node list: {name, labels JSON, extra spec JSON, cpu, pods}.
struct KNode {
  std::string name, labels = "{}", spec = "{}", cpu = "4", pods = "110";
};
std::string node_list(const std::vector<KNode>& nodes) {
  std::string out = R"({"kind": "List", "apiVersion": "v1", "items": [)";
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const KNode& n = nodes[i];
    // kubernetes.io/hostname = the name, as the kubelet sets it (a Kubernetes
    // Node without it lacks it), unless the labels give it.
    std::string labels = n.labels;
    if (labels.find("kubernetes.io/hostname") == std::string::npos)
      labels.insert(1,
                    R"("kubernetes.io/hostname": ")" + n.name + (labels == "{}" ? "\"" : "\", "));
    out += (i ? ", " : "") + std::string(R"({"kind": "Node", "metadata": {"name": ")") + n.name +
           R"(", "labels": )" + labels + R"(}, "spec": )" + n.spec +
           R"(, "status": {"allocatable": {"cpu": ")" + n.cpu + R"(", "memory": "8Gi", "pods": ")" +
           n.pods + R"("}}})";
  }
  return out + "]}";
}

// A Deployment `web` (labels app: web) with the given pod spec (YAML, indented
// for `spec:` of the template).
std::string deployment(int replicas, const std::string& spec) {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: " +
         std::to_string(replicas) +
         "\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n" + spec;
}

RunResult plan(const std::string& nodes, const std::string& request,
               std::optional<std::string> pods = std::nullopt) {
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{"nodes.json", nodes};
  o.request = Source{"app.yaml", request};
  if (pods) o.pods = Source{"pods.json", *pods};
  o.output = OutputFormat::Json;
  return run(o);
}

// node -> new replicas, from a run.
std::map<std::string, std::int64_t> placed(const RunResult& r) {
  std::map<std::string, std::int64_t> out;
  if (!r.deploy || !r.capacity || !r.inventory) return out;
  for (std::size_t i = 0; i < r.deploy->size(); ++i)
    if ((*r.deploy)[i] > 0)
      out[r.inventory->nodes[r.capacity->nodes[i].node].name] = (*r.deploy)[i];
  return out;
}

const std::string kRequests =
    "      containers:\n      - name: c\n        resources: {requests: {cpu: 100m, memory: "
    "100Mi}}\n";

}  // namespace

// --- TaintToleration -----------------------------------------------------
// Transcribed from taint_toleration_test.go, TestTaintTolerationScore.
TEST_CASE("k8s TaintToleration score: TestTaintTolerationScore") {
  SUBCASE(
      "node with taints tolerated by the pod, gets a higher score than those node with "
      "intolerable taints") {
    Bench b;
    b.request.tolerations = {toleration("foo", "bar", "PreferNoSchedule")};
    b.add_node("nodeA", {}, {taint("foo", "bar", "PreferNoSchedule")});
    b.add_node("nodeB", {}, {taint("foo", "blah", "PreferNoSchedule")});
    b.ready();
    CHECK(k8s_score_taint_toleration(b.cycle, b.all()) == std::vector<std::int64_t>{100, 0});
  }
  SUBCASE(
      "the nodes that all of their taints are tolerated by the pod, get the same score, no "
      "matter how many tolerable taints a node has") {
    Bench b;
    b.request.tolerations = {toleration("cpu-type", "arm64", "PreferNoSchedule"),
                             toleration("disk-type", "ssd", "PreferNoSchedule")};
    b.add_node("nodeA");
    b.add_node("nodeB", {}, {taint("cpu-type", "arm64", "PreferNoSchedule")});
    b.add_node("nodeC", {},
               {taint("cpu-type", "arm64", "PreferNoSchedule"),
                taint("disk-type", "ssd", "PreferNoSchedule")});
    b.ready();
    CHECK(k8s_score_taint_toleration(b.cycle, b.all()) == std::vector<std::int64_t>{100, 100, 100});
  }
  SUBCASE("the more intolerable taints a node has, the lower score it gets.") {
    Bench b;
    b.request.tolerations = {toleration("foo", "bar", "PreferNoSchedule")};
    b.add_node("nodeA");
    b.add_node("nodeB", {}, {taint("cpu-type", "arm64", "PreferNoSchedule")});
    b.add_node("nodeC", {},
               {taint("cpu-type", "arm64", "PreferNoSchedule"),
                taint("disk-type", "ssd", "PreferNoSchedule")});
    b.ready();
    CHECK(k8s_score_taint_toleration(b.cycle, b.all()) == std::vector<std::int64_t>{100, 50, 0});
  }
  SUBCASE(
      "only taints and tolerations that have effect PreferNoSchedule are checked by "
      "prioritize function") {
    Bench b;
    b.request.tolerations = {toleration("cpu-type", "arm64", "NoSchedule"),
                             toleration("disk-type", "ssd", "NoSchedule")};
    b.add_node("nodeA");
    b.add_node("nodeB", {}, {taint("cpu-type", "arm64", "NoSchedule")});
    b.add_node("nodeC", {},
               {taint("cpu-type", "arm64", "PreferNoSchedule"),
                taint("disk-type", "ssd", "PreferNoSchedule")});
    b.ready();
    CHECK(k8s_score_taint_toleration(b.cycle, b.all()) == std::vector<std::int64_t>{100, 100, 0});
  }
  SUBCASE("Default behaviour No taints and tolerations, lands on node with no taints") {
    Bench b;
    b.add_node("nodeA");
    b.add_node("nodeB", {}, {taint("cpu-type", "arm64", "PreferNoSchedule")});
    b.ready();
    CHECK(k8s_score_taint_toleration(b.cycle, b.all()) == std::vector<std::int64_t>{100, 0});
  }
}

// --- NodeAffinity ----------------------------------------------------------
// Transcribed from node_affinity_test.go, TestNodeAffinityPriority
// (affinity1, affinity2 and label1..label5 as there).
TEST_CASE("k8s NodeAffinity score: TestNodeAffinityPriority") {
  const Labels label1{{"foo", "bar"}}, label2{{"key", "value"}}, label3{{"az", "az1"}},
      label5{{"az", "az1"}, {"foo", "bar"}, {"key", "value"}};
  const auto term = [](std::vector<Requirement> r) {
    NodeSelectorTerm t;
    t.expressions = std::move(r);
    return t;
  };
  const Requirement foo{"foo", SelectorOp::In, {"bar"}}, key{"key", SelectorOp::In, {"value"}},
      az{"az", SelectorOp::In, {"az1"}};
  const std::vector<PreferredSchedulingTerm> affinity1{{2, term({foo})}};
  const std::vector<PreferredSchedulingTerm> affinity2{
      {2, term({foo})}, {4, term({key})}, {5, term({foo, key, az})}};
  SUBCASE("all nodes are same priority as NodeAffinity is nil") {
    Bench b;
    b.add_node("node1", label1);
    b.add_node("node2", label2);
    b.add_node("node3", label3);
    b.ready();
    CHECK(k8s_score_node_affinity(b.cycle, b.all()) == std::vector<std::int64_t>{0, 0, 0});
  }
  SUBCASE("only node1 matches the preferred scheduling requirements of pod") {
    Bench b;
    b.pod.node_affinity.preferred = affinity1;
    b.add_node("node1", label1);
    b.add_node("node2", label2);
    b.add_node("node3", label3);
    b.ready();
    CHECK(k8s_score_node_affinity(b.cycle, b.all()) == std::vector<std::int64_t>{100, 0, 0});
  }
  SUBCASE(
      "all nodes matches the preferred scheduling requirements of pod but with different "
      "priorities") {
    Bench b;
    b.pod.node_affinity.preferred = affinity2;
    b.add_node("node1", label1);
    b.add_node("node5", label5);
    b.add_node("node2", label2);
    b.ready();
    CHECK(k8s_score_node_affinity(b.cycle, b.all()) == std::vector<std::int64_t>{18, 100, 36});
  }
}

// --- Filters on the bench --------------------------------------------------
TEST_CASE("k8s filters: unschedulable, node name, taints, node affinity, ports") {
  Bench b;
  b.add_node("a", {{"zone", "z1"}});
  b.add_node("b", {{"zone", "z2"}}, {taint("dedicated", "gpu", "NoSchedule")});
  b.add_node("c", {{"zone", "z3"}});
  b.inventory.nodes[2].available = false;
  b.pod.node_selector = {{"zone", "z1"}};
  b.ready();
  CHECK(k8s_filter_node_unschedulable(b.cycle, 0).ok());
  CHECK(k8s_filter_node_unschedulable(b.cycle, 2).reasons ==
        std::vector<std::string>{"node(s) were unschedulable"});
  CHECK(k8s_filter_taint_toleration(b.cycle, 1).reasons ==
        std::vector<std::string>{"node(s) had untolerated taint(s)"});
  CHECK(k8s_filter_node_affinity(b.cycle, 0).ok());
  CHECK(k8s_filter_node_affinity(b.cycle, 2).reasons ==
        std::vector<std::string>{"node(s) didn't match Pod's node affinity/selector"});
  // A toleration of node.kubernetes.io/unschedulable lets a cordoned node pass.
  b.request.tolerations = {toleration("node.kubernetes.io/unschedulable", "", "NoSchedule")};
  CHECK(k8s_filter_node_unschedulable(b.cycle, 2).ok());
  // NodeName.
  b.pod.node_name = "c";
  CHECK(k8s_filter_node_name(b.cycle, 2).ok());
  CHECK(k8s_filter_node_name(b.cycle, 0).reasons ==
        std::vector<std::string>{"node(s) didn't match the requested node name"});

  // NodePorts, in the manner of node_ports_test.go TestNodePorts: the same
  // port and protocol clash when either address is 0.0.0.0 or both are equal.
  PodScheduling running;
  running.host_ports = {HostPort{"127.0.0.1", "UDP", 8080}};
  const std::string ns = "default";
  const Labels none;
  b.cluster.pods[0].push_back({&ns, &none, &running});
  b.pod.host_ports = {HostPort{"127.0.0.1", "TCP", 8080}};
  CHECK(k8s_filter_node_ports(b.cycle, 0).ok());  // other protocol
  b.pod.host_ports = {HostPort{"127.0.0.2", "UDP", 8080}};
  CHECK(k8s_filter_node_ports(b.cycle, 0).ok());  // other address
  b.pod.host_ports = {HostPort{"0.0.0.0", "UDP", 8080}};
  CHECK(k8s_filter_node_ports(b.cycle, 0).reasons ==
        std::vector<std::string>{"node(s) didn't have free ports for the requested pod ports"});
  b.pod.host_ports = {HostPort{"127.0.0.1", "UDP", 8080}};
  CHECK_FALSE(k8s_filter_node_ports(b.cycle, 0).ok());
  CHECK(k8s_filter_node_ports(b.cycle, 1).ok());
}

// --- PodTopologySpread -----------------------------------------------------
// In the manner of filtering_test.go TestSingleConstraint ("normal case"):
// zone1 holds node-a and node-b, zone2 node-x and node-y; pods labelled foo
// 2 on node-a, 1 on node-b, 3 on node-x and 1 on node-y... here zone1 has 3
// matching pods and zone2 has 4, maxSkew 1: only zone1's nodes fit.
TEST_CASE("k8s PodTopologySpread filter: skew against the least loaded zone") {
  Bench b;
  b.add_node("node-a", {{"zone", "zone1"}});
  b.add_node("node-b", {{"zone", "zone1"}});
  b.add_node("node-x", {{"zone", "zone2"}});
  b.add_node("node-y", {{"zone", "zone2"}});
  b.pod.labels = {{"foo", ""}};
  TopologySpreadConstraint c;
  c.max_skew = 1;
  c.topology_key = "zone";
  LabelSelector exists;
  exists.requirements.push_back({"foo", SelectorOp::Exists, {}});
  c.selector = exists;
  b.pod.spread = {c};
  const std::string ns = "default";
  const Labels foo{{"foo", ""}};
  b.ready();
  for (auto [node, n] : {std::pair{0, 2}, {1, 1}, {2, 3}, {3, 1}})
    for (int k = 0; k < n; ++k) b.cluster.pods[node].push_back({&ns, &foo, nullptr});
  k8s_prefilter_spread(b.cycle);
  CHECK(b.cycle.spread_counts[0] ==
        std::map<std::string, std::int64_t>{{"zone1", 3}, {"zone2", 4}});
  CHECK(k8s_filter_spread(b.cycle, 0).ok());
  CHECK(k8s_filter_spread(b.cycle, 1).ok());
  CHECK(k8s_filter_spread(b.cycle, 2).reasons ==
        std::vector<std::string>{"node(s) didn't match pod topology spread constraints"});
  // minDomains 3 with two domains: the minimum counts as 0, every node fails.
  b.pod.spread[0].min_domains = 3;
  k8s_prefilter_spread(b.cycle);
  CHECK_FALSE(k8s_filter_spread(b.cycle, 0).ok());
  // A node without the key.
  b.pod.spread[0].min_domains.reset();
  b.add_node("node-z");
  b.ready();
  CHECK(k8s_filter_spread(b.cycle, 4).reasons ==
        std::vector<std::string>{
            "node(s) didn't match pod topology spread constraints (missing required label)"});
}

// --- InterPodAffinity ------------------------------------------------------
TEST_CASE("k8s InterPodAffinity filter: affinity, anti-affinity, existing anti-affinity") {
  Bench b;
  b.add_node("n1", {{"zone", "z1"}});
  b.add_node("n2", {{"zone", "z1"}});
  b.add_node("n3", {{"zone", "z2"}});
  b.pod.labels = {{"app", "web"}};
  const std::string ns = "default";
  const Labels cache{{"app", "cache"}};
  b.ready();
  b.cluster.pods[0].push_back({&ns, &cache, nullptr});
  PodAffinityTerm near_cache;
  near_cache.selector = match_labels({{"app", "cache"}});
  near_cache.topology_key = "zone";
  b.pod.affinity.required = {near_cache};
  k8s_prefilter_interpod(b.cycle);
  CHECK(k8s_filter_interpod(b.cycle, 0).ok());
  CHECK(k8s_filter_interpod(b.cycle, 1).ok());  // same zone
  CHECK(k8s_filter_interpod(b.cycle, 2).reasons ==
        std::vector<std::string>{"node(s) didn't match pod affinity rules"});
  // Anti-affinity to the cache by hostname: only n1 is out.
  b.pod.affinity.required.clear();
  PodAffinityTerm away = near_cache;
  away.topology_key = "kubernetes.io/hostname";
  b.pod.anti_affinity.required = {away};
  k8s_prefilter_interpod(b.cycle);
  CHECK(k8s_filter_interpod(b.cycle, 0).reasons ==
        std::vector<std::string>{"node(s) didn't match pod anti-affinity rules"});
  CHECK(k8s_filter_interpod(b.cycle, 1).ok());
  // A running pod that keeps web out of its zone.
  b.pod.anti_affinity.required.clear();
  PodScheduling guard;
  PodAffinityTerm no_web;
  no_web.selector = match_labels({{"app", "web"}});
  no_web.topology_key = "zone";
  guard.anti_affinity.required = {no_web};
  b.cluster.pods[2].push_back({&ns, &cache, &guard});
  k8s_prefilter_interpod(b.cycle);
  CHECK(k8s_filter_interpod(b.cycle, 0).ok());
  CHECK(k8s_filter_interpod(b.cycle, 2).reasons ==
        std::vector<std::string>{"node(s) didn't satisfy existing pods anti-affinity rules"});
  // The first of a series with affinity to itself passes where no pod matches.
  Bench self;
  self.add_node("n1", {{"zone", "z1"}});
  self.pod.labels = {{"app", "web"}};
  PodAffinityTerm to_self;
  to_self.selector = match_labels({{"app", "web"}});
  to_self.topology_key = "zone";
  self.pod.affinity.required = {to_self};
  self.ready();
  CHECK(k8s_filter_interpod(self.cycle, 0).ok());
}

TEST_CASE("k8s InterPodAffinity score: preferred terms per domain, min-max normalized") {
  Bench b;
  b.add_node("n1", {{"zone", "z1"}});
  b.add_node("n2", {{"zone", "z2"}});
  b.add_node("n3", {{"zone", "z3"}});
  const std::string ns = "default";
  const Labels cache{{"app", "cache"}}, db{{"app", "db"}};
  b.ready();
  b.cluster.pods[0].push_back({&ns, &cache, nullptr});
  b.cluster.pods[1].push_back({&ns, &db, nullptr});
  PodAffinityTerm to_cache, to_db;
  to_cache.selector = match_labels({{"app", "cache"}});
  to_cache.topology_key = "zone";
  to_db.selector = match_labels({{"app", "db"}});
  to_db.topology_key = "zone";
  b.pod.affinity.preferred = {{10, to_cache}};
  b.pod.anti_affinity.preferred = {{5, to_db}};
  // Raw: z1 10, z2 -5, z3 0 -> (s - min) x 100 / 15.
  CHECK(k8s_score_interpod(b.cycle, b.all()) == std::vector<std::int64_t>{100, 0, 33});
}

// --- PodTopologySpread score -------------------------------------------------
TEST_CASE("k8s PodTopologySpread score: ScheduleAnyway and the system defaults") {
  Bench b;
  b.add_node("n1", {{"topology.kubernetes.io/zone", "z1"}});
  b.add_node("n2", {{"topology.kubernetes.io/zone", "z1"}});
  b.add_node("n3", {{"topology.kubernetes.io/zone", "z2"}});
  b.pod.labels = {{"app", "web"}};
  const std::string ns = "default";
  const Labels web{{"app", "web"}};
  b.ready();
  // No constraints, no workload selector: skipped, 0 everywhere.
  CHECK(k8s_score_spread(b.cycle, b.all()) == std::vector<std::int64_t>{0, 0, 0});
  TopologySpreadConstraint zone;
  zone.max_skew = 1;
  zone.topology_key = "topology.kubernetes.io/zone";
  zone.do_not_schedule = false;
  zone.selector = match_labels({{"app", "web"}});
  b.pod.spread = {zone};
  // No matching pods: every raw score is maxSkew - 1 = 0 -> all 100.
  CHECK(k8s_score_spread(b.cycle, b.all()) == std::vector<std::int64_t>{100, 100, 100});
  // Two web pods on n1: z1 counts 2, weight log(2 + 2); raw z1 round(2 x 1.386) = 3, z2 0:
  // normalized 100 x (3 + 0 - s) / 3.
  b.cluster.pods[0].push_back({&ns, &web, nullptr});
  b.cluster.pods[0].push_back({&ns, &web, nullptr});
  CHECK(k8s_score_spread(b.cycle, b.all()) == std::vector<std::int64_t>{0, 0, 100});
  // System defaults (zone 5, hostname 3) over the workload's selector.
  b.pod.spread.clear();
  TopologySpreadConstraint dz = zone, dh = zone;
  dz.max_skew = 5;
  dh.max_skew = 3;
  dh.topology_key = "kubernetes.io/hostname";
  b.cluster.default_spread = {dz, dh};
  // n1: zone 2 x log(4) + 4 + host 2 x log(5) + 2 = 2.77 + 4 + 3.22 + 2 = 11.99 -> 12;
  // n2: 2.77 + 4 + 0 + 2 = 8.77 -> 9; n3: 0 + 4 + 0 + 2 = 6.
  // normalized 100 x (12 + 6 - s) / 12: 50, 75, 100.
  CHECK(k8s_score_spread(b.cycle, b.all()) == std::vector<std::int64_t>{50, 75, 100});
}

TEST_CASE("k8s DefaultNormalizeScore") {
  std::vector<std::int64_t> s{0, 5, 10};
  k8s_default_normalize(s, false);
  CHECK(s == std::vector<std::int64_t>{0, 50, 100});
  s = {0, 5, 10};
  k8s_default_normalize(s, true);
  CHECK(s == std::vector<std::int64_t>{100, 50, 0});
  s = {0, 0};
  k8s_default_normalize(s, true);
  CHECK(s == std::vector<std::int64_t>{100, 100});
}

TEST_CASE("splitmix64: the reference sequence for seed 0") {
  SplitMix64 r(0);
  CHECK(r.next() == 0xe220a8397b1dcdafull);
  CHECK(r.next() == 0x6e789e6aa1b965f4ull);
}

// --- Reading -----------------------------------------------------------------
TEST_CASE("k8s reading: affinity, spread and ports from a manifest; misspellings") {
  const std::string spec =
      "      affinity:\n"
      "        nodeAffinity:\n"
      "          requiredDuringSchedulingIgnoredDuringExecution:\n"
      "            nodeSelectorTerms:\n"
      "            - matchExpressions: [{key: disk, operator: In, values: [ssd]}]\n"
      "              matchFields: [{key: metadata.name, operator: NotIn, values: [n9]}]\n"
      "          preferredDuringSchedulingIgnoredDuringExecution:\n"
      "          - {weight: 7, preference: {matchExpressions: [{key: gen, operator: Gt, values: "
      "['3']}]}}\n"
      "        podAntiAffinity:\n"
      "          requiredDuringSchedulingIgnoredDuringExecution:\n"
      "          - labelSelector: {matchLabels: {app: web}}\n"
      "            topologyKey: kubernetes.io/hostname\n"
      "      topologySpreadConstraints:\n"
      "      - {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: "
      "{matchLabels: {app: web}}, minDomains: 3, nodeTaintsPolicy: Honor}\n" +
      kRequests + "        ports: [{containerPort: 80, hostPort: 8080, protocol: UDP}]\n";
  Diagnostics diags;
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"app.yaml", deployment(3, spec)}, {}, {}, true, diags,
                                      matched);
  INFO(diags.to_string());
  REQUIRE(set.has_value());
  const Request& r = set->requests.at(0);
  CHECK(r.scoring.profile == ScoringProfile::Kubernetes);
  REQUIRE(r.pod != nullptr);
  const PodScheduling& p = *r.pod;
  CHECK(p.labels == Labels{{"app", "web"}});
  REQUIRE(p.node_affinity.required.has_value());
  REQUIRE(p.node_affinity.required->size() == 1);
  CHECK(p.node_affinity.required->at(0).expressions.at(0).values ==
        std::vector<std::string>{"ssd"});
  CHECK(p.node_affinity.required->at(0).fields.at(0).op == SelectorOp::NotIn);
  CHECK(p.node_affinity.preferred.at(0).weight == 7);
  CHECK(p.node_affinity.preferred.at(0).term.expressions.at(0).op == SelectorOp::Gt);
  REQUIRE(p.anti_affinity.required.size() == 1);
  CHECK(p.anti_affinity.required[0].topology_key == "kubernetes.io/hostname");
  REQUIRE(p.spread.size() == 1);
  CHECK(p.spread[0].max_skew == 2);
  CHECK(p.spread[0].min_domains == 3);
  CHECK(p.spread[0].node_taints_policy == SpreadPolicy::Honor);
  CHECK(p.host_ports == std::vector<HostPort>{HostPort{"0.0.0.0", "UDP", 8080}});
  CHECK(p.nonzero_cpu == 100'000'000);
  CHECK(p.nonzero_memory == 100ll << 20);

  // A misspelt field: unknown, with a suggestion; a bad operator: an error.
  Diagnostics d2;
  set = load_kubernetes_requests(
      Source{"app.yaml", deployment(1,
                                    "      affinity:\n        podAntiAfinity: {}\n"
                                    "        nodeAffinity:\n"
                                    "          requiredDuringSchedulingIgnoredDuringExecution:\n"
                                    "            nodeSelectorTerms: [{matchExpressions: [{key: a, "
                                    "operator: Has}]}]\n" +
                                        kRequests)},
      {}, {}, true, d2, matched);
  const std::string text = d2.to_string();
  INFO(text);
  CHECK(text.find("podAntiAfinity") != std::string::npos);
  CHECK(text.find("did you mean podAntiAffinity") != std::string::npos);
  CHECK(text.find("operator: unknown operator Has; expected In, NotIn, Exists, DoesNotExist, Gt "
                  "or Lt") != std::string::npos);
}

// --- Whole runs ----------------------------------------------------------------
TEST_CASE("k8s runs: a zone spread with one zone full; the message counts every node") {
  // Three zones, one node each; z3's node holds 1 pod at most.
  const std::string nodes = node_list({
      {"a", R"({"topology.kubernetes.io/zone": "z1"})"},
      {"b", R"({"topology.kubernetes.io/zone": "z2"})"},
      {"c", R"({"topology.kubernetes.io/zone": "z3"})", "{}", "4", "1"},
  });
  const std::string spread =
      "      topologySpreadConstraints:\n"
      "      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: "
      "DoNotSchedule, labelSelector: {matchLabels: {app: web}}}\n" +
      kRequests;
  RunResult r = plan(nodes, deployment(5, spread));
  INFO(r.err);
  CHECK(r.exit == ExitCode::Ok);
  // 1 each, then c is full: a and b may go to 2 (skew vs c's 1 is 1).
  CHECK(placed(r) == std::map<std::string, std::int64_t>{{"a", 2}, {"b", 2}, {"c", 1}});
  r = plan(nodes, deployment(6, spread));
  CHECK(r.exit == ExitCode::Infeasible);
  CHECK(r.err.find("0/3 nodes are available: 1 Too many pods, 2 node(s) didn't match pod "
                   "topology spread constraints. no new claims to deallocate, preemption: 0/3 "
                   "nodes are available: 3 No "
                   "preemption victims found for incoming pod.\nplaced 5 of 6; the 6th could "
                   "not be placed") != std::string::npos);
}

TEST_CASE("k8s runs: a terminating pod counts for no topology spread") {
  // podtopologyspread/common.go countPodsMatchSelector bypasses a pod with
  // metadata.deletionTimestamp (filtering_test.go and scoring_test.go,
  // "terminating Pods should be excluded"); kubectl lists such a pod while
  // it terminates. a (z1) holds a terminating front pod; b (z2) is full.
  const std::string nodes = node_list({
      {"a", R"({"topology.kubernetes.io/zone": "z1"})"},
      {"b", R"({"topology.kubernetes.io/zone": "z2"})", "{}", "4", "1"},
  });
  auto pods = [](const std::string& deletion) {
    return std::string(R"({"kind": "List", "apiVersion": "v1", "items": [)"
                       R"({"kind": "Pod", "metadata": {"name": "old", "namespace": "default", )"
                       R"("labels": {"tier": "front"})") +
           deletion +
           R"(}, "spec": {"nodeName": "a", "containers": [{"name": "c"}]}, )"
           R"("status": {"phase": "Running"}}, )"
           R"({"kind": "Pod", "metadata": {"name": "filler", "namespace": "default"}, )"
           R"("spec": {"nodeName": "b", "containers": [{"name": "c"}]}, )"
           R"("status": {"phase": "Running"}}]})";
  };
  const std::string request =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n"
      "  template:\n    metadata: {labels: {app: web, tier: front}}\n    spec:\n"
      "      topologySpreadConstraints:\n"
      "      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: "
      "DoNotSchedule, labelSelector: {matchLabels: {tier: front}}}\n" +
      kRequests;
  RunResult r = plan(nodes, request, pods(R"(, "deletionTimestamp": "2026-11-26T10:00:00Z")"));
  INFO(r.err);
  CHECK(r.exit == ExitCode::Ok);
  CHECK(placed(r) == std::map<std::string, std::int64_t>{{"a", 1}});
  // The same pod not terminating: z1 counts 1, z2 0, so a's skew is 2.
  r = plan(nodes, request, pods(""));
  CHECK(r.exit == ExitCode::Infeasible);
  CHECK(r.err.find("0/2 nodes are available: 1 Too many pods, 1 node(s) didn't match pod "
                   "topology spread constraints.") != std::string::npos);
}

TEST_CASE("k8s runs: a terminating victim still leaves its spread domain, as RemovePod does") {
  // The PreFilter bypasses a terminating pod, but the preemption dry run's
  // RemovePod (filtering.go updateWithPod) matches it all the same: on a,
  // the web pod counts 1, and removing the terminating one (priority -1)
  // brings a to 0, so the new pod would fit there after preemption.
  const std::string nodes = node_list({{"a", "{}", "{}", "4", "2"}, {"b", "{}", "{}", "4", "1"}});
  auto pod = [](const std::string& name, const std::string& node, const std::string& labels,
                const std::string& extra) {
    return R"({"kind": "Pod", "metadata": {"name": ")" + name +
           R"(", "namespace": "default", "labels": )" + labels + extra +
           R"(}, "spec": {"nodeName": ")" + node + R"(", "priority": )" +
           (extra.empty() ? "0" : "-1") +
           R"(, "containers": [{"name": "c"}]}, "status": {"phase": "Running"}})";
  };
  const std::string pods =
      R"({"kind": "List", "apiVersion": "v1", "items": [)" +
      pod("old", "a", R"({"tier": "front"})", R"(, "deletionTimestamp": "2026-11-26T10:00:00Z")") +
      ", " + pod("live", "a", R"({"tier": "front"})", "") + ", " + pod("filler", "b", "{}", "") +
      "]}";
  const std::string request =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n"
      "  template:\n    metadata: {labels: {app: web, tier: front}}\n    spec:\n"
      "      topologySpreadConstraints:\n"
      "      - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: "
      "DoNotSchedule, labelSelector: {matchLabels: {tier: front}}}\n" +
      kRequests;
  const RunResult r = plan(nodes, request, pods);
  INFO(r.err);
  CHECK(r.exit == ExitCode::Infeasible);
  CHECK(r.err.find("0/2 nodes are available: 2 Too many pods.\n--preempt would place it on a by "
                   "evicting 1 pod") != std::string::npos);
}

TEST_CASE("k8s runs: required self anti-affinity by hostname, one per node") {
  const std::string nodes = node_list({{"a"}, {"b"}, {"c", "{}", R"({"unschedulable": true})"}});
  const std::string spec =
      "      affinity:\n        podAntiAffinity:\n"
      "          requiredDuringSchedulingIgnoredDuringExecution:\n"
      "          - {labelSelector: {matchLabels: {app: web}}, topologyKey: "
      "kubernetes.io/hostname}\n" +
      kRequests;
  RunResult r = plan(nodes, deployment(2, spec));
  INFO(r.err);
  CHECK(r.exit == ExitCode::Ok);
  CHECK(placed(r) == std::map<std::string, std::int64_t>{{"a", 1}, {"b", 1}});
  r = plan(nodes, deployment(3, spec));
  CHECK(r.exit == ExitCode::Infeasible);
  CHECK(r.err.find("0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't "
                   "match pod anti-affinity rules. no new claims to deallocate, preemption: 0/3 "
                   "nodes are available: 1 "
                   "Preemption is not helpful for scheduling, 2 No preemption victims found for "
                   "incoming pod.\nplaced 2 of 3; the 3rd could not be placed") !=
        std::string::npos);
}

TEST_CASE("k8s runs: hostPort, PreferNoSchedule and preferred affinity to a cache") {
  // hostPort: one per node.
  const std::string nodes = node_list({{"a"}, {"b"}});
  const std::string ported = kRequests + "        ports: [{containerPort: 80, hostPort: 80}]\n";
  RunResult r = plan(nodes, deployment(2, ported));
  INFO(r.err);
  CHECK(placed(r) == std::map<std::string, std::int64_t>{{"a", 1}, {"b", 1}});
  r = plan(nodes, deployment(3, ported));
  CHECK(r.err.find("0/2 nodes are available: 2 node(s) didn't have free ports for the requested "
                   "pod ports.") != std::string::npos);

  // PreferNoSchedule: the tainted pool is used last (a: tainted, b: not).
  const std::string pool =
      node_list({{"a", "{}",
                  R"({"taints": [{"key": "spot", "value": "yes", "effect": "PreferNoSchedule"}]})"},
                 {"b"}});
  r = plan(pool, deployment(1, kRequests));
  CHECK(placed(r) == std::map<std::string, std::int64_t>{{"b", 1}});

  // Preferred affinity to a cache running on b.
  const std::string pods =
      R"({"kind": "List", "apiVersion": "v1", "items": [{"kind": "Pod", "metadata": {"name": "cache-1", "namespace": "default", "labels": {"app": "cache"}}, "spec": {"nodeName": "b", "containers": [{"name": "c", "resources": {"requests": {"cpu": "100m", "memory": "100Mi"}}}]}, "status": {"phase": "Running"}}]})";
  const std::string near =
      "      affinity:\n        podAffinity:\n"
      "          preferredDuringSchedulingIgnoredDuringExecution:\n"
      "          - weight: 100\n            podAffinityTerm: {labelSelector: {matchLabels: {app: "
      "cache}}, topologyKey: kubernetes.io/hostname}\n" +
      kRequests;
  r = plan(nodes, deployment(1, near), pods);
  INFO(r.err);
  CHECK(placed(r) == std::map<std::string, std::int64_t>{{"b", 1}});
  // Without the preference, a: b is more used.
  r = plan(nodes, deployment(1, kRequests), pods);
  CHECK(placed(r) == std::map<std::string, std::int64_t>{{"a", 1}});
}

TEST_CASE("k8s runs: a pod without requests among pods without requests") {
  // Running pods without requests count 100m/200Mi each in scoring: a holds
  // three, b one; the new pod goes to b, the less used by the defaults.
  const std::string nodes = node_list({{"a"}, {"b"}});
  std::string items;
  for (const char* node : {"a", "a", "a", "b"}) {
    static int n = 0;
    items += std::string(items.empty() ? "" : ", ") + R"({"kind": "Pod", "metadata": {"name": "p)" +
             std::to_string(n++) + R"(", "labels": {"app": "other"}}, "spec": {"nodeName": ")" +
             node + R"(", "containers": [{"name": "c"}]}, "status": {"phase": "Running"}})";
  }
  const std::string pods = R"({"kind": "List", "apiVersion": "v1", "items": [)" + items + "]}";
  RunResult r = plan(nodes, deployment(2, "      containers: [{name: c}]\n"), pods);
  INFO(r.err);
  INFO(r.out);
  CHECK(r.exit == ExitCode::Ok);
  // The first replica to b (1 default pod vs 3): fit 95 against 90, and
  // balanced 0 for a pod asking for nothing: totals 595 and 590 (TaintToleration
  // 3 x 100, PodTopologySpread 2 x 100). The second: b's fit is 92, but the
  // system default spread by hostname now scores b 66 and a 100: a, 590 > 92 + 300 + 132.
  CHECK(r.scores.at(0).fit == 90);
  CHECK(r.scores.at(0).total == 590);
  CHECK(r.scores.at(1).total == 595);
  CHECK(placed(r) == std::map<std::string, std::int64_t>{{"a", 1}, {"b", 1}});
  CHECK(r.out.find("\"plugins\": {\n        \"TaintToleration\": 100,\n        "
                   "\"NodeAffinity\": 0,\n        \"PodTopologySpread\": 100,\n        "
                   "\"InterPodAffinity\": 0,\n        \"NodeResourcesFit\": 90,") !=
        std::string::npos);
}

TEST_CASE("k8s runs: --tie-break random is kube-scheduler's selectHost, seeded") {
  const std::string nodes = node_list({{"a"}, {"b"}, {"c"}, {"d"}});
  RunResult r = plan(nodes, deployment(1, kRequests));
  CHECK(placed(r) == std::map<std::string, std::int64_t>{{"a", 1}});  // by name
  REQUIRE(parse_tie_break("name").has_value());
  CHECK_FALSE(parse_tie_break("name")->has_value());
  CHECK(parse_tie_break("random:42")->value() == 42);
  CHECK_FALSE(parse_tie_break("random:").has_value());
  CHECK_FALSE(parse_tie_break("random:99999999999999999999").has_value());
  CHECK_FALSE(parse_tie_break("first").has_value());
  std::set<std::string> chosen;
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    // The oracle: four equal totals in name order, each later one replacing
    // the choice when next() mod count == 0.
    SplitMix64 g(seed);
    const char* pick = "a";
    std::uint64_t count = 1;
    for (const char* n : {"b", "c", "d"})
      if (g.next() % ++count == 0) pick = n;
    RunOptions o;
    o.command = Command::Plan;
    o.nodes = Source{"nodes.json", nodes};
    o.request = Source{"app.yaml", deployment(1, kRequests)};
    o.output = OutputFormat::Json;
    o.tie_seed = seed;
    const RunResult run_r = run(o);
    CHECK(placed(run_r) == std::map<std::string, std::int64_t>{{pick, 1}});
    chosen.insert(pick);
  }
  CHECK(chosen.size() > 1);
}

TEST_CASE("k8s runs: cross-node constraints need strategy score (exit 3)") {
  const std::string nodes = node_list({{"a"}, {"b"}});
  const std::string spread =
      "      topologySpreadConstraints:\n"
      "      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: "
      "DoNotSchedule, labelSelector: {matchLabels: {app: web}}}\n" +
      kRequests;
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{"nodes.json", nodes};
  o.request = Source{"app.yaml", deployment(2, spread)};
  o.overrides.set("--strategy", "fill");
  RunResult r = run(o);
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(r.err.find("web: topologySpreadConstraints depends on where the other replicas go; it "
                   "needs strategy score") != std::string::npos);
  // At the constraints' position and field path in the manifest.
  CHECK(r.err.find("app.yaml:10:7: error: spec.template.spec.topologySpreadConstraints: web: ") !=
        std::string::npos);
}
