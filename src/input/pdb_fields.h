// PodDisruptionBudgets as --pdbs reads them (kubectl get pdb -A -o json):
// the fields read, described once, for the reader and the man page. As the
// other Kubernetes tables, these are allow-lists: every other field is the
// Kubernetes API's and is skipped without a word.
#pragma once

#include <array>

#include "reader.h"

namespace eruplan {

inline constexpr std::array kPdbListFields{
    FieldSpec::text("kind", "List or PodDisruptionBudgetList (or one budget)"),
    FieldSpec::block("items", "the PodDisruptionBudgets"),
};

inline constexpr std::array kPdbFields{
    FieldSpec::text("kind", "PodDisruptionBudget"),
    FieldSpec::block("metadata", "name and namespace"),
    FieldSpec::block("spec", "selector"),
    FieldSpec::block("status", "disruptionsAllowed and disruptedPods"),
};

inline constexpr std::array kPdbMetadataFields{
    FieldSpec::text("name", "the budget's name"),
    FieldSpec::text("namespace", "the pods it covers are of this namespace"),
};

inline constexpr std::array kPdbSpecFields{
    FieldSpec::block("selector",
                     "the pods it covers (absent or empty: none, as preemption reads it)"),
};

inline constexpr std::array kPdbStatusFields{
    FieldSpec::integer("disruptionsAllowed",
                       "how many covered pods may still be evicted (default 0)"),
    FieldSpec::block("disruptedPods",
                     "pods already being disrupted: their eviction spends nothing"),
};

// A label selector (metav1.LabelSelector).
inline constexpr std::array kSelectorFields{
    FieldSpec::labels("matchLabels", "labels a pod must carry"),
    FieldSpec::block("matchExpressions",
                     "key, operator (In, NotIn, Exists, DoesNotExist) and values"),
};

inline constexpr std::array kSelectorRequirementFields{
    FieldSpec::text("key", "the label key"),
    FieldSpec::text("operator", "In, NotIn, Exists or DoesNotExist"),
    FieldSpec::list("values", "the values of In and NotIn"),
};

}  // namespace eruplan
