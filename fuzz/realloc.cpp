// Fuzz target: `realloc`: nodes, the realloc file and optionally a
// Kubernetes pod list (each running pod then a workload), split at "%%"
// lines. The selector byte picks --atomic, the output format and
// --save-inventory. Any run ends with 0, 3 or 4, and a successful JSON run
// prints JSON that parses.
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common.h"
#include "realloc_command.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eruplan;
  auto [selector, text] = fuzz::split_input(data, size);
  std::vector<std::string> parts = fuzz::split_parts(text, 3);
  ReallocOptions options;
  options.atomic = (selector & 1) != 0;
  options.output = fuzz::output_for(static_cast<std::uint8_t>(selector >> 1));
  if (selector & 8) options.save_inventory = OutputFormat::Yaml;
  options.nodes = Source{"nodes.yaml", std::move(parts[0])};
  options.request = Source{"realloc.yaml", std::move(parts[1])};
  if (!parts[2].empty()) options.pods = Source{"pods.json", std::move(parts[2])};
  const ReallocRun r = run_realloc(options);
  if (r.exit != ExitCode::Ok && r.exit != ExitCode::Invalid && r.exit != ExitCode::Infeasible)
    std::abort();
  if (r.exit == ExitCode::Ok && options.output == OutputFormat::Json &&
      !nlohmann::json::accept(r.out))
    std::abort();
  return 0;
}
