// SPEC §11: inventory workloads, the realloc request, grouping, plan choice,
// --atomic, the document; and a random memory-mode check against a simple
// arithmetic oracle.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>

#include "fixture.h"
#include "load.h"
#include "realloc_command.h"

using namespace eruplan;

namespace {

struct Loaded {
  std::optional<Inventory> inventory;
  Diagnostics diags;
  std::string messages() const { return diags.to_string(); }
  bool says(std::string_view text) const { return messages().find(text) != std::string::npos; }
};

Loaded load_nodes(std::string text) {
  Loaded r;
  r.inventory = load_inventory(Source{"nodes.yaml", std::move(text)}, r.diags);
  return r;
}

ReallocRun run(std::string nodes, std::string request, bool atomic = false,
               OutputFormat output = OutputFormat::Json) {
  ReallocOptions o;
  o.nodes = Source{"nodes.yaml", std::move(nodes)};
  o.request = Source{"realloc.yaml", std::move(request)};
  o.atomic = atomic;
  o.output = output;
  o.save_inventory = OutputFormat::Yaml;
  return run_realloc(o);
}

const WorkloadChange& change(const ReallocRun& r, std::string_view id) {
  REQUIRE(r.realloc);
  for (const WorkloadChange& c : r.realloc->workloads)
    if (c.id == id) return c;
  FAIL("no workload " << id);
  return r.realloc->workloads.front();
}

NamedList<Pieces> cores(std::initializer_list<std::pair<const char*, Pieces>> list) {
  NamedList<Pieces> out;
  for (const auto& [id, p] : list) out.emplace_back(id, p);
  return out;
}

constexpr std::int64_t kGi = 1024LL * 1024 * 1024;
constexpr std::int64_t kMi = 1024LL * 1024;

}  // namespace

