// The order several requests are planned in (SPEC §8.4, §17): priority
// descending, then as --queue-sort says, then file order.
#pragma once

#include "requests.h"

namespace eruplan {

// Whether `a` goes before `b` in the queue (equal: file order decides).
bool queue_less(const Request& a, const Request& b, QueueSort sort);

}  // namespace eruplan
