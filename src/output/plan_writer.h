// One plan as SPEC §6 writes it, for every document that lists plans
// (plan, capacity, share): {cpu_map: core id -> pieces, numa_node,
// volumes: binding -> device -> bytes}, members left out when empty.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "capacity.h"
#include "model.h"

namespace eruplan {

// Puts a plan's shares into output order, reusing scratch space so that the
// common case (already ordered, as the capacity pass produces them) copies
// nothing. Bindings written identically share one key in "volumes", so the
// shares of the later ones are merged into the first.
class PlanShares {
 public:
  explicit PlanShares(const Request& request) : canonical_(request.volumes.size()) {
    for (std::size_t i = 0; i < request.volumes.size(); ++i) {
      canonical_[i] = static_cast<std::uint32_t>(i);
      for (std::size_t j = 0; j < i; ++j) {
        if (request.volumes[j].binding == request.volumes[i].binding) {
          canonical_[i] = static_cast<std::uint32_t>(j);
          remap_ = true;
          break;
        }
      }
    }
  }

  // By core index, each core once.
  std::span<const CoreShare> cores(const Plan& plan) {
    const auto& cpu = plan.cpu;
    const bool ordered =
        std::adjacent_find(cpu.begin(), cpu.end(), [](const auto& a, const auto& b) {
          return a.core >= b.core;
        }) == cpu.end();
    if (ordered) return cpu;
    cores_ = cpu;
    std::stable_sort(cores_.begin(), cores_.end(),
                     [](const auto& a, const auto& b) { return a.core < b.core; });
    std::size_t out = 0;
    for (const auto& share : cores_) {
      if (out > 0 && cores_[out - 1].core == share.core) {
        cores_[out - 1].pieces += share.pieces;
      } else {
        cores_[out++] = share;
      }
    }
    cores_.resize(out);
    return cores_;
  }

  // By (canonical binding, device); equal neighbours are summed by the writer.
  std::span<const VolumeShare> volumes(const Plan& plan) {
    const auto& vols = plan.volumes;
    const auto before = [](const VolumeShare& a, const VolumeShare& b) {
      return a.binding != b.binding ? a.binding < b.binding : a.device < b.device;
    };
    if (!remap_ && std::is_sorted(vols.begin(), vols.end(), before)) return vols;
    volumes_ = vols;
    for (auto& share : volumes_) share.binding = canonical_[share.binding];
    std::stable_sort(volumes_.begin(), volumes_.end(), before);
    return volumes_;
  }

 private:
  std::vector<std::uint32_t> canonical_;  // per binding: the first one with the same text
  bool remap_ = false;
  std::vector<CoreShare> cores_;
  std::vector<VolumeShare> volumes_;
};

// `shares` is a PlanShares of `request`, reused from plan to plan.
template <class W>
void write_plan(W& w, const Plan& plan, const Node& node, const Request& request,
                PlanShares& shares) {
  w.begin_object();
  const auto cores = shares.cores(plan);
  if (!cores.empty()) {
    w.key("cpu_map");
    w.begin_object();
    for (const auto& c : cores) {
      w.field(node.core_id(c.core), c.pieces);
    }
    w.end_object();
  }
  if (plan.numa >= 0) {
    w.field("numa_node", node.numa_nodes[static_cast<std::size_t>(plan.numa)].id);
  }
  const auto vols = shares.volumes(plan);
  if (!vols.empty()) {
    w.key("volumes");
    w.begin_object();
    std::size_t i = 0;
    while (i < vols.size()) {
      const auto binding = vols[i].binding;
      w.key(request.volumes[binding].binding);
      w.begin_object();
      while (i < vols.size() && vols[i].binding == binding) {
        const auto device = vols[i].device;
        Bytes size = 0;
        for (; i < vols.size() && vols[i].binding == binding && vols[i].device == device; ++i)
          size += vols[i].size;
        w.field(node.devices[device].name, size);
      }
      w.end_object();
    }
    w.end_object();
  }
  w.end_object();
}

}  // namespace eruplan
