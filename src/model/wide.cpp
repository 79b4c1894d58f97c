// Exact fractions as text (wide.h).
#include "wide.h"

namespace eruplan {

Fraction reduced(Fraction f) {
  if (f.num == 0) return {0, 1};
  const u128 g = gcd(f.num, f.den);
  return {f.num / g, f.den / g};
}

std::string u128_text(u128 v) {
  if (v == 0) return "0";
  std::string s;
  for (; v != 0; v /= 10) s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
  return s;
}

std::string fraction_text(Fraction f) {
  f = reduced(f);
  if (f.den == 1) return u128_text(f.num);
  return u128_text(f.num) + "/" + u128_text(f.den);
}

std::string decimal_text(Fraction f, int decimals) {
  u128 whole = f.num / f.den, rest = f.num % f.den;
  std::string digits;
  for (int i = 0; i < decimals; ++i) {
    rest *= 10;  // rest < den < 2^124 (den is a pool total): no overflow
    digits += static_cast<char>('0' + static_cast<int>(rest / f.den));
    rest %= f.den;
  }
  if (rest >= f.den - rest) {  // half or more of the last place: away from zero
    int i = decimals - 1;
    for (; i >= 0 && digits[static_cast<std::size_t>(i)] == '9'; --i)
      digits[static_cast<std::size_t>(i)] = '0';
    if (i >= 0)
      ++digits[static_cast<std::size_t>(i)];
    else
      ++whole;
  }
  return decimals == 0 ? u128_text(whole) : u128_text(whole) + "." + digits;
}

}  // namespace eruplan
