// `eruplan test` runs many cases in one process. While a CaseWork is alive,
// the work bounds that take part (the kubernetes profile's steps, score's
// one-at-a-time steps, the nodes grow plans on) hold for the whole
// invocation, not for each case: each check counts, as spent, the share of
// its bound the cases before the current one used, whatever bounds those
// were. One at a time; made and ended on the thread that runs the cases.
#pragma once

#include <string>

namespace eruplan {

class CaseWork {
 public:
  CaseWork();
  ~CaseWork();
  CaseWork(const CaseWork&) = delete;
  CaseWork& operator=(const CaseWork&) = delete;
  // The current case is done: what it spent counts as the cases' before.
  void case_done();
};

// What the cases before the current one spent, in units of a bound of
// `bound` units: their share of their own bounds times `bound`; 0 without
// a CaseWork.
double case_work_before(double bound);
// Counts `amount` units of a bound of `bound` units toward the current case
// (nothing without a CaseWork).
void case_work_spend(double amount, double bound);

// A count of work units (steps, nodes) as a "too large" message writes it:
// a whole number.
std::string work_units(double units);

// The parts of a "too large" message that name the cases before: " (and N
// for the cases run before it)" and ", or run fewer cases at once" when
// `earlier` (their units, case_work_before) is above 0; else nothing.
std::string case_work_before_note(double earlier);
std::string case_work_hint(double earlier);

}  // namespace eruplan
