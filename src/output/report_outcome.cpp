#include "report_outcome.h"

#include "markup.h"

namespace eruplan {

const char* const kOutcomeStyle = R"(
.outcome{margin:.4em 0 1em;padding:.6em .9em;border-radius:4px;border-left:6px solid}
.outcome.ok{background:#eef7ee;border-color:#3c8d40}
.outcome.partial{background:#fdf6e3;border-color:#d09a1a}
.outcome.failed{background:#fbecec;border-color:#b3261e}
.outcome strong{font-size:1.1em}
.outcome ul{margin:.4em 0 0;padding-left:1.2em;font-size:.9em;white-space:pre-wrap}
.node.filtered{background:#f1f1f1;color:#777}
.node.filtered .reason{color:#666;font-style:italic}
)";

std::string outcome_html(const ReportOutcome& o) {
  if (o.empty()) return {};
  const char* kind = o.kind == OutcomeKind::Ok        ? "ok"
                     : o.kind == OutcomeKind::Partial ? "partial"
                                                      : "failed";
  std::string out = "<div class=\"outcome " + std::string(kind) + "\" data-outcome=\"" + kind +
                    "\"><strong>" + markup_text(o.headline) + "</strong>";
  if (!o.details.empty()) {
    out += "<ul>";
    for (const std::string& line : o.details) out += "<li>" + markup_text(line) + "</li>";
    out += "</ul>";
  }
  return out + "</div>\n";
}

std::string filtered_reason(const std::string& request_name, bool several_requests) {
  return several_requests ? request_name + ": left out by node_filter" : "left out by node_filter";
}

}  // namespace eruplan
