// CPU-bind dimension (SPEC §4 "CPU plans", "NUMA"): worked examples, limits,
// NUMA, reasons, and a randomized comparison with a plain reference
// implementation written straight from the SPEC wording.
#include "cpu_plans.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "capacity.h"
#include "model.h"

using namespace eruplan;

namespace {

constexpr Bytes kMi = 1024 * 1024;
constexpr Bytes kGi = 1024 * kMi;

// Cores with ids 0..n-1 and the given available pieces (capacity, no usage).
Node node_of(const std::vector<Pieces>& available) {
  Node node;
  node.name = "n";
  for (std::size_t i = 0; i < available.size(); ++i) node.cores.push_back({available[i], 0, -1});
  node.memory = 64 * kGi;
  return node;
}

Inventory inventory_of(Pieces share_base = 100, std::int64_t max_fragment_cores = -1) {
  Inventory inv;
  inv.share_base = share_base;
  inv.max_fragment_cores = max_fragment_cores;
  return inv;
}

// cpu in thousandths of a core.
Request bind(std::int64_t millicores, Bytes memory = 0) {
  Request req;
  req.app = "app";
  req.cpu = millicores * 1'000'000;
  req.cpu_limit = req.cpu;
  req.cpu_bind = true;
  req.memory = memory;
  req.memory_limit = memory;
  return req;
}

// "{2:100} {0:30,2:100}@1": plans by core id, NUMA node index after @.
std::string show(const Node& node, const std::vector<Plan>& plans) {
  std::string out;
  for (const Plan& p : plans) {
    if (!out.empty()) out += " ";
    out += "{";
    for (std::size_t i = 0; i < p.cpu.size(); ++i) {
      if (i > 0) out += ",";
      out += node.core_id(p.cpu[i].core) + ":" + std::to_string(p.cpu[i].pieces);
    }
    out += "}";
    if (p.numa >= 0) out += "@" + std::to_string(p.numa);
  }
  return out;
}

DimensionResult run(const Node& node, const Inventory& inv, const Request& req,
                    std::int64_t max_plans = kUnlimited) {
  return cpu_plans_dimension(node, inv, req, max_plans);
}

// ---------------------------------------------------------------------------
// The reference: a deliberately plain reading of SPEC §4, no shortcuts.
namespace ref {

struct Core {
  std::uint32_t core;
  Pieces a;
};

bool fewest_first(const Core& x, const Core& y) { return x.a != y.a ? x.a < y.a : x.core < y.core; }

// "repeatedly take the f cores with the most available pieces (ties by core
// id), P pieces from each, until fewer than f cores have P left"
std::vector<std::vector<std::uint32_t>> whole_parts(std::vector<Core> cores, Pieces P, Pieces f) {
  std::vector<std::vector<std::uint32_t>> parts;
  for (;;) {
    std::vector<Core*> ready;
    for (Core& c : cores)
      if (c.a >= P) ready.push_back(&c);
    if (static_cast<Pieces>(ready.size()) < f) break;
    std::sort(ready.begin(), ready.end(), [](const Core* x, const Core* y) {
      return x->a != y->a ? x->a > y->a : x->core < y->core;
    });
    std::vector<std::uint32_t> part;
    for (Pieces j = 0; j < f; ++j) {
      part.push_back(ready[j]->core);
      ready[j]->a -= P;
    }
    std::sort(part.begin(), part.end());
    parts.push_back(part);
  }
  return parts;
}

// "each fragment core gives floor(a / r) of them"
std::vector<std::uint32_t> fraction_parts(const std::vector<Core>& cores, Pieces r) {
  std::vector<std::uint32_t> parts;
  for (const Core& c : cores)
    for (Pieces i = 0; i < c.a / r; ++i) parts.push_back(c.core);
  return parts;
}

std::vector<Plan> pool_plans(const std::vector<Core>& pool, Pieces P, Pieces f, Pieces r,
                             std::int64_t mfc) {
  std::vector<Core> whole, fragment;
  for (const Core& c : pool) {
    if (c.a >= P && c.a % P == 0)
      whole.push_back(c);
    else if (c.a > 0)
      fragment.push_back(c);
  }
  std::sort(whole.begin(), whole.end(), fewest_first);
  std::sort(fragment.begin(), fragment.end(), fewest_first);
  std::int64_t limit = static_cast<std::int64_t>(whole.size() + fragment.size()) - f;
  if (mfc >= 0) limit = std::min(limit, mfc);

  std::vector<std::vector<std::uint32_t>> wholes;
  std::vector<std::uint32_t> fractions;
  std::size_t count = 0;
  if (r == 0) {
    wholes = whole_parts(whole, P, f);
    count = wholes.size();
  } else if (f == 0) {
    while (static_cast<std::int64_t>(fragment.size()) < limit && !whole.empty()) {
      fragment.push_back(whole.front());
      whole.erase(whole.begin());
    }
    fractions = fraction_parts(fragment, r);
    count = fractions.size();
  } else {
    wholes = whole_parts(whole, P, f);
    fractions = fraction_parts(fragment, r);
    count = std::min(wholes.size(), fractions.size());
    while (static_cast<std::int64_t>(fragment.size()) < limit) {
      fragment.push_back(whole.front());
      whole.erase(whole.begin());
      auto w = whole_parts(whole, P, f);
      auto fr = fraction_parts(fragment, r);
      if (std::min(w.size(), fr.size()) > count) {
        count = std::min(w.size(), fr.size());
        wholes = w;
        fractions = fr;
      }
    }
  }
  std::vector<Plan> plans(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (f > 0)
      for (std::uint32_t c : wholes[i]) plans[i].cpu.push_back({c, P});
    if (r > 0) plans[i].cpu.push_back({fractions[i], r});
    std::sort(plans[i].cpu.begin(), plans[i].cpu.end(),
              [](const CoreShare& x, const CoreShare& y) { return x.core < y.core; });
  }
  return plans;
}

std::vector<Plan> cpu_plans(const Node& node, const Inventory& inv, const Request& req) {
  const Pieces P = inv.share_base;
  const Pieces pieces = cpu_request_pieces(req.cpu, P);
  const Pieces f = pieces / P, r = pieces % P;
  std::vector<Pieces> available;
  for (const auto& c : node.cores) available.push_back(c.capacity - c.used);
  auto cap = [&](Bytes memory) -> std::size_t {
    if (req.memory == 0) return SIZE_MAX;
    return static_cast<std::size_t>(std::max<Bytes>(memory, 0) / req.memory);
  };
  std::vector<Plan> all;
  Bytes memory_left = node.memory - node.memory_used;
  for (std::size_t n = 0; n < node.numa_nodes.size(); ++n) {
    std::vector<Core> pool;
    for (std::size_t i = 0; i < node.cores.size(); ++i)
      if (node.cores[i].numa == static_cast<int>(n) && available[i] > 0)
        pool.push_back({static_cast<std::uint32_t>(i), available[i]});
    auto plans = pool_plans(pool, P, f, r, inv.max_fragment_cores);
    plans.resize(std::min({plans.size(), cap(node.numa_nodes[n].memory - node.numa_nodes[n].used),
                           cap(memory_left)}));
    for (Plan& p : plans) {
      p.numa = static_cast<int>(n);
      for (const CoreShare& s : p.cpu) available[s.core] -= s.pieces;
      memory_left -= req.memory;
      all.push_back(p);
    }
  }
  std::vector<Core> pool;
  for (std::size_t i = 0; i < node.cores.size(); ++i)
    if (available[i] > 0) pool.push_back({static_cast<std::uint32_t>(i), available[i]});
  auto plans = pool_plans(pool, P, f, r, inv.max_fragment_cores);
  plans.resize(std::min(plans.size(), cap(memory_left)));
  all.insert(all.end(), plans.begin(), plans.end());
  return all;
}

}  // namespace ref

bool same_plans(const std::vector<Plan>& a, const std::vector<Plan>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].numa != b[i].numa || a[i].cpu.size() != b[i].cpu.size()) return false;
    for (std::size_t j = 0; j < a[i].cpu.size(); ++j)
      if (a[i].cpu[j].core != b[i].cpu[j].core || a[i].cpu[j].pieces != b[i].cpu[j].pieces)
        return false;
  }
  return true;
}

