// JSON text into the document tree (json_reader.h): strict RFC 8259 JSON in
// one pass over the text, no copies but for strings with escapes, every
// problem worded here at the first byte that does not fit.
//
// Written by hand rather than kept on nlohmann's SAX parser because the
// difference shows end to end (bench/ BM_ParseJson: about 4x on the
// 100,000-node text, some 20% of the whole plan); tests/json_reader_test.cpp
// holds it to nlohmann on random and mutated documents: the same tree, or
// both refuse at the same token.
#include "json_reader.h"

#include <cstring>

#include "huge_pages.h"
#include "json_scan.h"

namespace eruplan {

// A parse's working stacks: the open containers and their children so far.
// A large file read a piece at a time parses each piece with the same ones
// (their memory kept), rather than allocating three vectors per item.
struct JsonWork {
  struct Open {
    ValueId id;
    std::size_t first_child;
  };
  std::vector<Open> stack;
  std::vector<ValueId> scratch;
  std::vector<char> open;  // '{' or '[' per open container (OnePassJson)

  void clear() {
    stack.clear();
    scratch.clear();
    open.clear();
  }
};

// Builds the flat tree from JSON events with explicit source positions.
// Children of an open container collect in `scratch_` and move into the
// doc's slots when it closes, so every container's members end up contiguous.
class JsonBuilder {
 public:
  // `reserve`: room for the whole source up front (a whole document); a
  // piece parsed into a reused Doc keeps the capacity it has.
  JsonBuilder(Doc& doc, JsonWork& work, bool reserve = true)
      : doc_(doc), stack_(work.stack), scratch_(work.scratch) {
    work.clear();
    scratch_.reserve(1024);
    if (!reserve) return;
    // Virtual reservations: only the pages written are ever touched, in
    // 2 MiB pages where they can be (huge_pages.h).
    doc.values_.reserve(doc.source_.size() / 4 + 16);
    doc.slots_.reserve(doc.source_.size() / 4 + 16);
    advise_huge_pages(doc.values_.data(), doc.values_.capacity() * sizeof(Doc::Value));
    advise_huge_pages(doc.slots_.data(), doc.slots_.capacity() * sizeof(ValueId));
  }

  void scalar(ValueKind kind, std::uint32_t start, std::uint32_t end, bool flag = false) {
    add(start, start, end - start, kind, false, flag);
  }

  // A string whose text is the source between the quotes at `open` and `close`.
  void string(std::uint32_t open, std::uint32_t close) {
    add(open, open + 1, close - open - 1, ValueKind::String);
  }

  // A string with escapes: its unescaped text goes to the arena.
  void owned_string(std::uint32_t open, const std::string& text) {
    add(open, static_cast<std::uint32_t>(doc_.arena_.size()),
        static_cast<std::uint32_t>(text.size()), ValueKind::String, true);
    doc_.arena_ += text;
  }

  void open(ValueKind kind, std::uint32_t pos) {
    const ValueId id = add(pos, 0, 0, kind);
    stack_.push_back({id, scratch_.size()});
  }

  void close(bool object) {
    const JsonWork::Open top = stack_.back();
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
  // The value is written in place, field by field: a Value built on the
  // stack and then copied was stored a byte at a time and read back 8 bytes
  // at a time, a stalled store forward per value (a third of the time spent
  // on each string of a pod list).
  ValueId add(std::uint32_t pos, std::uint32_t a, std::uint32_t b, ValueKind kind,
              bool owned = false, bool flag = false) {
    const auto id = static_cast<ValueId>(doc_.values_.size());
    Doc::Value& v = doc_.values_.emplace_back();
    v.pos = pos;
    v.a = a;
    v.b = b;
    v.kind = kind;
    v.owned = owned;
    v.flag = flag;
    if (stack_.empty())
      doc_.root_ = id;
    else
      scratch_.push_back(id);
    return id;
  }

  Doc& doc_;
  std::vector<JsonWork::Open>& stack_;
  std::vector<ValueId>& scratch_;
};

namespace {

bool is_json_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool is_digit_char(char c) { return c >= '0' && c <= '9'; }

std::string hex_byte(unsigned char c) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  return std::string("0x") + kDigits[c >> 4] + kDigits[c & 15];
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The length of the well-formed UTF-8 sequence at `q` (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF), or 0 with `bad`
// at its first byte that does not fit. The text's closing NUL stops it.
std::size_t utf8_sequence(const char* q, const char*& bad) {
  const auto b0 = static_cast<unsigned char>(q[0]);
  std::size_t n = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) low = 0xA0;
    if (b0 == 0xED) high = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) low = 0x90;
    if (b0 == 0xF4) high = 0x8F;
  } else {
    bad = q;
    return 0;
  }
  for (std::size_t i = 1; i < n; ++i) {
    const auto c = static_cast<unsigned char>(q[i]);
    if (c < (i == 1 ? low : 0x80) || c > (i == 1 ? high : 0xBF)) {
      bad = q + i;
      return 0;
    }
  }
  return n;
}

