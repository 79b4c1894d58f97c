// The realloc request schema (SPEC §11), each field described once: the
// realloc reader's known fields (unknown-field warnings, "did you mean",
// --strict) come from these tables, and the man page is checked against
// them.
#pragma once

#include <array>

#include "reader.h"

namespace eruplan {

// resources: of a realloc request: signed deltas.
inline constexpr std::array kReallocResourceFields{
    FieldSpec::quantity("cpu", "CPU request delta"),
    FieldSpec::quantity("cpu_limit", "CPU limit delta"),
    FieldSpec::quantity("memory", "memory request delta"),
    FieldSpec::quantity("memory_limit", "memory limit delta"),
};

// The top level of a realloc request.
inline constexpr std::array kReallocFields{
    FieldSpec::list("workloads", "the ids of the workloads to change"),
    FieldSpec::text("app", "or every workload of this app"),
    FieldSpec::block("resources", "the deltas", kReallocResourceFields),
    FieldSpec::text("cpu_bind", "keep, true or false"),
};

}  // namespace eruplan
