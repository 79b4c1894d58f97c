// Volume plans (SPEC §4 "Volume plans"): how many instances a node's devices
// can host for the request's scheduled (AUTO) bindings, and which device each
// binding of each instance takes.
//
// Three kinds of scheduled binding:
// - normal (SIZE > 0, no `m`): SIZE bytes from any device with room;
// - monopoly (`m`, SIZE > 0): all of an instance's monopoly bindings share one
//   whole device that nothing uses yet, split in proportion to their sizes;
// - unlimited quota (SIZE 0): binds a device, takes no space.
//
// Decisions the SPEC leaves open:
// - Capacity for normal bindings is the most complete plans found by several
//   packings: largest size first filling devices in name order (first fit),
//   least available first (best fit) and most available first, counted per
//   device so huge capacities cost nothing; the per-instance greedy (each
//   binding, largest first, onto the device with most available space) while
//   it needs at most kGreedyLimit plans, so capacity is never below it; and an
//   exhaustive search for one more plan while that needs at most kExactShares
//   shares.
// - Plans take each binding's shares in device name order: plan p's binding
//   gets the p-th share of its size on the devices in name order (bindings of
//   equal size take turns), so one binding on {/sda0: 1000, /sda1: 200} gives
//   ten /sda0 plans, then two /sda1 plans, as in the design note.
// - A monopoly device is split by floor(size * SIZE_i / sum of SIZEs) per
//   binding; the last monopoly binding (request order) takes the remainder,
//   so the shares add up to the whole device.
// - For j monopoly plans the j smallest eligible devices (ties by name) go to
//   monopoly: what is left then holds, device for device, at least as much
//   as any other choice leaves, so no other choice packs more normal shares.
//   Capacity is the largest j whose leftover devices hold j plans' normal
//   (and unlimited) bindings. Plans take their monopoly devices in name order.
// - An unlimited quota binds the device with the most available space as the
//   node stands before this request (ties by name), among devices no monopoly
//   plan takes; every plan binds the same device. When monopoly plans take
//   every device, each plan's unlimited quotas bind that plan's own monopoly
//   device: never one another instance holds whole, and capacity is not
//   limited (SPEC §4). A monopoly binding of SIZE 0 (the loader rejects it)
//   counts as an unlimited quota.
#include <algorithm>
#include <bit>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "capacity.h"
#include "wide.h"

namespace eruplan {

namespace {

constexpr std::int64_t kGreedyLimit = 4096;   // plans the per-instance greedy is run for
constexpr std::int64_t kExactShares = 24;     // shares an exhaustive search places at most
constexpr std::int64_t kExactBudget = 20000;  // search steps per exhaustive attempt

// volume_plan_steps(): device visits, sort steps and search steps so far.
thread_local std::int64_t steps_taken = 0;

void count_steps(std::size_t n) { steps_taken += static_cast<std::int64_t>(n); }

// Steps of sorting n items.
std::size_t sort_steps(std::size_t n) { return n * static_cast<std::size_t>(std::bit_width(n)); }

// Normal bindings of equal size are interchangeable, so packing works on
// size classes, largest first.
struct SizeClass {
  Bytes size = 0;
  std::vector<std::uint32_t> bindings;  // indices into Request::volumes, ascending
};

// A packing: shares per size class per pool device.
using Counts = std::vector<std::vector<std::int64_t>>;

std::int64_t clamp64(i128 v) {
  const i128 top = kUnlimited - 1;  // kUnlimited means "does not limit"
  return static_cast<std::int64_t>(v > top ? top : v);
}

std::int64_t shares_per_plan(const std::vector<SizeClass>& classes) {
  std::int64_t k = 0;
  for (const auto& c : classes) k += static_cast<std::int64_t>(c.bindings.size());
  return k;
}

// No packing can place more plans than this.
std::int64_t upper_bound(const std::vector<Bytes>& avail, const std::vector<SizeClass>& classes) {
  i128 total_avail = 0, per_plan = 0;
  for (Bytes a : avail) total_avail += a;
  for (const auto& c : classes) per_plan += static_cast<i128>(c.size) * c.bindings.size();
  i128 bound = total_avail / per_plan;
  for (const auto& c : classes) {
    i128 fit = 0;
    for (Bytes a : avail) fit += a / c.size;
    bound = std::min<i128>(bound, fit / static_cast<i128>(c.bindings.size()));
  }
  return clamp64(bound);
}

enum class Order { Name, LeastAvailable, MostAvailable };

// Places n plans' shares size class by size class, largest first, each class
// filling devices in the given order. Counts per device, so cheap for any n.
std::optional<Counts> pack_by_counts(std::vector<Bytes> avail,
                                     const std::vector<SizeClass>& classes, std::int64_t n,
                                     Order order) {
  Counts counts(classes.size(), std::vector<std::int64_t>(avail.size(), 0));
  std::vector<std::size_t> idx(avail.size());
  for (std::size_t c = 0; c < classes.size(); ++c) {
    count_steps(order == Order::Name ? avail.size() : sort_steps(avail.size()));
    const Bytes size = classes[c].size;
    i128 need = static_cast<i128>(n) * classes[c].bindings.size();
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    if (order == Order::LeastAvailable)
      std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return avail[a] < avail[b]; });
    else if (order == Order::MostAvailable)
      std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return avail[a] > avail[b]; });
    for (std::size_t d : idx) {
      if (need == 0) break;
      const std::int64_t take = static_cast<std::int64_t>(std::min<i128>(need, avail[d] / size));
      counts[c][d] = take;
      avail[d] -= take * size;
      need -= take;
    }
    if (need > 0) return std::nullopt;
  }
  return counts;
}

