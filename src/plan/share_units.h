// Fair share's exact arithmetic on shares (share.cpp's progressive
// filling reads them): an app's dominant kind and its weighted share per
// instance, compared exactly. Private to src/plan.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "share.h"
#include "wide.h"

namespace eruplan::share_units {

// What one instance of `r` asks of `kind` (cpu, memory, storage or an
// extended resource), 0 when nothing.
u128 request_of(const Request& r, std::string_view kind);

// An app's dominant kind is the same for every count (its share of kind r
// is count x request_r / total_r, so the largest request_r / total_r wins),
// hence its weighted share is count x unit, with
//   unit = (request_d x weight.den) / (total_d x weight.num).
struct Unit {
  std::string kind;    // empty: the app asks for no kind the pool has
  u128 request = 0;    // request_d (< 2^63)
  u128 total = 1;      // total_d (< 2^95: 2^32 nodes of < 2^63 each)
  Weight weight;       // num, den <= 10^18 < 2^60
  bool small = false;  // a = request x den and b = total x num, reduced, fit 64 bits
  u128 a = 0, b = 1;
};

Unit unit_of(const ShareApp& app, const PoolTotals& totals);

// count1 x unit1 against count2 x unit2, exactly: -1, 0 or 1.
int compare_shares(std::int64_t c1, const Unit& u1, std::int64_t c2, const Unit& u2);

// count x unit as a double, within a relative 2^-50 of the exact value (each
// of the four roundings and three operations adds at most 2^-53): two shares
// whose doubles differ by more than a relative 10^-12 compare as their
// doubles do, and only closer ones need compare_shares.
inline double approx_share(std::int64_t count, const Unit& u) {
  if (count == 0 || u.kind.empty()) return 0;
  return static_cast<double>(count) *
         (static_cast<double>(u.request) * static_cast<double>(u.weight.den)) /
         (static_cast<double>(u.total) * static_cast<double>(u.weight.num));
}

}  // namespace eruplan::share_units
