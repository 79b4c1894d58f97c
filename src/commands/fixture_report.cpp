// The fixture runner's outputs and inputs other than one case: the report
// (text, JSON, JUnit), `--print-expect`'s block, and the walk that finds
// case files among inputs.
#include <filesystem>
#include <nlohmann/json.hpp>

#include "doc.h"
#include "fixture.h"
#include "json_writer.h"
#include "markup.h"

namespace eruplan {

namespace {

// One <testsuite> of every case; classname is the case file, name the case's
// name; a failing case carries its differences, the first as the message.
std::string render_junit(const std::vector<FixtureResult>& results, std::size_t failed) {
  const std::string counts = " tests=\"" + std::to_string(results.size()) + "\" failures=\"" +
                             std::to_string(failed) + "\" errors=\"0\"";
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"eruplan\"" +
                    counts + ">\n  <testsuite name=\"eruplan fixtures\"" + counts +
                    " skipped=\"0\">\n";
  for (const FixtureResult& r : results) {
    out += "    <testcase classname=\"" + markup_text(r.file) + "\" name=\"" + markup_text(r.name) +
           '"';
    if (r.passed) {
      out += "/>\n";
      continue;
    }
    const std::string first = r.differences.empty() ? "failed" : r.differences.front();
    std::string all;
    for (const std::string& d : r.differences) all += d + '\n';
    out += ">\n      <failure message=\"" + markup_text(first) + "\">" + markup_text(all) +
           "</failure>\n    </testcase>\n";
  }
  return out + "  </testsuite>\n</testsuites>\n";
}

std::string yaml_key(std::string_view name) {
  std::string out;
  append_yaml_string(out, name);
  return out;
}

}  // namespace

std::optional<std::string> fixture_expect(const std::string& file, const std::string& text,
                                          const ReadFile& read, std::string& error) {
  std::optional<RunResult> ran;
  const FixtureResult r = run_fixture(file, text, read, [&](const RunOptions& options) {
    ran = run(options);
    return *ran;
  });
  if (!ran) {
    error = r.differences.empty() ? "the case did not run" : r.differences.front();
    return std::nullopt;
  }
  const RunResult& result = *ran;
  std::string out = "expect:\n  exit: " + std::to_string(static_cast<int>(result.exit)) + '\n';
  if (result.capacity && result.inventory) {
    const auto& nodes = result.capacity->nodes;
    out += "  total: " + count_text(result.capacity->total) + '\n';
    out += nodes.empty() ? "  capacity: {}\n" : "  capacity:\n";
    for (const NodeCapacity& nc : nodes)
      out += "    " + yaml_key(result.inventory->nodes[nc.node].name) + ": " +
             count_text(nc.capacity) + '\n';
    if (result.deploy && result.deploy->size() == nodes.size()) {
      std::string deploy;
      for (std::size_t i = 0; i < nodes.size(); ++i)
        if ((*result.deploy)[i] > 0)
          deploy += "    " + yaml_key(result.inventory->nodes[nodes[i].node].name) + ": " +
                    std::to_string((*result.deploy)[i]) + '\n';
      out += deploy.empty() ? "  deploy: {}\n" : "  deploy:\n" + deploy;
    }
  }
  if (result.requests.size() == 1 && result.request) {
    out += "  status: " + std::string(status_name(result.requests.front().status)) + '\n';
    out += "  placed: " + std::to_string(result.requests.front().placed) + '\n';
  } else if (!result.requests.empty()) {
    out += "  status:\n";
    for (const RequestBrief& b : result.requests)
      out += "    " + yaml_key(b.name) + ": " + std::string(status_name(b.status)) + '\n';
    out += "  placed:\n";
    for (const RequestBrief& b : result.requests)
      out += "    " + yaml_key(b.name) + ": " + std::to_string(b.placed) + '\n';
  }
  std::vector<std::string> evicted;
  for (const RequestBrief& b : result.requests)
    evicted.insert(evicted.end(), b.evicted.begin(), b.evicted.end());
  if (!evicted.empty()) {
    out += "  evicted: [";
    for (std::size_t i = 0; i < evicted.size(); ++i) {
      if (i > 0) out += ", ";
      append_quoted(out, evicted[i]);
    }
    out += "]\n";
  }
  if (!result.offers.empty()) {
    out += "  offers:\n";
    for (const std::string& o : result.offers) {
      out += "    - ";
      append_quoted(out, o);
      out += '\n';
    }
  }
  if (result.exit != ExitCode::Ok && !result.err.empty()) {
    std::string line = result.err.substr(0, result.err.find('\n'));
    out += "  error_contains: ";
    append_quoted(out, line);
    out += '\n';
  }
  return out;
}

bool looks_like_input_file(const std::string& text) {
  // The first document of the file, as the loaders would read it.
  const Source source{"", text, InputFormat::Yaml, {}};
  Diagnostics diags;
  std::vector<ValueId> documents;
  const std::optional<Doc> doc = parse_document_stream(source, diags, documents);
  if (!doc || documents.empty()) return false;  // run as a case, where the problem is reported
  const ValueId root = documents.front();
  if ((*doc)[root].kind != ValueKind::Object) return false;
  // The value of the top-level member `key`, or kNoValue.
  auto member = [&](std::string_view key) {
    for (std::uint32_t i = 0; i < doc->size(root); ++i)
      if (doc->text(doc->key(root, i)) == key) return doc->member(root, i);
    return kNoValue;
  };
  auto has = [&](std::string_view key) { return member(key) != kNoValue; };
  if (has("expect") || has("command")) return false;
  if (const ValueId nodes = member("nodes");
      nodes != kNoValue && (*doc)[nodes].kind == ValueKind::Array)
    return true;
  if (has("name") && (has("cpu") || has("memory") || has("cpu_map")))
    return true;                                      // one node object: grow's --template
  if (has("kind") && has("apiVersion")) return true;  // a Kubernetes object (SPEC §12)
  return has("app") || has("resources") || has("count") || has("strategy") || has("requests") ||
         has("apps");  // apps: a share apps file (SPEC §10)
}

std::vector<CaseFile> collect_cases(const std::vector<std::string>& paths, const ReadFile& read) {
  namespace fs = std::filesystem;
  std::vector<CaseFile> cases;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
      // Named explicitly: always a case, its inputs in its own directory.
      cases.push_back({path, {}});
      continue;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(path, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const std::string ext = it->path().extension().string();
      if (it->is_regular_file(ec) && (ext == ".yaml" || ext == ".yml" || ext == ".json"))
        found.push_back(it->path().string());
    }
    std::sort(found.begin(), found.end());
    for (std::string& f : found) {
      const std::optional<std::string> text = read(f);
      if (text && looks_like_input_file(*text)) continue;
      cases.push_back({std::move(f), path});
    }
  }
  return cases;
}