// The simple greedy: instance by instance, each binding (largest first) onto
// the device with the most available space that fits it (ties by name).
// Returns how many of at most `limit` plans it completes; `counts` holds them.
// The devices sit in a heap by available space, so a binding costs log(devices),
// not a scan of every device.
std::int64_t greedy(std::vector<Bytes> avail, const std::vector<SizeClass>& classes,
                    std::int64_t limit, Counts& counts) {
  counts.assign(classes.size(), std::vector<std::int64_t>(avail.size(), 0));
  // Heap order: most available first, then the lower index (the name order).
  auto after = [&](std::size_t a, std::size_t b) {
    return avail[a] != avail[b] ? avail[a] < avail[b] : a > b;
  };
  std::vector<std::size_t> heap(avail.size());
  std::iota(heap.begin(), heap.end(), std::size_t{0});
  std::make_heap(heap.begin(), heap.end(), after);
  count_steps(avail.size());
  std::vector<std::pair<std::size_t, std::size_t>> taken;  // (class, device)
  std::int64_t done = 0;
  while (done < limit && !heap.empty()) {
    taken.clear();
    bool complete = true;
    for (std::size_t c = 0; c < classes.size() && complete; ++c) {
      for (std::size_t k = 0; k < classes[c].bindings.size(); ++k) {
        // The device with the most room fits the binding if any does.
        const std::size_t best = heap.front();
        if (avail[best] < classes[c].size) {
          complete = false;
          break;
        }
        std::pop_heap(heap.begin(), heap.end(), after);
        count_steps(2 * static_cast<std::size_t>(std::bit_width(heap.size())));
        avail[best] -= classes[c].size;
        std::push_heap(heap.begin(), heap.end(), after);
        taken.emplace_back(c, best);
      }
    }
    if (!complete) break;  // the partial plan's space is never used again
    for (auto [c, d] : taken) ++counts[c][d];
    ++done;
  }
  return done;
}

// Exhaustive search for a packing of n plans; gives up after kExactBudget steps.
class ExactSearch {
 public:
  ExactSearch(std::vector<Bytes> avail, const std::vector<SizeClass>& classes, std::int64_t n)
      : avail_(std::move(avail)) {
    for (std::size_t c = 0; c < classes.size(); ++c)
      for (std::int64_t i = 0; i < n * static_cast<std::int64_t>(classes[c].bindings.size()); ++i) {
        items_.push_back(classes[c].size);
        item_class_.push_back(c);
      }
    suffix_.assign(items_.size() + 1, 0);
    for (std::size_t t = items_.size(); t-- > 0;) suffix_[t] = suffix_[t + 1] + items_[t];
    for (Bytes a : avail_) free_ += a;
    at_.assign(items_.size(), 0);
    classes_ = classes.size();
  }

