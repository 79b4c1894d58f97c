// Namespaces as --namespaces reads them (kubectl get namespaces -o json or
// -o yaml): the fields read, described once, and every field name the
// Kubernetes API defines for a NamespaceList and a Namespace, so a
// misspelt key is an unknown field (an error by default, as in manifests).
#pragma once

#include <array>
#include <string_view>

#include "reader.h"

namespace eruplan {

inline constexpr std::array kNamespaceListFields{
    FieldSpec::text("kind", "List or NamespaceList (or one Namespace)"),
    FieldSpec::block("items", "the Namespaces"),
};

inline constexpr std::array kNamespaceFields{
    FieldSpec::text("kind", "Namespace"),
    FieldSpec::block("metadata", "name and labels"),
};

inline constexpr std::array kNamespaceMetadataFields{
    FieldSpec::text("name", "the namespace's name (required)"),
    FieldSpec::block("labels", "what a namespaceSelector matches"),
};

// The API's field names (v1.35), for the strict check.
namespace k8s_api {
// NamespaceList, and a plain List: TypeMeta, ListMeta, items.
inline constexpr std::array<std::string_view, 4> kNamespaceList{"apiVersion", "kind", "metadata",
                                                                "items"};
// ListMeta.
inline constexpr std::array<std::string_view, 4> kListMeta{"selfLink", "resourceVersion",
                                                           "continue", "remainingItemCount"};
// NamespaceSpec and NamespaceStatus.
inline constexpr std::array<std::string_view, 1> kNamespaceSpec{"finalizers"};
inline constexpr std::array<std::string_view, 2> kNamespaceStatus{"phase", "conditions"};
}  // namespace k8s_api

}  // namespace eruplan
