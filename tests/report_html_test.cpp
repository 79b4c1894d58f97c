// The HTML report: one row per node and section, bars before/after in
// percent, escaped names, nothing outside the page.
#include "report_html.h"

#include <doctest/doctest.h>

#include <string>

#include "load.h"
#include "pipeline.h"

namespace eruplan {
namespace {

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

Inventory two_nodes() {
  Diagnostics diags;
  auto inv = load_inventory(Source{"n.yaml", R"(
nodes:
  - {name: "a<&>", cpu: 4, memory: 1000Mi, usage: {memory: 250Mi, cpu: 1}, instances: {web: 1}}
  - {name: b, cpu: 4, memory: 1000Mi}
)",
                                   InputFormat::Yaml},
                            diags);
  REQUIRE(inv);
  return *inv;
}

TEST_CASE("report_html: a row per node with before and after bars per resource") {
  const Inventory before = two_nodes();
  Inventory after = before;
  after.nodes[1].memory_used = 500 * 1024 * 1024;
  after.nodes[1].instances = {{"web", 2}};
  ReportSection s = plan_section("web: placed 2", before, after);
  CHECK(s.new_instances == InventoryDeployMap{0, 2});
  s.reasons[0] = "memory: 0 available";
  const std::string html = render_html_report("eruplan plan", before, {s, s});
  CHECK(html.starts_with("<!DOCTYPE html>"));
  CHECK(count(html, "data-node=") == 4);  // two nodes, two sections
  CHECK(count(html, "data-resource=\"memory\"") == 4);
  CHECK(count(html, "data-resource=\"storage\"") == 0);  // no node has storage
  CHECK(html.find("data-node=\"a&lt;&amp;&gt;\"") != std::string::npos);
  CHECK(html.find("<span class=\"pct\">25.0%</span>") != std::string::npos);  // a, memory
  CHECK(html.find("<span class=\"pct\">0.0% &rarr; 50.0%</span>") != std::string::npos);  // b
  CHECK(html.find("width:50.0%") != std::string::npos);
  CHECK(html.find("<div class=\"new\">+2</div>") != std::string::npos);
  CHECK(html.find("memory: 0 available") != std::string::npos);
  CHECK(html.find("2 new instances on 1 node<") != std::string::npos);
  for (const char* outside : {"<script", "<link", "src=", "href=", "url("})
    CHECK(html.find(outside) == std::string::npos);
}

TEST_CASE("report_html: the page in pieces of whole rows, as rendered whole; kept for later") {
  std::string nodes = "nodes:\n";
  for (int i = 0; i < 600; ++i) nodes += "- {name: n" + std::to_string(i) + ", memory: 9}\n";
  Diagnostics diags;
  const auto before = load_inventory(Source{"n.yaml", nodes, InputFormat::Yaml}, diags);
  REQUIRE(before);
  std::vector<Inventory> after(2, *before);
  after[1].nodes[7].instances = {{"web", 1}};
  std::vector<ReportSection> sections{plan_section("auto", *before, after[0]),
                                      plan_section("fill", *before, after[1])};
  const std::string whole = render_html_report("eruplan compare", *before, sections);
  std::vector<std::string> pieces;
  write_html_report([&](std::string_view piece) { pieces.emplace_back(piece); }, "eruplan compare",
                    *before, sections);
  REQUIRE(pieces.size() == 7);  // 1,200 rows of about 350 bytes: 64 KiB and a row, 6 times
  std::string joined;
  for (const std::string& piece : pieces) {
    CHECK(piece.size() < 65536 + 1024);
    if (&piece != &pieces.back()) CHECK(piece.ends_with("</div></div>\n"));
    joined += piece;
  }
  CHECK(joined == whole);
  CHECK(count(whole, "data-node=") == 1200);
  // The writer keeps copies: the page is the same after the originals go.
  auto later = html_report_writer("eruplan compare", *before, std::move(after), sections, {});
  sections.clear();
  std::string written;
  later([&](std::string_view piece) { written += piece; });
  CHECK(written == whole);
}

TEST_CASE("report_html: plan --report renders the plan's page, even when it fails") {
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{"n.yaml",
                   "nodes:\n  - {name: n1, cpu: 4, memory: 1000Mi}\n  - {name: n2, cpu: 4, "
                   "memory: 50Mi}\n",
                   InputFormat::Yaml};
  o.request =
      Source{"r.yaml", "{app: web, count: 3, resources: {memory: 100Mi}}", InputFormat::Yaml};
  o.report = true;
  const RunResult ok = run(o);
  REQUIRE(ok.report);
  CHECK(count(*ok.report, "data-node=") == 2);
  CHECK(ok.report->find("<div class=\"new\">+3</div>") != std::string::npos);
  CHECK(ok.report->find("memory: 50Mi available, 100Mi per instance") != std::string::npos);
  o.request->text = "{app: web, count: 30, resources: {memory: 100Mi}}";
  const RunResult no = run(o);
  CHECK(no.exit == ExitCode::Infeasible);
  REQUIRE(no.report);
  CHECK(no.report->find("0 new instances on 0 nodes") != std::string::npos);
  o.report = false;
  CHECK_FALSE(run(o).report);
}

TEST_CASE("report_html: share --report shows each node's new instances per app and why not") {
  RunOptions o;
  o.command = Command::Share;
  o.nodes = Source{"n.yaml",
                   "nodes:\n  - {name: n1, cpu: 4, memory: 8Gi}\n  - {name: n2, cpu: 2, memory: "
                   "1Gi}\n",
                   InputFormat::Yaml};
  o.request = Source{"a.yaml",
                     "apps:\n  - {app: A, resources: {cpu: 1, memory: 2Gi}}\n"
                     "  - {app: B, max_count: 1, resources: {cpu: 1, memory: 512Mi}}\n",
                     InputFormat::Yaml};
  o.report = true;
  const RunResult r = run(o);
  CHECK(r.exit == ExitCode::Ok);
  REQUIRE(r.report);
  CHECK(count(*r.report, "data-node=") == 2);
  // Everything lands on n1 (A 3 and B 1 take its 4 cores); n2's 1Gi never
  // holds A's 2Gi.
  CHECK(r.report->find("<span class=\"apps\">A +3, B +1</span>") != std::string::npos);
  CHECK(r.report->find("<div class=\"new\">+4</div>") != std::string::npos);
  // n2 got no A: its reason, after the run.
  CHECK(r.report->find("A: memory: 1Gi available, 2Gi per instance") != std::string::npos);
  CHECK(r.report->find(
            "<td>B</td><td>1</td><td>0</td><td>1</td><td>1/6 of cpu</td><td>max_count</td>") !=
        std::string::npos);
  CHECK(r.report->find("<script") == std::string::npos);
  o.report = false;
  CHECK_FALSE(run(o).report);
}

TEST_CASE("report_html: a node names 8 requests of a list, then counts the rest") {
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{"n.yaml", "nodes:\n  - {name: n1, memory: 9}\n  - {name: n2, memory: 90}\n",
                   InputFormat::Yaml};
  // r0..r10 fit on neither node (capacity 0 on both); f0..f9 have room on
  // n2 for 9 each and are rejected (count 99), and leave n1 out by filter.
  std::string requests = "requests:\n";
  for (int i = 0; i < 11; ++i)
    requests += "  - {app: r" + std::to_string(i) + ", count: 1, resources: {memory: 100}}\n";
  for (int i = 0; i < 10; ++i)
    requests += "  - {app: f" + std::to_string(i) +
                ", count: 99, resources: {memory: 10}, node_filter: {nodes: [n2]}}\n";
  o.request = Source{"r.yaml", requests, InputFormat::Yaml};
  o.report = true;
  const RunResult r = run(o);
  CHECK(r.exit == ExitCode::Infeasible);
  REQUIRE(r.report);
  const std::string& html = *r.report;
  // n1: 11 reasons and 10 requests that leave it out, 8 named.
  CHECK(html.find("r7: memory: 9 available, 100 per instance; and 13 more requests") !=
        std::string::npos);
  CHECK(html.find("r8: memory: 9") == std::string::npos);
  // n2: 11 reasons (8 named, "and 3 more"), 10 rejected with room (8 named,
  // "and 2 more").
  CHECK(html.find("r7: memory: 90 available, 100 per instance; and 3 more requests") !=
        std::string::npos);
  CHECK(html.find("f7: room for 9; and 2 more requests") != std::string::npos);
  CHECK(html.find("f8: room for 9") == std::string::npos);
}

}  // namespace
}  // namespace eruplan
