// The strategy pass (SPEC §5): the worked examples of SPEC and the design
// notes with exact DeployMaps, ties, unlimited capacities, nodes_limit, every
// failure kind, and the fast strategies against the one-at-a-time reference
// (strategy_oracle.h) on thousands of small random inputs.
#include "strategy.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "capacity.h"
#include "strategy_oracle.h"

using namespace eruplan;

namespace {

constexpr std::int64_t U = kUnlimited;

// Strategy inputs that own their names (StrategyInfo holds a string_view).
struct Nodes {
  std::vector<std::string> names;
  std::vector<StrategyInfo> infos;

  // existing and capacity per node; names n1, n2, ... unless given.
  Nodes(std::vector<std::int64_t> existing, std::vector<std::int64_t> capacity,
        std::vector<std::string> given = {}) {
    names = given.empty() ? std::vector<std::string>{} : given;
    for (std::size_t i = names.size(); i < capacity.size(); ++i) {
      names.push_back("n" + std::to_string(i + 1));
    }
    infos.resize(capacity.size());
    for (std::size_t i = 0; i < capacity.size(); ++i) {
      infos[i].name = names[i];
      infos[i].existing = existing.empty() ? 0 : existing[i];
      infos[i].capacity = capacity[i];
    }
  }
  Nodes& usage(std::vector<double> usage, std::vector<double> rate = {}) {
    for (std::size_t i = 0; i < infos.size(); ++i) {
      infos[i].usage = usage[i];
      if (!rate.empty()) infos[i].rate = rate[i];
    }
    return *this;
  }
  std::int64_t total() const {
    std::int64_t sum = 0;
    for (const auto& info : infos) {
      if (info.capacity == U || sum > U - info.capacity) return U;
      sum += info.capacity;
    }
    return sum;
  }
  StrategyResult run(StrategyFn f, std::int64_t count, std::int64_t nodes_limit = 0) const {
    return f(infos, count, total(), nodes_limit);
  }
};

using Deploy = InfoDeployMap;

// Deploy vectors as text, so a failed check shows both sides.
template <class Counts>
std::string show(const Counts& deploy) {
  std::string out = "{";
  for (std::size_t i = 0; i < deploy.size(); ++i) {
    out += (i > 0 ? ", " : "") + std::to_string(deploy[i]);
  }
  return out + "}";
}

void check_deployed(const StrategyResult& r, const Deploy& expected) {
  INFO(r.message.full());
  CHECK(r.outcome == StrategyOutcome::Deployed);
  CHECK(show(r.deploy) == show(expected));
  CHECK(r.message.empty());
}

void check_fails(const StrategyResult& r, StrategyOutcome outcome, const std::string& message,
                 std::size_t n) {
  CHECK(r.outcome == outcome);
  CHECK(r.message.full() == message);
  CHECK(show(r.deploy) == show(Deploy(n)));
}

}  // namespace

TEST_CASE("strategy_function maps each strategy to its function") {
  CHECK((strategy_function(Strategy::Auto) == &auto_strategy));
  CHECK((strategy_function(Strategy::Fill) == &fill_strategy));
  CHECK((strategy_function(Strategy::Each) == &each_strategy));
  CHECK((strategy_function(Strategy::Global) == &global_strategy));
  CHECK((strategy_function(Strategy::Drained) == &drained_strategy));
}

TEST_CASE("strategy_node_names spells out the first names, then counts the rest") {
  Nodes nodes({}, {1, 1, 1, 1});
  std::vector<std::size_t> some{0, 2};
  CHECK(strategy_node_names(nodes.infos, some) == "n1, n3");
  std::vector<std::size_t> all{0, 1, 2, 3};
  CHECK(strategy_node_names(nodes.infos, all, 2) == "n1, n2 and 2 more");
  CHECK(strategy_node_names(nodes.infos, {}) == "");
  CHECK(strategy_count(1, "node") == "1 node");
  CHECK(strategy_count(0, "node") == "0 nodes");
  CHECK(strategy_count(12, "new instance") == "12 new instances");
}

