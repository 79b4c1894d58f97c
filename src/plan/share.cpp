// Fair share, SPEC §10: progressive filling over weighted dominant shares.
//
// Each step takes the app with the lowest weighted share (ties: fewer new
// instances, then name) and places one instance on its best node. Done
// naively that is apps x nodes capacity checks per step. Here:
// - Apps sit in a heap by weighted share; only the app just placed changes
//   its share (totals are fixed), so picking one is O(log apps), compared
//   by a double first and exactly only when the doubles are too close.
// - Apps with the same shape (resources, filter, tolerations: shape_of) see
//   the same candidates in the same order and share one ScoreIndex: a byte
//   per node (0 = cannot take one more, else 1 + fit score) under a tree of
//   64-byte block maxima; the best node is the smallest rank (name order)
//   holding the largest byte.
// - A placement changes one node, so only that node is rescored, once per
//   live shape, and its byte set: O(S x log_64 nodes) per step for S live
//   shapes, whatever the placement (scores may fall or rise). A node that
//   binds nothing and could not take one more never can again: not rescored.
// - When nothing binds, a placement only adds to the run's own copy of the
//   node's numbers; the Inventory is written once, per node, at the end (or
//   before a frozen_by capacity pass needs it). Binding shapes take their
//   CPU plans from node_capacity on the live Inventory, reserved each step.
// - Many instances per loop turn: a jump takes every pick below a share level
//   at once when each provably lands on its shape's best node now (see
//   "Many picks per step"), so the turns follow apps, nodes and score
//   values, not the instances placed; a pick that cannot jump goes alone.
// Shapes whose apps are all frozen or at max_count drop their bytes. Measured
// by bench/share_bench.cpp; tests/share_test.cpp's one-at-a-time reference
// (every share and node recomputed each step) must agree on random inputs.
#include "share.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <span>

#include "bisect.h"
#include "explain.h"
#include "reserve.h"
#include "resources.h"
#include "score_index.h"
#include "share_nodes.h"
#include "share_units.h"

namespace eruplan {

namespace {

using namespace share_nodes;
using namespace share_units;

class Filler {
 public:
  Filler(Inventory& state, const ShareSpec& spec, const ShareOptions& options)
      : inv_(state), spec_(spec), options_(options), apps_(spec.apps.size()) {}

  ShareResult run() {
    ShareResult result;
    result.apps.resize(apps_.size());
    setup(result);
    if (!fill(true, result)) return result;
    if (!fill(false, result)) return result;
    finish(result);
    return result;
  }

 private:
  // The byte a shape files a node under, on the numbers as they are now: a
  // binding shape asks node_capacity(); any other one room in each column it
  // takes (its needs, from the resource kinds' table) on share's copy of the
  // numbers. share_test's oracle holds it to node_capacity().
  std::uint8_t verdict(const Group& g, std::uint32_t i) const {
    const Amount* row = row_of(i);
    if (g.binds) {  // its plans sort the node's cores: 4 steps a core
      work_ += 4 * static_cast<std::int64_t>(inv_.nodes[i].core_count());
      const std::int64_t volumes = volume_plan_steps();
      const bool fits = node_capacity(inv_, *g.request, i, {0, 1}).capacity >= 1;
      // and its volume plans visit the node's devices: a step per 4 of theirs
      work_ += (volume_plan_steps() - volumes + 3) / 4;
      if (!fits) return 0;
    } else {
      for (const Need& need : g.needs)
        if (row[need.column].total - row[need.column].used < need.per_instance) return 0;
    }
    return static_cast<std::uint8_t>(1 + fit_score(row[cpu_column_], row[memory_column_],
                                                   inverses_[i], *g.request, spec_.placement));
  }

  const Amount* row_of(std::uint32_t i) const { return amounts_.data() + i * columns_; }
  Amount* row_of(std::uint32_t i) { return amounts_.data() + i * columns_; }

  void load_row(std::uint32_t i) { read_row(inv_.nodes[i], ext_names_, row_of(i)); }

