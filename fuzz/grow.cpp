// Fuzz target: `grow`: nodes, the request and a third input, split at "%%"
// lines; the template node as the third part and --max by the selector (0 to 100, or the default);
// the output format by the selector's top bits. Any run ends with a documented exit code, and a
// successful JSON run prints JSON that parses.
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common.h"
#include "whatif.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eruplan;
  auto [selector, text] = fuzz::split_input(data, size);
  std::vector<std::string> parts = fuzz::split_parts(text, 3);
  WhatIfOptions options;
  options.command = WhatIfCommand::Grow;
  options.output = fuzz::output_for(static_cast<std::uint8_t>(selector >> 6));
  options.nodes = Source{"nodes.yaml", std::move(parts[0])};
  options.request = Source{"request.yaml", std::move(parts[1])};
  options.template_node = Source{"template.yaml", std::move(parts[2])};
  options.max = (selector & 0x80) ? kDefaultGrowMax : (selector % 101);
  const WhatIfResult w = run_whatif(options);
  if (!fuzz::expected_exit(w.run.exit)) std::abort();
  if (w.run.exit == ExitCode::Ok && options.output == OutputFormat::Json &&
      !nlohmann::json::accept(w.run.out))
    std::abort();
  return 0;
}
