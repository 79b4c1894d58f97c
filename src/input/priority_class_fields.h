// PriorityClasses as --priority-classes reads them (kubectl get
// priorityclasses -o json or -o yaml): the fields read, described once.
// Allow-lists, as the other Kubernetes tables: every other field
// (description, metadata.uid, ...) is the Kubernetes API's and is skipped.
#pragma once

#include <array>

#include "reader.h"

namespace eruplan {

inline constexpr std::array kPriorityClassListFields{
    FieldSpec::text("kind", "List or PriorityClassList (or one PriorityClass)"),
    FieldSpec::block("items", "the PriorityClasses"),
};

inline constexpr std::array kPriorityClassFields{
    FieldSpec::text("kind", "PriorityClass"),
    FieldSpec::block("metadata", "name: what priorityClassName refers to"),
    FieldSpec::integer("value", "the priority of the class's pods (required)"),
    FieldSpec::boolean("globalDefault",
                       "true: the priority of pods and workloads that name no class"),
    FieldSpec::text("preemptionPolicy",
                    "Never: the class's pods never preempt (unless their own policy says)"),
};

inline constexpr std::array kPriorityClassMetadataFields{
    FieldSpec::text("name", "the class's name (required)"),
};

}  // namespace eruplan
