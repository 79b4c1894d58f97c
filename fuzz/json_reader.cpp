// Fuzz target: eruplan's JSON reader against nlohmann on any bytes: the
// same tree, or both refuse at the same token (tests/json_reference.h says
// exactly what agreeing means).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "json_reference.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const eruplan::reference::Agreement agreement = eruplan::reference::compare(text);
  if (agreement.problem.empty()) return 0;
  std::fprintf(stderr, "%s\n", agreement.problem.c_str());
  std::abort();
}
