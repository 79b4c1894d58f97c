// A pod spec's scheduling fields (nodeSelector, affinity, topology spread
// constraints, host ports, nodeName, schedulerName) into PodScheduling, for a
// manifest's pod (Request::pod) and for a running pod (RunningPod::scheduling).
// The field tables are k8s_scheduling_fields.h.
#pragma once

#include <memory>

#include "model.h"
#include "reader.h"

namespace eruplan {

// Fills `out`'s node_selector, node_affinity, affinity, anti_affinity,
// spread, host_ports, node_name and scheduler_name from the pod spec at
// `spec` (kNoValue: nothing). Reads `out.labels` for matchLabelKeys, so
// fill them first. Problems go to the reader's diagnostics. True when the
// pod has any of these fields (a running pod then keeps them).
bool read_pod_scheduling(Reader& r, const FieldPath& spec_path, ValueId spec, PodScheduling& out);
// The images of its init containers and containers (PodScheduling::images),
// a new pod's only: ImageLocality scores the pod to place.
void read_pod_images(Reader& r, const FieldPath& spec_path, ValueId spec, PodScheduling& out);

// A metav1.LabelSelector (matchLabels, matchExpressions with In, NotIn,
// Exists, DoesNotExist), or with `plain_map` a map of labels (a
// ReplicationController's selector). Problems go to the reader's
// diagnostics; nullopt when `v` is absent or not a mapping.
std::optional<LabelSelector> read_label_selector(Reader& r, const FieldPath& path, ValueId v,
                                                 bool plain_map = false);

// Warnings for what a manifest's pod uses that eruplan does not model, each
// once: PersistentVolumeClaims (volumes or a StatefulSet's
// volumeClaimTemplates), dynamic resource claims, scheduling gates, and a
// schedulerName other than default-scheduler. `object_spec` is the object's
// own spec, `spec` the pod's.
void note_unmodelled(Reader& r, const FieldPath& object_spec_path, ValueId object_spec,
                     const FieldPath& spec_path, ValueId spec, const PodScheduling& pod);

}  // namespace eruplan
