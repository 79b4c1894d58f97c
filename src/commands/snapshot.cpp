// eruplan snapshot (snapshot.h).
#include "snapshot.h"

#include "pipeline.h"

namespace eruplan {

const std::vector<SnapshotPart>& snapshot_parts() {
  static const std::vector<SnapshotPart> parts = {
      {"nodes.json", {"get", "nodes", "-o", "json"}},
      {"pods.json", {"get", "pods", "-A", "-o", "json"}},
      {"priorityclasses.json", {"get", "priorityclasses", "-o", "json"}},
      {"pdbs.json", {"get", "pdb", "-A", "-o", "json"}},
      {"daemonsets.json", {"get", "daemonsets", "-A", "-o", "json"}},
  };
  return parts;
}

namespace {

// kubectl's standard error may run to many lines (client-go logs each retry
// of an unreachable server); its last line says what went wrong. The lines
// are not glued into one message with escaped newlines.
std::string kubectl_failure(const std::string& why) {
  if (why.empty()) return "failed";
  std::size_t lines = 0, start = 0, last = 0;
  for (std::size_t at = 0; at <= why.size(); ++at) {
    if (at != why.size() && why[at] != '\n') continue;
    if (at > start) {
      ++lines;
      last = start;
    }
    start = at + 1;
  }
  const std::size_t end = why.find('\n', last);
  std::string out = why.substr(last, end == std::string::npos ? std::string::npos : end - last);
  if (lines > 1)
    out += " (the last of " + std::to_string(lines) +
           " lines kubectl wrote; run the command to see them all)";
  return out;
}

}  // namespace

CommandOutput run_snapshot(const CommandInput& in) {
  const Args& a = in.args;
  CommandOutput out;
  auto invalid = [&](const std::string& where, const std::string& message) {
    out.exit = ExitCode::Invalid;
    out.err += format_diagnostic({Severity::Error, Origin{where, 0, 0, ""}, message}) + '\n';
    return out;
  };
  const std::string dir = a.value("--output-dir").empty() ? "." : a.value("--output-dir");
  if (in.files.list_dir && !in.files.list_dir(dir))
    return invalid(dir, "not a directory (snapshot writes its files into an existing one)");
  if (!in.files.run) return invalid("kubectl", "running programs is not available here");
  std::vector<std::string> global;
  if (a.has("--context")) global.insert(global.end(), {"--context", a.value("--context")});
  if (a.has("--kubeconfig")) global.insert(global.end(), {"--kubeconfig", a.value("--kubeconfig")});
  std::vector<std::pair<std::string, std::string>> files;
  std::string summary;
  for (const SnapshotPart& part : snapshot_parts()) {
    std::vector<std::string> argv = {"kubectl"};
    argv.insert(argv.end(), global.begin(), global.end());
    argv.insert(argv.end(), part.args.begin(), part.args.end());
    std::string command;
    for (const std::string& word : argv) command += (command.empty() ? "" : " ") + word;
    std::string why;
    std::optional<std::string> text = in.files.run(argv, why);
    if (!text) return invalid(command, kubectl_failure(why));
    const std::string path =
        dir == "." ? std::string(part.file) : dir + "/" + std::string(part.file);
    summary += "wrote " + path + " (" + std::to_string(text->size()) + " bytes): " + command + '\n';
    files.emplace_back(path, std::move(*text));
  }
  // All or nothing: the files are written only when every command worked.
  out.files = std::move(files);
  out.out = std::move(summary);
  return out;
}

}  // namespace eruplan
