// plan --preempt at scale (issue 27): NODES nodes of 8 CPUs and 32Gi, each
// running PODS pods of 250m and 1Gi with priorities 0, 100, 1000, 10000 and
// 100000 (assigned by a splitmix64 draw), so that no node has room for one
// more replica of a Deployment of REPLICAS replicas asking for 1 CPU and
// 2Gi at priority 1000000: every replica preempts. The inputs are written as
// kubectl prints them (a NodeList, a pod List, a Deployment) and read by
// eruplan's loaders; only the planning after load is timed. Run by hand in
// a Release build (-DERUPLAN_BENCH=ON):
//   build-release/bench/eruplan_preempt_bench [NODES PODS REPLICAS [reference]]
// (defaults 5000 30 1000; `reference` redoes every node for every replica,
// as the plain engine does.)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "kubernetes.h"
#include "load.h"
#include "requests.h"

using namespace eruplan;

namespace {

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string node_name(long i) {
  char name[32];
  std::snprintf(name, sizeof name, "node%05ld", i);
  return name;
}

std::string nodes_json(long nodes) {
  std::string s = R"({"apiVersion":"v1","kind":"NodeList","items":[)";
  for (long i = 0; i < nodes; ++i)
    s += std::string(i ? "," : "") + R"({"metadata":{"name":")" + node_name(i) +
         R"("},"status":{"allocatable":{"cpu":"8","memory":"32Gi","pods":"110"}}})";
  return s + "]}";
}

std::string pods_json(long nodes, long per_node) {
  const int priorities[] = {0, 100, 1000, 10000, 100000};
  std::uint64_t seed = 27;
  std::string s = R"({"apiVersion":"v1","kind":"List","items":[)";
  for (long i = 0; i < nodes; ++i)
    for (long k = 0; k < per_node; ++k) {
      const int p = priorities[splitmix(seed) % 5];
      const unsigned minute = static_cast<unsigned>(splitmix(seed) % 60);
      char start[32];
      std::snprintf(start, sizeof start, "2026-01-01T00:%02u:00Z", minute);
      s +=
          std::string(i || k ? "," : "") + R"({"metadata":{"name":"p)" + std::to_string(i) + "-" +
          std::to_string(k) + R"(","namespace":"batch","labels":{"app":"batch-)" +
          std::to_string(p) + R"("}},"spec":{"nodeName":")" + node_name(i) + R"(","priority":)" +
          std::to_string(p) +
          R"(,"containers":[{"name":"c","resources":{"requests":{"cpu":"250m","memory":"1Gi"}}}]},)"
          R"("status":{"phase":"Running","startTime":")" +
          start + R"("}})";
    }
  return s + "]}";
}

std::string deployment_yaml(long replicas) {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: critical}\nspec:\n  replicas: " +
         std::to_string(replicas) +
         "\n  selector: {matchLabels: {app: critical}}\n  template:\n    metadata: {labels: {app: "
         "critical}}\n    spec:\n      containers:\n        - name: c\n          resources: "
         "{requests: {cpu: \"1\", memory: 2Gi}}\n";
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
  const long nodes = argc > 1 ? std::atol(argv[1]) : 5000;
  const long per_node = argc > 2 ? std::atol(argv[2]) : 30;
  const long replicas = argc > 3 ? std::atol(argv[3]) : 1000;
  const bool reference = argc > 4 && std::string(argv[4]) == "reference";

  auto t0 = std::chrono::steady_clock::now();
  Diagnostics diags;
  std::optional<Inventory> inv =
      load_nodes(Source{"nodes.json", nodes_json(nodes)}, NodesFormat::Kubernetes, diags);
  KubernetesOptions k8s;
  if (!inv || !apply_pods(*inv, Source{"pods.json", pods_json(nodes, per_node)}, k8s, diags)) {
    std::fprintf(stderr, "%s", diags.to_string().c_str());
    return 3;
  }
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"critical.yaml", deployment_yaml(replicas)},
                                      RequestOverrides{}, k8s, true, diags, matched, &*inv);
  if (!set || set->requests.size() != 1) {
    std::fprintf(stderr, "%s", diags.to_string().c_str());
    return 3;
  }
  Request request = set->requests[0];
  request.priority = 1000000;
  const double load = seconds_since(t0);

  PlanOptions options;
  options.preempt = true;
  options.preemption_cache = !reference;
  auto t1 = std::chrono::steady_clock::now();
  const std::clock_t c1 = std::clock();
  const std::vector<RequestOutcome> out = plan_requests(*inv, {request}, options);
  const double plan = seconds_since(t1);
  const double cpu = static_cast<double>(std::clock() - c1) / CLOCKS_PER_SEC;
  std::size_t victims = 0;
  for (const Preemption& p : out[0].preemptions) victims += p.victims.size();
  std::printf(
      "%ld nodes, %ld running pods, %ld replicas%s: load %.2f s, plan %.3f s (cpu %.3f s); %s, "
      "placed %lld, "
      "%zu preemptions, %zu victims\n",
      nodes, nodes * per_node, replicas, reference ? " (reference)" : "", load, plan, cpu,
      std::string(status_name(out[0].status)).c_str(), static_cast<long long>(out[0].placed),
      out[0].preemptions.size(), victims);
  return 0;
}
