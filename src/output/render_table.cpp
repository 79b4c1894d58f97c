// A report as a table (SPEC §6, §13), and the display-cell helpers that
// align its columns.
#include <utf8proc.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <span>

#include "json_writer.h"
#include "k8s_profile.h"
#include "plan_writer.h"
#include "render_parts.h"

namespace eruplan {

using namespace render_parts;

namespace {

// A name as a person should see it: as is, unless it is empty, or has
// control characters, line separators or edge spaces that would be
// invisible or break the layout; then JSON-quoted.
bool needs_display_quotes(std::string_view s) {
  return s.empty() || s.front() == ' ' || s.back() == ' ' || has_invisible_characters(s);
}

std::string_view display(std::string_view s, std::string& scratch) {
  if (!needs_display_quotes(s)) return s;
  scratch.clear();
  append_quoted(scratch, s);
  return scratch;
}

// Columns counted in display cells (SPEC §13), so names in any script line up.
size_t text_width(std::string_view s) { return display_cells(s); }

size_t display_width(std::string_view s) {
  std::string scratch;
  return text_width(display(s, scratch));
}

struct NumberText {
  char buf[24];
  size_t len = 0;
  std::string_view view() const { return {buf, len}; }
};

NumberText number_text(std::int64_t v) {
  NumberText t;
  if (v == kUnlimited) {
    constexpr std::string_view kWord = "unlimited";
    std::copy(kWord.begin(), kWord.end(), t.buf);
    t.len = kWord.size();
  } else {
    t.len = static_cast<size_t>(std::to_chars(t.buf, t.buf + sizeof t.buf, v).ptr - t.buf);
  }
  return t;
}

void pad(std::string& out, size_t width, size_t used) {
  if (width > used) out.append(width - used, ' ');
}

void append_request_line(std::string& out, const Report& report) {
  const Request& r = report.request;
  std::string scratch;
  out += "app ";
  out += display(r.app, scratch);
  // Strategy, count and nodes_limit only matter to the strategy pass.
  if (report.deploy != nullptr) {
    out += ", strategy ";
    out += strategy_name(r.strategy);
    if (r.count > 0) {
      out += ", count ";
      append_int(out, r.count);
    }
    if (r.nodes_limit > 0) {
      out += ", nodes_limit ";
      append_int(out, r.nodes_limit);
    }
  }
  out += "; per instance:";
  bool any = false;
  const auto part = [&](std::string_view label) {
    out += any ? ", " : " ";
    out += label;
    any = true;
  };
  if (r.cpu > 0) {
    part("cpu ");
    out += format_cores(r.cpu);
    if (r.cpu_bind) out += " bound";
  }
  if (r.memory > 0) {
    part("memory ");
    out += format_bytes(r.memory);
  }
  if (r.storage > 0) {
    part("storage ");
    out += format_bytes(r.storage);
  }
  if (!r.volumes.empty()) {
    part("volumes");
    for (const auto& v : r.volumes) {
      out += ' ';
      out += display(v.binding, scratch);
    }
  }
  if (!any) out += " nothing";
  out += '\n';
}

// "cpu 2:100 3:30  numa 0  /data->/sda0 100"
void append_plan_text(std::string& out, const Plan& plan, const Node& node, const Request& request,
                      PlanShares& shares) {
  std::string scratch;
  bool any = false;
  const auto part = [&] {
    if (any) out += "  ";
    any = true;
  };
  const auto cores = shares.cores(plan);
  if (!cores.empty()) {
    part();
    out += "cpu";
    for (const auto& c : cores) {
      out += ' ';
      out += display(node.core_id(c.core), scratch);
      out += ':';
      append_int(out, c.pieces);
    }
  }
  if (plan.numa >= 0) {
    part();
    out += "numa ";
    out += display(node.numa_nodes[static_cast<size_t>(plan.numa)].id, scratch);
  }
  for (const auto& v : plan.volumes) {
    part();
    out += display(request.volumes[v.binding].destination, scratch);
    out += "->";
    out += display(node.devices[v.device].name, scratch);
    out += ' ';
    // Size 0 is an unlimited quota (SPEC §4).
    out += v.size > 0 ? format_bytes(v.size) : std::string("no quota");
  }
  if (!any) out += "binds nothing";
  out += '\n';
}

void append_node_table(std::string& out, const Report& report) {
  const auto& nodes = report.capacity.nodes;
  const auto& inv = report.inventory;
  const bool with_new = report.deploy != nullptr;
  const bool with_reason = std::any_of(nodes.begin(), nodes.end(),
                                       [](const NodeCapacity& nc) { return nc.capacity == 0; });

  std::int64_t total_existing = 0, total_new = 0;
  size_t name_w = 5, cap_w = 8, existing_w = 8, new_w = 3;  // "total", "CAPACITY", ...
  // A column is as wide as its widest entry: "unlimited", or the largest or
  // the smallest (a minus sign) of its numbers, so only those are spelled out.
  struct Range {
    std::int64_t low = std::numeric_limits<std::int64_t>::max();
    std::int64_t high = std::numeric_limits<std::int64_t>::min();
    bool unlimited = false;
    void add(std::int64_t v) {
      if (v == kUnlimited) {
        unlimited = true;
        return;
      }
      low = std::min(low, v);
      high = std::max(high, v);
    }
    size_t width(size_t at_least) const {
      if (unlimited) at_least = std::max(at_least, number_text(kUnlimited).len);
      if (low > high) return at_least;
      return std::max({at_least, number_text(low).len, number_text(high).len});
    }
  };
  Range cap_range, existing_range, new_range;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto& nc = nodes[i];
    name_w =
        std::max(name_w, report.name_cells != nullptr ? (*report.name_cells)[nc.node]
                                                      : display_width(inv.nodes[nc.node].name));
    cap_range.add(nc.capacity);
    existing_range.add(nc.existing);
    const std::int64_t fresh = deployed(report, i);
    new_range.add(fresh);
    total_existing += nc.existing;
    total_new += fresh;
  }
  cap_w = cap_range.width(cap_w);
  existing_w = existing_range.width(existing_w);
  new_w = new_range.width(new_w);
  const NumberText total_cap = number_text(report.capacity.total);
  const NumberText total_ex = number_text(total_existing);
  const NumberText total_nw = number_text(total_new);
  cap_w = std::max(cap_w, total_cap.len);
  existing_w = std::max(existing_w, total_ex.len);
  new_w = std::max(new_w, total_nw.len);
  // score (SPEC §9): each node's total for its first new instance; "-" where
  // the node has no room or (the kubernetes profile) a filter rejected it.
  const bool with_score = report.outcome != nullptr && !report.outcome->scores.empty();
  size_t score_w = 5;  // "TOTAL"
  const auto score_text = [&](size_t i) {
    return nodes[i].capacity > 0 && !report.outcome->scores[i].filtered
               ? number_text(report.outcome->scores[i].total)
               : NumberText{{'-'}, 1};
  };
  if (with_score)
    for (size_t i = 0; i < nodes.size(); ++i) score_w = std::max(score_w, score_text(i).len);

