// The JSON reader's 16-bytes-at-a-time scans and newline count (json_scan.h) against their
// byte-at-a-time versions, on random buffers read from every offset (each
// buffer allocated to its exact size, so a read past the end shows under the
// sanitizers), and the reader using them against nlohmann on documents made
// of long strings and long indentation, where the fast paths run, with
// escapes, UTF-8 (good and bad), control characters and cut-short texts.
#include "json_scan.h"

#include <doctest/doctest.h>

#include <memory>
#include <random>
#include <string>

#include "json_reference.h"

using namespace eruplan;

namespace {

// `n` random bytes drawn mostly from `common`, now and then any byte.
std::unique_ptr<char[]> random_bytes(std::mt19937& rng, std::size_t n, std::string_view common) {
  auto out = std::make_unique<char[]>(n == 0 ? 1 : n);
  std::uniform_int_distribution<int> any(0, 255), chance(0, 99);
  std::uniform_int_distribution<std::size_t> which(0, common.size() - 1);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = static_cast<char>(chance(rng) < 8 ? any(rng) : common[which(rng)]);
  return out;
}

}  // namespace

TEST_CASE("JSON scans: the space skip and the string scan match the plain loops") {
  std::mt19937 rng(20261126);
  std::uniform_int_distribution<std::size_t> length(0, 90);
  // Mostly what each scan runs over, with what stops it mixed in.
  static constexpr std::string_view kSpaces(" \n\r\t      \n    ,\0\x7F\xA0", 20);
  static constexpr std::string_view kString(
      "abcdefghijklmnopqrstuvwxyz0123456789-/.: abcdefghijklmnop\"\\\x01\x1F\x7F\x80\xC3\xA9\xFF\0",
      68);
  int space_stops = 0, string_stops = 0;
  for (int round = 0; round < 4000; ++round) {
    const std::size_t n = length(rng);
    const auto spaces = random_bytes(rng, n, kSpaces);
    const auto string = random_bytes(rng, n, kString);
    for (std::size_t from = 0; from <= n; ++from) {
      const char* const end_s = spaces.get() + n;
      const char* const fast_s = skip_json_space(spaces.get() + from, end_s);
      REQUIRE(fast_s == skip_json_space_scalar(spaces.get() + from, end_s));
      const char* const end_t = string.get() + n;
      const char* const fast_t = find_string_special(string.get() + from, end_t);
      REQUIRE(fast_t == find_string_special_scalar(string.get() + from, end_t));
      REQUIRE(count_newlines(spaces.get() + from, end_s) ==
              count_newlines_scalar(spaces.get() + from, end_s));
      space_stops += fast_s != end_s;
      string_stops += fast_t != end_t;
    }
  }
  // Both outcomes, a stop inside and a run to the end, are exercised often.
  CHECK(space_stops > 20000);
  CHECK(string_stops > 20000);
}

TEST_CASE("JSON scans: newlines counted over long texts, past the counters' flush") {
  std::mt19937 rng(11);
  // Counters are summed every 255 blocks of 16 bytes (4,080 bytes): lengths
  // around and well past that, and all newlines (the most a counter takes).
  for (const std::size_t n : {4079, 4080, 4081, 4095, 4096, 8160, 8161, 20000, 70001}) {
    const auto text = random_bytes(rng, n, std::string_view("\n \n\t\r\nx\n", 9));
    for (const std::size_t from : {0, 1, 7, 15, 16, 17}) {
      CAPTURE(n);
      CAPTURE(from);
      CHECK(count_newlines(text.get() + from, text.get() + n) ==
            count_newlines_scalar(text.get() + from, text.get() + n));
    }
    const std::string all(n, '\n');
    CHECK(count_newlines(all.data(), all.data() + n) == n);
  }
}

TEST_CASE("JSON scans: every byte value stops the scans exactly where it should") {
  for (int c = 0; c < 256; ++c) {
    const auto b = static_cast<char>(c);
    const bool space = c == ' ' || c == '\n' || c == '\r' || c == '\t';
    const bool special = c == '"' || c == '\\' || c < 0x20 || c >= 0x80;
    for (std::size_t at = 0; at < 40; ++at) {
      std::string s(40, ' ');
      s[at] = b;
      CHECK(skip_json_space(s.data(), s.data() + s.size()) == s.data() + (space ? 40 : at));
      std::string t(40, 'x');
      t[at] = b;
      CHECK(find_string_special(t.data(), t.data() + t.size()) == t.data() + (special ? at : 40));
    }
  }
}

TEST_CASE("JSON scans: the reader and nlohmann agree on long strings and deep indents") {
  std::mt19937 rng(7);
  auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  static constexpr const char* kParts[] = {
      "registry.example.com/app-001:1.4.2", "abcdefghijklmnopq", "x", " ", "\\\"", "\\\\", "\\n",
      "\\u00e9", "\xC3\xA9", "\\ud83d\\ude00", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\\/\\b\\t",
      "0123456789abcdef0123456789abcdef",
      // Adversarial: bad escapes and surrogates, bad UTF-8, raw control bytes.
      "\\x", "\\u12", "\\udc00", "\\ud800x", "\xC3", "\xE2\x82", "\xED\xA0\x80", "\xC0\xAF",
      "\xF5\x80\x80\x80", "\x01", "\x1F", "\x7F", "\t"};
  constexpr std::size_t kGood = 14;  // the parts before the adversarial ones
  int both_read = 0, both_refused = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = "{";
    const std::size_t members = 1 + pick(6);
    for (std::size_t m = 0; m < members; ++m) {
      if (m) text += ',';
      text += '\n' + std::string(pick(40), pick(8) == 0 ? '\t' : ' ');
      text += "\"key-" + std::to_string(m) + std::string(pick(30), 'k') + "\": ";
      text += '"';
      for (std::size_t n = pick(8); n > 0; --n)
        text += kParts[i % 3 == 0 ? pick(std::size(kParts)) : pick(kGood)];
      text += '"';
      text += std::string(pick(24), ' ');
    }
    text += "\r\n" + std::string(pick(20), ' ') + "}" + std::string(pick(20), '\n');
    if (i % 4 == 1) text.resize(pick(text.size() + 1));  // cut short
    CAPTURE(text);
    const reference::Agreement agreement = reference::compare(text);
    CHECK_MESSAGE(agreement.problem.empty(), agreement.problem);
    ++(agreement.read ? both_read : both_refused);
  }
  CHECK(both_read > 1000);
  CHECK(both_refused > 800);
}
