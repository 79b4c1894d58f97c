// ImageLocality: the score plugin against Kubernetes' own test table
// (pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go,
// TestImageLocalityPriority and TestNormalizedImageName), the node list's
// status.images and a manifest's container images as eruplan reads them, and
// a plan it decides.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "k8s_profile.h"
#include "kubernetes.h"
#include "requests.h"

using namespace eruplan;

namespace {

constexpr Bytes kMb = 1024 * 1024;

// A node holding `images` (each name with its size in MiB), as the
// kubectl reader leaves it: sorted by name.
Node image_node(const std::string& name, std::vector<std::pair<std::string, Bytes>> images) {
  Node node;
  node.name = name;
  node.kubernetes = true;
  for (auto& image : images) image.second *= kMb;
  std::sort(images.begin(), images.end());
  node.images = std::move(images);
  return node;
}

// The test table's nodes, by the images they hold.
Node node403002000(const std::string& name) {
  return image_node(name, {{"gcr.io/40:latest", 40},
                           {"gcr.io/40:v1", 40},
                           {"gcr.io/300:latest", 300},
                           {"gcr.io/300:v1", 300},
                           {"gcr.io/2000:latest", 2000}});
}
Node node25010(const std::string& name) {
  return image_node(name,
                    {{"gcr.io/250:latest", 250}, {"gcr.io/10:latest", 10}, {"gcr.io/10:v1", 10}});
}
Node node60040900(const std::string& name) {
  return image_node(
      name, {{"gcr.io/600:latest", 600}, {"gcr.io/40:latest", 40}, {"gcr.io/900:latest", 900}});
}
Node node300600900(const std::string& name) {
  return image_node(
      name, {{"gcr.io/300:latest", 300}, {"gcr.io/600:latest", 600}, {"gcr.io/900:latest", 900}});
}
Node node400030(const std::string& name) {
  return image_node(name, {{"gcr.io/4000:latest", 4000}, {"gcr.io/30:latest", 30}});
}
Node node203040(const std::string& name) {
  return image_node(name,
                    {{"gcr.io/20:latest", 20}, {"gcr.io/30:latest", 30}, {"gcr.io/40:latest", 40}});
}

// The pod's images, init containers first, as the reader normalizes them.
std::vector<std::int64_t> scores(std::vector<Node> nodes, std::vector<std::string> images) {
  Inventory inventory;
  inventory.nodes = std::move(nodes);
  PodScheduling pod;
  pod.images = std::move(images);
  std::vector<std::int64_t> out = k8s_image_locality(inventory, pod);
  if (out.empty()) out.assign(inventory.nodes.size(), 0);
  return out;
}

}  // namespace

TEST_CASE("TestImageLocalityPriority: Kubernetes' table") {
  using V = std::vector<std::int64_t>;
  SUBCASE("two images spread on two nodes, prefer the larger image one") {
    CHECK(scores({node403002000("node1"), node25010("node2")},
                 {"gcr.io/40:latest", "gcr.io/250:latest"}) == V{0, 5});
  }
  SUBCASE("two images on one node, prefer this node") {
    CHECK(scores({node403002000("node1"), node25010("node2")},
                 {"gcr.io/40:latest", "gcr.io/300:latest"}) == V{7, 0});
  }
  SUBCASE("if exceed limit, use limit") {
    CHECK(scores({node400030("node1"), node25010("node2")},
                 {"gcr.io/10:latest", "gcr.io/4000:latest"}) == V{100, 0});
  }
  SUBCASE("if exceed limit, use limit (with node which has no images present)") {
    CHECK(scores({node400030("node1"), node25010("node2"), image_node("node3", {})},
                 {"gcr.io/10:latest", "gcr.io/4000:latest"}) == V{66, 0, 0});
  }
  SUBCASE("pod with multiple large images, node2 is preferred") {
    CHECK(scores({node60040900("node1"), node300600900("node2"), image_node("node3", {})},
                 {"gcr.io/300:latest", "gcr.io/600:latest", "gcr.io/900:latest"}) == V{32, 36, 0});
  }
  SUBCASE("pod with multiple small images") {
    CHECK(scores({node203040("node1"), node400030("node2")},
                 {"gcr.io/30:latest", "gcr.io/40:latest"}) == V{1, 0});
  }
  SUBCASE("include InitContainers: two images spread on two nodes, prefer the larger image one") {
    CHECK(scores({node403002000("node1"), node203040("node2")},
                 {"gcr.io/300:latest", "gcr.io/30:latest"}) == V{6, 0});
  }
}

