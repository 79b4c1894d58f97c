// Typed reading of a document tree (doc_tree.h): every value read with its
// field path and position, every problem reported to Diagnostics.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.h"
#include "doc_tree.h"
#include "model.h"

namespace eruplan {

// One field of a schema table (request_fields.h, eruplan_fields.h,
// kubernetes_fields.h): a field is described once, and its name serves the
// file reader's known fields and the man page's check (tests/fields_test);
// a request field's flag, the flag's --help and the fixture runner's options.
enum class FieldKind : std::uint8_t {
  Text,      // a string
  Integer,   // a whole number
  Quantity,  // a size or CPU amount, as written
  Bool,
  List,    // a list of strings (the flag is repeated)
  Labels,  // a mapping of strings (the flag takes k=v, repeated)
  Block,   // a mapping (or a list of them) read by its own table or code
};

struct FieldSpec {
  std::string_view name;  // as written in the file
  FieldKind kind;
  std::string_view flag;  // the option it stands for (a request flag replaces it); or empty
  std::string_view help;  // one line: what it holds
  // A Block field that is a mapping of known fields: their table, so a key
  // of it given one level too high is pointed to where it belongs.
  std::span<const FieldSpec> inner = {};

  // A table reads as a list of fields: FieldSpec::text("name", "help").
  static constexpr FieldSpec text(std::string_view name, std::string_view help) {
    return {name, FieldKind::Text, "", help};
  }
  static constexpr FieldSpec integer(std::string_view name, std::string_view help) {
    return {name, FieldKind::Integer, "", help};
  }
  static constexpr FieldSpec quantity(std::string_view name, std::string_view help) {
    return {name, FieldKind::Quantity, "", help};
  }
  static constexpr FieldSpec boolean(std::string_view name, std::string_view help) {
    return {name, FieldKind::Bool, "", help};
  }
  static constexpr FieldSpec list(std::string_view name, std::string_view help) {
    return {name, FieldKind::List, "", help};
  }
  static constexpr FieldSpec labels(std::string_view name, std::string_view help) {
    return {name, FieldKind::Labels, "", help};
  }
  static constexpr FieldSpec block(std::string_view name, std::string_view help,
                                   std::span<const FieldSpec> inner = {}) {
    return {name, FieldKind::Block, "", help, inner};
  }
  // The option it stands for.
  constexpr FieldSpec with_flag(std::string_view option) const {
    FieldSpec f = *this;
    f.flag = option;
    return f;
  }
};

// The schema rows of a table of bound rows (each with its FieldSpec
// `spec`: request_fields.h, eruplan_fields.h's realloc deltas), for Reader::fields and the
// docs.
template <class Row, std::size_t N>
constexpr std::array<FieldSpec, N> specs_of(const std::array<Row, N>& rows) {
  std::array<FieldSpec, N> out{};
  for (std::size_t i = 0; i < N; ++i) out[i] = rows[i].spec;
  return out;
}

// The row of `table` named `name`, found at compile time: a name the table
// lacks does not compile (the throw is no constant expression).
template <std::size_t N>
consteval std::size_t field_index(const std::array<FieldSpec, N>& table, std::string_view name) {
  for (std::size_t i = 0; i < N; ++i)
    if (table[i].name == name) return i;
  throw "no field of that name in the table";
}

template <std::size_t N>
consteval bool has_field(const std::array<FieldSpec, N>& table, std::string_view name) {
  for (std::size_t i = 0; i < N; ++i)
    if (table[i].name == name) return true;
  return false;
}

// A field of `Table` named by a string literal, checked when compiled.
template <const auto& Table>
struct FieldOf {
  std::size_t index;
  consteval FieldOf(const char* name) : index(field_index(Table, name)) {}  // NOLINT: implicit
};

// The values Reader::fields picks out of one mapping for the schema table
// `Table` (*_fields.h), by field name: `f["cpu"]` is the member named cpu,
// or kNoValue. The name is looked up when compiled, so reading a field
// costs an array index and a misspelt name is a compile error.
template <const auto& Table>
class Picked {
 public:
  ValueId operator[](FieldOf<Table> f) const { return values_[f.index]; }
  ValueId& operator[](FieldOf<Table> f) { return values_[f.index]; }
  ValueId* data() { return values_.data(); }
  const ValueId* data() const { return values_.data(); }
  void fill(ValueId v) { values_.fill(v); }

 private:
  std::array<ValueId, Table.size()> values_{};
};

// A field path as a chain of stack frames; rendered only when a diagnostic
// needs it, so the fast path builds no strings.
struct FieldPath {
  const FieldPath* parent = nullptr;
  std::string_view key;     // ".key"
  std::int64_t index = -1;  // "[index]" when >= 0

  FieldPath child(std::string_view k) const { return {this, k, -1}; }
  FieldPath at(std::int64_t i) const { return {this, {}, i}; }
  std::string str() const;  // "nodes[3].usage.memory"
};

// Reads typed values out of a Doc, reporting each problem with its origin.
// Every read returns nullopt (or false) after reporting, so callers go on and
// collect every problem.
//
// Reading is bounded: a YAML alias is one value in the tree but is read (and
// copied into the model) at every place it is used, so a small file could
// expand without limit. Every list or mapping read is charged for its entries,
// roughly in bytes of model it makes, against a budget proportional to the
// source (kReadBudgetPerByte per byte, at least kMinReadBudget). The read
// that crosses it reports one error naming the field (and the alias); from
// then on every read fails quietly and no further problem is reported.
class Reader {
 public:
  static constexpr std::uint64_t kEntryCost = 64;  // a member or element read
  static constexpr std::uint64_t kReadBudgetPerByte = 100;
  static constexpr std::uint64_t kMinReadBudget = 1ull << 20;  // a 1 KB file: 1 MiB

