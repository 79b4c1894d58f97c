// Fair share, SPEC §10: progressive filling over weighted dominant shares.
//
// Each step takes the app with the lowest weighted share (ties: fewer new
// instances, then name) and places one instance on its best node. Done
// naively that is apps x nodes capacity checks per step. Here:
// - Apps sit in a heap by weighted share; only the app just placed changes
//   its share (totals are fixed), so picking one is O(log apps).
// - Apps with the same shape (resources, filter, tolerations: shape_of) see
//   the same candidates in the same order and share one bucket queue: the
//   fit score is an integer 0..100, bucket[score] is a bitset of node ranks
//   (name order), the best node the smallest rank of the highest non-empty
//   bucket. Each node is filed with the node revision it was scored at, so
//   a placement, which changes one node, makes only that node stale.
// - first_fit and least_allocated: a node's score never rises as nodes fill,
//   so stale nodes are rescored only when they come to the top (lazily):
//   dropped when they can take no more, moved down a bucket in O(1) when
//   their score fell. For requests that bind nothing, "can take one more"
//   only turns false as nodes fill, so a dropped node stays dropped; a
//   binding shape's node (CPU plans of oversold cores are not monotone) is
//   parked and looked at again whenever that node changes.
// - most_allocated: scores rise as a node fills, so before a shape picks,
//   the nodes changed since its last pick (a shared change log, each node
//   once) are rescored for it and moved up.
// Per step that is O(log apps) plus, amortised, O(shapes) rescorings in the
// worst case (every shape's view of the changed node goes stale; with
// least_allocated a node falls through at most 101 buckets per shape over
// the whole run, each move O(1)), with the summary-word scan of a bitset
// (nodes / 4096 words) to find a bucket's first node. bench/share_bench.cpp
// measures it as apps and nodes grow (figures in README.md).
// The one-at-a-time reference (recompute every share and every node each
// step) lives in tests/share_test.cpp and must agree on random inputs.
#include "share.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>
#include <span>

#include "reserve.h"

