// The cluster state (SPEC §8): extended resources, max_instances, taints and
// CPU fit in the capacity pass; structured reasons; the reserve stage; several
// requests with priorities, gangs and min_count; apply round trips.
#include "requests.h"

#include <doctest/doctest.h>

#include <random>
#include <utility>

#include "load.h"
#include "pipeline.h"

using namespace eruplan;

namespace {

constexpr Bytes Gi = 1024LL * 1024 * 1024;

Inventory load_nodes(const std::string& yaml) {
  Diagnostics diags;
  auto inv = load_inventory(Source{"nodes.yaml", yaml}, diags);
  INFO(diags.to_string());
  REQUIRE(inv);
  return *inv;
}

std::vector<Request> load_list(const std::string& yaml) {
  Diagnostics diags;
  Source source{"r.yaml", yaml};
  auto set = load_requests(&source, {}, true, diags);
  INFO(diags.to_string());
  REQUIRE(set);
  return set->requests;
}

std::string load_error(const std::string& yaml) {
  Diagnostics diags;
  Source source{"r.yaml", yaml};
  load_requests(&source, {}, true, diags);
  CHECK(diags.has_errors());
  return diags.to_string();
}

const NodeCapacity& entry(const CapacityMap& map, const Inventory& inv, std::string_view name) {
  for (const NodeCapacity& n : map.nodes)
    if (inv.nodes[n.node].name == name) return n;
  FAIL("no node " << name);
  return map.nodes.front();
}

std::int64_t deployed(const RequestOutcome& o, const Inventory& inv, std::string_view name) {
  for (std::size_t i = 0; i < o.capacity.nodes.size(); ++i)
    if (inv.nodes[o.capacity.nodes[i].node].name == name) return o.deploy[i];
  return 0;
}

const char* const kCluster = R"(nodes:
  - {name: cpu1, cpu: 16, memory: 64Gi}
  - {name: cpu2, cpu: 16, memory: 64Gi, usage: {memory: 60Gi}}
  - {name: gpu1, cpu: 32, memory: 128Gi, extended: {nvidia.com/gpu: 4}, max_instances: 6}
  - {name: gpu2, cpu: 32, memory: 128Gi, extended: {nvidia.com/gpu: 4}, usage: {extended: {nvidia.com/gpu: 1}},
     taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}
)";

}  // namespace

TEST_CASE("extended resources, max_instances and taints limit capacity with reasons as data") {
  const Inventory inv = load_nodes(kCluster);
  Request req;
  req.memory = 8 * Gi;
  req.extended = {{"nvidia.com/gpu", 2}};
  const CapacityMap map = capacity_pass(inv, req);
  CHECK(entry(map, inv, "cpu1").capacity == 0);
  CHECK(entry(map, inv, "cpu1").reason() == "nvidia.com/gpu: 0 available, 2 per instance");
  CHECK(reason_kinds(entry(map, inv, "cpu2").reasons) ==
        std::vector<std::string>{"memory", "nvidia.com/gpu"});
  CHECK(entry(map, inv, "cpu2").reason() ==
        "memory: 4Gi available, 8Gi per instance; nvidia.com/gpu: 0 available, 2 per instance");
  CHECK(entry(map, inv, "gpu1").capacity == 2);
  CHECK(entry(map, inv, "gpu2").reason() == "taint: dedicated=gpu:NoSchedule not tolerated");

  req.tolerations = {Toleration{"dedicated", true, "", ""}};
  CHECK(entry(capacity_pass(inv, req), inv, "gpu2").capacity == 1);  // (4 - 1) / 2

  Request small;
  small.memory = Gi;
  const CapacityMap many = capacity_pass(inv, small);
  CHECK(entry(many, inv, "gpu1").capacity == 6);  // max_instances
  Inventory busy = inv;
  busy.nodes[2].instances = {{"a", 4}, {"b", 3}};
  const CapacityMap busy_map = capacity_pass(busy, small);
  const NodeCapacity& full = entry(busy_map, busy, "gpu1");
  CHECK(full.capacity == 0);
  CHECK(full.reason() == "instances: 7 running, at most 6");
  CHECK(reason_kinds(full.reasons) == std::vector<std::string>{"instances"});
}

