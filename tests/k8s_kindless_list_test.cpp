// Lists without kind, as support bundles and client libraries write them
// (SPEC §15): a pod file given to --pods is read whatever its list says
// about kinds (every item is a pod there); -n reads a list without kind as
// Kubernetes', its items Nodes when they say so, and otherwise names each
// kind-less item (exit 3) unless --nodes-format kubernetes.
#include <doctest/doctest.h>

#include <string>

#include "kubernetes.h"
#include "load.h"

using namespace eruplan;

namespace {

constexpr Bytes Gi = 1024LL * 1024 * 1024;

const char* kNodes = R"({"kind": "NodeList", "apiVersion": "v1", "items": [
  {"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}},
  {"metadata": {"name": "n2"}, "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}]})";

// A running pod's JSON, with `kind` (a "kind" member) or without.
std::string pod(const std::string& name, const std::string& node, bool kind) {
  return std::string("{") + (kind ? R"("kind": "Pod", )" : "") + R"("metadata": {"name": ")" +
         name + R"(", "namespace": "ns"}, "spec": {"nodeName": ")" + node +
         R"(", "containers": [{"resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]}})";
}

struct Pods {
  std::optional<Inventory> inventory;
  Diagnostics diags;
};

Pods load_pod_file(const std::string& text) {
  Pods p;
  p.inventory = load_nodes(Source{"nodes.json", kNodes}, NodesFormat::Auto, p.diags);
  REQUIRE(p.inventory);
  load_pods(p.inventory, Source{"pods.json", text}, KubernetesOptions{}, p.diags);
  return p;
}

}  // namespace

TEST_CASE("--pods: a list without kind, its items with kind") {
  const Pods p = load_pod_file(R"({"apiVersion": "v1", "items": [)" + pod("a", "n1", true) + "," +
                               pod("b", "n1", true) + "," + pod("c", "n2", true) + "]}");
  INFO(p.diags.to_string());
  REQUIRE(!p.diags.has_errors());
  REQUIRE(p.inventory);
  CHECK(p.inventory->pods.size() == 3);
  CHECK(p.inventory->nodes[0].memory_used == 2 * Gi);
  CHECK(p.inventory->nodes[0].cpu_used == 1000000000);  // 2 x 500m, in nanocores
  CHECK(p.inventory->nodes[1].memory_used == 1 * Gi);
}

TEST_CASE("--pods: a list without kind and items without kind") {
  const Pods p = load_pod_file(R"({"apiVersion": "v1", "items": [)" + pod("a", "n1", false) + "," +
                               pod("b", "n2", false) + "]}");
  INFO(p.diags.to_string());
  REQUIRE(!p.diags.has_errors());
  CHECK(p.inventory->pods.size() == 2);
  CHECK(p.inventory->nodes[0].memory_used == 1 * Gi);
  CHECK(p.inventory->nodes[1].memory_used == 1 * Gi);
}

TEST_CASE("--pods: kind List with items without kind (a pod file: they are pods)") {
  const Pods p =
      load_pod_file(R"({"apiVersion": "v1", "kind": "List", "items": [)" + pod("a", "n1", false) +
                    "," + pod("b", "n1", true) + "," + pod("c", "n1", false) + "]}");
  INFO(p.diags.to_string());
  REQUIRE(!p.diags.has_errors());
  CHECK(p.inventory->pods.size() == 3);
  CHECK(p.inventory->nodes[0].memory_used == 3 * Gi);
  CHECK(p.inventory->nodes[1].memory_used == 0);
}

TEST_CASE("--pods: an item of another kind in a list without kind is exit 3 at its kind") {
  const Pods p = load_pod_file("{\"apiVersion\": \"v1\", \"items\": [\n" + pod("a", "n1", true) +
                               ",\n{\"kind\": \"Service\", \"metadata\": {\"name\": \"s\"}}]}");
  REQUIRE(p.diags.has_errors());
  CHECK(p.diags.to_string().find("pods.json:3:10: error: items[1].kind: expected a Pod") !=
        std::string::npos);
}

TEST_CASE("-n: a list without kind is Kubernetes' (Nodes by their kind, else named)") {
  const std::string typed = R"({"apiVersion": "v1", "items": [
  {"kind": "Node", "metadata": {"name": "w1"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}},
  {"kind": "Node", "metadata": {"name": "w2"}, "status": {"allocatable": {"cpu": "2", "memory": "8Gi", "pods": "110"}}}]})";
  Diagnostics diags;
  auto inv = load_nodes(Source{"nodes.json", typed}, NodesFormat::Auto, diags);
  INFO(diags.to_string());
  REQUIRE(inv);
  REQUIRE(inv->nodes.size() == 2);
  CHECK(inv->nodes[0].name == "w1");
  CHECK(inv->nodes[1].max_instances == 110);

