// --namespaces (namespaces.h): kubectl's Namespaces, their labels for a pod
// affinity term's namespaceSelector, strict about field names, and the
// errors with file, line:col and field path.
#include "namespaces.h"

#include <doctest/doctest.h>

#include "pipeline.h"

using namespace eruplan;

namespace {

std::optional<std::vector<std::pair<std::string, Labels>>> load(const std::string& text,
                                                                Diagnostics& diags) {
  return load_namespaces(Source{"ns.json", text}, diags);
}

}  // namespace

TEST_CASE("namespaces: a List, sorted by name, with the name label added when absent") {
  Diagnostics diags;
  const auto ns = load(R"({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""},
    "items": [
      {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "tracing",
        "labels": {"team": "observability"}}, "status": {"phase": "Active"}},
      {"kind": "Namespace", "metadata": {"name": "default",
        "labels": {"kubernetes.io/metadata.name": "default"}}, "spec": {"finalizers": ["kubernetes"]}}
    ]})",
                       diags);
  INFO(diags.to_string());
  REQUIRE(ns);
  REQUIRE(ns->size() == 2);
  CHECK((*ns)[0].first == "default");
  CHECK((*ns)[0].second == Labels{{"kubernetes.io/metadata.name", "default"}});
  CHECK((*ns)[1].first == "tracing");
  CHECK((*ns)[1].second ==
        Labels{{"kubernetes.io/metadata.name", "tracing"}, {"team", "observability"}});
}

TEST_CASE("namespaces: one Namespace, and a YAML stream") {
  Diagnostics diags;
  const auto one = load_namespaces(
      Source{"ns.yaml", "kind: Namespace\nmetadata: {name: a, labels: {x: y}}\n"}, diags);
  REQUIRE(one);
  CHECK(one->size() == 1);
  const auto stream =
      load_namespaces(Source{"ns.yaml",
                             "kind: Namespace\nmetadata: {name: b}\n---\nkind: Namespace\n"
                             "metadata: {name: a}\n"},
                      diags);
  REQUIRE(stream);
  REQUIRE(stream->size() == 2);
  CHECK((*stream)[0].first == "a");
}

TEST_CASE("namespaces: bad input names the file, line:col and field path") {
  Diagnostics diags;
  CHECK_FALSE(
      load("{\"kind\": \"List\", \"items\": [\n  {\"kind\": \"Namespace\", \"metadata\": "
           "{\"labels\": {}}}]}",
           diags));
  CHECK(diags.to_string().find("ns.json:2:3: error: items[0].metadata.name: metadata.name is "
                               "required (the namespace's name)") != std::string::npos);
  Diagnostics typo;
  typo.set_strict(true);  // as the commands run: unknown fields are errors
  CHECK_FALSE(
      load("{\"kind\": \"Namespace\",\n \"metadata\": {\"name\": \"a\", \"lables\": {}}}", typo));
  INFO(typo.to_string());
  CHECK(typo.to_string() ==
        "ns.json:2:28: error: metadata.lables: unknown field; did you mean labels?\n");
  Diagnostics twice;
  CHECK_FALSE(
      load("{\"items\": [{\"metadata\": {\"name\": \"a\"}},\n {\"metadata\": {\"name\": "
           "\"a\"}}]}",
           twice));
  CHECK(twice.to_string().find("items[1].metadata.name: namespace \"a\" is given twice (first at "
                               "line 1:34)") != std::string::npos);
  Diagnostics kind;
  CHECK_FALSE(load("{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}}", kind));
  CHECK(kind.to_string().find("kind: expected a Namespace (kubectl get namespaces -o json)") !=
        std::string::npos);
}

TEST_CASE("namespaces: plan --namespaces exits 3 on a bad file and matches by label") {
  const std::string nodes = R"({"kind": "List", "items": [
    {"kind": "Node", "metadata": {"name": "n1", "labels": {"kubernetes.io/hostname": "n1"}},
     "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}},
    {"kind": "Node", "metadata": {"name": "n2", "labels": {"kubernetes.io/hostname": "n2"}},
     "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "10"}}}]})";
  const std::string pods = R"({"kind": "List", "items": [
    {"kind": "Pod", "metadata": {"name": "m", "namespace": "mon", "labels": {"app": "m"}},
     "spec": {"nodeName": "n2", "containers": [{"name": "c"}]}, "status": {"phase": "Running"}}]})";
  const std::string request = R"(apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - labelSelector: {matchLabels: {app: m}}
          namespaceSelector: {matchLabels: {team: obs}}
          topologyKey: kubernetes.io/hostname
  containers: [{name: c}]
)";
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{"nodes.json", nodes};
  o.pods = Source{"pods.json", pods};
  o.request = Source{"pod.yaml", request};
  o.strict = true;
  o.namespaces = Source{"ns.yaml", "kind: Namespace\nmetadata: {name: mon, labels: {team: obs}}\n"};
  const RunResult good = run(o);
  INFO(good.err);
  CHECK(good.exit == ExitCode::Ok);
  REQUIRE(good.deploy);
  CHECK(*good.deploy == DeployMap{0, 1});
  o.namespaces = Source{"ns.yaml", "kind: Namespace\nmetadata: {name: mon, labels: [team]}\n"};
  const RunResult bad = run(o);
  CHECK(bad.exit == ExitCode::Invalid);
  CHECK(bad.err.find("ns.yaml:2:") != std::string::npos);
  CHECK(bad.err.find("metadata.labels") != std::string::npos);
}
