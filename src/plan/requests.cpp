// Planning against one cluster state (SPEC §8.3, §8.4).
//
// Choices the SPEC leaves open, decided here:
// - min_count: the largest n >= min_count that the strategy places is found
//   by bisection over n (placing n is monotone for auto, global, drained and
//   score), so it costs O(log count) strategy passes, never count.
// - A rejected gang member's message names what it could place at most
//   ("worker placed 4, needs at least 6"): the same bisection from 1.
// - Gang members after the failing one are not planned; their capacity is
//   shown against the state after the gang was undone.
#include "requests.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "fit_messages.h"
#include "k8s_preemption.h"
#include "k8s_profile.h"
#include "queue_order.h"

namespace eruplan {

namespace {

struct Planner {
  Planner(Inventory& s, const std::vector<Request>& r, const PlanOptions& o)
      : state(s), requests(r), options(o) {}

  Inventory& state;
  const std::vector<Request>& requests;
  const PlanOptions& options;
  CapacityCache cache;

  CapacityOptions capacity_options() const {
    return CapacityOptions{options.max_plans, options.jobs};
  }

  RequestOutcome plan_one(const Request& request, UndoLog* undo) {
    RequestOutcome out;
    out.planned = true;
    request_mark_ = state.placed_pods.mark();
    replica_pod_ = nullptr;
    if (request.pod)
      replica_pod_ = request.pod;
    else if (request.strategy == Strategy::Score &&
             request.scoring.profile == ScoringProfile::Kubernetes)
      replica_pod_ = std::make_shared<const PodScheduling>(k8s_plain_pod(request));
    out.capacity = cache.pass(state, request, capacity_options());
    if (over_listed(out)) return out;
    if (!request.satisfied.empty()) {
      out.status = RequestStatus::Satisfied;
      out.reason = request.satisfied;
      out.deploy.assign(out.capacity.nodes.size(), 0);
      return out;
    }
    const std::vector<StrategyInfo>& infos = strategy_pass_infos(request, out.capacity);
    const std::vector<std::size_t>& where = where_;
    StrategyInput input{infos,  request.count, out.capacity.total, request.nodes_limit,
                        &state, &request,      options.jobs,       &out.capacity};
    input.explain = options.explain;
    if (request.strategy == Strategy::Score &&
        request.scoring.profile == ScoringProfile::Kubernetes) {
      double steps = 0;
      std::optional<std::string> why = k8s_profile_too_large(input, k8s_steps_, 1, &steps);
      if (why && mark_too_large(out, std::move(*why))) return out;
      k8s_steps_ += steps;
    }
    Placement placement = place(input, request.min_count, request.strategy);
    if (placement.first.too_large && mark_too_large(out, placement.first.message.full()))
      return out;
    out.strategy = placement.first.outcome;
    if (request.daemon && placement.first.outcome == StrategyOutcome::Infeasible) {
      // A DaemonSet names every node of its that has no room (SPEC §15).
      if (options.preempt) return daemon_preempting(request, undo, std::move(out));
      placement.first.message = NamedReason(daemon_message(state, request, out.capacity));
    } else if (placement.first.outcome == StrategyOutcome::Infeasible && request.count > 0) {
      if (options.preempt) return preempting(request, undo, std::move(out), input, placement);
      if (request.pod || request.priority != 0 || !state.pods.empty())
        preemption_note(request, input, placement);
    }
    out.deploy.assign(out.capacity.nodes.size(), 0);
    out.first_filtered = std::move(placement.first.first_filtered);
    out.first_pick = placement.first.first_pick;
    if (!placement.first.scores.empty()) {
      out.scores.assign(out.capacity.nodes.size(), NodeScore{});
      for (std::size_t k = 0; k < infos.size(); ++k)
        out.scores[where[k]] = placement.first.scores[k];
    }
    if (placement.placed == 0) {
      out.status = out.strategy == StrategyOutcome::AlreadySatisfied ? RequestStatus::Satisfied
                                                                     : RequestStatus::Rejected;
      out.reason = placement.first.message;
      if (out.status == RequestStatus::Rejected && request.min_count > 0 &&
          strategy_row(request.strategy).min_count) {
        const std::int64_t most =
            most_placed(input, strategy_row(request.strategy).run, request.count, &placement.first);
        out.reason.suffix = "; placed " + std::to_string(most) + ", needs at least " +
                            std::to_string(request.min_count);
        out.placed_at_most = most;
      }
      return out;
    }
    out.status = placement.partial ? RequestStatus::Partial : RequestStatus::Placed;
    out.placed = placement.placed;
    if (placement.partial) out.reason = placement.first.message;
    const std::int64_t listed = listed_core_weight(state, request, infos, placement.result.deploy);
    if (over_bound_budget(out, request, out.placed, listed)) return out;
    if (over_entry_budget(out, request, infos, placement.result.deploy)) return out;
    for (std::size_t k = 0; k < infos.size(); ++k)
      out.deploy[where[k]] = placement.result.deploy[k];
    assign_and_reserve(request, out, undo);
    return out;
  }

