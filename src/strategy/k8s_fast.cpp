// The kubernetes profile's fast path (k8s_profile.h): the reference's cycle
// (k8s_profile.cpp) on state computed once and updated per placed replica.
// Every topology key the plugins use is interned once (each node's value as
// a domain number); the running pods are read once into counts per domain
// (PodTopologySpread's matching pods, InterPodAffinity's matching terms and
// score sums) and per node (matching pods for hostname spreading, the
// resource scores); a placed replica adds its own share to its node and
// domains. A cycle is then a pass over the nodes with integer lookups, and
// the normalizations over the feasible ones, as the plugins do. When no node
// is feasible, the message comes from the reference's filters on the same
// state, so both say the same.
#include <algorithm>
#include <climits>
#include <cmath>
#include <deque>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "k8s_profile.h"
#include "random.h"

namespace eruplan {

namespace {

// One node label key: each node's value as a domain number.
struct Topology {
  std::string key;
  std::vector<std::int32_t> dom;  // per node; -1 when the node lacks the key
  std::int32_t empty = -1;        // the domain of the value "" (nodes lacking the key join it
                                  // where the reference reads a missing value as "")
  std::size_t domains = 0;
};

class Topologies {
 public:
  explicit Topologies(const K8sCluster& k) : k_(k) {
    for (const Labels& labels : k.labels)
      for (const auto& [key, value] : labels) carried_.insert(key);
  }
  // Some node has the label `key`.
  bool carried(const std::string& key) const { return carried_.count(key) > 0; }
  // The index of `key`'s topology, built on first use.
  std::size_t of(const std::string& key) {
    if (const auto it = index_.find(key); it != index_.end()) return it->second;
    Topology t;
    t.key = key;
    t.dom.assign(k_.labels.size(), -1);
    std::unordered_map<std::string_view, std::int32_t> ids;
    for (std::size_t i = 0; i < k_.labels.size(); ++i)
      if (const std::string* v = find_label(k_.labels[i], key))
        t.dom[i] = ids.emplace(*v, static_cast<std::int32_t>(ids.size())).first->second;
    t.empty = ids.emplace(std::string_view(), static_cast<std::int32_t>(ids.size())).first->second;
    t.domains = ids.size();
    all_.push_back(std::move(t));
    index_.emplace(all_.back().key, all_.size() - 1);
    return all_.size() - 1;
  }
  const Topology& operator[](std::size_t t) const { return all_[t]; }

 private:
  const K8sCluster& k_;
  std::deque<Topology> all_;  // references stay valid as keys are added
  std::unordered_map<std::string_view, std::size_t> index_;  // keys of all_
  std::unordered_set<std::string_view> carried_;             // keys of k_.labels
};

// nodeAffinityPolicy and nodeTaintsPolicy: does node i count for the
// constraint?
bool included(const TopologySpreadConstraint& c, bool affinity_ok, bool untolerated) {
  if (c.node_affinity_policy == SpreadPolicy::Honor && !affinity_ok) return false;
  if (c.node_taints_policy == SpreadPolicy::Honor && untolerated) return false;
  return true;
}

// The spread plugins count a pod when it is in the new pod's namespace and
// the selector has requirements and matches it.
bool counted(const TopologySpreadConstraint& c, const std::string& pod_ns, const std::string& ns,
             const Labels& labels) {
  return c.selector && !c.selector->requirements.empty() && ns == pod_ns &&
         c.selector->matches(labels);
}

// counted()'s selector matched once per label set and reused for every pod
// with those labels, in one table per distinct selector (zone and hostname
// default spreading share the workload's): a running pod's set is its
// RunningPod::label_set; the others' (placed replicas, grow's DaemonSet
// pods) are interned here, once per labels list they point to.
class SpreadMatches {
 public:
  explicit SpreadMatches(std::uint32_t sets) : sets_(sets) {}
  // The table of the constraint's selector; null when it counts no pod.
  std::vector<signed char>* of(const TopologySpreadConstraint& c) {
    if (!c.selector || c.selector->requirements.empty()) return nullptr;
    for (auto& [s, table] : tables_)
      if (*s == *c.selector) return &table;
    tables_.emplace_back(&*c.selector, std::vector<signed char>(sets_, -1));
    return &tables_.back().second;
  }
  // counted(c, pod_ns, *p.ns, *p.labels), `table` being of(c).
  bool counted(const TopologySpreadConstraint& c, std::vector<signed char>* table,
               const std::string& pod_ns, const K8sPod& p) {
    if (table == nullptr || *p.ns != pod_ns) return false;
    const std::size_t set = p.label_set < sets_ ? p.label_set : sets_ + other(p.labels);
    if (set >= table->size()) table->resize(set + 1, -1);
    signed char& known = (*table)[set];
    if (known < 0) known = c.selector->matches(*p.labels) ? 1 : 0;
    return known != 0;
  }

