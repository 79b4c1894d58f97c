// The one-pass JSON reader against nlohmann's SAX parser alone
// (parse_json_sax), on random documents and on random mutations of them:
// both build the same tree (kinds, text, positions) or both refuse, with
// the same message.
#include "json_reader.h"

#include <doctest/doctest.h>

#include <random>
#include <string>

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
    static constexpr char kBytes[] = "{}[]:,\"\\ 0123456789-+.eEtfnul\x01\xC3\xA9\x80z";
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
    static constexpr const char* kParts[] = {"a",        "node",           "Mi",  " ",
                                             "\\\"",     "\\\\",           "\\n", "\\u00e9",
                                             "\xC3\xA9", "\\ud83d\\ude00", "-",   "7"};
    out += '"';
    for (std::size_t n = pick(5); n > 0; --n) out += kParts[pick(12)];
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

// The same tree: kinds, text, positions and shape, from both roots down.
bool same(const Doc& a, ValueId x, const Doc& b, ValueId y, std::string& why) {
  if (a[x].kind != b[y].kind || a[x].pos != b[y].pos || a.text(x) != b.text(y) ||
      a[x].flag != b[y].flag || a.size(x) != b.size(y)) {
    why = "value at byte " + std::to_string(a[x].pos) + " / " + std::to_string(b[y].pos);
    return false;
  }
  if (a[x].kind == ValueKind::Array) {
    for (std::uint32_t i = 0; i < a.size(x); ++i)
      if (!same(a, a.element(x, i), b, b.element(y, i), why)) return false;
  } else if (a[x].kind == ValueKind::Object) {
    for (std::uint32_t i = 0; i < a.size(x); ++i)
      if (!same(a, a.key(x, i), b, b.key(y, i), why) ||
          !same(a, a.member(x, i), b, b.member(y, i), why))
        return false;
  }
  return true;
}

}  // namespace

TEST_CASE("JSON: the one-pass reader and nlohmann agree on random and mutated documents") {
  RandomJson gen(20261123);
  int both_read = 0, both_refused = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = gen.document();
    if (i % 2 == 1) text = gen.mutate(std::move(text));
    CAPTURE(text);
    const Source source{"r.json", text, InputFormat::Json};
    Diagnostics fast_diags, sax_diags;
    const std::optional<Doc> fast = parse_json(source, &fast_diags);
    const std::optional<Doc> sax = parse_json_sax(source, &sax_diags);
    REQUIRE(fast.has_value() == sax.has_value());
    if (fast) {
      std::string why;
      CHECK_MESSAGE(same(*fast, fast->root(), *sax, sax->root(), why), why);
      ++both_read;
    } else {
      CHECK(fast_diags.to_string() == sax_diags.to_string());
      ++both_refused;
    }
  }
  // Both outcomes are exercised often.
  CHECK(both_read > 1000);
  CHECK(both_refused > 300);
}
