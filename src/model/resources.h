// The resource kinds eruplan counts as amounts: one row per built-in kind
// (cpu, memory, storage) with where a node keeps its total and use and where
// a request keeps what one instance asks; extended resources are the same
// three amounts, named by the inventory. Code that weighs resources by name
// (the score plugins, share's dominant shares and pool totals, the report's
// bars) reads them here instead of naming kinds itself.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "model.h"

namespace eruplan {

struct ResourceKind {
  std::string_view name;
  std::int64_t (*total)(const Node&);
  std::int64_t (*used)(const Node&);
  std::int64_t (*per_instance)(const Request&);
  std::int64_t (*reserved)(const Reservation&);  // a Mesos role's reservation on a node
};

// In the order reasons and reports list them.
extern const std::array<ResourceKind, 3> kResourceKinds;

// The row of a built-in kind, nullptr for any other name.
const ResourceKind* resource_kind(std::string_view name);

// A node's total and use of one kind and what one instance asks of it.
struct ResourceAmounts {
  std::int64_t total = 0, used = 0, per_instance = 0;
  bool on_node = false;  // a built-in kind, or an extended resource the node has
};
ResourceAmounts resource_amounts(const Node& node, const Request& request, std::string_view name);

// What one instance asks of `name`: a built-in kind's request, else the
// extended resource's (0 when not asked for).
std::int64_t per_instance_of(const Request& request, std::string_view name);

}  // namespace eruplan
