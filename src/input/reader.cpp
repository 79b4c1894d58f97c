// Typed reading of the document tree (reader.h).
#include "reader.h"

#include <algorithm>

#include "doc.h"
#include "load.h"

namespace eruplan {

// --- Field paths and typed reading ------------------------------------------

namespace {
constexpr std::size_t kMaxKeyShown = 64;  // bytes of a key a field path shows
}  // namespace

std::string FieldPath::str() const {
  std::vector<const FieldPath*> chain;
  for (const FieldPath* p = this; p; p = p->parent) chain.push_back(p);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const FieldPath& p = **it;
    if (p.index >= 0) {
      out += '[' + std::to_string(p.index) + ']';
    } else if (!p.key.empty()) {
      if (!out.empty()) out += '.';
      // A key can be megabytes long; a message shows its start only.
      if (p.key.size() > kMaxKeyShown)
        out.append(p.key.substr(0, kMaxKeyShown)) +=
            "...(" + std::to_string(p.key.size()) + " bytes)";
      else
        out += p.key;
    }
  }
  return out;
}

Origin Reader::origin(const FieldPath& path, ValueId v) const {
  Origin o{file_, 0, 0, path.str()};
  if (v != kNoValue) {
    const auto [line, col] = doc_.line_col(doc_[v].pos);
    o.line = line;
    o.col = col;
  }
  return o;
}

void Reader::error(const FieldPath& path, ValueId v, std::string message) {
  if (exhausted_) return;  // a consequence of the one budget error
  diags_.error(origin(path, v), std::move(message));
}

void Reader::warning(const FieldPath& path, ValueId v, std::string message) {
  if (exhausted_) return;
  diags_.warning(origin(path, v), std::move(message));
}

void Reader::unknown_field(const FieldPath& path, ValueId v, std::string message) {
  if (exhausted_) return;
  diags_.unknown_field(origin(path, v), std::move(message));
}

std::uint64_t Reader::read_cost(ValueId container) const {
  const Doc::Value& c = doc_[container];
  const std::uint32_t slots = c.kind == ValueKind::Object ? 2 * c.b : c.b;
  std::uint64_t cost = kEntryCost * c.b;
  for (std::uint32_t i = 0; i < slots; ++i) {
    const Doc::Value& v = doc_[doc_.slots_[c.a + i]];
    if (v.kind != ValueKind::Array && v.kind != ValueKind::Object) cost += v.b;  // text copied
  }
  return cost;
}

bool Reader::spend(const FieldPath& path, ValueId v, std::uint64_t cost) {
  if (exhausted_) return false;
  if (cost <= budget_) {
    budget_ -= cost;
    return true;
  }
  std::string message = "the document expands to too much to read: over " +
                        std::to_string(budget_for(doc_.source().size()) >> 20) +
                        " MiB of values from a " + std::to_string(doc_.source().size()) +
                        "-byte file";
  const std::string_view alias = doc_.alias_of(v);
  if (!alias.empty())
    message += "; alias " + std::string(alias) + " (the value at " + where(v) +
               ") is read again at every place it is used";
  else
    message += " (YAML aliases are read again at every place they are used)";
  error(path, v, std::move(message));
  exhausted_ = true;
  return false;
}

std::string Reader::describe(ValueId v) const {
  const Doc::Value& value = doc_[v];
  switch (value.kind) {
    case ValueKind::Null:
      return "null";
    case ValueKind::Array:
      return "a list";
    case ValueKind::Object:
      return "a mapping";
    case ValueKind::Bool:
    case ValueKind::Number:
      return excerpt(doc_.text(v));
    case ValueKind::String:
      break;
  }
  std::string_view text = doc_.text(v);
  const bool cut = text.size() > 60;
  if (cut) text = text.substr(0, 60);
  std::string out = value.plain ? std::string(text) : '"' + std::string(text) + '"';
  if (value.plain && out.empty()) out = "\"\"";
  return cut ? out + "..." : out;
}

bool Reader::is_object(const FieldPath& path, ValueId v) {
  if (exhausted_) return false;
  if (doc_[v].kind == ValueKind::Object) return true;
  error(path, v, "expected a mapping (key: value pairs), got " + describe(v));
  return false;
}

