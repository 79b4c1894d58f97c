// The words of a request that cannot be placed (SPEC §8.4, §17): a
// DaemonSet's nodes without room, and what kube-scheduler's PostFilter
// plugins add to the filters' line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "capacity.h"
#include "model.h"
#include "named_reason.h"

namespace eruplan {

// A DaemonSet that cannot place its pods: the nodes that need one and have
// no room, with why; like a failure's per-node reasons, at most
// kMessageNodes of them, then "; and N more nodes".
inline constexpr std::size_t kMessageNodes = 100;
std::string daemon_message(const Inventory& state, const Request& request, const CapacityMap& map);

// Adds "name (why)", the `listed`-th node of a message's list (from 0), to
// `list`, "; " between entries, when fewer than kMessageNodes came before it.
void append_message_node(std::string& list, std::size_t listed, const std::string& name,
                         const std::string& why);

// "; and N more nodes" when `listed` nodes went past kMessageNodes, else "".
std::string more_message_nodes(std::size_t listed);

// A DaemonSet whose pods even preemption cannot place on `failures` of its
// `wanted` nodes, `failed` listing them (append_message_node).
NamedReason daemon_preemption_reason(const std::string& name, std::size_t failures,
                                     std::int64_t wanted, const std::string& failed);

// The requests placing their apps on `entries` app-and-node pairs, past
// `bound` (PlanOptions::max_app_entries).
std::string app_entries_too_large(std::int64_t entries, std::int64_t bound);

// Counts the nodes a request's `map` lists (only those with capacity 0 when
// `zero_only`: a table hides the others; twice with --explain, which adds a
// line for each) in `listed`, the run's documents kept whole until the end;
// past `bound` (kUnlimited: no bound), the too-large message, else "".
std::string count_listed_nodes(std::int64_t& listed, const CapacityMap& map, bool explain,
                               bool zero_only, std::int64_t bound);

// What the PostFilter plugins say after the filters' "0/N nodes are
// available: ..." for `request`, given DefaultPreemption's `preemption`
// sentence (empty: nothing).
std::string postfilter_sentence(const Request& request, const std::string& preemption);

// The work of --preempt's dry runs for `app` past the bound they share with
// the kubernetes profile (`bound` steps), in words: the checks of the filters,
// the cores planned for them and the steps they counted.
struct DryRunWork {
  std::int64_t checks = 0, cores = 0, steps = 0, bound = 0;
  std::size_t nodes = 0, pods = 0;
};
std::string dry_runs_too_large(const std::string& app, const DryRunWork& work);

// `sentence` appended to the first line of `message`, after a space.

}  // namespace eruplan
