#include "model.h"

#include <algorithm>
#include <charconv>

#include "wide.h"

namespace eruplan {

namespace {
bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}
}  // namespace

bool natural_less(std::string_view a, std::string_view b) {
  const bool da = all_digits(a), db = all_digits(b);
  if (da != db) return da;
  if (da) {
    // Compare as numbers without overflow: strip leading zeros, then length, then bytes.
    auto strip = [](std::string_view s) {
      size_t i = 0;
      while (i + 1 < s.size() && s[i] == '0') ++i;
      return s.substr(i);
    };
    std::string_view sa = strip(a), sb = strip(b);
    if (sa.size() != sb.size()) return sa.size() < sb.size();
    if (sa != sb) return sa < sb;
  }
  return a < b;
}

std::int64_t existing_instances(const Node& node, std::uint32_t index, const Request& request) {
  const std::int64_t own = node.instances_of(request.app);
  if (!request.existing_delta || index >= request.existing_delta->size()) return own;
  std::int64_t sum = 0;
  if (__builtin_add_overflow(own, (*request.existing_delta)[index], &sum)) return INT64_MAX;
  return std::max<std::int64_t>(sum, 0);
}

std::int64_t Node::instances_of(std::string_view app) const {
  std::int64_t own = 0;
  for (const auto& [name, n] : instances)
    if (name == app) own = n;
  if (!shared_pods) return own;
  const auto& shared = shared_pods->instances;
  auto it = std::lower_bound(shared.begin(), shared.end(), app,
                             [](const auto& e, std::string_view k) { return e.first < k; });
  std::int64_t sum = own;
  if (it != shared.end() && it->first == app && __builtin_add_overflow(own, it->second, &sum))
    return INT64_MAX;
  return sum;
}

void Node::list_cores() {
  if (!cores.empty() || plain_cores == 0) return;
  cores.reserve(static_cast<std::size_t>(plain_cores));
  for (std::int64_t i = 0; i < plain_cores; ++i) cores.push_back(Core{plain_core_pieces, 0, -1});
  plain_cores = 0;
}

namespace {
// Whether `id` is `i` written in decimal, as core i's id is when the node
// keeps no core_ids.
bool is_position(std::string_view id, std::size_t i) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, i);
  return ec == std::errc() && id == std::string_view(buf, static_cast<std::size_t>(end - buf));
}
}  // namespace

bool Node::core_id_is(std::size_t i, std::string_view id) const {
  return core_ids.empty() ? is_position(id, i) : core_ids[i] == id;
}

std::size_t Node::core_lower_bound(std::string_view id) const {
  const std::size_t n = core_count();
  if (!core_ids.empty())
    return static_cast<std::size_t>(
        std::lower_bound(core_ids.begin(), core_ids.end(), id, natural_less) - core_ids.begin());
  // The ids are 0..n-1: an all-digit id falls at its value, any other id
  // after them all. Leading zeros order an id after the one without them,
  // which is before the next value but for "0": "0" < "00" < "1".
  if (!all_digits(id)) return n;
  std::size_t at = 0;
  for (char c : id) {
    at = at * 10 + static_cast<std::size_t>(c - '0');
    if (at >= n) return n;
  }
  return at == 0 && id.size() > 1 ? std::min<std::size_t>(1, n) : at;
}

std::size_t Node::find_core(std::string_view id) const {
  const std::size_t i = core_lower_bound(id);
  return i < core_count() && core_id_is(i, id) ? i : core_count();
}

void Node::add_core(std::string_view id, const Core& core) {
  const std::size_t i = cores.size();
  // Listed from the first id out of place on (a first core "1" too).
  const bool listed = !core_ids.empty() || !is_position(id, i);
  if (core_ids.empty() && listed) {
    core_ids.reserve(i + 1);
    for (std::size_t k = 0; k < i; ++k) core_ids.push_back(std::to_string(k));
  }
  if (listed) core_ids.emplace_back(id);
  cores.push_back(core);
}

std::string listed_core_rule() {
  return std::to_string(kMinListedCores) + ", or " + std::to_string(kListedCoresPerByte) +
         " per byte of input";
}

Pieces Node::cpu_pieces() const {
  if (cores.empty()) return plain_cores * plain_core_pieces;
  Pieces sum = 0;
  for (const auto& c : cores) sum += c.capacity;
  return sum;
}

