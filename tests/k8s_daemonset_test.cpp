// DaemonSets: which nodes the controller runs a pod on (its predicates and
// the tolerations it adds), and a DaemonSet manifest planned end to end.
#include "k8s_daemonset.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "k8s_selector_match.h"
#include "kubernetes.h"
#include "pipeline.h"

using namespace eruplan;

namespace {

Node node_with(const std::string& name, Labels labels, std::vector<Taint> taints = {}) {
  Node n;
  n.name = name;
  n.labels = std::vector<std::pair<std::string, std::string>>(labels.begin(), labels.end());
  n.taints = taints;
  return n;
}

Requirement in(const std::string& key, std::vector<std::string> values) {
  return {key, SelectorOp::In, std::move(values)};
}

}  // namespace

// Transcribed from Kubernetes v1.35 pkg/controller/daemon/daemon_controller_test.go,
// TestNodeShouldRunDaemonPod (the shouldRun column): node "test-node"
// labelled simpleDaemonSetLabel {name: simple-daemon, type: production}.
// The resource and host-port cases expect shouldRun true: the controller
// leaves those to the scheduler (eruplan's capacity pass then decides).
TEST_CASE("daemonset: the controller's predicates (TestNodeShouldRunDaemonPod)") {
  const Labels simple = {{"name", "simple-daemon"}, {"type", "production"}};
  const Labels simple2 = {{"name", "simple-daemon"}, {"type", "test"}};
  const Node node = node_with("test-node", simple);
  const std::vector<Toleration> tol = daemon_tolerations(false);
  PodScheduling pod;
  SUBCASE("ShouldRunDaemonPod") { CHECK(daemon_should_run(node, pod, tol)); }
  SUBCASE("ErrPodNotMatchHostName") {
    pod.node_name = "other-node";
    CHECK_FALSE(daemon_should_run(node, pod, tol));
  }
  SUBCASE("ErrNodeSelectorNotMatch") {
    pod.node_selector = simple2;
    CHECK_FALSE(daemon_should_run(node, pod, tol));
  }
  SUBCASE("ShouldRunDaemonPod (nodeSelector)") {
    pod.node_selector = simple;
    CHECK(daemon_should_run(node, pod, tol));
  }
  SUBCASE("ErrPodAffinityNotMatch") {
    NodeSelectorTerm term;
    term.expressions.push_back(in("type", {"test"}));
    pod.node_affinity.required = std::vector<NodeSelectorTerm>{term};
    CHECK_FALSE(daemon_should_run(node, pod, tol));
  }
  SUBCASE("ShouldRunDaemonPod (affinity)") {
    NodeSelectorTerm term;
    term.expressions.push_back(in("type", {"production"}));
    pod.node_affinity.required = std::vector<NodeSelectorTerm>{term};
    CHECK(daemon_should_run(node, pod, tol));
  }
  SUBCASE("ShouldRunDaemonPodOnUnschedulableNode") {
    Node cordoned = node;
    cordoned.available = false;
    CHECK(daemon_should_run(cordoned, pod, tol));
  }
}

TEST_CASE("daemonset: the tolerations the controller adds (AddOrUpdateDaemonPodTolerations)") {
  auto tolerated = [](const std::string& key, const std::string& effect, bool host_network) {
    const Node n = node_with("n", {}, {Taint{key, "", effect}});
    return daemon_should_run(n, PodScheduling{}, daemon_tolerations(host_network));
  };
  for (const char* key : {"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"}) {
    CAPTURE(key);
    CHECK(tolerated(key, "NoExecute", false));
    CHECK_FALSE(tolerated(key, "NoSchedule", false));  // NoExecute only
  }
  for (const char* key : {"node.kubernetes.io/disk-pressure", "node.kubernetes.io/memory-pressure",
                          "node.kubernetes.io/pid-pressure", "node.kubernetes.io/unschedulable"}) {
    CAPTURE(key);
    CHECK(tolerated(key, "NoSchedule", false));
    CHECK_FALSE(tolerated(key, "NoExecute", false));
  }
  CHECK_FALSE(tolerated("node.kubernetes.io/network-unavailable", "NoSchedule", false));
  CHECK(tolerated("node.kubernetes.io/network-unavailable", "NoSchedule", true));
  CHECK_FALSE(tolerated("dedicated", "NoSchedule", true));
  CHECK(tolerated("dedicated", "PreferNoSchedule", false));  // never filters
  CHECK(daemon_tolerations(false).size() == 6);
  CHECK(daemon_tolerations(true).size() == 7);
}

