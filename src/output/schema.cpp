#include "schema.h"

#include <cctype>
#include <cstdint>
#include <span>
#include <utility>

#include "eruplan_fields.h"
#include "grow.h"
#include "json_writer.h"
#include "realloc.h"
#include "request_fields.h"
#include "requests.h"
#include "share_spec.h"
#include "strategy.h"

namespace eruplan {
namespace {

// A JSON value, as much as a schema needs.
struct J {
  enum class K : std::uint8_t { Null, Bool, Int, Str, Arr, Obj } k = K::Obj;
  bool b = false;
  std::int64_t i = 0;
  std::string s;
  std::vector<J> items;
  // A member: its key and value (a struct, since std::pair needs J whole).
  struct Member;
  std::vector<Member> members;

  J& add(std::string key, J v);
  J* find(std::string_view key);
};

struct J::Member {
  std::string first;
  J second;
};

J& J::add(std::string key, J v) {
  members.push_back({std::move(key), std::move(v)});
  return *this;
}

J* J::find(std::string_view key) {
  for (auto& [k2, v] : members)
    if (k2 == key) return &v;
  return nullptr;
}

J str(std::string_view t) {
  J j;
  j.k = J::K::Str;
  j.s = std::string(t);
  return j;
}
J boolean(bool b) {
  J j;
  j.k = J::K::Bool;
  j.b = b;
  return j;
}
J integer(std::int64_t n) {
  J j;
  j.k = J::K::Int;
  j.i = n;
  return j;
}
J list(std::vector<J> items) {
  J j;
  j.k = J::K::Arr;
  j.items = std::move(items);
  return j;
}
J strings(const std::vector<std::string>& texts) {
  std::vector<J> items;
  for (const std::string& t : texts) items.push_back(str(t));
  return list(std::move(items));
}

J type(std::string_view t) { return J{}.add("type", str(t)); }
J types(const std::vector<std::string>& ts) { return J{}.add("type", strings(ts)); }
J ref(std::string_view def) { return J{}.add("$ref", str("#/$defs/" + std::string(def))); }
J array_of(J item) { return type("array").add("items", std::move(item)); }
J map_of(J value) { return type("object").add("additionalProperties", std::move(value)); }
J any_of(std::vector<J> choices) { return J{}.add("anyOf", list(std::move(choices))); }
J one_of_texts(const std::vector<std::string>& texts) {
  return type("string").add("enum", strings(texts));
}
J described(J j, std::string_view help) {
  if (help.empty()) return j;
  J out;
  out.add("description", str(help));
  for (auto& m : j.members) out.members.push_back(std::move(m));
  return out;
}

// A field whose value is null reads as absent, so every field also takes null.
J nullable(J j) {
  const bool plain = j.find("$ref") == nullptr && j.find("anyOf") == nullptr &&
                     j.find("allOf") == nullptr && j.find("type") != nullptr;
  if (!plain) return any_of({std::move(j), type("null")});
  J* t = j.find("type");
  if (t->k == J::K::Str)
    *t = list({str(t->s), str("null")});
  else
    t->items.push_back(str("null"));
  if (J* e = j.find("enum")) {
    J null_value;
    null_value.k = J::K::Null;
    e->items.push_back(std::move(null_value));
  }
  return j;
}

void write(JsonWriter& w, const J& j) {
  switch (j.k) {
    case J::K::Null:
      w.null();
      return;
    case J::K::Bool:
      w.boolean(j.b);
      return;
    case J::K::Int:
      w.integer(j.i);
      return;
    case J::K::Str:
      w.string(j.s);
      return;
    case J::K::Arr:
      w.begin_array();
      for (const J& item : j.items) write(w, item);
      w.end_array();
      return;
    case J::K::Obj:
      w.begin_object();
      for (const auto& [k, v] : j.members) {
        w.key(k);
        write(w, v);
      }
      w.end_object();
      return;
  }
}

// How one field of a table nests, when its kind alone does not say.
struct Shape {
  std::string_view field;
  J schema;
};

std::vector<std::string> strategy_names() {
  std::vector<std::string> out;
  for (const StrategyRow& row : strategy_table()) {
    out.emplace_back(row.name);
    std::string_view aliases = row.aliases;
    while (!aliases.empty()) {
      const std::size_t space = std::min(aliases.find(' '), aliases.size());
      if (space > 0) out.emplace_back(aliases.substr(0, space));
      aliases.remove_prefix(std::min(space + 1, aliases.size()));
    }
  }
  return out;
}

// The names alternated in a pattern that ignores case, as the reader does
// (Fill, AUTO): "[aA][uU][tT][oO]|[fF][iI][lL][lL]|...".
std::string any_case(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    out += out.empty() ? "" : "|";
    for (const char c : name) {
      const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const char upper = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (lower != upper)
        out += std::string("[") + lower + upper + "]";
      else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')
        out += c;
      else
        out += std::string("\\") + c;
    }
  }
  return out;
}

// A strategy: its name or an alias in any case. The lower-case names come
// first as an enum, for editors to offer.
J strategy_choice() {
  const std::vector<std::string> names = strategy_names();
  return any_of(
      {one_of_texts(names), type("string").add("pattern", str("^(" + any_case(names) + ")$"))});
}

// compare's strategies as one string: names separated by commas (empty
// items skipped), in any case.
J strategy_list_text() {
  return type("string").add("pattern", str("^,*((" + any_case(strategy_names()) + ")(,+|$))*$"));
}

class Builder {
 public:
  std::vector<std::string> problems;

