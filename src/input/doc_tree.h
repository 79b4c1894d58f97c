// The loader's document tree: JSON or YAML text becomes one flat arena of
// values with source positions, so any problem can be reported as
// file:line:col plus a field path. Scalars keep their text as written: the
// schema decides what a value means (a size, a CPU amount, a count) and
// checks range, integrality and overflow on the exact literal.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace eruplan {

// a == b without a call to memcmp: keys are matched against field names in
// the inner loops of every reader, where the sizes mostly differ and, when
// they do not, the first bytes mostly do (std::string_view's == calls
// memcmp each time the sizes agree: 5% of reading a large pod list).
inline bool same_text(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

enum class ValueKind : std::uint8_t { Null, Bool, Number, String, Array, Object };

using ValueId = std::uint32_t;
inline constexpr ValueId kNoValue = UINT32_MAX;

class Doc {
 public:
  struct Value {
    std::uint32_t pos = 0;  // byte offset of the value's first character in the source
    std::uint32_t a = 0;    // scalar: text offset; container: first slot
    std::uint32_t b = 0;    // scalar: text length; container: elements, or members of an object
    ValueKind kind = ValueKind::Null;
    bool plain = false;  // YAML unquoted scalar (kind String): the schema types it
    bool owned = false;  // text lives in the doc's arena, not in the source
    bool flag = false;   // the value of a Bool
  };

  // `source` must outlive the Doc: scalar text points into it.
  explicit Doc(std::string_view source) : source_(source) {}

  ValueId root() const { return root_; }
  const Value& operator[](ValueId id) const { return values_[id]; }
  std::string_view text(ValueId id) const;
  std::uint32_t size(ValueId id) const { return values_[id].b; }
  ValueId element(ValueId array, std::uint32_t i) const { return slots_[values_[array].a + i]; }
  ValueId key(ValueId object, std::uint32_t i) const { return slots_[values_[object].a + 2 * i]; }
  ValueId member(ValueId object, std::uint32_t i) const {
    return slots_[values_[object].a + 2 * i + 1];
  }
  bool is_scalar(ValueId id) const;
  // The first member named `key` of the mapping `object` (byte-equal), or
  // kNoValue when `object` is absent, no mapping, or has none so named.
  ValueId find(ValueId object, std::string_view key) const;
  std::string_view source() const { return source_; }
  // "*name" when `id` is a YAML anchored value that an alias uses again,
  // else empty: messages about expanded aliases name the alias.
  std::string_view alias_of(ValueId id) const;

  // Makes the value of the top-level mapping's member `name` the root (an
  // inline input of a fixture case); false when there is no such member.
  bool focus(std::string_view name);

  // 1-based line and column (in bytes) of a byte offset; computed on demand.
  std::pair<std::uint32_t, std::uint32_t> line_col(std::uint32_t pos) const;

  // For a piece of a larger file parsed on its own (a pod list read a piece
  // at a time): empties the tree, keeping its memory, to view `source`,
  // which starts at `line`:`col` of the file, so that positions stay the
  // file's.
  void reset(std::string_view source, std::uint32_t line, std::uint32_t col);
  void set_source(std::string_view source) { source_ = source; }

 private:
  friend class JsonBuilder;  // json_reader.cpp
  friend class YamlBuilder;  // yaml_reader.cpp
  friend class Reader;

  std::string_view source_;
  std::vector<Value> values_;
  std::vector<ValueId> slots_;  // array elements; object members as key, value pairs
  std::string arena_;           // unescaped strings and YAML scalars
  std::vector<std::pair<ValueId, std::string>> aliased_;  // (value, "*name"), first use of each
  ValueId root_ = kNoValue;
  mutable std::vector<std::uint32_t> line_starts_;
  std::uint32_t first_line_ = 1, first_col_ = 1;  // where source_ starts in its file
};

// Inline: the readers call these for every key they match.
inline std::string_view Doc::text(ValueId id) const {
  const Value& v = values_[id];
  if (v.kind == ValueKind::Array || v.kind == ValueKind::Object) return {};
  return v.owned ? std::string_view(arena_).substr(v.a, v.b) : source_.substr(v.a, v.b);
}

inline bool Doc::is_scalar(ValueId id) const {
  const ValueKind k = values_[id].kind;
  return k == ValueKind::Bool || k == ValueKind::Number || k == ValueKind::String;
}

}  // namespace eruplan
