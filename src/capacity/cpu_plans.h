// Internals of the CPU-bind dimension (SPEC §4 "CPU plans"), exposed so the
// tests can check each step on its own. capacity.h holds the public entry,
// cpu_dimension().
//
// One "pool" is a set of cores planned together: a NUMA node's cores, or the
// whole node's remaining cores in the across pass. For a pool the work is:
//   best_split()  choose which whole cores become fragment cores, and count
//                 the plans (without memory);
//   materialise() write out the first plans of that split;
//   take()        subtract what the first plans bind, for the next pass.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "capacity.h"
#include "model.h"

namespace eruplan::cpu_plans {

// A request of `whole` cores plus `fraction` pieces; share_base pieces per core.
struct CpuShape {
  Pieces share_base = 100;
  Pieces whole = 0;     // f
  Pieces fraction = 0;  // r
};

struct CoreAvail {
  std::uint32_t core = 0;  // index into Node::cores
  Pieces pieces = 0;       // available pieces, > 0
};

struct CpuSplit {
  // Cores giving whole-core parts, fewest pieces first (ties by core index).
  std::vector<CoreAvail> whole;
  // Cores giving fraction parts, in the order the parts are handed out: the
  // cores that already were fragment cores (fewest pieces first, ties by core
  // index), then the whole cores turned into fragment cores, in turn order.
  std::vector<CoreAvail> fragment;
  std::int64_t capacity = 0;  // plans this split makes, before memory
};

// Whole-core parts the greedy of SPEC §4 makes from whole cores holding
// `units[i]` share_base-sized units each (units sorted most first), using
// only the first `m` of them. The greedy (take the `whole` fullest cores, one
// unit each, repeat) reaches the bound max{t : sum min(units_i, t) >= whole*t},
// which equals min over j < whole of (sum of all but the j largest) / (whole - j).
std::int64_t whole_part_count(const std::vector<std::int64_t>& prefix, std::size_t m, Pieces whole);

// The split of SPEC §4 for one pool (cores with available pieces > 0).
// max_fragment_cores: -1 = all cores of the pool but `whole`.
CpuSplit best_split(const std::vector<CoreAvail>& pool, const CpuShape& shape,
                    std::int64_t max_fragment_cores);

// Where materialise() puts its plans: appended to `list`, or, with `visit`
// set, each handed to it in order and not kept.
struct PlanSink {
  std::vector<Plan>* list = nullptr;
  const std::function<void(Plan&&)>* visit = nullptr;
  std::int64_t count = 0;  // plans put so far

  void reserve(std::size_t more) {
    if (visit == nullptr) list->reserve(list->size() + more);
  }
  void put(Plan&& plan) {
    ++count;
    if (visit != nullptr)
      (*visit)(std::move(plan));
    else
      list->push_back(std::move(plan));
  }
};

// Puts the first `count` plans of `split` (count <= split.capacity) to `out`.
void materialise(const CpuSplit& split, const CpuShape& shape, std::int64_t count, int numa,
                 PlanSink& out);

// Subtracts from `available` (indexed by core) what the first `count` plans
// of `split` bind, without writing them out: the whole-core greedy after t
// rounds has a closed form (see the definition), so this costs O(cores log).
void take(const CpuSplit& split, const CpuShape& shape, std::int64_t count,
          std::vector<Pieces>& available);

// A pool of `cores` identical cores 0..cores-1 with `pieces` available each
// and nothing used (a node given as `cpu: N`): what best_split makes of it,
// without listing the cores. Cores 0..fragment_cores-1 give the fraction
// parts (each whole, in core order), the rest the whole-core parts.
struct PlainSplit {
  std::int64_t fragment_cores = 0;
  std::int64_t capacity = 0;  // equals best_split's capacity on that pool
};
// O(log cores): equal cores make the whole-core bound and the fraction
// parts of k turned cores closed forms.
PlainSplit plain_split(std::int64_t cores, Pieces pieces, const CpuShape& shape,
                       std::int64_t max_fragment_cores);
// Puts the first `count` plans of `split` (count <= split.capacity), the
// same plans materialise() writes for the listed pool, in O(count * whole).
void plain_materialise(const PlainSplit& split, std::int64_t cores, Pieces pieces,
                       const CpuShape& shape, std::int64_t count, int numa, PlanSink& out);

// The first `count` plans cpu_plans_dimension lists with max_plans =
// `count`, each handed to `visit` in order and none kept: a caller needing
// a few of many plans holds only those.
void each_plan(const Node& node, const Inventory& inventory, const Request& request,
               std::int64_t count, const std::function<void(Plan&&)>& visit);

}  // namespace eruplan::cpu_plans
