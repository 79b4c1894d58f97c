// The node inventory schema (SPEC §2, §8.1, §11), each field described once:
// the inventory reader's known fields (unknown-field warnings, "did you
// mean", --strict) come from these tables, and the man page is checked
// against them. A reader names the fields it takes (Picked, reader.h),
// checked when compiled.
#pragma once

#include <array>

#include "reader.h"

namespace eruplan {

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

}  // namespace eruplan