  std::optional<Counts> run() {
    const bool placed = place(0);
    count_steps(static_cast<std::size_t>(kExactBudget - std::max<std::int64_t>(budget_, 0)) *
                avail_.size());
    if (!placed) return std::nullopt;
    Counts counts(classes_, std::vector<std::int64_t>(avail_.size(), 0));
    for (std::size_t t = 0; t < items_.size(); ++t) ++counts[item_class_[t]][at_[t]];
    return counts;
  }

 private:
  bool place(std::size_t t) {
    if (t == items_.size()) return true;
    if (--budget_ < 0 || suffix_[t] > free_) return false;
    const Bytes size = items_[t];
    // Equal items go to non-decreasing devices, and devices with equal
    // available space are interchangeable: both cut symmetric branches.
    const std::size_t first = (t > 0 && items_[t - 1] == size) ? at_[t - 1] : 0;
    for (std::size_t d = first; d < avail_.size(); ++d) {
      if (avail_[d] < size) continue;
      bool seen = false;
      for (std::size_t e = first; e < d && !seen; ++e) seen = avail_[e] == avail_[d];
      if (seen) continue;
      avail_[d] -= size;
      free_ -= size;
      at_[t] = d;
      if (place(t + 1)) return true;
      avail_[d] += size;
      free_ += size;
    }
    return false;
  }

  std::vector<Bytes> avail_;
  std::vector<Bytes> items_;
  std::vector<std::size_t> item_class_;
  std::vector<i128> suffix_;
  std::vector<std::size_t> at_;
  i128 free_ = 0;
  std::size_t classes_ = 0;
  std::int64_t budget_ = kExactBudget;
};

bool exact_applies(const std::vector<SizeClass>& classes, std::int64_t n) {
  const std::int64_t k = shares_per_plan(classes);
  return k == 0 || n <= kExactShares / k;
}

std::optional<Counts> pack_fast(const std::vector<Bytes>& avail,
                                const std::vector<SizeClass>& classes, std::int64_t n) {
  for (Order order : {Order::Name, Order::LeastAvailable, Order::MostAvailable})
    if (auto counts = pack_by_counts(avail, classes, n, order)) return counts;
  return std::nullopt;
}

// A packing of exactly n plans by any of the methods, or none found.
std::optional<Counts> pack(const std::vector<Bytes>& avail, const std::vector<SizeClass>& classes,
                           std::int64_t n) {
  if (auto counts = pack_fast(avail, classes, n)) return counts;
  if (n <= kGreedyLimit) {
    Counts counts;
    if (greedy(avail, classes, n, counts) == n) return counts;
  }
  if (exact_applies(classes, n)) return ExactSearch(avail, classes, n).run();
  return std::nullopt;
}

struct Packing {
  std::int64_t plans = 0;
  Counts counts;
};

// The most plans found for the normal bindings on these devices.
Packing max_normal(const std::vector<Bytes>& avail, const std::vector<SizeClass>& classes) {
  Packing best;
  if (classes.empty() || avail.empty()) return best;
  count_steps(avail.size() * classes.size());
  const std::int64_t bound = upper_bound(avail, classes);
  if (bound == 0) return best;
  // The common case: a counted packing reaches the bound, which is optimal.
  if (auto counts = pack_fast(avail, classes, bound)) return {bound, std::move(*counts)};
  // The greedy's first k plans are a packing for every k up to its count, so
  // the search below, which only moves past packable counts, ends at or above it.
  best.plans = greedy(avail, classes, std::min(bound, kGreedyLimit), best.counts);
  std::int64_t lo = best.plans, hi = bound + 1;
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (auto counts = pack_fast(avail, classes, mid)) {
      lo = mid;
      best = {mid, std::move(*counts)};
    } else {
      hi = mid;
    }
  }
  while (best.plans < bound && exact_applies(classes, best.plans + 1)) {
    auto counts = ExactSearch(avail, classes, best.plans + 1).run();
    if (!counts) break;
    best = {best.plans + 1, std::move(*counts)};
  }
  return best;
}

// Which devices host what, for a node.
struct Layout {
  std::int64_t capacity = 0;
  std::vector<std::uint32_t> monopoly;  // one per plan, by device index
  std::vector<std::uint32_t> pool;      // devices for normal and unlimited bindings, by index
  Counts counts;                        // normal shares per class per pool device
};

