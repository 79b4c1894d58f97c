// SPEC §12: Kubernetes quantities, node lists, pod lists and workload
// manifests as eruplan inputs, through the loaders and the whole pipeline.
#include "kubernetes.h"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>

#include "pipeline.h"

using namespace eruplan;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string fixture(const std::string& name) {
  return slurp(std::string(ERUPLAN_SOURCE_DIR) + "/fixtures/kubernetes/" + name);
}

std::int64_t whole(std::string_view text, int scale = 0) {
  std::string error;
  const auto v = k8s_whole(text, scale, error);
  INFO(text << ": " << error);
  REQUIRE(v.has_value());
  return *v;
}

std::string whole_error(std::string_view text, int scale = 0) {
  std::string error;
  const auto v = k8s_whole(text, scale, error);
  CHECK_FALSE(v.has_value());
  return error;
}

const Node& node(const Inventory& inv, std::string_view name) {
  for (const Node& n : inv.nodes)
    if (n.name == name) return n;
  FAIL("no node " << name);
  return inv.nodes.front();
}

std::int64_t instances(const Node& n, std::string_view app) { return n.instances_of(app); }

// The fixture's node list with its pods applied.
Inventory cluster(const KubernetesOptions& options = {}) {
  Diagnostics diags;
  auto inv = load_nodes(Source{"nodes.json", fixture("nodes.json")}, NodesFormat::Auto, diags);
  REQUIRE(inv.has_value());
  REQUIRE(apply_pods(*inv, Source{"pods.json", fixture("pods.json")}, options, diags));
  return *inv;
}

struct Loaded {
  std::optional<RequestSet> set;
  Diagnostics diags;
  bool matched = false;
  std::string messages() const { return diags.to_string(); }
};

Loaded manifests(std::string text, const RequestOverrides& overrides = {},
                 std::string name = "app.yaml", const KubernetesOptions& options = {}) {
  Loaded l;
  l.set = load_kubernetes_requests(Source{std::move(name), std::move(text)}, overrides, options,
                                   true, l.diags, l.matched);
  return l;
}

// A pod list of one pod with the given spec (JSON text).
std::string one_pod(const std::string& spec, const std::string& labels = "{}",
                    const std::string& phase = "Running") {
  return R"({"kind": "List", "apiVersion": "v1", "items": [{"kind": "Pod", "metadata": {"name": "p1", "namespace": "ns", "labels": )" +
         labels + R"(}, "spec": )" + spec + R"(, "status": {"phase": ")" + phase + R"("}}]})";
}

const char* kOneNode = R"({"kind": "NodeList", "apiVersion": "v1", "items": [
  {"metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110", "example.com/fpga": "2"}}}]})";

Node pod_usage(const std::string& pods, const KubernetesOptions& options = {}) {
  Diagnostics diags;
  auto inv = load_nodes(Source{"nodes.json", kOneNode}, NodesFormat::Auto, diags);
  REQUIRE(inv.has_value());
  const bool ok = apply_pods(*inv, Source{"pods.json", pods}, options, diags);
  INFO(diags.to_string());
  REQUIRE(ok);
  return inv->nodes.front();
}

RunResult run_with(const std::string& nodes, const std::string& request,
                   std::optional<std::string> pods = std::nullopt,
                   Command command = Command::Plan) {
  RunOptions o;
  o.command = command;
  o.nodes = Source{"nodes.json", nodes};
  o.request = Source{"app.yaml", request};
  if (pods) o.pods = Source{"pods.json", *pods};
  o.output = OutputFormat::Json;
  return run(o);
}

bool has_problem(const RunResult& r, std::string_view path, std::uint32_t line) {
  for (const Diagnostic& d : r.problems)
    if (d.origin.path == path && d.origin.line == line && d.severity == Severity::Error)
      return true;
  return false;
}

}  // namespace

