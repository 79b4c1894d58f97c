// The realloc request file (SPEC §11) as written, read by load_realloc.cpp;
// the engine is plan/realloc.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "diagnostics.h"
#include "load.h"
#include "model.h"

namespace eruplan {

enum class CpuBindChange { Keep, Bind, Unbind };  // cpu_bind: keep | true | false

// The realloc request as written: which workloads, and the deltas.
struct ReallocRequest {
  std::vector<std::string> ids;  // `workloads:`, file order
  std::vector<Origin> id_origins;
  std::optional<std::string> app;  // `app:`: every workload of it
  Origin app_origin;
  NanoCores cpu = 0, cpu_limit = 0;  // signed deltas
  Bytes memory = 0, memory_limit = 0;
  CpuBindChange cpu_bind = CpuBindChange::Keep;
  Origin origin;  // the file's root, for problems that belong to no field
};

// load_realloc.cpp: every problem of the file itself goes to `diags`; the
// request comes back (as far as it was read) whenever the document parsed,
// so select_workloads can add its problems to the same list.
std::optional<ReallocRequest> load_realloc(const Source& source, Diagnostics& diags);

}  // namespace eruplan
