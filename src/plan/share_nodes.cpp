// share's per-node numbers (share_nodes.h), and the pool's totals (share.h).
#include "share_nodes.h"

#include <algorithm>
#include <optional>

namespace eruplan::share_nodes {

std::uint64_t inverse_of(std::int64_t d) {
  return d > 0 ? ~std::uint64_t{0} / static_cast<std::uint64_t>(d) : 0;
}
std::uint64_t divide(std::uint64_t y, std::uint64_t d, std::uint64_t inverse) {
  std::uint64_t q = static_cast<std::uint64_t>((static_cast<u128>(y) * inverse) >> 64);
  if ((q + 1) * d <= y) ++q;
  return q;
}

void read_row(const Node& node, const std::vector<std::string>& extended, Amount* row) {
  for (std::size_t k = 0; k < kResourceKinds.size(); ++k)
    row[k] = {kResourceKinds[k].total(node), kResourceKinds[k].used(node)};
  // Instances are only counted for max_instances (a node runs many apps).
  row[instances_column] = node.max_instances >= 0
                              ? Amount{node.max_instances, node.instances_total()}
                              : Amount{INT64_MAX, 0};
  for (std::size_t e = 0; e < extended.size(); ++e) {
    const ExtendedResource* x = node.find_extended(extended[e]);
    row[instances_column + 1 + e] = x != nullptr ? Amount{x->total, x->used} : Amount{};
  }
}

// §9's fit score (no balanced score) over cpu and memory, weight 1 each, for
// one more instance on the node as it is now.
std::int64_t fit_score(const Amount& cpu, const Amount& memory,
                       const std::array<std::uint64_t, 2>& inverse, const Request& request,
                       SharePlacement placement) {
  if (placement == SharePlacement::FirstFit) return 0;
  const bool least = placement == SharePlacement::LeastAllocated;
  std::int64_t sum = 0;  // each part is 0..100
  int counted = 0;
  auto add = [&](const Amount& amount, std::uint64_t inv, std::int64_t request) {
    const std::int64_t alloc = amount.total;
    if (alloc <= 0) return;
    ++counted;
    std::int64_t req = 0;  // min(used + request, alloc): least scores 0 past alloc, most 100
    if (__builtin_add_overflow(amount.used, request, &req) || req > alloc) req = alloc;
    const std::int64_t part = least ? alloc - req : req;
    if (alloc < (std::int64_t{1} << 56))  // x 100 stays below 2^63
      sum += static_cast<std::int64_t>(
          divide(static_cast<std::uint64_t>(part * 100), static_cast<std::uint64_t>(alloc), inv));
    else
      sum += static_cast<std::int64_t>(static_cast<u128>(part) * 100 / static_cast<u128>(alloc));
  };
  add(cpu, inverse[0], request.cpu);
  add(memory, inverse[1], request.memory);
  return counted == 2 ? sum / 2 : sum;
}

// Everything a node's verdict for one more instance and its score depend on:
// apps with the same shape see the same candidates in the same order, so
// they share one ScoreIndex (a placement then costs one update per shape,
// not per app).
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
  if (r.filter.node_set) k += "|s", r.filter.node_set->append_key(k);
  k += "|x";
  for (const std::string& n : r.filter.exclude) add(n);
  k += "|t";
  for (const Toleration& t : r.tolerations)
    add(t.key), add(t.exists ? "E" : "="), add(t.value), add(t.effect);
  return k;
}

// The best byte and rank of group g's index without the ranks given.
std::pair<std::uint8_t, std::uint32_t> best_without(Group& g,
                                                    const std::vector<std::uint32_t>& ranks) {
  std::vector<std::uint8_t> kept;
  kept.reserve(ranks.size());
  for (const std::uint32_t r : ranks) {
    kept.push_back(g.index.get(r));
    if (kept.back() != 0) g.index.set(r, 0);
  }
  std::pair<std::uint8_t, std::uint32_t> out{0, 0};
  if (const std::optional<std::uint32_t> best = g.index.best()) out = {g.index.get(*best), *best};
  for (std::size_t j = ranks.size(); j-- > 0;)
    if (kept[j] != 0) g.index.set(ranks[j], kept[j]);
  return out;
}

namespace {

// The entries [first, last) of a log merged by node (sorted by node) and
// written from `to` on (to <= first): where the merged ones end.
std::size_t merge_by_node(std::vector<std::pair<std::uint32_t, std::int64_t>>& log,
                          std::size_t first, std::size_t last, std::size_t to) {
  const auto begin = log.begin();
  std::sort(begin + static_cast<std::ptrdiff_t>(first), begin + static_cast<std::ptrdiff_t>(last));
  const std::size_t from = to;
  for (std::size_t j = first; j < last; ++j)
    if (to > from && log[to - 1].first == log[j].first)
      log[to - 1].second += log[j].second;
    else
      log[to++] = log[j];
  return to;
}

}  // namespace

std::int64_t log_placement(AppState& s, std::uint32_t i, std::int64_t k, bool binds) {
  if (!binds && s.log.size() > s.flushed && s.log.back().first == i) {
    s.log.back().second += k;
    return 0;
  }
  s.log.emplace_back(i, k);
  if (binds || s.log.size() < s.compact_at) return 1;
  const auto before = static_cast<std::int64_t>(s.log.size()) - 1;
  // A non-binding app's log is only ever summed by node (before and after
  // the last flush): merged by node when it grows by half, it holds at most
  // three entries per node it is on, not one per turn the filling took.
  const std::size_t flushed = merge_by_node(s.log, 0, s.flushed, 0);
  const std::size_t end = merge_by_node(s.log, s.flushed, s.log.size(), flushed);
  s.log.resize(end);
  s.flushed = flushed;
  // Half as many again before the next merge: the log's capacity stays
  // within about twice the nodes it names (2 x end would double it).
  s.compact_at = std::max<std::size_t>(64, end + end / 2);
  return static_cast<std::int64_t>(end) - before;
}

std::string share_too_large(std::size_t nodes, std::size_t apps, std::int64_t work,
                            std::int64_t max_work, std::int64_t max_entries) {
  const std::string what = "too large: sharing " + std::to_string(nodes) + " nodes among " +
                           std::to_string(apps) + " apps ";
  if (work > max_work)
    return what + "takes more than " + std::to_string(max_work) +
           " steps (the apps and nodes take turns, a few instances at a time; each placement "
           "files its node again for every app shape still placing, and each app that "
           "freezes looks at every node for why); give fewer apps "
           "or nodes, or larger requests";
  return what + "puts apps on more than " + std::to_string(max_entries) +
         " app-and-node pairs, each kept in the inventory and listed in the output (one per "
         "byte of input, and 16384 more); give fewer apps or nodes, or larger requests";
}

}  // namespace eruplan::share_nodes

namespace eruplan {

PoolTotals pool_totals(const Inventory& inventory) {
  PoolTotals t;
  std::array<u128, kResourceKinds.size()> sums{};
  std::vector<std::pair<std::string, u128>> extended;
  for (const Node& node : inventory.nodes) {
    if (!node.available) continue;
    for (std::size_t k = 0; k < sums.size(); ++k)
      sums[k] += static_cast<u128>(kResourceKinds[k].total(node));
    for (const ExtendedResource& e : node.extended) extended.emplace_back(e.name, e.total);
  }
  for (std::size_t k = 0; k < sums.size(); ++k)
    t.kinds.emplace_back(std::string(kResourceKinds[k].name), sums[k]);
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

}  // namespace eruplan
