// Fair share (SPEC §10, seed 003): dominant resource fairness by progressive
// filling. Several apps share the available nodes; each step the app with the
// lowest weighted dominant share places one instance, until every app is
// frozen (no node can take one more) or at its max_count. Stage 1 first fills
// every app's quota. The engine takes many such steps per loop turn where
// they provably land as one at a time would.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "capacity.h"
#include "diagnostics.h"
#include "load.h"
#include "model.h"
#include "share_spec.h"
#include "wide.h"

namespace eruplan {

struct AppShare {
  std::int64_t existing = 0;      // instances over the pool before the run
  std::int64_t placed = 0;        // new instances
  std::string dominant_resource;  // empty when the share is 0
  Fraction dominant_share;        // unweighted, reduced
  bool at_max_count = false;
  std::string frozen_by;  // "max_count", or why no candidate node can take one more
  // New instances per node (node index), by node name; and each instance's
  // plan in placement order when the app binds cores or volumes.
  std::vector<std::pair<std::uint32_t, std::int64_t>> deploy;
  std::vector<std::pair<std::uint32_t, Plan>> assignments;
};

struct ShareResult {
  std::vector<AppShare> apps;  // parallel to spec.apps
  // Stage 1 stopped: the app (index) frozen before its quota, and why.
  std::optional<std::size_t> quota_failed;
  std::string message;
  std::int64_t steps = 0;  // instances placed
  std::int64_t turns = 0;  // loop turns: single placements, jumps of many, freezes
  // ShareOptions::max_work was reached: nothing is placed, and this says
  // what is too large, in words.
  std::string too_large;
};

struct ShareOptions {
  unsigned jobs = 1;           // threads for the capacity passes behind frozen_by
  bool explain_frozen = true;  // compute frozen_by summaries (the benchmark turns them off)
  // Bounded work: the loop's steps (a turn, an app looked at by a jump's
  // try, a share compared while it finds its count, the heap rebuilt after
  // a jump) past which the run stops with ShareResult::too_large.
  std::int64_t max_work = std::numeric_limits<std::int64_t>::max();
  // Bounded work: the instances of apps that bind cores or volumes (each its
  // own plan, found by a capacity pass) past which the run stops likewise.
  std::int64_t max_plans = std::numeric_limits<std::int64_t>::max();
  // Bounded memory: the entries of the apps' logs of placements (an app on
  // a node, merged by node as they grow; what the inventory and the output
  // keep) past which the run stops likewise.
  std::int64_t max_entries = std::numeric_limits<std::int64_t>::max();
};
// The bound the share command gives: 50 million of the steps above are
// about half a second (the jumps' tries dominate where many apps and nodes take
// turns at every score value); 100 apps on 10,000 nodes take 1.5-5 million.
inline constexpr std::int64_t kShareWork = 50'000'000;

// Runs progressive filling against `state`, reserving every placement in it.
ShareResult share(Inventory& state, const ShareSpec& spec, const ShareOptions& options = {});

// The dominant resource and share of `count` instances of `request` against
// the pool totals (exposed for tests).
struct PoolTotals {
  std::vector<std::pair<std::string, u128>> kinds;  // cpu, memory, storage, extended; byte order
};
PoolTotals pool_totals(const Inventory& inventory);

}  // namespace eruplan
