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

TEST_CASE("placed replicas: groups passed over whole, scoring extras summed per node and cut") {
  PlacedReplicas placed;
  placed.open(PlacedPods{pod_named("a").pod, 100, 0});
  placed.add(1, 2);
  placed.add(3, 1);
  placed.mark();
  placed.open(PlacedPods{pod_named("b").pod, 0, 7});
  placed.add(1, 1);
  // The open group counts as well.
  std::vector<std::pair<std::string, std::size_t>> groups;
  placed.each_group(
      [&](const PlacedPods& p, std::size_t nodes) { groups.emplace_back(p.pod->name, nodes); });
  CHECK(groups == std::vector<std::pair<std::string, std::size_t>>{{"a", 2}, {"b", 1}});
  std::vector<Triple> kept;
  placed.each_kept([](const PlacedPods& p) { return p.pod->name == "b"; },
                   [&](const PlacedPods& p, std::uint32_t node, std::int64_t copies) {
                     kept.emplace_back(p.pod->name, node, copies);
                   });
  CHECK(kept == std::vector<Triple>{{"b", 1, 1}});
  CHECK(placed.nonzero_cpu_extra(1) == 200);
  CHECK(placed.nonzero_memory_extra(1) == 7);
  CHECK(placed.nonzero_cpu_extra(3) == 100);
  CHECK(placed.nonzero_cpu_extra(9) == 0);
  // Cut: the open group, then a closed one, take their extras with them.
  placed.cut(1);
  CHECK(placed.nonzero_memory_extra(1) == 0);
  CHECK(placed.nonzero_cpu_extra(1) == 200);
  placed.cut(0);
  CHECK(placed.nonzero_cpu_extra(1) == 0);
  CHECK(placed.nonzero_cpu_extra(3) == 0);
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