// `text` must end in a NUL that is not part of it (std::string's) and hold
// no other NUL (parse_json checks): the NUL stops every scan at the end.
class OnePassJson {
 public:
  OnePassJson(std::string_view text, JsonBuilder& b, JsonWork& work)
      : base_(text.data()),
        end_(text.data() + text.size()),
        p_(text.data()),
        b_(b),
        open_(work.open) {}

  bool run();

  // One value at the start of the text, not the whole text: run() stops
  // after it and the spaces that follow, at `value_end` (no byte order mark).
  bool prefix = false;
  std::uint32_t value_end = 0;

  std::uint32_t error_pos = 0;
  std::string error;

 private:
  enum class Step { Failed, Value, Opened };  // Opened: a container awaits its first element

  std::uint32_t off(const char* q) const { return static_cast<std::uint32_t>(q - base_); }
  // Most runs are none, or the one space after a ':'; indentation takes the
  // 16-bytes-at-a-time scan. (*p_ a space: p_[1] is at most the final NUL.)
  void skip_space() {
    if (is_json_space(*p_)) skip_space_run();
  }
  void skip_space_run() {
    if (!is_json_space(p_[1]))
      ++p_;
    else
      p_ = skip_json_space(p_ + 2, end_);
  }
  bool fail(const char* at, std::string message) {
    error_pos = off(at);
    error = std::move(message);
    return false;
  }
  // How the byte at `at` is named in a message.
  std::string found(const char* at) const {
    if (at == end_) return "the end of the input";
    const auto c = static_cast<unsigned char>(*at);
    if (c == '\'') return "\"'\"";
    if (c > 0x20 && c < 0x7F) return std::string("'") + static_cast<char>(c) + "'";
    return "byte " + hex_byte(c);
  }
  // The usual slips of JSON written by hand get a word of their own.
  bool expected(const char* at, std::string_view what) {
    std::string message = "expected " + std::string(what) + ", found " + found(at);
    if (at != end_ && *at == '\'') message += " (JSON strings take double quotes)";
    if (at != end_ && (*at == '/' || *at == '#')) message += " (JSON has no comments)";
    return fail(at, std::move(message));
  }

  Step value();
  bool key();     // a member's key, its ':' and the space after
  bool string();  // at the opening quote
  bool string_rest(const char* q);
  bool escape(const char*& q, std::string& out);
  bool literal();
  bool number();

  const char* const base_;
  const char* const end_;
  const char* p_;
  JsonBuilder& b_;
  std::vector<char>& open_;  // '{' or '[' per open container
};

bool OnePassJson::run() {
  if (!prefix &&
      std::string_view(p_, static_cast<std::size_t>(end_ - p_)).starts_with("\xEF\xBB\xBF"))
    p_ += 3;  // a UTF-8 byte order mark, as some editors write
  skip_space();
  for (;;) {
    const Step step = value();
    if (step == Step::Failed) return false;
    if (step == Step::Opened) continue;
    // After a value: a separator, closing brackets, or the end.
    for (;;) {
      skip_space();
      if (open_.empty() && prefix) {
        value_end = off(p_);
        return true;
      }
      if (open_.empty())
        return p_ == end_ || expected(p_, "the end of the input after the document");
      const bool object = open_.back() == '{';
      if (*p_ == ',') {
        ++p_;
        skip_space();
        if (*p_ == (object ? '}' : ']'))
          return fail(p_, std::string("expected ") + (object ? "a string key" : "a value") +
                              " after ',', found " + found(p_) + " (JSON has no trailing commas)");
        if (object && !key()) return false;
        break;
      }
      if (*p_ != (object ? '}' : ']')) return expected(p_, object ? "',' or '}'" : "',' or ']'");
      b_.close(object);
      open_.pop_back();
      ++p_;
    }
  }
}

