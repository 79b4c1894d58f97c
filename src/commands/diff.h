// `eruplan diff OLD NEW`: two inventories compared as values, after the
// inventory's defaults, so units, order and written-out zeros do not matter
// (`instances: {web: 0}` is no entry). Nothing here prints.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model.h"
#include "render.h"

namespace eruplan {

// A field's value: a scalar, or a mapping of scalars (labels, cpu_map, a
// workload).
struct DiffScalar {
  enum class Kind { Integer, Number, Boolean, Text } kind = Kind::Integer;
  std::int64_t integer = 0;
  std::string text;  // Number: its JSON literal; Text: the string
  bool boolean = false;
  bool operator==(const DiffScalar&) const = default;
};
struct DiffValue {
  bool mapping = false;
  DiffScalar scalar;
  std::vector<std::pair<std::string, DiffScalar>> entries;  // by key
  // A mapping of keys "0".."run-1", each `scalar`, kept as that count and
  // shown as one entry "0..run-1" (the cpu_map of a node given as
  // `cpu: N`); 0 when `entries` holds the mapping. It equals the same
  // mapping written out entry by entry.
  std::int64_t run = 0;
  bool operator==(const DiffValue& other) const;
};

struct FieldChange {
  std::string field;  // "memory", "usage.cpu_map", "instances.web", "workloads.w1"
  DiffValue old_value, new_value;
};
struct NodeChanges {
  std::string node;
  std::vector<FieldChange> fields;  // by field name
};
struct InventoryDiff {
  std::vector<std::string> added, removed;  // node names, byte order
  std::vector<NodeChanges> changed;         // by node name
  bool empty() const { return added.empty() && removed.empty() && changed.empty(); }
};

// A node's fields after the defaults, by name; a field at its default
// (0, empty, available) is left out.
std::vector<std::pair<std::string, DiffValue>> node_fields(const Node& node, Pieces share_base);

InventoryDiff diff_inventories(const Inventory& old_inventory, const Inventory& new_inventory);

// {"added", "removed", "changed": {node: {field: {"old", "new"}}}} or, for a
// table, one line per changed field.
std::string render_diff(const InventoryDiff& diff, OutputFormat format);

}  // namespace eruplan