TEST_CASE("realloc: workloads fill in the usage fields left out and instances") {
  const Loaded r = load_nodes(R"(
nodes:
  - name: n1
    cpu_map: {"0": 100, "1": 100, "2": 100, "3": 100}
    memory: 8Gi
    numa: {"0": "0", "1": "0", "2": "1", "3": "1"}
    numa_memory: {"0": 4Gi, "1": 4Gi}
    usage: {memory: 3Gi}
    instances: {db: 5}
    workloads:
      - {id: w1, app: web, cpu: 1.5, memory: 1Gi, numa_node: "1", cpu_map: {"2": 100, "3": 50}}
      - {id: w2, app: web, cpu_limit: 0.5, memory_limit: 512Mi}
      - {id: w3, app: db, cpu: 0.25, memory: 256Mi}
)");
  INFO(r.messages());
  REQUIRE(r.inventory);
  const Node& n = r.inventory->nodes[0];
  CHECK(n.cpu_used == 2'250'000'000);  // 1.5 + 0.5 + 0.25, not sum(cpu_map)
  CHECK(n.memory_used == 3 * kGi);     // given, above the workloads' 1.75Gi
  CHECK(n.cores[2].used == 100);
  CHECK(n.cores[3].used == 50);
  CHECK(n.cores[0].used == 0);
  CHECK(n.numa_nodes[1].used == kGi);
  CHECK(n.numa_nodes[0].used == 0);
  CHECK(n.instances_of("web") == 2);
  CHECK(n.instances_of("db") == 5);
  REQUIRE(n.workloads.size() == 3);
  CHECK(n.workloads[1].cpu == 500'000'000);  // the limit, as a request takes it
  CHECK(n.workloads[1].memory == 512 * kMi);
  CHECK(n.workloads[0].numa == 1);
  CHECK(n.workloads[0].cpu_map == cores({{"2", 100}, {"3", 50}}));
}

TEST_CASE("realloc: a usage field or instances below the workloads' sum is invalid") {
  const Loaded r = load_nodes(R"(
nodes:
  - name: n1
    cpu: 4
    memory: 4Gi
    usage: {cpu: 1, memory: 1Gi}
    instances: {web: 1}
    workloads:
      - {id: w1, app: web, cpu: 1, memory: 1Gi}
      - {id: w2, app: web, cpu: 0.5, memory: 512Mi}
)");
  CHECK_FALSE(r.inventory);
  CHECK(r.says("nodes.yaml:6:18: error: nodes[0].usage.cpu: usage.cpu 1 < 1.5, less than"));
  CHECK(r.says("nodes[0].usage.memory: usage.memory 1Gi < 1536Mi"));
  CHECK(r.says("nodes[0].instances.web: 1 instances of \"web\", fewer than its 2 workloads"));
}

TEST_CASE("realloc: workload ids unique across nodes; bound cpu must match cpu_map") {
  const Loaded r = load_nodes(R"(
nodes:
  - name: n1
    cpu: 4
    memory: 4Gi
    workloads:
      - {id: w1, app: web, cpu: 1, cpu_map: {"0": 100}}
      - {id: w2, app: web, cpu: 1, cpu_map: {"1": 50}}
      - {id: w3, app: web, cpu: 1, cpu_map: {"9": 100}}
      - {app: web}
  - name: n2
    cpu: 4
    memory: 4Gi
    workloads:
      - {id: w1, app: db}
)");
  CHECK_FALSE(r.inventory);
  CHECK(
      r.says("nodes[0].workloads[1].cpu_map: a bound workload's cpu x share_base must equal "
             "its cpu_map: cpu 1 at share_base 100 but cpu_map holds 50 pieces"));
  CHECK(r.says("nodes[0].workloads[2].cpu_map.9: core \"9\" is not one of the node's cores"));
  CHECK(r.says("nodes[0].workloads[3]: id is required"));
  CHECK(
      r.says("nodes.yaml:15:14: error: nodes[1].workloads[0].id: duplicate workload id \"w1\" "
             "(first at line 7:14)"));
}

TEST_CASE("realloc: the seed's 3.2- and 2.7-core groups; the second has no room") {
  const ReallocRun r = run(R"(
nodes:
  - name: n1
    cpu: 8
    memory: 8Gi
    workloads:
      - {id: A, app: web, cpu: 3.2, memory: 1Gi}
      - {id: B, app: web, cpu: 3.2, memory: 1Gi}
      - {id: C, app: web, cpu: 2.7, memory: 1Gi}
      - {id: D, app: web, cpu: 3.2, memory: 1Gi}
      - {id: E, app: web, cpu: 2.7, memory: 1Gi}
)",
                           "app: web\nresources: {memory: 1Gi}\n");
  CHECK(r.exit == ExitCode::Infeasible);
  REQUIRE(r.realloc);
  CHECK(r.realloc->groups == 2);
  CHECK(r.realloc->failed_groups == 1);
  for (const char* id : {"A", "B", "D"}) {
    CHECK(change(r, id).status == ReallocStatus::Ok);
    CHECK(change(r, id).after.memory == 2 * kGi);
    CHECK(change(r, id).after.memory_limit == 2 * kGi);
    CHECK(change(r, id).after.cpu == 3'200'000'000);
  }
  for (const char* id : {"C", "E"}) {
    CHECK(change(r, id).status == ReallocStatus::Failed);
    CHECK(change(r, id).reason == "room for 1 of the group's 2 workloads (cpu 2.7, memory 2Gi)");
    CHECK(change(r, id).after.memory == kGi);
  }
  REQUIRE(r.realloc->nodes.size() == 1);
  CHECK(r.realloc->nodes[0].before.memory == 5 * kGi);
  CHECK(r.realloc->nodes[0].after.memory == 8 * kGi);
  CHECK(r.realloc->nodes[0].after.cpu == 15'000'000'000);
  // What stands is saved: the three grown workloads, the two kept.
  REQUIRE(r.saved_inventory);
  CHECK(r.saved_inventory->find("memory: 8Gi\n      numa_memory") != std::string::npos);
  CHECK(r.out.find("\"message\": \"1 of 2 groups failed (2 of 5 workloads)\"") !=
        std::string::npos);
}

TEST_CASE("realloc: memory growth that fits and a shrink, the exact document") {
  const ReallocRun r = run(R"(
nodes:
  - name: n1
    cpu: 4
    memory: 4Gi
    workloads:
      - {id: w1, app: web, cpu: 1, memory: 1Gi}
)",
                           "workloads: [w1]\nresources: {cpu: -0.5, memory: 512Mi, memory_limit: "
                           "\"+1Gi\"}\n");
  CHECK(r.exit == ExitCode::Ok);
  CHECK(r.out == R"({
  "workloads": {
    "w1": {
      "node": "n1",
      "app": "web",
      "status": "ok",
      "before": {
        "cpu": 1,
        "cpu_limit": 1,
        "memory": 1073741824,
        "memory_limit": 1073741824,
        "cpu_map": {}
      },
      "after": {
        "cpu": 0.5,
        "cpu_limit": 1,
        "memory": 1610612736,
        "memory_limit": 2147483648,
        "cpu_map": {}
      }
    }
  },
  "nodes": {
    "n1": {
      "before": {
        "cpu": 1,
        "memory": 1073741824,
        "cpu_map": {}
      },
      "after": {
        "cpu": 0.5,
        "memory": 1610612736,
        "cpu_map": {}
      }
    }
  }
}
)");
}

