// Fuzz target: capacity, plan, apply and validate on Kubernetes objects as
// kubectl prints them: a node list (or one Node), a manifest (Deployment,
// StatefulSet, DaemonSet, Job, Pod, a List of them, or an eruplan request)
// and a pod list, split at "%%" lines. The selector byte picks the command,
// the output format and --app-label. Any run ends with a documented exit
// code, and a successful JSON run prints JSON that parses.
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eruplan;
  auto [selector, text] = fuzz::split_input(data, size);
  std::vector<std::string> parts = fuzz::split_parts(text, 3);
  static constexpr Command kCommands[] = {Command::Capacity, Command::Plan, Command::Apply,
                                          Command::Validate};
  RunOptions options;
  options.command = kCommands[selector % 4];
  options.output = fuzz::output_for(static_cast<std::uint8_t>(selector >> 2));
  options.kubernetes.nodes_format = (selector & 0x40) ? NodesFormat::Kubernetes : NodesFormat::Auto;
  if (selector & 0x80) options.kubernetes.app_label = "tier";
  options.nodes = Source{"nodes.json", std::move(parts[0])};
  options.request = Source{"manifest.yaml", std::move(parts[1])};
  if (!parts[2].empty()) options.pods = Source{"pods.json", std::move(parts[2])};
  const RunResult r = run(options);
  if (!fuzz::expected_exit(r.exit)) std::abort();
  if (r.exit == ExitCode::Ok && options.output == OutputFormat::Json &&
      !nlohmann::json::accept(r.out))
    std::abort();
  return 0;
}
