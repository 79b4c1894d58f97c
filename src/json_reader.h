// JSON text (RFC 8259) into the document tree, with positions. Problems go
// to `diags` (when given) as "malformed JSON" errors with line:col.
#pragma once

#include <optional>

#include "diagnostics.h"
#include "doc_tree.h"
#include "load.h"

namespace eruplan {

// The one-pass reader for plain documents first, else nlohmann's parser.
std::optional<Doc> parse_json(const Source& source, Diagnostics* diags);

// nlohmann's SAX parser alone: what parse_json falls back to, and the
// reference the one-pass reader is compared with (tests, bench).
std::optional<Doc> parse_json_sax(const Source& source, Diagnostics* diags);

}  // namespace eruplan