TEST_CASE("realloc: a bound workload growing by a core keeps its old core") {
  const ReallocRun r = run(R"(
nodes:
  - name: n1
    cpu: 6
    memory: 8Gi
    workloads:
      - {id: w1, app: db, cpu: 1, memory: 1Gi, cpu_map: {"4": 100}}
)",
                           "workloads: [w1]\nresources: {cpu: 1, cpu_limit: 1}\n");
  CHECK(r.exit == ExitCode::Ok);
  // Plans {0,1}, {2,3}, {4,5}: the last keeps core 4.
  CHECK(change(r, "w1").after.cpu_map == cores({{"4", 100}, {"5", 100}}));
  CHECK(change(r, "w1").after.cpu == 2'000'000'000);
  CHECK(r.realloc->nodes[0].after.cpu_map == cores({{"4", 100}, {"5", 100}}));
}

TEST_CASE("realloc: members of a bound group each keep their own old core") {
  const ReallocRun r = run(R"(
nodes:
  - name: n1
    cpu: 6
    memory: 8Gi
    workloads:
      - {id: w1, app: db, cpu: 1, memory: 1Gi, cpu_map: {"2": 100}}
      - {id: w2, app: db, cpu: 1, memory: 1Gi, cpu_map: {"0": 100}}
      - {id: w3, app: db, cpu: 1, memory: 1Gi, cpu_map: {"1": 100}}
)",
                           "app: db\nresources: {cpu: 1}\n");
  CHECK(r.exit == ExitCode::Ok);
  CHECK(r.realloc->groups == 1);
  // Plans {0,1}, {2,3}, {4,5}. w1 keeps 2 with {2,3}; w2 keeps 0 with
  // {0,1}; w3's core 1 went with w2's plan, so w3 takes {4,5}.
  CHECK(change(r, "w1").after.cpu_map == cores({{"2", 100}, {"3", 100}}));
  CHECK(change(r, "w2").after.cpu_map == cores({{"0", 100}, {"1", 100}}));
  CHECK(change(r, "w3").after.cpu_map == cores({{"4", 100}, {"5", 100}}));
}

TEST_CASE("realloc: a bound member weighs the plans on its old cores, then the first left") {
  const std::string nodes = R"(
nodes:
  - name: n1
    cpu: 4
    memory: 8Gi
    workloads:
      - {id: w1, app: db, cpu: 0.5, memory: 1Gi, cpu_map: {"1": 50}}
      - {id: w2, app: db, cpu: 0.5, memory: 1Gi, cpu_map: {"1": 50}}
      - {id: w3, app: db, cpu: 0.5, memory: 1Gi, cpu_map: {"3": 50}}
)";
  const ReallocRun r = run(nodes, "app: db\nresources: {cpu: 0.25}\n");
  CHECK(r.exit == ExitCode::Ok);
  CHECK(r.realloc->groups == 1);
  // Plans {0:75}, {1:75}, {2:75}, {3:75}. w1 keeps 50 of core 1; w2's core 1
  // went with w1's plan and has 25 left, so no plan keeps any of its pieces
  // and it takes the first left, {0:75}; w3 keeps 50 of core 3.
  CHECK(change(r, "w1").after.cpu_map == cores({{"1", 75}}));
  CHECK(change(r, "w2").after.cpu_map == cores({{"0", 75}}));
  CHECK(change(r, "w3").after.cpu_map == cores({{"3", 75}}));

  // Past the allowance, the run says what weighs on it.
  Loaded loaded = load_nodes(nodes);
  REQUIRE(loaded.inventory);
  ReallocRequest request;
  request.app = "db";
  request.cpu = 250'000'000;
  Diagnostics diags;
  auto selected = select_workloads(*loaded.inventory, request, diags);
  REQUIRE(selected);
  const ReallocResult refused = realloc(*loaded.inventory, std::move(*selected), false, 2);
  CHECK(refused.too_large.starts_with(
      "too large: the binding groups' capacity passes list more than 2 plans for this input"));
  CHECK(refused.too_large.find("a bound workload looking at the plans on its old cores, to keep "
                               "most of them, weighs one per 16 it looks at") != std::string::npos);
}