// A small random node: oversold, fragmented and empty cores, sometimes NUMA.
struct RandomCase {
  Node node;
  Inventory inv;
  Request req;
};

RandomCase random_case(std::mt19937& rng, int max_cores) {
  auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  static const Pieces bases[] = {1, 2, 3, 4, 10, 100};
  RandomCase rc;
  const Pieces P = bases[pick(0, 5)];
  rc.inv = inventory_of(P, pick(-1, 4));
  const int cores = static_cast<int>(pick(0, max_cores));
  const int numa = static_cast<int>(pick(0, 3)) == 0 ? 0 : static_cast<int>(pick(0, 3));
  rc.node.name = "n";
  for (int i = 0; i < cores; ++i) {
    Core c;
    switch (pick(0, 3)) {
      case 0:
        c.capacity = P;
        break;
      case 1:
        c.capacity = P * pick(1, 4);
        break;  // oversold
      default:
        c.capacity = pick(1, 4 * P);
        break;
    }
    c.used = pick(0, 2) == 0 ? pick(0, c.capacity) : 0;
    if (numa > 0) c.numa = static_cast<int>(pick(0, numa - 1));
    rc.node.cores.push_back(c);
  }
  rc.node.memory = pick(0, 12) * 100;
  rc.node.memory_used = pick(0, 2) == 0 ? pick(0, rc.node.memory) : 0;
  Bytes numa_total = 0;
  for (int n = 0; n < numa; ++n) {
    NumaNode nn;
    nn.id = std::to_string(n);
    nn.memory = pick(0, (rc.node.memory - numa_total) / std::max(1, numa - n));
    nn.used = pick(0, 3) == 0 ? pick(0, nn.memory) : 0;
    numa_total += nn.memory;
    rc.node.numa_nodes.push_back(nn);
  }
  rc.req = bind(0, pick(0, 2) == 0 ? 0 : pick(1, 500));
  const Pieces pieces = pick(1, 3 * P);
  rc.req.cpu = pieces * kNanoPerCore / P;
  if (cpu_request_pieces(rc.req.cpu, P) != pieces)
    rc.req.cpu = P * kNanoPerCore / P;  // keep it whole
  return rc;
}

}  // namespace

