// eruplan snapshot through the command table, with a stand-in for running
// kubectl: the commands it runs, the files it hands back, its failures.
#include "snapshot.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "commands.h"

using namespace eruplan;

namespace {

struct Fake {
  std::vector<std::vector<std::string>> calls;
  std::string fail_on;  // a kubectl resource that fails
  std::string why = "error: You must be logged in to the server (Unauthorized)";  // its stderr
};

CommandOutput snapshot(Fake& fake, std::vector<std::pair<std::string, std::string>> values) {
  Args a;
  for (const auto& [k, v] : values) {
    a.values[k] = v;
    a.given.insert(k);
  }
  FileAccess files{nullptr,
                   [](const std::string& path) -> std::optional<DirListing> {
                     if (path == "missing") return std::nullopt;
                     return DirListing{};
                   },
                   [&fake](const std::vector<std::string>& argv,
                           std::string& why) -> std::optional<std::string> {
                     fake.calls.push_back(argv);
                     for (const std::string& word : argv)
                       if (!fake.fail_on.empty() && word == fake.fail_on) {
                         why = fake.why;
                         return std::nullopt;
                       }
                     return "{\"kind\": \"List\", \"items\": []}";
                   },
                   nullptr};
  const CommandInput in{a, files, nullptr};
  return find_command("snapshot")->run(in);
}

}  // namespace

TEST_CASE("snapshot: runs kubectl five times and hands back five files") {
  Fake fake;
  const CommandOutput out =
      snapshot(fake, {{"--output-dir", "cluster"}, {"--context", "prod"}, {"--kubeconfig", "k"}});
  CHECK(out.exit == ExitCode::Ok);
  REQUIRE(fake.calls.size() == 5);
  CHECK(fake.calls[0] == std::vector<std::string>{"kubectl", "--context", "prod", "--kubeconfig",
                                                  "k", "get", "nodes", "-o", "json"});
  CHECK(fake.calls[1] == std::vector<std::string>{"kubectl", "--context", "prod", "--kubeconfig",
                                                  "k", "get", "pods", "-A", "-o", "json"});
  REQUIRE(out.files.size() == 5);
  CHECK(out.files[0].first == "cluster/nodes.json");
  CHECK(out.files[2].first == "cluster/priorityclasses.json");
  CHECK(out.files[3].first == "cluster/pdbs.json");
  CHECK(out.files[4].first == "cluster/daemonsets.json");
  CHECK(out.files[4].second == "{\"kind\": \"List\", \"items\": []}");
  const std::string list = "{\"kind\": \"List\", \"items\": []}";
  CHECK(out.out.find("wrote cluster/pods.json (" + std::to_string(list.size()) +
                     " bytes): kubectl --context prod --kubeconfig k get pods -A -o json\n") !=
        std::string::npos);
}

TEST_CASE("snapshot: a failing kubectl is exit 3 with its message, and nothing is written") {
  Fake fake;
  fake.fail_on = "pdb";
  const CommandOutput out = snapshot(fake, {});
  CHECK(out.exit == ExitCode::Invalid);
  CHECK(out.files.empty());
  CHECK(out.err ==
        "kubectl get pdb -A -o json: error: error: You must be logged in to the server "
        "(Unauthorized)\n");
  Fake other;
  const CommandOutput no_dir = snapshot(other, {{"--output-dir", "missing"}});
  CHECK(no_dir.exit == ExitCode::Invalid);
  CHECK(other.calls.empty());
  CHECK(no_dir.err.find("missing: error: not a directory") == 0);
  CHECK(snapshot(other, {}).out.find("wrote nodes.json") == 0);  // default: here
  // An unreachable server: client-go's retries each log a line; the message
  // is kubectl's last line, not every line glued with escaped newlines.
  Fake unreachable;
  unreachable.fail_on = "nodes";
  unreachable.why =
      "E1126 14:19:01.114578   28677 memcache.go:265] couldn't get current server API group "
      "list\n\nE1126 14:19:01.115911   28677 memcache.go:265] couldn't get current server API "
      "group list\nThe connection to the server localhost:8080 was refused - did you specify the "
      "right host or port?";
  const CommandOutput refused = snapshot(unreachable, {});
  CHECK(refused.exit == ExitCode::Invalid);
  CHECK(refused.err ==
        "kubectl get nodes -o json: error: The connection to the server localhost:8080 was "
        "refused - did you specify the right host or port? (the last of 3 lines kubectl wrote; "
        "run the command to see them all)\n");
}