  const auto row = [&](std::string_view name, size_t name_width, std::string_view cap,
                       std::string_view existing, std::string_view fresh, std::string_view reason,
                       std::string_view score = {}) {
    out += name;
    pad(out, name_w, name_width);
    out += "  ";
    pad(out, cap_w, cap.size());
    out += cap;
    out += "  ";
    pad(out, existing_w, existing.size());
    out += existing;
    if (with_new) {
      out += "  ";
      pad(out, new_w, fresh.size());
      out += fresh;
    }
    if (with_score && !(score.empty() && reason.empty())) {  // no trailing blanks
      out += "  ";
      pad(out, score_w, score.size());
      out += score;
    }
    if (!reason.empty()) {
      out += "  ";
      out += reason;
    }
    out += '\n';
  };

  row("NODE", 4, "CAPACITY", "EXISTING", "NEW", with_reason ? "REASON" : "", "TOTAL");
  std::string name_scratch, reason_scratch;
  const bool cut = !report.all_nodes && nodes.size() > kTableNodes;
  std::size_t hidden = 0;  // nodes with room and no new instance, not listed
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto& nc = nodes[i];
    if (cut && nc.capacity != 0 && deployed(report, i) == 0) {
      ++hidden;
      continue;
    }
    const std::string_view name = display(inv.nodes[nc.node].name, name_scratch);
    const std::string reason_text = nc.capacity == 0 ? nc.reason() : std::string();
    const std::string_view reason =
        reason_text.empty() ? std::string_view() : display(reason_text, reason_scratch);
    row(name, text_width(name), number_text(nc.capacity).view(), number_text(nc.existing).view(),
        number_text(deployed(report, i)).view(), reason,
        with_score ? score_text(i).view() : std::string_view());
  }
  if (hidden > 0) {
    out += "... ";
    append_int(out, static_cast<std::int64_t>(hidden));
    out += hidden == 1 ? " more node with room" : " more nodes with room";
    out += with_new ? (hidden == 1 ? ", not used\n" : ", none of them used\n")
                    : " (--all-nodes lists every node)\n";
  }
  row("total", 5, total_cap.view(), total_ex.view(), total_nw.view(), "");
}

