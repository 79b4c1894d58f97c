// The per-instance parts of a request (SPEC §3, §8.1, §9) read out of a
// document exactly as a request file's: resources, node_filter and
// tolerations, then Eru's normalisation. Other inputs that carry requests
// (SPEC §10's apps) use it so both read and check them the same way.
#pragma once

#include <string>

#include "doc.h"

namespace eruplan {

// `at` is the entry's path (apps[2]); each part is kNoValue when absent.
// Keeps out.app and out.name; every problem goes to `diags` with its path.
void read_request_parts(Reader& r, const std::string& file, const FieldPath& at, ValueId resources,
                        ValueId node_filter, ValueId tolerations, Request& out, Diagnostics& diags);

}  // namespace eruplan
