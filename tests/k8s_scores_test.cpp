// The kubernetes profile's score plugins against tables transcribed from
// Kubernetes v1.35's own tests (table and case names in each SUBCASE), the
// inputs and expected normalized scores as there. Kubernetes' pods without a
// namespace are eruplan's `default` ones. Cases that need what eruplan does
// not model are left out, each named with the reason.
#include <doctest/doctest.h>

#include <deque>
#include <string>
#include <vector>

#include "k8s_profile.h"
#include "strategy_score.h"

using namespace eruplan;

namespace {

// A cluster of nodes and running pods, scored the way kube-scheduler's
// tests do: the plugins see every node and pod, and score `scored` only.
struct Cluster {
  Inventory inventory;
  Request request;
  PodScheduling pod;
  std::deque<PodScheduling> running;  // stable addresses for K8sPod
  std::vector<std::uint32_t> on;      // node of each running pod
  std::vector<char> terminating;      // of each running pod: deletionTimestamp set
  K8sCluster cluster;
  K8sCycle cycle;

  void node(std::string name, Labels labels = {}, std::vector<Taint> taints = {}) {
    Node n;
    n.name = std::move(name);
    n.labels = std::move(labels);
    for (Taint& t : taints) n.taints.push_back(std::move(t));
    inventory.nodes.push_back(std::move(n));
  }
  std::uint32_t index(const std::string& name) const {
    for (std::uint32_t i = 0; i < inventory.nodes.size(); ++i)
      if (inventory.nodes[i].name == name) return i;
    FAIL("no node " << name);
    return 0;
  }
  PodScheduling& run(const std::string& node_name, Labels labels, std::string ns = "default") {
    PodScheduling& p = running.emplace_back();
    p.labels = std::move(labels);
    p.ns = std::move(ns);
    on.push_back(index(node_name));
    terminating.push_back(0);
    return p;
  }
  // A running pod being deleted (st.MakePod().Terminating()).
  PodScheduling& run_terminating(const std::string& node_name, Labels labels) {
    PodScheduling& p = run(node_name, std::move(labels));
    terminating.back() = 1;
    return p;
  }
  // The normalized scores of the nodes named in `scored`, in that order.
  template <class Plugin>
  std::vector<std::int64_t> score(Plugin plugin, const std::vector<std::string>& scored) {
    cluster = K8sCluster{};
    cluster.inventory = &inventory;
    cluster.request = &request;
    cluster.pod = &pod;
    for (const Node& n : inventory.nodes) cluster.labels.push_back(k8s_node_labels(n));
    cluster.pods.resize(inventory.nodes.size());
    for (std::size_t p = 0; p < running.size(); ++p)
      cluster.pods[on[p]].push_back(
          {&running[p].ns, &running[p].labels, &running[p], 1, terminating[p] != 0});
    if (pod.spread.empty() && pod.owner_selector) {  // the system defaults, as k8s_prepare
      TopologySpreadConstraint zone;
      zone.max_skew = 5;
      zone.topology_key = std::string(kZoneLabel);
      zone.do_not_schedule = false;
      zone.selector = pod.owner_selector;
      TopologySpreadConstraint host = zone;
      host.max_skew = 3;
      host.topology_key = std::string(kHostnameLabel);
      cluster.default_spread = {zone, host};
    }
    cycle = K8sCycle{};
    cycle.cluster = &cluster;
    std::vector<std::uint32_t> nodes;
    for (const std::string& name : scored) nodes.push_back(index(name));
    return plugin(cycle, nodes);
  }
};

LabelSelector exists(std::string key) {
  LabelSelector s;
  s.requirements.push_back({std::move(key), SelectorOp::Exists, {}});
  return s;
}
LabelSelector in(std::string key, std::vector<std::string> values) {
  LabelSelector s;
  s.requirements.push_back({std::move(key), SelectorOp::In, std::move(values)});
  return s;
}

TopologySpreadConstraint soft(std::int32_t max_skew, std::string key,
                              std::optional<LabelSelector> selector) {
  TopologySpreadConstraint c;
  c.max_skew = max_skew;
  c.topology_key = std::move(key);
  c.do_not_schedule = false;
  c.selector = std::move(selector);
  return c;
}

const std::string kHost(kHostnameLabel);
const Labels kFoo{{"foo", ""}}, kBar{{"bar", ""}}, kFooBar{{"bar", ""}, {"foo", ""}};

Labels host(const std::string& name) { return {{kHost, name}}; }
Labels zone_host(const std::string& zone, const std::string& name) {
  return {{kHost, name}, {"zone", zone}};
}

std::vector<std::int64_t> spread(Cluster& c, const std::vector<std::string>& scored) {
  return c.score(k8s_score_spread, scored);
}
std::vector<std::int64_t> interpod(Cluster& c, const std::vector<std::string>& scored) {
  return c.score(k8s_score_interpod, scored);
}

using Scores = std::vector<std::int64_t>;

}  // namespace