TEST_CASE("kubernetes quantity: the Kubernetes grammar, rounded up to whole units") {
  CHECK(whole("1") == 1);
  CHECK(whole("0") == 0);
  CHECK(whole("-0") == 0);
  CHECK(whole("+3") == 3);
  CHECK(whole("1.5Gi") == 1610612736);
  CHECK(whole("7805048Ki") == 7992369152);
  CHECK(whole("2k") == 2000);
  CHECK(whole("1M") == 1000000);
  CHECK(whole("1E") == 1000000000000000000);  // E alone is exa
  CHECK(whole("1e3") == 1000);                // e3 is an exponent
  CHECK(whole("1E3") == 1000);
  CHECK(whole("5e-1") == 1);  // half a byte rounds up
  CHECK(whole("0.5") == 1);
  CHECK(whole(".5") == 1);
  CHECK(whole("5.") == 5);
  CHECK(whole("100m") == 1);  // a tenth of a byte: 1
  CHECK(whole("7Ei") == 8070450532247928832);
  CHECK(whole("0.000000000000000000000000000000000000000001") == 1);
  CHECK(whole("1000000000000000000000e-10") == 100000000000);
  // CPU in nanocores
  CHECK(whole("15890m", 9) == 15890000000);
  CHECK(whole("1", 9) == 1000000000);
  CHECK(whole("250m", 9) == 250000000);
  CHECK(whole("1u", 9) == 1000);
  CHECK(whole("1n", 9) == 1);
  CHECK(whole("0.1n", 9) == 1);
  CHECK(whole("0.0000000015", 9) == 2);
  CHECK(whole("1.5e-3", 9) == 1500000);

  CHECK(whole_error("-1") == "negative quantity \"-1\"");
  CHECK(whole_error("8Ei").find("too large") != std::string::npos);
  CHECK(whole_error("1e999999").find("too large") != std::string::npos);
  for (const char* bad : {"", "K", "1K", "1Kb", "1.2.3", "abc", "1e", "1e+", "1 Gi", "Gi", "--1"})
    CHECK_MESSAGE(whole_error(bad).find("expected a Kubernetes quantity") != std::string::npos,
                  bad);
  CHECK(whole_error("12345678901234567891").find("more than 19 significant digits") !=
        std::string::npos);
  CHECK(whole("1234567890123456789") == INT64_C(1234567890123456789));  // 19 digits
  CHECK(whole_error("123456789012345678900").find("too large") != std::string::npos);
}

TEST_CASE("kubernetes quantity: agrees with eruplan's sizes and CPU wherever both are exact") {
  // Oracle: the §2 parsers, on thousands of random quantities both grammars
  // read (whole byte counts, nanocore-exact CPU amounts).
  std::mt19937_64 rng(12);
  const char* size_units[] = {"", "k", "M", "G", "T", "Ki", "Mi", "Gi", "Ti", "Pi"};
  int compared = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text = std::to_string(rng() % 8000);  // 8000Pi still fits an int64
    if (rng() % 3 == 0) text += "." + std::to_string(rng() % 1000);
    const bool cpu = rng() % 2 == 0;
    if (cpu)
      text += rng() % 2 ? "m" : "";
    else
      text += size_units[rng() % std::size(size_units)];
    std::string e1, e2;
    const auto mine = k8s_whole(text, cpu ? 9 : 0, e1);
    const auto theirs = cpu ? parse_cpu(text, e2) : parse_size(text, e2);
    if (!theirs) {  // a fractional byte count: ours rounds it up
      INFO(text << ": " << e2);
      REQUIRE(mine.has_value());
      continue;
    }
    ++compared;
    INFO(text);
    REQUIRE(mine.has_value());
    CHECK(*mine == *theirs);
  }
  CHECK(compared > 15000);
}

TEST_CASE("kubernetes nodes: kubectl get nodes -o json as an inventory") {
  Diagnostics diags;
  const auto inv =
      load_nodes(Source{"nodes.json", fixture("nodes.json")}, NodesFormat::Auto, diags);
  REQUIRE(inv.has_value());
  CHECK(diags.items().empty());  // nothing warned, though kubectl writes many more fields
  REQUIRE(inv->nodes.size() == 4);
  CHECK(inv->share_base == 100);
  const Node& cp = inv->nodes[0];
  CHECK(cp.name == "cp-1");
  CHECK(cp.available);
  CHECK(cp.cpu_given == 3800000000);
  CHECK(cp.plain_cores == 3);
  CHECK(cp.plain_core_pieces == 100);
  CHECK(cp.memory == 7805048LL * 1024);
  CHECK(cp.storage == 47233297124);
  CHECK(cp.max_instances == 110);
  CHECK(cp.extended.empty());  // hugepages-* are not extended resources
  REQUIRE(cp.taints.size() == 1);
  CHECK(cp.taints[0].key == "node-role.kubernetes.io/control-plane");
  CHECK(cp.taints[0].value == "");
  CHECK(cp.taints[0].effect == "NoSchedule");
  REQUIRE(cp.labels.size() == 7);
  CHECK(cp.labels[0].first == "beta.kubernetes.io/arch");
  CHECK(cp.labels[5].first == "node-role.kubernetes.io/control-plane");
  CHECK(cp.labels[5].second == "");

  const Node& w1 = node(*inv, "worker-1");
  CHECK(w1.cpu_given == 15890000000);
  CHECK(w1.plain_cores == 15);
  CHECK(w1.cpu_total() == 15890000000);
  CHECK(w1.taints.empty());
  CHECK_FALSE(node(*inv, "worker-2").available);

  const Node& gpu = node(*inv, "gpu-1");
  REQUIRE(gpu.extended.size() == 1);
  CHECK(gpu.extended[0].name == "nvidia.com/gpu");
  CHECK(gpu.extended[0].total == 4);
  CHECK(gpu.taints[0].value == "present");
}

