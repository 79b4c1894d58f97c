// A pod's effective request as Kubernetes' PodRequests computes it
// (k8s.io/component-helpers/resource): cases transcribed from its
// helpers_test.go, TestPodResourceRequests (the descriptions are the case
// names), then the millicore round-up and the scoring defaults on the same
// path, and a running pod's in-place resize status.
#include <doctest/doctest.h>

#include <string>

#include "kubernetes.h"
#include "load.h"

using namespace eruplan;

namespace {

// "cpu" quantities, in order: an init container is "init:Q" or
// "sidecar:Q", a container "Q".
struct Spec {
  std::vector<std::string> init, containers;
  std::string overhead;  // JSON object or empty
};

std::string container(const std::string& name, const std::string& cpu, bool sidecar) {
  std::string c = R"({"name": ")" + name + "\"";
  if (sidecar) c += R"(, "restartPolicy": "Always")";
  if (!cpu.empty()) c += R"(, "resources": {"requests": {"cpu": ")" + cpu + R"("}})";
  return c + "}";
}

Request request_of(const Spec& s) {
  std::string init, containers;
  for (std::size_t i = 0; i < s.init.size(); ++i) {
    const bool sidecar = s.init[i].starts_with("sidecar:");
    const std::string cpu = s.init[i].substr(s.init[i].find(':') + 1);
    init += (i ? ", " : "") + container("i" + std::to_string(i), cpu, sidecar);
  }
  for (std::size_t i = 0; i < s.containers.size(); ++i)
    containers += (i ? ", " : "") + container("c" + std::to_string(i), s.containers[i], false);
  std::string spec = R"("containers": [)" + containers + "]";
  if (!init.empty()) spec += R"(, "initContainers": [)" + init + "]";
  if (!s.overhead.empty()) spec += R"(, "overhead": )" + s.overhead;
  const std::string manifest =
      R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {)" + spec + "}}";
  Diagnostics diags;
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"pod.json", manifest}, RequestOverrides{},
                                      KubernetesOptions{}, true, diags, matched);
  INFO(diags.to_string());
  REQUIRE(set);
  REQUIRE(set->requests.size() == 1);
  return set->requests[0];
}

constexpr NanoCores kCore = 1'000'000'000;

}  // namespace

TEST_CASE("PodRequests: TestPodResourceRequests") {
  SUBCASE("nil options, larger init container") {
    CHECK(request_of({{"init:4"}, {"1"}, ""}).cpu == 4 * kCore);
  }
  SUBCASE("nil options, larger containers") {
    CHECK(request_of({{"init:2"}, {"2", "3"}, ""}).cpu == 5 * kCore);
  }
  SUBCASE("pod overhead included") {
    const Request r = request_of({{"init:2"}, {"2", "3"}, R"({"cpu": "1", "memory": "1Gi"})"});
    CHECK(r.cpu == 6 * kCore);
    CHECK(r.memory == 1LL << 30);
  }
  SUBCASE("restartable init container") {
    CHECK(request_of({{"sidecar:1"}, {"1"}, ""}).cpu == 2 * kCore);
  }
  SUBCASE("multiple restartable init containers") {
    // max(5, restartable init containers (3 + 2 + 1) + regular (1)) = 7
    CHECK(request_of({{"init:5", "sidecar:1", "sidecar:2", "sidecar:3"}, {"1"}, ""}).cpu ==
          7 * kCore);
  }
  SUBCASE("multiple restartable and regular init containers") {
    // init-2 needs 5 + the sidecars started before it (1 + 2) = 8; the one
    // started after it does not count.
    CHECK(
        request_of({{"init:5", "sidecar:1", "sidecar:2", "init:5", "sidecar:3"}, {"1"}, ""}).cpu ==
        8 * kCore);
  }
  SUBCASE("restartable-init, init and regular") {
    CHECK(request_of({{"sidecar:10", "init:200"}, {"100"}, ""}).cpu == 210 * kCore);
  }
}

