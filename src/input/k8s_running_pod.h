// A pod of --pods as preemption knows it one by one (Inventory::pods,
// SPEC §17): namespace, name, labels, spec.priority, status.startTime, its
// request and app.
#pragma once

#include <cstdint>
#include <string>

#include "doc_tree.h"
#include "model.h"
#include "reader.h"

namespace eruplan {

// `item` is the pod object at `path`; a non-integer spec.priority is an
// error reported through `r` (the pod then has priority 0).
RunningPod running_pod(Reader& r, const FieldPath& path, ValueId item, std::uint32_t node,
                       NanoCores cpu, Bytes memory, std::string app);

}  // namespace eruplan