TEST_CASE("kubernetes nodes: detection by kind, --nodes-format, extended names sorted") {
  const std::string list = R"({"kind": "NodeList", "apiVersion": "v1", "items": [
    {"metadata": {"name": "a", "labels": null}, "spec": {"unschedulable": false, "taints": null},
     "status": {"allocatable": {"pods": "10", "z.io/x": "1k", "a.io/y": "3", "cpu": null}}}]})";
  Diagnostics diags;
  auto inv = load_nodes(Source{"n.json", list}, NodesFormat::Auto, diags);
  REQUIRE(inv.has_value());
  const Node& n = inv->nodes[0];
  REQUIRE(n.extended.size() == 2);
  CHECK(n.extended[0].name == "a.io/y");
  CHECK(n.extended[1].name == "z.io/x");
  CHECK(n.extended[1].total == 1000);
  CHECK(n.cpu_given == 0);  // null is "not given"
  CHECK(n.available);

  // Forced: a list without a Kubernetes kind.
  const std::string bare =
      R"({"items": [{"metadata": {"name": "b"}, "status": {"allocatable": {"memory": "1Gi"}}}]})";
  Diagnostics d2;
  auto forced = load_nodes(Source{"n.json", bare}, NodesFormat::Kubernetes, d2);
  REQUIRE(forced.has_value());
  CHECK(forced->nodes[0].memory == 1073741824);
  // ...and otherwise a list without kind whose item has none either: named
  // (an eruplan inventory would have nodes:, not items:).
  Diagnostics d3;
  CHECK_FALSE(load_nodes(Source{"n.json", bare}, NodesFormat::Auto, d3).has_value());
  CHECK(d3.to_string().find("n.json:1:12: error: items[0]: item \"b\" has no kind") !=
        std::string::npos);
}

TEST_CASE("kubernetes nodes: bad documents are exit 3 with file, line:col and field path") {
  const std::string nodes = R"({"kind": "NodeList", "apiVersion": "v1", "items": [
  {"metadata": {"name": "a"}, "status": {"allocatable": {"memory": "1Gi"}}},
  {"metadata": {"name": "b"}, "status": {"allocatable": {"memory": "12Zi", "cpu": "-2"}}},
  {"metadata": {"name": "a"}, "spec": {"unschedulable": "maybe", "taints": [{"key": "k", "effect": "Sometimes"}]}},
  {"kind": "Pod", "metadata": {"name": "c"}},
  {"metadata": {}}
]})";
  const RunResult r = run_with(nodes, "memory: 1Gi\ncount: 1\n");
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(has_problem(r, "items[1].status.allocatable.memory", 3));
  CHECK(has_problem(r, "items[1].status.allocatable.cpu", 3));
  CHECK(has_problem(r, "items[2].metadata.name", 4));
  CHECK(has_problem(r, "items[2].spec.unschedulable", 4));
  CHECK(has_problem(r, "items[2].spec.taints[0].effect", 4));
  CHECK(has_problem(r, "items[3].kind", 5));
  CHECK(has_problem(r, "items[4].metadata.name", 6));
  CHECK(r.err.find("nodes.json:3:") != std::string::npos);
  CHECK(r.err.find("negative quantity \"-2\"") != std::string::npos);
  CHECK(r.err.find("duplicate node name \"a\": items[0] and items[2]") != std::string::npos);
}

TEST_CASE("kubernetes pods: usage and instances from kubectl get pods") {
  const Inventory inv = cluster();
  const Node& w1 = node(inv, "worker-1");
  // coredns 100m; web-1 max(500m + 100m sidecar, 2 migrate + the 100m
  // sidecar started before it) = 2.1; web-2 600m; cache-0 its limit 1500m +
  // overhead 250m. Succeeded/Failed pods: nothing.
  CHECK(w1.cpu_used == 4550000000);
  CHECK(w1.memory_used == (70LL + 1152 + 1152 + 4096 + 120) * 1048576);
  CHECK(instances(w1, "web") == 2);  // app.kubernetes.io/name wins over app
  CHECK(instances(w1, "cache") == 1);
  CHECK(instances(w1, "coredns-76f75df574-8xk2p") == 1);  // no app label: the pod name
  CHECK(instances(w1, "report") == 0);
  CHECK(w1.instances_total() == 4);
  const Node& w2 = node(inv, "worker-2");  // cordoned, still running its pod
  CHECK(w2.cpu_used == 1500000000);
  CHECK(instances(w2, "cache") == 1);
  const Node& gpu = node(inv, "gpu-1");
  CHECK(gpu.extended[0].used == 1);
  CHECK(gpu.storage_used == 20LL << 30);
  CHECK(gpu.cpu_used == 8000000000);
  const Node& cp = node(inv, "cp-1");
  CHECK(cp.cpu_used == 350000000);
  CHECK(cp.memory_used == 100LL << 20);

  // --app-label replaces both keys.
  KubernetesOptions by_component;
  by_component.app_label = "component";
  const Inventory inv2 = cluster(by_component);
  CHECK(instances(node(inv2, "cp-1"), "etcd") == 1);
  CHECK(instances(node(inv2, "worker-1"), "web") == 0);
  CHECK(instances(node(inv2, "worker-1"), "web-7d9c6b5f4-abcde") == 1);
}

