// The words of a request that cannot be placed (SPEC §8.4, §17): a
// DaemonSet's nodes without room, and what kube-scheduler's PostFilter
// plugins add to the filters' line.
#pragma once

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

// `sentence` appended to the first line of `message`, after a space.

}  // namespace eruplan
