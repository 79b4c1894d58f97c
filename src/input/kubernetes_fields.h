// The Kubernetes objects eruplan reads (SPEC §12), each field described once:
// the node list (-n), the pod list (--pods) and the workload manifests (-r)
// pick their fields out of these tables, and the man page's KUBERNETES
// INPUTS section is checked against them (tests/fields_test). A reader
// names the fields it takes (Picked, reader.h), checked when compiled.
//
// Unlike eruplan's own schemas, these tables are allow-lists, not the whole
// schema: every field a table lacks is the Kubernetes API's (managedFields,
// status.conditions, images, ...), not a typo, and is skipped without a
// word, also under --strict. Only a field a table has, given twice, is an
// error. A reader may take just some rows of a table (a running pod's spec
// is read for nodeName and the request, not for nodeSelector); the rows it
// does not take are then ignored as silently.
#pragma once

#include <array>
#include <cstddef>

#include "k8s_scheduling_fields.h"
#include "reader.h"

namespace eruplan {

// The root of a List (kubectl get nodes/pods -o json, or a List of
// manifests).
inline constexpr std::array kKubeListFields{
    FieldSpec{"kind", FieldKind::Text, "",
              "-n's: List or NodeList (Node: one node); a manifest List's ends in List"},
    FieldSpec{"items", FieldKind::Block, "", "the Nodes, Pods or manifests"},
};

// A Node: an item of a node list, or the file's root.
inline constexpr std::array kKubeNodeFields{
    FieldSpec{"kind", FieldKind::Text, "", "Node; an item of another kind is an error"},
    FieldSpec{"metadata", FieldKind::Block, "", "the node's name and labels"},
    FieldSpec{"spec", FieldKind::Block, "", "unschedulable and taints"},
    FieldSpec{"status", FieldKind::Block, "", "allocatable"},
};

// metadata: of a Node, a Pod, a manifest or a pod template.
inline constexpr std::array kKubeMetadataFields{
    FieldSpec{"name", FieldKind::Text, "",
              "the node's name, a pod's (after its namespace) or a manifest's request name"},
    FieldSpec{"namespace", FieldKind::Text, "", "a pod's: its id is namespace/name"},
    FieldSpec{"labels", FieldKind::Labels, "",
              "a node's labels; a pod's or manifest's app (app.kubernetes.io/name, app)"},
    FieldSpec{"generateName", FieldKind::Text, "", "names an object that has no name"},
    FieldSpec{"creationTimestamp", FieldKind::Text, "",
              "a manifest's or PodGroup's: --queue-sort coscheduling's order"},
};

// spec: of a Node.
inline constexpr std::array kKubeNodeSpecFields{
    FieldSpec{"unschedulable", FieldKind::Bool, "", "true: the node is not available"},
    FieldSpec{"taints", FieldKind::Block, "", "the node's taints"},
};

// One of a Node's spec.taints.
inline constexpr std::array kKubeTaintFields{
    FieldSpec{"key", FieldKind::Text, "", "required"},
    FieldSpec{"value", FieldKind::Text, "", "the taint's value"},
    FieldSpec{"effect", FieldKind::Text, "", "NoSchedule, PreferNoSchedule or NoExecute"},
};

// status: of a Node.
inline constexpr std::array kKubeNodeStatusFields{
    FieldSpec{"allocatable", FieldKind::Block, "", "what the node offers, by resource name"},
};

// The resource names of a Node's status.allocatable and of a container's
// requests and limits or a pod's overhead. Every other name is an extended
// resource, except hugepages-* (not modelled) and storage (eruplan's
// storage is ephemeral-storage).
inline constexpr std::array kKubeResourceFields{
    FieldSpec{"cpu", FieldKind::Quantity, "", "cores, exact (15890m binds 15 whole cores)"},
    FieldSpec{"memory", FieldKind::Quantity, "", "bytes of memory"},
    FieldSpec{"ephemeral-storage", FieldKind::Quantity, "", "bytes of eruplan's storage"},
    FieldSpec{"pods", FieldKind::Quantity, "", "in allocatable, the node's max_instances"},
};

// A Pod: an item of a pod list.
inline constexpr std::array kKubePodFields{
    FieldSpec{"kind", FieldKind::Text, "", "Pod; an item of another kind is an error"},
    FieldSpec{"metadata", FieldKind::Block, "", "the pod's name, namespace and labels"},
    FieldSpec{"spec", FieldKind::Block, "", "its node and its containers"},
    FieldSpec{"status", FieldKind::Block, "", "its phase"},
};

// status: of a Pod.
inline constexpr std::array kKubePodStatusFields{
    FieldSpec{"phase", FieldKind::Text, "", "Succeeded or Failed: the pod holds nothing"},
    FieldSpec{"startTime", FieldKind::Text, "", "when a running pod started"},
};

// A pod's spec: a running Pod's, a Pod manifest's or a pod template's.
inline constexpr std::array kKubePodSpecFields{
    FieldSpec{"nodeName", FieldKind::Text, "",
              "the node a running pod is bound to; a Pod manifest's node_filter.nodes"},
    FieldSpec{"containers", FieldKind::Block, "", "their requests add up"},
    FieldSpec{"initContainers", FieldKind::Block, "",
              "sidecars add up with the containers; the largest other counts alone"},
    FieldSpec{"overhead", FieldKind::Block, "", "added to the pod's request"},
    FieldSpec{"nodeSelector", FieldKind::Labels, "", "a manifest's node_filter.labels"},
    FieldSpec{"tolerations", FieldKind::Block, "", "a manifest's tolerations"},
    FieldSpec{"affinity", FieldKind::Block, "", "not modelled: a manifest gets a warning"},
    FieldSpec{"priority", FieldKind::Integer, "", "a running pod's priority"},
    FieldSpec{"schedulerName", FieldKind::Text, "", "a manifest's scheduler"},
    FieldSpec{"preemptionPolicy", FieldKind::Text, "", "Never: a manifest's pod never preempts"},
    FieldSpec{"hostNetwork", FieldKind::Bool, "",
              "a DaemonSet's pods then tolerate network-unavailable too"},
    FieldSpec{"priorityClassName", FieldKind::Text, "",
              "a manifest's priority (and a pod's without priority), by --priority-classes"},
};

// One of a pod's containers or initContainers.
inline constexpr std::array kKubeContainerFields{
    FieldSpec{"resources", FieldKind::Block, "", "its requests and limits"},
    FieldSpec{"restartPolicy", FieldKind::Text, "", "Always: an init container is a sidecar"},
};

// A container's resources.
inline constexpr std::array kKubeResourcesFields{
    FieldSpec{"requests", FieldKind::Block, "", "what the container requests, by resource"},
    FieldSpec{"limits", FieldKind::Block, "", "the request of a resource it has no request for"},
};

// A manifest: a Deployment, StatefulSet, ReplicaSet or Pod, a document of
// its own or an item of a List.
inline constexpr std::array kKubeManifestFields{
    FieldSpec{"kind", FieldKind::Text, "", "Deployment, StatefulSet, ReplicaSet, Pod or a List"},
    FieldSpec{"apiVersion", FieldKind::Text, "", "with kind, makes a document a manifest"},
    FieldSpec{"metadata", FieldKind::Block, "", "the request's name and the app's labels"},
    FieldSpec{"spec", FieldKind::Block, "", "a workload's spec, or a Pod's pod spec"},
};

// spec: of a Deployment, StatefulSet or ReplicaSet.
inline constexpr std::array kKubeWorkloadSpecFields{
    FieldSpec{"replicas", FieldKind::Integer, "",
              "the desired total (default 1); running pods count toward it"},
    FieldSpec{"template", FieldKind::Block, "", "the pod to place"},
    FieldSpec{"selector", FieldKind::Block, "",
              "which running pods are the workload's (default: the template's labels)"},
    FieldSpec{"parallelism", FieldKind::Integer, "", "a Job's pods at once (default 1)"},
    FieldSpec{"completions", FieldKind::Integer, "", "a Job's pods to succeed in all"},
    FieldSpec{"jobTemplate", FieldKind::Block, "", "a CronJob's Job (metadata, spec)"},
};

// A workload's spec.selector and its matchExpressions: kKubeLabelSelectorFields
// and kKubeRequirementFields (k8s_scheduling_fields.h; a ReplicationController's
// selector is a plain map of labels instead).

// spec.template: of a Deployment, StatefulSet or ReplicaSet.
inline constexpr std::array kKubeTemplateFields{
    FieldSpec{"metadata", FieldKind::Block, "", "labels: the app, before the manifest's own"},
    FieldSpec{"spec", FieldKind::Block, "", "the pod spec (required)"},
};

// One of a manifest's pod spec tolerations.
inline constexpr std::array kKubeTolerationFields{
    FieldSpec{"key", FieldKind::Text, "", "the taint key (empty: operator Exists)"},
    FieldSpec{"operator", FieldKind::Text, "", "Equal (the default) or Exists"},
    FieldSpec{"value", FieldKind::Text, "", "the taint value, for Equal"},
    FieldSpec{"effect", FieldKind::Text, "", "the effect tolerated (empty: every one)"},
};

// spec: of a PodGroup (scheduler-plugins' coscheduling,
// scheduling.x-k8s.io/v1alpha1): the group's minimum in pods.
inline constexpr std::array kKubePodGroupSpecFields{
    FieldSpec{"minMember", FieldKind::Integer, "",
              "a PodGroup's minimum in pods, running ones counting (required, >= 1)"},
};

// An object's kind is looked up before its type is known (which list, a
// single Node, a manifest or not): every such table has a kind row.
static_assert(has_field(kKubeListFields, "kind") && has_field(kKubeNodeFields, "kind") &&
              has_field(kKubePodFields, "kind") && has_field(kKubeManifestFields, "kind"));

}  // namespace eruplan
