// CPU-bind mode (SPEC §4 "CPU plans", "NUMA"): how many instances a node can
// bind cores for, and which cores each would get, capped by memory.
//
// Choices SPEC §4 leaves open, decided here:
// - Fraction parts are handed out from the cores that already were fragment
//   cores first (fewest available pieces first, ties by core order), then from
//   the whole cores turned into fragment cores, in the order they were turned.
//   This packs fractions onto cores that are already split.
// - max_fragment_cores counts the fragment cores of the pool being planned:
//   per NUMA node in the NUMA passes, over the whole node (all its remaining
//   cores) in the across pass. "-1" means all cores of that pool that still
//   have pieces, but `f`.
// - A NUMA plan needs memory from its NUMA node and from the node as a whole:
//   when usage.memory leaves the node less than its NUMA nodes' free memory
//   adds up to, the node's memory caps the NUMA plans too.
// - Plans of the across pass report numa -1 even when all their cores happen
//   to sit in one NUMA node: they were planned against the node's memory.
#include "cpu_plans.h"

#include <algorithm>
#include <string>

namespace eruplan {
namespace cpu_plans {

namespace {

// Lambdas rather than functions so the sorts and heaps inline them.
constexpr auto fewest_first = [](const CoreAvail& a, const CoreAvail& b) {
  return a.pieces != b.pieces ? a.pieces < b.pieces : a.core < b.core;
};

// Heap order for the whole-core greedy: the top is the core with the most
// pieces left, ties by core order.
constexpr auto heap_below = [](const CoreAvail& a, const CoreAvail& b) {
  return a.pieces != b.pieces ? a.pieces < b.pieces : a.core > b.core;
};

// prefix[j] = units of the j fullest whole cores.
std::vector<std::int64_t> unit_prefix(const std::vector<CoreAvail>& whole_fewest_first,
                                      Pieces share_base) {
  std::vector<std::int64_t> prefix(whole_fewest_first.size() + 1, 0);
  for (std::size_t j = 0; j < whole_fewest_first.size(); ++j)
    prefix[j + 1] =
        prefix[j] + whole_fewest_first[whole_fewest_first.size() - 1 - j].pieces / share_base;
  return prefix;
}

}  // namespace

std::int64_t whole_part_count(const std::vector<std::int64_t>& prefix, std::size_t m,
                              Pieces whole) {
  const std::int64_t total = prefix[m];
  std::int64_t best = total / whole;
  const std::size_t last =
      static_cast<std::size_t>(std::min<std::int64_t>(whole - 1, static_cast<std::int64_t>(m)));
  for (std::size_t j = 1; j <= last; ++j)
    best = std::min(best, (total - prefix[j]) / (whole - static_cast<std::int64_t>(j)));
  return best;
}

CpuSplit best_split(const std::vector<CoreAvail>& pool, const CpuShape& shape,
                    std::int64_t max_fragment_cores) {
  const Pieces P = shape.share_base, f = shape.whole, r = shape.fraction;
  CpuSplit split;
  for (const CoreAvail& c : pool) {
    if (c.pieces >= P && c.pieces % P == 0)
      split.whole.push_back(c);
    else if (c.pieces > 0)
      split.fragment.push_back(c);
  }
  std::sort(split.whole.begin(), split.whole.end(), fewest_first);
  std::sort(split.fragment.begin(), split.fragment.end(), fewest_first);

  const auto n_whole = static_cast<std::int64_t>(split.whole.size());
  const auto n_fragment = static_cast<std::int64_t>(split.fragment.size());
  std::int64_t limit = n_whole + n_fragment - f;
  if (max_fragment_cores >= 0) limit = std::min(limit, max_fragment_cores);

  auto fraction_parts = [r](const CoreAvail& c) { return c.pieces / r; };
  auto turn =
      [&split](std::int64_t k) {  // the k whole cores with fewest pieces become fragment cores
        split.fragment.insert(split.fragment.end(), split.whole.begin(), split.whole.begin() + k);
        split.whole.erase(split.whole.begin(), split.whole.begin() + k);
      };

  if (r == 0) {
    split.fragment.clear();
    split.capacity =
        n_whole == 0 ? 0 : whole_part_count(unit_prefix(split.whole, P), split.whole.size(), f);
    return split;
  }
  if (f == 0) {
    turn(std::clamp<std::int64_t>(limit - n_fragment, 0, n_whole));
    split.whole.clear();
    for (const CoreAvail& c : split.fragment) split.capacity += fraction_parts(c);
    return split;
  }

  // f > 0 and r > 0: try turning 0, 1, 2... whole cores (fewest pieces first).
  // Whole parts only shrink as k grows, so once they cannot beat the best
  // split found, no later split can.
  const std::vector<std::int64_t> prefix = unit_prefix(split.whole, P);
  std::int64_t fractions = 0;
  for (const CoreAvail& c : split.fragment) fractions += fraction_parts(c);
  std::int64_t best = std::min(whole_part_count(prefix, split.whole.size(), f), fractions);
  std::int64_t best_k = 0;
  for (std::int64_t k = 1; n_fragment + k <= limit; ++k) {
    fractions += fraction_parts(split.whole[k - 1]);
    const std::int64_t wholes = whole_part_count(prefix, static_cast<std::size_t>(n_whole - k), f);
    if (wholes <= best) break;
    if (std::min(wholes, fractions) > best) {
      best = std::min(wholes, fractions);
      best_k = k;
    }
  }
  turn(best_k);
  split.capacity = best;
  return split;
}

void materialise(const CpuSplit& split, const CpuShape& shape, std::int64_t count, int numa,
                 PlanSink& out) {
  if (count <= 0) return;
  const Pieces P = shape.share_base, f = shape.whole, r = shape.fraction;
  const auto n = static_cast<std::size_t>(count);

  // Whole parts: the greedy itself, f cores per round, kept flat.
  std::vector<std::uint32_t> wholes;
  if (f > 0) {
    wholes.reserve(n * static_cast<std::size_t>(f));
    std::vector<CoreAvail> heap(split.whole.begin(), split.whole.end());
    std::make_heap(heap.begin(), heap.end(), heap_below);
    std::vector<CoreAvail> taken;
    taken.reserve(static_cast<std::size_t>(f));
    for (std::size_t i = 0; i < n; ++i) {
      taken.clear();
      for (Pieces j = 0; j < f; ++j) {
        std::pop_heap(heap.begin(), heap.end(), heap_below);
        taken.push_back(heap.back());
        heap.pop_back();
      }
      std::sort(taken.begin(), taken.end(),
                [](const CoreAvail& a, const CoreAvail& b) { return a.core < b.core; });
      for (CoreAvail& c : taken) {
        wholes.push_back(c.core);
        c.pieces -= P;
        if (c.pieces > 0) {
          heap.push_back(c);
          std::push_heap(heap.begin(), heap.end(), heap_below);
        }
      }
    }
  }

  // Fraction parts, paired with whole parts in order.
  std::size_t fragment_at = 0;
  Pieces fragment_left = r > 0 && !split.fragment.empty() ? split.fragment[0].pieces : 0;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    Plan plan;
    plan.numa = numa;
    plan.cpu.reserve(static_cast<std::size_t>(f + (r > 0 ? 1 : 0)));
    for (Pieces j = 0; j < f; ++j)
      plan.cpu.push_back(
          {wholes[i * static_cast<std::size_t>(f) + static_cast<std::size_t>(j)], P});
    if (r > 0) {
      while (fragment_left < r) fragment_left = split.fragment[++fragment_at].pieces;
      fragment_left -= r;
      const CoreShare share{split.fragment[fragment_at].core, r};
      auto at =
          std::lower_bound(plan.cpu.begin(), plan.cpu.end(), share,
                           [](const CoreShare& a, const CoreShare& b) { return a.core < b.core; });
      plan.cpu.insert(at, share);
    }
    out.put(std::move(plan));
  }
}

void take(const CpuSplit& split, const CpuShape& shape, std::int64_t count,
          std::vector<Pieces>& available) {
  if (count <= 0) return;
  const Pieces P = shape.share_base, f = shape.whole, r = shape.fraction;

  if (f > 0) {
    // After t rounds the greedy has taken, from each core, its units above a
    // level L (at most t of them), plus one unit at level L from the first
    // cores in core order that still have one, as many as f*t asks for.
    // L is the lowest level where the units above it do not exceed f*t.
    const std::int64_t t = count;
    auto above = [&](std::int64_t level) {
      std::int64_t sum = 0;
      for (const CoreAvail& c : split.whole)
        sum += std::min(t, std::max<std::int64_t>(0, c.pieces / P - level));
      return sum;
    };
    std::int64_t lo = 0, hi = split.whole.empty() ? 0 : split.whole.back().pieces / P;
    while (lo < hi) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      if (above(mid) <= f * t)
        hi = mid;
      else
        lo = mid + 1;
    }
    const std::int64_t level = lo;
    std::int64_t rest = f * t - above(level);
    std::vector<std::uint32_t> at_level;
    for (const CoreAvail& c : split.whole) {
      const std::int64_t units = c.pieces / P;
      available[c.core] -= std::min(t, std::max<std::int64_t>(0, units - level)) * P;
      if (units >= level && units - level < t) at_level.push_back(c.core);
    }
    std::sort(at_level.begin(), at_level.end());
    for (std::size_t i = 0; rest > 0 && i < at_level.size(); ++i, --rest)
      available[at_level[i]] -= P;
  }

