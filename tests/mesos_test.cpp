// eruplan share --model mesos: splitmix64 and the shuffle against known
// values, the seed's DRF example, and the allocator against a plain
// one-offer-at-a-time oracle written from the rules (every share recomputed
// from the holdings at every comparison, every sorter fully sorted at every
// step, free resources looked up per node and kind) on thousands of random
// small clusters.
#include "mesos.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "mesos_command.h"
#include "pipeline.h"
#include "random.h"

using namespace eruplan;

namespace {

constexpr Bytes Gi = Bytes{1} << 30;
constexpr NanoCores kCore = kNanoPerCore;
__extension__ typedef unsigned __int128 u128_t;

}  // namespace

TEST_CASE("random: splitmix64 seeded 0 gives the published first outputs") {
  SplitMix64 r(0);
  CHECK(r.next() == 0xe220a8397b1dcdafULL);
  CHECK(r.next() == 0x6e789e6aa1b965f4ULL);
  CHECK(r.next() == 0x06c45d188009454fULL);
  SplitMix64 s(1234567);  // another seed: the reference implementation's values
  CHECK(s.next() == 0x599ed017fb08fc85ULL);
}

TEST_CASE("random: Fisher-Yates swaps i with next() mod (i+1), from the end") {
  // Seed 0 draws e220..cdaf (mod 4 = 3), 6e78..65f4 (mod 3 = 0), 06c4..454f
  // (mod 2 = 1): 3 stays, 2 swaps with 0, 1 stays.
  std::vector<int> v{0, 1, 2, 3};
  SplitMix64 r(0);
  shuffle(v, r);
  CHECK(v == std::vector<int>{2, 1, 0, 3});
  std::vector<int> one{7}, none;
  shuffle(one, r);
  shuffle(none, r);
  CHECK(one == std::vector<int>{7});
}

namespace {

struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::int64_t in(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool chance(int percent) { return in(1, 100) <= percent; }
};

const std::string kGpu = "example.com/gpu";

std::int64_t req(const Request& r, const std::string& kind) {
  if (kind == "cpu") return r.cpu;
  if (kind == "memory") return r.memory;
  if (kind == "storage") return r.storage;
  for (const auto& [n, v] : r.extended)
    if (n == kind) return v;
  return 0;
}

std::int64_t cap(const Node& n, const std::string& kind, bool used) {
  if (kind == "cpu") return used ? n.cpu_used : n.cpu_total();
  if (kind == "memory") return used ? n.memory_used : n.memory;
  if (kind == "storage") return used ? n.storage_used : n.storage;
  for (const auto& e : n.extended)
    if (e.name == kind) return used ? e.used : e.total;
  return 0;
}

std::int64_t reserved(const Reservation& r, const std::string& kind) {
  if (kind == "cpu") return r.cpu;
  if (kind == "memory") return r.memory;
  if (kind == "storage") return r.storage;
  for (const auto& [n, v] : r.extended)
    if (n == kind) return v;
  return 0;
}

// The rules, plainly: one offer at a time, everything recomputed.
class Oracle {
 public:
  Oracle(const Inventory& inv, const MesosSpec& spec, const MesosOptions& o)
      : inv_(inv), spec_(spec), o_(o) {}

  std::vector<std::string> offers;  // "cycle node framework offered +n declined"
  std::vector<std::int64_t> placed;
  std::vector<std::string> shares;  // per framework: "kind num/den" or "0"

