// Fuzz target: `share` (fair share): nodes, the apps file and optionally a
// Kubernetes pod list, split at "%%" lines. The selector byte picks the
// output format and --save-inventory. Any run ends with a documented exit
// code (0, 3 or 4), a successful JSON run prints JSON that parses, and the
// saved inventory, when written, is read back as an inventory.
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eruplan;
  auto [selector, text] = fuzz::split_input(data, size);
  std::vector<std::string> parts = fuzz::split_parts(text, 3);
  RunOptions options;
  options.command = Command::Share;
  options.output = fuzz::output_for(selector);
  if (selector & 4) options.save_inventory = OutputFormat::Json;
  options.nodes = Source{"nodes.yaml", std::move(parts[0])};
  options.request = Source{"apps.yaml", std::move(parts[1])};
  if (!parts[2].empty()) options.pods = Source{"pods.json", std::move(parts[2])};
  const RunResult r = run(options);
  if (r.exit != ExitCode::Ok && r.exit != ExitCode::Invalid && r.exit != ExitCode::Infeasible)
    std::abort();
  if (r.exit == ExitCode::Ok && options.output == OutputFormat::Json &&
      !nlohmann::json::accept(r.out))
    std::abort();
  if (r.saved_inventory && !nlohmann::json::accept(*r.saved_inventory)) std::abort();
  return 0;
}
