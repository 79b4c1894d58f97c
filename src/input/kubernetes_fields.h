// The Kubernetes objects eruplan reads (SPEC §12), each field described once:
// the node list (-n), the pod list (--pods), the workload manifests (-r)
// with their pod specs' scheduling fields, --namespaces, --pdbs and
// --priority-classes pick their fields out of these tables, and the man
// page's KUBERNETES INPUTS section is checked against them
// (tests/fields_test). A reader names the fields it takes (Picked,
// reader.h), checked when compiled.
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
    FieldSpec::text("deletionTimestamp",
                    "a running pod's: terminating, it counts for no topology spread"),
    FieldSpec::block("ownerReferences",
                     "a running pod's: a DaemonSet's pods tell grow the DaemonSets it runs"),
};

// One of a running pod's metadata.ownerReferences.
inline constexpr std::array kKubeOwnerReferenceFields{
    FieldSpec::text("kind", "DaemonSet: the pod is one of a DaemonSet's"),
    FieldSpec::text("name", "the DaemonSet's name"),
    FieldSpec::text("controller", "true: the owner that manages the pod"),
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
    FieldSpec::block("containerStatuses",
                     "a container's resources as the node runs them, during an in-place resize"),
    FieldSpec::block("initContainerStatuses", "the same for sidecar init containers"),
    FieldSpec::block("conditions", "PodResizePending with reason Infeasible"),
};

// One of a running pod's containerStatuses or initContainerStatuses.
inline constexpr std::array kKubeContainerStatusFields{
    FieldSpec::text("name", "the container it reports on"),
    FieldSpec::block("resources", "requests: what the node runs the container with"),
    FieldSpec::block("allocatedResources", "what the node has set aside for it"),
};

// One of a running pod's status.conditions.
inline constexpr std::array kKubePodConditionFields{
    FieldSpec::text("type", "PodResizePending"),
    FieldSpec::text("reason", "Infeasible: the resize will not happen"),
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
    FieldSpec::text("name", "matched with the pod's containerStatuses"),
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
    FieldSpec::boolean("suspend", "a Job's or CronJob's: true places no pods until resumed"),
};

// A workload's spec.selector and its matchExpressions: kKubeLabelSelectorFields
// and kKubeRequirementFields (below; a ReplicationController's selector is a
// plain map of labels instead).

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

// --- The scheduling fields of a pod spec (affinity, topology spread,
// container ports): unlike the allow-lists above, these tables hold every
// field the API defines for their types, so a name they lack is a
// misspelling, an unknown field with a "did you mean" (k8s_scheduling.cpp).

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

// --- Namespaces (--namespaces: kubectl get namespaces -o json or -o yaml).
// Their keys are also checked against the API's names
// (kubernetes_api_fields.h), so a misspelt key is an unknown field.

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

// --- PodDisruptionBudgets (--pdbs: kubectl get pdb -A -o json).

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

// --- PriorityClasses (--priority-classes: kubectl get priorityclasses -o
// json or -o yaml).

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

// An object's kind is looked up before its type is known (which list, a
// single Node, a manifest or not): every such table has a kind row.
static_assert(has_field(kKubeListFields, "kind") && has_field(kKubeNodeFields, "kind") &&
              has_field(kKubePodFields, "kind") && has_field(kKubeManifestFields, "kind"));

}  // namespace eruplan