// --- PodTopologySpread -------------------------------------------------------
// podtopologyspread/scoring_test.go, TestPodTopologySpreadScore; fooSelector
// and barSelector are Exists(foo) and Exists(bar), `taints` the
// node.kubernetes.io/unschedulable NoSchedule taint. Left out: "one
// constraint on node, 3 out of 4 nodes are candidates, one node doesn't
// match topology key" (eruplan gives every node kubernetes.io/hostname, as
// the kubelet does), "matchLabelKeys ignored when
// feature gate disabled" (no feature gates: matchLabelKeys always applies).
TEST_CASE("k8s PodTopologySpread score: TestPodTopologySpreadScore") {
  Cluster c;
  c.pod.labels = kFoo;
  SUBCASE("terminating Pods should be excluded") {
    // A pod with metadata.deletionTimestamp (kubectl lists it while it
    // terminates) counts for no spread: countPodsMatchSelector bypasses it.
    c.pod.spread = {soft(1, kHost, exists("foo"))};
    c.node("node-a", host("node-a"));
    c.node("node-b", host("node-b"));
    c.run_terminating("node-a", kFoo);
    c.run("node-b", kFoo);
    CHECK(spread(c, {"node-a", "node-b"}) == Scores{100, 0});
  }
  SUBCASE("one constraint on node, no existing pods") {
    c.pod.spread = {soft(1, kHost, exists("foo"))};
    c.node("node-a", host("node-a"));
    c.node("node-b", host("node-b"));
    CHECK(spread(c, {"node-a", "node-b"}) == Scores{100, 100});
  }
  SUBCASE("one constraint on node, only one node is candidate") {
    c.pod.spread = {soft(1, kHost, exists("foo"))};
    c.node("node-a", host("node-a"));
    c.node("node-b", host("node-b"));
    c.run("node-a", kFoo);
    c.run("node-a", kFoo);
    c.run("node-b", kFoo);
    CHECK(spread(c, {"node-a"}) == Scores{100});
  }
  SUBCASE("one constraint on node, all nodes have the same number of matching pods") {
    c.pod.spread = {soft(1, kHost, exists("foo"))};
    c.node("node-a", host("node-a"));
    c.node("node-b", host("node-b"));
    c.run("node-a", kFoo);
    c.run("node-b", kFoo);
    CHECK(spread(c, {"node-a", "node-b"}) == Scores{100, 100});
  }
  // matching pods spread as 2/1/0/3 (and 4/3/2/1 for maxSkew=3).
  const auto four_nodes = [](Cluster& k, std::vector<int> per_node) {
    const char* names[] = {"node-a", "node-b", "node-c", "node-d"};
    for (const char* n : names) k.node(n, host(n));
    for (std::size_t i = 0; i < 4; ++i)
      for (int p = 0; p < per_node[i]; ++p) k.run(names[i], kFoo);
  };
  SUBCASE("one constraint on node, all 4 nodes are candidates") {
    c.pod.spread = {soft(1, kHost, exists("foo"))};
    four_nodes(c, {2, 1, 0, 3});
    CHECK(spread(c, {"node-a", "node-b", "node-c", "node-d"}) == Scores{20, 60, 100, 0});
  }
  SUBCASE("one constraint on node, null selector") {
    c.pod.spread = {soft(1, kHost, std::nullopt)};
    four_nodes(c, {2, 1, 0, 3});
    CHECK(spread(c, {"node-a", "node-b", "node-c", "node-d"}) == Scores{100, 100, 100, 100});
  }
  SUBCASE("one constraint on node, all 4 nodes are candidates, maxSkew=2") {
    c.pod.spread = {soft(2, kHost, exists("foo"))};
    four_nodes(c, {2, 1, 0, 3});
    CHECK(spread(c, {"node-a", "node-b", "node-c", "node-d"}) == Scores{33, 66, 100, 16});
  }
  SUBCASE("one constraint on node, all 4 nodes are candidates, maxSkew=3") {
    c.pod.spread = {soft(3, kHost, exists("foo"))};
    four_nodes(c, {4, 3, 2, 1});
    CHECK(spread(c, {"node-a", "node-b", "node-c", "node-d"}) == Scores{44, 66, 77, 100});
  }
  SUBCASE("system defaulting, nodes don't have zone, pods match service") {
    // The service's selector is eruplan's workload selector.
    c.pod.owner_selector = in("foo", {""});
    four_nodes(c, {4, 3, 2, 1});
    CHECK(spread(c, {"node-a", "node-b", "node-c", "node-d"}) == Scores{44, 66, 77, 100});
  }
  // matching pods spread as 4/2/1/~3~ (node-y is not a candidate).
  const auto abxy = [](Cluster& k, bool zones) {
    const char* names[] = {"node-a", "node-b", "node-x", "node-y"};
    const char* zone[] = {"zone1", "zone1", "zone2", "zone2"};
    for (int i = 0; i < 4; ++i)
      k.node(names[i], zones ? zone_host(zone[i], names[i]) : host(names[i]));
    for (int p = 0; p < 4; ++p) k.run("node-a", kFoo);
    for (int p = 0; p < 2; ++p) k.run("node-b", kFoo);
    k.run("node-x", kFoo);
    for (int p = 0; p < 3; ++p) k.run("node-y", kFoo);
  };
  SUBCASE("one constraint on node, 3 out of 4 nodes are candidates") {
    c.pod.spread = {soft(1, kHost, exists("foo"))};
    abxy(c, false);
    CHECK(spread(c, {"node-a", "node-b", "node-x"}) == Scores{33, 83, 100});
  }
  SUBCASE("one constraint on zone, 3 out of 4 nodes are candidates") {
    c.pod.spread = {soft(1, "zone", exists("foo"))};
    abxy(c, true);
    CHECK(spread(c, {"node-a", "node-b", "node-x"}) == Scores{75, 75, 100});
  }
  SUBCASE("two Constraints on zone and node, 2 out of 4 nodes are candidates") {
    // matching pods spread as 2/~1~/2/~4~.
    c.pod.spread = {soft(1, "zone", exists("foo")), soft(1, kHost, exists("foo"))};
    const char* names[] = {"node-a", "node-b", "node-x", "node-y"};
    const char* zone[] = {"zone1", "zone1", "zone2", "zone2"};
    for (int i = 0; i < 4; ++i) c.node(names[i], zone_host(zone[i], names[i]));
    const int per_node[] = {2, 1, 2, 4};
    for (int i = 0; i < 4; ++i)
      for (int p = 0; p < per_node[i]; ++p) c.run(names[i], kFoo);
    CHECK(spread(c, {"node-a", "node-x"}) == Scores{100, 63});
  }
  SUBCASE("two Constraints on zone, 2 out of 4 nodes are candidates") {
    c.pod.labels = kFooBar;
    c.pod.spread = {soft(1, "zone", exists("foo")), soft(1, "zone", exists("bar"))};
    c.node("node-a", {{"zone", "zone1"}});
    c.node("node-b", {{"zone", "zone1"}});
    c.node("node-x", {{"zone", "zone2"}});
    c.node("node-y", {{"zone", "zone2"}});
    c.run("node-a", kFooBar);
    c.run("node-a", kFoo);
    c.run("node-b", kFooBar);
    c.run("node-y", kFoo);
    c.run("node-y", kFooBar);
    c.run("node-y", kFoo);
    CHECK(spread(c, {"node-a", "node-x"}) == Scores{85, 100});
  }
  // zone1: node-a P{foo}, node-b P{foo, bar}; zone2: node-x -, node-y P{foo} P{bar}.
  const auto different_selectors = [](Cluster& k) {
    k.pod.labels = kFooBar;
    k.pod.spread = {soft(1, "zone", exists("foo")), soft(1, kHost, exists("bar"))};
    const char* names[] = {"node-a", "node-b", "node-x", "node-y"};
    const char* zone[] = {"zone1", "zone1", "zone2", "zone2"};
    for (int i = 0; i < 4; ++i) k.node(names[i], zone_host(zone[i], names[i]));
  };
  SUBCASE("two Constraints on zone and node, with different labelSelectors") {
    different_selectors(c);
    c.run("node-a", kFoo);
    c.run("node-b", kFooBar);
    c.run("node-y", kFoo);
    c.run("node-y", kBar);
    CHECK(spread(c, {"node-a", "node-b", "node-x", "node-y"}) == Scores{60, 20, 100, 60});
  }
  SUBCASE(
      "two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods") {
    different_selectors(c);
    c.run("node-b", kBar);
    c.run("node-x", kFoo);
    c.run("node-y", kFooBar);
    CHECK(spread(c, {"node-a", "node-b", "node-x", "node-y"}) == Scores{100, 60, 40, 0});
  }
  SUBCASE(
      "two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are "
      "candidates") {
    different_selectors(c);
    c.run("node-a", kFoo);
    c.run("node-b", kFooBar);
    c.run("node-y", kFoo);
    c.run("node-y", kBar);
    CHECK(spread(c, {"node-a", "node-b", "node-x"}) == Scores{50, 25, 100});
  }
  SUBCASE("existing pods in a different namespace do not count") {
    c.pod.spread = {soft(1, kHost, exists("foo"))};
    c.node("node-a", host("node-a"));
    c.node("node-b", host("node-b"));
    c.run("node-a", kFoo, "ns1");
    c.run("node-a", kFoo);
    c.run("node-b", kFoo);
    c.run("node-b", kFoo);
    CHECK(spread(c, {"node-a", "node-b"}) == Scores{100, 33});
  }
  SUBCASE("minDomains has no effect when ScheduleAnyway") {
    c.pod.spread = {soft(2, "node", exists("foo"))};
    c.pod.spread[0].min_domains = 10;  // larger than the number of domains (3)
    for (const char* n : {"node-a", "node-b", "node-c"}) c.node(n, {{"node", n}});
    c.run("node-a", kFoo);
    c.run("node-a", kFoo);
    c.run("node-b", kFoo);
    c.run("node-b", kFoo);
    c.run("node-c", kFoo);
    CHECK(spread(c, {"node-a", "node-b", "node-c"}) == Scores{75, 75, 100});
  }
  // node-a 2, node-b 1, node-c 1 matching pods; node-c lacks foo (or is tainted).
  const auto policy_nodes = [](Cluster& k, bool taint_c) {
    k.node("node-a", {{"foo", ""}, {"node", "node-a"}});
    k.node("node-b", {{"foo", ""}, {"node", "node-b"}});
    std::vector<Taint> taints;
    if (taint_c) taints.push_back(Taint{"node.kubernetes.io/unschedulable", "", "NoSchedule"});
    k.node("node-c", {{"node", "node-c"}}, std::move(taints));
    k.run("node-a", kFoo);
    k.run("node-a", kFoo);
    k.run("node-b", kFoo);
    k.run("node-c", kFoo);
  };
  SUBCASE("NodeAffinityPolicy honoed with labelSelectors") {
    c.pod.node_selector = {{"foo", ""}};
    c.pod.spread = {soft(1, "node", exists("foo"))};
    policy_nodes(c, false);
    CHECK(spread(c, {"node-a", "node-b", "node-c"}) == Scores{0, 33, 100});
  }
  SUBCASE("NodeAffinityPolicy ignored with labelSelectors") {
    c.pod.node_selector = {{"foo", ""}};
    c.pod.spread = {soft(1, "node", exists("foo"))};
    c.pod.spread[0].node_affinity_policy = SpreadPolicy::Ignore;
    policy_nodes(c, false);
    CHECK(spread(c, {"node-a", "node-b", "node-c"}) == Scores{66, 100, 100});
  }
  NodeSelectorTerm foo_term;
  foo_term.expressions.push_back({"foo", SelectorOp::In, {""}});
  SUBCASE("NodeAffinityPolicy honoed with nodeAffinity") {
    c.pod.node_affinity.required = std::vector<NodeSelectorTerm>{foo_term};
    c.pod.spread = {soft(1, "node", exists("foo"))};
    policy_nodes(c, false);
    CHECK(spread(c, {"node-a", "node-b", "node-c"}) == Scores{0, 33, 100});
  }
  SUBCASE("NodeAffinityPolicy ignored with nodeAffinity") {
    c.pod.node_affinity.required = std::vector<NodeSelectorTerm>{foo_term};
    c.pod.spread = {soft(1, "node", exists("foo"))};
    c.pod.spread[0].node_affinity_policy = SpreadPolicy::Ignore;
    policy_nodes(c, false);
    CHECK(spread(c, {"node-a", "node-b", "node-c"}) == Scores{66, 100, 100});
  }
  SUBCASE("NodeTaintsPolicy honored") {
    c.pod.spread = {soft(1, "node", exists("foo"))};
    c.pod.spread[0].node_taints_policy = SpreadPolicy::Honor;
    policy_nodes(c, true);
    CHECK(spread(c, {"node-a", "node-b", "node-c"}) == Scores{0, 33, 100});
  }
  SUBCASE("NodeTaintsPolicy ignored") {
    c.pod.spread = {soft(1, "node", exists("foo"))};
    policy_nodes(c, true);
    CHECK(spread(c, {"node-a", "node-b", "node-c"}) == Scores{66, 100, 100});
  }
  // matchLabelKeys: the reader ANDs each key's value in the pod's labels to
  // the selector (k8s_scheduling.cpp); the selectors here are those merged.
  const auto match_label_keys_nodes = [](Cluster& k) {
    const char* names[] = {"node-a", "node-b", "node-c", "node-d"};
    const char* zone[] = {"zone1", "zone1", "zone2", "zone2"};
    for (int i = 0; i < 4; ++i) k.node(names[i], zone_host(zone[i], names[i]));
  };
  SUBCASE("matchLabelKeys ANDed with LabelSelector when LabelSelector is empty") {
    c.pod.labels = kFooBar;
    c.pod.spread = {soft(1, "zone", in("foo", {""})), soft(1, kHost, in("bar", {""}))};
    match_label_keys_nodes(c);
    c.run("node-a", kFoo);
    c.run("node-b", kFooBar);
    c.run("node-c", kFoo);
    c.run("node-c", kBar);
    CHECK(spread(c, {"node-a", "node-b", "node-c", "node-d"}) == Scores{60, 20, 60, 100});
  }
  SUBCASE("matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty") {
    c.pod.labels = {{"bar", ""}, {"baz", ""}, {"foo", ""}};
    LabelSelector bar_baz = exists("bar");
    bar_baz.requirements.push_back({"baz", SelectorOp::In, {""}});
    c.pod.spread = {soft(1, "zone", exists("foo")), soft(1, kHost, bar_baz)};
    match_label_keys_nodes(c);
    c.run("node-a", kFoo);
    c.run("node-b", {{"bar", ""}, {"baz", ""}, {"foo", ""}});
    c.run("node-c", kFoo);
    c.run("node-c", kBar);
    c.run("node-c", {{"bar", ""}, {"baz", ""}});
    CHECK(spread(c, {"node-a", "node-b", "node-c", "node-d"}) == Scores{60, 20, 60, 100});
  }
}

