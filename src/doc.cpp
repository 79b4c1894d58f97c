#include "doc.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace eruplan {

std::string_view Doc::text(ValueId id) const {
  const Value& v = values_[id];
  if (v.kind == ValueKind::Array || v.kind == ValueKind::Object) return {};
  return v.owned ? std::string_view(arena_).substr(v.a, v.b) : source_.substr(v.a, v.b);
}

std::string_view Doc::alias_of(ValueId id) const {
  for (const auto& [value, name] : aliased_)
    if (value == id) return name;
  return {};
}

bool Doc::is_scalar(ValueId id) const {
  const ValueKind k = values_[id].kind;
  return k == ValueKind::Bool || k == ValueKind::Number || k == ValueKind::String;
}

bool Doc::focus(std::string_view name) {
  if (root_ == kNoValue || values_[root_].kind != ValueKind::Object) return false;
  for (std::uint32_t i = 0; i < size(root_); ++i)
    if (text(key(root_, i)) == name) {
      root_ = member(root_, i);
      return true;
    }
  return false;
}

std::pair<std::uint32_t, std::uint32_t> Doc::line_col(std::uint32_t pos) const {
  if (line_starts_.empty()) {
    line_starts_.push_back(0);
    const char* begin = source_.data();
    const char* end = begin + source_.size();
    for (const char* p = begin; (p = static_cast<const char*>(std::memchr(p, '\n', end - p)));)
      line_starts_.push_back(static_cast<std::uint32_t>(++p - begin));
  }
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), pos);
  const auto line = static_cast<std::uint32_t>(it - line_starts_.begin());
  return {line, pos - *(it - 1) + 1};
}

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

}  // namespace

// Builds the flat tree from yaml-cpp's parser events. An alias becomes one
// more reference to the anchored value, never a copy, so alias bombs cost
// nothing; an alias to a list or mapping that is still open (one that
// contains itself) is an error. Merge keys (<<: *defaults) are applied when
// their mapping closes.
class YamlBuilder : public YAML::EventHandler {
 public:
  YamlBuilder(Doc& doc, std::size_t budget) : doc_(doc), budget_(budget) {}

  std::string error;            // set when building gave up
  std::uint32_t error_pos = 0;  // where

  YAML::Mark document_start;  // of the latest document

