// Shared by the fuzz targets: the request variants an input's first byte
// picks, so one corpus file exercises memory mode, CPU binding and volumes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline.h"

namespace eruplan::fuzz {

// Splits a fuzz input into a selector byte and the document text.
inline std::pair<std::uint8_t, std::string> split_input(const std::uint8_t* data,
                                                        std::size_t size) {
  if (size == 0) return {0, {}};
  return {data[0], std::string(reinterpret_cast<const char*>(data + 1), size - 1)};
}

// Request flags by selector: memory mode, CPU binding, volumes, a filter.
inline RequestOverrides request_for(std::uint8_t selector) {
  RequestOverrides o;
  o.set("--count", std::to_string(1 + selector % 7));
  switch ((selector >> 3) % 4) {
    case 0:
      o.set("--memory", "64Mi");
      break;
    case 1:
      o.set("--cpu", "1.5");
      o.set("--cpu-bind", "true");
      o.set("--memory", "1Mi");
      break;
    case 2:
      o.set("--memory", "1");
      for (const char* v : {"AUTO:/data:rw:100", "AUTO:/db:rwm:50", "AUTO:/tmp:rw"})
        o.set("--volume", v);
      break;
    default:
      o.set("--memory", "1");
      o.set("--exclude", "node2");
      o.set("--label", "zone=a");
      break;
  }
  static constexpr const char* kStrategies[] = {"auto", "fill", "each", "global", "drained"};
  o.set("--strategy", kStrategies[(selector >> 5) % 5]);
  return o;
}

// Exit codes a run may end with; anything else (or 1, internal) is a bug.
inline bool expected_exit(ExitCode e) {
  return e == ExitCode::Ok || e == ExitCode::Invalid || e == ExitCode::Infeasible ||
         e == ExitCode::AlreadySatisfied;
}

// Splits a document text into parts at lines holding exactly "%%": nodes,
// request, then a third input (pods, a grow template). Missing parts are
// empty; past `parts`, the rest stays in the last one.
inline std::vector<std::string> split_parts(const std::string& text, std::size_t parts) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (out.size() + 1 < parts) {
    const std::size_t at = text.find("\n%%\n", from);
    if (at == std::string::npos) break;
    out.push_back(text.substr(from, at + 1 - from));
    from = at + 4;
  }
  out.push_back(text.substr(std::min(from, text.size())));
  out.resize(parts);
  return out;
}

// The output format by two selector bits: table, JSON or YAML.
inline OutputFormat output_for(std::uint8_t bits) {
  switch (bits % 3) {
    case 0:
      return OutputFormat::Table;
    case 1:
      return OutputFormat::Json;
    default:
      return OutputFormat::Yaml;
  }
}

}  // namespace eruplan::fuzz