TEST_CASE("cpu: design note, one core on {0:0, 1:0, 2:100, 3:100}") {
  Node node = node_of({100, 100, 100, 100});
  node.cores[0].used = 100;
  node.cores[1].used = 100;
  auto res = run(node, inventory_of(), bind(1000));
  CHECK(res.binds);
  CHECK(res.capacity == 2);
  CHECK(show(node, res.plans) == "{2:100} {3:100}");
  CHECK(res.reason().empty());
}

TEST_CASE("cpu: oversold cores serve several plans") {
  Node two = node_of({300, 300});
  auto res = run(two, inventory_of(), bind(2000));
  CHECK(res.capacity == 3);
  CHECK(show(two, res.plans) == "{0:100,1:100} {0:100,1:100} {0:100,1:100}");

  Node one = node_of({300});
  res = run(one, inventory_of(), bind(500));
  CHECK(res.capacity == 6);
  CHECK(show(one, res.plans) == "{0:50} {0:50} {0:50} {0:50} {0:50} {0:50}");

  // The greedy always takes the two fullest cores: {0:400, 1:200} -> {0:300,
  // 1:100}; then core 0 and, of the tied 1 and 2, core 1; then cores 0 and 2.
  Node uneven = node_of({400, 200, 100});
  res = run(uneven, inventory_of(), bind(2000));
  CHECK(res.capacity == 3);
  CHECK(show(uneven, res.plans) == "{0:100,1:100} {0:100,1:100} {0:100,2:100}");
}

TEST_CASE("cpu: mixed {0:70, 1:100, 2:400}, 1.3 cores") {
  // f = 1, r = 30. Core 0 (70) is a fragment core; cores 1 and 2 are whole.
  // As is: whole parts 1 + 4 = 5, fraction parts floor(70/30) = 2 -> 2.
  // Turn core 1 (fewest pieces) into a fragment core: whole parts 4 (core 2),
  // fraction parts 2 + floor(100/30) = 5 -> 4. Turning core 2 too would leave
  // no whole core (the -1 limit is all cores but f = 2 fragment cores).
  // Best: 4 plans; whole parts all on core 2, fractions on core 0 first.
  Node node = node_of({70, 100, 400});
  auto res = run(node, inventory_of(), bind(1300));
  CHECK(res.capacity == 4);
  CHECK(show(node, res.plans) == "{0:30,2:100} {0:30,2:100} {1:30,2:100} {1:30,2:100}");
}

TEST_CASE("cpu: whole cores only when the request is whole") {
  // 150 is a fragment core (not a multiple of 100) and is never used for r = 0.
  Node node = node_of({100, 150, 200, 50});
  auto res = run(node, inventory_of(), bind(1000));
  CHECK(res.capacity == 3);
  CHECK(show(node, res.plans) == "{2:100} {0:100} {2:100}");
}