// --- InterPodAffinity ----------------------------------------------------------
// interpodaffinity/scoring_test.go, TestPreferredAffinity (HardPodAffinityWeight
// 1, as the default profile), with its affinities and the four team
// namespaces. Left out: "invalid Affinity fails PreScore" and "invalid
// AntiAffinity fails PreScore" (the reader refuses such a selector value),
// "Ignore preferred terms of existing pods" (eruplan runs the default
// configuration, which does not ignore them), "No nodes to score".
TEST_CASE("k8s InterPodAffinity score: TestPreferredAffinity") {
  const Labels rg_china{{"region", "China"}}, rg_india{{"region", "India"}}, az1{{"az", "az1"}},
      az2{{"az", "az2"}}, china_az1{{"az", "az1"}, {"region", "China"}};
  const Labels s1{{"security", "S1"}}, s2{{"security", "S2"}};
  const auto weighted = [](std::int32_t weight, LabelSelector selector, std::string key) {
    WeightedPodAffinityTerm t;
    t.weight = weight;
    t.term.selector = std::move(selector);
    t.term.topology_key = std::move(key);
    return t;
  };
  LabelSelector not_s1_in_s2;
  not_s1_in_s2.requirements = {{"security", SelectorOp::NotIn, {"S1"}},
                               {"security", SelectorOp::In, {"S2"}}};
  LabelSelector exists_no_wrongkey;
  exists_no_wrongkey.requirements = {{"security", SelectorOp::Exists, {}},
                                     {"wrongkey", SelectorOp::DoesNotExist, {}}};
  PodScheduling stay_with_s1_in_region, stay_with_s2_in_region, affinity3, hard_affinity,
      away_from_s1_in_az, away_from_s2_in_az, stay_s1_away_s2, affinity_ns_selector,
      anti_affinity_ns_selector;
  stay_with_s1_in_region.affinity.preferred = {weighted(5, in("security", {"S1"}), "region")};
  stay_with_s2_in_region.affinity.preferred = {weighted(6, in("security", {"S2"}), "region")};
  affinity3.affinity.preferred = {weighted(8, not_s1_in_s2, "region"),
                                  weighted(2, exists_no_wrongkey, "region")};
  {
    PodAffinityTerm a, b;
    a.selector = in("security", {"S1", "value2"});
    a.topology_key = "region";
    b.selector = exists_no_wrongkey;
    b.topology_key = "region";
    hard_affinity.affinity.required = {a, b};
  }
  away_from_s1_in_az.anti_affinity.preferred = {weighted(5, in("security", {"S1"}), "az")};
  away_from_s2_in_az.anti_affinity.preferred = {weighted(5, in("security", {"S2"}), "az")};
  stay_s1_away_s2.affinity.preferred = {weighted(8, in("security", {"S1"}), "region")};
  stay_s1_away_s2.anti_affinity.preferred = {weighted(5, in("security", {"S2"}), "az")};
  {
    WeightedPodAffinityTerm t = weighted(5, in("security", {"S1"}), "region");
    t.term.namespaces = {"subteam2.team2"};
    t.term.namespace_selector = in("team", {"team1"});
    affinity_ns_selector.affinity.preferred = {t};
    anti_affinity_ns_selector.anti_affinity.preferred = {t};
  }

  Cluster c;
  c.inventory.namespaces = {{"subteam1.team1", {{"team", "team1"}}},
                            {"subteam1.team2", {{"team", "team2"}}},
                            {"subteam2.team1", {{"team", "team1"}}},
                            {"subteam2.team2", {{"team", "team2"}}}};
  // A running pod with the given affinity (its labels kept).
  const auto with = [&](const std::string& node, Labels labels, const PodScheduling& affinity,
                        std::string ns = "default") {
    PodScheduling& p = c.run(node, std::move(labels), std::move(ns));
    p.affinity = affinity.affinity;
    p.anti_affinity = affinity.anti_affinity;
  };
  const auto wants = [&](const PodScheduling& affinity) {
    c.pod.affinity = affinity.affinity;
    c.pod.anti_affinity = affinity.anti_affinity;
  };
  const std::vector<std::string> n12{"node1", "node2"}, n123{"node1", "node2", "node3"},
      n12345{"node1", "node2", "node3", "node4", "node5"};

  SUBCASE("all nodes are same priority as Affinity is nil") {
    c.pod.labels = s1;
    c.node("node1", rg_china);
    c.node("node2", rg_india);
    c.node("node3", az1);
    CHECK(interpod(c, n123) == Scores{0, 0, 0});  // Skip: no score
  }
  SUBCASE(
      "Affinity: pod that matches topology key & pods in nodes will get high score comparing to "
      "otherswhich doesn't match either pods in nodes or in topology key") {
    c.pod.labels = s1;
    wants(stay_with_s1_in_region);
    c.node("node1", rg_china);
    c.node("node2", rg_india);
    c.node("node3", az1);
    c.run("node1", s1);
    c.run("node2", s2);
    c.run("node3", s1);
    CHECK(interpod(c, n123) == Scores{100, 0, 0});
  }
  SUBCASE(
      "All the nodes that have the same topology key & label value with one of them has an "
      "existing pod that match the affinity rules, have the same score") {
    wants(stay_with_s1_in_region);
    c.node("node1", rg_china);
    c.node("node2", china_az1);
    c.node("node3", rg_india);
    c.run("node1", s1);
    CHECK(interpod(c, n123) == Scores{100, 100, 0});
  }
  SUBCASE(
      "Affinity: nodes in one region has more matching pods comparing to other region, so the "
      "region which has more matches will get high score") {
    c.pod.labels = s1;
    wants(stay_with_s2_in_region);
    c.node("node1", rg_china);
    c.node("node2", rg_india);
    c.node("node3", rg_china);
    c.node("node4", rg_china);
    c.node("node5", rg_india);
    for (const char* n : {"node1", "node1", "node2", "node3", "node4", "node5"}) c.run(n, s2);
    CHECK(interpod(c, n12345) == Scores{100, 0, 100, 100, 0});
  }
  SUBCASE(
      "Affinity: different Label operators and values for pod affinity scheduling preference, "
      "including some match failures ") {
    c.pod.labels = s1;
    wants(affinity3);
    c.node("node1", rg_china);
    c.node("node2", rg_india);
    c.node("node3", az1);
    c.run("node1", s1);
    c.run("node2", s2);
    c.run("node3", s1);
    CHECK(interpod(c, n123) == Scores{20, 100, 0});
  }
  SUBCASE(
      "Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in "
      "pod affinity symmetry") {
    c.pod.labels = s2;
    c.node("node1", rg_china);
    c.node("node2", rg_india);
    c.node("node3", az1);
    with("node1", s1, stay_with_s1_in_region);
    with("node2", s2, stay_with_s2_in_region);
    CHECK(interpod(c, n123) == Scores{0, 100, 0});
  }
  SUBCASE("Affinity symmetry with namespace selector") {
    c.pod.labels = s1;
    c.pod.ns = "subteam1.team1";
    c.node("node1", rg_china);
    c.node("node2", rg_india);
    c.node("node3", az1);
    with("node1", s1, affinity_ns_selector);
    with("node2", s2, stay_with_s2_in_region);
    CHECK(interpod(c, n123) == Scores{100, 0, 0});
  }
  SUBCASE("AntiAffinity symmetry with namespace selector") {
    c.pod.labels = s1;
    c.pod.ns = "subteam1.team1";
    c.node("node1", rg_china);
    c.node("node2", rg_india);
    c.node("node3", az1);
    with("node1", s1, anti_affinity_ns_selector);
    with("node2", s2, stay_with_s2_in_region);
    CHECK(interpod(c, n123) == Scores{0, 100, 100});
  }
  SUBCASE(
      "Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod "
      "affinity symmetry") {
    c.pod.labels = s1;
    c.node("node1", rg_china);
    c.node("node2", rg_india);
    c.node("node3", az1);
    with("node1", s1, hard_affinity);
    with("node2", s2, hard_affinity);
    CHECK(interpod(c, n123) == Scores{100, 100, 0});
  }
  SUBCASE("Anti Affinity: pod that does not match existing pods in node will get high score ") {
    c.pod.labels = s1;
    wants(away_from_s1_in_az);
    c.node("node1", az1);
    c.node("node2", rg_china);
    c.run("node1", s1);
    c.run("node2", s2);
    CHECK(interpod(c, n12) == Scores{0, 100});
  }
  SUBCASE(
      "Anti Affinity: pod that does not match topology key & match the pods in nodes will get "
      "higher score comparing to others ") {
    c.pod.labels = s1;
    wants(away_from_s1_in_az);
    c.node("node1", az1);
    c.node("node2", rg_china);
    c.run("node1", s1);
    c.run("node2", s1);
    CHECK(interpod(c, n12) == Scores{0, 100});
  }
  SUBCASE(
      "Anti Affinity: one node has more matching pods comparing to other node, so the node which "
      "has more unmatches will get high score") {
    c.pod.labels = s1;
    wants(away_from_s1_in_az);
    c.node("node1", az1);
    c.node("node2", rg_india);
    c.run("node1", s1);
    c.run("node1", s1);
    c.run("node2", s2);
    CHECK(interpod(c, n12) == Scores{0, 100});
  }
  SUBCASE(
      "Anti Affinity symmetry: the existing pods in node which has anti affinity match will get "
      "high score") {
    c.pod.labels = s2;
    c.node("node1", az1);
    c.node("node2", az2);
    with("node1", s1, away_from_s2_in_az);
    with("node2", s2, away_from_s1_in_az);
    CHECK(interpod(c, n12) == Scores{0, 100});
  }
  SUBCASE(
      "Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution "
      "in both pod affinity & anti affinity") {
    c.pod.labels = s1;
    wants(stay_s1_away_s2);
    c.node("node1", rg_china);
    c.node("node2", az1);
    c.run("node1", s1);
    c.run("node2", s1);
    CHECK(interpod(c, n12) == Scores{100, 0});
  }
  SUBCASE(
      "Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to "
      "schedule and existing pods have the same labels") {
    c.pod.labels = s1;
    wants(stay_s1_away_s2);
    c.node("node1", china_az1);
    c.node("node2", rg_india);
    c.node("node3", rg_china);
    c.node("node4", rg_china);
    c.node("node5", rg_india);
    for (const char* n : {"node1", "node1", "node2", "node3", "node3", "node4", "node5"})
      c.run(n, s1);
    CHECK(interpod(c, n12345) == Scores{100, 0, 100, 100, 0});
  }
  SUBCASE(
      "Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnored"
      "DuringExecution in both pod affinity & anti affinity & symmetry") {
    c.pod.labels = s1;
    wants(stay_s1_away_s2);
    c.node("node1", rg_china);
    c.node("node2", az1);
    c.node("node3", rg_india);
    c.node("node4", az2);
    c.run("node1", s1);
    c.run("node2", s2);
    with("node3", {}, stay_s1_away_s2);
    with("node4", {}, away_from_s1_in_az);
    CHECK(interpod(c, {"node1", "node2", "node3", "node4"}) == Scores{100, 0, 100, 0});
  }
  SUBCASE("Avoid panic when partial nodes in a topology don't have pods with affinity") {
    c.pod.labels = s1;
    c.node("node1", rg_china);
    c.node("node2", rg_china);
    c.run("node1", s1);
    with("node2", {}, stay_s1_away_s2);
    CHECK(interpod(c, n12) == Scores{0, 0});
  }
  // The two cases of each name: the pod's affinity, then its anti-affinity.
  const auto namespaced = [&](bool anti, const char* third_ns) {
    c.pod.labels = s1;
    c.pod.ns = "subteam1.team1";
    wants(anti ? anti_affinity_ns_selector : affinity_ns_selector);
    c.node("node1", rg_china);
    c.node("node2", rg_india);
    c.run("node1", s1, "subteam1.team1");
    c.run("node1", s1, "subteam1.team1");
    c.run("node1", s1, third_ns);
    c.run("node2", s1, "subteam2.team1");
  };
  SUBCASE("Affinity with pods matching NamespaceSelector") {
    namespaced(false, "subteam1.team2");
    CHECK(interpod(c, n12) == Scores{100, 0});
  }
  SUBCASE("Affinity with pods matching both NamespaceSelector and Namespaces fields") {
    namespaced(false, "subteam2.team2");
    CHECK(interpod(c, n12) == Scores{100, 0});
  }
  SUBCASE("Affinity with pods matching NamespaceSelector (anti-affinity)") {
    namespaced(true, "subteam1.team2");
    CHECK(interpod(c, n12) == Scores{0, 100});
  }
  SUBCASE("Affinity with pods matching both NamespaceSelector and Namespaces fields (anti)") {
    namespaced(true, "subteam2.team2");
    CHECK(interpod(c, n12) == Scores{0, 100});
  }
  SUBCASE("Do not ignore preferred terms of existing pods") {
    c.pod.labels = s2;
    c.node("node1", rg_china);
    c.node("node2", rg_india);
    with("node1", s1, stay_s1_away_s2);
    with("node2", s2, stay_with_s2_in_region);
    CHECK(interpod(c, n12) == Scores{0, 100});
  }
}