TEST_CASE("reason kinds come in SPEC §8.5's order") {
  std::vector<Reason> reasons = {
      Reason::words("instances", "x"), Reason::words("zz.io/b", "x"), Reason::words("memory", "x"),
      Reason::words("a.io/a", "x"),    Reason::words("taint", "x"),   Reason::words("cpu", "x"),
      Reason::words("volumes", "x"),   Reason::words("storage", "x"), Reason::words("memory", "y")};
  CHECK(reason_kinds(reasons) == std::vector<std::string>{"taint", "cpu", "memory", "storage",
                                                          "volumes", "a.io/a", "zz.io/b",
                                                          "instances"});
}

TEST_CASE("CPU fit divides what is left of the node's CPU; fractional cpu counts exactly") {
  const Inventory inv = load_nodes(R"(nodes:
  - {name: a, cpu: 15890m, memory: 64Gi, usage: {cpu: 12.5}}
  - {name: b, cpu: 2, memory: 64Gi, usage: {cpu: 3}}
)");
  CHECK(inv.nodes[0].core_count() == 15);
  Request req;
  req.cpu = 1'500'000'000;
  req.memory = Gi;
  CHECK(entry(capacity_pass(inv, req), inv, "a").capacity == 64);  // memory mode oversells CPU
  req.cpu_fit = true;
  const CapacityMap map = capacity_pass(inv, req);
  CHECK(entry(map, inv, "a").capacity == 2);  // 3.39 / 1.5
  CHECK(entry(map, inv, "b").capacity == 0);
  CHECK(entry(map, inv, "b").reason() == "cpu: 0 available, 1.5 per instance");
  req.cpu = 16'000'000'000;  // more than 15.89: the node's exact CPU decides
  CHECK(entry(capacity_pass(inv, req), inv, "a").reason() ==
        "cpu: 16 cores per instance, node has 15.89 cores");
}

TEST_CASE("tolerations: Equal, Exists, empty key, empty effect") {
  const Taint t{"dedicated", "gpu", "NoSchedule"};
  CHECK(Toleration{"dedicated", false, "gpu", ""}.tolerates(t));
  CHECK_FALSE(Toleration{"dedicated", false, "cpu", ""}.tolerates(t));
  CHECK(Toleration{"dedicated", true, "", ""}.tolerates(t));
  CHECK(Toleration{"", true, "", ""}.tolerates(t));
  CHECK_FALSE(Toleration{"", true, "", "NoExecute"}.tolerates(t));
  CHECK(Toleration{"dedicated", false, "gpu", "NoSchedule"}.tolerates(t));
  CHECK(taint_text(Taint{"k", "", "NoExecute"}) == "k:NoExecute");
}

