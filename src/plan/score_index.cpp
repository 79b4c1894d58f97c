#include "score_index.h"

#include <algorithm>
#include <cstring>

namespace eruplan {

namespace {

constexpr std::size_t kBlock = 64;

std::size_t whole_blocks(std::size_t n) { return (n + kBlock - 1) / kBlock * kBlock; }

std::uint8_t block_max(const std::uint8_t* p) {
  std::uint8_t m = 0;
  for (std::size_t i = 0; i < kBlock; ++i) m = p[i] > m ? p[i] : m;  // vectorises
  return m;
}

std::size_t first_of(const std::uint8_t* p, std::uint8_t value) {
  return static_cast<std::size_t>(static_cast<const std::uint8_t*>(std::memchr(p, value, kBlock)) -
                                  p);
}

}  // namespace

ScoreIndex::ScoreIndex(std::vector<std::uint8_t> values) {
  values.resize(whole_blocks(std::max<std::size_t>(values.size(), 1)), 0);
  level_.push_back(std::move(values));
  while (level_.back().size() > kBlock) {
    const std::vector<std::uint8_t>& below = level_.back();
    std::vector<std::uint8_t> up(whole_blocks(below.size() / kBlock), 0);
    for (std::size_t j = 0; j < below.size() / kBlock; ++j) up[j] = block_max(&below[j * kBlock]);
    level_.push_back(std::move(up));
  }
}

void ScoreIndex::set(std::uint32_t rank, std::uint8_t value) {
  std::size_t at = rank;
  std::uint8_t old = level_[0][at];
  if (old == value) return;
  level_[0][at] = value;
  for (std::size_t k = 0; k + 1 < level_.size(); ++k) {
    std::uint8_t& parent = level_[k + 1][at / kBlock];
    // The block's maximum: the new byte when it is at least the old maximum;
    // unchanged unless the byte lowered was the maximum; else rescan.
    const std::uint8_t now = value >= parent ? value
                             : old == parent ? block_max(&level_[k][at / kBlock * kBlock])
                                             : parent;
    if (now == parent) return;
    old = parent;
    parent = now;
    value = now;
    at /= kBlock;
  }
}

std::optional<std::uint32_t> ScoreIndex::best() const {
  const std::uint8_t top = block_max(level_.back().data());
  if (top == 0) return std::nullopt;
  std::size_t at = first_of(level_.back().data(), top);
  for (std::size_t k = level_.size() - 1; k-- > 0;)
    at = at * kBlock + first_of(&level_[k][at * kBlock], top);
  return static_cast<std::uint32_t>(at);
}

std::size_t ScoreIndex::bytes() const {
  std::size_t n = 0;
  for (const std::vector<std::uint8_t>& l : level_) n += l.size();
  return n;
}

}  // namespace eruplan
