// The fair-share schema (SPEC §10), each field described once: the share
// reader's known fields (unknown-field warnings, "did you mean", --strict)
// come from these tables, and the man page is checked against them. An
// app's resources, node_filter and tolerations are a request's
// (request_fields.h).
#pragma once

#include <array>

#include "reader.h"

namespace eruplan {

// The top level of a share file.
inline constexpr std::array kShareFields{
    FieldSpec::text("placement", "first_fit, least_allocated or most_allocated"),
    FieldSpec::block("apps", "the apps sharing the cluster"),
};

// One entry of apps:.
inline constexpr std::array kShareAppFields{
    FieldSpec::text("app", "the name its instances are counted by"),
    FieldSpec::quantity("weight", "> 0, decimals exact (0.1 is 1/10)"),
    FieldSpec::integer("quota", "new instances placed before any fair share"),
    FieldSpec::integer("max_count", "at most this many new instances"),
    FieldSpec::block("resources", "per instance, as a request's"),
    FieldSpec::block("node_filter", "which nodes may be used"),
    FieldSpec::block("tolerations", "taints the instances tolerate"),
};

}  // namespace eruplan
