// The score strategy (SPEC §9): each formula at its edges, the worked
// example, Kubernetes' infeasible line, the loader's scoring checks, the
// fast heap against a one-instance-at-a-time oracle, and --jobs giving the
// same bytes through the built binary.
#include "strategy_score.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "binary.h"
#include "capacity.h"
#include "load.h"
#include "requests.h"

using namespace eruplan;

namespace {

constexpr std::int64_t Gi = 1024LL * 1024 * 1024;

Scoring scoring_of(ScoringType type, std::vector<ShapePoint> shape = {}) {
  Scoring s;
  s.type = type;
  s.shape = std::move(shape);
  return s;
}

std::int64_t fit(std::vector<ScoredResource> rs, const Scoring& s, std::int64_t k = 0) {
  return score_node(rs, s, k).fit;
}

std::int64_t balanced(std::vector<ScoredResource> rs, std::int64_t k = 0) {
  return score_node(rs, Scoring{}, k).balanced;
}

const std::vector<ShapePoint> kRising{{0, 0}, {100, 10}};

// One resource with alloc 100, used 0 and the given per-instance amount:
// at k = 0 its utilization is `per` percent.
ScoredResource at(std::int64_t per, std::int64_t weight = 1) { return {100, 0, per, weight}; }

Inventory load_nodes(const std::string& text) {
  Diagnostics diags;
  auto inv = load_inventory(Source{"nodes.yaml", text}, diags);
  INFO(diags.to_string());
  REQUIRE(inv.has_value());
  return *inv;
}

Request load_req(const std::string& text, Diagnostics& diags, const RequestOverrides& o = {}) {
  const Source source{"request.yaml", text};
  auto r = load_request(&source, o, true, diags);
  return r ? *r : Request{};
}

Request load_req(const std::string& text) {
  Diagnostics diags;
  Request r = load_req(text, diags);
  INFO(diags.to_string());
  REQUIRE_FALSE(diags.has_errors());
  return r;
}

// The capacity pass and the infos of a request, and score run over them.
struct Run {
  CapacityMap map;
  std::vector<StrategyInfo> infos;
  StrategyResult result;
};
Run run_score(const Inventory& inv, const Request& req, unsigned jobs = 1) {
  Run r;
  r.map = capacity_pass(inv, req);
  std::vector<std::size_t> where;
  r.infos = strategy_infos(inv, r.map, where);
  const StrategyInput in{r.infos, req.count, r.map.total, req.nodes_limit,
                         &inv,    &req,      jobs,        &r.map};
  r.result = score_strategy(in);
  return r;
}

const char* kWorkedNodes = R"(
nodes:
  - {name: n1, cpu: 4, memory: 8Gi, usage: {cpu: 1, memory: 2Gi}}
  - {name: n2, cpu: 8, memory: 16Gi, usage: {cpu: 6, memory: 4Gi}}
)";
const char* kWorkedRequest =
    "app: web\ncount: 5\nstrategy: score\nresources: {cpu: 1, memory: 2Gi}\n";

}  // namespace

// ---- the formulas ----------------------------------------------------------

TEST_CASE("score: least_allocated truncates, skips alloc 0 and gives 0 past the node") {
  const Scoring s = scoring_of(ScoringType::LeastAllocated);
  CHECK(fit({{3, 0, 1, 1}}, s) == 66);               // (3 - 1) x 100 / 3 = 66.67 -> 66
  CHECK(fit({{100, 95, 10, 1}}, s) == 0);            // req 105 > alloc 100
  CHECK(fit({{100, 100, 0, 1}}, s) == 0);            // exactly full
  CHECK(fit({{0, 0, 5, 7}, at(20)}, s) == 80);       // weight 7 of the alloc-0 resource not counted
  CHECK(fit({{0, 0, 5, 1}, {0, 3, 1, 1}}, s) == 0);  // all skipped
  CHECK(fit({at(10, 1), at(50, 3)}, s) == 60);       // (90 + 3 x 50) / 4
  CHECK(fit({at(10, 1), at(55, 2)}, s) == 60);       // (90 + 90) / 3
  CHECK(fit({at(10, 2), at(55, 1)}, s) == 75);       // (180 + 45) / 3
  CHECK(fit({at(10)}, s, 3) == 60);                  // the 4th instance: req 40
  // Exabyte nodes: (alloc - req) x 100 does not overflow.
  const std::int64_t big = 8'000'000'000'000'000'000;
  CHECK(fit({{big, big / 4, 0, 1}}, s) == 75);
}

TEST_CASE("score: most_allocated caps req at alloc") {
  const Scoring s = scoring_of(ScoringType::MostAllocated);
  CHECK(fit({{3, 0, 1, 1}}, s) == 33);
  CHECK(fit({{100, 95, 10, 1}}, s) == 100);
  CHECK(fit({{0, 0, 1, 1}, at(25)}, s) == 25);
  CHECK(fit({at(10, 1), at(40, 2)}, s) == 30);  // (10 + 80) / 3
  CHECK(fit({at(10)}, s, 4) == 50);
}