  // The pod of the request being planned, as the requests after it see its
  // replicas (Inventory::placed_pods): its manifest's, or under the
  // kubernetes profile its app's; null for an eruplan request otherwise
  // (no filter of a later request looks at its labels).
  std::shared_ptr<const PodScheduling> replica_pod_;
  // Inventory::placed_pods' groups before the request (and the unit) being
  // planned: what an undo cuts it back to.
  std::size_t request_mark_ = 0, unit_mark_ = 0;

  // `k` more replicas of `request` on `node`, for the pod filters of what
  // is planned after them: the request's group, opened by its first.
  void record_placed(const Request& request, std::uint32_t node, std::int64_t k) {
    if (!replica_pod_ || k <= 0) return;
    if (!state.placed_pods.has_open())
      state.placed_pods.open(k8s_placed_pods(request, replica_pod_));
    state.placed_pods.add(node, k);
  }

  // New instances of binding requests given so far (PlanOptions::max_bound_instances).
  std::int64_t bound_given_ = 0;
  bool too_large_ = false;
  // Node checks the kubernetes profile took for the requests so far: they
  // share one bound (kK8sProfileSteps).
  double k8s_steps_ = 0;

  // Placing `n` more instances of a binding request would pass the budget
  // (each weighing plan_weight): `out` becomes too_large (rejected, nothing
  // placed) and says why; else they are counted in.
  // `listed`: the weight of the cores they list (listed_core_weight).
  bool over_bound_budget(RequestOutcome& out, const Request& request, std::int64_t n,
                         std::int64_t listed = 0) {
    if (!out.capacity.binds) return false;
    const std::int64_t weight = plan_weight(request),
                       room = options.max_bound_instances - bound_given_;
    if (n <= room / weight && listed <= room - n * weight) {
      bound_given_ += n * weight + listed;
      return false;
    }
    return mark_too_large(out, too_many_bound(request, n, options.max_bound_instances, listed));
  }

  std::int64_t app_entries_ = 0;  // app counts by node the run added (max_app_entries)

  // Placing `deploy` (per info) would add more app counts by node than the
  // run may: `out` becomes too_large and says why.
  bool over_entry_budget(RequestOutcome& out, const Request& request,
                         const std::vector<StrategyInfo>& infos, const InfoDeployMap& deploy) {
    if (options.max_app_entries == kUnlimited) return false;
    std::int64_t fresh = 0;
    for (std::size_t k = 0; k < infos.size() && k < deploy.size(); ++k) {
      if (deploy[k] <= 0) continue;
      const auto& apps = state.nodes[infos[k].node].instances;
      const auto it = std::lower_bound(
          apps.begin(), apps.end(), request.app,
          [](const auto& entry, const std::string& app) { return entry.first < app; });
      if (it == apps.end() || it->first != request.app) ++fresh;
    }
    // A Kubernetes pod's replicas on a node are also an entry of the pods
    // the later requests' filters see (Inventory::placed_pods), and each
    // later kubernetes run lists them per node: three times.
    app_entries_ += request.pod ? 3 * fresh : fresh;
    if (app_entries_ <= options.max_app_entries) return false;
    return mark_too_large(out, app_entries_too_large(app_entries_, options.max_app_entries));
  }

  std::int64_t listed_nodes_ = 0;  // nodes the outcomes list (PlanOptions::max_listed_nodes)
  // Counts the nodes `out` lists; past the bound, `out` becomes too_large.
  bool over_listed(RequestOutcome& out) {
    std::string why = count_listed_nodes(listed_nodes_, out.capacity, options.explain,
                                         options.listed_zero_only, options.max_listed_nodes);
    return !why.empty() && mark_too_large(out, std::move(why));
  }

  bool mark_too_large(RequestOutcome& out, std::string reason) {
    out.too_large = true;
    too_large_ = true;
    out.status = RequestStatus::Rejected;
    out.placed = 0;
    out.deploy.assign(out.capacity.nodes.size(), 0);
    out.preemptions.clear();
    out.reason = NamedReason(std::move(reason));
    return true;
  }

