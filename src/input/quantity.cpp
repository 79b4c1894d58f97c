// Quantities as written (SPEC §2): sizes in bytes with k/Ki-style suffixes,
// CPU in cores or millicores, whole numbers. Parsing is exact decimal
// arithmetic on the text, never through a double, so "0.29" is exactly
// 290000000 nanocores and "1.5Gi" exactly 1610612736 bytes.
#include <cstdint>
#include <string>
#include <string_view>

#include "doc.h"
#include "load.h"
#include "wide.h"

namespace eruplan {

namespace {

constexpr i128 kInt64Max = INT64_MAX;
constexpr int kMaxSignificantDigits = 36;  // fits an __int128 with room to spare

// A decimal as written: (-1)^negative x digits x 10^exponent, with the
// trailing zeros of `digits` folded into `exponent`.
struct Decimal {
  bool negative = false;
  i128 digits = 0;
  std::int64_t exponent = 0;
  bool too_long = false;  // more than kMaxSignificantDigits significant digits

  bool nonzero() const { return digits != 0 || too_long; }
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Parses [+-]digits[.digits][(e|E)[+-]digits] at the start of `s`; `rest` is
// what follows (a unit suffix). nullopt when there are no digits.
std::optional<Decimal> parse_decimal(std::string_view s, std::string_view& rest) {
  Decimal d;
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) d.negative = s[i++] == '-';
  const std::size_t int_begin = i;
  while (i < s.size() && is_digit(s[i])) ++i;
  const std::size_t int_end = i;
  std::size_t frac_begin = i, frac_end = i;
  if (i < s.size() && s[i] == '.') {
    frac_begin = ++i;
    while (i < s.size() && is_digit(s[i])) ++i;
    frac_end = i;
  }
  if (int_begin == int_end && frac_begin == frac_end) return std::nullopt;
  std::int64_t exponent = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    bool exp_negative = false;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) exp_negative = s[j++] == '-';
    if (j < s.size() && is_digit(s[j])) {  // else the E is a unit (exa)
      for (; j < s.size() && is_digit(s[j]); ++j)
        if (exponent < 1'000'000'000) exponent = exponent * 10 + (s[j] - '0');
      if (exp_negative) exponent = -exponent;
      i = j;
    }
  }
  rest = s.substr(i);

  // The significant digits run from the first to the last non-zero digit of
  // integer part + fraction.
  auto digit_at = [&](std::size_t k) {  // k indexes integer digits then fraction digits
    const std::size_t int_len = int_end - int_begin;
    return k < int_len ? s[int_begin + k] : s[frac_begin + (k - int_len)];
  };
  const std::size_t total = (int_end - int_begin) + (frac_end - frac_begin);
  std::size_t first = 0, last = total;
  while (first < total && digit_at(first) == '0') ++first;
  while (last > first && digit_at(last - 1) == '0') --last;
  if (first == last) return d;  // zero
  d.exponent = exponent - static_cast<std::int64_t>(frac_end - frac_begin) +
               static_cast<std::int64_t>(total - last);
  if (last - first > static_cast<std::size_t>(kMaxSignificantDigits)) {
    d.too_long = true;
    return d;
  }
  for (std::size_t k = first; k < last; ++k) d.digits = d.digits * 10 + (digit_at(k) - '0');
  return d;
}

enum class Exact { Ok, Fraction, Overflow };

// digits x 10^exponent x 2^twos as an int64, exactly.
Exact scale(const Decimal& d, std::int64_t exponent, int twos, std::int64_t& out) {
  if (d.too_long) return exponent >= 0 ? Exact::Overflow : Exact::Fraction;
  if (d.digits == 0) {
    out = 0;
    return Exact::Ok;
  }
  i128 v = d.digits;
  if (exponent < 0) {
    // Dividing by 10^k needs k factors of 5 in the digits and k factors of 2
    // in digits x 2^twos; digits below 10^36 hold at most 51 fives.
    if (exponent < -60) return Exact::Fraction;
    for (std::int64_t k = 0; k < -exponent; ++k) {
      if (v % 5 != 0) return Exact::Fraction;
      v /= 5;
    }
    std::int64_t halves = -exponent - twos;  // remaining factors of 2 to divide out
    for (; halves > 0; --halves) {
      if (v % 2 != 0) return Exact::Fraction;
      v /= 2;
    }
    twos = static_cast<int>(-std::min<std::int64_t>(halves, 0));
    exponent = 0;
  }
  if (v > kInt64Max) return Exact::Overflow;
  for (std::int64_t k = 0; k < exponent; ++k) {
    v *= 10;
    if (v > kInt64Max) return Exact::Overflow;
  }
  for (int k = 0; k < twos; ++k) {
    v *= 2;
    if (v > kInt64Max) return Exact::Overflow;
  }
  out = static_cast<std::int64_t>(v);
  return Exact::Ok;
}

}  // namespace