TEST_CASE("score: requested_to_capacity_ratio follows the shape x 10") {
  const Scoring rising = scoring_of(ScoringType::RequestedToCapacityRatio, kRising);
  CHECK(fit({at(25)}, rising) == 25);
  CHECK(fit({{100, 95, 10, 1}}, rising) == 100);  // req > alloc: u = 100
  CHECK(fit({{3, 0, 1, 1}}, rising) == 33);       // u = 100 / 3 = 33

  const Scoring falling = scoring_of(ScoringType::RequestedToCapacityRatio, {{0, 10}, {100, 0}});
  CHECK(fit({at(25)}, falling) == 75);
  CHECK(fit({at(100)}, falling) == 0);

  // A falling segment truncates toward zero: 100 + (-100 x 10) / 30 = 100 - 33 = 67
  // (flooring would give 66).
  const Scoring steep = scoring_of(ScoringType::RequestedToCapacityRatio, {{0, 10}, {30, 0}});
  CHECK(fit({at(10)}, steep) == 67);
  CHECK(fit({at(50)}, steep) == 0);  // past the last point: its score

  // Below the first point and above the last, their scores.
  const Scoring middle = scoring_of(ScoringType::RequestedToCapacityRatio, {{20, 5}, {80, 10}});
  CHECK(fit({at(10)}, middle) == 50);
  CHECK(fit({at(20)}, middle) == 50);
  CHECK(fit({at(90)}, middle) == 100);
  CHECK(fit({at(50)}, middle) == 75);  // 50 + 50 x 30 / 60
  const Scoring one = scoring_of(ScoringType::RequestedToCapacityRatio, {{50, 3}});
  CHECK(fit({at(10)}, one) == 30);
  CHECK(fit({at(90)}, one) == 30);

  // Several points: the first segment whose end is at or above u.
  const Scoring bent =
      scoring_of(ScoringType::RequestedToCapacityRatio, {{0, 0}, {50, 10}, {100, 2}});
  CHECK(fit({at(50)}, bent) == 100);
  CHECK(fit({at(75)}, bent) == 60);  // 100 + (-80) x 25 / 50
  CHECK(fit({at(51)}, bent) == 99);  // 100 + (-80) x 1 / 50 = 100 - 1.6 -> 100 - 1
}

TEST_CASE("score: requested_to_capacity_ratio rounds half away from zero over s > 0 only") {
  const Scoring rising = scoring_of(ScoringType::RequestedToCapacityRatio, kRising);
  CHECK(fit({at(25), at(26)}, rising) == 26);          // 25.5 -> 26 (truncation: 25)
  CHECK(fit({at(25), at(25), at(26)}, rising) == 25);  // 25.33 -> 25
  CHECK(fit({at(25), at(27), at(27)}, rising) == 26);  // 26.33 -> 26
  CHECK(fit({at(1, 1), at(2, 2)}, rising) == 2);       // 5 / 3 = 1.67 -> 2
  CHECK(fit({at(0), at(50)}, rising) == 50);           // s = 0 left out: not 25
  CHECK(fit({at(0, 5), at(3, 1)}, rising) == 3);
  CHECK(fit({at(0), at(0)}, rising) == 0);  // none above 0
  // A resource scoring 0 from the shape (not from its use) is left out too.
  const Scoring zero_low =
      scoring_of(ScoringType::RequestedToCapacityRatio, {{0, 0}, {10, 0}, {100, 9}});
  CHECK(fit({at(5), at(100)}, zero_low) == 90);
}

TEST_CASE("score: balanced with 1, 2 and 3+ resources, in IEEE double as written") {
  CHECK(balanced({}) == 0);          // asks for nothing scored: not computed (Kubernetes' skip)
  CHECK(balanced({at(30)}) == 100);  // one resource: std 0
  CHECK(balanced({{0, 0, 1, 1}, at(30)}) == 100);     // alloc 0 skipped: one left
  CHECK(balanced({at(50), at(25)}) == 87);            // |0.5 - 0.25| / 2 = 0.125 -> 87.5 -> 87
  CHECK(balanced({at(50), {100, 95, 10, 1}}) == 75);  // f capped at 1: |0.5 - 1| / 2
  CHECK(balanced({at(20), at(40), at(90)}) == 70);    // std 0.2944 -> 70.56 -> 70
  CHECK(balanced({at(10), at(10), at(10), at(10)}) == 100);
  CHECK(balanced({at(10, 1), at(30, 100)}) == 90);  // weights ignored
  CHECK(balanced({at(10), at(20)}, 1) == 90);       // k = 1: 0.2 and 0.4
  // 0.3 and 0.1 in double: (1 - 0.1) x 100 = 90.00000000000001 or 89.999...:
  // whatever IEEE gives, the SPEC's expression, literally.
  const double f1 = 30.0 / 100.0, f2 = 10.0 / 100.0;
  CHECK(balanced({at(30), at(10)}) ==
        static_cast<std::int64_t>((1 - std::fabs((f1 - f2) / 2)) * 100));
}

