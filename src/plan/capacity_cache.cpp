// CapacityCache (requests.h): the capacity pass per request shape, redone
// on the nodes that changed since.
#include <algorithm>
#include <string>
#include <string_view>

#include "requests.h"

namespace eruplan {

namespace {

void append_key(std::string& key, std::int64_t v) {
  key += std::to_string(v);
  key += ',';
}

void append_key(std::string& key, std::string_view s) {
  append_key(key, static_cast<std::int64_t>(s.size()));
  key += s;
}

// Everything the capacity pass reads of a request, but its app (existing
// instances are looked up again on every use).
std::string shape_key(const Request& r) {
  std::string key;
  for (std::int64_t v :
       {r.cpu, r.memory, r.storage, std::int64_t{r.cpu_bind}, std::int64_t{r.uses_cpu_fit()}})
    append_key(key, v);
  for (const auto& v : r.volumes) append_key(key, v.binding);
  key += '|';
  for (const auto& [name, n] : r.extended) append_key(key, name), append_key(key, n);
  key += '|';
  for (const auto& [k, v] : r.filter.labels) append_key(key, k), append_key(key, v);
  key += '|';
  for (const auto& n : r.filter.nodes) append_key(key, n);
  if (r.filter.node_set) key += '#', r.filter.node_set->append_key(key);
  key += '|';
  for (const auto& n : r.filter.exclude) append_key(key, n);
  key += '|';
  for (const auto& t : r.tolerations)
    append_key(key, t.key), append_key(key, t.value), append_key(key, t.effect),
        append_key(key, t.exists);
  return key;
}

}  // namespace

std::string CapacityCache::key(const Request& request, const CapacityOptions& options) {
  return shape_key(request) + "#" + std::to_string(options.max_plans);
}

void CapacityCache::track(const Inventory& inventory) {
  if (revisions_.size() == inventory.nodes.size()) return;
  revisions_.resize(inventory.nodes.size());
  for (std::size_t i = 0; i < inventory.nodes.size(); ++i)
    revisions_[i] = inventory.nodes[i].revision;
}

void CapacityCache::changed(const Inventory& inventory, std::uint32_t index) {
  track(inventory);
  revisions_[index] = inventory.nodes[index].revision;
}

void CapacityCache::placing(const Inventory& inventory, const std::string& app,
                            std::uint32_t index) {
  auto it = holders_.find(app);
  // Not listed yet: it will be, from the inventory as it is then.
  if (it != holders_.end() && inventory.nodes[index].instances_of(app) == 0)
    it->second.push_back(index);
}

const std::vector<std::uint32_t>& CapacityCache::holders(const Inventory& inventory,
                                                         const std::string& app) {
  auto it = holders_.find(app);
  if (it != holders_.end()) return it->second;
  std::vector<std::uint32_t>& nodes = holders_[app];
  for (std::uint32_t i = 0; i < inventory.nodes.size(); ++i)
    if (inventory.nodes[i].instances_of(app) != 0) nodes.push_back(i);
  return nodes;
}

// Sets `existing` to `app`'s instances where it may be nonzero: where it was
// for the entry's app, where `app` has (or had) instances; the nodes redone
// (`refreshed`) have it already. Every other node has 0 for both apps.
void CapacityCache::move_existing(Entry& entry, CapacityMap& map, const Inventory& inventory,
                                  const std::string& app, std::vector<std::uint32_t>& refreshed) {
  const auto set = [&](std::uint32_t p) {
    NodeCapacity& nc = map.nodes[p];
    nc.existing = inventory.nodes[nc.node].instances_of(app);
  };
  if (!entry.known) {  // every node, once
    entry.nonzero.clear();
    for (std::uint32_t p = 0; p < map.nodes.size(); ++p) {
      set(p);
      if (map.nodes[p].existing != 0) entry.nonzero.push_back(p);
    }
    entry.app = app;
    entry.known = true;
    return;
  }
  std::vector<std::uint32_t>& maybe = refreshed;
  maybe.insert(maybe.end(), entry.nonzero.begin(), entry.nonzero.end());
  if (entry.app != app) {
    for (const std::uint32_t p : entry.nonzero) set(p);
    for (const std::uint32_t node : holders(inventory, app)) {
      const std::int32_t p = entry.position[node];
      if (p < 0) continue;
      set(static_cast<std::uint32_t>(p));
      maybe.push_back(static_cast<std::uint32_t>(p));
    }
    entry.app = app;
  }
  std::sort(maybe.begin(), maybe.end());
  maybe.erase(std::unique(maybe.begin(), maybe.end()), maybe.end());
  entry.nonzero.clear();
  for (const std::uint32_t p : maybe)
    if (map.nodes[p].existing != 0) entry.nonzero.push_back(p);
}

CapacityMap CapacityCache::pass(const Inventory& inventory, const Request& request,
                                const CapacityOptions& options) {
  track(inventory);
  // A workload's own existing instances (existing_delta) are its alone: no
  // map of the same shape serves it, and its map serves no other.
  if (request.existing_delta) return capacity_pass(inventory, request, options);
  const std::string k = key(request, options);
  auto it = maps_.find(k);
  if (it == maps_.end()) {
    CapacityMap map = capacity_pass(inventory, request, options);
    Entry& entry = maps_[k];
    entry.lent = true;
    entry.known = true;
    entry.app = request.app;
    entry.position.assign(inventory.nodes.size(), -1);
    for (std::uint32_t p = 0; p < map.nodes.size(); ++p) {
      entry.position[map.nodes[p].node] = static_cast<std::int32_t>(p);
      if (map.nodes[p].existing != 0) entry.nonzero.push_back(p);
    }
    return map;
  }
  Entry& entry = it->second;
  if (entry.lent || entry.map.nodes.empty()) {
    // Lent to an earlier member of the same gang: this one gets its own, and
    // which app the map coming back counts is not known.
    entry.known = false;
    return capacity_pass(inventory, request, options);
  }
  // Lent, not copied: 10,000 entries per request would otherwise be copied
  // for every request of a repeating shape.
  CapacityMap map = std::move(entry.map);
  entry.map = CapacityMap{};
  entry.lent = true;
  map.total = 0;
  std::vector<std::uint32_t> refreshed;
  for (std::uint32_t p = 0; p < map.nodes.size(); ++p) {
    NodeCapacity& nc = map.nodes[p];
    if (nc.revision != revisions_[nc.node]) {
      nc = node_capacity(inventory, request, nc.node, options);
      refreshed.push_back(p);
    }
    add_capacity(map.total, nc.capacity);
  }
  move_existing(entry, map, inventory, request.app, refreshed);
  return map;
}

void CapacityCache::give_back(const Request& request, const CapacityOptions& options,
                              CapacityMap&& map) {
  if (request.existing_delta) return;
  auto it = maps_.find(key(request, options));
  if (it == maps_.end()) return;
  it->second.lent = false;
  if (!map.nodes.empty()) it->second.map = std::move(map);
}

}  // namespace eruplan
