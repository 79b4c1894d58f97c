// Fixture cases (SPEC §7). A case names a command, its inputs (inline or by
// path relative to the case file) and what to expect; the runner passes the
// inputs to the pipeline and turns every mismatch into one difference line.
//
// Beyond SPEC §7 a case may carry:
//   options: {plans: all|assigned|none}       what `--plans` would be
//   expect.plans: {node: N}                   number of plans in the PlanMap
//   expect.reasons: {node: "text"}            a substring of the node's reason
//   expect.capacity: {node: absent}           the node is not in the CapacityMap
//   expect.error_contains: [a, b]             several substrings of stderr
//   description: "..."                        free text, ignored
// and (SPEC §13):
//   options: {count, strategy, nodes_limit, app, cpu, cpu_bind, memory,
//             storage, volumes: [..], nodes: [..], exclude: [..],
//             labels: {k: v}, atomic, explain}  the request flags, as strings
//   expect.deploy_subset: {node: N}           only the listed nodes
//   expect.deploy_total: N                    new instances in all
//   expect.placed: N | {request: N}          placed (single request, or per name)
//   expect.status: S | {request: S}          placed|partial|rejected|satisfied
// Cases run with --strict: an unknown field in an input is an error.
#include "fixture.h"

#include <utf8proc.h>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>

#include "doc.h"
#include "fixture_fields.h"
#include "json_writer.h"
#include "realloc.h"
#include "request_fields.h"
#include "whatif.h"

namespace eruplan {

namespace {

// --- Reading the case -------------------------------------------------------

// A case is read from the document tree every input is read from (doc.h);
// an inline input goes to the pipeline as a member of the same text, so its
// positions are the case file's. The first problem found makes the case
// malformed: it is kept, later problems are ignored, and the case never
// reaches the pipeline.
class CaseReader {
 public:
  CaseReader(const Doc& doc, std::vector<std::string>& differences)
      : doc_(doc), differences_(differences) {}

  const Doc& doc() const { return doc_; }
  void fail(std::string message) {
    if (problem_) return;
    problem_ = std::move(message);
    kept_ = differences_.size();
  }
  bool failed() const { return problem_.has_value(); }
  // The differences recorded before the problem, then the problem.
  void finish() {
    if (!problem_) return;
    differences_.resize(kept_);
    differences_.push_back("malformed case: " + *problem_);
  }

 private:
  const Doc& doc_;
  std::vector<std::string>& differences_;
  std::optional<std::string> problem_;
  std::size_t kept_ = 0;
};

// A value of the case (or none: an absent member). Keys listed in `hidden`
// read as absent: a command's own expectations are taken out before the
// common ones are read.
class CaseValue {
 public:
  CaseValue(CaseReader& c, ValueId v, std::span<const FieldSpec> hidden = {})
      : c_(&c), v_(v), hidden_(hidden) {}

  explicit operator bool() const { return v_ != kNoValue; }
  bool IsMap() const { return *this && value().kind == ValueKind::Object; }
  bool IsSequence() const { return *this && value().kind == ValueKind::Array; }
  bool IsNull() const { return *this && value().kind == ValueKind::Null; }
  bool IsScalar() const { return *this && c_->doc().is_scalar(v_) && !IsNull(); }
  // A quoted scalar: "3" is a string, not a count.
  bool quoted() const { return IsScalar() && value().kind == ValueKind::String && !value().plain; }
  std::string Scalar() const { return IsScalar() ? std::string(c_->doc().text(v_)) : ""; }

  std::size_t size() const { return IsMap() || IsSequence() ? c_->doc().size(v_) : 0; }
  CaseValue operator[](std::size_t i) const {
    return {*c_, IsSequence() && i < size() ? c_->doc().element(v_, static_cast<std::uint32_t>(i))
                                            : kNoValue};
  }
  // The first member named `key`.
  CaseValue operator[](std::string_view key) const {
    for (std::uint32_t i = 0; i < (IsMap() ? size() : 0); ++i)
      if (c_->doc().text(c_->doc().key(v_, i)) == key && !is_hidden(key))
        return {*c_, c_->doc().member(v_, i)};
    return {*c_, kNoValue};
  }
  // The members in document order, as (key, value).
  std::vector<std::pair<CaseValue, CaseValue>> members() const {
    std::vector<std::pair<CaseValue, CaseValue>> out;
    for (std::uint32_t i = 0; i < (IsMap() ? size() : 0); ++i) {
      const ValueId k = c_->doc().key(v_, i);
      if (!is_hidden(c_->doc().text(k)))
        out.emplace_back(CaseValue(*c_, k), CaseValue(*c_, c_->doc().member(v_, i)));
    }
    return out;
  }
  CaseValue without(std::span<const FieldSpec> hidden) const { return {*c_, v_, hidden}; }

  void fail(std::string message) const { c_->fail(std::move(message)); }
  CaseReader& reader() const { return *c_; }

 private:
  const Doc::Value& value() const { return c_->doc()[v_]; }
  bool is_hidden(std::string_view key) const {
    return std::any_of(hidden_.begin(), hidden_.end(),
                       [key](const FieldSpec& spec) { return spec.name == key; });
  }

