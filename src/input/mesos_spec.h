// The roles and frameworks file of `eruplan share --model mesos`: roles with
// a weight and a quota, frameworks each in a role with a request's
// per-instance parts. Read by load_mesos.cpp with every problem placed; the
// engine is plan/mesos.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.h"
#include "load.h"
#include "model.h"
#include "share_spec.h"

namespace eruplan {

// An amount per resource kind: cpu (nanocores), memory, storage (bytes),
// extended resources (their unit). Kinds absent are not named.
struct KindAmounts {
  std::optional<NanoCores> cpu;
  std::optional<Bytes> memory, storage;
  NamedList<std::int64_t> extended;  // sorted by name
};

struct MesosRole {
  std::string name;  // unique
  Weight weight;
  KindAmounts quota;       // the kinds it names; none: no quota
  Origin quota_origin;     // where quota: was given
  bool has_quota() const;  // names at least one kind
};

struct MesosFramework {
  std::string name;             // unique
  std::size_t role = 0;         // index into MesosSpec::roles
  std::int64_t max_count = -1;  // -1 = no limit
  Request request;              // resources, node_filter, tolerations; app = name
};

struct MesosSpec {
  std::vector<MesosRole> roles;            // file order
  std::vector<MesosFramework> frameworks;  // file order
};

// --seed N|none: true and `seed` set (nullopt for none) when `text` is
// "none" or a whole number 0..2^64-1.
bool parse_seed(std::string_view text, std::optional<std::uint64_t>& seed);
// --cycles K: K when `text` is a whole number >= 1 (at most 10^9).
std::optional<std::int64_t> parse_cycles(std::string_view text);

// The file: every problem with file:line:col and field path. nullopt when
// there is nothing to run; the caller runs check_mesos too, then looks at diags.
std::optional<MesosSpec> load_mesos(const Source& source, Diagnostics& diags);
// Checks that need the inventory: reservations of unknown roles, quotas
// above the cluster's total or of a kind it does not have, filter names.
void check_mesos(const Inventory& inventory, const MesosSpec& spec, Diagnostics& diags);

}  // namespace eruplan
