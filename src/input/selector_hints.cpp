#include "selector_hints.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pods.h"

namespace eruplan {
namespace {

// Bounded work: a typo is at most kHintEdits edits (label values have at
// most 63 letters), and the distances a run computes (HintBudget), in cells
// of the table, at most kHintCells (about 0.1 s) or 64 per byte of the nodes'
// names and labels.
constexpr std::size_t kHintEdits = 32;
constexpr std::int64_t kHintCells = 20'000'000;

// The candidate nearest to `written` when it is close enough to be a typo of
// it (at most a third of its letters, at least 2, at most kHintEdits apart);
// ties by byte order (the candidates come in that order). "" once `cells`,
// the run's budget, is spent.
template <class Range>
std::string_view nearest(std::string_view written, const Range& candidates, std::int64_t& cells) {
  const std::size_t max_edits = std::min(kHintEdits, std::max<std::size_t>(2, written.size() / 3));
  return nearest_name(written, candidates, max_edits, &cells);
}

std::string nodes_word(std::int64_t n) { return std::to_string(n) + (n == 1 ? " node" : " nodes"); }

// The labels the inventory's nodes carry: per key, per value, how many nodes.
struct Census {
  std::map<std::string, std::map<std::string, std::int64_t, std::less<>>, std::less<>> keys;
  std::vector<std::string_view> names;
  std::int64_t& cells;  // nearest()'s budget (HintBudget)

  Census(const Inventory& inventory, HintBudget& budget) : cells(budget.cells) {
    std::int64_t bytes = 0;
    for (const Node& node : inventory.nodes) {
      names.push_back(node.name);
      bytes += static_cast<std::int64_t>(node.name.size());
      for (const auto& [k, v] : node.labels) {
        ++keys[k][v];
        bytes += static_cast<std::int64_t>(k.size() + v.size());
      }
    }
    if (cells < 0) cells = std::max(kHintCells, 64 * bytes);
  }
  std::vector<std::string_view> key_names() const {
    std::vector<std::string_view> out;
    for (const auto& entry : keys) out.push_back(entry.first);
    return out;
  }
  std::int64_t carrying(std::string_view key) const {
    const auto it = keys.find(key);
    if (it == keys.end()) return 0;
    std::int64_t n = 0;
    for (const auto& entry : it->second) n += entry.second;
    return n;
  }

