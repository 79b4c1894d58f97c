// The HTML report (SPEC §14). Bars are plain divs sized in percent, so the
// page needs no script and reads the same in any browser; every number is
// printed with fixed decimals so the same input gives the same bytes.
//
// Choices: the usage shown is what the node's `usage` says (memory, CPU as
// usage.cpu over the node's CPU, storage), before and after, whatever the
// request asks for; a resource appears when any node has some of it; a bar is
// capped at 100% while its label shows the true figure (CPU may be oversold).
#include "report_html.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>

#include "markup.h"
#include "resources.h"

namespace eruplan {

namespace {

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

constexpr const char* kStyle = R"(
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em;color:#1d232b;background:#fafbfc}
h1{font-size:1.4em;margin:0 0 .2em}
h2{font-size:1.15em;margin:1.6em 0 .4em;border-bottom:1px solid #d5dae0;padding-bottom:.2em}
.legend{font-size:.85em;color:#555;margin-bottom:.6em}
.legend i{display:inline-block;width:1em;height:.8em;vertical-align:middle;margin:0 .3em 0 .8em}
.node{display:grid;grid-template-columns:11em repeat(var(--res),minmax(10em,1fr)) 4em minmax(10em,2fr);gap:.3em .8em;align-items:center;padding:.25em .3em;border-bottom:1px solid #eceff2;font-size:.9em}
.node.used{background:#eef7ee}
.node.zero{background:#fbf0f0}
.head{font-weight:600;color:#444;border-bottom:2px solid #c8ced6}
.name{font-family:ui-monospace,monospace;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.res{display:flex;flex-direction:column;gap:.1em}
.bar{position:relative;height:.75em;background:#e3e7ec;border-radius:2px;overflow:hidden}
.bar span{position:absolute;top:0;bottom:0}
.before{background:#4a6fa5}
.added{background:#f0a030}
.pct{font-size:.78em;color:#555}
.new{font-weight:600;text-align:right}
.reason{font-size:.85em;color:#a33}
.node.grown{box-shadow:inset 3px 0 #2a5d9f}
.note{color:#2a5d9f}
.summary{font-size:.9em;color:#333}
.apps{color:#1d232b}
table.apps{border-collapse:collapse;font-size:.9em;margin:.5em 0 .8em}
table.apps th,table.apps td{border-bottom:1px solid #eceff2;padding:.15em .8em;text-align:left}
)";

struct RowText {
  const std::string& by_app;
  const std::string& note;
  const std::string& reason;
};

struct RowMarks {
  bool filtered = false;
  bool grown = false;
};

void node_row(std::string& out, const Node& before, const Node& after, std::int64_t added,
              const RowText& text, RowMarks marks, const std::vector<const ResourceKind*>& shown) {
  const std::string& reason = text.reason;
  const bool filtered = marks.filtered;
  out += "<div class=\"node";
  if (added > 0) out += " used";
  if (marks.grown) out += " grown";
  if (filtered)
    out += " filtered";
  else if (!reason.empty())
    out += " zero";
  out += "\" data-node=\"" + markup_text(after.name) + "\"><div class=\"name\" title=\"" +
         markup_text(after.name) + "\">" + markup_text(after.name) + "</div>";
  for (const ResourceKind* r : shown) {
    const double total = static_cast<double>(r->total(after));
    out += "<div class=\"res\" data-resource=\"";
    out += r->name;
    out += "\">";
    if (total <= 0) {
      out += "<span class=\"pct\">none</span></div>";
      continue;
    }
    const double was = 100.0 * static_cast<double>(r->used(before)) / total;
    const double now = 100.0 * static_cast<double>(r->used(after)) / total;
    const double shown_was = std::clamp(was, 0.0, 100.0);
    const double shown_now = std::clamp(now, shown_was, 100.0);
    out += "<div class=\"bar\"><span class=\"before\" style=\"left:0;width:" + percent(shown_was) +
           "%\"></span><span class=\"added\" style=\"left:" + percent(shown_was) +
           "%;width:" + percent(shown_now - shown_was) + "%\"></span></div>";
    out += "<span class=\"pct\">" + percent(was) + "%";
    if (now != was) out += " &rarr; " + percent(now) + "%";
    out += "</span></div>";
  }
  out += "<div class=\"new\">" + (added > 0 ? "+" + std::to_string(added) : std::string()) +
         "</div><div class=\"reason\">" +
         (text.by_app.empty() ? std::string()
                              : "<span class=\"apps\">" + markup_text(text.by_app) + "</span> ") +
         (text.note.empty() ? std::string()
                            : "<span class=\"note\">" + markup_text(text.note) + "</span>" +
                                  (reason.empty() ? "" : "; ")) +
         markup_text(reason) + "</div></div>\n";
}

}  // namespace

ReportSection plan_section(std::string title, const Inventory& before, const Inventory& after) {
  ReportSection s;
  s.title = std::move(title);
  s.after = &after;
  s.new_instances.assign(after.nodes.size(), 0);
  s.reasons.assign(after.nodes.size(), {});
  for (std::size_t i = 0; i < after.nodes.size() && i < before.nodes.size(); ++i)
    s.new_instances[i] = after.nodes[i].instances_total() - before.nodes[i].instances_total();
  return s;
}

std::string render_html_report(const std::string& title, const Inventory& before,
                               const std::vector<ReportSection>& sections,
                               const ReportOutcome& outcome) {
  std::string page;
  write_html_report([&page](std::string_view piece) { page += piece; }, title, before, sections,
                    outcome);
  return page;
}

void write_html_report(const ReportSink& sink, const std::string& title, const Inventory& before,
                       const std::vector<ReportSection>& sections, const ReportOutcome& outcome) {
  constexpr std::size_t kPiece = std::size_t{1} << 16;
  std::vector<const ResourceKind*> shown;
  for (const ResourceKind& r : kResourceKinds)
    if (std::any_of(before.nodes.begin(), before.nodes.end(),
                    [&](const Node& n) { return r.total(n) > 0; }))
      shown.push_back(&r);

  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
      markup_text(title) + "</title>\n<style>" + kStyle + kOutcomeStyle +
      "</style>\n</head>\n<body>\n<h1>" + markup_text(title) + "</h1>\n" + outcome_html(outcome) +
      "<div class=\"legend\">usage of each node<i class=\"before\"></i>"
      "before<i class=\"added\"></i>added by the plan</div>\n";
  for (const ReportSection& s : sections) {
    const Inventory& after = s.after ? *s.after : before;
    const std::size_t n = std::min(before.nodes.size(), after.nodes.size());
    std::int64_t added = 0, used = 0;
    for (std::size_t i = 0; i < n && i < s.new_instances.size(); ++i) {
      added += s.new_instances[i];
      used += s.new_instances[i] > 0 ? 1 : 0;
    }
    out += "<section style=\"--res:" + std::to_string(shown.size()) + "\">\n<h2>" +
           markup_text(s.title) + "</h2>\n<div class=\"summary\">" + std::to_string(n) +
           " nodes, " + std::to_string(added) + " new instance" + (added == 1 ? "" : "s") + " on " +
           std::to_string(used) + " node" + (used == 1 ? "" : "s") + "</div>\n" +
           outcome_html(s.outcome);
    if (!s.table_head.empty()) {
      out += "<table class=\"apps\">\n<tr>";
      for (const std::string& h : s.table_head) out += "<th>" + markup_text(h) + "</th>";
      out += "</tr>\n";
      for (const std::vector<std::string>& row : s.table_rows) {
        out += "<tr>";
        for (const std::string& cell : row) out += "<td>" + markup_text(cell) + "</td>";
        out += "</tr>\n";
      }
      out += "</table>\n";
    }
    out += "<div class=\"node head\"><div>node</div>";
    for (const ResourceKind* r : shown) out += "<div>" + std::string(r->name) + "</div>";
    out += "<div>new</div><div>reason</div></div>\n";
    const std::string none;
    for (std::size_t i = 0; i < n; ++i) {
      node_row(
          out, before.nodes[i], after.nodes[i], s.new_instances.at_or_zero(i),
          RowText{i < s.by_app.size() ? s.by_app[i] : none, i < s.notes.size() ? s.notes[i] : none,
                  i < s.reasons.size() ? s.reasons[i] : none},
          RowMarks{i < s.filtered.size() && s.filtered[i], i < s.added.size() && s.added[i]},
          shown);
      if (out.size() >= kPiece) {
        sink(out);
        out.clear();
      }
    }
    out += "</section>\n";
  }
  sink(out + "</body>\n</html>\n");
}

std::function<void(const ReportSink&)> html_report_writer(std::string title,
                                                          const Inventory& before,
                                                          std::vector<Inventory> after,
                                                          std::vector<ReportSection> sections,
                                                          ReportOutcome outcome) {
  struct Page {
    std::string title;
    Inventory before;
    std::vector<Inventory> after;  // moved: the sections' pointers into it stay valid
    std::vector<ReportSection> sections;
    ReportOutcome outcome;
  };
  auto page = std::make_shared<const Page>(
      Page{std::move(title), before, std::move(after), std::move(sections), std::move(outcome)});
  return [page](const ReportSink& sink) {
    write_html_report(sink, page->title, page->before, page->sections, page->outcome);
  };
}

}  // namespace eruplan