namespace eruplan {

namespace {

// --- Exact arithmetic ----------------------------------------------------------

// An unsigned integer of 512 bits, enough for a product of the factors below
// (each < 2^128, together < 2^400; see share_less).
struct Wide {
  std::uint64_t limb[8] = {};
};

Wide times(const Wide& a, std::uint64_t m, int shift) {
  Wide r;
  u128 carry = 0;
  for (int i = 0; i + shift < 8; ++i) {
    const u128 t = static_cast<u128>(a.limb[i]) * m + carry;
    r.limb[i + shift] = static_cast<std::uint64_t>(t);
    carry = t >> 64;
  }
  return r;
}

Wide plus(const Wide& a, const Wide& b) {
  Wide r;
  u128 carry = 0;
  for (int i = 0; i < 8; ++i) {
    const u128 t = static_cast<u128>(a.limb[i]) + b.limb[i] + carry;
    r.limb[i] = static_cast<std::uint64_t>(t);
    carry = t >> 64;
  }
  return r;
}

Wide product(std::initializer_list<u128> factors) {
  Wide w;
  w.limb[0] = 1;
  for (const u128 f : factors) {
    const auto lo = static_cast<std::uint64_t>(f), hi = static_cast<std::uint64_t>(f >> 64);
    w = hi == 0 ? times(w, lo, 0) : plus(times(w, lo, 0), times(w, hi, 1));
  }
  return w;
}

int compare(const Wide& a, const Wide& b) {
  for (int i = 7; i >= 0; --i)
    if (a.limb[i] != b.limb[i]) return a.limb[i] < b.limb[i] ? -1 : 1;
  return 0;
}

u128 gcd(u128 a, u128 b) {
  while (b != 0) {
    const u128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

Fraction reduced(Fraction f) {
  if (f.num == 0) return {0, 1};
  const u128 g = gcd(f.num, f.den);
  return {f.num / g, f.den / g};
}

std::string u128_text(u128 v) {
  if (v == 0) return "0";
  std::string s;
  for (; v != 0; v /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
  return s;
}

// --- The pool and the apps' shares --------------------------------------------

u128 request_of(const Request& r, std::string_view kind) {
  if (kind == "cpu") return static_cast<u128>(r.cpu);
  if (kind == "memory") return static_cast<u128>(r.memory);
  if (kind == "storage") return static_cast<u128>(r.storage);
  for (const auto& [name, n] : r.extended)
    if (name == kind) return static_cast<u128>(n);
  return 0;
}

// An app's dominant kind is the same for every count (its share of kind r
// is count x request_r / total_r, so the largest request_r / total_r wins),
// hence its weighted share is count x unit, with
//   unit = (request_d x weight.den) / (total_d x weight.num).
struct Unit {
  std::string kind;    // empty: the app asks for no kind the pool has
  u128 request = 0;    // request_d (< 2^63)
  u128 total = 1;      // total_d (< 2^95: 2^32 nodes of < 2^63 each)
  Weight weight;       // num, den <= 10^18 < 2^60
  bool small = false;  // a = request x den and b = total x num, reduced, fit 64 bits
  u128 a = 0, b = 1;
};

Unit unit_of(const ShareApp& app, const PoolTotals& totals) {
  Unit u;
  u.weight = app.weight;
  for (const auto& [kind, total] : totals.kinds) {  // byte order: the first of equals wins
    const u128 req = request_of(app.request, kind);
    if (total == 0 || req == 0) continue;
    if (!u.kind.empty() && compare(product({req, u.total}), product({u.request, total})) <= 0)
      continue;
    u.kind = kind;
    u.request = req;
    u.total = total;
  }
  if (u.kind.empty()) return u;
  const u128 limit = u128{1} << 64;
  const u128 a = u.request * u.weight.den;  // < 2^123: no overflow
  if (u.total < (u128{1} << 68)) {          // then total x num < 2^128
    const u128 b = u.total * u.weight.num;
    const u128 g = gcd(a, b);
    u.a = a / g;
    u.b = b / g;
    u.small = u.a < limit && u.b < limit;
  }
  return u;
}

// count x a x b' as a 192-bit number (high 128, low 64) when a, b' < 2^64 and
// count < 2^63: count x a < 2^127 fits, and its product with b' is split.
std::pair<u128, std::uint64_t> mul192(u128 x, u128 y) {
  const u128 lo = static_cast<u128>(static_cast<std::uint64_t>(x)) * static_cast<std::uint64_t>(y);
  const u128 hi = (x >> 64) * static_cast<std::uint64_t>(y);
  return {hi + (lo >> 64), static_cast<std::uint64_t>(lo)};
}

// Compares count1 x unit1 with count2 x unit2 exactly: the cross products
// count x request x weight.den x total' x weight.num' are below
// 2^63 x 2^63 x 2^60 x 2^95 x 2^60 = 2^341, inside Wide's 512 bits, so no
// inventory the loader accepts can overflow it. Realistic sizes (a, b below
// 2^64 once reduced) take the 192-bit path.
int compare_shares(std::int64_t c1, const Unit& u1, std::int64_t c2, const Unit& u2) {
  const bool zero1 = c1 == 0 || u1.kind.empty(), zero2 = c2 == 0 || u2.kind.empty();
  if (zero1 || zero2) return zero1 == zero2 ? 0 : (zero1 ? -1 : 1);
  if (u1.small && u2.small) {
    const auto l = mul192(static_cast<u128>(c1) * u1.a, u2.b);
    const auto r = mul192(static_cast<u128>(c2) * u2.a, u1.b);
    return l == r ? 0 : (l < r ? -1 : 1);
  }
  return compare(
      product({static_cast<u128>(c1), u1.request, u1.weight.den, u2.total, u2.weight.num}),
      product({static_cast<u128>(c2), u2.request, u2.weight.den, u1.total, u1.weight.num}));
}

// --- Nodes ---------------------------------------------------------------------

// The numbers the fit check and the score read, copied out of a Node into
// one cache line, refreshed from the node after each reservation on it.
struct Hot {
  NanoCores cpu = 0, cpu_used = 0;
  Bytes memory = 0, memory_used = 0, storage = 0, storage_used = 0;
  std::int64_t instances = 0, max_instances = -1;
  std::uint64_t revision = 0;

  static Hot of(const Node& n) {
    // Instances are only counted for max_instances (a node runs many apps).
    return {n.cpu_total(),
            n.cpu_used,
            n.memory,
            n.memory_used,
            n.storage,
            n.storage_used,
            n.max_instances >= 0 ? n.instances_total() : 0,
            n.max_instances,
            n.revision};
  }
};

// §9's fit score (no balanced score) over cpu and memory, weight 1 each, for
// one more instance on the node as it is now.
std::int64_t fit_score(const Hot& node, const Request& request, SharePlacement placement) {
  if (placement == SharePlacement::FirstFit) return 0;
  const bool least = placement == SharePlacement::LeastAllocated;
  std::int64_t sum = 0;  // each part is 0..100
  int counted = 0;
  auto add = [&](std::int64_t alloc, std::int64_t used, std::int64_t request) {
    if (alloc <= 0) return;
    ++counted;
    std::int64_t req = 0;  // min(used + request, alloc): least scores 0 past alloc, most 100
    if (__builtin_add_overflow(used, request, &req) || req > alloc) req = alloc;
    const std::int64_t part = least ? alloc - req : req;
    if (alloc < (std::int64_t{1} << 56))  // x 100 stays below 2^63
      sum += part * 100 / alloc;
    else
      sum += static_cast<std::int64_t>(static_cast<u128>(part) * 100 / static_cast<u128>(alloc));
  };
  add(node.cpu, node.cpu_used, request.cpu);
  add(node.memory, node.memory_used, request.memory);
  return counted == 0 ? 0 : sum / counted;
}

// Taints (SPEC §9) never change during a run: checked once per node and shape.
bool tolerated(const Node& node, const Request& request) {
  for (const Taint& taint : node.taints) {
    if (taint.effect == "PreferNoSchedule") continue;
    bool ok = false;
    for (const Toleration& t : request.tolerations) ok = ok || t.tolerates(taint);
    if (!ok) return false;
  }
  return true;
}

// capacity >= 1 for one more instance, as node_capacity() would say, on an
// available node whose taints the request tolerates. Requests that bind
// nothing are checked dimension by dimension without building reasons (the
// hot path); binding ones go through node_capacity itself.
bool can_take_one(const Inventory& inventory, const Hot& h, std::uint32_t index,
                  const Request& request, bool binds) {
  if (binds) return node_capacity(inventory, request, index, {0, 1}).capacity >= 1;
  if (request.cpu > h.cpu) return false;
  if (request.cpu > 0 && h.cpu - h.cpu_used < request.cpu) return false;
  if (request.memory > 0 && h.memory - h.memory_used < request.memory) return false;
  if (request.storage > 0 && h.storage - h.storage_used < request.storage) return false;
  for (const auto& [name, per_instance] : request.extended) {
    if (per_instance <= 0) continue;
    const ExtendedResource* e = inventory.nodes[index].find_extended(name);
    if (e == nullptr || e->total - e->used < per_instance) return false;
  }
  return h.max_instances < 0 || h.max_instances - h.instances >= 1;
}

// Everything a node's verdict for one more instance depends on: apps with
// the same shape see the same candidates in the same order, so they share
// one heap (a placement then costs one stale entry per shape, not per app).
std::string shape_of(const Request& r) {
  std::string k = std::to_string(r.cpu) + (r.cpu_bind ? "b" : "f") + std::to_string(r.memory) +
                  "/" + std::to_string(r.storage);
  auto add = [&k](std::string_view part) {
    k += '\x1f';
    k += std::to_string(part.size()) + ':';
    k += part;
  };
  for (const auto& [name, n] : r.extended) add(name), add(std::to_string(n));
  k += "|v";
  for (const VolumeRequest& v : r.volumes) add(v.binding);
  k += "|l";
  for (const auto& [key, value] : r.filter.labels) add(key), add(value);
  k += "|n";
  for (const std::string& n : r.filter.nodes) add(n);
  k += "|x";
  for (const std::string& n : r.filter.exclude) add(n);
  k += "|t";
  for (const Toleration& t : r.tolerations)
    add(t.key), add(t.exists ? "E" : "="), add(t.value), add(t.effect);
  return k;
}

// A set of node ranks (name order) with the smallest found fast: one bit
// per rank and one summary bit per non-empty 64-bit word. Insert and erase
// are O(1); the smallest rank costs a scan of summary words from the lowest
// one that may be non-empty (n / 4096 words at most).
class RankSet {
 public:
  explicit RankSet(std::size_t n = 0) : n_(n) {}
  bool empty() const { return count_ == 0; }
  void insert(std::uint32_t r) {
    if (bits_.empty()) {  // allocated on first use: most buckets of a shape stay empty
      bits_.assign((n_ + 63) / 64, 0);
      summary_.assign((bits_.size() + 63) / 64, 0);
    }
    const std::size_t w = r >> 6;
    const std::uint64_t bit = std::uint64_t{1} << (r & 63);
    if ((bits_[w] & bit) != 0) return;
    bits_[w] |= bit;
    summary_[w >> 6] |= std::uint64_t{1} << (w & 63);
    ++count_;
    low_ = std::min(low_, w >> 6);
  }
  void erase(std::uint32_t r) {
    const std::size_t w = r >> 6;
    const std::uint64_t bit = std::uint64_t{1} << (r & 63);
    if (bits_.empty() || (bits_[w] & bit) == 0) return;
    bits_[w] &= ~bit;
    if (bits_[w] == 0) summary_[w >> 6] &= ~(std::uint64_t{1} << (w & 63));
    --count_;
  }
  std::uint32_t front() {  // not empty
    while (summary_[low_] == 0) ++low_;
    const std::size_t w = low_ * 64 + static_cast<std::size_t>(__builtin_ctzll(summary_[low_]));
    return static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits_[w])));
  }

 private:
  std::size_t n_;
  std::vector<std::uint64_t> bits_, summary_;
  std::size_t count_ = 0;
  std::size_t low_ = 0;  // summary words below it are all zero
};

// A shape's candidate nodes as a bucket queue: the fit score is an integer
// 0..100, so bucket[score] holds the ranks of the nodes filed under it and
// the best node is the smallest rank of the highest non-empty bucket; a node
// that falls a bucket moves in O(1). Each node's bucket and the revision it
// was scored at are kept per node.
constexpr int kBuckets = 101;
struct Group {
  const Request* request = nullptr;  // of its first app
  bool binds = false;
  std::vector<RankSet> bucket;  // score -> ranks
  int top = -1;                 // no bucket above is non-empty
  struct Filed {
    std::uint64_t revision = 0;  // the node's revision it was scored at
    int score = -1;              // its bucket; -1 = none
  };
  std::vector<Filed> filed;   // by node index
  std::vector<bool> accepts;  // most_allocated: candidate nodes
  std::size_t cursor = 0;     // most_allocated: change log read so far
};

struct AppState {
  Unit unit;
  std::uint32_t group = 0;
  std::int64_t count = 0;  // existing + new
  std::int64_t placed = 0;
  bool frozen = false;
  std::vector<std::uint32_t> log;  // nodes placed on, in order
  std::vector<Plan> plans;         // binding apps: each instance's plan, same order
};

class Filler {
 public:
  Filler(Inventory& state, const ShareSpec& spec, const ShareOptions& options)
      : inv_(state), spec_(spec), options_(options), apps_(spec.apps.size()) {}

