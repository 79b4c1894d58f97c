// The Kubernetes API's field names (v1.35) of the types whose objects
// eruplan reads from a manifest (SPEC §15): every field the API defines
// for the type, whether eruplan uses it or not. A manifest's key that is
// not in its type's list is a misspelling: an unknown field with a "did you
// mean" (an error by default, a warning with --lenient). The fields eruplan
// reads and what it makes of them are kubernetes_fields.h's tables; these
// lists only say which names exist. Affinity, topology spread constraints
// and container ports are checked by their whole tables in
// kubernetes_fields.h.
#pragma once

#include <array>
#include <span>
#include <string_view>

namespace eruplan::k8s_api {

using Names = std::span<const std::string_view>;

// Any object: TypeMeta, its metadata, spec and status.
inline constexpr std::array<std::string_view, 5> kObject{"apiVersion", "kind", "metadata", "spec",
                                                         "status"};

// ObjectMeta.
inline constexpr std::array<std::string_view, 15> kObjectMeta{"name",
                                                              "generateName",
                                                              "namespace",
                                                              "selfLink",
                                                              "uid",
                                                              "resourceVersion",
                                                              "generation",
                                                              "creationTimestamp",
                                                              "deletionTimestamp",
                                                              "deletionGracePeriodSeconds",
                                                              "labels",
                                                              "annotations",
                                                              "ownerReferences",
                                                              "finalizers",
                                                              "managedFields"};

// PodTemplateSpec, and a CronJob's JobTemplateSpec (the same two fields).
inline constexpr std::array<std::string_view, 2> kTemplate{"metadata", "spec"};

// PodSpec.
inline constexpr std::array<std::string_view, 42> kPodSpec{
    "volumes",
    "initContainers",
    "containers",
    "ephemeralContainers",
    "restartPolicy",
    "terminationGracePeriodSeconds",
    "activeDeadlineSeconds",
    "dnsPolicy",
    "nodeSelector",
    "serviceAccountName",
    "serviceAccount",
    "automountServiceAccountToken",
    "nodeName",
    "hostNetwork",
    "hostPID",
    "hostIPC",
    "shareProcessNamespace",
    "securityContext",
    "imagePullSecrets",
    "hostname",
    "subdomain",
    "affinity",
    "schedulerName",
    "tolerations",
    "hostAliases",
    "priorityClassName",
    "priority",
    "dnsConfig",
    "readinessGates",
    "runtimeClassName",
    "enableServiceLinks",
    "preemptionPolicy",
    "overhead",
    "topologySpreadConstraints",
    "setHostnameAsFQDN",
    "os",
    "hostUsers",
    "schedulingGates",
    "resourceClaims",
    "resources",
    "hostnameOverride",
    "workloadRef",
};

// Container (containers and initContainers).
inline constexpr std::array<std::string_view, 25> kContainer{
    "name",
    "image",
    "command",
    "args",
    "workingDir",
    "ports",
    "envFrom",
    "env",
    "resources",
    "resizePolicy",
    "restartPolicy",
    "restartPolicyRules",
    "volumeMounts",
    "volumeDevices",
    "livenessProbe",
    "readinessProbe",
    "startupProbe",
    "lifecycle",
    "terminationMessagePath",
    "terminationMessagePolicy",
    "imagePullPolicy",
    "securityContext",
    "stdin",
    "stdinOnce",
    "tty",
};

// ResourceRequirements (a container's resources; the pod's own resources).
inline constexpr std::array<std::string_view, 3> kResources{"limits", "requests", "claims"};

// Toleration.
inline constexpr std::array<std::string_view, 5> kToleration{"key", "operator", "value", "effect",
                                                             "tolerationSeconds"};

// The workload specs, by kind.
inline constexpr std::array<std::string_view, 8> kDeploymentSpec{
    "replicas",        "selector",
    "template",        "strategy",
    "minReadySeconds", "revisionHistoryLimit",
    "paused",          "progressDeadlineSeconds"};
inline constexpr std::array<std::string_view, 4> kReplicaSetSpec{"replicas", "minReadySeconds",
                                                                 "selector", "template"};
// ReplicationControllerSpec has the same four fields.
inline constexpr std::array<std::string_view, 11> kStatefulSetSpec{
    "replicas",        "selector",
    "template",        "volumeClaimTemplates",
    "serviceName",     "podManagementPolicy",
    "updateStrategy",  "revisionHistoryLimit",
    "minReadySeconds", "persistentVolumeClaimRetentionPolicy",
    "ordinals",
};
inline constexpr std::array<std::string_view, 5> kDaemonSetSpec{
    "selector", "template", "updateStrategy", "minReadySeconds", "revisionHistoryLimit"};
inline constexpr std::array<std::string_view, 16> kJobSpec{
    "parallelism",
    "completions",
    "activeDeadlineSeconds",
    "podFailurePolicy",
    "successPolicy",
    "backoffLimit",
    "backoffLimitPerIndex",
    "maxFailedIndexes",
    "selector",
    "manualSelector",
    "template",
    "ttlSecondsAfterFinished",
    "completionMode",
    "suspend",
    "podReplacementPolicy",
    "managedBy",
};
inline constexpr std::array<std::string_view, 8> kCronJobSpec{
    "schedule", "timeZone",    "startingDeadlineSeconds",    "concurrencyPolicy",
    "suspend",  "jobTemplate", "successfulJobsHistoryLimit", "failedJobsHistoryLimit",
};

// --namespaces (load_namespaces.cpp).
// NamespaceList, and a plain List: TypeMeta, ListMeta, items.
inline constexpr std::array<std::string_view, 4> kNamespaceList{"apiVersion", "kind", "metadata",
                                                                "items"};
// ListMeta.
inline constexpr std::array<std::string_view, 4> kListMeta{"selfLink", "resourceVersion",
                                                           "continue", "remainingItemCount"};
// NamespaceSpec and NamespaceStatus.
inline constexpr std::array<std::string_view, 1> kNamespaceSpec{"finalizers"};
inline constexpr std::array<std::string_view, 2> kNamespaceStatus{"phase", "conditions"};

// NodeSpec, Taint and NodeStatus (kubectl get nodes).
inline constexpr std::array<std::string_view, 7> kNodeSpec{
    "podCIDR", "podCIDRs", "providerID", "unschedulable", "taints", "configSource", "externalID"};
inline constexpr std::array<std::string_view, 4> kTaint{"key", "value", "effect", "timeAdded"};
inline constexpr std::array<std::string_view, 14> kNodeStatus{
    "capacity",        "allocatable", "phase",           "conditions",      "addresses",
    "daemonEndpoints", "nodeInfo",    "images",          "volumesInUse",    "volumesAttached",
    "config",          "features",    "runtimeHandlers", "declaredFeatures"};

// PodStatus (kubectl get pods).
inline constexpr std::array<std::string_view, 18> kPodStatus{"observedGeneration",
                                                             "phase",
                                                             "conditions",
                                                             "message",
                                                             "reason",
                                                             "nominatedNodeName",
                                                             "hostIP",
                                                             "hostIPs",
                                                             "podIP",
                                                             "podIPs",
                                                             "startTime",
                                                             "initContainerStatuses",
                                                             "containerStatuses",
                                                             "qosClass",
                                                             "ephemeralContainerStatuses",
                                                             "resize",
                                                             "resourceClaimStatuses",
                                                             "extendedResourceClaimStatus"};

// PriorityClass (it has no spec: its fields are the object's own).
inline constexpr std::array<std::string_view, 7> kPriorityClass{
    "apiVersion", "kind", "metadata", "value", "globalDefault", "description", "preemptionPolicy"};

// PodDisruptionBudgetSpec and PodDisruptionBudgetStatus.
inline constexpr std::array<std::string_view, 4> kPdbSpec{
    "minAvailable", "selector", "maxUnavailable", "unhealthyPodEvictionPolicy"};
inline constexpr std::array<std::string_view, 7> kPdbStatus{
    "observedGeneration", "disruptedPods", "disruptionsAllowed", "currentHealthy",
    "desiredHealthy",     "expectedPods",  "conditions"};

// Every table above, for the lookup index check_api_fields keeps per table.
inline constexpr std::array<Names, 24> kAllTables{
    kObject,      kObjectMeta,     kTemplate,       kPodSpec,         kContainer,       kResources,
    kToleration,  kDeploymentSpec, kReplicaSetSpec, kStatefulSetSpec, kDaemonSetSpec,   kJobSpec,
    kCronJobSpec, kNamespaceList,  kListMeta,       kNamespaceSpec,   kNamespaceStatus, kNodeSpec,
    kTaint,       kNodeStatus,     kPodStatus,      kPriorityClass,   kPdbSpec,         kPdbStatus};

// The spec of a pod-carrying kind (a Pod's is its PodSpec); empty for
// another kind.
constexpr Names workload_spec(std::string_view kind) {
  if (kind == "Deployment") return kDeploymentSpec;
  if (kind == "ReplicaSet" || kind == "ReplicationController") return kReplicaSetSpec;
  if (kind == "StatefulSet") return kStatefulSetSpec;
  if (kind == "DaemonSet") return kDaemonSetSpec;
  if (kind == "Job") return kJobSpec;
  if (kind == "CronJob") return kCronJobSpec;
  if (kind == "Pod") return kPodSpec;
  return {};
}

}  // namespace eruplan::k8s_api
