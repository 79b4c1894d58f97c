// CPU, SPEC §4 and §8.2. With cpu_bind: the core plans (cpu_plans.cpp).
// Without, Eru's memory mode lets CPU oversell: the request only has to fit
// the node's CPU; CPU fit (score, share, cpu_fit: true) also divides what is
// left of it, as Kubernetes does.
#include "capacity.h"

namespace eruplan {

DimensionResult cpu_dimension(const DimensionInput& in) {
  const Node& node = in.node;
  const Request& request = in.request;
  if (request.cpu_bind) {
    if (in.core_fit != nullptr) return cpu_plans_fit_one(node, in.inventory, request, *in.core_fit);
    DimensionResult plans = cpu_plans_dimension(node, in.inventory, request, in.max_plans);
    plans.capacity = std::min(plans.capacity, kUnlimited - 1);  // binding is always finite
    return plans;
  }
  DimensionResult result;
  const NanoCores cpu = node.cpu_total();
  if (request.cpu > cpu) {
    const bool whole = cpu % kNanoPerCore == 0;
    result.stop(Reason::words("cpu", format_cores(request.cpu) + " cores per instance, node has " +
                                         format_cores(cpu) +
                                         (whole && cpu == kNanoPerCore ? " core" : " cores")));
    return result;
  }
  if (request.uses_cpu_fit())
    return divide("cpu", Quantity::Cores, cpu - node.cpu_used, request.cpu);
  return result;
}

}  // namespace eruplan