  // Items without kind: ambiguous without the flag (exit 3 naming each).
  const std::string bare = R"({"apiVersion": "v1", "items": [
  {"metadata": {"name": "w1"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}]})";
  Diagnostics ambiguous;
  CHECK_FALSE(load_nodes(Source{"nodes.json", bare}, NodesFormat::Auto, ambiguous));
  CHECK(ambiguous.to_string().find("nodes.json:2:3: error: items[0]: item \"w1\" has no kind") !=
        std::string::npos);
  Diagnostics forced;
  auto one = load_nodes(Source{"nodes.json", bare}, NodesFormat::Kubernetes, forced);
  REQUIRE(one);
  CHECK(one->nodes.size() == 1);

  // With `nodes` beside `items` it is an eruplan inventory, and items is
  // an unknown field there.
  Diagnostics both;
  both.set_strict(true);
  CHECK_FALSE(
      load_nodes(Source{"nodes.json",
                        "{\"nodes\": [{\"name\": \"a\", \"cpu\": 1, \"memory\": \"1Gi\"}],\n"
                        " \"items\": []}"},
                 NodesFormat::Auto, both));
  CHECK(both.to_string().find("nodes.json:2:2: error: items: unknown field") != std::string::npos);
}

// Found by the grow fuzz target (a template with apiVersion and metadata but
// neither kind nor status): the check for one bare Node read the status
// field's value without asking whether there was one, out of bounds (a
// segmentation fault in the release build). Now such a file is a list
// without items, exit 3.
TEST_CASE("kubernetes nodes: a kindless object with metadata and no status, forced") {
  for (const char* text : {"apiVersion: v1\nmetadata: {name: t}\n", "metadata: {name: t}\n"}) {
    CAPTURE(text);
    Diagnostics diags;
    CHECK_FALSE(load_nodes(Source{"t.yaml", text}, NodesFormat::Kubernetes, diags));
    CHECK(diags.to_string() ==
          "t.yaml:1:1: error: items: items is required (the nodes of a Kubernetes List)\n");
  }
  // grow's --template reads a file with apiVersion or kind that way.
  Diagnostics diags;
  CHECK_FALSE(load_template(Source{"t.yaml", "apiVersion: v1\nmetadata: {name: t}\n"}, 100, diags));
  CHECK(diags.to_string() ==
        "t.yaml:1:1: error: items: items is required (the nodes of a Kubernetes List)\n");
}

