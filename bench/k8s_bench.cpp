// The kubernetes profile's benchmark: 5,000 nodes in 3 zones, 150,000
// running pods, a Deployment with a zone spread (DoNotSchedule, maxSkew 1),
// a preferred hostname anti-affinity to itself and a required node affinity.
// Times the scheduling after load (capacity pass + the profile's strategy)
// for 1,000 and 10,000 replicas, and the one-at-a-time reference on the same
// cluster for a few replicas (per replica, as it rescans every pod each
// cycle). Checks both place the same replicas where they both run.
// Usage: eruplan_k8s_bench [runs [--no-reference]]   (default 5 runs; medians printed)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "capacity.h"
#include "k8s_profile.h"
#include "kubernetes.h"
#include "load.h"
#include "requests.h"

namespace {

using namespace eruplan;

constexpr int kNodes = 5000, kPodsPerNode = 30;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "eruplan_k8s_bench: %s\n", what.c_str());
  std::exit(1);
}

std::string name_of(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "node-%05d", i);
  return buf;
}

std::string nodes_json() {
  std::string out = R"({"kind": "NodeList", "apiVersion": "v1", "items": [)";
  for (int i = 0; i < kNodes; ++i) {
    const std::string name = name_of(i);
    out += (i ? ",\n" : "\n") +
           (R"({"kind": "Node", "metadata": {"name": ")" + name +
            R"(", "labels": {"kubernetes.io/hostname": ")" + name +
            R"(", "topology.kubernetes.io/zone": "zone-)" +
            std::string(1, static_cast<char>('a' + i % 3)) + R"(", "pool": ")" +
            (i % 10 == 9 ? "batch" : "general") +
            R"("}}, "status": {"allocatable": {"cpu": "64", "memory": "256Gi", "pods": "110"}}})");
  }
  return out + "]}";
}

// 30 pods per node of 50 apps; every third without requests; every 50th
// with a required anti-affinity of its own app by hostname.
std::string pods_json() {
  std::string out = R"({"kind": "PodList", "apiVersion": "v1", "items": [)";
  int n = 0;
  for (int i = 0; i < kNodes; ++i)
    for (int p = 0; p < kPodsPerNode; ++p, ++n) {
      const std::string app = "app-" + std::to_string(n % 50);
      std::string spec = R"("nodeName": ")" + name_of(i) + R"(", "containers": [{"name": "c")";
      if (n % 3 != 0) spec += R"(, "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}})";
      spec += "}]";
      if (n % 50 == 7)
        spec +=
            R"(, "affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"labelSelector": {"matchLabels": {"app": ")" +
            app + R"("}}, "topologyKey": "kubernetes.io/hostname"}]}})";
      out += (n ? ",\n" : "\n") +
             (R"({"kind": "Pod", "metadata": {"name": "p)" + std::to_string(n) +
              R"(", "namespace": "default", "labels": {"app": ")" + app + R"("}}, "spec": {)" +
              spec + R"(}, "status": {"phase": "Running"}})");
    }
  return out + "]}";
}

std::string deployment(int replicas) {
  return R"({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"},
"spec": {"replicas": )" +
         std::to_string(replicas) + R"(, "selector": {"matchLabels": {"app": "web"}},
"template": {"metadata": {"labels": {"app": "web"}}, "spec": {
 "containers": [{"name": "web", "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}}}],
 "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
   "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "web"}}}],
 "affinity": {
  "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
    {"matchExpressions": [{"key": "pool", "operator": "In", "values": ["general"]}]}]}},
  "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 100,
    "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": "web"}},
      "topologyKey": "kubernetes.io/hostname"}}]}}}}}})";
}

Request request_of(const Inventory& inv, int replicas) {
  Diagnostics diags;
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"web.json", deployment(replicas)}, RequestOverrides{},
                                      KubernetesOptions{}, true, diags, matched, &inv);
  if (!set || set->requests.size() != 1 || diags.has_errors()) die(diags.to_string());
  return set->requests[0];
}

