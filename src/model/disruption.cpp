// PodDisruptionBudgets (disruption.h).
#include "disruption.h"

namespace eruplan {

bool PodDisruptionBudget::covers(const std::string& pod_ns, const Labels& labels) const {
  // A pod without labels, a budget of another namespace, and a budget with
  // no or an empty selector cover nothing.
  if (labels.empty() || pod_ns != ns || !has_selector || selector.requirements.empty())
    return false;
  return selector.matches(labels);
}

}  // namespace eruplan
