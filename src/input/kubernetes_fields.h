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

#include "k8s_scheduling_fields.h"
#include "reader.h"

namespace eruplan {

// The root of a List (kubectl get nodes/pods -o json, or a List of
// manifests).
inline constexpr std::array kKubeListFields{
    FieldSpec::text("kind",
                    "-n's: List or NodeList (Node: one node); a manifest List's ends in List"),
    FieldSpec::block("items", "the Nodes, Pods or manifests"),
};

// A Node: an item of a node list, or the file's root.
inline constexpr std::array kKubeNodeFields{
    FieldSpec::text("kind", "Node; an item of another kind is an error"),
    FieldSpec::block("metadata", "the node's name and labels"),
    FieldSpec::block("spec", "unschedulable and taints"),
    FieldSpec::block("status", "allocatable"),
};

// metadata: of a Node, a Pod, a manifest or a pod template.
inline constexpr std::array kKubeMetadataFields{
    FieldSpec::text("name",
                    "the node's name, a pod's (after its namespace) or a manifest's request name"),
    FieldSpec::text("namespace", "a pod's: its id is namespace/name"),
    FieldSpec::labels("labels",
                      "a node's labels; a pod's or manifest's app (app.kubernetes.io/name, app)"),
    FieldSpec::text("generateName", "names an object that has no name"),
    FieldSpec::text("creationTimestamp",
                    "a manifest's or PodGroup's: --queue-sort coscheduling's order"),
};

// spec: of a Node.
inline constexpr std::array kKubeNodeSpecFields{
    FieldSpec::boolean("unschedulable", "true: the node is not available"),
    FieldSpec::block("taints", "the node's taints"),
};

// One of a Node's spec.taints.
inline constexpr std::array kKubeTaintFields{
    FieldSpec::text("key", "required"),
    FieldSpec::text("value", "the taint's value"),
    FieldSpec::text("effect", "NoSchedule, PreferNoSchedule or NoExecute"),
};

// status: of a Node.
inline constexpr std::array kKubeNodeStatusFields{
    FieldSpec::block("allocatable", "what the node offers, by resource name"),
    FieldSpec::block("images", "the images it holds: ImageLocality's scores"),
};

// One of a Node's status.images.
inline constexpr std::array kKubeNodeImageFields{
    FieldSpec::list("names", "the image's names (repository:tag, repository@digest)"),
    FieldSpec::integer("sizeBytes", "its size, what ImageLocality weighs"),
};

// The resource names of a Node's status.allocatable and of a container's
// requests and limits or a pod's overhead. Every other name is an extended
// resource, except hugepages-* (not modelled) and storage (eruplan's
// storage is ephemeral-storage).
inline constexpr std::array kKubeResourceFields{
    FieldSpec::quantity("cpu", "cores, exact (15890m binds 15 whole cores)"),
    FieldSpec::quantity("memory", "bytes of memory"),
    FieldSpec::quantity("ephemeral-storage", "bytes of eruplan's storage"),
    FieldSpec::quantity("pods", "in allocatable, the node's max_instances"),
};

// A Pod: an item of a pod list.
inline constexpr std::array kKubePodFields{
    FieldSpec::text("kind", "Pod; an item of another kind is an error"),
    FieldSpec::block("metadata", "the pod's name, namespace and labels"),
    FieldSpec::block("spec", "its node and its containers"),
    FieldSpec::block("status", "its phase"),
};

// status: of a Pod.
inline constexpr std::array kKubePodStatusFields{
    FieldSpec::text("phase", "Succeeded or Failed: the pod holds nothing"),
    FieldSpec::text("startTime", "when a running pod started"),
};

// A pod's spec: a running Pod's, a Pod manifest's or a pod template's.
inline constexpr std::array kKubePodSpecFields{
    FieldSpec::text("nodeName",
                    "the node a running pod is bound to; a Pod manifest's node_filter.nodes"),
    FieldSpec::block("containers", "their requests add up"),
    FieldSpec::block("initContainers",
                     "sidecars add up with the containers; the largest other counts alone"),
    FieldSpec::block("overhead", "added to the pod's request"),
    FieldSpec::labels("nodeSelector", "a manifest's node_filter.labels"),
    FieldSpec::block("tolerations", "a manifest's tolerations"),
    FieldSpec::block("affinity", "not modelled: a manifest gets a warning"),
    FieldSpec::integer("priority", "a running pod's priority"),
    FieldSpec::text("schedulerName", "a manifest's scheduler"),
    FieldSpec::text("preemptionPolicy", "Never: a manifest's pod never preempts"),
    FieldSpec::boolean("hostNetwork", "a DaemonSet's pods then tolerate network-unavailable too"),
    FieldSpec::text("priorityClassName",
                    "a manifest's priority (and a pod's without priority), by --priority-classes"),
    FieldSpec::block("resources",
                     "pod-level requests and limits: their cpu and memory replace the containers'"),
};

// One of a pod's containers or initContainers.
inline constexpr std::array kKubeContainerFields{
    FieldSpec::text("image", "ImageLocality: nodes that hold it score higher"),
    FieldSpec::block("resources", "its requests and limits"),
    FieldSpec::text("restartPolicy", "Always: an init container is a sidecar"),
};

// A container's resources.
inline constexpr std::array kKubeResourcesFields{
    FieldSpec::block("requests", "what the container requests, by resource"),
    FieldSpec::block("limits", "the request of a resource it has no request for"),
};

// A manifest: a Deployment, StatefulSet, ReplicaSet or Pod, a document of
// its own or an item of a List.
inline constexpr std::array kKubeManifestFields{
    FieldSpec::text("kind", "Deployment, StatefulSet, ReplicaSet, Pod or a List"),
    FieldSpec::text("apiVersion", "with kind, makes a document a manifest"),
    FieldSpec::block("metadata", "the request's name and the app's labels"),
    FieldSpec::block("spec", "a workload's spec, or a Pod's pod spec"),
};

// spec: of a Deployment, StatefulSet or ReplicaSet.
inline constexpr std::array kKubeWorkloadSpecFields{
    FieldSpec::integer("replicas", "the desired total (default 1); running pods count toward it"),
    FieldSpec::block("template", "the pod to place"),
    FieldSpec::block("selector",
                     "which running pods are the workload's (default: the template's labels)"),
    FieldSpec::integer("parallelism", "a Job's pods at once (default 1)"),
    FieldSpec::integer("completions", "a Job's pods to succeed in all"),
    FieldSpec::block("jobTemplate", "a CronJob's Job (metadata, spec)"),
};

// A workload's spec.selector and its matchExpressions: kKubeLabelSelectorFields
// and kKubeRequirementFields (k8s_scheduling_fields.h; a ReplicationController's
// selector is a plain map of labels instead).

// spec.template: of a Deployment, StatefulSet or ReplicaSet.
inline constexpr std::array kKubeTemplateFields{
    FieldSpec::block("metadata", "labels: the app, before the manifest's own"),
    FieldSpec::block("spec", "the pod spec (required)"),
};

// One of a manifest's pod spec tolerations.
inline constexpr std::array kKubeTolerationFields{
    FieldSpec::text("key", "the taint key (empty: operator Exists)"),
    FieldSpec::text("operator", "Equal (the default) or Exists"),
    FieldSpec::text("value", "the taint value, for Equal"),
    FieldSpec::text("effect", "the effect tolerated (empty: every one)"),
};

// spec: of a PodGroup (scheduler-plugins' coscheduling,
// scheduling.x-k8s.io/v1alpha1): the group's minimum in pods.
inline constexpr std::array kKubePodGroupSpecFields{
    FieldSpec::integer("minMember",
                       "a PodGroup's minimum in pods, running ones counting (required, >= 1)"),
};

// An object's kind is looked up before its type is known (which list, a
// single Node, a manifest or not): every such table has a kind row.
static_assert(has_field(kKubeListFields, "kind") && has_field(kKubeNodeFields, "kind") &&
              has_field(kKubePodFields, "kind") && has_field(kKubeManifestFields, "kind"));

}  // namespace eruplan
