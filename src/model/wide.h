// Exact arithmetic for comparing shares (share's DRF and the Mesos
// allocator): products of a few factors below 2^128 held in 512 bits, and
// the greatest common divisor for reducing fractions.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

namespace eruplan {

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

// An unsigned integer of 512 bits, enough for a product of up to four
// factors below 2^128.
struct Wide {
  std::uint64_t limb[8] = {};
};

// a x m x 2^(64 x shift), cut to 512 bits.
inline Wide times(const Wide& a, std::uint64_t m, int shift) {
  Wide r;
  u128 carry = 0;
  for (int i = 0; i + shift < 8; ++i) {
    const u128 t = static_cast<u128>(a.limb[i]) * m + carry;
    r.limb[i + shift] = static_cast<std::uint64_t>(t);
    carry = t >> 64;
  }
  return r;
}

inline Wide plus(const Wide& a, const Wide& b) {
  Wide r;
  u128 carry = 0;
  for (int i = 0; i < 8; ++i) {
    const u128 t = static_cast<u128>(a.limb[i]) + b.limb[i] + carry;
    r.limb[i] = static_cast<std::uint64_t>(t);
    carry = t >> 64;
  }
  return r;
}

inline Wide product(std::initializer_list<u128> factors) {
  Wide w;
  w.limb[0] = 1;
  for (const u128 f : factors) {
    const auto lo = static_cast<std::uint64_t>(f), hi = static_cast<std::uint64_t>(f >> 64);
    w = hi == 0 ? times(w, lo, 0) : plus(times(w, lo, 0), times(w, hi, 1));
  }
  return w;
}

// -1, 0 or 1 as a <, = or > b.
inline int compare(const Wide& a, const Wide& b) {
  for (int i = 7; i >= 0; --i)
    if (a.limb[i] != b.limb[i]) return a.limb[i] < b.limb[i] ? -1 : 1;
  return 0;
}

inline u128 gcd(u128 a, u128 b) {
  while (b != 0) {
    const u128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// An exact fraction; `den` > 0. Reduced where it is shown.
struct Fraction {
  u128 num = 0, den = 1;
};
// f with numerator and denominator divided by their gcd; 0 as 0/1.
Fraction reduced(Fraction f);
// v in decimal.
std::string u128_text(u128 v);
std::string fraction_text(Fraction f);               // "2/3", "0", "1", "5/2"
std::string decimal_text(Fraction f, int decimals);  // half away from zero: "0.666667"

}  // namespace eruplan
