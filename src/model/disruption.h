// PodDisruptionBudgets (kubectl get pdb -A -o json) as preemption reads
// them: which pods each covers and how many of them may still be disrupted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pods.h"

namespace eruplan {

struct PodDisruptionBudget {
  std::string ns = "default";
  std::string name;
  // spec.selector; absent or empty `{}` matches no pod (as Kubernetes'
  // preemption reads a budget).
  LabelSelector selector;
  bool has_selector = false;
  std::int32_t disruptions_allowed = 0;     // status.disruptionsAllowed
  std::vector<std::string> disrupted_pods;  // status.disruptedPods' names, sorted

  // The budget covers a pod of namespace `ns` with these labels.
  bool covers(const std::string& pod_ns, const Labels& labels) const;
};

}  // namespace eruplan