// interpodaffinity/scoring_test.go,
// TestPreferredAffinityWithHardPodAffinitySymmetricWeight: existing pods'
// required affinity counts with weight 1 (the default). Left out: "with
// zero weight" (the weight is not configurable). Kubernetes' "" namespace
// in the term's namespaces is eruplan's default one.
TEST_CASE("k8s InterPodAffinity score: TestPreferredAffinityWithHardPodAffinitySymmetricWeight") {
  Cluster c;
  c.inventory.namespaces = {{"subteam1.team1", {{"team", "team1"}}},
                            {"subteam1.team2", {{"team", "team2"}}},
                            {"subteam2.team1", {{"team", "team1"}}},
                            {"subteam2.team2", {{"team", "team2"}}}};
  PodAffinityTerm hard;
  hard.selector = in("service", {"S1"});
  hard.namespaces = {"default", "subteam2.team2"};
  hard.namespace_selector = in("team", {"team1"});
  hard.topology_key = "region";
  c.pod.labels = {{"service", "S1"}};
  c.node("node1", {{"region", "China"}});
  c.node("node2", {{"region", "India"}});
  c.node("node3", {{"az", "az1"}});
  c.run("node1", {}).affinity.required = {hard};
  c.run("node2", {}).affinity.required = {hard};
  const std::vector<std::string> all{"node1", "node2", "node3"};
  SUBCASE("with default weight") { CHECK(interpod(c, all) == Scores{100, 100, 0}); }
  SUBCASE("with no matching namespace") {
    c.pod.ns = "subteam1.team2";
    CHECK(interpod(c, all) == Scores{0, 0, 0});  // Skip: no score
  }
  SUBCASE("with matching NamespaceSelector") {
    c.pod.ns = "subteam1.team1";
    CHECK(interpod(c, all) == Scores{100, 100, 0});
  }
  SUBCASE("with matching Namespaces") {
    c.pod.ns = "subteam2.team2";
    CHECK(interpod(c, all) == Scores{100, 100, 0});
  }
}