std::optional<Bytes> parse_size(std::string_view text, std::string& error) {
  auto expected = [&] {
    return "expected a size (bytes, or a string like \"8Gi\"), got " + quoted(text);
  };
  std::string_view unit;
  const auto d = parse_decimal(text, unit);
  if (!d) {
    error = expected();
    return std::nullopt;
  }
  // Decimal units scale by powers of 10, binary ones by powers of 2.
  std::int64_t tens = 0;
  int twos = 0;
  static constexpr std::string_view kDecimal = "kMGTPE";
  static constexpr std::string_view kBinary = "KMGTPE";
  if (unit.empty()) {
  } else if (unit == "K") {
    tens = 3;
  } else if (unit.size() == 1 && kDecimal.find(unit[0]) != std::string_view::npos) {
    tens = 3 * static_cast<std::int64_t>(kDecimal.find(unit[0]) + 1);
  } else if (unit.size() == 2 && unit[1] == 'i' &&
             kBinary.find(unit[0]) != std::string_view::npos) {
    twos = 10 * static_cast<int>(kBinary.find(unit[0]) + 1);
  } else {
    error = expected() + ": unknown unit " + quoted(unit) +
            " (use Ki Mi Gi Ti Pi Ei for powers of 1024, k K M G T P E for powers of 1000)";
    return std::nullopt;
  }
  if (d->negative && d->nonzero()) {  // "-0" is just zero
    error = "negative size " + excerpt(text);
    return std::nullopt;
  }
  std::int64_t bytes = 0;
  const Exact e = scale(*d, d->exponent + tens, twos, bytes);
  if (e == Exact::Fraction) {
    error = "size " + excerpt(text) + " is not a whole number of bytes";
    return std::nullopt;
  }
  if (e == Exact::Overflow) {
    error = "size " + excerpt(text) + " overflows (at most 9223372036854775807 bytes, about 8Ei)";
    return std::nullopt;
  }
  return bytes;
}

std::optional<NanoCores> parse_cpu(std::string_view text, std::string& error) {
  std::string_view unit;
  const auto d = parse_decimal(text, unit);
  if (!d || !(unit.empty() || unit == "m")) {
    error =
        "expected a CPU amount (cores like 1.5, or millicores like \"1500m\"), got " + quoted(text);
    return std::nullopt;
  }
  if (d->negative && d->nonzero()) {
    error = "negative cpu " + excerpt(text);
    return std::nullopt;
  }
  const std::int64_t exponent = d->exponent + (unit == "m" ? 6 : 9);  // to nanocores
  NanoCores n = 0;
  const Exact e = scale(*d, exponent, 0, n);
  if (e == Exact::Fraction) {
    error = "cpu " + excerpt(text) +
            " has more than 9 fractional digits (the finest unit is a nanocore, 0.000000001)";
    return std::nullopt;
  }
  if (e == Exact::Overflow) {
    error = "cpu " + excerpt(text) + " overflows (at most about 9.2 billion cores)";
    return std::nullopt;
  }
  return n;
}

std::optional<std::int64_t> parse_integer(std::string_view text, std::string& error) {
  // Fast path: plain digits that cannot overflow, the common case by far.
  if (!text.empty() && text.size() <= 18 &&
      text.find_first_not_of("0123456789") == std::string_view::npos) {
    std::int64_t n = 0;
    for (char c : text) n = n * 10 + (c - '0');
    return n;
  }
  std::string_view rest;
  const auto d = parse_decimal(text, rest);
  if (!d || !rest.empty()) {
    error = "expected a whole number, got " + quoted(text);
    return std::nullopt;
  }
  std::int64_t n = 0;
  const Exact e = scale(*d, d->exponent, 0, n);
  if (e == Exact::Fraction) {
    error = "expected a whole number, got " + excerpt(text);
    return std::nullopt;
  }
  if (e == Exact::Overflow) {
    error = "number " + excerpt(text) + " is out of range (at most 9223372036854775807 in size)";
    return std::nullopt;
  }
  return d->negative ? -n : n;
}

}  // namespace eruplan
