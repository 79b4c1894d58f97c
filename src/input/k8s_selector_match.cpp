#include "k8s_selector_match.h"

#include <bit>

#include "case_work.h"
#include "model.h"

namespace eruplan {

namespace {

// A selector as text, equal for equal selectors (each string with its
// length first, so no two selectors read alike).
std::string key_of(const LabelSelector& s) {
  std::string key;
  auto put = [&key](const std::string& text) {
    key += std::to_string(text.size());
    key += ':';
    key += text;
  };
  for (const Requirement& r : s.requirements) {
    put(r.key);
    key += static_cast<char>('0' + static_cast<int>(r.op));
    key += std::to_string(r.values.size());
    for (const std::string& v : r.values) put(v);
  }
  return key;
}

// The answers kept at most (one byte per selector and label set): past
// it, the kept ones are dropped and matched again when met again.
constexpr std::size_t kMemoCells = std::size_t{1} << 22;

}  // namespace

PodSelectorMatch::PodSelectorMatch(const Inventory* inventory, const PodCensus* census) {
  if (inventory)
    for (const RunningPod& p : inventory->pods) running_.push_back(sets_.intern(p.labels));
  if (census) {
    for (const PodCensus::Pod& p : census->elsewhere) elsewhere_.push_back(sets_.intern(p.labels));
    for (const PodCensus::Pod& p : census->succeeded) succeeded_.push_back(sets_.intern(p.labels));
  }
  for (std::uint32_t i = 0; i < sets_.size(); ++i) {
    const auto width = static_cast<std::size_t>(std::bit_width(sets_[i].size()));
    if (width >= per_width_.size()) per_width_.resize(width + 1, 0);
    ++per_width_[width];
  }
}

const std::vector<char>* PodSelectorMatch::matches(const LabelSelector& s) {
  std::string key = key_of(s);
  if (auto it = memo_.find(key); it != memo_.end()) return &it->second;
  // Its steps over every label set: a set of L labels costs
  // s.match_steps(L), alike for every L of one bit width.
  double steps = 0;
  for (std::size_t w = 0; w < per_width_.size(); ++w)
    if (per_width_[w] > 0)
      steps += per_width_[w] * s.match_steps(w == 0 ? 0 : std::size_t{1} << (w - 1));
  ++selectors_;
  if (refused_ > 0 || steps_ + steps > kSelectorMatchSteps) {
    refused_ += steps;
    return nullptr;
  }
  steps_ += steps;
  std::vector<char> answers(sets_.size());
  for (std::uint32_t i = 0; i < sets_.size(); ++i) answers[i] = s.matches(sets_[i]) ? 1 : 0;
  if (memo_cells_ + answers.size() > kMemoCells) {
    memo_.clear();
    memo_cells_ = 0;
  }
  memo_cells_ += answers.size();
  return &memo_.emplace(std::move(key), std::move(answers)).first->second;
}

std::string PodSelectorMatch::take_too_large() {
  if (refused_ == 0 || said_) return {};
  said_ = true;
  return "too large: matching the workloads' selectors against the running pods' labels takes " +
         work_units(steps_ + refused_) + " steps (" + std::to_string(selectors_) +
         " distinct selectors over " + std::to_string(sets_.size()) +
         " distinct label sets), more than " + work_units(kSelectorMatchSteps) +
         "; give fewer workloads with selectors of their own, or fewer running pods (--pods) "
         "with labels of their own";
}

}  // namespace eruplan
