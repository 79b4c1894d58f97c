// The parts of render.cpp's renderer kept in their own files, private to
// src/output: the document (render_document.cpp) and the table
// (render_table.cpp).
#pragma once

#include <string>

#include "json_writer.h"
#include "render.h"

namespace eruplan::render_parts {

// New instances on the capacity map's i-th node.
inline std::int64_t deployed(const Report& report, std::size_t i) {
  if (report.deploy == nullptr || i >= report.deploy->size()) return 0;
  return (*report.deploy)[i];
}

// Room for `extra` more bytes; a string that keeps growing (the several-
// requests output) at least doubles, so appending stays linear.
inline void make_room(std::string& out, size_t extra) {
  if (out.capacity() - out.size() >= extra) return;
  out.reserve(std::max(out.size() + extra, 2 * out.capacity()));
}

// The §6 document of a report.
void write_document(JsonWriter& w, const Report& report);
void write_document(YamlWriter& w, const Report& report);
// A rough size of the document, so the string is allocated once or twice.
std::size_t estimated_size(const Report& report);

// The table of a report.
void append_table(std::string& out, const Report& report);

}  // namespace eruplan::render_parts
