// The roles and frameworks schema of `eruplan share --model mesos`, each
// field described once: the reader's known fields come from these tables and
// the man page is checked against them. A framework's resources, node_filter
// and tolerations are a request's (request_fields.h).
#pragma once

#include <array>

#include "reader.h"

namespace eruplan {

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

}  // namespace eruplan
