// Fixture cases (SPEC §7): one YAML/JSON file naming a command, its inputs
// and the expected outcome; `eruplan test` runs them and reports differences.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "pipeline.h"

namespace eruplan {

// Reads a file by path; nullopt when it cannot be read. Injected by the CLI
// so that src/ does no I/O of its own.
using ReadFile = std::function<std::optional<std::string>(const std::string& path)>;

struct FixtureResult {
  std::string file;  // the case file as given
  std::string name;  // the case's `name`, or the file name
  bool passed = false;
  std::vector<std::string> differences;  // "deploy.node1: expected 2, got 1"
};

// Runs one case; `text` is the content of `file`. Never throws: a malformed
// case is a failed case with a message.
FixtureResult run_fixture(const std::string& file, const std::string& text, const ReadFile& read);

// The same with the pipeline injected (`run` from pipeline.h by default), so
// the comparisons can be tested against canned results.
using RunFunction = std::function<RunResult(const RunOptions&)>;
FixtureResult run_fixture(const std::string& file, const std::string& text, const ReadFile& read,
                          const RunFunction& run_case);

// The same for a case found under `root` (a directory given to `eruplan
// test`): inputs given as paths may be anywhere inside `root` (../nodes.yaml
// shared by cases in sub-directories), links followed, never outside it.
// An empty root is the case file's own directory.
FixtureResult run_fixture_under(const std::string& root, const std::string& file,
                                const std::string& text, const ReadFile& read,
                                const RunFunction& run_case);
FixtureResult run_fixture_under(const std::string& root, const std::string& file,
                                const std::string& text, const ReadFile& read);

// True when a YAML/JSON text is an inventory or request rather than a case;
// a directory walk skips such files so inputs may sit beside their cases.
bool looks_like_input_file(const std::string& text);

// The case files under `paths`, in a stable order: a file named is always a
// case; directories are walked recursively (sorted), skipping files that
// are not YAML/JSON and those that are plain inputs (looks_like_input_file).
struct CaseFile {
  std::string file;
  std::string root;  // the directory given that holds it; empty for a file named alone
};
std::vector<CaseFile> collect_cases(const std::vector<std::string>& paths, const ReadFile& read);

// `eruplan test --print-expect CASE` (SPEC §13): runs the case and returns
// the `expect:` block (YAML) its current results would make: exit, total,
// capacity of every node, deploy, and per request status and placed. Nullopt
// with `error` set when the case is malformed or its inputs unreadable.
std::optional<std::string> fixture_expect(const std::string& file, const std::string& text,
                                          const ReadFile& read, std::string& error);

enum class FixtureReportFormat { Text, Json, Junit };

// One line per failing case, then "N passed, N failed" (text), a JSON
// document with every case, or JUnit XML (SPEC §13) for CI systems.
std::string render_fixture_report(const std::vector<FixtureResult>& results,
                                  FixtureReportFormat format);

}  // namespace eruplan
