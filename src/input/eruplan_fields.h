// The schemas of eruplan's own files, each field described once: the
// inventory, the fair-share and Mesos roles files, the realloc request and
// the fixture case (the request's, bound to its members, is
// request_fields.h; the Kubernetes objects' are kubernetes_fields.h). Each
// reader's known fields (unknown-field warnings, "did you mean", --strict)
// come from these tables, and the man page is checked against them
// (tests/fields_test). A reader names the fields it takes (Picked,
// reader.h), checked when compiled.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "reader.h"
#include "realloc_spec.h"

namespace eruplan {

// --- The node inventory (SPEC §2, §8.1, §11): -n and grow's --template.

// The top level of an inventory file.
inline constexpr std::array kInventoryFields{
    FieldSpec::integer("share_base", "pieces per core (default 100)"),
    FieldSpec::integer("max_fragment_cores", "most cores holding fractional binds (-1: no limit)"),
    FieldSpec::block("nodes", "the list of nodes"),
};

// One node of nodes: (and grow's --template).
inline constexpr std::array kNodeFields{
    FieldSpec::text("name", "unique, non-empty"),
    FieldSpec::labels("labels", "labels a node_filter matches"),
    FieldSpec::boolean("available", "false: cordoned, never planned on"),
    FieldSpec::quantity("cpu", "cores of share_base pieces each"),
    FieldSpec::block("cpu_map", "pieces per core id, instead of cpu"),
    FieldSpec::quantity("memory", "memory of the node"),
    FieldSpec::block("numa", "the NUMA node of each core"),
    FieldSpec::block("numa_memory", "memory per NUMA node"),
    FieldSpec::quantity("storage", "storage of the node"),
    FieldSpec::block("volumes", "size per volume device"),
    FieldSpec::block("usage", "what is already allocated"),
    FieldSpec::block("instances", "running instances per app"),
    FieldSpec::block("extended", "extended resources and their amounts"),
    FieldSpec::integer("max_instances", "most instances the node runs"),
    FieldSpec::block("taints", "taints a request must tolerate"),
    FieldSpec::block("workloads", "running workloads (realloc)"),
    FieldSpec::block("reservations", "per role: resources only it is offered"),
    FieldSpec::text("cost", "grow templates only: what one node costs, any unit"),
};

// usage: of a node.
inline constexpr std::array kUsageFields{
    FieldSpec::quantity("cpu", "CPU in use (default: usage.cpu_map's sum)"),
    FieldSpec::block("cpu_map", "pieces in use per core id"),
    FieldSpec::quantity("memory", "memory in use"),
    FieldSpec::block("numa_memory", "memory in use per NUMA node"),
    FieldSpec::quantity("storage", "storage in use"),
    FieldSpec::block("volumes", "size in use per volume device"),
    FieldSpec::block("extended", "extended resources in use"),
};

// One entry of a node's taints:.
inline constexpr std::array kTaintFields{
    FieldSpec::text("key", "the taint's key"),
    FieldSpec::text("value", "the taint's value"),
    FieldSpec::text("effect", "NoSchedule, PreferNoSchedule or NoExecute"),
    FieldSpec::text("timeAdded", "as Kubernetes writes it; not used"),
};

// One entry of a node's workloads: (SPEC §11).
inline constexpr std::array kWorkloadFields{
    FieldSpec::text("id", "unique in the inventory"),
    FieldSpec::text("app", "the workload's app"),
    FieldSpec::quantity("cpu", "CPU request"),
    FieldSpec::quantity("cpu_limit", "CPU limit"),
    FieldSpec::quantity("memory", "memory request"),
    FieldSpec::quantity("memory_limit", "memory limit"),
    FieldSpec::block("cpu_map", "pieces bound per core id"),
    FieldSpec::text("numa_node", "the NUMA node its memory is on"),
    FieldSpec::integer("priority",
                       "pod priority (default 0); plan --preempt may evict it for a higher one"),
};

// --- The fair-share file (SPEC §10): share -r. An app's resources,
// node_filter and tolerations are a request's (request_fields.h).

// The top level of a share file.
inline constexpr std::array kShareFields{
    FieldSpec::text("placement", "first_fit, least_allocated or most_allocated"),
    FieldSpec::block("apps", "the apps sharing the cluster"),
};

// One entry of apps:.
inline constexpr std::array kShareAppFields{
    FieldSpec::text("app", "the name its instances are counted by"),
    FieldSpec::quantity("weight", "> 0, decimals exact (0.1 is 1/10)"),
    FieldSpec::integer("quota", "new instances placed before any fair share"),
    FieldSpec::integer("max_count", "at most this many new instances"),
    FieldSpec::block("resources", "per instance, as a request's"),
    FieldSpec::block("node_filter", "which nodes may be used"),
    FieldSpec::block("tolerations", "taints the instances tolerate"),
};

// --- The roles and frameworks file of share --model mesos. A framework's
// resources, node_filter and tolerations are a request's (request_fields.h).

// The top level of a roles and frameworks file.
inline constexpr std::array kMesosFields{
    FieldSpec::block("roles", "the roles: name, weight, quota"),
    FieldSpec::block("frameworks", "the frameworks, each in a role"),
};

// One entry of roles:.
inline constexpr std::array kMesosRoleFields{
    FieldSpec::text("name", "the role's name"),
    FieldSpec::quantity("weight", "> 0, decimals exact (default 1)"),
    FieldSpec::block("quota", "per resource kind: guaranteed first"),
};

// One entry of frameworks:.
inline constexpr std::array kMesosFrameworkFields{
    FieldSpec::text("name", "the name its instances are counted by"),
    FieldSpec::text("role", "a role of roles:"),
    FieldSpec::integer("max_count", "at most this many new instances"),
    FieldSpec::block("resources", "per instance, as a request's"),
    FieldSpec::block("node_filter", "which nodes may be used"),
    FieldSpec::block("tolerations", "taints the instances tolerate"),
};

// --- The realloc request (SPEC §11): realloc -r, and the deltas' flags.

// One signed delta of resources: its row, bound to the member of
// ReallocRequest it sets, with the parser of its unsigned text (a CPU
// amount or a size). The file reader (load_realloc.cpp), the flags that
// replace them (realloc_command.cpp) and their options and --help
// (commands.cpp) walk these rows.
struct ReallocDelta {
  FieldSpec spec;
  std::int64_t ReallocRequest::*member;
  std::optional<std::int64_t> (*parse)(std::string_view text, std::string& error);
  std::string_view shrink;  // an example for the flag's --help ("-0.5"), or empty
};

// resources: of a realloc request: signed deltas.
inline constexpr std::array kReallocDeltas{
    ReallocDelta{FieldSpec::quantity("cpu", "CPU request delta").with_flag("--cpu"),
                 &ReallocRequest::cpu, parse_cpu, "-0.5"},
    ReallocDelta{FieldSpec::quantity("cpu_limit", "CPU limit delta").with_flag("--cpu-limit"),
                 &ReallocRequest::cpu_limit, parse_cpu, ""},
    ReallocDelta{FieldSpec::quantity("memory", "memory request delta").with_flag("--memory"),
                 &ReallocRequest::memory, parse_size, "-512Mi"},
    ReallocDelta{
        FieldSpec::quantity("memory_limit", "memory limit delta").with_flag("--memory-limit"),
        &ReallocRequest::memory_limit, parse_size, ""},
};
inline constexpr auto kReallocResourceFields = specs_of(kReallocDeltas);

// The top level of a realloc request.
inline constexpr std::array kReallocFields{
    FieldSpec::list("workloads", "the ids of the workloads to change"),
    FieldSpec::text("app", "or every workload of this app"),
    FieldSpec::block("resources", "the deltas", kReallocResourceFields),
    FieldSpec::text("cpu_bind", "keep, true or false"),
};

// --- The fixture case (SPEC §7, §11, §13, §14): the fixture runner's
// known keys (an unknown key fails the case). A case's options: are
// kCaseOptionFields with the request fields that have a flag
// (request_fields.h) after plans.

// The top level of a case.
inline constexpr std::array kCaseFields{
    FieldSpec::text("name", "the case's name in reports"),
    FieldSpec::text("description", "free text, ignored"),
    FieldSpec::text("command", "plan (default) or another command"),
    FieldSpec::block("nodes", "the inventory, inline or a path"),
    FieldSpec::block("request", "the request, inline, a path, or absent"),
    FieldSpec::block("pods", "kubectl's pods, inline or a path"),
    FieldSpec::block("pdbs", "kubectl's PodDisruptionBudgets, inline or a path"),
    FieldSpec::block("priority_classes", "kubectl's PriorityClasses, inline or a path"),
    FieldSpec::block("namespaces", "kubectl's Namespaces, inline or a path"),
    FieldSpec::block("template", "grow's node template, inline or a path"),
    FieldSpec::block("daemonsets",
                     "grow: kubectl's DaemonSets run on every added node, inline or a path"),
    FieldSpec::block("options", "the command's options"),
    FieldSpec::block("expect", "what the run must give"),
};

// expect: of a case.
inline constexpr std::array kExpectFields{
    FieldSpec::integer("exit", "the exit status (default 0)"),
    FieldSpec::block("capacity", "capacity of the nodes listed"),
    FieldSpec::integer("total", "the total capacity, or \"unlimited\""),
    FieldSpec::block("deploy", "the DeployMap exactly"),
    FieldSpec::block("plans", "number of plans per node"),
    FieldSpec::block("reasons", "a substring of a zero-capacity reason"),
    FieldSpec::list("error_contains", "substrings of stderr"),
    FieldSpec::block("deploy_subset", "new instances of the nodes listed"),
    FieldSpec::integer("deploy_total", "new instances in all"),
    FieldSpec::block("placed", "placed, or per request name"),
    FieldSpec::block("status", "a status, or per request name or workload id"),
    FieldSpec::block("scores", "strategy score's first-instance scores per node"),
    FieldSpec::list("evicted", "--preempt's victims, in output order"),
    FieldSpec::list("offers",
                    "share --model mesos: every offer, \"cycle node framework +launched\""),
};

// One node's entry of expect.scores.
inline constexpr std::array kExpectScoreFields{
    FieldSpec::integer("fit", "the fit score"),
    FieldSpec::integer("balanced", "the balanced-allocation score"),
    FieldSpec::integer("total", "their weighted sum"),
};

// options: of a plan, capacity or validate case; the request fields that
// have a flag come after plans.
inline constexpr std::array kCaseOptionFields{
    FieldSpec::text("plans", "all, assigned or none").with_flag("--plans"),
    FieldSpec::boolean("atomic", "place all requests or none").with_flag("--atomic"),
    FieldSpec::boolean("explain", "say why each node gets what it gets").with_flag("--explain"),
    FieldSpec::boolean("preempt", "evict lower-priority pods for room").with_flag("--preempt"),
    FieldSpec::boolean("image_locality", "ImageLocality scores the nodes' images")
        .with_flag("--image-locality"),
    FieldSpec::text("queue_sort", "priority, qos or coscheduling: several requests' order")
        .with_flag("--queue-sort"),
    FieldSpec::text("model", "share: drf or mesos").with_flag("--model"),
    FieldSpec::text("seed", "share --model mesos: N or none").with_flag("--seed"),
    FieldSpec::integer("cycles", "share --model mesos: at most K cycles").with_flag("--cycles"),
};

// options: of a what-if case (compare, grow, drain).
inline constexpr std::array kWhatIfOptionFields{
    FieldSpec::text("plans", "all, assigned or none").with_flag("--plans"),
    FieldSpec::list("strategies", "the strategies compared").with_flag("--strategies"),
    FieldSpec::integer("max", "most nodes grow may add").with_flag("--max"),
    FieldSpec::text("node", "the node drain takes out").with_flag("--node"),
    FieldSpec::boolean("each_node", "drain each node on its own").with_flag("--each-node"),
    FieldSpec::list("like", "nodes of the inventory used as grow templates").with_flag("--like"),
    FieldSpec::list("cost", "NAME=VALUE: a grow template's cost").with_flag("--cost"),
    FieldSpec::text("expander", "how grow picks among templates").with_flag("--expander"),
    FieldSpec::boolean("mix", "grow's cheapest mix of templates").with_flag("--mix"),
};

// The what-if part of expect:; the rest is read as kExpectFields.
inline constexpr std::array kWhatIfExpectFields{
    FieldSpec::block("feasible", "per strategy: whether it places all"),
    FieldSpec::block("satisfied", "per strategy: whether every request is satisfied"),
    FieldSpec::block("absorbable", "per node: whether drain absorbs it"),
    FieldSpec::block("nodes_used", "per strategy: nodes it uses"),
    FieldSpec::integer("added", "nodes grow adds"),
    FieldSpec::block("added_by_template", "per template: copies grow adds"),
};

// options: of a realloc case.
inline constexpr std::array kReallocOptionFields{
    FieldSpec::boolean("atomic", "apply every change or none").with_flag("--atomic"),
};

// The realloc part of expect:; the rest is read as kExpectFields.
inline constexpr std::array kReallocExpectFields{
    FieldSpec::block("status", "per workload id: ok, failed or not_applied"),
};

}  // namespace eruplan
