// eruplan's one-pass JSON reader against nlohmann's SAX parser
// (tests/json_reference.h), on random documents and on random mutations of
// them: both build the same tree (kinds, text, positions), or both refuse at
// the same token; and the reader's own messages, case by case.
#include "json_reader.h"

#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string>

#include "json_reference.h"

using namespace eruplan;

namespace {

class RandomJson {
 public:
  explicit RandomJson(std::uint32_t seed) : rng_(seed) {}

  std::string document() {
    std::string out;
    space(out);
    value(out, 0);
    space(out);
    return out;
  }

  // One byte deleted, inserted or replaced.
  std::string mutate(std::string text) {
    if (text.empty()) return "{";
    const std::size_t at = pick(text.size());
    static constexpr char kBytes[] =
        "{}[]:,\"\\ 0123456789-+.eEtfnulrbu/\x01\x1F\x7F\xC3\xA9\x80\xED\xF4\xFFz";
    const char c = kBytes[pick(sizeof kBytes - 1)];
    switch (pick(3)) {
      case 0:
        text.erase(at, 1);
        break;
      case 1:
        text.insert(at, 1, c);
        break;
      default:
        text[at] = c;
    }
    return text;
  }

 private:
  std::size_t pick(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
  }

  void space(std::string& out) {
    static constexpr const char* kSpaces[] = {"", "", " ", "\n  ", "\t", "\r\n"};
    out += kSpaces[pick(6)];
  }

  void string(std::string& out) {
    static constexpr const char* kParts[] = {"a",
                                             "node",
                                             "Mi",
                                             " ",
                                             "\\\"",
                                             "\\\\",
                                             "\\n",
                                             "\\u00e9",
                                             "\xC3\xA9",
                                             "\\ud83d\\ude00",
                                             "-",
                                             "7",
                                             "\\/\\b\\t",
                                             "\\u0000",
                                             "\xE2\x82\xAC",
                                             "\xF0\x9F\x98\x80",
                                             "\\uD834\\uDD1E",
                                             "\\r\\f"};
    out += '"';
    for (std::size_t n = pick(5); n > 0; --n) out += kParts[pick(std::size(kParts))];
    out += '"';
  }

  void value(std::string& out, int depth) {
    const std::size_t kind = depth >= 4 ? 3 + pick(5) : pick(8);
    switch (kind) {
      case 0:
      case 1: {
        out += '{';
        for (std::size_t n = pick(4), i = 0; i < n; ++i) {
          if (i) out += ',';
          space(out);
          string(out);
          space(out);
          out += ':';
          space(out);
          value(out, depth + 1);
          space(out);
        }
        out += '}';
        break;
      }
      case 2: {
        out += '[';
        for (std::size_t n = pick(4), i = 0; i < n; ++i) {
          if (i) out += ',';
          space(out);
          value(out, depth + 1);
          space(out);
        }
        out += ']';
        break;
      }
      case 3:
      case 4:
        string(out);
        break;
      case 5: {
        static constexpr const char* kNumbers[] = {"0",       "-1",   "12", "2.5",
                                                   "-0.25e3", "1E+2", "100"};
        out += kNumbers[pick(7)];
        break;
      }
      default: {
        static constexpr const char* kLiterals[] = {"true", "false", "null"};
        out += kLiterals[pick(3)];
      }
    }
  }

  std::mt19937 rng_;
};

// A Doc views its Source's text: both are kept together.
struct Outcome {
  std::unique_ptr<Source> source;
  std::optional<Doc> doc;
  std::string message;
};

Outcome read(const std::string& text) {
  Outcome out{std::make_unique<Source>(Source{"r.json", text, InputFormat::Json}), {}, {}};
  Diagnostics diags;
  out.doc = parse_json(*out.source, &diags);
  out.message = diags.to_string();
  return out;
}

}  // namespace

TEST_CASE("JSON: the one-pass reader and nlohmann agree on random and mutated documents") {
  RandomJson gen(20261123);
  int both_read = 0, both_refused = 0;
  for (int i = 0; i < 6000; ++i) {
    std::string text = gen.document();
    if (i % 2 == 1) text = gen.mutate(std::move(text));
    if (i % 6 == 5) text = gen.mutate(std::move(text));
    CAPTURE(text);
    const reference::Agreement agreement = reference::compare(text);
    CHECK_MESSAGE(agreement.problem.empty(), agreement.problem);
    ++(agreement.read ? both_read : both_refused);
  }
  // Both outcomes are exercised often.
  CHECK(both_read > 2000);
  CHECK(both_refused > 1500);
}

