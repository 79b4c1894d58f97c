// score (SPEC §9): place instances as kube-scheduler places pods, one at a
// time on the node whose NodeResourcesFit and NodeResourcesBalancedAllocation
// scores for one more instance add up highest; ties by name.
// nodes_limit: no meaning for score.
//
// A node's score depends only on how many new instances it has so far (k),
// so nothing in the inventory changes while we plan: every node is scored
// once for k = 0 (in --jobs threads, each writing its own slot), then a
// max-heap keyed by (total, -index) gives the best node; only that node is
// scored again, for k + 1. The popped node keeps taking instances while its
// new total still beats the heap's top, and a node whose score cannot change
// (the request adds nothing to any resource it is scored on) takes all it
// can at once, so an unlimited node costs one step. Feasibility needs no
// placing at all: every node is filled before one is refused, so score
// places `count` exactly when the total capacity reaches it.
//
// Arithmetic is exact: products such as (alloc - req) x 100 are formed in
// 128 bits, where Kubernetes' int64 could overflow on exabyte nodes; the
// balanced score is IEEE double as the SPEC writes it.
#include "strategy_score.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "bisect.h"
#include "capacity.h"
#include "case_work.h"
#include "k8s_profile.h"
#include "parallel.h"
#include "reserve.h"
#include "resources.h"
#include "wide.h"

