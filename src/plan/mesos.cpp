// Mesos-style allocation: the hierarchical DRF allocator of seed 003.
//
// A cycle: the available nodes in name order, shuffled (splitmix64 and
// Fisher-Yates, random.h); a quota stage and a fair stage of offers over
// them; then every offer answered in the order made. Offered resources count
// as allocated from the moment they are offered, so the sorters change after
// every offer.
//
// What makes it fast (the one-offer-at-a-time reference in
// tests/mesos_test.cpp recomputes every share and sorts everything at every
// step, and must agree on random inputs):
// - shares are kept per framework and role and updated by the amounts that
//   move; they compare as doubles and exactly (512-bit products) only when
//   the doubles are too close to tell;
// - each role's framework order and the role order are cached and sorted
//   again only after a share they depend on changed;
// - a node with nothing free is passed over without looking at any sorter;
// - whether anything could still launch is asked per framework of the
//   nodes it may use, stopping at the first that fits.
#include "mesos.h"

#include <algorithm>
#include <bit>
#include <numeric>
#include <span>
#include <unordered_map>

#include "capacity.h"
#include "random.h"
#include "reserve.h"
#include "resources.h"
#include "wide.h"

namespace eruplan {

namespace {

// --- Exact arithmetic ----------------------------------------------------------

// A dominant share: allocation / total of its kind (the largest such ratio,
// the first in byte order among equals); kind -1 when it is 0.
struct Dominant {
  int kind = -1;
  u128 num = 0, den = 1;
  double approx = 0;
};

Dominant dominant_of(std::span<const u128> alloc, std::span<const u128> totals) {
  Dominant d;
  for (std::size_t k = 0; k < alloc.size(); ++k) {
    if (totals[k] == 0 || alloc[k] == 0) continue;
    if (d.kind >= 0 && compare(product({alloc[k], d.den}), product({d.num, totals[k]})) <= 0)
      continue;
    d.kind = static_cast<int>(k);
    d.num = alloc[k];
    d.den = totals[k];
  }
  if (d.kind >= 0) d.approx = static_cast<double>(d.num) / static_cast<double>(d.den);
  return d;
}

// a / wa against b / wb, exactly; the doubles decide when they are more than
// a relative 10^-9 apart (each is within 2^-50 of its exact value).
int compare_shares(const Dominant& a, const Weight& wa, const Dominant& b, const Weight& wb) {
  if (a.kind < 0 || b.kind < 0) return (a.kind < 0) == (b.kind < 0) ? 0 : (a.kind < 0 ? -1 : 1);
  const double x = a.approx * static_cast<double>(wa.den) / static_cast<double>(wa.num);
  const double y = b.approx * static_cast<double>(wb.den) / static_cast<double>(wb.num);
  if (x < y * (1 - 1e-9)) return -1;
  if (y < x * (1 - 1e-9)) return 1;
  return compare(product({a.num, wa.den, b.den, wb.num}), product({b.num, wb.den, a.den, wa.num}));
}

// Framework and node pairs, one bit each.
class PairBits {
 public:
  void init(std::size_t rows, std::size_t cols) {
    words_ = (cols + 63) / 64;
    bits_.assign(rows * words_, 0);
  }
  bool test(std::size_t row, std::size_t col) const {
    return ((bits_[row * words_ + col / 64] >> (col % 64)) & 1) != 0;
  }
  void set(std::size_t row, std::size_t col) {
    bits_[row * words_ + col / 64] |= std::uint64_t{1} << (col % 64);
  }
  void reset(std::size_t row, std::size_t col) {
    bits_[row * words_ + col / 64] &= ~(std::uint64_t{1} << (col % 64));
  }
  std::span<const std::uint64_t> row(std::size_t r) const {
    return {bits_.data() + r * words_, words_};
  }

 private:
  std::size_t words_ = 0;
  std::vector<std::uint64_t> bits_;
};

// Comparisons a sort of n items takes, about.
std::int64_t sort_steps(std::size_t n) {
  return static_cast<std::int64_t>(n) * static_cast<std::int64_t>(std::bit_width(n));
}

// Items kept in the order `before` gives (a strict total order). When an
// item's key changes it is touched; the next refresh puts the few touched
// items back in place (out, then each in by binary search), or sorts all
// again when many were touched. Returns the steps it took.
struct Order {
  std::vector<std::uint32_t> items;
  std::vector<std::uint32_t> touched;
  bool unsorted = true;