// --- NodeResourcesFit (LeastAllocated) and BalancedAllocation ---------------
// The node's allocatable and usage and the pod's request as kube-scheduler's
// tests give them, cpu read as millicores (nanocores here; only the ratios
// matter), memory in bytes, and
// nvidia.com/gpu or `extended` counted. A pod's request is the sum of its
// containers (st.MakePod().Req() adds one container per call).
namespace {

constexpr std::int64_t kMilli = 1'000'000;  // nanocores per millicore

Node resource_node(NanoCores milli_cpu, Bytes memory, NanoCores used_milli = 0,
                   Bytes used_memory = 0, std::string extended = "", std::int64_t total = 0,
                   std::int64_t used = 0) {
  Node n;
  n.name = "node";
  n.cpu_given = milli_cpu * kMilli;
  n.cpu_used = used_milli * kMilli;
  n.memory = memory;
  n.memory_used = used_memory;
  if (!extended.empty()) n.extended.push_back(ExtendedResource{extended, total, used});
  return n;
}

Request resource_request(NanoCores milli_cpu, Bytes memory, std::string extended = "",
                         std::int64_t per = 0) {
  Request r;
  r.cpu = milli_cpu * kMilli;
  r.memory = memory;
  if (!extended.empty()) r.extended.emplace_back(extended, per);
  return r;
}

NodeScore resource_score(const Node& node, const Request& request) {
  return score_node(scored_resources(node, request), request.scoring, 0);
}

}  // namespace