TEST_CASE("realloc: a bound group holds only the plans its members may take, same choices") {
  // 8 cores, 1.5 each: whole-core shares of 100 and fraction shares of 50.
  // w1 keeps core 6 with a whole share, w2 core 7; w3's core 6 is gone and
  // it takes the first plan left.
  const ReallocRun r = run(R"(
nodes:
  - name: n1
    cpu: 8
    memory: 8Gi
    workloads:
      - {id: w1, app: db, cpu: 0.5, memory: 1Gi, cpu_map: {"6": 50}}
      - {id: w2, app: db, cpu: 0.5, memory: 1Gi, cpu_map: {"7": 50}}
      - {id: w3, app: db, cpu: 0.5, memory: 1Gi, cpu_map: {"6": 50}}
)",
                           "app: db\nresources: {cpu: 1}\n");
  CHECK(r.exit == ExitCode::Ok);
  CHECK(change(r, "w1").after.cpu_map == cores({{"1", 50}, {"6", 100}}));
  CHECK(change(r, "w2").after.cpu_map == cores({{"2", 50}, {"7", 100}}));
  CHECK(change(r, "w3").after.cpu_map == cores({{"0", 50}, {"3", 100}}));

  // 4096 cores of 1-piece plans: the pass lists 100,000 (cores 0 to 999)
  // and holds the first three and those on cores 0 and 999; core 4000 is
  // past the listing, so w3 keeps it by extending its old plan.
  const ReallocRun far = run(R"(
nodes:
  - name: n1
    cpu: 4096
    memory: 1Ti
    workloads:
      - {id: w1, app: a, cpu: 0.01, memory: 1, cpu_map: {"0": 1}}
      - {id: w2, app: a, cpu: 0.01, memory: 1, cpu_map: {"999": 1}}
      - {id: w3, app: a, cpu: 0.01, memory: 1, cpu_map: {"4000": 1}}
)",
                             "app: a\nresources: {memory: 1}\n");
  CHECK(far.exit == ExitCode::Ok);
  CHECK(far.realloc->groups == 1);
  CHECK(change(far, "w1").after.cpu_map == cores({{"0", 1}}));
  CHECK(change(far, "w2").after.cpu_map == cores({{"999", 1}}));
  CHECK(change(far, "w3").after.cpu_map == cores({{"4000", 1}}));
}

TEST_CASE("realloc: cpu_bind true binds an unbound workload, false unbinds") {
  const std::string nodes = R"(
nodes:
  - name: n1
    cpu: 2
    memory: 2Gi
    workloads:
      - {id: w1, app: web, cpu: 0.5, memory: 1Gi}
      - {id: w2, app: web, cpu: 1, memory: 512Mi, cpu_map: {"1": 100}}
)";
  const ReallocRun bind = run(nodes, "workloads: [w1]\ncpu_bind: true\n");
  CHECK(bind.exit == ExitCode::Ok);
  CHECK(change(bind, "w1").after.cpu_map == cores({{"0", 50}}));
  const ReallocRun unbind = run(nodes, "workloads: [w2]\ncpu_bind: false\n");
  CHECK(unbind.exit == ExitCode::Ok);
  CHECK(change(unbind, "w2").after.cpu_map.empty());
  CHECK(unbind.realloc->nodes[0].after.cpu_map.empty());
  CHECK(unbind.realloc->nodes[0].after.cpu == 1'500'000'000);
}

