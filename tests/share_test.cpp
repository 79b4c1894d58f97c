// eruplan share (SPEC §10): the worked examples, exact weights, the three
// placements, invalid input, and the fast progressive filling against a
// one-instance-at-a-time oracle that recomputes every share and every node
// each step.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "capacity.h"
#include "pipeline.h"
#include "reserve.h"
#include "share_command.h"
#include "share_nodes.h"

using namespace eruplan;

namespace {

constexpr Bytes Gi = Bytes{1} << 30;
constexpr NanoCores kCore = kNanoPerCore;

Node plain_node(std::string name, std::int64_t cores, Bytes memory) {
  Node n;
  n.name = std::move(name);
  n.plain_cores = cores;
  n.plain_core_pieces = 100;
  n.cpu_given = cores * kCore;
  n.memory = memory;
  return n;
}

ShareApp app(std::string name, NanoCores cpu, Bytes memory) {
  ShareApp a;
  a.name = name;
  a.request.app = a.request.name = name;
  a.request.cpu = a.request.cpu_limit = cpu;
  a.request.memory = a.request.memory_limit = memory;
  a.request.cpu_fit = true;
  return a;
}

RunResult run_share_text(const std::string& nodes, const std::string& apps,
                         OutputFormat output = OutputFormat::Json) {
  RunOptions o;
  o.command = Command::Share;
  o.nodes = Source{"nodes.yaml", nodes, InputFormat::Yaml};
  o.request = Source{"apps.yaml", apps, InputFormat::Yaml};
  o.output = output;
  return run(o);
}

const char* const kOneNode = "nodes:\n  - {name: node1, cpu: 9, memory: 18Gi}\n";

}  // namespace

TEST_CASE("share: the DRF paper's example, A 3 and B 2 with shares 2/3 each") {
  Inventory inv;
  inv.nodes.push_back(plain_node("node1", 9, 18 * Gi));
  ShareSpec spec;
  spec.apps = {app("A", 1 * kCore, 4 * Gi), app("B", 3 * kCore, 1 * Gi)};
  const ShareResult r = share(inv, spec);
  REQUIRE_FALSE(r.quota_failed);
  CHECK(r.apps[0].placed == 3);
  CHECK(r.apps[1].placed == 2);
  CHECK(r.apps[0].dominant_resource == "memory");
  CHECK(r.apps[1].dominant_resource == "cpu");
  CHECK(fraction_text(r.apps[0].dominant_share) == "2/3");
  CHECK(fraction_text(r.apps[1].dominant_share) == "2/3");
  CHECK(r.steps == 5);
  CHECK(inv.nodes[0].cpu_used == 9 * kCore);
  CHECK(inv.nodes[0].memory_used == 14 * Gi);
  CHECK(r.apps[0].frozen_by.find("1 node limited by cpu") != std::string::npos);
}

TEST_CASE("share: refiling a node per live shape and a frozen app's reasons are steps") {
  // The DRF paper's example: 5 placements, each filing the node again for
  // every live shape, and 2 apps frozen, each looking at the node for why
  // (16 steps each); the turns and the jumps' looks make the rest.
  auto run_with = [](std::int64_t max_work, bool explain) {
    Inventory inv;
    inv.nodes.push_back(plain_node("node1", 9, 18 * Gi));
    ShareSpec spec;
    spec.apps = {app("A", 1 * kCore, 4 * Gi), app("B", 3 * kCore, 1 * Gi)};
    ShareOptions options;
    options.max_work = max_work;
    options.explain_frozen = explain;
    return share(inv, spec, options);
  };
  const ShareResult fits = run_with(182, true);
  CHECK(fits.too_large.empty());
  CHECK(fits.apps[0].placed == 3);
  CHECK(fits.apps[1].placed == 2);
  CHECK(run_with(181, true).too_large ==
        "too large: sharing 1 nodes among 2 apps takes more than 181 steps (the apps and nodes "
        "take turns, a few instances at a time; each placement files its node again for every "
        "app shape still placing, and each app that freezes looks at every node for why); give "
        "fewer apps or nodes, or larger requests");
  // Without the reasons, the 16 steps of the first frozen app's go (the
  // last app's come after the last turn's look at the bound).
  CHECK(run_with(166, false).too_large.empty());
  CHECK_FALSE(run_with(165, false).too_large.empty());
}

TEST_CASE("share: B's weight 2 on {cpu 12, memory 48Gi} gives A 3 and B 3") {
  Inventory inv;
  inv.nodes.push_back(plain_node("node1", 12, 48 * Gi));
  ShareSpec spec;
  spec.apps = {app("A", 1 * kCore, 4 * Gi), app("B", 3 * kCore, 1 * Gi)};
  spec.apps[1].weight = {2, 1};
  const ShareResult r = share(inv, spec);
  CHECK(r.apps[0].placed == 3);
  CHECK(r.apps[1].placed == 3);
  CHECK(r.apps[0].dominant_resource == "cpu");  // cpu and memory tie at 1/12: byte order
  CHECK(fraction_text(r.apps[0].dominant_share) == "1/4");
  CHECK(fraction_text(r.apps[1].dominant_share) == "3/4");
}

TEST_CASE("share: weights compare exactly, 0.1 against 0.3 ties at 5/4") {
  // Weighted shares: A c/8/0.1, B c/8/0.3. A 1 and B 3 tie at exactly 5/4 (in
  // doubles 3/(8 x 0.3) is not 1.25), so fewer new instances wins: A.
  Inventory inv;
  inv.nodes.push_back(plain_node("node1", 64, 8 * Gi));
  ShareSpec spec;
  spec.apps = {app("A", 0, 1 * Gi), app("B", 0, 1 * Gi)};
  spec.apps[0].weight = {1, 10};
  spec.apps[1].weight = {3, 10};
  const ShareResult r = share(inv, spec);
  CHECK(r.apps[0].placed == 2);
  CHECK(r.apps[1].placed == 6);
}