  // An object of the fields of `fields`, each with its help as description;
  // no other key. `shapes` give the block fields' (and any override's) value.
  J table(std::string_view where, std::span<const FieldSpec> fields, std::vector<Shape> shapes,
          const std::vector<std::string>& required = {}) {
    J properties;
    std::vector<bool> used(shapes.size(), false);
    for (const FieldSpec& spec : fields) {
      J value;
      bool found = false;
      for (std::size_t i = 0; i < shapes.size(); ++i)
        if (shapes[i].field == spec.name) {
          value = shapes[i].schema;
          used[i] = found = true;
        }
      if (!found) value = of_kind(where, spec);
      properties.add(std::string(spec.name), described(nullable(std::move(value)), spec.help));
    }
    for (std::size_t i = 0; i < shapes.size(); ++i)
      if (!used[i])
        problems.push_back(std::string(where) + ": a shape for " + std::string(shapes[i].field) +
                           ", which the table does not have");
    J out = type("object");
    out.add("properties", std::move(properties));
    if (!required.empty()) out.add("required", strings(required));
    out.add("additionalProperties", boolean(false));
    return out;
  }

  J of_kind(std::string_view where, const FieldSpec& spec) {
    switch (spec.kind) {
      case FieldKind::Text:
        return type("string");
      case FieldKind::Integer: {
        // A request field's least value, as its reader checks it.
        J out = type("integer");
        const std::span<const RequestField> rows =
            where == "request"     ? std::span<const RequestField>(request_rows::kRequestRows)
            : where == "resources" ? std::span<const RequestField>(request_rows::kResourceRows)
                                   : std::span<const RequestField>();
        for (const RequestField& row : rows)
          if (row.spec.name == spec.name && row.member.codec == Codec::Integer)
            out.add("minimum", integer(row.member.min));
        return out;
      }
      case FieldKind::Quantity:
        return ref("quantity");
      case FieldKind::Bool:
        return type("boolean");
      case FieldKind::List:
        return array_of(ref("scalar"));
      case FieldKind::Labels:
        return map_of(ref("scalar"));
      case FieldKind::Block:
        if (!spec.inner.empty()) return table(where, spec.inner, {});
        problems.push_back(std::string(where) + "." + std::string(spec.name) +
                           ": a block field with no shape");
        return type("object");
    }
    return J{};
  }

