// Human-readable quantities for reasons and tables. Exact, never rounded:
// a person comparing "300Mi available" with a request must see true numbers.
#include "units.h"

#include <string>

namespace eruplan {

namespace {

// The shortest exact spelling with one suffix: binary (Ki..Ei) or decimal (k..E).
std::string exact_with_suffix(Bytes bytes) {
  static constexpr const char* kBinary[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  static constexpr const char* kDecimal[] = {"k", "M", "G", "T", "P", "E"};
  std::string best = std::to_string(bytes);
  if (bytes == 0) return best;
  Bytes unit = 1;
  for (const char* suffix : kBinary) {
    unit *= 1024;
    if (bytes % unit != 0) break;
    std::string s = std::to_string(bytes / unit) + suffix;
    if (s.size() <= best.size()) best = s;
  }
  unit = 1;
  for (const char* suffix : kDecimal) {
    unit *= 1000;
    if (bytes % unit != 0) break;
    std::string s = std::to_string(bytes / unit) + suffix;
    if (s.size() < best.size()) best = s;
  }
  return best;
}

}  // namespace

std::string format_bytes(Bytes bytes) {
  if (bytes < 0) return "-" + exact_with_suffix(-bytes);
  return exact_with_suffix(bytes);
}

std::string format_cores(NanoCores cpu) {
  const bool negative = cpu < 0;
  const std::uint64_t v = negative ? 0 - static_cast<std::uint64_t>(cpu) : cpu;
  std::string out = std::to_string(v / kNanoPerCore);
  std::uint64_t frac = v % kNanoPerCore;
  if (frac != 0) {
    std::string digits = std::to_string(frac);
    digits.insert(0, 9 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    out += '.' + digits;
  }
  return negative ? "-" + out : out;
}

}  // namespace eruplan