  void setup(ShareResult& result) {
    const std::size_t n = inv_.nodes.size();
    by_name_ = filtered_nodes(inv_, NodeFilter{});
    rank_.resize(n);
    for (std::uint32_t r = 0; r < by_name_.size(); ++r) rank_[by_name_[r]] = r;
    deferred_ = true;
    for (const ShareApp& app : spec_.apps) {
      deferred_ = deferred_ && !binds_anything(app.request);
      for (const auto& [name, per_instance] : app.request.extended)
        if (per_instance > 0) ext_names_.push_back(name);
    }
    std::sort(ext_names_.begin(), ext_names_.end());
    ext_names_.erase(std::unique(ext_names_.begin(), ext_names_.end()), ext_names_.end());
    cpu_column_ = static_cast<std::uint32_t>(resource_kind("cpu") - kResourceKinds.data());
    memory_column_ = static_cast<std::uint32_t>(resource_kind("memory") - kResourceKinds.data());
    columns_ = instances_column + 1 + ext_names_.size();
    amounts_.resize(n * columns_);
    inverses_.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      load_row(i);
      limits_instances_ = limits_instances_ || inv_.nodes[i].max_instances >= 0;
      inverses_[i] = {inverse_of(row_of(i)[cpu_column_].total),
                      inverse_of(row_of(i)[memory_column_].total)};
    }
    by_app_name_.resize(apps_.size());
    std::iota(by_app_name_.begin(), by_app_name_.end(), 0u);
    std::sort(by_app_name_.begin(), by_app_name_.end(), [&](std::uint32_t x, std::uint32_t y) {
      return spec_.apps[x].name < spec_.apps[y].name;
    });
    const PoolTotals totals = pool_totals(inv_);
    std::vector<std::string> shapes;
    for (std::uint32_t a = 0; a < apps_.size(); ++a) {
      const ShareApp& app = spec_.apps[a];
      AppState& s = apps_[a];
      s.unit = unit_of(app, totals);
      for (const Node& node : inv_.nodes)
        if (node.available) s.count += node.instances_of(app.name);
      result.apps[a].existing = s.count;
      s.share = approx_share(s.count, s.unit);
      std::string shape = shape_of(app.request);
      const auto it = std::find(shapes.begin(), shapes.end(), shape);
      s.group = static_cast<std::uint32_t>(it - shapes.begin());
      if (it == shapes.end()) {
        shapes.push_back(std::move(shape));
        add_group(app.request);
      }
      if (app.max_count != 0) ++groups_[s.group].active;
    }
    touch_.assign(n, -1);
    group_stamp_.assign(groups_.size(), 0);
    runner_up_stamp_.assign(groups_.size(), 0);
    runner_up_.assign(groups_.size(), {0, 0});
    for (std::uint32_t g = 0; g < groups_.size(); ++g)
      if (groups_[g].active > 0)
        live_.push_back(g);
      else
        groups_[g].index = ScoreIndex();  // never asked
  }

  void add_group(const Request& request) {
    Group& g = groups_.emplace_back();
    g.request = &request;
    g.binds = binds_anything(request);
    for (std::size_t k = 0; k < kResourceKinds.size(); ++k)
      if (const std::int64_t per_instance = kResourceKinds[k].per_instance(request);
          per_instance > 0)
        g.needs.push_back({static_cast<std::uint32_t>(k), per_instance});
    if (limits_instances_) g.needs.push_back({instances_column, 1});
    for (const auto& [name, per_instance] : request.extended)
      if (per_instance > 0)
        g.needs.push_back({static_cast<std::uint32_t>(
                               instances_column + 1 +
                               (std::lower_bound(ext_names_.begin(), ext_names_.end(), name) -
                                ext_names_.begin())),
                           per_instance});
    std::vector<std::uint8_t> bytes(by_name_.size(), 0);
    if (g.binds) g.accepts.assign(inv_.nodes.size(), false);
    for (const std::uint32_t i : filtered_nodes(inv_, request.filter)) {
      if (!inv_.nodes[i].available) continue;
      // Not tolerated (taints never change during a run): never a candidate;
      // binding shapes check in node_capacity.
      if (!g.binds && untolerated_taint(inv_.nodes[i], request)) continue;
      if (g.binds) g.accepts[i] = true;
      // Past the bound on work, fill stops at its first turn.
      if (work_ <= options_.max_work) bytes[rank_[i]] = verdict(g, i);
    }
    g.index = ScoreIndex(std::move(bytes));
  }

  std::optional<std::uint32_t> best_node(std::uint32_t a) const {
    const std::optional<std::uint32_t> rank = groups_[apps_[a].group].index.best();
    if (!rank) return std::nullopt;
    return by_name_[*rank];
  }

