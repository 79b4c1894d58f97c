// PriorityClasses as --priority-classes reads them (kubectl get
// priorityclasses -o json or -o yaml): the fields read, described once.
// Allow-lists, as the other Kubernetes tables: every other field
// (description, metadata.uid, ...) is the Kubernetes API's and is skipped.
#pragma once

#include <array>
#include <cstddef>

#include "reader.h"

namespace eruplan {

inline constexpr std::array kPriorityClassListFields{
    FieldSpec{"kind", FieldKind::Text, "", "List or PriorityClassList (or one PriorityClass)"},
    FieldSpec{"items", FieldKind::Block, "", "the PriorityClasses"},
};

inline constexpr std::array kPriorityClassFields{
    FieldSpec{"kind", FieldKind::Text, "", "PriorityClass"},
    FieldSpec{"metadata", FieldKind::Block, "", "name: what priorityClassName refers to"},
    FieldSpec{"value", FieldKind::Integer, "", "the priority of the class's pods (required)"},
    FieldSpec{"globalDefault", FieldKind::Bool, "",
              "true: the priority of pods and workloads that name no class"},
    FieldSpec{"preemptionPolicy", FieldKind::Text, "",
              "Never: the class's pods never preempt (unless their own policy says)"},
};

inline constexpr std::array kPriorityClassMetadataFields{
    FieldSpec{"name", FieldKind::Text, "", "the class's name (required)"},
};

}  // namespace eruplan
