// The score strategy's parts (SPEC §9), for strategy_score.cpp and its tests:
// a node's resources as the scorers see them, and the scores of one node.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model.h"
#include "strategy.h"

namespace eruplan {

// One entry of scoring.resources on one node: the node's total of it (0 =
// skipped), what is used, and what each new instance of the request adds.
// CPU in nanocores, sizes in bytes, extended resources as counted.
struct ScoredResource {
  std::int64_t alloc = 0;
  std::int64_t used = 0;
  std::int64_t per_instance = 0;
  std::int64_t weight = 1;
};

// The node's scoring.resources, in list order (SPEC §9: cpu is its CPU of
// §8.1 and usage.cpu; a name the node lacks has alloc 0).
std::vector<ScoredResource> scored_resources(const Node& node, const Request& request);

// fit, balanced and total of the node's (k+1)-th new instance: k new ones
// are already there. fit_score: the fit alone.
std::int64_t fit_score(std::span<const ScoredResource> resources, const Scoring& scoring,
                       std::int64_t k);
NodeScore score_node(std::span<const ScoredResource> resources, const Scoring& scoring,
                     std::int64_t k);

// "0/5 nodes are available: 1 Insufficient memory, 2 Insufficient cpu." for
// kinds of SPEC §8.5 counted per node: Kubernetes' words for each kind,
// "count words" parts sorted as strings.
// Kubernetes inputs (`kubernetes_input`) say ephemeral-storage for storage.
std::string unavailable_summary(std::size_t nodes,
                                const std::vector<std::pair<std::string, std::int64_t>>& kinds,
                                bool kubernetes_input = false);
// Kubernetes' words for a reason kind of SPEC §8.5 ("Insufficient cpu").
std::string kubernetes_words(const std::string& kind, bool kubernetes_input);
// The kinds that stop instance cap + 1 on a node (inventory index) that took
// `cap`: with bindings, reserve the cap instances on a copy of the node and
// ask the capacity pass, as the next instance would; else dimension by
// dimension.
std::vector<std::string> kinds_when_full(const Inventory& inventory, const Request& request,
                                         std::uint32_t index, std::int64_t cap);

// The strategy (table row "score").
// Bounded work: where a node's score may change with every instance (more
// than two resources scored, or two whose fractions move almost alike),
// score places them one at a time, each recomputing the node's score: at
// most kScoreSteps steps (one per scored resource and one more each time,
// about half a second), else too large (StrategyResult::too_large).
inline constexpr std::int64_t kScoreSteps = 20'000'000;
StrategyResult score_strategy(const StrategyInput& input);

}  // namespace eruplan