TEST_CASE("cpu: max_fragment_cores limits turning whole cores") {
  Node node = node_of({100, 100, 100, 100});
  // 0.5 core, f = 0: every core may hold fractions under -1.
  CHECK(run(node, inventory_of(100, -1), bind(500)).capacity == 8);
  CHECK(run(node, inventory_of(100, 0), bind(500)).capacity == 0);
  auto one = run(node, inventory_of(100, 1), bind(500));
  CHECK(one.capacity == 2);
  CHECK(show(node, one.plans) == "{0:50} {0:50}");

  // 1.5 cores, f = 1, r = 50 on four whole cores.
  // -1 (up to 3 fragment cores): k=1 -> min(3, 2) = 2, k=2 -> min(2, 4) = 2: keep k=1.
  auto all = run(node, inventory_of(100, -1), bind(1500));
  CHECK(all.capacity == 2);
  CHECK(show(node, all.plans) == "{0:50,1:100} {0:50,2:100}");
  CHECK(run(node, inventory_of(100, 0), bind(1500)).capacity == 0);
  CHECK(run(node, inventory_of(100, 1), bind(1500)).capacity == 2);

  // Six cores, 1.5: k=2 -> min(4, 4) = 4 needs two fragment cores.
  Node six = node_of({100, 100, 100, 100, 100, 100});
  CHECK(run(six, inventory_of(100, -1), bind(1500)).capacity == 4);
  CHECK(run(six, inventory_of(100, 1), bind(1500)).capacity == 2);
  CHECK(run(six, inventory_of(100, 2), bind(1500)).capacity == 4);
}

TEST_CASE("cpu: cores already fragmented beyond the limit are still used") {
  // Three fragment cores, limit 1: no whole core turns, all three fragments serve.
  Node node = node_of({30, 60, 90, 100, 100});
  auto f0 = run(node, inventory_of(100, 1), bind(300));
  CHECK(f0.capacity == 1 + 2 + 3);
  CHECK(show(node, f0.plans) == "{0:30} {1:30} {1:30} {2:30} {2:30} {2:30}");

  auto f1 = run(node, inventory_of(100, 1), bind(1300));
  CHECK(f1.capacity == 2);  // whole parts: cores 3 and 4
  CHECK(show(node, f1.plans) == "{0:30,3:100} {1:30,4:100}");

  // With no limit, the 0.3 request also turns both whole cores: +3 +3.
  CHECK(run(node, inventory_of(100, -1), bind(300)).capacity == 12);
}

TEST_CASE("cpu: memory caps the count") {
  Node node = node_of({100, 100, 100, 100});
  node.memory = 2 * kGi;
  node.memory_used = 512 * kMi;
  auto res = run(node, inventory_of(), bind(1000, 512 * kMi));
  CHECK(res.capacity == 3);
  CHECK(show(node, res.plans) == "{0:100} {1:100} {2:100}");

  res = run(node, inventory_of(), bind(1000, 0));  // memory 0: no cap
  CHECK(res.capacity == 4);

  node.memory_used = node.memory - 300 * kMi;
  res = run(node, inventory_of(), bind(1000, 512 * kMi));
  CHECK(res.capacity == 0);
  CHECK(res.plans.empty());
  CHECK(res.reason() == "memory: 300Mi available, 512Mi per instance");
}

TEST_CASE("cpu: max_plans cuts the plans, not the capacity") {
  Node node = node_of({100, 100, 100, 100});
  auto res = run(node, inventory_of(), bind(500), 3);
  CHECK(res.capacity == 8);
  CHECK(show(node, res.plans) == "{0:50} {0:50} {1:50}");
  CHECK(run(node, inventory_of(), bind(500), 0).plans.empty());
}

TEST_CASE("cpu: share_base other than 100") {
  // share_base 10: 1.3 cores = 13 pieces, f = 1, r = 3, on 24 whole cores.
  // k fragment cores give 3k fractions and 24-k wholes: k=6 -> 18.
  Node node = node_of(std::vector<Pieces>(24, 10));
  auto res = run(node, inventory_of(10), bind(1300));
  CHECK(res.capacity == 18);
  CHECK(res.plans.size() == 18);
  CHECK(show(node, {res.plans[0]}) == "{0:3,6:10}");
  CHECK(show(node, {res.plans[17]}) == "{5:3,23:10}");

  // share_base 1000: 0.25 core = 250 pieces; core {0:1000} holds 4, {1:600} 2.
  Node thousand = node_of({1000, 600});
  res = run(thousand, inventory_of(1000), bind(250));
  CHECK(res.capacity == 6);
  CHECK(show(thousand, res.plans) == "{1:250} {1:250} {0:250} {0:250} {0:250} {0:250}");

  // 1.001 cores at share_base 1000: f = 1, r = 1.
  res = run(thousand, inventory_of(1000), bind(1001));
  CHECK(res.capacity == 1);
  CHECK(show(thousand, res.plans) == "{0:1000,1:1}");
}