namespace eruplan {

namespace {

// The broken line through the shape (scores x 10) at utilization u; integer
// division truncates toward zero, also on a falling segment.
i128 broken_line(const std::vector<ShapePoint>& shape, i128 u) {
  if (shape.empty()) return 0;
  if (u <= shape.front().utilization) return shape.front().score * 10;
  for (std::size_t i = 1; i < shape.size(); ++i) {
    if (u <= shape[i].utilization) {
      const i128 s0 = shape[i - 1].score * 10, s1 = shape[i].score * 10;
      const i128 u0 = shape[i - 1].utilization, u1 = shape[i].utilization;
      return s0 + (s1 - s0) * (u - u0) / (u1 - u0);
    }
  }
  return shape.back().score * 10;
}

std::int64_t balanced_score(std::span<const ScoredResource> resources, std::int64_t k) {
  const auto fraction = [k](const ScoredResource& r) {
    const i128 req = i128{r.used} + i128{k + 1} * r.per_instance;
    return std::min(static_cast<double>(req) / static_cast<double>(r.alloc), 1.0);
  };
  std::size_t n = 0;
  double sum = 0, first = 0, second = 0;
  for (const ScoredResource& r : resources) {
    if (r.alloc <= 0) continue;
    const double f = fraction(r);
    if (n == 0) first = f;
    if (n == 1) second = f;
    sum += f;
    ++n;
  }
  double std_dev = 0;
  if (n == 2) {
    std_dev = std::fabs((first - second) / 2);
  } else if (n > 2) {
    const double mean = sum / static_cast<double>(n);
    double squares = 0;
    for (const ScoredResource& r : resources) {
      if (r.alloc <= 0) continue;
      const double d = fraction(r) - mean;
      squares += d * d;
    }
    std_dev = std::sqrt(squares / static_cast<double>(n));
  }
  return static_cast<std::int64_t>((1 - std_dev) * 100);
}

// Nodes whose score is the same for every k: nothing they are scored on grows.
bool constant_score(std::span<const ScoredResource> resources) {
  return std::all_of(resources.begin(), resources.end(),
                     [](const ScoredResource& r) { return r.alloc <= 0 || r.per_instance == 0; });
}

// The first k' > k whose score may differ from k's: every k in [k, k') scores
// as k does (INT64_MAX when no later k can differ). Exact, never a guess:
// - fit: each resource's part is a function of floor(req x 100 / alloc) and
//   ceil(req x 100 / alloc) (constant once req reaches alloc), which change
//   only where req x 100 reaches or passes a multiple of alloc;
// - balanced: constant with at most one resource on the node, or nothing
//   that grows, or weight 0. With two resources of which one grows, its
//   fraction (IEEE, monotone in k) moves |first - second| one way until it
//   passes the other and the other way after: the score is monotone on each
//   side, and a bisection finds where it leaves k's value; with both
//   growing, the same once their difference provably moves one way (or
//   provably stays 0). Anything else steps one instance at a time.
std::int64_t next_change(std::span<const ScoredResource> resources, const Scoring& scoring,
                         std::int64_t k) {
  constexpr std::int64_t kNever = INT64_MAX;
  std::int64_t next = kNever;
  // The first k'' > k whose req reaches `target` (req = used + (k'' + 1) x per).
  const auto first_reaching = [&](const ScoredResource& r, i128 target) -> std::int64_t {
    const i128 need = target - r.used;  // (k'' + 1) x per >= need
    const i128 k2 = (need + r.per_instance - 1) / r.per_instance - 1;
    if (k2 <= k) return k + 1;
    return k2 >= kNever ? kNever : static_cast<std::int64_t>(k2);
  };
  std::size_t counted = 0, growing = 0;
  std::int64_t capped_at = kNever;  // where the growing resource reaches its alloc
  for (const ScoredResource& r : resources) {
    if (r.alloc <= 0) continue;
    ++counted;
    if (r.per_instance <= 0) continue;
    const i128 req = i128{r.used} + i128{k + 1} * r.per_instance;
    if (req >= r.alloc) continue;  // every part is constant from here on
    ++growing;
    const i128 x = req * 100, alloc = r.alloc;
    // floor changes when x reaches the next multiple; ceil as soon as x
    // passes a multiple it sits on.
    const i128 target100 = x % alloc == 0 ? x + 1 : (x / alloc + 1) * alloc;
    next = std::min(next, first_reaching(r, (target100 + 99) / 100));
    capped_at = std::min(capped_at, first_reaching(r, alloc));
  }
  next = std::min(next, capped_at);  // a growing resource reaching alloc: its parts cap
  if (scoring.balanced_weight == 0 || counted <= 1 || growing == 0) return next;
  if (counted != 2) return k + 1;
  // Two resources, in list order (first, second), none capped before end.
  const ScoredResource* two[2] = {nullptr, nullptr};
  for (const ScoredResource& r : resources)
    if (r.alloc > 0) (two[0] == nullptr ? two[0] : two[1]) = &r;
  const std::int64_t end = next;  // > k; fit is constant and no growing req reaches alloc before it
  if (growing == 2) {
    // first - second moves by s = p1 / a1 - p2 / a2 an instance. Its double
    // is within 2.5 x 2^-52 of the exact value, so with |s| >= 2^-45 it
    // strictly follows s's direction; with s = 0 and equal fractions the
    // two doubles are the same division (below 2^53) and it stays 0.
    const auto ratio = [](const ScoredResource* r, i128 x) {
      return static_cast<long double>(x) / static_cast<long double>(r->alloc);
    };
    const long double slope =
        ratio(two[0], two[0]->per_instance) - ratio(two[1], two[1]->per_instance);
    if (slope > -0x1p-44L && slope < 0x1p-44L) {
      const i128 a0 = two[0]->alloc, a1 = two[1]->alloc;
      const i128 limit = i128{1} << 53;
      const i128 req0 = i128{two[0]->used} + i128{end} * two[0]->per_instance;
      const i128 req1 = i128{two[1]->used} + i128{end} * two[1]->per_instance;
      const bool equal = i128{two[0]->per_instance} * a1 == i128{two[1]->per_instance} * a0 &&
                         i128{two[0]->used} * a1 == i128{two[1]->used} * a0;
      if (equal && a0 < limit && a1 < limit && req0 < limit && req1 < limit) return end;
      return k + 1;
    }
  }
  // balanced reads |first - second| / 2: on each side of where the
  // difference changes sign it moves one way, so the score does too.
  const auto negative = [&](std::int64_t kk) {
    double f[2];
    for (int j = 0; j < 2; ++j) {
      const i128 req = i128{two[j]->used} + i128{kk + 1} * two[j]->per_instance;
      f[j] = std::min(static_cast<double>(req) / static_cast<double>(two[j]->alloc), 1.0);
    }
    return f[0] - f[1] < 0;
  };
  const std::int64_t last = end - 1;
  if (last <= k) return end;
  const bool side = negative(k);
  std::int64_t piece_end = end;  // k's monotone piece is [k, piece_end)
  if (negative(last) != side)
    piece_end = first_true(k, last, [&](std::int64_t kk) { return negative(kk) != side; });
  const std::int64_t here = balanced_score(resources, k);
  if (balanced_score(resources, piece_end - 1) == here) return piece_end;  // monotone: all equal
  return first_true(k, piece_end - 1,
                    [&](std::int64_t kk) { return balanced_score(resources, kk) != here; });
}

// The kinds that stop a node holding `cap` new instances from taking one
// more, read off each dimension of the table alone: those that allow exactly `cap`. Exact
// for every dimension but CPU-bind mode, whose core plans carry the memory
// cap too (it then says cpu); see kinds_when_full.
std::vector<std::string> kinds_by_dimension(const Inventory& inventory, const Request& request,
                                            std::uint32_t index, std::int64_t cap) {
  const Node& node = inventory.nodes[index];
  const DimensionInput in{inventory, node, request, 0};
  std::vector<std::string> kinds;
  for (const DimensionRow& row : kDimensions) {
    if (row.full_kinds)
      row.full_kinds(in, cap, kinds);
    else if (!row.kind.empty() && row.capacity(in).capacity == cap)
      kinds.emplace_back(row.kind);
  }
  std::sort(kinds.begin(), kinds.end(), reason_kind_less);
  return kinds;
}

}  // namespace

std::string kubernetes_words(const std::string& kind, bool kubernetes_input) {
  if (kind == "not available") return "node(s) were unschedulable";
  if (kind == "taint") return "node(s) had untolerated taint";
  if (kind == "instances") return "Too many pods";
  if (kind == "node affinity") return "node(s) didn't match Pod's node affinity/selector";
  if (kind == "ports") return "node(s) didn't have free ports for the requested pod ports";
  if (kind == "anti-affinity") return "node(s) didn't match pod anti-affinity rules";
  if (kind == "storage" && kubernetes_input) return "Insufficient ephemeral-storage";
  return "Insufficient " + kind;
}

std::vector<std::string> kinds_when_full(const Inventory& inventory, const Request& request,
                                         std::uint32_t index, std::int64_t cap) {
  if (!binds_anything(request) || cap > kDefaultMaxPlans)
    return kinds_by_dimension(inventory, request, index, cap);
  Inventory one;
  one.share_base = inventory.share_base;
  one.max_fragment_cores = inventory.max_fragment_cores;
  one.nodes.push_back(inventory.nodes[index]);
  const std::vector<Plan> plans = node_capacity(one, request, 0, CapacityOptions{cap, 1}).plans;
  reserve(one, 0, request, cap, plans);
  return reason_kinds(node_capacity(one, request, 0, CapacityOptions{0, 1}).reasons);
}

namespace {

// SPEC §9's Kubernetes line for the instance that could not be placed:
// every node is full or has capacity 0. N counts the nodes after
// node_filter (the CapacityMap; without one, the infos).
std::string unavailable_message(const StrategyInput& in) {
  std::map<std::string, std::int64_t> counts;
  const auto count = [&](const std::vector<std::string>& kinds) {
    for (const std::string& kind : kinds) ++counts[kind];
  };
  std::size_t nodes = in.infos.size();
  if (in.capacity != nullptr) {
    nodes = in.capacity->nodes.size();
    for (const NodeCapacity& nc : in.capacity->nodes)
      if (nc.capacity == 0) count(reason_kinds(nc.reasons));
  }
  for (const StrategyInfo& info : in.infos)
    count(kinds_when_full(*in.inventory, *in.request, info.node, info.capacity));
  return unavailable_summary(nodes, {counts.begin(), counts.end()}, in.request->pod != nullptr);
}

struct HeapEntry {
  std::int64_t total;
  std::uint32_t index;  // into the infos: the lower, the earlier the name
};
// std heap order: the top is the highest total, then the lowest index.
bool heap_less(const HeapEntry& a, const HeapEntry& b) {
  return a.total != b.total ? a.total < b.total : a.index > b.index;
}

}  // namespace

std::vector<ScoredResource> scored_resources(const Node& node, const Request& request) {
  std::vector<ScoredResource> out;
  out.reserve(request.scoring.resources.size());
  for (const ScoringResource& sr : request.scoring.resources) {
    ScoredResource r;
    r.weight = sr.weight;
    // An extended resource the request does not ask for is skipped, as
    // Kubernetes skips it; one the node lacks scores nothing.
    const ResourceAmounts a = resource_amounts(node, request, sr.name);
    if (a.on_node && (resource_kind(sr.name) != nullptr || a.per_instance > 0))
      r = {a.total, a.used, a.per_instance, sr.weight};
    out.push_back(r);
  }
  return out;
}

// a / b (b > 0), truncated as i128 division is: in 64 bits when both fit,
// as they nearly always do (i128 division is a library call, a tenth of the
// kubernetes profile's time per replica on two nodes).
namespace {
i128 divide(i128 a, i128 b) {
  if (a >= INT64_MIN && a <= INT64_MAX && b <= INT64_MAX)
    return static_cast<std::int64_t>(a) / static_cast<std::int64_t>(b);
  return a / b;
}
}  // namespace

std::int64_t fit_score(std::span<const ScoredResource> resources, const Scoring& scoring,
                       std::int64_t k) {
  i128 weighted = 0, weights = 0;
  for (const ScoredResource& r : resources) {
    if (r.alloc <= 0) continue;  // skipped, weight not counted
    const i128 alloc = r.alloc;
    const i128 req = i128{r.used} + i128{k + 1} * r.per_instance;
    i128 s = 0;
    switch (scoring.type) {
      case ScoringType::LeastAllocated:
        s = req > alloc ? 0 : divide((alloc - req) * 100, alloc);
        break;
      case ScoringType::MostAllocated:
        s = divide(std::min(req, alloc) * 100, alloc);
        break;
      case ScoringType::RequestedToCapacityRatio:
        s = broken_line(scoring.shape, req > alloc ? 100 : divide(req * 100, alloc));
        if (s <= 0) continue;  // only resources scoring above 0 count here
        break;
    }
    weighted += s * r.weight;
    weights += r.weight;
  }
  if (weights == 0) return 0;
  // requested_to_capacity_ratio rounds half away from zero (all terms are >= 0).
  return static_cast<std::int64_t>(scoring.type == ScoringType::RequestedToCapacityRatio
                                       ? divide(2 * weighted + weights, 2 * weights)
                                       : divide(weighted, weights));
}

NodeScore score_node(std::span<const ScoredResource> resources, const Scoring& scoring,
                     std::int64_t k) {
  NodeScore out;
  out.fit = fit_score(resources, scoring, k);
  // Not computed for a request asking for none of the resources scored.
  if (std::any_of(resources.begin(), resources.end(),
                  [](const ScoredResource& r) { return r.per_instance > 0; }))
    out.balanced = balanced_score(resources, k);
  out.total = scoring.fit_weight * out.fit + scoring.balanced_weight * out.balanced;
  return out;
}

std::string unavailable_summary(std::size_t nodes,
                                const std::vector<std::pair<std::string, std::int64_t>>& kinds,
                                bool kubernetes_input) {
  std::vector<std::string> parts;
  for (const auto& [kind, n] : kinds)
    parts.push_back(std::to_string(n) + " " + kubernetes_words(kind, kubernetes_input));
  std::sort(parts.begin(), parts.end());
  std::string out = "0/" + std::to_string(nodes) + " nodes are available";
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? ": " : ", ") + parts[i];
  return out + ".";
}