  ShareResult run() {
    ShareResult result;
    result.apps.resize(apps_.size());
    setup(result);
    if (!fill(true, result)) return result;
    fill(false, result);
    finish(result);
    return result;
  }

 private:
  bool grows() const { return spec_.placement == SharePlacement::MostAllocated; }

  int score(std::uint32_t g, std::uint32_t node) const {
    return static_cast<int>(fit_score(hot_[node], *groups_[g].request, spec_.placement));
  }

  // Files a node that can take one more under its current score.
  void insert(std::uint32_t gi, std::uint32_t node) {
    Group& g = groups_[gi];
    const int sc = score(gi, node);
    g.filed[node] = {hot_[node].revision, sc};
    g.bucket[static_cast<std::size_t>(sc)].insert(rank_[node]);
    g.top = std::max(g.top, sc);
  }

  bool fits(std::uint32_t g, std::uint32_t node) const {
    return can_take_one(inv_, hot_[node], node, *groups_[g].request, groups_[g].binds);
  }

  void setup(ShareResult& result) {
    const std::size_t n = inv_.nodes.size();
    const std::vector<std::uint32_t> by_name = filtered_nodes(inv_, NodeFilter{});
    by_name_ = by_name;
    rank_.resize(n);
    for (std::uint32_t r = 0; r < by_name.size(); ++r) rank_[by_name[r]] = r;
    parked_.resize(n);
    seen_.assign(n, 0);
    hot_.reserve(n);
    for (const Node& node : inv_.nodes) hot_.push_back(Hot::of(node));
    const PoolTotals totals = pool_totals(inv_);
    std::vector<std::string> shapes;
    for (std::uint32_t a = 0; a < apps_.size(); ++a) {
      const ShareApp& app = spec_.apps[a];
      AppState& s = apps_[a];
      s.unit = unit_of(app, totals);
      for (const Node& node : inv_.nodes)
        if (node.available) s.count += node.instances_of(app.name);
      result.apps[a].existing = s.count;
      std::string shape = shape_of(app.request);
      const auto it = std::find(shapes.begin(), shapes.end(), shape);
      s.group = static_cast<std::uint32_t>(it - shapes.begin());
      if (it != shapes.end()) continue;
      shapes.push_back(std::move(shape));
      groups_.emplace_back();
      Group& g = groups_.back();
      g.request = &app.request;
      g.binds = binds_anything(app.request);
      g.bucket.assign(kBuckets, RankSet(n));
      g.filed.assign(n, {});
      if (grows()) g.accepts.assign(n, false);
      for (const std::uint32_t i : filtered_nodes(inv_, app.request.filter)) {
        if (!inv_.nodes[i].available) continue;
        // Not tolerated: never a candidate (binding shapes check in node_capacity).
        if (!g.binds && !tolerated(inv_.nodes[i], app.request)) continue;
        if (grows()) g.accepts[i] = true;
        if (fits(s.group, i))
          insert(s.group, i);
        else if (g.binds && !grows())
          parked_[i].push_back(s.group);
      }
    }
  }

