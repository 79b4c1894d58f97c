// An enumeration's names as eruplan's inputs and outputs spell them: one
// table per enumeration, next to it in its header, that the writers, the
// readers, the JSON Schema and the command line's choices all read, so a
// name is written once.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eruplan {

template <class E>
struct Named {
  E value;
  std::string_view name;
};

// The name of `value` (empty when the table lacks it).
template <class E, std::size_t N>
constexpr std::string_view name_of(const Named<E> (&table)[N], E value) {
  for (const Named<E>& row : table)
    if (row.value == value) return row.name;
  return {};
}

// The value named `name` among the first `first` rows (all by default).
template <class E, std::size_t N>
constexpr std::optional<E> value_of(const Named<E> (&table)[N], std::string_view name,
                                    std::size_t first = N) {
  for (std::size_t i = 0; i < first && i < N; ++i)
    if (table[i].name == name) return table[i].value;
  return std::nullopt;
}

// Every name, in the table's order.
template <class E, std::size_t N>
std::vector<std::string> names_of(const Named<E> (&table)[N]) {
  std::vector<std::string> out;
  out.reserve(N);
  for (const Named<E>& row : table) out.emplace_back(row.name);
  return out;
}

// "a, b or c".
inline std::string either_text(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

// The first `first` names (all by default), "a, b or c".
template <class E, std::size_t N>
std::string names_text(const Named<E> (&table)[N], std::size_t first = N) {
  std::vector<std::string> names = names_of(table);
  if (first < N) names.resize(first);
  return either_text(names);
}

}  // namespace eruplan
