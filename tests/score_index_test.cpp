// ScoreIndex (the best node of a share shape) against a scan of every byte,
// on random sizes and random updates.
#include "score_index.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <optional>
#include <vector>

using namespace eruplan;

namespace {

std::optional<std::uint32_t> scan(const std::vector<std::uint8_t>& v) {
  std::optional<std::uint32_t> best;
  for (std::uint32_t r = 0; r < v.size(); ++r)
    if (v[r] > 0 && (!best || v[r] > v[*best])) best = r;
  return best;
}

struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return s >> 33;
  }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
};

}  // namespace

TEST_CASE("score index: the smallest rank of the largest byte, none when all are 0") {
  ScoreIndex empty(std::vector<std::uint8_t>(5000, 0));
  CHECK(!empty.best());
  std::vector<std::uint8_t> v(5000, 0);
  v[4999] = 3;
  v[70] = 3;
  v[10] = 2;
  ScoreIndex index(v);
  CHECK(index.best() == 70u);
  index.set(70, 1);
  CHECK(index.best() == 4999u);
  index.set(4095, 3);  // the first rank of the second top-level block
  CHECK(index.best() == 4095u);
  index.set(4095, 0);
  index.set(4999, 0);
  CHECK(index.best() == 10u);
  CHECK(index.get(70) == 1);
  // 5000 ranks: 5056 bytes, 79 block maxima padded to 128, then one block of 64.
  CHECK(index.bytes() == 5056 + 128 + 64);
}

TEST_CASE("score index: random updates agree with a scan") {
  Rng rng{7};
  for (const std::uint32_t n : {1u, 63u, 64u, 65u, 4095u, 4096u, 4097u, 270'000u}) {
    CAPTURE(n);
    std::vector<std::uint8_t> v(n);
    for (auto& b : v) b = static_cast<std::uint8_t>(rng.below(4) == 0 ? 0 : rng.below(102));
    ScoreIndex index(v);
    CHECK(index.best() == scan(v));
    // Narrow values: many ties, and maxima that fall and rise.
    for (int step = 0; step < 3000; ++step) {
      const std::uint32_t r = rng.below(n);
      const auto b = static_cast<std::uint8_t>(rng.below(3) == 0 ? 0 : 95 + rng.below(7));
      v[r] = b;
      index.set(r, b);
      REQUIRE(index.best() == scan(v));
      REQUIRE(index.get(r) == b);
    }
  }
}