TEST_CASE("realloc: --atomic changes nothing when a group fails") {
  const std::string nodes = R"(
nodes:
  - name: n1
    cpu: 4
    memory: 4Gi
    workloads:
      - {id: w1, app: web, memory: 1Gi}
  - name: n2
    available: false
    cpu: 4
    memory: 2Gi
    workloads:
      - {id: w2, app: web, memory: 1Gi}
)";
  const ReallocRun r = run(nodes, "app: web\nresources: {memory: 2Gi}\n", true);
  CHECK(r.exit == ExitCode::Infeasible);
  CHECK(change(r, "w1").status == ReallocStatus::NotApplied);
  CHECK(change(r, "w1").after.memory == kGi);
  CHECK(change(r, "w2").status == ReallocStatus::Failed);
  CHECK(change(r, "w2").reason == "memory: 2Gi available, 3Gi per instance");
  CHECK(r.realloc->nodes[0].after.memory == kGi);
  // The saved inventory is the one given.
  Diagnostics d;
  const auto original = load_inventory(Source{"n.yaml", nodes}, d);
  REQUIRE(original);
  CHECK(*r.saved_inventory == render_inventory(*original, OutputFormat::Yaml, Units::Human));
  // Without --atomic w1 grows, on its node; w2 on the cordoned node fails.
  const ReallocRun loose = run(nodes, "app: web\nresources: {memory: 2Gi}\n");
  CHECK(change(loose, "w1").status == ReallocStatus::Ok);
  CHECK(change(loose, "w1").after.memory == 3 * kGi);
}

TEST_CASE("realloc: bad requests are invalid input, every problem listed") {
  const std::string nodes = R"(
nodes:
  - name: n1
    cpu: 2
    memory: 2Gi
    workloads:
      - {id: w1, app: web, cpu: 0.5, memory: 1Gi}
      - {id: w2, app: web, cpu: 1, memory: 1Gi, cpu_map: {"0": 100}}
)";
  auto problems = [&](std::string request) {
    const ReallocRun r = run(nodes, std::move(request));
    CHECK(r.exit == ExitCode::Invalid);
    CHECK_FALSE(r.realloc);
    CHECK_FALSE(r.saved_inventory);
    return r.err;
  };
  std::string err = problems("workloads: [w1, w9, w1]\nresources: {memory: abc, cpu: true}\n");
  CHECK(err.find("realloc.yaml:1:21: error: workloads[2]: workload \"w1\" is listed twice (first "
                 "at line 1:13)") != std::string::npos);
  CHECK(err.find("workloads[1]: unknown workload \"w9\"") != std::string::npos);
  CHECK(err.find("resources.memory:") != std::string::npos);
  CHECK(err.find("resources.cpu: expected a CPU amount") != std::string::npos);
  err = problems("workloads: [w1, w2]\nresources: {memory: -1Gi, cpu_limit: -2}\n");
  CHECK(err.find("workload \"w1\" on n1: memory 1Gi - 1Gi") == std::string::npos);  // 0 is fine
  CHECK(err.find("workload \"w1\" on n1: cpu_limit 0.5 - 2 is negative") != std::string::npos);
  CHECK(err.find("workload \"w2\" on n1: cpu_limit 1 - 2 is negative") != std::string::npos);
  err = problems("workloads: [w2]\nresources: {cpu: -1, cpu_limit: -1}\n");
  CHECK(err.find("binding cores with cpu 0") != std::string::npos);
  err = problems("workloads: [w1]\nresources: {cpu: 0.005}\ncpu_bind: true\n");
  CHECK(err.find("cpu 0.505 at share_base 100 is not a whole number of pieces") !=
        std::string::npos);
  CHECK(problems("app: db\n").find("no workload of app \"db\"") != std::string::npos);
  CHECK(problems("resources: {cpu: 1}\n").find("give workloads: [ids] or app:") !=
        std::string::npos);
  CHECK(problems("workloads: []\n").find("workloads is empty") != std::string::npos);
  CHECK(problems("app: web\ncpu_bind: maybe\n").find("cpu_bind") != std::string::npos);
  const ReallocRun json = run(nodes, "workloads: [w9]\n");
  CHECK(json.out.find("\"kind\": \"invalid\"") != std::string::npos);
  CHECK(json.out.find("\"path\": \"workloads[0]\"") != std::string::npos);
}

