// Fuzz target: `plan` and `apply` with several requests (a `requests:` list:
// priorities, gangs, min_count, names), nodes and requests split at a "%%"
// line. The selector byte picks the command, --atomic and the output format.
// Any run ends with a documented exit code, and a successful JSON run prints
// JSON that parses.
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eruplan;
  auto [selector, text] = fuzz::split_input(data, size);
  std::vector<std::string> parts = fuzz::split_parts(text, 2);
  RunOptions options;
  options.command = (selector & 1) ? Command::Apply : Command::Plan;
  options.atomic = (selector & 2) != 0;
  options.output = fuzz::output_for(static_cast<std::uint8_t>(selector >> 2));
  options.nodes = Source{"nodes.yaml", std::move(parts[0])};
  options.request = Source{"requests.yaml", std::move(parts[1])};
  const RunResult r = run(options);
  if (!fuzz::expected_exit(r.exit)) std::abort();
  if (r.exit == ExitCode::Ok && options.output == OutputFormat::Json &&
      !nlohmann::json::accept(r.out))
    std::abort();
  return 0;
}
