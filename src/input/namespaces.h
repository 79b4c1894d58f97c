// --namespaces FILE (kubectl get namespaces -o json, or -o yaml): each
// namespace's labels, which a pod affinity term's namespaceSelector matches.
// Without the file a namespace has only the label Kubernetes gives every
// namespace, kubernetes.io/metadata.name = its name; with it, a namespace
// the file lists has its labels (that one added when the file leaves it
// out, as the API server always sets it), and one it does not list keeps
// only that label.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "diagnostics.h"
#include "load.h"
#include "pods.h"

namespace eruplan {

// The label Kubernetes sets on every namespace.
inline constexpr std::string_view kNamespaceNameLabel = "kubernetes.io/metadata.name";

// The namespaces of a List / NamespaceList, one Namespace, or a YAML stream
// of them, sorted by name (Inventory::namespaces); nullopt after reporting
// errors (file, line:col, field path). Keys the API does not define are
// unknown fields (errors unless the diagnostics are lenient).
std::optional<std::vector<std::pair<std::string, Labels>>> load_namespaces(const Source& source,
                                                                           Diagnostics& diags);

}  // namespace eruplan
