// eruplan share --model mesos, timed: agents x frameworks x cycles. Run by
// hand in a Release build (-DERUPLAN_BENCH=ON):
//   build/bench/eruplan_mesos_bench [agents frameworks roles cycles]
// (default 10,000 agents, 50 frameworks in 10 roles, 10 cycles; then the
// same until nothing more fits, and --model drf's filling of the same
// frameworks as apps as the reference, on the same machine in the same run).
//
// Agents: 32 cores, 128Gi; every 10th reserves {cpu 4, memory 16Gi} for
// role (agent mod roles). Framework i is in role i mod roles, asks for cpu
// 0.5 x (1 + i mod 4) and memory 1Gi x (1 + i mod 3); roles have weights
// 1..3 and every third a quota of 1/20 of the cluster's CPU.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "mesos.h"
#include "share.h"

using namespace eruplan;

namespace {

constexpr Bytes Gi = Bytes{1} << 30;

Inventory make_agents(std::int64_t count, std::int64_t roles) {
  Inventory inv;
  inv.nodes.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    Node n;
    char name[32];
    std::snprintf(name, sizeof name, "agent%06lld", static_cast<long long>(i));
    n.name = name;
    n.plain_cores = 32;
    n.plain_core_pieces = 100;
    n.cpu_given = 32 * kNanoPerCore;
    n.memory = 128 * Gi;
    if (i % 10 == 0) {
      Reservation r;
      r.role = "role" + std::to_string(i % roles);
      r.cpu = 4 * kNanoPerCore;
      r.memory = 16 * Gi;
      n.reservations.push_back(r);
    }
    inv.nodes.push_back(std::move(n));
  }
  return inv;
}

MesosSpec make_spec(std::int64_t agents, std::int64_t frameworks, std::int64_t roles) {
  MesosSpec spec;
  for (std::int64_t r = 0; r < roles; ++r) {
    MesosRole role;
    role.name = "role" + std::to_string(r);
    role.weight = {static_cast<std::uint64_t>(1 + r % 3), 1};
    if (r % 3 == 0) role.quota.cpu = agents * 32 * kNanoPerCore / 20;
    spec.roles.push_back(role);
  }
  for (std::int64_t i = 0; i < frameworks; ++i) {
    MesosFramework f;
    f.name = "fw" + std::to_string(i);
    f.role = static_cast<std::size_t>(i % roles);
    f.request.app = f.request.name = f.name;
    f.request.cpu = f.request.cpu_limit = (1 + i % 4) * kNanoPerCore / 2;
    f.request.memory = f.request.memory_limit = (1 + i % 3) * Gi;
    f.request.cpu_fit = true;
    spec.frameworks.push_back(std::move(f));
  }
  return spec;
}

template <class F>
double cpu_seconds(F&& f, double& wall) {
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  f();
  wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
}

void run(std::int64_t agents, std::int64_t frameworks, std::int64_t roles, std::int64_t cycles) {
  const Inventory inv = make_agents(agents, roles);
  const MesosSpec spec = make_spec(agents, frameworks, roles);
  MesosOptions options;
  options.cycles = cycles;
  Inventory state = inv;
  MesosResult r;
  double wall = 0;
  const double cpu = cpu_seconds([&] { r = mesos_share(state, spec, options); }, wall);
  std::size_t offers = 0;
  for (const auto& c : r.cycles) offers += c.size();
  std::printf(
      "mesos  agents %6lld  frameworks %3lld  roles %3lld  cycles %4zu  offers %8zu  instances "
      "%8lld  cpu %7.3f s (wall %7.3f s)\n",
      static_cast<long long>(agents), static_cast<long long>(frameworks),
      static_cast<long long>(roles), r.cycles.size(), offers, static_cast<long long>(r.launched),
      cpu, wall);
}

// The reference: --model drf's progressive filling of the same frameworks.
void run_drf(std::int64_t agents, std::int64_t frameworks, std::int64_t roles) {
  Inventory inv = make_agents(agents, roles);
  for (Node& n : inv.nodes) n.reservations.clear();
  const MesosSpec m = make_spec(agents, frameworks, roles);
  ShareSpec spec;
  spec.placement = SharePlacement::FirstFit;
  for (const MesosFramework& f : m.frameworks) {
    ShareApp a;
    a.name = f.name;
    a.weight = m.roles[f.role].weight;
    a.request = f.request;
    spec.apps.push_back(std::move(a));
  }
  ShareOptions options;
  options.explain_frozen = false;
  ShareResult r;
  double wall = 0;
  const double cpu = cpu_seconds([&] { r = share(inv, spec, options); }, wall);
  std::printf(
      "drf    agents %6lld  apps %3lld  (first_fit)                          instances %8lld  cpu "
      "%7.3f s (wall %7.3f s)\n",
      static_cast<long long>(agents), static_cast<long long>(frameworks),
      static_cast<long long>(r.steps), cpu, wall);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 5) {
    run(std::atoll(argv[1]), std::atoll(argv[2]), std::atoll(argv[3]), std::atoll(argv[4]));
    return 0;
  }
  run(10000, 50, 10, 10);
  run(10000, 50, 10, 0);
  run(1000, 50, 10, 10);
  run_drf(10000, 50, 10);
  return 0;
}
