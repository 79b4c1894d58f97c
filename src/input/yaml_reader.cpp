// YAML text into the document tree (yaml_reader.h), from yaml-cpp's parser
// events; the bytes YAML may not hold are refused first, with their place.
#include "yaml_reader.h"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <sstream>

namespace eruplan {

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

  // A byte offset into the text as written: yaml-cpp consumes a UTF-8 byte
  // order mark before counting, so its positions start after one.
  std::uint32_t position(const YAML::Mark& mark) const {
    const std::uint32_t bom = doc_.source_.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    return mark.pos >= 0 ? static_cast<std::uint32_t>(mark.pos) + bom : 0;
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

// Where flow collections ([ and { outside quoted scalars and comments)
// first nest past yaml-cpp's depth guard (500): yaml-cpp queues a token for
// every open one before its guard fires, so 49,000 of them took 18 MB. A
// quote starts a quoted scalar where a token starts (after a space, a line
// start or one of -:[{,?); a plain or block scalar's brackets count too,
// which only matters past 500 unclosed ones.
std::optional<std::uint32_t> flow_too_deep(std::string_view s) {
  constexpr int kMaxFlowDepth = 500;
  int depth = 0;
  for (std::uint32_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const char before = i == 0 ? '\n' : s[i - 1];
    const bool quote = (c == '"' || c == '\'') &&
                       std::string_view(" \t\n-:[{,?").find(before) != std::string_view::npos;
    if (c == '#' && (before == ' ' || before == '\t' || before == '\n')) {
      while (i + 1 < s.size() && s[i + 1] != '\n') ++i;
    } else if (quote && c == '"') {
      while (++i < s.size() && s[i] != '"')
        if (s[i] == '\\') ++i;
    } else if (quote) {  // '' is a quote inside
      while (++i < s.size() && (s[i] != '\'' || (i + 1 < s.size() && s[i + 1] == '\'' && ++i))) {
      }
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxFlowDepth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
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

}  // namespace

namespace {

// Where reading stopped and why, for a "malformed YAML" error.
struct YamlProblem {
  YAML::Mark mark;
  std::string message;
  std::string path = {};  // the document it is in, when that says more: documents[1]
};

// Reads `source` into a Doc: the bytes YAML may not hold are refused first,
// then `documents(parser, builder)` drives yaml-cpp's parser over the
// stream and returns a problem it finds itself, if any. Every problem,
// whoever finds it, is one "malformed YAML" error at its line:col; the
// one-document and stream readers share this.
template <class Documents>
std::optional<Doc> read_yaml(const Source& source, Diagnostics* diags, Documents documents) {
  Doc doc(source.text);
  auto fail = [&](const YAML::Mark& mark, const std::string& message,
                  std::string path = {}) -> std::optional<Doc> {
    std::uint32_t line = 0, col = 0;
    if (!mark.is_null())
      line = static_cast<std::uint32_t>(mark.line + 1),
      col = static_cast<std::uint32_t>(mark.column + 1);
    if (diags)
      diags->error(Origin{source.name, line, col, std::move(path)}, "malformed YAML: " + message);
    return std::nullopt;
  };
  auto mark_at = [&doc](std::uint32_t pos) {
    YAML::Mark mark;
    const auto [line, col] = doc.line_col(pos);
    mark.line = static_cast<int>(line) - 1;
    mark.column = static_cast<int>(col) - 1;
    return mark;
  };
  std::string why;
  if (const auto bad = bad_yaml_byte(source.text, why)) return fail(mark_at(*bad), why);
  if (const auto deep = flow_too_deep(source.text))
    return fail(mark_at(*deep), "nested too deeply");
  std::istringstream in(source.text);
  YamlBuilder builder(doc, 16 * source.text.size() + 100'000);
  try {
    YAML::Parser parser(in);
    if (std::optional<YamlProblem> problem = documents(parser, builder))
      return fail(problem->mark, problem->message, std::move(problem->path));
  } catch (const YAML::DeepRecursion& e) {
    return fail(e.mark, "nested too deeply");
  } catch (const YAML::Exception& e) {
    return fail(e.mark, e.msg);
  }
  if (!builder.error.empty()) return fail(mark_at(builder.error_pos), builder.error);
  builder.finish();  // the root (a null value when there is none), for readers that look at it
  return doc;
}

}  // namespace

// A YAML stream of several documents (---): every document is read into one
// Doc, and `documents` lists their roots in order.
std::optional<Doc> parse_yaml_stream(const Source& source, Diagnostics* diags,
                                     std::vector<ValueId>& documents) {
  documents.clear();
  return read_yaml(source, diags, [&documents](YAML::Parser& parser, YamlBuilder& builder) {
    // yaml-cpp may yield empty documents forever at a stray character; a
    // stream makes progress, so a document that starts where the previous
    // one did ends the loop with an error.
    std::int64_t last = -1;
    while (builder.error.empty() && parser.HandleNextDocument(builder)) {
      builder.next_document(documents);
      const YAML::Mark start = builder.document_start;
      if (start.pos == last)
        return std::optional<YamlProblem>{{start, "unexpected text after the document"}};
      last = start.pos;
    }
    return std::optional<YamlProblem>{};
  });
}

std::optional<Doc> parse_yaml(const Source& source, Diagnostics* diags) {
  return read_yaml(source, diags, [](YAML::Parser& parser, YamlBuilder& builder) {
    if (!parser.HandleNextDocument(builder)) return std::optional<YamlProblem>{};
    // Trailing empty documents ("...\n---\n") carry nothing; another real
    // document is ambiguous, so it is an error, not a silent choice. Its
    // path names it as a stream's are named (documents[1]: the second).
    DocumentProbe probe;
    std::int64_t last = -1;
    for (int i = 0; i < 16 && builder.error.empty() && parser.HandleNextDocument(probe); ++i) {
      if (probe.content)
        return std::optional<YamlProblem>{
            {probe.start, "the file holds more than one document (separated by ---); expected one",
             "documents[" + std::to_string(i + 1) + "]"}};
      if (probe.start.pos == last || i == 15)
        return std::optional<YamlProblem>{{probe.start, "unexpected text after the document"}};
      last = probe.start.pos;
    }
    return std::optional<YamlProblem>{};
  });
}

}  // namespace eruplan