  if (r > 0) {
    std::int64_t left = count;
    for (const CoreAvail& c : split.fragment) {
      if (left == 0) break;
      const std::int64_t parts = std::min(left, c.pieces / r);
      available[c.core] -= parts * r;
      left -= parts;
    }
  }
}

PlainSplit plain_split(std::int64_t cores, Pieces pieces, const CpuShape& shape,
                       std::int64_t max_fragment_cores) {
  const Pieces P = shape.share_base, f = shape.whole, r = shape.fraction;
  PlainSplit split;
  if (cores <= 0 || pieces <= 0) return split;
  if (pieces < P || pieces % P != 0) {
    // Every core is a fragment core: only fraction-only shapes fit, and no
    // core is turned (max_fragment_cores does not drop fragment cores).
    split.fragment_cores = cores;
    if (f == 0 && r > 0) split.capacity = cores * (pieces / r);
    return split;
  }
  // Whole cores of `units` units each. On m equal cores the greedy makes
  // m * units / f whole parts when m >= f (the j = 0 term of
  // whole_part_count is the least), and none when m < f.
  const std::int64_t units = pieces / P;
  const auto wholes = [&](std::int64_t m) { return m >= f ? m * units / f : 0; };
  if (r == 0) {
    split.capacity = wholes(cores);
    return split;
  }
  std::int64_t limit = cores - f;
  if (max_fragment_cores >= 0) limit = std::min(limit, max_fragment_cores);
  const std::int64_t parts = pieces / r;  // fraction parts of one turned core (>= 1: r < P)
  if (f == 0) {
    split.fragment_cores = std::clamp<std::int64_t>(limit, 0, cores);
    split.capacity = split.fragment_cores * parts;
    return split;
  }
  if (limit < 1) return split;
  // best_split tries k = 1, 2... turned cores: fractions k * parts grow,
  // wholes(cores - k) do not, so its best is at the first k where fractions
  // reach wholes (kstar) or the one before.
  std::int64_t lo = 1, hi = limit + 1;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (mid * parts >= wholes(cores - mid))
      hi = mid;
    else
      lo = mid + 1;
  }
  const std::int64_t kstar = lo;
  std::int64_t best = 0, best_k = 0;
  if (kstar - 1 >= 1) {
    best = (kstar - 1) * parts;
    best_k = kstar - 1;
  }
  if (kstar <= limit) {
    const std::int64_t w = std::min(wholes(cores - kstar), kstar * parts);
    if (w > best) {
      best = w;
      best_k = kstar;
    }
  }
  split.fragment_cores = best_k;
  split.capacity = best;
  return split;
}