  void touch(std::uint32_t x) {
    if (unsorted) return;
    if (touched.size() < 4)
      touched.push_back(x);
    else
      unsorted = true;
  }

  template <class Before>
  std::int64_t refresh(Before before) {
    std::int64_t steps = 0;
    if (unsorted) {
      std::sort(items.begin(), items.end(), before);
      steps = sort_steps(items.size());
    } else if (!touched.empty()) {
      std::sort(touched.begin(), touched.end());
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      std::erase_if(items, [&](std::uint32_t x) {
        return std::find(touched.begin(), touched.end(), x) != touched.end();
      });
      for (const std::uint32_t x : touched)
        items.insert(std::lower_bound(items.begin(), items.end(), x, before), x);
      steps = static_cast<std::int64_t>(touched.size()) *
              (static_cast<std::int64_t>(items.size() / 16) + std::bit_width(items.size()));
    }
    unsorted = false;
    touched.clear();
    return steps;
  }
};

// --- The allocator -------------------------------------------------------------

struct FrameworkState {
  std::uint32_t role = 0;
  std::vector<std::pair<std::uint32_t, std::int64_t>> asks;  // kind, per instance > 0
  bool usable = false;                                       // some node in may_use_
  std::vector<u128> alloc;                                   // per kind
  Dominant share;
  std::int64_t existing = 0, placed = 0;
  std::vector<std::pair<std::uint32_t, std::int64_t>> launches;  // node, instances
};

struct RoleState {
  std::vector<u128> alloc;
  Dominant share;
  Order frameworks;  // by share then name (Allocator::frameworks_of)
  std::vector<std::pair<std::uint32_t, std::int64_t>> quota;  // kind, amount
};

struct Agent {
  KindVector unreserved;                                       // free, per kind
  std::vector<std::pair<std::uint32_t, KindVector>> reserved;  // role, free per kind
  std::int64_t instances = 0, max_instances = -1;
};

// One offer being made: from each part, per kind.
struct Pending {
  std::uint32_t node = 0, framework = 0;
  KindVector from_reserved, from_unreserved;
};

class Allocator {
 public:
  Allocator(Inventory& inv, const MesosSpec& spec, const MesosOptions& options)
      : inv_(inv), spec_(spec), options_(options) {}

  MesosResult run() {
    if (!setup()) return std::move(result_);
    const std::int64_t limit = options_.cycles > 0 ? options_.cycles : kMesosMaxCycles;
    std::optional<SplitMix64> random;
    if (options_.seed) random.emplace(*options_.seed);
    std::int64_t listed = 0;  // cycles and offers
    while (static_cast<std::int64_t>(result_.cycles.size()) < limit && anything_fits()) {
      std::vector<std::uint32_t> order = by_name_;
      if (random) shuffle(order, *random);
      steps_ += static_cast<std::int64_t>(order.size());
      cycle(order);
      // An offer keeps two amounts per kind: with many kinds it counts for more.
      listed += 1 + static_cast<std::int64_t>(result_.cycles.back().size() * (1 + kinds() / 16));
      if (listed > options_.max_listed || steps_ > options_.max_steps) {
        result_.too_large = too_large(listed);
        break;
      }
    }
    finish();
    return std::move(result_);
  }

 private:
  std::size_t kinds() const { return result_.kinds.size(); }