TEST_CASE("kubernetes pods: the effective request, resource by resource") {
  // Sum of containers vs the largest init container, per resource; overhead added.
  Node n = pod_usage(one_pod(R"({"nodeName": "n1",
    "containers": [{"resources": {"requests": {"cpu": "1", "memory": "1Gi"}}},
                   {"resources": {"requests": {"cpu": "500m", "memory": "1Gi"}, "limits": {"example.com/fpga": "1"}}}],
    "initContainers": [{"resources": {"requests": {"cpu": "3", "memory": "512Mi"}}},
                       {"resources": {"requests": {"memory": "3Gi"}}}],
    "overhead": {"cpu": "100m", "memory": "1Mi"}})"));
  CHECK(n.cpu_used == 3100000000);                  // max(1.5, 3) + 0.1
  CHECK(n.memory_used == (3LL << 30) + (1 << 20));  // max(2Gi, 3Gi) + 1Mi
  CHECK(n.extended[0].used == 1);                   // limit without request
  CHECK(n.instances_of("p1") == 1);

  // A sidecar (restartPolicy Always) adds to the containers, and the init
  // container after it needs its own 1.5 plus the sidecar's 1 (PodRequests).
  n = pod_usage(one_pod(R"({"nodeName": "n1",
    "containers": [{"resources": {"requests": {"cpu": "1"}}}],
    "initContainers": [{"restartPolicy": "Always", "resources": {"requests": {"cpu": "1"}}},
                       {"resources": {"requests": {"cpu": "1500m"}}}]})",
                        R"({"app": "db"})"));
  CHECK(n.cpu_used == 2500000000);  // max(1 + 1, 1.5 + 1)
  CHECK(n.instances_of("db") == 1);

  // A request wins over its limit; phases Succeeded/Failed and unbound pods count nothing.
  n = pod_usage(one_pod(
      R"({"nodeName": "n1", "containers": [{"resources": {"requests": {"cpu": "1"}, "limits": {"cpu": "4"}}}]})"));
  CHECK(n.cpu_used == 1000000000);
  CHECK(pod_usage(
            one_pod(
                R"({"nodeName": "n1", "containers": [{"resources": {"requests": {"cpu": "1"}}}]})",
                "{}", "Succeeded"))
            .cpu_used == 0);
  CHECK(pod_usage(one_pod(R"({"containers": [{"resources": {"requests": {"cpu": "1"}}}]})", "{}",
                          "Pending"))
            .cpu_used == 0);
  // Any other phase counts (Unknown, Pending but bound).
  CHECK(pod_usage(
            one_pod(
                R"({"nodeName": "n1", "containers": [{"resources": {"requests": {"cpu": "1"}}}]})",
                "{}", "Unknown"))
            .cpu_used == 1000000000);
}

TEST_CASE("kubernetes pods: unknown nodes are a warning, more than allocatable fills the node") {
  Diagnostics diags;
  auto inv = load_nodes(Source{"nodes.json", kOneNode}, NodesFormat::Auto, diags);
  REQUIRE(inv);
  const std::string pods = R"({"kind": "List", "apiVersion": "v1", "items": [
    {"metadata": {"name": "a", "namespace": "x"}, "spec": {"nodeName": "gone", "containers": []}},
    {"metadata": {"name": "b", "namespace": "x"}, "spec": {"nodeName": "gone", "containers": []}},
    {"metadata": {"name": "c"}, "spec": {"nodeName": "n1", "containers": [{"resources": {"requests": {"memory": "20Gi"}}}]}}]})";
  REQUIRE(apply_pods(*inv, Source{"pods.json", pods}, {}, diags));
  CHECK_FALSE(diags.has_errors());
  const std::string text = diags.to_string();
  CHECK(text.find("pods.json:2:72: warning: items[0].spec.nodeName: 2 pods on node \"gone\", which "
                  "is not in the node list, ignored (first: x/a)") != std::string::npos);
  CHECK(text.find("pods on n1 request 21474836480 bytes of memory, more than its allocatable "
                  "17179869184; counted as full") != std::string::npos);
  CHECK(inv->nodes[0].memory_used == 16LL << 30);
}

TEST_CASE("kubernetes pods: bad documents are exit 3 with the field path") {
  const std::string pods = R"({"kind": "List", "apiVersion": "v1", "items": [
    {"metadata": {"name": "a"}, "spec": {"nodeName": "n1", "containers": [
      {"resources": {"requests": {"cpu": "lots"}}}]}}]})";
  RunOptions o;
  o.command = Command::Plan;
  o.nodes = Source{"nodes.json", kOneNode};
  o.pods = Source{"pods.json", pods};
  o.overrides.set("--memory", "1Gi");
  o.overrides.set("--count", "1");
  const RunResult r = run(o);
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(has_problem(r, "items[0].spec.containers[0].resources.requests.cpu", 3));
  CHECK(r.err.find("pods.json:3:42: error: items[0].spec.containers[0].resources.requests.cpu: "
                   "expected a Kubernetes quantity") != std::string::npos);
}