  void place(std::uint32_t a, std::uint32_t i) {
    AppState& s = apps_[a];
    const Request& request = spec_.apps[a].request;
    if (deferred_) {
      Amount* row = row_of(i);  // what reserve() will add at the end
      for (const Need& need : groups_[s.group].needs) row[need.column].used += need.per_instance;
    } else {
      if (groups_[s.group].binds) {
        const NodeCapacity nc = node_capacity(inv_, request, i, {1, 1});
        const Plan* plan = assigned_plan(nc, 0);
        const Plan taken = plan != nullptr ? *plan : Plan{};
        reserve(inv_, i, request, 1, std::span<const Plan>(&taken, 1));
        s.plans.push_back(taken);
      } else {
        reserve(inv_, i, request, 1, {});
      }
      load_row(i);
    }
    ++s.count;
    s.share = approx_share(s.count, s.unit);
    ++s.placed;
    logged_ += log_placement(s, i, 1, groups_[s.group].binds);
    refile(i);
  }

  // Only node i changed: every live shape files it again, a step each.
  void refile(std::uint32_t i) {
    const std::uint32_t rank = rank_[i];
    work_ += static_cast<std::int64_t>(live_.size());
    for (const std::uint32_t gi : live_) {
      Group& g = groups_[gi];
      const std::uint8_t was = g.index.get(rank);
      // Nodes that bind nothing only lose room: one that could not take one
      // more never can again. A binding shape's node (CPU plans of oversold
      // cores are not monotone) is looked at again whenever it changes.
      if (was == 0 && !(g.binds && g.accepts[i])) continue;
      g.index.set(rank, verdict(g, i));
    }
  }

  // Writes the placements not yet in the Inventory: per node, one
  // reserve_counts() of every app placed on it since the last flush (the
  // same numbers as one reserve() per instance, never saturating since each
  // instance fitted).
  void flush() {
    if (!deferred_) return;
    const std::size_t n = inv_.nodes.size();
    count_.resize(n, 0);
    // Twice over the new log entries, apps in name order: first how many
    // (app, node) entries each node gets, then the entries themselves, so
    // that each node's run lists its apps in name order.
    std::vector<std::size_t> start(n + 1, 0);
    for (const std::uint32_t a : by_app_name_) {
      const AppState& s = apps_[a];
      for (std::size_t j = s.flushed; j < s.log.size(); ++j)
        if (count_[s.log[j].first]++ == 0) ++start[s.log[j].first + 1];
      for (std::size_t j = s.flushed; j < s.log.size(); ++j) count_[s.log[j].first] = 0;
    }
    std::partial_sum(start.begin(), start.end(), start.begin());
    // Then nodes a block at a time, each of at most max(4,096, an eighth of
    // the entries) entries or one node (so at most 17 passes over the new
    // log entries), so that the entries, as many as the (app, node) pairs
    // placed since the last flush, are never all held at once.
    const std::size_t block = std::max<std::size_t>(4096, start[n] / 8);
    std::vector<std::pair<const Request*, std::int64_t>> entries;
    for (std::uint32_t lo = 0; lo < n;) {
      std::uint32_t hi = lo + 1;
      while (hi < n && start[hi + 1] - start[lo] <= block) ++hi;
      entries.assign(start[hi] - start[lo], {nullptr, 0});
      std::vector<std::size_t> next(start.begin() + lo, start.begin() + hi);
      for (const std::uint32_t a : by_app_name_) {
        const AppState& s = apps_[a];
        for (std::size_t j = s.flushed; j < s.log.size(); ++j)
          if (s.log[j].first >= lo && s.log[j].first < hi)
            count_[s.log[j].first] += s.log[j].second;
        for (std::size_t j = s.flushed; j < s.log.size(); ++j) {
          const std::uint32_t i = s.log[j].first;
          if (i < lo || i >= hi || count_[i] == 0) continue;
          entries[next[i - lo]++ - start[lo]] = {&spec_.apps[a].request, count_[i]};
          count_[i] = 0;
        }
      }
      for (std::uint32_t i = lo; i < hi; ++i)
        if (start[i + 1] > start[i])
          reserve_counts(inv_, i,
                         std::span(entries.data() + (start[i] - start[lo]),
                                   entries.data() + (start[i + 1] - start[lo])));
      lo = hi;
    }
    for (const std::uint32_t a : by_app_name_) apps_[a].flushed = apps_[a].log.size();
  }

  void retire(std::uint32_t a) {
    Group& g = groups_[apps_[a].group];
    if (--g.active > 0) return;
    live_.erase(std::find(live_.begin(), live_.end(), apps_[a].group));
    g.index = ScoreIndex();  // no app asks again: its memory goes back
  }