void append_explain(std::string& out, const Report& report) {
  out += "\nexplain:\n";
  size_t name_w = 0;
  std::string scratch;
  for (const ExplainLine& line : *report.explain)
    name_w = std::max(name_w, display_width(line.node));
  for (const ExplainLine& line : *report.explain) {
    out += "  ";
    const std::string_view name = display(line.node, scratch);
    out += name;
    out += ':';
    pad(out, name_w + 2, text_width(name) + 1);
    out += display(line.text, scratch);
    out += '\n';
  }
}

// `plan`: every new instance with what it binds, "node1 #2  cpu 3:100".
// Past this many new instances a table lists the first ones' bindings and
// counts the rest; the document (-o json) has them all.
constexpr std::int64_t kInstancesListed = 50;

void append_instances(std::string& out, const Report& report) {
  if (report.plans == PlansShown::None) return;  // --plans none: no binding lines
  const auto& nodes = report.capacity.nodes;
  const auto& inv = report.inventory;
  size_t label_w = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const std::int64_t k = deployed(report, i);
    if (k <= 0) continue;
    label_w =
        std::max(label_w, display_width(inv.nodes[nodes[i].node].name) + 2 + number_text(k).len);
  }
  out += "\nnew instances:\n";
  std::string scratch;
  PlanShares shares(report.request);
  std::int64_t listed = 0, more = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const std::int64_t k = deployed(report, i);
    if (k <= 0) continue;
    const auto& nc = nodes[i];
    const Node& node = inv.nodes[nc.node];
    const std::string_view name = display(node.name, scratch);
    for (std::int64_t j = 0; j < k; ++j) {
      if (listed == kInstancesListed) {
        more += k - j;
        break;
      }
      ++listed;
      const size_t start = out.size();
      out += "  ";
      out += name;
      out += " #";
      append_int(out, j + 1);
      pad(out, label_w + 2, text_width(std::string_view(out).substr(start)));
      out += "  ";
      const Plan* plan = assigned_plan(nc, j);
      if (plan != nullptr) {
        append_plan_text(out, *plan, node, report.request, shares);
      } else {
        out += "no plan materialised\n";
      }
    }
  }
  if (more > 0) out += "  ... " + std::to_string(more) + " more instances (see -o json)\n";
}

// `capacity`: per node the number of plans and the first few; a table is
// read by a person, the full PlanMap is in the JSON/YAML output.
constexpr std::int64_t kPlansPerNode = 3;

void append_plan_summary(std::string& out, const Report& report) {
  const auto& inv = report.inventory;
  out += "\nplans (first ";
  append_int(out, kPlansPerNode);
  out += " per node):\n";
  std::string scratch;
  PlanShares shares(report.request);
  for (const auto& nc : report.capacity.nodes) {
    if (nc.capacity == 0) continue;
    const Node& node = inv.nodes[nc.node];
    out += "  ";
    out += display(node.name, scratch);
    const bool unlimited = nc.capacity == kUnlimited;
    if (unlimited) {
      out += ": unlimited, one shared plan\n";
    } else {
      out += ": ";
      append_int(out, nc.capacity);
      out += nc.capacity == 1 ? " plan\n" : " plans\n";
    }
    const std::int64_t limit = unlimited ? 1 : std::min(nc.capacity, kPlansPerNode);
    const std::int64_t shown = std::min(limit, static_cast<std::int64_t>(nc.plans.size()));
    for (std::int64_t j = 0; j < shown; ++j) {
      out += "    ";
      append_plan_text(out, nc.plans[static_cast<size_t>(j)], node, report.request, shares);
    }
    if (!unlimited && nc.capacity > shown) {
      out += "    ... ";
      append_int(out, nc.capacity - shown);
      out += " more\n";
    }
  }
}