TEST_CASE("PodRequests: the cpu sum rounds up to a whole millicore") {
  // 0.0004 + 0.0004 cores = 0.8m, as a quantity summed exactly: MilliValue 1m.
  CHECK(request_of({{}, {"0.0004", "0.0004"}, ""}).cpu == 1'000'000);
  // 1.0005 cores: 1000.5m -> 1001m.
  CHECK(request_of({{}, {"1.0005"}, ""}).cpu == 1'001'000'000);
  // Whole millicores stay as they are.
  CHECK(request_of({{}, {"250m", "250m"}, ""}).cpu == 500'000'000);
}

TEST_CASE("PodRequests: the scoring defaults follow the same order") {
  // A sidecar without requests counts 100m and 200Mi for scoring, then the
  // init container after it needs its 1 core + the sidecar's 100m.
  const Request r = request_of({{"sidecar:", "init:1"}, {""}, ""});
  REQUIRE(r.pod);
  CHECK(r.cpu == kCore);  // requests as written: 0 + max(0, 1)
  CHECK(r.pod->nonzero_cpu == kCore + 100'000'000);
  CHECK(r.pod->nonzero_memory == 2 * (200LL << 20));  // the sidecar and the container
}

namespace {

// A Pod manifest with pod-level `resources` (JSON, or empty) and containers
// and init containers given as JSON arrays (or empty).
Request pod_level(const std::string& resources, const std::string& containers,
                  const std::string& init = "") {
  std::string spec = R"("containers": )" + (containers.empty() ? "[]" : containers);
  if (!init.empty()) spec += R"(, "initContainers": )" + init;
  if (!resources.empty()) spec += R"(, "resources": )" + resources;
  const std::string manifest =
      R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {)" + spec + "}}";
  Diagnostics diags;
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"pod.json", manifest}, RequestOverrides{},
                                      KubernetesOptions{}, true, diags, matched);
  INFO(diags.to_string());
  REQUIRE(set);
  REQUIRE(set->requests.size() == 1);
  return set->requests[0];
}

constexpr NanoCores kMilli = 1'000'000;
constexpr Bytes kMi = 1 << 20;

}  // namespace

// Pod-level resources (PodLevelResources, beta and on by default since
// Kubernetes 1.34): component-helpers' helpers_test.go, TestPodLevelResourceRequests
// (the cases with SkipPodLevelResources false; the descriptions are the case
// names), then the API's defaulting of a Pod's pod-level requests from its
// limits (pkg/apis/core/v1/defaults.go, defaultPodRequests).
TEST_CASE("PodRequests: TestPodLevelResourceRequests") {
  const std::string both =
      R"([{"name": "c", "resources": {"requests": {"memory": "3Mi", "cpu": "2m"}}}])";
  SUBCASE("pod level memory resource with SkipPodLevelResources false") {
    const Request r = pod_level(R"({"requests": {"memory": "2Mi"}})", "");
    CHECK(r.memory == 2 * kMi);
    CHECK(r.cpu == 0);
  }
  SUBCASE("pod level memory and container level cpu resources with SkipPodLevelResources false") {
    const Request r = pod_level(R"({"requests": {"memory": "2Mi"}})",
                                R"([{"name": "c", "resources": {"requests": {"cpu": "2m"}}}])");
    CHECK(r.memory == 2 * kMi);
    CHECK(r.cpu == 2 * kMilli);
  }
  SUBCASE("only container level resources set with SkipPodLevelResources false") {
    const Request r = pod_level("", both);
    CHECK(r.memory == 3 * kMi);
    CHECK(r.cpu == 2 * kMilli);
  }
  SUBCASE("both container-level and pod-level resources set with SkipPodLevelResources false") {
    const Request r = pod_level(R"({"requests": {"memory": "6Mi", "cpu": "8m"}})", both);
    CHECK(r.memory == 6 * kMi);
    CHECK(r.cpu == 8 * kMilli);
    // Scoring takes them too (no 100m/200Mi defaults where they are given).
    REQUIRE(r.pod);
    CHECK(r.pod->nonzero_cpu == 8 * kMilli);
    CHECK(r.pod->nonzero_memory == 6 * kMi);
  }
  SUBCASE(
      "container-level resources, init and sidecar container set with SkipPodLevelResources "
      "false") {
    const std::string init =
        R"([{"name": "s", "restartPolicy": "Always", "resources": {"requests": {"memory": "5Mi", "cpu": "4m"}}},
            {"name": "i", "resources": {"requests": {"memory": "6Mi", "cpu": "8m"}}}])";
    Request r = pod_level("", both, init);
    CHECK(r.memory == 11 * kMi);
    CHECK(r.cpu == 12 * kMilli);
    // "pod-level resources, container-level resources, init and sidecar
    // container set with SkipPodLevelResources false"
    r = pod_level(R"({"requests": {"memory": "15Mi", "cpu": "18m"}})", both, init);
    CHECK(r.memory == 15 * kMi);
    CHECK(r.cpu == 18 * kMilli);
  }
}