  // most_allocated: rescore, for this shape, every node changed since its
  // last pick (each once), and file it again where its score moved.
  void refresh(std::uint32_t gi) {
    Group& g = groups_[gi];
    ++stamp_;
    for (; g.cursor < changes_.size(); ++g.cursor) {
      const std::uint32_t i = changes_[g.cursor];
      if (seen_[i] == stamp_ || !g.accepts[i]) continue;
      seen_[i] = stamp_;
      Group::Filed& filed = g.filed[i];
      const int sc = fits(gi, i) ? score(gi, i) : -1;
      if (sc >= 0 && sc == filed.score) {
        filed.revision = hot_[i].revision;
        continue;
      }
      if (filed.score >= 0) g.bucket[static_cast<std::size_t>(filed.score)].erase(rank_[i]);
      filed.score = -1;
      if (sc >= 0) insert(gi, i);
    }
  }

  std::optional<std::uint32_t> best_node(std::uint32_t a) {
    const std::uint32_t gi = apps_[a].group;
    Group& g = groups_[gi];
    if (grows()) refresh(gi);
    while (g.top >= 0) {
      RankSet& bucket = g.bucket[static_cast<std::size_t>(g.top)];
      if (bucket.empty()) {
        --g.top;
        continue;
      }
      const std::uint32_t rank = bucket.front();
      const std::uint32_t i = by_name_[rank];
      Group::Filed& filed = g.filed[i];
      const std::uint64_t revision = hot_[i].revision;
      if (filed.revision == revision) return i;  // scored on the state as it is
      // Changed since it was scored (first_fit, least_allocated: its score
      // can only have fallen). It can take none: drop it. Its score did not
      // move: still the best, since every other node's true score is at most
      // its filed one. Else file it lower and look again.
      if (!fits(gi, i)) {
        bucket.erase(rank);
        filed.score = -1;
        if (g.binds) parked_[i].push_back(gi);
        continue;
      }
      const int sc = score(gi, i);
      if (sc == g.top) {
        filed.revision = revision;
        return i;
      }
      bucket.erase(rank);
      insert(gi, i);
    }
    return std::nullopt;
  }

