// The reference of the pod-list benchmark (bench/pods_stream.sh): a bare
// simdjson on-demand pass over a `kubectl get pods -A -o json` file that only
// sums the CPU and memory requests of the running pods per node, the least
// any reader of the file must do. Prints the sums' digest, wall and CPU
// seconds and peak RSS, as eruplan's side is measured.
//
// usage: eruplan_pods_simdjson PODS.json [PODS.json ...]
#include <simdjson.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <unordered_map>

namespace {

// "250m", "1", "1.5" -> millicores; "64Mi", "1Gi", "128974848" -> bytes.
// Enough for the generated files (bench/gen_kubernetes.py).
std::int64_t quantity(std::string_view s, bool cpu) {
  std::int64_t whole = 0, frac = 0, scale = 1;
  std::size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) whole = whole * 10 + (s[i] - '0');
  if (i < s.size() && s[i] == '.')
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      frac = frac * 10 + (s[i] - '0');
      scale *= 10;
    }
  const std::string_view unit = s.substr(i);
  if (cpu) return unit == "m" ? whole : whole * 1000 + frac * 1000 / scale;
  std::int64_t mult = 1;
  if (unit == "Ki") mult = 1LL << 10;
  if (unit == "Mi") mult = 1LL << 20;
  if (unit == "Gi") mult = 1LL << 30;
  if (unit == "k") mult = 1000;
  if (unit == "M") mult = 1000000;
  if (unit == "G") mult = 1000000000;
  return whole * mult + frac * mult / scale;
}

struct Use {
  std::int64_t cpu = 0, memory = 0;
};

}  // namespace

int main(int argc, char** argv) {
  using namespace simdjson;
  const auto start = std::chrono::steady_clock::now();
  std::unordered_map<std::string, Use> per_node;
  ondemand::parser parser;
  std::int64_t pods = 0;
  for (int f = 1; f < argc; ++f) {
    padded_string json = padded_string::load(argv[f]);
    ondemand::document doc = parser.iterate(json);
    for (ondemand::object pod : doc["items"]) {
      std::string_view node, phase;
      Use use;
      for (auto field : pod) {
        const std::string_view key = field.unescaped_key();
        if (key == "spec") {
          for (auto sf : field.value().get_object()) {
            const std::string_view sk = sf.unescaped_key();
            if (sk == "nodeName") {
              node = sf.value().get_string();
            } else if (sk == "containers") {
              for (ondemand::object c : sf.value()) {
                auto requests = c["resources"]["requests"];
                if (requests.error()) continue;
                for (auto r : requests.get_object()) {
                  const std::string_view rk = r.unescaped_key();
                  if (rk == "cpu") use.cpu += quantity(r.value().get_string(), true);
                  if (rk == "memory") use.memory += quantity(r.value().get_string(), false);
                }
              }
            }
          }
        } else if (key == "status") {
          auto p = field.value()["phase"];
          if (!p.error()) phase = p.get_string();
        }
      }
      if (node.empty() || phase == "Succeeded" || phase == "Failed") continue;
      Use& u = per_node[std::string(node)];
      u.cpu += use.cpu;
      u.memory += use.memory;
      ++pods;
    }
  }
  std::int64_t cpu = 0, memory = 0;
  for (const auto& [node, u] : per_node) {
    cpu += u.cpu;
    memory += u.memory;
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  const double cpu_s = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                       static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
  std::printf("pods %lld on %zu nodes, cpu %lldm, memory %lld bytes\n",
              static_cast<long long>(pods), per_node.size(), static_cast<long long>(cpu),
              static_cast<long long>(memory));
  std::printf("wall %.3f s, cpu %.3f s, peak rss %ld KiB\n", wall, cpu_s, ru.ru_maxrss);
  return 0;
}