namespace {

const std::string kNodes = R"(kind: NodeList
apiVersion: v1
items:
  - metadata: {name: n1}
    status:
      allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
      images:
        - names: ["registry.example.com:5000/shop/web@sha256:0f1e", "registry.example.com:5000/shop/web:2.1"]
          sizeBytes: 629145600
        - names: [root:latest]
          sizeBytes: 41943040
  - metadata: {name: n2}
    status:
      allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
      images:
        - names: [root:latest]
          sizeBytes: 10485760
        - names: [root:latest]
          sizeBytes: 52428800
  - metadata: {name: n3}
    status:
      allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
)";

Inventory nodes() {
  Diagnostics diags;
  std::optional<Inventory> inv =
      load_nodes(Source{"nodes.yaml", kNodes}, NodesFormat::Kubernetes, diags);
  INFO(diags.to_string());
  REQUIRE(inv);
  return std::move(*inv);
}

// The images of the first request of `manifest`, as read.
std::vector<std::string> manifest_images(const std::string& manifest, Inventory& inventory) {
  Diagnostics diags;
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"d.yaml", manifest}, RequestOverrides{},
                                      KubernetesOptions{}, false, diags, matched, &inventory);
  INFO(diags.to_string());
  REQUIRE(set);
  REQUIRE(!set->requests.empty());
  REQUIRE(set->requests[0].pod);
  return set->requests[0].pod->images;
}

std::string pod_with_images(const std::string& init, const std::string& containers) {
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n" +
         (init.empty() ? "" : "  initContainers: [" + init + "]\n") + "  containers: [" +
         containers + "]\n";
}

}  // namespace

TEST_CASE("status.images: every name with its size, sorted; a name listed twice keeps its last") {
  const Inventory inv = nodes();
  REQUIRE(inv.nodes.size() == 3);
  using Images = std::vector<std::pair<std::string, Bytes>>;
  CHECK(inv.nodes[0].images.get() ==
        Images{{"registry.example.com:5000/shop/web:2.1", 629145600},
               {"registry.example.com:5000/shop/web@sha256:0f1e", 629145600},
               {"root:latest", 41943040}});
  CHECK(inv.nodes[1].images.get() == Images{{"root:latest", 52428800}});
  CHECK(inv.nodes[2].images.get().empty());
}

TEST_CASE("TestNormalizedImageName: a container's image as the node lists it") {
  Inventory inv = nodes();
  // Kubernetes' four cases: "root" and "gcr.io:5000/root" get :latest,
  // "root:tag" and a digest stay; init containers come first.
  CHECK(manifest_images(pod_with_images("{name: i, image: root}",
                                        "{name: a, image: \"gcr.io:5000/root\"}, {name: b, image: "
                                        "\"root:tag\"}, {name: c, image: \"root@sha256:4813\"}"),
                        inv) == std::vector<std::string>{"root:latest", "gcr.io:5000/root:latest",
                                                         "root:tag", "root@sha256:4813"});
  // A container without an image counts as a container and matches none.
  CHECK(manifest_images(pod_with_images("", "{name: a}"), inv) == std::vector<std::string>{""});
}

TEST_CASE("ImageLocality decides between equal nodes, in the plan and its scores") {
  // web's image (600Mi) is on n1 only: 600Mi x 1/3 = 200Mi. Its sidecar's
  // (root) is on n1 (40Mi) and n2 (50Mi, the last listed): x 2/3, 26.7Mi
  // and 33.3Mi. Over two containers the range is [23Mi, 2000Mi]: n1 scores
  // 100 x (226.7 - 23) / 1977 = 10, n2 0 (33.3Mi - 23Mi is under 1%), n3 0.
  // Every other plugin scores the three empty nodes alike, so the totals
  // differ by ImageLocality alone.
  Inventory inv = nodes();
  const std::string deployment =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n"
      "  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n"
      "    spec:\n      containers:\n"
      "        - {name: web, image: \"registry.example.com:5000/shop/web:2.1\", resources: "
      "{requests: {cpu: 100m, memory: 128Mi}}}\n"
      "        - {name: sidecar, image: root, resources: {requests: {cpu: 100m, memory: 128Mi}}}\n";
  Diagnostics diags;
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"d.yaml", deployment}, RequestOverrides{},
                                      KubernetesOptions{}, false, diags, matched, &inv);
  INFO(diags.to_string());
  REQUIRE(set);
  const std::vector<std::int64_t> expected = {10, 0, 0};
  CHECK(k8s_image_locality(inv, *set->requests[0].pod) == expected);
  PlanOptions options;
  std::vector<RequestOutcome> out = plan_requests(inv, set->requests, options);
  REQUIRE(out.size() == 1);
  REQUIRE(out[0].scores.size() == 3);
  // The plugins' scores in output order end with ImageLocality's.
  CHECK(out[0].scores[0].plugins.back() == 10);
  CHECK(out[0].scores[1].plugins.back() == 0);
  CHECK(out[0].scores[0].total == out[0].scores[2].total + 10);
}