  // "; did you mean pool=general (12 nodes)?", "; its values are ...", or
  // "; no node has a label pool" for key=value that no node has.
  std::string hint(std::string_view key, std::string_view value) const {
    auto values_of = [](const auto& values) {
      std::vector<std::string_view> out;
      for (const auto& entry : values) out.push_back(entry.first);
      return out;
    };
    const auto it = keys.find(key);
    if (it != keys.end()) {
      const std::string_view best = nearest(value, values_of(it->second), cells);
      if (!best.empty())
        return "; did you mean " + excerpt(key) + "=" + excerpt(best) + " (" +
               nodes_word(it->second.find(best)->second) + ")?";
      std::string out = "; nodes have " + excerpt(key) + "=";
      std::size_t shown = 0;
      for (const auto& [v, n] : it->second) {
        if (shown == 5) {
          out += ", ...";
          break;
        }
        out += (shown++ ? ", " : "") + excerpt(v) + " (" + nodes_word(n) + ")";
      }
      return out;
    }
    const std::string_view other = nearest(key, key_names(), cells);
    if (other.empty()) return "; no node has a label " + excerpt(key);
    const auto& values = keys.find(other)->second;
    std::string_view best =
        values.contains(value) ? value : nearest(value, values_of(values), cells);
    if (best.empty())
      return "; did you mean the label " + excerpt(other) + " (" + nodes_word(carrying(other)) +
             ")?";
    return "; did you mean " + excerpt(other) + "=" + excerpt(best) + " (" +
           nodes_word(values.find(best)->second) + ")?";
  }
};

std::string join(const std::vector<std::string>& values) {
  std::string out;
  for (const std::string& v : values) out += (out.empty() ? "" : ", ") + excerpt(v);
  return out;
}

// "pool=general", "pool in (a, b)", "gpu exists", "zone notin (a)".
std::string describe(const Requirement& r) {
  switch (r.op) {
    case SelectorOp::In:
      if (r.values.size() == 1) return excerpt(r.key) + "=" + excerpt(r.values[0]);
      return excerpt(r.key) + " in (" + join(r.values) + ")";
    case SelectorOp::NotIn:
      return excerpt(r.key) + " notin (" + join(r.values) + ")";
    case SelectorOp::Exists:
      return "a label " + excerpt(r.key);
    case SelectorOp::DoesNotExist:
      return "no label " + excerpt(r.key);
    case SelectorOp::Gt:
      return excerpt(r.key) + " > " + join(r.values);
    case SelectorOp::Lt:
      return excerpt(r.key) + " < " + join(r.values);
  }
  return excerpt(r.key);
}

// Why a requirement that no node satisfies is likely a typo, and of what.
std::string explain(const Census& c, const Requirement& r, bool name_field) {
  if (name_field) {
    std::string out = "no node is named " + join(r.values);
    if (r.op == SelectorOp::In && !r.values.empty())
      if (const std::string_view best = nearest(r.values.front(), c.names, c.cells); !best.empty())
        out += "; did you mean " + excerpt(best) + "?";
    return out;
  }
  std::string out = "no node has " + describe(r);
  if (r.op == SelectorOp::In && !r.values.empty()) {
    out += c.hint(r.key, r.values.front());
  } else if (r.op == SelectorOp::Exists) {
    if (const std::string_view best = nearest(r.key, c.key_names(), c.cells); !best.empty())
      out +=
          "; did you mean the label " + excerpt(best) + " (" + nodes_word(c.carrying(best)) + ")?";
  }
  return out;
}

}  // namespace

void warn_unmatched_selectors(const Inventory& inventory, const Request& request,
                              Diagnostics& diags, HintBudget* budget) {
  // A DaemonSet's nodeSelector is no longer its node_filter (that names the
  // eligible nodes): its pod's own is checked, so a typo there is warned
  // about too, not only reported as "no node is eligible".
  const Labels labels = request.daemon && request.pod
                            ? request.pod->node_selector
                            : Labels(request.filter.labels.begin(), request.filter.labels.end());
  const bool has_terms =
      request.pod && request.pod->node_affinity.required && !inventory.nodes.empty();
  if ((labels.empty() || inventory.nodes.empty()) && !has_terms) return;

  // Which filter labels some node carries (one pass, stopping when all are).
  std::vector<bool> matched(labels.size(), false);
  std::size_t left = labels.size();
  for (const Node& node : inventory.nodes) {
    if (left == 0) break;
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (matched[i]) continue;
      const std::string* v = find_label(node.labels.get(), labels[i].first);
      if (v && *v == labels[i].second) matched[i] = true, --left;
    }
  }
  HintBudget own;
  std::optional<Census> census;
  auto counted = [&]() -> const Census& {
    if (!census) census.emplace(inventory, budget != nullptr ? *budget : own);
    return *census;
  };
  if (!inventory.nodes.empty())
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (matched[i]) continue;
      const auto& [key, value] = labels[i];
      Origin at = request.label_origins.size() == labels.size()
                      ? request.label_origins[i]
                      : Origin{{}, 0, 0, "node_filter.labels." + excerpt(key)};
      diags.warning(std::move(at), "no node has " + excerpt(key) + "=" + excerpt(value) +
                                       counted().hint(key, value));
    }
  // Each carried by some node, but by no node all together (as a required
  // node affinity term's requirements are, below).
  if (left == 0 && labels.size() > 1 &&
      std::none_of(inventory.nodes.begin(), inventory.nodes.end(), [&](const Node& n) {
        return std::all_of(labels.begin(), labels.end(), [&](const auto& l) {
          const std::string* v = find_label(n.labels.get(), l.first);
          return v != nullptr && *v == l.second;
        });
      })) {
    Origin at = request.label_origins.size() == labels.size()
                    ? request.label_origins[0]
                    : Origin{{}, 0, 0, "node_filter.labels"};
    if (at.path.ends_with("." + labels[0].first))  // the selector, not its first entry
      at.path.resize(at.path.size() - labels[0].first.size() - 1);
    std::string all;
    for (const auto& [key, value] : labels) all += (all.empty() ? "" : ", ") + key + "=" + value;
    diags.warning(std::move(at), "no node has all of " + all + " (each is on some node)");
  }
  if (!has_terms) return;

  const auto& terms = *request.pod->node_affinity.required;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const NodeSelectorTerm& term = terms[t];
    const bool any =
        std::any_of(inventory.nodes.begin(), inventory.nodes.end(),
                    [&](const Node& n) { return term.matches(n.labels.get(), n.name); });
    if (any) continue;
    Origin at = request.node_affinity_origin;
    at.path += (at.path.empty() ? "" : ".") +
               std::string(
                   "nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
                   "nodeSelectorTerms[") +
               std::to_string(t) + "]";
    std::string why;
    if (term.expressions.empty() && term.fields.empty()) why = "an empty term matches no node";
    auto alone = [&](const Requirement& r, bool name_field) {
      return std::any_of(inventory.nodes.begin(), inventory.nodes.end(), [&](const Node& n) {
        if (!name_field) return r.matches(n.labels.get());
        const std::string name = n.name;
        return r.matches_value(r.key == "metadata.name" ? &name : nullptr);
      });
    };
    for (const Requirement& r : term.expressions)
      if (why.empty() && !alone(r, false)) why = explain(counted(), r, false);
    for (const Requirement& r : term.fields)
      if (why.empty() && !alone(r, true)) why = explain(counted(), r, r.key == "metadata.name");
    if (why.empty()) why = "each of its requirements matches some node, but no node all of them";
    diags.warning(std::move(at), "this required node affinity term matches no node: " + why);
  }
}

}  // namespace eruplan
