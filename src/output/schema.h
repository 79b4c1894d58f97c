// `eruplan schema KIND`: a JSON Schema (draft 2020-12) of one of eruplan's
// own input files, made from the field tables the readers use (*_fields.h):
// every known field with its help line as description, unknown fields
// refused (additionalProperties: false), as the strict reader refuses them.
// The tables give names, kinds and help; this file adds only how the block
// fields nest (nodes is a list of node objects, usage a usage object, ...).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace eruplan {

// The kinds `eruplan schema` knows, in --help order:
// inventory, request, share, realloc, case, template.
const std::vector<std::string>& schema_kinds();

// The schema of `kind` as pretty JSON ending in a newline; nullopt for a
// kind not in schema_kinds().
std::optional<std::string> render_schema(std::string_view kind);

// Mismatches between the nesting written here and the field tables (a block
// field given no shape, a shape for a field the table does not have): empty
// when the schema covers every table exactly. Checked by the unit tests.
std::vector<std::string> schema_self_check();

}  // namespace eruplan