StrategyResult score_strategy(const StrategyInput& in) {
  if (in.request->scoring.profile == ScoringProfile::Kubernetes) return k8s_profile_strategy(in);
  const std::size_t n = in.infos.size();
  if (in.count <= 0) return *strategy_precheck("score", n, in.count);
  const Request& request = *in.request;
  const Scoring& scoring = request.scoring;
  const std::size_t width = scoring.resources.size();

  // Map: every node's resources and its scores for its first new instance.
  std::vector<ScoredResource> table(n * width);
  StrategyResult result;
  result.deploy.assign(n, 0);
  result.scores.resize(n);
  parallel_for(n, in.jobs, [&](std::size_t i) {
    const std::vector<ScoredResource> row =
        scored_resources(in.inventory->nodes[in.infos[i].node], request);
    std::copy(row.begin(), row.end(), table.begin() + static_cast<std::ptrdiff_t>(i * width));
    result.scores[i] = score_node(row, scoring, 0);
  });
  const auto row = [&](std::size_t i) {
    return std::span<const ScoredResource>(table.data() + i * width, width);
  };

  if (in.total != kUnlimited && in.total < in.count) {
    result.outcome = StrategyOutcome::Infeasible;
    result.message = NamedReason(unavailable_message(in));
    return result;
  }

  // Reduce: one instance at a time on the best node.
  std::vector<HeapEntry> heap(n);
  for (std::size_t i = 0; i < n; ++i)
    heap[i] = {result.scores[i].total, static_cast<std::uint32_t>(i)};
  std::make_heap(heap.begin(), heap.end(), heap_less);
  std::int64_t remaining = in.count;
  std::int64_t steps = 0;  // one per resource scored, each time a node's score is recomputed
  const std::int64_t step = static_cast<std::int64_t>(width) + 1;
  const auto earlier =
      static_cast<std::int64_t>(case_work_before(static_cast<double>(kScoreSteps)));
  const std::int64_t limit = kScoreSteps - earlier;
  while (remaining > 0 && !heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), heap_less);
    HeapEntry best = heap.back();
    heap.pop_back();
    const std::size_t i = best.index;
    std::int64_t& k = result.deploy[i];
    const std::int64_t cap = in.infos[i].capacity;
    if (constant_score(row(i))) {
      const std::int64_t take = std::min(remaining, cap - k);
      k += take;
      remaining -= take;
      continue;  // now full, or nothing remains
    }
    for (;;) {
      // Every instance up to the node's next score change scores as this one
      // and beats the same top: they go at once.
      std::int64_t run = std::min(remaining, cap - k);
      if (!heap.empty()) run = std::min(run, next_change(row(i), scoring, k) - k);
      k += run;
      remaining -= run;
      if (remaining == 0 || k == cap) break;
      if ((steps += step) > limit) {
        StrategyResult over = strategy_failure(
            n, NamedReason("too large: score recomputed the nodes' scores more than " +
                           std::to_string(std::max<std::int64_t>(limit, 0) / step) + " times for " +
                           std::to_string(in.count) +
                           " instances (its scored resources change with each instance "
                           "placed, so they go one at a time" +
                           (earlier > 0 ? "; the cases run before it took " +
                                              std::to_string(earlier / step) + " more"
                                        : std::string()) +
                           "); ask for fewer instances, or score at most two resources" +
                           case_work_hint(earlier)));
        over.too_large = true;
        return over;
      }
      best.total = score_node(row(i), scoring, k).total;
      if (!heap.empty() && heap_less(best, heap.front())) {
        heap.push_back(best);
        std::push_heap(heap.begin(), heap.end(), heap_less);
        break;
      }
    }
  }
  case_work_spend(static_cast<double>(steps), static_cast<double>(kScoreSteps));
  if (remaining > 0) {  // unreachable: the total covers count
    result.outcome = StrategyOutcome::Infeasible;
    result.deploy.clear_counts();
    result.message = NamedReason(unavailable_message(in));
  }
  return result;
}

// --explain (SPEC §13): the line of a node with room.
std::string score_explain(const ExplainPass& c, const ExplainNode& s) {
  if (s.score == nullptr) return "score: can take " + count_text(s.capacity) + c.nothing_placed();
  const ExplainNode* best = c.best;
  const std::string total = std::to_string(s.score->total);
  if (s.k > 0) return "score: +" + std::to_string(s.k) + ", total " + total + " for the first";
  if (best != &s) {
    const char* op = s.score->total < best->score->total ? " < " : " = ";
    return "score: total " + total + op + std::to_string(best->score->total) + " of " +
           std::string(best->name) + c.nothing_placed();
  }
  return "score: total " + total + ", the highest" + c.nothing_placed();
}

}  // namespace eruplan