  void place(std::uint32_t a, std::uint32_t i) {
    AppState& s = apps_[a];
    const Request& request = spec_.apps[a].request;
    if (groups_[s.group].binds) {
      const NodeCapacity nc = node_capacity(inv_, request, i, {1, 1});
      const Plan* plan = assigned_plan(nc, 0);
      const Plan taken = plan != nullptr ? *plan : Plan{};
      reserve(inv_, i, request, 1, std::span<const Plan>(&taken, 1));
      s.plans.push_back(taken);
    } else {
      reserve(inv_, i, request, 1, {});
    }
    hot_[i] = Hot::of(inv_.nodes[i]);
    ++s.count;
    ++s.placed;
    s.log.push_back(i);
    if (grows()) {
      changes_.push_back(i);
      return;
    }
    std::vector<std::uint32_t>& parked = parked_[i];
    if (parked.empty()) return;
    std::vector<std::uint32_t> still;
    for (const std::uint32_t gi : parked) {
      if (fits(gi, i))
        insert(gi, i);
      else
        still.push_back(gi);
    }
    parked.swap(still);
  }

  // Lower weighted share first; ties: fewer new instances, then name.
  bool before(std::uint32_t x, std::uint32_t y) const {
    const AppState &a = apps_[x], &b = apps_[y];
    const int c = compare_shares(a.count, a.unit, b.count, b.unit);
    if (c != 0) return c < 0;
    if (a.placed != b.placed) return a.placed < b.placed;
    return spec_.apps[x].name < spec_.apps[y].name;
  }

