// The work bounds `eruplan test` shares between its cases (case_work.h).
#include "case_work.h"

#include <atomic>
#include <cmath>
#include <cstdint>

namespace eruplan {

namespace {

// Shares of a bound (1 = a whole one): the cases done, the current one.
std::atomic<bool> shared_on{false};
std::atomic<double> before{0};
std::atomic<double> current{0};

}  // namespace

CaseWork::CaseWork() {
  before = 0;
  current = 0;
  shared_on = true;
}

CaseWork::~CaseWork() { shared_on = false; }

void CaseWork::case_done() { before = before.load() + current.exchange(0); }

double case_work_before(double bound) {
  return shared_on ? std::round(before.load() * bound) : 0;  // whole units
}

void case_work_spend(double amount, double bound) {
  if (shared_on && bound > 0) current.fetch_add(amount / bound);
}

std::string work_units(double units) { return std::to_string(static_cast<std::int64_t>(units)); }

std::string case_work_before_note(double earlier) {
  if (earlier <= 0) return {};
  return " (and " + work_units(earlier) + " for the cases run before it)";
}

std::string case_work_hint(double earlier) {
  return earlier > 0 ? ", or run fewer cases at once" : "";
}

}  // namespace eruplan