  void OnDocumentStart(const YAML::Mark& mark) override { document_start = mark; }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    Doc::Value v;
    v.kind = ValueKind::Null;
    v.pos = position(mark);
    // An empty value carries the mark of the next token: place it at its
    // key, or its list, instead.
    if (!null_written_at(v.pos) && !stack_.empty()) {
      const Open& top = stack_.back();
      const bool is_value = top.map && (scratch_.size() - top.first_child) % 2 == 1;
      v.pos = doc_.values_[is_value ? scratch_.back() : top.id].pos;
    }
    add(v, anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (!error.empty()) return;
    if (anchor >= anchors_.size() || anchors_[anchor] == kNoValue)
      return fail(mark, "unknown alias");
    const ValueId id = anchors_[anchor];
    for (const Open& o : stack_)
      if (o.id == id) return fail(mark, "an alias refers to the list or mapping that contains it");
    if (used_.size() <= anchor) used_.resize(anchor + 1, false);
    if (!used_[anchor]) {
      used_[anchor] = true;
      doc_.aliased_.emplace_back(id, alias_name(position(mark)));
    }
    place(id);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    Doc::Value v;
    v.kind = ValueKind::String;
    v.pos = position(mark);
    v.plain = tag == "?";
    v.a = static_cast<std::uint32_t>(doc_.arena_.size());
    v.b = static_cast<std::uint32_t>(value.size());
    v.owned = true;
    doc_.arena_ += value;
    add(v, anchor);
    if (!v.plain && !quote_closed(v.pos)) fail(mark, "a quoted string is never closed");
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(ValueKind::Array, mark, anchor);
  }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(ValueKind::Object, mark, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapEnd() override { close(); }

  // Stream mode (parse_document_stream): each document's root is kept and
  // the next document starts a new root.
  void next_document(std::vector<ValueId>& documents) {
    if (!error.empty()) return;
    if (doc_.root_ == kNoValue) {  // an empty document is a null one
      doc_.values_.push_back(Doc::Value{});
      doc_.root_ = static_cast<ValueId>(doc_.values_.size() - 1);
    }
    documents.push_back(doc_.root_);
    doc_.root_ = kNoValue;
  }

  void finish() {
    if (doc_.root_ != kNoValue) return;
    doc_.values_.push_back(Doc::Value{});  // an empty stream is a null document
    doc_.root_ = static_cast<ValueId>(doc_.values_.size() - 1);
  }

 private:
  struct Open {
    ValueId id;
    std::size_t first_child;
    bool map;
  };

  std::uint32_t position(const YAML::Mark& mark) const {
    return mark.pos >= 0 ? static_cast<std::uint32_t>(mark.pos) : 0;
  }

  // yaml-cpp reads a quoted scalar that runs to the end of the file as if it
  // were closed there; the closing quote must exist.
  bool quote_closed(std::uint32_t pos) const {
    const std::string_view s = doc_.source_;
    if (pos >= s.size() || (s[pos] != '"' && s[pos] != '\'')) return true;  // not quoted here
    const char quote = s[pos];
    for (std::size_t i = pos + 1; i < s.size(); ++i) {
      if (quote == '"' && s[i] == '\\') {
        ++i;  // an escaped character
      } else if (s[i] == quote) {
        if (quote == '\'' && i + 1 < s.size() && s[i + 1] == '\'') {
          ++i;  // '' is a quote inside single quotes
          continue;
        }
        return true;
      }
    }
    return false;
  }

  // The alias as written at `pos` ("*name"), for messages.
  std::string alias_name(std::uint32_t pos) const {
    const std::string_view s = doc_.source_;
    std::size_t end = pos;
    while (end < s.size() && end - pos < 64 && !std::isspace(static_cast<unsigned char>(s[end])) &&
           s[end] != ',' && s[end] != ']' && s[end] != '}')
      ++end;
    const std::string_view name = s.substr(std::min<std::size_t>(pos, s.size()), end - pos);
    return name.starts_with('*') ? std::string(name) : "*" + std::string(name);
  }

  void fail(const YAML::Mark& mark, std::string message) {
    if (!error.empty()) return;
    error = std::move(message);
    error_pos = position(mark);
  }

  bool null_written_at(std::uint32_t pos) const {
    const std::string_view rest =
        doc_.source_.substr(std::min<std::size_t>(pos, doc_.source_.size()));
    return rest.starts_with('~') || rest.starts_with("null") || rest.starts_with("Null") ||
           rest.starts_with("NULL");
  }

  void add(const Doc::Value& v, YAML::anchor_t anchor) {
    if (!error.empty()) return;
    const auto id = static_cast<ValueId>(doc_.values_.size());
    doc_.values_.push_back(v);
    if (anchor != YAML::NullAnchor) {
      if (anchors_.size() <= anchor) anchors_.resize(anchor + 1, kNoValue);
      anchors_[anchor] = id;
    }
    place(id);
  }

  // Makes `id` the root, or the next child of the open container.
  void place(ValueId id) {
    if (stack_.empty()) {
      if (doc_.root_ == kNoValue) doc_.root_ = id;
      return;
    }
    const Open& top = stack_.back();
    const bool is_key = top.map && (scratch_.size() - top.first_child) % 2 == 0;
    if (is_key && doc_.values_[id].kind != ValueKind::String) {
      error = "a mapping key must be plain text, not a list, mapping or null";
      error_pos = doc_.values_[id].pos;
      return;
    }
    if (doc_.slots_.size() + scratch_.size() >= budget_) {
      error = "expands to too many values (merge keys repeated too often?)";
      error_pos = doc_.values_[id].pos;
      return;
    }
    scratch_.push_back(id);
  }

  void open(ValueKind kind, const YAML::Mark& mark, YAML::anchor_t anchor) {
    if (!error.empty()) return;
    Doc::Value v;
    v.kind = kind;
    v.pos = position(mark);
    add(v, anchor);
    if (error.empty())
      stack_.push_back({static_cast<ValueId>(doc_.values_.size() - 1), scratch_.size(),
                        kind == ValueKind::Object});
  }

  void close() {
    if (!error.empty() || stack_.empty()) return;
    const Open top = stack_.back();
    stack_.pop_back();
    if (top.map) apply_merges(top.first_child);
    if (!error.empty()) return;
    const std::size_t n = scratch_.size() - top.first_child;
    Doc::Value& v = doc_.values_[top.id];
    v.a = static_cast<std::uint32_t>(doc_.slots_.size());
    v.b = static_cast<std::uint32_t>(top.map ? n / 2 : n);
    doc_.slots_.insert(doc_.slots_.end(),
                       scratch_.begin() + static_cast<std::ptrdiff_t>(top.first_child),
                       scratch_.end());
    scratch_.resize(top.first_child);
  }

  // YAML merge keys: members the mapping does not give come from the merged
  // mappings, earlier ones first.
  void apply_merges(std::size_t first) {
    std::vector<ValueId> sources;
    std::set<std::string_view> keys;
    std::size_t kept = first;
    for (std::size_t i = first; i + 1 < scratch_.size(); i += 2) {
      const ValueId k = scratch_[i];
      if (doc_.values_[k].plain && doc_.text(k) == "<<") {
        sources.push_back(scratch_[i + 1]);
        continue;
      }
      keys.insert(doc_.text(k));
      scratch_[kept++] = k;
      scratch_[kept++] = scratch_[i + 1];
    }
    if (sources.empty()) return;
    scratch_.resize(kept);
    auto merge_one = [&](ValueId m) {
      if (doc_.values_[m].kind != ValueKind::Object) {
        error = "a merge key (<<) needs a mapping or a list of mappings";
        error_pos = doc_.values_[m].pos;
        return;
      }
      for (std::uint32_t j = 0; j < doc_.size(m); ++j) {
        const ValueId k = doc_.key(m, j);
        if (!keys.insert(doc_.text(k)).second) continue;
        if (scratch_.size() + doc_.slots_.size() >= budget_) {
          error = "expands to too many values (merge keys repeated too often?)";
          error_pos = doc_.values_[k].pos;
          return;
        }
        scratch_.push_back(k);
        scratch_.push_back(doc_.member(m, j));
      }
    };
    for (const ValueId src : sources) {
      if (doc_.values_[src].kind == ValueKind::Array) {
        for (std::uint32_t j = 0; j < doc_.size(src) && error.empty(); ++j)
          merge_one(doc_.element(src, j));
      } else {
        merge_one(src);
      }
      if (!error.empty()) return;
    }
  }

  Doc& doc_;
  std::size_t budget_;
  std::vector<Open> stack_;
  std::vector<ValueId> scratch_;
  std::vector<ValueId> anchors_;  // by yaml-cpp's anchor number
  std::vector<bool> used_;        // by anchor number: an alias has used it
};

// Sees what follows the first document: more content is an error, and so
// is a parser stuck at the same place (yaml-cpp loops on a stray ',' after a
// top-level value, yielding empty documents forever).
class DocumentProbe : public YAML::EventHandler {
 public:
  YAML::Mark start;
  bool content = false;