  // A heap entry: the app and its approximate share, side by side so that
  // most comparisons read no AppState.
  struct Queued {
    double share;
    std::uint32_t app;
  };

  // Lower weighted share first; ties: fewer new instances, then name.
  bool before(const Queued& x, const Queued& y) const {
    if (x.share < y.share * (1 - 1e-12)) return true;
    if (y.share < x.share * (1 - 1e-12)) return false;
    const AppState &a = apps_[x.app], &b = apps_[y.app];
    const int c = compare_shares(a.count, a.unit, b.count, b.unit);
    if (c != 0) return c < 0;
    if (a.placed != b.placed) return a.placed < b.placed;
    return spec_.apps[x.app].name < spec_.apps[y.app].name;
  }

  bool at_max(std::uint32_t a) const {
    const std::int64_t max = spec_.apps[a].max_count;
    return max >= 0 && apps_[a].placed >= max;
  }

  bool wants_more(std::uint32_t a, bool quota_stage) const {
    if (apps_[a].frozen || at_max(a)) return false;
    return !quota_stage || apps_[a].placed < spec_.apps[a].quota;
  }

  // §13's summary of why no candidate node takes one more. Apps of one shape
  // often freeze one after another with nothing placed between: one
  // capacity pass serves them all.
  std::string frozen_summary(std::uint32_t a, std::int64_t steps) {
    if (!options_.explain_frozen) return "no node can take one more";
    const std::uint32_t g = apps_[a].group;
    if (summary_steps_.size() <= g) summary_steps_.resize(groups_.size(), -1);
    if (summary_steps_[g] == steps) return summaries_[g];
    flush();
    CapacityOptions capacity;
    capacity.max_plans = 0;
    capacity.jobs = options_.jobs;
    // A capacity pass of every node: kSummaryNodeSteps a node.
    work_ += kSummaryNodeSteps * static_cast<std::int64_t>(inv_.nodes.size());
    const CapacityMap map = capacity_pass(inv_, spec_.apps[a].request, capacity);
    summaries_.resize(groups_.size());
    summary_steps_[g] = steps;
    return summaries_[g] = infeasible_summary(inv_, map, 1);
  }

  // A binary heap of apps, lowest weighted share on top. After a placement
  // only the top's share grew: it sinks from the top (one pass, not a pop
  // and a push), bottom-up: down the path of smaller children to a leaf (one
  // comparison a level), then back up to where it belongs, which for an app
  // that just grew is near the bottom.
  void sink(std::vector<Queued>& heap, std::size_t at) const {
    const std::size_t n = heap.size(), from = at;
    const Queued moving = heap[at];
    for (std::size_t child = 2 * at + 1; child < n; child = 2 * at + 1) {
      if (child + 1 < n && before(heap[child + 1], heap[child])) ++child;
      heap[at] = heap[child];
      at = child;
    }
    while (at > from && before(moving, heap[(at - 1) / 2])) {
      heap[at] = heap[(at - 1) / 2];
      at = (at - 1) / 2;
    }
    heap[at] = moving;
  }

  void drop_top(std::vector<Queued>& heap) const {
    heap.front() = heap.back();
    heap.pop_back();
    if (!heap.empty()) sink(heap, 0);
  }

