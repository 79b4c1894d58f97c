#include "model.h"

#include <algorithm>

namespace eruplan {

namespace {
__extension__ typedef __int128 i128;

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

std::int64_t Node::instances_of(std::string_view app) const {
  for (const auto& [name, n] : instances)
    if (name == app) return n;
  return 0;
}

void Node::list_cores() {
  if (!cores.empty() || plain_cores == 0) return;
  cores.reserve(static_cast<std::size_t>(plain_cores));
  for (std::int64_t i = 0; i < plain_cores; ++i)
    cores.push_back(Core{std::to_string(i), plain_core_pieces, 0, -1});
  plain_cores = 0;
}

Pieces Node::cpu_pieces() const {
  if (cores.empty()) return plain_cores * plain_core_pieces;
  Pieces sum = 0;
  for (const auto& c : cores) sum += c.capacity;
  return sum;
}

namespace {

// A name list of a NodeFilter, sorted for binary search. accepts() is
// called once per node and NodeFilter keeps plain vectors, so a linear search
// cost names x nodes (100K x 100K: 11 s). The sorted copy is kept per thread
// and prepared once per pass over an inventory.
struct SortedNames {
  static constexpr std::size_t kLinear = 16;  // shorter lists are searched in place

  const std::vector<std::string>* list = nullptr;  // compared, never followed
  std::vector<std::string> copy;                   // the list as sorted, to tell if it changed
  std::vector<std::string_view> sorted;            // views into `copy`

  // `trusted`: this call continues the same pass with the same list, which
  // cannot have changed; otherwise the list is compared with the copy.
  void prepare(const std::vector<std::string>& names, bool trusted) {
    if (list == &names && (trusted || copy == names)) return;
    list = &names;
    copy = names;
    sorted.assign(copy.begin(), copy.end());
    std::sort(sorted.begin(), sorted.end());
  }

  bool contains(std::string_view name) const {
    return std::binary_search(sorted.begin(), sorted.end(), name);
  }
};

struct FilterIndex {
  const Node* last = nullptr;  // the node of the previous call
  SortedNames nodes, exclude;
};

thread_local FilterIndex filter_index;

bool listed(const std::vector<std::string>& names, SortedNames& index, bool trusted,
            std::string_view name) {
  if (names.size() <= SortedNames::kLinear)
    return std::find(names.begin(), names.end(), name) != names.end();
  index.prepare(names, trusted);
  return index.contains(name);
}

}  // namespace

bool NodeFilter::accepts(const Node& node) const {
  // A pass visits the nodes of one inventory in array order: a call for the
  // element right after the previous call's node is the same pass, whose
  // filter is fixed. Any other call (a new pass, another filter) re-checks.
  FilterIndex& index = filter_index;
  const bool same_pass = index.last != nullptr && &node == index.last + 1;
  index.last = &node;
  if (!nodes.empty() && !listed(nodes, index.nodes, same_pass, node.name)) return false;
  if (!exclude.empty() && listed(exclude, index.exclude, same_pass, node.name)) return false;
  // Both label lists are sorted by key: look each wanted one up.
  for (const auto& wanted : labels) {
    auto it = std::lower_bound(node.labels.begin(), node.labels.end(), wanted.first,
                               [](const auto& l, const std::string& key) { return l.first < key; });
    if (it == node.labels.end() || it->first != wanted.first || it->second != wanted.second)
      return false;
  }
  return true;
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

}  // namespace eruplan