  bool wants_more(std::uint32_t a, bool quota_stage) const {
    const ShareApp& app = spec_.apps[a];
    const AppState& s = apps_[a];
    if (s.frozen) return false;
    if (app.max_count >= 0 && s.placed >= app.max_count) return false;
    return !quota_stage || s.placed < app.quota;
  }

  // §13's summary of why no candidate node takes one more. Apps of one shape
  // often freeze one after another with nothing placed between: one
  // capacity pass serves them all.
  std::string frozen_summary(std::uint32_t a, std::int64_t steps) {
    if (!options_.explain_frozen) return "no node can take one more";
    const std::uint32_t g = apps_[a].group;
    if (summary_steps_.size() <= g) summary_steps_.resize(groups_.size(), -1);
    if (summary_steps_[g] == steps) return summaries_[g];
    CapacityOptions capacity;
    capacity.max_plans = 0;
    capacity.jobs = options_.jobs;
    const CapacityMap map = capacity_pass(inv_, spec_.apps[a].request, capacity);
    summaries_.resize(groups_.size());
    summary_steps_[g] = steps;
    return summaries_[g] = infeasible_summary(inv_, map, 1);
  }

  // One stage of progressive filling; false when stage 1 froze an app.
  bool fill(bool quota_stage, ShareResult& result) {
    auto later = [this](std::uint32_t x, std::uint32_t y) { return before(y, x); };
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, decltype(later)> queue(later);
    for (std::uint32_t a = 0; a < apps_.size(); ++a)
      if (wants_more(a, quota_stage)) queue.push(a);
    while (!queue.empty()) {
      const std::uint32_t a = queue.top();
      queue.pop();
      const std::optional<std::uint32_t> node = best_node(a);
      if (!node) {
        apps_[a].frozen = true;
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
      place(a, *node);
      ++result.steps;
      if (wants_more(a, quota_stage)) queue.push(a);
    }
    return true;
  }

  void finish(ShareResult& result) {
    for (std::uint32_t a = 0; a < apps_.size(); ++a) {
      const ShareApp& app = spec_.apps[a];
      AppState& s = apps_[a];
      AppShare& out = result.apps[a];
      out.placed = s.placed;
      out.at_max_count = app.max_count >= 0 && s.placed >= app.max_count;
      if (out.at_max_count) out.frozen_by = "max_count";
      if (!s.unit.kind.empty() && s.count > 0) {
        out.dominant_resource = s.unit.kind;
        out.dominant_share = reduced({static_cast<u128>(s.count) * s.unit.request, s.unit.total});
      }
      std::vector<std::uint32_t> order(s.log.size());
      std::iota(order.begin(), order.end(), 0u);
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
        return rank_[s.log[x]] < rank_[s.log[y]];
      });
      for (const std::uint32_t j : order) {
        const std::uint32_t node = s.log[j];
        if (out.deploy.empty() || out.deploy.back().first != node) out.deploy.emplace_back(node, 0);
        ++out.deploy.back().second;
        if (groups_[s.group].binds) out.assignments.emplace_back(node, s.plans[j]);
      }
    }
  }