void plain_materialise(const PlainSplit& split, std::int64_t cores, Pieces pieces,
                       const CpuShape& shape, std::int64_t count, int numa, PlanSink& out) {
  if (count <= 0) return;
  const Pieces P = shape.share_base, f = shape.whole, r = shape.fraction;
  const std::int64_t first_whole = split.fragment_cores, n_whole = cores - first_whole;
  const std::int64_t parts = r > 0 ? pieces / r : 0;
  out.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    Plan plan;
    plan.numa = numa;
    plan.cpu.reserve(static_cast<std::size_t>(f + (r > 0 ? 1 : 0)));
    // The fraction core comes before every whole core.
    if (r > 0) plan.cpu.push_back({static_cast<std::uint32_t>(i / parts), r});
    const auto start = static_cast<std::ptrdiff_t>(plan.cpu.size());
    // The greedy takes the whole cores round by round in core order, each
    // round the f cores after the last one's, wrapping to the first core
    // once every core has given a unit more than the rest.
    for (Pieces j = 0; j < f; ++j)
      plan.cpu.push_back({static_cast<std::uint32_t>(first_whole + (i * f + j) % n_whole), P});
    std::sort(plan.cpu.begin() + start, plan.cpu.end(),
              [](const CoreShare& a, const CoreShare& b) { return a.core < b.core; });
    out.put(std::move(plan));
  }
}

}  // namespace cpu_plans

