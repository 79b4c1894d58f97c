// plan --preempt keeps each node's preemption answers from replica to
// replica (PreemptionCache); the plain reference redoes every node for every
// replica. Both must give the same placements and victims on random
// clusters of several replicas, with running pods, workloads and budgets.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "load.h"
#include "preemption.h"
#include "requests.h"

using namespace eruplan;

namespace {

std::string victims_text(const std::vector<RequestOutcome>& outs) {
  std::string s;
  for (const RequestOutcome& o : outs) {
    s += std::string(status_name(o.status)) + " " + std::to_string(o.placed) + ":";
    for (const std::int64_t d : o.deploy) s += " " + std::to_string(d);
    for (const Preemption& p : o.preemptions) {
      s += " | #" + std::to_string(p.instance) + "@" + std::to_string(p.node);
      for (const Victim& v : p.victims) s += " " + v.name;
    }
    s += "\n";
  }
  return s;
}

}  // namespace

TEST_CASE("plan --preempt: kept answers equal the plain reference on 2,000 random clusters") {
  std::mt19937_64 rng(2727);
  const auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  const std::int32_t priorities[] = {0, 0, 10, 100, 1000};
  int preempted = 0, several = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string yaml = "nodes:\n";
    const int n = static_cast<int>(pick(1, 6));
    for (int i = 0; i < n; ++i) {
      yaml += "  - name: n" + std::to_string(i) + "\n    cpu: " + std::to_string(pick(3, 6)) +
              "\n    memory: " + std::to_string(pick(2, 8)) + "Gi\n";
      const int w = static_cast<int>(pick(0, 5));
      if (w > 0) yaml += "    workloads:\n";
      for (int k = 0; k < w; ++k)
        yaml += "      - {id: w" + std::to_string(i) + "-" + std::to_string(k) + ", app: a" +
                std::to_string(pick(0, 2)) + ", cpu: " + std::to_string(pick(1, 4) * 250) +
                "m, memory: " + std::to_string(pick(1, 4)) +
                "00Mi, priority: " + std::to_string(priorities[pick(0, 4)]) + "}\n";
    }
    Diagnostics diags;
    auto inv = load_inventory(Source{"nodes.yaml", yaml}, diags);
    INFO(diags.to_string());
    REQUIRE(inv);
    // Running pods beside the workloads, some covered by a budget.
    std::vector<RunningPod> pods;
    for (int k = 0, m = static_cast<int>(pick(0, 12)); k < m; ++k) {
      RunningPod p;
      p.node = static_cast<std::uint32_t>(pick(0, n - 1));
      p.ns = "default";
      p.name = "p" + std::to_string(k);
      p.app = "b";
      p.labels = {{"app", pick(0, 1) ? "x" : "y"}};
      p.priority = priorities[pick(0, 4)];
      p.cpu = pick(1, 3) * 250'000'000;
      p.memory = pick(1, 3) * (100LL << 20);
      p.start_time = pick(0, 2) ? "2026-01-0" + std::to_string(pick(1, 4)) + "T00:00:00Z" : "";
      inv->nodes[p.node].cpu_used += p.cpu;
      inv->nodes[p.node].memory_used += p.memory;
      pods.push_back(std::move(p));
    }
    inv->pods = std::move(pods);
    Request r;
    r.app = r.name = "critical";
    r.count = pick(1, 6);
    r.cpu = r.cpu_limit = pick(1, 8) * 250'000'000;
    r.memory = r.memory_limit = pick(1, 4) * (100LL << 20);
    r.cpu_fit = true;
    r.priority = priorities[pick(0, 4)] + (pick(0, 1) ? 1 : 0);
    PlanOptions options;
    options.preempt = true;
    if (pick(0, 2) == 0) {
      PodDisruptionBudget b;
      b.ns = "default";
      b.selector.requirements.push_back({"app", SelectorOp::In, {"x"}});
      b.has_selector = true;
      b.disruptions_allowed = static_cast<std::int32_t>(pick(0, 1));
      options.pdbs.push_back(std::move(b));
    }
    Inventory kept_state = *inv, plain_state = *inv;
    const auto kept = plan_requests(kept_state, {r}, options);
    options.preemption_cache = false;
    const auto plain = plan_requests(plain_state, {r}, options);
    CAPTURE(round);
    CAPTURE(yaml);
    CHECK(victims_text(kept) == victims_text(plain));
    CHECK(kept_state.pods.size() == plain_state.pods.size());
    preempted += !kept[0].preemptions.empty();
    several += kept[0].preemptions.size() > 1;
  }
  // The clusters reach preemption often, and often for several replicas.
  MESSAGE("preempted ", preempted, ", several replicas ", several);
  CHECK(preempted > 250);
  CHECK(several > 100);
}

