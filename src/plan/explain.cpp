// `--explain` lines (SPEC §13). Each strategy's line is derived from what the
// strategy saw (capacity, existing, usage, rate, scores) and what it decided
// (the DeployMap), by the rule its file documents; nothing is re-planned.
// Choices SPEC §13 leaves open:
// - The lines are in node name order, every node of the inventory.
// - A failed or satisfied request still explains each node with room: what
//   the strategy rule says about it, then "nothing placed" when it failed.
// - `capacity` (no strategy) says what each node can take.
// - Usage for global/drained is shown in percent with one decimal.
#include "explain.h"

#include <algorithm>
#include <cstdio>

#include "strategy.h"

namespace eruplan {

namespace {

std::string count_text(std::int64_t n) { return n == kUnlimited ? "unlimited" : std::to_string(n); }

std::string percent(double ratio) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f%%", ratio * 100.0);
  return buf;
}

// "a, b, c and 4 more"
std::string some_names(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 3;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > kShown) out += " and " + std::to_string(names.size() - kShown) + " more";
  return out;
}

// One node with room, as the strategy saw it and what it got.
struct Seen {
  std::string_view name;
  const NodeCapacity* nc = nullptr;
  std::int64_t k = 0;  // new instances
  const NodeScore* score = nullptr;
};

struct Context {
  const Request& request;
  std::vector<Seen> seen;  // nodes with capacity > 0, by name
  bool failed = false;     // rejected or satisfied: nothing placed
  bool satisfied = false;
  // Facts about all the nodes, computed once so each line costs O(1).
  bool any_placed = false;     // some node gets new instances
  std::int64_t top = 0;        // auto: the highest level a node with new instances reaches
  double last_key = 0;         // global: the largest key of a placed instance
  const Seen* best = nullptr;  // score: the highest first total, ties by name

  void summarise() {
    for (const Seen& o : seen) {
      if (o.score != nullptr && (best == nullptr || o.score->total > best->score->total)) best = &o;
      if (o.k <= 0) continue;
      any_placed = true;
      top = std::max(top, o.nc->existing + o.k);
      last_key = std::max(last_key, global_key(o.nc->usage, o.nc->rate, o.k));
    }
  }

  std::string_view strategy() const { return strategy_name(request.strategy); }
  std::string nothing_placed() const {
    if (!failed) return {};
    return satisfied ? "; nothing placed, already satisfied"
                     : "; nothing placed, the request failed";
  }
};

// No wider integer is needed: capacity and existing are non-negative int64s.
bool can_reach(std::int64_t existing, std::int64_t capacity, std::int64_t count) {
  return existing >= count || capacity >= count - existing;
}

std::string auto_line(const Context& c, const Seen& s) {
  const std::int64_t e = s.nc->existing;
  const std::int64_t top = c.top;
  const bool any = c.any_placed;
  const std::int64_t limit = c.request.nodes_limit;
  if (s.k > 0) {
    const std::string plus = "auto: +" + std::to_string(s.k);
    if (e + s.k >= top - 1)  // the levels differ by at most one instance
      return plus + ", at level " + std::to_string(e + s.k) + " with the others";
    if (s.k == s.nc->capacity)
      return plus + ", full at level " + std::to_string(e + s.k) + ", the others reach " +
             std::to_string(top);
    return plus + ", at level " + std::to_string(e + s.k) + ", nodes_limit " +
           std::to_string(limit) + ", the others reach " + std::to_string(top);
  }
  if (limit > 0 && e >= limit)
    return "auto: has " + std::to_string(e) + ", nodes_limit " + std::to_string(limit);
  if (!any)
    return "auto: has " + std::to_string(e) + ", can take " + count_text(s.nc->capacity) +
           c.nothing_placed();
  if (e >= top)
    return "auto: has " + std::to_string(e) + ", at or above level " + std::to_string(top) +
           " that the others reach";
  return "auto: has " + std::to_string(e) + ", level " + std::to_string(top) +
         " went to nodes with more room or earlier names";
}

std::string each_line(const Context& c, const Seen& s) {
  const std::string cap = count_text(s.nc->capacity);
  const std::string count = std::to_string(c.request.count);
  if (s.nc->capacity < c.request.count) return "each: capacity " + cap + " < count " + count;
  if (s.k > 0) return "each: +" + std::to_string(s.k) + ", capacity " + cap + " >= count " + count;
  std::string out = "each: capacity " + cap + " >= count " + count;
  if (c.failed) return out + c.nothing_placed();
  return out + ", but nodes_limit " + std::to_string(c.request.nodes_limit) +
         " went to nodes with more capacity or earlier names";
}

