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

#include "k8s_profile.h"
#include "strategy.h"

namespace eruplan {

namespace {

constexpr std::size_t kShownNames = NodeSet::kFirstNames;

// "a, b, c and 4 more": the first names of `total`.
std::string some_names(const std::vector<std::string>& names, std::size_t total) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kShownNames; ++i)
    out += (i ? ", " : "") + names[i];
  if (total > kShownNames) out += " and " + std::to_string(total - kShownNames) + " more";
  return out;
}

// The nodes with room, as the strategy saw them and what each got, and the
// facts about all of them the lines need, computed once so each costs O(1).
struct Context {
  const Request& request;
  ExplainPass pass{request};
  std::vector<ExplainNode> seen;        // nodes with capacity > 0, by name
  std::vector<const NodeCapacity*> nc;  // parallel to seen

  void summarise() {
    for (const ExplainNode& o : seen) {
      if (o.score != nullptr && (pass.best == nullptr || o.score->total > pass.best->score->total))
        pass.best = &o;
      if (o.k <= 0) continue;
      pass.any_placed = true;
      pass.top = std::max(pass.top, o.existing + o.k);
      pass.last_key = std::max(pass.last_key, global_key(o.usage, o.rate, o.k));
    }
  }

  std::string_view strategy() const { return strategy_name(request.strategy); }
};

std::string strategy_line(const Context& c, const ExplainNode& s) {
  if (const StrategyExplain line = strategy_row(c.request.strategy).explain) return line(c.pass, s);
  return std::string(c.strategy()) + ": can take " + count_text(s.capacity);
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

// The kubernetes profile (SPEC §16): each node as the first replica's cycle
// saw it. A node a filter rejected names the plugin and Kubernetes' reason;
// a feasible node is compared with the node the first replica went to (that
// node with the runner-up), naming the score plugin whose weighted
// difference is the largest in the winner's favour.
struct K8sExplain {
  const Inventory& inventory;
  const Request& request;
  const RequestOutcome& outcome;
  const std::vector<const NodeCapacity*>& by_node;
  const DeployMap* deploy;
  const CapacityMap& map;
  const NodeScore* pick = nullptr;  // the first replica's node's scores
  std::uint32_t pick_node = 0;
  const NodeScore* runner_up = nullptr;
  std::uint32_t runner_up_node = 0;

  std::int64_t weight(std::size_t p) const {
    if (kK8sScorePlugins[p].name == "NodeResourcesFit") return request.scoring.fit_weight;
    if (kK8sScorePlugins[p].name == "NodeResourcesBalancedAllocation")
      return request.scoring.balanced_weight;
    return kK8sScorePlugins[p].weight;
  }
  const NodeScore* score_of(std::uint32_t node) const {
    const NodeCapacity* nc = by_node[node];
    if (nc == nullptr || nc->capacity <= 0 || outcome.scores.size() != map.nodes.size())
      return nullptr;
    return &outcome.scores[static_cast<std::size_t>(nc - map.nodes.data())];
  }
  std::int64_t new_instances(std::uint32_t node) const {
    const NodeCapacity* nc = by_node[node];
    if (nc == nullptr || deploy == nullptr) return 0;
    const auto at = static_cast<std::size_t>(nc - map.nodes.data());
    return at < deploy->size() ? (*deploy)[at] : 0;
  }
  // "InterPodAffinity (weight 2: 100 vs 68)": the plugin with the largest
  // weighted advantage of `winner` over `loser`, the first in profile order
  // among equals; scores as `first`, `second` say.
  std::string decided(const NodeScore& winner, const NodeScore& loser, bool winner_first) const {
    std::size_t best = 0;
    std::int64_t best_gap = INT64_MIN;
    const std::size_t n = std::min(winner.plugins.size(), loser.plugins.size());
    for (std::size_t p = 0; p < n && p < std::size(kK8sScorePlugins); ++p) {
      const std::int64_t gap = weight(p) * (winner.plugins[p] - loser.plugins[p]);
      if (gap > best_gap) best_gap = gap, best = p;
    }
    if (best_gap == INT64_MIN) return "";
    const std::int64_t a = (winner_first ? winner : loser).plugins[best];
    const std::int64_t b = (winner_first ? loser : winner).plugins[best];
    return ", decided by " + std::string(kK8sScorePlugins[best].name) + " (weight " +
           std::to_string(weight(best)) + ": " + std::to_string(a) + " vs " + std::to_string(b) +
           ")";
  }
  std::string tie_word() const {
    return request.scoring.tie_random ? ", the tie broken at random" : ", the tie broken by name";
  }

  std::string line(std::uint32_t node, const std::string& nothing_placed) const {
    const std::int64_t k = new_instances(node);
    std::string text = "score: ";
    if (k > 0) text += "+" + std::to_string(k) + "; ";
    const std::string& filtered = outcome.first_filtered[node];
    const NodeScore* mine = score_of(node);
    if (!filtered.empty() || mine == nullptr) {
      text += "filtered out for the first replica by " +
              (filtered.empty() ? std::string("NodeResourcesFit") : filtered);
    } else if (pick == nullptr) {
      text += "total " + std::to_string(mine->total) + " for the first replica";
    } else if (node == pick_node) {
      text += "the first replica came here: ";
      if (runner_up == nullptr) {
        text += "the only node the filters left, total " + std::to_string(mine->total);
      } else {
        const std::string& other = inventory.nodes[runner_up_node].name;
        const std::int64_t t = mine->total, u = runner_up->total;
        text += "total " + std::to_string(t) + (t > u ? " > " : " = ") + std::to_string(u) +
                " on " + other;
        text += t > u ? decided(*mine, *runner_up, true) : tie_word();
      }
    } else {
      const std::string& there = inventory.nodes[pick_node].name;
      const std::int64_t t = mine->total, u = pick->total;
      text += "the first replica went to " + there + ": total " + std::to_string(t) +
              (t < u ? " < " : " = ") + std::to_string(u) + " there";
      text += t < u ? decided(*pick, *mine, false) : tie_word();
    }
    return text + nothing_placed;
  }
};

}  // namespace

