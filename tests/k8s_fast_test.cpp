// The kubernetes profile's fast path (k8s_fast.cpp) against its
// one-at-a-time reference (k8s_profile.cpp) on thousands of random clusters:
// zones, racks and hostnames (some nodes without them), NoSchedule and
// PreferNoSchedule taints, cordoned nodes, running pods in two namespaces
// with labels, requests or none, host ports and affinities of their own;
// the Deployment with random spread constraints, node and pod affinity,
// tolerations and ports. Same outcome, message, placements and every
// plugin's score of the first replica.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "capacity.h"
#include "k8s_profile.h"
#include "kubernetes.h"
#include "load.h"
#include "random.h"
#include "requests.h"

using namespace eruplan;

namespace {

struct Gen {
  SplitMix64 r;
  explicit Gen(std::uint64_t seed) : r(seed) {}
  std::uint64_t below(std::uint64_t n) { return r.next() % n; }
  bool chance(int percent) { return below(100) < static_cast<std::uint64_t>(percent); }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }
};

const std::vector<std::string> kZones = {"a", "b", "c"};
const std::vector<std::string> kApps = {"web", "cache", "db"};
const std::vector<std::string> kHostKeys = {"kubernetes.io/hostname", "topology.kubernetes.io/zone",
                                            "rack"};

std::string selector(Gen& g) {
  switch (g.below(4)) {
    case 0:
      return R"({"matchLabels": {"app": ")" + g.pick(kApps) + R"("}})";
    case 1:
      return R"({"matchExpressions": [{"key": "app", "operator": "In", "values": ["web", ")" +
             g.pick(kApps) + R"("]}]})";
    case 2:
      return R"({"matchExpressions": [{"key": "tier", "operator": "Exists"}]})";
    default:
      return R"({"matchLabels": {"app": "web"}})";
  }
}

std::string term(Gen& g) {
  std::string t =
      R"({"labelSelector": )" + selector(g) + R"(, "topologyKey": ")" + g.pick(kHostKeys) + R"(")";
  if (g.chance(15)) t += R"(, "namespaces": ["default", "other"])";
  if (g.chance(10)) t += R"(, "namespaceSelector": {})";
  return t + "}";
}

std::string weighted(Gen& g) {
  return R"({"weight": )" + std::to_string(1 + g.below(100)) + R"(, "podAffinityTerm": )" +
         term(g) + "}";
}

// A pod affinity block: some of required/preferred affinity and anti-affinity.
std::string pod_affinity(Gen& g, int percent) {
  std::string out;
  for (const char* kind : {"podAffinity", "podAntiAffinity"}) {
    std::string parts;
    if (g.chance(percent))
      parts += R"("requiredDuringSchedulingIgnoredDuringExecution": [)" + term(g) + "]";
    if (g.chance(percent)) {
      parts += parts.empty() ? "" : ", ";
      parts += R"("preferredDuringSchedulingIgnoredDuringExecution": [)" + weighted(g);
      if (g.chance(30)) parts += ", " + weighted(g);
      parts += "]";
    }
    if (!parts.empty())
      out += (out.empty() ? "" : ", ") + std::string("\"") + kind + "\": {" + parts + "}";
  }
  return out;
}

std::string containers(Gen& g, bool ports) {
  std::string res;
  if (g.chance(70)) {
    res = R"("resources": {"requests": {)";
    std::string parts;
    if (g.chance(80)) parts += R"("cpu": ")" + std::to_string(100 + 100 * g.below(15)) + "m\"";
    if (g.chance(70))
      parts += (parts.empty() ? "" : ", ") + std::string(R"("memory": ")") +
               std::to_string(128 * (1 + g.below(16))) + "Mi\"";
    res += parts + "}}";
  }
  std::string port;
  if (ports && g.chance(20))
    port =
        g.chance(50)
            ? R"("ports": [{"containerPort": 80, "hostPort": 80}])"
            : R"("ports": [{"containerPort": 53, "hostPort": 53, "protocol": "UDP", "hostIP": "10.0.0.1"}])";
  std::string c = R"({"name": "c")";
  if (!res.empty()) c += ", " + res;
  if (!port.empty()) c += ", " + port;
  return "[" + c + "}]";
}

// ImageLocality: images a node holds, of sizes around its thresholds.
const std::vector<std::string> kImages = {"nginx:latest", "redis:7", "gcr.io/app/web:v2",
                                          "busybox:latest"};
std::string node_images(Gen& g) {
  std::string out;
  for (const std::string& name : kImages)
    if (g.chance(40))
      out += (out.empty() ? "" : ", ") + (R"({"names": [")" + name + R"("], "sizeBytes": )" +
                                          std::to_string((10 + g.below(1500)) << 20) + "}");
  return out;
}

struct Cluster {
  std::string nodes, pods, deployment;
  bool random_ties = false;
  std::uint64_t seed = 0;
};

