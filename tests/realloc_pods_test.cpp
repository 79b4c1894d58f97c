// realloc of Kubernetes pods (CPU fit), its request flags, bound workloads
// keeping their cores when growing, and usage.cpu_map against the workloads'
// binds.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "binary.h"
#include "load.h"
#include "realloc_command.h"

using namespace eruplan;

namespace {

namespace fs = std::filesystem;
using eruplan_test::Ran;

fs::path work_dir() { return eruplan_test::scratch_dir("realloc_pods_test"); }
Ran run_cli(const std::string& args) { return eruplan_test::run_eruplan(work_dir(), args); }
void write(const std::string& name, const std::string& text) {
  std::ofstream(work_dir() / name) << text;
}

ReallocRun run(std::string nodes, std::string request) {
  ReallocOptions o;
  o.nodes = Source{"nodes.yaml", std::move(nodes)};
  o.request = Source{"realloc.yaml", std::move(request)};
  o.output = OutputFormat::Json;
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

// A Node of 7.91 cores and two pods of 3 cores and 0.5 core on it.
const char* kNode = R"({"kind": "NodeList", "items": [{"metadata": {"name": "w1"},
  "status": {"allocatable": {"cpu": "7910m", "memory": "32Gi", "pods": "110"}}}]})";
const char* kPods = R"({"kind": "PodList", "items": [
 {"metadata": {"name": "api", "namespace": "shop", "labels": {"app": "api"}},
  "spec": {"nodeName": "w1", "containers": [{"name": "c",
    "resources": {"requests": {"cpu": "3", "memory": "1Gi"}}}]},
  "status": {"phase": "Running"}},
 {"metadata": {"name": "db", "namespace": "shop", "labels": {"app": "db"}},
  "spec": {"nodeName": "w1", "containers": [{"name": "c",
    "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]},
  "status": {"phase": "Running"}}]})";

}  // namespace

TEST_CASE("realloc pods: CPU fit keeps every node at or below its allocatable CPU") {
  write("nodes.json", kNode);
  write("pods.json", kPods);
  // 3.5 requested of 7.91: +4.41 fits exactly (7.91), +4.42 does not.
  Ran r = run_cli("realloc -n nodes.json --pods pods.json --workload shop/api --cpu 4410m -o json");
  CHECK(r.exit == 0);
  CHECK(r.out.find("\"cpu\": 7.91") != std::string::npos);
  r = run_cli("realloc -n nodes.json --pods pods.json --workload shop/api --cpu 4420m -o json");
  CHECK(r.exit == 4);
  CHECK(r.err.find("failed: shop/api on w1: cpu") != std::string::npos);
  // The issue's case: +9.45 would have made 12.95 cores requested on 7.91.
  r = run_cli("realloc -n nodes.json --pods pods.json --app api --cpu 9.45");
  CHECK(r.exit == 4);
  CHECK(r.out.find("12.95") == std::string::npos);
  // An eruplan inventory's workloads keep Part I's memory mode (CPU may be
  // oversold there, as the planner does without cpu_fit).
  const ReallocRun m = run(R"(
nodes:
  - name: n1
    cpu: 4
    memory: 8Gi
    workloads:
      - {id: w1, app: web, cpu: 1, memory: 1Gi}
      - {id: w2, app: web, cpu: 3, memory: 1Gi}
)",
                           "workloads: [w1]\nresources: {cpu: 2}\n");
  CHECK(m.exit == ExitCode::Ok);
  CHECK(m.realloc->nodes[0].after.cpu == 6'000'000'000);  // 6 cores requested on 4
}

TEST_CASE("realloc flags: --workload, --app and the deltas replace the request file's fields") {
  write("nodes.yaml", R"(nodes:
  - name: n1
    cpu: 8
    memory: 8Gi
    workloads:
      - {id: w1, app: web, cpu: 1, memory: 1Gi}
      - {id: w2, app: web, cpu: 1, memory: 1Gi}
      - {id: w3, app: db, cpu: 2, memory: 2Gi, cpu_map: {"6": 100, "7": 100}}
)");
  write("grow.yaml", "workloads: [w1]\nresources: {memory: 1Gi}\n");
  Ran r = run_cli("realloc -n nodes.yaml --workload w1 --workload w2 --memory 512Mi -o json");
  CHECK(r.exit == 0);
  CHECK(r.out.find("\"memory\": 1610612736") != std::string::npos);  // 1.5Gi each
  // A flag replaces its field: the file's w1 and +1Gi become w2 and -512Mi.
  r = run_cli("realloc -n nodes.yaml -r grow.yaml --workload w2 --memory=-512Mi -o json");
  CHECK(r.exit == 0);
  CHECK(r.out.find("\"w1\"") == std::string::npos);
  CHECK(r.out.find("\"memory\": 536870912") != std::string::npos);
  r = run_cli("realloc -n nodes.yaml --app db --cpu 1 --cpu-limit 1 -o json");
  CHECK(r.exit == 0);
  CHECK(r.out.find("\"cpu_map\": {\n          \"0\": 100,\n          \"6\": 100,\n          "
                   "\"7\": 100\n        }") != std::string::npos);
  r = run_cli("realloc -n nodes.yaml --app db --cpu-bind false -o json");
  CHECK(r.exit == 0);
  CHECK(r.out.find("\"after\": {\n        \"cpu\": 2,\n        \"cpu_limit\": 2,\n        "
                   "\"memory\": 2147483648,\n        \"memory_limit\": 2147483648,\n        "
                   "\"cpu_map\": {}") != std::string::npos);
  CHECK(run_cli("realloc -n nodes.yaml --memory 1Gi").exit == 2);  // which workloads?
  r = run_cli("realloc -n nodes.yaml --workload w1 --app web");
  CHECK(r.exit == 3);
  CHECK(r.err.find("--app: give --workload or --app, not both") != std::string::npos);
  r = run_cli("realloc -n nodes.yaml --workload w1 --memory lots");
  CHECK(r.exit == 2);
  r = run_cli("realloc -n nodes.yaml --workload w9 --memory 1Gi");
  CHECK(r.exit == 3);
  CHECK(r.err.find("--workload: unknown workload \"w9\"") != std::string::npos);
}

