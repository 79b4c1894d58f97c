// The replicas a run has placed (plan with several requests), as the pod
// filters of the requests after them see them: one group per request, never
// an entry per node. A DaemonSet on 3,000 nodes kept 3,000 entries of 48
// bytes; 800 of them held 212 MB for a 94 KB input. A group keeps its nodes
// as a sorted list or a bitmap, whichever is smaller, and their copies as
// one number when they are all alike, else one narrow integer each.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "pods.h"
#include "quantities.h"

namespace eruplan {

// A request's placed pod: the node's instances and usage hold its replicas
// already; this is their pod (labels, namespace, ports, affinity) and what
// each adds to the node's scoring requests beyond its own requests
// (Kubernetes' non-zero defaults).
struct PlacedPods {
  std::shared_ptr<const PodScheduling> pod;
  NanoCores nonzero_cpu_extra = 0;  // per copy
  Bytes nonzero_memory_extra = 0;
};

class PlacedReplicas {
 public:
  // The request being planned places `copies` (> 0) more of `pod` on `node`
  // (inventory index). Its first call of the request opens the request's
  // group with `pod`; later calls add to it.
  bool has_open() const { return open_; }
  void open(PlacedPods pod);
  void add(std::uint32_t node, std::int64_t copies);
  // Where the next request's group begins: the open group is closed (made
  // compact) first. cut(mark) drops the groups from there on (an undo).
  std::size_t mark();
  void cut(std::size_t mark);
  bool empty() const { return groups_.empty(); }
  // (request, node) pairs: what an entry per node would have counted.
  std::size_t entries() const { return entries_; }

  // f(pod, node, copies) for each pair, group by group (the requests in the
  // order placed), a closed group's nodes by index.
  template <class F>
  void each(F f) const {
    each_kept([](const PlacedPods&) { return true; }, f);
  }
  // each(f) over the groups whose pod keep(pod) accepts: a group it turns
  // down costs one call, not one per node.
  template <class Keep, class F>
  void each_kept(Keep keep, F f) const {
    for (const Group& g : groups_)
      if (keep(g.pod))
        each_in(g, [&](std::uint32_t node, std::int64_t copies) { f(g.pod, node, copies); });
  }
  // f(pod, nodes) for each group, in order, with the nodes it is on.
  template <class F>
  void each_group(F f) const {
    for (const Group& g : groups_) f(g.pod, is_open(g) ? pending_.size() : g.size);
  }
  // f(pod) for each distinct pod (PlacedPods::pod) once, in the order first
  // placed.
  template <class F>
  void each_pod(F f) const {
    for (const Group& g : groups_)
      if (g.first) f(g.pod);
  }
  // What the replicas on `node` add to its scoring requests (each group's
  // PlacedPods extras times its copies there), kept as they are added and
  // cut: a request reads it without a pass over every replica placed.
  NanoCores nonzero_cpu_extra(std::uint32_t node) const {
    return node < extra_.size() ? extra_[node].first : 0;
  }
  Bytes nonzero_memory_extra(std::uint32_t node) const {
    return node < extra_.size() ? extra_[node].second : 0;
  }
  // f(pod, copies) for each group with replicas on `node`, in order, until
  // one returns true; returns whether one did.
  template <class F>
  bool each_on(std::uint32_t node, F f) const {
    for (const Group& g : groups_) {
      std::int64_t copies = 0;
      if (is_open(g)) {
        if (node < where_.size() && where_[node] != 0) copies = pending_[where_[node] - 1].second;
      } else {
        copies = g.copies_on(node);
      }
      if (copies > 0 && f(g.pod, copies)) return true;
    }
    return false;
  }

 private:
  struct Group {
    PlacedPods pod;
    bool first = true;                  // no group before it has its pod
    std::size_t size = 0;               // nodes
    std::vector<std::uint32_t> list;    // the nodes, sorted; or empty with
    std::vector<std::uint64_t> bits;    // one bit per node index, and
    std::vector<std::uint32_t> below;   // members in the words before each
    std::int64_t uniform = 0;           // every node's copies, or 0 with
    std::vector<unsigned char> copies;  // each node's, `width` bytes each
    unsigned width = 0;
    bool has(std::size_t node) const {
      return node / 64 < bits.size() && ((bits[node / 64] >> (node % 64)) & 1U) != 0;
    }
    std::int64_t copies_of(std::size_t member) const;
    std::int64_t copies_on(std::uint32_t node) const;
  };
  void close();
  bool is_open(const Group& g) const { return open_ && &g == &groups_.back(); }
  // f(node, copies) for each of the group's nodes: the open one's in the
  // order placed, a closed one's by index.
  template <class F>
  void each_in(const Group& g, F f) const {
    if (is_open(g)) {
      for (const auto& [node, copies] : pending_) f(node, copies);
      return;
    }
    for (std::size_t i = 0, at = 0; i < g.size; ++i, ++at) {
      if (!g.list.empty()) {
        f(g.list[i], g.copies_of(i));
        continue;
      }
      while (!g.has(at)) ++at;
      f(static_cast<std::uint32_t>(at), g.copies_of(i));
    }
  }
  // Adds (sign 1) or takes off (-1) the group's replicas on `node` from
  // extra_.
  void count_extra(const PlacedPods& pod, std::uint32_t node, std::int64_t copies, int sign);

  std::vector<Group> groups_;
  bool open_ = false;
  // The open group's nodes in the order placed, and by node index its
  // place there plus one (0: none).
  std::vector<std::pair<std::uint32_t, std::int64_t>> pending_;
  std::vector<std::uint32_t> where_;
  std::size_t entries_ = 0;
  // Per node index: the nonzero_cpu_extra and nonzero_memory_extra sums.
  std::vector<std::pair<NanoCores, Bytes>> extra_;
};

}  // namespace eruplan