TEST_CASE("PodRequests: pod-level limits stand for requests only where no container names them") {
  // No container names cpu or memory: the pod-level limits are the requests.
  Request r = pod_level(R"({"limits": {"cpu": "2", "memory": "4Gi"}})", R"([{"name": "c"}])");
  CHECK(r.cpu == 2 * kCore);
  CHECK(r.memory == 4LL << 30);
  // A container names cpu (its limit is its request): cpu is the
  // containers' 500m; memory, named by none, the pod-level limit.
  r = pod_level(R"({"limits": {"cpu": "2", "memory": "4Gi"}})",
                R"([{"name": "c", "resources": {"limits": {"cpu": "500m"}}}])");
  CHECK(r.cpu == 500 * kMilli);
  CHECK(r.memory == 4LL << 30);
  // The pod-level request wins over the limit, and overhead still adds.
  const std::string manifest =
      R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": {"containers": [],
          "resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "3"}},
          "overhead": {"cpu": "250m"}}})";
  Diagnostics diags;
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"pod.json", manifest}, RequestOverrides{},
                                      KubernetesOptions{}, true, diags, matched);
  REQUIRE(set);
  CHECK(set->requests[0].cpu == 1250 * kMilli);
}

namespace {

// A running pod on node w1 (8 cores, 8Gi, 100G): `spec` is its spec's containers
// (and initContainers) as JSON members, `status` its status' members beside
// phase Running. Returns the pod as the node counts it.
RunningPod running(const std::string& spec, const std::string& status) {
  const std::string nodes =
      R"({"kind": "NodeList", "items": [{"kind": "Node", "metadata": {"name": "w1"},)"
      R"( "status": {"allocatable": {"cpu": "8", "memory": "8Gi", "ephemeral-storage": "100G",)"
      R"( "pods": "110"}}}]})";
  const std::string pods =
      R"({"kind": "PodList", "items": [{"kind": "Pod", "metadata": {"name": "p"},)"
      R"( "spec": {"nodeName": "w1", )" +
      spec + R"(}, "status": {"phase": "Running")" + (status.empty() ? "" : ", " + status) + "}}]}";
  Diagnostics diags;
  auto inv = load_nodes(Source{"nodes.json", nodes}, NodesFormat::Auto, diags);
  REQUIRE(inv);
  REQUIRE(apply_pods(*inv, Source{"pods.json", pods}, {}, diags));
  INFO(diags.to_string());
  CHECK(diags.to_string() == "");
  REQUIRE(inv->pods.size() == 1);
  CHECK(inv->nodes[0].cpu_used == inv->pods[0].cpu);
  return inv->pods[0];
}

std::string cpu_container(const std::string& name, const std::string& cpu, bool sidecar = false) {
  return container(name, cpu, sidecar);
}

// One status entry: `requests` and `allocated` JSON objects, or empty for
// none; `resources` false leaves the entry without resources.
std::string status_entry(const std::string& name, const std::string& requests,
                         const std::string& allocated, bool resources = true) {
  std::string e = R"({"name": ")" + name + "\"";
  if (resources)
    e += R"(, "resources": {)" + (requests.empty() ? "" : R"("requests": )" + requests) + "}";
  if (!allocated.empty()) e += R"(, "allocatedResources": )" + allocated;
  return e + "}";
}

const std::string kInfeasible =
    R"("conditions": [{"type": "PodResizePending", "status": "True", "reason": "Infeasible"}])";

}  // namespace