  CaseReader* c_;
  ValueId v_;
  std::span<const FieldSpec> hidden_;
};

std::string in_quotes(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + '"';
}

// A short rendering of a value for "got ..." messages.
std::string describe(const CaseValue& node) {
  if (node.IsScalar()) return in_quotes(node.Scalar());
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  if (node.IsNull()) return "nothing";
  return "an undefined value";
}

// A plain (unquoted) integer scalar; quoted "3" is a string, not a count.
std::int64_t read_int(const CaseValue& node, const std::string& path, std::int64_t min) {
  if (node.IsScalar() && !node.quoted()) {
    const std::string s = node.Scalar();
    size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    bool digits = i < s.size() && s.size() - i <= 18;
    for (size_t k = i; k < s.size(); ++k) digits = digits && s[k] >= '0' && s[k] <= '9';
    if (digits) {
      const std::int64_t v = std::stoll(s);
      if (v >= min) return v;
      node.fail(path + ": expected an integer >= " + std::to_string(min) + ", got " + s);
      return min;
    }
  }
  node.fail(path + ": expected an integer, got " + describe(node));
  return std::max<std::int64_t>(min, 0);
}

std::string read_string(const CaseValue& node, const std::string& path) {
  if (!node.IsScalar()) node.fail(path + ": expected a string, got " + describe(node));
  return node.Scalar();
}

bool require_map(const CaseValue& node, const std::string& path) {
  if (node.IsMap()) return true;
  node.fail(path + ": expected a mapping, got " + describe(node));
  return false;
}

void check_keys(const CaseValue& map, const std::string& path,
                const std::vector<std::string_view>& known) {
  for (const auto& [k, v] : map.members()) {
    const std::string key = k.IsScalar() ? k.Scalar() : "?";
    bool ok = false;
    for (std::string_view name : known) ok = ok || key == name;
    if (ok) continue;
    std::string list;
    for (std::string_view name : known) list += (list.empty() ? "" : ", ") + std::string(name);
    // A key may be megabytes long: show its start.
    const std::string shown =
        key.size() > 64 ? key.substr(0, 64) + "...(" + std::to_string(key.size()) + " bytes)" : key;
    map.fail((path.empty() ? "" : path + ": ") + "unknown field \"" + shown + "\" (known: " + list +
             ")");
    return;
  }
}

// The same with the known keys of a schema table.
void check_keys(const CaseValue& map, const std::string& path, std::span<const FieldSpec> table) {
  std::vector<std::string_view> known;
  for (const FieldSpec& spec : table) known.push_back(spec.name);
  check_keys(map, path, known);
}

// An expected count: N, or "unlimited" (and "absent" where allowed).
constexpr std::int64_t kAbsent = -1;

std::int64_t read_count(const CaseValue& node, const std::string& path, bool absent_allowed) {
  if (node.IsScalar() && node.Scalar() == "unlimited") return kUnlimited;
  if (absent_allowed && node.IsScalar() && node.Scalar() == "absent") return kAbsent;
  const std::string s = node.Scalar();
  const bool numeric = node.IsScalar() && !node.quoted() && !s.empty() &&
                       s.find_first_not_of("+-0123456789") == std::string::npos;
  if (numeric) return read_int(node, path, 0);
  node.fail(path + ": expected an integer or \"unlimited\"" +
            std::string(absent_allowed ? " or \"absent\"" : "") + ", got " + describe(node));
  return 0;
}

template <class V>
using Expected = std::vector<std::pair<std::string, V>>;  // in document order

struct Expectation {
  std::int64_t exit = 0;
  std::optional<Expected<std::int64_t>> capacity;  // kUnlimited, kAbsent or N
  std::optional<std::int64_t> total;
  std::optional<Expected<std::int64_t>> deploy;
  std::optional<Expected<std::int64_t>> plans;
  std::optional<Expected<std::string>> reasons;
  std::vector<std::string> error_contains;  // each a substring of stderr
  std::optional<Expected<std::int64_t>> deploy_subset;
  std::optional<std::int64_t> deploy_total;
  std::optional<Expected<std::int64_t>> placed;  // by request name; "" for a single request
  std::optional<Expected<std::string>> status;
  // score: the first instance's scores per node (SPEC §9); each part optional.
  struct Scores {
    std::optional<std::int64_t> fit, balanced, total;
  };
  std::optional<Expected<Scores>> scores;
};

template <class V, class Read>
Expected<V> read_node_map(const CaseValue& node, const std::string& path, Read read) {
  Expected<V> out;
  if (!require_map(node, path)) return out;
  for (const auto& [k, v] : node.members()) {
    const std::string name = read_string(k, path + " key");
    out.emplace_back(name, read(v, path + "." + name));
    if (node.reader().failed()) break;
  }
  return out;
}

// SPEC §13's expectations: a scalar placed/status is the single request's;
// a mapping names the requests of a requests: list.
void read_operator_expectation(const CaseValue& node, Expectation& e) {
  auto ints = [](const CaseValue& n, const std::string& p) { return read_int(n, p, 0); };
  if (node["deploy_subset"])
    e.deploy_subset =
        read_node_map<std::int64_t>(node["deploy_subset"], "expect.deploy_subset", ints);
  if (node["deploy_total"])
    e.deploy_total = read_int(node["deploy_total"], "expect.deploy_total", 0);
  auto status = [](const CaseValue& n, const std::string& p) {
    std::string v = read_string(n, p);
    if (v != "placed" && v != "partial" && v != "rejected" && v != "satisfied")
      n.fail(p + ": expected placed, partial, rejected or satisfied, got " + in_quotes(v));
    return v;
  };
  if (const CaseValue p = node["placed"]; p && p.IsMap())
    e.placed = read_node_map<std::int64_t>(p, "expect.placed", ints);
  else if (p)
    e.placed = Expected<std::int64_t>{{"", read_int(p, "expect.placed", 0)}};
  if (const CaseValue st = node["status"]; st && st.IsMap())
    e.status = read_node_map<std::string>(st, "expect.status", status);
  else if (st)
    e.status = Expected<std::string>{{"", status(st, "expect.status")}};
  if (node["scores"])
    e.scores = read_node_map<Expectation::Scores>(
        node["scores"], "expect.scores", [](const CaseValue& n, const std::string& p) {
          Expectation::Scores s;
          if (!require_map(n, p)) return s;
          check_keys(n, p, kExpectScoreFields);
          if (n["fit"]) s.fit = read_int(n["fit"], p + ".fit", INT64_MIN);
          if (n["balanced"]) s.balanced = read_int(n["balanced"], p + ".balanced", INT64_MIN);
          if (n["total"]) s.total = read_int(n["total"], p + ".total", INT64_MIN);
          return s;
        });
}

Expectation read_expectation(const CaseValue& node) {
  Expectation e;
  if (!node) return e;
  if (!require_map(node, "expect")) return e;
  check_keys(node, "expect", kExpectFields);
  read_operator_expectation(node, e);
  if (node["exit"]) e.exit = read_int(node["exit"], "expect.exit", 0);
  if (node["capacity"])
    e.capacity = read_node_map<std::int64_t>(
        node["capacity"], "expect.capacity",
        [](const CaseValue& n, const std::string& p) { return read_count(n, p, true); });
  if (node["total"]) e.total = read_count(node["total"], "expect.total", false);
  auto ints = [](const CaseValue& n, const std::string& p) { return read_int(n, p, 0); };
  if (node["deploy"]) e.deploy = read_node_map<std::int64_t>(node["deploy"], "expect.deploy", ints);
  if (node["plans"]) e.plans = read_node_map<std::int64_t>(node["plans"], "expect.plans", ints);
  if (node["reasons"])
    e.reasons = read_node_map<std::string>(node["reasons"], "expect.reasons", read_string);
  if (const CaseValue c = node["error_contains"]; c && c.IsSequence()) {
    for (std::size_t i = 0; i < c.size(); ++i)
      e.error_contains.push_back(
          read_string(c[i], "expect.error_contains[" + std::to_string(i) + "]"));
  } else if (c) {
    e.error_contains.push_back(read_string(c, "expect.error_contains"));
  }
  return e;
}

// A case names its inputs by path, and a failing case shows what the run
// wrote to stderr, which quotes the input: a case could read any file the
// user can (/etc/shadow) and, through error_contains, test its content.
// So inputs must resolve, symbolic links followed, to the case file's
// directory or below it.
bool inside_case_tree(const std::filesystem::path& dir, const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec[4];
  // Absolute first: a relative path none of which exists stays relative.
  const fs::path root = fs::weakly_canonical(fs::absolute(dir.empty() ? "." : dir, ec[0]), ec[1]);
  const fs::path target = fs::weakly_canonical(fs::absolute(path, ec[2]), ec[3]);
  for (const auto& e : ec)
    if (e) return false;
  auto r = root.begin(), t = target.begin();
  for (; r != root.end(); ++r, ++t) {
    if (r->empty()) continue;  // a trailing separator
    if (t == target.end() || *r != *t) return false;
  }
  return true;
}

// An input given as a path relative to the case file, or inline: then the
// input is the case's own member `field`, read from the case text by the
// loader, so its messages point into the case file. Returns nullopt (with a
// difference recorded) when the path cannot be read.
std::optional<Source> read_input(const CaseValue& node, const std::string& field,
                                 const std::string& file, const std::string& text,
                                 const ReadFile& read, std::vector<std::string>& differences) {
  if (node.IsScalar()) {
    const std::filesystem::path rel(node.Scalar());
    const std::filesystem::path dir = std::filesystem::path(file).parent_path();
    const std::string path = rel.is_absolute() || dir.empty()
                                 ? rel.generic_string()
                                 : (dir / rel).lexically_normal().generic_string();
    if (!inside_case_tree(dir, path)) {
      differences.push_back(field + ": " + in_quotes(node.Scalar()) +
                            " is outside the case file's directory; inputs must be in it or below "
                            "it (symbolic links included)");
      return std::nullopt;
    }
    std::optional<std::string> content = read ? read(path) : std::nullopt;
    if (!content) {
      differences.push_back(field + ": cannot read " + in_quotes(path));
      return std::nullopt;
    }
    return Source{path, std::move(*content), InputFormat::Auto, {}};
  }
  if (!node.IsMap() && !node.IsSequence()) {
    node.fail(field + ": expected an inline " + field + " or a path, got " + describe(node));
    return std::nullopt;
  }
  return Source{file, text, InputFormat::Yaml, field};
}

Command read_command(const CaseValue& node) {
  if (!node) return Command::Plan;
  const std::string c = read_string(node, "command");
  if (c == "plan") return Command::Plan;
  if (c == "capacity") return Command::Capacity;
  if (c == "validate") return Command::Validate;
  if (c == "share") return Command::Share;
  node.fail("command: unknown command " + in_quotes(c) +
            " (expected plan, capacity, validate, share, realloc, compare, grow or drain)");
  return Command::Plan;
}

// options: the request flags (SPEC §13) under their fields' names
// (request_fields.h), each a scalar written as the flag's value, a list for
// the repeatable ones, labels as a mapping.
void read_overrides(const CaseValue& node, RunOptions& options) {
  if (!node || !node.IsMap()) return;
  RequestOverrides& o = options.overrides;
  for_each_flag_field([&](const FieldSpec& spec) {
    const CaseValue value = node[spec.name];
    if (!value) return;
    const std::string path = "options." + std::string(spec.name);
    if (spec.kind == FieldKind::List) {
      if (!value.IsSequence()) return value.fail(path + ": expected a list");
      for (std::size_t i = 0; i < value.size(); ++i)
        o.set(spec.flag, read_string(value[i], path + "[" + std::to_string(i) + "]"));
    } else if (spec.kind == FieldKind::Labels) {
      if (!require_map(value, path)) return;
      for (const auto& [k, v] : value.members())
        o.set(spec.flag,
              read_string(k, path + " key") + "=" + read_string(v, path + "." + k.Scalar()));
    } else {
      o.set(spec.flag, read_string(value, path));
    }
  });
  auto flag = [&](const char* key) {
    if (!node[key]) return false;
    const std::string v = read_string(node[key], std::string("options.") + key);
    if (v != "true" && v != "false")
      node.fail(std::string("options.") + key + ": expected true or false, got " + in_quotes(v));
    return v == "true";
  };
  options.atomic = flag("atomic");
  options.explain = flag("explain");
}

PlansShown read_plans(const CaseValue& plans) {
  const std::string p = read_string(plans, "options.plans");
  if (p == "all") return PlansShown::All;
  if (p == "assigned") return PlansShown::Assigned;
  if (p == "none") return PlansShown::None;
  plans.fail("options.plans: expected all, assigned or none, got " + in_quotes(p));
  return PlansShown::All;
}

PlansShown read_options(const CaseValue& node) {
  if (!node) return PlansShown::All;
  if (!require_map(node, "options")) return PlansShown::All;
  // plans, then the request fields that have a flag, then the rest.
  std::vector<std::string_view> known = {kCaseOptionFields[0].name};
  for_each_flag_field([&known](const FieldSpec& spec) { known.push_back(spec.name); });
  for (std::size_t i = 1; i < kCaseOptionFields.size(); ++i)
    known.push_back(kCaseOptionFields[i].name);
  check_keys(node, "options", known);
  if (!node["plans"]) return PlansShown::All;
  return read_plans(node["plans"]);
}

// --- Comparing ----------------------------------------------------------------

std::string count_text(std::int64_t n) { return n == kUnlimited ? "unlimited" : std::to_string(n); }

std::string first_line(const std::string& text) {
  const std::string line = text.substr(0, text.find('\n'));
  return line.empty() ? "(empty)" : line;
}

// The produced results by node name, for lookups by the expected names.
struct Outcome {
  const RunResult& result;

