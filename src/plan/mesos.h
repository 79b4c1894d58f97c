// Mesos-style allocation (`eruplan share --model mesos`, seed 003): the
// hierarchical DRF allocator. Each cycle shuffles the nodes (agents), makes
// offers in a quota stage (roles below their quota) and a fair stage (every
// role by weighted dominant share, frameworks by dominant share within their
// role), then answers every offer: a framework launches what fits and
// declines the rest, and is filtered on a node it declined something on for
// the next cycle.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "mesos_spec.h"
#include "model.h"
#include "share.h"

namespace eruplan {

inline constexpr std::int64_t kMesosMaxCycles = 1000;

// Bounded work. A run lists every cycle and every offer, and while some
// framework could still launch somewhere, offers go on (crumbs offered to
// frameworks they do not fit, declined, offered again), so `cycles` alone
// would set the work. A run stops, MesosResult::too_large saying why, after
// the first cycle that takes it past either bound:
// - the offers and cycles it lists: at most kMinMesosListed, or one per 8
//   bytes of the run's input when that is more (mesos_listed_budget);
// - an offer counts 1 + kinds / 16 (it keeps two amounts per kind);
// - its steps (a node looked at, a framework checked on a node, a sorting
//   comparison, a node and framework pair cleared or set up): at most
//   kMesosSteps.
// And before any cycle, the resource kinds x (agents + frameworks + roles)
// (amounts kept per kind) at most 65536 or 4 per byte of input
// (mesos_kind_cells_budget).
inline constexpr std::int64_t kMinMesosListed = 2048;
inline constexpr std::int64_t kMinMesosKindCells = 65536;
inline std::int64_t mesos_kind_cells_budget(std::uint64_t input_bytes) {
  return std::max<std::int64_t>(kMinMesosKindCells, static_cast<std::int64_t>(input_bytes) * 4);
}
inline constexpr std::int64_t kMesosSteps = 40'000'000;
inline std::int64_t mesos_listed_budget(std::uint64_t input_bytes) {
  const std::uint64_t by_input = input_bytes / 8;
  return by_input > static_cast<std::uint64_t>(kMinMesosListed)
             ? static_cast<std::int64_t>(by_input)
             : kMinMesosListed;
}

struct MesosOptions {
  std::optional<std::uint64_t> seed = 0;  // nullopt: nodes in name order every cycle
  std::int64_t cycles = 0;                // > 0: at most this many; 0: until done (<= 1000)
  std::int64_t max_listed = std::numeric_limits<std::int64_t>::max();  // offers + cycles
  std::int64_t max_steps = std::numeric_limits<std::int64_t>::max();
  std::int64_t max_kind_cells = std::numeric_limits<std::int64_t>::max();
};

// Amounts per resource kind, parallel to MesosResult::kinds.
using KindVector = std::vector<std::int64_t>;

struct MesosOffer {
  std::uint32_t node = 0;       // index into the inventory
  std::uint32_t framework = 0;  // index into spec.frameworks
  KindVector offered, declined;
  std::int64_t launched = 0;
};

struct MesosFrameworkShare {
  std::int64_t existing = 0, placed = 0;
  std::string dominant_resource;                               // empty when the share is 0
  Fraction dominant_share;                                     // reduced
  std::vector<std::pair<std::uint32_t, std::int64_t>> deploy;  // by node name
};

struct MesosRoleShare {
  std::vector<u128> allocation;   // parallel to kinds: existing and launched
  std::string dominant_resource;  // empty when the share is 0
  Fraction dominant_share;        // unweighted, reduced
  bool quota_met = true;          // every kind the quota names is allocated
};

struct MesosResult {
  // cpu (nanocores), memory, storage and the extended resources any node,
  // quota or framework names, in byte order.
  std::vector<std::string> kinds;
  std::vector<std::vector<MesosOffer>> cycles;  // the offers of each cycle, in the order made
  std::vector<MesosFrameworkShare> frameworks;  // parallel to spec.frameworks
  std::vector<MesosRoleShare> roles;            // parallel to spec.roles
  std::int64_t launched = 0;
  // Non-empty: the run stopped after the cycle that took it past a bound
  // (MesosOptions::max_listed, max_steps); what is too large, in words.
  std::string too_large;
};

// Runs the cycles against `state`, reserving every launch in it.
MesosResult mesos_share(Inventory& state, const MesosSpec& spec, const MesosOptions& options);

}  // namespace eruplan
