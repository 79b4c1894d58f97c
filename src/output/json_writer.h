// Tiny streaming writers for the JSON and YAML documents of SPEC §6. They
// append straight into one std::string (no DOM), so rendering 100,000 nodes
// costs one pass and no per-node allocations. Both expose the same calls, so
// the document is written once, as a template over the writer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace eruplan {

// Appends `text` as a double-quoted string, valid both as JSON and as a YAML
// double-quoted scalar. Escapes '"', '\\', control characters, DEL, C1
// controls, U+2028/U+2029 and U+FEFF/U+FFFE/U+FFFF (YAML reads some of those
// as line breaks or rejects them). Each invalid UTF-8 byte becomes U+FFFD,
// so the output always parses.
void append_quoted(std::string& out, std::string_view text);

// True when `text` holds characters that append_quoted spells as escapes
// (controls, DEL, C1, line separators, BOM, invalid UTF-8): characters a
// terminal would not show as one visible column.
bool has_invisible_characters(std::string_view text);

// True when `text` may be written as a plain YAML scalar and still read back
// as this exact string by any YAML 1.1 or 1.2 parser: it starts with a
// letter, '_' or '/', holds only [A-Za-z0-9_./-], and is not a word YAML
// reads as a boolean or null (true, no, on, null, ...). Everything else is
// quoted: "1", "true", "", "a: b".
bool yaml_plain_safe(std::string_view text);

// Appends `text` as a YAML scalar: plain when yaml_plain_safe, else quoted.
void append_yaml_string(std::string& out, std::string_view text);

void append_int(std::string& out, std::int64_t value);

// Pretty JSON: 2-space indentation, "key": value, empty containers as {}
// and [], as most JSON tools print it.
// field(key, value): a key and its text or integer in one call, for a
// writer W with key(), string() and integer().
template <class W>
class FieldWriting {
 public:
  void field(std::string_view k, std::string_view s) {
    self().key(k);
    self().string(s);
  }
  void field(std::string_view k, const char* s) { field(k, std::string_view(s)); }
  void field(std::string_view k, std::int64_t v) {
    self().key(k);
    self().integer(v);
  }

 private:
  W& self() { return static_cast<W&>(*this); }
};

class JsonWriter : public FieldWriting<JsonWriter> {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}
  // A document nested `levels` deep in an outer one written by hand: every
  // line after the first is indented by that much more.
  JsonWriter(std::string& out, std::size_t levels) : out_(out), base_(2 * levels) {}

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  void key(std::string_view k);
  void string(std::string_view s);
  void integer(std::int64_t v);
  void number(std::string_view literal);  // a valid JSON number, written as is
  void boolean(bool b);
  void null();
  void finish() { out_ += '\n'; }

 private:
  void before_value();
  void close(char bracket);
  void newline_indent();

  std::string& out_;
  std::size_t base_ = 0;     // spaces before every indented line
  std::vector<bool> first_;  // per open container: nothing written in it yet
  bool after_key_ = false;
};

// Block-style YAML with the same calls: mappings "key: value", sequences
// "- item" indented under their key, empty containers as {} and [].
class YamlWriter : public FieldWriting<YamlWriter> {
 public:
  explicit YamlWriter(std::string& out) : out_(out) {}

  void begin_object() { open(false); }
  void end_object() { close("{}"); }
  void begin_array() { open(true); }
  void end_array() { close("[]"); }
  void key(std::string_view k);
  void string(std::string_view s);
  void integer(std::int64_t v);
  void number(std::string_view literal);
  void boolean(bool b);
  void null();
  void finish() {}

 private:
  // Where the next text goes: at the start of a line, after "key:" (a
  // scalar follows on the same line, a container on the next), or after
  // "- " (anything follows on the same line).
  enum class At { LineStart, AfterKey, AfterDash };
  struct Frame {
    bool array = false;
    int indent = 0;
    bool empty = true;
  };

  void open(bool array);
  void close(std::string_view empty_form);
  void item_prefix();
  void scalar_prefix();
  void indent(int n) { out_.append(static_cast<size_t>(n), ' '); }

  std::string& out_;
  std::vector<Frame> frames_;
  At at_ = At::LineStart;
};

// A key/value list (pairs of a name and an integer or a string: labels,
// instances, cpu_map, extended, deploy) as one mapping, in list order, with
// either writer.
template <class W, class List>
void write_mapping(W& w, const List& list) {
  w.begin_object();
  for (const auto& entry : list) {
    w.key(entry.first);
    if constexpr (std::is_integral_v<std::remove_cvref_t<decltype(entry.second)>>)
      w.integer(entry.second);
    else
      w.string(entry.second);
  }
  w.end_object();
}

// A list of strings (names, labels) as one sequence, with either writer.
template <class W>
void write_string_list(W& w, const std::vector<std::string>& items) {
  w.begin_array();
  for (const std::string& item : items) w.string(item);
  w.end_array();
}

// A list of objects as one sequence, each item a mapping whose members
// `write(item)` writes (to w), with either writer.
template <class W, class List, class F>
void write_objects(W& w, const List& list, F write) {
  w.begin_array();
  for (const auto& item : list) {
    w.begin_object();
    write(item);
    w.end_object();
  }
  w.end_array();
}

// A mapping of objects: for each item of `list`, the key `key_of(item)` and
// a mapping whose members `write(item)` writes (to w), with either writer.
template <class W, class List, class K, class F>
void write_keyed_objects(W& w, const List& list, K key_of, F write) {
  w.begin_object();
  for (const auto& item : list) {
    w.key(key_of(item));
    w.begin_object();
    write(item);
    w.end_object();
  }
  w.end_object();
}

// One change as two members of the mapping being written, `from`: before
// and `to`: after, each side written by `write(w, side)`, with either
// writer: realloc's before/after, diff's old/new.
template <class W, class T, class F>
void write_change(W& w, std::string_view from, const T& before, std::string_view to, const T& after,
                  F write) {
  w.key(from);
  write(w, before);
  w.key(to);
  write(w, after);
}

}  // namespace eruplan
