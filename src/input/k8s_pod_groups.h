// Pod groups (SPEC §17): the coscheduling labels of a pod or pod template
// and PodGroup objects of a -r stream, turned into one §8.4 group per
// pod-group name with its minimum in pods. Internal to the input layer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model.h"
#include "pods.h"
#include "reader.h"

namespace eruplan::k8s {

// scheduler-plugins' coscheduling label, and the older lightweight
// coscheduling's name and min-available labels.
inline constexpr std::string_view kPodGroupLabel = "scheduling.x-k8s.io/pod-group";
inline constexpr std::string_view kPodGroupNameLabel = "pod-group.scheduling.sigs.k8s.io/name";
inline constexpr std::string_view kPodGroupMinLabel =
    "pod-group.scheduling.sigs.k8s.io/min-available";

// A pod's group as its labels name it.
struct PodGroupLabels {
  std::string name;
  std::int64_t min = 0;  // min-available; 0 = not given
};

// The group named by the labels mapping `labels` (at `path`: a pod's or
// template's metadata.labels); nullopt when none. A min-available that is
// not a positive integer is an error.
std::optional<PodGroupLabels> read_pod_group_labels(Reader& r, const FieldPath& path,
                                                    ValueId labels);

// The group a running pod's labels name, or empty.
std::string_view pod_group_name(const Labels& labels);

// A PodGroup object: namespace, name, spec.minMember (required, >= 1) and
// metadata.creationTimestamp (none for a PodGroup not created yet).
struct PodGroupObject {
  std::string ns = "default", name;
  std::int64_t min_member = 0;
  std::optional<std::int64_t> created;  // microseconds since the epoch
};
std::optional<PodGroupObject> read_pod_group(Reader& r, const FieldPath& path, ValueId v);

// One request's group as read: its namespace and labels.
struct PodGroupMember {
  std::string ns;
  std::optional<PodGroupLabels> labels;
};

// Sets group, group_min and group_running on every request whose member
// entry names a group (members parallel to requests): the minimum is the
// PodGroup object's of that namespace and name, else the largest
// min-available of its members, else none; running counts the pods of
// `running` (namespace, labels) that name the group. A member of a PodGroup
// object takes its creation time (coscheduling's queue order).
struct RunningLabels {
  const std::string* ns;
  const Labels* labels;
};
void apply_pod_groups(std::vector<Request>& requests, const std::vector<PodGroupMember>& members,
                      const std::vector<PodGroupObject>& objects,
                      const std::vector<RunningLabels>& running);

}  // namespace eruplan::k8s