TEST_CASE("reserve: usage, cores, NUMA memory, volumes and instances grow by the placement") {
  Inventory inv = load_nodes(R"(nodes:
  - name: n
    cpu: 4
    memory: 8Gi
    numa: {"0": "0", "1": "0", "2": "1", "3": "1"}
    numa_memory: {"0": 4Gi, "1": 4Gi}
    volumes: {/sda: 1000, /sdb: 300}
    extended: {x.io/y: 5}
)");
  Request req;
  req.app = "web";
  req.cpu = 1'000'000'000;
  req.cpu_bind = true;
  req.memory = Gi;
  req.extended = {{"x.io/y", 2}};
  req.volumes = {VolumeRequest{"AUTO:/d:rw:100", "AUTO", "/d", "rw", 100},
                 VolumeRequest{"AUTO:/m:rwm:300", "AUTO", "/m", "rwm", 300}};
  const CapacityMap map = capacity_pass(inv, req);
  REQUIRE(map.nodes[0].capacity == 1);  // one unused device for the monopoly binding
  reserve(inv, 0, req, 1, map.nodes[0].plans);
  const Node& n = inv.nodes[0];
  CHECK(n.memory_used == Gi);
  CHECK(n.cpu_used == 1'000'000'000);
  CHECK(n.extended[0].used == 2);
  CHECK(n.instances_of("web") == 1);
  Pieces pieces = 0;
  for (const Core& c : n.cores) pieces += c.used;
  CHECK(pieces == 100);
  Bytes numa = 0;
  for (const NumaNode& m : n.numa_nodes) numa += m.used;
  CHECK(numa == Gi);
  // The monopoly binding holds its whole device; the normal one 100 bytes of the other.
  CHECK(((n.devices[0].used == 100 && n.devices[1].used == 300) ||
         (n.devices[0].used == 1000 && n.devices[1].used == 100)));
  CHECK(n.revision == 1);
  // Planned again, the new instance is an existing one and no unused device is left.
  const CapacityMap again = capacity_pass(inv, req);
  CHECK(again.nodes[0].existing == 1);
  CHECK(again.nodes[0].capacity == 0);
}

TEST_CASE("reserve: neighbours given alike instances share one list, apart once one changes") {
  Inventory inv = load_nodes(
      "nodes:\n  - {name: a, memory: 8Gi}\n  - {name: b, memory: 8Gi}\n"
      "  - {name: c, memory: 8Gi, instances: {web: 1, x: 2}}\n");
  Request req;
  req.app = "web";
  req.memory = Gi;
  reserve(inv, 0, req, 1, {});
  reserve(inv, 1, req, 1, {});
  const auto& a = std::as_const(inv.nodes[0]).instances;
  const auto& b = std::as_const(inv.nodes[1]).instances;
  CHECK(&a.get() == &b.get());  // one list
  reserve(inv, 2, req, 1, {});  // {web: 2, x: 2}: not alike
  CHECK(&b.get() != &std::as_const(inv.nodes[2]).instances.get());
  reserve(inv, 1, req, 2, {});  // b alone changes: its own list again
  CHECK(inv.nodes[0].instances_of("web") == 1);
  CHECK(inv.nodes[1].instances_of("web") == 3);
  CHECK(inv.nodes[2].instances_of("web") == 2);
  CHECK(inv.nodes[2].instances_of("x") == 2);
  CHECK(&a.get() != &b.get());
  CHECK(inv.nodes[1].memory_used == 3 * Gi);
}

TEST_CASE("several requests: priority first, each against the state the earlier ones left") {
  Inventory state = load_nodes(
      "nodes:\n  - {name: a, cpu: 8, memory: 4Gi}\n  - {name: b, cpu: 8, memory: 2Gi}\n");
  const auto requests = load_list(R"(requests:
  - {name: low, app: x, count: 3, resources: {memory: 1Gi}}
  - {name: high, app: y, count: 3, priority: 5, resources: {memory: 1Gi}}
)");
  const auto out = plan_requests(state, requests, PlanOptions{});
  REQUIRE(out.size() == 2);
  CHECK(out[1].status == RequestStatus::Placed);  // high went first and took 3 of 6
  CHECK(out[0].status == RequestStatus::Placed);
  CHECK(out[0].capacity.total == 3);
  CHECK(state.nodes[0].memory_used + state.nodes[1].memory_used == 6 * Gi);
  CHECK(state.nodes[0].instances_of("y") + state.nodes[1].instances_of("y") == 3);
}

TEST_CASE("min_count: the largest n >= min_count is placed, and the request is partial") {
  Inventory state = load_nodes("nodes:\n  - {name: a, cpu: 8, memory: 7Gi}\n");
  auto requests =
      load_list("requests:\n  - {app: x, count: 10, min_count: 5, resources: {memory: 1Gi}}\n");
  auto out = plan_requests(state, requests, PlanOptions{});
  CHECK(out[0].status == RequestStatus::Partial);
  CHECK(out[0].placed == 7);
  CHECK(deployed(out[0], state, "a") == 7);

  Inventory tight = load_nodes("nodes:\n  - {name: a, cpu: 8, memory: 3Gi}\n");
  out = plan_requests(tight, requests, PlanOptions{});
  CHECK(out[0].status == RequestStatus::Rejected);
  CHECK(out[0].placed == 0);
  CHECK(tight.nodes[0].memory_used == 0);

  // auto with nodes_limit: the limit stops it at 2 per node.
  Inventory two = load_nodes(
      "nodes:\n  - {name: a, cpu: 8, memory: 9Gi}\n  - {name: b, cpu: 8, memory: 9Gi}\n");
  auto limited = load_list(
      "requests:\n  - {app: x, count: 6, min_count: 3, nodes_limit: 2, resources: {memory: "
      "1Gi}}\n");
  out = plan_requests(two, limited, PlanOptions{});
  CHECK(out[0].status == RequestStatus::Partial);
  CHECK(out[0].placed == 4);
}

TEST_CASE("a gang is all or nothing: a member below its min_count undoes the others") {
  Inventory state = load_nodes(kCluster);
  const Inventory before = state;
  const auto requests = load_list(R"(requests:
  - {name: ps, app: train, group: job7, count: 1, resources: {cpu: 8, memory: 32Gi}}
  - {name: worker, app: train, group: job7, count: 8, min_count: 6, resources: {extended: {nvidia.com/gpu: 1}, memory: 8Gi}}
  - {name: web, app: web, count: 2, resources: {memory: 1Gi}}
)");
  const auto out = plan_requests(state, requests, PlanOptions{});
  CHECK(out[0].status == RequestStatus::Rejected);
  CHECK(out[1].status == RequestStatus::Rejected);
  CHECK(out[1].reason.full() == "group job7: worker placed 4, needs at least 6");
  CHECK(out[0].reason.full() == "group job7: worker placed 4, needs at least 6");
  CHECK(out[2].status == RequestStatus::Placed);
  for (std::size_t i = 0; i < state.nodes.size(); ++i) {
    CHECK(state.nodes[i].instances_of("train") == 0);
    CHECK(state.nodes[i].extended == before.nodes[i].extended);
  }

  // Tolerating the taint, gpu2 adds 3 GPUs: 7 workers, the gang stands.
  Inventory fits = load_nodes(kCluster);
  auto tolerant = requests;
  tolerant[1].tolerations = {Toleration{"dedicated", true, "", ""}};
  const auto ok = plan_requests(fits, tolerant, PlanOptions{});
  CHECK(ok[0].status == RequestStatus::Placed);
  CHECK(ok[1].status == RequestStatus::Partial);
  CHECK(ok[1].placed == 7);
}

TEST_CASE("--atomic makes every request one gang") {
  Inventory state = load_nodes("nodes:\n  - {name: a, cpu: 8, memory: 4Gi}\n");
  const auto requests = load_list(
      "requests:\n  - {app: x, count: 2, resources: {memory: 1Gi}}\n  - {app: y, count: 3, "
      "resources: {memory: 1Gi}}\n");
  PlanOptions atomic;
  atomic.atomic = true;
  const auto out = plan_requests(state, requests, atomic);
  CHECK(out[0].status == RequestStatus::Rejected);
  CHECK(out[1].status == RequestStatus::Rejected);
  CHECK(state.nodes[0].memory_used == 0);
  CHECK(out[0].reason.full().rfind("--atomic: y", 0) == 0);
}

TEST_CASE("the capacity cache agrees with a fresh pass after every reservation (oracle)") {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 300; ++round) {
    Inventory state;
    const int n = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < n; ++i) {
      Node node;
      node.name = "n" + std::to_string(i);
      node.plain_cores = 4;
      node.plain_core_pieces = 100;
      node.memory = static_cast<Bytes>(1 + rng() % 16) * Gi;
      if (rng() % 3 == 0) node.extended = {{"g", static_cast<std::int64_t>(rng() % 5), 0}};
      if (rng() % 4 == 0) node.max_instances = static_cast<std::int64_t>(rng() % 6);
      state.nodes.push_back(std::move(node));
    }
    std::vector<Request> requests;
    const int m = 1 + static_cast<int>(rng() % 16);
    for (int j = 0; j < m; ++j) {
      Request r;
      r.app = "app" + std::to_string(rng() % 4);
      r.name = "r" + std::to_string(j);
      r.count = 1 + static_cast<std::int64_t>(rng() % 6);
      r.memory = static_cast<Bytes>(1 + rng() % 3) * Gi;
      if (rng() % 2 == 0) r.extended = {{"g", 1}};
      r.strategy = std::array{Strategy::Auto, Strategy::Global, Strategy::Drained}[rng() % 3];
      if (rng() % 3 == 0) r.min_count = 1;
      if (round % 2 == 0 && rng() % 4 == 0) r.group = "g1";
      requests.push_back(std::move(r));
    }
    if (rng() % 3 == 0)  // instances already running, of the apps requested or others
      for (Node& node : state.nodes)
        if (rng() % 2 == 0)
          node.instances = {
              {"app" + std::to_string(rng() % 5), static_cast<std::int64_t>(1 + rng() % 3)}};
    Inventory fresh = state;
    // A sink that copies, as one that renders the outcome and drops it, leaves
    // every map to the cache (moving it out would leave nothing to reuse).
    std::vector<RequestOutcome> out(requests.size());
    plan_requests(state, requests, PlanOptions{},
                  [&](std::size_t i, RequestOutcome&& o) { out[i] = o; });
    // The oracle: the requests in priority order (all 0: file order), each
    // by a new capacity pass over the state so far, no cache, no gangs.
    const bool any_gang = std::any_of(requests.begin(), requests.end(),
                                      [](const Request& r) { return !r.group.empty(); });
    for (std::size_t j = 0; j < requests.size() && !any_gang; ++j) {
      const CapacityMap map = capacity_pass(fresh, requests[j]);
      CAPTURE(j);
      CHECK(map.total == out[j].capacity.total);
      REQUIRE(map.nodes.size() == out[j].capacity.nodes.size());
      for (std::size_t k = 0; k < map.nodes.size(); ++k) {
        const NodeCapacity& a = map.nodes[k];
        const NodeCapacity& b = out[j].capacity.nodes[k];
        CHECK(a.node == b.node);
        CHECK(a.capacity == b.capacity);
        CHECK(a.existing == b.existing);
        CHECK(a.reason() == b.reason());
        CHECK(a.usage == b.usage);
        CHECK(a.rate == b.rate);
      }
      std::vector<std::size_t> where;
      const auto infos = strategy_infos(fresh, map, where);
      StrategyInput input;
      input.infos = infos;
      input.count = requests[j].count;
      input.total = map.total;
      input.inventory = &fresh;
      input.request = &requests[j];
      const Placement p = place(input, requests[j].min_count, requests[j].strategy);
      CHECK(p.placed == out[j].placed);
      for (std::size_t k = 0; k < infos.size(); ++k) {
        const std::int64_t d = p.placed > 0 ? p.result.deploy[k] : 0;
        CHECK(d == out[j].deploy[where[k]]);
        reserve(fresh, infos[k].node, requests[j], d, {});
      }
    }
    if (!any_gang)
      for (std::size_t i = 0; i < state.nodes.size(); ++i) {
        CHECK(state.nodes[i].memory_used == fresh.nodes[i].memory_used);
        CHECK(state.nodes[i].instances == fresh.nodes[i].instances);
      }
    // Final state: every node's usage equals what the placements added.
    for (std::size_t i = 0; i < state.nodes.size(); ++i) {
      Bytes memory = 0;
      for (std::size_t j = 0; j < out.size(); ++j)
        memory += deployed(out[j], state, state.nodes[i].name) * requests[j].memory;
      CHECK(state.nodes[i].memory_used == memory);
    }
  }
}

