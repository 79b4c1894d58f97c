// eruplan-gen: writes a synthetic node inventory to stdout (see gen.h).
//   eruplan-gen --nodes 100000 --cores 24 --share-base 100 --memory 64Gi --numa 2
//               --existing-max 20 --seed 1 --format json|yaml --mode plain|cpumap
#include <charconv>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>

#include "gen.h"

namespace {

constexpr const char* kUsage =
    "usage: eruplan-gen [--nodes N] [--cores C] [--share-base P] [--memory SIZE] [--numa K]\n"
    "                   [--existing-max E] [--usage-percent U] [--max-fragment-cores M]\n"
    "                   [--seed S] [--format json|yaml] [--mode plain|cpumap]\n"
    "Writes a deterministic synthetic inventory (SPEC section 2) to stdout.\n"
    "Defaults: 1000 nodes, 24 cores, share_base 100, 64Gi, no NUMA, no existing instances,\n"
    "usage on 50% of nodes, max_fragment_cores -1, seed 1, json, plain.\n";

bool parse_int(std::string_view text, std::int64_t& out) {
  auto r = std::from_chars(text.data(), text.data() + text.size(), out);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

int fail(const std::string& message) {
  std::cerr << "eruplan-gen: error: " << message << "\n" << kUsage;
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using eruplan::bench::GenOptions;
  GenOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (i + 1 >= argc) return fail("missing value for " + std::string(flag));
    const std::string_view value = argv[++i];
    std::int64_t n = 0;
    auto number = [&](std::int64_t& field, std::int64_t min) {
      if (!parse_int(value, n) || n < min)
        return fail(std::string(flag) + " wants an integer >= " + std::to_string(min) + ", got '" +
                    std::string(value) + "'");
      field = n;
      return 0;
    };
    int bad = 0;
    if (flag == "--nodes") {
      bad = number(o.nodes, 0);
    } else if (flag == "--cores") {
      bad = number(o.cores, 1);
    } else if (flag == "--share-base") {
      bad = number(o.share_base, 1);
    } else if (flag == "--numa") {
      bad = number(o.numa, 0);
    } else if (flag == "--existing-max") {
      bad = number(o.existing_max, 0);
    } else if (flag == "--usage-percent") {
      bad = number(o.usage_percent, 0);
    } else if (flag == "--max-fragment-cores") {
      bad = number(o.max_fragment_cores, -1);
    } else if (flag == "--seed") {
      std::int64_t seed = 0;
      bad = number(seed, 0);
      o.seed = static_cast<std::uint64_t>(seed);
    } else if (flag == "--memory") {
      auto bytes = eruplan::bench::parse_gen_size(value);
      if (!bytes || *bytes <= 0) return fail("--memory wants a size such as 64Gi");
      o.memory = *bytes;
    } else if (flag == "--format") {
      if (value == "json")
        o.format = eruplan::bench::GenFormat::Json;
      else if (value == "yaml")
        o.format = eruplan::bench::GenFormat::Yaml;
      else
        return fail("--format wants json or yaml");
    } else if (flag == "--mode") {
      if (value == "plain")
        o.mode = eruplan::bench::GenMode::Plain;
      else if (value == "cpumap")
        o.mode = eruplan::bench::GenMode::CpuMap;
      else
        return fail("--mode wants plain or cpumap");
    } else {
      return fail("unknown flag " + std::string(flag));
    }
    if (bad != 0) return bad;
  }
  if (o.numa > o.cores) return fail("--numa cannot exceed --cores");
  const std::string text = eruplan::bench::generate_inventory(o);
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) return 1;
  return std::fflush(stdout) == 0 ? 0 : 1;
}