 private:
  std::uint32_t other(const Labels* labels) {
    const auto [it, fresh] = other_of_.try_emplace(labels, 0);
    if (fresh) it->second = others_.intern(*labels);
    return it->second;
  }
  std::uint32_t sets_;
  std::deque<std::pair<const LabelSelector*, std::vector<signed char>>> tables_;
  LabelSets others_;
  std::unordered_map<const Labels*, std::uint32_t> other_of_;
};

bool matches_all(const Inventory& inv, const std::vector<PodAffinityTerm>& terms,
                 const std::string& owner_ns, const std::string& ns, const Labels& labels) {
  return std::all_of(terms.begin(), terms.end(), [&](const PodAffinityTerm& t) {
    return k8s_term_matches(inv, t, owner_ns, ns, labels);
  });
}

bool with_affinity(const PodScheduling* s) {
  return s && (!s->affinity.required.empty() || !s->affinity.preferred.empty() ||
               !s->anti_affinity.required.empty() || !s->anti_affinity.preferred.empty());
}

// Counts per domain of one topology.
struct DomainCounts {
  std::size_t topo = 0;
  std::vector<std::int64_t> n;
};

// Counts per domain of some topologies, each found by its topology index.
class DomainTable {
 public:
  DomainCounts& at(Topologies& topos, const std::string& key) {
    const std::size_t t = topos.of(key);
    if (t >= row_of_.size()) row_of_.resize(t + 1, -1);
    if (row_of_[t] < 0) {
      row_of_[t] = static_cast<std::int32_t>(rows_.size());
      rows_.push_back({t, std::vector<std::int64_t>(topos[t].domains, 0)});
    }
    return rows_[static_cast<std::size_t>(row_of_[t])];
  }
  std::deque<DomainCounts>::const_iterator begin() const { return rows_.begin(); }
  std::deque<DomainCounts>::const_iterator end() const { return rows_.end(); }
  const DomainCounts& operator[](std::size_t r) const { return rows_[r]; }
  std::size_t row(std::size_t topo) const { return static_cast<std::size_t>(row_of_[topo]); }

