// PodDisruptionBudgets as --pdbs reads them (kubectl get pdb -A -o json):
// the fields read, described once, for the reader and the man page. As the
// other Kubernetes tables, these are allow-lists: every other field is the
// Kubernetes API's and is skipped without a word.
#pragma once

#include <array>
#include <cstddef>

#include "reader.h"

namespace eruplan {

inline constexpr std::array kPdbListFields{
    FieldSpec{"kind", FieldKind::Text, "", "List or PodDisruptionBudgetList (or one budget)"},
    FieldSpec{"items", FieldKind::Block, "", "the PodDisruptionBudgets"},
};

inline constexpr std::array kPdbFields{
    FieldSpec{"kind", FieldKind::Text, "", "PodDisruptionBudget"},
    FieldSpec{"metadata", FieldKind::Block, "", "name and namespace"},
    FieldSpec{"spec", FieldKind::Block, "", "selector"},
    FieldSpec{"status", FieldKind::Block, "", "disruptionsAllowed and disruptedPods"},
};

inline constexpr std::array kPdbMetadataFields{
    FieldSpec{"name", FieldKind::Text, "", "the budget's name"},
    FieldSpec{"namespace", FieldKind::Text, "", "the pods it covers are of this namespace"},
};

inline constexpr std::array kPdbSpecFields{
    FieldSpec{"selector", FieldKind::Block, "",
              "the pods it covers (absent or empty: none, as preemption reads it)"},
};

inline constexpr std::array kPdbStatusFields{
    FieldSpec{"disruptionsAllowed", FieldKind::Integer, "",
              "how many covered pods may still be evicted (default 0)"},
    FieldSpec{"disruptedPods", FieldKind::Block, "",
              "pods already being disrupted: their eviction spends nothing"},
};

// A label selector (metav1.LabelSelector).
inline constexpr std::array kSelectorFields{
    FieldSpec{"matchLabels", FieldKind::Labels, "", "labels a pod must carry"},
    FieldSpec{"matchExpressions", FieldKind::Block, "",
              "key, operator (In, NotIn, Exists, DoesNotExist) and values"},
};

inline constexpr std::array kSelectorRequirementFields{
    FieldSpec{"key", FieldKind::Text, "", "the label key"},
    FieldSpec{"operator", FieldKind::Text, "", "In, NotIn, Exists or DoesNotExist"},
    FieldSpec{"values", FieldKind::List, "", "the values of In and NotIn"},
};

}  // namespace eruplan