namespace {

std::int64_t memory_cap(const Request& request, Bytes available) {
  if (request.memory <= 0) return kUnlimited;
  return std::max<Bytes>(available, 0) / request.memory;
}

std::string shape_text(const cpu_plans::CpuShape& shape) {
  if (shape.fraction == 0) return "whole " + std::to_string(shape.whole);
  if (shape.whole == 0) return std::to_string(shape.fraction) + " pieces";
  return "whole " + std::to_string(shape.whole) + " + " + std::to_string(shape.fraction) +
         " pieces";
}

constexpr std::size_t kReasonCores = 64;

std::string cpu_reason(const Node& node, const Inventory& inventory, const Request& request,
                       const cpu_plans::CpuShape& shape) {
  std::string text = format_cores(request.cpu) +
                     (request.cpu == kNanoPerCore ? " core" : " cores") + " per instance (" +
                     shape_text(shape) + "), 0 plans from available cores {";
  // The first kReasonCores cores one by one, the rest summed: a reason per
  // node must not grow with a core count the input names.
  const std::size_t n = node.core_count(), shown = std::min(n, kReasonCores);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) text += ", ";
    text += node.core_id(i) + ":" + std::to_string(node.core_available(i));
  }
  if (shown < n) {
    Pieces rest = node.cores.empty() ? static_cast<Pieces>(n - shown) * node.plain_core_pieces : 0;
    for (std::size_t i = shown; i < node.cores.size(); ++i) rest += node.core_available(i);
    text += ", and " + std::to_string(n - shown) + " more cores with " + std::to_string(rest) +
            " pieces available in all";
  }
  text += "}";
  if (shape.fraction > 0 && inventory.max_fragment_cores >= 0)
    text += ", max_fragment_cores " + std::to_string(inventory.max_fragment_cores);
  return text;
}

// The cores of `numa` (-2: every core) with pieces left in `available`.
std::vector<cpu_plans::CoreAvail> pool_of(const Node& node, const std::vector<Pieces>& available,
                                          int numa) {
  std::vector<cpu_plans::CoreAvail> pool;
  pool.reserve(available.size());
  for (std::size_t i = 0; i < available.size(); ++i)
    if (available[i] > 0 && (numa == -2 || node.core_numa(i) == numa))
      pool.push_back({static_cast<std::uint32_t>(i), available[i]});
  return pool;
}

std::vector<Pieces> available_pieces(const Node& node) {
  std::vector<Pieces> available(node.core_count());
  for (std::size_t i = 0; i < available.size(); ++i) available[i] = node.core_available(i);
  return available;
}

