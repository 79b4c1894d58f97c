// --queue-sort coscheduling (SPEC §17): scheduler-plugins' Coscheduling
// Less orders the queue by priority, then the creation time of the pod's
// PodGroup (else of the pod), then namespace/name. Checked here on
// manifests: the timestamps read, the PodGroup's time given to its
// members, and the order several requests are planned in.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kubernetes.h"
#include "load.h"
#include "requests.h"

using namespace eruplan;

namespace {

std::vector<Request> manifests(const std::string& yaml, Diagnostics& diags) {
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"stream.yaml", yaml}, RequestOverrides{},
                                      KubernetesOptions{}, false, diags, matched);
  if (!set) return {};
  return set->requests;
}

std::vector<Request> manifests(const std::string& yaml) {
  Diagnostics diags;
  std::vector<Request> out = manifests(yaml, diags);
  INFO(diags.to_string());
  REQUIRE(!diags.has_errors());
  return out;
}

std::string pod(const std::string& name, const std::string& extra_metadata,
                const std::string& cpu = "1") {
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + extra_metadata +
         "}\nspec:\n  containers:\n    - name: c\n      resources: {requests: {cpu: \"" + cpu +
         "\", memory: 1Gi}}\n---\n";
}

// The request names in the order plan_requests plans them.
std::vector<std::string> planned_order(const std::vector<Request>& requests, QueueSort sort) {
  Diagnostics diags;
  auto inv = load_inventory(Source{"nodes.yaml", "nodes:\n  - {name: n1, cpu: 64, memory: 64Gi}\n"},
                            diags);
  REQUIRE(inv);
  PlanOptions options;
  options.queue_sort = sort;
  std::vector<std::string> order;
  plan_requests(*inv, requests, options, [&](std::size_t index, RequestOutcome&&) {
    order.push_back(requests[index].name);
  });
  return order;
}

}  // namespace

TEST_CASE("creationTimestamp: RFC 3339 read to the microsecond, offsets applied") {
  const auto r =
      manifests(pod("a", ", creationTimestamp: \"1970-01-01T00:00:01Z\"") +
                pod("b", ", creationTimestamp: \"2026-03-08T17:20:00Z\"") +
                pod("c", ", creationTimestamp: \"2026-03-08T18:20:00+01:00\"") +
                pod("d", ", creationTimestamp: \"2026-03-08T17:20:00.25Z\"") +
                pod("e", ", creationTimestamp: \"2024-02-29T00:00:00Z\"") + pod("f", ""));
  REQUIRE(r.size() == 6);
  CHECK(r[0].created == 1000000);
  CHECK(r[1].created == 1772990400LL * 1000000);  // date -d 2026-03-08T17:20:00Z +%s
  CHECK(r[2].created == r[1].created);
  CHECK(r[3].created == 1772990400LL * 1000000 + 250000);
  CHECK(r[4].created == 1709164800LL * 1000000);  // a leap day
  CHECK(!r[5].created);
}

TEST_CASE("creationTimestamp that is not RFC 3339: exit 3 naming the field") {
  for (const char* bad :
       {"yesterday", "2026-03-08 17:20:00Z", "2026-03-08T17:20:00", "2025-02-29T00:00:00Z",
        "2026-13-01T00:00:00Z", "2026-03-08T17:20:00.Z"}) {
    Diagnostics diags;
    manifests(pod("a", std::string(", creationTimestamp: \"") + bad + "\""), diags);
    INFO(bad);
    REQUIRE(diags.has_errors());
    const std::string text = diags.to_string();
    CHECK(text.find("stream.yaml:3:") != std::string::npos);
    CHECK(text.find("metadata.creationTimestamp") != std::string::npos);
    CHECK(text.find("not an RFC 3339 timestamp") != std::string::npos);
  }
}

TEST_CASE("a PodGroup member takes the PodGroup's creation time, not its own") {
  const auto r = manifests(
      "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\n"
      "metadata: {name: train, creationTimestamp: \"2026-01-01T00:00:00Z\"}\n"
      "spec: {minMember: 1}\n---\n" +
      pod("w",
          ", creationTimestamp: \"2026-06-01T00:00:00Z\", labels: "
          "{scheduling.x-k8s.io/pod-group: train}") +
      // A group without a PodGroup object keeps the pod's own time.
      pod("x",
          ", creationTimestamp: \"2026-06-01T00:00:00Z\", labels: "
          "{scheduling.x-k8s.io/pod-group: other}"));
  REQUIRE(r.size() == 2);
  CHECK(r[0].created == 1767225600LL * 1000000);
  CHECK(r[1].created == 1780272000LL * 1000000);
}

TEST_CASE("coscheduling's order: priority, creation time (none last), namespace/name, file") {
  // In file order: late (18:00), none-b and none-a (no timestamp), early
  // (17:00), high (no timestamp, priority 10), same-b and same-a (17:30, in
  // namespaces x and x-y: "x-y/same-a" < "x/same-b", '-' before '/').
  auto r =
      manifests(pod("late", ", creationTimestamp: \"2026-03-08T18:00:00Z\"") + pod("none-b", "") +
                pod("none-a", "") + pod("early", ", creationTimestamp: \"2026-03-08T17:00:00Z\"") +
                pod("high", "") +
                pod("same-b", ", namespace: x, creationTimestamp: \"2026-03-08T17:30:00Z\"") +
                pod("same-a", ", namespace: x-y, creationTimestamp: \"2026-03-08T17:30:00Z\""));
  REQUIRE(r.size() == 7);
  r[4].priority = 10;
  CHECK(planned_order(r, QueueSort::Coscheduling) ==
        std::vector<std::string>{"high", "early", "same-a", "same-b", "late", "none-a", "none-b"});
  // The default keeps file order among equal priorities.
  CHECK(planned_order(r, QueueSort::Priority) ==
        std::vector<std::string>{"high", "late", "none-b", "none-a", "early", "same-b", "same-a"});
}

TEST_CASE("coscheduling's order: a pod group moves as one, at its first member's place") {
  auto r = manifests(
      "apiVersion: scheduling.x-k8s.io/v1alpha1\nkind: PodGroup\n"
      "metadata: {name: g, creationTimestamp: \"2026-03-08T17:00:00Z\"}\n"
      "spec: {minMember: 2}\n---\n" +
      pod("solo", ", creationTimestamp: \"2026-03-08T16:00:00Z\"") +
      pod("z-member",
          ", creationTimestamp: \"2026-03-08T19:00:00Z\", labels: "
          "{scheduling.x-k8s.io/pod-group: g}") +
      pod("other", ", creationTimestamp: \"2026-03-08T18:00:00Z\"") +
      pod("a-member", ", labels: {scheduling.x-k8s.io/pod-group: g}"));
  REQUIRE(r.size() == 4);
  CHECK(planned_order(r, QueueSort::Coscheduling) ==
        std::vector<std::string>{"solo", "a-member", "z-member", "other"});
}