// A CPU-bind request's dry runs plan the node's cores once (CapacityFilter's
// CoreFit) while pods come and go, and again after a workload that binds
// cores: the victims and verdicts are those of capacity_filter planning the
// cores at every check.
TEST_CASE("select_victims: CapacityFilter's kept cores equal planning them at each check") {
  std::mt19937_64 rng(1127);
  const auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  const std::int32_t priorities[] = {0, 0, 10, 100, 1000};
  int candidates = 0;
  for (int round = 0; round < 1500; ++round) {
    std::string yaml = "nodes:\n";
    const int n = static_cast<int>(pick(1, 3));
    for (int i = 0; i < n; ++i) {
      yaml += "  - name: n" + std::to_string(i) +
              "\n    cpu: 6\n    memory: " + std::to_string(pick(2, 4)) +
              "Gi\n    max_instances: " + std::to_string(pick(2, 8)) + "\n";
      const int w = static_cast<int>(pick(0, 5));
      if (w > 0) yaml += "    workloads:\n";
      for (int k = 0; k < w; ++k) {
        const bool binds = pick(0, 1) == 1;
        yaml += "      - {id: w" + std::to_string(i) + "-" + std::to_string(k) + ", app: a, " +
                (binds ? "cpu: 0.5, cpu_map: {\"" + std::to_string(k) + "\": 50}, "
                       : std::string("cpu: 0.25, ")) +
                "memory: " + std::to_string(pick(1, 4)) +
                "00Mi, priority: " + std::to_string(priorities[pick(0, 4)]) + "}\n";
      }
    }
    Diagnostics diags;
    auto inv = load_inventory(Source{"nodes.yaml", yaml}, diags);
    INFO(diags.to_string());
    REQUIRE(inv);
    std::vector<RunningPod> pods;
    for (int k = 0, m = static_cast<int>(pick(0, 8)); k < m; ++k) {
      RunningPod p;
      p.node = static_cast<std::uint32_t>(pick(0, n - 1));
      p.ns = "default";
      p.name = "p" + std::to_string(k);
      p.app = "b";
      p.priority = priorities[pick(0, 4)];
      p.cpu = 1'000'000;
      p.memory = pick(0, 4) * (200LL << 20);
      inv->nodes[p.node].cpu_used += p.cpu;
      inv->nodes[p.node].memory_used += p.memory;
      pods.push_back(std::move(p));
    }
    inv->pods = std::move(pods);
    Request r;
    r.app = r.name = "critical";
    r.cpu_bind = true;
    r.cpu = pick(1, 6) * 500'000'000;
    r.memory = pick(1, 6) * (100LL << 20);
    const Preemptor preemptor{priorities[pick(0, 4)] + 1, false};
    const RunningPods running(*inv);
    CapacityFilter kept(r);
    const ReplicaFilter kept_filter = [&](const Inventory& s, std::uint32_t i, const DryRun* d) {
      return kept(s, i, d);
    };
    const ReplicaFilter plain_filter = [&](const Inventory& s, std::uint32_t i, const DryRun*) {
      return capacity_filter(s, r, i);
    };
    for (std::uint32_t i = 0; i < inv->nodes.size(); ++i) {
      const NodeVictims a = select_victims(*inv, running, i, preemptor, {}, kept_filter);
      const NodeVictims b = select_victims(*inv, running, i, preemptor, {}, plain_filter);
      CAPTURE(round);
      CAPTURE(yaml);
      CHECK(a.verdict.code == b.verdict.code);
      CHECK(a.verdict.reasons == b.verdict.reasons);
      std::string va, vb;
      for (const Victim& v : a.victims) va += v.name + " ";
      for (const Victim& v : b.victims) vb += v.name + " ";
      CHECK(va == vb);
      candidates += !a.victims.empty();
    }
  }
  MESSAGE("nodes with victims ", candidates);
  CHECK(candidates > 300);
}