DimensionResult zero(std::string detail) {
  DimensionResult result;
  result.binds = true;
  result.stop(Reason::words("cpu", std::move(detail)));
  return result;
}

}  // namespace

namespace {

// cpu_plans_dimension, its plans put to `sink`.
DimensionResult cpu_plans_to(const Node& node, const Inventory& inventory, const Request& request,
                             std::int64_t max_plans, cpu_plans::PlanSink& sink) {
  using namespace cpu_plans;
  const Pieces P = inventory.share_base;
  const Pieces pieces = cpu_request_pieces(request.cpu, P);
  if (pieces < 0)
    return zero(format_cores(request.cpu) +
                " cores is not a whole number of pieces at share_base " + std::to_string(P));
  if (pieces == 0) return zero("binding needs more than 0 cores per instance");
  const CpuShape shape{P, pieces / P, pieces % P};

  // A node given as `cpu: N` (no NUMA nodes, nothing used) has one pool of
  // equal cores: its split and plans come without listing them.
  const bool plain = node.cores.empty() && node.numa_nodes.empty();
  std::vector<Pieces> available;
  if (!plain) available = available_pieces(node);

  DimensionResult result;
  result.binds = true;
  result.capacity = 0;
  Bytes memory_left = node.memory - node.memory_used;
  auto plan_pool = [&](int numa, Bytes numa_memory_available) {
    if (plain) {
      const PlainSplit equal = plain_split(node.plain_cores, node.plain_core_pieces, shape,
                                           inventory.max_fragment_cores);
      const std::int64_t count = std::min({equal.capacity, memory_cap(request, memory_left),
                                           memory_cap(request, numa_memory_available)});
      const std::int64_t room = std::max<std::int64_t>(0, max_plans - sink.count);
      plain_materialise(equal, node.plain_cores, node.plain_core_pieces, shape,
                        std::min(count, room), numa, sink);
      result.capacity += count;
      CpuSplit split;
      split.capacity = equal.capacity;
      return std::pair{std::move(split), count};
    }
    CpuSplit split = best_split(pool_of(node, available, numa < 0 ? -2 : numa), shape,
                                inventory.max_fragment_cores);
    const std::int64_t count = std::min({split.capacity, memory_cap(request, memory_left),
                                         memory_cap(request, numa_memory_available)});
    const std::int64_t room = std::max<std::int64_t>(0, max_plans - sink.count);
    materialise(split, shape, std::min(count, room), numa, sink);
    result.capacity += count;
    return std::pair{std::move(split), count};
  };

  // Inside each NUMA node first, then across them with what is left. A NUMA
  // node whose cores would hold a plan but whose memory does not goes into
  // the reason, should nothing fit.
  std::string numa_memory_short;
  for (std::size_t n = 0; n < node.numa_nodes.size(); ++n) {
    const NumaNode& numa = node.numa_nodes[n];
    const auto [split, count] = plan_pool(static_cast<int>(n), numa.memory - numa.used);
    take(split, shape, count, available);
    if (request.memory > 0) memory_left -= count * request.memory;
    if (split.capacity > 0 && count == 0 && memory_cap(request, numa.memory - numa.used) == 0)
      numa_memory_short += (numa_memory_short.empty() ? "" : ", ") + ("NUMA node " + numa.id) +
                           " has " + format_bytes(std::max<Bytes>(numa.memory - numa.used, 0));
  }
  const std::int64_t cpu_only = plan_pool(-1, kUnlimited).first.capacity;

  if (result.capacity == 0) {
    // Nothing was taken by the NUMA passes, so the across pass saw the whole node.
    if (cpu_only == 0)
      result.reasons.push_back(Reason::words("cpu", cpu_reason(node, inventory, request, shape)));
    if (memory_cap(request, memory_left) == 0) {
      result.reasons.push_back(Reason::amounts("memory", Quantity::Bytes,
                                               std::max<Bytes>(memory_left, 0), request.memory));
    } else if (!numa_memory_short.empty()) {
      result.reasons.push_back(Reason::words(
          "memory",
          numa_memory_short + " available, " + format_bytes(request.memory) + " per instance"));
    }
  }
  return result;
}

}  // namespace