  // The infos the strategy pass is given, and in where_ their capacity.nodes
  // entries: every node with room, or only the nodes that decide the pass
  // (deciding_nodes), which is the same DeployMap for a fraction of the
  // work. Names are looked up only for the nodes passed on. The buffers are
  // reused from request to request, each sized once (not doubled).
  const std::vector<StrategyInfo>& strategy_pass_infos(const Request& request,
                                                       const CapacityMap& map) {
    room_.clear(), room_.reserve(map.nodes.size());
    room_where_.clear(), room_where_.reserve(map.nodes.size());
    for (std::size_t i = 0; i < map.nodes.size(); ++i) {
      const NodeCapacity& n = map.nodes[i];
      if (n.capacity <= 0) continue;
      room_.push_back({{}, n.node, n.existing, n.capacity, n.usage, n.rate});
      room_where_.push_back(i);
    }
    if (deciding_nodes(room_, request.strategy, request.count, map.total, request.nodes_limit,
                       chosen_)) {
      infos_.clear();
      where_.clear();
      for (const std::size_t k : chosen_) {
        infos_.push_back(room_[k]);
        where_.push_back(room_where_[k]);
      }
    } else {
      infos_.swap(room_);
      where_.swap(room_where_);
    }
    for (StrategyInfo& info : infos_) info.name = state.nodes[info.node].name;
    return infos_;
  }

  std::vector<StrategyInfo> room_, infos_;
  std::vector<std::size_t> room_where_, where_, chosen_;

  // --- Preemption (SPEC §17) ---
  std::optional<RunningPods> pods_;   // built when first needed
  std::vector<Victim> unit_evicted_;  // evicted by the gang (or request) being planned

  // A request's placements and evictions are kept: its undo log joins the
  // run's, its victims the gang's (or request's).
  void keep_evictions(UndoLog& local, const std::vector<Victim>& evicted, UndoLog* undo) {
    if (undo != nullptr) undo->absorb(std::move(local));
    unit_evicted_.insert(unit_evicted_.end(), evicted.begin(), evicted.end());
  }
  // ... or undone: nodes and pods as they were, `out` rejected with nothing
  // placed (its reason is the caller's).
  void undo_evictions(UndoLog& local, const std::vector<Victim>& evicted, RequestOutcome& out) {
    const std::vector<std::uint32_t> touched = local.nodes();
    local.undo(state);
    for (const std::uint32_t i : touched) cache.changed(state, i);
    for (const Victim& v : evicted) running_pods().restore(state, v);
    state.placed_pods.cut(request_mark_);
    out.deploy.clear_counts();
    out.preemptions.clear();
    out.status = RequestStatus::Rejected;
    out.placed = 0;
  }

  RunningPods& running_pods() {
    if (!pods_) pods_.emplace(state);
    return *pods_;
  }

  static Preemptor preemptor_of(const Request& request) {
    return Preemptor{request.priority, request.pod != nullptr && request.pod->preempt_never};
  }

  // The most the strategy places without preemption (< count); `first`: its run for count.
  std::int64_t placeable(const StrategyInput& input, const Request& request,
                         const StrategyResult& first) {
    const StrategyRow& row = strategy_row(request.strategy);
    if (!row.min_count || request.count <= 1) return 0;
    return most_placed(input, row.run, request.count - 1, &first);
  }

  // Places the first k instances as `first` (the run for count) did before failing.
  void place_first(const Request& request, RequestOutcome& out, const StrategyInput& input,
                   std::int64_t k, UndoLog* undo, const StrategyResult& first) {
    if (k <= 0) return;
    const InfoDeployMap deploy = first_placed(input, strategy_row(request.strategy).run, k, first);
    for (std::size_t j = 0; j < input.infos.size(); ++j) out.deploy[where_[j]] = deploy[j];
    assign_and_reserve(request, out, undo);
  }

  // One more instance on capacity.nodes[position], the node's next plan.
  void place_one(const Request& request, RequestOutcome& out, std::size_t position, UndoLog* undo) {
    const std::uint32_t node = out.capacity.nodes[position].node;
    const NodeCapacity nc = node_capacity(state, request, node, CapacityOptions{1, 1});
    cache.placing(state, request.app, node);
    reserve(state, node, request, 1,
            std::span<const Plan>(nc.plans.data(), std::min<std::size_t>(nc.plans.size(), 1)),
            undo);
    cache.changed(state, node);
    record_placed(request, node, 1);
    ++out.deploy[position];
  }

  // The kubernetes profile's filters for `request` over the plan as `out`
  // stands (its deploy so far); null for another profile or strategy, whose
  // filter is the capacity pass.
  std::unique_ptr<K8sPreemptionFilter> k8s_filter(const Request& request) {
    if (request.strategy != Strategy::Score ||
        request.scoring.profile != ScoringProfile::Kubernetes)
      return nullptr;
    return std::make_unique<K8sPreemptionFilter>(state, request);
  }

