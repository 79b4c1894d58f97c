// The node inventory schema (SPEC §2, §8.1, §11), each field described once:
// the inventory reader's known fields (unknown-field warnings, "did you
// mean", --strict) come from these tables, and the man page is checked
// against them. A reader names the fields it takes (Picked, reader.h),
// checked when compiled.
#pragma once

#include <array>
#include <cstddef>

#include "reader.h"

namespace eruplan {

// The top level of an inventory file.
inline constexpr std::array kInventoryFields{
    FieldSpec{"share_base", FieldKind::Integer, "", "pieces per core (default 100)"},
    FieldSpec{"max_fragment_cores", FieldKind::Integer, "",
              "most cores holding fractional binds (-1: no limit)"},
    FieldSpec{"nodes", FieldKind::Block, "", "the list of nodes"},
};

// One node of nodes: (and grow's --template).
inline constexpr std::array kNodeFields{
    FieldSpec{"name", FieldKind::Text, "", "unique, non-empty"},
    FieldSpec{"labels", FieldKind::Labels, "", "labels a node_filter matches"},
    FieldSpec{"available", FieldKind::Bool, "", "false: cordoned, never planned on"},
    FieldSpec{"cpu", FieldKind::Quantity, "", "cores of share_base pieces each"},
    FieldSpec{"cpu_map", FieldKind::Block, "", "pieces per core id, instead of cpu"},
    FieldSpec{"memory", FieldKind::Quantity, "", "memory of the node"},
    FieldSpec{"numa", FieldKind::Block, "", "the NUMA node of each core"},
    FieldSpec{"numa_memory", FieldKind::Block, "", "memory per NUMA node"},
    FieldSpec{"storage", FieldKind::Quantity, "", "storage of the node"},
    FieldSpec{"volumes", FieldKind::Block, "", "size per volume device"},
    FieldSpec{"usage", FieldKind::Block, "", "what is already allocated"},
    FieldSpec{"instances", FieldKind::Block, "", "running instances per app"},
    FieldSpec{"extended", FieldKind::Block, "", "extended resources and their amounts"},
    FieldSpec{"max_instances", FieldKind::Integer, "", "most instances the node runs"},
    FieldSpec{"taints", FieldKind::Block, "", "taints a request must tolerate"},
    FieldSpec{"workloads", FieldKind::Block, "", "running workloads (realloc)"},
    FieldSpec{"reservations", FieldKind::Block, "", "per role: resources only it is offered"},
    FieldSpec{"cost", FieldKind::Text, "", "grow templates only: what one node costs, any unit"},
};

// usage: of a node.
inline constexpr std::array kUsageFields{
    FieldSpec{"cpu", FieldKind::Quantity, "", "CPU in use (default: usage.cpu_map's sum)"},
    FieldSpec{"cpu_map", FieldKind::Block, "", "pieces in use per core id"},
    FieldSpec{"memory", FieldKind::Quantity, "", "memory in use"},
    FieldSpec{"numa_memory", FieldKind::Block, "", "memory in use per NUMA node"},
    FieldSpec{"storage", FieldKind::Quantity, "", "storage in use"},
    FieldSpec{"volumes", FieldKind::Block, "", "size in use per volume device"},
    FieldSpec{"extended", FieldKind::Block, "", "extended resources in use"},
};

// One entry of a node's taints:.
inline constexpr std::array kTaintFields{
    FieldSpec{"key", FieldKind::Text, "", "the taint's key"},
    FieldSpec{"value", FieldKind::Text, "", "the taint's value"},
    FieldSpec{"effect", FieldKind::Text, "", "NoSchedule, PreferNoSchedule or NoExecute"},
    FieldSpec{"timeAdded", FieldKind::Text, "", "as Kubernetes writes it; not used"},
};

// One entry of a node's workloads: (SPEC §11).
inline constexpr std::array kWorkloadFields{
    FieldSpec{"id", FieldKind::Text, "", "unique in the inventory"},
    FieldSpec{"app", FieldKind::Text, "", "the workload's app"},
    FieldSpec{"cpu", FieldKind::Quantity, "", "CPU request"},
    FieldSpec{"cpu_limit", FieldKind::Quantity, "", "CPU limit"},
    FieldSpec{"memory", FieldKind::Quantity, "", "memory request"},
    FieldSpec{"memory_limit", FieldKind::Quantity, "", "memory limit"},
    FieldSpec{"cpu_map", FieldKind::Block, "", "pieces bound per core id"},
    FieldSpec{"numa_node", FieldKind::Text, "", "the NUMA node its memory is on"},
    FieldSpec{"priority", FieldKind::Integer, "",
              "pod priority (default 0); plan --preempt may evict it for a higher one"},
};

}  // namespace eruplan