  void run() {
    std::set<std::string> ks{"cpu", "memory", "storage"};
    for (const Node& n : inv_.nodes)
      for (const auto& e : n.extended) ks.insert(e.name);
    for (const auto& f : spec_.frameworks)
      for (const auto& e : f.request.extended) ks.insert(e.first);
    kinds_.assign(ks.begin(), ks.end());
    for (const std::string& k : kinds_) {
      u128_t t = 0;
      for (const Node& n : inv_.nodes)
        if (n.available) t += static_cast<u128_t>(cap(n, k, false));
      totals_[k] = t;
    }
    for (std::uint32_t i = 0; i < inv_.nodes.size(); ++i) {
      const Node& n = inv_.nodes[i];
      if (!n.available) continue;
      names_.push_back(i);
      instances_[i] = n.max_instances >= 0 ? n.instances_total() : 0;
      std::vector<Reservation> res(n.reservations.begin(), n.reservations.end());
      std::sort(res.begin(), res.end(),
                [](const Reservation& a, const Reservation& b) { return a.role < b.role; });
      for (const std::string& k : kinds_) {
        std::int64_t sum = 0;
        for (const Reservation& r : res) sum += reserved(r, k);
        std::int64_t unres = cap(n, k, false) - sum, used = cap(n, k, true);
        std::int64_t over = 0;
        if (used <= unres) {
          unres -= used;
        } else {
          over = used - unres;
          unres = 0;
        }
        unres_[{i, k}] = unres;
        for (const Reservation& r : res) {
          const std::int64_t take = std::min(over, reserved(r, k));
          over -= take;
          res_[{i, role_of(r.role), k}] = reserved(r, k) - take;
        }
      }
    }
    std::sort(names_.begin(), names_.end(), [&](std::uint32_t a, std::uint32_t b) {
      return inv_.nodes[a].name < inv_.nodes[b].name;
    });
    placed.assign(spec_.frameworks.size(), 0);
    existing_.assign(spec_.frameworks.size(), 0);
    for (std::size_t f = 0; f < spec_.frameworks.size(); ++f)
      for (const Node& n : inv_.nodes)
        if (n.available) existing_[f] += n.instances_of(spec_.frameworks[f].name);
    std::uint64_t state = o_.seed.value_or(0);
    auto draw = [&state] {
      std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
      return z ^ (z >> 31);
    };
    const std::int64_t limit = o_.cycles > 0 ? o_.cycles : 1000;
    for (std::int64_t c = 1; c <= limit && could_launch(); ++c) {
      std::vector<std::uint32_t> order = names_;
      if (o_.seed)
        for (std::size_t i = order.size(); i-- > 1;) std::swap(order[i], order[draw() % (i + 1)]);
      cycle(c, order);
    }
    for (std::size_t f = 0; f < spec_.frameworks.size(); ++f) {
      const auto [kind, num, den] = share_of({f});
      shares.push_back(kind.empty() ? "0" : kind + " " + frac(num, den));
    }
  }

 private:
  struct Offer {
    std::uint32_t node;
    std::size_t f;
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> amounts;  // kind: res, unres
  };

  static std::string frac(u128_t n, u128_t d) {
    u128_t a = n, b = d;
    while (b != 0) a = std::exchange(b, a % b);
    const std::string num = std::to_string(static_cast<std::uint64_t>(n / a));
    return d / a == 1 ? num : num + "/" + std::to_string(static_cast<std::uint64_t>(d / a));
  }

  std::size_t role_of(const std::string& name) const {
    for (std::size_t r = 0; r < spec_.roles.size(); ++r)
      if (spec_.roles[r].name == name) return r;
    return SIZE_MAX;
  }

  // Allocation of the frameworks `fs` in kind k: their instances and their
  // open offers.
  u128_t alloc(const std::vector<std::size_t>& fs, const std::string& k) const {
    u128_t sum = 0;
    for (const std::size_t f : fs) {
      sum += static_cast<u128_t>(existing_[f] + placed[f]) *
             static_cast<u128_t>(req(spec_.frameworks[f].request, k));
      for (const Offer& o : open_)
        if (o.f == f)
          if (auto it = o.amounts.find(k); it != o.amounts.end())
            sum += static_cast<u128_t>(it->second.first + it->second.second);
    }
    return sum;
  }

