// Fair share (SPEC §10, seed 003): dominant resource fairness by progressive
// filling. Several apps share the available nodes; each step the app with the
// lowest weighted dominant share places one instance, until every app is
// frozen (no node can take one more) or at its max_count. Stage 1 first fills
// every app's quota.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "capacity.h"
#include "diagnostics.h"
#include "load.h"
#include "model.h"
#include "pipeline.h"

namespace eruplan {

__extension__ typedef unsigned __int128 u128;

// Where one instance of an app goes among the nodes that can take it.
enum class SharePlacement { FirstFit, LeastAllocated, MostAllocated };
std::string_view placement_name(SharePlacement p);  // "first_fit", ...

// A weight as the exact fraction written: 0.1 is 1/10. Reduced, both > 0,
// both at most 10^18.
struct Weight {
  std::uint64_t num = 1, den = 1;
};

struct ShareApp {
  std::string name;  // `app`; unique
  Weight weight;
  std::int64_t quota = 0;
  std::int64_t max_count = -1;  // -1 = no limit
  // resources, node_filter and tolerations, normalised as SPEC §3; app = name
  // and cpu_fit on (SPEC §8.2: share uses CPU fit).
  Request request;
};

struct ShareSpec {
  SharePlacement placement = SharePlacement::LeastAllocated;
  std::vector<ShareApp> apps;  // file order
};

// The apps file (SPEC §10): every problem with file:line:col and field path.
// With errors it still returns the apps that read cleanly (nullopt only when
// there is no apps list): the caller runs check_share too, then looks at diags.
std::optional<ShareSpec> load_share(const Source& source, Diagnostics& diags);
// Checks that need the inventory too (cpu_bind pieces, filter names).
void check_share(const Inventory& inventory, const ShareSpec& spec, Diagnostics& diags);

// An exact fraction; `den` > 0. Reduced where it is shown.
struct Fraction {
  u128 num = 0, den = 1;
};
std::string fraction_text(Fraction f);               // "2/3", "0", "1", "5/2"
std::string decimal_text(Fraction f, int decimals);  // half away from zero: "0.666667"

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
};

struct ShareOptions {
  unsigned jobs = 1;           // threads for the capacity passes behind frozen_by
  bool explain_frozen = true;  // compute frozen_by summaries (the benchmark turns them off)
};

// Runs progressive filling against `state`, reserving every placement in it.
ShareResult share(Inventory& state, const ShareSpec& spec, const ShareOptions& options = {});

// The dominant resource and share of `count` instances of `request` against
// the pool totals (exposed for tests).
struct PoolTotals {
  std::vector<std::pair<std::string, u128>> kinds;  // cpu, memory, storage, extended; byte order
};
PoolTotals pool_totals(const Inventory& inventory);

// The result as SPEC §10's document (JSON, YAML) or tables for a person.
std::string render_share(const Inventory& state, const ShareSpec& spec, const ShareResult& result,
                         OutputFormat format);

// `eruplan share`: load, share, render (table, JSON, YAML); exit 3 for
// invalid input, 4 when stage 1 freezes an app before its quota.
RunResult run_share(const RunOptions& options);

}  // namespace eruplan