Cluster random_cluster(std::uint64_t seed) {
  Gen g(seed);
  Cluster c;
  const int n_nodes = 2 + static_cast<int>(g.below(20));
  std::vector<std::string> names;
  c.nodes = R"({"kind": "NodeList", "apiVersion": "v1", "items": [)";
  for (int i = 0; i < n_nodes; ++i) {
    const std::string name = "n" + std::to_string(g.below(100));
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    names.push_back(name);
    std::string labels;
    auto label = [&](const std::string& k, const std::string& v) {
      labels += (labels.empty() ? "" : ", ") + ("\"" + k + "\": \"" + v + "\"");
    };
    if (!g.chance(10)) label("topology.kubernetes.io/zone", g.pick(kZones));
    if (!g.chance(10)) label("kubernetes.io/hostname", name);
    if (g.chance(60)) label("rack", "r" + std::to_string(g.below(4)));
    if (g.chance(70)) label("pool", g.chance(50) ? "x" : "y");
    std::string taints;
    if (g.chance(15)) taints += R"({"key": "dedicated", "value": "gpu", "effect": "NoSchedule"})";
    if (g.chance(25))
      taints += (taints.empty() ? "" : ", ") +
                std::string(R"({"key": "spot", "value": "true", "effect": "PreferNoSchedule"})");
    if (g.chance(15))
      taints += (taints.empty() ? "" : ", ") +
                std::string(R"({"key": "flaky", "effect": "PreferNoSchedule"})");
    std::string spec = R"({"taints": [)" + taints + "]";
    if (g.chance(8)) spec += R"(, "unschedulable": true)";
    spec += "}";
    c.nodes += (names.size() > 1 ? ", " : "") +
               (R"({"kind": "Node", "metadata": {"name": ")" + name + R"(", "labels": {)" + labels +
                R"(}}, "spec": )" + spec + R"(, "status": {"allocatable": {"cpu": ")" +
                std::to_string(1 + g.below(8)) + R"(", "memory": ")" +
                std::to_string(2 + g.below(15)) + R"(Gi", "pods": ")" +
                std::to_string(2 + g.below(15)) + R"("}, "images": [)" + node_images(g) + "]}}");
  }
  c.nodes += "]}";

  c.pods = R"({"kind": "PodList", "apiVersion": "v1", "items": [)";
  const int n_pods = static_cast<int>(g.below(50));
  for (int p = 0; p < n_pods; ++p) {
    std::string labels = R"("app": ")" + g.pick(kApps) + "\"";
    if (g.chance(50)) labels += R"(, "tier": ")" + std::string(g.chance(50) ? "fe" : "be") + "\"";
    std::string spec =
        R"("nodeName": ")" + g.pick(names) + R"(", "containers": )" + containers(g, true);
    if (g.chance(25)) {
      const std::string a = pod_affinity(g, 40);
      if (!a.empty()) spec += R"(, "affinity": {)" + a + "}";
    }
    c.pods += (p ? ", " : "") +
              (R"({"kind": "Pod", "metadata": {"name": "p)" + std::to_string(p) +
               R"(", "namespace": ")" + (g.chance(80) ? "default" : "other") + R"(", "labels": {)" +
               labels + R"(}}, "spec": {)" + spec + R"(}, "status": {"phase": "Running"}})");
  }
  c.pods += "]}";

  std::string spec = R"("containers": )" + containers(g, true);
  if (g.chance(70)) {  // its image (nginx and busybox untagged: :latest)
    const std::vector<std::string> images = {"nginx", "redis:7", "gcr.io/app/web:v2", "busybox",
                                             "other:1"};
    spec.insert(spec.find(R"({"name": "c")") + 12, R"(, "image": ")" + g.pick(images) + "\"");
  }
  if (g.chance(40)) {
    std::string cs;
    const int n = 1 + static_cast<int>(g.below(2));
    for (int i = 0; i < n; ++i) {
      const bool hard = g.chance(50);
      std::string one =
          R"({"maxSkew": )" + std::to_string(1 + g.below(3)) + R"(, "topologyKey": ")" +
          g.pick(kHostKeys) + R"(", "whenUnsatisfiable": ")" +
          (hard ? "DoNotSchedule" : "ScheduleAnyway") + R"(", "labelSelector": )" +
          (g.chance(80) ? std::string(R"({"matchLabels": {"app": "web"}})") : selector(g));
      if (hard && g.chance(15)) one += R"(, "minDomains": )" + std::to_string(1 + g.below(4));
      if (g.chance(15)) one += R"(, "nodeTaintsPolicy": "Honor")";
      if (g.chance(10)) one += R"(, "nodeAffinityPolicy": "Ignore")";
      cs += (i ? ", " : "") + one + "}";
    }
    spec += R"(, "topologySpreadConstraints": [)" + cs + "]";
  }
  std::string affinity;
  if (g.chance(30)) {
    std::string na;
    if (g.chance(60))
      na +=
          R"("requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [{"matchExpressions": [{"key": "pool", "operator": ")" +
          std::string(g.chance(70) ? "In" : "NotIn") + R"(", "values": ["x"]}]}]})";
    if (g.chance(60))
      na +=
          (na.empty() ? "" : ", ") +
          std::string(R"("preferredDuringSchedulingIgnoredDuringExecution": [{"weight": )") +
          std::to_string(1 + g.below(100)) +
          R"(, "preference": {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": [")" +
          g.pick(kZones) + R"("]}]}}])";
    if (!na.empty()) affinity = R"("nodeAffinity": {)" + na + "}";
  }
  if (g.chance(50)) {
    const std::string a = pod_affinity(g, 35);
    if (!a.empty()) affinity += (affinity.empty() ? "" : ", ") + a;
  }
  if (!affinity.empty()) spec += R"(, "affinity": {)" + affinity + "}";
  if (g.chance(20)) spec += R"(, "nodeSelector": {"pool": "y"})";
  if (g.chance(30))
    spec +=
        g.chance(50)
            ? R"(, "tolerations": [{"key": "dedicated", "operator": "Exists"}])"
            : R"(, "tolerations": [{"key": "spot", "operator": "Equal", "value": "true", "effect": "PreferNoSchedule"}])";
  const std::string tier = g.chance(50) ? R"(, "tier": "fe")" : "";
  c.deployment =
      R"({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": {"replicas": )" +
      std::to_string(1 + g.below(30)) +
      R"(, "selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web")" +
      tier + R"(}}, "spec": {)" + spec + "}}}}";
  c.random_ties = g.chance(30);
  c.seed = g.r.next();
  return c;
}

