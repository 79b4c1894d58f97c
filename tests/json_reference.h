// The oracle for eruplan's one-pass JSON reader (src/json_reader.cpp):
// nlohmann's SAX parser builds a plain tree of the same values with the same
// source positions, or reports where it stopped. Used by
// tests/json_reader_test.cpp and timed beside the reader in bench/.
#pragma once

#include <cstdint>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "doc_tree.h"
#include "json_reader.h"

namespace eruplan::reference {

struct JsonValue {
  ValueKind kind = ValueKind::Null;
  std::uint32_t pos = 0;         // byte offset of the first character
  std::string text;              // scalars: the string's value or the literal as written
  bool flag = false;             // a Bool's value
  std::vector<JsonValue> items;  // array elements; object members as key, value pairs
};

struct JsonResult {
  std::optional<JsonValue> root;
  std::size_t error_pos = 0;  // the byte nlohmann stopped at (its last byte read)
  std::string error;          // nlohmann's message
};

namespace detail {

// Hands nlohmann's lexer one byte at a time and records how far it has read:
// SAX events carry no positions, so each finds its token back from there.
struct TrackingIterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  const char* p = nullptr;
  const char** cursor = nullptr;

  reference operator*() const { return *p; }
  TrackingIterator& operator++() {
    *cursor = ++p;
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const TrackingIterator& o) const { return p == o.p; }
};

inline bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

class Sax {
 public:
  using json = nlohmann::json;
  Sax(std::string_view text, const char* const* cursor) : text_(text), cursor_(cursor) {}

