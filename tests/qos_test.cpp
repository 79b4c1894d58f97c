// A manifest's QoS class (--queue-sort qos), checked against a transcription
// of Kubernetes' pkg/apis/core/v1/helper/qos/qos_test.go TestComputePodQOS
// (the cases without pod-level resources, which eruplan does not read).
#include <doctest/doctest.h>

#include <string>

#include "kubernetes.h"
#include "load.h"

using namespace eruplan;

namespace {

// getResourceList(cpu, memory): "" leaves the kind out.
std::string list(const std::string& cpu, const std::string& memory) {
  std::string s;
  if (!cpu.empty()) s += "cpu: \"" + cpu + "\"";
  if (!memory.empty()) s += std::string(s.empty() ? "" : ", ") + "memory: \"" + memory + "\"";
  return "{" + s + "}";
}

struct C {
  std::string req_cpu, req_mem, lim_cpu, lim_mem;
};

std::string containers(const std::vector<C>& cs) {
  std::string s;
  int i = 0;
  for (const C& c : cs)
    s += "    - name: c" + std::to_string(i++) +
         "\n      resources: {requests: " + list(c.req_cpu, c.req_mem) +
         ", limits: " + list(c.lim_cpu, c.lim_mem) + "}\n";
  return s;
}

QosClass qos_of(const std::vector<C>& cs, const std::vector<C>& init = {}) {
  std::string yaml =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n" + containers(cs);
  if (!init.empty()) yaml += "  initContainers:\n" + containers(init);
  Diagnostics diags;
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"pod.yaml", yaml}, RequestOverrides{},
                                      KubernetesOptions{}, false, diags, matched);
  INFO(diags.to_string());
  REQUIRE(set);
  REQUIRE(set->requests.size() == 1);
  return set->requests[0].qos;
}

}  // namespace

TEST_CASE("TestComputePodQOS: the cases without pod-level resources") {
  using enum QosClass;
  // guaranteed
  CHECK(qos_of({{"100m", "100Mi", "100m", "100Mi"}}) == Guaranteed);
  // guaranteed-guaranteed
  CHECK(qos_of({{"100m", "100Mi", "100m", "100Mi"}, {"100m", "100Mi", "100m", "100Mi"}}) ==
        Guaranteed);
  // best-effort-best-effort, best-effort
  CHECK(qos_of({{"", "", "", ""}, {"", "", "", ""}}) == BestEffort);
  CHECK(qos_of({{"", "", "", ""}}) == BestEffort);
  // best-effort-burstable
  CHECK(qos_of({{"", "", "", ""}, {"1", "", "2", ""}}) == Burstable);
  // best-effort-guaranteed
  CHECK(qos_of({{"", "", "", ""}, {"10m", "100Mi", "10m", "100Mi"}}) == Burstable);
  // burstable-cpu-guaranteed-memory
  CHECK(qos_of({{"", "100Mi", "", "100Mi"}}) == Burstable);
  // burstable-no-limits
  CHECK(qos_of({{"100m", "100Mi", "", ""}}) == Burstable);
  // burstable-guaranteed
  CHECK(qos_of({{"1", "100Mi", "2", "100Mi"}, {"100m", "100Mi", "100m", "100Mi"}}) == Burstable);
  // burstable-unbounded-but-requests-match-limits
  CHECK(qos_of({{"100m", "100Mi", "200m", "200Mi"}, {"100m", "100Mi", "", ""}}) == Burstable);
  // burstable-1
  CHECK(qos_of({{"10m", "100Mi", "100m", "200Mi"}}) == Burstable);
  // burstable-2: requests of 0 are given (not defaulted to the limits) and ignored
  CHECK(qos_of({{"0", "0", "100m", "200Mi"}}) == Burstable);
  // init-container
  CHECK(qos_of({{"", "", "", ""}}, {{"10m", "100Mi", "100m", "200Mi"}}) == Burstable);
}

TEST_CASE("QoS: a limit without a request is also the request (the API's defaulting)") {
  CHECK(qos_of({{"", "", "500m", "1Gi"}}) == QosClass::Guaranteed);
  CHECK(qos_of({{"", "", "500m", ""}}) == QosClass::Burstable);
}
