// The document tree (doc_tree.h): scalar text, aliases, positions.
#include "doc_tree.h"

#include <algorithm>
#include <cstring>

namespace eruplan {

std::string_view Doc::alias_of(ValueId id) const {
  for (const auto& [value, name] : aliased_)
    if (value == id) return name;
  return {};
}

ValueId Doc::find(ValueId object, std::string_view key_name) const {
  if (object == kNoValue || values_[object].kind != ValueKind::Object) return kNoValue;
  for (std::uint32_t i = 0; i < size(object); ++i)
    if (text(key(object, i)) == key_name) return member(object, i);
  return kNoValue;
}

bool Doc::focus(std::string_view name) {
  const ValueId v = find(root_, name);
  if (v == kNoValue) return false;
  root_ = v;
  return true;
}

std::pair<std::uint32_t, std::uint32_t> Doc::line_col(std::uint32_t pos) const {
  if (line_starts_.empty()) {
    line_starts_.push_back(0);
    const char* begin = source_.data();
    const char* end = begin + source_.size();
    for (const char* p = begin; (p = static_cast<const char*>(std::memchr(p, '\n', end - p)));)
      line_starts_.push_back(static_cast<std::uint32_t>(++p - begin));
  }
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), pos);
  const auto line = static_cast<std::uint32_t>(it - line_starts_.begin());
  const std::uint32_t col = pos - *(it - 1) + 1;
  return {line + first_line_ - 1, line == 1 ? col + first_col_ - 1 : col};
}

void Doc::reset(std::string_view source, std::uint32_t line, std::uint32_t col) {
  source_ = source;
  values_.clear();
  slots_.clear();
  arena_.clear();
  aliased_.clear();
  line_starts_.clear();
  root_ = kNoValue;
  first_line_ = line;
  first_col_ = col;
}

}  // namespace eruplan
