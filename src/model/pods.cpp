#include "pods.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <functional>

namespace eruplan {

namespace {

// A label value as Kubernetes' Gt/Lt read it: a base-10 int64, else nothing.
std::optional<std::int64_t> integer(std::string_view text) {
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  if (text.empty()) return std::nullopt;
  const auto [p, ec] = std::from_chars(text.data() + (text[0] == '+' ? 1 : 0), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

bool contains(const std::vector<std::string>& values, const std::string& v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

}  // namespace

const std::string* find_label(const Labels& labels, std::string_view key) {
  auto it = std::lower_bound(labels.begin(), labels.end(), key,
                             [](const auto& l, std::string_view k) { return l.first < k; });
  return it != labels.end() && it->first == key ? &it->second : nullptr;
}

bool Requirement::matches_value(const std::string* value) const {
  switch (op) {
    case SelectorOp::In:
      return value && contains(values, *value);
    case SelectorOp::NotIn:
      return !value || !contains(values, *value);
    case SelectorOp::Exists:
      return value != nullptr;
    case SelectorOp::DoesNotExist:
      return value == nullptr;
    case SelectorOp::Gt:
    case SelectorOp::Lt: {
      if (!value || values.size() != 1) return false;
      const auto have = integer(*value), want = integer(values[0]);
      if (!have || !want) return false;
      return op == SelectorOp::Gt ? *have > *want : *have < *want;
    }
  }
  return false;
}

bool Requirement::matches(const Labels& labels) const {
  return matches_value(find_label(labels, key));
}

bool LabelSelector::matches(const Labels& labels) const {
  return std::all_of(requirements.begin(), requirements.end(),
                     [&](const Requirement& r) { return r.matches(labels); });
}

double LabelSelector::match_steps(std::size_t labels) const {
  const auto search = 1 + static_cast<double>(std::bit_width(labels));
  double steps = 1;
  for (const Requirement& r : requirements)
    steps += search * (1 + static_cast<double>(r.key.size() / 16)) +
             static_cast<double>(r.values.size());
  return steps;
}

namespace {

std::uint64_t hash_labels(const Labels& labels) {
  std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ labels.size();
  auto mix = [&h](std::string_view s) {
    h ^= std::hash<std::string_view>{}(s) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  };
  for (const auto& [key, value] : labels) {
    mix(key);
    mix(value);
  }
  return h;
}

}  // namespace

std::uint32_t LabelSets::intern(const Labels& labels) {
  if (2 * (first_.size() + 1) > by_hash_.size()) {
    std::vector<std::pair<std::uint64_t, std::uint32_t>> old(
        std::bit_ceil(std::max<std::size_t>(16, 4 * first_.size())));
    old.swap(by_hash_);
    const std::size_t mask = by_hash_.size() - 1;
    for (const auto& [h, id] : old) {
      if (id == 0) continue;
      std::size_t at = h & mask;
      while (by_hash_[at].second != 0) at = (at + 1) & mask;
      by_hash_[at] = {h, id};
    }
  }
  const std::uint64_t h = hash_labels(labels);
  const std::size_t mask = by_hash_.size() - 1;
  std::size_t at = h & mask;
  for (; by_hash_[at].second != 0; at = (at + 1) & mask)
    if (by_hash_[at].first == h && *first_[by_hash_[at].second - 1] == labels)
      return by_hash_[at].second - 1;
  first_.push_back(&labels);
  by_hash_[at] = {h, static_cast<std::uint32_t>(first_.size())};
  return static_cast<std::uint32_t>(first_.size() - 1);
}

bool NodeSelectorTerm::matches(const Labels& node_labels, std::string_view node_name) const {
  if (expressions.empty() && fields.empty()) return false;
  for (const Requirement& r : expressions)
    if (!r.matches(node_labels)) return false;
  const std::string name(node_name);
  for (const Requirement& r : fields)
    if (!r.matches_value(r.key == "metadata.name" ? &name : nullptr)) return false;
  return true;
}

}  // namespace eruplan