  // One stage of progressive filling; false when stage 1 froze an app.
  bool fill(bool quota_stage, ShareResult& result) {
    std::vector<Queued> heap;
    for (std::uint32_t a = 0; a < apps_.size(); ++a)
      if (wants_more(a, quota_stage)) heap.push_back({apps_[a].share, a});
    for (std::size_t k = heap.size() / 2; k-- > 0;) sink(heap, k);
    while (!heap.empty()) {
      ++result.turns;
      if (++work_ > options_.max_work || logged_ > options_.max_entries) {
        result.too_large = share_too_large(inv_.nodes.size(), apps_.size(), work_,
                                           options_.max_work, options_.max_entries);
        return false;
      }
      const std::uint32_t a = heap.front().app;
      const std::optional<std::uint32_t> node = best_node(a);
      if (!node) {
        drop_top(heap);
        apps_[a].frozen = true;
        retire(a);
        result.apps[a].frozen_by = frozen_summary(a, result.steps);
        if (quota_stage) {
          const ShareApp& app = spec_.apps[a];
          result.quota_failed = a;
          result.message = "app " + app.name + " frozen at " + std::to_string(apps_[a].placed) +
                           " of its quota " + std::to_string(app.quota) + ": " +
                           result.apps[a].frozen_by;
          finish(result);
          return false;
        }
        continue;
      }
      if (skip_ > 0)
        --skip_;
      else if (jump(heap, quota_stage, result))
        continue;
      // A binding placement: its plan, a capacity pass per live shape (24 steps a core).
      if (groups_[apps_[a].group].binds) {
        // A node given as a core count lists its cores (once per 8) as plan's do.
        const Node& at = inv_.nodes[*node];
        work_ += 24 * static_cast<std::int64_t>(at.core_count() * live_.size());
        plans_ +=
            plan_weight(spec_.apps[a].request) + (spec_.apps[a].request.cpu_bind && at.cores.empty()
                                                      ? at.plain_cores / kListedCoresPerPlan
                                                      : 0);
        if (plans_ > options_.max_plans) {
          result.too_large = "too large: the apps that bind cores or volumes place more than " +
                             std::to_string(options_.max_plans) +
                             " plans of 2 cores or a volume (4096, or one per 4 bytes of the "
                             "input; a node given as a core count counts once per 8 of its "
                             "cores when it first binds one)";
          return false;
        }
      }
      place(a, *node);
      ++result.steps;
      if (at_max(a)) retire(a);
      if (wants_more(a, quota_stage)) {
        heap.front().share = apps_[a].share;
        sink(heap, 0);
      } else
        drop_top(heap);
    }
    return true;
  }

  // --- Many picks per step ---------------------------------------------------
  //
  // While nothing else changes, a stage's picks are the apps' keys in
  // increasing order: app a's j-th next pick has the key ((count + j) x unit,
  // placed + j, name), increasing in j, and the heap merges these sequences.
  // A jump takes every pick whose key is below a level at once: each app's
  // share of them follows in closed form (picks_below). It is taken only
  // when each of those picks provably lands on the node its shape's index
  // names now, which needs no replay since a node's numbers only grow:
  // - fit: one more instance fits a node up to the state where it holds every
  //   pick of the jump but that app's last one, hence at every step before;
  // - least_allocated and first_fit: a node's score only falls as it fills,
  //   so the app's node at that state still beats every other node's score
  //   now (ties: the smaller rank);
  // - most_allocated: a node's score only rises, so the app's node now beats
  //   every other node's score with all its picks of the jump in it.
  // Apps that bind cores or volumes, or that would freeze, end a jump: the
  // level stays at or below their next key. The level is the top app's share
  // after m more instances (or, while the top's share is 0, "placed below
  // m"): the largest m that passes is found by doubling then bisection. A
  // jump ends where a node's fit or score changes the answer, or at
  // max_count or quota, so their number follows apps, nodes and the 101
  // score values, never the instances placed.

  static constexpr std::int64_t kJumpLimit = std::int64_t{1} << 62;

  // Instances app a may still place in this stage (counts stay below 2^62).
  std::int64_t remaining(std::uint32_t a, bool quota_stage) const {
    const AppState& s = apps_[a];
    const ShareApp& app = spec_.apps[a];
    std::int64_t r = kJumpLimit - std::max(s.count, s.placed);
    if (app.max_count >= 0) r = std::min(r, app.max_count - s.placed);
    if (quota_stage) r = std::min(r, app.quota - s.placed);
    return std::max<std::int64_t>(r, 0);
  }

  // Whether app a's next pick is below the level.
  bool below(std::uint32_t a, const Level& level) const {
    const AppState& s = apps_[a];
    if (level.zero) return (s.count == 0 || s.unit.kind.empty()) && s.placed < level.bound;
    return compare_shares(s.count, s.unit, level.bound, apps_[level.app].unit) < 0;
  }

  // How many of app a's next picks are below the level, at most `cap`; a's
  // next pick is below it.
  std::int64_t picks_below(std::uint32_t a, const Level& level, std::int64_t cap) const {
    const AppState& s = apps_[a];
    if (level.zero) return std::min(cap, s.unit.kind.empty() ? level.bound - s.placed : 1);
    if (s.unit.kind.empty()) return cap;
    const Unit& unit = apps_[level.app].unit;
    auto reached = [&](std::int64_t n) {
      ++work_;
      return compare_shares(n, s.unit, level.bound, unit) >= 0;
    };
    // The smallest count t reaching the level; picks = t - count.
    std::int64_t lo = s.count, hi = s.count + cap;  // lo below, hi to be checked
    if (!reached(hi)) return cap;
    // A first guess from the doubles, then a bracket around it.
    const double guess = approx_share(level.bound, unit) / approx_share(1, s.unit);
    if (guess > static_cast<double>(lo) && guess < static_cast<double>(hi)) {
      const auto g = static_cast<std::int64_t>(guess);
      const std::int64_t d = std::max<std::int64_t>(2, g >> 30);
      const std::int64_t a1 = std::max(lo + 1, g - d), a2 = std::min(hi - 1, g + d);
      if (a1 < hi) {
        if (reached(a1))
          hi = a1;
        else
          lo = a1;
      }
      if (a2 > lo && a2 < hi) {
        if (reached(a2))
          hi = a2;
        else
          lo = a2;
      }
    }
    return first_true(lo, hi, reached) - s.count;
  }