bool Reader::is_array(const FieldPath& path, ValueId v) {
  if (exhausted_) return false;
  // Callers go on to read every element: charge for them here.
  if (doc_[v].kind == ValueKind::Array) return spend(path, v, read_cost(v));
  error(path, v, "expected a list, got " + describe(v));
  return false;
}

std::string Reader::where(ValueId v) const {
  const auto [line, col] = doc_.line_col(doc_[v].pos);
  return "line " + std::to_string(line) + ":" + std::to_string(col);
}

std::vector<Reader::Entry> Reader::members(const FieldPath& path, ValueId object) {
  std::vector<Entry> out;
  if (!is_object(path, object)) return out;
  const std::uint32_t n = doc_.size(object);
  if (!spend(path, object, read_cost(object))) return out;
  out.reserve(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const ValueId k = doc_.key(object, i);
    out.push_back({doc_.text(k), k, doc_.member(object, i)});
  }
  return out;
}

void Reader::sort_unique(const FieldPath& path, std::vector<Entry>& list,
                         bool (*less)(std::string_view, std::string_view)) {
  auto by_key = [&](const Entry& a, const Entry& b) { return less(a.key, b.key); };
  if (!std::is_sorted(list.begin(), list.end(), by_key))
    std::stable_sort(list.begin(), list.end(), by_key);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (kept > 0 && list[kept - 1].key == list[i].key) {
      error(path.child(list[i].key), list[i].key_id,
            "given twice (first at " + where(list[kept - 1].key_id) + ")");
      continue;
    }
    list[kept++] = list[i];
  }
  list.resize(kept);
}

template <class Known>
bool Reader::pick(const FieldPath& path, ValueId object, const Known& known) {
  for (std::size_t i = 0; i < known.size(); ++i) *known.slot(i) = kNoValue;
  if (!is_object(path, object)) return false;
  const std::uint32_t n = doc_.size(object);
  if (!spend(path, object, read_cost(object))) return false;
  for (std::uint32_t i = 0; i < n; ++i) {
    const ValueId k = doc_.key(object, i);
    const std::string_view name = doc_.text(k);
    ValueId* match = nullptr;
    for (std::size_t f = 0; f < known.size(); ++f)
      if (same_text(known.name(f), name)) match = known.slot(f);
    if (match && *match == kNoValue) {
      *match = doc_.member(object, i);
      continue;
    }
    const FieldPath here = path.child(name);
    if (match) {
      error(here, k, "given twice (first at " + where(*match) + ")");
      continue;
    }
    std::string message = "unknown field, ignored";
    // A field of a block field's own table, one level too high: say where.
    std::string nested;
    for (std::size_t f = 0; f < known.size() && nested.empty(); ++f)
      for (const FieldSpec& spec : known.inner(f))
        if (spec.name == name) nested = std::string(known.name(f)) + "." + std::string(name);
    if (!nested.empty()) {
      diags_.unknown_field(origin(here, k), message + "; did you mean " + nested + "?");
      continue;
    }
    std::vector<std::string_view> names(known.size());
    for (std::size_t f = 0; f < known.size(); ++f) names[f] = known.name(f);
    const std::string_view best = nearest_name(name, names, 2);
    if (!best.empty()) {
      message += "; did you mean " + std::string(best) + "?";
    } else {
      message += " (known fields:";
      for (std::size_t f = 0; f < known.size(); ++f) message += ' ' + std::string(known.name(f));
      message += ')';
    }
    diags_.unknown_field(origin(here, k), std::move(message));
  }
  // SPEC §12: null is "not given". Only now, so that a field given twice is
  // reported even when one of the two is null.
  for (std::size_t i = 0; i < known.size(); ++i)
    if (*known.slot(i) != kNoValue && doc_[*known.slot(i)].kind == ValueKind::Null)
      *known.slot(i) = kNoValue;
  return true;
}

bool Reader::fields(const FieldPath& path, ValueId object, std::span<const FieldSpec> table,
                    ValueId* values) {
  struct Known {
    std::span<const FieldSpec> table;
    ValueId* values;
    std::size_t size() const { return table.size(); }
    std::string_view name(std::size_t i) const { return table[i].name; }
    std::span<const FieldSpec> inner(std::size_t i) const { return table[i].inner; }
    ValueId* slot(std::size_t i) const { return values + i; }
  };
  return pick(path, object, Known{table, values});
}