  const NodeCapacity* find(const std::string& name, size_t* index = nullptr) const {
    if (!result.capacity || !result.inventory) return nullptr;
    const auto& nodes = result.capacity->nodes;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (result.inventory->nodes[nodes[i].node].name != name) continue;
      if (index) *index = i;
      return &nodes[i];
    }
    return nullptr;
  }
  std::string name_of(size_t i) const {
    return result.inventory->nodes[result.capacity->nodes[i].node].name;
  }
  bool has_capacity() const { return result.capacity && result.inventory; }
  bool has_deploy() const {
    return has_capacity() && result.deploy &&
           result.deploy->size() == result.capacity->nodes.size();
  }
};

void compare_capacity(const Expectation& e, const Outcome& o, std::vector<std::string>& diffs) {
  if (e.capacity) {
    if (!o.has_capacity() && !e.capacity->empty())
      diffs.push_back("capacity: no capacity map was produced");
    for (const auto& [name, want] : *e.capacity) {
      if (!o.has_capacity()) break;
      const NodeCapacity* got = o.find(name);
      if (want == kAbsent) {
        if (got)
          diffs.push_back("capacity." + name + ": expected absent, got " +
                          count_text(got->capacity));
      } else if (!got) {
        diffs.push_back("capacity." + name + ": not in the capacity map");
      } else if (got->capacity != want) {
        diffs.push_back("capacity." + name + ": expected " + count_text(want) + ", got " +
                        count_text(got->capacity));
      }
    }
  }
  if (e.total) {
    if (!o.has_capacity())
      diffs.push_back("total: expected " + count_text(*e.total) + ", no capacity map was produced");
    else if (o.result.capacity->total != *e.total)
      diffs.push_back("total: expected " + count_text(*e.total) + ", got " +
                      count_text(o.result.capacity->total));
  }
  if (e.plans) {
    if (!o.has_capacity() && !e.plans->empty())
      diffs.push_back("plans: no capacity map was produced");
    for (const auto& [name, want] : *e.plans) {
      if (!o.has_capacity()) break;
      const NodeCapacity* got = o.find(name);
      if (!got)
        diffs.push_back("plans." + name + ": not in the capacity map");
      else if (static_cast<std::int64_t>(got->plans.size()) != want)
        diffs.push_back("plans." + name + ": expected " + std::to_string(want) + " plans, got " +
                        std::to_string(got->plans.size()));
    }
  }
  if (e.reasons) {
    if (!o.has_capacity() && !e.reasons->empty())
      diffs.push_back("reasons: no capacity map was produced");
    for (const auto& [name, want] : *e.reasons) {
      if (!o.has_capacity()) break;
      const NodeCapacity* got = o.find(name);
      if (!got)
        diffs.push_back("reasons." + name + ": not in the capacity map");
      else if (got->reason().find(want) == std::string::npos)
        diffs.push_back("reasons." + name + ": expected to contain " + in_quotes(want) + ", got: " +
                        (got->reason().empty() ? "(no reason)" : in_quotes(got->reason())));
    }
  }
}

// The DeployMap exactly: listed nodes get their number, every other node 0.
void compare_deploy(const Expectation& e, const Outcome& o, std::vector<std::string>& diffs) {
  if (!e.deploy) return;
  for (const auto& [name, want] : *e.deploy) {
    size_t i = 0;
    const NodeCapacity* node = o.find(name, &i);
    std::int64_t got = 0;
    std::string why;
    if (!o.has_deploy())
      why = " (no deploy map was produced)";
    else if (!node)
      why = " (not in the capacity map)";
    else
      got = (*o.result.deploy)[i];
    if (got != want)
      diffs.push_back("deploy." + name + ": expected " + std::to_string(want) + ", got " +
                      std::to_string(got) + why);
  }
  if (!o.has_deploy()) return;
  for (size_t i = 0; i < o.result.deploy->size(); ++i) {
    const std::int64_t got = (*o.result.deploy)[i];
    if (got == 0) continue;
    const std::string name = o.name_of(i);
    bool listed = false;
    for (const auto& entry : *e.deploy) listed = listed || entry.first == name;
    if (!listed)
      diffs.push_back("deploy." + name + ": expected 0, got " + std::to_string(got) +
                      " (not listed)");
  }
}

// scores: the listed nodes' first-instance scores (SPEC §9, §13).
void compare_scores(const Expectation& e, const Outcome& o, std::vector<std::string>& diffs) {
  if (!e.scores) return;
  for (const auto& [name, want] : *e.scores) {
    size_t i = 0;
    const NodeCapacity* node = o.has_capacity() ? o.find(name, &i) : nullptr;
    if (node == nullptr || i >= o.result.scores.size() || node->capacity <= 0) {
      diffs.push_back("scores." + name + ": no score (not a feasible node of a score plan)");
      continue;
    }
    const NodeScore& got = o.result.scores[i];
    const std::pair<const char*, std::pair<std::optional<std::int64_t>, std::int64_t>> parts[] = {
        {"fit", {want.fit, got.fit}},
        {"balanced", {want.balanced, got.balanced}},
        {"total", {want.total, got.total}}};
    for (const auto& [part, values] : parts)
      if (values.first && *values.first != values.second)
        diffs.push_back("scores." + name + "." + part + ": expected " +
                        std::to_string(*values.first) + ", got " + std::to_string(values.second));
  }
}

// deploy_subset, deploy_total, placed and status (SPEC §13).
void compare_operator(const Expectation& e, const Outcome& o, std::vector<std::string>& diffs) {
  if (e.deploy_subset) {
    for (const auto& [name, want] : *e.deploy_subset) {
      size_t i = 0;
      const NodeCapacity* node = o.has_deploy() ? o.find(name, &i) : nullptr;
      const std::int64_t got = node ? (*o.result.deploy)[i] : 0;
      if (got != want)
        diffs.push_back("deploy_subset." + name + ": expected " + std::to_string(want) + ", got " +
                        std::to_string(got) +
                        (!o.has_deploy() ? " (no deploy map was produced)"
                         : !node         ? " (not in the capacity map)"
                                         : ""));
    }
  }
  if (e.deploy_total) {
    std::int64_t got = 0;
    if (o.has_deploy())
      for (std::int64_t k : *o.result.deploy) got += k;
    if (got != *e.deploy_total)
      diffs.push_back("deploy_total: expected " + std::to_string(*e.deploy_total) + ", got " +
                      std::to_string(got));
  }
  const auto& requests = o.result.requests;
  auto find = [&](const std::string& name) -> const RequestBrief* {
    if (name.empty()) return requests.size() == 1 ? &requests.front() : nullptr;
    for (const RequestBrief& r : requests)
      if (r.name == name) return &r;
    return nullptr;
  };
  auto label = [](const std::string& field, const std::string& name) {
    return name.empty() ? field : field + "." + name;
  };
  if (e.placed) {
    for (const auto& [name, want] : *e.placed) {
      const RequestBrief* r = find(name);
      if (r == nullptr)
        diffs.push_back(label("placed", name) + ": no such request was planned");
      else if (r->placed != want)
        diffs.push_back(label("placed", name) + ": expected " + std::to_string(want) + ", got " +
                        std::to_string(r->placed));
    }
  }
  if (e.status) {
    for (const auto& [name, want] : *e.status) {
      const RequestBrief* r = find(name);
      if (r == nullptr)
        diffs.push_back(label("status", name) + ": no such request was planned");
      else if (status_name(r->status) != want)
        diffs.push_back(label("status", name) + ": expected " + want + ", got " +
                        std::string(status_name(r->status)));
    }
  }
}

void compare(const Expectation& e, const RunResult& result, std::vector<std::string>& diffs) {
  if (static_cast<std::int64_t>(result.exit) != e.exit) {
    std::string line = "exit: expected " + std::to_string(e.exit) + ", got " +
                       std::to_string(static_cast<int>(result.exit));
    if (!result.err.empty()) line += " (stderr: " + first_line(result.err) + ")";
    diffs.push_back(line);
  }
  const Outcome o{result};
  compare_capacity(e, o, diffs);
  compare_deploy(e, o, diffs);
  compare_operator(e, o, diffs);
  compare_scores(e, o, diffs);
  for (const std::string& want : e.error_contains)
    if (result.err.find(want) == std::string::npos)
      diffs.push_back("stderr: expected to contain " + in_quotes(want) +
                      ", got: " + first_line(result.err));
}

// --- What-if cases (SPEC §14) ---------------------------------------------------
//
// command: compare | grow | drain, with
//   template: {...}                         grow's --template, inline or a path
//   options: {strategies: [auto, fill], max: N, node: NAME, each_node: true, plans: ...}
//   expect.feasible: {auto: true}           compare: per strategy
//   expect.satisfied: {fill: true}          compare: per strategy
//   expect.nodes_used: {auto: 3}            compare: per strategy
//   expect.added: 3                         grow
//   expect.absorbable: {node1: false}       drain --each-node: per node
// besides exit, deploy, capacity, ... of the plan document (grow, drain).

std::optional<WhatIfCommand> whatif_command(const std::string& c) {
  if (c == "compare") return WhatIfCommand::Compare;
  if (c == "grow") return WhatIfCommand::Grow;
  if (c == "drain") return WhatIfCommand::Drain;
  return std::nullopt;
}

bool read_bool(const CaseValue& node, const std::string& path) {
  if (node.IsScalar() && !node.quoted() && (node.Scalar() == "true" || node.Scalar() == "false"))
    return node.Scalar() == "true";
  node.fail(path + ": expected true or false, got " + describe(node));
  return false;
}

void read_whatif_options(const CaseValue& node, WhatIfOptions& o) {
  if (!node) return;
  if (!require_map(node, "options")) return;
  check_keys(node, "options", kWhatIfOptionFields);
  if (node["plans"]) o.plans = read_plans(node["plans"]);
  if (const CaseValue s = node["strategies"]; s && s.IsSequence()) {
    for (std::size_t i = 0; i < s.size(); ++i)
      o.strategies.push_back(read_string(s[i], "options.strategies[" + std::to_string(i) + "]"));
  } else if (s) {
    const std::string list = read_string(s, "options.strategies");
    for (std::size_t at = 0; at <= list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      if (comma > at) o.strategies.push_back(list.substr(at, comma - at));
      at = comma + 1;
    }
  }
  for (const std::string& name : o.strategies)
    if (!parse_strategy(name)) node.fail("options.strategies: unknown strategy " + in_quotes(name));
  if (node["max"])
    o.max = read_int(node["max"], "options.max", std::numeric_limits<std::int64_t>::min());
  if (node["node"]) o.node = read_string(node["node"], "options.node");
  if (node["each_node"]) o.each_node = read_bool(node["each_node"], "options.each_node");
}

struct WhatIfExpectation {
  std::optional<Expected<bool>> feasible, satisfied, absorbable;
  std::optional<Expected<std::int64_t>> nodes_used;
  std::optional<std::int64_t> added;
};

// The what-if fields of `expect` (kWhatIfExpectFields); read_expectation
// reads the rest (the expectation with them hidden).

WhatIfExpectation read_whatif_expectation(const CaseValue& expect) {
  WhatIfExpectation e;
  if (!expect || !expect.IsMap()) return e;
  auto bools = [](const CaseValue& n, const std::string& p) { return read_bool(n, p); };
  auto ints = [](const CaseValue& n, const std::string& p) { return read_int(n, p, 0); };
  if (expect["feasible"])
    e.feasible = read_node_map<bool>(expect["feasible"], "expect.feasible", bools);
  if (expect["satisfied"])
    e.satisfied = read_node_map<bool>(expect["satisfied"], "expect.satisfied", bools);
  if (expect["absorbable"])
    e.absorbable = read_node_map<bool>(expect["absorbable"], "expect.absorbable", bools);
  if (expect["nodes_used"])
    e.nodes_used = read_node_map<std::int64_t>(expect["nodes_used"], "expect.nodes_used", ints);
  if (expect["added"]) e.added = read_int(expect["added"], "expect.added", 0);
  return e;
}

std::string bool_text(bool b) { return b ? "true" : "false"; }

void compare_whatif(const WhatIfExpectation& e, const WhatIfResult& w,
                    std::vector<std::string>& diffs) {
  auto row = [&](const std::string& name) -> const StrategyComparison* {
    for (const StrategyComparison& c : w.strategies)
      if (strategy_name(c.strategy) == name) return &c;
    return nullptr;
  };
  auto per_strategy = [&](const auto& expected, const char* what, auto get, auto text) {
    if (!expected) return;
    for (const auto& [name, want] : *expected) {
      const StrategyComparison* c = row(name);
      if (!c)
        diffs.push_back(std::string(what) + "." + name + ": not compared");
      else if (get(*c) != want)
        diffs.push_back(std::string(what) + "." + name + ": expected " + text(want) + ", got " +
                        text(get(*c)));
    }
  };
  per_strategy(
      e.feasible, "feasible", [](const StrategyComparison& c) { return c.feasible; }, bool_text);
  per_strategy(
      e.satisfied, "satisfied", [](const StrategyComparison& c) { return c.satisfied; }, bool_text);
  per_strategy(
      e.nodes_used, "nodes_used", [](const StrategyComparison& c) { return c.nodes_used; },
      [](std::int64_t n) { return std::to_string(n); });
  if (e.added && w.added != e.added)
    diffs.push_back("added: expected " + std::to_string(*e.added) + ", got " +
                    (w.added ? std::to_string(*w.added) : std::string("none")));
  if (e.absorbable) {
    for (const auto& entry : *e.absorbable) {
      const std::string& name = entry.first;
      const auto& want = entry.second;
      auto it = std::find_if(w.absorption.begin(), w.absorption.end(),
                             [&name](const Absorption& a) { return a.node == name; });
      if (it == w.absorption.end())
        diffs.push_back("absorbable." + name + ": not checked");
      else if (it->absorbable != want)
        diffs.push_back("absorbable." + name + ": expected " + bool_text(want) + ", got " +
                        bool_text(it->absorbable));
    }
  }
}

void run_whatif_case(const std::string& file, const std::string& text, const CaseValue& root,
                     const ReadFile& read, FixtureResult& r) {
  CaseReader& c = root.reader();
  WhatIfOptions options;
  options.command = *whatif_command(read_string(root["command"], "command"));
  read_whatif_options(root["options"], options);
  const WhatIfExpectation whatif_expect = read_whatif_expectation(root["expect"]);
  const Expectation expect = read_expectation(root["expect"].without(kWhatIfExpectFields));
  if (!root["nodes"]) root.fail("nodes: missing (an inline inventory or a path)");
  if (c.failed()) return;
  std::optional<Source> nodes = read_input(root["nodes"], "nodes", file, text, read, r.differences);
  std::optional<Source> request, node_template;
  if (root["request"])
    request = read_input(root["request"], "request", file, text, read, r.differences);
  if (root["template"])
    node_template = read_input(root["template"], "template", file, text, read, r.differences);
  if (!r.differences.empty() || c.failed()) return;
  options.nodes = std::move(*nodes);
  options.request = std::move(request);
  options.template_node = std::move(node_template);
  options.strict = true;  // SPEC §13: cases run strictly, what-if ones too
  const WhatIfResult result = run_whatif(options);
  compare(expect, result.run, r.differences);
  compare_whatif(whatif_expect, result, r.differences);
}

// `command: realloc` (SPEC §11): `request` is the realloc request, `pods`
// (optional) kubectl's pods as workloads,
// `options: {atomic: true}` adds --atomic, and `expect.status: {id: ok|failed|not_applied}`
// checks the workloads listed (exit and error_contains as for every case).

void run_realloc_case(const CaseValue& root, const std::string& file, const std::string& text,
                      const ReadFile& read, FixtureResult& r) {
  CaseReader& c = root.reader();
  ReallocOptions options;
  if (const CaseValue o = root["options"]; o && require_map(o, "options")) {
    check_keys(o, "options", kReallocOptionFields);
    if (o["atomic"]) options.atomic = read_string(o["atomic"], "options.atomic") == "true";
  }
  const CaseValue expect_node = root["expect"];
  std::optional<Expected<std::string>> status;
  if (expect_node.IsMap() && expect_node["status"])
    status = read_node_map<std::string>(expect_node["status"], "expect.status", read_string);
  const Expectation expect = read_expectation(expect_node.without(kReallocExpectFields));
  if (!root["nodes"] || !root["request"]) root.fail("nodes and request are required for realloc");
  if (c.failed()) return;
  std::optional<Source> nodes = read_input(root["nodes"], "nodes", file, text, read, r.differences);
  std::optional<Source> request =
      read_input(root["request"], "request", file, text, read, r.differences);
  if (root["pods"])  // SPEC §12: each running pod is also a workload
    options.pods = read_input(root["pods"], "pods", file, text, read, r.differences);
  if (!r.differences.empty() || c.failed()) return;
  options.nodes = std::move(*nodes);
  options.request = std::move(*request);
  const ReallocRun result = run_realloc(options);
  compare(expect, result, r.differences);
  for (const auto& [id, want] : status ? *status : Expected<std::string>{}) {
    std::string got = "absent";
    if (result.realloc)
      for (const WorkloadChange& change : result.realloc->workloads)
        if (change.id == id) got = realloc_status_name(change.status);
    if (got != want)
      r.differences.push_back("status." + id + ": expected " + want + ", got " + got);
  }
}

void run_case(const CaseValue& root, const std::string& file, const std::string& text,
              const ReadFile& read, const RunFunction& run_function, FixtureResult& r) {
  CaseReader& c = root.reader();
  if (!root.IsMap()) return root.fail("a case must be a mapping, got " + describe(root));
  check_keys(root, "", kCaseFields);
  if (root["name"]) r.name = read_string(root["name"], "name");
  if (root["command"] && whatif_command(read_string(root["command"], "command")))
    return run_whatif_case(file, text, root, read, r);
  if (root["command"] && root["command"].IsScalar() && root["command"].Scalar() == "realloc")
    return run_realloc_case(root, file, text, read, r);
  RunOptions options;
  options.command = read_command(root["command"]);
  options.plans = read_options(root["options"]);
  read_overrides(root["options"], options);
  options.strict = true;  // SPEC §13: cases run strictly
  const Expectation expect = read_expectation(root["expect"]);
  if (!root["nodes"]) root.fail("nodes: missing (an inline inventory or a path)");
  if (c.failed()) return;

  std::optional<Source> nodes = read_input(root["nodes"], "nodes", file, text, read, r.differences);
  std::optional<Source> request;
  if (root["request"])
    request = read_input(root["request"], "request", file, text, read, r.differences);
  std::optional<Source> pods;  // SPEC §12: kubectl get pods, inline or a path
  if (root["pods"]) pods = read_input(root["pods"], "pods", file, text, read, r.differences);
  if (!r.differences.empty() || c.failed()) return;  // an unreadable input; nothing to run

  options.pods = std::move(pods);
  options.nodes = std::move(*nodes);
  options.request = std::move(request);
  const RunResult result = run_function(options);
  compare(expect, result, r.differences);
}

// "cannot parse: <why> (line L, column C)" from the parser's diagnostic.
std::string parse_problem(const Diagnostics& diags) {
  if (diags.items().empty()) return "cannot parse";
  const auto& d = diags.items().front();
  std::string why = d.message;
  for (std::string_view prefix : {"malformed YAML: ", "malformed JSON: "})
    if (why.starts_with(prefix)) why.erase(0, prefix.size());
  return "cannot parse: " + why + " (line " + std::to_string(d.origin.line) + ", column " +
         std::to_string(d.origin.col) + ")";
}

void run_one(const std::string& file, const std::string& text, const ReadFile& read,
             const RunFunction& run_function, FixtureResult& r) {
  // A directory walk also finds links; one to a file elsewhere is not a case
  // of this tree, and its content must not show up in a failure message.
  if (!inside_case_tree(std::filesystem::path(file).parent_path(), file)) {
    r.differences.push_back(
        "malformed case: the case file is a symbolic link to outside its directory; not read");
    return;
  }
  // A case is YAML (JSON is read as the YAML it also is), and so are its
  // inline inputs, which the loaders read from the same text.
  const Source source{file, text, InputFormat::Yaml, {}};
  Diagnostics diags;
  const std::optional<Doc> doc = parse_document(source, diags);
  if (!doc) {
    r.differences.push_back("malformed case: " + parse_problem(diags));
    return;
  }
  CaseReader c(*doc, r.differences);
  run_case(CaseValue(c, doc->root()), file, text, read, run_function, r);
  c.finish();
}

}  // namespace

