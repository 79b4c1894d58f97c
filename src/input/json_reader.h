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

// For a reader that reads a large file a piece at a time: the one value at
// the start of `text` (which must be followed by a NUL not part of it and
// hold no other) into `doc`, emptied first but keeping its memory, whose
// positions are then the file's (`text` starts at `line`:`col` of it).
// `end` gets the offset just past the value and the spaces after it; the
// Doc's source ends there. False, with no diagnostic, when the text does not
// open with a whole value (malformed, or cut short).
bool parse_json_value(std::string_view text, Doc& doc, std::uint32_t line, std::uint32_t col,
                      std::uint32_t& end);

}  // namespace eruplan
