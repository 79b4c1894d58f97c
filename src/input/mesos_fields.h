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
namespace mesos_field {
enum : std::size_t { kRoles, kFrameworks, kCount };
}

// One entry of roles:.
inline constexpr std::array kMesosRoleFields{
    FieldSpec{"name", FieldKind::Text, "", "the role's name"},
    FieldSpec{"weight", FieldKind::Quantity, "", "> 0, decimals exact (default 1)"},
    FieldSpec{"quota", FieldKind::Block, "", "per resource kind: guaranteed first"},
};
namespace mesos_role_field {
enum : std::size_t { kName, kWeight, kQuota, kCount };
}

// One entry of frameworks:.
inline constexpr std::array kMesosFrameworkFields{
    FieldSpec{"name", FieldKind::Text, "", "the name its instances are counted by"},
    FieldSpec{"role", FieldKind::Text, "", "a role of roles:"},
    FieldSpec{"max_count", FieldKind::Integer, "", "at most this many new instances"},
    FieldSpec{"resources", FieldKind::Block, "", "per instance, as a request's"},
    FieldSpec{"node_filter", FieldKind::Block, "", "which nodes may be used"},
    FieldSpec{"tolerations", FieldKind::Block, "", "taints the instances tolerate"},
};
namespace mesos_framework_field {
enum : std::size_t { kName, kRole, kMaxCount, kResources, kNodeFilter, kTolerations, kCount };
}

static_assert(kMesosFields.size() == mesos_field::kCount);
static_assert(kMesosRoleFields.size() == mesos_role_field::kCount);
static_assert(kMesosFrameworkFields.size() == mesos_framework_field::kCount);

}  // namespace eruplan