TEST_CASE("several requests: bad input names the field") {
  CHECK(load_error("requests: []\n").find("r.yaml:1:11: error: requests: requests is empty") !=
        std::string::npos);
  CHECK(load_error("requests:\n  - {app: a, count: 2}\n  - {app: a, count: 1}\n")
            .find("requests[1]: two requests are named \"a\" (requests[0] and requests[1])") !=
        std::string::npos);
  CHECK(load_error("requests:\n  - {app: a, count: 2, min_count: 3}\n")
            .find("requests[0].min_count: min_count 3 is more than count 2") != std::string::npos);
  CHECK(load_error("requests:\n  - {app: a, count: 2, min_count: 2, strategy: fill}\n")
            .find("min_count is not valid with strategy fill") != std::string::npos);
  CHECK(load_error("requests:\n  - {app: a, count: 2, resources: {extended: {x.io/y: -1}}}\n")
            .find("requests[0].resources.extended.x.io/y: negative size -1") != std::string::npos);
  CHECK(load_error("requests:\n  - {app: a, count: 2, min_count: 0}\n")
            .find("requests[0].min_count") != std::string::npos);
  // Every problem at once: a duplicate name beside a request with another error.
  CHECK(load_error("requests:\n  - {app: a, count: 2, resources: {memory: lots}}\n"
                   "  - {app: a, count: 1}\n") ==
        "r.yaml:2:44: error: requests[0].resources.memory: expected a size (bytes, or a string "
        "like \"8Gi\"), got lots\n"
        "r.yaml:3:5: error: requests[1]: two requests are named \"a\" (requests[0] and "
        "requests[1]); give each a unique name\n");
}

