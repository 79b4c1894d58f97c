// The request schema (SPEC §3, §8.1, §8.4, §9), each field described once
// and bound to its member of Request (LLVM's ObjectMapper idea): the file
// reader (request_reader.cpp), the request flags and their overrides
// (load_request.cpp), the flags' options and --help (command_options.cpp),
// the fixture runner's `options:` keys (SPEC §13: the fields that have a
// flag), the JSON and YAML writers (render_document.cpp) and the schema
// (schema.cpp) all walk these rows. A new request field is one row here
// (and its words in the man page, which tests/fields_test holds to the
// table).
//
// Also the per-instance parts of a request read out of a document exactly
// as a request file's: resources, node_filter and tolerations, then Eru's
// normalisation. Other inputs that carry requests (SPEC §10's apps) use it
// so both read and check them the same way.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "doc.h"

namespace eruplan {

namespace request_reading {

// The request as read so far, with where the fields that later checks talk
// about came from (a field row's `origin`).
struct Draft {
  Request request;
  Origin name_origin;   // none (no path) for a request without a name
  Origin count_origin;  // present, valid or not (a bad count is reported once); else no path
  Origin min_count_origin;
  Origin cpu_origin, cpu_limit_origin, cpu_bind_origin;
  Origin scoring_origin;     // the scoring block or --scoring, for the shape check
  bool shape_given = false;  // scoring.shape present, valid or not

  bool count_written() const { return !count_origin.path.empty(); }
};

}  // namespace request_reading

// How a field's value reaches its member, from the file, a flag's text or a
// fixture's options, and how the writers show it: one codec per kind of
// value, each written once in every place that switches on it.
enum class Codec : std::uint8_t {
  None,         // a block (or a field of one) read and written by its own code
  Text,         // a non-empty string
  Scalar,       // any scalar, as text
  Integer,      // a whole number >= min
  Strategy,     // a strategy's name or alias
  ScoringType,  // scoring.type
  Cpu,          // a CPU amount, in nanocores
  Size,         // a size, in bytes
  Bool,
  Volumes,  // volume bindings SRC:DST[:FLAGS[:SIZE]]
  Labels,   // node_filter.labels, k=v
  Names,    // node names
};

// When the writers show a field.
enum class Shown : std::uint8_t {
  Always,
  IfSet,        // only when not 0 or empty
  NullIfUnset,  // null for 0 (count: not given)
  Never,
};

struct RequestField;

// Where a field lives in Request (the one member its codec uses), and
// where in the Draft its origin is kept for later checks.
struct RequestMember {
  Codec codec = Codec::None;
  std::string Request::*text = nullptr;                   // Text, Scalar
  std::int64_t Request::*number = nullptr;                // Integer, Cpu, Size
  bool Request::*boolean = nullptr;                       // Bool
  std::vector<std::string> NodeFilter::*names = nullptr;  // Names
  std::vector<Origin> Request::*origins = nullptr;        // Names: where each was given
  std::int64_t min = 0;                                   // Integer
  Origin request_reading::Draft::*origin = nullptr;
  Shown shown = Shown::Always;
  bool (Request::*shown_value)() const = nullptr;  // Bool: what the writers show instead
  std::span<const RequestField> rows = {};         // a block's fields
};

// One field: its schema row and its binding.
struct RequestField {
  FieldSpec spec;
  RequestMember member;

