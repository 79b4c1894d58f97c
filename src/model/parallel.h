// The map half of SPEC §9's parallel map/reduce: fn(i) for i in [0, n) on
// `jobs` threads, each taking one contiguous range and writing only its own
// slots; the caller reduces in index order afterwards, so results never
// depend on the number of threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace eruplan {

// Below this many items per thread, starting threads costs more than it saves.
inline constexpr std::size_t kMinItemsPerJob = 256;

template <class Fn>
void parallel_for(std::size_t n, unsigned jobs, Fn&& fn) {
  const std::size_t threads =
      std::min<std::size_t>(std::max(jobs, 1u), std::max<std::size_t>(n / kMinItemsPerJob, 1));
  if (threads <= 1) {
    for (std::size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  const std::size_t chunk = (n + threads - 1) / threads;
  for (std::size_t t = 1; t < threads; ++t) {
    const std::size_t begin = t * chunk, end = std::min(n, begin + chunk);
    pool.emplace_back([&fn, begin, end] {
      for (std::size_t i = begin; i < end; ++i) fn(i);
    });
  }
  for (std::size_t i = 0; i < std::min(n, chunk); ++i) fn(i);
  for (std::thread& t : pool) t.join();
}

}  // namespace eruplan