struct Loaded {
  Inventory inventory;
  Request request;
  bool ok = false;
  std::string problems;
};

Loaded load(const Cluster& c) {
  Loaded out;
  Diagnostics diags;
  std::optional<Inventory> inv =
      load_nodes(Source{"nodes.json", c.nodes}, NodesFormat::Auto, diags);
  load_pods(inv, Source{"pods.json", c.pods}, KubernetesOptions{}, diags);
  bool matched = false;
  std::optional<RequestSet> set =
      load_kubernetes_requests(Source{"web.json", c.deployment}, RequestOverrides{},
                               KubernetesOptions{}, true, diags, matched, inv ? &*inv : nullptr);
  if (!inv || !set || set->requests.size() != 1 || diags.has_errors()) {
    out.problems = diags.to_string();
    return out;
  }
  out.inventory = std::move(*inv);
  out.request = std::move(set->requests[0]);
  out.request.scoring.tie_random = c.random_ties;
  out.request.scoring.tie_seed = c.seed;
  out.ok = true;
  return out;
}

}  // namespace

TEST_CASE("k8s fast path = the one-at-a-time reference on 3,000 random clusters") {
  int compared = 0, infeasible = 0, satisfied = 0;
  for (std::uint64_t seed = 1; seed <= 3000; ++seed) {
    const Cluster c = random_cluster(seed);
    Loaded l = load(c);
    INFO("seed ", seed, "\n", c.nodes, "\n", c.pods, "\n", c.deployment, "\n", l.problems);
    REQUIRE(l.ok);
    if (l.request.count <= 0) {
      ++satisfied;
      continue;
    }
    const CapacityMap map = capacity_pass(l.inventory, l.request);
    std::vector<std::size_t> where;
    const std::vector<StrategyInfo> infos = strategy_infos(l.inventory, map, where);
    const StrategyInput in{infos,        l.request.count, map.total, l.request.nodes_limit,
                           &l.inventory, &l.request,      1,         &map};
    const StrategyResult fast = k8s_profile_strategy(in);
    const StrategyResult ref = k8s_profile_reference(in);
    REQUIRE(fast.outcome == ref.outcome);
    CHECK(fast.message == ref.message);
    CHECK(fast.deploy == ref.deploy);
    REQUIRE(fast.scores.size() == ref.scores.size());
    for (std::size_t i = 0; i < ref.scores.size(); ++i) {
      CHECK(fast.scores[i].fit == ref.scores[i].fit);
      CHECK(fast.scores[i].balanced == ref.scores[i].balanced);
      CHECK(fast.scores[i].total == ref.scores[i].total);
      CHECK(fast.scores[i].plugins == ref.scores[i].plugins);
    }
    ++compared;
    if (ref.outcome != StrategyOutcome::Deployed) ++infeasible;
  }
  // The generator reaches both outcomes.
  CHECK(compared > 2000);
  CHECK(infeasible > 200);
  CHECK(compared - infeasible > 500);
  MESSAGE("compared ", compared, " (", infeasible, " infeasible), ", satisfied, " satisfied");
}
