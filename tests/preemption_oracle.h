// A one-at-a-time preemption oracle written plainly from kube-scheduler
// v1.35's DefaultPreemption (defaultpreemption/default_preemption.go:
// SelectVictimsOnNode, filterPodsWithPDBViolation; preemption/preemption.go:
// findCandidates, DryRunPreemption, pickOneNodeForPreemption; util's
// MoreImportantPod and GetEarliestPodStartTime) over a cluster of plain
// structs with the filter plugins' rules: NodePorts (one host port per pod),
// NodeResourcesFit (pods, cpu, memory), PodTopologySpread (one
// DoNotSchedule constraint by hostname over the pods labelled app=web, the
// incoming one among them) and InterPodAffinity (the incoming pod's
// required anti-affinity against app=cache by hostname; running pods'
// against app=web). Every dry-run filter call counts the pods afresh over
// the whole cluster, less those taken off the node. It shares no code with
// src/plan/preemption or the kubernetes profile.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace oracle {

struct Pod {
  std::string name;  // namespace "default"
  std::string node;
  std::int32_t priority = 0;
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;
  std::string start;  // empty: no status.startTime ("now")
  std::map<std::string, std::string> labels;
  std::int32_t host_port = 0;  // 0: none
  bool repels_web = false;     // required anti-affinity against app=web by hostname
};

struct Node {
  std::string name;
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;
  std::int64_t pods = 32;  // allocatable pods
};

struct Pdb {
  std::map<std::string, std::string> match_labels;  // empty: matches nothing
  std::int32_t allowed = 0;
  std::vector<std::string> disrupted;
};

// Labelled app=web.
struct Incoming {
  std::int32_t priority = 0;
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;
  std::int32_t host_port = 0;  // 0: none
  std::int32_t max_skew = 0;   // 0: no spread constraint
  bool repels_cache = false;   // required anti-affinity against app=cache by hostname
};

enum class Code { Success, Unschedulable, Unresolvable };

struct Status {
  Code code = Code::Success;
  std::vector<std::string> reasons;
};

// NodeResourcesFit's Filter for the incoming pod over `pods` on `node`.
inline Status fit(const Node& node, const std::vector<const Pod*>& pods, const Incoming& p) {
  Status s;
  std::int64_t cpu = 0, mem = 0;
  for (const Pod* q : pods) cpu += q->milli_cpu, mem += q->memory;
  bool unresolvable = false;
  if (static_cast<std::int64_t>(pods.size()) + 1 > node.pods) {
    s.reasons.push_back("Too many pods");  // never Unresolvable in fitsRequest
  }
  if (p.milli_cpu > 0 && p.milli_cpu > node.milli_cpu - cpu) {
    s.reasons.push_back("Insufficient cpu");
    unresolvable = unresolvable || p.milli_cpu > node.milli_cpu;
  }
  if (p.memory > 0 && p.memory > node.memory - mem) {
    s.reasons.push_back("Insufficient memory");
    unresolvable = unresolvable || p.memory > node.memory;
  }
  if (!s.reasons.empty()) s.code = unresolvable ? Code::Unresolvable : Code::Unschedulable;
  return s;
}

inline bool labelled(const Pod& q, const char* app) {
  auto it = q.labels.find("app");
  return it != q.labels.end() && it->second == app;
}

// Every filter in kube-scheduler's order over the cluster's pods less
// `removed` (all on `node`); the first that fails gives the status.
inline Status filter(const Node& node, const std::vector<Node>& nodes, const std::vector<Pod>& all,
                     const std::vector<const Pod*>& removed, const Incoming& p) {
  const auto present = [&](const Pod& q) {
    return std::find(removed.begin(), removed.end(), &q) == removed.end();
  };
  std::vector<const Pod*> here;
  for (const Pod& q : all)
    if (q.node == node.name && present(q)) here.push_back(&q);
  if (p.host_port != 0)
    for (const Pod* q : here)
      if (q->host_port == p.host_port)
        return {Code::Unschedulable,
                {"node(s) didn't have free ports for the requested pod ports"}};
  Status s = fit(node, here, p);
  if (s.code != Code::Success) return s;
  if (p.max_skew > 0) {
    std::map<std::string, std::int64_t> count;
    for (const Node& n : nodes) count[n.name] = 0;
    for (const Pod& q : all)
      if (present(q) && labelled(q, "web")) ++count[q.node];
    std::int64_t min = INT64_MAX;
    for (const auto& [name, c] : count) min = std::min(min, c);
    if (count[node.name] + 1 - min > p.max_skew)
      return {Code::Unschedulable, {"node(s) didn't match pod topology spread constraints"}};
  }
  if (p.repels_cache)
    for (const Pod* q : here)
      if (labelled(*q, "cache"))
        return {Code::Unschedulable, {"node(s) didn't match pod anti-affinity rules"}};
  for (const Pod* q : here)
    if (q->repels_web)
      return {Code::Unschedulable, {"node(s) didn't satisfy existing pods anti-affinity rules"}};
  return {};
}

// Start times compared as time: empty = now, after every given one.
inline bool before(const std::string& a, const std::string& b) {
  if (a.empty()) return false;
  if (b.empty()) return true;
  return a < b;
}

inline bool more_important(const Pod* a, const Pod* b) {
  if (a->priority != b->priority) return a->priority > b->priority;
  if (a->start != b->start) return before(a->start, b->start);
  return a->name < b->name;  // Kubernetes' sort leaves these in any order
}

struct Candidate {
  std::string node;
  std::vector<const Pod*> victims;
  std::int64_t violations = 0;
};

struct Result {
  std::optional<Candidate> chosen;
  std::string message;
};

