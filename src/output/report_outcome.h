// The outcome at the top of the HTML report (--report): what the run
// decided, in words a reader sees before any bar — placed N of M, infeasible
// with the message a table run prints, each request's status and reason —
// and why a node is left out (node_filter). Kept apart from the bars
// (report_html.cpp) so a command fills it from what it already knows.
#pragma once

#include <string>
#include <vector>

namespace eruplan {

// How the run ended, for the header's colour: ok (everything placed or
// nothing needed), partial (some placed, or some requests rejected), failed
// (nothing placed: infeasible, rejected).
enum class OutcomeKind { Ok, Partial, Failed };

struct ReportOutcome {
  OutcomeKind kind = OutcomeKind::Ok;
  std::string headline;              // "infeasible: 12 new instances of web fit, 20 asked"
  std::vector<std::string> details;  // lines under it: the summary, each request
  bool empty() const { return headline.empty(); }
};

// The header's HTML: a div.outcome with class ok|partial|failed, the
// headline in a strong and each detail line in a li; "" when `o` is empty.
std::string outcome_html(const ReportOutcome& o);

// The CSS the header and the filtered rows need, added to the page's style.
extern const char* const kOutcomeStyle;

// The reason shown on a node a request's node_filter leaves out.
std::string filtered_reason(const std::string& request_name, bool several_requests);

}  // namespace eruplan
