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
//             labels: {k: v}, atomic, explain}  the request flags' values;
//                                             atomic and explain true or false
//   expect.deploy_subset: {node: N}           only the listed nodes
//   expect.deploy_total: N                    new instances in all
//   expect.placed: N | {request: N}          placed (single request, or per name)
//   expect.status: S | {request: S}          placed|partial|rejected|satisfied
// Cases run with --strict: an unknown field in an input is an error, and a
// case itself is read strictly too (see "Reading the case").
#include "fixture.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <span>
#include <stdexcept>
#include <string_view>

#include "doc.h"
#include "fixture_expectation.h"
#include "fixture_fields.h"
#include "json_writer.h"
#include "markup.h"
#include "realloc_command.h"
#include "request_fields.h"
#include "whatif.h"

namespace eruplan {

namespace {

using namespace fixture_case;

// --- Reading the case -------------------------------------------------------

// A case is read from the document tree every input is read from (doc.h),
// through the typed Reader: each problem goes to the case's Diagnostics with
// the case file's line:col and its field path. Cases are read strictly, so
// an unknown key is an error (with Reader's "did you mean"); a null field is
// absent (SPEC §12). Every problem is collected; any one makes the case
// malformed and it never reaches the pipeline. An inline input goes to the
// pipeline as a member of the same text, so its positions are the case
// file's too.
struct CaseContext {
  Reader& r;
  const Diagnostics& diags;
  const std::string& file;
  const std::string& text;
  const ReadFile& read;
  FixtureResult& result;
  // The directory given to `eruplan test` that holds the case: inputs given
  // as paths must resolve inside it. Empty: the case file's own directory.
  const std::string& root;
};

// The path of a top-level field of the case ("expect"). It has no parent
// frame, so it may be kept in a variable (FieldPath{}.child() would point at
// a temporary).
FieldPath case_field(std::string_view key) { return {nullptr, key, -1}; }

// The members of a mapping picked by one or more field tables in one
// Reader::fields call, so unknown keys are checked against them all; a field
// of an earlier table hides one of the same name in a later one (a command's
// own expect.status replaces the common one). kNoValue: every field absent.
class Fields {
 public:
  Fields(Reader& r, const FieldPath& path, ValueId object,
         std::initializer_list<std::span<const FieldSpec>> tables) {
    for (std::span<const FieldSpec> table : tables)
      for (const FieldSpec& spec : table)
        if (!known(spec.name)) table_.push_back(spec);
    values_.assign(table_.size(), kNoValue);
    if (object != kNoValue) r.fields(path, object, table_, values_.data());
  }

  // The same with the fields of `table` absent: a command reads its own.
  Fields hiding(std::span<const FieldSpec> table) const {
    Fields out = *this;
    for (const FieldSpec& spec : table)
      for (std::size_t i = 0; i < out.table_.size(); ++i)
        if (out.table_[i].name == spec.name) out.values_[i] = kNoValue;
    return out;
  }

  // The value of field `name`, or kNoValue when absent (or null).
  ValueId operator[](std::string_view name) const {
    for (std::size_t i = 0; i < table_.size(); ++i)
      if (table_[i].name == name) return values_[i];
    throw std::logic_error("fixture case: no field " + std::string(name) + " in the table");
  }

 private:
  bool known(std::string_view name) const {
    return std::any_of(table_.begin(), table_.end(),
                       [name](const FieldSpec& spec) { return spec.name == name; });
  }