TEST_CASE("every strategy fails on an empty node list and on count <= 0") {
  Nodes none({}, {});
  Nodes one({}, {5});
  for (Strategy s :
       {Strategy::Auto, Strategy::Fill, Strategy::Each, Strategy::Global, Strategy::Drained}) {
    std::string name(strategy_name(s));
    CAPTURE(name);
    check_fails(none.run(strategy_function(s), 3), StrategyOutcome::Infeasible,
                name + ": no node has room for a new instance", 0);
    check_fails(one.run(strategy_function(s), 0), StrategyOutcome::Infeasible,
                name + ": count must be > 0, got 0", 1);
  }
}

// ---- auto -----------------------------------------------------------------

TEST_CASE("auto: the SPEC and design-note examples") {
  // {n1:5, n2:4, n3:0}, count 3 -> {n3: 3}
  check_deployed(Nodes({5, 4, 0}, {10, 10, 10}).run(auto_strategy, 3), {0, 0, 3});
  // all empty, count 3 on three nodes -> one each
  check_deployed(Nodes({0, 0, 0}, {10, 10, 10}).run(auto_strategy, 3), {1, 1, 1});
}

TEST_CASE("auto: design note 001, existing A:3 B:1 C:5 D:4, capacities A:10 B:13 C:7 D:2") {
  Nodes nodes({3, 1, 5, 4}, {10, 13, 7, 2}, {"A", "B", "C", "D"});
  // 11 new: every node ends at 6 (D is full after its 2).
  check_deployed(nodes.run(auto_strategy, 11), {3, 5, 1, 2});
  // 4 new: B and A level up to 4; the note's second round.
  check_deployed(nodes.run(auto_strategy, 4), {1, 3, 0, 0});
  // 5 new: A, B and D tie at 4; B has the most capacity left (13-3=10 vs 9 vs 2).
  check_deployed(nodes.run(auto_strategy, 5), {1, 4, 0, 0});
  // 12 new: D is full at 6; A, B, C tie at 6 with 7, 8, 6 left: B.
  check_deployed(nodes.run(auto_strategy, 12), {3, 6, 1, 2});
  // 14 new: A, B, C all reach 7.
  check_deployed(nodes.run(auto_strategy, 14), {4, 6, 2, 2});
  // Everything: 32 = 10+13+7+2.
  check_deployed(nodes.run(auto_strategy, 32), {10, 13, 7, 2});
  check_fails(nodes.run(auto_strategy, 33), StrategyOutcome::Infeasible,
              "auto: need 33 new instances, the nodes can take 32 in total", 4);
}

TEST_CASE("auto: ties go to more remaining capacity, then to the name") {
  Nodes nodes({0, 0, 0}, {2, 5, 5});
  check_deployed(nodes.run(auto_strategy, 1), {0, 1, 0});
  check_deployed(nodes.run(auto_strategy, 2), {0, 1, 1});
  check_deployed(nodes.run(auto_strategy, 3), {1, 1, 1});
  // Level 1 for all, then n2 and n3 tie at 4 left: n2 by name.
  check_deployed(nodes.run(auto_strategy, 4), {1, 2, 1});
}

TEST_CASE("auto: the remaining capacity at the moment of the tie decides, not the initial one") {
  // n1 levels up to n2's 2 using 2 of its 4, leaving 2 < n2's 3: n2 wins the tie.
  check_deployed(Nodes({0, 2}, {4, 3}).run(auto_strategy, 3), {2, 1});
  // With 5, n1 has 3 left, equal to n2's 3: the name decides, n1.
  check_deployed(Nodes({0, 2}, {5, 3}).run(auto_strategy, 3), {3, 0});
}

TEST_CASE("auto: unlimited capacity counts as infinite remaining capacity") {
  check_deployed(Nodes({0, 0}, {100, U}).run(auto_strategy, 1), {0, 1});
  check_deployed(Nodes({0, 0}, {U, U}).run(auto_strategy, 3), {2, 1});
  // A huge count on an unlimited node: the cost does not grow with count.
  const std::int64_t huge = 1'000'000'000'000'000'000;
  check_deployed(Nodes({0, 0}, {U, 5}).run(auto_strategy, huge), {huge - 5, 5});
  check_deployed(Nodes({7, 0}, {U, U}).run(auto_strategy, huge),
                 {(huge - 7) / 2 + 1, (huge - 7) / 2 + 7});
}

