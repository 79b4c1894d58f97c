// Kubernetes quantities (SPEC §12), in Kubernetes' own grammar, which is
// wider than eruplan's sizes (§2): exponents (1e3, 5E-2), the decimal
// suffixes n u m k M G T P E and the binary Ki..Ei. Values are kept exact and
// rounded up only when turned into whole units, as Kubernetes does: "0.5"
// bytes is 1 byte, "1n" core is 1 nanocore, "0.1n" core is 1 nanocore too.
#include <string>
#include <utility>

#include "kubernetes.h"
#include "wide.h"

namespace eruplan {

namespace {

constexpr int kMaxSignificantDigits = 19;  // fits a uint64
constexpr std::int64_t kMaxExponent = 1'000'000;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The suffix after the number: a decimal exponent (e3, E-2), a binary SI
// suffix (Ki..Ei) or a decimal SI one (n u m "" k M G T P E). Note "E" alone
// is exa, "E2" an exponent; "K" is not Kubernetes (it is "k").
bool parse_suffix(std::string_view s, K8sQuantity& q) {
  if (s.empty()) return true;
  static constexpr std::string_view kBinary = "KMGTPE";
  if (s.size() == 2 && s[1] == 'i' && kBinary.find(s[0]) != std::string_view::npos) {
    q.twos = 10 * static_cast<int>(kBinary.find(s[0]) + 1);
    return true;
  }
  if ((s[0] == 'e' || s[0] == 'E') && s.size() > 1) {
    std::size_t i = 1;
    bool negative = false;
    if (s[i] == '+' || s[i] == '-') negative = s[i++] == '-';
    if (i == s.size()) return false;
    std::int64_t e = 0;
    for (; i < s.size(); ++i) {
      if (!is_digit(s[i])) return false;
      if (e < kMaxExponent) e = e * 10 + (s[i] - '0');
    }
    q.tens += negative ? -e : e;
    return true;
  }
  if (s.size() != 1) return false;
  // The decimal SI suffixes and their powers of ten.
  static constexpr std::pair<char, int> kDecimal[] = {{'n', -9}, {'u', -6}, {'m', -3},
                                                      {'k', 3},  {'M', 6},  {'G', 9},
                                                      {'T', 12}, {'P', 15}, {'E', 18}};
  for (const auto& [suffix, tens] : kDecimal)
    if (s[0] == suffix) {
      q.tens += tens;
      return true;
    }
  return false;
}

}  // namespace

std::optional<K8sQuantity> parse_k8s_quantity(std::string_view text, std::string& error) {
  auto bad = [&] {
    error = "expected a Kubernetes quantity (like 1.5, 500m, 8Gi or 1e3), got " + quoted(text);
    return std::nullopt;
  };
  K8sQuantity q;
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) q.negative = text[i++] == '-';
  // The digits of the integer part and fraction, leading zeros dropped and
  // trailing zeros folded into the exponent.
  std::size_t digits = 0, significant = 0, pending_zeros = 0;
  bool seen_point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (!is_digit(c)) break;
    ++digits;
    if (seen_point) --q.tens;
    if (c == '0') {
      if (significant > 0) ++pending_zeros;
      continue;
    }
    // A non-zero digit: the zeros before it are significant after all.
    if (significant + pending_zeros + 1 > kMaxSignificantDigits) {
      error = "quantity " + quoted(text) + " has more than 19 significant digits";
      return std::nullopt;
    }
    for (; pending_zeros > 0; --pending_zeros, ++significant) q.mantissa *= 10;
    q.mantissa = q.mantissa * 10 + static_cast<std::uint64_t>(c - '0');
    ++significant;
  }
  if (digits == 0) return bad();
  q.tens += static_cast<std::int64_t>(pending_zeros);
  if (!parse_suffix(text.substr(i), q)) return bad();
  return q;
}

std::optional<std::int64_t> k8s_whole(std::string_view text, int scale, std::string& error) {
  const auto q = parse_k8s_quantity(text, error);
  if (!q) return std::nullopt;
  if (q->mantissa == 0) return 0;
  if (q->negative) {
    error = "negative quantity " + quoted(text);
    return std::nullopt;
  }
  auto overflow = [&] {
    error = "quantity " + quoted(text) + " is too large (at most 9223372036854775807 units)";
    return std::nullopt;
  };
  constexpr i128 kMax = INT64_MAX;
  const std::int64_t tens = q->tens + scale;
  i128 v = q->mantissa;
  if (tens >= 0) {
    for (int k = 0; k < q->twos; ++k)
      if ((v *= 2) > kMax) return overflow();
    for (std::int64_t k = 0; k < tens; ++k)
      if ((v *= 10) > kMax) return overflow();
    return static_cast<std::int64_t>(v);
  }
  // mantissa < 2^64 and twos <= 60, so the numerator fits; 10^38 does too.
  if (-tens > 38) return 1;  // below one unit: rounds up to 1
  v <<= q->twos;
  i128 den = 1;
  for (std::int64_t k = 0; k < -tens; ++k) den *= 10;
  v = (v + den - 1) / den;
  if (v > kMax) return overflow();
  return static_cast<std::int64_t>(v);
}

}  // namespace eruplan
