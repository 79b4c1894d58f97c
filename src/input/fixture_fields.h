// The fixture case schema (SPEC §7, §11, §13, §14), each field described
// once: the fixture runner's known keys (an unknown key fails the case) come
// from these tables, and the man page is checked against them. A case's
// options: are kCaseOptionFields with the request fields that have a flag
// (request_fields.h) after plans.
#pragma once

#include <array>

#include "reader.h"

namespace eruplan {

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