namespace {

bool labels_match(const NamedList<std::string>& wanted_labels, const Node& node) {
  // Both label lists are sorted by key: look each wanted one up.
  for (const auto& wanted : wanted_labels) {
    auto it = std::lower_bound(node.labels.begin(), node.labels.end(), wanted.first,
                               [](const auto& l, const std::string& key) { return l.first < key; });
    if (it == node.labels.end() || it->first != wanted.first || it->second != wanted.second)
      return false;
  }
  return true;
}

bool listed(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::vector<std::string_view> sorted_views(const std::vector<std::string>& names) {
  std::vector<std::string_view> views(names.begin(), names.end());
  std::sort(views.begin(), views.end());
  return views;
}

bool listed(const std::vector<std::string_view>& sorted, std::string_view name) {
  return std::binary_search(sorted.begin(), sorted.end(), name);
}

}  // namespace

NodeNameTable::NodeNameTable(const std::vector<Node>& nodes) : rank(nodes.size()) {
  std::vector<std::uint32_t> order(nodes.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&nodes](std::uint32_t a, std::uint32_t b) { return nodes[a].name < nodes[b].name; });
  sorted.reserve(nodes.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) {
    rank[order[i]] = i;
    sorted.push_back(nodes[order[i]].name);
  }
}

NodeSet::NodeSet(std::shared_ptr<const NodeNameTable> table)
    : table_(std::move(table)), bits_(table_->sorted.size()) {}

void NodeSet::add(std::uint32_t inventory_index) {
  const std::uint32_t at = table_->rank[inventory_index];
  if (bits_[at]) return;
  bits_[at] = true;
  if (++size_ <= kFirstNames) first_.push_back(table_->sorted[at]);
}

bool NodeSet::contains(std::string_view name) const {
  const std::vector<std::string>& names = table_->sorted;
  const auto it = std::lower_bound(names.begin(), names.end(), name);
  return it != names.end() && *it == name && bits_[static_cast<std::size_t>(it - names.begin())];
}

std::vector<std::string_view> NodeSet::names(bool others) const {
  std::vector<std::string_view> out;
  for (const std::uint32_t at : table_->rank)
    if (bits_[at] != others) out.push_back(table_->sorted[at]);
  return out;
}

void NodeSet::append_key(std::string& key) const {
  unsigned char byte = 0;
  for (std::size_t i = 0; i < bits_.size(); ++i) {
    byte = static_cast<unsigned char>(byte | (bits_[i] ? 1U << (i % 8) : 0U));
    if (i % 8 == 7 || i + 1 == bits_.size()) key += static_cast<char>(std::exchange(byte, 0));
  }
}

bool NodeFilter::accepts(const Node& node) const {
  if (!nodes.empty() && !listed(nodes, node.name)) return false;
  if (node_set && !node_set->contains(node.name)) return false;
  if (listed(exclude, node.name)) return false;
  return labels_match(labels, node);
}

NodeFilterIndex::NodeFilterIndex(const NodeFilter& filter)
    : filter_(filter), nodes_(sorted_views(filter.nodes)), exclude_(sorted_views(filter.exclude)) {}

bool NodeFilterIndex::accepts(const Node& node) const {
  if (!nodes_.empty() && !listed(nodes_, node.name)) return false;
  if (filter_.node_set && !filter_.node_set->contains(node.name)) return false;
  if (!exclude_.empty() && listed(exclude_, node.name)) return false;
  return labels_match(filter_.labels, node);
}

bool Request::binds_volumes() const {
  return std::any_of(volumes.begin(), volumes.end(),
                     [](const VolumeRequest& v) { return v.scheduled(); });
}

NanoCores Node::cpu_total() const {
  if (cpu_given >= 0) return cpu_given;
  return static_cast<NanoCores>(core_count()) * kNanoPerCore;
}

std::int64_t Node::instances_total() const {
  std::int64_t sum = 0;
  for (const auto& entry : instances)
    if (__builtin_add_overflow(sum, entry.second, &sum)) return INT64_MAX;
  if (shared_pods)
    for (const auto& entry : shared_pods->instances)
      if (__builtin_add_overflow(sum, entry.second, &sum)) return INT64_MAX;
  return sum;
}

const ExtendedResource* Node::find_extended(std::string_view name) const {
  auto it =
      std::lower_bound(extended.begin(), extended.end(), name,
                       [](const ExtendedResource& e, std::string_view k) { return e.name < k; });
  return it != extended.end() && it->name == name ? &*it : nullptr;
}

bool Toleration::tolerates(const Taint& taint) const {
  if (!effect.empty() && effect != taint.effect) return false;
  if (exists) return key.empty() || key == taint.key;
  return key == taint.key && value == taint.value;
}

Pieces cpu_request_pieces(NanoCores cpu, Pieces share_base) {
  const i128 scaled = static_cast<i128>(cpu) * share_base;
  if (scaled % kNanoPerCore != 0) return -1;
  return static_cast<Pieces>(scaled / kNanoPerCore);
}

void intern_pod_labels(Inventory& inventory) {
  if (inventory.pods.empty()) return;
  LabelSets sets;
  std::vector<RunningPod>& pods = inventory.pods.get();
  for (RunningPod& p : pods) p.label_set = sets.intern(p.labels);
  inventory.pod_label_sets = sets.size();
}

}  // namespace eruplan
