// The numbers share's progressive filling (share.cpp) keeps per node and per
// shape while it places: each node's fit numbers, §9's fit score over them,
// the shape apps share a score index by, and the jump's bookkeeping types.
// Private to src/plan.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "capacity.h"
#include "resources.h"
#include "score_index.h"
#include "share.h"
#include "share_units.h"
#include "wide.h"

namespace eruplan::share_nodes {

using share_units::Unit;

// floor(y / d) for y < 2^63 and 0 < d < 2^63, given inverse = floor((2^64 - 1) / d):
// the estimate y x inverse / 2^64 is below y / d by less than 2 y / 2^64 < 1,
// so one correction step makes it exact, with a multiplication for the
// division the score would otherwise do per node, shape and step.
std::uint64_t inverse_of(std::int64_t d);
std::uint64_t divide(std::uint64_t y, std::uint64_t d, std::uint64_t inverse);

// One column of a node's numbers: its total and what is in use. share keeps
// a row of columns per node (Filler::amounts_): the resource kinds' rows
// (resources.h), then the instances a node may hold (when some node has
// max_instances), then each extended resource an app asks for. Placements
// that bind nothing add to them without touching the Inventory (written
// once at the end, see Filler::flush).
struct Amount {
  std::int64_t total = 0, used = 0;
};

// The columns before the extended resources' (instances_column + 1 on).
inline constexpr std::uint32_t instances_column = kResourceKinds.size();

// A node's row of columns from the Inventory: the resource kinds' total and
// use, max_instances (unlimited: INT64_MAX, nothing used) and each of
// `extended` (0 when the node has none).
void read_row(const Node& node, const std::vector<std::string>& extended, Amount* row);

// What one instance of a shape takes of a column (per_instance > 0).
struct Need {
  std::uint32_t column = 0;
  std::int64_t per_instance = 0;
};

// §9's fit score (no balanced score) over cpu and memory, weight 1 each, for
// one more instance on the node as it is now; inverse: inverse_of() of the
// two totals.
std::int64_t fit_score(const Amount& cpu, const Amount& memory,
                       const std::array<std::uint64_t, 2>& inverse, const Request& request,
                       SharePlacement placement);

// Everything a node's verdict for one more instance and its score depend on:
// apps with the same shape see the same candidates in the same order, so
// they share one ScoreIndex (a placement then costs one update per shape,
// not per app).
std::string shape_of(const Request& r);

// One shape's view of the nodes: a byte per node by rank, 0 when the node
// cannot take one more, else 1 + its fit score, always current (a placement
// rewrites the placed node's byte in every live shape, nothing else).
struct Group {
  const Request* request = nullptr;  // of its first app
  bool binds = false;
  std::vector<Need> needs;  // the columns one instance takes, in column order
  ScoreIndex index;
  std::vector<bool> accepts;  // binding shapes: nodes its filter and taints let in
  std::int64_t active = 0;    // apps of this shape neither frozen nor at max_count
};

struct AppState {
  Unit unit;
  std::uint32_t group = 0;
  std::int64_t count = 0;  // existing + new
  double share = 0;        // approx_share(count, unit), for Queued
  std::int64_t placed = 0;
  bool frozen = false;
  // (node, instances) placed on, in order; a binding app's entries are one
  // instance each, parallel to `plans`.
  std::vector<std::pair<std::uint32_t, std::int64_t>> log;
  std::size_t flushed = 0;      // log entries already reserved in the Inventory
  std::size_t compact_at = 64;  // a non-binding app's log is merged by node at this size
  std::vector<Plan> plans;      // binding apps: each instance's plan, same order
};

// The threshold of a jump: a share of `bound` x the unit of `app`, or
// (zero) a share of 0 with fewer than `bound` new instances.
struct Level {
  bool zero = false;
  std::int64_t bound = 0;
  std::uint32_t app = 0;
};

struct Pick {
  std::uint32_t app, node;
  std::int64_t k;
};

// The best byte and rank of group g's index without the ranks given.
std::pair<std::uint8_t, std::uint32_t> best_without(Group& g,
                                                    const std::vector<std::uint32_t>& ranks);

// Appends k instances on node i to the app's log (one entry per instance
// when it binds, else merged with the last unflushed entry on the same node);
// returns by how many entries the log grew (less than 0 when it was merged).
std::int64_t log_placement(AppState& s, std::uint32_t i, std::int64_t k, bool binds);

// Why a share stops: past `max_work` steps, or its logs past `max_entries`
// entries (each an app on a node, to be kept in the inventory and output).
std::string share_too_large(std::size_t nodes, std::size_t apps, std::int64_t work,
                            std::int64_t max_work, std::int64_t max_entries);

}  // namespace eruplan::share_nodes
