#include "json_writer.h"

#include <array>
#include <charconv>

namespace eruplan {

namespace {

// Length of the valid UTF-8 sequence starting at s[i] (2..4) and its code
// point, or 0 when the bytes there are not valid UTF-8.
int utf8_sequence(std::string_view s, size_t i, std::uint32_t& cp) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  int len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    cp = c & 0x0F;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    cp = c & 0x07;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + static_cast<size_t>(len) > s.size()) return 0;
  for (int k = 1; k < len; ++k) {
    const unsigned char b = byte(i + static_cast<size_t>(k));
    if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
    cp = (cp << 6) | (b & 0x3F);
  }
  return len;
}

// Code points YAML treats as line breaks or does not allow unescaped.
bool needs_escape(std::uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0xFEFF ||
         cp == 0xFFFE || cp == 0xFFFF;
}

// JSON's two-character escapes (YAML reads them too); null for the others.
const char* short_escape(unsigned char c) {
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    default:
      return nullptr;
  }
}

void append_u_escape(std::string& out, std::uint32_t cp) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(cp >> shift) & 0xF];
}

bool equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != b[i]) return false;
  }
  return true;
}

}  // namespace

void append_quoted(std::string& out, std::string_view text) {
  out += '"';
  size_t run = 0;  // start of the bytes not yet copied
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    out.append(text.data() + run, i - run);
    if (c < 0x80) {
      const char* escape = short_escape(c);
      if (escape != nullptr) {
        out += escape;
      } else {
        append_u_escape(out, c);  // other controls and DEL
      }
      ++i;
    } else {
      std::uint32_t cp = 0;
      const int len = utf8_sequence(text, i, cp);
      if (len == 0) {
        out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
        ++i;
      } else {
        if (needs_escape(cp)) {
          append_u_escape(out, cp);
        } else {
          out.append(text.data() + i, static_cast<size_t>(len));
        }
        i += static_cast<size_t>(len);
      }
    }
    run = i;
  }
  out.append(text.data() + run, text.size() - run);
  out += '"';
}

bool has_invisible_characters(std::string_view text) {
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c < 0x20 || c == 0x7F) return true;
      ++i;
      continue;
    }
    std::uint32_t cp = 0;
    const int len = utf8_sequence(text, i, cp);
    if (len == 0 || needs_escape(cp)) return true;
    i += static_cast<size_t>(len);
  }
  return false;
}

bool yaml_plain_safe(std::string_view text) {
  if (text.empty()) return false;
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  const char first = text.front();
  if (!letter(first) && first != '_' && first != '/') return false;
  for (const char c : text) {
    if (!letter(c) && !(c >= '0' && c <= '9') && c != '_' && c != '.' && c != '/' && c != '-')
      return false;
  }
  // YAML 1.1 booleans and null; 1.2 only knows some of them, but a reader
  // may use either.
  static constexpr std::array<std::string_view, 9> kWords = {"true", "false", "yes", "no",  "y",
                                                             "n",    "on",    "off", "null"};
  for (const auto word : kWords)
    if (equals_ignore_case(text, word)) return false;
  return true;
}

void append_yaml_string(std::string& out, std::string_view text) {
  if (yaml_plain_safe(text)) {
    out += text;
  } else {
    append_quoted(out, text);
  }
}

void append_int(std::string& out, std::int64_t value) {
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
  out.append(buf, static_cast<size_t>(end - buf));
}

// --- JSON ---

void JsonWriter::newline_indent() {
  out_ += '\n';
  out_.append(base_ + 2 * first_.size(), ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (first_.empty()) return;  // the document's root
  if (!first_.back()) out_ += ',';
  first_.back() = false;
  newline_indent();
}

void JsonWriter::close(char bracket) {
  const bool empty = first_.back();
  first_.pop_back();
  if (!empty) newline_indent();
  out_ += bracket;
}

void JsonWriter::begin_object() {
  before_value();
  out_ += '{';
  first_.push_back(true);
}

void JsonWriter::end_object() { close('}'); }

void JsonWriter::begin_array() {
  before_value();
  out_ += '[';
  first_.push_back(true);
}

void JsonWriter::end_array() { close(']'); }

void JsonWriter::key(std::string_view k) {
  if (!first_.back()) out_ += ',';
  first_.back() = false;
  newline_indent();
  append_quoted(out_, k);
  out_ += ": ";
  after_key_ = true;
}

void JsonWriter::string(std::string_view s) {
  before_value();
  append_quoted(out_, s);
}

void JsonWriter::integer(std::int64_t v) {
  before_value();
  append_int(out_, v);
}

void JsonWriter::number(std::string_view literal) {
  before_value();
  out_ += literal;
}

void JsonWriter::boolean(bool b) {
  before_value();
  out_ += b ? "true" : "false";
}

void JsonWriter::null() {
  before_value();
  out_ += "null";
}

// --- YAML ---

// Implicit YAML keys may be at most 1024 characters as written (after
// quoting and escapes); longer ones are written as explicit "? key" entries.
constexpr size_t kLongKey = 1000;

void YamlWriter::item_prefix() {
  Frame& f = frames_.back();
  f.empty = false;
  switch (at_) {
    case At::AfterKey:  // first item of a sequence that is a key's value
      out_ += '\n';
      indent(f.indent);
      break;
    case At::AfterDash:  // first item of a sequence inside a sequence
      break;
    case At::LineStart:
      indent(f.indent);
      break;
  }
  out_ += "- ";
  at_ = At::AfterDash;
}

void YamlWriter::open(bool array) {
  if (!frames_.empty() && frames_.back().array) item_prefix();
  const int indent = frames_.empty() ? 0 : frames_.back().indent + 2;
  frames_.push_back({array, indent, true});
}

void YamlWriter::close(std::string_view empty_form) {
  const Frame f = frames_.back();
  frames_.pop_back();
  if (!f.empty) return;  // its lines are already ended
  if (at_ == At::AfterKey) out_ += ' ';
  out_ += empty_form;
  out_ += '\n';
  at_ = At::LineStart;
}

void YamlWriter::key(std::string_view k) {
  Frame& f = frames_.back();
  f.empty = false;
  if (at_ == At::AfterKey) out_ += '\n';
  if (at_ != At::AfterDash) indent(f.indent);
  // The limit is on the key as written: escapes (600 tabs are 1,200
  // characters) count, so measure the written form.
  const std::size_t start = out_.size();
  append_yaml_string(out_, k);
  if (out_.size() - start > kLongKey) {
    out_.insert(start, "? ");
    out_ += '\n';
    indent(f.indent);
  }
  out_ += ':';
  at_ = At::AfterKey;
}

void YamlWriter::scalar_prefix() {
  if (!frames_.empty() && frames_.back().array) item_prefix();
  if (at_ == At::AfterKey) out_ += ' ';
}

void YamlWriter::string(std::string_view s) {
  scalar_prefix();
  append_yaml_string(out_, s);
  out_ += '\n';
  at_ = At::LineStart;
}

void YamlWriter::integer(std::int64_t v) {
  scalar_prefix();
  append_int(out_, v);
  out_ += '\n';
  at_ = At::LineStart;
}

void YamlWriter::number(std::string_view literal) {
  scalar_prefix();
  out_ += literal;
  out_ += '\n';
  at_ = At::LineStart;
}

void YamlWriter::boolean(bool b) {
  scalar_prefix();
  out_ += b ? "true" : "false";
  out_ += '\n';
  at_ = At::LineStart;
}

void YamlWriter::null() {
  scalar_prefix();
  out_ += "null";
  out_ += '\n';
  at_ = At::LineStart;
}

}  // namespace eruplan
