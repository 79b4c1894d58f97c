// The reserve stage (SPEC §8.3).
#include "reserve.h"

#include <algorithm>

namespace eruplan {

namespace {

std::int64_t saturating_add(std::int64_t a, std::int64_t b) {
  std::int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? INT64_MAX : INT64_MIN;
  return sum;
}

std::int64_t saturating_mul(std::int64_t a, std::int64_t b) {
  std::int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
  return product;
}

void take_plan(Node& node, const Request& request, const Plan& plan) {
  if (!plan.cpu.empty()) {
    node.list_cores();  // plain cores keep their ids and order when listed
    for (const CoreShare& share : plan.cpu) node.cores[share.core].used += share.pieces;
    if (plan.numa >= 0) node.numa_nodes[static_cast<std::size_t>(plan.numa)].used += request.memory;
  }
  for (const VolumeShare& share : plan.volumes) {
    Device& device = node.devices[share.device];
    // A monopoly binding holds its whole device; an unlimited quota adds nothing.
    device.used = request.volumes[share.binding].monopoly()
                      ? device.size
                      : std::min(device.size, device.used + share.size);
  }
}

}  // namespace

namespace {

std::optional<std::int64_t> count_of(const Node& node, const std::string& app) {
  const auto it =
      std::lower_bound(node.instances.begin(), node.instances.end(), app,
                       [](const auto& entry, const std::string& a) { return entry.first < a; });
  if (it != node.instances.end() && it->first == app) return it->second;
  return std::nullopt;
}

void set_count(Node& node, const std::string& app, std::optional<std::int64_t> count) {
  const auto it =
      std::lower_bound(node.instances.begin(), node.instances.end(), app,
                       [](const auto& entry, const std::string& a) { return entry.first < a; });
  const bool found = it != node.instances.end() && it->first == app;
  if (found && count)
    it->second = *count;
  else if (found)
    node.instances.erase(it);
  else if (count)
    node.instances.insert(it, {app, *count});
}

// A node's short instances list equal to its neighbour's (grow's copies,
// nodes alike) is shared with it, copied again when either changes: 10,000
// copies given one instance each hold one list, not 10,000.
void share_instances(Inventory& inventory, std::uint32_t index) {
  auto& mine = inventory.nodes[index].instances;
  if (mine.size() > 4) return;
  for (const std::uint32_t other : {index - 1, index + 1})
    if (other < inventory.nodes.size() && mine.share_with(inventory.nodes[other].instances)) return;
}

}  // namespace

UndoLog::Saved* UndoLog::newest(std::uint32_t index) {
  const auto it = newest_.find(index);
  return it == newest_.end() ? nullptr : &saved_[it->second];
}

void UndoLog::remember(std::uint32_t index, const Node& node) {
  Saved* s = newest(index);
  if (s == nullptr) {
    newest_[index] = saved_.size();
    saved_.push_back({index, node, false, 0, {}});
    return;
  }
  if (s->counts_only) keep_whole(*s, node);
}

void UndoLog::keep_whole(Saved& s, const Node& node) {
  // The counts as they were when the record was made; from now on any
  // change is taken back with the whole node.
  Node before = node;
  for (const auto& [app, count] : s.counts) set_count(before, app, count);
  s.node.instances = std::move(before.instances);
  s.counts_only = false;
  s.counts.clear();
}

void UndoLog::remember_added(std::uint32_t index, const Node& node, const std::string& app) {
  Saved* s = newest(index);
  if (s == nullptr) {
    newest_[index] = saved_.size();
    saved_.push_back({index, node, true, node.instances.size(), {}});
    s = &saved_.back();
    s->node.instances = {};  // the node's own list stays unshared: changed in place
  }
  if (!s->counts_only) return;
  for (const auto& [a, count] : s->counts)
    if (a == app) return;
  s->counts.emplace_back(app, count_of(node, app));
  // Many apps added to a node that had few (--atomic): its list kept whole
  // is smaller than the counts.
  if (s->counts.size() > s->listed / 2 + 4) keep_whole(*s, node);
}

void UndoLog::undo(Inventory& inventory) {
  for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
    Node& live = inventory.nodes[it->index];
    const std::uint64_t revision = live.revision;
    if (it->counts_only) {
      it->node.instances = std::move(live.instances);
      for (auto c = it->counts.rbegin(); c != it->counts.rend(); ++c)
        set_count(it->node, c->first, c->second);
    }
    live = std::move(it->node);
    live.revision = revision + 1;  // changed again, for caches
  }
  clear();
}

