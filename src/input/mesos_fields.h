// The roles and frameworks schema of `eruplan share --model mesos`, each
// field described once: the reader's known fields come from these tables and
// the man page is checked against them. A framework's resources, node_filter
// and tolerations are a request's (request_fields.h).
#pragma once

#include <array>
#include <cstddef>

#include "reader.h"

namespace eruplan {

// The top level of a roles and frameworks file.
inline constexpr std::array kMesosFields{
    FieldSpec{"roles", FieldKind::Block, "", "the roles: name, weight, quota"},
    FieldSpec{"frameworks", FieldKind::Block, "", "the frameworks, each in a role"},
};

// One entry of roles:.
inline constexpr std::array kMesosRoleFields{
    FieldSpec{"name", FieldKind::Text, "", "the role's name"},
    FieldSpec{"weight", FieldKind::Quantity, "", "> 0, decimals exact (default 1)"},
    FieldSpec{"quota", FieldKind::Block, "", "per resource kind: guaranteed first"},
};

// One entry of frameworks:.
inline constexpr std::array kMesosFrameworkFields{
    FieldSpec{"name", FieldKind::Text, "", "the name its instances are counted by"},
    FieldSpec{"role", FieldKind::Text, "", "a role of roles:"},
    FieldSpec{"max_count", FieldKind::Integer, "", "at most this many new instances"},
    FieldSpec{"resources", FieldKind::Block, "", "per instance, as a request's"},
    FieldSpec{"node_filter", FieldKind::Block, "", "which nodes may be used"},
    FieldSpec{"tolerations", FieldKind::Block, "", "taints the instances tolerate"},
};

}  // namespace eruplan