  Inventory& inv_;
  const ShareSpec& spec_;
  const ShareOptions& options_;
  std::vector<AppState> apps_;
  std::vector<Group> groups_;
  std::vector<std::uint32_t> rank_;                 // node index -> place in name order
  std::vector<std::uint32_t> by_name_;              // place in name order -> node index
  std::vector<Hot> hot_;                            // node index -> its numbers now
  std::vector<std::int64_t> summary_steps_;         // shape -> steps at its last frozen_by
  std::vector<std::string> summaries_;              // shape -> that frozen_by
  std::vector<std::vector<std::uint32_t>> parked_;  // node -> binding shapes waiting on it
  std::vector<std::uint32_t> changes_;              // most_allocated: nodes changed, in order
  std::vector<std::uint64_t> seen_;                 // node -> last refresh that saw it
  std::uint64_t stamp_ = 0;
};

}  // namespace

std::string_view placement_name(SharePlacement p) {
  switch (p) {
    case SharePlacement::FirstFit:
      return "first_fit";
    case SharePlacement::LeastAllocated:
      return "least_allocated";
    case SharePlacement::MostAllocated:
      return "most_allocated";
  }
  return "least_allocated";
}

std::string fraction_text(Fraction f) {
  f = reduced(f);
  if (f.den == 1) return u128_text(f.num);
  return u128_text(f.num) + "/" + u128_text(f.den);
}

std::string decimal_text(Fraction f, int decimals) {
  u128 whole = f.num / f.den, rest = f.num % f.den;
  std::string digits;
  for (int i = 0; i < decimals; ++i) {
    rest *= 10;  // rest < den < 2^124 (den is a pool total): no overflow
    digits += static_cast<char>('0' + static_cast<int>(rest / f.den));
    rest %= f.den;
  }
  if (rest >= f.den - rest) {  // half or more of the last place: away from zero
    int i = decimals - 1;
    for (; i >= 0 && digits[static_cast<std::size_t>(i)] == '9'; --i)
      digits[static_cast<std::size_t>(i)] = '0';
    if (i >= 0)
      ++digits[static_cast<std::size_t>(i)];
    else
      ++whole;
  }
  return decimals == 0 ? u128_text(whole) : u128_text(whole) + "." + digits;
}

PoolTotals pool_totals(const Inventory& inventory) {
  PoolTotals t;
  u128 cpu = 0, memory = 0, storage = 0;
  std::vector<std::pair<std::string, u128>> extended;
  for (const Node& node : inventory.nodes) {
    if (!node.available) continue;
    cpu += static_cast<u128>(node.cpu_total());
    memory += static_cast<u128>(node.memory);
    storage += static_cast<u128>(node.storage);
    for (const ExtendedResource& e : node.extended) extended.emplace_back(e.name, e.total);
  }
  t.kinds = {{"cpu", cpu}, {"memory", memory}, {"storage", storage}};
  std::sort(extended.begin(), extended.end());
  for (const auto& [name, n] : extended) {
    if (t.kinds.back().first == name)
      t.kinds.back().second += n;
    else
      t.kinds.emplace_back(name, n);
  }
  std::sort(t.kinds.begin(), t.kinds.end());
  return t;
}

ShareResult share(Inventory& state, const ShareSpec& spec, const ShareOptions& options) {
  return Filler(state, spec, options).run();
}

}  // namespace eruplan
