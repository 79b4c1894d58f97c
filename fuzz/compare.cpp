// Fuzz target: `compare`: nodes, the request and a third input, split at "%%"
// lines; the strategies to compare by the selector's bits (all six when none); the output format by
// the selector's top bits. Any run ends with a documented exit code, and a successful JSON run
// prints JSON that parses.
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common.h"
#include "whatif.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eruplan;
  auto [selector, text] = fuzz::split_input(data, size);
  std::vector<std::string> parts = fuzz::split_parts(text, 3);
  WhatIfOptions options;
  options.command = WhatIfCommand::Compare;
  options.output = fuzz::output_for(static_cast<std::uint8_t>(selector >> 6));
  options.nodes = Source{"nodes.yaml", std::move(parts[0])};
  options.request = Source{"request.yaml", std::move(parts[1])};
  static constexpr const char* kNames[] = {"auto", "fill", "each", "global", "drained", "score"};
  for (int b = 0; b < 6; ++b)
    if (selector & (1 << b)) options.strategies.emplace_back(kNames[b]);
  const WhatIfResult w = run_whatif(options);
  if (!fuzz::expected_exit(w.run.exit)) std::abort();
  if (w.run.exit == ExitCode::Ok && options.output == OutputFormat::Json &&
      !nlohmann::json::accept(w.run.out))
    std::abort();
  return 0;
}