  // The filter a replica must pass, each check counted in k8s_steps_ (the
  // dry runs share the kubernetes profile's bound, whatever the profile).
  ReplicaFilter replica_filter(const Request& request, K8sPreemptionFilter* k8s) {
    if (k8s != nullptr)
      return [this, k8s](const Inventory& inv, std::uint32_t n, const DryRun* dry) {
        const std::int64_t cores = k8s->cores_planned(), volumes = volume_plan_steps();
        const double counts = k8s->count_steps();
        FilterVerdict verdict = (*k8s)(inv, n, dry);
        charge_check(k8s->cores_planned() - cores, k8s->count_steps() - counts, volumes);
        return verdict;
      };
    const auto capacity = std::make_shared<CapacityFilter>(request);
    return [this, capacity](const Inventory& inv, std::uint32_t n, const DryRun* dry) {
      const std::int64_t cores = capacity->cores_planned(), volumes = volume_plan_steps();
      FilterVerdict verdict = (*capacity)(inv, n, dry);
      charge_check(capacity->cores_planned() - cores, 0, volumes);
      return verdict;
    };
  }

  // A filter check of a dry run, in the kubernetes profile's steps: 250 to
  // 450 ns in a release build (the capacity pass on one node, the node's
  // copy, the profile's filters on counts), 150 steps of a few nanoseconds.
  static constexpr double kDryRunCheckSteps = 150;
  // A CPU-bind request's check that plans the node's cores (CapacityFilter)
  // sorts them: about 25 ns a core, 10 steps.
  static constexpr double kPlannedCoreSteps = 10;
  // --preempt's kubernetes run for one replica is mostly its setup: counted
  // 4 times (k8s_profile_too_large).
  static constexpr double kPickSetupWeight = 4;
  std::int64_t dry_run_checks_ = 0, cores_planned_ = 0;
  double dry_run_steps_ = 0;  // the checks' part of k8s_steps_

  // One check: its flat steps, its cores planned, its cross-node counts'
  // steps (K8sPreemptionFilter::count_steps), its volume plans' steps since
  // volume_plan_steps() was `volumes` (half a step each), budget matching since the last.
  void charge_check(std::int64_t cores, double count_steps, std::int64_t volumes) {
    const double steps = kDryRunCheckSteps + kPlannedCoreSteps * static_cast<double>(cores) +
                         count_steps + static_cast<double>(volume_plan_steps() - volumes) / 2 +
                         (pods_ ? pods_->take_budget_steps() : 0);
    k8s_steps_ += steps;
    dry_run_steps_ += steps;
    ++dry_run_checks_;
    cores_planned_ += cores;
  }

  // Past the bound the dry runs share with the kubernetes profile: what is
  // too large, in words (empty: within it).
  std::string preemption_too_large(const Request& request) const {
    if (k8s_steps_ <= static_cast<double>(kK8sProfileSteps)) return {};
    return dry_runs_too_large(
        request.app, {dry_run_checks_, cores_planned_, static_cast<std::int64_t>(dry_run_steps_),
                      kK8sProfileSteps, state.nodes.size(), state.pods.get().size()});
  }

  // Without --preempt: what preemption would do for the first instance that
  // fits nowhere, appended to the reason (the state is left as it was).
  void preemption_note(const Request& request, const StrategyInput& input, Placement& placement) {
    const char* const past = "preemption: not tried, the run's dry runs are past the work bound.";
    if (k8s_steps_ > static_cast<double>(kK8sProfileSteps))
      return placement.first.message.add_to_first_line(past);
    UndoLog local;
    RequestOutcome scratch;
    scratch.capacity = *input.capacity;
    scratch.deploy.assign(scratch.capacity.nodes.size(), 0);
    place_first(request, scratch, input, placeable(input, request, placement.first), &local,
                placement.first);
    std::vector<std::uint32_t> nodes;
    for (const NodeCapacity& nc : input.capacity->nodes) nodes.push_back(nc.node);
    // The kubernetes profile: every filter plugin runs again in the dry runs.
    const std::unique_ptr<K8sPreemptionFilter> k8s = k8s_filter(request);
    const PreemptionResult r = find_preemption(state, running_pods(), nodes, preemptor_of(request),
                                               options.pdbs, replica_filter(request, k8s.get()));
    const std::vector<std::uint32_t> touched = local.nodes();
    local.undo(state);
    for (const std::uint32_t i : touched) cache.changed(state, i);
    state.placed_pods.cut(request_mark_);
    NamedReason& message = placement.first.message;
    if (running_pods().budgets_past_bound())  // its budgets matched in part
      message.add_to_first_line(past);
    else if (r.chosen)
      message.notes.push_back(preemption_line(state, *r.chosen));
    else
      message.add_to_first_line(postfilter_sentence(request, r.message));
  }

