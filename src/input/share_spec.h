// The apps file of `eruplan share` (SPEC §10): the apps as written, read by
// load_share.cpp with every problem placed; the engine is plan/share.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.h"
#include "load.h"
#include "model.h"
#include "names.h"
#include "reader.h"

namespace eruplan {

// Where one instance of an app goes among the nodes that can take it.
enum class SharePlacement { FirstFit, LeastAllocated, MostAllocated };
inline constexpr Named<SharePlacement> kPlacementNames[] = {
    {SharePlacement::FirstFit, "first_fit"},
    {SharePlacement::LeastAllocated, "least_allocated"},
    {SharePlacement::MostAllocated, "most_allocated"}};
inline std::string_view placement_name(SharePlacement p) { return name_of(kPlacementNames, p); }

// A weight as the exact fraction written: 0.1 is 1/10. Reduced, both > 0,
// both at most 10^18.
struct Weight {
  std::uint64_t num = 1, den = 1;
};

// A weight as written (2, 0.1, 1.5e2), exactly; nullopt and `error` set
// when it is not a number > 0 or too fine to compare exactly.
std::optional<Weight> parse_weight(std::string_view text, std::string& error);
// A weight field (share's apps, Mesos roles) read by parse_weight into
// `out` (a boolean is no number); false after an error.
bool read_weight(Reader& r, const FieldPath& path, ValueId v, Weight& out);

struct ShareApp {
  std::string name;  // `app`; unique
  Weight weight;
  std::int64_t quota = 0;
  std::int64_t max_count = -1;  // -1 = no limit
  // resources, node_filter and tolerations, normalised as SPEC §3; app = name
  // and cpu_fit on (SPEC §8.2: share uses CPU fit).
  Request request;
};

struct ShareSpec {
  SharePlacement placement = SharePlacement::LeastAllocated;
  std::vector<ShareApp> apps;  // file order
};

// The apps file (SPEC §10): every problem with file:line:col and field path.
// With errors it still returns the apps that read cleanly (nullopt only when
// there is no apps list): the caller runs check_share too, then looks at diags.
std::optional<ShareSpec> load_share(const Source& source, Diagnostics& diags);
// Checks that need the inventory too (cpu_bind pieces, filter names).
void check_share(const Inventory& inventory, const ShareSpec& spec, Diagnostics& diags);

}  // namespace eruplan