std::string render_fixture_report(const std::vector<FixtureResult>& results,
                                  FixtureReportFormat format) {
  std::size_t passed = 0;
  for (const FixtureResult& r : results) passed += r.passed ? 1 : 0;
  const std::size_t failed = results.size() - passed;

  if (format == FixtureReportFormat::Json) {
    nlohmann::ordered_json doc;
    doc["passed"] = passed;
    doc["failed"] = failed;
    doc["cases"] = nlohmann::ordered_json::array();
    for (const FixtureResult& r : results) {
      nlohmann::ordered_json c;
      c["file"] = r.file;
      c["name"] = r.name;
      c["passed"] = r.passed;
      c["differences"] = r.differences;
      doc["cases"].push_back(std::move(c));
    }
    return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  }

  if (format == FixtureReportFormat::Junit) return render_junit(results, failed);

  std::string out;
  for (const FixtureResult& r : results) {
    if (r.passed) continue;
    std::string line = "FAIL " + r.file + ": " + r.name + ": ";
    for (size_t i = 0; i < r.differences.size(); ++i) line += (i ? "; " : "") + r.differences[i];
    if (r.differences.empty()) line += "failed";
    for (char& c : line)
      if (c == '\n' || c == '\r') c = ' ';  // one line per failing case
    out += line + '\n';
  }
  return out + std::to_string(passed) + " passed, " + std::to_string(failed) + " failed\n";
}

}  // namespace eruplan