DimensionResult cpu_plans_dimension(const Node& node, const Inventory& inventory,
                                    const Request& request, std::int64_t max_plans) {
  std::vector<Plan> plans;
  cpu_plans::PlanSink sink{&plans, nullptr, 0};
  DimensionResult result = cpu_plans_to(node, inventory, request, max_plans, sink);
  result.plans = std::move(plans);
  return result;
}

void cpu_plans::each_plan(const Node& node, const Inventory& inventory, const Request& request,
                          std::int64_t count, const std::function<void(Plan&&)>& visit) {
  cpu_plans::PlanSink sink{nullptr, &visit, 0};
  cpu_plans_to(node, inventory, request, count, sink);
}

// A NUMA pass whose count is 0 takes nothing, so when no NUMA pass places
// one instance the across pass sees every core: whether one instance fits
// is each pass's "its cores hold a plan" (memory aside, fixed while the
// cores are) and its memory now.
std::optional<CoreFit> core_fit(const Node& node, const Inventory& inventory,
                                const Request& request) {
  using namespace cpu_plans;
  const Pieces P = inventory.share_base;
  const Pieces pieces = cpu_request_pieces(request.cpu, P);
  if (pieces <= 0) return std::nullopt;
  const CpuShape shape{P, pieces / P, pieces % P};
  if (node.cores.empty() && node.numa_nodes.empty()) {
    CoreFit fit;
    fit.across =
        plain_split(node.plain_cores, node.plain_core_pieces, shape, inventory.max_fragment_cores)
            .capacity > 0;
    return fit;
  }
  const std::vector<Pieces> available = available_pieces(node);
  const auto holds = [&](int numa) {
    return best_split(pool_of(node, available, numa), shape, inventory.max_fragment_cores)
               .capacity > 0;
  };
  CoreFit fit;
  fit.numa.resize(node.numa_nodes.size());
  for (std::size_t n = 0; n < node.numa_nodes.size(); ++n) fit.numa[n] = holds(static_cast<int>(n));
  fit.across = holds(-2);
  return fit;
}

DimensionResult cpu_plans_fit_one(const Node& node, const Inventory& inventory,
                                  const Request& request, const CoreFit& fit) {
  using namespace cpu_plans;
  DimensionResult result;
  result.binds = true;
  result.capacity = 1;
  const bool memory_left = memory_cap(request, node.memory - node.memory_used) > 0;
  std::string numa_memory_short;
  for (std::size_t n = 0; n < node.numa_nodes.size() && n < fit.numa.size(); ++n) {
    if (!fit.numa[n]) continue;
    const NumaNode& numa = node.numa_nodes[n];
    const bool numa_left = memory_cap(request, numa.memory - numa.used) > 0;
    if (memory_left && numa_left) return result;
    if (!numa_left)
      numa_memory_short += (numa_memory_short.empty() ? "" : ", ") + ("NUMA node " + numa.id) +
                           " has " + format_bytes(std::max<Bytes>(numa.memory - numa.used, 0));
  }
  if (fit.across && memory_left) return result;
  result.capacity = 0;
  if (!fit.across) {
    const Pieces P = inventory.share_base;
    const Pieces pieces = cpu_request_pieces(request.cpu, P);
    const CpuShape shape{P, pieces / P, pieces % P};
    result.reasons.push_back(Reason::words("cpu", cpu_reason(node, inventory, request, shape)));
  }
  if (!memory_left) {
    result.reasons.push_back(Reason::amounts("memory", Quantity::Bytes,
                                             std::max<Bytes>(node.memory - node.memory_used, 0),
                                             request.memory));
  } else if (!numa_memory_short.empty()) {
    result.reasons.push_back(Reason::words(
        "memory",
        numa_memory_short + " available, " + format_bytes(request.memory) + " per instance"));
  }
  return result;
}

}  // namespace eruplan
