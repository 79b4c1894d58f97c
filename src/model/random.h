// A small documented pseudo-random generator for the choices eruplan makes
// at random but reproducibly: splitmix64 (Steele, Lea and Flood), one 64-bit
// state, and a Fisher-Yates shuffle drawing from it. The same seed gives the
// same sequence on every platform.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace eruplan {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  // The next 64-bit output; seed 0 starts 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4.
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

// Fisher-Yates: for i = n-1 down to 1, swap items i and next() mod (i + 1).
template <class T>
void shuffle(std::vector<T>& items, SplitMix64& random) {
  for (std::size_t i = items.size(); i-- > 1;) {
    const std::size_t j = static_cast<std::size_t>(random.next() % (i + 1));
    std::swap(items[i], items[j]);
  }
}

}  // namespace eruplan