FixtureResult run_fixture(const std::string& file, const std::string& text, const ReadFile& read) {
  return run_fixture(file, text, read, [](const RunOptions& options) { return run(options); });
}

FixtureResult run_fixture(const std::string& file, const std::string& text, const ReadFile& read,
                          const RunFunction& run_case) {
  FixtureResult r;
  r.file = file;
  r.name = std::filesystem::path(file).filename().string();
  try {
    run_one(file, text, read, run_case, r);
  } catch (const std::exception& e) {
    r.differences.push_back(std::string("internal error: ") + e.what());
  } catch (...) {
    r.differences.push_back("internal error");
  }
  r.passed = r.differences.empty();
  return r;
}

namespace {

// Text as XML 1.0 character data or attribute value: the five special
// characters escaped, characters XML cannot hold (controls, invalid UTF-8)
// written as \xNN so the document always parses.
std::string xml_text(std::string_view text) {
  std::string out;
  auto at = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  auto left = static_cast<utf8proc_ssize_t>(text.size());
  while (left > 0) {
    utf8proc_int32_t c = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(at, left, &c);
    const bool allowed =
        n > 0 && (c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c < 0xD800) ||
                  (c >= 0xE000 && c < 0xFFFE) || c >= 0x10000);
    if (!allowed) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[*at >> 4];
      out += kHex[*at & 15];
      ++at;
      --left;
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out.append(reinterpret_cast<const char*>(at), static_cast<std::size_t>(n));
    }
    at += n;
    left -= n;
  }
  return out;
}

