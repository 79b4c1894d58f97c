// The running pods as the manifests' selectors read them at load (the pods
// a workload already runs, its instances per node, the namespace warning):
// pods with equal labels are one label set, and each distinct selector is
// matched once per label set, its answers kept for every manifest that has
// it. The matching is counted: past kSelectorMatchSteps the load reports
// what is too large.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kubernetes.h"
#include "pods.h"

namespace eruplan {

// Steps of matching selectors against label sets one load may take (a
// step is a few nanoseconds; LabelSelector::match_steps counts them).
inline constexpr double kSelectorMatchSteps = 200'000'000;

class PodSelectorMatch {
 public:
  PodSelectorMatch(const Inventory* inventory, const PodCensus* census);
  // Per label set, whether `s` matches it; null once matching `s` would
  // pass kSelectorMatchSteps (too_large() then says so).
  const std::vector<char>* matches(const LabelSelector& s);
  // The label sets of inventory->pods, census->elsewhere, census->succeeded.
  const std::vector<std::uint32_t>& running() const { return running_; }
  const std::vector<std::uint32_t>& elsewhere() const { return elsewhere_; }
  const std::vector<std::uint32_t>& succeeded() const { return succeeded_; }
  // The error past the bound, in words, once: empty within it and after.
  std::string take_too_large();

 private:
  LabelSets sets_;
  std::vector<std::uint32_t> running_, elsewhere_, succeeded_;
  std::vector<double> per_width_;  // label sets by std::bit_width of their label count
  double steps_ = 0, refused_ = 0;
  std::size_t selectors_ = 0;
  std::map<std::string, std::vector<char>> memo_;  // by the selector's text (key_of)
  std::size_t memo_cells_ = 0;
  bool said_ = false;
};

}  // namespace eruplan