std::vector<Bytes> available(const Node& node, const std::vector<std::uint32_t>& devices) {
  std::vector<Bytes> avail;
  for (auto d : devices) avail.push_back(node.devices[d].size - node.devices[d].used);
  return avail;
}

// The device with the most available space, ties by name; devices non-empty.
std::uint32_t emptiest(const Node& node, const std::vector<std::uint32_t>& devices) {
  std::uint32_t best = devices.front();
  for (auto d : devices) {
    const Device& a = node.devices[d];
    const Device& b = node.devices[best];
    if (a.size - a.used > b.size - b.used) best = d;
  }
  return best;
}

// The most monopoly plans whose leftover devices still pack the normal
// bindings of one size class: with one class a packing of n plans exists
// exactly when the devices hold n * (its bindings) shares counted device by
// device, which the name order's packing reaches, so each count is checked
// by taking one device's shares off the total. Every device's available
// space is non-negative (a share count of a negative space is not one).
std::size_t one_class_plans(const Node& node, const std::vector<std::uint32_t>& eligible,
                            const SizeClass& only) {
  i128 shares = 0;
  for (const Device& d : node.devices) shares += (d.size - d.used) / only.size;
  count_steps(node.devices.size() + eligible.size());
  const i128 per_plan = static_cast<i128>(only.bindings.size());
  std::size_t plans = 0;
  for (std::size_t j = 1; j <= eligible.size(); ++j) {
    const Device& d = node.devices[eligible[j - 1]];
    shares -= (d.size - d.used) / only.size;
    if (shares < per_plan * static_cast<i128>(j)) break;
    plans = j;
  }
  return plans;
}

// Two size classes standing for several: the largest as it is, every other
// binding as large as the second largest. When a counted packing (any order)
// places n plans of these, the same order places n plans of the real classes:
// the largest class fills the devices the same way, and every later share,
// at most the second size, takes at most one of the spaces of the second
// size left on its device, of which there are enough for all of them. Needs
// non-negative available space.
std::vector<SizeClass> rounded_classes(const std::vector<SizeClass>& classes) {
  std::vector<SizeClass> two{classes[0], {classes[1].size, {}}};
  for (std::size_t c = 1; c < classes.size(); ++c)
    two[1].bindings.insert(two[1].bindings.end(), classes[c].bindings.begin(),
                           classes[c].bindings.end());
  return two;
}