TEST_CASE("kubernetes manifests: a Deployment is a request") {
  Loaded l = manifests(fixture("deployment.yaml"));
  REQUIRE(l.matched);
  INFO(l.messages());
  REQUIRE(l.set.has_value());
  CHECK(l.diags.items().empty());
  CHECK_FALSE(l.set->list);
  const Request& r = l.set->requests.front();
  CHECK(r.name == "web");
  CHECK(r.app == "web");
  CHECK(r.count == 6);
  CHECK(r.cpu == 600000000);  // 500m + the 100m sidecar
  CHECK(r.memory == 1152LL << 20);
  CHECK(r.cpu_fit);
  if (parse_strategy("score"))
    CHECK(r.strategy == Strategy::Score);
  else
    CHECK(r.strategy == Strategy::Auto);
  REQUIRE(r.filter.labels.size() == 1);
  CHECK(r.filter.labels[0] == std::pair<std::string, std::string>{"pool", "general"});

  // --strategy and --count replace what the manifest says.
  RequestOverrides o;
  o.set("--strategy", "drained");
  o.set("--count", "2");
  Loaded l2 = manifests(fixture("deployment.yaml"), o);
  REQUIRE(l2.set);
  CHECK(l2.set->requests[0].strategy == Strategy::Drained);
  CHECK(l2.set->requests[0].count == 2);
}

TEST_CASE("kubernetes manifests: Pod, StatefulSet, app labels, tolerations, affinity") {
  Loaded pod = manifests(R"(apiVersion: v1
kind: Pod
metadata: {name: debug, labels: {app: tools}}
spec:
  nodeName: worker-1
  affinity: {nodeAffinity: {}}
  tolerations:
    - {key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}
    - {operator: Exists}
  containers:
    - name: sh
      resources: {limits: {cpu: 250m, memory: 64Mi, nvidia.com/gpu: 1, hugepages-2Mi: 4Mi}}
)");
  REQUIRE(pod.set);
  const Request& p = pod.set->requests[0];
  CHECK(p.app == "tools");
  CHECK(p.name == "debug");
  CHECK(p.count == 1);
  CHECK(p.cpu == 250000000);
  CHECK(p.memory == 64LL << 20);
  REQUIRE(p.extended.size() == 1);
  CHECK(p.extended[0] == std::pair<std::string, std::int64_t>{"nvidia.com/gpu", 1});
  CHECK(p.filter.nodes == std::vector<std::string>{"worker-1"});
  REQUIRE(p.tolerations.size() == 2);
  CHECK(p.tolerations[0].key == "dedicated");
  CHECK(p.tolerations[0].value == "gpu");
  CHECK(p.tolerations[0].effect == "NoSchedule");
  CHECK_FALSE(p.tolerations[0].exists);
  CHECK(p.tolerations[1].exists);
  CHECK(p.tolerations[1].key.empty());
  const std::string text = pod.messages();
  CHECK(text.find("affinity is not modelled") == std::string::npos);  // read now
  CHECK(text.find("hugepages-2Mi is not modelled") != std::string::npos);

  // App from the template's labels, then the object's, then the name;
  // replicas default to 1.
  Loaded sts = manifests(R"(apiVersion: apps/v1
kind: StatefulSet
metadata: {name: pg, labels: {app.kubernetes.io/name: postgres}}
spec:
  template:
    metadata: {labels: {tier: db}}
    spec: {containers: [{resources: {requests: {cpu: "2", memory: 8Gi, ephemeral-storage: 10Gi}}}]}
)");
  REQUIRE(sts.set);
  CHECK(sts.set->requests[0].app == "postgres");
  CHECK(sts.set->requests[0].count == 1);
  CHECK(sts.set->requests[0].storage == 10LL << 30);
  KubernetesOptions by_tier;
  by_tier.app_label = "tier";
  Loaded tier = manifests(R"(apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs1}
spec: {replicas: 3, template: {metadata: {labels: {tier: db, app: x}}, spec: {containers: []}}}
)",
                          {}, "app.yaml", by_tier);
  REQUIRE(tier.set);
  CHECK(tier.set->requests[0].app == "db");
  CHECK(tier.set->requests[0].count == 3);
}

TEST_CASE("kubernetes manifests: a List or a YAML stream is several requests") {
  Loaded stream = manifests(R"(---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec: {replicas: 2, template: {metadata: {labels: {app: api}}, spec: {containers: [{resources: {requests: {cpu: 1}}}]}}}
---
apiVersion: v1
kind: Pod
metadata: {name: one-off}
spec: {containers: [{resources: {requests: {memory: 1Gi}}}]}
---
)");
  INFO(stream.messages());
  REQUIRE(stream.set);
  CHECK(stream.set->list);
  REQUIRE(stream.set->requests.size() == 2);
  CHECK(stream.set->requests[0].name == "api");
  CHECK(stream.set->requests[0].count == 2);
  CHECK(stream.set->requests[1].name == "one-off");
  CHECK(stream.set->requests[1].app == "one-off");

  Loaded list = manifests(
      R"({"apiVersion": "v1", "kind": "List", "items": [
          {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "a"}, "spec": {"template": {"spec": {"containers": []}}}}]})",
      {}, "list.json");
  REQUIRE(list.set);
  CHECK_FALSE(list.set->list);  // one pod-carrying object is one request, List or not
  CHECK(list.set->requests.size() == 1);

  // Request flags other than --strategy cannot change several manifests.
  RequestOverrides o;
  o.set("--count", "3");
  Loaded flagged = manifests(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec: {}\n---\napiVersion: v1\nkind: "
      "Pod\nmetadata: {name: b}\nspec: {}\n",
      o);
  REQUIRE(flagged.set);
  CHECK(flagged.set->overridden);

  // Not a manifest: left to the eruplan reader.
  Loaded plain = manifests("app: web\ncount: 2\n");
  CHECK_FALSE(plain.matched);
  CHECK_FALSE(plain.set);
  CHECK(plain.diags.items().empty());
}

