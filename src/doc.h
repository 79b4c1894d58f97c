// The loader's document tree and the typed reading of it. JSON or YAML text
// becomes one flat arena of values with source positions, so any problem can
// be reported as file:line:col plus a field path. Scalars keep their text as
// written: the schema decides what a value means (a size, a CPU amount, a
// count) and checks range, integrality and overflow on the exact literal.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "diagnostics.h"
#include "load.h"
#include "model.h"

namespace eruplan {

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
  std::string_view source() const { return source_; }
  // "*name" when `id` is a YAML anchored value that an alias uses again,
  // else empty: messages about expanded aliases name the alias.
  std::string_view alias_of(ValueId id) const;

  // 1-based line and column (in bytes) of a byte offset; computed on demand.
  std::pair<std::uint32_t, std::uint32_t> line_col(std::uint32_t pos) const;

 private:
  friend class JsonBuilder;
  friend class YamlBuilder;
  friend class Reader;

  std::string_view source_;
  std::vector<Value> values_;
  std::vector<ValueId> slots_;  // array elements; object members as key, value pairs
  std::string arena_;           // unescaped strings and YAML scalars
  std::vector<std::pair<ValueId, std::string>> aliased_;  // (value, "*name"), first use of each
  ValueId root_ = kNoValue;
  mutable std::vector<std::uint32_t> line_starts_;
};

// Parses `source` (format from Source::format, else the name's extension,
// else the content). A YAML stream must hold one document. Problems go to
// `diags` as "malformed JSON/YAML" errors with line:col.
std::optional<Doc> parse_document(const Source& source, Diagnostics& diags);

// A YAML stream of several documents (separated by ---), or one JSON
// document: `documents` gets each document's root in order (an empty
// document is a null value). Used for Kubernetes manifests (SPEC §12).
std::optional<Doc> parse_document_stream(const Source& source, Diagnostics& diags,
                                         std::vector<ValueId>& documents);

// The inventory of SPEC §2 from a parsed document (load_inventory reads
// and parses the file first).
std::optional<Inventory> load_inventory(const Doc& doc, const std::string& file,
                                        Diagnostics& diags);

// Finishes a request built from another format (SPEC §12): the request
// flags replace the fields they name, then §3's normalisation and §8.4's
// checks; the name defaults to the app. False after reporting errors.
bool finish_request(Request& request, const RequestOverrides& overrides, bool count_required,
                    const std::string& file, const std::string& prefix, Diagnostics& diags);

// Whole numbers as written (also 1e3, 2.0), for counts and CPU pieces.
std::optional<std::int64_t> parse_integer(std::string_view text, std::string& error);

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
  static constexpr std::uint64_t kEntryCost = 64;         // a member or element read
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
  void warning(const FieldPath& path, ValueId v, std::string message);
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

  struct Field {
    std::string_view name;
    ValueId* value;  // set to the member's value; stays kNoValue when absent
  };
  // Picks the known fields out of an object; unknown ones get a warning and a
  // known one given twice an error.
  bool fields(const FieldPath& path, ValueId object, std::initializer_list<Field> known);

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

 private:
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
