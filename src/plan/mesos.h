// Mesos-style allocation (`eruplan share --model mesos`, seed 003): the
// hierarchical DRF allocator. Each cycle shuffles the nodes (agents), makes
// offers in a quota stage (roles below their quota) and a fair stage (every
// role by weighted dominant share, frameworks by dominant share within their
// role), then answers every offer: a framework launches what fits and
// declines the rest, and is filtered on a node it declined something on for
// the next cycle.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mesos_spec.h"
#include "model.h"
#include "share.h"

namespace eruplan {

inline constexpr std::int64_t kMesosMaxCycles = 1000;

struct MesosOptions {
  std::optional<std::uint64_t> seed = 0;  // nullopt: nodes in name order every cycle
  std::int64_t cycles = 0;                // > 0: at most this many; 0: until done (<= 1000)
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
};

// Runs the cycles against `state`, reserving every launch in it.
MesosResult mesos_share(Inventory& state, const MesosSpec& spec, const MesosOptions& options);

}  // namespace eruplan