TEST_CASE("share: first_fit by name, least_allocated spreads, most_allocated packs") {
  for (const auto& [placement, expect] :
       std::vector<std::pair<SharePlacement, std::vector<std::int64_t>>>{
           {SharePlacement::FirstFit, {3, 0, 0}},
           {SharePlacement::LeastAllocated, {1, 1, 1}},
           {SharePlacement::MostAllocated, {3, 0, 0}}}) {
    Inventory inv;
    inv.nodes.push_back(plain_node("n3", 4, 8 * Gi));
    inv.nodes.push_back(plain_node("n1", 4, 8 * Gi));
    inv.nodes.push_back(plain_node("n2", 4, 8 * Gi));
    inv.nodes[1].memory_used = 1 * Gi;  // n1 a little fuller than the others
    ShareSpec spec;
    spec.placement = placement;
    spec.apps = {app("web", 1 * kCore, 1 * Gi)};
    spec.apps[0].max_count = 3;
    const ShareResult r = share(inv, spec);
    CHECK(r.apps[0].placed == 3);
    CHECK(r.apps[0].frozen_by == "max_count");
    std::vector<std::int64_t> by_node(3, 0);  // n1, n2, n3
    for (const auto& [node, k] : r.apps[0].deploy) by_node[inv.nodes[node].name[1] - '1'] = k;
    // first_fit: n1 first by name; least: n1 is fuller, so n2, n3 (n2 now
    // fuller), then n1 (less cpu used); most: n1 is fuller and stays so.
    CHECK(by_node == expect);
  }
}

TEST_CASE("share: existing instances count toward the share, over available nodes only") {
  Inventory inv;
  inv.nodes.push_back(plain_node("node1", 10, 10 * Gi));
  inv.nodes.push_back(plain_node("node2", 10, 10 * Gi));
  inv.nodes[1].available = false;
  inv.nodes[0].instances = {{"A", 2}};
  inv.nodes[1].instances = {{"B", 5}};  // cordoned: not in the pool
  ShareSpec spec;
  spec.apps = {app("A", 1 * kCore, 0), app("B", 1 * kCore, 0)};
  spec.apps[0].max_count = 10;
  spec.apps[1].max_count = 10;
  const ShareResult r = share(inv, spec);
  // B catches up with A's 2 first, then they alternate (ties: fewer new
  // first) over node1's 10 free cores (A's running instances use none).
  CHECK(r.apps[0].existing == 2);
  CHECK(r.apps[1].existing == 0);
  CHECK(r.apps[0].placed == 4);
  CHECK(r.apps[1].placed == 6);
  CHECK(fraction_text(r.apps[0].dominant_share) == "3/5");  // 6 of the pool's 10 cores
}

TEST_CASE("share: a bound core that turns whole again takes back the app it kept out") {
  // Core "0" holds 150 pieces at share_base 100: a fragment core, so X (one
  // whole core) does not fit; Y's half core leaves 100 pieces, a whole core,
  // and X fits again. CPU plans are not monotone, so X's node is parked and
  // looked at again when Y lands there, never dropped for good.
  for (const SharePlacement placement :
       {SharePlacement::FirstFit, SharePlacement::LeastAllocated, SharePlacement::MostAllocated}) {
    Inventory inv;
    Node n;
    n.name = "n1";
    n.cores = {{150, 0, -1}};
    n.memory = 8 * Gi;
    n.instances = {{"X", 1}};  // X's share starts at 1: Y goes first
    inv.nodes.push_back(n);
    ShareSpec spec;
    spec.placement = placement;
    spec.apps = {app("X", 1 * kCore, 1 * Gi), app("Y", kCore / 2, 1 * Gi)};
    for (ShareApp& a : spec.apps) a.request.cpu_bind = true, a.max_count = 1;
    const ShareResult r = share(inv, spec);
    CHECK(r.apps[1].placed == 1);
    CHECK(r.apps[0].placed == 1);
    CHECK(inv.nodes[0].cores[0].used == 150);
  }
}

TEST_CASE("share: quota first; an app frozen before its quota stops the run") {
  Inventory inv;
  inv.nodes.push_back(plain_node("node1", 4, 8 * Gi));
  ShareSpec spec;
  spec.apps = {app("small", 1 * kCore, 1 * Gi), app("big", 1 * kCore, 3 * Gi)};
  spec.apps[0].quota = 2;
  spec.apps[1].quota = 3;
  const ShareResult r = share(inv, spec);
  REQUIRE(r.quota_failed);
  CHECK(*r.quota_failed == 1);
  CHECK(r.apps[1].placed == 2);
  CHECK(r.message.find("app big frozen at 2 of its quota 3") == 0);
}

TEST_CASE("share: fractions and 6-decimal rounding, half away from zero") {
  CHECK(fraction_text({2, 3}) == "2/3");
  CHECK(fraction_text({4, 6}) == "2/3");
  CHECK(fraction_text({0, 7}) == "0");
  CHECK(fraction_text({9, 9}) == "1");
  CHECK(fraction_text({5, 2}) == "5/2");
  CHECK(decimal_text({2, 3}, 6) == "0.666667");
  CHECK(decimal_text({1, 3}, 6) == "0.333333");
  CHECK(decimal_text({0, 3}, 6) == "0.000000");
  CHECK(decimal_text({1, 1}, 6) == "1.000000");
  CHECK(decimal_text({1, 8}, 6) == "0.125000");
  CHECK(decimal_text({1, 2000000}, 6) == "0.000001");  // exactly half: away from zero
  CHECK(decimal_text({1, 3000000}, 6) == "0.000000");
  CHECK(decimal_text({19999999, 20000000}, 6) == "1.000000");  // the carry runs through
  CHECK(decimal_text({5, 2}, 6) == "2.500000");
}

