// --explain lines (SPEC §13) from a real capacity pass and plan, one
// strategy at a time, and display cells for table columns.
#include "explain.h"

#include <doctest/doctest.h>

#include <map>
#include <random>

#include "render.h"
#include "requests.h"

using namespace eruplan;

namespace {

constexpr Bytes Mi = 1024 * 1024;

Node node(std::string name, Bytes memory, std::int64_t web, std::string pool = "gpu") {
  Node n;
  n.name = std::move(name);
  n.memory = memory;
  n.plain_cores = 4;
  n.plain_core_pieces = 100;
  n.labels.push_back({"pool", std::move(pool)});
  if (web > 0) n.instances.push_back({"web", web});
  return n;
}

// n1 has 4 web, n2 1, n3 no room, n4 another pool; 10 instances fit on each.
Inventory inventory() {
  Inventory inv;
  inv.nodes = {node("n1", 100 * Mi, 4), node("n2", 100 * Mi, 1), node("n3", 5 * Mi, 0),
               node("n4", 100 * Mi, 0, "general")};
  return inv;
}

Request request(Strategy strategy, std::int64_t count, std::int64_t nodes_limit = 0) {
  Request r;
  r.app = r.name = "web";
  r.count = count;
  r.strategy = strategy;
  r.nodes_limit = nodes_limit;
  r.memory = r.memory_limit = 10 * Mi;
  return r;
}

// name -> line, planning `r` against the inventory.
std::map<std::string, std::string> lines(const Request& r) {
  Inventory state = inventory();
  const Inventory before = state;
  std::vector<RequestOutcome> outcomes = plan_requests(state, {r}, PlanOptions{});
  REQUIRE(outcomes.size() == 1);
  const RequestOutcome& o = outcomes.front();
  std::map<std::string, std::string> out;
  for (ExplainLine& l : explain(before, r, o.capacity, &o.deploy, &o)) out[l.node] = l.text;
  return out;
}

}  // namespace

TEST_CASE("explain: node_filter rules name what the node has") {
  NodeFilter f;
  f.labels.push_back({"pool", "gpu"});
  const Node general = node("a", Mi, 0, "general");
  CHECK(filter_reason(f, general) == "node_filter.labels: pool=general does not match pool=gpu");
  Node bare = general;
  bare.labels.clear();
  CHECK(filter_reason(f, bare) == "node_filter.labels: no label pool, needs pool=gpu");
  CHECK(filter_reason(f, node("b", Mi, 0)).empty());
  NodeFilter names;
  names.nodes = {"x", "y", "z", "w", "v"};
  CHECK(filter_reason(names, general) == "node_filter.nodes: not one of x, y, z and 2 more");
  NodeFilter excluded;
  excluded.exclude = {"a"};
  CHECK(filter_reason(excluded, general) == "node_filter.exclude: names this node");
}

TEST_CASE("explain: auto, every node of the inventory, by name") {
  Request r = request(Strategy::Auto, 3);
  r.filter.labels.push_back({"pool", "gpu"});
  const auto l = lines(r);
  REQUIRE(l.size() == 4);
  CHECK(l.at("n1") == "auto: has 4, at or above level 4 that the others reach");
  CHECK(l.at("n2") == "auto: +3, at level 4 with the others");
  CHECK(l.at("n3") == "memory: 5Mi available, 10Mi per instance");
  CHECK(l.at("n4") == "node_filter.labels: pool=general does not match pool=gpu");
}

TEST_CASE("explain: auto with nodes_limit and a node filled to capacity") {
  const auto l = lines(request(Strategy::Auto, 25, 12));
  // n4 (0) and n2 (1) reach 10 and 11 (capacity 10 each), n1 (4) goes to 8+.
  CHECK(l.at("n4") == "auto: +10, at level 10 with the others");
  CHECK(l.at("n1").starts_with("auto: +"));
  const auto limited = lines(request(Strategy::Auto, 2, 4));
  CHECK(limited.at("n1") == "auto: has 4, nodes_limit 4");
}

TEST_CASE("explain: each compares capacity with count") {
  const auto l = lines(request(Strategy::Each, 5, 1));
  CHECK(l.at("n1") == "each: +5, capacity 10 >= count 5");
  CHECK(l.at("n2") ==
        "each: capacity 10 >= count 5, but nodes_limit 1 went to nodes with more capacity or "
        "earlier names");
  CHECK(l.at("n3") == "memory: 5Mi available, 10Mi per instance");
  const auto failed = lines(request(Strategy::Each, 11));
  CHECK(failed.at("n1") == "each: capacity 10 < count 11");
}

TEST_CASE("explain: fill says what each node has of count") {
  const auto l = lines(request(Strategy::Fill, 4, 2));
  CHECK(l.at("n1") == "fill: already has 4 of 4");
  CHECK(l.at("n2") == "fill: has 1, +3 to reach 4");
  const auto satisfied = lines(request(Strategy::Fill, 1, 2));
  CHECK(satisfied.at("n1") == "fill: already has 4 of 1");
  CHECK(satisfied.at("n4") == "fill: has 0, could reach 1; nothing placed, already satisfied");
  const auto unreachable = lines(request(Strategy::Fill, 12));
  CHECK(unreachable.at("n4") == "fill: has 0, can take 10, cannot reach 12");
}

