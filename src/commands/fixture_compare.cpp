// Comparing a fixture case's results with its `expect:` (SPEC §7, §13):
// one difference line per mismatch.
#include "fixture_expectation.h"

namespace eruplan::fixture_case {

std::string in_quotes(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + '"';
}

std::string first_line(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "(empty)" : line;
}

namespace {

// The produced results by node name, for lookups by the expected names.
struct Outcome {
  const RunResult& result;

  const NodeCapacity* find(const std::string& name, size_t* index = nullptr) const {
    if (!result.capacity || !result.inventory) return nullptr;
    const auto& nodes = result.capacity->nodes;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (result.inventory->nodes[nodes[i].node].name != name) continue;
      if (index) *index = i;
      return &nodes[i];
    }
    return nullptr;
  }
  std::string name_of(size_t i) const {
    return result.inventory->nodes[result.capacity->nodes[i].node].name;
  }
  bool has_capacity() const { return result.capacity && result.inventory; }
  bool has_deploy() const {
    return has_capacity() && result.deploy &&
           result.deploy->size() == result.capacity->nodes.size();
  }
};

// An expectation per node of the capacity map (capacity:, plans:,
// reasons:) under `key`: `differs(got, want)` says how the node (null when
// it is not in the map) differs, empty when it holds.
template <class T, class Differs>
void compare_nodes(const Outcome& o, const std::string& key,
                   const std::optional<Expected<T>>& expected, Differs differs,
                   std::vector<std::string>& diffs) {
  if (!expected) return;
  if (!o.has_capacity()) {
    if (!expected->empty()) diffs.push_back(key + ": no capacity map was produced");
    return;
  }
  for (const auto& [name, want] : *expected)
    if (const std::string d = differs(o.find(name), want); !d.empty())
      diffs.push_back(key + "." + name + ": " + d);
}

void compare_capacity(const Expectation& e, const Outcome& o, std::vector<std::string>& diffs) {
  compare_nodes(
      o, "capacity", e.capacity,
      [](const NodeCapacity* got, std::int64_t want) -> std::string {
        if (want == kAbsent) return got ? "expected absent, got " + count_text(got->capacity) : "";
        if (!got) return "not in the capacity map";
        if (got->capacity != want)
          return "expected " + count_text(want) + ", got " + count_text(got->capacity);
        return "";
      },
      diffs);
  if (e.total) {
    if (!o.has_capacity())
      diffs.push_back("total: expected " + count_text(*e.total) + ", no capacity map was produced");
    else if (o.result.capacity->total != *e.total)
      diffs.push_back("total: expected " + count_text(*e.total) + ", got " +
                      count_text(o.result.capacity->total));
  }
  compare_nodes(
      o, "plans", e.plans,
      [](const NodeCapacity* got, std::int64_t want) -> std::string {
        if (!got) return "not in the capacity map";
        if (static_cast<std::int64_t>(got->plans.size()) != want)
          return "expected " + std::to_string(want) + " plans, got " +
                 std::to_string(got->plans.size());
        return "";
      },
      diffs);
  compare_nodes(
      o, "reasons", e.reasons,
      [](const NodeCapacity* got, const std::string& want) -> std::string {
        if (!got) return "not in the capacity map";
        if (got->reason().find(want) == std::string::npos)
          return "expected to contain " + in_quotes(want) +
                 ", got: " + (got->reason().empty() ? "(no reason)" : in_quotes(got->reason()));
        return "";
      },
      diffs);
}

// The DeployMap exactly: listed nodes get their number, every other node 0.
void compare_deploy(const Expectation& e, const Outcome& o, std::vector<std::string>& diffs) {
  if (!e.deploy) return;
  for (const auto& [name, want] : *e.deploy) {
    size_t i = 0;
    const NodeCapacity* node = o.find(name, &i);
    std::int64_t got = 0;
    std::string why;
    if (!o.has_deploy())
      why = " (no deploy map was produced)";
    else if (!node)
      why = " (not in the capacity map)";
    else
      got = (*o.result.deploy)[i];
    if (got != want)
      diffs.push_back("deploy." + name + ": expected " + std::to_string(want) + ", got " +
                      std::to_string(got) + why);
  }
  if (!o.has_deploy()) return;
  for (size_t i = 0; i < o.result.deploy->size(); ++i) {
    const std::int64_t got = (*o.result.deploy)[i];
    if (got == 0) continue;
    const std::string name = o.name_of(i);
    bool listed = false;
    for (const auto& entry : *e.deploy) listed = listed || entry.first == name;
    if (!listed)
      diffs.push_back("deploy." + name + ": expected 0, got " + std::to_string(got) +
                      " (not listed)");
  }
}

// scores: the listed nodes' first-instance scores (SPEC §9, §13).
void compare_scores(const Expectation& e, const Outcome& o, std::vector<std::string>& diffs) {
  if (!e.scores) return;
  for (const auto& [name, want] : *e.scores) {
    size_t i = 0;
    const NodeCapacity* node = o.has_capacity() ? o.find(name, &i) : nullptr;
    if (node == nullptr || i >= o.result.scores.size() || node->capacity <= 0 ||
        o.result.scores[i].filtered) {
      diffs.push_back("scores." + name + ": no score (not a feasible node of a score plan)");
      continue;
    }
    const NodeScore& got = o.result.scores[i];
    const std::pair<const char*, std::pair<std::optional<std::int64_t>, std::int64_t>> parts[] = {
        {"fit", {want.fit, got.fit}},
        {"balanced", {want.balanced, got.balanced}},
        {"total", {want.total, got.total}}};
    for (const auto& [part, values] : parts)
      if (values.first && *values.first != values.second)
        diffs.push_back("scores." + name + "." + part + ": expected " +
                        std::to_string(*values.first) + ", got " + std::to_string(values.second));
  }
}

// deploy_subset, deploy_total, placed and status (SPEC §13).
void compare_operator(const Expectation& e, const Outcome& o, std::vector<std::string>& diffs) {
  if (e.deploy_subset) {
    for (const auto& [name, want] : *e.deploy_subset) {
      size_t i = 0;
      const NodeCapacity* node = o.has_deploy() ? o.find(name, &i) : nullptr;
      const std::int64_t got = node ? (*o.result.deploy)[i] : 0;
      if (got != want)
        diffs.push_back("deploy_subset." + name + ": expected " + std::to_string(want) + ", got " +
                        std::to_string(got) +
                        (!o.has_deploy() ? " (no deploy map was produced)"
                         : !node         ? " (not in the capacity map)"
                                         : ""));
    }
  }
  if (e.deploy_total) {
    std::int64_t got = 0;
    if (o.has_deploy())
      for (std::int64_t k : *o.result.deploy) got += k;
    if (got != *e.deploy_total)
      diffs.push_back("deploy_total: expected " + std::to_string(*e.deploy_total) + ", got " +
                      std::to_string(got));
  }
  const auto& requests = o.result.requests;
  if (e.evicted) {
    std::vector<std::string> got;
    for (const RequestBrief& r : requests)
      got.insert(got.end(), r.evicted.begin(), r.evicted.end());
    if (got != *e.evicted) {
      const auto list = [](const std::vector<std::string>& v) {
        std::string out = "[";
        for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
        return out + "]";
      };
      diffs.push_back("evicted: expected " + list(*e.evicted) + ", got " + list(got));
    }
  }
  auto find = [&](const std::string& name) -> const RequestBrief* {
    if (name.empty()) return requests.size() == 1 ? &requests.front() : nullptr;
    for (const RequestBrief& r : requests)
      if (r.name == name) return &r;
    return nullptr;
  };
  auto label = [](const std::string& field, const std::string& name) {
    return name.empty() ? field : field + "." + name;
  };
  if (e.placed) {
    for (const auto& [name, want] : *e.placed) {
      const RequestBrief* r = find(name);
      if (r == nullptr)
        diffs.push_back(label("placed", name) + ": no such request was planned");
      else if (r->placed != want)
        diffs.push_back(label("placed", name) + ": expected " + std::to_string(want) + ", got " +
                        std::to_string(r->placed));
    }
  }
  if (e.status) {
    for (const auto& [name, want] : *e.status) {
      const RequestBrief* r = find(name);
      if (r == nullptr)
        diffs.push_back(label("status", name) + ": no such request was planned");
      else if (status_name(r->status) != want)
        diffs.push_back(label("status", name) + ": expected " + want + ", got " +
                        std::string(status_name(r->status)));
    }
  }
}

}  // namespace