TEST_CASE("score: total weighs fit and balanced; balanced still shown at weight 0") {
  Scoring s;
  s.fit_weight = 3;
  s.balanced_weight = 0;
  const NodeScore sc = score_node(std::vector<ScoredResource>{at(50), at(25)}, s, 0);
  CHECK(sc.fit == 62);  // (50 + 75) / 2
  CHECK(sc.balanced == 87);
  CHECK(sc.total == 186);
  s.fit_weight = 0;
  s.balanced_weight = 2;
  CHECK(score_node(std::vector<ScoredResource>{at(50), at(25)}, s, 0).total == 174);
}

TEST_CASE("score: a node's resources: cpu in nanocores of its CPU, extended by name, missing = 0") {
  const Inventory inv = load_nodes(R"(
nodes:
  - {name: g, cpu: 15890m, memory: 8Gi, storage: 10Gi, extended: {nvidia.com/gpu: 8}, usage: {cpu: 2, memory: 1Gi, extended: {nvidia.com/gpu: 3}}}
)");
  Request req = load_req(R"(
app: a
count: 1
strategy: score
resources: {cpu: 500m, memory: 1Gi, extended: {nvidia.com/gpu: 2}}
scoring:
  resources: [{name: cpu, weight: 2}, {name: memory}, {name: storage}, {name: nvidia.com/gpu}, {name: example.com/fpga}]
)");
  const std::vector<ScoredResource> rs = scored_resources(inv.nodes[0], req);
  REQUIRE(rs.size() == 5);
  CHECK(rs[0].alloc == 15'890'000'000);
  CHECK(rs[0].used == 2'000'000'000);
  CHECK(rs[0].per_instance == 500'000'000);
  CHECK(rs[0].weight == 2);
  CHECK(rs[1].alloc == 8 * Gi);
  CHECK(rs[1].per_instance == Gi);
  CHECK(rs[2].alloc == 10 * Gi);
  CHECK(rs[2].per_instance == 0);  // not requested: adds 0
  CHECK(rs[3].alloc == 8);
  CHECK(rs[3].used == 3);
  CHECK(rs[3].per_instance == 2);
  CHECK(rs[4].alloc == 0);  // the node lacks it: skipped
}

// ---- the worked example and the pick ---------------------------------------

TEST_CASE("score: SPEC §9 worked example: {n1: 3, n2: 2}, first scores 150 and 112") {
  const Inventory inv = load_nodes(kWorkedNodes);
  const Request req = load_req(kWorkedRequest);
  Run r = run_score(inv, req);
  REQUIRE(r.infos.size() == 2);
  CHECK(r.infos[0].capacity == 3);
  CHECK(r.infos[1].capacity == 2);
  REQUIRE(r.result.outcome == StrategyOutcome::Deployed);
  CHECK(r.result.deploy == InfoDeployMap{3, 2});
  REQUIRE(r.result.scores.size() == 2);
  CHECK(r.result.scores[0].fit == 50);
  CHECK(r.result.scores[0].balanced == 100);
  CHECK(r.result.scores[0].total == 150);
  CHECK(r.result.scores[1].fit == 37);
  CHECK(r.result.scores[1].balanced == 75);
  CHECK(r.result.scores[1].total == 112);
  // The totals per step of the SPEC: 150/112, 125/112, 100/112, 100/100, -/100.
  const auto n1 = scored_resources(inv.nodes[0], req), n2 = scored_resources(inv.nodes[1], req);
  CHECK(score_node(n1, req.scoring, 1).total == 125);
  CHECK(score_node(n1, req.scoring, 2).total == 100);
  CHECK(score_node(n2, req.scoring, 1).total == 100);
}

TEST_CASE(
    "score: through plan_requests, scores land on the capacity nodes; count 6 is Kubernetes' "
    "line") {
  Inventory state = load_nodes(kWorkedNodes);
  Request req = load_req(kWorkedRequest);
  std::vector<RequestOutcome> out = plan_requests(state, {req}, PlanOptions{});
  REQUIRE(out.size() == 1);
  CHECK(out[0].status == RequestStatus::Placed);
  CHECK(out[0].deploy == DeployMap{3, 2});
  REQUIRE(out[0].scores.size() == 2);
  CHECK(out[0].scores[1].total == 112);
  CHECK(state.nodes[0].cpu_used == 4'000'000'000);  // reserved: 1 + 3 cores

  Inventory again = load_nodes(kWorkedNodes);
  req.count = 6;
  out = plan_requests(again, {req}, PlanOptions{});
  CHECK(out[0].status == RequestStatus::Rejected);
  // n1 is out of cpu and memory after 3, n2 out of cpu after 2.
  CHECK(out[0].reason.full() ==
        "0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu.");
  CHECK(out[0].scores.size() == 2);
}

TEST_CASE("score: min_count places what fits and ends partial") {
  Inventory state = load_nodes(kWorkedNodes);
  Request req = load_req(kWorkedRequest);
  req.count = 9;
  req.min_count = 4;
  std::vector<RequestOutcome> out = plan_requests(state, {req}, PlanOptions{});
  CHECK(out[0].status == RequestStatus::Partial);
  CHECK(out[0].placed == 5);
  CHECK(out[0].deploy == DeployMap{3, 2});
  req.min_count = 6;
  Inventory fresh = load_nodes(kWorkedNodes);
  out = plan_requests(fresh, {req}, PlanOptions{});
  CHECK(out[0].status == RequestStatus::Rejected);
  CHECK(out[0].placed_at_most == 5);
}

TEST_CASE("score: ties go by name; a node whose score never changes takes all at once") {
  const Inventory inv = load_nodes(R"(
nodes:
  - {name: b, cpu: 4, memory: 4Gi}
  - {name: a, cpu: 4, memory: 4Gi}
  - {name: c, cpu: 4, memory: 4Gi}
)");
  Request req = load_req("app: x\ncount: 3\nstrategy: score\nresources: {memory: 1Gi}\n");
  Run r = run_score(inv, req);
  // a, then b (a's score fell), then c, by name among equals.
  CHECK(r.result.deploy == InfoDeployMap{1, 1, 1});
  // Scored on storage only, which nobody asks for: every score stays 100 + 100,
  // and a takes its whole capacity before b gets one.
  req.scoring.resources = {{"storage", 1}};
  req.count = 6;
  r = run_score(inv, req);
  CHECK(r.result.deploy == InfoDeployMap{4, 2, 0});
  // An unlimited node (nothing requested) takes an enormous count in one step.
  Request nothing = load_req("app: x\ncount: 1000000000000\nstrategy: score\n");
  r = run_score(inv, nothing);
  CHECK(r.result.outcome == StrategyOutcome::Deployed);
  CHECK(r.result.deploy == InfoDeployMap{1'000'000'000'000, 0, 0});
}

TEST_CASE("score: Kubernetes' line counts zero-capacity nodes by kind, once per kind") {
  const Inventory inv = load_nodes(R"(
nodes:
  - {name: full, cpu: 2, memory: 1Gi, usage: {cpu: 2, memory: 1Gi}}
  - {name: off, available: false, cpu: 8, memory: 8Gi}
  - {name: tainted, cpu: 8, memory: 8Gi, taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}
  - {name: pods, cpu: 8, memory: 8Gi, max_instances: 1, instances: {other: 1}}
  - {name: gpu, cpu: 8, memory: 8Gi, extended: {nvidia.com/gpu: 1}}
  - {name: room, cpu: 8, memory: 8Gi}
  - {name: skipped, cpu: 8, memory: 8Gi, labels: {pool: b}}
)");
  Request req = load_req(R"(
app: x
count: 10
strategy: score
resources: {cpu: 1, memory: 1Gi, extended: {nvidia.com/gpu: 1}}
node_filter: {exclude: [skipped]}
)");
  Run r = run_score(inv, req);
  CHECK(r.result.outcome == StrategyOutcome::Infeasible);
  // full: cpu, memory and gpu; off: unschedulable only; tainted: taint and
  // gpu; pods: too many pods and gpu; gpu, after its one instance: gpu; room:
  // gpu. Parts sorted as strings (upper case first).
  CHECK(r.result.message.full() ==
        "0/6 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 Too many pods, "
        "1 node(s) had untolerated taint, 1 node(s) were unschedulable, 5 Insufficient "
        "nvidia.com/gpu.");
  CHECK(unavailable_summary(0, {}) == "0/0 nodes are available.");
}

TEST_CASE("score: with cpu_bind the line is read after reserving the node's plans") {
  const Inventory inv = load_nodes(R"(
nodes:
  - {name: a, cpu: 2, memory: 8Gi}
  - {name: b, cpu: 8, memory: 2Gi}
)");
  Request req = load_req(
      "app: x\ncount: 9\nstrategy: score\nresources: {cpu: 1, cpu_bind: true, memory: 1Gi}\n");
  Run r = run_score(inv, req);
  CHECK(r.map.total == 4);
  CHECK(r.result.outcome == StrategyOutcome::Infeasible);
  // a ran out of cores after 2, b out of memory after 2 (its plans are memory-capped).
  CHECK(r.result.message.full() ==
        "0/2 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.");
}

TEST_CASE("score: count <= 0, and no node left by the filter") {
  const Inventory inv = load_nodes(kWorkedNodes);
  Request req = load_req(kWorkedRequest);
  req.count = 0;
  Run r = run_score(inv, req);
  CHECK(r.result.outcome == StrategyOutcome::Infeasible);
  CHECK(r.result.message.full() == "score: count must be > 0, got 0");
  req.count = 3;
  req.filter.exclude = {"n1", "n2"};
  r = run_score(inv, req);
  CHECK(r.result.outcome == StrategyOutcome::Infeasible);
  CHECK(r.result.message.full() == "0/0 nodes are available.");
  CHECK(r.result.deploy.empty());
}

// ---- the loader -------------------------------------------------------------

TEST_CASE("score: scoring is checked: unique names, weights, shape, --scoring") {
  Diagnostics d1;
  load_req(
      "app: a\ncount: 1\nstrategy: score\nscoring: {resources: [{name: cpu}, {name: cpu, weight: "
      "2}]}\n",
      d1);
  CHECK(d1.has_errors());
  CHECK(d1.to_string().find("scoring.resources[1].name") != std::string::npos);
  CHECK(d1.to_string().find("listed twice") != std::string::npos);

  Diagnostics d2;
  load_req("app: a\ncount: 1\nscoring: {type: requested_to_capacity_ratio}\n", d2);
  CHECK(d2.to_string().find("needs scoring.shape") != std::string::npos);

  Diagnostics d3;
  RequestOverrides o;
  o.set("--scoring", "requested_to_capacity_ratio");
  load_req("app: a\ncount: 1\nstrategy: score\n", d3, o);
  CHECK(d3.to_string().find("--scoring") != std::string::npos);

  // --scoring replaces a bad type in the file; a shape makes it valid.
  Diagnostics d4;
  Request r = load_req(
      "app: a\ncount: 1\nstrategy: score\nscoring: {type: bogus, shape: [{utilization: 0, score: "
      "0}, {utilization: 100, score: 10}]}\n",
      d4, o);
  INFO(d4.to_string());
  CHECK_FALSE(d4.has_errors());
  CHECK(r.scoring.type == ScoringType::RequestedToCapacityRatio);
  REQUIRE(r.scoring.shape.size() == 2);
  CHECK(r.scoring.shape[1].score == 10);

  Diagnostics d5;
  load_req(
      "app: a\ncount: 1\nscoring: {type: most_allocated, fit_weight: 101, balanced_weight: -1, "
      "resources: [{name: memory, weight: 0}], shape: [{utilization: 50, score: 5}, "
      "{utilization: 50, score: 11}]}\n",
      d5);
  const std::string m = d5.to_string();
  CHECK(m.find("scoring.fit_weight") != std::string::npos);
  CHECK(m.find("scoring.balanced_weight") != std::string::npos);
  CHECK(m.find("scoring.resources[0].weight") != std::string::npos);
  CHECK(m.find("scoring.shape[1].score") != std::string::npos);

  Diagnostics d7;
  load_req("app: a\ncount: 1\nscoring: {resources: []}\n", d7);
  CHECK(d7.to_string().find("request.yaml:3:22: error: scoring.resources: the list is empty") !=
        std::string::npos);

  Diagnostics d6;
  o.set("--scoring", "sideways");
  load_req("app: a\ncount: 1\n", d6, o);
  CHECK(d6.to_string().find("unknown scoring type \"sideways\"") != std::string::npos);
}

// ---- the heap against the one-at-a-time oracle -------------------------------

namespace {

// SPEC §9 read literally: for every instance, score every node that can
// take one more, pick the highest total, the earliest name on ties.
std::vector<std::int64_t> oracle(const Inventory& inv, const Request& req,
                                 const std::vector<StrategyInfo>& infos, std::int64_t count,
                                 bool& feasible) {
  std::vector<std::int64_t> k(infos.size(), 0);
  for (std::int64_t placed = 0; placed < count; ++placed) {
    std::size_t best = infos.size();
    std::int64_t best_total = 0;
    for (std::size_t i = 0; i < infos.size(); ++i) {
      if (k[i] >= infos[i].capacity) continue;
      const std::int64_t t =
          score_node(scored_resources(inv.nodes[infos[i].node], req), req.scoring, k[i]).total;
      if (best == infos.size() || t > best_total) best = i, best_total = t;
    }
    if (best == infos.size()) {
      feasible = false;
      return std::vector<std::int64_t>(infos.size(), 0);
    }
    ++k[best];
  }
  feasible = true;
  return k;
}

Inventory random_inventory(std::mt19937_64& rng, std::size_t n) {
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  Inventory inv;
  for (std::size_t i = 0; i < n; ++i) {
    Node node;
    node.name = "n" + std::to_string(pick(0, 99));
    for (const Node& other : inv.nodes)
      if (other.name == node.name) node.name += "x" + std::to_string(i);
    const std::int64_t cores = pick(0, 16);
    node.plain_cores = cores;
    node.plain_core_pieces = 100;
    node.cpu_given = cores * kNanoPerCore + (pick(0, 3) == 0 ? pick(0, 999) * 1'000'000 : 0);
    node.cpu_used = pick(0, 2) == 0 ? 0 : pick(0, node.cpu_given + kNanoPerCore);
    node.memory = pick(0, 64) * Gi / 4;
    node.memory_used = node.memory > 0 ? pick(0, node.memory) : 0;
    if (pick(0, 1)) {
      node.storage = pick(1, 1000) * Gi;
      node.storage_used = pick(0, node.storage);
    }
    if (pick(0, 1)) node.extended.push_back({"gpu", pick(0, 8), 0});
    if (!node.extended.empty()) node.extended[0].used = pick(0, node.extended[0].total);
    if (pick(0, 4) == 0) node.max_instances = pick(0, 20);
    if (pick(0, 9) == 0) node.available = false;
    inv.nodes.push_back(std::move(node));
  }
  return inv;
}

Request random_request(std::mt19937_64& rng) {
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  Request req;
  req.app = "web";
  req.strategy = Strategy::Score;
  req.cpu = pick(0, 3) == 0 ? 0 : pick(1, 3000) * 1'000'000;
  req.memory = pick(0, 3) == 0 ? 0 : pick(1, 4096) * 1024 * 1024;
  if (pick(0, 2) == 0) req.storage = pick(1, 50) * Gi;
  if (pick(0, 2) == 0) req.extended.push_back({"gpu", pick(1, 2)});
  Scoring& s = req.scoring;
  s.type = static_cast<ScoringType>(pick(0, 2));
  static const char* kNames[] = {"cpu", "memory", "storage", "gpu", "fpga"};
  s.resources.clear();
  for (const char* name : kNames)
    if (pick(0, 2) > 0) s.resources.push_back({name, pick(1, 100)});
  std::int64_t u = -1;
  const std::int64_t points = pick(1, 5);
  for (std::int64_t p = 0; p < points && u < 100; ++p) {
    u = pick(u + 1, std::min<std::int64_t>(100, u + 50));
    s.shape.push_back({u, pick(0, 10)});
  }
  s.fit_weight = pick(0, 100);
  s.balanced_weight = pick(0, 100);
  return req;
}

}  // namespace

TEST_CASE("score: the heap agrees with the one-at-a-time oracle on random inputs") {
  std::mt19937_64 rng(20261122);
  int feasible_runs = 0, infeasible_runs = 0;
  for (int round = 0; round < 3000; ++round) {
    const Inventory inv = random_inventory(rng, 1 + rng() % 8);
    Request req = random_request(rng);
    const CapacityMap map = capacity_pass(inv, req);
    std::vector<std::size_t> where;
    const std::vector<StrategyInfo> infos = strategy_infos(inv, map, where);
    const std::int64_t room = map.total == kUnlimited ? 40 : std::min<std::int64_t>(map.total, 40);
    req.count = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(room + 3));
    const StrategyInput in{infos, req.count, map.total, 0, &inv, &req, 1, &map};
    const StrategyResult fast = score_strategy(in);
    bool feasible = false;
    const std::vector<std::int64_t> want = oracle(inv, req, infos, req.count, feasible);
    CAPTURE(round);
    REQUIRE((fast.outcome == StrategyOutcome::Deployed) == feasible);
    CHECK(fast.deploy == InfoDeployMap(want));
    REQUIRE(fast.scores.size() == infos.size());
    for (std::size_t i = 0; i < infos.size(); ++i) {
      const NodeScore first =
          score_node(scored_resources(inv.nodes[infos[i].node], req), req.scoring, 0);
      CHECK(fast.scores[i].total == first.total);
      CHECK(fast.scores[i].fit == first.fit);
      CHECK(fast.scores[i].balanced == first.balanced);
    }
    if (!feasible)
      CHECK(fast.message.full().rfind("0/" + std::to_string(map.nodes.size()) + " nodes", 0) == 0);
    (feasible ? feasible_runs : infeasible_runs) += 1;
  }
  CHECK(feasible_runs > 1000);
  CHECK(infeasible_runs > 100);
}

// Tiny requests against small nodes: thousands of instances, scores that
// change every few of them, and runs of equal scores that go at once
// (next_change); each run must still match the oracle instance for instance.
TEST_CASE("score: runs of equal scores agree with the one-at-a-time oracle on tiny requests") {
  std::mt19937_64 rng(20261125);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  std::int64_t placed = 0;
  for (int round = 0; round < 4000; ++round) {
    CAPTURE(round);
    Inventory inv;
    const std::int64_t n = pick(1, 5);
    for (std::int64_t i = 0; i < n; ++i) {
      Node node;
      node.name = "t" + std::to_string(i);
      node.plain_cores = 1;
      node.plain_core_pieces = 100;
      node.cpu_given = pick(0, 3) == 0 ? 0 : pick(1, 5000);
      node.cpu_used = pick(0, 1) ? 0 : pick(0, node.cpu_given);
      node.memory = pick(0, 4) == 0 ? 0 : pick(1, 20000);
      node.memory_used = pick(0, 1) ? 0 : pick(0, node.memory);
      if (pick(0, 2) == 0) node.extended.push_back({"gpu", pick(0, 300), 0});
      if (pick(0, 4) == 0) node.max_instances = pick(0, 500);
      if (pick(0, 4) == 0) {  // cpu and memory in proportion: equal fractions
        node.memory = node.cpu_given;
        node.memory_used = node.cpu_used;
      }
      inv.nodes.push_back(std::move(node));
    }
    Request req = random_request(rng);
    req.cpu = pick(0, 2) == 0 ? 0 : pick(1, 20);
    req.memory = pick(0, 2) == 0 ? 0 : pick(1, 40);
    if (pick(0, 3) == 0) req.memory = req.cpu;  // grows as cpu does
    req.storage = 0;
    if (!req.extended.empty()) req.extended[0].second = pick(1, 3);
    if (pick(0, 2) == 0) req.scoring.resources = {{"cpu", 1}, {"memory", 1}};  // two, one may grow
    if (req.cpu == 0 && req.memory == 0 && req.extended.empty()) req.memory = 1;
    const CapacityMap map = capacity_pass(inv, req);
    std::vector<std::size_t> where;
    const std::vector<StrategyInfo> infos = strategy_infos(inv, map, where);
    const std::int64_t room =
        map.total == kUnlimited ? 3000 : std::min<std::int64_t>(map.total, 3000);
    req.count = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(room + 3));
    const StrategyInput in{infos, req.count, map.total, 0, &inv, &req, 1, &map};
    const StrategyResult fast = score_strategy(in);
    bool feasible = false;
    const std::vector<std::int64_t> want = oracle(inv, req, infos, req.count, feasible);
    REQUIRE((fast.outcome == StrategyOutcome::Deployed) == feasible);
    CHECK(fast.deploy == InfoDeployMap(want));
    if (feasible) placed += req.count;
  }
  CHECK(placed > 800'000);
}

// A count the input names does not make the work: a billion instances of one
// byte over three nodes of several GiB, scored by the default profile.
TEST_CASE("score: a billion tiny instances are placed in runs, not one at a time") {
  Inventory inv;
  for (const char* name : {"a", "b", "c"}) {
    Node node;
    node.name = name;
    node.plain_cores = 2;
    node.plain_core_pieces = 100;
    node.cpu_given = 2 * kNanoPerCore;
    node.memory = 8 * Gi;
    inv.nodes.push_back(std::move(node));
  }
  inv.nodes[2].memory = 4 * Gi;
  Request req;
  req.app = "web";
  req.strategy = Strategy::Score;
  req.memory = 1;
  req.count = 1'000'000'000;
  const CapacityMap map = capacity_pass(inv, req);
  std::vector<std::size_t> where;
  const std::vector<StrategyInfo> infos = strategy_infos(inv, map, where);
  const StrategyInput in{infos, req.count, map.total, 0, &inv, &req, 1, &map};
  const auto start = std::chrono::steady_clock::now();
  const StrategyResult r = score_strategy(in);
  [[maybe_unused]] const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(r.outcome == StrategyOutcome::Deployed);
  CHECK(r.deploy[0] + r.deploy[1] + r.deploy[2] == 1'000'000'000);
#ifndef ERUPLAN_SANITIZED
  CHECK(seconds < 0.5);
#endif
}

TEST_CASE("score: --jobs never changes the result (map slots per node)") {
  std::mt19937_64 rng(7);
  const Inventory inv = random_inventory(rng, 3000);
  Request req = random_request(rng);
  req.scoring.type = ScoringType::LeastAllocated;
  req.memory = 256 * 1024 * 1024;
  req.count = 500;
  const Run one = run_score(inv, req, 1);
  for (unsigned jobs : {2u, 3u, 7u}) {
    const Run many = run_score(inv, req, jobs);
    CHECK(many.result.deploy == one.result.deploy);
    for (std::size_t i = 0; i < one.result.scores.size(); ++i)
      CHECK(many.result.scores[i].total == one.result.scores[i].total);
    CHECK(many.result.message == one.result.message);
  }
}

// ---- through the binary --------------------------------------------------------

namespace {

namespace fs = std::filesystem;

using eruplan_test::Ran;

fs::path work_dir() { return eruplan_test::scratch_dir("score_test"); }

Ran run_binary(const std::string& args) { return eruplan_test::run_eruplan(work_dir(), args); }

void write(const std::string& name, const std::string& text) {
  std::ofstream(work_dir() / name) << text;
}

}  // namespace

TEST_CASE("score cli: --jobs 1, 2 and 7 print the same bytes on random inventories") {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 3; ++round) {
    std::string nodes = "nodes:\n";
    for (int i = 0; i < 1500; ++i) {
      nodes += "  - {name: node" + std::to_string(i) + ", cpu: " + std::to_string(1 + rng() % 32) +
               ", memory: " + std::to_string(1 + rng() % 64) +
               "Gi, usage: {cpu: " + std::to_string(rng() % 2) +
               ", memory: " + std::to_string(rng() % 1024) +
               "Mi}, extended: {gpu: " + std::to_string(rng() % 4) + "}}\n";
    }
    write("nodes.yaml", nodes);
    static const char* kTypes[] = {"least_allocated", "most_allocated",
                                   "requested_to_capacity_ratio"};
    write("req.yaml", std::string("app: web\ncount: ") + std::to_string(500 + rng() % 3000) +
                          "\nstrategy: score\nresources: {cpu: 500m, memory: 512Mi}\n"
                          "scoring:\n  type: " +
                          kTypes[round] +
                          "\n  resources: [{name: cpu, weight: 3}, {name: memory}, {name: gpu}]\n"
                          "  shape: [{utilization: 0, score: 10}, {utilization: 70, score: 2}, "
                          "{utilization: 100, score: 6}]\n");
    const Ran one = run_binary("plan -n nodes.yaml -r req.yaml -o json --jobs 1");
    CAPTURE(one.err);
    REQUIRE(one.exit == 0);
    CHECK(one.out.find("\"scores\"") != std::string::npos);
    for (const char* jobs : {"2", "7"}) {
      const Ran many =
          run_binary(std::string("plan -n nodes.yaml -r req.yaml -o json --jobs ") + jobs);
      CHECK(many.exit == 0);
      CHECK(many.out == one.out);
    }
    const Ran table1 = run_binary("plan -n nodes.yaml -r req.yaml --jobs 1");
    const Ran table7 = run_binary("plan -n nodes.yaml -r req.yaml --jobs 7");
    CHECK(table1.out == table7.out);
    CHECK(table1.out.find("TOTAL") != std::string::npos);
  }
}

TEST_CASE("score cli: --scoring, a bad --scoring, and the infeasible lines") {
  using nlohmann::json;
  write("worked.yaml", kWorkedNodes);
  const std::string worked = "plan -n worked.yaml --app web --strategy score --cpu 1 --memory 2Gi ";
  Ran r = run_binary(worked + "--count 5 -o json");
  CAPTURE(r.err);
  REQUIRE(r.exit == 0);
  json doc = json::parse(r.out);
  CHECK(doc["deploy"] == json{{"n1", 3}, {"n2", 2}});
  CHECK(doc["scores"] == json{{"n1", {{"fit", 50}, {"balanced", 100}, {"total", 150}}},
                              {"n2", {{"fit", 37}, {"balanced", 75}, {"total", 112}}}});

  // most_allocated: n2 scores (87 + 37) / 2 = 62, + 75; n1 still 150 and leads.
  r = run_binary(worked + "--count 5 --scoring most_allocated -o json");
  REQUIRE(r.exit == 0);
  doc = json::parse(r.out);
  CHECK(doc["scores"]["n2"] == json{{"fit", 62}, {"balanced", 75}, {"total", 137}});
  CHECK(doc["request"]["scoring"] ==
        json{{"type", "most_allocated"},
             {"resources",
              json::array({{{"name", "cpu"}, {"weight", 1}}, {{"name", "memory"}, {"weight", 1}}})},
             {"fit_weight", 1},
             {"balanced_weight", 1}});
  CHECK(doc["deploy"] == json{{"n1", 3}, {"n2", 2}});

  r = run_binary(worked + "--count 5 --scoring fancy");
  CHECK(r.exit == 2);
  CHECK(r.err.find("--scoring") != std::string::npos);

  r = run_binary(worked + "--count 5 --scoring requested_to_capacity_ratio");
  CHECK(r.exit == 3);
  CHECK(r.err.find("needs scoring.shape") != std::string::npos);

  r = run_binary(worked + "--count 6");
  CHECK(r.exit == 4);
  CHECK(r.err.find("0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu.\n"
                   "need 6 new instances, the nodes can take 5") != std::string::npos);

  // The table: TOTAL for nodes with room, "-" for the others.
  write("three.yaml", std::string(kWorkedNodes) + "  - {name: n3, cpu: 0.5, memory: 16Gi}\n");
  r = run_binary("plan -n three.yaml --app web --strategy score --cpu 1 --memory 2Gi --count 5");
  CHECK(r.exit == 0);
  CHECK(r.out ==
        "app web, strategy score, count 5; per instance: cpu 1, memory 2Gi\n"
        "NODE   CAPACITY  EXISTING  NEW  TOTAL  REASON\n"
        "n1            3         0    3    150\n"
        "n2            2         0    2    112\n"
        "n3            0         0    0      -  cpu: 1 cores per instance, node has 0.5 cores\n"
        "total         5         0    5\n");
}
