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

std::string_view strategy_name(Strategy s) {
  switch (s) {
    case Strategy::Auto: return "auto";
    case Strategy::Fill: return "fill";
    case Strategy::Each: return "each";
    case Strategy::Global: return "global";
    case Strategy::Drained: return "drained";
  }
  return "auto";
}

bool NodeFilter::accepts(const Node& node) const {
  if (!nodes.empty() && std::find(nodes.begin(), nodes.end(), node.name) == nodes.end())
    return false;
  if (std::find(exclude.begin(), exclude.end(), node.name) != exclude.end()) return false;
  for (const auto& wanted : labels) {
    auto it = std::find_if(node.labels.begin(), node.labels.end(),
                           [&](const auto& l) { return l.first == wanted.first; });
    if (it == node.labels.end() || it->second != wanted.second) return false;
  }
  return true;
}

bool Request::binds_volumes() const {
  return std::any_of(volumes.begin(), volumes.end(),
                     [](const VolumeRequest& v) { return v.scheduled(); });
}

Pieces cpu_request_pieces(NanoCores cpu, Pieces share_base) {
  const i128 scaled = static_cast<i128>(cpu) * share_base;
  if (scaled % kNanoPerCore != 0) return -1;
  return static_cast<Pieces>(scaled / kNanoPerCore);
}

}  // namespace eruplan
