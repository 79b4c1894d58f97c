// Taints, SPEC §9: a NoSchedule or NoExecute taint that no toleration of the
// request matches keeps the node out, for every strategy. As kube-scheduler
// does, the reason names the first such taint in the node's order.
#include "capacity.h"

namespace eruplan {

std::string taint_text(const Taint& taint) {
  return taint.key + (taint.value.empty() ? "" : "=" + taint.value) + ":" + taint.effect;
}

const Taint* untolerated_taint(const Node& node, const Request& request) {
  for (const Taint& taint : node.taints) {
    if (taint.effect == "PreferNoSchedule") continue;
    bool tolerated = false;
    for (const Toleration& t : request.tolerations) tolerated = tolerated || t.tolerates(taint);
    if (!tolerated) return &taint;
  }
  return nullptr;
}

DimensionResult taint_dimension(const DimensionInput& in) {
  DimensionResult result;
  if (const Taint* taint = untolerated_taint(in.node, in.request))
    result.stop(Reason::words("taint", taint_text(*taint) + " not tolerated"));
  return result;
}

}  // namespace eruplan
