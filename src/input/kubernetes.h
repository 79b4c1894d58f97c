// Inventories and requests operators already have (SPEC §12): the JSON of
// `kubectl get nodes -o json` as an inventory, `kubectl get pods -A -o json`
// as the usage on it, and Deployment/StatefulSet/ReplicaSet/Pod manifests as
// requests. Objects are read by an allow-list of fields; every other field
// is left alone without a warning, even with --strict.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.h"
#include "load.h"
#include "model.h"

namespace eruplan {

// A Kubernetes quantity (decimals, exponents, the suffixes n u m "" k M G T P
// E and Ki..Ei), exactly: (-1)^negative x mantissa x 10^tens x 2^twos.
struct K8sQuantity {
  bool negative = false;
  std::uint64_t mantissa = 0;  // at most 19 significant digits
  std::int64_t tens = 0;
  int twos = 0;
};

// Parses Kubernetes' quantity grammar; nullopt and `error` when the text is
// not one.
std::optional<K8sQuantity> parse_k8s_quantity(std::string_view text, std::string& error);

// The quantity times 10^scale, rounded up to a whole number (as Kubernetes
// rounds Value() and MilliValue()): bytes with scale 0, nanocores with 9.
// nullopt and `error` when it is negative or beyond int64.
std::optional<std::int64_t> k8s_whole(std::string_view text, int scale, std::string& error);

struct PriorityClasses;  // priority_classes.h

// How -n is read (--nodes-format): by content, or forced.
enum class NodesFormat { Auto, Eruplan, Kubernetes };

struct KubernetesOptions {
  NodesFormat nodes_format = NodesFormat::Auto;
  std::string app_label;  // --app-label: replaces app.kubernetes.io/name and app
  // realloc (SPEC §11): each pod applied is also a workload of its node, id
  // "namespace/name", its requests as both request and limit.
  bool pods_as_workloads = false;
  // --replicas: a workload's desired total instead of its spec.replicas.
  std::optional<std::int64_t> replicas;
  // --namespace: the namespace of a manifest without metadata.namespace (as
  // kubectl apply -n); empty: "default".
  std::string manifest_namespace;
  // --priority-classes: priorityClassName resolved through these, Kubernetes'
  // built-in system classes, and the globalDefault class for workloads (and
  // pods without spec.priority) that name none. Null: the built-in ones only.
  std::shared_ptr<const PriorityClasses> priority_classes;
  // grow runs DaemonSets on the nodes it adds instead of planning them:
  // Apart (its -r) reads them into RequestSet::daemons, the list and the
  // request flags being the other manifests'; Only (--daemonsets) takes
  // DaemonSets alone (another kind is an error, none at all is fine).
  enum class DaemonSets { Requests, Apart, Only };
  DaemonSets daemonsets = DaemonSets::Requests;
  // --image-locality: a manifest's container images are read, so that
  // ImageLocality scores the nodes that list them (off: it scores 0).
  bool image_locality = false;
};

// What --pods says beyond the inventory's own pods (Inventory::pods), for
// the counts of workloads read from manifests (replicas as a desired total,
// a Job's succeeded pods, a Pod already bound).
struct PodCensus {
  struct Pod {
    std::string ns, name;
    Labels labels;
  };
  std::vector<Pod> elsewhere;  // bound, not Succeeded/Failed, on nodes not in the list
  std::vector<Pod> succeeded;  // phase Succeeded, bound or not
  // grow without DaemonSets of its own: each DaemonSet a running pod names
  // as its controller (metadata.ownerReferences), as a DaemonSet manifest's
  // request read from its first such pod; only when `want_daemons`.
  bool want_daemons = false;
  std::vector<Request> daemons;
};

// -n: an eruplan inventory (§2) or a Kubernetes NodeList/List of Nodes,
// detected from the top-level `kind` unless `format` forces one.
std::optional<Inventory> load_nodes(const Source& source, NodesFormat format, Diagnostics& diags);

// --pods: adds every bound pod that is not Succeeded/Failed to its node's
// usage and one instance of its app. False after reporting errors.
bool apply_pods(Inventory& inventory, const Source& pods, const KubernetesOptions& options,
                Diagnostics& diags, PodCensus* census = nullptr);
// --pods when given, as the commands read it: applied to the inventory (reset
// after errors), or with no inventory (-n had errors) still read, so that
// its problems are reported in the same run.
// `more`: further --pods files, read after `pods` in their order; a pod
// (namespace/name) met again counts once, the first time, with a warning
// naming both places.
// How a JSON pod list is read: a piece at a time, about `chunk_bytes` of
// the file in memory and one item's tree (as the commands read it), or
// whole (tests hold the two to the same result).
struct PodReading {
  bool streamed = true;
  std::size_t chunk_bytes = std::size_t{1} << 20;
  // One thread parses the file while another reads the pods (where 2 cores
  // are). Off by default: on the 2-vCPU bench machine handing each item's
  // text and tree to the other core cost 10% more CPU under load and up to
  // 65% more on a quiet machine, for no shorter wall time (README,
  // Performance). Tests run both ways.
  bool two_threads = false;
  std::size_t* read_whole = nullptr;  // when set, counts the files read whole (tests)
};
void load_pods(std::optional<Inventory>& inventory, const std::optional<Source>& pods,
               const KubernetesOptions& options, Diagnostics& diags, PodCensus* census = nullptr,
               std::span<const Source> more = {}, const PodReading& how = {});

// -r: when the file holds Kubernetes manifests (kind and apiVersion at the
// top), sets `matched` and reads them as requests; otherwise leaves `matched`
// false and returns nullopt without a diagnostic (the caller reads the file
// as an eruplan request).
std::optional<RequestSet> load_kubernetes_requests(
    const Source& source, const RequestOverrides& overrides, const KubernetesOptions& options,
    bool count_required, Diagnostics& diags, bool& matched, const Inventory* inventory = nullptr,
    const PodCensus* census = nullptr);

// --replicas with a request that is no Kubernetes workload (an eruplan
// request, or request flags alone): a warning that it is ignored, naming
// --count, so a script's flag cannot go unused silently.
void warn_replicas_unused(const KubernetesOptions& options, Diagnostics& diags);

}  // namespace eruplan
