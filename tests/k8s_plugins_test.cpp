// The kubernetes profile's plugins (k8s_profile.h) against cases transcribed
// from Kubernetes v1.35's own plugin tests, the table and case names in
// comments: the facts (nodes, pods, constraints, expected verdicts and
// scores) are Kubernetes'; the code is eruplan's.
#include <doctest/doctest.h>

#include <deque>
#include <map>
#include <string>
#include <vector>

#include "k8s_profile.h"

using namespace eruplan;

namespace {

// A cluster of labelled nodes and pods for calling the plugins directly.
struct Plugins {
  Inventory inventory;
  Request request;
  PodScheduling pod;
  std::deque<PodScheduling> pods;  // running, stable addresses
  std::vector<std::uint32_t> pod_node;
  std::vector<char> terminating;  // of each running pod: deletionTimestamp set
  K8sCluster cluster;
  K8sCycle cycle;

  Plugins() { pod.name = "p"; }
  void node(std::string name, Labels labels = {}) {
    Node n;
    n.name = std::move(name);
    std::sort(labels.begin(), labels.end());
    n.labels = std::move(labels);
    inventory.nodes.push_back(std::move(n));
  }
  std::uint32_t index(const std::string& name) const {
    for (std::uint32_t i = 0; i < inventory.nodes.size(); ++i)
      if (inventory.nodes[i].name == name) return i;
    FAIL("no node " << name);
    return 0;
  }
  PodScheduling& running(const std::string& node_name, Labels labels, std::string ns = "default") {
    PodScheduling& p = pods.emplace_back();
    p.ns = std::move(ns);
    std::sort(labels.begin(), labels.end());
    p.labels = std::move(labels);
    pod_node.push_back(index(node_name));
    terminating.push_back(0);
    return p;
  }
  void ready() {
    std::sort(pod.labels.begin(), pod.labels.end());
    cluster = K8sCluster{};
    cluster.inventory = &inventory;
    cluster.request = &request;
    cluster.pod = &pod;
    for (const Node& n : inventory.nodes) cluster.labels.push_back(k8s_node_labels(n));
    cluster.pods.resize(inventory.nodes.size());
    for (std::size_t k = 0; k < pods.size(); ++k)
      cluster.pods[pod_node[k]].push_back(
          {&pods[k].ns, &pods[k].labels, &pods[k], 1, terminating[k] != 0});
    cycle = K8sCycle{};
    cycle.cluster = &cluster;
    k8s_prefilter_spread(cycle);
    k8s_prefilter_interpod(cycle);
  }
  // node -> "" (passes) or its reason.
  std::map<std::string, std::string> verdicts(K8sStatus (*filter)(const K8sCycle&, std::uint32_t)) {
    std::map<std::string, std::string> out;
    for (std::uint32_t i = 0; i < inventory.nodes.size(); ++i) {
      const K8sStatus s = filter(cycle, i);
      out[inventory.nodes[i].name] = s.ok() ? "" : s.reasons.at(0);
    }
    return out;
  }
  std::vector<std::uint32_t> all() const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < inventory.nodes.size(); ++i) out.push_back(i);
    return out;
  }
};

LabelSelector exists(std::string key) {
  LabelSelector s;
  s.requirements.push_back({std::move(key), SelectorOp::Exists, {}});
  return s;
}
[[maybe_unused]] LabelSelector match(std::string key, std::string value) {
  LabelSelector s;
  s.requirements.push_back({std::move(key), SelectorOp::In, {std::move(value)}});
  return s;
}

TopologySpreadConstraint spread(std::int32_t max_skew, std::string key, bool hard,
                                LabelSelector selector) {
  TopologySpreadConstraint c;
  c.max_skew = max_skew;
  c.topology_key = std::move(key);
  c.do_not_schedule = hard;
  c.selector = std::move(selector);
  return c;
}

const std::string kOk;
const std::string kSkew(k8s_reason::kSpread);
const std::string kNoLabel(k8s_reason::kSpreadLabel);

// node-a, node-b in zone1 and node-x, node-y in zone2, each labelled
// node=<its name>: the clusters of most PodTopologySpread cases.
void four_nodes(Plugins& p) {
  p.node("node-a", {{"zone", "zone1"}, {"node", "node-a"}});
  p.node("node-b", {{"zone", "zone1"}, {"node", "node-b"}});
  p.node("node-x", {{"zone", "zone2"}, {"node", "node-x"}});
  p.node("node-y", {{"zone", "zone2"}, {"node", "node-y"}});
}