// Monopoly plans, each on its own eligible device (eligible: smallest
// first), with the normal and unlimited bindings on the devices left over.
// The capacity is the last j before the first count j of monopoly plans
// whose leftover devices do not pack j plans' normal bindings. Without
// normal bindings every j packs, so every eligible device hosts a plan and
// nothing is tried; with one size class a count of shares decides each j
// (one_class_plans). With more, a binary search finds the last j whose
// leftover devices pack j plans of two rounded size classes
// (rounded_classes): every count up to it packs, so only the counts after
// it are tried one by one, each a pass over the devices plus the packing.
// The search holds because such a packing of two classes, once out of reach,
// stays so as j grows: going from j to j + 1 takes one device away (the
// others keep their space and their relative order, by name or by space) and
// asks one plan more, so the largest class needs at least as many shares
// before each device and leaves each device at most the space it left
// before; the second class, the last, then finds at most as many shares in
// all as before, for more plans.
Layout monopoly_layout(const Node& node, const std::vector<std::uint32_t>& eligible,
                       const std::vector<SizeClass>& classes) {
  const std::size_t devices = node.devices.size();
  const bool non_negative = std::all_of(node.devices.begin(), node.devices.end(),
                                        [](const Device& d) { return d.size >= d.used; });
  std::size_t plans = classes.empty() ? eligible.size() : 0;
  bool packed_at_plans = classes.empty();  // `counts` holds the packing of `plans`
  Counts counts;
  if (classes.size() == 1 && non_negative) {
    plans = one_class_plans(node, eligible, classes.front());
  } else if (!classes.empty()) {
    // The leftover devices of j monopoly plans: those whose rank in
    // `eligible` is j or more, in name order.
    std::vector<std::size_t> rank(devices, eligible.size());
    for (std::size_t j = 0; j < eligible.size(); ++j) rank[eligible[j]] = j;
    std::vector<Bytes> avail;
    avail.reserve(devices);
    const auto leftover = [&](std::size_t j) -> const std::vector<Bytes>& {
      count_steps(devices);
      avail.clear();
      for (std::size_t d = 0; d < devices; ++d)
        if (rank[d] >= j) avail.push_back(node.devices[d].size - node.devices[d].used);
      return avail;
    };
    std::size_t first = 1;  // the first count tried one by one
    if (non_negative && classes.size() >= 2) {
      const std::vector<SizeClass> rounded = rounded_classes(classes);
      std::size_t lo = 0, hi = eligible.size() + 1;
      while (hi - lo > 1) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (pack_fast(leftover(mid), rounded, static_cast<std::int64_t>(mid)))
          lo = mid;
        else
          hi = mid;
      }
      plans = lo;
      first = lo + 1;
    }
    packed_at_plans = plans == 0;
    for (std::size_t j = first; j <= eligible.size(); ++j) {
      auto packed = pack(leftover(j), classes, static_cast<std::int64_t>(j));
      // Were j plans out of reach, j + 1 would be too: the pool only shrinks.
      if (!packed) break;
      plans = j;
      counts = std::move(*packed);
      packed_at_plans = true;
    }
  }
  Layout best;
  if (plans == 0) return best;
  best.capacity = static_cast<std::int64_t>(plans);
  best.monopoly.assign(eligible.begin(), eligible.begin() + static_cast<std::ptrdiff_t>(plans));
  std::sort(best.monopoly.begin(), best.monopoly.end());
  std::vector<char> taken(devices, 0);
  for (auto d : best.monopoly) taken[d] = 1;
  for (std::uint32_t d = 0; d < devices; ++d)
    if (!taken[d]) best.pool.push_back(d);
  // One class, or a count the search found: the packing of `plans` plans,
  // which exists.
  if (!packed_at_plans) counts = pack(available(node, best.pool), classes, best.capacity).value();
  best.counts = std::move(counts);
  return best;
}

// The simple computation monopoly_layout stands for, kept for the tests:
// for each j the sorted first j eligible devices, the pool by a search in
// them, and a packing of j plans.
Layout monopoly_layout_by_scan(const Node& node, const std::vector<std::uint32_t>& eligible,
                               const std::vector<SizeClass>& classes) {
  Layout best;
  for (std::size_t j = 1; j <= eligible.size(); ++j) {
    std::vector<std::uint32_t> mono(eligible.begin(),
                                    eligible.begin() + static_cast<std::ptrdiff_t>(j));
    std::sort(mono.begin(), mono.end());
    std::vector<std::uint32_t> pool;
    for (std::uint32_t d = 0; d < node.devices.size(); ++d)
      if (!std::binary_search(mono.begin(), mono.end(), d)) pool.push_back(d);
    auto counts = pack(available(node, pool), classes, static_cast<std::int64_t>(j));
    if (!counts) break;
    best = {static_cast<std::int64_t>(j), std::move(mono), std::move(pool), std::move(*counts)};
  }
  return best;
}

std::string join_bindings(const Request& request, const std::vector<std::uint32_t>& bindings,
                          const char* sep) {
  std::string out;
  for (std::size_t i = 0; i < bindings.size(); ++i) {
    if (i > 0) out += sep;
    out += request.volumes[bindings[i]].binding;
  }
  return out;
}

std::string list_devices(const Node& node, const std::vector<std::uint32_t>& devices) {
  std::string out;
  for (auto d : devices) {
    if (!out.empty()) out += ", ";
    const Device& dev = node.devices[d];
    out += dev.name + " " + format_bytes(dev.size - dev.used);
    if (dev.used == 0) out += " (unused)";
  }
  return out;
}

std::vector<std::uint32_t> all_devices(const Node& node) {
  std::vector<std::uint32_t> all(node.devices.size());
  std::iota(all.begin(), all.end(), std::uint32_t{0});
  return all;
}

