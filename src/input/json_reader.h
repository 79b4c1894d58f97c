// JSON text (RFC 8259) into the document tree, with positions. Problems go
// to `diags` (when given) as "malformed JSON" errors with line:col.
#pragma once

#include <optional>

#include "diagnostics.h"
#include "doc_tree.h"
#include "load.h"

namespace eruplan {

// The whole text as one JSON value; nullopt (and one error, at the first
// byte that does not fit) when it is not one.
std::optional<Doc> parse_json(const Source& source, Diagnostics* diags);

}  // namespace eruplan