  bool null() { return literal(ValueKind::Null, 4, false); }
  bool boolean(bool v) { return literal(ValueKind::Bool, v ? 4 : 5, v); }
  bool number_integer(json::number_integer_t) { return number(); }
  bool number_unsigned(json::number_unsigned_t) { return number(); }
  bool number_float(json::number_float_t, const json::string_t&) { return number(); }
  bool string(json::string_t& s) { return add_string(s); }
  bool key(json::string_t& s) { return add_string(s); }
  bool binary(json::binary_t&) { return false; }
  bool start_object(std::size_t) { return open(ValueKind::Object); }
  bool start_array(std::size_t) { return open(ValueKind::Array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t position, const std::string&, const json::exception& e) {
    result.error_pos = position > 0 ? position - 1 : 0;
    result.error = e.what();
    return false;
  }

  JsonResult result;

 private:
  std::uint32_t offset() const { return static_cast<std::uint32_t>(*cursor_ - text_.data()); }

  bool add(JsonValue v) {
    if (stack_.empty())
      result.root = std::move(v);
    else
      stack_.back().items.push_back(std::move(v));
    return true;
  }
  bool open(ValueKind kind) {
    JsonValue v;
    v.kind = kind;
    v.pos = offset() - 1;
    stack_.push_back(std::move(v));
    return true;
  }
  bool close() {
    JsonValue v = std::move(stack_.back());
    stack_.pop_back();
    return add(std::move(v));
  }
  bool literal(ValueKind kind, std::uint32_t length, bool flag) {
    JsonValue v;
    v.kind = kind;
    v.pos = offset() - length;
    v.text = std::string(text_.substr(v.pos, length));
    v.flag = flag;
    return add(std::move(v));
  }
  // The lexer has read one character past a number (unless at the end).
  bool number() {
    std::uint32_t end = offset();
    if (end > 0 && !is_number_char(text_[end - 1])) --end;
    std::uint32_t start = end;
    while (start > 0 && is_number_char(text_[start - 1])) --start;
    JsonValue v;
    v.kind = ValueKind::Number;
    v.pos = start;
    v.text = std::string(text_.substr(start, end - start));
    return add(std::move(v));
  }
  // The lexer stops right after the closing quote; the opening quote is the
  // nearest '"' before it not escaped by an odd run of backslashes.
  bool add_string(const std::string& s) {
    const std::uint32_t close = offset() - 1;
    std::uint32_t open = close;
    while (open > 0) {
      --open;
      if (text_[open] != '"') continue;
      std::uint32_t backslashes = 0;
      while (open - backslashes > 0 && text_[open - backslashes - 1] == '\\') ++backslashes;
      if (backslashes % 2 == 0) break;
    }
    JsonValue v;
    v.kind = ValueKind::String;
    v.pos = open;
    v.text = s;
    return add(std::move(v));
  }

  std::string_view text_;
  const char* const* cursor_;
  std::vector<JsonValue> stack_;
};

}  // namespace detail

inline JsonResult parse_json(std::string_view text) {
  const char* cursor = text.data();
  detail::Sax sax(text, &cursor);
  detail::TrackingIterator first{text.data(), &cursor};
  detail::TrackingIterator last{text.data() + text.size(), &cursor};
  if (!nlohmann::json::sax_parse(first, last, &sax)) sax.result.root.reset();
  return std::move(sax.result);
}

// The same tree: kinds, text, positions and shape, from both roots down.
inline bool same(const Doc& a, ValueId x, const JsonValue& b, std::string& why) {
  const std::size_t size = a[x].kind == ValueKind::Object  ? 2 * a.size(x)
                           : a[x].kind == ValueKind::Array ? a.size(x)
                                                           : 0;
  const bool scalar = a.is_scalar(x);
  if (a[x].kind != b.kind || a[x].pos != b.pos || (scalar && a.text(x) != b.text) ||
      a[x].flag != b.flag || size != b.items.size()) {
    why = "value at byte " + std::to_string(a[x].pos) + " / " + std::to_string(b.pos);
    return false;
  }
  for (std::uint32_t i = 0; i < b.items.size(); ++i) {
    const ValueId child = a[x].kind == ValueKind::Array ? a.element(x, i)
                          : i % 2 == 0                  ? a.key(x, i / 2)
                                                        : a.member(x, i / 2);
    if (!same(a, child, b.items[i], why)) return false;
  }
  return true;
}

// The last byte of the token that starts at `pos`: a string to its closing
// quote, else a run of bytes up to space or punctuation.
inline std::size_t token_end(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return text.size();
  if (text[pos] == '"') {
    for (std::size_t i = pos + 1; i < text.size(); ++i) {
      if (text[i] == '\\')
        ++i;
      else if (text[i] == '"')
        return i;
    }
    return text.size();
  }
  std::size_t i = pos;
  while (i + 1 < text.size() &&
         std::string_view(" \t\r\n,:{}[]\"").find(text[i + 1]) == std::string_view::npos)
    ++i;
  return i;
}

struct Agreement {
  bool read = false;    // eruplan's reader took the text
  std::string problem;  // empty when both agree
};

// The reader and nlohmann agree on `text`: the same tree (kinds, text,
// positions), or both refuse at the same token, eruplan naming its first
// byte that does not fit and nlohmann the last byte it read, which may be
// the one after the token (its lexer reads one byte ahead). Known and meant
// differences: a number out of double's range is nlohmann's error and, for
// eruplan, the field's to judge; a NUL byte ends nlohmann's text, and eruplan
// refuses it wherever it is.
inline Agreement compare(const std::string& text) {
  const Source source{"r.json", text, InputFormat::Json};
  Diagnostics diags;
  const std::optional<Doc> ours = eruplan::parse_json(source, &diags);
  const JsonResult theirs = reference::parse_json(text);
  Agreement out;
  out.read = ours.has_value();
  const std::string context = "\neruplan: " + diags.to_string() + "nlohmann: " + theirs.error;
  // nlohmann ends the text at a NUL byte; eruplan refuses one anywhere.
  if (text.find('\0') != std::string::npos) {
    if (ours) out.problem = "a NUL byte read" + context;
    return out;
  }
  // nlohmann stops at a number out of double's range; eruplan reads on, so
  // it reads the text or refuses it later.
  if (!theirs.root && theirs.error.find("number overflow") != std::string::npos) return out;
  if (ours && !theirs.root) {
    out.problem = "only eruplan reads it" + context;
    return out;
  }
  if (!ours && theirs.root) {
    out.problem = "only nlohmann reads it" + context;
    return out;
  }
  if (ours) {
    std::string why;
    if (!same(*ours, ours->root(), *theirs.root, why)) out.problem = "different trees: " + why;
    return out;
  }
  if (diags.items().size() != 1) {
    out.problem = "not one error" + context;
    return out;
  }
  const Origin& at = diags.items()[0].origin;
  std::size_t pos = 0;  // back from line:col to the byte offset
  for (std::uint32_t l = 1; l < at.line; ++l) pos = text.find('\n', pos) + 1;
  pos += at.col - 1;
  if (pos > theirs.error_pos || theirs.error_pos > token_end(text, pos) + 1)
    out.problem = "refused at byte " + std::to_string(pos) + ", nlohmann at byte " +
                  std::to_string(theirs.error_pos) + context;
  return out;
}

}  // namespace eruplan::reference