  std::tuple<std::string, u128_t, u128_t> share_of(const std::vector<std::size_t>& fs) const {
    std::string kind;
    u128_t num = 0, den = 1;
    for (const std::string& k : kinds_) {
      const u128_t t = totals_.at(k), a = alloc(fs, k);
      if (t == 0 || a == 0) continue;
      if (kind.empty() || a * den > num * t) kind = k, num = a, den = t;
    }
    return {kind, num, den};
  }

  std::vector<std::size_t> members(std::size_t r) const {
    std::vector<std::size_t> out;
    for (std::size_t f = 0; f < spec_.frameworks.size(); ++f)
      if (spec_.frameworks[f].role == r) out.push_back(f);
    return out;
  }

  // a/wa < b/wb for shares (num, den) and weights.
  static bool less(u128_t an, u128_t ad, Weight wa, u128_t bn, u128_t bd, Weight wb) {
    return an * wa.den * bd * wb.num < bn * wb.den * ad * wa.num;
  }

  std::vector<std::size_t> sorted_frameworks(std::size_t r) const {
    std::vector<std::size_t> fs = members(r);
    std::sort(fs.begin(), fs.end(), [&](std::size_t x, std::size_t y) {
      const auto [kx, nx, dx] = share_of({x});
      const auto [ky, ny, dy] = share_of({y});
      if (less(nx, dx, Weight{}, ny, dy, Weight{})) return true;
      if (less(ny, dy, Weight{}, nx, dx, Weight{})) return false;
      return spec_.frameworks[x].name < spec_.frameworks[y].name;
    });
    return fs;
  }

  std::vector<std::size_t> sorted_roles(std::vector<std::size_t> rs, bool weighted) const {
    std::sort(rs.begin(), rs.end(), [&](std::size_t x, std::size_t y) {
      const auto [kx, nx, dx] = share_of(members(x));
      const auto [ky, ny, dy] = share_of(members(y));
      const Weight wx = weighted ? spec_.roles[x].weight : Weight{};
      const Weight wy = weighted ? spec_.roles[y].weight : Weight{};
      if (less(nx, dx, wx, ny, dy, wy)) return true;
      if (less(ny, dy, wy, nx, dx, wx)) return false;
      return spec_.roles[x].name < spec_.roles[y].name;
    });
    return rs;
  }

  bool at_max(std::size_t f) const {
    return spec_.frameworks[f].max_count >= 0 && placed[f] >= spec_.frameworks[f].max_count;
  }

  bool may_use(std::size_t f, std::uint32_t i) const {
    const Node& n = inv_.nodes[i];
    const NodeFilter& filter = spec_.frameworks[f].request.filter;
    if (!filter.nodes.empty() &&
        std::find(filter.nodes.begin(), filter.nodes.end(), n.name) == filter.nodes.end())
      return false;
    if (std::find(filter.exclude.begin(), filter.exclude.end(), n.name) != filter.exclude.end())
      return false;
    for (const Taint& t : n.taints) {
      if (t.effect == "PreferNoSchedule") continue;
      bool ok = false;
      for (const Toleration& tol : spec_.frameworks[f].request.tolerations)
        ok = ok || tol.tolerates(t);
      if (!ok) return false;
    }
    return n.max_instances < 0 || instances_.at(i) < n.max_instances;
  }

  std::int64_t res(std::uint32_t i, std::size_t r, const std::string& k) const {
    auto it = res_.find({i, r, k});
    return it == res_.end() ? 0 : it->second;
  }
  bool has_reservation(std::uint32_t i, std::size_t r) const {
    for (const std::string& k : kinds_)
      if (res_.count({i, r, k})) return true;
    return false;
  }

  bool could_launch() const {
    for (std::size_t f = 0; f < spec_.frameworks.size(); ++f) {
      if (at_max(f)) continue;
      for (const std::uint32_t i : names_) {
        if (!may_use(f, i)) continue;
        bool fits = true;
        for (const std::string& k : kinds_) {
          const std::int64_t q = req(spec_.frameworks[f].request, k);
          if (q > 0 && unres_.at({i, k}) + res(i, spec_.frameworks[f].role, k) < q) fits = false;
        }
        if (fits) return true;
      }
    }
    return false;
  }