TEST_CASE("apply A, then apply B on its output, equals one plan of requests [A, B] (SPEC §8.3)") {
  const std::string nodes = R"(nodes:
  - {name: n1, cpu: 4, memory: 8Gi, usage: {cpu: 1, memory: 2Gi}, extended: {x.io/g: 2}}
  - name: n2
    cpu_map: {"0": 100, "1": 100, "2": 100}
    memory: 16Gi
    volumes: {/sda: 1000, /sdb: 500}
)";
  const std::string a =
      "app: db\ncount: 2\nresources: {cpu: 1, cpu_bind: true, memory: 2Gi, volumes: "
      "[\"AUTO:/d:rw:100\"]}\n";
  const std::string b = "app: web\ncount: 2\nresources: {memory: 1Gi, extended: {x.io/g: 1}}\n";
  auto apply = [](const std::string& inventory, const std::string& request) {
    RunOptions o;
    o.command = Command::Apply;
    o.nodes = Source{"n.yaml", inventory};
    o.request = Source{"r.yaml", request};
    o.output = OutputFormat::Yaml;
    const RunResult r = run(o);
    INFO(r.err);
    CHECK(r.exit == ExitCode::Ok);
    return r.out;
  };
  const std::string after_a = apply(nodes, a);
  const std::string after_b = apply(after_a, b);

  RunOptions both;
  both.command = Command::Plan;
  both.nodes = Source{"n.yaml", nodes};
  both.request =
      Source{"r.yaml",
             "requests:\n  - {app: db, count: 2, resources: {cpu: 1, cpu_bind: true, memory: 2Gi, "
             "volumes: [\"AUTO:/d:rw:100\"]}}\n  - {app: web, count: 2, resources: "
             "{memory: 1Gi, extended: {x.io/g: 1}}}\n"};
  both.output = OutputFormat::Json;
  both.save_inventory = OutputFormat::Yaml;
  const RunResult r = run(both);
  CHECK(r.exit == ExitCode::Ok);
  REQUIRE(r.saved_inventory);
  CHECK(*r.saved_inventory == after_b);
  // The printed inventory reads back, and shows the new instances as existing.
  CHECK(after_b.find("db: 2") != std::string::npos);
  CHECK(after_b.find("web: ") != std::string::npos);
}