TEST_CASE("auto: nodes_limit caps old+new instances on one node") {
  Nodes nodes({3, 1, 0}, {10, 10, 10});
  check_deployed(nodes.run(auto_strategy, 5, 3), {0, 2, 3});
  check_deployed(nodes.run(auto_strategy, 5, 0), {0, 2, 3});
  // Level 4 takes 8; the 9th goes to a node at 4 with the most capacity left: n1 (9).
  check_deployed(nodes.run(auto_strategy, 9, 0), {2, 3, 4});
  check_fails(nodes.run(auto_strategy, 6, 3), StrategyOutcome::Infeasible,
              "auto: with nodes_limit 3 (at most 3 old+new instances per node) the nodes can take "
              "5 new instances, 6 needed",
              3);
  // A node already above the limit takes nothing.
  check_deployed(Nodes({9, 0}, {10, 10}).run(auto_strategy, 2, 4), {0, 2});
  check_deployed(Nodes({0, 0}, {U, U}).run(auto_strategy, 8, 4), {4, 4});
}

TEST_CASE("auto: total < count fails before nodes_limit is looked at") {
  check_fails(Nodes({0, 0}, {3, 4}).run(auto_strategy, 10, 1), StrategyOutcome::Infeasible,
              "auto: need 10 new instances, the nodes can take 7 in total", 2);
}

// ---- fill -----------------------------------------------------------------

TEST_CASE("fill: design note 000 examples 1-5") {
  check_deployed(Nodes({0, 0, 0}, {5, 5, 5}).run(fill_strategy, 1, 3), {1, 1, 1});
  check_deployed(Nodes({1, 0, 0}, {5, 5, 5}).run(fill_strategy, 1, 3), {0, 1, 1});
  check_fails(Nodes({1, 1, 1}, {5, 5, 5}).run(fill_strategy, 1, 3),
              StrategyOutcome::AlreadySatisfied,
              "fill: already filled: n1, n2, n3 have >= 1 instance", 3);
  check_deployed(Nodes({2, 2, 0}, {5, 5, 5}).run(fill_strategy, 1, 3), {0, 0, 1});
  check_deployed(Nodes({1, 1, 1}, {5, 5, 5}).run(fill_strategy, 2, 2), {1, 1, 0});
}

TEST_CASE("fill: design note 001 examples (capacity:existing)") {
  std::vector<std::string> abcd{"A", "B", "C", "D"};
  // A:10:2 B:10:3 C:10:5 D:10:7 topped up to 10, then to 5.
  Nodes even({2, 3, 5, 7}, {10, 10, 10, 10}, abcd);
  check_deployed(even.run(fill_strategy, 10, 0), {8, 7, 5, 3});
  check_deployed(even.run(fill_strategy, 5, 0), {3, 2, 0, 0});
  // A:3:5 B:1:5 C:1:5 D:1:5 to 7: only A can reach 7, so nothing moves.
  check_fails(
      Nodes({5, 5, 5, 5}, {3, 1, 1, 1}, abcd).run(fill_strategy, 7, 0), StrategyOutcome::Infeasible,
      "fill: 1 node can reach 7 instances (A), 4 needed (nodes_limit 0 means every node)", 4);
  // A:10:2 B:5:3 C:7:4 D:9:5 to 4: A gets 2, B 1, C and D stay.
  check_deployed(Nodes({2, 3, 4, 5}, {10, 5, 7, 9}, abcd).run(fill_strategy, 4, 0), {2, 1, 0, 0});
}

TEST_CASE("fill: nodes are taken by existing, then capacity, then name") {
  // Most existing first: n1 (2) needs nothing, n3 (1) needs 1.
  check_deployed(Nodes({2, 0, 1}, {5, 5, 5}).run(fill_strategy, 2, 2), {0, 0, 1});
  // Equal existing: more capacity first.
  check_deployed(Nodes({0, 0, 0}, {1, 3, 2}).run(fill_strategy, 1, 2), {0, 1, 1});
  // Everything equal: by name.
  check_deployed(Nodes({0, 0, 0}, {4, 4, 4}).run(fill_strategy, 3, 2), {3, 3, 0});
  // Nodes that cannot reach count are skipped, not failed on.
  check_deployed(Nodes({3, 0, 0}, {1, 9, 2}).run(fill_strategy, 5, 1), {0, 5, 0});
}