  void OnDocumentStart(const YAML::Mark& mark) override {
    start = mark;
    content = false;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { content = true; }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {
    content = true;
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    content = true;
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    content = true;
  }
  void OnMapEnd() override {}
};

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

Origin origin_at(const Doc& doc, const std::string& file, std::uint32_t pos) {
  const auto [line, col] = doc.line_col(pos);
  return Origin{file, line, col, {}};
}

std::string hex_byte(unsigned char c) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  return std::string("0x") + kDigits[c >> 4] + kDigits[c & 15];
}

// Length of the valid UTF-8 sequence of two to four bytes at s[i], or 0.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
  }
  return len;
}

// The first byte YAML text may not hold, and why: invalid UTF-8 (two names
// that differ only there would print as one), a NUL (yaml-cpp would stop or
// misreport it) or another control character. Tab, LF and CR are text.
std::optional<std::uint32_t> bad_yaml_byte(std::string_view s, std::string& why) {
  std::size_t i = s.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t len = utf8_length(s, i);
      if (len == 0) {
        why = "invalid UTF-8 (byte " + hex_byte(c) + "); YAML input must be UTF-8";
        return static_cast<std::uint32_t>(i);
      }
      i += len;
      continue;
    }
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
      why = c == 0 ? "a NUL byte is not allowed"
                   : "control character " + hex_byte(c) +
                         " is not allowed (in a double-quoted string, escape it)";
      return static_cast<std::uint32_t>(i);
    }
    ++i;
  }
  return std::nullopt;
}