  Reader(const Doc& doc, std::string file, Diagnostics& diags)
      : doc_(doc),
        file_(std::move(file)),
        diags_(diags),
        budget_(budget_for(doc.source().size())) {}

  // What reading a document of `bytes` source bytes may cost in all.
  static std::uint64_t budget_for(std::size_t bytes) {
    return std::max<std::uint64_t>(kMinReadBudget, kReadBudgetPerByte * bytes);
  }

  const Doc& doc() const { return doc_; }
  Origin origin(const FieldPath& path, ValueId v) const;
  void error(const FieldPath& path, ValueId v, std::string message);
  const std::string& file() const { return file_; }
  void warning(const FieldPath& path, ValueId v, std::string message);
  // "unknown field, ignored; ...": an error unless --lenient (Diagnostics).
  void unknown_field(const FieldPath& path, ValueId v, std::string message);
  // How a value looks in a message: true, 12, "abc", a list, a mapping.
  std::string describe(ValueId v) const;

  bool is_object(const FieldPath& path, ValueId v);  // else reports "expected a mapping"
  bool is_array(const FieldPath& path, ValueId v);
  std::string where(ValueId v) const;  // "line 3:5", for naming a second place in a message

  struct Entry {
    std::string_view key;
    ValueId key_id;
    ValueId value;
  };
  // The members of a mapping in document order; none (after an error) when
  // `object` is not a mapping.
  std::vector<Entry> members(const FieldPath& path, ValueId object);
  // Sorts by key and reports keys given twice (adjacent once sorted); the
  // later ones are dropped.
  void sort_unique(const FieldPath& path, std::vector<Entry>& list,
                   bool (*less)(std::string_view, std::string_view));

  // Picks the known fields of a schema table (*_fields.h) out of an object:
  // values[i] is the member named table[i].name, or kNoValue. Unknown ones
  // get a warning (with a "did you mean" or the known fields) and a known one
  // given twice an error. A field whose value is null is absent (SPEC §12).
  bool fields(const FieldPath& path, ValueId object, std::span<const FieldSpec> table,
              ValueId* values);

  // fn(at, item, f) for each element `item` (at `at`) of the list `list`
  // at `path` that is a mapping, with its fields of `kTable` picked: the
  // loop of every list of objects.
  template <const auto& kTable, class Fn>
  void each_object(const FieldPath& path, ValueId list, Fn&& fn) {
    const std::uint32_t n = doc_.size(list);
    for (std::uint32_t i = 0; i < n; ++i) {
      const FieldPath at = path.at(i);
      const ValueId item = doc_.element(list, i);
      Picked<kTable> f;
      if (fields(at, item, kTable, f.data())) fn(at, item, f);
    }
  }

  // The string field `name` of the mapping `object` at `path`, its value `v`
  // (picked by fields()); when absent, reports `missing` at the mapping.
  std::optional<std::string_view> required_string(const FieldPath& path, ValueId object,
                                                  std::string_view name, ValueId v,
                                                  std::string_view missing);

  std::optional<std::int64_t> integer(const FieldPath& path, ValueId v, std::int64_t min,
                                      std::int64_t max = INT64_MAX);
  std::optional<Bytes> size(const FieldPath& path, ValueId v);
  std::optional<NanoCores> cpu(const FieldPath& path, ValueId v);
  std::optional<bool> boolean(const FieldPath& path, ValueId v);
  std::optional<std::string_view> string(const FieldPath& path, ValueId v);  // non-empty
  // Any scalar as text: label values, ids written as numbers.
  std::optional<std::string_view> scalar(const FieldPath& path, ValueId v);

  // True once the read budget is spent (an error has been reported).
  bool exhausted() const { return exhausted_; }
  // A fresh budget, for a Doc reused for the next piece of a file (a pod
  // list read an item at a time): as a new Reader, without making one.
  void restart() {
    budget_ = budget_for(doc_.source().size());
    exhausted_ = false;
  }

 private:
  template <class T>
  std::optional<T> quantity(const FieldPath& path, ValueId v, std::string_view expected,
                            std::optional<T> (*parse)(std::string_view, std::string&));

  // fields() over `known`, which has size(), name(i) and slot(i).
  template <class Known>
  bool pick(const FieldPath& path, ValueId object, const Known& known);

  // Charges `cost` for reading (part of) `v`; false, after reporting once,
  // when the budget is spent.
  bool spend(const FieldPath& path, ValueId v, std::uint64_t cost);
  // What reading a list's elements or a mapping's members costs: kEntryCost
  // each, plus the text of every key and scalar, which the model copies.
  std::uint64_t read_cost(ValueId container) const;

  const Doc& doc_;
  std::string file_;
  Diagnostics& diags_;
  std::uint64_t budget_;
  bool exhausted_ = false;
};

}  // namespace eruplan