  constexpr RequestField with_flag(std::string_view flag) const {
    RequestField f = *this;
    f.spec.flag = flag;
    return f;
  }
  constexpr RequestField kept_at(Origin request_reading::Draft::*origin) const {
    RequestField f = *this;
    f.member.origin = origin;
    return f;
  }
  constexpr RequestField shown(Shown when) const {
    RequestField f = *this;
    f.member.shown = when;
    return f;
  }
};

// The rows' makers, by codec.
namespace request_rows {
constexpr RequestField text(std::string_view name, std::string_view help, std::string Request::*m) {
  return {FieldSpec::text(name, help), {.codec = Codec::Text, .text = m}};
}
constexpr RequestField scalar(std::string_view name, std::string_view help,
                              std::string Request::*m) {
  return {FieldSpec::text(name, help), {.codec = Codec::Scalar, .text = m}};
}
constexpr RequestField integer(std::string_view name, std::string_view help,
                               std::int64_t Request::*m, std::int64_t min) {
  return {FieldSpec::integer(name, help), {.codec = Codec::Integer, .number = m, .min = min}};
}
constexpr RequestField cpu(std::string_view name, std::string_view help, NanoCores Request::*m) {
  return {FieldSpec::quantity(name, help), {.codec = Codec::Cpu, .number = m}};
}
constexpr RequestField size(std::string_view name, std::string_view help, Bytes Request::*m) {
  return {FieldSpec::quantity(name, help), {.codec = Codec::Size, .number = m}};
}
constexpr RequestField boolean(std::string_view name, std::string_view help, bool Request::*m,
                               bool (Request::*shown_value)() const = nullptr) {
  return {FieldSpec::boolean(name, help),
          {.codec = Codec::Bool, .boolean = m, .shown_value = shown_value}};
}
constexpr RequestField names(std::string_view name, std::string_view help,
                             std::vector<std::string> NodeFilter::*m,
                             std::vector<Origin> Request::*origins) {
  return {FieldSpec::list(name, help), {.codec = Codec::Names, .names = m, .origins = origins}};
}
// A codec whose member is its own (strategy, scoring.type, volumes, labels).
constexpr RequestField coded(std::string_view name, FieldKind kind, Codec codec,
                             std::string_view help) {
  return {{name, kind, "", help}, {.codec = codec}};
}
// Read and written by its own code.
constexpr RequestField custom(std::string_view name, FieldKind kind, std::string_view help) {
  return {{name, kind, "", help}, {}};
}
// A mapping of the fields `rows` (their schema rows `fields`, for the
// reader's "did you mean resources.cpu?"); without rows, its own code's.
constexpr RequestField block(std::string_view name, std::string_view help,
                             std::span<const RequestField> rows = {},
                             std::span<const FieldSpec> fields = {}) {
  return {FieldSpec::block(name, help, fields), {.rows = rows}};
}
}  // namespace request_rows

namespace request_rows {
using request_reading::Draft;

// resources: of a request.
inline constexpr std::array kResourceRows{
    cpu("cpu", "CPU cores per instance (1.5 or 1500m)", &Request::cpu)
        .with_flag("--cpu")
        .kept_at(&Draft::cpu_origin),
    cpu("cpu_limit", "CPU limit per instance", &Request::cpu_limit)
        .kept_at(&Draft::cpu_limit_origin),
    boolean("cpu_bind", "bind to concrete cores", &Request::cpu_bind)
        .with_flag("--cpu-bind")
        .kept_at(&Draft::cpu_bind_origin),
    size("memory", "memory per instance (512Mi)", &Request::memory).with_flag("--memory"),
    size("memory_limit", "memory limit per instance", &Request::memory_limit),
    size("storage", "storage per instance (10Gi)", &Request::storage).with_flag("--storage"),
    coded("volumes", FieldKind::List, Codec::Volumes, "a volume binding SRC:DST[:FLAGS[:SIZE]]")
        .with_flag("--volume"),
    block("extended", "extended resources per instance"),
    // Shown as it applies: on for score too.
    boolean("cpu_fit", "fit CPU by requests only", &Request::cpu_fit, &Request::uses_cpu_fit),
};
inline constexpr auto kResourceFields = specs_of(kResourceRows);

// node_filter: of a request.
inline constexpr std::array kNodeFilterRows{
    coded("labels", FieldKind::Labels, Codec::Labels, "a label k=v the node must have")
        .with_flag("--label"),
    names("nodes", "only this node", &NodeFilter::nodes, &Request::nodes_origins)
        .with_flag("--node"),
    names("exclude", "never this node", &NodeFilter::exclude, &Request::exclude_origins)
        .with_flag("--exclude"),
};
inline constexpr auto kNodeFilterFields = specs_of(kNodeFilterRows);

// scoring: of a request (strategy score, SPEC §9); scoring.type's flag
// --scoring is no fixture option.
inline constexpr std::array kScoringRows{
    custom("profile", FieldKind::Text,
           "kubernetes (kube-scheduler's default profile) or resources (the default)"),
    coded("type", FieldKind::Text, Codec::ScoringType,
          "least_allocated, most_allocated or requested_to_capacity_ratio (--scoring)")
        .with_flag("--scoring"),
    custom("resources", FieldKind::Block, "the resources scored, {name, weight} each"),
    custom("shape", FieldKind::Block, "requested_to_capacity_ratio's points"),
    custom("fit_weight", FieldKind::Integer, "weight of the fit score (0 to 100)"),
    custom("balanced_weight", FieldKind::Integer, "weight of the balanced score (0 to 100)"),
};
inline constexpr auto kScoringFields = specs_of(kScoringRows);

// The top level of a request (SPEC §3, §8.4, §9) and of each entry of a
// requests: list.
inline constexpr std::array kRequestRows{
    text("app", "the app whose existing instances count", &Request::app).with_flag("--app"),
    integer("count", "instances to deploy", &Request::count, 1)
        .with_flag("--count")
        .kept_at(&Draft::count_origin)
        .shown(Shown::NullIfUnset),
    coded("strategy", FieldKind::Text, Codec::Strategy,
          "auto, fill, each, global, drained or score")
        .with_flag("--strategy"),
    integer("nodes_limit", "nodes_limit (>= 0; its meaning depends on the strategy)",
            &Request::nodes_limit, 0)
        .with_flag("--nodes-limit"),
    block("resources", "what one instance needs", kResourceRows, kResourceFields),
    block("node_filter", "which nodes may be used", kNodeFilterRows, kNodeFilterFields),
    block("tolerations", "taints the instances tolerate"),
    // Read by its own code, but for type (--scoring).
    block("scoring", "how strategy score ranks nodes", {}, kScoringFields),
    text("name", "the request's name in a requests: list", &Request::name)
        .kept_at(&Draft::name_origin)
        .shown(Shown::Never),
    integer("priority", "higher goes first", &Request::priority, INT64_MIN).shown(Shown::IfSet),
    integer("min_count", "fewest instances worth placing", &Request::min_count, 1)
        .kept_at(&Draft::min_count_origin)
        .shown(Shown::IfSet),
    scalar("group", "requests placed together or not at all", &Request::group).shown(Shown::IfSet),
};
inline constexpr auto kRequestFields = specs_of(kRequestRows);
}  // namespace request_rows

using request_rows::kNodeFilterFields;
using request_rows::kNodeFilterRows;
using request_rows::kRequestFields;
using request_rows::kRequestRows;
using request_rows::kResourceFields;
using request_rows::kResourceRows;
using request_rows::kScoringFields;
using request_rows::kScoringRows;

// One entry of tolerations: of a request (Kubernetes' toleration).
inline constexpr std::array kTolerationFields{
    FieldSpec::text("key", "the taint key it matches (empty: every key)"),
    FieldSpec::text("operator", "Equal (default) or Exists"),
    FieldSpec::text("value", "the taint value Equal matches"),
    FieldSpec::text("effect", "the effect it matches (empty: every effect)"),
    FieldSpec::integer("tolerationSeconds", "as Kubernetes writes it; not used"),
};

// One entry of scoring.resources.
inline constexpr std::array kScoringResourceFields{
    FieldSpec::text("name", "cpu, memory, storage or an extended resource"),
    FieldSpec::integer("weight", "1 to 100 (default 1)"),
};

// One point of scoring.shape.
inline constexpr std::array kShapePointFields{
    FieldSpec::integer("utilization", "0 to 100, increasing along the shape"),
    FieldSpec::integer("score", "0 to 10"),
};

// The top level of a request file holding several requests (SPEC §8.4);
// each entry is read as kRequestFields.
inline constexpr std::array kRequestListFields{
    FieldSpec::block("requests", "the requests, placed by priority"),
};

// Every field a request flag replaces that is also a fixture case's option
// (SPEC §13), in table order: the request's, resources' and node_filter's.
template <class F>
void for_each_flag_row(F&& f) {
  for (const std::span<const RequestField> rows :
       {std::span<const RequestField>(kRequestRows), std::span<const RequestField>(kResourceRows),
        std::span<const RequestField>(kNodeFilterRows)})
    for (const RequestField& row : rows)
      if (!row.spec.flag.empty()) f(row);
}
// Every request flag's row: those, then --scoring's.
template <class F>
void for_each_override_row(F&& f) {
  for_each_flag_row(f);
  for (const RequestField& row : kScoringRows)
    if (!row.spec.flag.empty()) f(row);
}
template <class F>
void for_each_flag_field(F&& f) {
  for_each_flag_row([&f](const RequestField& row) { f(row.spec); });
}

// The row whose flag is `flag`, --scoring's too; null for no request flag.
const RequestField* request_flag_row(std::string_view flag);

// The --help text of a request flag, from its field: "Override: " and the
// help, "(repeatable)" after a list's (whose help describes one entry).
// Empty for a flag no field has.
inline std::string flag_help(std::string_view flag) {
  std::string out;
  for_each_flag_field([&](const FieldSpec& spec) {
    if (spec.flag != flag) return;
    out = "Override: " + std::string(spec.help);
    if (spec.kind == FieldKind::List || spec.kind == FieldKind::Labels) out += " (repeatable)";
  });
  return out;
}

// `at` is the entry's path (apps[2]); each part is kNoValue when absent.
// out.app and out.name are `name`; every problem goes to `diags` with its
// path. False when one of them is an error.
bool read_request_parts(Reader& r, const std::string& file, const FieldPath& at, ValueId resources,
                        ValueId node_filter, ValueId tolerations, const std::string& name,
                        Request& out, Diagnostics& diags);

}  // namespace eruplan
