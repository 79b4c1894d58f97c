// The Kubernetes API's scheduling fields of a pod spec, whole: affinity
// (node, pod, anti), topology spread constraints and container ports. Unlike
// kubernetes_fields.h's allow-lists these tables hold every field the API
// defines for these types, so a name they lack is a misspelling: an unknown
// field, with a "did you mean". k8s_scheduling.cpp reads them; the man
// page's KUBERNETES INPUTS section names them.
#pragma once

#include <array>
#include <cstddef>

#include "reader.h"

namespace eruplan {

// spec.affinity (Affinity).
inline constexpr std::array kKubeAffinityFields{
    FieldSpec{"nodeAffinity", FieldKind::Block, "", "required and preferred node selector terms"},
    FieldSpec{"podAffinity", FieldKind::Block, "", "pods this pod wants to be near"},
    FieldSpec{"podAntiAffinity", FieldKind::Block, "", "pods this pod wants to be away from"},
};

// NodeAffinity.
inline constexpr std::array kKubeNodeAffinityFields{
    FieldSpec{"requiredDuringSchedulingIgnoredDuringExecution", FieldKind::Block, "",
              "a NodeSelector: nodeSelectorTerms, ORed"},
    FieldSpec{"preferredDuringSchedulingIgnoredDuringExecution", FieldKind::Block, "",
              "weighted terms the NodeAffinity score adds up"},
};

// NodeSelector.
inline constexpr std::array kKubeNodeSelectorFields{
    FieldSpec{"nodeSelectorTerms", FieldKind::Block, "", "terms, ORed"},
};

// NodeSelectorTerm.
inline constexpr std::array kKubeNodeSelectorTermFields{
    FieldSpec{"matchExpressions", FieldKind::Block, "", "over node labels, ANDed"},
    FieldSpec{"matchFields", FieldKind::Block, "", "over node fields (metadata.name), ANDed"},
};

// NodeSelectorRequirement and LabelSelectorRequirement (the same fields).
inline constexpr std::array kKubeRequirementFields{
    FieldSpec{"key", FieldKind::Text, "", "the label (or field) key"},
    FieldSpec{"operator", FieldKind::Text, "",
              "In, NotIn, Exists, DoesNotExist; Gt, Lt for node selectors"},
    FieldSpec{"values", FieldKind::List, "", "In and NotIn: one or more; Gt and Lt: one integer"},
};

// PreferredSchedulingTerm.
inline constexpr std::array kKubePreferredSchedulingTermFields{
    FieldSpec{"weight", FieldKind::Integer, "", "1 to 100"},
    FieldSpec{"preference", FieldKind::Block, "", "a NodeSelectorTerm"},
};

// PodAffinity and PodAntiAffinity (the same fields).
inline constexpr std::array kKubePodAffinityFields{
    FieldSpec{"requiredDuringSchedulingIgnoredDuringExecution", FieldKind::Block, "",
              "pod affinity terms a node must satisfy, ANDed"},
    FieldSpec{"preferredDuringSchedulingIgnoredDuringExecution", FieldKind::Block, "",
              "weighted pod affinity terms the InterPodAffinity score adds up"},
};

// PodAffinityTerm.
inline constexpr std::array kKubePodAffinityTermFields{
    FieldSpec{"labelSelector", FieldKind::Block, "", "the pods; absent: none"},
    FieldSpec{"namespaces", FieldKind::List, "", "their namespaces; default the pod's own"},
    FieldSpec{"topologyKey", FieldKind::Text, "", "the node label that makes a domain; required"},
    FieldSpec{"namespaceSelector", FieldKind::Block, "",
              "namespaces by their labels (--namespaces); {} every namespace"},
    FieldSpec{"matchLabelKeys", FieldKind::List, "", "the pod's own values of these keys, In"},
    FieldSpec{"mismatchLabelKeys", FieldKind::List, "",
              "the pod's own values of these keys, NotIn"},
};

// WeightedPodAffinityTerm.
inline constexpr std::array kKubeWeightedPodAffinityTermFields{
    FieldSpec{"weight", FieldKind::Integer, "", "1 to 100"},
    FieldSpec{"podAffinityTerm", FieldKind::Block, "", "a PodAffinityTerm"},
};

// LabelSelector.
inline constexpr std::array kKubeLabelSelectorFields{
    FieldSpec{"matchLabels", FieldKind::Labels, "", "key: value pairs, ANDed"},
    FieldSpec{"matchExpressions", FieldKind::Block, "", "requirements, ANDed"},
};

// TopologySpreadConstraint.
inline constexpr std::array kKubeSpreadFields{
    FieldSpec{"maxSkew", FieldKind::Integer, "", "at least 1; required"},
    FieldSpec{"topologyKey", FieldKind::Text, "", "the node label that makes a domain; required"},
    FieldSpec{"whenUnsatisfiable", FieldKind::Text, "",
              "DoNotSchedule (a filter) or ScheduleAnyway (a score); required"},
    FieldSpec{"labelSelector", FieldKind::Block, "", "the pods counted"},
    FieldSpec{"minDomains", FieldKind::Integer, "", "DoNotSchedule only; at least 1"},
    FieldSpec{"nodeAffinityPolicy", FieldKind::Text, "", "Honor (the default) or Ignore"},
    FieldSpec{"nodeTaintsPolicy", FieldKind::Text, "", "Ignore (the default) or Honor"},
    FieldSpec{"matchLabelKeys", FieldKind::List, "",
              "the pod's own values of these keys join the selector"},
};

// ContainerPort.
inline constexpr std::array kKubeContainerPortFields{
    FieldSpec{"name", FieldKind::Text, "", "not used"},
    FieldSpec{"hostPort", FieldKind::Integer, "", "1 to 65535: the NodePorts filter's port"},
    FieldSpec{"containerPort", FieldKind::Integer, "", "not used"},
    FieldSpec{"protocol", FieldKind::Text, "", "TCP (the default), UDP or SCTP"},
    FieldSpec{"hostIP", FieldKind::Text, "", "default 0.0.0.0 (every address)"},
};

}  // namespace eruplan
