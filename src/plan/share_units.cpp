// Fair share's exact arithmetic on shares (share_units.h).
#include "share_units.h"

#include <algorithm>

#include "resources.h"

namespace eruplan::share_units {

// --- The pool and the apps' shares --------------------------------------------

u128 request_of(const Request& r, std::string_view kind) {
  return static_cast<u128>(std::max<std::int64_t>(per_instance_of(r, kind), 0));
}

Unit unit_of(const ShareApp& app, const PoolTotals& totals) {
  Unit u;
  u.weight = app.weight;
  for (const auto& [kind, total] : totals.kinds) {  // byte order: the first of equals wins
    const u128 req = request_of(app.request, kind);
    if (total == 0 || req == 0) continue;
    if (!u.kind.empty() && compare(product({req, u.total}), product({u.request, total})) <= 0)
      continue;
    u.kind = kind;
    u.request = req;
    u.total = total;
  }
  if (u.kind.empty()) return u;
  const u128 limit = u128{1} << 64;
  const u128 a = u.request * u.weight.den;  // < 2^123: no overflow
  if (u.total < (u128{1} << 68)) {          // then total x num < 2^128
    const u128 b = u.total * u.weight.num;
    const u128 g = gcd(a, b);
    u.a = a / g;
    u.b = b / g;
    u.small = u.a < limit && u.b < limit;
  }
  return u;
}

namespace {

// count x a x b' as a 192-bit number (high 128, low 64) when a, b' < 2^64 and
// count < 2^63: count x a < 2^127 fits, and its product with b' is split.
std::pair<u128, std::uint64_t> mul192(u128 x, u128 y) {
  const u128 lo = static_cast<u128>(static_cast<std::uint64_t>(x)) * static_cast<std::uint64_t>(y);
  const u128 hi = (x >> 64) * static_cast<std::uint64_t>(y);
  return {hi + (lo >> 64), static_cast<std::uint64_t>(lo)};
}

}  // namespace

// Compares count1 x unit1 with count2 x unit2 exactly: the cross products
// count x request x weight.den x total' x weight.num' are below
// 2^63 x 2^63 x 2^60 x 2^95 x 2^60 = 2^341, inside Wide's 512 bits, so no
// inventory the loader accepts can overflow it. Realistic sizes (a, b below
// 2^64 once reduced) take the 192-bit path.
int compare_shares(std::int64_t c1, const Unit& u1, std::int64_t c2, const Unit& u2) {
  const bool zero1 = c1 == 0 || u1.kind.empty(), zero2 = c2 == 0 || u2.kind.empty();
  if (zero1 || zero2) return zero1 == zero2 ? 0 : (zero1 ? -1 : 1);
  if (u1.small && u2.small) {
    const auto l = mul192(static_cast<u128>(c1) * u1.a, u2.b);
    const auto r = mul192(static_cast<u128>(c2) * u2.a, u1.b);
    return l == r ? 0 : (l < r ? -1 : 1);
  }
  return compare(
      product({static_cast<u128>(c1), u1.request, u1.weight.den, u2.total, u2.weight.num}),
      product({static_cast<u128>(c2), u2.request, u2.weight.den, u1.total, u1.weight.num}));
}

}  // namespace eruplan::share_units