TEST_CASE("JSON: each problem in the reader's own words, at its first byte") {
  const std::pair<std::string, std::string> cases[] = {
      {"", "r.json:1:1: error: malformed JSON: expected a value, found the end of the input\n"},
      {"  \n", "r.json:2:1: error: malformed JSON: expected a value, found the end of the input\n"},
      {"{\"a\": 1,}",
       "r.json:1:9: error: malformed JSON: expected a string key after ',', found '}' "
       "(JSON has no trailing commas)\n"},
      {"[1,]",
       "r.json:1:4: error: malformed JSON: expected a value after ',', found ']' (JSON "
       "has no trailing commas)\n"},
      {"{'a': 1}",
       "r.json:1:2: error: malformed JSON: expected a string key or '}', found \"'\" "
       "(JSON strings take double quotes)\n"},
      {"[1, // one\n2]",
       "r.json:1:5: error: malformed JSON: expected a value, found '/' (JSON "
       "has no comments)\n"},
      {"{\"a\" 1}", "r.json:1:6: error: malformed JSON: expected ':' after the key, found '1'\n"},
      {"{1: 2}", "r.json:1:2: error: malformed JSON: expected a string key or '}', found '1'\n"},
      {"{\"a\": 1 \"b\": 2}",
       "r.json:1:9: error: malformed JSON: expected ',' or '}', found '\"'\n"},
      {"[1 2]", "r.json:1:4: error: malformed JSON: expected ',' or ']', found '2'\n"},
      {"{} x",
       "r.json:1:4: error: malformed JSON: expected the end of the input after the "
       "document, found 'x'\n"},
      {"[tru]", "r.json:1:5: error: malformed JSON: expected the word true, found ']'\n"},
      {"nul",
       "r.json:1:4: error: malformed JSON: expected the word null, found the end of the "
       "input\n"},
      {"-x", "r.json:1:2: error: malformed JSON: expected a digit after '-', found 'x'\n"},
      {"1.e3",
       "r.json:1:3: error: malformed JSON: expected a digit after the decimal point, "
       "found 'e'\n"},
      {"1e+",
       "r.json:1:4: error: malformed JSON: expected a digit in the exponent, found the end "
       "of the input\n"},
      {"01",
       "r.json:1:2: error: malformed JSON: expected the end of the input after the "
       "document, found '1'\n"},
      {"\"abc",
       "r.json:1:1: error: malformed JSON: the string is not closed before the end of "
       "the input\n"},
      {"\"a\tb\"",
       "r.json:1:3: error: malformed JSON: a control character (byte 0x09) must be "
       "written as an escape in a string\n"},
      {"\"\\q\"",
       "r.json:1:3: error: malformed JSON: expected an escape (one of \\\" \\\\ \\/ "
       "\\b \\f \\n \\r \\t \\uXXXX) after '\\' in a string, found 'q'\n"},
      {"\"\\u12g4\"",
       "r.json:1:6: error: malformed JSON: expected four hex digits after \\u, "
       "found 'g'\n"},
      {"\"\\uDC00\"",
       "r.json:1:2: error: malformed JSON: a \\uDC00-\\uDFFF escape must follow a "
       "\\uD800-\\uDBFF escape\n"},
      {"\"\\uD800x\"",
       "r.json:1:8: error: malformed JSON: a \\uD800-\\uDBFF escape must be "
       "followed by a \\uDC00-\\uDFFF escape\n"},
      {"\"\\uD800\\u0041\"",
       "r.json:1:8: error: malformed JSON: a \\uD800-\\uDBFF escape must be "
       "followed by a \\uDC00-\\uDFFF escape\n"},
      {"[\"\xC3\"]", "r.json:1:4: error: malformed JSON: invalid UTF-8 in a string (byte 0x22)\n"},
      {"\"\xED\xA0\x80\"",
       "r.json:1:3: error: malformed JSON: invalid UTF-8 in a string (byte "
       "0xA0)\n"},
      {"\"\xFF\"", "r.json:1:2: error: malformed JSON: invalid UTF-8 in a string (byte 0xFF)\n"},
      {"\xC3\xA9", "r.json:1:1: error: malformed JSON: expected a value, found byte 0xC3\n"},
      {std::string("[1,\0]", 5), "r.json:1:4: error: malformed JSON: a NUL byte is not allowed\n"},
  };
  for (const auto& c : cases) {  // no structured binding: CAPTURE's lambda takes it (clang 14)
    const std::string& text = c.first;
    CAPTURE(text);
    const Outcome out = read(text);
    CHECK_FALSE(out.doc);
    CHECK(out.message == c.second);
  }
}

TEST_CASE("JSON: escapes, UTF-8, a byte order mark and big numbers are read") {
  const Outcome out = read(
      "\xEF\xBB\xBF{\"k\\u00e9y\": \"\\ud83d\\ude00 \\\"q\\\" \\/\", \"z\xC3\xBC\": [1e999, "
      "-0.5E-3, "
      "\"\\u0000\"]}");
  REQUIRE(out.doc);
  const Doc& doc = *out.doc;
  const ValueId root = doc.root();
  CHECK(doc[root].pos == 3);
  REQUIRE(doc.size(root) == 2);
  CHECK(doc.text(doc.key(root, 0)) == "k\xC3\xA9y");
  CHECK(doc.text(doc.member(root, 0)) == "\xF0\x9F\x98\x80 \"q\" /");
  CHECK(doc.text(doc.key(root, 1)) == "z\xC3\xBC");  // no escape: the source's own bytes
  CHECK_FALSE(doc[doc.key(root, 1)].owned);
  const ValueId list = doc.member(root, 1);
  REQUIRE(doc.size(list) == 3);
  // The tree keeps numbers as written; the schema judges their range.
  CHECK(doc.text(doc.element(list, 0)) == "1e999");
  CHECK(doc.text(doc.element(list, 1)) == "-0.5E-3");
  CHECK(doc.text(doc.element(list, 2)) == std::string_view("\0", 1));
}
