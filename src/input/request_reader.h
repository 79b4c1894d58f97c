// Reading one deploy request's fields from a document into a Draft (the
// request with where its fields came from), for load_request.cpp, which
// then applies the command-line overrides and Eru's normalisation. Private
// to src/input.
#pragma once

#include <string>
#include <string_view>

#include "diagnostics.h"
#include "load.h"
#include "model.h"
#include "reader.h"
#include "request_fields.h"

namespace eruplan::request_reading {

// "unknown strategy X; ..." with the strategies there are.
std::string unknown_strategy(std::string_view text);

// SRC:DST[:FLAGS[:SIZE]] (SPEC §4, volume plans).
bool parse_volume(std::string_view binding, VolumeRequest& out, std::string& error);

// The request at `top` (a mapping, or null for an empty file) into d. Fields
// a flag of `o` overrides are not read at all: the flag replaces them.
void read_draft(Reader& r, Draft& d, const RequestOverrides& o, const FieldPath& root, ValueId top);
// Only resources, node_filter and tolerations (a workload's request).
void read_draft_parts(Reader& r, Draft& d, const FieldPath& root, ValueId resources,
                      ValueId node_filter, ValueId tolerations);

}  // namespace eruplan::request_reading