TEST_CASE("kubernetes manifests: bad documents are exit 3 with the field path") {
  const std::string nodes = kOneNode;
  RunResult r = run_with(nodes, R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: many
  template:
    spec:
      containers:
        - resources: {requests: {memory: 1Gb}}
      tolerations: [{operator: Sometimes}]
)");
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(has_problem(r, "spec.replicas", 5));
  CHECK(has_problem(r, "spec.template.spec.containers[0].resources.requests.memory", 9));
  CHECK(has_problem(r, "spec.template.spec.tolerations[0].operator", 10));

  // Only objects that place no pods: skipped, and then nothing is left.
  r = run_with(nodes, "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n");
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(r.err.find("skipped 1 object that places no pods: Service \u00d71") != std::string::npos);
  CHECK(r.err.find("the file holds no object that places pods (Pod, Deployment, ReplicaSet, "
                   "StatefulSet, ReplicationController, Job, CronJob or DaemonSet)") !=
        std::string::npos);

  r = run_with(nodes,
               "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\napiVersion: v1\nkind: "
               "Pod\nmetadata: {name: a}\n");
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(r.err.find("two manifests are named \"a\"") != std::string::npos);

  // A pod spec that is no mapping is said once, not once per reading of it.
  r = run_with(nodes,
               "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  replicas: "
               "2\n  template:\n    spec: [1]\n");
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(r.err ==
        "app.yaml:7:11: error: spec.template.spec: expected a mapping (key: value pairs), got a "
        "list\n");
}

TEST_CASE("kubernetes: will this Deployment fit? end to end") {
  const RunResult r =
      run_with(fixture("nodes.json"), fixture("deployment.yaml"), fixture("pods.json"));
  INFO(r.err);
  REQUIRE(r.exit == ExitCode::Ok);
  REQUIRE(r.capacity);
  REQUIRE(r.capacity->nodes.size() == 2);  // nodeSelector pool=general
  // worker-1: (15.89 - 4.55 used) / 0.6 = 18 by CPU fit; memory allows 46.
  CHECK(r.capacity->nodes[0].capacity == 18);
  CHECK(r.capacity->nodes[1].capacity == 0);  // worker-2 is cordoned
  CHECK(r.capacity->total == 18);
  REQUIRE(r.deploy);
  // replicas 6 is the desired total: 3 web pods run (two on worker-1, one
  // on worker-9, which is not in the list), so 3 are new.
  CHECK((*r.deploy)[0] == 3);
  CHECK(r.err.find("1 pod on node \"worker-9\"") != std::string::npos);
  CHECK(r.err.find("items[11].spec.nodeName: 1 pod on node \"worker-9\"") != std::string::npos);
}

namespace {

// Runs the built binary from the source tree; returns the exit status and
// stdout + stderr.
std::pair<int, std::string> eruplan_cli(const std::string& args) {
  const std::string out = std::string(ERUPLAN_BINARY) + ".kubernetes_test.out";
  const std::string cmd = std::string("cd ") + ERUPLAN_SOURCE_DIR + " && " + ERUPLAN_BINARY + " " +
                          args + " </dev/null >" + out + " 2>&1";
  const int status = std::system(cmd.c_str());
  std::string text = slurp(out);
  std::remove(out.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text};
}

}  // namespace

TEST_CASE("kubernetes cli: --nodes-format, --pods and --app-label") {
  const std::string k = "fixtures/kubernetes/";
  auto [code, text] = eruplan_cli("plan -n " + k + "nodes.json --pods " + k + "pods.json -r " + k +
                                  "deployment.yaml -o json");
  CHECK(code == 0);
  CHECK(text.find("\"deploy\": {\n    \"worker-1\": 3\n  }") != std::string::npos);

  std::tie(code, text) = eruplan_cli("validate -n " + k + "nodes.json --nodes-format eruplan");
  CHECK(code == 3);
  CHECK(text.find("nodes is required") != std::string::npos);

  std::tie(code, text) = eruplan_cli("validate -n " + k + "nodes.json --nodes-format sideways");
  CHECK(code == 2);
  CHECK(text.find("--nodes-format") != std::string::npos);

  std::tie(code, text) = eruplan_cli("validate -n - --pods -");
  CHECK(code == 2);
  CHECK(text.find("only one of --nodes, --request and --pods may be - (stdin)") !=
        std::string::npos);

  // --app-label tier: no pod has it, so every pod is its own app.
  std::tie(code, text) = eruplan_cli("apply -n " + k + "nodes.json --pods " + k + "pods.json -r " +
                                     k + "deployment.yaml --app-label tier --count 1 -o yaml");
  CHECK(code == 0);
  CHECK(text.find("      web-7d9c6b5f4-abcde: 1\n") != std::string::npos);
  CHECK(text.find("      web: 1\n") != std::string::npos);  // the new one, by the manifest's name
}