TEST_CASE("cpu: NUMA, design note example") {
  // Two NUMA nodes of two cores and 1G each (node 2G); 1 core + 600M:
  // one plan inside each NUMA node, then one across them.
  Node node = node_of({100, 100, 100, 100});
  node.memory = 2 * kGi;
  node.numa_nodes = {{"0", kGi, 0}, {"1", kGi, 0}};
  node.cores[0].numa = node.cores[1].numa = 0;
  node.cores[2].numa = node.cores[3].numa = 1;
  auto res = run(node, inventory_of(), bind(1000, 600 * 1000 * 1000));
  CHECK(res.capacity == 3);
  CHECK(show(node, res.plans) == "{0:100}@0 {2:100}@1 {1:100}");

  // Three cores per instance: no NUMA node has them; the across pass does.
  res = run(node, inventory_of(), bind(3000, 600 * 1000 * 1000));
  CHECK(res.capacity == 1);
  CHECK(show(node, res.plans) == "{0:100,1:100,2:100}");
}

TEST_CASE("cpu: NUMA node lacking memory") {
  Node node = node_of({100, 100, 100, 100});
  node.memory = 4 * kGi;
  node.numa_nodes = {{"0", 2 * kGi, 2 * kGi - 100 * kMi}, {"1", 2 * kGi, 0}};
  node.cores[0].numa = node.cores[1].numa = 0;
  node.cores[2].numa = node.cores[3].numa = 1;
  // NUMA 0 has 100Mi left: no plan there. NUMA 1: both cores (2 x 512Mi).
  // Across: cores 0 and 1 with 4Gi - 1Gi of node memory.
  auto res = run(node, inventory_of(), bind(1000, 512 * kMi));
  CHECK(res.capacity == 4);
  CHECK(show(node, res.plans) == "{2:100}@1 {3:100}@1 {0:100} {1:100}");

  // Node memory is what is left after the NUMA plans: 1536Mi - 1Gi = 512Mi.
  node.memory_used = 2 * kGi + 512 * kMi;
  res = run(node, inventory_of(), bind(1000, 512 * kMi));
  CHECK(res.capacity == 3);
  CHECK(show(node, res.plans) == "{2:100}@1 {3:100}@1 {0:100}");

  // The node's own memory caps NUMA plans too: usage outside any NUMA node
  // leaves 512Mi although both NUMA nodes have room.
  node.numa_nodes[0].used = 0;
  node.memory_used = 4 * kGi - 512 * kMi;
  res = run(node, inventory_of(), bind(1000, 512 * kMi));
  CHECK(res.capacity == 1);
  CHECK(show(node, res.plans) == "{0:100}@0");
}

TEST_CASE("cpu: NUMA applies max_fragment_cores per NUMA node, then over the node") {
  Node node = node_of({100, 100, 100, 100});
  node.numa_nodes = {{"0", kGi, 0}, {"1", kGi, 0}};
  node.cores[0].numa = node.cores[1].numa = 0;
  node.cores[2].numa = node.cores[3].numa = 1;
  // 0.3 core, limit 1: one core per NUMA node turns fragment (3 plans each,
  // 10 pieces left on cores 0 and 2). The across pass counts fragment cores
  // over the whole node: cores 0 and 2 already make 2 > 1, so cores 1 and 3
  // stay whole and nothing more fits.
  auto res = run(node, inventory_of(100, 1), bind(300));
  CHECK(res.capacity == 6);
  CHECK(show(node, res.plans) == "{0:30}@0 {0:30}@0 {0:30}@0 {2:30}@1 {2:30}@1 {2:30}@1");
}