TEST_CASE("share: the JSON document") {
  const RunResult r = run_share_text(kOneNode,
                                     "apps:\n"
                                     "  - {app: B, resources: {cpu: 3, memory: 1Gi}}\n"
                                     "  - {app: A, resources: {cpu: 1, memory: 4Gi}}\n"
                                     "  - {app: idle, max_count: 0, resources: {cpu: 1}}\n");
  REQUIRE(r.exit == ExitCode::Ok);
  CHECK(r.out.find("\"A\": {\n      \"placed\": 3,") != std::string::npos);
  CHECK(r.out.find("\"dominant_share\": 0.666667,\n      \"dominant_share_fraction\": \"2/3\"") !=
        std::string::npos);
  CHECK(r.out.find("\"dominant_resource\": null") != std::string::npos);  // idle
  CHECK(r.out.find("\"frozen_by\": \"max_count\"") != std::string::npos);
  CHECK(r.out.find("\"node1\": 2") != std::string::npos);
  CHECK(r.out.find("\"A\"") < r.out.find("\"B\""));       // apps by name
  CHECK(r.out.find("assignments") == std::string::npos);  // nothing binds
}

TEST_CASE("share: binding apps get assignments; cores taken are reserved") {
  const RunResult r =
      run_share_text("nodes:\n  - {name: node1, cpu: 4, memory: 8Gi}\n",
                     "apps:\n  - {app: db, resources: {cpu: 2, cpu_bind: true, memory: 1Gi}}\n");
  REQUIRE(r.exit == ExitCode::Ok);
  CHECK(r.requests.size() == 1);
  CHECK(r.requests[0].placed == 2);
  CHECK(r.out.find("\"assignments\"") != std::string::npos);
  CHECK(r.out.find("\"cpu_map\": {\n") != std::string::npos);
}

TEST_CASE("share: invalid input exits 3 with file, line:col and field path") {
  struct Bad {
    const char* apps;
    const char* path;
    std::uint32_t line;
    const char* words;
  };
  const Bad cases[] = {
      {"apps:\n  - {app: A, resources: {cpu: 1}}\n  - {app: B, weight: 0, resources: {cpu: 1}}\n",
       "apps[1].weight", 3, "weight must be > 0"},
      {"apps:\n  - {app: A, weight: -1.5, resources: {cpu: 1}}\n", "apps[0].weight", 2,
       "weight must be > 0"},
      {"apps:\n  - {app: A, weight: heavy, resources: {cpu: 1}}\n", "apps[0].weight", 2,
       "expected a number"},
      {"apps:\n  - {app: A, weight: 0.0000000000000000001, resources: {cpu: 1}}\n",
       "apps[0].weight", 2, "too fine or too large"},
      {"apps:\n  - {app: A, quota: 5, max_count: 3, resources: {cpu: 1}}\n", "apps[0].quota", 2,
       "quota 5 is more than max_count 3"},
      {"apps:\n  - {app: A, resources: {cpu: 1}}\n  - {app: A, resources: {memory: 1Gi}}\n",
       "apps[1].app", 3, "listed twice"},
      {"placement: sideways\napps:\n  - {app: A, resources: {cpu: 1}}\n", "placement", 1,
       "unknown placement"},
      {"apps:\n  - {app: A, resources: {volumes: [\"AUTO:/d:rw:0\"]}}\n", "apps[0]", 2,
       "nothing would stop app"},
      {"apps: []\n", "apps", 1, "apps is empty"},
      {"apps:\n  - {app: A, resources: {memory: -1}}\n", "apps[0].resources.memory", 2, ""},
      {"apps:\n  - {resources: {cpu: 1}}\n", "apps[0]", 2, "app is required"},
  };
  for (const Bad& b : cases) {
    CAPTURE(b.apps);
    const RunResult r = run_share_text(kOneNode, b.apps);
    CHECK(r.exit == ExitCode::Invalid);
    const auto it = std::find_if(r.problems.begin(), r.problems.end(), [&](const Diagnostic& d) {
      return d.severity == Severity::Error && d.origin.path == b.path;
    });
    REQUIRE(it != r.problems.end());
    CHECK(it->origin.file == "apps.yaml");
    CHECK(it->origin.line == b.line);
    CHECK(it->origin.col > 0);
    CHECK(it->message.find(b.words) != std::string::npos);
    CHECK(r.out.find("\"kind\": \"invalid\"") != std::string::npos);
  }
}

TEST_CASE("share: a weight of 2.50 is 5/2, and 1e1 is 10") {
  const RunResult r =
      run_share_text(kOneNode,
                     "apps:\n  - {app: A, weight: 2.50, max_count: 1, resources: {cpu: 1}}\n"
                     "  - {app: B, weight: 1e1, max_count: 1, resources: {cpu: 1}}\n");
  REQUIRE(r.exit == ExitCode::Ok);
  CHECK(r.out.find("\"weight\": \"5/2\"") != std::string::npos);
  CHECK(r.out.find("\"weight\": \"10\"") != std::string::npos);
}

// --- The oracle ----------------------------------------------------------------

