// Reading an input: the document tree (doc_tree.h), parsed from JSON
// (json_reader.h) or YAML (yaml_reader.h) text, and read into typed values
// (reader.h). Loaders include this header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "diagnostics.h"
#include "doc_tree.h"
#include "load.h"
#include "model.h"
#include "reader.h"

namespace eruplan {

// Parses `source` (format from Source::format, else the name's extension,
// else the content). A YAML stream must hold one document. Problems go to
// `diags` as "malformed JSON/YAML" errors with line:col. With
// Source::member the root is that member of the top-level mapping.
std::optional<Doc> parse_document(const Source& source, Diagnostics& diags);

// A file of eruplan's own whose top is a mapping of the fields of `kTable`:
// parses `source`, picks those fields and returns read(reader, fields), an
// optional; nullopt when the file does not parse or its top is no mapping.
template <const auto& kTable, class Read>
auto read_document(const Source& source, Diagnostics& diags, Read&& read)
    -> decltype(read(std::declval<Reader&>(), std::declval<const Picked<kTable>&>())) {
  const std::optional<Doc> doc = parse_document(source, diags);
  if (!doc) return std::nullopt;
  Reader r(*doc, source.name, diags);
  Picked<kTable> f;
  if (!r.fields(FieldPath{}, doc->root(), kTable, f.data())) return std::nullopt;
  return read(r, f);
}

// The part of the source text that holds the input: all of it, or for an
// inline input (Source::member) its value up to the next top-level key.
std::string_view input_text(const Source& source);

// Whether `text` has a line "---" (a YAML document separator) after its
// first line: the file may be a stream of documents.
bool has_later_document(std::string_view text);

// A YAML stream of several documents (separated by ---), or one JSON
// document: `documents` gets each document's root in order (an empty
// document is a null value). Used for Kubernetes manifests (SPEC §12).
std::optional<Doc> parse_document_stream(const Source& source, Diagnostics& diags,
                                         std::vector<ValueId>& documents);

// The inventory of SPEC §2 from a parsed document (load_inventory reads
// and parses the file first).
std::optional<Inventory> load_inventory(const Doc& doc, const std::string& file,
                                        Diagnostics& diags);

// Finishes a request built from another format (SPEC §12): the request
// flags replace the fields they name, then §3's normalisation and §8.4's
// checks; the name defaults to the app. False after reporting errors.
bool finish_request(Request& request, const RequestOverrides& overrides, bool count_required,
                    const std::string& file, const std::string& prefix, Diagnostics& diags);

// Whole numbers as written (also 1e3, 2.0), for counts and CPU pieces.
std::optional<std::int64_t> parse_integer(std::string_view text, std::string& error);

// One node taint (SPEC §9) from the values of its members `key`, `value`
// and `effect` (kNoValue when absent) in the taint `item` at `at`: key and
// effect are required, effect is NoSchedule, PreferNoSchedule or NoExecute.
// The inventory's taints and a Kubernetes node's spec.taints read so.
Taint read_taint(Reader& r, const FieldPath& at, ValueId item, ValueId key, ValueId value,
                 ValueId effect);

}  // namespace eruplan
