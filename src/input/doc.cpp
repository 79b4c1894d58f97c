// Parsing an input (doc.h): the format from the Source, the name or the
// content, then the JSON or YAML reader; an inline input's member as root.
#include "doc.h"

#include <algorithm>
#include <cctype>

#include "json_reader.h"
#include "yaml_reader.h"

namespace eruplan {

namespace {

InputFormat detect_format(const Source& source) {
  if (source.format != InputFormat::Auto) return source.format;
  std::string name = source.name;
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (name.ends_with(".json")) return InputFormat::Json;
  if (name.ends_with(".yaml") || name.ends_with(".yml")) return InputFormat::Yaml;
  return InputFormat::Auto;  // decided by content
}

bool looks_like_json(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  const auto i = text.find_first_not_of(" \t\r\n");
  return i != std::string_view::npos && (text[i] == '{' || text[i] == '[');
}

// An inline input (Source::member): the parsed case file's member becomes
// the root.
std::optional<Doc> focused(std::optional<Doc> doc, const Source& source, Diagnostics& diags) {
  if (!doc || source.member.empty() || doc->focus(source.member)) return doc;
  diags.error(Origin{source.name, 0, 0, {}}, "no top-level field " + source.member);
  return std::nullopt;
}

std::optional<Doc> parse_whole_stream(const Source& source, Diagnostics& diags,
                                      std::vector<ValueId>& documents);
std::optional<Doc> parse_whole(const Source& source, Diagnostics& diags);

}  // namespace

std::optional<Doc> parse_document_stream(const Source& source, Diagnostics& diags,
                                         std::vector<ValueId>& documents) {
  if (source.member.empty()) return parse_whole_stream(source, diags, documents);
  std::optional<Doc> doc = focused(parse_whole(source, diags), source, diags);
  documents.clear();
  if (doc) documents.push_back(doc->root());
  return doc;
}

std::optional<Doc> parse_document(const Source& source, Diagnostics& diags) {
  return focused(parse_whole(source, diags), source, diags);
}

bool has_later_document(std::string_view text) {
  for (std::size_t at = text.find("\n---"); at != std::string_view::npos;
       at = text.find("\n---", at + 1)) {
    const std::size_t after = at + 4;
    if (after == text.size() || text[after] == '\n' || text[after] == '\r' || text[after] == ' ' ||
        text[after] == '\t')
      return true;
  }
  return false;
}

std::string_view input_text(const Source& source) {
  const std::string_view text = source.text;
  if (source.member.empty()) return text;
  Diagnostics ignored;
  const Source whole{source.name, source.text, source.format, {}};  // outlives `doc`
  const std::optional<Doc> doc = parse_whole(whole, ignored);
  if (!doc || doc->root() == kNoValue || (*doc)[doc->root()].kind != ValueKind::Object) return text;
  const ValueId root = doc->root();
  std::uint32_t begin = 0, end = static_cast<std::uint32_t>(text.size());
  bool found = false;
  for (std::uint32_t i = 0; i < doc->size(root); ++i)
    if (!found && doc->text(doc->key(root, i)) == source.member) {
      begin = (*doc)[doc->member(root, i)].pos;
      found = true;
    }
  if (!found) return text;
  for (std::uint32_t i = 0; i < doc->size(root); ++i) {
    const std::uint32_t at = (*doc)[doc->key(root, i)].pos;
    if (at > begin) end = std::min(end, at);
  }
  return text.substr(begin, end - begin);
}

InputFormat source_format(const Source& source) {
  const InputFormat by_name = detect_format(source);
  if (by_name != InputFormat::Auto) return by_name;
  return looks_like_json(source.text) ? InputFormat::Json : InputFormat::Yaml;
}

namespace {

std::optional<Doc> parse_whole_stream(const Source& source, Diagnostics& diags,
                                      std::vector<ValueId>& documents) {
  documents.clear();
  if (source.text.size() >= UINT32_MAX) {
    diags.error(Origin{source.name, 0, 0, {}}, "the file is too large (4 GiB at most)");
    return std::nullopt;
  }
  InputFormat format = detect_format(source);
  if (format == InputFormat::Auto)
    format = looks_like_json(source.text) ? InputFormat::Json : InputFormat::Yaml;
  if (format == InputFormat::Yaml) return parse_yaml_stream(source, &diags, documents);
  // JSON holds one document; content that opens like JSON but is YAML flow
  // style goes to the YAML reader, as in parse_document.
  Diagnostics json_diags;
  if (auto doc = parse_json(source, &json_diags)) {
    documents.push_back(doc->root());
    return doc;
  }
  if (source.format != InputFormat::Json && detect_format(source) != InputFormat::Json) {
    Diagnostics yaml_diags;
    if (auto doc = parse_yaml_stream(source, &yaml_diags, documents)) return doc;
  }
  for (const auto& d : json_diags.items()) diags.error(d.origin, d.message);
  return std::nullopt;
}

std::optional<Doc> parse_whole(const Source& source, Diagnostics& diags) {
  if (source.text.size() >= UINT32_MAX) {
    diags.error(Origin{source.name, 0, 0, {}}, "the file is too large (4 GiB at most)");
    return std::nullopt;
  }
  switch (detect_format(source)) {
    case InputFormat::Json:
      return parse_json(source, &diags);
    case InputFormat::Yaml:
      return parse_yaml(source, &diags);
    case InputFormat::Auto:
      break;
  }
  if (!looks_like_json(source.text)) return parse_yaml(source, &diags);
  // Content that opens like JSON may still be YAML flow style ({a: 1}); if
  // JSON fails and YAML reads it, take YAML, else report the JSON error.
  Diagnostics json_diags;
  if (auto doc = parse_json(source, &json_diags)) return doc;
  if (auto doc = parse_yaml(source, nullptr)) return doc;
  for (const auto& d : json_diags.items()) diags.error(d.origin, d.message);
  return std::nullopt;
}

}  // namespace

}  // namespace eruplan
