#include "placed.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace eruplan {

void PlacedReplicas::open(PlacedPods pod) {
  close();
  const bool first = std::none_of(groups_.begin(), groups_.end(),
                                  [&](const Group& g) { return g.pod.pod == pod.pod; });
  groups_.emplace_back().pod = std::move(pod);
  groups_.back().first = first;
  open_ = true;
}

void PlacedReplicas::count_extra(const PlacedPods& pod, std::uint32_t node, std::int64_t copies,
                                 int sign) {
  if (pod.nonzero_cpu_extra == 0 && pod.nonzero_memory_extra == 0) return;
  if (node >= extra_.size()) extra_.resize(std::size_t{node} + 1, {0, 0});
  extra_[node].first += sign * copies * pod.nonzero_cpu_extra;
  extra_[node].second += sign * copies * pod.nonzero_memory_extra;
}

void PlacedReplicas::add(std::uint32_t node, std::int64_t copies) {
  count_extra(groups_.back().pod, node, copies, 1);
  if (node >= where_.size()) where_.resize(std::size_t{node} + 1, 0);
  if (where_[node] != 0) {
    pending_[where_[node] - 1].second += copies;
    return;
  }
  pending_.emplace_back(node, copies);
  where_[node] = static_cast<std::uint32_t>(pending_.size());
  ++entries_;
}

std::size_t PlacedReplicas::mark() {
  close();
  return groups_.size();
}

void PlacedReplicas::cut(std::size_t mark) {
  if (mark >= groups_.size()) return;
  for (std::size_t i = mark; i < groups_.size(); ++i)
    each_in(groups_[i], [&](std::uint32_t node, std::int64_t copies) {
      count_extra(groups_[i].pod, node, copies, -1);
    });
  if (open_) {
    for (const auto& entry : pending_) where_[entry.first] = 0;
    entries_ -= pending_.size();
    pending_.clear();
    groups_.pop_back();
    open_ = false;
  }
  for (std::size_t i = mark; i < groups_.size(); ++i) entries_ -= groups_[i].size;
  groups_.resize(mark);
}

void PlacedReplicas::close() {
  if (!open_) return;
  open_ = false;
  Group& g = groups_.back();
  std::sort(pending_.begin(), pending_.end());
  g.size = pending_.size();
  std::uint32_t last = 0;
  std::int64_t most = 0;
  bool alike = true;
  for (const auto& [node, copies] : pending_) {
    where_[node] = 0;
    last = std::max(last, node);
    most = std::max(most, copies);
    alike = alike && copies == pending_.front().second;
  }
  // A node list costs 4 bytes a node placed on; a bitmap 1 bit a node up to
  // the last, plus a 4-byte count every 64.
  const std::size_t words = g.size == 0 ? 0 : std::size_t{last} / 64 + 1;
  if (words * 12 < 4 * g.size) {
    g.bits.assign(words, 0);
    g.below.assign(words, 0);
    for (const auto& entry : pending_)
      g.bits[entry.first / 64] |= std::uint64_t{1} << (entry.first % 64);
    for (std::size_t w = 1; w < words; ++w)
      g.below[w] = g.below[w - 1] + static_cast<std::uint32_t>(std::popcount(g.bits[w - 1]));
  } else {
    g.list.reserve(g.size);
    for (const auto& entry : pending_) g.list.push_back(entry.first);
  }
  if (alike && g.size > 0) {
    g.uniform = pending_.front().second;
  } else {
    g.width = most < (std::int64_t{1} << 8)    ? 1
              : most < (std::int64_t{1} << 16) ? 2
              : most < (std::int64_t{1} << 32) ? 4
                                               : 8;
    g.copies.resize(g.size * g.width);
    for (std::size_t i = 0; i < g.size; ++i) {
      const auto value = static_cast<std::uint64_t>(pending_[i].second);
      for (unsigned b = 0; b < g.width; ++b)
        g.copies[i * g.width + b] = static_cast<unsigned char>(value >> (8 * b));
    }
  }
  pending_.clear();
}

std::int64_t PlacedReplicas::Group::copies_of(std::size_t member) const {
  if (width == 0) return uniform;
  std::uint64_t value = 0;
  for (unsigned b = 0; b < width; ++b)
    value |= std::uint64_t{copies[member * width + b]} << (8 * b);
  return static_cast<std::int64_t>(value);
}

std::int64_t PlacedReplicas::Group::copies_on(std::uint32_t node) const {
  if (!list.empty()) {
    const auto it = std::lower_bound(list.begin(), list.end(), node);
    if (it == list.end() || *it != node) return 0;
    return copies_of(static_cast<std::size_t>(it - list.begin()));
  }
  if (!has(node)) return 0;
  const std::uint64_t before = bits[node / 64] & ((std::uint64_t{1} << (node % 64)) - 1);
  return copies_of(below[node / 64] + static_cast<std::size_t>(std::popcount(before)));
}

}  // namespace eruplan