// Why normal bindings get no plan on these devices.
std::string normal_reason(const Node& node, const Request& request,
                          const std::vector<SizeClass>& classes,
                          const std::vector<std::uint32_t>& pool) {
  if (pool.empty())
    return "no device left for " + join_bindings(request, classes[0].bindings, ", ");
  const std::uint32_t most = emptiest(node, pool);
  const Device& dev = node.devices[most];
  const Bytes most_avail = dev.size - dev.used;
  const SizeClass& largest = classes.front();
  if (largest.size > most_avail)
    return request.volumes[largest.bindings.front()].binding + " needs " +
           format_bytes(largest.size) + " on one device; most available is " + dev.name + " with " +
           format_bytes(most_avail);
  std::vector<std::uint32_t> normal;
  i128 total = 0;
  for (const auto& c : classes) {
    normal.insert(normal.end(), c.bindings.begin(), c.bindings.end());
    total += static_cast<i128>(c.size) * c.bindings.size();
  }
  std::sort(normal.begin(), normal.end());
  return join_bindings(request, normal, " + ") + " (" + format_bytes(clamp64(total)) +
         " in all) do not fit together; available: " + list_devices(node, pool);
}

void add_plans(const Node& node, const Request& request, const std::vector<std::uint32_t>& mono,
               const std::vector<std::uint32_t>& unlimited, const std::vector<SizeClass>& classes,
               const Layout& layout, std::int64_t count, std::vector<Plan>& plans) {
  i128 mono_total = 0;
  for (auto b : mono) mono_total += request.volumes[b].size;
  std::optional<std::uint32_t> quota_device;  // none: each plan's own monopoly device
  if (!unlimited.empty() && !layout.pool.empty()) quota_device = emptiest(node, layout.pool);

  // Each class's shares in device name order: slot p * m + k is plan p's k-th binding of the class.
  std::vector<std::vector<std::uint32_t>> slots(classes.size());
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const std::int64_t want = count * static_cast<std::int64_t>(classes[c].bindings.size());
    for (std::size_t d = 0; d < layout.pool.size(); ++d)
      for (std::int64_t i = 0;
           i < layout.counts[c][d] && static_cast<std::int64_t>(slots[c].size()) < want; ++i)
        slots[c].push_back(layout.pool[d]);
  }

  count_steps(static_cast<std::size_t>(count) * request.volumes.size());
  for (std::int64_t p = 0; p < count; ++p) {
    Plan plan;
    if (!mono.empty()) {
      const std::uint32_t device = layout.monopoly[static_cast<std::size_t>(p)];
      const Bytes whole = node.devices[device].size;
      Bytes given = 0;
      for (std::size_t i = 0; i < mono.size(); ++i) {
        const Bytes share = i + 1 == mono.size()
                                ? whole - given
                                : static_cast<Bytes>(static_cast<i128>(whole) *
                                                     request.volumes[mono[i]].size / mono_total);
        given += share;
        plan.volumes.push_back({mono[i], device, share});
      }
    }
    for (std::size_t c = 0; c < classes.size(); ++c) {
      const std::size_t m = classes[c].bindings.size();
      for (std::size_t k = 0; k < m; ++k)
        plan.volumes.push_back({classes[c].bindings[k],
                                slots[c][static_cast<std::size_t>(p) * m + k], classes[c].size});
    }
    for (auto b : unlimited)
      plan.volumes.push_back(
          {b, quota_device ? *quota_device : layout.monopoly[static_cast<std::size_t>(p)], 0});
    std::sort(plan.volumes.begin(), plan.volumes.end(),
              [](const VolumeShare& a, const VolumeShare& b) {
                return a.binding != b.binding ? a.binding < b.binding : a.device < b.device;
              });
    plans.push_back(std::move(plan));
  }
}

}  // namespace

