// --pdbs FILE: PodDisruptionBudgets (kubectl get pdb -A -o json), which
// steer preemption's choice of victims (SPEC §17).
#pragma once

#include <optional>
#include <vector>

#include "diagnostics.h"
#include "disruption.h"
#include "load.h"

namespace eruplan {

// The budgets of a List / PodDisruptionBudgetList (or one budget), in file
// order; nullopt after reporting errors (file, line:col, field path).
std::optional<std::vector<PodDisruptionBudget>> load_pdbs(const Source& source, Diagnostics& diags);

}  // namespace eruplan