  // Past a bound after the last cycle run: what, and how many cycles fit.
  std::string too_large(std::int64_t listed) const {
    const auto c = static_cast<std::int64_t>(result_.cycles.size());
    std::string out =
        "too large: the first " + std::to_string(c) + (c == 1 ? " cycle" : " cycles") +
        (options_.cycles > 0 ? " of the " + std::to_string(options_.cycles) + " asked for"
                             : std::string(" of a run until nothing more fits"));
    std::size_t offers = 0;
    for (const std::vector<MesosOffer>& cycle : result_.cycles) offers += cycle.size();
    const std::size_t per = 1 + kinds() / 16;  // what an offer counts
    if (listed > options_.max_listed)
      out += " list " + std::to_string(offers) + " offers" +
             (per > 1 ? " of " + std::to_string(kinds()) + " resource kinds (each counting " +
                            std::to_string(per) + ")"
                      : std::string()) +
             ", more than the " + std::to_string(options_.max_listed) +
             " offers and cycles a run may list for this input (" +
             std::to_string(kMinMesosListed) + ", or one per 8 bytes of input)";
    else
      out += " over " + std::to_string(by_name_.size()) + " agents and " +
             std::to_string(frameworks_.size()) + " frameworks in " +
             std::to_string(roles_.size()) + " roles take more than " +
             std::to_string(options_.max_steps) + " steps";
    out += c > 1 ? "; give --cycles " + std::to_string(c - 1) + " or fewer"
                 : "; fewer agents, frameworks or roles";
    return out;
  }

  // False when the kinds times the agents, frameworks and roles are past
  // MesosOptions::max_kind_cells (result_.too_large says so).
  bool setup() {
    // The kinds: the pool's, and whatever a framework, quota or reservation names.
    const PoolTotals pool = pool_totals(inv_);
    std::vector<std::string> names;
    for (const auto& [name, total] : pool.kinds) names.push_back(name);
    for (const MesosFramework& fw : spec_.frameworks)
      for (const auto& [name, n] : fw.request.extended) names.push_back(name);
    for (const MesosRole& role : spec_.roles)
      for (const auto& [name, n] : role.quota.extended) names.push_back(name);
    for (const Node& node : inv_.nodes)
      for (const Reservation& r : node.reservations)
        for (const auto& [name, n] : r.extended) names.push_back(name);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    result_.kinds = names;
    totals_.assign(names.size(), 0);
    for (const auto& [name, total] : pool.kinds) totals_[kind_index(name)] = total;
    const std::size_t K = names.size();

    const std::size_t N = inv_.nodes.size();
    const std::size_t cells = K * (N + spec_.frameworks.size() + spec_.roles.size());
    if (cells > static_cast<std::uint64_t>(options_.max_kind_cells)) {
      result_.too_large =
          "too large: " + std::to_string(K) + " resource kinds over " + std::to_string(N) +
          " agents, " + std::to_string(spec_.frameworks.size()) + " frameworks and " +
          std::to_string(spec_.roles.size()) +
          " roles, each kept per agent, framework and role: " + std::to_string(cells) +
          " amounts, more than the " + std::to_string(options_.max_kind_cells) +
          " this input allows (65536, or 4 per byte of input); fewer kinds";
      return false;
    }
    for (const std::uint32_t i : filtered_nodes(inv_, NodeFilter{}))
      if (inv_.nodes[i].available) by_name_.push_back(i);
    agents_.resize(N);
    for (const std::uint32_t i : by_name_) setup_agent(i);

    const std::size_t F = spec_.frameworks.size(), R = spec_.roles.size();
    may_use_.init(F, N);
    filtered_.init(F, N);
    roles_.resize(R);
    for (std::size_t r = 0; r < R; ++r) {
      roles_[r].alloc.assign(K, 0);
      const KindAmounts& q = spec_.roles[r].quota;
      if (q.cpu) roles_[r].quota.emplace_back(kind_index("cpu"), *q.cpu);
      if (q.memory) roles_[r].quota.emplace_back(kind_index("memory"), *q.memory);
      if (q.storage) roles_[r].quota.emplace_back(kind_index("storage"), *q.storage);
      for (const auto& [name, n] : q.extended) roles_[r].quota.emplace_back(kind_index(name), n);
    }
    frameworks_.resize(F);
    for (std::uint32_t f = 0; f < F; ++f) {
      const MesosFramework& fw = spec_.frameworks[f];
      FrameworkState& s = frameworks_[f];
      s.role = static_cast<std::uint32_t>(fw.role);
      roles_[s.role].frameworks.items.push_back(f);
      for (std::uint32_t k = 0; k < K; ++k)
        if (const std::int64_t n = per_instance_of(fw.request, names[k]); n > 0)
          s.asks.emplace_back(k, n);
      for (const std::uint32_t i : filtered_nodes(inv_, fw.request.filter))
        if (inv_.nodes[i].available && !untolerated_taint(inv_.nodes[i], fw.request)) {
          may_use_.set(f, i);
          s.usable = true;
        }
      steps_ += static_cast<std::int64_t>(N);
      for (const std::uint32_t i : by_name_) s.existing += inv_.nodes[i].instances_of(fw.name);
      s.alloc.assign(K, 0);
      for (const auto& [k, n] : s.asks) {
        const u128 a = static_cast<u128>(s.existing) * static_cast<u128>(n);
        s.alloc[k] += a;
        roles_[s.role].alloc[k] += a;
      }
      s.share = dominant_of(s.alloc, totals_);
    }
    for (RoleState& r : roles_) r.share = dominant_of(r.alloc, totals_);
    // A role without frameworks is never offered anything: out of the order.
    for (std::uint32_t r = 0; r < R; ++r)
      if (!roles_[r].frameworks.items.empty()) role_order_.items.push_back(r);
    return true;
  }