namespace {

__extension__ typedef __int128 i128;

struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::int64_t in(std::int64_t lo, std::int64_t hi) {  // [lo, hi]
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool chance(int percent) { return in(1, 100) <= percent; }
};

struct Frac {
  i128 num, den;
};
bool less(Frac a, Frac b) { return a.num * b.den < b.num * a.den; }

// SPEC §10 word by word: each step every share from the state (instances
// over available nodes), and every node's capacity from node_capacity().
struct OracleResult {
  std::optional<std::size_t> failed;
  std::vector<std::int64_t> placed;
};

std::int64_t oracle_fit(const Node& n, const Request& r, SharePlacement p) {
  if (p == SharePlacement::FirstFit) return 0;
  i128 sum = 0, count = 0;
  const i128 alloc[2] = {n.cpu_total(), n.memory};
  const i128 req[2] = {i128{n.cpu_used} + r.cpu, i128{n.memory_used} + r.memory};
  for (int k = 0; k < 2; ++k) {
    if (alloc[k] == 0) continue;
    ++count;
    if (p == SharePlacement::LeastAllocated)
      sum += req[k] > alloc[k] ? 0 : (alloc[k] - req[k]) * 100 / alloc[k];
    else
      sum += std::min(req[k], alloc[k]) * 100 / alloc[k];
  }
  return count == 0 ? 0 : static_cast<std::int64_t>(sum / count);
}

OracleResult oracle_share(Inventory& state, const ShareSpec& spec) {
  const std::size_t n = spec.apps.size();
  OracleResult out;
  out.placed.assign(n, 0);
  std::vector<bool> frozen(n, false);
  auto weighted = [&](std::size_t a) {
    const ShareApp& app = spec.apps[a];
    i128 count = 0;
    std::vector<std::pair<std::string, i128>> totals;
    auto add = [&](const std::string& kind, i128 v) {
      for (auto& t : totals)
        if (t.first == kind) return void(t.second += v);
      totals.emplace_back(kind, v);
    };
    for (const Node& node : state.nodes) {
      if (!node.available) continue;
      count += node.instances_of(app.name);
      add("cpu", node.cpu_total());
      add("memory", node.memory);
      add("storage", node.storage);
      for (const auto& e : node.extended) add(e.name, e.total);
    }
    Frac best{0, 1};
    for (const auto& [kind, total] : totals) {
      if (total == 0) continue;
      i128 req = kind == "cpu"       ? app.request.cpu
                 : kind == "memory"  ? app.request.memory
                 : kind == "storage" ? app.request.storage
                                     : 0;
      for (const auto& e : app.request.extended)
        if (e.first == kind) req = e.second;
      const Frac f{count * req, total};
      if (less(best, f)) best = f;
    }
    return Frac{best.num * app.weight.den, best.den * app.weight.num};
  };
  for (const bool quota_stage : {true, false}) {
    for (;;) {
      std::optional<std::size_t> pick;
      Frac pick_share{0, 1};
      for (std::size_t a = 0; a < n; ++a) {
        const ShareApp& app = spec.apps[a];
        if (frozen[a] || (app.max_count >= 0 && out.placed[a] >= app.max_count)) continue;
        if (quota_stage && out.placed[a] >= app.quota) continue;
        const Frac s = weighted(a);
        if (!pick || less(s, pick_share) ||
            (!less(pick_share, s) &&
             (out.placed[a] < out.placed[*pick] ||
              (out.placed[a] == out.placed[*pick] && app.name < spec.apps[*pick].name)))) {
          pick = a;
          pick_share = s;
        }
      }
      if (!pick) break;
      const Request& request = spec.apps[*pick].request;
      std::optional<std::uint32_t> best;
      std::int64_t best_fit = -1;
      for (std::uint32_t i = 0; i < state.nodes.size(); ++i) {
        if (!request.filter.accepts(state.nodes[i])) continue;
        if (node_capacity(state, request, i, {1, 1}).capacity < 1) continue;
        const std::int64_t fit = oracle_fit(state.nodes[i], request, spec.placement);
        if (!best || fit > best_fit ||
            (fit == best_fit && state.nodes[i].name < state.nodes[*best].name))
          best = i, best_fit = fit;
      }
      if (!best) {
        frozen[*pick] = true;
        if (quota_stage) {
          out.failed = *pick;
          return out;
        }
        continue;
      }
      const NodeCapacity nc = node_capacity(state, request, *best, {1, 1});
      const Plan* plan = assigned_plan(nc, 0);
      if (plan != nullptr)
        reserve(state, *best, request, 1, std::span<const Plan>(plan, 1));
      else
        reserve(state, *best, request, 1, {});
      ++out.placed[*pick];
    }
  }
  return out;
}

Inventory random_inventory(Rng& rng) {
  Inventory inv;
  const std::int64_t nodes = rng.in(1, 6);
  for (std::int64_t i = 0; i < nodes; ++i) {
    Node n;
    n.name = "n" + std::to_string(rng.in(0, 99)) + "_" + std::to_string(i);
    if (rng.chance(30)) {  // per-core map, oversold and fragment cores too
      const std::int64_t cores = rng.in(1, 4);
      for (std::int64_t c = 0; c < cores; ++c) {
        static const Pieces kCaps[] = {100, 100, 100, 150, 200, 300};
        Core core{kCaps[rng.in(0, 5)], 0, -1};
        if (rng.chance(30)) core.used = rng.in(0, core.capacity / 50) * 50;
        n.cores.push_back(core);
      }
    } else {
      n.plain_cores = rng.in(1, 8);
      n.plain_core_pieces = 100;
      n.cpu_given = n.plain_cores * kCore + (rng.chance(20) ? 500'000'000 : 0);
    }
    n.memory = rng.in(0, 16) * Gi / 2;
    if (rng.chance(30)) n.memory_used = std::min(n.memory, rng.in(0, 2) * Gi / 2);
    if (rng.chance(50)) n.cpu_used = rng.in(0, 4) * kCore / 2;
    if (rng.chance(40)) n.storage = rng.in(1, 10) * Gi;
    if (rng.chance(30)) n.extended.push_back({"gpu", rng.in(0, 4), 0});
    if (rng.chance(20)) n.devices.push_back({"/d0", rng.in(1, 5) * 100, 0});
    if (rng.chance(20)) n.max_instances = rng.in(0, 6);
    if (rng.chance(15)) n.available = false;
    if (rng.chance(20)) n.taints.push_back({"dedicated", "gpu", "NoSchedule"});
    if (rng.chance(30)) n.instances.push_back({"a" + std::to_string(rng.in(0, 3)), rng.in(1, 3)});
    inv.nodes.push_back(std::move(n));
  }
  return inv;
}

ShareSpec random_spec(Rng& rng, const Inventory& inv) {
  ShareSpec spec;
  spec.placement = static_cast<SharePlacement>(rng.in(0, 2));
  const std::int64_t apps = rng.in(1, 4);
  static const Weight kWeights[] = {{1, 1}, {2, 1}, {1, 2}, {1, 10}, {3, 10}, {3, 2}, {7, 3}};
  for (std::int64_t a = 0; a < apps; ++a) {
    ShareApp app;
    app.name = "a" + std::to_string(a);
    app.weight = kWeights[rng.in(0, 6)];
    Request& r = app.request;
    r.app = r.name = app.name;
    r.cpu_fit = true;
    r.cpu = rng.in(0, 6) * kCore / 2;
    r.memory = rng.in(0, 4) * Gi / 2;
    if (rng.chance(20)) r.storage = rng.in(1, 3) * Gi;
    if (rng.chance(20)) r.extended.push_back({"gpu", rng.in(1, 2)});
    if (rng.chance(20) && r.cpu > 0) r.cpu_bind = true;
    if (rng.chance(10)) r.volumes.push_back({"AUTO:/v:rw:100", "AUTO", "/v", "rw", 100});
    r.cpu_limit = r.cpu;
    r.memory_limit = r.memory;
    if (rng.chance(30)) r.tolerations.push_back({"dedicated", false, "gpu", ""});
    if (rng.chance(20) && !inv.nodes.empty())
      r.filter.exclude.push_back(inv.nodes[static_cast<std::size_t>(rng.in(
                                               0, static_cast<std::int64_t>(inv.nodes.size()) - 1))]
                                     .name);
    if (rng.chance(40)) app.max_count = rng.in(0, 8);
    if (rng.chance(30)) app.quota = rng.in(0, app.max_count >= 0 ? app.max_count : 3);
    const bool limited =
        r.cpu > 0 || r.memory > 0 || r.storage > 0 || !r.extended.empty() || !r.volumes.empty();
    if (!limited && app.max_count < 0) app.max_count = rng.in(0, 5);
    spec.apps.push_back(std::move(app));
  }
  return spec;
}

}  // namespace