TEST_CASE("cpu: capacity 0 reasons") {
  Node node = node_of({0, 100});
  node.cores[0].capacity = 100;
  node.cores[0].used = 100;
  auto res = run(node, inventory_of(), bind(1300));
  CHECK(res.capacity == 0);
  CHECK(res.plans.empty());
  CHECK(res.reason() ==
        "cpu: 1.3 cores per instance (whole 1 + 30 pieces), 0 plans from available cores {0:0, "
        "1:100}");

  CHECK(run(node, inventory_of(), bind(2000)).reason() ==
        "cpu: 2 cores per instance (whole 2), 0 plans from available cores {0:0, 1:100}");
  CHECK(run(node_of({100}), inventory_of(100, 0), bind(300)).reason() ==
        "cpu: 0.3 cores per instance (30 pieces), 0 plans from available cores {0:100}, "
        "max_fragment_cores 0");

  node.memory = 100 * kMi;
  CHECK(run(node, inventory_of(), bind(2000, 512 * kMi)).reason() ==
        "cpu: 2 cores per instance (whole 2), 0 plans from available cores {0:0, 1:100}; "
        "memory: 100Mi available, 512Mi per instance");

  // Past 64 cores the reason sums the rest: its length must not follow a
  // core count the input names.
  Node many = node_of(std::vector<Pieces>(100, 100));
  many.cores[70].used = 100;
  CHECK(run(many, inventory_of(100, 0), bind(300)).reason() ==
        "cpu: 0.3 cores per instance (30 pieces), 0 plans from available cores {0:100, 1:100, "
        "2:100, 3:100, 4:100, 5:100, 6:100, 7:100, 8:100, 9:100, 10:100, 11:100, 12:100, 13:100, "
        "14:100, 15:100, 16:100, 17:100, 18:100, 19:100, 20:100, 21:100, 22:100, 23:100, 24:100, "
        "25:100, 26:100, 27:100, 28:100, 29:100, 30:100, 31:100, 32:100, 33:100, 34:100, 35:100, "
        "36:100, 37:100, 38:100, 39:100, 40:100, 41:100, 42:100, 43:100, 44:100, 45:100, 46:100, "
        "47:100, 48:100, 49:100, 50:100, 51:100, 52:100, 53:100, 54:100, 55:100, 56:100, 57:100, "
        "58:100, 59:100, 60:100, 61:100, 62:100, 63:100, and 36 more cores with 3500 pieces "
        "available in all}, max_fragment_cores 0");

  // Not a whole number of pieces (the loader rejects it; still no crash).
  res = run(node_of({100}), inventory_of(), bind(1001));
  CHECK(res.capacity == 0);
  CHECK(res.reason() == "cpu: 1.001 cores is not a whole number of pieces at share_base 100");
}

TEST_CASE("cpu: whole_part_count matches the greedy") {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 2000; ++iter) {
    const int n = static_cast<int>(rng() % 7);
    const Pieces f = 1 + rng() % 4;
    std::vector<ref::Core> cores;
    std::vector<cpu_plans::CoreAvail> pool;
    for (int i = 0; i < n; ++i) {
      const Pieces a = 10 * (1 + rng() % 5);
      cores.push_back({static_cast<std::uint32_t>(i), a});
      pool.push_back({static_cast<std::uint32_t>(i), a});
    }
    const auto expected = ref::whole_parts(cores, 10, f).size();
    const auto split = cpu_plans::best_split(pool, {10, f, 0}, -1);
    REQUIRE(split.capacity == static_cast<std::int64_t>(expected));

    // take() after t rounds equals the greedy's own bookkeeping.
    const auto t = static_cast<std::int64_t>(rng() % (expected + 1));
    std::vector<Pieces> available(n);
    for (int i = 0; i < n; ++i) available[i] = cores[i].a;
    cpu_plans::take(split, {10, f, 0}, t, available);
    std::vector<Pieces> simulated(n);
    for (int i = 0; i < n; ++i) simulated[i] = cores[i].a;
    const auto parts = ref::whole_parts(cores, 10, f);
    for (std::int64_t i = 0; i < t; ++i)
      for (std::uint32_t c : parts[i]) simulated[c] -= 10;
    REQUIRE(available == simulated);
  }
}

TEST_CASE("cpu: randomized comparison with the reference") {
  std::mt19937 rng(20240601);
  for (int iter = 0; iter < 4000; ++iter) {
    const RandomCase rc = random_case(rng, 7);
    const auto expected = ref::cpu_plans(rc.node, rc.inv, rc.req);
    const auto got = run(rc.node, rc.inv, rc.req);
    INFO("iteration ", iter, " share_base ", rc.inv.share_base, " mfc ", rc.inv.max_fragment_cores,
         " cpu pieces ", cpu_request_pieces(rc.req.cpu, rc.inv.share_base));
    INFO("expected ", show(rc.node, expected));
    INFO("got      ", show(rc.node, got.plans));
    REQUIRE(got.capacity == static_cast<std::int64_t>(expected.size()));
    REQUIRE(same_plans(got.plans, expected));
    REQUIRE(got.reason().empty() == (got.capacity > 0));

    // A short max_plans gives the same prefix.
    const auto cut = run(rc.node, rc.inv, rc.req, 2);
    REQUIRE(cut.capacity == got.capacity);
    REQUIRE(same_plans(cut.plans, std::vector<Plan>(expected.begin(),
                                                    expected.begin() + std::min<std::size_t>(
                                                                           2, expected.size()))));
  }
}