// place_daemon against a one-node-at-a-time oracle: a node is wanted when it
// passes the selector, every taint is tolerated and none of the
// DaemonSet's pods runs there.
TEST_CASE("daemonset: place_daemon agrees with a per-node oracle on random clusters") {
  std::mt19937 rng(23);
  const std::vector<std::string> pools = {"a", "b", "gpu"};
  for (int round = 0; round < 2000; ++round) {
    Inventory inv;
    const int n = 1 + static_cast<int>(rng() % 6);
    for (int i = 0; i < n; ++i) {
      std::vector<Taint> taints;
      if (rng() % 3 == 0)
        taints.push_back({"dedicated", "x", rng() % 2 ? "NoSchedule" : "NoExecute"});
      if (rng() % 4 == 0) taints.push_back({"node.kubernetes.io/unschedulable", "", "NoSchedule"});
      if (rng() % 5 == 0)
        taints.push_back({"node.kubernetes.io/network-unavailable", "", "NoSchedule"});
      inv.nodes.push_back(node_with("n" + std::to_string(i), {{"pool", pools[rng() % 3]}}, taints));
    }
    const int pods = static_cast<int>(rng() % 5);
    std::vector<RunningPod> running;
    for (int p = 0; p < pods; ++p) {
      RunningPod rp;
      rp.node = static_cast<std::uint32_t>(rng() % static_cast<unsigned>(n));
      rp.ns = rng() % 4 == 0 ? "other" : "kube-system";
      rp.labels = {{"app", rng() % 3 == 0 ? "else" : "ds"}};
      running.push_back(rp);
    }
    inv.pods = running;
    PodScheduling pod;
    if (rng() % 2) pod.node_selector = {{"pool", pools[rng() % 3]}};
    const bool host_network = rng() % 2;
    std::vector<Toleration> tol = daemon_tolerations(host_network);
    const bool tolerate_dedicated = rng() % 2;
    if (tolerate_dedicated) tol.push_back({"dedicated", true, "", ""});
    LabelSelector selector;
    selector.requirements.push_back(in("app", {"ds"}));
    PodSelectorMatch selections(&inv, nullptr);
    const DaemonPlacement got = place_daemon(inv, pod, tol, "kube-system", selector,
                                             selections.matches(selector), selections.running());

    std::vector<std::uint32_t> want;
    for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(n); ++i) {
      const Node& node = inv.nodes[i];
      bool ok = pod.node_selector.empty() ||
                pod.node_selector.front().second ==
                    *find_label(Labels(node.labels.begin(), node.labels.end()), "pool");
      for (const Taint& t : node.taints) {
        if (t.key == "dedicated" && !tolerate_dedicated) ok = false;
        if (t.key == "node.kubernetes.io/network-unavailable" && !host_network) ok = false;
      }
      bool has = false;
      for (const RunningPod& rp : running)
        if (rp.node == i && rp.ns == "kube-system" && rp.labels.front().second == "ds") has = true;
      if (ok && !has) want.push_back(i);
    }
    CAPTURE(round);
    CHECK(got.wanted == want);
    CHECK(got.wanted.size() + got.done.size() == got.eligible.size());
  }
}

namespace {

const char* kNodes = R"({"kind": "NodeList", "apiVersion": "v1", "items": [
  {"metadata": {"name": "a1", "labels": {"pool": "a"}}, "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}}},
  {"metadata": {"name": "a2", "labels": {"pool": "a"}}, "spec": {"unschedulable": true,
    "taints": [{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}]},
   "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}}},
  {"metadata": {"name": "b1", "labels": {"pool": "b"}}, "spec": {"taints": [{"key": "dedicated", "value": "b", "effect": "NoSchedule"}]},
   "status": {"allocatable": {"cpu": "500m", "memory": "4Gi", "pods": "110"}}}]})";

std::string daemonset(const std::string& extra_spec, const std::string& cpu = "250m") {
  return "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: ops}\n"
         "spec:\n  selector: {matchLabels: {app: agent}}\n  template:\n"
         "    metadata: {labels: {app: agent}}\n    spec:\n" +
         extra_spec +
         "      containers:\n      - name: c\n        resources: {requests: {cpu: " + cpu +
         ", memory: 100Mi}}\n";
}

RunResult plan(const std::string& manifest, const std::string& pods = "",
               std::vector<std::string> flags = {}) {
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{"nodes.json", kNodes};
  o.request = Source{"ds.yaml", manifest};
  if (!pods.empty()) o.pods = Source{"pods.json", pods};
  o.output = OutputFormat::Json;
  for (const std::string& f : flags) o.overrides.set(f, "3");
  return run(o);
}