TEST_CASE("realloc: the table shows each node's usage and each workload's change") {
  const ReallocRun r = run(R"(
nodes:
  - name: n1
    cpu: 4
    memory: 2Gi
    workloads:
      - {id: w1, app: web, cpu: 1, memory: 1Gi}
      - {id: w2, app: web, cpu: 1, memory: 512Mi}
)",
                           "app: web\nresources: {memory: 256Mi}\n", false, OutputFormat::Table);
  CHECK(r.out ==
        "node n1: cpu 2, memory 1536Mi -> 2Gi, cpu_map -\n"
        "  WORKLOAD  APP  STATUS  CPU  CPU_LIMIT  MEMORY          MEMORY_LIMIT    CPU_MAP\n"
        "  w1        web  ok      1    1          1Gi -> 1280Mi   1Gi -> 1280Mi   -\n"
        "  w2        web  ok      1    1          512Mi -> 768Mi  512Mi -> 768Mi  -\n"
        "\n"
        "realloc: 2 ok, 0 failed, 0 not_applied (2 groups, 0 failed)\n");
}

// Memory mode only: a group succeeds exactly when the node's free memory,
// with the group's old memory given back, holds size x the new memory (and
// the new cpu does not exceed the node's cores). Groups run in order, so the
// oracle replays them one at a time on its own copy of free memory.
TEST_CASE("realloc: random memory-mode reallocs agree with the arithmetic oracle") {
  std::mt19937 rng(11);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int round = 0; round < 1500; ++round) {
    std::string text = "nodes:\n";
    const int nodes = pick(1, 4);
    std::vector<std::int64_t> free_mem(static_cast<std::size_t>(nodes));
    std::vector<std::int64_t> node_cores(static_cast<std::size_t>(nodes));
    struct W {
      std::string id;
      int node;
      std::int64_t cpu, memory;
    };
    std::vector<W> ws;
    int next = 0;
    for (int n = 0; n < nodes; ++n) {
      const std::int64_t memory = pick(1, 16) * 256;  // Mi
      node_cores[static_cast<std::size_t>(n)] = pick(1, 4);
      std::int64_t used = 0;
      std::string wtext;
      for (int k = pick(0, 4); k > 0; --k) {
        const std::int64_t m = pick(0, 4) * 256;
        if (used + m > memory) break;
        used += m;
        const std::int64_t cpu = pick(0, 8) * 500;  // millicores
        char id[8];
        std::snprintf(id, sizeof id, "w%02d", pick(0, 99));
        const std::string name = std::string(id) + "-" + std::to_string(next++);
        ws.push_back(W{name, n, cpu, m});
        wtext += "      - {id: " + name + ", app: a" + std::to_string(pick(0, 1)) +
                 ", cpu: " + std::to_string(cpu) + "m, memory: " + std::to_string(m) + "Mi}\n";
      }
      free_mem[static_cast<std::size_t>(n)] = memory - used;
      text += "  - name: n" + std::to_string(n) +
              "\n    cpu: " + std::to_string(node_cores[static_cast<std::size_t>(n)]) +
              "\n    memory: " + std::to_string(memory) + "Mi\n" +
              (pick(0, 3) == 0 ? "    available: false\n" : "") +
              (wtext.empty() ? "" : "    workloads:\n" + wtext);
    }
    if (ws.empty()) continue;
    const std::int64_t dmem = (pick(0, 6) - 2) * 256;
    const std::int64_t dcpu = (pick(0, 4) - 1) * 500;
    const bool atomic = pick(0, 3) == 0;
    const std::string request = "app: a0\nresources: {memory: " + std::to_string(dmem) +
                                "Mi, cpu: " + std::to_string(dcpu) + "m}\n";
    const ReallocRun r = run(text, request, atomic);
    INFO(text << request);
    // The oracle: select, check for a negative result, group, replay.
    std::vector<W> sel;
    for (const W& w : ws)
      if (text.find("id: " + w.id + ", app: a0") != std::string::npos) sel.push_back(w);
    if (sel.empty()) {
      CHECK(r.exit == ExitCode::Invalid);
      continue;
    }
    const bool negative = std::any_of(sel.begin(), sel.end(), [&](const W& w) {
      return w.memory + dmem < 0 || w.cpu + dcpu < 0;
    });
    if (negative) {
      CHECK(r.exit == ExitCode::Invalid);
      continue;
    }
    REQUIRE(r.realloc);
    std::sort(sel.begin(), sel.end(), [](const W& a, const W& b) { return a.id < b.id; });
    // Groups: node, new (cpu, memory); ordered by node name then smallest id.
    std::vector<std::vector<W>> groups;
    for (const W& w : sel) {
      auto it = std::find_if(groups.begin(), groups.end(), [&](const std::vector<W>& g) {
        return g[0].node == w.node && g[0].cpu == w.cpu && g[0].memory == w.memory;
      });
      if (it == groups.end())
        groups.push_back({w});
      else
        it->push_back(w);
    }
    std::stable_sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
      return a[0].node != b[0].node ? a[0].node < b[0].node : a[0].id < b[0].id;
    });
    std::map<std::string, std::string> want;
    bool any_failed = false;
    for (const auto& g : groups) {
      auto& free = free_mem[static_cast<std::size_t>(g[0].node)];
      const std::int64_t back = g[0].memory * static_cast<std::int64_t>(g.size());
      const std::int64_t mem = g[0].memory + dmem, cpu = g[0].cpu + dcpu;
      const auto size = static_cast<std::int64_t>(g.size());
      const bool fits = cpu <= node_cores[static_cast<std::size_t>(g[0].node)] * 1000 &&
                        (mem == 0 || (free + back) / mem >= size);
      if (fits) free += back - mem * size;
      any_failed = any_failed || !fits;
      for (const W& w : g) want[w.id] = fits ? "ok" : "failed";
    }
    if (atomic && any_failed)
      for (auto& [id, s] : want)
        if (s == "ok") s = "not_applied";
    CHECK(r.exit == (any_failed ? ExitCode::Infeasible : ExitCode::Ok));
    for (const WorkloadChange& c : r.realloc->workloads) {
      CHECK(want[c.id] == realloc_status_name(c.status));
      if (c.status != ReallocStatus::Ok) CHECK(c.after.memory == c.before.memory);
    }
    // What is saved reads back as a valid inventory.
    REQUIRE(r.saved_inventory);
    Diagnostics d;
    CHECK(load_inventory(Source{"saved.yaml", *r.saved_inventory}, d));
  }
}