  // One replica placed by preemption on `p.node`, the capacity's node at
  // `position`: its victims sorted most important first (priority down,
  // then name) and evicted, then the replica placed there.
  void place_by_preemption(const Request& request, RequestOutcome& out, std::size_t position,
                           Preemption p, K8sPreemptionFilter* k8s, UndoLog& local,
                           std::vector<Victim>& evicted) {
    std::sort(p.victims.begin(), p.victims.end(), [](const Victim& a, const Victim& b) {
      return a.priority != b.priority ? a.priority > b.priority : a.name < b.name;
    });
    for (const Victim& v : p.victims) {
      if (k8s) k8s->evicted(v);
      running_pods().evict(state, v, &local);
      cache.changed(state, v.node);
      evicted.push_back(v);
    }
    place_one(request, out, position, &local);
    if (k8s) k8s->placed(p.node);
    out.preemptions.push_back(std::move(p));
  }

  // --preempt: the instances the strategy places, then one at a time:
  // where the strategy puts it when some node passes, else by preemption.
  RequestOutcome preempting(const Request& request, UndoLog* undo, RequestOutcome out,
                            const StrategyInput& input, const Placement& placement) {
    if (over_bound_budget(out, request, request.count)) return out;
    UndoLog local;
    std::vector<Victim> evicted;
    out.deploy.assign(out.capacity.nodes.size(), 0);
    std::int64_t placed = placeable(input, request, placement.first);
    place_first(request, out, input, placed, &local, placement.first);
    std::vector<std::uint32_t> nodes;
    for (const NodeCapacity& nc : out.capacity.nodes) nodes.push_back(nc.node);
    const std::unique_ptr<K8sPreemptionFilter> k8s = k8s_filter(request);
    const ReplicaFilter filter = replica_filter(request, k8s.get());
    const Preemptor preemptor = preemptor_of(request);
    RunningPods& pods = running_pods();
    std::string why;
    // Each replica changes one node (its own, and its victims'): every other
    // node's verdict and victims are kept (no undo happens in this loop),
    // unless the filters look across nodes (spread, pod affinity).
    PreemptionCache answers;
    while (placed < request.count) {
      if (!options.preemption_cache || (k8s && k8s->cross_node())) answers = PreemptionCache{};
      std::size_t room = nodes.size();
      for (std::size_t p = 0; p < nodes.size() && room == nodes.size(); ++p)
        if (answers.verdict(state, nodes[p], filter).code == FilterCode::Fits) room = p;
      if (room < nodes.size()) {
        // Some node passes: the strategy picks among them, as the
        // scheduler's cycle scores the feasible nodes when no preemption
        // is needed.
        std::string too_large;
        const std::size_t at = strategy_pick(request, nodes, room, too_large);
        if (too_large.empty()) too_large = preemption_too_large(request);
        if (!too_large.empty()) {
          undo_evictions(local, evicted, out);
          mark_too_large(out, std::move(too_large));
          return out;
        }
        place_one(request, out, at, &local);
        if (k8s) k8s->placed(nodes[at]);
        ++placed;
        continue;
      }
      PreemptionResult r =
          find_preemption(state, pods, nodes, preemptor, options.pdbs, filter, &answers);
      if (std::string too_large = preemption_too_large(request); !too_large.empty()) {
        undo_evictions(local, evicted, out);
        if (mark_too_large(out, std::move(too_large))) return out;
      }
      if (!r.chosen) {
        why = postfilter_sentence(request, r.message);
        break;
      }
      const auto at = std::find(nodes.begin(), nodes.end(), r.chosen->node) - nodes.begin();
      place_by_preemption(request, out, static_cast<std::size_t>(at),
                          {placed + 1, r.chosen->node, std::move(r.chosen->victims)}, k8s.get(),
                          local, evicted);
      ++placed;
    }
    const bool min_ok = request.min_count > 0 && strategy_row(request.strategy).min_count &&
                        placed >= request.min_count;
    if (placed == request.count || min_ok) {
      out.status = placed == request.count ? RequestStatus::Placed : RequestStatus::Partial;
      out.placed = placed;
      // Partial: the reason is the FitError of the replica that neither fit
      // nor preempted, as for a rejected request (its count is in the status).
      if (out.status == RequestStatus::Partial) {
        out.reason = failing_replica_message(request, placed, placement.first.message);
        out.reason.first_line_only();
      }
      out.reason.add_to_first_line(why);
      keep_evictions(local, evicted, undo);
      return out;
    }
    out.reason = failing_replica_message(request, placed, placement.first.message);
    undo_evictions(local, evicted, out);
    out.reason.add_to_first_line(why);
    if (request.min_count > 0 && strategy_row(request.strategy).min_count) {
      out.reason.suffix = "; placed " + std::to_string(placed) + ", needs at least " +
                          std::to_string(request.min_count);
      out.placed_at_most = placed;
    }
    return out;
  }

