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