nlohmann::json deploy_of(const RunResult& r) {
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  return doc.is_object() && doc.contains("deploy") ? doc["deploy"] : nlohmann::json();
}

}  // namespace

TEST_CASE("daemonset: planned one pod per eligible node, cordoned ones included") {
  const RunResult r = plan(daemonset(""));
  CHECK(r.exit == ExitCode::Ok);
  REQUIRE(r.deploy);
  // a1 and a2 (cordoned: tolerated); b1's taint is not tolerated.
  CHECK(deploy_of(r) == nlohmann::json{{"a1", 1}, {"a2", 1}});
}

TEST_CASE("daemonset: every eligible node without room is named, all or nothing") {
  const RunResult r = plan(daemonset("      tolerations: [{operator: Exists}]\n", "1"));
  CHECK(r.exit == ExitCode::Infeasible);
  CHECK(r.err.find("DaemonSet agent: no room on 1 of 3 eligible nodes without its pod: b1 (cpu") !=
        std::string::npos);
  CHECK(r.out.find(R"("deploy")") == std::string::npos);
}

TEST_CASE("daemonset: running pods of its selector are done; all done is satisfied") {
  auto pod = [](const std::string& name, const std::string& node) {
    return R"({"metadata": {"name": ")" + name +
           R"(", "namespace": "ops", "labels": {"app": "agent"}},
      "spec": {"nodeName": ")" +
           node + R"(", "containers": [{"resources": {"requests": {"cpu": "250m"}}}]},
      "status": {"phase": "Running"}})";
  };
  const std::string one =
      R"({"kind": "PodList", "apiVersion": "v1", "items": [)" + pod("agent-x", "a1") + "]}";
  RunResult r = plan(daemonset(""), one);
  CHECK(r.exit == ExitCode::Ok);
  CHECK(deploy_of(r) == nlohmann::json{{"a2", 1}});
  const std::string both = R"({"kind": "PodList", "apiVersion": "v1", "items": [)" +
                           pod("agent-x", "a1") + "," + pod("agent-y", "a2") + "]}";
  r = plan(daemonset(""), both);
  CHECK(r.exit == ExitCode::Ok);
  CHECK(r.err.find("agent: 2 of 2 eligible nodes run its pod, nothing to place") !=
        std::string::npos);
  CHECK(r.out.find(R"("status": "satisfied")") != std::string::npos);
}

TEST_CASE("daemonset: --count does not apply (a warning), the plan is unchanged") {
  const RunResult r = plan(daemonset(""), "", {"--count"});
  CHECK(r.exit == ExitCode::Ok);
  CHECK(r.err.find("--count does not apply to a DaemonSet") != std::string::npos);
  CHECK(deploy_of(r) == nlohmann::json{{"a1", 1}, {"a2", 1}});
}