  // --preempt, the kubernetes profile: the FitError of the replica that
  // neither fits nor preempts is that cycle's own, its filter part too (the
  // state as the replicas and evictions before it left it), after `placed`
  // replicas, not the first one the strategy could not place without
  // preemption (`before`, whose other lines are kept).
  NamedReason failing_replica_message(const Request& request, std::int64_t placed,
                                      const NamedReason& before) {
    if (request.strategy != Strategy::Score ||
        request.scoring.profile != ScoringProfile::Kubernetes)
      return before;
    CapacityMap map = cache.pass(state, request, capacity_options());
    std::vector<std::size_t> where;
    const std::vector<StrategyInfo> infos = strategy_infos(state, map, where);
    StrategyInput in{infos,  1,        map.total,    request.nodes_limit,
                     &state, &request, options.jobs, &map};
    NamedReason message = before;
    double steps = 0;
    if (!k8s_profile_too_large(in, k8s_steps_, kPickSetupWeight, &steps)) {
      k8s_steps_ += steps;
      const StrategyResult r = strategy_row(request.strategy).run(in);
      if (r.outcome == StrategyOutcome::Infeasible && !r.message.empty()) {
        // This cycle's line, how far placing got, and the notes of the
        // first failure (what preemption would do).
        message = NamedReason(r.message.subject, r.message.text);
        if (placed > 0) message.placed = k8s_placed_line(placed, request.count);
        message.notes = before.notes;
      }
    }
    cache.give_back(request, capacity_options(), std::move(map));
    return message;
  }

  // Where the strategy puts one more instance of `request` on the state as
  // it stands (its replicas and evictions so far): the position in `nodes`.
  // `room`, the first node by name that passes, when the strategy does not
  // place by total (fill, each) or places none. Past the kubernetes
  // profile's work bound, `too_large` says so.
  std::size_t strategy_pick(const Request& request, const std::vector<std::uint32_t>& nodes,
                            std::size_t room, std::string& too_large) {
    if (!strategy_row(request.strategy).min_count) return room;
    CapacityMap map = cache.pass(state, request, capacity_options());
    std::size_t at = room;
    std::vector<std::size_t> where;
    const std::vector<StrategyInfo> infos = strategy_infos(state, map, where);
    StrategyInput in{infos,  1,        map.total,    request.nodes_limit,
                     &state, &request, options.jobs, &map};
    std::optional<std::string> why;
    if (request.strategy == Strategy::Score &&
        request.scoring.profile == ScoringProfile::Kubernetes) {
      double steps = 0;
      why = k8s_profile_too_large(in, k8s_steps_, kPickSetupWeight, &steps);
      k8s_steps_ += steps;
    }
    if (why) {
      too_large = std::move(*why);
    } else if (const StrategyResult r = strategy_row(request.strategy).run(in);
               r.outcome == StrategyOutcome::Deployed) {
      for (std::size_t k = 0; k < r.deploy.size() && k < infos.size(); ++k)
        if (r.deploy[k] > 0) {
          const auto p = static_cast<std::size_t>(
              std::find(nodes.begin(), nodes.end(), infos[k].node) - nodes.begin());
          if (p < nodes.size()) at = p;
          break;
        }
    }
    cache.give_back(request, capacity_options(), std::move(map));  // the next replica's pass
    return at;
  }

