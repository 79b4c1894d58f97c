// The realloc request schema (SPEC §11), each field described once: the
// realloc reader's known fields (unknown-field warnings, "did you mean",
// --strict) come from these tables, and the man page is checked against
// them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "reader.h"
#include "realloc_spec.h"

namespace eruplan {

// One signed delta of resources: its row, bound to the member of
// ReallocRequest it sets, with the parser of its unsigned text (a CPU
// amount or a size). The file reader (load_realloc.cpp), the flags that
// replace them (realloc_command.cpp) and their options and --help
// (commands.cpp) walk these rows.
struct ReallocDelta {
  FieldSpec spec;
  std::int64_t ReallocRequest::*member;
  std::optional<std::int64_t> (*parse)(std::string_view text, std::string& error);
  std::string_view shrink;  // an example for the flag's --help ("-0.5"), or empty
};

// resources: of a realloc request: signed deltas.
inline constexpr std::array kReallocDeltas{
    ReallocDelta{FieldSpec::quantity("cpu", "CPU request delta").with_flag("--cpu"),
                 &ReallocRequest::cpu, parse_cpu, "-0.5"},
    ReallocDelta{FieldSpec::quantity("cpu_limit", "CPU limit delta").with_flag("--cpu-limit"),
                 &ReallocRequest::cpu_limit, parse_cpu, ""},
    ReallocDelta{FieldSpec::quantity("memory", "memory request delta").with_flag("--memory"),
                 &ReallocRequest::memory, parse_size, "-512Mi"},
    ReallocDelta{
        FieldSpec::quantity("memory_limit", "memory limit delta").with_flag("--memory-limit"),
        &ReallocRequest::memory_limit, parse_size, ""},
};
inline constexpr auto kReallocResourceFields = specs_of(kReallocDeltas);

// The top level of a realloc request.
inline constexpr std::array kReallocFields{
    FieldSpec::list("workloads", "the ids of the workloads to change"),
    FieldSpec::text("app", "or every workload of this app"),
    FieldSpec::block("resources", "the deltas", kReallocResourceFields),
    FieldSpec::text("cpu_bind", "keep, true or false"),
};

}  // namespace eruplan