  // What the jump's picks add to node i, a column each.
  i128* added_at(std::uint32_t i) {
    if (touch_[i] < 0) {
      touch_[i] = static_cast<std::int32_t>(touched_.size());
      touched_.push_back(i);
      if (added_.size() < touched_.size() * columns_) added_.resize(touched_.size() * columns_);
      std::fill_n(added_.begin() + static_cast<std::ptrdiff_t>((touched_.size() - 1) * columns_),
                  columns_, i128{0});
    }
    return added_.data() + static_cast<std::size_t>(touch_[i]) * columns_;
  }
  const i128* added(std::uint32_t i) const {
    return added_.data() + static_cast<std::size_t>(touch_[i]) * columns_;
  }

  // The byte shape g files node i under with the jump's picks in it, less
  // one instance of the shape (when `less_one`). Every value stays within
  // the node's own after the fit checks.
  std::uint8_t byte_with(std::uint32_t i, const Group& g, bool less_one) const {
    const Amount* row = row_of(i);
    const i128* add = added(i);
    Amount cpu = row[cpu_column_], memory = row[memory_column_];
    cpu.used += static_cast<std::int64_t>(add[cpu_column_]) - (less_one ? g.request->cpu : 0);
    memory.used +=
        static_cast<std::int64_t>(add[memory_column_]) - (less_one ? g.request->memory : 0);
    return static_cast<std::uint8_t>(
        1 + fit_score(cpu, memory, inverses_[i], *g.request, spec_.placement));
  }

  // Fills picks_ with every pick below the level; false when one of them
  // binds, would freeze, or might land elsewhere than its shape's node now.
  bool try_level(const std::vector<Queued>& heap, const Level& level, bool quota_stage) {
    for (const std::uint32_t i : touched_) touch_[i] = -1;
    touched_.clear();
    picks_.clear();
    // The apps below the level sit at the heap's top: a walk that stops
    // where they end.
    stack_.assign(1, 0);
    while (!stack_.empty()) {
      const std::size_t at = stack_.back();
      stack_.pop_back();
      if (at >= heap.size()) continue;
      const std::uint32_t a = heap[at].app;
      ++work_;
      if (!below(a, level)) continue;
      stack_.push_back(2 * at + 1);
      stack_.push_back(2 * at + 2);
      const Group& g = groups_[apps_[a].group];
      if (g.binds) return false;
      const std::optional<std::uint32_t> node = best_node(a);
      if (!node) return false;
      const std::int64_t k = picks_below(a, level, remaining(a, quota_stage));
      if (k <= 0) return false;
      picks_.push_back({a, *node, k});
      i128* add = added_at(*node);
      for (const Need& need : g.needs) add[need.column] += static_cast<i128>(k) * need.per_instance;
    }
    // Fit: every resource an app asks for is still within the node with all
    // the picks in it.
    for (const Pick& p : picks_) {
      const Amount* row = row_of(p.node);
      const i128* add = added(p.node);
      for (const Need& need : groups_[apps_[p.app].group].needs)
        if (i128{row[need.column].total} - row[need.column].used - add[need.column] < 0)
          return false;
    }
    // Scores, once per shape.
    std::vector<std::uint32_t> touched_ranks;
    if (spec_.placement == SharePlacement::MostAllocated)
      for (const std::uint32_t i : touched_) touched_ranks.push_back(rank_[i]);
    ++stamp_;
    for (const Pick& p : picks_) {
      const std::uint32_t gi = apps_[p.app].group;
      if (group_stamp_[gi] == stamp_) continue;
      group_stamp_[gi] = stamp_;
      Group& g = groups_[gi];
      const std::uint32_t rank = rank_[p.node];
      auto beats = [&](std::uint8_t byte, std::pair<std::uint8_t, std::uint32_t> other) {
        return byte > other.first || (byte == other.first && rank < other.second);
      };
      if (spec_.placement != SharePlacement::MostAllocated) {
        if (runner_up_stamp_[gi] != jump_) {
          runner_up_stamp_[gi] = jump_;
          runner_up_[gi] = best_without(g, {rank});
        }
        const std::uint8_t byte = byte_with(p.node, g, true);
        if (!beats(byte, runner_up_[gi])) return false;
      } else {
        const std::uint8_t byte = g.index.get(rank);
        if (!beats(byte, best_without(g, touched_ranks))) return false;
        for (const std::uint32_t i : touched_) {
          if (i == p.node || g.index.get(rank_[i]) == 0) continue;
          const std::uint8_t other = byte_with(i, g, false);
          if (!beats(byte, {other, rank_[i]})) return false;
        }
      }
    }
    return true;
  }