// Pods labelled foo="" on the nodes: 2/1/0/3 over node-a/b/x/y.
void pods_2_1_0_3(Plugins& p) {
  for (const char* n : {"node-a", "node-a", "node-b", "node-y", "node-y", "node-y"})
    p.running(n, {{"foo", ""}});
}

}  // namespace

// --- PodTopologySpread, filter -------------------------------------------
// Transcribed from podtopologyspread/filtering_test.go, TestSingleConstraint
// (fooSelector: foo Exists; Unschedulable and UnschedulableAndUnresolvable
// as eruplan's two reasons).
TEST_CASE("k8s PodTopologySpread filter: TestSingleConstraint") {
  Plugins p;
  p.pod.labels = {{"foo", ""}};
  SUBCASE("terminating Pods should be excluded") {
    // metadata.deletionTimestamp set: PreFilter's countPodsMatchSelector
    // bypasses the pod, so node-a's domain counts 0 and node-b's 1.
    p.pod.spread = {spread(1, "node", true, exists("foo"))};
    p.node("node-a", {{"node", "node-a"}});
    p.node("node-b", {{"node", "node-b"}});
    p.running("node-a", {{"foo", ""}});
    p.terminating.back() = 1;
    p.running("node-b", {{"foo", ""}});
    p.ready();
    CHECK(p.verdicts(k8s_filter_spread) ==
          std::map<std::string, std::string>{{"node-a", kOk}, {"node-b", kSkew}});
  }
  SUBCASE("pods spread across zones as 1/2 due to absence of label 'zone' on node-b") {
    p.node("node-a", {{"zone", "zone1"}, {"node", "node-a"}});
    p.node("node-b", {{"zon", "zone1"}, {"node", "node-b"}});
    p.node("node-x", {{"zone", "zone2"}, {"node", "node-x"}});
    p.node("node-y", {{"zone", "zone2"}, {"node", "node-y"}});
    for (const char* n : {"node-a", "node-b", "node-x", "node-y"}) p.running(n, {{"foo", ""}});
    p.pod.spread = {spread(1, "zone", true, exists("foo"))};
    p.ready();
    CHECK(p.verdicts(k8s_filter_spread) ==
          std::map<std::string, std::string>{
              {"node-a", kOk}, {"node-b", kNoLabel}, {"node-x", kSkew}, {"node-y", kSkew}});
  }
  SUBCASE("pod cannot be scheduled as all nodes don't have label 'rack'") {
    p.node("node-a", {{"zone", "zone1"}, {"node", "node-a"}});
    p.node("node-x", {{"zone", "zone2"}, {"node", "node-x"}});
    p.pod.spread = {spread(1, "rack", true, exists("foo"))};
    p.ready();
    CHECK(p.verdicts(k8s_filter_spread) ==
          std::map<std::string, std::string>{{"node-a", kNoLabel}, {"node-x", kNoLabel}});
  }
  SUBCASE("pods spread across nodes as 2/1/0/3, only node-x fits") {
    four_nodes(p);
    pods_2_1_0_3(p);
    p.pod.spread = {spread(1, "node", true, exists("foo"))};
    p.ready();
    CHECK(p.verdicts(k8s_filter_spread) ==
          std::map<std::string, std::string>{
              {"node-a", kSkew}, {"node-b", kSkew}, {"node-x", kOk}, {"node-y", kSkew}});
  }
  SUBCASE("pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit") {
    four_nodes(p);
    pods_2_1_0_3(p);
    p.pod.spread = {spread(2, "node", true, exists("foo"))};
    p.ready();
    CHECK(p.verdicts(k8s_filter_spread) ==
          std::map<std::string, std::string>{
              {"node-a", kSkew}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kSkew}});
  }
  SUBCASE("pods spread across nodes as 2/1/0/3, but pod doesn't match itself") {
    four_nodes(p);
    pods_2_1_0_3(p);
    p.pod.labels = {{"bar", ""}};
    p.pod.spread = {spread(1, "node", true, exists("foo"))};
    p.ready();
    CHECK(p.verdicts(k8s_filter_spread) ==
          std::map<std::string, std::string>{
              {"node-a", kSkew}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kSkew}});
  }
  SUBCASE("incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits") {
    four_nodes(p);
    pods_2_1_0_3(p);
    NodeSelectorTerm term;
    term.expressions.push_back({"node", SelectorOp::In, {"node-a", "node-y"}});
    p.pod.node_affinity.required = std::vector<NodeSelectorTerm>{term};
    p.pod.spread = {spread(1, "node", true, exists("foo"))};
    p.ready();
    CHECK(p.verdicts(k8s_filter_spread) ==
          std::map<std::string, std::string>{
              {"node-a", kOk}, {"node-b", kOk}, {"node-x", kOk}, {"node-y", kSkew}});
  }
  SUBCASE("incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits") {
    four_nodes(p);
    for (const char* n : {"node-b", "node-b", "node-y"}) p.running(n, {{"foo", ""}});
    NodeSelectorTerm term;
    term.expressions.push_back({"node", SelectorOp::NotIn, {"node-b"}});
    p.pod.node_affinity.required = std::vector<NodeSelectorTerm>{term};
    p.pod.spread = {spread(1, "zone", true, exists("foo"))};
    p.ready();
    CHECK(p.verdicts(k8s_filter_spread) ==
          std::map<std::string, std::string>{
              {"node-a", kOk}, {"node-b", kOk}, {"node-x", kSkew}, {"node-y", kSkew}});
  }
  SUBCASE(
      "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, "
      "then the third node fits") {
    for (const char* n : {"node-a", "node-b", "node-c"}) p.node(n, {{"node", n}});
    for (const char* n : {"node-a", "node-a", "node-b", "node-b", "node-c"})
      p.running(n, {{"foo", ""}});
    p.pod.spread = {spread(2, "node", true, exists("foo"))};
    p.pod.spread[0].min_domains = 4;
    p.ready();
    CHECK(p.verdicts(k8s_filter_spread) == std::map<std::string, std::string>{{"node-a", kSkew},
                                                                              {"node-b", kSkew},
                                                                              {"node-c", kOk}});
  }
  SUBCASE(
      "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, "
      "then the all nodes fit") {
    for (const char* n : {"node-a", "node-b", "node-c"}) p.node(n, {{"node", n}});
    for (const char* n : {"node-a", "node-a", "node-b", "node-b", "node-c"})
      p.running(n, {{"foo", ""}});
    p.pod.spread = {spread(2, "node", true, exists("foo"))};
    p.pod.spread[0].min_domains = 2;
    p.ready();
    CHECK(p.verdicts(k8s_filter_spread) ==
          std::map<std::string, std::string>{{"node-a", kOk}, {"node-b", kOk}, {"node-c", kOk}});
  }
  SUBCASE(
      "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then "
      "the third and fourth nodes fit") {
    four_nodes(p);
    for (const char* n : {"node-a", "node-b", "node-y"}) p.running(n, {{"foo", ""}});
    p.pod.spread = {spread(2, "zone", true, exists("foo"))};
    p.pod.spread[0].min_domains = 3;
    p.ready();
    CHECK(p.verdicts(k8s_filter_spread) ==
          std::map<std::string, std::string>{
              {"node-a", kSkew}, {"node-b", kSkew}, {"node-x", kOk}, {"node-y", kOk}});
  }
  SUBCASE("NodeAffinityPolicy honored with labelSelectors") {
    p.node("node-a", {{"node", "node-a"}, {"foo", ""}});
    p.node("node-b", {{"node", "node-b"}, {"foo", ""}});
    p.node("node-x", {{"node", "node-x"}, {"foo", ""}});
    p.node("node-y", {{"node", "node-y"}});
    for (const char* n : {"node-a", "node-b", "node-y"}) p.running(n, {{"foo", ""}});
    p.pod.node_selector = {{"foo", ""}};
    p.pod.spread = {spread(1, "node", true, exists("foo"))};
    p.ready();
    CHECK(p.verdicts(k8s_filter_spread) ==
          std::map<std::string, std::string>{
              {"node-a", kSkew}, {"node-b", kSkew}, {"node-x", kOk}, {"node-y", kOk}});
  }
}