  std::vector<FieldSpec> table_;
  std::vector<ValueId> values_;
};

std::optional<std::string> read_text(Reader& r, const FieldPath& path, ValueId v) {
  if (const auto t = r.scalar(path, v)) return std::string(*t);
  return std::nullopt;
}

// One of `choices` ("a, b or c" in the message).
std::optional<std::string> read_choice(Reader& r, const FieldPath& path, ValueId v,
                                       const std::vector<std::string>& choices) {
  const auto t = r.scalar(path, v);
  if (!t) return std::nullopt;
  if (std::find(choices.begin(), choices.end(), *t) != choices.end()) return std::string(*t);
  r.error(path, v, "expected " + either_text(choices) + ", got " + r.describe(v));
  return std::nullopt;
}

// An expected count: a whole number (unquoted: "3" in quotes is a string,
// not a count), "unlimited", or "absent" where allowed.

std::optional<std::int64_t> read_count(Reader& r, const FieldPath& path, ValueId v,
                                       bool absent_allowed) {
  const Doc& doc = r.doc();
  const std::string_view t = doc[v].kind == ValueKind::String ? doc.text(v) : "";
  if (t == "unlimited") return kUnlimited;
  if (absent_allowed && t == "absent") return kAbsent;
  const bool numeric =
      doc[v].kind == ValueKind::Number ||
      (doc[v].kind == ValueKind::String && doc[v].plain && !t.empty() &&
       (std::isdigit(static_cast<unsigned char>(t[0])) || t[0] == '-' || t[0] == '+'));
  if (numeric) return r.integer(path, v, 0);
  r.error(path, v,
          std::string("expected a whole number >= 0") +
              (absent_allowed ? ", \"unlimited\" or \"absent\"" : " or \"unlimited\"") + ", got " +
              r.describe(v));
  return std::nullopt;
}

bool byte_less(std::string_view a, std::string_view b) { return a < b; }

// A mapping of names (nodes, requests, strategies, workloads) to values
// read by `read` (which returns nullopt after reporting), in document order;
// a name given twice is an error. Nullopt when `v` is absent.
template <class V, class Read>
std::optional<Expected<V>> read_named(Reader& r, const FieldPath& path, ValueId v, Read read) {
  if (v == kNoValue) return std::nullopt;
  const std::vector<Reader::Entry> entries = r.members(path, v);
  std::vector<Reader::Entry> sorted = entries;
  r.sort_unique(path, sorted, byte_less);
  Expected<V> out;
  for (const Reader::Entry& e : entries)
    if (std::optional<V> value = read(path.child(e.key), e.value))
      out.emplace_back(std::string(e.key), std::move(*value));
  return out;
}

// SPEC §13's expectations: a scalar placed/status is the single request's;
// a mapping names the requests of a requests: list.
void read_operator_expectation(Reader& r, const FieldPath& path, const Fields& f, Expectation& e) {
  auto count = [&r](const FieldPath& p, ValueId v) { return r.integer(p, v, 0); };
  auto status = [&r](const FieldPath& p, ValueId v) {
    return read_choice(r, p, v, names_of(kRequestStatusNames));
  };
  e.deploy_subset =
      read_named<std::int64_t>(r, path.child("deploy_subset"), f["deploy_subset"], count);
  if (const ValueId v = f["deploy_total"]; v != kNoValue)
    e.deploy_total = r.integer(path.child("deploy_total"), v, 0);
  if (const ValueId v = f["placed"]; v != kNoValue && r.doc()[v].kind == ValueKind::Object)
    e.placed = read_named<std::int64_t>(r, path.child("placed"), v, count);
  else if (v != kNoValue)
    if (const auto n = count(path.child("placed"), v)) e.placed = Expected<std::int64_t>{{"", *n}};
  if (const ValueId v = f["status"]; v != kNoValue && r.doc()[v].kind == ValueKind::Object)
    e.status = read_named<std::string>(r, path.child("status"), v, status);
  else if (v != kNoValue)
    if (auto s = status(path.child("status"), v)) e.status = Expected<std::string>{{"", *s}};
  if (const ValueId v = f["evicted"]; v != kNoValue && r.is_array(path.child("evicted"), v)) {
    e.evicted.emplace();
    for (std::uint32_t i = 0; i < r.doc().size(v); ++i)
      if (auto t = r.scalar(path.child("evicted").at(i), r.doc().element(v, i)))
        e.evicted->emplace_back(*t);
  }
  e.scores = read_named<Expectation::Scores>(
      r, path.child("scores"), f["scores"], [&r](const FieldPath& p, ValueId v) {
        const Fields parts(r, p, v, {kExpectScoreFields});
        Expectation::Scores s;
        auto part = [&](std::string_view name, std::optional<std::int64_t>& out) {
          if (const ValueId n = parts[name]; n != kNoValue)
            out = r.integer(p.child(name), n, INT64_MIN);
        };
        part("fit", s.fit);
        part("balanced", s.balanced);
        part("total", s.total);
        return std::optional(s);
      });
}

// expect: (`path`) picked as `f`, a command's own fields hidden.
Expectation read_expectation(Reader& r, const FieldPath& path, const Fields& f) {
  Expectation e;
  read_operator_expectation(r, path, f, e);
  auto count = [&r](const FieldPath& p, ValueId v) { return r.integer(p, v, 0); };
  auto text = [&r](const FieldPath& p, ValueId v) { return read_text(r, p, v); };
  if (const ValueId v = f["exit"]; v != kNoValue)
    e.exit = r.integer(path.child("exit"), v, 0).value_or(0);
  e.capacity = read_named<std::int64_t>(
      r, path.child("capacity"), f["capacity"],
      [&r](const FieldPath& p, ValueId v) { return read_count(r, p, v, true); });
  if (const ValueId v = f["total"]; v != kNoValue)
    e.total = read_count(r, path.child("total"), v, false);
  e.deploy = read_named<std::int64_t>(r, path.child("deploy"), f["deploy"], count);
  e.plans = read_named<std::int64_t>(r, path.child("plans"), f["plans"], count);
  e.reasons = read_named<std::string>(r, path.child("reasons"), f["reasons"], text);
  const FieldPath contains = path.child("error_contains");
  if (const ValueId v = f["error_contains"]; v != kNoValue && r.doc()[v].kind == ValueKind::Array) {
    if (r.is_array(contains, v))
      for (std::uint32_t i = 0; i < r.doc().size(v); ++i)
        if (auto t = text(contains.at(i), r.doc().element(v, i)))
          e.error_contains.push_back(std::move(*t));
  } else if (v != kNoValue) {
    if (auto t = text(contains, v)) e.error_contains.push_back(std::move(*t));
  }
  if (const ValueId v = f["offers"]; v != kNoValue && r.is_array(path.child("offers"), v)) {
    e.offers.emplace();
    for (std::uint32_t i = 0; i < r.doc().size(v); ++i)
      if (auto t = text(path.child("offers").at(i), r.doc().element(v, i)))
        e.offers->push_back(std::move(*t));
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

// A field that must be given: reported at the case's mapping when absent.
void require(Reader& r, ValueId root, ValueId v, std::string_view field, std::string_view what) {
  if (v == kNoValue) r.error(case_field(field), root, "missing (" + std::string(what) + ")");
}

// A grow input in a case of another command would be ignored: an error.
void grow_only(Reader& r, const Fields& top, std::string_view command) {
  for (const char* field : {"template", "daemonsets"})
    if (const ValueId v = top[field]; v != kNoValue)
      r.error(case_field(field), v,
              std::string("applies to command: grow, not ") + std::string(command));
}

// An input given as a path relative to the case file (any scalar), or
// inline (a mapping or a list; null is absent, SPEC §12): then the input is
// the case's own member `field`, read from the case text by the loader, so
// its messages point into the case file. Returns nullopt (with a difference
// recorded) when the path cannot be read.
std::optional<Source> read_input(CaseContext& c, ValueId v, const std::string& field) {
  const Doc& doc = c.r.doc();
  if (!doc.is_scalar(v)) return Source{c.file, c.text, InputFormat::Yaml, field};
  const std::string name(doc.text(v));
  const std::filesystem::path rel(name);
  const std::filesystem::path dir = std::filesystem::path(c.file).parent_path();
  const std::string path = rel.is_absolute() || dir.empty()
                               ? rel.generic_string()
                               : (dir / rel).lexically_normal().generic_string();
  if (!c.root.empty() && !inside_case_tree(c.root, path)) {
    c.result.differences.push_back(field + ": " + in_quotes(name) + " is outside " +
                                   in_quotes(c.root) +
                                   ", the directory given to eruplan test; inputs must be in it "
                                   "or below it (symbolic links included)");
    return std::nullopt;
  }
  if (c.root.empty() && !inside_case_tree(dir, path)) {
    c.result.differences.push_back(
        field + ": " + in_quotes(name) +
        " is outside the case file's directory; inputs must be in it or below it (symbolic "
        "links included)");
    return std::nullopt;
  }
  std::optional<std::string> content = c.read ? c.read(path) : std::nullopt;
  if (!content) {
    c.result.differences.push_back(field + ": cannot read " + in_quotes(path));
    return std::nullopt;
  }
  return Source{path, std::move(*content), InputFormat::Auto, {}};
}

// The request fields that have a flag (request_fields.h), in table order.
std::vector<FieldSpec> flag_fields() {
  std::vector<FieldSpec> out;
  for_each_flag_field([&out](const FieldSpec& spec) { out.push_back(spec); });
  return out;
}

std::optional<PlansShown> read_plans(Reader& r, const FieldPath& path, ValueId v) {
  const auto p = read_choice(r, path, v, {"all", "assigned", "none"});
  if (!p) return std::nullopt;
  return *p == "all" ? PlansShown::All : *p == "assigned" ? PlansShown::Assigned : PlansShown::None;
}

// options: of a plan, capacity, validate or share case: plans, the request
// flags (SPEC §13) under their fields' names (request_fields.h), each a
// scalar written as the flag's value, a list for the repeatable ones, labels
// as a mapping; then atomic and explain.
void read_options(Reader& r, ValueId v, RunOptions& options) {
  const FieldPath path = case_field("options");
  const std::vector<FieldSpec> flags = flag_fields();
  const std::span<const FieldSpec> own(kCaseOptionFields);
  const Fields f(r, path, v, {own.first(1), flags, own.subspan(1)});
  if (const ValueId p = f["plans"]; p != kNoValue)
    options.plans = read_plans(r, path.child("plans"), p).value_or(PlansShown::All);
  RequestOverrides& o = options.overrides;
  for (const FieldSpec& spec : flags) {
    const ValueId value = f[spec.name];
    if (value == kNoValue) continue;
    const FieldPath here = path.child(spec.name);
    if (spec.kind == FieldKind::List) {
      if (!r.is_array(here, value)) continue;
      for (std::uint32_t i = 0; i < r.doc().size(value); ++i)
        if (auto t = read_text(r, here.at(i), r.doc().element(value, i)))
          o.set(spec.flag, std::move(*t));
    } else if (spec.kind == FieldKind::Labels) {
      for (const Reader::Entry& e : r.members(here, value))
        if (auto t = read_text(r, here.child(e.key), e.value))
          o.set(spec.flag, std::string(e.key) + "=" + *t);
    } else if (auto t = read_text(r, here, value)) {
      o.set(spec.flag, std::move(*t));
    }
  }
  if (const ValueId a = f["atomic"]; a != kNoValue)
    options.atomic = r.boolean(path.child("atomic"), a).value_or(false);
  if (const ValueId e = f["explain"]; e != kNoValue)
    options.explain = r.boolean(path.child("explain"), e).value_or(false);
  if (const ValueId e = f["preempt"]; e != kNoValue)
    options.preempt = r.boolean(path.child("preempt"), e).value_or(false);
  if (const ValueId e = f["image_locality"]; e != kNoValue)
    options.kubernetes.image_locality = r.boolean(path.child("image_locality"), e).value_or(false);
  if (const ValueId q = f["queue_sort"]; q != kNoValue)
    if (auto sort = read_choice(r, path.child("queue_sort"), q, names_of(kQueueSortNames)))
      options.queue_sort = queue_sort_named(*sort);
  // share's model (drf or mesos), and mesos' seed and cycles.
  if (const ValueId m = f["model"]; m != kNoValue)
    if (read_choice(r, path.child("model"), m, {"drf", "mesos"}) == "mesos")
      options.mesos.emplace();
  const ValueId seed = f["seed"], cycles = f["cycles"];
  if ((seed != kNoValue || cycles != kNoValue) && !options.mesos)
    r.error(path, seed != kNoValue ? seed : cycles, "seed and cycles go with model: mesos");
  if (seed != kNoValue && options.mesos)
    if (auto t = read_text(r, path.child("seed"), seed); t && !parse_seed(*t, options.mesos->seed))
      r.error(path.child("seed"), seed, "expected a whole number 0..2^64-1 or none");
  if (cycles != kNoValue && options.mesos)
    if (auto k = r.integer(path.child("cycles"), cycles, 1, 1'000'000'000))
      options.mesos->cycles = *k;
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

void read_whatif_options(Reader& r, ValueId v, WhatIfOptions& o) {
  const FieldPath path = case_field("options");
  const Fields f(r, path, v, {kWhatIfOptionFields});
  if (const ValueId p = f["plans"]; p != kNoValue)
    o.plans = read_plans(r, path.child("plans"), p).value_or(PlansShown::All);
  // A list, or one string of names separated by commas (as --strategies).
  auto strategy = [&](const FieldPath& at, ValueId s, std::string_view name) {
    if (parse_strategy(name))
      o.strategies.emplace_back(name);
    else
      r.error(at, s, "unknown strategy " + in_quotes(name) + "; expected " + strategy_choices());
  };
  const FieldPath strategies = path.child("strategies");
  if (const ValueId s = f["strategies"]; s != kNoValue && r.doc()[s].kind == ValueKind::Array) {
    if (r.is_array(strategies, s))
      for (std::uint32_t i = 0; i < r.doc().size(s); ++i) {
        const ValueId e = r.doc().element(s, i);
        if (const auto name = r.scalar(strategies.at(i), e)) strategy(strategies.at(i), e, *name);
      }
  } else if (s != kNoValue) {
    if (const auto list = r.scalar(strategies, s))
      for (std::size_t at = 0; at <= list->size();) {
        const std::size_t comma = std::min(list->find(',', at), list->size());
        if (comma > at) strategy(strategies, s, list->substr(at, comma - at));
        at = comma + 1;
      }
  }
  if (const ValueId m = f["max"]; m != kNoValue)
    o.max = r.integer(path.child("max"), m, INT64_MIN).value_or(o.max);
  if (const ValueId n = f["node"]; n != kNoValue)
    o.node = read_text(r, path.child("node"), n).value_or("");
  if (const ValueId e = f["each_node"]; e != kNoValue)
    o.each_node = r.boolean(path.child("each_node"), e).value_or(false);
  auto texts = [&](std::string_view name, std::vector<std::string>& out) {
    const ValueId v = f[name];
    if (v == kNoValue) return;
    const FieldPath at = path.child(name);
    if (r.doc()[v].kind != ValueKind::Array) {
      if (auto s = r.scalar(at, v)) out.emplace_back(*s);
    } else {
      for (std::uint32_t i = 0; i < r.doc().size(v); ++i)
        if (auto s = r.scalar(at.at(i), r.doc().element(v, i))) out.emplace_back(*s);
    }
  };
  texts("like", o.like);
  texts("cost", o.costs);
  if (const ValueId e = f["expander"]; e != kNoValue)
    o.expander = read_text(r, path.child("expander"), e);
  if (const ValueId m = f["mix"]; m != kNoValue)
    o.mix = r.boolean(path.child("mix"), m).value_or(false);
}

struct WhatIfExpectation {
  std::optional<Expected<bool>> feasible, satisfied, absorbable;
  std::optional<Expected<std::int64_t>> nodes_used;
  std::optional<std::int64_t> added;
  std::optional<Expected<std::int64_t>> added_by_template;
};

// The what-if fields of `expect` (kWhatIfExpectFields); read_expectation
// reads the rest.
WhatIfExpectation read_whatif_expectation(Reader& r, const FieldPath& path, const Fields& f) {
  WhatIfExpectation e;
  auto flag = [&r](const FieldPath& p, ValueId v) { return r.boolean(p, v); };
  auto count = [&r](const FieldPath& p, ValueId v) { return r.integer(p, v, 0); };
  e.feasible = read_named<bool>(r, path.child("feasible"), f["feasible"], flag);
  e.satisfied = read_named<bool>(r, path.child("satisfied"), f["satisfied"], flag);
  e.absorbable = read_named<bool>(r, path.child("absorbable"), f["absorbable"], flag);
  e.nodes_used = read_named<std::int64_t>(r, path.child("nodes_used"), f["nodes_used"], count);
  if (const ValueId v = f["added"]; v != kNoValue) e.added = r.integer(path.child("added"), v, 0);
  e.added_by_template =
      read_named<std::int64_t>(r, path.child("added_by_template"), f["added_by_template"], count);
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
  if (e.added_by_template)
    for (const auto& [name, want] : *e.added_by_template) {
      std::optional<std::int64_t> got;
      for (std::size_t t = 0; t < w.template_names.size(); ++t)
        if (w.template_names[t] == name && t < w.added_by_template.size())
          got = w.added_by_template[t];
      if (got != want)
        diffs.push_back("added_by_template." + name + ": expected " + std::to_string(want) +
                        ", got " + (got ? std::to_string(*got) : std::string("none")));
    }
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

// The case's inputs `fields` (all given when the case is not malformed),
// each by path or inline; false when one cannot be read (a difference
// recorded for each) or the case is malformed: then there is nothing to run.
bool read_inputs(CaseContext& c, const Fields& top,
                 std::initializer_list<std::pair<const char*, std::optional<Source>*>> fields) {
  if (c.diags.has_errors()) return false;
  for (const auto& [field, out] : fields)
    if (const ValueId v = top[field]; v != kNoValue) *out = read_input(c, v, field);
  for (const auto& [field, out] : fields)
    if (top[field] != kNoValue && !*out) return false;
  return true;
}

void run_whatif_case(CaseContext& c, ValueId root, const Fields& top, WhatIfCommand command) {
  Reader& r = c.r;
  WhatIfOptions options;
  options.command = command;
  if (command != WhatIfCommand::Grow)
    grow_only(r, top, command == WhatIfCommand::Compare ? "compare" : "drain");
  read_whatif_options(r, top["options"], options);
  const FieldPath path = case_field("expect");
  const Fields expect_fields(r, path, top["expect"], {kWhatIfExpectFields, kExpectFields});
  const WhatIfExpectation whatif_expect = read_whatif_expectation(r, path, expect_fields);
  const Expectation expect = read_expectation(r, path, expect_fields.hiding(kWhatIfExpectFields));
  require(r, root, top["nodes"], "nodes", "an inline inventory or a path");
  std::optional<Source> nodes, request, node_template;
  if (!read_inputs(c, top,
                   {{"nodes", &nodes},
                    {"request", &request},
                    {"template", &node_template},
                    {"pods", &options.pods},
                    {"priority_classes", &options.priority_classes},
                    {"namespaces", &options.namespaces},
                    {"daemonsets", &options.daemonsets}}))
    return;
  options.nodes = std::move(*nodes);
  options.request = std::move(request);
  if (node_template) options.templates.push_back(std::move(*node_template));
  options.strict = true;  // SPEC §13: cases run strictly, what-if ones too
  const WhatIfResult result = run_whatif(options);
  compare(expect, result.run, c.result.differences);
  compare_whatif(whatif_expect, result, c.result.differences);
}

// `command: realloc` (SPEC §11): `request` is the realloc request, `pods`
// (optional) kubectl's pods as workloads,
// `options: {atomic: true}` adds --atomic, and `expect.status: {id: ok|failed|not_applied}`
// checks the workloads listed (exit and error_contains as for every case).

void run_realloc_case(CaseContext& c, ValueId root, const Fields& top) {
  Reader& r = c.r;
  grow_only(r, top, "realloc");
  ReallocOptions options;
  const FieldPath options_path = case_field("options");
  const Fields option_fields(r, options_path, top["options"], {kReallocOptionFields});
  if (const ValueId a = option_fields["atomic"]; a != kNoValue)
    options.atomic = r.boolean(options_path.child("atomic"), a).value_or(false);
  const FieldPath path = case_field("expect");
  const Fields expect_fields(r, path, top["expect"], {kReallocExpectFields, kExpectFields});
  const std::optional<Expected<std::string>> status = read_named<std::string>(
      r, path.child("status"), expect_fields["status"], [&r](const FieldPath& p, ValueId v) {
        return read_choice(r, p, v, names_of(kReallocStatusNames));
      });
  const Expectation expect = read_expectation(r, path, expect_fields.hiding(kReallocExpectFields));
  require(r, root, top["nodes"], "nodes", "an inline inventory or a path");
  require(r, root, top["request"], "request", "an inline realloc request or a path");
  std::optional<Source> nodes, request;
  // SPEC §12: each running pod is also a workload
  if (!read_inputs(c, top, {{"nodes", &nodes}, {"request", &request}, {"pods", &options.pods}}))
    return;
  options.nodes = std::move(*nodes);
  options.request = std::move(*request);
  const ReallocRun result = run_realloc(options);
  compare(expect, result, c.result.differences);
  for (const auto& [id, want] : status ? *status : Expected<std::string>{}) {
    std::string got = "absent";
    if (result.realloc)
      for (const WorkloadChange& change : result.realloc->workloads)
        if (change.id == id) got = realloc_status_name(change.status);
    if (got != want)
      c.result.differences.push_back("status." + id + ": expected " + want + ", got " + got);
  }
}

void run_case(CaseContext& c, ValueId root, const RunFunction& run_function) {
  Reader& r = c.r;
  if (root == kNoValue || r.doc()[root].kind != ValueKind::Object) {
    r.error(FieldPath{}, root,
            "a case must be a mapping, got " +
                (root == kNoValue || r.doc()[root].kind == ValueKind::Null
                     ? std::string("an empty document")
                     : r.describe(root)));
    return;
  }
  const Fields top(r, FieldPath{}, root, {kCaseFields});
  if (const ValueId n = top["name"]; n != kNoValue)
    if (auto name = read_text(r, case_field("name"), n)) c.result.name = std::move(*name);
  RunOptions options;  // command: plan unless given
  if (const ValueId v = top["command"]; v != kNoValue) {
    const auto command = read_choice(
        r, case_field("command"), v,
        {"plan", "capacity", "validate", "share", "realloc", "compare", "grow", "drain"});
    if (command && whatif_command(*command))
      return run_whatif_case(c, root, top, *whatif_command(*command));
    if (command == "realloc") return run_realloc_case(c, root, top);
    if (command == "capacity") options.command = Command::Capacity;
    if (command == "validate") options.command = Command::Validate;
    if (command == "share") options.command = Command::Share;
  }
  grow_only(r, top,
            options.command == Command::Capacity   ? "capacity"
            : options.command == Command::Validate ? "validate"
            : options.command == Command::Share    ? "share"
                                                   : "plan");
  read_options(r, top["options"], options);
  options.strict = true;  // SPEC §13: cases run strictly
  const FieldPath path = case_field("expect");
  const Expectation expect =
      read_expectation(r, path, Fields(r, path, top["expect"], {kExpectFields}));
  require(r, root, top["nodes"], "nodes", "an inline inventory or a path");
  std::optional<Source> nodes;
  // SPEC §12: pods are kubectl get pods, inline or a path
  if (!read_inputs(c, top,
                   {{"nodes", &nodes},
                    {"request", &options.request},
                    {"pods", &options.pods},
                    {"pdbs", &options.pdbs},
                    {"priority_classes", &options.priority_classes},
                    {"namespaces", &options.namespaces}}))
    return;  // malformed, or an unreadable input: nothing to run
  options.nodes = std::move(*nodes);
  const RunResult result = run_function(options);
  compare(expect, result, c.result.differences);
}

void run_one(const std::string& file, const std::string& text, const ReadFile& read,
             const RunFunction& run_function, const std::string& root, FixtureResult& r) {
  // A directory walk also finds links; one to a file elsewhere is not a case
  // of this tree, and its content must not show up in a failure message.
  const std::filesystem::path tree =
      root.empty() ? std::filesystem::path(file).parent_path() : std::filesystem::path(root);
  if (!inside_case_tree(tree, file)) {
    r.differences.push_back(
        "malformed case: the case file is a symbolic link to outside its directory; not read");
    return;
  }
  // A case is YAML (JSON is read as the YAML it also is), and so are its
  // inline inputs, which the loaders read from the same text.
  const Source source{file, text, InputFormat::Yaml, {}};
  Diagnostics diags;
  diags.set_strict(true);  // an unknown key in a case is an error
  if (const std::optional<Doc> doc = parse_document(source, diags)) {
    Reader reader(*doc, file, diags);
    CaseContext c{reader, diags, file, text, read, r, root};
    run_case(c, doc->root(), run_function);
  }
  if (!diags.has_errors()) return;
  // Every problem, in the order of the case file.
  std::vector<Diagnostic> errors;
  for (const Diagnostic& d : diags.items())
    if (d.severity == Severity::Error) errors.push_back(d);
  std::stable_sort(errors.begin(), errors.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::pair(a.origin.line, a.origin.col) < std::pair(b.origin.line, b.origin.col);
  });
  for (const Diagnostic& d : errors)
    r.differences.push_back("malformed case: " + format_diagnostic(d));
}

}  // namespace

FixtureResult run_fixture(const std::string& file, const std::string& text, const ReadFile& read) {
  return run_fixture(file, text, read, [](const RunOptions& options) { return run(options); });
}

FixtureResult run_fixture(const std::string& file, const std::string& text, const ReadFile& read,
                          const RunFunction& run_case) {
  return run_fixture_under({}, file, text, read, run_case);
}

FixtureResult run_fixture_under(const std::string& root, const std::string& file,
                                const std::string& text, const ReadFile& read) {
  return run_fixture_under(root, file, text, read,
                           [](const RunOptions& options) { return run(options); });
}

FixtureResult run_fixture_under(const std::string& root, const std::string& file,
                                const std::string& text, const ReadFile& read,
                                const RunFunction& run_case) {
  FixtureResult r;
  r.file = file;
  r.name = std::filesystem::path(file).filename().string();
  try {
    run_one(file, text, read, run_case, root, r);
  } catch (const std::exception& e) {
    r.differences.push_back(std::string("internal error: ") + e.what());
  } catch (...) {
    r.differences.push_back("internal error");
  }
  r.passed = r.differences.empty();
  return r;
}

}  // namespace eruplan