void compare(const Expectation& e, const RunResult& result, std::vector<std::string>& diffs) {
  // A usage error's message is stderr's too (the CLI prints it there).
  const std::string err = result.usage.empty() ? result.err : result.err + result.usage + '\n';
  if (static_cast<std::int64_t>(result.exit) != e.exit) {
    std::string line = "exit: expected " + std::to_string(e.exit) + ", got " +
                       std::to_string(static_cast<int>(result.exit));
    if (!err.empty()) line += " (stderr: " + first_line(err) + ")";
    diffs.push_back(line);
  }
  const Outcome o{result};
  compare_capacity(e, o, diffs);
  compare_deploy(e, o, diffs);
  compare_operator(e, o, diffs);
  compare_scores(e, o, diffs);
  if (e.offers && *e.offers != result.offers) {
    std::string got;
    for (const std::string& o : result.offers) got += (got.empty() ? "" : ", ") + o;
    diffs.push_back("offers: expected " + std::to_string(e.offers->size()) + ", got " +
                    std::to_string(result.offers.size()) + ": [" + got + "]");
  }
  for (const std::string& want : e.error_contains)
    if (err.find(want) == std::string::npos)
      diffs.push_back("stderr: expected to contain " + in_quotes(want) +
                      ", got: " + first_line(err));
}

}  // namespace eruplan::fixture_case