TEST_CASE("share: the fast filling matches the one-at-a-time oracle on random inputs") {
  Rng rng{20261122};
  int stage1_failures = 0, placements = 0;
  for (int round = 0; round < 3000; ++round) {
    CAPTURE(round);
    const Inventory inv = random_inventory(rng);
    const ShareSpec spec = random_spec(rng, inv);
    Inventory fast_state = inv, oracle_state = inv;
    ShareOptions options;
    options.explain_frozen = (round % 10 == 0);
    const ShareResult fast = share(fast_state, spec, options);
    const OracleResult slow = oracle_share(oracle_state, spec);
    REQUIRE(fast.quota_failed.has_value() == slow.failed.has_value());
    if (slow.failed) {
      CHECK(*fast.quota_failed == *slow.failed);
      ++stage1_failures;
    }
    for (std::size_t a = 0; a < spec.apps.size(); ++a) {
      CHECK(fast.apps[a].placed == slow.placed[a]);
      placements += static_cast<int>(slow.placed[a]);
    }
    // The same placements leave the same state, to every core and device.
    CHECK(render_inventory(fast_state, OutputFormat::Json, Units::Bytes) ==
          render_inventory(oracle_state, OutputFormat::Json, Units::Bytes));
  }
  // The random inputs exercise both stages and place plenty.
  CHECK(stage1_failures > 50);
  CHECK(placements > 10000);
}

