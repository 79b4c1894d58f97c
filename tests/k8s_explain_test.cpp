// --explain under the kubernetes profile: per node, the filter plugin that
// rejected it in the first replica's cycle (with kube-scheduler's reason), or
// the score plugin whose weighted difference decided between it and the
// node the first replica went to; the fixtures' nodes and pods.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "pipeline.h"

using namespace eruplan;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(std::string(ERUPLAN_SOURCE_DIR) + "/fixtures/kubernetes/profile/" + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// node -> its --explain line in the JSON document (`explain`).
std::map<std::string, std::string> explain_lines(const std::string& nodes,
                                                 const std::string& request,
                                                 const std::string& pods,
                                                 std::optional<std::string> tie = std::nullopt) {
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{nodes, read(nodes)};
  o.request = Source{"app.yaml", request};
  if (!pods.empty()) o.pods = Source{pods, read(pods)};
  o.explain = true;
  o.output = OutputFormat::Table;
  if (tie) o.tie_seed = *parse_tie_break(*tie);
  const RunResult r = run(o);
  std::map<std::string, std::string> out;
  const std::string& text = r.out.find("explain:") != std::string::npos ? r.out : r.err;
  std::istringstream lines(text.substr(text.find("explain:")));
  for (std::string line; std::getline(lines, line);) {
    const std::size_t colon = line.find(':');
    if (line.rfind("  ", 0) != 0 || colon == std::string::npos) continue;
    std::size_t start = colon + 1;
    while (start < line.size() && line[start] == ' ') ++start;
    out[line.substr(2, colon - 2)] = line.substr(start);
  }
  return out;
}

const char* kSpotDeployment = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 6
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
        - name: api
          resources: {requests: {cpu: 500m, memory: 512Mi}}
)";

}  // namespace

TEST_CASE("k8s --explain: the deciding score plugin against the first replica's node") {
  const auto lines = explain_lines("nodes-spot.json", kSpotDeployment, "");
  CHECK(lines.at("od-1") ==
        "score: +2; the first replica came here: total 686 = 686 on od-2, the tie broken by name");
  CHECK(lines.at("od-2") ==
        "score: +2; the first replica went to od-1: total 686 = 686 there, the tie broken by "
        "name");
  CHECK(lines.at("spot-1") ==
        "score: +1; the first replica went to od-1: total 386 < 686 there, decided by "
        "TaintToleration (weight 3: 0 vs 100)");
}

TEST_CASE("k8s --explain: non-zero defaults decide, and a lone winner over its runner-up") {
  const std::string pod =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: lonely, labels: {app: lonely}}\n"
      "spec:\n  containers:\n    - name: lonely\n      image: busybox\n";
  const auto lines = explain_lines("nodes.json", pod, "pods-no-requests.json");
  CHECK(lines.at("a1") ==
        "score: the first replica went to a2: total 387 < 397 there, decided by "
        "NodeResourcesFit (weight 1: 87 vs 97)");
  CHECK(lines.at("a2") ==
        "score: +1; the first replica came here: total 397 = 397 on b1, the tie broken by name");
  // Seeded random ties say so.
  const auto random = explain_lines("nodes.json", pod, "pods-no-requests.json", "random:4");
  std::size_t broken_at_random = 0;
  for (const auto& [node, line] : random)
    if (line.ends_with("the tie broken at random")) ++broken_at_random;
  CHECK(broken_at_random == 4);  // every node but a1, which loses on NodeResourcesFit
}

TEST_CASE("k8s --explain: filters name their plugin and Kubernetes' reason") {
  const std::string agent = read("agent.yaml");
  const auto lines = explain_lines("nodes.json", agent, "pods-monitoring.json");
  CHECK(lines.at("a1") ==
        "score: filtered out for the first replica by InterPodAffinity: node(s) didn't match pod "
        "affinity rules; nothing placed, the request failed");
  CHECK(lines.at("c1") ==
        "score: filtered out for the first replica by NodeResourcesFit: Too many pods; nothing "
        "placed, the request failed");
}

TEST_CASE("k8s --explain: the only feasible node, and NodeAffinity's filter") {
  const std::string request = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: agent}
spec:
  replicas: 1
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      nodeSelector: {kubernetes.io/hostname: b2}
      containers:
        - name: agent
          resources: {requests: {cpu: 100m, memory: 128Mi}}
)";
  const auto lines = explain_lines("nodes.json", request, "pods.json");
  CHECK(lines.at("b2").starts_with(
      "score: +1; the first replica came here: the only node the filters left, total "));
  CHECK(lines.at("a1") ==
        "score: filtered out for the first replica by NodeAffinity: node(s) didn't match Pod's "
        "node affinity/selector");
}