inline bool covers(const Pdb& pdb, const Pod& pod) {
  if (pod.labels.empty() || pdb.match_labels.empty()) return false;
  for (const auto& [k, v] : pdb.match_labels) {
    auto it = pod.labels.find(k);
    if (it == pod.labels.end() || it->second != v) return false;
  }
  return true;
}

// SelectVictimsOnNode.
inline Status select_victims(const Node& node, const std::vector<Node>& nodes,
                             const std::vector<Pod>& all, const Incoming& p,
                             const std::vector<Pdb>& pdbs, Candidate& out) {
  std::vector<const Pod*> potential;
  for (const Pod& q : all)
    if (q.node == node.name && q.priority < p.priority) potential.push_back(&q);
  if (potential.empty())
    return {Code::Unresolvable, {"No preemption victims found for incoming pod"}};
  std::vector<const Pod*> removed = potential;
  Status s = filter(node, nodes, all, removed, p);
  if (s.code != Code::Success) return s;
  std::sort(potential.begin(), potential.end(), more_important);
  std::vector<std::int32_t> allowed;
  for (const Pdb& b : pdbs) allowed.push_back(b.allowed);
  std::vector<const Pod*> violating, non_violating;
  for (const Pod* q : potential) {
    bool violated = false;
    for (std::size_t i = 0; i < pdbs.size(); ++i) {
      if (!covers(pdbs[i], *q)) continue;
      if (std::find(pdbs[i].disrupted.begin(), pdbs[i].disrupted.end(), q->name) !=
          pdbs[i].disrupted.end())
        continue;
      if (--allowed[i] < 0) violated = true;
    }
    (violated ? violating : non_violating).push_back(q);
  }
  out.node = node.name;
  const auto reprieve = [&](const Pod* q) {
    removed.erase(std::find(removed.begin(), removed.end(), q));
    if (filter(node, nodes, all, removed, p).code == Code::Success) return true;
    removed.push_back(q);
    out.victims.push_back(q);
    return false;
  };
  for (const Pod* q : violating)
    if (!reprieve(q)) ++out.violations;
  for (const Pod* q : non_violating) reprieve(q);
  if (!violating.empty() && !non_violating.empty())
    std::stable_sort(out.victims.begin(), out.victims.end(), more_important);
  return {};
}

// pickOneNodeForPreemption, score functions applied in turn to the
// candidates (in node-name order); the first remaining wins.
inline const Candidate& pick(const std::vector<Candidate>& candidates) {
  std::vector<const Candidate*> left;
  for (const Candidate& c : candidates) left.push_back(&c);
  const auto apply = [&](auto score) {
    std::int64_t best = INT64_MIN;
    for (const Candidate* c : left) best = std::max(best, score(*c));
    std::vector<const Candidate*> next;
    for (const Candidate* c : left)
      if (score(*c) == best) next.push_back(c);
    left = next;
  };
  apply([](const Candidate& c) { return -c.violations; });
  apply([](const Candidate& c) { return -static_cast<std::int64_t>(c.victims[0]->priority); });
  apply([](const Candidate& c) {
    std::int64_t sum = 0;
    for (const Pod* v : c.victims) sum += v->priority + (std::int64_t{1} << 31);
    return -sum;
  });
  apply([](const Candidate& c) { return -static_cast<std::int64_t>(c.victims.size()); });
  // Latest earliest start time among the highest-priority victims; times
  // are ranked over every start of the run (empty = now = the latest).
  std::vector<std::string> times;
  for (const Candidate* c : left)
    for (const Pod* v : c->victims) times.push_back(v->start);
  std::sort(times.begin(), times.end(), before);
  const auto rank = [&](const std::string& t) {
    if (t.empty()) return std::int64_t{1} << 40;
    return static_cast<std::int64_t>(std::lower_bound(times.begin(), times.end(), t, before) -
                                     times.begin());
  };
  apply([&](const Candidate& c) {
    std::int32_t top = c.victims[0]->priority;
    std::string earliest = c.victims[0]->start;
    for (const Pod* v : c.victims) {
      if (v->priority == top && before(v->start, earliest)) earliest = v->start;
      if (v->priority > top) top = v->priority, earliest = v->start;
    }
    return rank(earliest);
  });
  return *left.front();
}

// Preempt: every node dry-run (no sampling), nodes in name order.
inline Result preempt(std::vector<Node> nodes, const std::vector<Pod>& pods, const Incoming& p,
                      const std::vector<Pdb>& pdbs) {
  std::sort(nodes.begin(), nodes.end(),
            [](const Node& a, const Node& b) { return a.name < b.name; });
  std::vector<Candidate> candidates;
  std::map<std::string, int> histogram;
  int with_status = 0;
  for (const Node& n : nodes) {
    if (filter(n, nodes, pods, {}, p).code != Code::Unschedulable) continue;
    Candidate c;
    const Status s = select_victims(n, nodes, pods, p, pdbs, c);
    if (s.code == Code::Success) {
      candidates.push_back(c);
      continue;
    }
    ++with_status;
    for (const std::string& r : s.reasons) ++histogram[r];
  }
  Result r;
  if (!candidates.empty()) {
    r.chosen = pick(candidates);
    return r;
  }
  const int absent = static_cast<int>(nodes.size()) - with_status;
  if (absent > 0) histogram["Preemption is not helpful for scheduling"] += absent;
  std::vector<std::string> parts;
  for (const auto& [reason, n] : histogram) parts.push_back(std::to_string(n) + " " + reason);
  std::sort(parts.begin(), parts.end());
  r.message = "preemption: 0/" + std::to_string(nodes.size()) + " nodes are available";
  for (std::size_t i = 0; i < parts.size(); ++i) r.message += (i ? ", " : ": ") + parts[i];
  r.message += ".";
  return r;
}

}  // namespace oracle