std::string fill_line(const Context& c, const Seen& s) {
  const std::int64_t e = s.nc->existing, count = c.request.count;
  if (s.k > 0)
    return "fill: has " + std::to_string(e) + ", +" + std::to_string(s.k) + " to reach " +
           std::to_string(count);
  if (e >= count) return "fill: already has " + std::to_string(e) + " of " + std::to_string(count);
  if (!can_reach(e, s.nc->capacity, count))
    return "fill: has " + std::to_string(e) + ", can take " + count_text(s.nc->capacity) +
           ", cannot reach " + std::to_string(count);
  std::string out = "fill: has " + std::to_string(e) + ", could reach " + std::to_string(count);
  if (c.failed) return out + c.nothing_placed();
  return out + ", but nodes_limit " + std::to_string(c.request.nodes_limit) +
         " went to nodes with more instances or capacity";
}

std::string global_line(const Context& c, const Seen& s) {
  const NodeCapacity& n = *s.nc;
  if (s.k > 0)
    return "global: +" + std::to_string(s.k) + ", usage " + percent(n.usage) + " -> " +
           percent(global_key(n.usage, n.rate, s.k));
  const double last = c.last_key;
  const bool any = c.any_placed;
  const double next = global_key(n.usage, n.rate, 1);
  std::string out = "global: usage " + percent(n.usage) + ", " + percent(next) + " with one more";
  if (!any) return out + c.nothing_placed();
  return out + (next > last ? ", above " : ", tie by name at ") + percent(last) +
         " where the last one went";
}

std::string drained_line(const Context& c, const Seen& s) {
  const std::string cap = count_text(s.nc->capacity);
  if (s.k > 0)
    return "drained: +" + std::to_string(s.k) +
           (s.k == s.nc->capacity ? ", filled to its capacity " + cap
                                  : " of its capacity " + cap + ", the rest of count");
  if (c.failed) return "drained: capacity " + cap + c.nothing_placed();
  return "drained: capacity " + cap + ", the count fit on nodes filled before it";
}

std::string score_line(const Context& c, const Seen& s) {
  if (s.score == nullptr)
    return "score: can take " + count_text(s.nc->capacity) + c.nothing_placed();
  const Seen* best = c.best;
  const std::string total = std::to_string(s.score->total);
  if (s.k > 0) return "score: +" + std::to_string(s.k) + ", total " + total + " for the first";
  if (best != &s) {
    const char* op = s.score->total < best->score->total ? " < " : " = ";
    return "score: total " + total + op + std::to_string(best->score->total) + " of " +
           std::string(best->name) + c.nothing_placed();
  }
  return "score: total " + total + ", the highest" + c.nothing_placed();
}

std::string strategy_line(const Context& c, const Seen& s) {
  switch (c.request.strategy) {
    case Strategy::Auto:
      return auto_line(c, s);
    case Strategy::Each:
      return each_line(c, s);
    case Strategy::Fill:
      return fill_line(c, s);
    case Strategy::Global:
      return global_line(c, s);
    case Strategy::Drained:
      return drained_line(c, s);
    case Strategy::Score:
      return score_line(c, s);
  }
  return std::string(c.strategy()) + ": can take " + count_text(s.nc->capacity);
}

// ", the nodes can take 312: 1 node not available, 5 nodes limited by cpu,
// 4 left out by node_filter": zero-capacity nodes counted once per reason
// kind they list (SPEC §8.5 order), then the nodes node_filter left out.
std::string summary_counts(const Inventory& inventory, const CapacityMap& map) {
  std::vector<std::pair<std::string, std::int64_t>> kinds;  // in reason-kind order
  std::int64_t room = 0;
  for (const NodeCapacity& n : map.nodes) {
    add_capacity(room, n.capacity);
    if (n.capacity != 0) continue;
    for (const std::string& kind : reason_kinds(n.reasons)) {
      auto it =
          std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == kind; });
      if (it == kinds.end())
        kinds.emplace_back(kind, 1);
      else
        ++it->second;
    }
  }
  std::sort(kinds.begin(), kinds.end(),
            [](const auto& a, const auto& b) { return reason_kind_less(a.first, b.first); });
  std::string out = ", the nodes can take " + count_text(room);
  std::string parts;
  for (const auto& [kind, n] : kinds) {
    parts += parts.empty() ? ": " : ", ";
    const std::string nodes = std::to_string(n) + (n == 1 ? " node " : " nodes ");
    parts += kind == "not available" ? nodes + "not available" : nodes + "limited by " + kind;
  }
  const std::size_t left_out = inventory.nodes.size() - map.nodes.size();
  if (left_out > 0)
    parts += (parts.empty() ? ": " : ", ") + std::to_string(left_out) + " left out by node_filter";
  return out + parts;
}

}  // namespace