  // Takes picks_ (from a try_level that passed): each app's instances on its
  // node, then every touched node filed again.
  void take_picks(ShareResult& result) {
    for (const Pick& p : picks_) {
      AppState& s = apps_[p.app];
      const Request& request = spec_.apps[p.app].request;
      if (deferred_) {
        Amount* row = row_of(p.node);
        for (const Need& need : groups_[s.group].needs)
          row[need.column].used += p.k * need.per_instance;
      } else {
        reserve(inv_, p.node, request, p.k, {});
        load_row(p.node);
      }
      s.count += p.k;
      s.share = approx_share(s.count, s.unit);
      s.placed += p.k;
      logged_ += log_placement(s, p.node, p.k, false);
      result.steps += p.k;
    }
    for (const std::uint32_t i : touched_) refile(i);
    for (const Pick& p : picks_)
      if (at_max(p.app)) retire(p.app);
  }

  // One jump from the heap's top app; false when not even its next instance
  // passes (the caller then places that one alone). The heap is rebuilt.
  bool jump(std::vector<Queued>& heap, bool quota_stage, ShareResult& result) {
    const AppState& t = apps_[heap.front().app];
    if (groups_[t.group].binds) return false;
    Level level;
    level.app = heap.front().app;
    level.zero = t.count == 0 || t.unit.kind.empty();
    const std::int64_t base = level.zero ? t.placed : t.count;
    const std::int64_t limit = kJumpLimit - base;  // m at most
    if (limit < 1) return false;
    ++jump_;
    auto passes = [&](std::int64_t m) {
      level.bound = base + m;
      return try_level(heap, level, quota_stage);
    };
    std::int64_t tries = 0;
    auto passes_counted = [&](std::int64_t m) {
      ++tries;
      return passes(m);
    };
    // A jump that places little for its tries (apps and nodes taking turns
    // instance by instance) makes the next ones wait: single steps, twice as
    // many after each poor jump, at most kPatience; a good one resets it.
    auto poor = [&](std::int64_t placed) {
      if (placed >= 16 * tries) {
        backoff_ = 0;
        return;
      }
      backoff_ = std::min<std::int64_t>(kPatience, backoff_ == 0 ? 1 : 2 * backoff_);
      skip_ = backoff_;
    };
    if (!passes_counted(1)) {
      poor(0);
      return false;
    }
    std::int64_t good = 1, bad = 0;  // bad: the smallest m known to fail (0: none)
    std::int64_t probe = 2;
    while (bad == 0 && good < limit) {
      probe = std::min(probe, limit);
      if (passes_counted(probe)) {
        good = probe;
        probe = probe > limit / 2 ? limit : probe * 2;
      } else {
        bad = probe;
      }
    }
    while (bad != 0 && bad - good > 1) {
      const std::int64_t mid = good + (bad - good) / 2;
      if (passes_counted(mid))
        good = mid;
      else
        bad = mid;
    }
    passes(good);
    const std::int64_t before = result.steps;
    take_picks(result);
    poor(result.steps - before);
    heap.clear();
    work_ += static_cast<std::int64_t>(apps_.size());
    for (std::uint32_t a = 0; a < apps_.size(); ++a)
      if (wants_more(a, quota_stage)) heap.push_back({apps_[a].share, a});
    for (std::size_t k = heap.size() / 2; k-- > 0;) sink(heap, k);
    return true;
  }

