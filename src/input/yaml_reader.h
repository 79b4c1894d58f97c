// YAML text into the document tree, with positions. Problems go to `diags`
// (when given) as "malformed YAML" errors with line:col.
#pragma once

#include <optional>
#include <vector>

#include "diagnostics.h"
#include "doc_tree.h"
#include "load.h"

namespace eruplan {

// One document; a stream of several is an error.
std::optional<Doc> parse_yaml(const Source& source, Diagnostics* diags);

// A stream of documents (---): `documents` gets each document's root in order.
std::optional<Doc> parse_yaml_stream(const Source& source, Diagnostics* diags,
                                     std::vector<ValueId>& documents);

}  // namespace eruplan