// noderesources/least_allocated_test.go, TestLeastAllocatedScoringStrategy.
// Left out: "Resources not set, pods scheduled with error" and the three
// weight-validation cases (scoring: is validated when read).
TEST_CASE("k8s NodeResourcesFit score: TestLeastAllocatedScoringStrategy") {
  const Request nothing = resource_request(0, 0), cpu_mem = resource_request(3000, 5000);
  SUBCASE("nothing scheduled, nothing requested") {
    CHECK(resource_score(resource_node(4000, 10000), nothing).fit == 100);
  }
  SUBCASE("nothing scheduled, resources requested, differently sized nodes") {
    CHECK(resource_score(resource_node(4000, 10000), cpu_mem).fit == 37);
    CHECK(resource_score(resource_node(6000, 10000), cpu_mem).fit == 50);
  }
  SUBCASE("no resources requested, pods scheduled") {
    CHECK(resource_score(resource_node(4000, 10000), nothing).fit == 100);
  }
  SUBCASE("no resources requested, pods scheduled with resources") {
    CHECK(resource_score(resource_node(10000, 20000, 6000, 0), nothing).fit == 70);
    CHECK(resource_score(resource_node(10000, 20000, 6000, 5000), nothing).fit == 57);
  }
  SUBCASE("resources requested, pods scheduled with resources") {
    CHECK(resource_score(resource_node(10000, 20000, 3000, 0), cpu_mem).fit == 57);
    CHECK(resource_score(resource_node(10000, 20000, 3000, 5000), cpu_mem).fit == 45);
  }
  SUBCASE("resources requested, pods scheduled with resources, differently sized nodes") {
    CHECK(resource_score(resource_node(10000, 20000, 3000, 0), cpu_mem).fit == 57);
    CHECK(resource_score(resource_node(10000, 50000, 3000, 5000), cpu_mem).fit == 60);
  }
  SUBCASE("requested resources exceed node capacity") {
    const Request r = resource_request(3000, 0);
    CHECK(resource_score(resource_node(4000, 10000, 3000, 0), r).fit == 50);
    CHECK(resource_score(resource_node(4000, 10000, 3000, 5000), r).fit == 25);
  }
  SUBCASE("zero node resources, pods scheduled with resources") {
    CHECK(resource_score(resource_node(0, 0), nothing).fit == 0);
  }
  SUBCASE(
      "nothing scheduled, resources requested with different weight on CPU and memory, "
      "differently sized nodes") {
    Request r = cpu_mem;
    r.scoring.resources = {{"memory", 2}, {"cpu", 1}};
    CHECK(resource_score(resource_node(4000, 10000), r).fit == 41);
    CHECK(resource_score(resource_node(6000, 10000), r).fit == 50);
  }
  // extendedResourceSet: cpu, memory and `extended`, weight 1 each.
  SUBCASE("bypass extended resource if the pod does not request") {
    Request r = cpu_mem;
    r.scoring.resources = {{"cpu", 1}, {"memory", 1}, {"extended", 1}};
    CHECK(resource_score(resource_node(6000, 10000), r).fit == 50);
    CHECK(resource_score(resource_node(6000, 10000, 0, 0, "extended", 4), r).fit == 50);
  }
  SUBCASE("honor extended resource if the pod requests") {
    Request r = resource_request(3000, 5000, "extended", 2);
    r.scoring.resources = {{"cpu", 1}, {"memory", 1}, {"extended", 1}};
    CHECK(resource_score(resource_node(6000, 10000, 0, 0, "extended", 4), r).fit == 50);
    CHECK(resource_score(resource_node(6000, 10000, 0, 0, "extended", 10), r).fit == 60);
  }
  SUBCASE("if the node doesn't have a resource") {
    Request r = resource_request(3000, 4000);
    r.scoring.resources = {{"extended", 2}, {"cpu", 1}, {"memory", 1}};
    CHECK(resource_score(resource_node(6000, 10000), r).fit == 55);
    CHECK(resource_score(resource_node(6000, 10000, 0, 0, "extended", 4), r).fit == 55);
  }
}