  void finish(ShareResult& result) {
    flush();
    for (std::uint32_t a = 0; a < apps_.size(); ++a) {
      AppState& s = apps_[a];
      AppShare& out = result.apps[a];
      out.placed = s.placed;
      out.at_max_count = at_max(a);
      if (out.at_max_count) out.frozen_by = "max_count";
      if (!s.unit.kind.empty() && s.count > 0) {
        out.dominant_resource = s.unit.kind;
        out.dominant_share = reduced({static_cast<u128>(s.count) * s.unit.request, s.unit.total});
      }
      if (groups_[s.group].binds) {
        deploy_in_order(s, out);
        continue;
      }
      // The log becomes the deploy in place (merged by node, then by name),
      // so that the apps' logs and deploys are never all held at once.
      std::vector<std::pair<std::uint32_t, std::int64_t>>& log = s.log;
      std::sort(log.begin(), log.end());
      std::size_t end = 0;
      for (std::size_t j = 0; j < log.size(); ++j)
        if (end > 0 && log[end - 1].first == log[j].first)
          log[end - 1].second += log[j].second;
        else
          log[end++] = log[j];
      log.resize(end);
      log.shrink_to_fit();
      out.deploy = std::move(log);
      std::sort(out.deploy.begin(), out.deploy.end(),
                [&](const auto& x, const auto& y) { return rank_[x.first] < rank_[y.first]; });
    }
  }

  // Deploy and assignments by node name, each node's instances in placement
  // order (their plans were taken in that order).
  void deploy_in_order(const AppState& s, AppShare& out) const {
    std::vector<std::uint32_t> order(s.log.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
      return rank_[s.log[x].first] < rank_[s.log[y].first];
    });
    for (const std::uint32_t j : order) {
      const std::uint32_t node = s.log[j].first;
      if (out.deploy.empty() || out.deploy.back().first != node) out.deploy.emplace_back(node, 0);
      ++out.deploy.back().second;
      out.assignments.emplace_back(node, s.plans[j]);
    }
  }

  Inventory& inv_;
  const ShareSpec& spec_;
  const ShareOptions& options_;
  std::vector<AppState> apps_;
  std::vector<Group> groups_;
  std::vector<std::uint32_t> live_;         // groups with an active app
  std::vector<std::uint32_t> rank_;         // node index -> place in name order
  std::vector<std::uint32_t> by_name_;      // place in name order -> node index
  std::vector<std::uint32_t> by_app_name_;  // app indices in name order
  // Each node's row of columns now (row_of), the inverses of its cpu and
  // memory totals for the score.
  std::vector<Amount> amounts_;
  std::size_t columns_ = 0;
  std::uint32_t cpu_column_ = 0, memory_column_ = 0;
  bool limits_instances_ = false;  // some node has max_instances
  std::vector<std::array<std::uint64_t, 2>> inverses_;
  bool deferred_ = true;                     // nothing binds: reserve() only in flush()
  std::vector<std::string> ext_names_;       // extended resources any app asks for, sorted
  std::vector<std::int64_t> count_;          // flush's scratch, by node
  std::vector<std::int64_t> summary_steps_;  // shape -> steps at its last frozen_by
  std::vector<std::string> summaries_;       // shape -> that frozen_by
  // Jumps' scratch: picks, nodes touched (node -> index in added_, or -1),
  // the heap walk, per-shape stamps and the best other node per shape.
  std::vector<Pick> picks_;
  std::vector<std::int32_t> touch_;
  std::vector<std::uint32_t> touched_;
  std::vector<i128> added_;  // touched node x column
  std::vector<std::size_t> stack_;
  std::vector<std::uint64_t> group_stamp_, runner_up_stamp_;
  std::vector<std::pair<std::uint8_t, std::uint32_t>> runner_up_;
  std::uint64_t stamp_ = 0, jump_ = 0;
  mutable std::int64_t work_ = 0;  // ShareOptions::max_work
  std::int64_t logged_ = 0;        // the apps' log entries, ShareOptions::max_entries
  std::int64_t plans_ = 0;         // ShareOptions::max_plans
  // The steps of a node's capacity check in a frozen_by summary (about 0.5
  // us against a step's 10 ns: the bound's 50 million steps stay within 1.5
  // s even when they are all summaries).
  static constexpr std::int64_t kSummaryNodeSteps = 16;
  // Single steps before the next jump is tried, and their last number.
  static constexpr std::int64_t kPatience = 1024;
  std::int64_t skip_ = 0, backoff_ = 0;
};

}  // namespace

ShareResult share(Inventory& state, const ShareSpec& spec, const ShareOptions& options) {
  return Filler(state, spec, options).run();
}

}  // namespace eruplan