std::optional<Doc> parse_json(const Source& source, Diagnostics* diags) {
  // nlohmann ends the input at a NUL byte and would ignore the rest.
  if (const void* nul = std::memchr(source.text.data(), '\0', source.text.size())) {
    if (diags) {
      const Doc doc(source.text);
      const auto pos = static_cast<std::uint32_t>(static_cast<const char*>(nul) - source.text.data());
      diags->error(origin_at(doc, source.name, pos), "malformed JSON: a NUL byte is not allowed");
    }
    return std::nullopt;
  }
  {
    Doc doc(source.text);
    JsonBuilder builder(doc);
    if (parse_plain_json(source.text, builder)) return doc;
  }
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

// A YAML stream of several documents (---): every document is read into one
// Doc, and `documents` lists their roots in order.
std::optional<Doc> parse_yaml_stream(const Source& source, Diagnostics* diags,
                                     std::vector<ValueId>& documents) {
  Doc doc(source.text);
  auto fail = [&](const YAML::Mark& mark, std::string message) {
    std::uint32_t line = 0, col = 0;
    if (!mark.is_null())
      line = static_cast<std::uint32_t>(mark.line + 1),
      col = static_cast<std::uint32_t>(mark.column + 1);
    if (diags) diags->error(Origin{source.name, line, col, {}}, "malformed YAML: " + message);
    return std::nullopt;
  };
  std::istringstream in(source.text);
  YamlBuilder builder(doc, 16 * source.text.size() + 100'000);
  try {
    YAML::Parser parser(in);
    // yaml-cpp may yield empty documents forever at a stray character; a
    // stream makes progress, so a document that starts where the previous
    // one did ends the loop with an error.
    std::int64_t last = -1;
    while (builder.error.empty() && parser.HandleNextDocument(builder)) {
      builder.next_document(documents);
      const YAML::Mark start = builder.document_start;
      if (start.pos == last) return fail(start, "unexpected text after the document");
      last = start.pos;
    }
  } catch (const YAML::DeepRecursion& e) {
    return fail(e.mark, "nested too deeply");
  } catch (const YAML::Exception& e) {
    return fail(e.mark, e.msg);
  }
  if (!builder.error.empty()) {
    YAML::Mark mark;
    const auto [line, col] = doc.line_col(builder.error_pos);
    mark.line = static_cast<int>(line) - 1;
    mark.column = static_cast<int>(col) - 1;
    return fail(mark, builder.error);
  }
  builder.finish();  // the root: a null value, for readers that look at it
  return doc;
}

std::optional<Doc> parse_yaml(const Source& source, Diagnostics* diags) {
  Doc doc(source.text);
  auto fail = [&](const YAML::Mark& mark, std::string message) {
    std::uint32_t line = 0, col = 0;
    if (!mark.is_null())
      line = static_cast<std::uint32_t>(mark.line + 1),
      col = static_cast<std::uint32_t>(mark.column + 1);
    if (diags) diags->error(Origin{source.name, line, col, {}}, "malformed YAML: " + message);
    return std::nullopt;
  };
  std::string why;
  if (const auto bad = bad_yaml_byte(source.text, why)) {
    YAML::Mark mark;
    const auto [line, col] = doc.line_col(*bad);
    mark.line = static_cast<int>(line) - 1;
    mark.column = static_cast<int>(col) - 1;
    return fail(mark, why);
  }
  std::istringstream in(source.text);
  YamlBuilder builder(doc, 16 * source.text.size() + 100'000);
  try {
    YAML::Parser parser(in);
    if (parser.HandleNextDocument(builder)) {
      // Trailing empty documents ("...\n---\n") carry nothing; another
      // real document is ambiguous, so it is an error, not a silent choice.
      DocumentProbe probe;
      std::int64_t last = -1;
      for (int i = 0; i < 16 && builder.error.empty() && parser.HandleNextDocument(probe); ++i) {
        if (probe.content)
          return fail(probe.start,
                      "the file holds more than one document (separated by ---); expected one");
        if (probe.start.pos == last || i == 15)
          return fail(probe.start, "unexpected text after the document");
        last = probe.start.pos;
      }
    }
  } catch (const YAML::DeepRecursion& e) {
    return fail(e.mark, "nested too deeply");
  } catch (const YAML::Exception& e) {
    return fail(e.mark, e.msg);
  }
  if (!builder.error.empty()) {
    YAML::Mark mark;
    const auto [line, col] = doc.line_col(builder.error_pos);
    mark.line = static_cast<int>(line) - 1;
    mark.column = static_cast<int>(col) - 1;
    return fail(mark, builder.error);
  }
  builder.finish();
  return doc;
}

}  // namespace

namespace {

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
        out.append(p.key.substr(0, kMaxKeyShown)) += "...(" + std::to_string(p.key.size()) + " bytes)";
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
      return std::string(doc_.text(v));
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

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1] ? 1 : 0)});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