TEST_CASE("explain: global shows usage before and after") {
  const auto l = lines(request(Strategy::Global, 1));
  // Every node starts at usage 0 with rate 10%; the tie goes to n1 by name.
  CHECK(l.at("n1") == "global: +1, usage 0.0% -> 10.0%");
  CHECK(l.at("n2") ==
        "global: usage 0.0%, 10.0% with one more, tie by name at 10.0% where the "
        "last one went");
}

TEST_CASE("explain: drained fills the smallest first") {
  const auto l = lines(request(Strategy::Drained, 12));
  CHECK(l.at("n1") == "drained: +10, filled to its capacity 10");
  CHECK(l.at("n2") == "drained: +2 of its capacity 10, the rest of count");
  CHECK(l.at("n4") == "drained: capacity 10, the count fit on nodes filled before it");
}

TEST_CASE("explain: score compares first totals with the best node") {
  const Inventory inv = inventory();
  const Request r = request(Strategy::Score, 2);
  const CapacityMap map = capacity_pass(inv, r);
  REQUIRE(map.nodes.size() == 4);
  RequestOutcome o;
  o.status = RequestStatus::Placed;
  o.deploy = {2, 0, 0, 0};
  o.scores = {{100, 50, 150, {}}, {60, 52, 112, {}}, {}, {100, 50, 150, {}}};
  std::map<std::string, std::string> l;
  for (ExplainLine& line : explain(inv, r, map, &o.deploy, &o)) l[line.node] = line.text;
  CHECK(l.at("n1") == "score: +2, total 150 for the first");
  CHECK(l.at("n2") == "score: total 112 < 150 of n1");
  CHECK(l.at("n4") == "score: total 150 = 150 of n1");
}

TEST_CASE("explain: capacity (no strategy) says what each node can take") {
  const Inventory inv = inventory();
  const Request r = request(Strategy::Auto, 0);
  const CapacityMap map = capacity_pass(inv, r);
  const auto out = explain(inv, r, map, nullptr, nullptr);
  REQUIRE(out.size() == 4);
  CHECK(out[0].node == "n1");
  CHECK(out[0].text == "can take 10, 4 existing");
}

TEST_CASE("display cells: CJK two wide, combining marks none, invalid bytes one") {
  CHECK(display_cells("node1") == 5);
  CHECK(display_cells("节点一") == 6);
  CHECK(display_cells("e\xcc\x81") == 1);  // e + combining acute
  CHECK(display_cells("\xff\xfe") == 2);
  CHECK(display_cells("") == 0);
}

TEST_CASE("explain: on random inventories, one line per node, consistent with the plan") {
  std::mt19937 rng(20261122);
  const Strategy strategies[] = {Strategy::Auto, Strategy::Fill, Strategy::Each, Strategy::Global,
                                 Strategy::Drained};
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int round = 0; round < 2000; ++round) {
    Inventory inv;
    const int n = pick(1, 12);
    for (int i = 0; i < n; ++i) {
      Node x = node("n" + std::to_string(pick(0, 999)) + "_" + std::to_string(i),
                    pick(0, 12) * 10 * Mi, pick(0, 5), pick(0, 3) == 0 ? "general" : "gpu");
      x.available = pick(0, 9) != 0;
      inv.nodes.push_back(std::move(x));
    }
    Request r = request(strategies[pick(0, 4)], pick(1, 15), pick(0, 3));
    if (pick(0, 1) == 0) r.filter.labels.push_back({"pool", "gpu"});
    Inventory state = inv;
    const std::vector<RequestOutcome> outcomes = plan_requests(state, {r}, PlanOptions{});
    const RequestOutcome& o = outcomes.front();
    const std::vector<ExplainLine> out = explain(inv, r, o.capacity, &o.deploy, &o);
    REQUIRE(out.size() == inv.nodes.size());
    for (std::size_t i = 1; i < out.size(); ++i) CHECK(out[i - 1].node < out[i].node);
    std::map<std::string, std::string> by_name;
    for (const ExplainLine& l : out) by_name[l.node] = l.text;
    for (const Node& x : inv.nodes)
      if (!r.filter.accepts(x)) CHECK(by_name.at(x.name).starts_with("node_filter.labels: "));
    const std::string prefix = std::string(strategy_name(r.strategy)) + ": ";
    for (std::size_t i = 0; i < o.capacity.nodes.size(); ++i) {
      const NodeCapacity& nc = o.capacity.nodes[i];
      const std::string& text = by_name.at(inv.nodes[nc.node].name);
      if (nc.capacity == 0) {
        CHECK(text == nc.reason());
        continue;
      }
      CHECK(text.starts_with(prefix));
      const std::int64_t k = o.deploy[i];
      CAPTURE(text);
      const bool says_placed =
          text.starts_with(prefix + "+") ||
          (r.strategy == Strategy::Fill && text.find(", +") != std::string::npos);
      CHECK(says_placed == (k > 0));
      if (k > 0) CHECK(text.find("+" + std::to_string(k)) != std::string::npos);
    }
  }
}
