// Fuzz target: `plan -o json` on a JSON inventory. Any run must end with a
// documented exit code, and a successful one must print JSON that parses.
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eruplan;
  auto [selector, text] = fuzz::split_input(data, size);
  RunOptions options;
  options.command = Command::Plan;
  options.nodes = Source{"fuzz.json", std::move(text), InputFormat::Json};
  options.overrides = fuzz::request_for(selector);
  options.output = OutputFormat::Json;
  const RunResult r = run(options);
  if (!fuzz::expected_exit(r.exit)) std::abort();
  if (r.exit == ExitCode::Ok && !nlohmann::json::accept(r.out)) std::abort();
  return 0;
}