  // --preempt for a DaemonSet: the controller pins each of its pods to one
  // node (node affinity on metadata.name), so kube-scheduler preempts for
  // it on that node alone, every other node being "not helpful". Each
  // eligible node without its pod gets one, where it fits or by evicting
  // lower-priority pods there; all or nothing (evictions come back when a
  // node cannot take it even so, named with Kubernetes' preemption words).
  RequestOutcome daemon_preempting(const Request& request, UndoLog* undo, RequestOutcome out) {
    const auto wanted = static_cast<std::int64_t>(out.capacity.nodes.size());
    if (over_bound_budget(out, request, wanted)) return out;
    UndoLog local;
    std::vector<Victim> evicted;
    out.deploy.assign(out.capacity.nodes.size(), 0);
    const std::unique_ptr<K8sPreemptionFilter> k8s = k8s_filter(request);
    const ReplicaFilter filter = replica_filter(request, k8s.get());
    const Preemptor preemptor = preemptor_of(request);
    RunningPods& pods = running_pods();
    std::string failed;
    std::size_t failures = 0;
    std::int64_t placed = 0;
    PreemptionCache kept;  // one for every node: each is asked about once, in its turn
    for (std::size_t p = 0; p < out.capacity.nodes.size(); ++p) {
      const NodeCapacity& nc = out.capacity.nodes[p];
      const bool room =
          k8s ? filter(state, nc.node, {}).code == FilterCode::Fits : nc.capacity != 0;
      if (room) {
        place_one(request, out, p, &local);
        if (k8s) k8s->placed(nc.node);
        ++placed;
        continue;
      }
      const std::uint32_t only[] = {nc.node};
      PreemptionResult r =
          find_preemption(state, pods, only, preemptor, options.pdbs, filter, &kept);
      if (std::string too_large = preemption_too_large(request); !too_large.empty()) {
        undo_evictions(local, evicted, out);
        if (mark_too_large(out, std::move(too_large))) return out;
      }
      if (!r.chosen) {
        append_message_node(failed, failures++, state.nodes[nc.node].name,
                            nc.reason() + "; " + r.message);
        continue;
      }
      place_by_preemption(request, out, p, {placed + 1, nc.node, std::move(r.chosen->victims)},
                          k8s.get(), local, evicted);
      ++placed;
    }
    if (failures == 0) {
      out.status = RequestStatus::Placed;
      out.placed = placed;
      keep_evictions(local, evicted, undo);
      return out;
    }
    undo_evictions(local, evicted, out);
    out.reason = daemon_preemption_reason(request.name, failures, wanted, failed);
    return out;
  }

  // Each new instance takes its node's next plan (SPEC §5); a node given more
  // instances than the plans listed gets exactly as many as it needs.
  void assign_and_reserve(const Request& request, RequestOutcome& out, UndoLog* undo) {
    for (std::size_t i = 0; i < out.capacity.nodes.size(); ++i) {
      const std::int64_t k = out.deploy[i];
      if (k <= 0) continue;
      NodeCapacity& nc = out.capacity.nodes[i];
      if (out.capacity.binds && nc.capacity != kUnlimited &&
          k > static_cast<std::int64_t>(nc.plans.size()))
        nc.plans = node_capacity(state, request, nc.node, CapacityOptions{k, 1}).plans;
      const std::size_t shared =
          nc.capacity == kUnlimited ? std::min<std::size_t>(nc.plans.size(), 1) : 0;
      const std::size_t taken =
          shared ? shared : std::min<std::size_t>(nc.plans.size(), static_cast<std::size_t>(k));
      cache.placing(state, request.app, nc.node);
      reserve(state, nc.node, request, k, std::span<const Plan>(nc.plans.data(), taken), undo);
      cache.changed(state, nc.node);
      record_placed(request, nc.node, k);
    }
  }

  // The order of SPEC §8.4: priority descending, then file order; a gang's
  // members behind its first one; with --atomic, one gang of all.
  std::vector<std::vector<std::size_t>> units() const {
    std::vector<std::size_t> order(requests.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return queue_less(requests[a], requests[b], options.queue_sort);
    });
    std::vector<std::vector<std::size_t>> out;
    if (options.atomic) {
      out.push_back(order);
      return out;
    }
    std::vector<bool> done(requests.size(), false);
    for (std::size_t i : order) {
      if (done[i]) continue;
      std::vector<std::size_t> unit;
      for (std::size_t j : order) {
        if (done[j] ||
            (j != i && (requests[i].group.empty() || requests[j].group != requests[i].group)))
          continue;
        unit.push_back(j);
        done[j] = true;
      }
      out.push_back(std::move(unit));
    }
    return out;
  }

  void run(const OutcomeSink& sink) {
    for (const std::vector<std::size_t>& unit : units()) {
      const bool gang = options.atomic || !requests[unit.front()].group.empty();
      unit_evicted_.clear();
      unit_mark_ = state.placed_pods.mark();
      UndoLog undo;
      std::vector<RequestOutcome> outs;
      std::size_t failed = unit.size();
      if (gang && !options.atomic && requests[unit.front()].group_min > 0) {
        const std::string why = plan_pod_group(unit, outs, undo);
        if (!why.empty()) reject_all(unit, outs, undo, why);
      } else {
        for (std::size_t m = 0; m < unit.size(); ++m) {
          outs.push_back(plan_one(requests[unit[m]], gang ? &undo : nullptr));
          if (gang && outs.back().status == RequestStatus::Rejected) {
            failed = m;
            break;
          }
        }
        if (failed < unit.size()) reject_gang(unit, failed, outs, undo);
      }
      for (std::size_t m = 0; m < outs.size(); ++m) {
        sink(unit[m], std::move(outs[m]));
        // A sink that rendered and left the map gives it back to the cache:
        // nodes the placement changed have new revisions and are redone.
        cache.give_back(requests[unit[m]], capacity_options(), std::move(outs[m].capacity));
      }
      if (too_large_) break;  // the run fails (exit 3): nothing more is planned
    }
    remove_evicted_pods(state);
  }