// One <testsuite> of every case; classname is the case file, name the case's
// name; a failing case carries its differences, the first as the message.
std::string render_junit(const std::vector<FixtureResult>& results, std::size_t failed) {
  const std::string counts = " tests=\"" + std::to_string(results.size()) + "\" failures=\"" +
                             std::to_string(failed) + "\" errors=\"0\"";
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"eruplan\"" +
                    counts + ">\n  <testsuite name=\"eruplan fixtures\"" + counts +
                    " skipped=\"0\">\n";
  for (const FixtureResult& r : results) {
    out += "    <testcase classname=\"" + xml_text(r.file) + "\" name=\"" + xml_text(r.name) + '"';
    if (r.passed) {
      out += "/>\n";
      continue;
    }
    const std::string first = r.differences.empty() ? "failed" : r.differences.front();
    std::string all;
    for (const std::string& d : r.differences) all += d + '\n';
    out += ">\n      <failure message=\"" + xml_text(first) + "\">" + xml_text(all) +
           "</failure>\n    </testcase>\n";
  }
  return out + "  </testsuite>\n</testsuites>\n";
}

std::string yaml_key(std::string_view name) {
  std::string out;
  append_yaml_string(out, name);
  return out;
}

}  // namespace

std::optional<std::string> fixture_expect(const std::string& file, const std::string& text,
                                          const ReadFile& read, std::string& error) {
  std::optional<RunResult> ran;
  const FixtureResult r = run_fixture(file, text, read, [&](const RunOptions& options) {
    ran = run(options);
    return *ran;
  });
  if (!ran) {
    error = r.differences.empty() ? "the case did not run" : r.differences.front();
    return std::nullopt;
  }
  const RunResult& result = *ran;
  std::string out = "expect:\n  exit: " + std::to_string(static_cast<int>(result.exit)) + '\n';
  if (result.capacity && result.inventory) {
    const auto& nodes = result.capacity->nodes;
    out += "  total: " + count_text(result.capacity->total) + '\n';
    out += nodes.empty() ? "  capacity: {}\n" : "  capacity:\n";
    for (const NodeCapacity& nc : nodes)
      out += "    " + yaml_key(result.inventory->nodes[nc.node].name) + ": " +
             count_text(nc.capacity) + '\n';
    if (result.deploy && result.deploy->size() == nodes.size()) {
      std::string deploy;
      for (std::size_t i = 0; i < nodes.size(); ++i)
        if ((*result.deploy)[i] > 0)
          deploy += "    " + yaml_key(result.inventory->nodes[nodes[i].node].name) + ": " +
                    std::to_string((*result.deploy)[i]) + '\n';
      out += deploy.empty() ? "  deploy: {}\n" : "  deploy:\n" + deploy;
    }
  }
  if (result.requests.size() == 1 && result.request) {
    out += "  status: " + std::string(status_name(result.requests.front().status)) + '\n';
    out += "  placed: " + std::to_string(result.requests.front().placed) + '\n';
  } else if (!result.requests.empty()) {
    out += "  status:\n";
    for (const RequestBrief& b : result.requests)
      out += "    " + yaml_key(b.name) + ": " + std::string(status_name(b.status)) + '\n';
    out += "  placed:\n";
    for (const RequestBrief& b : result.requests)
      out += "    " + yaml_key(b.name) + ": " + std::to_string(b.placed) + '\n';
  }
  if (result.exit != ExitCode::Ok && !result.err.empty()) {
    std::string line = result.err.substr(0, result.err.find('\n'));
    out += "  error_contains: ";
    append_quoted(out, line);
    out += '\n';
  }
  return out;
}