void reserve(Inventory& inventory, std::uint32_t index, const Request& request, std::int64_t k,
             std::span<const Plan> plans, UndoLog* undo) {
  if (k <= 0) return;
  Node& node = inventory.nodes[index];
  if (undo != nullptr) undo->remember_added(index, node, request.app);
  node.memory_used = saturating_add(node.memory_used, saturating_mul(k, request.memory));
  node.storage_used = saturating_add(node.storage_used, saturating_mul(k, request.storage));
  node.cpu_used = saturating_add(node.cpu_used, saturating_mul(k, request.cpu));
  for (const auto& [name, per_instance] : request.extended) {
    auto it = std::lower_bound(
        node.extended.begin(), node.extended.end(), name,
        [](const ExtendedResource& e, const std::string& n) { return e.name < n; });
    if (it != node.extended.end() && it->name == name)
      it->used = saturating_add(it->used, saturating_mul(k, per_instance));
  }
  // One plan shared by every instance only comes from an unlimited node,
  // whose plan binds no core and no sized volume: taking it once is enough.
  for (std::size_t j = 0; j < plans.size() && static_cast<std::int64_t>(j) < k; ++j)
    take_plan(node, request, plans[j]);
  auto it =
      std::lower_bound(node.instances.begin(), node.instances.end(), request.app,
                       [](const auto& entry, const std::string& app) { return entry.first < app; });
  if (it != node.instances.end() && it->first == request.app)
    it->second = saturating_add(it->second, k);
  else
    node.instances.insert(it, {request.app, k});
  ++node.revision;
  share_instances(inventory, index);
}

void reserve_counts(Inventory& inventory, std::uint32_t index,
                    std::span<const std::pair<const Request*, std::int64_t>> entries) {
  Node& node = inventory.nodes[index];
  std::vector<std::pair<std::string, std::int64_t>> merged;
  merged.reserve(node.instances.size() + entries.size());
  auto old = node.instances.begin();
  for (const auto& [request, k] : entries) {
    if (k <= 0) continue;
    node.memory_used = saturating_add(node.memory_used, saturating_mul(k, request->memory));
    node.storage_used = saturating_add(node.storage_used, saturating_mul(k, request->storage));
    node.cpu_used = saturating_add(node.cpu_used, saturating_mul(k, request->cpu));
    for (const auto& [name, per_instance] : request->extended) {
      auto it = std::lower_bound(
          node.extended.begin(), node.extended.end(), name,
          [](const ExtendedResource& e, const std::string& n) { return e.name < n; });
      if (it != node.extended.end() && it->name == name)
        it->used = saturating_add(it->used, saturating_mul(k, per_instance));
    }
    for (; old != node.instances.end() && old->first < request->app; ++old)
      merged.push_back(std::move(*old));
    if (old != node.instances.end() && old->first == request->app) {
      merged.emplace_back(std::move(old->first), saturating_add(old->second, k));
      ++old;
    } else {
      merged.emplace_back(request->app, k);
    }
  }
  for (; old != node.instances.end(); ++old) merged.push_back(std::move(*old));
  node.instances = std::move(merged);
  ++node.revision;
  share_instances(inventory, index);
}

const Plan* assigned_plan(const NodeCapacity& nc, std::int64_t j) {
  if (nc.capacity == kUnlimited && nc.plans.size() == 1) return &nc.plans.front();
  if (j < static_cast<std::int64_t>(nc.plans.size())) return &nc.plans[static_cast<size_t>(j)];
  return nullptr;
}

}  // namespace eruplan