// --- NodePorts -------------------------------------------------------------
// Transcribed from nodeports/node_ports_test.go, TestNodePorts: the new pod's
// ports against one pod's on the node, "PROTOCOL/hostIP/port".
namespace {

std::vector<HostPort> ports(std::initializer_list<const char*> specs) {
  std::vector<HostPort> out;
  for (const std::string s : specs) {
    const std::size_t a = s.find('/'), b = s.rfind('/');
    out.push_back({s.substr(a + 1, b - a - 1), s.substr(0, a), std::stoi(s.substr(b + 1))});
  }
  return out;
}

std::string node_ports(std::initializer_list<const char*> pod,
                       std::initializer_list<const char*> node) {
  Plugins p;
  p.node("m1");
  p.running("m1", {}).host_ports = ports(node);
  p.pod.host_ports = ports(pod);
  p.ready();
  return p.verdicts(k8s_filter_node_ports).at("m1");
}

const std::string kPorts(k8s_reason::kNodePorts);

}  // namespace

TEST_CASE("k8s NodePorts filter: TestNodePorts") {
  CHECK(node_ports({}, {}) == kOk);                                             // skip filter
  CHECK(node_ports({"UDP/127.0.0.1/8080"}, {"UDP/127.0.0.1/9090"}) == kOk);     // other port
  CHECK(node_ports({"UDP/127.0.0.1/8080"}, {"UDP/127.0.0.1/8080"}) == kPorts);  // same udp port
  CHECK(node_ports({"TCP/127.0.0.1/8080"}, {"TCP/127.0.0.1/8080"}) == kPorts);  // same tcp port
  CHECK(node_ports({"TCP/127.0.0.1/8080"}, {"TCP/127.0.0.2/8080"}) == kOk);     // different host ip
  CHECK(node_ports({"UDP/127.0.0.1/8080"}, {"TCP/127.0.0.1/8080"}) == kOk);  // different protocol
  CHECK(node_ports({"UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"}, {"UDP/127.0.0.1/8080"}) ==
        kPorts);  // second udp port conflict
  CHECK(node_ports({"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"},
                   {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"}) ==
        kPorts);  // first tcp port conflict
  CHECK(node_ports({"TCP/0.0.0.0/8001"}, {"TCP/127.0.0.1/8001"}) ==
        kPorts);  // first tcp port conflict due to 0.0.0.0 hostIP
  CHECK(node_ports({"TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"}, {"TCP/127.0.0.1/8001"}) ==
        kPorts);  // TCP hostPort conflict due to 0.0.0.0 hostIP
  CHECK(node_ports({"TCP/127.0.0.1/8001"}, {"TCP/0.0.0.0/8001"}) ==
        kPorts);  // second tcp port conflict to 0.0.0.0 hostIP
  CHECK(node_ports({"UDP/127.0.0.1/8001"}, {"TCP/0.0.0.0/8001"}) ==
        kOk);  // second different protocol
  CHECK(node_ports({"UDP/127.0.0.1/8001"}, {"TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"}) ==
        kPorts);  // UDP hostPort conflict due to 0.0.0.0 hostIP
}

// --- InterPodAffinity, filter ----------------------------------------------
// Transcribed from interpodaffinity/filtering_test.go,
// TestRequiredAffinitySingleNode: machine1 {region: r1, zone: z11}; podLabel
// service=securityscan, podLabel2 security=S1.
namespace {

PodAffinityTerm term(std::vector<Requirement> reqs, std::string key,
                     std::vector<std::string> namespaces = {}) {
  PodAffinityTerm t;
  t.selector = LabelSelector{std::move(reqs)};
  t.topology_key = std::move(key);
  t.namespaces = std::move(namespaces);
  return t;
}
Requirement in(std::vector<std::string> v) { return {"service", SelectorOp::In, std::move(v)}; }
Requirement not_in(std::vector<std::string> v) {
  return {"service", SelectorOp::NotIn, std::move(v)};
}

const Labels kPodLabel = {{"service", "securityscan"}}, kPodLabel2 = {{"security", "S1"}};
const std::string kAff(k8s_reason::kAffinity), kAnti(k8s_reason::kAntiAffinity),
    kExisting(k8s_reason::kExistingAntiAffinity);

struct Single {
  Plugins p;
  Single() { p.node("machine1", {{"region", "r1"}, {"zone", "z11"}}); }
  std::string verdict() {
    p.ready();
    return p.verdicts(k8s_filter_interpod).at("machine1");
  }
};

}  // namespace

TEST_CASE("k8s InterPodAffinity filter: TestRequiredAffinitySingleNode") {
  Single s;
  SUBCASE(
      "A pod that has no required pod affinity scheduling rules can schedule onto a node with no "
      "existing pods") {
    CHECK(s.verdict() == kOk);
  }
  SUBCASE(
      "satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In "
      "operator that matches the existing pod") {
    s.p.pod.labels = kPodLabel2;
    s.p.pod.affinity.required = {term({in({"securityscan", "value2"})}, "region")};
    s.p.running("machine1", kPodLabel);
    CHECK(s.verdict() == kOk);
  }
  SUBCASE(
      "satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using "
      "not in operator in labelSelector that matches the existing pod") {
    s.p.pod.labels = kPodLabel2;
    s.p.pod.affinity.required = {term({not_in({"securityscan3", "value3"})}, "region")};
    s.p.running("machine1", kPodLabel);
    CHECK(s.verdict() == kOk);
  }
  SUBCASE("Does not satisfy the PodAffinity with labelSelector because of diff Namespace") {
    s.p.pod.labels = kPodLabel2;
    s.p.pod.affinity.required = {
        term({in({"securityscan", "value2"})}, "region", {"DiffNameSpace"})};
    s.p.running("machine1", kPodLabel, "ns");
    CHECK(s.verdict() == kAff);
  }
  SUBCASE(
      "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod") {
    s.p.pod.labels = kPodLabel;
    s.p.pod.affinity.required = {term({in({"antivirusscan", "value2"})}, "")};
    s.p.running("machine1", kPodLabel);
    CHECK(s.verdict() == kAff);
  }
  SUBCASE(
      "satisfies the PodAffinity with different label Operators in multiple "
      "RequiredDuringSchedulingIgnoredDuringExecution") {
    s.p.pod.labels = kPodLabel2;
    s.p.pod.affinity.required = {
        term({{"service", SelectorOp::Exists, {}}, {"wrongkey", SelectorOp::DoesNotExist, {}}},
             "region"),
        term({in({"securityscan"}), not_in({"WrongValue"})}, "region")};
    s.p.running("machine1", kPodLabel);
    CHECK(s.verdict() == kOk);
  }
  SUBCASE(
      "The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot "
      "schedule onto the node because one of the matchExpression item don't match.") {
    s.p.pod.labels = kPodLabel2;
    s.p.pod.affinity.required = {
        term({{"service", SelectorOp::Exists, {}}, {"wrongkey", SelectorOp::DoesNotExist, {}}},
             "region"),
        term({in({"securityscan2"}), not_in({"WrongValue"})}, "region")};
    s.p.running("machine1", kPodLabel);
    CHECK(s.verdict() == kAff);
  }
  SUBCASE("satisfies the PodAffinity and PodAntiAffinity with the existing pod") {
    s.p.pod.labels = kPodLabel2;
    s.p.pod.affinity.required = {term({in({"securityscan", "value2"})}, "region")};
    s.p.pod.anti_affinity.required = {term({in({"antivirusscan", "value2"})}, "node")};
    s.p.running("machine1", kPodLabel);
    CHECK(s.verdict() == kOk);
  }
  SUBCASE(
      "satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the "
      "existing pod") {
    s.p.pod.labels = kPodLabel2;
    s.p.pod.affinity.required = {term({in({"securityscan", "value2"})}, "region")};
    s.p.pod.anti_affinity.required = {term({in({"antivirusscan", "value2"})}, "node")};
    s.p.running("machine1", kPodLabel).anti_affinity.required = {
        term({in({"antivirusscan", "value2"})}, "node")};
    CHECK(s.verdict() == kOk);
  }
  SUBCASE(
      "satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod") {
    s.p.pod.labels = kPodLabel2;
    s.p.pod.affinity.required = {term({in({"securityscan", "value2"})}, "region")};
    s.p.pod.anti_affinity.required = {term({in({"securityscan", "value2"})}, "zone")};
    s.p.running("machine1", kPodLabel);
    CHECK(s.verdict() == kAnti);
  }
  SUBCASE(
      "satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry "
      "with the existing pod") {
    s.p.pod.labels = kPodLabel;
    s.p.pod.affinity.required = {term({in({"securityscan", "value2"})}, "region")};
    s.p.pod.anti_affinity.required = {term({in({"antivirusscan", "value2"})}, "node")};
    s.p.running("machine1", kPodLabel).anti_affinity.required = {
        term({in({"securityscan", "value2"})}, "zone")};
    CHECK(s.verdict() == kExisting);
  }
  SUBCASE("pod matches its own Label in PodAffinity and that matches the existing pod Labels") {
    s.p.node("machine2");  // not labelled with region
    s.p.pod.labels = kPodLabel;
    s.p.pod.affinity.required = {term({not_in({"securityscan", "value2"})}, "region")};
    s.p.running("machine2", kPodLabel);
    CHECK(s.verdict() == kAff);
  }
  SUBCASE(
      "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity "
      "constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod") {
    s.p.pod.labels = kPodLabel;
    s.p.running("machine1", kPodLabel).anti_affinity.required = {
        term({in({"securityscan", "value2"})}, "zone")};
    CHECK(s.verdict() == kExisting);
  }
  SUBCASE(
      "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity "
      "constraints. satisfy PodAntiAffinity symmetry with the existing pod") {
    s.p.pod.labels = kPodLabel;
    s.p.running("machine1", kPodLabel).anti_affinity.required = {
        term({not_in({"securityscan", "value2"})}, "zone")};
    CHECK(s.verdict() == kOk);
  }
}