bool Reader::fields(const FieldPath& path, ValueId object, std::initializer_list<Field> known) {
  for (const Field& f : known) *f.value = kNoValue;
  if (!is_object(path, object)) return false;
  const std::uint32_t n = doc_.size(object);
  if (!spend(path, object, read_cost(object))) return false;
  for (std::uint32_t i = 0; i < n; ++i) {
    const ValueId k = doc_.key(object, i);
    const std::string_view name = doc_.text(k);
    const Field* match = nullptr;
    for (const Field& f : known)
      if (f.name == name) match = &f;
    if (match && *match->value == kNoValue) {
      *match->value = doc_.member(object, i);
      continue;
    }
    const FieldPath here = path.child(name);
    if (match) {
      error(here, k, "given twice (first at " + where(*match->value) + ")");
      continue;
    }
    std::string message = "unknown field, ignored";
    std::string_view best;
    std::size_t best_distance = 3;
    for (const Field& f : known) {
      // The distance is at least the difference in length: a long key is
      // never compared (nor costs time in proportion to its square).
      const std::size_t gap = name.size() > f.name.size() ? name.size() - f.name.size()
                                                          : f.name.size() - name.size();
      if (gap >= best_distance) continue;
      const std::size_t d = edit_distance(name, f.name);
      if (d < best_distance) best_distance = d, best = f.name;
    }
    if (!best.empty()) {
      message += "; did you mean " + std::string(best) + "?";
    } else {
      message += " (known fields:";
      for (const Field& f : known) message += ' ' + std::string(f.name);
      message += ')';
    }
    diags_.unknown_field(origin(here, k), std::move(message));
  }
  return true;
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

std::optional<Bytes> Reader::size(const FieldPath& path, ValueId v) {
  const ValueKind k = doc_[v].kind;
  if ((k != ValueKind::Number && k != ValueKind::String) || plain_word(doc_, v)) {
    error(path, v, "expected a size (bytes, or a string like \"8Gi\"), got " + describe(v));
    return std::nullopt;
  }
  std::string problem;
  const auto b = parse_size(doc_.text(v), problem);
  if (!b) error(path, v, problem);
  return b;
}

std::optional<NanoCores> Reader::cpu(const FieldPath& path, ValueId v) {
  const ValueKind k = doc_[v].kind;
  if ((k != ValueKind::Number && k != ValueKind::String) || plain_word(doc_, v)) {
    error(
        path, v,
        "expected a CPU amount (cores like 1.5, or millicores like \"1500m\"), got " + describe(v));
    return std::nullopt;
  }
  std::string problem;
  const auto c = parse_cpu(doc_.text(v), problem);
  if (!c) error(path, v, problem);
  return c;
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