TEST_CASE("fill: unlimited capacity always reaches count") {
  const std::int64_t huge = 4'000'000'000'000'000'000;
  check_deployed(Nodes({3, 0}, {U, 2}).run(fill_strategy, huge, 1), {huge - 3, 0});
}

TEST_CASE("fill: failures and already filled") {
  check_fails(Nodes({0, 0, 0}, {1, 1, 1}).run(fill_strategy, 2, 1), StrategyOutcome::Infeasible,
              "fill: 0 nodes can reach 2 instances, 1 needed", 3);
  check_fails(Nodes({0, 0}, {3, 3}).run(fill_strategy, 2, 3), StrategyOutcome::Infeasible,
              "fill: 2 nodes can reach 2 instances (n1, n2), 3 needed", 2);
  check_fails(Nodes({0, 0}, {3, 3}).run(fill_strategy, 1, 3), StrategyOutcome::Infeasible,
              "fill: 2 nodes can reach 1 instance (n1, n2), 3 needed", 2);
  // The taken nodes are already there, though another node is not: still satisfied.
  check_fails(Nodes({0, 4, 4}, {5, 5, 5}).run(fill_strategy, 3, 2),
              StrategyOutcome::AlreadySatisfied, "fill: already filled: n2, n3 have >= 3 instances",
              3);
  check_fails(Nodes({4}, {5}).run(fill_strategy, 3, 0), StrategyOutcome::AlreadySatisfied,
              "fill: already filled: n1 has >= 3 instances", 1);
}

// ---- each -----------------------------------------------------------------

TEST_CASE("each: design note 001, capacities A:5 B:3 C:7 D:4") {
  Nodes nodes({}, {5, 3, 7, 4}, {"A", "B", "C", "D"});
  check_deployed(nodes.run(each_strategy, 3), {3, 3, 3, 3});
  check_deployed(nodes.run(each_strategy, 5), {5, 0, 5, 0});
  // nodes_limit picks the largest capacities first.
  check_deployed(nodes.run(each_strategy, 3, 1), {0, 0, 3, 0});
  check_deployed(nodes.run(each_strategy, 3, 2), {3, 0, 3, 0});
  check_deployed(nodes.run(each_strategy, 3, 3), {3, 0, 3, 3});
  check_fails(nodes.run(each_strategy, 5, 3), StrategyOutcome::Infeasible,
              "each: 2 nodes can take 5 instances (A, C), nodes_limit asks for 3", 4);
  check_fails(nodes.run(each_strategy, 8), StrategyOutcome::Infeasible,
              "each: no node can take 8 instances (largest capacity: C with 7)", 4);
}

TEST_CASE("each: ties by name; unlimited is the largest capacity; existing does not matter") {
  check_deployed(Nodes({}, {4, 4, 4}).run(each_strategy, 2, 2), {2, 2, 0});
  check_deployed(Nodes({}, {9, U, 9}).run(each_strategy, 2, 2), {2, 2, 0});
  check_deployed(Nodes({7, 0, 0}, {3, 3, 1}).run(each_strategy, 3), {3, 3, 0});
  check_fails(Nodes({}, {2, 4, 4}).run(each_strategy, 5), StrategyOutcome::Infeasible,
              "each: no node can take 5 instances (largest capacity: n2 with 4)", 3);
  check_fails(Nodes({}, {2, 9}).run(each_strategy, 5, 2), StrategyOutcome::Infeasible,
              "each: 1 node can take 5 instances (n2), nodes_limit asks for 2", 2);
}

// ---- global ---------------------------------------------------------------

TEST_CASE("global: design note 000 example, by the rule") {
  // usage {1%, 2%, 3%}, rate {0.4%, 0.6%, 1%}, count 3. The keys of n1's new
  // instances are 1.4%, 1.8%, 2.2%, all below n2's first (2.6%): the rule puts
  // all three on n1 (the note's printed answer, n1:2 n2:1, does not follow it).
  Nodes nodes({}, {10, 10, 10});
  nodes.usage({0.01, 0.02, 0.03}, {0.004, 0.006, 0.01});
  check_deployed(nodes.run(global_strategy, 3), {3, 0, 0});
  // n1's 4th key (1% + 4 x 0.4%) and n2's 1st (2% + 0.6%) are the same double:
  // the name decides. n1's 5th (3%) then loses to n2's 2.6%.
  check_deployed(nodes.run(global_strategy, 4), {4, 0, 0});
  check_deployed(nodes.run(global_strategy, 5), {4, 1, 0});
  // With n1 capped at 1 the rest follows the keys: n2 2.6%, then n1 is full,
  // n2 3.2% < n3 4%.
  Nodes capped({}, {1, 10, 10});
  capped.usage({0.01, 0.02, 0.03}, {0.004, 0.006, 0.01});
  check_deployed(capped.run(global_strategy, 3), {1, 2, 0});
}