// grow without DaemonSet objects: --pods' DaemonSet pods tell which
// DaemonSets run (PodCensus::daemons), each read from its first pod.
TEST_CASE("daemonset: read from its running pods, without the controller's pin to their node") {
  const std::string nodes =
      "kind: NodeList\nitems:\n"
      "- {kind: Node, metadata: {name: a, labels: {zone: z1}}, status: {allocatable: {cpu: '4', "
      "memory: 8Gi, pods: '110'}}}\n"
      "- {kind: Node, metadata: {name: b, labels: {zone: z2}}, status: {allocatable: {cpu: '4', "
      "memory: 8Gi, pods: '110'}}}\n";
  // agent: a DaemonSet with a required zone term of its own, which the
  // controller gave matchFields metadata.name (two pods, read once);
  // proxy: pinned by a term of its own only; loose: owned but not by its
  // controller; web: a ReplicaSet's.
  const auto pod = [](const std::string& name, const std::string& node, const std::string& owner,
                      const std::string& kind, bool controller, const std::string& terms) {
    return "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"" + name +
           "\", \"namespace\": \"kube-system\", \"labels\": {\"app\": \"" + owner +
           "\"}, \"ownerReferences\": [{\"kind\": \"" + kind + "\", \"name\": \"" + owner +
           "\", \"controller\": " + (controller ? "true" : "false") +
           "}]}, \"spec\": {\"nodeName\": \"" + node +
           "\", \"affinity\": {\"nodeAffinity\": "
           "{\"requiredDuringSchedulingIgnoredDuringExecution\":"
           " {\"nodeSelectorTerms\": [" +
           terms +
           "]}}}, \"containers\": [{\"name\": \"c\", \"resources\": {\"requests\": {\"cpu\": "
           "\"250m\"}}}]}, \"status\": {\"phase\": \"Running\"}}";
  };
  const auto pinned = [](const std::string& node, const std::string& expressions) {
    return "{" + expressions + (expressions.empty() ? "" : ", ") +
           "\"matchFields\": [{\"key\": \"metadata.name\", "
           "\"operator\": \"In\", \"values\": [\"" +
           node + "\"]}]}";
  };
  const std::string zone_z1 =
      "\"matchExpressions\": [{\"key\": \"zone\", \"operator\": \"In\", \"values\": [\"z1\"]}]";
  const std::string pods =
      "{\"kind\": \"List\", \"items\": [" +
      pod("agent-1", "a", "agent", "DaemonSet", true, pinned("a", zone_z1)) + ", " +
      pod("agent-2", "b", "agent", "DaemonSet", true, pinned("b", zone_z1)) + ", " +
      pod("proxy-1", "a", "proxy", "DaemonSet", true, pinned("a", "")) + ", " +
      pod("loose-1", "b", "loose", "DaemonSet", false, pinned("b", "")) + ", " +
      pod("web-1", "b", "web", "ReplicaSet", true, pinned("b", "")) + "]}";
  Diagnostics diags;
  auto inv = load_nodes(Source{"nodes.yaml", nodes}, NodesFormat::Auto, diags);
  REQUIRE(inv);
  PodCensus census;
  census.want_daemons = true;
  REQUIRE(apply_pods(*inv, Source{"pods.json", pods}, {}, diags, &census));
  CHECK(diags.to_string() == "");
  REQUIRE(census.daemons.size() == 2);
  const Request& agent = census.daemons[0];
  CHECK(agent.name == "agent");
  CHECK(agent.daemon);
  CHECK(agent.count == 1);
  CHECK(agent.cpu == 250'000'000);
  REQUIRE(agent.pod);
  CHECK(agent.pod->ns == "kube-system");
  CHECK(agent.pod->node_name.empty());
  REQUIRE(agent.pod->node_affinity.required);
  REQUIRE(agent.pod->node_affinity.required->size() == 1);
  CHECK(agent.pod->node_affinity.required->front().fields.empty());
  CHECK(agent.pod->node_affinity.required->front().expressions.size() == 1);
  // It runs where its own term lets it, whatever node its pods were pinned to.
  CHECK(daemon_should_run(inv->nodes[0], *agent.pod, agent.tolerations));
  CHECK_FALSE(daemon_should_run(inv->nodes[1], *agent.pod, agent.tolerations));
  const Request& proxy = census.daemons[1];
  CHECK(proxy.name == "proxy");
  REQUIRE(proxy.pod);
  CHECK_FALSE(proxy.pod->node_affinity.required.has_value());
  CHECK(daemon_should_run(inv->nodes[1], *proxy.pod, proxy.tolerations));
  // Without want_daemons nothing is collected.
  PodCensus quiet;
  auto again = load_nodes(Source{"nodes.yaml", nodes}, NodesFormat::Auto, diags);
  REQUIRE(apply_pods(*again, Source{"pods.json", pods}, {}, diags, &quiet));
  CHECK(quiet.daemons.empty());
}

TEST_CASE("daemonset: a rejection names 100 nodes without room, then counts the rest") {
  std::string nodes = "nodes:\n";
  for (int i = 0; i < 103; ++i) nodes += "  - {name: n" + std::to_string(i) + "}\n";
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{"nodes.yaml", nodes};
  o.request = Source{"ds.yaml", daemonset("", "1m")};
  o.plans = PlansShown::None;
  RunResult r = run(o);
  CHECK(r.exit == ExitCode::Infeasible);
  CHECK(r.err.find("DaemonSet agent: no room on 103 of 103 eligible nodes without its pod: n0 (") !=
        std::string::npos);
  CHECK(r.err.find("); and 3 more nodes") != std::string::npos);
  // With --preempt (nothing to evict), the same 100 and count.
  o.preempt = true;
  r = run(o);
  CHECK(r.exit == ExitCode::Infeasible);
  CHECK(r.err.find(
            "no room on 103 of 103 eligible nodes without its pod, even by preemption: n0 (") !=
        std::string::npos);
  CHECK(r.err.find("); and 3 more nodes") != std::string::npos);
}