// Rows the node table lists: past kTableNodes, without --all-nodes, only the
// nodes with new instances or no room (append_node_table).
size_t table_rows(const Report& report) {
  const auto& nodes = report.capacity.nodes;
  if (report.all_nodes || nodes.size() <= kTableNodes) return nodes.size();
  size_t rows = 0;
  for (size_t i = 0; i < nodes.size(); ++i)
    rows += nodes[i].capacity == 0 || deployed(report, i) > 0;
  return rows;
}

}  // namespace

void render_parts::append_table(std::string& out, const Report& report) {
  // Sized by the rows listed, not by every node.
  make_room(out, 256 + table_rows(report) * 64);
  append_request_line(out, report);
  append_node_table(out, report);
  if (report.outcome != nullptr && !report.outcome->preemptions.empty()) {
    // "would evict:" and one line per instance placed by preemption.
    out += "\nwould evict:\n";
    for (const Preemption& p : report.outcome->preemptions) {
      out += "  instance ";
      append_int(out, p.instance);
      out += " on ";
      out += report.inventory.nodes[p.node].name;
      out += ':';
      for (std::size_t i = 0; i < p.victims.size(); ++i) {
        out += i == 0 ? " " : ", ";
        out += p.victims[i].name;
        out += " (priority ";
        append_int(out, p.victims[i].priority);
        out += ')';
      }
      out += '\n';
    }
  }
  if (report.explain != nullptr) append_explain(out, report);
  if (!report.capacity.binds) return;
  // Like "assignments" in the document, the new instances' bindings are the
  // result of `plan` and show whatever --plans says; --plans only shortens
  // the PlanMap, which the table summarises for `capacity`.
  if (report.deploy != nullptr) {
    append_instances(out, report);
  } else if (report.plans == PlansShown::All) {
    append_plan_summary(out, report);
  }
}

std::vector<std::size_t> table_name_cells(const Inventory& inventory) {
  std::vector<std::size_t> cells;
  cells.reserve(inventory.nodes.size());
  for (const Node& node : inventory.nodes) cells.push_back(display_width(node.name));
  return cells;
}

std::size_t display_cells(std::string_view text) {
  // Printable ASCII, what node names nearly always are, is one cell a byte;
  // utf8proc is asked only about the rest (it agrees on this range).
  if (std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7f; }))
    return text.size();
  std::size_t cells = 0;
  auto at = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  auto left = static_cast<utf8proc_ssize_t>(text.size());
  while (left > 0) {
    utf8proc_int32_t c = 0;
    utf8proc_ssize_t n = utf8proc_iterate(at, left, &c);
    if (n <= 0) {
      n = 1;  // an invalid byte: one cell (it is shown as one replacement)
      cells += 1;
    } else {
      cells += static_cast<std::size_t>(utf8proc_charwidth(c));
    }
    at += n;
    left -= n;
  }
  return cells;
}

std::string align_columns(const std::vector<std::vector<std::string>>& rows,
                          std::string_view indent, std::size_t gap) {
  std::vector<std::size_t> width;
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], display_cells(row[c]));
    }
  std::string out;
  for (const auto& row : rows) {
    out += indent;
    for (std::size_t c = 0; c < row.size(); ++c) {
      out += row[c];
      if (c + 1 < row.size()) out.append(width[c] - display_cells(row[c]) + gap, ' ');
    }
    out += '\n';
  }
  return out;
}

std::string pad_cells(std::string text, std::size_t cells) {
  const std::size_t has = display_cells(text);
  if (has < cells) text.append(cells - has, ' ');
  return text;
}

}  // namespace eruplan