// End to end through the binary: exit codes, --save-inventory at exit 4,
// usage errors.
TEST_CASE("realloc: the command line") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("eruplan_realloc_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "nodes.yaml") << R"(
nodes:
  - name: n1
    cpu: 4
    memory: 4Gi
    workloads:
      - {id: w1, app: web, memory: 1Gi}
  - name: n2
    cpu: 4
    memory: 2Gi
    workloads:
      - {id: w2, app: web, memory: 1Gi}
)";
  std::ofstream(dir / "grow.yaml") << "app: web\nresources: {memory: 2Gi}\n";
  auto exit_of = [&](const std::string& args) {
    const std::string cmd =
        "cd " + dir.string() + " && " + ERUPLAN_BINARY + " realloc " + args + " >out.txt 2>err.txt";
    const int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  auto slurp = [&](const char* name) {
    std::ifstream in(dir / name);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  CHECK(exit_of("-n nodes.yaml -r grow.yaml -o json --save-inventory after.yaml") == 4);
  CHECK(slurp("out.txt").find("\"w2\": {\n      \"node\": \"n2\",\n      \"app\": \"web\",\n      "
                              "\"status\": \"failed\"") != std::string::npos);
  CHECK(slurp("err.txt").find("failed: w2 on n2: memory: 2Gi available, 3Gi per instance") !=
        std::string::npos);
  // What stands is saved: w1 grew to 3Gi, w2 kept 1Gi.
  const std::string saved = slurp("after.yaml");
  CHECK(saved.find("      - id: w1\n        app: web\n        cpu: 0\n        cpu_limit: 0\n"
                   "        memory: 3Gi") != std::string::npos);
  CHECK(saved.find("      - id: w2\n        app: web\n        cpu: 0\n        cpu_limit: 0\n"
                   "        memory: 1Gi") != std::string::npos);
  CHECK(exit_of("-n nodes.yaml -r grow.yaml --atomic") == 4);
  CHECK(slurp("out.txt").find("w1        web  not_applied") != std::string::npos);
  CHECK(exit_of("-n nodes.yaml") == 2);
  CHECK(exit_of("-n nodes.yaml -r grow.yaml --bogus") == 2);
  CHECK(exit_of("-n nodes.yaml -r missing.yaml") == 3);
}

TEST_CASE("realloc: a fixture case checks each listed workload's status") {
  const std::string text = R"(name: grow
command: realloc
options: {atomic: true}
nodes:
  nodes:
    - {name: n1, cpu: 2, memory: 2Gi, workloads: [{id: w1, app: web, memory: 1Gi}]}
request: {workloads: [w1], resources: {memory: 2Gi}}
expect:
  exit: 4
  status: {w1: ok, w9: failed}
)";
  const FixtureResult r = run_fixture("case.yaml", text, nullptr);
  CHECK_FALSE(r.passed);
  REQUIRE(r.differences.size() == 2);
  CHECK(r.differences[0] == "status.w1: expected ok, got failed");
  CHECK(r.differences[1] == "status.w9: expected failed, got absent");
}

// Bound workloads at random: what is saved reads back, each core's usage is
// what the workloads on it hold (usage is left to default), each workload
// binds exactly its new cpu, and --atomic with a failure saves the inventory
// as given.
TEST_CASE("realloc: random bound reallocs keep usage equal to the workloads' pieces") {
  std::mt19937 rng(5);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int changed = 0;
  for (int round = 0; round < 600; ++round) {
    std::string text = "nodes:\n";
    const int nodes = pick(1, 3);
    int next = 0;
    for (int n = 0; n < nodes; ++n) {
      const int cores = pick(2, 8);
      text += "  - name: n" + std::to_string(n) + "\n    cpu: " + std::to_string(cores) +
              "\n    memory: 16Gi\n    workloads:\n";
      int core = 0;
      for (int k = pick(1, 4); k > 0 && core < cores; --k) {
        const int width = std::min(pick(1, 2), cores - core);
        std::string map;
        for (int c = core; c < core + width; ++c)
          map += (map.empty() ? "" : ", ") + std::string("\"") + std::to_string(c) + "\": 100";
        core += width;
        text += "      - {id: w" + std::to_string(next++) +
                ", app: a, cpu: " + std::to_string(width) + ", memory: 1Gi, cpu_map: {" + map +
                "}}\n";
      }
    }
    const int delta = pick(-1, 2);
    const bool atomic = pick(0, 2) == 0;
    const std::string request = "app: a\nresources: {cpu: " + std::to_string(delta) +
                                ", cpu_limit: " + std::to_string(delta) + "}\n";
    INFO(text << request);
    const ReallocRun r = run(text, request, atomic);
    if (r.exit == ExitCode::Invalid) {  // a 1-core workload shrinking to 0 cores
      CHECK(delta == -1);
      continue;
    }
    REQUIRE(r.realloc);
    REQUIRE(r.saved_inventory);
    Diagnostics d;
    const auto saved = load_inventory(Source{"saved.yaml", *r.saved_inventory}, d);
    REQUIRE(saved);
    for (const Node& node : saved->nodes) {
      std::map<std::string, Pieces> held;
      for (const Workload& w : node.workloads) {
        Pieces sum = 0;
        for (const auto& [core, p] : w.cpu_map) held[core] += p, sum += p;
        CHECK(sum * 10'000'000 == w.cpu);  // share_base 100
      }
      for (std::size_t i = 0; i < node.core_count(); ++i) {
        const Pieces used = node.cores.empty() ? 0 : node.cores[i].used;
        CHECK(used == held[node.core_id(i)]);
        CHECK(used <= 100);
      }
    }
    const bool failed = r.realloc->failed_groups > 0;
    CHECK(r.exit == (failed ? ExitCode::Infeasible : ExitCode::Ok));
    if (atomic && failed) {
      Diagnostics d2;
      const auto original = load_inventory(Source{"n.yaml", text}, d2);
      REQUIRE(original);
      CHECK(*r.saved_inventory == render_inventory(*original, OutputFormat::Yaml, Units::Human));
    }
    for (const WorkloadChange& c : r.realloc->workloads) {
      const Pieces pieces = c.after.cpu / 10'000'000;
      Pieces sum = 0;
      for (const auto& [core, p] : c.after.cpu_map) sum += p;
      CHECK(sum == pieces);
      if (c.status == ReallocStatus::Ok) ++changed;
    }
  }
  CHECK(changed > 300);
}