// noderesources/balanced_allocation_test.go, TestNodeResourcesBalancedAllocation:
// cpuOnly is 3000m and 0 memory, cpuAndMemory 3000m and 5000, on node1 and
// node2 as the case's pods say. Left out: the two DRA cases (dynamic
// resource claims are not modelled) and the "if PreScore not called" twin of
// a case below (eruplan has no PreScore step to leave out).
TEST_CASE("k8s BalancedAllocation score: TestNodeResourcesBalancedAllocation") {
  const Request cpu_only = resource_request(3000, 0), cpu_and_memory = resource_request(3000, 5000);
  SUBCASE("nothing scheduled, nothing requested, skip in PreScore") {
    CHECK(resource_score(resource_node(4000, 10000), resource_request(0, 0)).balanced == 0);
  }
  SUBCASE("nothing scheduled, resources requested, differently sized nodes") {
    CHECK(resource_score(resource_node(4000, 10000), cpu_and_memory).balanced == 87);
    CHECK(resource_score(resource_node(6000, 10000), cpu_and_memory).balanced == 100);
  }
  SUBCASE("resources requested, pods scheduled with resources") {
    CHECK(resource_score(resource_node(10000, 20000, 3000, 0), cpu_and_memory).balanced == 82);
    CHECK(resource_score(resource_node(10000, 20000, 3000, 5000), cpu_and_memory).balanced == 95);
  }
  SUBCASE("resources requested, pods scheduled with resources, differently sized nodes") {
    CHECK(resource_score(resource_node(10000, 20000, 3000, 0), cpu_and_memory).balanced == 82);
    CHECK(resource_score(resource_node(10000, 50000, 3000, 5000), cpu_and_memory).balanced == 80);
  }
  SUBCASE("requested resources at node capacity") {
    CHECK(resource_score(resource_node(6000, 10000, 3000, 0), cpu_only).balanced == 50);
    CHECK(resource_score(resource_node(6000, 10000, 3000, 5000), cpu_only).balanced == 75);
  }
  SUBCASE("include scalar resource on a node for balanced resource allocation") {
    Request r = resource_request(0, 0, "nvidia.com/gpu", 1);
    r.scoring.resources = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}};
    // node1 runs cpuAndMemoryAndGPU (3 GPUs), node2 cpuAndMemory.
    CHECK(resource_score(resource_node(3500, 40000, 3000, 5000, "nvidia.com/gpu", 8, 3), r)
              .balanced == 70);
    CHECK(resource_score(resource_node(3500, 40000, 3000, 5000, "nvidia.com/gpu", 8, 0), r)
              .balanced == 65);
  }
  SUBCASE("node without the scalar resource should skip the scalar resource") {
    Request r = cpu_and_memory;
    r.scoring.resources = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}};
    CHECK(resource_score(resource_node(3500, 40000, 0, 0, "nvidia.com/gpu", 8), r).balanced == 63);
    CHECK(resource_score(resource_node(3500, 40000), r).balanced == 63);
  }
}
