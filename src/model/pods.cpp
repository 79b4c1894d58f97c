#include "pods.h"

#include <algorithm>
#include <charconv>

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