// Preemption's dry runs ask whether one instance fits from the node's
// CoreFit, its memory changing under it (pods taken off and given back):
// the answer and the reasons at 0 are the full pass's.
TEST_CASE("cpu: cpu_plans_fit_one answers as cpu_plans_dimension, memory changing") {
  std::mt19937 rng(20261127);
  auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  int fits = 0, not_fits = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    RandomCase rc = random_case(rng, 9);
    const std::optional<CoreFit> fit = core_fit(rc.node, rc.inv, rc.req);
    if (!fit) continue;
    for (int m = 0; m < 4; ++m) {
      if (m > 0) {
        rc.node.memory_used = pick(0, rc.node.memory + 200);
        for (NumaNode& n : rc.node.numa_nodes) n.used = pick(0, n.memory + 100);
      }
      const DimensionResult full = cpu_plans_dimension(rc.node, rc.inv, rc.req, 1);
      const DimensionResult one = cpu_plans_fit_one(rc.node, rc.inv, rc.req, *fit);
      INFO("iteration ", iter, " memory ", m);
      REQUIRE((one.capacity > 0) == (full.capacity > 0));
      REQUIRE(one.capacity <= 1);
      REQUIRE(one.reason() == full.reason());
      ++(one.capacity > 0 ? fits : not_fits);
    }
  }
  CHECK(fits > 1000);
  CHECK(not_fits > 1000);
}

TEST_CASE("cpu: property, plans are well formed and fit the node") {
  std::mt19937 rng(99);
  for (int iter = 0; iter < 1500; ++iter) {
    const RandomCase rc = random_case(rng, 24);
    const auto res = run(rc.node, rc.inv, rc.req);
    const Pieces P = rc.inv.share_base;
    const Pieces pieces = cpu_request_pieces(rc.req.cpu, P);
    REQUIRE(res.plans.size() == static_cast<std::size_t>(res.capacity));
    std::vector<Pieces> given(rc.node.cores.size(), 0);
    Bytes node_memory = 0;
    std::vector<Bytes> numa_memory(rc.node.numa_nodes.size(), 0);
    for (const Plan& p : res.plans) {
      Pieces sum = 0;
      int fractional = 0;
      for (std::size_t i = 0; i < p.cpu.size(); ++i) {
        if (i > 0) REQUIRE(p.cpu[i - 1].core < p.cpu[i].core);  // sorted, distinct
        sum += p.cpu[i].pieces;
        if (p.cpu[i].pieces != P) ++fractional;
        REQUIRE(p.cpu[i].pieces > 0);
        given[p.cpu[i].core] += p.cpu[i].pieces;
        if (p.numa >= 0) REQUIRE(rc.node.cores[p.cpu[i].core].numa == p.numa);
      }
      REQUIRE(sum == pieces);
      REQUIRE(fractional <= 1);
      if (pieces % P == 0) REQUIRE(fractional == 0);
      node_memory += rc.req.memory;
      if (p.numa >= 0) numa_memory[p.numa] += rc.req.memory;
    }
    for (std::size_t i = 0; i < given.size(); ++i)
      REQUIRE(given[i] <= rc.node.cores[i].capacity - rc.node.cores[i].used);
    REQUIRE(node_memory <= std::max<Bytes>(0, rc.node.memory - rc.node.memory_used));
    for (std::size_t n = 0; n < numa_memory.size(); ++n)
      REQUIRE(numa_memory[n] <= rc.node.numa_nodes[n].memory - rc.node.numa_nodes[n].used);
  }
}