// The in-place resize cases of Kubernetes' TestPodResourceRequests, as the
// scheduler counts a pod already on a node (UseStatusResources).
TEST_CASE("PodRequests: a running pod counts its resize status (TestPodResourceRequests)") {
  SUBCASE("resized, infeasible") {
    const RunningPod p =
        running(R"("containers": [)" + cpu_container("container-1", "4") + "]",
                R"("containerStatuses": [)" + status_entry("container-1", R"({"cpu": "2"})", "") +
                    "], " + kInfeasible);
    CHECK(p.cpu == 2 * kCore);
  }
  SUBCASE("resized, infeasible & in-progress") {
    const RunningPod p =
        running(R"("containers": [)" + cpu_container("container-1", "6") + "]",
                R"("containerStatuses": [)" +
                    status_entry("container-1", R"({"cpu": "2"})", R"({"cpu": "4"})") + "], " +
                    kInfeasible);
    CHECK(p.cpu == 4 * kCore);
  }
  SUBCASE("resized, no resize status") {
    const RunningPod p = running(
        R"("containers": [)" + cpu_container("container-1", "4") + "]",
        R"("containerStatuses": [)" + status_entry("container-1", R"({"cpu": "2"})", "") + "]");
    CHECK(p.cpu == 4 * kCore);
  }
  SUBCASE("resized: per-resource 3-way maximum") {
    const RunningPod p =
        running(R"("containers": [{"name": "container-1", "resources": {"requests": {"cpu": "30m",)"
                R"( "memory": "20M", "ephemeral-storage": "10G"}}}])",
                R"("containerStatuses": [)" +
                    status_entry("container-1",
                                 R"({"cpu": "10m", "memory": "30M", "ephemeral-storage": "20G"})",
                                 R"({"cpu": "20m", "memory": "10M", "ephemeral-storage": "30G"})") +
                    "]");
    CHECK(p.cpu == 30'000'000);
    CHECK(p.memory == 30'000'000);
    CHECK(p.storage == 30'000'000'000);
  }
  SUBCASE("resized, restartable init container, infeasible") {
    const RunningPod p = running(R"("containers": [], "initContainers": [)" +
                                     cpu_container("restartable-init-1", "4", true) + "]",
                                 R"("initContainerStatuses": [)" +
                                     status_entry("restartable-init-1", R"({"cpu": "2"})", "") +
                                     "], " + kInfeasible);
    CHECK(p.cpu == 2 * kCore);
  }
  SUBCASE("resized, restartable init container, no resize status") {
    const RunningPod p =
        running(R"("containers": [], "initContainers": [)" +
                    cpu_container("restartable-init-1", "4", true) + "]",
                R"("initContainerStatuses": [)" +
                    status_entry("restartable-init-1", R"({"cpu": "2"})", "") + "]");
    CHECK(p.cpu == 4 * kCore);
  }
  SUBCASE("aggregate request resolves max of sums instead of sum of maxes") {
    // Status entries without resources are not read: the spec's 1 + 2.
    const RunningPod p = running(
        R"("containers": [)" + cpu_container("c1", "1") + ", " + cpu_container("c2", "2") + "]",
        R"("containerStatuses": [)" + status_entry("c1", "", R"({"cpu": "2"})", false) + ", " +
            status_entry("c2", "", R"({"cpu": "1"})", false) + "]");
    CHECK(p.cpu == 3 * kCore);
  }
}

TEST_CASE("PodRequests: resize status beyond Kubernetes' table") {
  SUBCASE("a resize in progress counts the larger of spec and allocation, per container") {
    // c1 grows 1 -> 3 (allocated still 1), c2 shrinks 2 -> 1 (allocated 2):
    // the node keeps 3 + 2 until the kubelet has resized both.
    const RunningPod p = running(
        R"("containers": [)" + cpu_container("c1", "3") + ", " + cpu_container("c2", "1") + "]",
        R"("containerStatuses": [)" + status_entry("c1", R"({"cpu": "1"})", R"({"cpu": "1"})") +
            ", " + status_entry("c2", R"({"cpu": "2"})", R"({"cpu": "2"})") + "]");
    CHECK(p.cpu == 5 * kCore);
  }
  SUBCASE("a status naming cpu gives a container without a cpu request its cpu for scoring") {
    const RunningPod p =
        running(R"("containers": [{"name": "c"}])",
                R"("containerStatuses": [)" + status_entry("c", R"({"cpu": "50m"})", "") + "]");
    CHECK(p.cpu == 50'000'000);
    CHECK(p.nonzero_cpu == 50'000'000);      // not the 100m default
    CHECK(p.nonzero_memory == 200LL << 20);  // memory still defaults
  }
  SUBCASE("a regular init container's status is not read") {
    const RunningPod p =
        running(R"("containers": [)" + cpu_container("c", "1") + R"(], "initContainers": [)" +
                    cpu_container("i", "2") + "]",
                R"("initContainerStatuses": [)" + status_entry("i", R"({"cpu": "7"})", "") + "]");
    CHECK(p.cpu == 2 * kCore);
  }
  SUBCASE("the first PodResizePending condition decides") {
    const RunningPod p =
        running(R"("containers": [)" + cpu_container("c", "4") + "]",
                R"("containerStatuses": [)" + status_entry("c", R"({"cpu": "2"})", "") +
                    R"(], "conditions": [{"type": "Ready", "reason": "Infeasible"},)"
                    R"( {"type": "PodResizePending", "reason": "Deferred"},)"
                    R"( {"type": "PodResizePending", "reason": "Infeasible"}])");
    CHECK(p.cpu == 4 * kCore);
  }
  SUBCASE("kubectl's usual status: equal to the spec, nothing changes") {
    const RunningPod p = running(
        R"("containers": [{"name": "c", "resources": {"requests": {"cpu": "250m",)"
        R"( "memory": "64Mi"}, "limits": {"memory": "128Mi"}}}])",
        R"("containerStatuses": [{"name": "c", "ready": true, "restartCount": 0,)"
        R"( "allocatedResources": {"cpu": "250m", "memory": "64Mi"}, "resources": {"requests":)"
        R"( {"cpu": "250m", "memory": "64Mi"}, "limits": {"memory": "128Mi"}}}])");
    CHECK(p.cpu == 250'000'000);
    CHECK(p.memory == 64LL << 20);
  }
}