// CPU time of this process in ms: the machine is shared, so wall time
// includes other people's work; both are printed.
double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Capacity pass + strategy; the deploy vector by inventory node.
struct Timed {
  double ms = 0, cpu = 0;
  std::vector<std::int64_t> placed;
  StrategyOutcome outcome = StrategyOutcome::Deployed;
};
Timed schedule(const Inventory& inv, const Request& req, bool reference) {
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_ms();
  const CapacityMap map = capacity_pass(inv, req);
  std::vector<std::size_t> where;
  const std::vector<StrategyInfo> infos = strategy_infos(inv, map, where);
  const StrategyInput in{infos, req.count, map.total, req.nodes_limit, &inv, &req, 1, &map};
  const StrategyResult r = reference ? k8s_profile_reference(in) : k8s_profile_strategy(in);
  Timed out;
  out.ms = ms_since(t0);
  out.cpu = cpu_ms() - c0;
  out.outcome = r.outcome;
  out.placed.assign(inv.nodes.size(), 0);
  for (std::size_t k = 0; k < infos.size(); ++k) out.placed[infos[k].node] = r.deploy[k];
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  auto t0 = std::chrono::steady_clock::now();
  Diagnostics diags;
  std::optional<Inventory> inv =
      load_nodes(Source{"nodes.json", nodes_json()}, NodesFormat::Auto, diags);
  load_pods(inv, Source{"pods.json", pods_json()}, KubernetesOptions{}, diags);
  if (!inv || diags.has_errors()) die(diags.to_string());
  std::printf("load: %d nodes, %zu running pods: %.0f ms (not timed below)\n", kNodes,
              inv->pods.get().size(), ms_since(t0));

  for (const int replicas : {1000, 10000}) {
    const Request req = request_of(*inv, replicas);
    std::vector<double> times, cpu;
    Timed last;
    for (int r = 0; r < runs; ++r) {
      last = schedule(*inv, req, false);
      times.push_back(last.ms);
      cpu.push_back(last.cpu);
    }
    if (last.outcome != StrategyOutcome::Deployed) die("the fast path did not place them all");
    std::int64_t zone[3] = {0, 0, 0}, max_per_node = 0;
    for (int i = 0; i < kNodes; ++i) {
      zone[i % 3] += last.placed[static_cast<std::size_t>(i)];
      max_per_node = std::max(max_per_node, last.placed[static_cast<std::size_t>(i)]);
    }
    std::printf(
        "fast path, %d replicas: %.1f ms wall, %.1f ms cpu, medians of %d (%.2f us cpu per "
        "replica); zones %lld/%lld/%lld, at most %lld per node\n",
        replicas, median(times), median(cpu), runs, median(cpu) * 1000 / replicas,
        static_cast<long long>(zone[0]), static_cast<long long>(zone[1]),
        static_cast<long long>(zone[2]), static_cast<long long>(max_per_node));
  }
  if (argc > 2 && std::string(argv[2]) == "--no-reference") return 0;
  // The reference, a few replicas: its cost per replica is a scan of every pod.
  constexpr int kReferenceReplicas = 20;
  const Request small = request_of(*inv, kReferenceReplicas);
  const Timed fast = schedule(*inv, small, false);
  const Timed ref = schedule(*inv, small, true);
  if (fast.placed != ref.placed || fast.outcome != ref.outcome)
    die("the fast path and the reference disagree");
  std::printf(
      "reference, %d replicas: %.1f ms wall, %.1f ms cpu (%.2f ms cpu per replica); fast path "
      "on the same: %.1f ms wall, %.1f ms cpu; same placements\n",
      kReferenceReplicas, ref.ms, ref.cpu, ref.cpu / kReferenceReplicas, fast.ms, fast.cpu);
  return 0;
}
