// Binary search over counts, for the searches that find where a monotone
// test first holds (share's next level, score's sign change, grow's
// smallest fleet).
#pragma once

#include <cstdint>

namespace eruplan {

// The first n in (lo, hi] where holds(n), hi when none before it: holds must
// be false up to some point and true from there on, and is taken to hold at
// hi (it is never called there) and not at lo.
template <class Holds>
std::int64_t first_true(std::int64_t lo, std::int64_t hi, const Holds& holds) {
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (holds(mid))
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

}  // namespace eruplan