TEST_CASE("several requests: output handed over in pieces is the same bytes, in file order") {
  // 2,000 nodes with --all-nodes: each table section is ~80 KB, so the
  // output passes a piece's size many times; priorities rising in file order make
  // every request planned before the ones above it, so entries wait.
  std::string nodes = "nodes:\n";
  for (int i = 0; i < 2000; ++i)
    nodes += "  - {name: n" + std::to_string(i) + ", cpu: 8, memory: " + std::to_string(4 + i % 5) +
             "Gi}\n";
  std::string requests = "requests:\n";
  for (int j = 0; j < 80; ++j)
    requests += "  - {name: r" + std::to_string(j) + ", app: a" + std::to_string(j % 3) +
                ", count: " + std::to_string(5 + j % 7) + ", priority: " + std::to_string(j % 4) +
                ", strategy: " + (j % 2 ? "global" : "drained") +
                ", resources: {memory: " + std::to_string(1 + j % 3) + "Gi}}\n";
  // One request too large to place: exit 4, and the JSON's error member.
  requests += "  - {name: huge, app: h, count: 100000, resources: {memory: 8Gi}}\n";
  for (OutputFormat format : {OutputFormat::Table, OutputFormat::Json}) {
    RunOptions o;
    o.command = Command::Plan;
    o.nodes = Source{"n.yaml", nodes};
    o.request = Source{"r.yaml", requests};
    o.output = format;
    o.all_nodes = true;
    const RunResult whole = run(o);
    CHECK(whole.exit == ExitCode::Infeasible);
    std::string pieces;
    int handed = 0;
    o.stream_out = [&](std::string_view piece) {
      CHECK(piece.size() >= kStreamPiece);
      pieces += piece;
      ++handed;
    };
    const RunResult streamed = run(o);
    CHECK(streamed.exit == ExitCode::Infeasible);
    CHECK(handed >= 2);
    CHECK(pieces.size() + streamed.out.size() == whole.out.size());
    CHECK((pieces + streamed.out == whole.out));
    CHECK(streamed.err == whole.err);
    // File order: r0 first, huge last.
    CHECK(whole.out.find("r0") < whole.out.find("r1"));
    CHECK(whole.out.find("r79") < whole.out.find("huge"));
    // apply never hands anything over: it prints an inventory on success.
    o.command = Command::Apply;
    handed = 0;
    run(o);
    CHECK(handed == 0);
  }
}