  bool eligible(std::size_t f, std::uint32_t i) const {
    return !at_max(f) && may_use(f, i) && !filtered_.count({f, i});
  }

  bool make(Offer&& o) {
    bool any = false;
    for (const auto& [k, a] : o.amounts) any = any || a.first + a.second > 0;
    if (!any) return false;
    for (const auto& [k, a] : o.amounts) {
      if (a.first != 0) res_.at({o.node, spec_.frameworks[o.f].role, k}) -= a.first;
      unres_.at({o.node, k}) -= a.second;
    }
    open_.push_back(std::move(o));
    return true;
  }

  std::int64_t need(std::size_t r, const std::string& k, std::int64_t quota) const {
    const u128_t a = alloc(members(r), k);
    return a >= static_cast<u128_t>(quota) ? 0 : static_cast<std::int64_t>(quota - a);
  }

  std::vector<std::pair<std::string, std::int64_t>> quota(std::size_t r) const {
    std::vector<std::pair<std::string, std::int64_t>> q;
    const KindAmounts& k = spec_.roles[r].quota;
    if (k.cpu) q.emplace_back("cpu", *k.cpu);
    if (k.memory) q.emplace_back("memory", *k.memory);
    if (k.storage) q.emplace_back("storage", *k.storage);
    for (const auto& e : k.extended) q.push_back(e);
    return q;
  }

