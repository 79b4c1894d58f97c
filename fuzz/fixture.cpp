// Fuzz target: the fixture runner on one case file. It reads no file (every
// path input is unreadable here) and must never crash, hang or throw.
#include "fixture.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eruplan;
  const std::string text(reinterpret_cast<const char*>(data), size);
  const ReadFile no_files = [](const std::string&) -> std::optional<std::string> {
    return std::nullopt;
  };
  const FixtureResult r = run_fixture("fuzz/case.yaml", text, no_files);
  (void)render_fixture_report({r}, FixtureReportFormat::Text);
  return 0;
}
