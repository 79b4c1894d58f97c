// Fuzz target: `drain`: nodes, the request and a third input, split at "%%"
// lines; --node by the selector (--each-node, or one of the names n1..n4, a, b, worker-1); the
// output format by the selector's top bits. Any run ends with a documented exit code, and a
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
  options.command = WhatIfCommand::Drain;
  options.output = fuzz::output_for(static_cast<std::uint8_t>(selector >> 6));
  options.nodes = Source{"nodes.yaml", std::move(parts[0])};
  options.request = Source{"request.yaml", std::move(parts[1])};
  static constexpr const char* kNodes[] = {"n1", "n2", "n3", "n4", "a", "b", "worker-1"};
  if (selector % 8 == 7)
    options.each_node = true;
  else
    options.node = kNodes[selector % 8];
  const WhatIfResult w = run_whatif(options);
  if (!fuzz::expected_exit(w.run.exit)) std::abort();
  if (w.run.exit == ExitCode::Ok && options.output == OutputFormat::Json &&
      !nlohmann::json::accept(w.run.out))
    std::abort();
  return 0;
}