OnePassJson::Step OnePassJson::value() {
  const auto done = [](bool ok) { return ok ? Step::Value : Step::Failed; };
  switch (*p_) {
    case '{':
      b_.open(ValueKind::Object, off(p_));
      ++p_;
      skip_space();
      if (*p_ == '}') {
        ++p_;
        b_.close(true);
        return Step::Value;
      }
      open_.push_back('{');
      if (*p_ != '"') return done(expected(p_, "a string key or '}'"));
      return key() ? Step::Opened : Step::Failed;
    case '[':
      b_.open(ValueKind::Array, off(p_));
      ++p_;
      skip_space();
      if (*p_ == ']') {
        ++p_;
        b_.close(false);
        return Step::Value;
      }
      open_.push_back('[');
      return Step::Opened;
    case '"':
      return done(string());
    case 't':
    case 'f':
    case 'n':
      return done(literal());
    default:
      if (*p_ == '-' || is_digit_char(*p_)) return done(number());
      return done(expected(p_, "a value"));
  }
}

bool OnePassJson::key() {
  if (*p_ != '"') return expected(p_, "a string key");
  if (!string()) return false;
  skip_space();
  if (*p_ != ':') return expected(p_, "':' after the key");
  ++p_;
  skip_space();
  return true;
}

bool OnePassJson::string() {
  // The common case: printable ASCII up to the closing quote.
  const char* q = find_string_special(p_ + 1, end_);
  if (*q != '"') return string_rest(q);
  b_.string(off(p_), off(q));
  p_ = q + 1;
  return true;
}

// The rest of the string at p_ from `q`, its first byte that is not
// printable ASCII: escapes are decoded into a copy, UTF-8 is checked.
bool OnePassJson::string_rest(const char* q) {
  std::string out;  // the text so far, once there is an escape
  bool escaped = false;
  for (;;) {
    const auto c = static_cast<unsigned char>(*q);
    if (c == '"') break;
    if (q == end_) return fail(p_, "the string is not closed before the end of the input");
    if (c < 0x20)
      return fail(q, "a control character (byte " + hex_byte(c) +
                         ") must be written as an escape in a string");
    if (c == '\\') {
      if (!escaped) out.assign(p_ + 1, q);
      escaped = true;
      if (!escape(q, out)) return false;
    } else if (c >= 0x80) {
      const char* bad = nullptr;
      const std::size_t n = utf8_sequence(q, bad);
      if (n == 0 && bad == end_)
        return fail(p_, "the string is not closed before the end of the input");
      if (n == 0)
        return fail(bad, "invalid UTF-8 in a string (byte " +
                             hex_byte(static_cast<unsigned char>(*bad)) + ")");
      if (escaped) out.append(q, n);
      q += n;
    }
    // Then printable ASCII up to the next byte to look at.
    const char* const run = find_string_special(q, end_);
    if (escaped) out.append(q, run);
    q = run;
  }
  if (escaped)
    b_.owned_string(off(p_), out);
  else
    b_.string(off(p_), off(q));
  p_ = q + 1;
  return true;
}