// Bounded work (issue 26): a gang's undo log remembers a node without its
// instance counts and each app's count before, so a node's list is not
// copied for every member; counts, usage and an app absent before all come
// back, with an eviction's whole-node record (remember) in between.
TEST_CASE("undo log: counts only, then whole, put every node back as it was") {
  Inventory inv = load_nodes(
      "nodes:\n  - {name: n, cpu: 4, memory: 8Gi, instances: {a: 2, c: 1}}\n"
      "  - {name: m, cpu: 4, memory: 8Gi}\n");
  const Inventory before = inv;
  Request a, b;
  a.app = "a";
  a.memory = 10;
  b.app = "b";
  b.memory = 20;
  UndoLog undo;
  reserve(inv, 0, a, 3, {}, &undo);
  reserve(inv, 0, b, 1, {}, &undo);
  reserve(inv, 1, b, 5, {}, &undo);
  CHECK(inv.nodes[0].instances_of("a") == 5);
  CHECK(inv.nodes[0].instances_of("b") == 1);
  CHECK(inv.nodes[0].memory_used == 50);
  // An eviction remembers the whole node: the record becomes whole with
  // the counts as they were when it was made.
  undo.remember(0, inv.nodes[0]);
  inv.nodes[0].instances =
      std::vector<std::pair<std::string, std::int64_t>>{{"a", 5}, {"b", 1}};  // c evicted
  reserve(inv, 0, a, 1, {}, &undo);
  // A later log absorbed: its records are newer.
  UndoLog later;
  reserve(inv, 1, a, 2, {}, &later);
  undo.absorb(std::move(later));
  CHECK(inv.nodes[1].instances_of("a") == 2);
  undo.undo(inv);
  for (std::size_t i = 0; i < inv.nodes.size(); ++i) {
    CAPTURE(i);
    CHECK(inv.nodes[i].instances.get() == before.nodes[i].instances.get());
    CHECK(inv.nodes[i].memory_used == before.nodes[i].memory_used);
  }
}

TEST_CASE("undo log: many apps on a node that had few are remembered whole (--atomic)") {
  Inventory inv = load_nodes("nodes:\n  - {name: n, memory: 8Gi}\n");
  UndoLog undo;
  for (int i = 0; i < 50; ++i) {
    Request r;
    r.app = "app" + std::to_string(i);
    r.memory = 1;
    reserve(inv, 0, r, 1, {}, &undo);
  }
  CHECK(inv.nodes[0].instances.size() == 50);
  undo.undo(inv);
  CHECK(inv.nodes[0].instances.empty());
  CHECK(inv.nodes[0].memory_used == 0);
  CHECK(inv.nodes[0].revision == 51);  // 50 reservations, then the undo
}

// Bounded work (issue 26): the app counts by node a run adds are bounded
// (PlanOptions::max_app_entries); past it the request is too large and
// says so, a gang's failing member included.
TEST_CASE("several requests: past the app-and-node budget, too large with the reason") {
  Inventory state = load_nodes(
      "nodes:\n  - {name: n1, memory: 8Gi}\n  - {name: n2, memory: 8Gi}\n"
      "  - {name: n3, memory: 8Gi}\n");
  const std::vector<Request> requests = load_list(
      "requests:\n"
      "  - {name: r1, app: a1, count: 3, strategy: each, resources: {memory: 1}}\n"
      "  - {name: r2, app: a2, count: 3, strategy: each, group: g, resources: {memory: 1}}\n"
      "  - {name: r3, app: a3, count: 3, strategy: each, group: g, resources: {memory: 1}}\n");
  PlanOptions options;
  options.max_app_entries = 7;  // r1 and r2 take 6, r3 one past
  const auto out = plan_requests(state, requests, options);
  REQUIRE(out.size() == 3);
  CHECK(out[0].status == RequestStatus::Placed);
  CHECK_FALSE(out[1].too_large);
  CHECK(out[1].status == RequestStatus::Rejected);
  CHECK(out[2].too_large);
  CHECK(out[2].reason.full().find(
            "too large: the requests place their apps on 9 app-and-node pairs") == 0);
  CHECK(out[2].reason.full().find("at most 7 for this input") != std::string::npos);
  options.max_app_entries = 9;
  Inventory again = load_nodes(
      "nodes:\n  - {name: n1, memory: 8Gi}\n  - {name: n2, memory: 8Gi}\n"
      "  - {name: n3, memory: 8Gi}\n");
  const auto fits = plan_requests(again, requests, options);
  CHECK(fits[2].status == RequestStatus::Placed);
}

