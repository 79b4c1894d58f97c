// The capacity pass in memory mode and storage, usage/rate, the filter, and
// the units used in reasons.
#include "capacity.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace eruplan;

namespace {

constexpr Bytes Mi = 1024 * 1024;

Node memory_node(std::string name, Bytes memory, Bytes used = 0, int cores = 4) {
  Node n;
  n.name = std::move(name);
  n.memory = memory;
  n.memory_used = used;
  for (int i = 0; i < cores; ++i) n.cores.push_back({100, 0, -1});
  return n;
}

}  // namespace

TEST_CASE("units: sizes print exactly, with the shortest exact suffix") {
  CHECK(format_bytes(300 * Mi) == "300Mi");
  CHECK(format_bytes(1500) == "1500");
  CHECK(format_bytes(2000) == "2k");
  CHECK(format_bytes(1000000000) == "1G");
  CHECK(format_bytes(1073741824) == "1Gi");
  CHECK(format_bytes(0) == "0");
  CHECK(format_bytes(1025) == "1025");
  CHECK(format_cores(1'300'000'000) == "1.3");
  CHECK(format_cores(2'000'000'000) == "2");
  CHECK(format_cores(290'000'000) == "0.29");
  CHECK(format_cores(1) == "0.000000001");
}

TEST_CASE("natural order: numbers by value, before other ids") {
  CHECK(natural_less("2", "10"));
  CHECK_FALSE(natural_less("10", "2"));
  CHECK(natural_less("9", "a"));
  CHECK(natural_less("a10", "a2"));  // non-numeric ids compare by bytes
  CHECK(natural_less("007", "8"));
  CHECK_FALSE(natural_less("3", "3"));
}

TEST_CASE("memory mode: 10M per instance on a 100M node gives 10 (design note)") {
  Inventory inv;
  inv.nodes.push_back(memory_node("node1", 100 * Mi));
  Request req;
  req.memory = 10 * Mi;
  CapacityMap map = capacity_pass(inv, req);
  REQUIRE(map.nodes.size() == 1);
  CHECK(map.nodes[0].capacity == 10);
  CHECK(map.total == 10);
  CHECK(map.nodes[0].plans.empty());
  CHECK_FALSE(map.binds);
}

TEST_CASE("memory mode: capacity 0 carries a reason naming memory") {
  Inventory inv;
  inv.nodes.push_back(memory_node("node3", 1024 * Mi, 724 * Mi));
  Request req;
  req.memory = 512 * Mi;
  CapacityMap map = capacity_pass(inv, req);
  CHECK(map.nodes[0].capacity == 0);
  CHECK(map.nodes[0].reason() == "memory: 300Mi available, 512Mi per instance");
}

TEST_CASE("memory mode: a cpu request above the node's cores gives 0") {
  Inventory inv;
  inv.nodes.push_back(memory_node("small", 1024 * Mi, 0, 2));
  Request req;
  req.cpu = 3 * kNanoPerCore;
  req.memory = Mi;
  CapacityMap map = capacity_pass(inv, req);
  CHECK(map.nodes[0].capacity == 0);
  CHECK(map.nodes[0].reason() == "cpu: 3 cores per instance, node has 2 cores");
  req.cpu = 2 * kNanoPerCore;
  CHECK(capacity_pass(inv, req).nodes[0].capacity == 1024);
}

TEST_CASE("nothing requested: unlimited capacity and total") {
  Inventory inv;
  inv.nodes.push_back(memory_node("a", 100));
  inv.nodes.push_back(memory_node("b", 100));
  CapacityMap map = capacity_pass(inv, Request{});
  CHECK(map.nodes[0].capacity == kUnlimited);
  CHECK(map.total == kUnlimited);
}

TEST_CASE("storage limits with its own reason; both reasons when both are 0") {
  Inventory inv;
  Node n = memory_node("n", 100 * Mi, 100 * Mi);
  n.storage = 25 * Mi;
  inv.nodes.push_back(n);
  Request req;
  req.storage = 10 * Mi;
  CHECK(capacity_pass(inv, req).nodes[0].capacity == 2);
  req.storage = 30 * Mi;
  req.memory = Mi;
  CapacityMap map = capacity_pass(inv, req);
  CHECK(map.nodes[0].capacity == 0);
  CHECK(map.nodes[0].reason() ==
        "memory: 0 available, 1Mi per instance; storage: 25Mi available, 30Mi per instance");
}

TEST_CASE("cordoned nodes appear with 0 and 'not available'; filtered nodes vanish") {
  Inventory inv;
  inv.nodes.push_back(memory_node("c", 100 * Mi));
  inv.nodes.push_back(memory_node("a", 100 * Mi));
  inv.nodes.push_back(memory_node("b", 100 * Mi));
  inv.nodes[0].available = false;
  inv.nodes[1].labels = {{"zone", "x"}};
  inv.nodes[0].labels = {{"zone", "x"}};
  Request req;
  req.memory = 10 * Mi;
  CapacityMap map = capacity_pass(inv, req);
  REQUIRE(map.nodes.size() == 3);
  CHECK(inv.nodes[map.nodes[0].node].name == "a");  // sorted by name
  CHECK(inv.nodes[map.nodes[2].node].name == "c");
  CHECK(map.nodes[2].capacity == 0);
  CHECK(map.nodes[2].reason() == "not available");
  CHECK(map.total == 20);

  req.filter.labels = {{"zone", "x"}};
  req.filter.exclude = {"c"};
  map = capacity_pass(inv, req);
  REQUIRE(map.nodes.size() == 1);
  CHECK(inv.nodes[map.nodes[0].node].name == "a");
  req.filter = {};
  req.filter.nodes = {"b", "c"};
  CHECK(capacity_pass(inv, req).nodes.size() == 2);
}

TEST_CASE("usage and rate: memory mode weighs memory, storage adds weight 1") {
  Inventory inv;
  Node n = memory_node("n", 1000, 250);
  n.storage = 100;
  n.storage_used = 50;
  n.instances = {{"db", 1}, {"web", 3}};
  inv.nodes.push_back(n);
  Request req;
  req.app = "web";
  req.memory = 100;
  NodeCapacity c = capacity_pass(inv, req).nodes[0];
  CHECK(c.existing == 3);
  CHECK(c.usage == doctest::Approx(0.25));
  CHECK(c.rate == doctest::Approx(0.1));
  req.storage = 10;
  c = capacity_pass(inv, req).nodes[0];
  CHECK(c.usage == doctest::Approx((0.25 + 0.5) / 2));
  CHECK(c.rate == doctest::Approx((0.1 + 0.1) / 2));
}

TEST_CASE("usage and rate: CPU-bind mode weighs cpu 100 against storage 1") {
  Inventory inv;
  Node n = memory_node("n", 1000, 0, 4);
  n.cpu_used = 2 * kNanoPerCore;
  n.storage = 100;
  n.storage_used = 0;
  inv.nodes.push_back(n);
  Request req;
  req.cpu_bind = true;
  req.cpu = kNanoPerCore;
  req.storage = 10;
  NodeCapacity c = capacity_pass(inv, req).nodes[0];
  CHECK(c.usage == doctest::Approx((0.5 * 100 + 0) / 101));
  CHECK(c.rate == doctest::Approx((0.25 * 100 + 0.1) / 101));
}

TEST_CASE("memory mode: when cpu and memory both stop a node, the reason names both") {
  Inventory inv;
  inv.nodes.push_back(memory_node("n", 1000, 1, 1));
  Request req;
  req.cpu = 2 * kNanoPerCore;
  req.memory = 1000;
  CapacityMap map = capacity_pass(inv, req);
  CHECK(map.nodes[0].capacity == 0);
  CHECK(map.nodes[0].reason() ==
        "cpu: 2 cores per instance, node has 1 core; memory: 999 available, 1k per instance");
}

TEST_CASE("plan weight: one per 2 bound cores (started) and one per scheduled volume") {
  Request r;
  CHECK(plan_weight(r) == 1);  // binds nothing
  r.cpu = 2000 * kNanoPerCore;
  CHECK(plan_weight(r) == 1);  // not bound
  r.cpu_bind = true;
  CHECK(plan_weight(r) == 1000);
  r.cpu = 5 * kNanoPerCore / 2;  // 2.5 cores: 3 cores started
  CHECK(plan_weight(r) == 2);
  r.cpu = 6 * kNanoPerCore;
  r.volumes.push_back(VolumeRequest{"AUTO:/a:rw:10", "AUTO", "/a", "rw", 10});
  r.volumes.push_back(VolumeRequest{"/data:/b:rw", "/data", "/b", "rw", 0});  // not scheduled
  r.volumes.push_back(VolumeRequest{"AUTO:/c:rw:20", "AUTO", "/c", "rw", 20});
  CHECK(plan_weight(r) == 5);
  CHECK(heaviest_plan({Request{}, r}) == 5);
  CHECK(too_many_bound(r, 1000, 4096) ==
        "too large: 1000 new instances that bind CPUs or volumes, each with a plan of its own; "
        "at most 819 for this input (4096, or one per 4 bytes of input, each of these counting "
        "5 times: once per 2 cores and per volume it binds); ask for fewer");
  // Plans listed per node: at least one when plans weigh 1, possibly none when heavier.
  CHECK(plans_per_node(4096, 10, 1) == 409);
  CHECK(plans_per_node(4096, 10000, 1) == 1);
  CHECK(plans_per_node(4096, 10, 1, 5) == 81);
  CHECK(plans_per_node(4096, 10, 2, 1000) == 0);
  CHECK(plans_per_node(1'000'000'000, 1, 1) == kDefaultMaxPlans);
}

TEST_CASE("filtered_nodes: name order equals sorting the names as bytes, on 2,000 random lists") {
  // Names of 0 to 12 bytes over an alphabet with NUL, 0x7f, 0x80 and 0xff
  // (the sort keys on the first 8 bytes, then compares the names).
  std::mt19937_64 rng(7);
  const std::string alphabet("\0\x01-0a\x7f\x80\xff", 8);
  const auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  for (int round = 0; round < 2000; ++round) {
    Inventory inventory;
    std::set<std::string> names;
    const std::size_t count = 1 + pick(40);
    while (names.size() < count) {
      std::string name = round % 2 == 0 ? "node-ab" : "";  // a common 7-byte prefix, or none
      for (std::size_t k = pick(13); k > 0; --k) name += alphabet[pick(alphabet.size())];
      names.insert(name);
    }
    std::vector<std::string> shuffled(names.begin(), names.end());
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    for (const std::string& name : shuffled) {
      Node node;
      node.name = name;
      inventory.nodes.push_back(std::move(node));
    }
    const std::vector<std::uint32_t> order = filtered_nodes(inventory, NodeFilter{});
    REQUIRE(order.size() == names.size());
    auto expected = names.begin();  // std::set<std::string>: byte order
    for (const std::uint32_t i : order) CHECK(inventory.nodes[i].name == *expected++);
  }
}