namespace {

DimensionResult volume_plans(const Node& node, const Request& request, std::int64_t max_plans,
                             bool by_scan) {
  DimensionResult result;
  std::vector<std::uint32_t> mono, unlimited, normal;
  for (std::uint32_t i = 0; i < request.volumes.size(); ++i) {
    const VolumeRequest& v = request.volumes[i];
    if (!v.scheduled()) continue;
    if (v.size == 0)
      unlimited.push_back(i);
    else if (v.monopoly())
      mono.push_back(i);
    else
      normal.push_back(i);
  }
  if (mono.empty() && unlimited.empty() && normal.empty()) return result;
  result.binds = true;
  count_steps(sort_steps(node.devices.size()));
  if (node.devices.empty()) {
    result.stop(Reason::words("volumes", "node has no volumes"));
    return result;
  }

  std::vector<SizeClass> classes;
  for (auto b : normal) {
    const Bytes size = request.volumes[b].size;
    auto it = std::find_if(classes.begin(), classes.end(),
                           [&](const SizeClass& c) { return c.size == size; });
    if (it == classes.end())
      classes.push_back({size, {b}});
    else
      it->bindings.push_back(b);
  }
  std::sort(classes.begin(), classes.end(),
            [](const SizeClass& a, const SizeClass& b) { return a.size > b.size; });

  if (mono.empty() && classes.empty()) {
    // Only unlimited quotas: nothing limits; every instance shares one plan.
    result.capacity = kUnlimited;
    if (max_plans > 0) {
      Layout layout;
      layout.pool = all_devices(node);
      add_plans(node, request, mono, unlimited, classes, layout, 1, result.plans);
    }
    return result;
  }

  Layout layout;
  if (mono.empty()) {
    layout.pool = all_devices(node);
    Packing packing = max_normal(available(node, layout.pool), classes);
    layout.capacity = packing.plans;
    layout.counts = std::move(packing.counts);
    if (layout.capacity == 0)
      result.reasons.push_back(
          Reason::words("volumes", normal_reason(node, request, classes, layout.pool)));
  } else {
    i128 need = 0;
    for (auto b : mono) need += request.volumes[b].size;
    std::vector<std::uint32_t> eligible, unused;
    for (std::uint32_t d = 0; d < node.devices.size(); ++d) {
      if (node.devices[d].used != 0) continue;
      unused.push_back(d);
      if (node.devices[d].size >= need) eligible.push_back(d);
    }
    // Smallest devices first: they leave the most room to the other bindings.
    std::stable_sort(eligible.begin(), eligible.end(),
                     [&](auto a, auto b) { return node.devices[a].size < node.devices[b].size; });
    const std::string monopoly = "monopoly " + join_bindings(request, mono, " + ");
    if (eligible.empty()) {
      std::string why = monopoly + (mono.size() == 1 ? " needs" : " need") +
                        " an unused device of at least " + format_bytes(clamp64(need)) + "; ";
      if (unused.empty()) {
        why += "none";
      } else {
        const Device& big = node.devices[emptiest(node, unused)];
        why += "largest unused is " + big.name + " with " + format_bytes(big.size);
      }
      result.reasons.push_back(Reason::words("volumes", std::move(why)));
    } else {
      layout = by_scan ? monopoly_layout_by_scan(node, eligible, classes)
                       : monopoly_layout(node, eligible, classes);
      if (layout.capacity == 0) {
        const auto everything = all_devices(node);
        if (!classes.empty() && max_normal(available(node, everything), classes).plans == 0) {
          result.reasons.push_back(
              Reason::words("volumes", normal_reason(node, request, classes, everything)));
        } else {
          std::vector<std::uint32_t> others;
          for (const auto& c : classes)
            others.insert(others.end(), c.bindings.begin(), c.bindings.end());
          others.insert(others.end(), unlimited.begin(), unlimited.end());
          std::sort(others.begin(), others.end());
          result.reasons.push_back(Reason::words(
              "volumes", "once " + monopoly + " takes an unused device of at least " +
                             format_bytes(clamp64(need)) + ", the other devices cannot hold " +
                             join_bindings(request, others, " + ") +
                             "; devices: " + list_devices(node, everything)));
        }
      }
    }
  }
  result.capacity = layout.capacity;
  if (layout.capacity > 0)
    add_plans(node, request, mono, unlimited, classes, layout, std::min(layout.capacity, max_plans),
              result.plans);
  return result;
}

}  // namespace

DimensionResult volume_dimension(const Node& node, const Request& request, std::int64_t max_plans) {
  return volume_plans(node, request, max_plans, false);
}

DimensionResult volume_dimension_by_scan(const Node& node, const Request& request,
                                         std::int64_t max_plans) {
  return volume_plans(node, request, max_plans, true);
}

std::int64_t volume_plan_steps() { return steps_taken; }

DimensionResult volumes_dimension(const DimensionInput& in) {
  return volume_dimension(in.node, in.request, in.max_plans);
}

}  // namespace eruplan
