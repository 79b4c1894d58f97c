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

}  // namespace eruplan::reference