  void cycle(std::int64_t c, const std::vector<std::uint32_t>& order) {
    open_.clear();
    // Quota stage.
    for (const std::uint32_t i : order) {
      std::vector<std::size_t> roles;
      for (std::size_t r = 0; r < spec_.roles.size(); ++r) {
        if (quota(r).empty()) continue;
        bool served = false;
        for (const std::size_t f : members(r)) {
          bool fits = !at_max(f);
          for (const auto& [k, q] : quota(r))
            if (need(r, k, q) < req(spec_.frameworks[f].request, k)) fits = false;
          served = served || fits;
        }
        if (served) roles.push_back(r);
      }
      bool done = false;
      for (const std::size_t r : sorted_roles(roles, false)) {
        for (const std::size_t f : sorted_frameworks(r)) {
          if (!eligible(f, i)) continue;
          Offer o{i, f, {}};
          for (const std::string& k : kinds_) {
            if (req(spec_.frameworks[f].request, k) <= 0) continue;
            std::int64_t rs = res(i, r, k), un = unres_.at({i, k});
            for (const auto& [qk, q] : quota(r))
              if (qk == k) {
                const std::int64_t n = need(r, k, q);
                rs = std::min(rs, n);
                un = std::min(un, n - rs);
              }
            o.amounts[k] = {rs, un};
          }
          if (make(std::move(o))) {
            done = true;
            break;
          }
        }
        if (done) break;
      }
    }
    // Fair stage.
    std::vector<std::size_t> all;
    for (std::size_t r = 0; r < spec_.roles.size(); ++r) all.push_back(r);
    for (const std::uint32_t i : order) {
      std::optional<std::size_t> first;
      for (const std::size_t r : sorted_roles(all, true)) {
        for (const std::size_t f : sorted_frameworks(r)) {
          if (!eligible(f, i)) continue;
          Offer o{i, f, {}};
          for (const std::string& k : kinds_)
            if (req(spec_.frameworks[f].request, k) > 0)
              o.amounts[k] = {res(i, r, k), unres_.at({i, k})};
          if (make(std::move(o))) {
            first = r;
            break;
          }
        }
        if (first) break;
      }
      if (!first) continue;
      std::set<std::size_t> done{*first};
      for (;;) {
        std::optional<std::size_t> next;
        for (const std::size_t r : sorted_roles(all, true))
          if (!done.count(r) && has_reservation(i, r)) {
            next = r;
            break;
          }
        if (!next) break;
        done.insert(*next);
        for (const std::size_t f : sorted_frameworks(*next)) {
          if (!eligible(f, i)) continue;
          Offer o{i, f, {}};
          for (const std::string& k : kinds_)
            if (req(spec_.frameworks[f].request, k) > 0) o.amounts[k] = {res(i, *next, k), 0};
          if (make(std::move(o))) break;
        }
      }
    }
    // Merge one node's offers to one framework, at the place of the first.
    std::vector<Offer> merged;
    for (Offer& o : open_) {
      auto it = std::find_if(merged.begin(), merged.end(),
                             [&](const Offer& m) { return m.node == o.node && m.f == o.f; });
      if (it == merged.end()) {
        merged.push_back(o);
        continue;
      }
      for (const auto& [k, a] : o.amounts) {
        it->amounts[k].first += a.first;
        it->amounts[k].second += a.second;
      }
    }
    filtered_.clear();
    // Answers, in order; each answered offer leaves the open list.
    for (const Offer& o : merged) {
      const MesosFramework& fw = spec_.frameworks[o.f];
      std::int64_t n = INT64_MAX;
      for (const auto& [k, a] : o.amounts)
        n = std::min(n, (a.first + a.second) / req(fw.request, k));
      if (fw.max_count >= 0) n = std::min(n, fw.max_count - placed[o.f]);
      const Node& node = inv_.nodes[o.node];
      if (node.max_instances >= 0) n = std::min(n, node.max_instances - instances_[o.node]);
      n = std::max<std::int64_t>(n, 0);
      std::string offered, declined;
      bool any = false;
      for (const auto& [k, a] : o.amounts) {
        const std::int64_t used = n * req(fw.request, k);
        const std::int64_t from_res = std::min(used, a.first);
        const std::int64_t back_res = a.first - from_res, back_unres = a.second - (used - from_res);
        if (back_res != 0) res_.at({o.node, fw.role, k}) += back_res;
        unres_.at({o.node, k}) += back_unres;
        offered += " " + k + "=" + std::to_string(a.first + a.second);
        declined += " " + k + "=" + std::to_string(back_res + back_unres);
        any = any || back_res + back_unres > 0;
      }
      if (any) filtered_.insert({o.f, o.node});
      open_.erase(std::find_if(open_.begin(), open_.end(),
                               [&](const Offer& x) { return x.node == o.node && x.f == o.f; }));
      while (true) {  // the merged parts too
        auto it = std::find_if(open_.begin(), open_.end(),
                               [&](const Offer& x) { return x.node == o.node && x.f == o.f; });
        if (it == open_.end()) break;
        open_.erase(it);
      }
      placed[o.f] += n;
      if (node.max_instances >= 0) instances_[o.node] += n;
      offers.push_back(std::to_string(c) + " " + node.name + " " + fw.name + offered + " +" +
                       std::to_string(n) + declined);
    }
  }

  const Inventory& inv_;
  const MesosSpec& spec_;
  const MesosOptions& o_;
  std::vector<std::string> kinds_;
  std::map<std::string, u128_t> totals_;
  std::vector<std::uint32_t> names_;
  std::map<std::uint32_t, std::int64_t> instances_;
  std::map<std::pair<std::uint32_t, std::string>, std::int64_t> unres_;
  std::map<std::tuple<std::uint32_t, std::size_t, std::string>, std::int64_t> res_;
  std::vector<std::int64_t> existing_;
  std::vector<Offer> open_;
  std::set<std::pair<std::size_t, std::uint32_t>> filtered_;
};

Node node(std::string name, std::int64_t cores, Bytes memory) {
  Node n;
  n.name = std::move(name);
  n.plain_cores = cores;
  n.plain_core_pieces = 100;
  n.cpu_given = cores * kCore;
  n.memory = memory;
  return n;
}

MesosFramework framework(std::string name, std::size_t role, NanoCores cpu, Bytes memory) {
  MesosFramework f;
  f.name = name;
  f.role = role;
  f.request.app = f.request.name = name;
  f.request.cpu = f.request.cpu_limit = cpu;
  f.request.memory = f.request.memory_limit = memory;
  f.request.cpu_fit = true;
  return f;
}

// What the engine did, in the oracle's words.
std::vector<std::string> engine_offers(const Inventory& inv, const MesosSpec& spec,
                                       const MesosResult& r) {
  std::vector<std::string> out;
  for (std::size_t c = 0; c < r.cycles.size(); ++c)
    for (const MesosOffer& o : r.cycles[c]) {
      const MesosFramework& fw = spec.frameworks[o.framework];
      std::string offered, declined;
      for (std::size_t k = 0; k < r.kinds.size(); ++k) {
        if (req(fw.request, r.kinds[k]) <= 0) continue;
        offered += " " + r.kinds[k] + "=" + std::to_string(o.offered[k]);
        declined += " " + r.kinds[k] + "=" + std::to_string(o.declined[k]);
      }
      out.push_back(std::to_string(c + 1) + " " + inv.nodes[o.node].name + " " + fw.name + offered +
                    " +" + std::to_string(o.launched) + declined);
    }
  return out;
}

}  // namespace

