// eruplan share's progressive filling (SPEC §10), timed as apps and nodes
// grow: every app placed until all are frozen. Run by hand in a Release build
// (-DERUPLAN_BENCH=ON): build-release/bench/eruplan_share_bench [apps nodes placement [0 | 1 |
// distinct]]
//   (0: no frozen_by, 1: with it, distinct: every app its own shape)
//
// Nodes: 32 cores, 128Gi. App i asks for cpu 0.1 x (1 + i mod 5) cores and
// memory 512Mi x (1 + i mod 4), so cpu and memory both end up dominant for
// some apps; at 100 apps x 10,000 nodes that is about 1,000,000 instances.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "share.h"

using namespace eruplan;

namespace {

Inventory make_nodes(std::int64_t count) {
  Inventory inv;
  inv.nodes.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    Node n;
    char name[32];
    std::snprintf(name, sizeof name, "node%06lld", static_cast<long long>(i));
    n.name = name;
    n.plain_cores = 32;
    n.plain_core_pieces = 100;
    n.cpu_given = 32 * kNanoPerCore;
    n.memory = std::int64_t{128} << 30;
    inv.nodes.push_back(std::move(n));
  }
  return inv;
}

// distinct: every app its own shape (memory 512Mi + i Mi), the worst case
// for the per-shape score indexes (every placement rescores the node once per shape).
ShareSpec make_apps(std::int64_t count, SharePlacement placement, bool distinct) {
  ShareSpec spec;
  spec.placement = placement;
  for (std::int64_t i = 0; i < count; ++i) {
    ShareApp a;
    a.name = "app" + std::to_string(i);
    a.weight = {static_cast<std::uint64_t>(1 + i % 3), 1};
    a.request.app = a.request.name = a.name;
    a.request.cpu = a.request.cpu_limit = (1 + i % 5) * kNanoPerCore / 10;
    a.request.memory = a.request.memory_limit =
        (1 + i % 4) * (std::int64_t{512} << 20) + (distinct ? i * (std::int64_t{1} << 20) : 0);
    a.request.cpu_fit = true;
    spec.apps.push_back(std::move(a));
  }
  return spec;
}

void run(std::int64_t apps, std::int64_t nodes, SharePlacement placement, bool explain,
         bool distinct = false) {
  Inventory inv = make_nodes(nodes);
  const ShareSpec spec = make_apps(apps, placement, distinct);
  ShareOptions options;
  options.explain_frozen = explain;
  // CPU time as well as wall time: the machine may be shared.
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  const ShareResult r = share(inv, spec, options);
  const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "%-16s apps %4lld  nodes %6lld  instances %8lld  cpu %7.3f s (wall %7.3f s)  %6.0f "
      "ns/step%s\n",
      std::string(placement_name(placement)).c_str(), static_cast<long long>(apps),
      static_cast<long long>(nodes), static_cast<long long>(r.steps), cpu, s,
      r.steps > 0 ? cpu * 1e9 / static_cast<double>(r.steps) : 0.0,
      explain    ? "  (with frozen_by)"
      : distinct ? "  (every app its own shape)"
                 : "");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4) {
    const std::string p = argv[3];
    const bool explain = argc < 5 || std::string(argv[4]) == "1";
    const bool distinct = argc >= 5 && std::string(argv[4]) == "distinct";
    run(std::atoll(argv[1]), std::atoll(argv[2]),
        p == "first_fit"        ? SharePlacement::FirstFit
        : p == "most_allocated" ? SharePlacement::MostAllocated
                                : SharePlacement::LeastAllocated,
        explain, distinct);
    return 0;
  }
  for (const SharePlacement p :
       {SharePlacement::FirstFit, SharePlacement::LeastAllocated, SharePlacement::MostAllocated})
    for (const std::int64_t apps : {10, 100})
      for (const std::int64_t nodes : {1000, 10000}) run(apps, nodes, p, false);
  run(100, 10000, SharePlacement::LeastAllocated, true);
  run(100, 10000, SharePlacement::LeastAllocated, false, true);
  return 0;
}
