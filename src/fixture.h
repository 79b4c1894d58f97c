// Fixture cases (SPEC §7): one YAML/JSON file naming a command, its inputs
// and the expected outcome; `eruplan test` runs them and reports differences.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace eruplan {

// Reads a file by path; nullopt when it cannot be read. Injected by the CLI
// so that src/ does no I/O of its own.
using ReadFile = std::function<std::optional<std::string>(const std::string& path)>;

struct FixtureResult {
  std::string file;                      // the case file as given
  std::string name;                      // the case's `name`, or the file name
  bool passed = false;
  std::vector<std::string> differences;  // "deploy.node1: expected 2, got 1"
};

// Runs one case; `text` is the content of `file`. Never throws: a malformed
// case is a failed case with a message.
FixtureResult run_fixture(const std::string& file, const std::string& text, const ReadFile& read);

enum class FixtureReportFormat { Text, Json };

// One line per failing case, then "N passed, N failed" (text), or a JSON
// document with every case.
std::string render_fixture_report(const std::vector<FixtureResult>& results,
                                  FixtureReportFormat format);

}  // namespace eruplan