TEST_CASE("global_failure: global fails only when the nodes cannot take the count") {
  Nodes nodes({}, {3, 4, 5});
  nodes.usage({0.01, 0.02, 0.03}, {0.004, 0.006, 0.01});
  for (std::int64_t count = 1; count <= 12; ++count) {
    CAPTURE(count);
    CHECK_FALSE(global_failure(nodes.infos, count, nodes.total()));
    CHECK(nodes.run(global_strategy, count).outcome == StrategyOutcome::Deployed);
  }
  const auto failed = global_failure(nodes.infos, 13, nodes.total());
  REQUIRE(failed);
  CHECK(failed->outcome == StrategyOutcome::Infeasible);
  CHECK(failed->message.full() == nodes.run(global_strategy, 13, 0).message.full());
  CHECK(failed->message.full().find("need 13 new instances, the nodes can take 12 in total") !=
        std::string::npos);
  // A total below the nodes' sum (a quota) decides as well.
  CHECK(global_failure(nodes.infos, 10, 9));
  CHECK_FALSE(global_failure(nodes.infos, 9, 9));
}

TEST_CASE("global: equal keys go by name, also between a node's later and another's first") {
  Nodes nodes({}, {U, U});
  nodes.usage({0, 0.5}, {0.25, 0.25});
  // Keys n1: .25 .5 .75 1 ...; n2: .75 1 1.25 ...; at .75 n1 comes first.
  check_deployed(nodes.run(global_strategy, 3), {3, 0});
  check_deployed(nodes.run(global_strategy, 4), {3, 1});
  check_deployed(nodes.run(global_strategy, 1'000'000), {500'001, 499'999});
  Nodes same({}, {5, 5, 5});
  same.usage({0.5, 0.5, 0.5}, {0.125, 0.125, 0.125});
  check_deployed(same.run(global_strategy, 4), {2, 1, 1});
}

TEST_CASE("global: a rate of 0 keeps a node's key; capacity still bounds it") {
  Nodes nodes({}, {3, 10});
  nodes.usage({0.1, 0.2}, {0, 0.05});
  check_deployed(nodes.run(global_strategy, 5), {3, 2});
  Nodes zero({}, {3, 3});
  zero.usage({0.2, 0.2}, {0, 0});
  check_deployed(zero.run(global_strategy, 4), {3, 1});
}

TEST_CASE("global: rates that are not exact in binary agree with the reference") {
  Nodes nodes({}, {U, U, U});
  nodes.usage({0.1, 0.2, 0.3}, {0.1, 0.1, 0.1});
  for (std::int64_t count : {1, 2, 3, 7, 20, 101}) {
    auto expected = oracle::global_rule(nodes.infos, count, nodes.total(), 0);
    CAPTURE(count);
    check_deployed(nodes.run(global_strategy, count), Deploy(expected.deploy));
  }
}

TEST_CASE("global: total < count fails") {
  Nodes nodes({}, {2, 3});
  nodes.usage({0, 0}, {0.1, 0.1});
  check_fails(nodes.run(global_strategy, 6), StrategyOutcome::Infeasible,
              "global: need 6 new instances, the nodes can take 5 in total", 2);
}

TEST_CASE("global: NaN usage or rate neither crashes nor loses instances") {
  Nodes nodes({}, {2, 2});
  nodes.usage({std::numeric_limits<double>::quiet_NaN(), 0.5},
              {0.1, std::numeric_limits<double>::quiet_NaN()});
  // n1 counts as full (usage +inf), n2's rate as 0.
  check_deployed(nodes.run(global_strategy, 3), {1, 2});
}

// ---- drained --------------------------------------------------------------

