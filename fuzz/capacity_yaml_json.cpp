// Fuzz target: `capacity -o json` on a YAML inventory, checked against the
// same document written as JSON. eruplan reads both into one tree, so when
// both runs end the same way they must print the same capacity. (They may
// end differently: a YAML plain scalar such as `name: 12` is text where
// JSON's 12 is a number.)
#include <cstdlib>

#include "common.h"
#include "doc.h"
#include "json_writer.h"

namespace {

using namespace eruplan;

bool json_number(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0')
    ++i;
  else if (!digits())
    return false;
  if (i < s.size() && s[i] == '.' && (++i, !digits())) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

// Writes value `v` as JSON; false when it expands past `budget` values
// (aliases are shared in the tree but copied here).
bool write_json(const Doc& doc, ValueId v, JsonWriter& w, int& budget) {
  if (--budget < 0) return false;
  const Doc::Value& value = doc[v];
  switch (value.kind) {
    case ValueKind::Null:
      w.null();
      return true;
    case ValueKind::Bool:
      w.boolean(value.flag);
      return true;
    case ValueKind::Number:
      w.number(doc.text(v));
      return true;
    case ValueKind::String: {
      const std::string_view t = doc.text(v);
      if (value.plain && json_number(t))
        w.number(t);
      else if (value.plain && (t == "true" || t == "True" || t == "TRUE"))
        w.boolean(true);
      else if (value.plain && (t == "false" || t == "False" || t == "FALSE"))
        w.boolean(false);
      else
        w.string(t);
      return true;
    }
    case ValueKind::Array:
      w.begin_array();
      for (std::uint32_t i = 0; i < doc.size(v); ++i)
        if (!write_json(doc, doc.element(v, i), w, budget)) return false;
      w.end_array();
      return true;
    case ValueKind::Object:
      w.begin_object();
      for (std::uint32_t i = 0; i < doc.size(v); ++i) {
        w.key(doc.text(doc.key(v, i)));
        if (!write_json(doc, doc.member(v, i), w, budget)) return false;
      }
      w.end_object();
      return true;
  }
  return false;
}

RunResult capacity(Source nodes, std::uint8_t selector) {
  RunOptions options;
  options.command = Command::Capacity;
  options.nodes = std::move(nodes);
  options.overrides = fuzz::request_for(selector);
  options.output = OutputFormat::Json;
  return run(options);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto [selector, text] = fuzz::split_input(data, size);
  const Source yaml{"fuzz.yaml", std::move(text), InputFormat::Yaml};
  const RunResult from_yaml = capacity(yaml, selector);
  if (!fuzz::expected_exit(from_yaml.exit)) std::abort();

  Diagnostics diags;
  const auto doc = parse_document(yaml, diags);
  if (!doc) return 0;
  std::string json;
  JsonWriter w(json);
  int budget = 100'000;
  if (!write_json(*doc, doc->root(), w, budget)) return 0;
  w.finish();
  const RunResult from_json = capacity(Source{"fuzz.json", json, InputFormat::Json}, selector);
  if (!fuzz::expected_exit(from_json.exit)) std::abort();
  // The plans must agree; a failure document names its file and positions,
  // which differ between the two spellings.
  if (from_yaml.exit == ExitCode::Ok && from_json.exit == ExitCode::Ok &&
      from_yaml.out != from_json.out)
    std::abort();
  return 0;
}