std::string filter_reason(const NodeFilter& filter, const Node& node) {
  if (!filter.nodes.empty() &&
      std::find(filter.nodes.begin(), filter.nodes.end(), node.name) == filter.nodes.end())
    return "node_filter.nodes: not one of " + some_names(filter.nodes);
  if (std::find(filter.exclude.begin(), filter.exclude.end(), node.name) != filter.exclude.end())
    return "node_filter.exclude: names this node";
  for (const auto& label : filter.labels) {
    const std::string& key = label.first;
    const std::string& value = label.second;
    auto it = std::find_if(node.labels.begin(), node.labels.end(),
                           [&key](const auto& l) { return l.first == key; });
    if (it == node.labels.end())
      return "node_filter.labels: no label " + key + ", needs " + key + "=" + value;
    if (it->second != value)
      return "node_filter.labels: " + key + "=" + it->second + " does not match " + key + "=" +
             value;
  }
  return {};
}

std::vector<ExplainLine> explain(const Inventory& inventory, const Request& request,
                                 const CapacityMap& map, const std::vector<std::int64_t>* deploy,
                                 const RequestOutcome* outcome) {
  Context c{request, {}, false, false};
  c.satisfied = outcome != nullptr && outcome->status == RequestStatus::Satisfied;
  c.failed = c.satisfied || (outcome != nullptr && outcome->status == RequestStatus::Rejected);
  const bool scored = outcome != nullptr && outcome->scores.size() == map.nodes.size();
  std::vector<const NodeCapacity*> by_node(inventory.nodes.size(), nullptr);
  for (std::size_t i = 0; i < map.nodes.size(); ++i) {
    const NodeCapacity& nc = map.nodes[i];
    by_node[nc.node] = &nc;
    if (nc.capacity <= 0) continue;
    const std::int64_t k = deploy != nullptr && i < deploy->size() ? (*deploy)[i] : 0;
    c.seen.push_back(
        {inventory.nodes[nc.node].name, &nc, k, scored ? &outcome->scores[i] : nullptr});
  }

  c.summarise();

  std::vector<ExplainLine> lines;
  lines.reserve(inventory.nodes.size());
  std::size_t next_seen = 0;  // map.nodes and seen are both in name order
  std::vector<std::uint32_t> order(inventory.nodes.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return inventory.nodes[a].name < inventory.nodes[b].name;
  });
  for (std::uint32_t i : order) {
    const Node& node = inventory.nodes[i];
    const NodeCapacity* nc = by_node[i];
    std::string text;
    if (nc == nullptr) {
      text = filter_reason(request.filter, node);
      if (text.empty()) text = "not in the capacity pass";  // not reached: the filter decides
    } else if (nc->capacity == 0) {
      text = nc->reason();
    } else {
      while (next_seen < c.seen.size() && c.seen[next_seen].nc != nc) ++next_seen;
      if (deploy == nullptr || next_seen == c.seen.size())
        text = "can take " + count_text(nc->capacity) + ", " + std::to_string(nc->existing) +
               " existing";
      else
        text = strategy_line(c, c.seen[next_seen]);
    }
    lines.push_back({node.name, std::move(text)});
  }
  return lines;
}

std::string infeasible_summary(const Inventory& inventory, const CapacityMap& map,
                               std::int64_t count) {
  return "need " + std::to_string(count) + " new instance" + (count == 1 ? "" : "s") +
         summary_counts(inventory, map);
}

// The head names what the strategy needed: each and fill need count on
// nodes, not count in all (SPEC §5); with min_count, the least it may place.
std::string infeasible_summary(const Inventory& inventory, const CapacityMap& map,
                               const Request& request) {
  const std::int64_t count = request.count, limit = request.nodes_limit;
  const std::string instances = count == 1 ? " instance" : " instances";
  const std::string nodes =
      limit > 0 ? " on each of " + std::to_string(limit) + (limit == 1 ? " node" : " nodes") : "";
  std::string head = "need " + std::to_string(count);
  if (request.strategy == Strategy::Each) {
    head += " new" + instances + (limit > 0 ? nodes : " on at least one node");
  } else if (request.strategy == Strategy::Fill) {
    head += instances + " of " + (request.app.empty() ? "the app" : request.app) +
            (limit > 0 ? nodes : " on every node");
  } else {
    head += " new" + instances;
    if (request.min_count > 0 && request.min_count < count)
      head += " (at least " + std::to_string(request.min_count) + ")";
  }
  return head + summary_counts(inventory, map);
}

}  // namespace eruplan