TEST_CASE("-n: a YAML stream of Nodes and NodeLists is one node list") {
  // kwok's and kind's example node files, and `kubectl get node A -o yaml;
  // echo ---; ...`, hold one Node per document; before, -n refused them
  // ("malformed YAML: the file holds more than one document").
  const std::string stream =
      "# fake nodes\n---\napiVersion: v1\nkind: Node\nmetadata: {name: w1}\n"
      "status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n"
      "---\n# an empty document follows\n---\napiVersion: v1\nkind: NodeList\nitems:\n"
      "- metadata: {name: w2}\n  status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"10\"}}\n"
      "---\n";
  Diagnostics diags;
  auto inv = load_nodes(Source{"nodes.yaml", stream}, NodesFormat::Auto, diags);
  INFO(diags.to_string());
  REQUIRE(inv);
  REQUIRE(inv->nodes.size() == 2);
  CHECK(inv->nodes[0].name == "w1");
  CHECK(inv->nodes[0].memory == 8 * Gi);
  CHECK(inv->nodes[1].name == "w2");
  CHECK(inv->nodes[1].max_instances == 10);
  CHECK(diags.to_string() == "");

  // The same name twice: exit 3 naming both documents.
  const std::string twice =
      "kind: Node\nmetadata: {name: w1}\nstatus: {allocatable: {cpu: \"4\", memory: 8Gi, pods: "
      "\"110\"}}\n---\nkind: Node\nmetadata: {name: w1}\nstatus: {allocatable: {cpu: \"4\"}}\n";
  Diagnostics dup;
  CHECK_FALSE(load_nodes(Source{"nodes.yaml", twice}, NodesFormat::Auto, dup));
  CHECK(dup.to_string().find("nodes.yaml:6:18: error: documents[1].metadata.name: duplicate node "
                             "name \"w1\": documents[0] and documents[1] are both named so") !=
        std::string::npos);

  // A stream with another kind is not a node list: one document expected.
  Diagnostics mixed;
  CHECK_FALSE(load_nodes(Source{"nodes.yaml", "kind: Node\nmetadata: {name: a}\n---\nkind: Pod\n"},
                         NodesFormat::Auto, mixed));
  CHECK(mixed.to_string().find("more than one document") != std::string::npos);
}

TEST_CASE("--pods: a YAML stream of Pods and pod lists is one pod list") {
  // `kubectl get pod A -o yaml; echo ---; ...` holds one Pod per document;
  // before, --pods refused it ("the file holds more than one document").
  const std::string nodes =
      "kind: Node\nmetadata: {name: w1}\n"
      "status: {allocatable: {cpu: \"8\", memory: 8Gi, pods: \"110\"}}\n";
  Diagnostics diags;
  auto inv = load_nodes(Source{"nodes.yaml", nodes}, NodesFormat::Auto, diags);
  REQUIRE(inv);
  const std::string pod_a =
      "kind: Pod\nmetadata: {name: a}\nspec: {nodeName: w1, containers: [{name: c, resources: "
      "{requests: {cpu: \"2\"}}}]}\nstatus: {phase: Running}\n";
  const std::string stream = "# two pods\n" + pod_a +
                             "---\n---\nkind: PodList\nitems:\n"
                             "- kind: Pod\n  metadata: {name: b}\n  spec: {nodeName: w1, "
                             "containers: [{name: c, resources: {requests: {cpu: 3}}}]}\n"
                             "  status: {phase: Running}\n---\nkind: Pod\nmetadata: {name: c}\n"
                             "spec: {nodeName: w1, containers: [{name: c}]}\n"
                             "status: {phase: Running}\n";
  REQUIRE(apply_pods(*inv, Source{"pods.yaml", stream}, {}, diags));
  CHECK(diags.to_string() == "");
  CHECK(inv->nodes[0].cpu_used == 5'000'000'000);
  CHECK(inv->nodes[0].instances_of("a") == 1);
  CHECK(inv->nodes[0].instances_of("b") == 1);
  CHECK(inv->nodes[0].instances_of("c") == 1);
  // A document of another kind is an error at its place, as a list item's.
  const std::string service = pod_a + "---\nkind: Service\nmetadata: {name: s}\n";
  Diagnostics other;
  CHECK_FALSE(apply_pods(*inv, Source{"pods.yaml", service}, {}, other));
  CHECK(other.to_string() ==
        "pods.yaml:6:7: error: items[1].kind: expected a Pod (a pod list, as kubectl get pods -A "
        "-o json), got Service\n");
}