TEST_CASE("realloc: a bound workload growing keeps its old cores when no listed plan has them") {
  // After w1 gives core 7 back, cores 1-7 are free; the capacity pass lists
  // {1,2}, {3,4}, {5,6}. Its extension keeps 7 and adds the first free core.
  const ReallocRun r = run(R"(
nodes:
  - name: n1
    cpu: 8
    memory: 8Gi
    workloads:
      - {id: w1, app: db, cpu: 1, memory: 1Gi, cpu_map: {"7": 100}}
      - {id: w2, app: db, cpu: 1, memory: 1Gi, cpu_map: {"0": 100}}
)",
                           "workloads: [w1]\nresources: {cpu: 1, cpu_limit: 1}\n");
  CHECK(r.exit == ExitCode::Ok);
  CHECK(change(r, "w1").after.cpu_map == cores({{"1", 100}, {"7", 100}}));
  // 2 bound cores growing by 1.5: both kept, one whole core and a half added.
  const ReallocRun h = run(R"(
nodes:
  - name: n1
    cpu: 8
    memory: 8Gi
    workloads:
      - {id: w1, app: db, cpu: 2, memory: 1Gi, cpu_map: {"6": 100, "7": 100}}
      - {id: w2, app: db, cpu: 1, memory: 1Gi, cpu_map: {"0": 100}}
)",
                           "workloads: [w1]\nresources: {cpu: 1.5, cpu_limit: 1.5}\n");
  CHECK(h.exit == ExitCode::Ok);
  Pieces kept = 0;
  for (const auto& [core, p] : change(h, "w1").after.cpu_map)
    if (core == "6" || core == "7") kept += std::min<Pieces>(p, 100);
  CHECK(kept == 200);
  CHECK(change(h, "w1").after.cpu == 3'500'000'000);
}

TEST_CASE("realloc: a given usage.cpu_map must hold every core the workloads bind") {
  const ReallocRun r = run(R"(
nodes:
  - name: n1
    cpu: 4
    memory: 4Gi
    usage: {cpu_map: {"0": 100}}
    workloads:
      - {id: w1, app: db, cpu: 1, memory: 1Gi, cpu_map: {"1": 100}}
)",
                           "workloads: [w1]\nresources: {cpu: 1, cpu_limit: 1}\n");
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(r.err.find("nodes.yaml:6:22: error: nodes[0].usage.cpu_map: leaves out core \"1\", where "
                   "the node's workloads bind 100 pieces") != std::string::npos);
  // Left out entirely, usage.cpu_map is the workloads' sum.
  const ReallocRun ok = run(R"(
nodes:
  - name: n1
    cpu: 4
    memory: 4Gi
    workloads:
      - {id: w1, app: db, cpu: 1, memory: 1Gi, cpu_map: {"1": 100}}
)",
                            "workloads: [w1]\nresources: {cpu: 1, cpu_limit: 1}\n");
  CHECK(ok.exit == ExitCode::Ok);
}

TEST_CASE("realloc: random whole-core growth keeps the old cores exactly when free cores allow") {
  // Oracle: a bound workload of k whole cores growing by d keeps all k old
  // cores iff the node has at least d free whole cores besides them (its
  // own given back); then its new map holds them all.
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int extended = 0;
  for (int round = 0; round < 500; ++round) {
    const int cores = pick(2, 10);
    std::vector<int> owner(static_cast<std::size_t>(cores), -1);
    std::string text = "nodes:\n  - name: n1\n    cpu: " + std::to_string(cores) +
                       "\n    memory: 64Gi\n    workloads:\n";
    int next = 0;
    for (int c = 0; c < cores; ++c) {
      if (pick(0, 2) == 0 || owner[static_cast<std::size_t>(c)] != -1) continue;
      owner[static_cast<std::size_t>(c)] = next;
      text += "      - {id: w" + std::to_string(next++) +
              ", app: a, cpu: 1, memory: 1Gi, cpu_map: {\"" + std::to_string(c) + "\": 100}}\n";
    }
    if (next == 0) continue;
    const int who = pick(0, next - 1);
    const int grow = pick(1, 3);
    int free_others = 0;
    for (int c = 0; c < cores; ++c) free_others += owner[static_cast<std::size_t>(c)] == -1 ? 1 : 0;
    const std::string id = "w" + std::to_string(who);
    INFO(text << id << " +" << grow);
    const ReallocRun r =
        run(text, "workloads: [" + id + "]\nresources: {cpu: " + std::to_string(grow) +
                      ", cpu_limit: " + std::to_string(grow) + "}\n");
    if (free_others < grow) {
      CHECK(r.exit == ExitCode::Infeasible);
      continue;
    }
    REQUIRE(r.exit == ExitCode::Ok);
    const WorkloadChange& c = change(r, id);
    Pieces kept = 0, total = 0;
    for (const auto& [core, p] : c.after.cpu_map) {
      total += p;
      const int held_by = owner[static_cast<std::size_t>(std::stoi(core))];
      CHECK((held_by == -1 || held_by == who));
      for (const auto& [old_core, old_p] : c.before.cpu_map)
        if (old_core == core) kept += std::min(p, old_p);
    }
    CHECK(total == 100 * (1 + grow));
    CHECK(kept == 100);
    extended += kept == 100 ? 1 : 0;
  }
  CHECK(extended > 100);
}