TEST_CASE("mesos: the DRF example gives A 4 then B 1 from what A declined") {
  Inventory inv;
  inv.nodes.push_back(node("node1", 9, 18 * Gi));
  MesosSpec spec;
  spec.roles = {MesosRole{"a", {}, {}, {}}, MesosRole{"b", {}, {}, {}}};
  spec.frameworks = {framework("A", 0, kCore, 4 * Gi), framework("B", 1, 3 * kCore, Gi)};
  Inventory state = inv;
  const MesosResult r = mesos_share(state, spec, {});
  REQUIRE(r.cycles.size() == 2);
  CHECK(r.frameworks[0].placed == 4);
  CHECK(r.frameworks[1].placed == 1);
  CHECK(fraction_text(r.frameworks[0].dominant_share) == "8/9");
  CHECK(r.frameworks[0].dominant_resource == "memory");
  CHECK(state.nodes[0].cpu_used == 7 * kCore);
  CHECK(state.nodes[0].memory_used == 17 * Gi);
  CHECK(engine_offers(inv, spec, r) ==
        std::vector<std::string>{"1 node1 A cpu=9000000000 memory=19327352832 +4 cpu=5000000000 "
                                 "memory=2147483648",
                                 "2 node1 B cpu=5000000000 memory=2147483648 +1 cpu=2000000000 "
                                 "memory=1073741824"});
  // --cycles 1 stops after A's launch.
  Inventory again = inv;
  MesosOptions one;
  one.cycles = 1;
  CHECK(mesos_share(again, spec, one).frameworks[1].placed == 0);
}

