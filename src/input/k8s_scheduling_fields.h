// The Kubernetes API's scheduling fields of a pod spec, whole: affinity
// (node, pod, anti), topology spread constraints and container ports. Unlike
// kubernetes_fields.h's allow-lists these tables hold every field the API
// defines for these types, so a name they lack is a misspelling: an unknown
// field, with a "did you mean". k8s_scheduling.cpp reads them; the man
// page's KUBERNETES INPUTS section names them.
#pragma once

#include <array>

#include "reader.h"

namespace eruplan {

// spec.affinity (Affinity).
inline constexpr std::array kKubeAffinityFields{
    FieldSpec::block("nodeAffinity", "required and preferred node selector terms"),
    FieldSpec::block("podAffinity", "pods this pod wants to be near"),
    FieldSpec::block("podAntiAffinity", "pods this pod wants to be away from"),
};

// NodeAffinity.
inline constexpr std::array kKubeNodeAffinityFields{
    FieldSpec::block("requiredDuringSchedulingIgnoredDuringExecution",
                     "a NodeSelector: nodeSelectorTerms, ORed"),
    FieldSpec::block("preferredDuringSchedulingIgnoredDuringExecution",
                     "weighted terms the NodeAffinity score adds up"),
};

// NodeSelector.
inline constexpr std::array kKubeNodeSelectorFields{
    FieldSpec::block("nodeSelectorTerms", "terms, ORed"),
};

// NodeSelectorTerm.
inline constexpr std::array kKubeNodeSelectorTermFields{
    FieldSpec::block("matchExpressions", "over node labels, ANDed"),
    FieldSpec::block("matchFields", "over node fields (metadata.name), ANDed"),
};

// NodeSelectorRequirement and LabelSelectorRequirement (the same fields).
inline constexpr std::array kKubeRequirementFields{
    FieldSpec::text("key", "the label (or field) key"),
    FieldSpec::text("operator", "In, NotIn, Exists, DoesNotExist; Gt, Lt for node selectors"),
    FieldSpec::list("values", "In and NotIn: one or more; Gt and Lt: one integer"),
};

// PreferredSchedulingTerm.
inline constexpr std::array kKubePreferredSchedulingTermFields{
    FieldSpec::integer("weight", "1 to 100"),
    FieldSpec::block("preference", "a NodeSelectorTerm"),
};

// PodAffinity and PodAntiAffinity (the same fields).
inline constexpr std::array kKubePodAffinityFields{
    FieldSpec::block("requiredDuringSchedulingIgnoredDuringExecution",
                     "pod affinity terms a node must satisfy, ANDed"),
    FieldSpec::block("preferredDuringSchedulingIgnoredDuringExecution",
                     "weighted pod affinity terms the InterPodAffinity score adds up"),
};

// PodAffinityTerm.
inline constexpr std::array kKubePodAffinityTermFields{
    FieldSpec::block("labelSelector", "the pods; absent: none"),
    FieldSpec::list("namespaces", "their namespaces; default the pod's own"),
    FieldSpec::text("topologyKey", "the node label that makes a domain; required"),
    FieldSpec::block("namespaceSelector",
                     "namespaces by their labels (--namespaces); {} every namespace"),
    FieldSpec::list("matchLabelKeys", "the pod's own values of these keys, In"),
    FieldSpec::list("mismatchLabelKeys", "the pod's own values of these keys, NotIn"),
};

// WeightedPodAffinityTerm.
inline constexpr std::array kKubeWeightedPodAffinityTermFields{
    FieldSpec::integer("weight", "1 to 100"),
    FieldSpec::block("podAffinityTerm", "a PodAffinityTerm"),
};

// LabelSelector.
inline constexpr std::array kKubeLabelSelectorFields{
    FieldSpec::labels("matchLabels", "key: value pairs, ANDed"),
    FieldSpec::block("matchExpressions", "requirements, ANDed"),
};

// TopologySpreadConstraint.
inline constexpr std::array kKubeSpreadFields{
    FieldSpec::integer("maxSkew", "at least 1; required"),
    FieldSpec::text("topologyKey", "the node label that makes a domain; required"),
    FieldSpec::text("whenUnsatisfiable",
                    "DoNotSchedule (a filter) or ScheduleAnyway (a score); required"),
    FieldSpec::block("labelSelector", "the pods counted"),
    FieldSpec::integer("minDomains", "DoNotSchedule only; at least 1"),
    FieldSpec::text("nodeAffinityPolicy", "Honor (the default) or Ignore"),
    FieldSpec::text("nodeTaintsPolicy", "Ignore (the default) or Honor"),
    FieldSpec::list("matchLabelKeys", "the pod's own values of these keys join the selector"),
};

// ContainerPort.
inline constexpr std::array kKubeContainerPortFields{
    FieldSpec::text("name", "not used"),
    FieldSpec::integer("hostPort", "1 to 65535: the NodePorts filter's port"),
    FieldSpec::integer("containerPort", "not used"),
    FieldSpec::text("protocol", "TCP (the default), UDP or SCTP"),
    FieldSpec::text("hostIP", "default 0.0.0.0 (every address)"),
};

}  // namespace eruplan
