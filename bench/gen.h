// Synthetic node inventories for the benchmark (SPEC §2 format), large and
// deterministic: the same options give the same bytes on every machine.
// Used by the `eruplan-gen` executable and, in memory, by the benchmark.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace eruplan::bench {

enum class GenFormat { Json, Yaml };
enum class GenMode {
  Plain,   // `cpu: N`, usage as `usage.cpu` millicores
  CpuMap,  // `cpu_map` per core id, usage as `usage.cpu_map` (whole and fragment cores)
};

struct GenOptions {
  std::int64_t nodes = 1000;
  std::int64_t cores = 24;
  std::int64_t share_base = 100;
  std::int64_t memory = std::int64_t{64} << 30;  // bytes per node
  std::int64_t numa = 0;                         // NUMA nodes per node; 0 = no `numa` map
  std::int64_t existing_max = 0;    // `instances: {web: k}` with k uniform in [0, existing_max]
  std::int64_t usage_percent = 50;  // share of nodes carrying some `usage`
  std::int64_t max_fragment_cores = -1;
  std::uint64_t seed = 1;
  GenFormat format = GenFormat::Json;
  GenMode mode = GenMode::Plain;
};

// The whole inventory document. Node names are "node" plus the index,
// zero-padded to one width, so name order is file order.
std::string generate_inventory(const GenOptions& options);

// "64Gi", "512Mi", "1000000" -> bytes (binary and decimal suffixes as SPEC §2).
std::optional<std::int64_t> parse_gen_size(std::string_view text);

}  // namespace eruplan::bench