// Bounded work: the nodes the outcomes list, when the caller keeps them all
// (PlanOptions::max_listed_nodes): each request counts every node of its
// capacity map, twice with --explain, or only those with capacity 0 for a
// table that hides the others.
TEST_CASE("several requests: past the listed-node budget, too large with the reason") {
  const std::string nodes =
      "nodes:\n  - {name: n1, memory: 8Gi}\n  - {name: n2, memory: 8Gi}\n"
      "  - {name: n3, memory: 1}\n";
  const std::vector<Request> requests = load_list(
      "requests:\n"
      "  - {name: r1, app: a1, count: 1, resources: {memory: 2}}\n"
      "  - {name: r2, app: a2, count: 1, resources: {memory: 2}}\n"
      "  - {name: r3, app: a3, count: 1, resources: {memory: 2}}\n");
  PlanOptions options;
  options.max_listed_nodes = 8;  // r1 and r2 list 6, r3 one past
  Inventory state = load_nodes(nodes);
  auto out = plan_requests(state, requests, options);
  REQUIRE(out.size() == 3);
  CHECK(out[1].status == RequestStatus::Placed);
  CHECK(out[2].too_large);
  CHECK(out[2].reason.full().find("too large: the requests' documents list 9 nodes so far") == 0);
  CHECK(out[2].reason.full().find("at most 8 for this input") != std::string::npos);
  options.max_listed_nodes = 9;
  state = load_nodes(nodes);
  CHECK(plan_requests(state, requests, options)[2].status == RequestStatus::Placed);
  // --explain counts each node twice: r1 and r2 list 12.
  options.explain = true;
  options.max_listed_nodes = 12;
  state = load_nodes(nodes);
  out = plan_requests(state, requests, options);
  CHECK(out[2].too_large);
  CHECK(out[2].reason.full().find("list 18 nodes so far") != std::string::npos);
  // A table counts only n3 (capacity 0): 3 in all.
  options.explain = false;
  options.listed_zero_only = true;
  options.max_listed_nodes = 3;
  state = load_nodes(nodes);
  out = plan_requests(state, requests, options);
  CHECK_FALSE(out[2].too_large);
  CHECK(out[2].status == RequestStatus::Placed);
}

TEST_CASE("capacity with a requests: list: its listed nodes are bounded by the input") {
  std::string nodes = "nodes:\n";
  for (int i = 0; i < 4000; ++i) nodes += "  - {name: n" + std::to_string(i) + ", memory: 9}\n";
  std::string list = "requests:\n";
  for (int i = 0; i < 20; ++i)
    list += "  - {app: a" + std::to_string(i) + ", count: 1, resources: {memory: 10}}\n";
  RunOptions o;
  o.command = Command::Capacity;
  o.nodes = Source{"n.yaml", nodes, InputFormat::Yaml};
  o.request = Source{"r.yaml", list, InputFormat::Yaml};
  o.output = OutputFormat::Json;
  const std::int64_t bound = plan_budget(nodes.size() + list.size()) + 16384;
  const std::int64_t listed = (bound / 4000 + 1) * 4000;  // the request one past
  RunResult r = run(o);
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(r.err.find("too large: the requests' documents list " + std::to_string(listed) +
                   " nodes so far") != std::string::npos);
  CHECK(r.err.find("at most " + std::to_string(bound) + " for this input") != std::string::npos);
  // A table lists the nodes with capacity 0: all of them here.
  o.output = OutputFormat::Table;
  CHECK(run(o).exit == ExitCode::Invalid);
  // Nodes with room are hidden from a table, and are not counted.
  for (std::size_t at = list.find("memory: 10"); at != std::string::npos;
       at = list.find("memory: 10", at))
    list.replace(at, 10, "memory: 1");
  o.request = Source{"r.yaml", list, InputFormat::Yaml};
  CHECK(run(o).exit == ExitCode::Ok);
  o.output = OutputFormat::Json;
  CHECK(run(o).exit == ExitCode::Invalid);
}
