// The best node of one share shape (SPEC §10): every candidate node's fit
// score as one byte by rank (name order), 0 = not a candidate and 1 + score
// otherwise, under a tree of block maxima, 64 entries to a block. The best
// node is the smallest rank holding the largest byte.
//
// Setting one rank rescans its block and, while the block's maximum moves,
// the blocks above it: O(64 x log_64 n) byte operations, on a few cache
// lines, whatever else is stored. Finding the best walks down from the top
// block the same way. Memory is n x (1 + 1/63) bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace eruplan {

class ScoreIndex {
 public:
  ScoreIndex() = default;
  // Ranks 0 .. values.size() - 1 with these bytes.
  explicit ScoreIndex(std::vector<std::uint8_t> values);

  std::uint8_t get(std::uint32_t rank) const { return level_[0][rank]; }
  void set(std::uint32_t rank, std::uint8_t value);
  // The smallest rank holding the largest byte; none when every byte is 0.
  std::optional<std::uint32_t> best() const;
  std::size_t bytes() const;

 private:
  // level_[k + 1][j] is the largest of level_[k][64 j .. 64 j + 63]; each
  // level is padded with zeros to whole blocks; the last one is one block.
  std::vector<std::vector<std::uint8_t>> level_;
};

}  // namespace eruplan