TEST_CASE("mesos: the allocator matches the one-offer-at-a-time oracle on random clusters") {
  Rng rng{20261125};
  std::int64_t offers = 0, launched = 0, with_quota = 0, with_reservations = 0;
  for (int round = 0; round < 3000; ++round) {
    CAPTURE(round);
    Inventory inv;
    MesosSpec spec;
    const std::int64_t roles = rng.in(1, 3);
    static const Weight kWeights[] = {{1, 1}, {2, 1}, {1, 2}, {3, 1}, {3, 2}};
    for (std::int64_t r = 0; r < roles; ++r) {
      MesosRole role;
      role.name = "r" + std::to_string(r);
      role.weight = kWeights[rng.in(0, 4)];
      spec.roles.push_back(role);
    }
    const std::int64_t nodes = rng.in(1, 6);
    for (std::int64_t i = 0; i < nodes; ++i) {
      Node n = node("n" + std::to_string(rng.in(0, 99)) + "_" + std::to_string(i), rng.in(1, 8),
                    rng.in(1, 16) * Gi / 2);
      if (rng.chance(30)) n.cpu_used = rng.in(0, n.plain_cores) * kCore / 2;
      if (rng.chance(30)) n.memory_used = std::min(n.memory, rng.in(0, 4) * Gi / 2);
      if (rng.chance(30)) n.extended.push_back({kGpu, rng.in(0, 4), 0});
      if (rng.chance(20)) n.max_instances = rng.in(0, 6);
      if (rng.chance(10)) n.available = false;
      if (rng.chance(20)) n.taints.push_back({"dedicated", "x", "NoSchedule"});
      if (rng.chance(20)) n.instances.push_back({"f" + std::to_string(rng.in(0, 3)), rng.in(1, 3)});
      if (rng.chance(40)) {  // reservations, by role name, within capacity
        NanoCores cpu_left = n.cpu_total();
        Bytes mem_left = n.memory;
        for (std::int64_t r = 0; r < roles; ++r) {
          if (!rng.chance(50)) continue;
          Reservation res;
          res.role = "r" + std::to_string(r);
          res.cpu = rng.in(0, cpu_left / (kCore / 2)) * (kCore / 2);
          res.memory = rng.in(0, mem_left / (Gi / 2)) * (Gi / 2);
          cpu_left -= res.cpu;
          mem_left -= res.memory;
          n.reservations.push_back(res);
        }
        with_reservations += !n.reservations.empty();
      }
      inv.nodes.push_back(std::move(n));
    }
    NanoCores cpu_total = 0;
    Bytes memory_total = 0;
    for (const Node& n : inv.nodes)
      if (n.available) cpu_total += n.cpu_total(), memory_total += n.memory;
    for (MesosRole& role : spec.roles) {
      if (!rng.chance(30)) continue;
      ++with_quota;
      if (rng.chance(70)) role.quota.cpu = rng.in(0, cpu_total / (kCore / 2)) * (kCore / 2);
      if (rng.chance(50)) role.quota.memory = rng.in(0, memory_total / (Gi / 2)) * (Gi / 2);
    }
    const std::int64_t frameworks = rng.in(1, 4);
    for (std::int64_t f = 0; f < frameworks; ++f) {
      MesosFramework fw =
          framework("f" + std::to_string(f), static_cast<std::size_t>(rng.in(0, roles - 1)),
                    rng.in(0, 6) * kCore / 2, rng.in(0, 4) * Gi / 2);
      if (rng.chance(20)) fw.request.extended.push_back({kGpu, rng.in(1, 2)});
      if (fw.request.cpu == 0 && fw.request.memory == 0 && fw.request.extended.empty())
        fw.request.memory = Gi / 2;
      if (rng.chance(30)) fw.max_count = rng.in(0, 8);
      if (rng.chance(30)) fw.request.tolerations.push_back({"dedicated", false, "x", ""});
      if (rng.chance(20))
        fw.request.filter.exclude.push_back(
            inv.nodes[static_cast<std::size_t>(rng.in(0, nodes - 1))].name);
      spec.frameworks.push_back(std::move(fw));
    }
    MesosOptions options;
    if (rng.chance(30))
      options.seed.reset();
    else
      options.seed = rng.next();
    if (rng.chance(40)) options.cycles = rng.in(1, 5);

    Inventory state = inv;
    const MesosResult got = mesos_share(state, spec, options);
    Oracle oracle(inv, spec, options);
    oracle.run();
    REQUIRE(engine_offers(inv, spec, got) == oracle.offers);
    for (std::size_t f = 0; f < spec.frameworks.size(); ++f) {
      CAPTURE(f);
      CHECK(got.frameworks[f].placed == oracle.placed[f]);
      const MesosFrameworkShare& s = got.frameworks[f];
      CHECK((s.dominant_resource.empty()
                 ? "0"
                 : s.dominant_resource + " " + fraction_text(s.dominant_share)) ==
            oracle.shares[f]);
    }
    offers += static_cast<std::int64_t>(oracle.offers.size());
    launched += got.launched;
  }
  // The rounds exercised what they are meant to.
  CHECK(offers > 5000);
  CHECK(launched > 5000);
  CHECK(with_quota > 300);
  CHECK(with_reservations > 300);
}