  // Every definition the documents refer to, by name.
  J defs() {
    J d;
    d.add(
        "quantity",
        described(types({"number", "string"})
                      .add("pattern", str("^\\s*[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)"
                                          "?\\s*(m|k|K|M|G|T|P|E|[KMGTPE]i)?\\s*$")),
                  "a number, or a string with a unit: \"8Gi\", \"512M\", \"1500m\" (m for CPU; "
                  "k K M G T P E for powers of 1000, Ki Mi Gi Ti Pi Ei for powers of 1024)"));
    d.add("scalar", described(types({"string", "number", "boolean"}), "a string or a number"));
    d.add("path", described(type("string"), "a file, relative to the case file's directory"));
    d.add("kubernetes",
          described(type("object").add("anyOf", list({J{}.add("required", strings({"kind"})),
                                                      J{}.add("required", strings({"items"}))})),
                    "Kubernetes objects as kubectl prints them (an object with kind, or a list "
                    "with items); not described here"));
    d.add("taint", table("taint", kTaintFields, {{"value", ref("scalar")}}, {"key", "effect"}));
    d.add("workload", table("workload", kWorkloadFields,
                            {{"id", ref("scalar")},
                             {"cpu_map", map_of(type("integer").add("minimum", integer(0)))},
                             {"numa_node", ref("scalar")}},
                            {"id"}));
    d.add("usage", table("usage", kUsageFields,
                         {{"cpu_map", map_of(type("integer").add("minimum", integer(0)))},
                          {"numa_memory", map_of(ref("quantity"))},
                          {"volumes", map_of(ref("quantity"))},
                          {"extended", map_of(ref("quantity"))}}));
    d.add("node", table("node", kNodeFields,
                        {{"cpu_map", map_of(type("integer").add("minimum", integer(0)))},
                         {"numa", map_of(ref("scalar"))},
                         {"numa_memory", map_of(ref("quantity"))},
                         {"volumes", map_of(ref("quantity"))},
                         {"usage", ref("usage")},
                         {"instances", map_of(type("integer").add("minimum", integer(0)))},
                         {"extended", map_of(ref("quantity"))},
                         {"taints", array_of(ref("taint"))},
                         {"workloads", array_of(ref("workload"))},
                         {"reservations", map_of(map_of(ref("quantity")))},
                         {"cost", types({"number", "string"})}},
                        {"name"}));
    d.add("inventory",
          table("inventory", kInventoryFields, {{"nodes", array_of(ref("node"))}}, {"nodes"}));
    d.add("toleration",
          table("toleration", kTolerationFields,
                {{"operator", one_of_texts({"Equal", "Exists"})},
                 {"value", ref("scalar")},
                 {"effect", one_of_texts({"", "NoSchedule", "PreferNoSchedule", "NoExecute"})}}));
    d.add("resources",
          table("resources", kResourceFields,
                {{"volumes", array_of(type("string"))}, {"extended", map_of(ref("quantity"))}}));
    d.add("node_filter",
          table("node_filter", kNodeFilterFields,
                {{"nodes", array_of(type("string"))}, {"exclude", array_of(type("string"))}}));
    d.add("scoring", table("scoring", kScoringFields,
                           {{"profile", one_of_texts({"kubernetes", "resources"})},
                            {"type", one_of_texts(names_of(kScoringTypeNames))},
                            {"resources", array_of(table("scoring.resources",
                                                         kScoringResourceFields, {}, {"name"}))},
                            {"shape", array_of(table("scoring.shape", kShapePointFields, {},
                                                     {"utilization", "score"}))}}));
    const std::vector<Shape> request_parts = {{"resources", ref("resources")},
                                              {"node_filter", ref("node_filter")},
                                              {"tolerations", array_of(ref("toleration"))}};
    std::vector<Shape> request_shapes = request_parts;
    request_shapes.push_back({"strategy", strategy_choice()});
    request_shapes.push_back({"scoring", ref("scoring")});
    d.add("request", table("request", kRequestFields, request_shapes));
    d.add("request_list", table("request list", kRequestListFields,
                                {{"requests", array_of(ref("request"))}}, {"requests"}));
    d.add("realloc",
          table("realloc", kReallocFields,
                {{"workloads", array_of(ref("scalar"))},
                 {"resources", table("realloc.resources", kReallocResourceFields, {})},
                 // keep, or a boolean (a quoted "true" is text, which the reader refuses)
                 {"cpu_bind", any_of({type("boolean"), one_of_texts({"keep"})})}}));
    std::vector<Shape> app_shapes = request_parts;
    app_shapes.push_back({"weight", ref("quantity")});
    d.add("share_app", table("apps", kShareAppFields, app_shapes, {"app"}));
    d.add("share", table("share", kShareFields,
                         {{"placement", one_of_texts(names_of(kPlacementNames))},
                          {"apps", array_of(ref("share_app"))}},
                         {"apps"}));
    d.add("mesos_role",
          table("roles", kMesosRoleFields, {{"quota", map_of(ref("quantity"))}}, {"name"}));
    d.add("mesos_framework",
          table("frameworks", kMesosFrameworkFields, request_parts, {"name", "role"}));
    d.add("mesos", table("roles and frameworks", kMesosFields,
                         {{"roles", array_of(ref("mesos_role"))},
                          {"frameworks", array_of(ref("mesos_framework"))}},
                         {"frameworks"}));
    case_defs(d);
    return d;
  }