std::string filter_reason(const NodeFilter& filter, const Node& node) {
  if (!filter.nodes.empty() &&
      std::find(filter.nodes.begin(), filter.nodes.end(), node.name) == filter.nodes.end())
    return "node_filter.nodes: not one of " + some_names(filter.nodes, filter.nodes.size());
  if (filter.node_set && !filter.node_set->contains(node.name)) {
    if (filter.node_set->size() == 0) return "node_filter.exclude: names this node";
    return "node_filter.nodes: not one of " +
           some_names(filter.node_set->first(), filter.node_set->size());
  }
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
                                 const CapacityMap& map, const DeployMap* deploy,
                                 const RequestOutcome* outcome) {
  Context c{request, ExplainPass{request}, {}, {}};
  c.pass.satisfied = outcome != nullptr && outcome->status == RequestStatus::Satisfied;
  c.pass.failed =
      c.pass.satisfied || (outcome != nullptr && outcome->status == RequestStatus::Rejected);
  const bool scored = outcome != nullptr && outcome->scores.size() == map.nodes.size();
  std::vector<const NodeCapacity*> by_node(inventory.nodes.size(), nullptr);
  for (std::size_t i = 0; i < map.nodes.size(); ++i) {
    const NodeCapacity& nc = map.nodes[i];
    by_node[nc.node] = &nc;
    if (nc.capacity <= 0) continue;
    const std::int64_t k = deploy != nullptr && i < deploy->size() ? (*deploy)[i] : 0;
    c.seen.push_back({inventory.nodes[nc.node].name, nc.existing, nc.capacity, nc.usage, nc.rate, k,
                      scored ? &outcome->scores[i] : nullptr});
    c.nc.push_back(&nc);
  }

  c.summarise();

  std::vector<std::uint32_t> order(inventory.nodes.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return inventory.nodes[a].name < inventory.nodes[b].name;
  });
  std::vector<ExplainLine> lines;
  lines.reserve(inventory.nodes.size());
  if (outcome != nullptr && outcome->first_filtered.size() == inventory.nodes.size()) {
    K8sExplain k{inventory, request, *outcome, by_node, deploy, map};
    if (outcome->first_pick >= 0) {
      k.pick_node = static_cast<std::uint32_t>(outcome->first_pick);
      k.pick = k.score_of(k.pick_node);
    }
    if (k.pick != nullptr)
      for (const std::uint32_t i : order) {  // name order: the first of equal totals
        const NodeScore* s = k.score_of(i);
        if (i == k.pick_node || s == nullptr || !outcome->first_filtered[i].empty()) continue;
        if (k.runner_up == nullptr || s->total > k.runner_up->total)
          k.runner_up = s, k.runner_up_node = i;
      }
    const std::string nothing = c.pass.nothing_placed();
    for (const std::uint32_t i : order)
      lines.push_back({inventory.nodes[i].name, k.line(i, nothing)});
    return lines;
  }

  std::size_t next_seen = 0;  // map.nodes and seen are both in name order
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
      while (next_seen < c.seen.size() && c.nc[next_seen] != nc) ++next_seen;
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
  if (const StrategyNeed need = strategy_row(request.strategy).need)
    return need(request) + summary_counts(inventory, map);
  const std::int64_t count = request.count;
  std::string head = "need " + strategy_count(count, "new instance");
  if (request.min_count > 0 && request.min_count < count)
    head += " (at least " + std::to_string(request.min_count) + ")";
  return head + summary_counts(inventory, map);
}

}  // namespace eruplan
