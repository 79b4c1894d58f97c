// The fair-share schema (SPEC §10), each field described once: the share
// reader's known fields (unknown-field warnings, "did you mean", --strict)
// come from these tables, and the man page is checked against them. An
// app's resources, node_filter and tolerations are a request's
// (request_fields.h).
#pragma once

#include <array>
#include <cstddef>

#include "reader.h"

namespace eruplan {

// The top level of a share file.
inline constexpr std::array kShareFields{
    FieldSpec{"placement", FieldKind::Text, "", "first_fit, least_allocated or most_allocated"},
    FieldSpec{"apps", FieldKind::Block, "", "the apps sharing the cluster"},
};

// One entry of apps:.
inline constexpr std::array kShareAppFields{
    FieldSpec{"app", FieldKind::Text, "", "the name its instances are counted by"},
    FieldSpec{"weight", FieldKind::Quantity, "", "> 0, decimals exact (0.1 is 1/10)"},
    FieldSpec{"quota", FieldKind::Integer, "", "new instances placed before any fair share"},
    FieldSpec{"max_count", FieldKind::Integer, "", "at most this many new instances"},
    FieldSpec{"resources", FieldKind::Block, "", "per instance, as a request's"},
    FieldSpec{"node_filter", FieldKind::Block, "", "which nodes may be used"},
    FieldSpec{"tolerations", FieldKind::Block, "", "taints the instances tolerate"},
};

}  // namespace eruplan
