// global (SPEC §5): resource usage as even as possible across the nodes.
// nodes_limit: no meaning for global.
//
// The rule places one instance at a time on the node with the smallest
// usage + rate, then adds rate to its usage; ties by name. We key a node's
// k-th new instance (k >= 1) as global_key(usage, rate, k) (strategy.h):
// `usage + k * rate` in one expression, never by repeated addition, rounded
// to a grid so exact ties stay ties; this and the one-at-a-time reference in
// the tests agree bit for bit. Keys grow with k, so the rule takes
// the count smallest keys in (key, name) order: we binary search a key
// threshold (over the doubles, in order), counting per node by arithmetic how
// many of its keys lie below it, until few keys are left undecided; those are
// listed and the smallest taken, or, when they all share one value, given out
// by name. The cost is O(n) per step and at most 64 steps, whatever count is.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "capacity.h"
#include "strategy.h"
#include "wide.h"

namespace eruplan {
namespace {

// The key of a node's k-th new instance, the same function as the reference.
double key(double usage, double rate, std::int64_t k) { return global_key(usage, rate, k); }

// Doubles mapped to consecutive integers in the same order (-inf lowest, +inf
// highest; -0 and +0 are one value), so a binary search can walk every double
// between two bounds and "the double just below t" is ordinal(t) - 1.
constexpr std::uint64_t kSign = std::uint64_t{1} << 63;
std::uint64_t ordinal(double d) {
  auto bits = std::bit_cast<std::uint64_t>(d);
  return (bits & kSign) != 0 ? ~bits + 1 : bits | kSign;
}
double from_ordinal(std::uint64_t o) {
  return std::bit_cast<double>((o & kSign) != 0 ? o & ~kSign : ~(o - 1));
}

struct Keyed {
  double usage;
  double rate;
  std::int64_t cap;  // capacity, cut to count: no node takes more than count
};

// How many of the node's keys are <= t.
std::int64_t keys_at_most(const Keyed& node, double t) {
  if (!(key(node.usage, node.rate, 1) <= t)) return 0;
  if (node.cap == 1 || key(node.usage, node.rate, node.cap) <= t) return node.cap;
  // Now key(1) <= t < key(cap): the answer is in [1, cap). Guess by
  // arithmetic, then correct the rounding with a galloping search.
  double guess = std::floor((t - node.usage) / node.rate);
  std::int64_t start = 1;
  if (guess >= static_cast<double>(node.cap - 1)) {
    start = node.cap - 1;
  } else if (guess > 1) {
    start = static_cast<std::int64_t>(guess);
  }
  std::int64_t lo = start, hi = start + 1;  // want key(lo) <= t < key(hi)
  std::int64_t step = 1;
  if (key(node.usage, node.rate, start) <= t) {
    for (;;) {
      hi = node.cap - lo <= step ? node.cap : lo + step;
      if (hi == node.cap || key(node.usage, node.rate, hi) > t) break;
      lo = hi;
      if (step < (kUnlimited >> 1)) step *= 2;
    }
  } else {
    hi = start;
    for (;;) {
      lo = hi - 1 <= step ? 1 : hi - step;
      if (lo == 1 || key(node.usage, node.rate, lo) <= t) break;
      hi = lo;
      if (step < (kUnlimited >> 1)) step *= 2;
    }
  }
  while (hi - lo > 1) {
    std::int64_t mid = lo + (hi - lo) / 2;
    (key(node.usage, node.rate, mid) <= t ? lo : hi) = mid;
  }
  return lo;
}

i128 keys_at_most(const std::vector<Keyed>& nodes, double t) {
  i128 sum = 0;
  for (const auto& node : nodes) sum += keys_at_most(node, t);
  return sum;
}

}  // namespace

std::optional<StrategyResult> global_failure(std::span<const StrategyInfo> infos,
                                             std::int64_t count, std::int64_t total) {
  const std::size_t n = infos.size();
  if (auto failed = strategy_precheck("global", n, count)) return failed;
  i128 capacity_sum = 0;
  for (const StrategyInfo& info : infos) capacity_sum += info.capacity;
  if (total >= count && capacity_sum >= count) return std::nullopt;
  auto can_take = static_cast<std::int64_t>(std::min(i128{total}, capacity_sum));
  return strategy_failure(n, NamedReason("global", "need " + strategy_count(count, "new instance") +
                                                       ", the nodes can take " +
                                                       std::to_string(can_take) + " in total"));
}

StrategyResult global_strategy(std::span<const StrategyInfo> infos, std::int64_t count,
                               std::int64_t total, std::int64_t /*nodes_limit*/) {
  const std::size_t n = infos.size();
  if (auto failed = global_failure(infos, count, total)) return *failed;

  // The capacity pass gives finite usage and rate >= 0. Anything else is bent
  // into that shape (NaN usage = a full node, NaN or negative rate = 0) so keys
  // are never NaN and never shrink as k grows.
  constexpr double kMax = std::numeric_limits<double>::max();
  std::vector<Keyed> nodes(n);
  for (std::size_t i = 0; i < n; ++i) {
    double usage = infos[i].usage, rate = infos[i].rate;
    nodes[i].usage =
        std::isnan(usage) ? std::numeric_limits<double>::infinity() : std::max(usage, -kMax);
    nodes[i].rate = rate > 0 ? std::min(rate, kMax) : 0;
    nodes[i].cap = std::min(infos[i].capacity, count);
  }

  // Narrow (lo, hi] around the count-th smallest key: fewer than count keys
  // are <= lo, at least count are <= hi. Stop once the keys inside are few
  // enough to list, or lo and hi are neighbouring doubles.
  double smallest = std::numeric_limits<double>::infinity();
  double largest = -std::numeric_limits<double>::infinity();
  i128 upto = 0;  // keys <= hi
  for (const auto& node : nodes) {
    smallest = std::min(smallest, key(node.usage, node.rate, 1));
    largest = std::max(largest, key(node.usage, node.rate, node.cap));
    upto += node.cap;
  }
  std::uint64_t lo = ordinal(smallest) - 1, hi = ordinal(largest);
  i128 below = 0;            // keys <= lo
  const i128 few = i128{n};  // listing n keys costs no more than a step
  while (hi - lo > 1 && upto - below > few) {
    std::uint64_t mid = lo + (hi - lo) / 2;
    i128 at_most = keys_at_most(nodes, from_ordinal(mid));
    if (at_most >= count) {
      hi = mid;
      upto = at_most;
    } else {
      lo = mid;
      below = at_most;
    }
  }

  // Keys <= lo all go; `left` more come from the keys in (lo, hi], in
  // (key, name) order.
  StrategyResult result;
  result.deploy.assign(n, 0);
  std::vector<std::int64_t> inside(n, 0);
  i128 left = count;
  for (std::size_t i = 0; i < n; ++i) {
    result.deploy[i] = keys_at_most(nodes[i], from_ordinal(lo));
    inside[i] = keys_at_most(nodes[i], from_ordinal(hi)) - result.deploy[i];
    left -= result.deploy[i];
  }
  if (upto - below <= few) {
    // Few keys: list them and select the `left` smallest.
    std::vector<std::pair<double, std::size_t>> keys;
    keys.reserve(static_cast<std::size_t>(upto - below));
    for (std::size_t i = 0; i < n; ++i) {
      for (std::int64_t k = 1; k <= inside[i]; ++k) {
        keys.emplace_back(key(nodes[i].usage, nodes[i].rate, result.deploy[i] + k), i);
      }
    }
    auto cut = keys.begin() + static_cast<std::ptrdiff_t>(left);
    std::nth_element(keys.begin(), cut - 1, keys.end());
    for (auto it = keys.begin(); it != cut; ++it) ++result.deploy[it->second];
  } else {
    // lo and hi are neighbouring doubles: every key inside equals hi, so the
    // name decides.
    for (std::size_t i = 0; i < n && left > 0; ++i) {
      auto take = static_cast<std::int64_t>(std::min(i128{inside[i]}, left));
      result.deploy[i] += take;
      left -= take;
    }
  }
  return result;
}

// --explain (SPEC §13): the line of a node with room.
std::string global_explain(const ExplainPass& c, const ExplainNode& s) {
  const ExplainNode& n = s;
  if (s.k > 0)
    return "global: +" + std::to_string(s.k) + ", usage " + explain_percent(n.usage) + " -> " +
           explain_percent(global_key(n.usage, n.rate, s.k));
  const double last = c.last_key;
  const bool any = c.any_placed;
  const double next = global_key(n.usage, n.rate, 1);
  std::string out =
      "global: usage " + explain_percent(n.usage) + ", " + explain_percent(next) + " with one more";
  if (!any) return out + c.nothing_placed();
  return out + (next > last ? ", above " : ", tie by name at ") + explain_percent(last) +
         " where the last one went";
}

}  // namespace eruplan
