// The per-instance parts of a request (SPEC §3, §8.1, §9) read out of a
// document exactly as a request file's: resources, node_filter and
// tolerations, then Eru's normalisation. Other inputs that carry requests
// (SPEC §10's apps) use it so both read and check them the same way.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "doc.h"

namespace eruplan {

// The request schema, each field described once: the file reader's known
// fields (unknown-field warnings, "did you mean", --strict) come from these
// tables, and so do the request flags that replace a field (SPEC §1) and
// the fixture runner's `options:` keys (SPEC §13), which are the names of
// the fields that have a flag, and those flags' --help text. A block field
// names its own table (inner), so a key given one level too high is
// pointed to where it belongs ("did you mean resources.cpu?").

// resources: of a request.
inline constexpr std::array kResourceFields{
    FieldSpec{"cpu", FieldKind::Quantity, "--cpu", "CPU cores per instance (1.5 or 1500m)"},
    FieldSpec{"cpu_limit", FieldKind::Quantity, "", "CPU limit per instance"},
    FieldSpec{"cpu_bind", FieldKind::Bool, "--cpu-bind", "bind to concrete cores"},
    FieldSpec{"memory", FieldKind::Quantity, "--memory", "memory per instance (512Mi)"},
    FieldSpec{"memory_limit", FieldKind::Quantity, "", "memory limit per instance"},
    FieldSpec{"storage", FieldKind::Quantity, "--storage", "storage per instance (10Gi)"},
    FieldSpec{"volumes", FieldKind::List, "--volume", "a volume binding SRC:DST[:FLAGS[:SIZE]]"},
    FieldSpec{"extended", FieldKind::Block, "", "extended resources per instance"},
    FieldSpec{"cpu_fit", FieldKind::Bool, "", "fit CPU by requests only"},
};

// node_filter: of a request.
inline constexpr std::array kNodeFilterFields{
    FieldSpec{"labels", FieldKind::Labels, "--label", "a label k=v the node must have"},
    FieldSpec{"nodes", FieldKind::List, "--node", "only this node"},
    FieldSpec{"exclude", FieldKind::List, "--exclude", "never this node"},
};

// One entry of tolerations: of a request (Kubernetes' toleration).
inline constexpr std::array kTolerationFields{
    FieldSpec{"key", FieldKind::Text, "", "the taint key it matches (empty: every key)"},
    FieldSpec{"operator", FieldKind::Text, "", "Equal (default) or Exists"},
    FieldSpec{"value", FieldKind::Text, "", "the taint value Equal matches"},
    FieldSpec{"effect", FieldKind::Text, "", "the effect it matches (empty: every effect)"},
    FieldSpec{"tolerationSeconds", FieldKind::Integer, "", "as Kubernetes writes it; not used"},
};

// scoring: of a request (strategy score, SPEC §9).
inline constexpr std::array kScoringFields{
    FieldSpec{"profile", FieldKind::Text, "",
              "kubernetes (kube-scheduler's default profile) or resources (the default)"},
    FieldSpec{"type", FieldKind::Text, "",
              "least_allocated, most_allocated or requested_to_capacity_ratio (--scoring)"},
    FieldSpec{"resources", FieldKind::Block, "", "the resources scored, {name, weight} each"},
    FieldSpec{"shape", FieldKind::Block, "", "requested_to_capacity_ratio's points"},
    FieldSpec{"fit_weight", FieldKind::Integer, "", "weight of the fit score (0 to 100)"},
    FieldSpec{"balanced_weight", FieldKind::Integer, "", "weight of the balanced score (0 to 100)"},
};

// One entry of scoring.resources.
inline constexpr std::array kScoringResourceFields{
    FieldSpec{"name", FieldKind::Text, "", "cpu, memory, storage or an extended resource"},
    FieldSpec{"weight", FieldKind::Integer, "", "1 to 100 (default 1)"},
};

// One point of scoring.shape.
inline constexpr std::array kShapePointFields{
    FieldSpec{"utilization", FieldKind::Integer, "", "0 to 100, increasing along the shape"},
    FieldSpec{"score", FieldKind::Integer, "", "0 to 10"},
};

// The top level of a request (SPEC §3, §8.4, §9) and of each entry of a
// requests: list.
inline constexpr std::array kRequestFields{
    FieldSpec{"app", FieldKind::Text, "--app", "the app whose existing instances count"},
    FieldSpec{"count", FieldKind::Integer, "--count", "instances to deploy"},
    FieldSpec{"strategy", FieldKind::Text, "--strategy",
              "auto, fill, each, global, drained or score"},
    FieldSpec{"nodes_limit", FieldKind::Integer, "--nodes-limit",
              "nodes_limit (>= 0; its meaning depends on the strategy)"},
    FieldSpec{"resources", FieldKind::Block, "", "what one instance needs", kResourceFields},
    FieldSpec{"node_filter", FieldKind::Block, "", "which nodes may be used", kNodeFilterFields},
    FieldSpec{"tolerations", FieldKind::Block, "", "taints the instances tolerate"},
    FieldSpec{"scoring", FieldKind::Block, "", "how strategy score ranks nodes", kScoringFields},
    FieldSpec{"name", FieldKind::Text, "", "the request's name in a requests: list"},
    FieldSpec{"priority", FieldKind::Integer, "", "higher goes first"},
    FieldSpec{"min_count", FieldKind::Integer, "", "fewest instances worth placing"},
    FieldSpec{"group", FieldKind::Text, "", "requests placed together or not at all"},
};

// The top level of a request file holding several requests (SPEC §8.4);
// each entry is read as kRequestFields.
inline constexpr std::array kRequestListFields{
    FieldSpec{"requests", FieldKind::Block, "", "the requests, placed by priority"},
};

// Every field a request flag replaces, in table order.
template <class F>
void for_each_flag_field(F&& f) {
  for (const FieldSpec& spec : kRequestFields)
    if (!spec.flag.empty()) f(spec);
  for (const FieldSpec& spec : kResourceFields)
    if (!spec.flag.empty()) f(spec);
  for (const FieldSpec& spec : kNodeFilterFields)
    if (!spec.flag.empty()) f(spec);
}

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
// Keeps out.app and out.name; every problem goes to `diags` with its path.
void read_request_parts(Reader& r, const std::string& file, const FieldPath& at, ValueId resources,
                        ValueId node_filter, ValueId tolerations, Request& out, Diagnostics& diags);

}  // namespace eruplan