namespace {

// Numbers (and YAML's unquoted scalars) are read as numbers; quoted strings
// are not, so "3" in quotes is a string where a count is expected.
bool numeric_kind(const Doc::Value& v) {
  return v.kind == ValueKind::Number || (v.kind == ValueKind::String && v.plain);
}

// A YAML unquoted scalar that cannot start a number (true, null, abc) is
// reported as the value it is, not as a quoted string.
bool plain_word(const Doc& doc, ValueId v) {
  if (!doc[v].plain) return false;
  std::string_view t = doc.text(v);
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.remove_prefix(1);
  if (!t.empty() && t[0] == '.') t.remove_prefix(1);
  return t.empty() || !std::isdigit(static_cast<unsigned char>(t[0]));
}

}  // namespace

std::optional<std::string_view> Reader::required_string(const FieldPath& path, ValueId object,
                                                        std::string_view name, ValueId v,
                                                        std::string_view missing) {
  if (v != kNoValue) return string(path.child(name), v);
  error(path, object, std::string(missing));
  return std::nullopt;
}

std::optional<std::int64_t> Reader::integer(const FieldPath& path, ValueId v, std::int64_t min,
                                            std::int64_t max) {
  auto out_of_range = [&] {
    std::string range;
    if (max == INT64_MAX)
      range = min == 1 ? " > 0" : " >= " + std::to_string(min);
    else
      range = " from " + std::to_string(min) + " to " + std::to_string(max);
    error(path, v, "expected a whole number" + range + ", got " + describe(v));
    return std::nullopt;
  };
  if (!numeric_kind(doc_[v]) || plain_word(doc_, v)) return out_of_range();
  std::string problem;
  const auto n = parse_integer(doc_.text(v), problem);
  if (!n) {
    error(path, v, problem);
    return std::nullopt;
  }
  if (*n < min || *n > max) return out_of_range();
  return n;
}

// A quantity written as a number or a string, parsed by `parse`; anything
// else is reported as "expected <expected>, got ...".
template <class T>
std::optional<T> Reader::quantity(const FieldPath& path, ValueId v, std::string_view expected,
                                  std::optional<T> (*parse)(std::string_view, std::string&)) {
  const ValueKind k = doc_[v].kind;
  if ((k != ValueKind::Number && k != ValueKind::String) || plain_word(doc_, v)) {
    error(path, v, "expected " + std::string(expected) + ", got " + describe(v));
    return std::nullopt;
  }
  std::string problem;
  const std::optional<T> q = parse(doc_.text(v), problem);
  if (!q) error(path, v, problem);
  return q;
}

std::optional<Bytes> Reader::size(const FieldPath& path, ValueId v) {
  return quantity<Bytes>(path, v, "a size (bytes, or a string like \"8Gi\")", parse_size);
}

std::optional<NanoCores> Reader::cpu(const FieldPath& path, ValueId v) {
  return quantity<NanoCores>(path, v, "a CPU amount (cores like 1.5, or millicores like \"1500m\")",
                             parse_cpu);
}

std::optional<bool> Reader::boolean(const FieldPath& path, ValueId v) {
  const Doc::Value& value = doc_[v];
  if (value.kind == ValueKind::Bool) return value.flag;
  if (value.kind == ValueKind::String && value.plain) {
    const std::string_view t = doc_.text(v);
    if (t == "true" || t == "True" || t == "TRUE") return true;
    if (t == "false" || t == "False" || t == "FALSE") return false;
  }
  error(path, v, "expected true or false, got " + describe(v));
  return std::nullopt;
}

std::optional<std::string_view> Reader::string(const FieldPath& path, ValueId v) {
  if (exhausted_) return std::nullopt;
  if (doc_[v].kind != ValueKind::String) {
    error(path, v, "expected a non-empty string, got " + describe(v));
    return std::nullopt;
  }
  const std::string_view t = doc_.text(v);
  if (t.empty()) {
    error(path, v, "expected a non-empty string, got \"\"");
    return std::nullopt;
  }
  return t;
}

std::optional<std::string_view> Reader::scalar(const FieldPath& path, ValueId v) {
  if (exhausted_) return std::nullopt;
  if (doc_.is_scalar(v)) return doc_.text(v);
  error(path, v, "expected a string or number, got " + describe(v));
  return std::nullopt;
}

}  // namespace eruplan
