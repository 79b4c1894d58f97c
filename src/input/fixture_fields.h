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
    FieldSpec{"name", FieldKind::Text, "", "the case's name in reports"},
    FieldSpec{"description", FieldKind::Text, "", "free text, ignored"},
    FieldSpec{"command", FieldKind::Text, "", "plan (default) or another command"},
    FieldSpec{"nodes", FieldKind::Block, "", "the inventory, inline or a path"},
    FieldSpec{"request", FieldKind::Block, "", "the request, inline, a path, or absent"},
    FieldSpec{"pods", FieldKind::Block, "", "kubectl's pods, inline or a path"},
    FieldSpec{"pdbs", FieldKind::Block, "", "kubectl's PodDisruptionBudgets, inline or a path"},
    FieldSpec{"priority_classes", FieldKind::Block, "",
              "kubectl's PriorityClasses, inline or a path"},
    FieldSpec{"namespaces", FieldKind::Block, "", "kubectl's Namespaces, inline or a path"},
    FieldSpec{"template", FieldKind::Block, "", "grow's node template, inline or a path"},
    FieldSpec{"options", FieldKind::Block, "", "the command's options"},
    FieldSpec{"expect", FieldKind::Block, "", "what the run must give"},
};

// expect: of a case.
inline constexpr std::array kExpectFields{
    FieldSpec{"exit", FieldKind::Integer, "", "the exit status (default 0)"},
    FieldSpec{"capacity", FieldKind::Block, "", "capacity of the nodes listed"},
    FieldSpec{"total", FieldKind::Integer, "", "the total capacity, or \"unlimited\""},
    FieldSpec{"deploy", FieldKind::Block, "", "the DeployMap exactly"},
    FieldSpec{"plans", FieldKind::Block, "", "number of plans per node"},
    FieldSpec{"reasons", FieldKind::Block, "", "a substring of a zero-capacity reason"},
    FieldSpec{"error_contains", FieldKind::List, "", "substrings of stderr"},
    FieldSpec{"deploy_subset", FieldKind::Block, "", "new instances of the nodes listed"},
    FieldSpec{"deploy_total", FieldKind::Integer, "", "new instances in all"},
    FieldSpec{"placed", FieldKind::Block, "", "placed, or per request name"},
    FieldSpec{"status", FieldKind::Block, "", "a status, or per request name or workload id"},
    FieldSpec{"scores", FieldKind::Block, "", "strategy score's first-instance scores per node"},
    FieldSpec{"evicted", FieldKind::List, "", "--preempt's victims, in output order"},
    FieldSpec{"offers", FieldKind::List, "",
              "share --model mesos: every offer, \"cycle node framework +launched\""},
};

// One node's entry of expect.scores.
inline constexpr std::array kExpectScoreFields{
    FieldSpec{"fit", FieldKind::Integer, "", "the fit score"},
    FieldSpec{"balanced", FieldKind::Integer, "", "the balanced-allocation score"},
    FieldSpec{"total", FieldKind::Integer, "", "their weighted sum"},
};

// options: of a plan, capacity or validate case; the request fields that
// have a flag come after plans.
inline constexpr std::array kCaseOptionFields{
    FieldSpec{"plans", FieldKind::Text, "--plans", "all, assigned or none"},
    FieldSpec{"atomic", FieldKind::Bool, "--atomic", "place all requests or none"},
    FieldSpec{"explain", FieldKind::Bool, "--explain", "say why each node gets what it gets"},
    FieldSpec{"preempt", FieldKind::Bool, "--preempt", "evict lower-priority pods for room"},
    FieldSpec{"queue_sort", FieldKind::Text, "--queue-sort",
              "priority, qos or coscheduling: several requests' order"},
    FieldSpec{"model", FieldKind::Text, "--model", "share: drf or mesos"},
    FieldSpec{"seed", FieldKind::Text, "--seed", "share --model mesos: N or none"},
    FieldSpec{"cycles", FieldKind::Integer, "--cycles", "share --model mesos: at most K cycles"},
};

// options: of a what-if case (compare, grow, drain).
inline constexpr std::array kWhatIfOptionFields{
    FieldSpec{"plans", FieldKind::Text, "--plans", "all, assigned or none"},
    FieldSpec{"strategies", FieldKind::List, "--strategies", "the strategies compared"},
    FieldSpec{"max", FieldKind::Integer, "--max", "most nodes grow may add"},
    FieldSpec{"node", FieldKind::Text, "--node", "the node drain takes out"},
    FieldSpec{"each_node", FieldKind::Bool, "--each-node", "drain each node on its own"},
    FieldSpec{"like", FieldKind::List, "--like", "nodes of the inventory used as grow templates"},
    FieldSpec{"cost", FieldKind::List, "--cost", "NAME=VALUE: a grow template's cost"},
    FieldSpec{"expander", FieldKind::Text, "--expander", "how grow picks among templates"},
    FieldSpec{"mix", FieldKind::Bool, "--mix", "grow's cheapest mix of templates"},
};

// The what-if part of expect:; the rest is read as kExpectFields.
inline constexpr std::array kWhatIfExpectFields{
    FieldSpec{"feasible", FieldKind::Block, "", "per strategy: whether it places all"},
    FieldSpec{"satisfied", FieldKind::Block, "",
              "per strategy: whether every request is satisfied"},
    FieldSpec{"absorbable", FieldKind::Block, "", "per node: whether drain absorbs it"},
    FieldSpec{"nodes_used", FieldKind::Block, "", "per strategy: nodes it uses"},
    FieldSpec{"added", FieldKind::Integer, "", "nodes grow adds"},
    FieldSpec{"added_by_template", FieldKind::Block, "", "per template: copies grow adds"},
};

// options: of a realloc case.
inline constexpr std::array kReallocOptionFields{
    FieldSpec{"atomic", FieldKind::Bool, "--atomic", "apply every change or none"},
};

// The realloc part of expect:; the rest is read as kExpectFields.
inline constexpr std::array kReallocExpectFields{
    FieldSpec{"status", FieldKind::Block, "", "per workload id: ok, failed or not_applied"},
};

}  // namespace eruplan