bool looks_like_input_file(const std::string& text) {
  // The first document of the file, as the loaders would read it.
  const Source source{"", text, InputFormat::Yaml, {}};
  Diagnostics diags;
  std::vector<ValueId> documents;
  const std::optional<Doc> doc = parse_document_stream(source, diags, documents);
  if (!doc || documents.empty()) return false;  // run as a case, where the problem is reported
  std::vector<std::string> ignored;
  CaseReader c(*doc, ignored);
  const CaseValue root(c, documents.front());
  if (!root.IsMap() || root["expect"] || root["command"]) return false;
  if (root["nodes"] && root["nodes"].IsSequence()) return true;
  if (root["name"] && (root["cpu"] || root["memory"] || root["cpu_map"]))
    return true;                                        // one node object: grow's --template
  if (root["kind"] && root["apiVersion"]) return true;  // a Kubernetes object (SPEC §12)
  return root["app"] || root["resources"] || root["count"] || root["strategy"] ||
         root["requests"] || root["apps"];  // apps: a share apps file (SPEC §10)
}

std::string render_fixture_report(const std::vector<FixtureResult>& results,
                                  FixtureReportFormat format) {
  std::size_t passed = 0;
  for (const FixtureResult& r : results) passed += r.passed ? 1 : 0;
  const std::size_t failed = results.size() - passed;

  if (format == FixtureReportFormat::Json) {
    nlohmann::ordered_json doc;
    doc["passed"] = passed;
    doc["failed"] = failed;
    doc["cases"] = nlohmann::ordered_json::array();
    for (const FixtureResult& r : results) {
      nlohmann::ordered_json c;
      c["file"] = r.file;
      c["name"] = r.name;
      c["passed"] = r.passed;
      c["differences"] = r.differences;
      doc["cases"].push_back(std::move(c));
    }
    return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  }

  if (format == FixtureReportFormat::Junit) return render_junit(results, failed);

  std::string out;
  for (const FixtureResult& r : results) {
    if (r.passed) continue;
    std::string line = "FAIL " + r.file + ": " + r.name + ": ";
    for (size_t i = 0; i < r.differences.size(); ++i) line += (i ? "; " : "") + r.differences[i];
    if (r.differences.empty()) line += "failed";
    for (char& c : line)
      if (c == '\n' || c == '\r') c = ' ';  // one line per failing case
    out += line + '\n';
  }
  return out + std::to_string(passed) + " passed, " + std::to_string(failed) + " failed\n";
}

}  // namespace eruplan