// Larger pools with uneven sizes: several 64-node blocks of each shape's
// ScoreIndex, scores that are not round numbers (the division by
// multiplication), apps sharing shapes, extended resources and
// max_instances, and (later rounds) apps binding cores, against the same
// oracle.
TEST_CASE("share: the fast filling matches the oracle on pools of 65 to 200 uneven nodes") {
  Rng rng{20261123};
  int binding_rounds = 0;
  for (int round = 0; round < 9; ++round) {
    CAPTURE(round);
    Inventory inv;
    const std::int64_t nodes = rng.in(65, 200);
    for (std::int64_t i = 0; i < nodes; ++i) {
      Node n = plain_node("m" + std::to_string(rng.in(0, 999)) + "_" + std::to_string(i),
                          rng.in(1, 4), rng.in(1, 8) * Gi + rng.in(0, 999'999'937));
      n.cpu_given = n.plain_cores * kCore - rng.in(0, 3) * 77'777'777;
      if (rng.chance(30)) n.memory_used = rng.in(0, n.memory / 2);
      if (rng.chance(20)) n.extended.push_back({"gpu", rng.in(0, 3), 0});
      if (rng.chance(20)) n.max_instances = rng.in(1, 9);
      if (rng.chance(5)) n.available = false;
      inv.nodes.push_back(std::move(n));
    }
    ShareSpec spec;
    spec.placement = static_cast<SharePlacement>(round % 3);
    const std::int64_t apps = rng.in(2, 8);
    for (std::int64_t a = 0; a < apps; ++a) {
      // Half the apps take an earlier app's resources: one shape, two apps.
      ShareApp x = app("b" + std::to_string(a), rng.in(1, 8) * kCore / 8 + rng.in(0, 12345),
                       rng.in(1, 6) * Gi / 4 + rng.in(0, 99'991));
      if (a > 0 && rng.chance(50))
        x.request = spec.apps[static_cast<std::size_t>(rng.in(0, a - 1))].request;
      x.request.app = x.request.name = x.name;
      if (rng.chance(20)) x.request.extended = {{"gpu", 1}};
      if (round >= 3 && rng.chance(25)) {  // binding apps: the step-by-step reserve path
        x.request.cpu = x.request.cpu_limit = rng.in(1, 4) * kCore / 4;
        x.request.cpu_bind = true;
      }
      static const Weight kWeights[] = {{1, 1}, {2, 1}, {1, 3}, {7, 5}};
      x.weight = kWeights[rng.in(0, 3)];
      if (rng.chance(30)) x.max_count = rng.in(0, 60);
      spec.apps.push_back(std::move(x));
    }
    Inventory fast_state = inv, oracle_state = inv;
    ShareOptions options;
    options.explain_frozen = false;
    const ShareResult fast = share(fast_state, spec, options);
    const OracleResult slow = oracle_share(oracle_state, spec);
    REQUIRE(!slow.failed);
    std::int64_t placed = 0;
    for (std::size_t a = 0; a < spec.apps.size(); ++a) {
      CHECK(fast.apps[a].placed == slow.placed[a]);
      placed += slow.placed[a];
      std::int64_t deployed = 0;  // deploy lists each node once, by name
      for (std::size_t d = 0; d < fast.apps[a].deploy.size(); ++d) {
        deployed += fast.apps[a].deploy[d].second;
        if (d > 0)
          CHECK(fast_state.nodes[fast.apps[a].deploy[d - 1].first].name <
                fast_state.nodes[fast.apps[a].deploy[d].first].name);
      }
      CHECK(deployed == fast.apps[a].placed);
    }
    CHECK(placed > 100);
    CHECK(render_inventory(fast_state, OutputFormat::Json, Units::Bytes) ==
          render_inventory(oracle_state, OutputFormat::Json, Units::Bytes));
    binding_rounds += std::any_of(spec.apps.begin(), spec.apps.end(),
                                  [](const ShareApp& x) { return x.request.cpu_bind; });
  }
  CHECK(binding_rounds >= 2);
}

// Tiny requests on small nodes: hundreds to thousands of instances per run,
// scores that move every few instances, many apps of one shape, weights,
// quotas, max_count, max_instances, extended resources, taints, bound cores
// and volumes. The fast filling places many instances per loop turn (jumps)
// and must still agree with the one-at-a-time oracle, instance for instance.
TEST_CASE("share: jumps of many instances match the one-at-a-time oracle on tiny requests") {
  Rng rng{20261125};
  std::int64_t placements = 0, turns = 0, stage1_failures = 0;
  int binding_rounds = 0;
  for (int round = 0; round < 2500; ++round) {
    CAPTURE(round);
    Inventory inv;
    const std::int64_t nodes = rng.in(1, 5);
    for (std::int64_t i = 0; i < nodes; ++i) {
      Node n = plain_node("t" + std::to_string(rng.in(0, 99)) + "_" + std::to_string(i),
                          rng.in(1, 4), rng.in(0, rng.chance(30) ? 60000 : 3000));
      if (rng.chance(30)) n.cpu_given = rng.in(0, n.plain_cores * 4) * kCore / 4;
      if (rng.chance(30)) n.memory_used = rng.in(0, n.memory);
      if (rng.chance(30)) n.cpu_used = rng.in(0, n.cpu_given / 2);
      if (rng.chance(30)) n.storage = rng.in(0, 500);
      if (rng.chance(25)) n.extended.push_back({"gpu", rng.in(0, 40), rng.in(0, 3)});
      if (rng.chance(15)) n.devices.push_back({"/d0", rng.in(1, 5) * 100, 0});
      if (rng.chance(25)) n.max_instances = rng.in(0, 60);
      if (rng.chance(10)) n.available = false;
      if (rng.chance(15)) n.taints.push_back({"dedicated", "gpu", "NoSchedule"});
      if (rng.chance(30))
        n.instances.push_back({"c" + std::to_string(rng.in(0, 5)), rng.in(1, 30)});
      inv.nodes.push_back(std::move(n));
    }
    ShareSpec spec;
    spec.placement = static_cast<SharePlacement>(rng.in(0, 2));
    const std::int64_t apps = rng.in(1, 6);
    static const Weight kWeights[] = {{1, 1}, {2, 1}, {1, 2}, {1, 10}, {3, 10}, {3, 2}, {7, 3}};
    for (std::int64_t a = 0; a < apps; ++a) {
      ShareApp x = app("c" + std::to_string(a), rng.chance(40) ? 0 : rng.in(1, 100) * 1'000'000,
                       rng.in(0, 40));
      if (a > 0 && rng.chance(40))  // one shape, several apps
        x.request = spec.apps[static_cast<std::size_t>(rng.in(0, a - 1))].request;
      Request& r = x.request;
      r.app = r.name = x.name;
      if (rng.chance(20)) r.storage = rng.in(1, 20);
      if (rng.chance(20)) r.extended = {{"gpu", rng.in(1, 3)}};
      if (rng.chance(8)) {
        r.cpu = r.cpu_limit = rng.in(1, 4) * kCore / 4;
        r.cpu_bind = true;
      }
      if (rng.chance(6)) r.volumes.push_back({"AUTO:/v:rw:100", "AUTO", "/v", "rw", 100});
      if (rng.chance(20)) r.tolerations.push_back({"dedicated", false, "gpu", ""});
      if (rng.chance(15))
        r.filter.exclude.push_back(inv.nodes[static_cast<std::size_t>(rng.in(0, nodes - 1))].name);
      x.weight = kWeights[rng.in(0, 6)];
      if (rng.chance(35)) x.max_count = rng.in(0, 400);
      if (rng.chance(30)) x.quota = rng.in(0, x.max_count >= 0 ? x.max_count : 20);
      const bool limited =
          r.cpu > 0 || r.memory > 0 || r.storage > 0 || !r.extended.empty() || !r.volumes.empty();
      if (!limited && x.max_count < 0) x.max_count = rng.in(0, 300);
      spec.apps.push_back(std::move(x));
    }
    Inventory fast_state = inv, oracle_state = inv;
    ShareOptions options;
    options.explain_frozen = (round % 10 == 0);
    const ShareResult fast = share(fast_state, spec, options);
    const OracleResult slow = oracle_share(oracle_state, spec);
    REQUIRE(fast.quota_failed.has_value() == slow.failed.has_value());
    if (slow.failed) {
      CHECK(*fast.quota_failed == *slow.failed);
      ++stage1_failures;
    }
    for (std::size_t a = 0; a < spec.apps.size(); ++a) {
      CHECK(fast.apps[a].placed == slow.placed[a]);
      placements += slow.placed[a];
    }
    turns += fast.turns;
    CHECK(render_inventory(fast_state, OutputFormat::Json, Units::Bytes) ==
          render_inventory(oracle_state, OutputFormat::Json, Units::Bytes));
    binding_rounds += std::any_of(spec.apps.begin(), spec.apps.end(), [](const ShareApp& x) {
      return x.request.cpu_bind || !x.request.volumes.empty();
    });
  }
  MESSAGE("placements " << placements << ", loop turns " << turns);
  CHECK(placements > 500'000);
  CHECK(turns * 4 < placements);  // jumps do most of the work
  CHECK(stage1_failures > 50);
  CHECK(binding_rounds > 100);
}

// The fuzzing finding: one node of 8Gi and one app asking for 5 bytes of
// memory and nothing else. One instance per loop turn took about a minute;
// the jumps take a handful of turns.
TEST_CASE("share: 5 bytes of memory on 8Gi places 1717986918 instances in a few turns") {
  Inventory inv;
  Node n;
  n.name = "n1";
  n.memory = 8 * Gi;
  inv.nodes.push_back(n);
  ShareSpec spec;
  spec.apps.push_back(app("A", 0, 5));
  for (const SharePlacement p :
       {SharePlacement::FirstFit, SharePlacement::LeastAllocated, SharePlacement::MostAllocated}) {
    CAPTURE(placement_name(p));
    spec.placement = p;
    Inventory state = inv;
    const ShareResult r = share(state, spec);
    CHECK(r.apps[0].placed == 1717986918);  // floor(8 x 2^30 / 5)
    CHECK(r.steps == 1717986918);
    CHECK(state.nodes[0].memory_used == 1717986918LL * 5);
    CHECK(r.turns < 1000);
  }
  // Two apps of that shape alternate instance by instance: still few turns.
  spec.apps.push_back(app("B", 0, 5));
  Inventory state = inv;
  const ShareResult r = share(state, spec);
  CHECK(r.apps[0].placed == 858993459);
  CHECK(r.apps[1].placed == 858993459);
  CHECK(r.turns < 1000);
}

// --- Through the binary ----------------------------------------------------------

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace {

struct Ran {
  int exit = -1;
  std::string out, err;
};

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs `eruplan ARGS` in a scratch directory holding nodes.yaml and apps.yaml.
Ran eruplan_share(const std::string& args, const std::string& nodes, const std::string& apps) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir =
      fs::temp_directory_path() /
      ("eruplan_share_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  fs::create_directories(dir);
  std::ofstream(dir / "nodes.yaml") << nodes;
  std::ofstream(dir / "apps.yaml") << apps;
  const std::string cmd =
      "cd " + dir.string() + " && " + ERUPLAN_BINARY + " " + args + " >out 2>err </dev/null";
  const int status = std::system(cmd.c_str());
  Ran r;
  r.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  if (fs::exists(dir / "saved.yaml")) r.out += "\n--- saved\n" + slurp(dir / "saved.yaml");
  fs::remove_all(dir);
  return r;
}

const char* const kApps =
    "apps:\n  - {app: A, resources: {cpu: 1, memory: 4Gi}}\n"
    "  - {app: B, resources: {cpu: 3, memory: 1Gi}}\n";

}  // namespace

TEST_CASE("share cli: table, json, saved inventory, and exits 2, 3, 4") {
  const Ran table = eruplan_share("share -n nodes.yaml -r apps.yaml", kOneNode, kApps);
  CHECK(table.exit == 0);
  CHECK(table.out.find("placement: least_allocated, 5 new instances") == 0);
  CHECK(table.out.find("node1  3  2") != std::string::npos);

  const Ran saved =
      eruplan_share("share -n nodes.yaml -r apps.yaml -o json --jobs 2 --save-inventory saved.yaml",
                    kOneNode, kApps);
  CHECK(saved.exit == 0);
  CHECK(saved.out.find("\"placed\": 3") != std::string::npos);
  CHECK(saved.out.find("    instances:\n      A: 3\n      B: 2\n") != std::string::npos);
  CHECK(saved.out.find("      cpu: 9\n      cpu_map: {}\n      memory: 14Gi\n") !=
        std::string::npos);  // 3 x 4Gi + 2 x 1Gi

  CHECK(eruplan_share("share -n nodes.yaml", kOneNode, kApps).exit == 2);
  CHECK(eruplan_share("share -n nodes.yaml -r apps.yaml --jobs 0", kOneNode, kApps).exit == 2);
  CHECK(eruplan_share("share -n nodes.yaml -r apps.yaml --count 3", kOneNode, kApps).exit == 2);

  const Ran bad = eruplan_share("share -n nodes.yaml -r apps.yaml", kOneNode,
                                "apps:\n  - {app: A, weight: 0, resources: {cpu: 1}}\n");
  CHECK(bad.exit == 3);
  CHECK(bad.err.find("apps.yaml:2:") != std::string::npos);
  CHECK(bad.err.find("apps[0].weight") != std::string::npos);

  const Ran quota =
      eruplan_share("share -n nodes.yaml -r apps.yaml -o json --save-inventory saved.yaml",
                    kOneNode, "apps:\n  - {app: A, quota: 5, resources: {cpu: 1, memory: 4Gi}}\n");
  CHECK(quota.exit == 4);
  CHECK(quota.out.find("\"kind\": \"infeasible\"") != std::string::npos);
  CHECK(quota.out.find("--- saved") == std::string::npos);  // nothing stands at exit 4
  CHECK(quota.err.find("app A frozen at 4 of its quota 5") != std::string::npos);
}

TEST_CASE("share: every problem at once: a duplicate app beside an app with another error") {
  const RunResult r = run_share_text(kOneNode,
                                     "apps:\n"
                                     "  - {app: A, weight: -1, resources: {cpu: 1}}\n"
                                     "  - {app: A, resources: {cpu: 1}}\n"
                                     "  - {app: B, resources: {memory: lots}}\n"
                                     "  - {app: C, resources: {cpu: 0.005, cpu_bind: true}}\n");
  CHECK(r.exit == ExitCode::Invalid);
  std::vector<std::string> paths;
  for (const Diagnostic& d : r.problems)
    if (d.severity == Severity::Error)
      paths.push_back(d.origin.path + " @" + std::to_string(d.origin.line));
  // C reads cleanly, so the check against the inventory runs for it too
  // (0.005 cores at share_base 100 is half a piece).
  CHECK(paths == std::vector<std::string>{"apps[0].weight @2", "apps[1].app @3",
                                          "apps[2].resources.memory @4",
                                          "apps[3].resources.cpu @5"});
  CHECK(r.err.find("apps.yaml:3:11: error: apps[1].app: app \"A\" is listed twice (first at line "
                   "2:11)") != std::string::npos);
}

TEST_CASE("share: a node x app grid past its cell bound is written as a list per node") {
  Inventory inv;
  inv.nodes.push_back(plain_node("n2", 4, 8 * Gi));
  inv.nodes.push_back(plain_node("n1", 4, 8 * Gi));
  inv.nodes.push_back(plain_node("n3", 4, 8 * Gi));
  ShareSpec spec;
  spec.placement = SharePlacement::FirstFit;
  spec.apps = {app("web", 1 * kCore, 1 * Gi), app("db", 1 * kCore, 1 * Gi)};
  spec.apps[0].max_count = 3;
  spec.apps[1].max_count = 6;
  Inventory state = inv;
  const ShareResult r = share(state, spec);
  const std::string grid = render_share(state, spec, r, OutputFormat::Table);
  CHECK(grid.substr(grid.find("NODE")) ==
        "NODE   db  web\nn1     2   2\nn2     3   1\nn3     1   0\ntotal  6   3\n");
  // 3 nodes x 2 apps: 6 cells, past 5.
  CHECK(render_share(state, spec, r, OutputFormat::Table, 6) == grid);
  const std::string list = render_share(state, spec, r, OutputFormat::Table, 5);
  CHECK(list.substr(list.find("NODE")) ==
        "NODE   NEW\nn1     db +2, web +2\nn2     db +3, web +1\nn3     db +1\n");
}

TEST_CASE("share: the apps' placements by node are bounded by the input") {
  std::string nodes = "nodes:\n", apps = "placement: first_fit\napps:\n";
  for (int i = 0; i < 400; ++i)
    nodes += "  - {name: n" + std::to_string(i) + ", cpu: 64, memory: 64Gi}\n";
  for (int a = 0; a < 400; ++a)
    apps += "  - {app: a" + std::to_string(a) + ", resources: {cpu: 0.05, memory: 100Mi}}\n";
  const RunResult r = run_share_text(nodes, apps, OutputFormat::Table);
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(r.err.find("apps: too large: sharing 400 nodes among 400 apps puts apps on more than " +
                   std::to_string(nodes.size() + apps.size() + 16384) + " app-and-node pairs") !=
        std::string::npos);
}

namespace {

// `share --report` of `apps` on node1 (9 cores, 18Gi) and node2 (the same,
// not available).
RunOptions share_report_run(const std::string& apps) {
  RunOptions o;
  o.command = Command::Share;
  o.nodes = Source{"nodes.yaml",
                   "nodes:\n  - {name: node1, cpu: 9, memory: 18Gi}\n"
                   "  - {name: node2, cpu: 9, memory: 18Gi, available: false}\n",
                   InputFormat::Yaml};
  o.request = Source{"apps.yaml", apps, InputFormat::Yaml};
  o.report = true;
  return o;
}

}  // namespace

TEST_CASE("share: --report draws the share, with each app's reason where a node took none") {
  RunOptions o = share_report_run(
      "apps:\n  - {app: A, max_count: 2, resources: {cpu: 1}}\n"
      "  - {app: B, max_count: 1, resources: {memory: 1Gi}}\n");
  const RunResult r = run(o);
  CHECK(r.exit == ExitCode::Ok);
  REQUIRE(r.report.has_value());
  CHECK(r.report->find("<h1>eruplan share</h1>") != std::string::npos);
  CHECK(r.report->find("2 apps, 3 new instances") != std::string::npos);
  CHECK(r.report->find("A: not available; B: not available") != std::string::npos);
  o.report = false;
  CHECK_FALSE(run(o).report.has_value());
}

TEST_CASE("share: --report names 8 apps that took none on a node and counts the rest") {
  std::string apps = "apps:\n";
  for (int a = 0; a < 11; ++a)
    apps += "  - {app: A" + std::to_string(a) + ", max_count: 1, resources: {cpu: 1}}\n";
  const RunOptions o = share_report_run(apps);
  const RunResult r = run(o);
  CHECK(r.exit == ExitCode::Ok);
  REQUIRE(r.report.has_value());
  // The apps in their report order (by name: A10 before A2).
  CHECK(r.report->find("A10: not available; A2: not available") != std::string::npos);
  CHECK(r.report->find("A5: not available; A6: not available; and 3 more apps") !=
        std::string::npos);
  CHECK(r.report->find("A7: not available") == std::string::npos);
}

// Bounded memory (issue 26): a non-binding app's log of placements is
// merged by node as it doubles, the entries before and after the last
// flush apart, so it holds at most two entries per node, not one per turn;
// the sums by node stay as placed.
TEST_CASE("share: a non-binding app's log is merged by node, its sums kept") {
  share_nodes::AppState s;
  std::int64_t sums[3] = {0, 0, 0};
  for (int turn = 0; turn < 10'000; ++turn) {
    const auto node = static_cast<std::uint32_t>(turn % 3);
    share_nodes::log_placement(s, node, 1 + turn % 2, false);
    sums[node] += 1 + turn % 2;
    if (turn == 5'000) s.flushed = s.log.size();
  }
  CHECK(s.log.size() <= 64);
  std::int64_t got[3] = {0, 0, 0}, before_flush = 0;
  for (std::size_t j = 0; j < s.log.size(); ++j) {
    got[s.log[j].first] += s.log[j].second;
    if (j < s.flushed) before_flush += s.log[j].second;
  }
  CHECK(got[0] == sums[0]);
  CHECK(got[1] == sums[1]);
  CHECK(got[2] == sums[2]);
  CHECK(before_flush == 7'501);  // turns 0..5000: 2,501 of 1 and 2,500 of 2
  // A binding app's entries stay one per instance, in order.
  share_nodes::AppState b;
  for (int turn = 0; turn < 200; ++turn) share_nodes::log_placement(b, turn % 2, 1, true);
  CHECK(b.log.size() == 200);
}