  // A pod group with a minimum (SPEC §17), as coscheduling places it: its
  // pods (running ones counting) fewer than the minimum are rejected before
  // any is tried (PreFilter); otherwise each member places as many of its
  // pods as it can, and the group stands when they and the running ones
  // reach the minimum, else nothing of it is placed. Returns why the group
  // is rejected, or empty.
  std::string plan_pod_group(const std::vector<std::size_t>& unit,
                             std::vector<RequestOutcome>& outs, UndoLog& undo) {
    const Request& head = requests[unit.front()];
    std::int64_t pods = head.group_running;
    for (const std::size_t i : unit)
      if (requests[i].satisfied.empty()) pods += requests[i].count;
    const std::string name = "group " + head.group + ": ";
    const std::string needs = ", needs at least " + std::to_string(head.group_min);
    if (pods < head.group_min) return name + std::to_string(pods) + " pods" + needs;
    std::int64_t placed = 0;
    for (const std::size_t i : unit) {
      Request member = requests[i];
      if (member.min_count == 0 && strategy_row(member.strategy).min_count) member.min_count = 1;
      outs.push_back(plan_one(member, &undo));
      if (outs.back().too_large) return outs.back().reason.full();  // the run fails (exit 3)
      placed += outs.back().placed;
    }
    if (placed + head.group_running >= head.group_min) return {};
    return name + std::to_string(placed + head.group_running) + " of " + std::to_string(pods) +
           " pods can run (" + std::to_string(head.group_running) + " running)" + needs;
  }

  void reject_gang(const std::vector<std::size_t>& unit, std::size_t failed,
                   std::vector<RequestOutcome>& outs, UndoLog& undo) {
    const Request& culprit = requests[unit[failed]];
    const RequestOutcome& why = outs[failed];
    std::string message =
        (options.atomic && requests[unit.front()].group.empty() ? std::string("--atomic")
                                                                : "group " + culprit.group) +
        ": " + culprit.name;
    if (culprit.min_count > 0 && strategy_row(culprit.strategy).min_count)
      message += " placed " + std::to_string(why.placed_at_most) + ", needs at least " +
                 std::to_string(culprit.min_count);
    else
      message += ": " + why.reason.full();
    reject_all(unit, outs, undo, message);
  }

  // Undoes the unit and rejects every member with `message`.
  void reject_all(const std::vector<std::size_t>& unit, std::vector<RequestOutcome>& outs,
                  UndoLog& undo, const std::string& message) {
    const std::vector<std::uint32_t> touched = undo.nodes();
    undo.undo(state);
    for (const std::uint32_t i : touched) cache.changed(state, i);
    for (const Victim& v : unit_evicted_) pods_->restore(state, v);
    unit_evicted_.clear();
    state.placed_pods.cut(unit_mark_);
    for (std::size_t m = 0; m < unit.size(); ++m) {
      if (m >= outs.size()) {
        RequestOutcome skipped;
        // Past a bound the run fails (exit 3): nothing more is shown.
        if (!too_large_) {
          skipped.capacity = cache.pass(state, requests[unit[m]],
                                        CapacityOptions{options.max_plans, options.jobs});
          over_listed(skipped);
        }
        skipped.deploy.assign(skipped.capacity.nodes.size(), 0);
        outs.push_back(std::move(skipped));
      }
      RequestOutcome& o = outs[m];
      o.status = RequestStatus::Rejected;
      o.placed = 0;
      o.deploy.clear_counts();
      if (!o.too_large) o.reason = NamedReason(message);  // what is too large, as it said
      o.preemptions.clear();
    }
  }
};

}  // namespace

void plan_requests(Inventory& state, const std::vector<Request>& requests,
                   const PlanOptions& options, const OutcomeSink& sink) {
  Planner(state, requests, options).run(sink);
}

std::vector<RequestOutcome> plan_requests(Inventory& state, const std::vector<Request>& requests,
                                          const PlanOptions& options) {
  std::vector<RequestOutcome> outcomes(requests.size());
  plan_requests(state, requests, options,
                [&](std::size_t i, RequestOutcome&& o) { outcomes[i] = std::move(o); });
  return outcomes;
}

}  // namespace eruplan