TEST_CASE("drained: least capacity first, then the busier node, then the name") {
  Nodes nodes({}, {5, 3, 3});
  nodes.usage({0, 0.2, 0.5});
  check_deployed(nodes.run(drained_strategy, 4), {0, 1, 3});
  check_deployed(nodes.run(drained_strategy, 7), {1, 3, 3});
  check_deployed(nodes.run(drained_strategy, 11), {5, 3, 3});
  check_fails(nodes.run(drained_strategy, 12), StrategyOutcome::Infeasible,
              "drained: need 12 new instances, the nodes can take 11 in total", 3);
  Nodes tied({}, {3, 3});
  tied.usage({0.5, 0.5});
  check_deployed(tied.run(drained_strategy, 4), {3, 1});
}

TEST_CASE("drained: an unlimited node comes last and takes the rest") {
  check_deployed(Nodes({}, {U, 2}).run(drained_strategy, 5), {3, 2});
  const std::int64_t huge = 9'000'000'000'000'000'000;
  check_deployed(Nodes({}, {U, 2, U}).run(drained_strategy, huge), {huge - 2, 2, 0});
}

// ---- fast versus the reference --------------------------------------------

TEST_CASE("every strategy matches the one-at-a-time reference on random small inputs") {
  std::mt19937_64 rng(20240611);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  struct Pair {
    StrategyFn fast;
    oracle::Result (*rule)(std::span<const StrategyInfo>, std::int64_t, std::int64_t, std::int64_t);
    const char* name;
  };
  const Pair pairs[] = {{auto_strategy, oracle::auto_rule, "auto"},
                        {fill_strategy, oracle::fill_rule, "fill"},
                        {each_strategy, oracle::each_rule, "each"},
                        {global_strategy, oracle::global_rule, "global"},
                        {drained_strategy, oracle::drained_rule, "drained"}};
  const double odd_rates[] = {0.1, 0.3, 0.7, 1.0 / 3};
  int compared = 0, deployed = 0;
  for (int round = 0; round < 4000; ++round) {
    const auto n = static_cast<std::size_t>(pick(0, 8));
    std::vector<std::int64_t> existing(n), capacity(n);
    for (std::size_t i = 0; i < n; ++i) {
      existing[i] = pick(0, 6);
      capacity[i] = pick(0, 7) == 0 ? U : pick(1, 8);
    }
    Nodes nodes(existing, capacity);
    const bool odd = pick(0, 3) == 0;
    for (auto& info : nodes.infos) {
      info.usage = static_cast<double>(pick(0, 8)) / 8;
      info.rate = odd ? odd_rates[pick(0, 3)] : static_cast<double>(pick(0, 4)) / 8;
    }
    const std::int64_t count = pick(1, 24);
    const std::int64_t nodes_limit = pick(0, 2) == 0 ? 0 : pick(1, 9);
    for (const auto& p : pairs) {
      auto fast = p.fast(nodes.infos, count, nodes.total(), nodes_limit);
      auto rule = p.rule(nodes.infos, count, nodes.total(), nodes_limit);
      std::string name = p.name;
      CAPTURE(name);
      std::string inputs;
      for (const auto& info : nodes.infos) {
        inputs += " " + std::to_string(info.existing) + "/" +
                  (info.capacity == U ? std::string("U") : std::to_string(info.capacity)) + "/" +
                  std::to_string(info.usage) + "/" + std::to_string(info.rate);
      }
      CAPTURE(inputs);
      CAPTURE(round);
      CAPTURE(count);
      CAPTURE(nodes_limit);
      CHECK(fast.outcome == rule.outcome);
      CHECK(show(fast.deploy) == show(rule.deploy));
      CHECK(fast.message.empty() == (fast.outcome == StrategyOutcome::Deployed));
      ++compared;
      if (rule.outcome == StrategyOutcome::Deployed) ++deployed;
    }
  }
  CHECK(compared == 20000);
  CHECK(deployed > 8000);  // the inputs exercise the placements, not just failures
}

