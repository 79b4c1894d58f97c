// A pod's effective request as Kubernetes' PodRequests computes it
// (k8s.io/component-helpers/resource): cases transcribed from its
// helpers_test.go, TestPodResourceRequests (the descriptions are the case
// names; the in-place-resize cases are not modelled), then the millicore
// round-up and the scoring defaults on the same path.
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
