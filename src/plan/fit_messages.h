// The words of a request that cannot be placed (SPEC §8.4, §17): a
// DaemonSet's nodes without room, and what kube-scheduler's PostFilter
// plugins add to the filters' line.
#pragma once

#include <cstdint>
#include <string>

#include "capacity.h"
#include "model.h"

namespace eruplan {

// A DaemonSet that cannot place its pods: every node that needs one and has
// no room, with why.
std::string daemon_message(const Inventory& state, const Request& request, const CapacityMap& map);

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