TEST_CASE("every strategy matches the reference on random inputs of hundreds of nodes") {
  // Large enough that drained orders its nodes in several growing chunks and
  // auto/global level over many distinct counts.
  std::mt19937_64 rng(7);
  auto pick = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  for (int round = 0; round < 60; ++round) {
    const auto n = static_cast<std::size_t>(pick(65, 700));
    std::vector<std::int64_t> existing(n), capacity(n);
    for (std::size_t i = 0; i < n; ++i) {
      existing[i] = pick(0, 12);
      capacity[i] = pick(0, 50) == 0 ? U : pick(1, 9);
    }
    Nodes nodes(existing, capacity);
    for (auto& info : nodes.infos) {
      info.usage = static_cast<double>(pick(0, 8)) / 8;
      info.rate = static_cast<double>(pick(1, 4)) / 16;
    }
    const std::int64_t count = pick(1, static_cast<std::int64_t>(n) * 6);
    CAPTURE(round);
    CAPTURE(n);
    CAPTURE(count);
    auto expect = [&](StrategyFn fast, auto rule) {
      auto f = fast(nodes.infos, count, nodes.total(), 0);
      auto r = rule(nodes.infos, count, nodes.total(), 0);
      CHECK(f.outcome == r.outcome);
      CHECK(show(f.deploy) == show(r.deploy));
    };
    expect(drained_strategy, oracle::drained_rule);
    expect(auto_strategy, oracle::auto_rule);
    expect(global_strategy, oracle::global_rule);
  }
}

TEST_CASE("global: keys equal in exact arithmetic tie, and the name decides") {
  // rate 1/6 three times and 1/4 twice both reach 0.5; in doubles 3 x (1/6
  // as computed through a weighted mean) is 0.4999999999999999.
  const double sixth = (0.5 / 3 * 100) / 100;
  CHECK(0.0 + 3.0 * sixth != 0.5);  // the rounding the grid absorbs
  CHECK(global_key(0, sixth, 3) == global_key(0, 0.25, 2));
  CHECK(global_key(0, 0.25, 2) == 0.5);
  CHECK(global_key(0.1, 0.1, 2) < global_key(0.1, 0.1, 3));

  Nodes sorted({0, 0}, {4, 6}, {"a", "z"});
  sorted.usage({0, 0}, {0.25, sixth});
  auto r = global_strategy(sorted.infos, 4, sorted.total(), 0);
  REQUIRE(r.outcome == StrategyOutcome::Deployed);
  CHECK(show(r.deploy) ==
        show(Deploy{2, 2}));  // a: 0.25, 0.5; z: 1/6, 1/3, then a wins 0.5 by name
}

// deciding_nodes (the several-requests fast path): the strategy run on the
// chosen nodes alone places exactly what it places seeing every node.
namespace {

void check_deciding(const Nodes& nodes, Strategy s, std::int64_t count, std::int64_t nodes_limit,
                    int& restricted) {
  const StrategyFn f = strategy_function(s);
  const std::int64_t total = nodes.total();
  const StrategyResult full = f(nodes.infos, count, total, nodes_limit);
  std::vector<std::size_t> chosen{99};
  if (!deciding_nodes(nodes.infos, s, count, total, nodes_limit, chosen)) {
    CHECK(chosen == std::vector<std::size_t>{99});  // untouched
    return;
  }
  ++restricted;
  REQUIRE(chosen.size() == static_cast<std::size_t>(count));
  CHECK(std::is_sorted(chosen.begin(), chosen.end()));
  std::vector<StrategyInfo> some;
  for (const std::size_t k : chosen) some.push_back(nodes.infos[k]);
  const StrategyResult part = f(some, count, total, nodes_limit);
  // Chosen only when the pass cannot fail.
  CHECK(full.outcome == StrategyOutcome::Deployed);
  CHECK(part.outcome == StrategyOutcome::Deployed);
  Deploy mapped(nodes.infos.size());
  for (std::size_t k = 0; k < chosen.size(); ++k) mapped[chosen[k]] = part.deploy[k];
  CHECK(show(mapped) == show(full.deploy));
}

}  // namespace