TEST_CASE(
    "cpu plans: a NUMA node whose cores fit but whose memory does not is named in the reason") {
  // NUMA node 1 (core 1) could hold a 0.82-core plan, but has 616 bytes for
  // 2342 per instance; the pass across NUMA nodes finds no fragment core
  // (max_fragment_cores 1 is used up by core 2).
  Inventory inv;
  inv.max_fragment_cores = 1;
  Node node;
  node.name = "c1";
  node.memory = 2465;
  node.cores = {{100, 0, 0}, {100, 0, 1}, {100, 55, 0}};
  node.numa_nodes = {{"0", 1232, 0}, {"1", 616, 0}};
  Request req;
  req.cpu_bind = true;
  req.cpu = 820'000'000;
  req.memory = 2342;
  const DimensionResult r = cpu_plans_dimension(node, inv, req, kUnlimited);
  CHECK(r.capacity == 0);
  CHECK(r.reason().find("memory: NUMA node 1 has 616 available, 2342 per instance") !=
        std::string::npos);
}

// A node given as `cpu: N` is planned without listing its cores: the same
// capacity, plans, reasons and one-instance fit as the listed node.
TEST_CASE("cpu: plain cores plan as the same cores listed") {
  std::mt19937 rng(20261128);
  auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  int placed = 0;
  for (int iter = 0; iter < 6000; ++iter) {
    const Pieces P =
        std::vector<Pieces>{1, 2, 4, 5, 8, 10, 100}[static_cast<std::size_t>(pick(0, 6))];
    const Inventory inv = inventory_of(P, pick(0, 3) == 0 ? -1 : pick(0, 12));
    Node plain;
    plain.name = "n";
    plain.plain_cores = pick(0, iter % 10 == 0 ? 300 : 24);
    // share_base as the loaders give it, sometimes other amounts.
    const std::int64_t kind = pick(0, 5);
    plain.plain_core_pieces = kind < 3 ? P : kind == 3 ? P * pick(2, 4) : pick(1, 3 * P);
    plain.memory = pick(0, 3) == 0 ? pick(0, 40) : 64 * kGi;
    Node listed = plain;
    listed.list_cores();
    Request req = bind(1000, pick(0, 2) == 0 ? 0 : pick(1, 4));
    req.cpu = req.cpu_limit = pick(1, 6 * P) * (kNanoPerCore / P);
    const std::int64_t max_plans = pick(0, 2) == 0 ? kUnlimited : pick(0, 5);
    const DimensionResult a = cpu_plans_dimension(plain, inv, req, max_plans);
    const DimensionResult b = cpu_plans_dimension(listed, inv, req, max_plans);
    INFO("iteration ", iter, " cores ", plain.plain_cores, " pieces ", plain.plain_core_pieces,
         " share_base ", P, " mfc ", inv.max_fragment_cores, " cpu pieces ",
         cpu_request_pieces(req.cpu, P));
    INFO("plain  ", show(plain, a.plans));
    INFO("listed ", show(listed, b.plans));
    REQUIRE(a.capacity == b.capacity);
    REQUIRE(same_plans(a.plans, b.plans));
    REQUIRE(a.reason() == b.reason());
    // each_plan hands out the same plans one by one, in order.
    for (const Node* node : {&plain, &listed}) {
      std::vector<Plan> each;
      cpu_plans::each_plan(*node, inv, req, static_cast<std::int64_t>(b.plans.size()),
                           [&](Plan&& p) { each.push_back(std::move(p)); });
      REQUIRE(same_plans(each, b.plans));
    }
    const std::optional<CoreFit> fa = core_fit(plain, inv, req), fb = core_fit(listed, inv, req);
    REQUIRE(fa.has_value() == fb.has_value());
    if (fa) {
      REQUIRE(fa->across == fb->across);
      REQUIRE(cpu_plans_fit_one(plain, inv, req, *fa).reason() ==
              cpu_plans_fit_one(listed, inv, req, *fb).reason());
    }
    if (a.capacity > 0) ++placed;
  }
  CHECK(placed > 2000);
}

TEST_CASE("cpu: 4096 plain cores, 1.5 cores each") {
  Node node;
  node.name = "n";
  node.plain_cores = 4096;
  node.plain_core_pieces = 100;
  node.memory = 64 * kGi;
  // k turned cores give 2k halves, the rest (4096 - k) / 1 wholes: 1365
  // turned cores give 2730 plans, 2731 wholes left over.
  const DimensionResult r = run(node, inventory_of(), bind(1500), 2);
  CHECK(r.capacity == 2730);
  CHECK(show(node, r.plans) == "{0:50,1365:100} {0:50,1366:100}");
  // max_fragment_cores 10: 20 plans.
  CHECK(run(node, inventory_of(100, 10), bind(1500), 0).capacity == 20);
  CHECK(node.cores.empty());
}
