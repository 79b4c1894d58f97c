// JSON text into the document tree (json_reader.h). Two paths: a one-pass
// reader for plain documents (ASCII strings without escapes, the shape
// generated inventories have) and nlohmann's SAX parser for everything else,
// which also reports every error; both build the same tree.
#include "json_reader.h"

#include <cstring>
#include <iterator>
#include <nlohmann/json.hpp>

namespace eruplan {

namespace {

using json = nlohmann::json;

// Hands nlohmann's lexer one byte at a time and records how far it has read,
// so each SAX event can find its token in the source (the events themselves
// carry no positions).
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

bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

std::string strip_json_prefix(const std::string& what) {
  // "[json.exception.parse_error.101] parse error at line 1, column 5: <message>"
  const auto column = what.find("column ");
  const auto colon = what.find(": ", column == std::string::npos ? 0 : column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

}  // namespace

// Builds the flat tree from JSON events with explicit source positions.
// Children of an open container collect in `scratch_` and move into the
// doc's slots when it closes, so every container's members end up contiguous.
class JsonBuilder {
 public:
  explicit JsonBuilder(Doc& doc) : doc_(doc) {
    // Virtual reservations: only the pages written are ever touched.
    doc.values_.reserve(doc.source_.size() / 4 + 16);
    doc.slots_.reserve(doc.source_.size() / 4 + 16);
    scratch_.reserve(1024);
  }

  void scalar(ValueKind kind, std::uint32_t start, std::uint32_t end, bool flag = false) {
    Doc::Value v;
    v.pos = v.a = start;
    v.b = end - start;
    v.kind = kind;
    v.flag = flag;
    add(v);
  }

  // A string whose text is the source between the quotes at `open` and `close`.
  void string(std::uint32_t open, std::uint32_t close) {
    Doc::Value v;
    v.pos = open;
    v.a = open + 1;
    v.b = close - open - 1;
    v.kind = ValueKind::String;
    add(v);
  }

  // A string with escapes: its unescaped text goes to the arena.
  void owned_string(std::uint32_t open, const std::string& text) {
    Doc::Value v;
    v.pos = open;
    v.a = static_cast<std::uint32_t>(doc_.arena_.size());
    v.b = static_cast<std::uint32_t>(text.size());
    v.kind = ValueKind::String;
    v.owned = true;
    doc_.arena_ += text;
    add(v);
  }

  void open(ValueKind kind, std::uint32_t pos) {
    Doc::Value v;
    v.pos = pos;
    v.kind = kind;
    const ValueId id = add(v);
    stack_.push_back({id, scratch_.size()});
  }

  void close(bool object) {
    const Open top = stack_.back();
    stack_.pop_back();
    const std::size_t n = scratch_.size() - top.first_child;
    Doc::Value& v = doc_.values_[top.id];
    v.a = static_cast<std::uint32_t>(doc_.slots_.size());
    v.b = static_cast<std::uint32_t>(object ? n / 2 : n);
    doc_.slots_.insert(doc_.slots_.end(),
                       scratch_.begin() + static_cast<std::ptrdiff_t>(top.first_child),
                       scratch_.end());
    scratch_.resize(top.first_child);
  }

 private:
  ValueId add(const Doc::Value& v) {
    const auto id = static_cast<ValueId>(doc_.values_.size());
    doc_.values_.push_back(v);
    if (stack_.empty())
      doc_.root_ = id;
    else
      scratch_.push_back(id);
    return id;
  }

  struct Open {
    ValueId id;
    std::size_t first_child;
  };

  Doc& doc_;
  std::vector<Open> stack_;
  std::vector<ValueId> scratch_;
};

namespace {

// nlohmann's SAX events carry no positions; the tracking iterator tells how
// far the lexer has read, and each event finds its token back from there.
class JsonSax {
 public:
  JsonSax(JsonBuilder& builder, const char* base, const char* const* cursor)
      : b_(builder), base_(base), cursor_(cursor) {}

  bool null() { return literal(ValueKind::Null, 4, false); }
  bool boolean(bool v) { return literal(ValueKind::Bool, v ? 4 : 5, v); }
  bool number_integer(json::number_integer_t) { return number(); }
  bool number_unsigned(json::number_unsigned_t) { return number(); }
  bool number_float(json::number_float_t, const json::string_t&) { return number(); }
  bool string(json::string_t& s) { return add_string(s); }
  bool key(json::string_t& s) { return add_string(s); }
  bool binary(json::binary_t&) { return false; }  // not produced by the JSON parser
  bool start_object(std::size_t) {
    b_.open(ValueKind::Object, offset() - 1);
    return true;
  }
  bool start_array(std::size_t) {
    b_.open(ValueKind::Array, offset() - 1);
    return true;
  }
  bool end_object() {
    b_.close(true);
    return true;
  }
  bool end_array() {
    b_.close(false);
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const json::exception& e) {
    error_position = position;
    error_message = strip_json_prefix(e.what());
    return false;
  }

  std::size_t error_position = 0;
  std::string error_message;

 private:
  std::uint32_t offset() const { return static_cast<std::uint32_t>(*cursor_ - base_); }

  bool literal(ValueKind kind, std::uint32_t length, bool flag) {
    const std::uint32_t end = offset();
    b_.scalar(kind, end >= length ? end - length : 0, end, flag);
    return true;
  }

  // The lexer has read one character past a number (unless at the end).
  bool number() {
    std::uint32_t end = offset();
    if (end > 0 && !is_number_char(base_[end - 1])) --end;
    std::uint32_t start = end;
    while (start > 0 && is_number_char(base_[start - 1])) --start;
    b_.scalar(ValueKind::Number, start, end);
    return true;
  }

  // The lexer stops right after the closing quote; the opening quote is the
  // nearest '"' before it not escaped by an odd run of backslashes.
  bool add_string(const std::string& s) {
    const std::uint32_t close = offset() - 1;
    std::uint32_t open = close;
    while (open > 0) {
      --open;
      if (base_[open] != '"') continue;
      std::uint32_t backslashes = 0;
      while (open - backslashes > 0 && base_[open - backslashes - 1] == '\\') ++backslashes;
      if (backslashes % 2 == 0) break;
    }
    if (close - open - 1 == s.size())  // no escapes: the text is the source itself
      b_.string(open, close);
    else
      b_.owned_string(open, s);
    return true;
  }

  JsonBuilder& b_;
  const char* base_;
  const char* const* cursor_;
};

bool is_json_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool is_digit_char(char c) { return c >= '0' && c <= '9'; }

// The fast path for the common case, strict RFC 8259 JSON whose strings are
// printable ASCII without escapes: one pass, no copies. It gives up (false)
// on anything else, and the nlohmann path then parses the text or reports
// its error. `text` must be followed by a NUL, as std::string guarantees.
bool parse_plain_json(std::string_view text, JsonBuilder& b) {
  const char* const base = text.data();
  const char* const end = base + text.size();
  const char* p = base;
  std::vector<char> open;  // '{' or '[' per open container
  auto off = [&](const char* q) { return static_cast<std::uint32_t>(q - base); };
  auto skip_space = [&] {
    while (is_json_space(*p)) ++p;
  };
  // Scans a string at p (on its opening quote); false when it is not plain.
  auto scan_string = [&]() -> bool {
    const char* q = p + 1;
    for (;; ++q) {
      const auto c = static_cast<unsigned char>(*q);
      if (c == '"') break;
      if (c < 0x20 || c == '\\' || c >= 0x80) return false;
    }
    b.string(off(p), off(q));
    p = q + 1;
    return true;
  };
  skip_space();
  for (;;) {
    // A value.
    switch (*p) {
      case '{':
        b.open(ValueKind::Object, off(p));
        ++p;
        skip_space();
        if (*p == '}') {
          ++p;
          b.close(true);
          break;
        }
        open.push_back('{');
        if (*p != '"' || !scan_string()) return false;
        skip_space();
        if (*p++ != ':') return false;
        skip_space();
        continue;
      case '[':
        b.open(ValueKind::Array, off(p));
        ++p;
        skip_space();
        if (*p == ']') {
          ++p;
          b.close(false);
          break;
        }
        open.push_back('[');
        continue;
      case '"':
        if (!scan_string()) return false;
        break;
      case 't':
      case 'f':
      case 'n': {
        const std::string_view rest(p, static_cast<std::size_t>(end - p));
        const bool is_true = rest.starts_with("true"), is_false = rest.starts_with("false");
        if (!is_true && !is_false && !rest.starts_with("null")) return false;
        const std::uint32_t length = is_false ? 5 : 4;
        b.scalar(is_true || is_false ? ValueKind::Bool : ValueKind::Null, off(p), off(p) + length,
                 is_true);
        p += length;
        break;
      }
      default: {
        const char* start = p;
        if (*p == '-') ++p;
        if (*p == '0') {
          ++p;
        } else if (*p >= '1' && *p <= '9') {
          while (is_digit_char(*p)) ++p;
        } else {
          return false;
        }
        if (*p == '.') {
          ++p;
          if (!is_digit_char(*p)) return false;
          while (is_digit_char(*p)) ++p;
        }
        if (*p == 'e' || *p == 'E') {
          ++p;
          if (*p == '+' || *p == '-') ++p;
          if (!is_digit_char(*p)) return false;
          while (is_digit_char(*p)) ++p;
        }
        b.scalar(ValueKind::Number, off(start), off(p));
        break;
      }
    }
    // After a value: a separator, closing brackets, or the end.
    for (;;) {
      skip_space();
      if (open.empty()) return p == end;
      if (*p == ',') {
        ++p;
        skip_space();
        if (open.back() == '{') {
          if (*p != '"' || !scan_string()) return false;
          skip_space();
          if (*p++ != ':') return false;
          skip_space();
        }
        break;
      }
      if (*p != (open.back() == '{' ? '}' : ']')) return false;
      b.close(open.back() == '{');
      open.pop_back();
      ++p;
    }
  }
}

Origin origin_at(const Doc& doc, const std::string& file, std::uint32_t pos) {
  const auto [line, col] = doc.line_col(pos);
  return Origin{file, line, col, {}};
}

}  // namespace

namespace {

// nlohmann ends the input at a NUL byte and would ignore the rest.
bool nul_free(const Source& source, Diagnostics* diags) {
  if (const void* nul = std::memchr(source.text.data(), '\0', source.text.size())) {
    if (diags) {
      const Doc doc(source.text);
      const auto pos =
          static_cast<std::uint32_t>(static_cast<const char*>(nul) - source.text.data());
      diags->error(origin_at(doc, source.name, pos), "malformed JSON: a NUL byte is not allowed");
    }
    return false;
  }
  return true;
}

}  // namespace

std::optional<Doc> parse_json(const Source& source, Diagnostics* diags) {
  if (!nul_free(source, diags)) return std::nullopt;
  {
    Doc doc(source.text);
    JsonBuilder builder(doc);
    if (parse_plain_json(source.text, builder)) return doc;
  }
  return parse_json_sax(source, diags);
}

std::optional<Doc> parse_json_sax(const Source& source, Diagnostics* diags) {
  if (!nul_free(source, diags)) return std::nullopt;
  Doc doc(source.text);
  JsonBuilder builder(doc);
  const char* cursor = source.text.data();
  JsonSax sax(builder, source.text.data(), &cursor);
  TrackingIterator first{source.text.data(), &cursor};
  TrackingIterator last{source.text.data() + source.text.size(), &cursor};
  if (json::sax_parse(first, last, &sax)) return doc;
  if (diags) {
    // nlohmann reports how many bytes it had read; the culprit is the last one.
    std::uint32_t pos = static_cast<std::uint32_t>(sax.error_position);
    if (pos > 0) --pos;
    pos = std::min<std::uint32_t>(pos, static_cast<std::uint32_t>(source.text.size()));
    diags->error(origin_at(doc, source.name, pos), "malformed JSON: " + sax.error_message);
  }
  return std::nullopt;
}

}  // namespace eruplan
