// The replicas a run has placed (PlacedReplicas) and the sections a plan
// holds out of file order (HeldSections): what they hand back is what was
// put in, however compact the form they keep it in.
#include "placed.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "held_sections.h"

namespace eruplan {
namespace {

using Triple = std::tuple<std::string, std::uint32_t, std::int64_t>;

PlacedPods pod_named(const std::string& name) {
  auto pod = std::make_shared<PodScheduling>();
  pod->name = name;
  return PlacedPods{pod, 0, 0};
}

std::vector<Triple> all(const PlacedReplicas& placed) {
  std::vector<Triple> out;
  placed.each([&](const PlacedPods& p, std::uint32_t node, std::int64_t copies) {
    out.emplace_back(p.pod->name, node, copies);
  });
  return out;
}

std::vector<std::pair<std::string, std::int64_t>> on(const PlacedReplicas& placed,
                                                     std::uint32_t node) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  placed.each_on(node, [&](const PlacedPods& p, std::int64_t copies) {
    out.emplace_back(p.pod->name, copies);
    return false;
  });
  return out;
}

TEST_CASE("placed replicas: a group per request, a node's copies added up, undone by marks") {
  PlacedReplicas placed;
  CHECK(placed.mark() == 0);
  placed.open(pod_named("a"));
  placed.add(7, 1);
  placed.add(2, 3);
  placed.add(7, 2);
  // Open: in the order placed, a node once.
  CHECK(all(placed) == std::vector<Triple>{{"a", 7, 3}, {"a", 2, 3}});
  CHECK(placed.entries() == 2);
  CHECK(on(placed, 7) == std::vector<std::pair<std::string, std::int64_t>>{{"a", 3}});
  // Closed: by node index, copies all alike.
  CHECK(placed.mark() == 1);
  CHECK(all(placed) == std::vector<Triple>{{"a", 2, 3}, {"a", 7, 3}});
  placed.open(pod_named("b"));
  placed.add(2, 300);
  placed.add(0, 1);
  CHECK(placed.entries() == 4);
  CHECK(placed.mark() == 2);
  CHECK(all(placed) == std::vector<Triple>{{"a", 2, 3}, {"a", 7, 3}, {"b", 0, 1}, {"b", 2, 300}});
  CHECK(on(placed, 2) == std::vector<std::pair<std::string, std::int64_t>>{{"a", 3}, {"b", 300}});
  CHECK(on(placed, 5).empty());
  // An undo of the open group, then of a closed one.
  placed.open(pod_named("c"));
  placed.add(5, 1);
  placed.cut(2);
  CHECK(placed.entries() == 4);
  CHECK(on(placed, 5).empty());
  placed.cut(1);
  CHECK(all(placed) == std::vector<Triple>{{"a", 2, 3}, {"a", 7, 3}});
  CHECK(placed.entries() == 2);
  // each_on stops at the first that says so.
  int calls = 0;
  CHECK(placed.each_on(2, [&](const PlacedPods&, std::int64_t) { return ++calls == 1; }));
  CHECK(calls == 1);
}

TEST_CASE("placed replicas: a group on most of 3,000 nodes as a bitmap, copies of any size") {
  PlacedReplicas placed;
  placed.open(pod_named("d"));
  std::vector<Triple> want;
  for (std::uint32_t n = 2999; n > 0; --n)
    if (n % 7 != 0) placed.add(n, n % 5 == 0 ? std::int64_t{5'000'000'000} : n % 300);
  for (std::uint32_t n = 1; n < 3000; ++n)
    if (n % 7 != 0) want.emplace_back("d", n, n % 5 == 0 ? std::int64_t{5'000'000'000} : n % 300);
  placed.mark();
  CHECK(all(placed) == want);
  CHECK(on(placed, 14).empty());
  CHECK(on(placed, 15) == std::vector<std::pair<std::string, std::int64_t>>{{"d", 5'000'000'000}});
  CHECK(on(placed, 2998) == std::vector<std::pair<std::string, std::int64_t>>{{"d", 298}});
}

TEST_CASE("held sections: handed back as held, from a temporary file or from memory") {
  for (const bool spill : {true, false}) {
    HeldSections held(4, spill);
    held.hold(3, "three\n");
    held.hold(1, std::string(100000, 'x'));
    CHECK(held.held(1));
    CHECK_FALSE(held.held(0));
    std::string out = "zero\n";
    held.take(3, out);
    held.take(1, out);
    CHECK(out == "zero\nthree\n" + std::string(100000, 'x'));
    CHECK_FALSE(held.held(1));
    CHECK_FALSE(held.lost());
  }
}

}  // namespace
}  // namespace eruplan