  // A fixture case: the inputs inline or as paths, options and expect by command.
  void case_defs(J& d) {
    const J count = type("integer").add("minimum", integer(0));
    const J plans = one_of_texts({"all", "assigned", "none"});
    // expect: shared by every command.
    std::vector<Shape> expect = {
        {"capacity", map_of(any_of({count, one_of_texts({"unlimited", "absent"})}))},
        {"total", any_of({count, one_of_texts({"unlimited"})})},
        {"deploy", map_of(count)},
        {"plans", map_of(count)},
        {"reasons", map_of(ref("scalar"))},
        {"error_contains", any_of({ref("scalar"), array_of(ref("scalar"))})},
        {"deploy_subset", map_of(count)},
        {"placed", any_of({count, map_of(count)})},
        {"status", any_of({one_of_texts(names_of(kRequestStatusNames)),
                           map_of(one_of_texts(names_of(kRequestStatusNames)))})},
        {"scores", map_of(table("expect.scores", kExpectScoreFields, {}))},
        {"evicted", array_of(ref("scalar"))},
        {"offers", array_of(ref("scalar"))},
    };
    d.add("expect", table("expect", kExpectFields, expect));

    // expect: of compare, grow and drain: their own fields, then the others.
    std::vector<FieldSpec> whatif_fields(kWhatIfExpectFields.begin(), kWhatIfExpectFields.end());
    whatif_fields.insert(whatif_fields.end(), kExpectFields.begin(), kExpectFields.end());
    std::vector<Shape> whatif_expect = expect;
    for (std::string_view name : {"feasible", "satisfied", "absorbable"})
      whatif_expect.push_back({name, map_of(type("boolean"))});
    whatif_expect.push_back({"nodes_used", map_of(count)});
    whatif_expect.push_back({"added_by_template", map_of(count)});
    d.add("whatif_expect", table("expect (what-if)", whatif_fields, whatif_expect));

    // expect: of realloc: status per workload id.
    std::vector<FieldSpec> realloc_fields(kReallocExpectFields.begin(), kReallocExpectFields.end());
    for (const FieldSpec& spec : kExpectFields)
      if (spec.name != "status") realloc_fields.push_back(spec);
    std::vector<Shape> realloc_expect;
    for (Shape& s : expect)
      if (s.field != "status") realloc_expect.push_back(s);
    realloc_expect.push_back({"status", map_of(one_of_texts(names_of(kReallocStatusNames)))});
    d.add("realloc_expect", table("expect (realloc)", realloc_fields, realloc_expect));

    // options: of plan, capacity, validate and share: plans, the request
    // fields that have a flag, then the others.
    std::vector<FieldSpec> options(kCaseOptionFields.begin(), kCaseOptionFields.begin() + 1);
    for_each_flag_field([&](const FieldSpec& spec) { options.push_back(spec); });
    options.insert(options.end(), kCaseOptionFields.begin() + 1, kCaseOptionFields.end());
    std::vector<Shape> option_shapes = {{"plans", plans},
                                        {"model", one_of_texts({"drf", "mesos"})},
                                        {"seed", ref("scalar")},
                                        {"cycles", type("integer").add("minimum", integer(1))}};
    for_each_flag_field([&](const FieldSpec& spec) {
      if (std::string_view(spec.name) == "strategy")
        option_shapes.push_back({spec.name, strategy_choice()});
      else if (spec.kind == FieldKind::Text || spec.kind == FieldKind::Integer ||
               spec.kind == FieldKind::Quantity || spec.kind == FieldKind::Bool)
        option_shapes.push_back({spec.name, ref("scalar")});
    });
    d.add("options", table("options", options, option_shapes));

    const J texts = any_of({ref("scalar"), array_of(ref("scalar"))});
    d.add("whatif_options",
          table("options (what-if)", kWhatIfOptionFields,
                {{"plans", plans},
                 {"strategies", any_of({strategy_list_text(), array_of(strategy_choice())})},
                 {"node", ref("scalar")},
                 {"like", texts},
                 {"cost", texts},
                 {"expander", one_of_texts(names_of(kExpanderNames))}}));
    d.add("realloc_options", table("options (realloc)", kReallocOptionFields, {}));

    d.add("case", table("case", kCaseFields,
                        {{"command", one_of_texts({"plan", "capacity", "validate", "share",
                                                   "realloc", "compare", "grow", "drain"})},
                         {"nodes", any_of({ref("path"), ref("inventory"), ref("kubernetes")})},
                         {"request", types({"object", "string"})},
                         {"pods", any_of({ref("path"), type("object"), type("array")})},
                         {"pdbs", any_of({ref("path"), type("object"), type("array")})},
                         {"priority_classes", any_of({ref("path"), type("object"), type("array")})},
                         {"namespaces", any_of({ref("path"), type("object"), type("array")})},
                         {"template", any_of({ref("path"), ref("node"), ref("kubernetes")})},
                         {"daemonsets", any_of({ref("path"), type("object"), type("array")})},
                         {"options", type("object")},
                         {"expect", type("object")}},
                        {"nodes"}));
    // The request, options and expect a case's command reads.
    auto when = [](std::vector<std::string> commands, J request, std::string_view options,
                   std::string_view expect) {
      J condition = J{}.add("properties", J{}.add("command", J{}.add("enum", strings(commands))));
      condition.add("required", strings({"command"}));
      J then = J{}.add("properties", J{}.add("request", nullable(std::move(request)))
                                         .add("options", nullable(ref(options)))
                                         .add("expect", nullable(ref(expect))));
      return J{}.add("if", std::move(condition)).add("then", std::move(then));
    };
    const J plan_request =
        any_of({ref("path"), ref("request"), ref("request_list"), ref("kubernetes")});
    J* case_schema = d.find("case");
    std::vector<J> rules;
    rules.push_back(when({"realloc"}, any_of({ref("path"), ref("realloc")}), "realloc_options",
                         "realloc_expect"));
    rules.push_back(
        when({"compare", "grow", "drain"}, plan_request, "whatif_options", "whatif_expect"));
    rules.push_back(
        when({"share"}, any_of({ref("path"), ref("share"), ref("mesos")}), "options", "expect"));
    rules.push_back(when({"plan", "capacity", "validate"}, plan_request, "options", "expect"));
    // No command: plan.
    J no_command = J{}.add("not", J{}.add("required", strings({"command"})));
    J plain_then = J{}.add("properties", J{}.add("request", nullable(plan_request))
                                             .add("options", nullable(ref("options")))
                                             .add("expect", nullable(ref("expect"))));
    rules.push_back(J{}.add("if", std::move(no_command)).add("then", std::move(plain_then)));
    case_schema->add("allOf", list(std::move(rules)));
  }
};

struct Kind {
  std::string_view name, def, title;
};
constexpr Kind kKinds[] = {
    {"inventory", "inventory", "eruplan node inventory (-n)"},
    {"request", "", "eruplan deploy request (-r): one request, or requests: [...]"},
    {"share", "", "eruplan share apps (-r): apps, or roles and frameworks for --model mesos"},
    {"realloc", "realloc", "eruplan realloc request (-r)"},
    {"case", "case", "eruplan fixture case (eruplan test)"},
    {"template", "node", "eruplan grow node template (--template)"},
};

}  // namespace

const std::vector<std::string>& schema_kinds() {
  static const std::vector<std::string> kinds = [] {
    std::vector<std::string> out;
    for (const Kind& k : kKinds) out.emplace_back(k.name);
    return out;
  }();
  return kinds;
}

std::optional<std::string> render_schema(std::string_view kind) {
  const Kind* found = nullptr;
  for (const Kind& k : kKinds)
    if (k.name == kind) found = &k;
  if (found == nullptr) return std::nullopt;
  Builder b;
  J doc;
  doc.add("$schema", str("https://json-schema.org/draft/2020-12/schema"));
  doc.add("title", str(found->title));
  if (kind == "request")
    doc.add("anyOf", list({ref("request"), ref("request_list")}));
  else if (kind == "share")
    doc.add("anyOf", list({ref("share"), ref("mesos")}));
  else
    doc.add("$ref", str("#/$defs/" + std::string(found->def)));
  doc.add("$defs", b.defs());
  std::string out;
  JsonWriter w(out);
  write(w, doc);
  w.finish();
  return out;
}

std::vector<std::string> schema_self_check() {
  Builder b;
  (void)b.defs();
  return b.problems;
}

}  // namespace eruplan