 private:
  std::deque<DomainCounts> rows_;  // references stay valid as rows are added
  std::vector<std::int32_t> row_of_;
};

struct HardSpread {
  const TopologySpreadConstraint* c = nullptr;
  std::size_t topo = 0;
  std::vector<char> eligible;       // per node: its pods count
  std::vector<std::int64_t> count;  // per domain
  std::vector<char> present;        // per domain: some eligible node has it
  std::int64_t domains = 0;         // present ones
  std::int64_t self = 0;            // the new pod matches the selector
  bool adds = false;                // a placed replica is counted
};

struct SoftSpread {
  const TopologySpreadConstraint* c = nullptr;
  std::size_t topo = 0;
  bool hostname = false;
  std::vector<std::int64_t> on_node;  // per node: matching pods
  std::vector<char> contributes;      // per node: adds to its domain
  std::vector<std::int64_t> count;    // per domain
  std::vector<std::uint32_t> stamp;   // per domain: last cycle seen among the feasible
  bool adds = false;
  // log(size + 2) of the last cycle's size: sizes repeat from one cycle to
  // the next.
  std::size_t logged_size = SIZE_MAX;
  double log_weight = 0;
};

// Applies `f` to the scores in [min, max] (every one, or those `keep`
// allows), through a table of its values when the range is small: raw
// scores take few values, and the normalizations divide.
template <class F, class Keep>
void normalize(std::vector<std::int64_t>& scores, std::int64_t min, std::int64_t max, F f,
               Keep keep) {
  if (min > max) return;
  constexpr std::int64_t kTable = 4096;
  if (max - min >= kTable || static_cast<std::int64_t>(scores.size()) < max - min) {
    for (std::size_t n = 0; n < scores.size(); ++n)
      if (keep(n)) scores[n] = f(scores[n]);
    return;
  }
  std::vector<std::int64_t> table(static_cast<std::size_t>(max - min + 1));
  for (std::int64_t x = min; x <= max; ++x) table[static_cast<std::size_t>(x - min)] = f(x);
  for (std::size_t n = 0; n < scores.size(); ++n)
    if (keep(n)) scores[n] = table[static_cast<std::size_t>(scores[n] - min)];
}

}  // namespace

StrategyResult k8s_profile_strategy(const StrategyInput& in) {
  K8sRun run;
  if (auto early = k8s_prepare(in, run)) return std::move(*early);
  const Inventory& inv = *in.inventory;
  const Scoring& scoring = in.request->scoring;
  const PodScheduling& pod = *run.pod;
  const K8sCluster& k = run.cluster;
  const std::size_t n_nodes = inv.nodes.size();
  StrategyResult result;
  result.deploy.assign(in.infos.size(), 0);
  result.scores.resize(in.infos.size());
  for (NodeScore& s : result.scores) s.filtered = true;  // until the first cycle scores it

  // Node-local: the filters before NodeResourcesFit, and the static scores.
  K8sCycle local;
  local.cluster = &k;
  std::vector<char> local_ok(n_nodes, 0), affinity_ok(n_nodes, 0), untolerated(n_nodes, 0);
  std::vector<std::int64_t> taint_raw(n_nodes, 0), affinity_raw(n_nodes, 0);
  std::vector<Toleration> prefer;
  for (const Toleration& t : in.request->tolerations)
    if (t.effect.empty() || t.effect == "PreferNoSchedule") prefer.push_back(t);
  for (std::uint32_t i = 0; i < n_nodes; ++i) {
    const Node& node = inv.nodes[i];
    affinity_ok[i] = k8s_required_node_affinity(pod, k.labels[i], node.name);
    untolerated[i] = k8s_untolerated_taint(node, in.request->tolerations);
    local_ok[i] = run.fit[i].capacity >= 0 && k8s_filter_node_unschedulable(local, i).ok() &&
                  k8s_filter_node_name(local, i).ok() && !untolerated[i] &&
                  k8s_filter_node_affinity(local, i).ok() && k8s_filter_node_ports(local, i).ok();
    for (const Taint& taint : node.taints)
      if (taint.effect == "PreferNoSchedule" &&
          std::none_of(prefer.begin(), prefer.end(),
                       [&](const Toleration& t) { return t.tolerates(taint); }))
        ++taint_raw[i];
    for (const PreferredSchedulingTerm& t : pod.node_affinity.preferred)
      if (t.term.matches(k.labels[i], node.name)) affinity_raw[i] += t.weight;
  }
  const bool own_ports = !pod.host_ports.empty();  // a replica's ports clash with the next one's

  Topologies topos(k);
  // PodTopologySpread, filter.
  std::vector<HardSpread> hard;
  for (const TopologySpreadConstraint& s : pod.spread)
    if (s.do_not_schedule) {
      hard.emplace_back();
      hard.back().c = &s;
      hard.back().topo = topos.of(s.topology_key);
    }
  // Nodes with every hard constraint's key (their pods count).
  std::vector<char> all_keys(n_nodes, 1);
  for (const HardSpread& h : hard)
    for (std::uint32_t i = 0; i < n_nodes; ++i)
      if (topos[h.topo].dom[i] < 0) all_keys[i] = 0;
  SpreadMatches spread_matches(inv.pod_label_sets);
  for (HardSpread& h : hard) {
    const Topology& t = topos[h.topo];
    std::vector<signed char>* table = spread_matches.of(*h.c);
    h.count.assign(t.domains, 0);
    h.present.assign(t.domains, 0);
    h.eligible.assign(n_nodes, 0);
    h.self = h.c->selector && h.c->selector->matches(pod.labels) ? 1 : 0;
    h.adds = counted(*h.c, pod.ns, pod.ns, pod.labels);
    for (std::uint32_t i = 0; i < n_nodes; ++i) {
      if (!all_keys[i] || !included(*h.c, affinity_ok[i], untolerated[i])) continue;
      h.eligible[i] = 1;
      const std::int32_t d = t.dom[i];
      if (!h.present[d]) ++h.domains;
      h.present[d] = 1;
      for (const K8sPod& p : k.pods[i])
        if (!p.terminating && spread_matches.counted(*h.c, table, pod.ns, p))
          h.count[d] += p.copies;
    }
  }
  // PodTopologySpread, score.
  const bool own_spread = !pod.spread.empty();
  std::vector<SoftSpread> soft;
  for (const TopologySpreadConstraint& s : own_spread ? pod.spread : k.default_spread) {
    if (s.do_not_schedule) continue;
    soft.emplace_back();
    soft.back().c = &s;
    soft.back().topo = topos.of(s.topology_key);
  }
  std::vector<char> soft_keys(n_nodes, 1);  // the node has every soft key
  for (std::uint32_t i = 0; i < n_nodes; ++i)
    for (const SoftSpread& s : soft)
      if (topos[s.topo].dom[i] < 0) soft_keys[i] = 0;
  for (SoftSpread& s : soft) {
    const Topology& t = topos[s.topo];
    std::vector<signed char>* table = spread_matches.of(*s.c);
    s.hostname = s.c->topology_key == kHostnameLabel;
    s.on_node.assign(n_nodes, 0);
    s.contributes.assign(n_nodes, 0);
    s.count.assign(t.domains, 0);
    s.stamp.assign(t.domains, 0);
    s.adds = counted(*s.c, pod.ns, pod.ns, pod.labels);
    for (std::uint32_t i = 0; i < n_nodes; ++i) {
      for (const K8sPod& p : k.pods[i])
        if (!p.terminating && spread_matches.counted(*s.c, table, pod.ns, p))
          s.on_node[i] += p.copies;
      s.contributes[i] = !s.hostname && (!own_spread || soft_keys[i]) &&
                         included(*s.c, affinity_ok[i], untolerated[i]);
      if (s.contributes[i]) s.count[t.dom[i] >= 0 ? t.dom[i] : t.empty] += s.on_node[i];
    }
  }

  // InterPodAffinity: counts per domain for the filter, sums for the score.
  // A topology no node has counts nothing (each node's domain would be
  // -1): only the required affinity's are kept, as they filter every node.
  DomainTable aff, anti, existing_anti, score_sums;
  std::int64_t aff_total = 0;
  auto add = [&](DomainTable& m, const std::string& key, std::uint32_t i, std::int64_t n) {
    if (!topos.carried(key)) return false;
    DomainCounts& d = m.at(topos, key);
    const std::int32_t dom = topos[d.topo].dom[i];
    if (dom < 0) return false;
    d.n[static_cast<std::size_t>(dom)] += n;
    return true;
  };
  std::vector<std::size_t> aff_terms;  // per required affinity term: its row of `aff`
  for (const PodAffinityTerm& t : pod.affinity.required)
    aff_terms.push_back(aff.row(aff.at(topos, t.topology_key).topo));
  for (const PodAffinityTerm& t : pod.anti_affinity.required)
    if (topos.carried(t.topology_key)) anti.at(topos, t.topology_key);
  const bool has_preferred =
      !pod.affinity.preferred.empty() || !pod.anti_affinity.preferred.empty();
  bool any_affinity = false;
  // What one pod `p` (running, or a placed replica) adds to the tables: each
  // of its matching terms calls put(table, topology key, count, whether it
  // is a required affinity count). Matching does not depend on the node.
  auto terms_of = [&](const K8sPod& p, auto&& put) {
    if (p.scheduling)
      for (const PodAffinityTerm& t : p.scheduling->anti_affinity.required)
        if (k8s_term_matches(inv, t, *p.ns, pod.ns, pod.labels))
          put(existing_anti, t.topology_key, p.copies, false);
    if (!pod.affinity.required.empty() &&
        matches_all(inv, pod.affinity.required, pod.ns, *p.ns, *p.labels))
      for (const PodAffinityTerm& t : pod.affinity.required)
        put(aff, t.topology_key, p.copies, true);
    for (const PodAffinityTerm& t : pod.anti_affinity.required)
      if (k8s_term_matches(inv, t, pod.ns, *p.ns, *p.labels))
        put(anti, t.topology_key, p.copies, false);
    const PodScheduling* s = p.scheduling;
    if (!has_preferred && !with_affinity(s)) return;
    for (const WeightedPodAffinityTerm& t : pod.affinity.preferred)
      if (k8s_term_matches(inv, t.term, pod.ns, *p.ns, *p.labels))
        put(score_sums, t.term.topology_key, t.weight * p.copies, false);
    for (const WeightedPodAffinityTerm& t : pod.anti_affinity.preferred)
      if (k8s_term_matches(inv, t.term, pod.ns, *p.ns, *p.labels))
        put(score_sums, t.term.topology_key, -t.weight * p.copies, false);
    if (!s) return;
    for (const PodAffinityTerm& t : s->affinity.required)
      if (k8s_term_matches(inv, t, *p.ns, pod.ns, pod.labels))
        put(score_sums, t.topology_key, p.copies, false);  // hardPodAffinityWeight
    for (const WeightedPodAffinityTerm& t : s->affinity.preferred)
      if (k8s_term_matches(inv, t.term, *p.ns, pod.ns, pod.labels))
        put(score_sums, t.term.topology_key, t.weight * p.copies, false);
    for (const WeightedPodAffinityTerm& t : s->anti_affinity.preferred)
      if (k8s_term_matches(inv, t.term, *p.ns, pod.ns, pod.labels))
        put(score_sums, t.term.topology_key, -t.weight * p.copies, false);
  };
  auto add_pod = [&](const K8sPod& p, std::uint32_t i) {
    any_affinity = any_affinity || with_affinity(p.scheduling);
    terms_of(p, [&](DomainTable& m, const std::string& key, std::int64_t n, bool counts) {
      if (add(m, key, i, n) && counts) aff_total += n;
    });
  };
  for (std::uint32_t i = 0; i < n_nodes; ++i)
    for (const K8sPod& p : k.pods[i]) add_pod(p, i);
  const bool affinity_self = matches_all(inv, pod.affinity.required, pod.ns, pod.ns, pod.labels);
  const K8sPod self{&pod.ns, &pod.labels, &pod};
  // Each placed replica adds the same terms: matched against the pod once
  // (a replica's labels against its own terms cost a selector match per
  // replica otherwise), replayed on the node it lands on.
  struct SelfTerm {
    DomainTable* table;
    const std::string* key;
    std::int64_t n;
    bool counts;
  };
  std::vector<SelfTerm> self_terms;
  terms_of(self, [&](DomainTable& m, const std::string& key, std::int64_t n, bool counts) {
    self_terms.push_back({&m, &key, n, counts});
  });

  // Resource scores per node, the chosen node's refreshed after each pick
  // from its rows, kept once it is chosen (a node's rows do not change while
  // the request is planned; a refresh is then two passes over them).
  std::vector<NodeScore> resources(n_nodes);
  std::vector<std::int64_t> placed(n_nodes, 0);
  for (std::uint32_t i = 0; i < n_nodes; ++i)
    if (local_ok[i]) resources[i] = k8s_resource_score(scoring, k8s_resource_rows(in, run, i), 0);
  std::vector<std::uint32_t> rows_of(n_nodes, UINT32_MAX);
  std::vector<K8sResourceRows> chosen_rows;

  SplitMix64 random(scoring.tie_seed);
  if (in.explain) result.first_filtered = k8s_first_filtered(in, run);
  std::vector<std::uint32_t> feasible;
  feasible.reserve(n_nodes);
  std::vector<std::int64_t> scores[4];
  std::vector<double> spread_sum;
  std::vector<std::int64_t> hard_min(hard.size());
  // TaintToleration and NodeAffinity give every node the same score (100
  // and 0) when no node has a raw score: no pass per cycle then.
  auto zero = [](const std::vector<std::int64_t>& v) {
    return std::all_of(v.begin(), v.end(), [](std::int64_t x) { return x == 0; });
  };
  const bool taint_flat = zero(taint_raw), affinity_flat = zero(affinity_raw);
  constexpr std::int64_t kFlat[4] = {kMaxNodeScore, 0, 0, 0};
  for (std::int64_t replica = 0; replica < in.count; ++replica) {
    // Filter.
    for (std::size_t h = 0; h < hard.size(); ++h) {
      std::int64_t min = INT32_MAX;
      for (std::size_t d = 0; d < hard[h].count.size(); ++d)
        if (hard[h].present[d]) min = std::min(min, hard[h].count[d]);
      if (hard[h].c->min_domains && hard[h].domains < *hard[h].c->min_domains) min = 0;
      hard_min[h] = min;
    }
    // One pass over the nodes left per constraint (its counts stay in
    // cache), in name order.
    feasible.clear();
    for (const std::uint32_t i : run.order)
      if (local_ok[i] && placed[i] < run.fit[i].capacity && !(own_ports && placed[i] > 0))
        feasible.push_back(i);
    auto keep = [&](auto&& passes) {
      std::erase_if(feasible, [&](std::uint32_t i) { return !passes(i); });
    };
    for (std::size_t h = 0; h < hard.size(); ++h) {
      const std::vector<std::int32_t>& dom = topos[hard[h].topo].dom;
      const std::vector<std::int64_t>& count = hard[h].count;
      const std::int64_t limit = hard[h].c->max_skew + hard_min[h] - hard[h].self;
      keep([&](std::uint32_t i) {
        return dom[i] >= 0 && count[static_cast<std::size_t>(dom[i])] <= limit;
      });
    }
    // Every required affinity term's topology on the node, and (unless no
    // pod matches them anywhere and the replica matches its own terms) a
    // matching pod in each term's domain.
    const bool self_escape = aff_total == 0 && affinity_self;
    for (const std::size_t a : aff_terms) {
      const std::vector<std::int32_t>& dom = topos[aff[a].topo].dom;
      const std::vector<std::int64_t>& n = aff[a].n;
      keep([&](std::uint32_t i) {
        return dom[i] >= 0 && (self_escape || n[static_cast<std::size_t>(dom[i])] > 0);
      });
    }
    for (const DomainTable* table : {&anti, &existing_anti})
      for (const DomainCounts& d : *table) {
        const std::vector<std::int32_t>& dom = topos[d.topo].dom;
        keep([&](std::uint32_t i) {
          return dom[i] < 0 || d.n[static_cast<std::size_t>(dom[i])] <= 0;
        });
      }
    if (feasible.empty()) {
      K8sCycle cycle;
      cycle.cluster = &run.cluster;
      k8s_prefilter_spread(cycle);
      k8s_prefilter_interpod(cycle);
      std::vector<std::uint32_t> none;
      result.outcome = StrategyOutcome::Infeasible;
      result.rejected = k8s_filter_all(in, run, cycle, placed, none);
      result.message = k8s_unschedulable_message(result.rejected, replica, in.count);
      result.placed_first = replica;
      result.placed_first_deploy = result.deploy;
      result.deploy.clear_counts();
      return result;
    }
    const std::size_t nf = feasible.size();
    // TaintToleration and NodeAffinity: static raw scores, normalized over
    // the feasible nodes.
    // The plugins scored this cycle; the others give kFlat to every node.
    const bool used[4] = {!taint_flat, !affinity_flat, !soft.empty(),
                          has_preferred || any_affinity};
    for (std::size_t p = 0; p < 4; ++p)
      if (used[p]) scores[p].assign(nf, 0);
    if (used[0]) {
      for (std::size_t f = 0; f < nf; ++f) scores[0][f] = taint_raw[feasible[f]];
      k8s_default_normalize(scores[0], true);
    }
    if (used[1]) {
      for (std::size_t f = 0; f < nf; ++f) scores[1][f] = affinity_raw[feasible[f]];
      k8s_default_normalize(scores[1], false);
    }
    // PodTopologySpread.
    if (!soft.empty()) {
      const auto stamp = static_cast<std::uint32_t>(replica + 1);
      // Nodes without every key of the pod's own constraints are ignored.
      auto counts = [&](std::uint32_t i) { return !own_spread || soft_keys[i]; };
      const auto not_ignored =
          static_cast<std::size_t>(std::count_if(feasible.begin(), feasible.end(), counts));
      std::vector<double>& sum = spread_sum;
      sum.assign(nf, 0);
      for (SoftSpread& s : soft) {
        const Topology& t = topos[s.topo];
        std::size_t size = not_ignored;
        if (!s.hostname) {
          size = 0;
          for (const std::uint32_t i : feasible) {
            if (!counts(i)) continue;
            std::uint32_t& seen =
                s.stamp[static_cast<std::size_t>(t.dom[i] >= 0 ? t.dom[i] : t.empty)];
            if (seen != stamp) ++size;
            seen = stamp;
          }
        }
        if (size != s.logged_size) {
          s.logged_size = size;
          s.log_weight = std::log(static_cast<double>(size + 2));
        }
        const double weight = s.log_weight;
        // Each node's sum in the constraints' order, as the plugin adds.
        for (std::size_t f = 0; f < nf; ++f) {
          const std::uint32_t i = feasible[f];
          const std::int32_t d = t.dom[i];
          if (!counts(i) || d < 0) continue;
          const std::int64_t cnt = s.hostname ? s.on_node[i] : s.count[static_cast<std::size_t>(d)];
          sum[f] += static_cast<double>(cnt) * weight + static_cast<double>(s.c->max_skew - 1);
        }
      }
      std::int64_t min = INT64_MAX, max = 0;
      for (std::size_t f = 0; f < nf; ++f) {
        if (!counts(feasible[f])) continue;
        scores[2][f] = static_cast<std::int64_t>(std::round(sum[f]));
        min = std::min(min, scores[2][f]);
        max = std::max(max, scores[2][f]);
      }
      // NormalizeScore: fewer matching pods score higher; ignored nodes 0.
      normalize(
          scores[2], min, max,
          [&](std::int64_t x) {
            return max == 0 ? kMaxNodeScore : kMaxNodeScore * (max + min - x) / max;
          },
          [&](std::size_t f) { return counts(feasible[f]); });
    }
    // InterPodAffinity.
    if (used[3]) {
      for (const DomainCounts& d : score_sums) {
        const std::vector<std::int32_t>& dom = topos[d.topo].dom;
        for (std::size_t f = 0; f < nf; ++f)
          if (const std::int32_t x = dom[feasible[f]]; x >= 0)
            scores[3][f] += d.n[static_cast<std::size_t>(x)];
      }
      std::int64_t min = INT64_MAX, max = INT64_MIN;
      for (std::size_t f = 0; f < nf; ++f) {
        min = std::min(min, scores[3][f]);
        max = std::max(max, scores[3][f]);
      }
      const std::int64_t diff = max - min;
      normalize(
          scores[3], min, max,
          [&](std::int64_t x) {
            double v = 0;
            if (diff > 0)
              v = static_cast<double>(kMaxNodeScore) *
                  (static_cast<double>(x - min) / static_cast<double>(diff));
            return static_cast<std::int64_t>(v);
          },
          [](std::size_t) { return true; });
    }
    // Totals and the pick, nodes in name order.
    auto score = [&](std::size_t p, std::size_t f) { return used[p] ? scores[p][f] : kFlat[p]; };
    std::int64_t flat_total = 0;
    for (std::size_t p = 0; p < 4; ++p)
      if (!used[p]) flat_total += kK8sScorePlugins[p].weight * kFlat[p];
    HostPick pick(scoring.tie_random, random);
    for (std::size_t f = 0; f < nf; ++f) {
      const std::uint32_t i = feasible[f];
      const NodeScore& r = resources[i];
      std::int64_t total = scoring.fit_weight * r.fit + scoring.balanced_weight * r.balanced +
                           kK8sScorePlugins[kImageLocalityPlugin].weight * run.image_locality(i) +
                           flat_total;
      for (std::size_t p = 0; p < 4; ++p)
        if (used[p]) total += kK8sScorePlugins[p].weight * scores[p][f];
      if (replica == 0 && run.info_of[i] >= 0) {
        NodeScore& out = result.scores[static_cast<std::size_t>(run.info_of[i])];
        out = r;
        out.plugins = {score(0, f), score(1, f), score(2, f),          score(3, f),
                       r.fit,       r.balanced,  run.image_locality(i)};
        out.total = total;
      }
      pick.offer(f, total);
    }
    // Reserve: the replica joins its node's pods and domains.
    const std::uint32_t c = feasible[pick.best()];
    if (replica == 0) result.first_pick = c;
    ++placed[c];
    if (placed[c] == 1)
      run.cluster.pods[c].push_back(self);
    else
      ++run.cluster.pods[c].back().copies;  // the node's replicas, pushed last
    if (run.info_of[c] >= 0) ++result.deploy[static_cast<std::size_t>(run.info_of[c])];
    if (placed[c] < run.fit[c].capacity) {
      if (rows_of[c] == UINT32_MAX) {
        rows_of[c] = static_cast<std::uint32_t>(chosen_rows.size());
        chosen_rows.push_back(k8s_resource_rows(in, run, c));
      }
      resources[c] = k8s_resource_score(scoring, chosen_rows[rows_of[c]], placed[c]);
    }
    for (HardSpread& h : hard)
      if (h.adds && h.eligible[c]) ++h.count[static_cast<std::size_t>(topos[h.topo].dom[c])];
    for (SoftSpread& s : soft) {
      if (!s.adds) continue;
      ++s.on_node[c];
      if (s.contributes[c]) {
        const Topology& t = topos[s.topo];
        ++s.count[static_cast<std::size_t>(t.dom[c] >= 0 ? t.dom[c] : t.empty)];
      }
    }
    any_affinity = any_affinity || with_affinity(&pod);
    for (const SelfTerm& t : self_terms)
      if (add(*t.table, *t.key, c, t.n) && t.counts) aff_total += t.n;
  }
  return result;
}

}  // namespace eruplan