TEST_CASE("deciding_nodes: the strategy on the chosen nodes equals it on all (random oracle)") {
  std::mt19937_64 rng(20261123);
  int restricted = 0, tried = 0;
  for (int round = 0; round < 6000; ++round) {
    const std::size_t n = 1 + rng() % 60;
    std::vector<std::int64_t> existing(n), capacity(n);
    std::vector<double> usage(n), rate(n);
    for (std::size_t i = 0; i < n; ++i) {
      // Few distinct values, so ties (existing, capacity, keys) are common.
      existing[i] = static_cast<std::int64_t>(rng() % 4);
      capacity[i] = rng() % 13 == 0 ? U : static_cast<std::int64_t>(1 + rng() % 5);
      usage[i] = static_cast<double>(rng() % 5) / 8;
      rate[i] = rng() % 7 == 0 ? 0.0 : static_cast<double>(1 + rng() % 3) / 6;
      if (rng() % 50 == 0) usage[i] = std::nan("");
    }
    Nodes nodes(existing, capacity);
    nodes.usage(usage, rate);
    const std::int64_t count = 1 + static_cast<std::int64_t>(rng() % 30);
    const std::int64_t nodes_limit = rng() % 3 == 0 ? static_cast<std::int64_t>(rng() % 5) : 0;
    for (Strategy s : {Strategy::Auto, Strategy::Global, Strategy::Drained}) {
      CAPTURE(round);
      CAPTURE(strategy_name(s));
      check_deciding(nodes, s, count, s == Strategy::Auto ? nodes_limit : 0, restricted);
      ++tried;
    }
  }
  // The fast path must have been taken often enough to mean something.
  CHECK(restricted > tried / 4);
}

TEST_CASE("deciding_nodes: which nodes, and when it declines") {
  // auto: fewest existing first, then more capacity, then name.
  Nodes a({2, 0, 0, 1, 0, 3}, {5, 3, U, 9, 3, 1});
  std::vector<std::size_t> chosen;
  REQUIRE(deciding_nodes(a.infos, Strategy::Auto, 3, a.total(), 0, chosen));
  CHECK(chosen == std::vector<std::size_t>{1, 2, 4});
  // nodes_limit 1 leaves room on three nodes only: n2, n3 (unlimited) and n5.
  REQUIRE(deciding_nodes(a.infos, Strategy::Auto, 2, a.total(), 1, chosen));
  CHECK(chosen == std::vector<std::size_t>{1, 2});
  REQUIRE(deciding_nodes(a.infos, Strategy::Auto, 3, a.total(), 1, chosen));
  CHECK(chosen == std::vector<std::size_t>{1, 2, 4});
  // Room left on 2 of 10 nodes, 3 wanted: declined (the pass fails).
  Nodes b({0, 1, 1, 1, 0, 1, 1, 1, 1, 1}, {5, 5, 5, 5, 5, 5, 5, 5, 5, 5});
  chosen = {7};
  CHECK_FALSE(deciding_nodes(b.infos, Strategy::Auto, 3, b.total(), 1, chosen));
  CHECK(chosen == std::vector<std::size_t>{7});
  CHECK(b.run(auto_strategy, 3, 1).outcome == StrategyOutcome::Infeasible);
  // More than half the nodes, total below count, fill/each/score: declined.
  CHECK_FALSE(deciding_nodes(a.infos, Strategy::Auto, 4, a.total(), 0, chosen));
  CHECK_FALSE(deciding_nodes(a.infos, Strategy::Auto, 2, 1, 0, chosen));
  for (Strategy s : {Strategy::Fill, Strategy::Each, Strategy::Score})
    CHECK_FALSE(deciding_nodes(a.infos, s, 1, a.total(), 0, chosen));

  // global: usage + rate, then name; NaN usage counts as full.
  Nodes g({}, {4, 4, 4, 4, 4, 4});
  g.usage({0.5, 0.25, std::nan(""), 0.25, 0.0, 0.5}, {0.25, 0.5, 0.1, 0.25, 0.75, 0.0});
  // first keys: 0.75, 0.75, inf, 0.5, 0.75, 0.5
  REQUIRE(deciding_nodes(g.infos, Strategy::Global, 3, g.total(), 0, chosen));
  CHECK(chosen == std::vector<std::size_t>{0, 3, 5});

  // drained: least capacity, then more usage, then name.
  Nodes d({}, {3, 1, 1, U, 2, 1, 7});
  d.usage({0, 0.2, 0.6, 0, 0.9, 0.6, 0});
  REQUIRE(deciding_nodes(d.infos, Strategy::Drained, 3, d.total(), 0, chosen));
  CHECK(chosen == std::vector<std::size_t>{1, 2, 5});
  REQUIRE(deciding_nodes(d.infos, Strategy::Drained, 2, d.total(), 0, chosen));
  CHECK(chosen == std::vector<std::size_t>{2, 5});
}
