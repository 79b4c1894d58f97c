// The realloc request schema (SPEC §11), each field described once: the
// realloc reader's known fields (unknown-field warnings, "did you mean",
// --strict) come from these tables, and the man page is checked against
// them.
#pragma once

#include <array>
#include <cstddef>

#include "reader.h"

namespace eruplan {

// resources: of a realloc request: signed deltas.
inline constexpr std::array kReallocResourceFields{
    FieldSpec{"cpu", FieldKind::Quantity, "", "CPU request delta"},
    FieldSpec{"cpu_limit", FieldKind::Quantity, "", "CPU limit delta"},
    FieldSpec{"memory", FieldKind::Quantity, "", "memory request delta"},
    FieldSpec{"memory_limit", FieldKind::Quantity, "", "memory limit delta"},
};

// The top level of a realloc request.
inline constexpr std::array kReallocFields{
    FieldSpec{"workloads", FieldKind::List, "", "the ids of the workloads to change"},
    FieldSpec{"app", FieldKind::Text, "", "or every workload of this app"},
    FieldSpec{"resources", FieldKind::Block, "", "the deltas", kReallocResourceFields},
    FieldSpec{"cpu_bind", FieldKind::Text, "", "keep, true or false"},
};

}  // namespace eruplan