// An escape at q (on its backslash) onto `out`; q moves past it.
bool OnePassJson::escape(const char*& q, std::string& out) {
  static constexpr std::string_view kFrom = "\"\\/bfnrt", kTo = "\"\\/\b\f\n\r\t";
  const char* const start = q;
  ++q;
  if (const auto i = kFrom.find(*q); i != std::string_view::npos) {
    out += kTo[i];
    ++q;
    return true;
  }
  if (*q != 'u')
    return fail(q,
                "expected an escape (one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX) after "
                "'\\' in a string, found " +
                    found(q));
  auto hex4 = [&](std::uint32_t& unit) {  // q on the 'u'
    unit = 0;
    for (int i = 1; i <= 4; ++i) {
      const int d = hex_value(q[i]);
      if (d < 0) return expected(q + i, "four hex digits after \\u");
      unit = unit * 16 + static_cast<std::uint32_t>(d);
    }
    q += 5;
    return true;
  };
  std::uint32_t unit = 0;
  if (!hex4(unit)) return false;
  if (unit >= 0xDC00 && unit <= 0xDFFF)
    return fail(start, "a \\uDC00-\\uDFFF escape must follow a \\uD800-\\uDBFF escape");
  if (unit >= 0xD800 && unit <= 0xDBFF) {
    const char* const second = q;
    std::uint32_t low = 0;
    if (q[0] != '\\' || q[1] != 'u' || !(++q, hex4(low)) || low < 0xDC00 || low > 0xDFFF) {
      if (error.empty())
        fail(second, "a \\uD800-\\uDBFF escape must be followed by a \\uDC00-\\uDFFF escape");
      return false;
    }
    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
  }
  append_utf8(out, unit);
  return true;
}

bool OnePassJson::literal() {
  const std::string_view word = *p_ == 't' ? "true" : *p_ == 'f' ? "false" : "null";
  for (std::size_t i = 1; i < word.size(); ++i)
    if (p_[i] != word[i]) return expected(p_ + i, "the word " + std::string(word));
  b_.scalar(word == "null" ? ValueKind::Null : ValueKind::Bool, off(p_),
            off(p_) + static_cast<std::uint32_t>(word.size()), word == "true");
  p_ += word.size();
  return true;
}

bool OnePassJson::number() {
  const char* q = p_;
  if (*q == '-') ++q;
  if (*q == '0') {
    ++q;
  } else if (is_digit_char(*q)) {
    while (is_digit_char(*q)) ++q;
  } else {
    return expected(q, "a digit after '-'");
  }
  if (*q == '.') {
    ++q;
    if (!is_digit_char(*q)) return expected(q, "a digit after the decimal point");
    while (is_digit_char(*q)) ++q;
  }
  if (*q == 'e' || *q == 'E') {
    ++q;
    if (*q == '+' || *q == '-') ++q;
    if (!is_digit_char(*q)) return expected(q, "a digit in the exponent");
    while (is_digit_char(*q)) ++q;
  }
  b_.scalar(ValueKind::Number, off(p_), off(q));
  p_ = q;
  return true;
}

Origin origin_at(const Doc& doc, const std::string& file, std::uint32_t pos) {
  const auto [line, col] = doc.line_col(pos);
  return Origin{file, line, col, {}};
}

}  // namespace

std::optional<Doc> parse_json(const Source& source, Diagnostics* diags) {
  const std::string_view text = source.text;
  Doc doc(text);
  // A NUL would end the scans early; a JSON text holds none outside strings,
  // and inside one it must be written \u0000.
  if (const void* nul = std::memchr(text.data(), '\0', text.size())) {
    if (diags)
      diags->error(
          origin_at(doc, source.name,
                    static_cast<std::uint32_t>(static_cast<const char*>(nul) - text.data())),
          "malformed JSON: a NUL byte is not allowed");
    return std::nullopt;
  }
  JsonWork work;
  JsonBuilder builder(doc, work);
  OnePassJson parser(text, builder, work);
  if (parser.run()) return doc;
  if (diags)
    diags->error(origin_at(doc, source.name, parser.error_pos), "malformed JSON: " + parser.error);
  return std::nullopt;
}

bool parse_json_value(std::string_view text, Doc& doc, std::uint32_t line, std::uint32_t col,
                      std::uint32_t& end) {
  doc.reset(text, line, col);
  thread_local JsonWork work;  // kept from piece to piece
  JsonBuilder builder(doc, work, false);
  OnePassJson parser(text, builder, work);
  parser.prefix = true;
  if (!parser.run()) return false;
  end = parser.value_end;
  doc.set_source(text.substr(0, end));
  return true;
}

}  // namespace eruplan