TEST_CASE("kubernetes: the wrong list is one error; stream errors keep their lines") {
  // A node list given as --pods.
  RunOptions o;
  o.command = Command::Validate;
  o.nodes = Source{"nodes.json", fixture("nodes.json")};
  o.pods = Source{"nodes.json", fixture("nodes.json")};
  RunResult r = run(o);
  CHECK(r.exit == ExitCode::Invalid);
  REQUIRE(r.problems.size() == 1);
  CHECK(r.problems[0].origin.path == "items[0].kind");
  CHECK(r.problems[0].message ==
        "expected a Pod (a pod list, as kubectl get pods -A -o json), got \"Node\" (and 3 more "
        "items that are not Pods)");

  // An error in the third document of a YAML stream is reported at its
  // line, and its path names the document (counted from 0, the empty one too).
  r = run_with(kOneNode,
               "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\n# the second\n---\n"
               "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: b}\nspec:\n  replicas: "
               "-2\n  template: {spec: {}}\n");
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(has_problem(r, "documents[2].spec.replicas", 11));
}

TEST_CASE("kubernetes: mangled node lists, pod lists and manifests never crash") {
  // Each input with one byte replaced, or cut short, at random places: the
  // run ends with exit 0, 3 or 4, never anything else.
  std::mt19937 rng(5);
  const std::string nodes = fixture("nodes.json"), pods = fixture("pods.json"),
                    deployment = fixture("deployment.yaml");
  const char bytes[] = {'"', '{', '}', '[', ']', ',', ':', '-', '.', 'e', 'x', ' ', '\n', '0'};
  auto mangle = [&](std::string text) {
    const std::size_t at = rng() % text.size();
    if (rng() % 4 == 0) return text.substr(0, at);
    text[at] = bytes[rng() % sizeof bytes];
    return text;
  };
  for (int i = 0; i < 300; ++i) {
    const int which = i % 3;
    RunOptions o;
    o.command = Command::Plan;
    o.nodes = Source{"nodes.json", which == 0 ? mangle(nodes) : nodes};
    o.pods = Source{"pods.json", which == 1 ? mangle(pods) : pods};
    o.request = Source{"app.yaml", which == 2 ? mangle(deployment) : deployment};
    const RunResult r = run(o);
    INFO(i << ": " << r.err);
    CHECK(
        (r.exit == ExitCode::Ok || r.exit == ExitCode::Invalid || r.exit == ExitCode::Infeasible));
    if (r.exit == ExitCode::Invalid) CHECK_FALSE(r.problems.empty());
  }
}

TEST_CASE("kubernetes nodes: one Node (kubectl get node NAME -o json) is a one-node inventory") {
  Diagnostics diags;
  auto inv =
      load_nodes(Source{"node.json", fixture("node-worker-1.json")}, NodesFormat::Auto, diags);
  INFO(diags.to_string());
  REQUIRE(inv.has_value());
  REQUIRE(inv->nodes.size() == 1);
  const Node& n = inv->nodes[0];
  CHECK(n.name == "worker-1");
  CHECK(n.available);
  CHECK(n.cpu_given == 15'890'000'000);  // 15890m, in nanocores
  CHECK(n.memory == 61255756LL * 1024);  // 61255756Ki
  CHECK(n.max_instances == 110);
  // The same node as the list gives it.
  const Inventory all = cluster();
  const Node& listed = node(all, "worker-1");
  CHECK(n.labels == listed.labels);
  CHECK(n.storage == listed.storage);
  // Forced with --nodes-format kubernetes too; its problems have paths from the root.
  const std::string bad = R"({"kind": "Node", "apiVersion": "v1", "metadata": {},
  "status": {"allocatable": {"cpu": "lots"}}})";
  Diagnostics d2;
  CHECK_FALSE(load_nodes(Source{"node.json", bad}, NodesFormat::Kubernetes, d2).has_value());
  CHECK(d2.to_string().find("node.json:1:50: error: metadata.name: metadata.name is required") !=
        std::string::npos);
  CHECK(d2.to_string().find("node.json:2:37: error: status.allocatable.cpu:") != std::string::npos);
}