  std::uint32_t kind_index(std::string_view name) const {
    return static_cast<std::uint32_t>(
        std::lower_bound(result_.kinds.begin(), result_.kinds.end(), name) - result_.kinds.begin());
  }

  std::optional<std::uint32_t> role_index(std::string_view name) const {
    for (std::uint32_t r = 0; r < spec_.roles.size(); ++r)
      if (spec_.roles[r].name == name) return r;
    return std::nullopt;
  }

  // A node's free resources: its capacity less its usage, the reservations
  // set apart; usage beyond the unreserved part comes out of the
  // reservations, in role name order.
  void setup_agent(std::uint32_t i) {
    const Node& node = inv_.nodes[i];
    const std::size_t K = kinds();
    Agent& a = agents_[i];
    a.unreserved.assign(K, 0);
    KindVector used(K, 0);
    auto set = [&](std::string_view kind, std::int64_t cap, std::int64_t use) {
      const std::uint32_t k = kind_index(kind);
      a.unreserved[k] = cap;
      used[k] = use;
    };
    for (const ResourceKind& kind : kResourceKinds)
      set(kind.name, kind.total(node), kind.used(node));
    for (const ExtendedResource& e : node.extended) set(e.name, e.total, e.used);
    for (const Reservation& res : node.reservations) {
      const std::optional<std::uint32_t> role = role_index(res.role);
      if (!role) continue;  // check_mesos reports it
      KindVector amounts(K, 0);
      for (const ResourceKind& kind : kResourceKinds)
        amounts[kind_index(kind.name)] = kind.reserved(res);
      for (const auto& [name, n] : res.extended) amounts[kind_index(name)] = n;
      for (std::size_t k = 0; k < K; ++k) a.unreserved[k] -= amounts[k];
      a.reserved.emplace_back(*role, std::move(amounts));
    }
    for (std::size_t k = 0; k < K; ++k) {
      std::int64_t over = used[k] - std::max<std::int64_t>(a.unreserved[k], 0);
      a.unreserved[k] = std::max<std::int64_t>(a.unreserved[k] - used[k], 0);
      for (auto& [role, amounts] : a.reserved) {
        if (over <= 0) break;
        const std::int64_t take = std::min(over, amounts[k]);
        amounts[k] -= take;
        over -= take;
      }
    }
    a.instances = node.max_instances >= 0 ? node.instances_total() : 0;
    a.max_instances = node.max_instances;
    // By role index from here on: reserved_for is a binary search (the
    // stages ask it for every role in turn).
    std::sort(a.reserved.begin(), a.reserved.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
  }

  template <class A>  // Agent or const Agent
  static auto* find_reserved(A& a, std::uint32_t role) {
    auto it = std::lower_bound(a.reserved.begin(), a.reserved.end(), role,
                               [](const auto& e, std::uint32_t r) { return e.first < r; });
    return it != a.reserved.end() && it->first == role ? &it->second : nullptr;
  }
  const KindVector* reserved_for(const Agent& a, std::uint32_t role) const {
    return find_reserved(a, role);
  }
  KindVector* reserved_for(Agent& a, std::uint32_t role) { return find_reserved(a, role); }

  bool at_max_count(std::uint32_t f) const {
    const std::int64_t max = spec_.frameworks[f].max_count;
    return max >= 0 && frameworks_[f].placed >= max;
  }

  bool has_room(const Agent& a) const {
    return a.max_instances < 0 || a.instances < a.max_instances;
  }

  // The framework may be offered node i now: a node it may use with room,
  // not at its max_count, not filtered there.
  bool offerable(std::uint32_t f, std::uint32_t i) {
    ++steps_;
    return may_use_.test(f, i) && !at_max_count(f) && has_room(agents_[i]) && !filtered_.test(f, i);
  }

  // Filters aside: could some framework launch one more on some node's free
  // resources?
  bool anything_fits() {
    for (std::uint32_t f = 0; f < frameworks_.size(); ++f) {
      if (at_max_count(f) || !frameworks_[f].usable) continue;
      const std::span<const std::uint64_t> words = may_use_.row(f);
      steps_ += static_cast<std::int64_t>(words.size());
      for (std::size_t w = 0; w < words.size(); ++w)
        for (std::uint64_t bits = words[w]; bits != 0; bits &= bits - 1) {
          ++steps_;
          const auto i = static_cast<std::uint32_t>(w * 64 + std::countr_zero(bits));
          if (fits(f, agents_[i])) return true;
        }
    }
    return false;
  }

  // Framework f could launch one more on the agent's free resources.
  bool fits(std::uint32_t f, const Agent& a) const {
    if (!has_room(a)) return false;
    const FrameworkState& s = frameworks_[f];
    const KindVector* res = reserved_for(a, s.role);
    for (const auto& [k, n] : s.asks)
      if (a.unreserved[k] + (res != nullptr ? (*res)[k] : 0) < n) return false;
    return true;
  }

  // --- Sorters ---

  bool framework_before(std::uint32_t x, std::uint32_t y) const {
    const int c = compare_shares(frameworks_[x].share, Weight{}, frameworks_[y].share, Weight{});
    if (c != 0) return c < 0;
    return spec_.frameworks[x].name < spec_.frameworks[y].name;
  }

  const std::vector<std::uint32_t>& frameworks_of(std::uint32_t r) {
    Order& order = roles_[r].frameworks;
    steps_ +=
        order.refresh([&](std::uint32_t x, std::uint32_t y) { return framework_before(x, y); });
    return order.items;
  }

  // Roles by weighted share (`weighted`) or unweighted, then name.
  bool role_before(std::uint32_t x, std::uint32_t y, bool weighted) const {
    const Weight one;
    const int c = compare_shares(roles_[x].share, weighted ? spec_.roles[x].weight : one,
                                 roles_[y].share, weighted ? spec_.roles[y].weight : one);
    if (c != 0) return c < 0;
    return spec_.roles[x].name < spec_.roles[y].name;
  }

  const std::vector<std::uint32_t>& fair_order() {
    steps_ += role_order_.refresh(
        [&](std::uint32_t x, std::uint32_t y) { return role_before(x, y, true); });
    return role_order_.items;
  }

  // --- Offers ---

  // Moves the amounts into an offer: allocated to the framework and its role.
  void make_offer(Pending&& p) {
    FrameworkState& s = frameworks_[p.framework];
    RoleState& role = roles_[s.role];
    for (const auto& [k, n] : s.asks) {
      const u128 a = static_cast<u128>(p.from_reserved[k] + p.from_unreserved[k]);
      s.alloc[k] += a;
      role.alloc[k] += a;
    }
    s.share = dominant_of(s.alloc, totals_);
    role.share = dominant_of(role.alloc, totals_);
    role.frameworks.touch(p.framework);
    role_order_.touch(s.role);
    const std::uint64_t key =
        static_cast<std::uint64_t>(p.node) * spec_.frameworks.size() + p.framework;
    const auto [it, fresh] = merged_.try_emplace(key, pending_.size());
    if (fresh) {
      pending_.push_back(std::move(p));
      return;
    }
    Pending& first = pending_[it->second];  // answered as one, at the place of the first
    for (std::size_t k = 0; k < kinds(); ++k) {
      first.from_reserved[k] += p.from_reserved[k];
      first.from_unreserved[k] += p.from_unreserved[k];
    }
  }

  // The quota stage's offer of node i to framework f: each kind the quota
  // names capped at what it still needs, the reserved part first.
  bool quota_offer(std::uint32_t f, std::uint32_t i) {
    const FrameworkState& s = frameworks_[f];
    const RoleState& role = roles_[s.role];
    Agent& a = agents_[i];
    KindVector* res = reserved_for(a, s.role);
    Pending p{i, f, KindVector(kinds(), 0), KindVector(kinds(), 0)};
    bool any = false;
    for (const auto& [k, n] : s.asks) {
      const std::int64_t r = res != nullptr ? (*res)[k] : 0;
      std::int64_t want = a.unreserved[k] + r;
      for (const auto& [qk, amount] : role.quota)
        if (qk == k) {
          const u128 need = role.alloc[k] >= static_cast<u128>(amount)
                                ? 0
                                : static_cast<u128>(amount) - role.alloc[k];
          if (need < static_cast<u128>(want)) want = static_cast<std::int64_t>(need);
        }
      p.from_reserved[k] = std::min(r, want);
      p.from_unreserved[k] = want - p.from_reserved[k];
      any = any || want > 0;
    }
    if (!any) return false;
    for (const auto& [k, n] : s.asks) {
      if (res != nullptr) (*res)[k] -= p.from_reserved[k];
      a.unreserved[k] -= p.from_unreserved[k];
    }
    make_offer(std::move(p));
    return true;
  }

  // The fair stage's offer: what is free on the node for the framework, the
  // unreserved part only when `unreserved`.
  bool fair_offer(std::uint32_t f, std::uint32_t i, bool unreserved) {
    const FrameworkState& s = frameworks_[f];
    Agent& a = agents_[i];
    KindVector* res = reserved_for(a, s.role);
    bool any = false;
    for (const auto& [k, n] : s.asks)
      any = any || (unreserved && a.unreserved[k] > 0) || (res != nullptr && (*res)[k] > 0);
    if (!any) return false;
    Pending p{i, f, KindVector(kinds(), 0), KindVector(kinds(), 0)};
    for (const auto& [k, n] : s.asks) {
      if (res != nullptr) p.from_reserved[k] = std::exchange((*res)[k], 0);
      if (unreserved) p.from_unreserved[k] = std::exchange(a.unreserved[k], 0);
    }
    make_offer(std::move(p));
    return true;
  }

  // A role the quota stage serves: some framework of it, not at its
  // max_count, could launch one more within what the quota still needs.
  bool below_quota(std::uint32_t r) {
    const RoleState& role = roles_[r];
    if (role.quota.empty()) return false;
    for (const std::uint32_t f : role.frameworks.items) {
      ++steps_;
      if (at_max_count(f)) continue;
      bool fits = true;
      for (const auto& [k, amount] : role.quota) {
        const u128 need = role.alloc[k] >= static_cast<u128>(amount)
                              ? 0
                              : static_cast<u128>(amount) - role.alloc[k];
        if (need <
            static_cast<u128>(per_instance_of(spec_.frameworks[f].request, result_.kinds[k]))) {
          fits = false;
          break;
        }
      }
      if (fits) return true;
    }
    return false;
  }

  bool anything_free(const Agent& a) const {
    for (const std::int64_t v : a.unreserved)
      if (v > 0) return true;
    for (const auto& [r, amounts] : a.reserved)
      for (const std::int64_t v : amounts)
        if (v > 0) return true;
    return false;
  }

  void quota_stage(const std::vector<std::uint32_t>& order) {
    std::vector<std::uint32_t> quota_roles;
    for (std::uint32_t r = 0; r < roles_.size(); ++r)
      if (!roles_[r].quota.empty()) quota_roles.push_back(r);
    if (quota_roles.empty()) return;
    // The roles served, by unweighted share: within a cycle shares only
    // grow, and only the role offered to changes, so the list is made once
    // and that role checked again after each offer.
    Order serving;
    bool listed = false;
    for (const std::uint32_t i : order) {
      ++steps_;
      if (!anything_free(agents_[i])) continue;
      if (!listed) {
        for (const std::uint32_t r : quota_roles)
          if (below_quota(r)) serving.items.push_back(r);
        listed = true;
      }
      if (serving.items.empty()) return;  // none will be again in this cycle
      steps_ += serving.refresh(
          [&](std::uint32_t x, std::uint32_t y) { return role_before(x, y, false); });
      std::optional<std::uint32_t> offered;
      for (const std::uint32_t r : serving.items) {
        for (const std::uint32_t f : frameworks_of(r))
          if (offerable(f, i) && quota_offer(f, i)) {
            offered = r;
            break;
          }
        if (offered) break;
      }
      if (!offered) continue;
      if (below_quota(*offered))
        serving.touch(*offered);
      else {
        std::erase(serving.items, *offered);
        std::erase(serving.touched, *offered);
      }
    }
  }

  void fair_stage(const std::vector<std::uint32_t>& order) {
    std::vector<std::uint8_t> served(roles_.size());
    for (const std::uint32_t i : order) {
      ++steps_;
      Agent& a = agents_[i];
      if (!anything_free(a)) continue;
      // The first framework in order whose offer is not empty gets the
      // unreserved part, and its role's reserved part.
      std::optional<std::uint32_t> first;
      for (const std::uint32_t r : fair_order()) {
        for (const std::uint32_t f : frameworks_of(r))
          if (offerable(f, i) && fair_offer(f, i, true)) {
            first = r;
            break;
          }
        if (first) break;
      }
      if (!first || a.reserved.empty()) continue;
      // Then each other role, in the order of the moment, its reserved part.
      std::fill(served.begin(), served.end(), 0);
      steps_ += static_cast<std::int64_t>(served.size() / 64);
      served[*first] = 1;
      for (;;) {
        std::optional<std::uint32_t> next;
        for (const std::uint32_t r : fair_order())
          if (++steps_, !served[r] && reserved_for(a, r) != nullptr) {
            next = r;
            break;
          }
        if (!next) break;
        served[*next] = 1;
        for (const std::uint32_t f : frameworks_of(*next))
          if (offerable(f, i) && fair_offer(f, i, false)) break;
      }
    }
  }

  // --- Answers ---

  void answer(Pending& p, MesosOffer& out) {
    FrameworkState& s = frameworks_[p.framework];
    RoleState& role = roles_[s.role];
    Agent& a = agents_[p.node];
    const std::size_t K = kinds();
    out.node = p.node;
    out.framework = p.framework;
    out.offered.assign(K, 0);
    out.declined.assign(K, 0);
    std::int64_t n = INT64_MAX;
    for (const auto& [k, per] : s.asks) {
      out.offered[k] = p.from_reserved[k] + p.from_unreserved[k];
      n = std::min(n, out.offered[k] / per);
    }
    const std::int64_t max = spec_.frameworks[p.framework].max_count;
    if (max >= 0) n = std::min(n, max - s.placed);
    if (a.max_instances >= 0) n = std::min(n, a.max_instances - a.instances);
    n = std::max<std::int64_t>(n, 0);
    out.launched = n;
    KindVector* res = reserved_for(a, s.role);
    bool declined = false;
    for (const auto& [k, per] : s.asks) {
      const std::int64_t used = n * per;
      const std::int64_t from_res = std::min(used, p.from_reserved[k]);
      const std::int64_t back_res = p.from_reserved[k] - from_res;
      const std::int64_t back_unres = p.from_unreserved[k] - (used - from_res);
      if (res != nullptr) (*res)[k] += back_res;
      a.unreserved[k] += back_unres;
      out.declined[k] = back_res + back_unres;
      declined = declined || out.declined[k] > 0;
      s.alloc[k] -= static_cast<u128>(out.declined[k]);
      role.alloc[k] -= static_cast<u128>(out.declined[k]);
    }
    if (declined) next_filtered_.emplace_back(p.framework, p.node);
    s.share = dominant_of(s.alloc, totals_);
    role.share = dominant_of(role.alloc, totals_);
    role.frameworks.touch(p.framework);
    role_order_.touch(s.role);
    if (n > 0) {
      s.placed += n;
      a.instances += a.max_instances >= 0 ? n : 0;
      s.launches.emplace_back(p.node, n);
      result_.launched += n;
    }
  }

  void cycle(const std::vector<std::uint32_t>& order) {
    pending_.clear();
    merged_.clear();
    quota_stage(order);
    fair_stage(order);
    next_filtered_.clear();
    std::vector<MesosOffer>& offers = result_.cycles.emplace_back(pending_.size());
    for (std::size_t j = 0; j < pending_.size(); ++j) answer(pending_[j], offers[j]);
    steps_ += static_cast<std::int64_t>(pending_.size() * kinds());
    // Filtered for the next cycle: who declined in this one.
    for (const auto& [f, i] : filtered_list_) filtered_.reset(f, i);
    for (const auto& [f, i] : next_filtered_) filtered_.set(f, i);
    filtered_list_.swap(next_filtered_);
  }

  void finish() {
    const std::size_t N = inv_.nodes.size();
    std::vector<std::uint32_t> rank(N, 0);
    for (std::uint32_t r = 0; r < by_name_.size(); ++r) rank[by_name_[r]] = r;
    result_.frameworks.resize(frameworks_.size());
    std::vector<std::int64_t> count(N, 0);
    for (std::uint32_t f = 0; f < frameworks_.size(); ++f) {
      FrameworkState& s = frameworks_[f];
      MesosFrameworkShare& out = result_.frameworks[f];
      out.existing = s.existing;
      out.placed = s.placed;
      set_dominant(s.share, out.dominant_resource, out.dominant_share);
      for (const auto& [node, n] : s.launches)
        if (std::exchange(count[node], count[node] + n) == 0) out.deploy.emplace_back(node, 0);
      for (auto& [node, n] : out.deploy) n = std::exchange(count[node], 0);
      std::sort(out.deploy.begin(), out.deploy.end(),
                [&](const auto& x, const auto& y) { return rank[x.first] < rank[y.first]; });
      for (const auto& [node, n] : out.deploy)
        reserve(inv_, node, spec_.frameworks[f].request, n, {});
    }
    result_.roles.resize(roles_.size());
    for (std::uint32_t r = 0; r < roles_.size(); ++r) {
      MesosRoleShare& out = result_.roles[r];
      out.allocation = roles_[r].alloc;
      set_dominant(roles_[r].share, out.dominant_resource, out.dominant_share);
      for (const auto& [k, amount] : roles_[r].quota)
        out.quota_met = out.quota_met && roles_[r].alloc[k] >= static_cast<u128>(amount);
    }
  }

  void set_dominant(const Dominant& d, std::string& kind, Fraction& share) const {
    if (d.kind < 0) return;
    kind = result_.kinds[static_cast<std::size_t>(d.kind)];
    const u128 g = gcd(d.num, d.den);
    share = {d.num / g, d.den / g};
  }

  Inventory& inv_;
  const MesosSpec& spec_;
  const MesosOptions& options_;
  MesosResult result_;
  std::vector<u128> totals_;            // per kind, over the available nodes
  std::vector<std::uint32_t> by_name_;  // the available nodes, by name
  std::vector<Agent> agents_;           // per node
  std::vector<FrameworkState> frameworks_;
  std::vector<RoleState> roles_;
  Order role_order_;   // the roles with frameworks, by weighted share then name
  PairBits may_use_;   // framework x node: filter, taints
  PairBits filtered_;  // framework x node: declined there in the last cycle
  std::vector<std::pair<std::uint32_t, std::uint32_t>> filtered_list_, next_filtered_;
  std::int64_t steps_ = 0;                                 // MesosOptions::max_steps
  std::vector<Pending> pending_;                           // this cycle's offers
  std::unordered_map<std::uint64_t, std::size_t> merged_;  // node x framework -> pending_
};

}  // namespace

MesosResult mesos_share(Inventory& state, const MesosSpec& spec, const MesosOptions& options) {
  return Allocator(state, spec, options).run();
}

}  // namespace eruplan