TEST_CASE("kubernetes manifests: a duplicate name is reported beside the manifest's other errors") {
  const RunResult r = run_with(kOneNode, R"(apiVersion: v1
kind: Pod
metadata: {name: a}
spec:
  containers:
    - resources: {requests: {memory: 1Gb}}
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec:
  containers: []
)");
  CHECK(r.exit == ExitCode::Invalid);
  CHECK(has_problem(r, "documents[0].spec.containers[0].resources.requests.memory", 6));
  CHECK(has_problem(r, "documents[1].metadata.name", 8));
  CHECK(r.err.find("two manifests are named \"a\"") != std::string::npos);
}

// A plain List's item without kind is no Node unless --nodes-format
// kubernetes says so; a NodeList's items are Nodes.
TEST_CASE("kubernetes nodes: a kind-less item of a plain List is a Node only when forced") {
  const std::string list = R"({"kind": "List", "apiVersion": "v1", "items": [
  {"kind": "Node", "metadata": {"name": "a"}, "status": {"allocatable": {"memory": "1Gi"}}},
  {"metadata": {"name": "b"}, "status": {"allocatable": {"memory": "2Gi"}}}]})";
  Diagnostics auto_diags;
  CHECK_FALSE(load_nodes(Source{"n.json", list}, NodesFormat::Auto, auto_diags).has_value());
  CHECK(auto_diags.to_string().ends_with(
      "n.json:3:3: error: items[1]: item \"b\" has no kind; a List's items each need one (a "
      "NodeList's are Nodes; --nodes-format kubernetes reads kind-less items as Nodes)\n"));
  Diagnostics forced_diags;
  auto forced = load_nodes(Source{"n.json", list}, NodesFormat::Kubernetes, forced_diags);
  REQUIRE(forced.has_value());
  REQUIRE(forced->nodes.size() == 2);
  CHECK(forced->nodes[1].name == "b");
  CHECK(forced->nodes[1].memory == 2147483648);
  std::string typed = list;
  typed.replace(typed.find("\"List\""), 6, "\"NodeList\"");
  Diagnostics typed_diags;
  auto read = load_nodes(Source{"n.json", typed}, NodesFormat::Auto, typed_diags);
  REQUIRE(read.has_value());
  CHECK(read->nodes.size() == 2);
}

TEST_CASE("kubernetes manifests: the selectors' matching over the running pods is bounded") {
  // 10,000 running pods, each with a label of its own, and 239 ReplicaSets,
  // each with a selector of its own of 21 requirements (zz: K and 20
  // Exists of 20-character keys): per label set of one label, 1 + (2 + 1) +
  // 20 x 2 x 2 = 84 steps, 840,000 per selector; the 239th passes
  // 200,000,000.
  Inventory inv;
  inv.nodes.emplace_back();
  inv.nodes.back().name = "n";
  std::vector<RunningPod> pods(10000);
  for (std::size_t i = 0; i < pods.size(); ++i) {
    pods[i].name = "p" + std::to_string(i);
    pods[i].ns = "default";
    pods[i].labels = {{"u", std::to_string(i)}};
  }
  inv.pods = std::move(pods);
  std::string exists, labels;
  for (int e = 0; e < 20; ++e) {
    const std::string n = std::to_string(1000 + e).substr(1);
    exists += std::string(e ? ", " : "") + "{key: kkkkkkkkkkkkkkkkk" + n + ", operator: Exists}";
    labels += std::string(e ? ", " : "") + "kkkkkkkkkkkkkkkkk" + n + ": v";
  }
  // The templates' labels: the selector's (a ConfigMap holds them, skipped).
  std::string text =
      "apiVersion: v1\nkind: List\nitems:\n- {kind: ConfigMap, apiVersion: v1, "
      "metadata: {name: c, labels: &l {" +
      labels + "}}}\n";
  for (int r = 0; r < 239; ++r)
    text += "- {kind: ReplicaSet, apiVersion: apps/v1, metadata: {name: r" + std::to_string(r) +
            "}, spec: {replicas: 1, selector: {matchLabels: {zz: '" + std::to_string(r) +
            "'}, matchExpressions: " + (r == 0 ? "&e [" + exists + "]" : std::string("*e")) +
            "}, template: {metadata: {labels: {<<: *l, zz: '" + std::to_string(r) +
            "'}}, spec: {containers: [{name: c}]}}}}\n";
  Diagnostics diags;
  bool matched = false;
  const auto set = load_kubernetes_requests(Source{"rs.yaml", text}, {}, {}, true, diags, matched,
                                            &inv, nullptr);
  INFO(diags.to_string());
  CHECK(diags.error_count() == 1);
  CHECK(diags.to_string().find(
            "items[239].spec.selector: too large: matching the workloads' selectors against the "
            "running pods' labels takes 200760000 steps (239 distinct selectors over 10000 "
            "distinct label sets), more than 200000000; give fewer workloads with selectors of "
            "their own, or fewer running pods (--pods) with labels of their own") !=
        std::string::npos);
  // Within the bound (238 of them), no error.
  const std::string fewer = text.substr(0, text.rfind("- {kind"));
  Diagnostics ok;
  INFO(ok.to_string());
  load_kubernetes_requests(Source{"rs.yaml", fewer}, {}, {}, true, ok, matched, &inv, nullptr);
  CHECK(ok.error_count() == 0);
}
