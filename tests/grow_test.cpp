// grow with several templates (plan/grow.h): the cheapest mix against a plan
// of every combination on random clusters, and each expander on a worked
// example with its figures.
#include "grow.h"

#include <doctest/doctest.h>

#include <random>
#include <string>

#include "whatif.h"

namespace eruplan {
namespace {

Inventory inventory_from(const std::string& text) {
  Diagnostics diags;
  auto inv = load_inventory(Source{"nodes.yaml", text, InputFormat::Yaml}, diags);
  REQUIRE_MESSAGE(inv.has_value(), diags.to_string());
  return *inv;
}

GrowTemplate node_template(const std::string& text, std::optional<std::int64_t> cost) {
  Diagnostics diags;
  auto t = load_template(Source{"t.yaml", text, InputFormat::Yaml}, 100, diags);
  REQUIRE_MESSAGE(t.has_value(), diags.to_string());
  if (cost) t->cost = cost;
  return *t;
}

Request request_of(std::int64_t count, Bytes memory, NanoCores cpu, Strategy s) {
  Request r;
  r.app = r.name = "web";
  r.count = count;
  r.memory = r.memory_limit = memory;
  r.cpu = r.cpu_limit = cpu;
  r.strategy = s;
  return r;
}

constexpr Bytes kMi = 1024 * 1024;

std::string str(const std::vector<std::int64_t>& v) {
  std::string s;
  for (std::int64_t k : v) s += (s.empty() ? "" : ",") + std::to_string(k);
  return s;
}
constexpr NanoCores kCore = kNanoPerCore;

}  // namespace

TEST_CASE("grow: parse_cost and cost_text are exact decimals") {
  CHECK(parse_cost("0.192") == 192'000'000);
  CHECK(parse_cost("12") == 12 * kCostScale);
  CHECK(parse_cost("0.000000001") == 1);
  CHECK_FALSE(parse_cost("-1"));
  CHECK_FALSE(parse_cost("0.0000000001"));
  CHECK_FALSE(parse_cost("1e3"));
  CHECK_FALSE(parse_cost("."));
  CHECK(cost_text(384'000'000) == "0.384");
  CHECK(cost_text(3 * kCostScale) == "3");
  CHECK(cost_text(0) == "0");
}

TEST_CASE("grow: a template's cost is read, and refused in an inventory") {
  const GrowTemplate t = node_template("{name: big, cpu: 8, memory: 16Gi, cost: 0.5}", {});
  CHECK(t.node.name == "big");
  CHECK(t.cost == 500'000'000);
  Diagnostics diags;
  auto inv = load_inventory(
      Source{"n.yaml", "nodes: [{name: a, cpu: 1, memory: 1Gi, cost: 1}]", InputFormat::Yaml},
      diags);
  CHECK_FALSE(inv);
  CHECK(diags.to_string() ==
        "n.yaml:1:46: error: nodes[0].cost: only a grow template has a cost (grow --template); "
        "an inventory's node has none\n");
}

TEST_CASE("grow: a Kubernetes Node is a template") {
  const GrowTemplate t = node_template(R"(
kind: Node
apiVersion: v1
metadata: {name: m5, labels: {pool: a}}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
)",
                                       {});
  CHECK(t.node.name == "m5");
  CHECK(t.node.memory == 8192 * kMi);
  CHECK(t.node.max_instances == 110);
  CHECK_FALSE(t.cost);
}

TEST_CASE("grow: what a copy carries of its own bounds the copies tried") {
  // 2 taints + 3 extended + 2 reservations + 1 running app; labels shared
  // (no hostname label): 8 entries a copy.
  const GrowTemplate t = node_template(
      "name: t\nmemory: 8Gi\nlabels: {zone: a}\ntaints: [{key: a, effect: NoSchedule}, {key: b, "
      "effect: NoSchedule}]\nextended: {x: 1, y: 2, z: 3}\nreservations: {r1: {memory: 1}, r2: "
      "{memory: 2}}\ninstances: {web: 1}\n",
      std::nullopt);
  CHECK(copy_items(t.node) == 8);
  // With a hostname label each copy names itself there: its labels count.
  const GrowTemplate h = node_template(
      "name: h\nmemory: 8Gi\nlabels: {zone: a, kubernetes.io/hostname: h}\n", std::nullopt);
  CHECK(copy_items(h.node) == 2);
  GrowBudget budget;
  budget.copy_items = 100;
  const std::vector<GrowTemplate> both{t, h};
  CHECK(copies_within(both, std::vector<std::int64_t>{10, 10}, &budget));  // 80 + 20
  CHECK(budget.too_large.empty());
  CHECK_FALSE(copies_within(both, std::vector<std::int64_t>{12, 3}, &budget));  // 96 + 6
  CHECK(budget.too_large.find("102 entries for the copies tried, more than the 100 this input "
                              "may make") != std::string::npos);
  CHECK(copies_within(both, std::vector<std::int64_t>{1, 1}, nullptr));
}

TEST_CASE("grow: the expanders on a worked example") {
  // 10 instances of 1 core / 1Gi. small: 2 cores, 4Gi (2 per copy, 5
  // copies); big: 8 cores, 4Gi (4 per copy by memory, 3 copies).
  const Inventory inv = inventory_from("nodes: [{name: n0, cpu: 1, memory: 512Mi}]\n");
  Request req = request_of(10, 1024 * kMi, kCore, Strategy::Auto);
  req.cpu_fit = true;
  const std::vector<GrowTemplate> ts{
      node_template("{name: small, cpu: 2, memory: 4Gi}", 100'000'000),  // 0.1
      node_template("{name: big, cpu: 8, memory: 4Gi}", 250'000'000)};   // 0.25
  // least-waste: small idles (10 - 10) / 10 cpu = 0; big (24 - 10) / 24.
  Growth g = expand(inv, req, ts, Expander::LeastWaste, 100, 1);
  CHECK(g.found);
  CHECK(str(g.counts) == "5,0");
  // most-pods: small's 5 copies hold 10, big's 3 hold 12.
  g = expand(inv, req, ts, Expander::MostPods, 100, 1);
  CHECK(str(g.counts) == "0,3");
  // price: 5 x 0.1 = 0.5 against 3 x 0.25 = 0.75.
  g = expand(inv, req, ts, Expander::Price, 100, 1);
  CHECK(str(g.counts) == "5,0");
  // priority: the first given.
  g = expand(inv, req, ts, Expander::Priority, 100, 1);
  CHECK(str(g.counts) == "5,0");
  // With --max 4, small cannot help alone: big wins every expander.
  g = expand(inv, req, ts, Expander::Price, 4, 1);
  CHECK(str(g.counts) == "0,3");
  // The mix with --max 4: 3 small (6) + 1 big (4) = 0.55 beats 1 small + 2
  // big = 0.6 and 3 big = 0.75.
  std::string too_large;
  auto mix = cheapest_mix(inv, req, ts, 4, 1, too_large);
  REQUIRE(mix);
  CHECK(str(mix->counts) == "3,1");
  CHECK(str(cheapest_mix_oracle(inv, req, ts, 4, 1).counts) == "3,1");
}

TEST_CASE("grow: cheapest_mix agrees with planning every combination (random clusters)") {
  std::mt19937 rng(20261125);
  std::uniform_int_distribution<int> small(0, 6), nodes(0, 4), count(1, 12), coin(0, 3),
      tcount(1, 3), maxd(0, 4), cost(0, 9);
  const Strategy strategies[] = {Strategy::Auto,  Strategy::Global, Strategy::Drained,
                                 Strategy::Score, Strategy::Fill,   Strategy::Each};
  int found = 0, cases = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    std::string text = "nodes:\n";
    const int n = nodes(rng);
    for (int i = 0; i < n; ++i)
      text += "  - {name: n" + std::to_string(i) + ", cpu: " + std::to_string(1 + small(rng)) +
              ", memory: " + std::to_string(small(rng) * 512) +
              "Mi, instances: {web: " + std::to_string(coin(rng)) + "}}\n";
    if (n == 0) text = "nodes: []\n";
    const Inventory inv = inventory_from(text);
    const Strategy s = strategies[static_cast<std::size_t>(iter) % 6];
    Request req = request_of(count(rng), (1 + coin(rng)) * 512 * kMi, kCore * coin(rng) / 2, s);
    if (s == Strategy::Fill || s == Strategy::Each) req.count = 1 + coin(rng);
    std::vector<GrowTemplate> ts;
    const int k = tcount(rng);
    for (int t = 0; t < k; ++t)
      ts.push_back(node_template("{name: t" + std::to_string(t) +
                                     ", cpu: " + std::to_string(1 + small(rng)) +
                                     ", memory: " + std::to_string(small(rng) * 512) + "Mi}",
                                 static_cast<std::int64_t>(cost(rng)) * 100'000'000));
    const std::int64_t max = maxd(rng);
    std::string too_large;
    const auto fast = cheapest_mix(inv, req, ts, max, 1, too_large);
    REQUIRE_MESSAGE(fast, too_large);
    const Growth slow = cheapest_mix_oracle(inv, req, ts, max, 1);
    CAPTURE(text);
    CAPTURE(iter);
    CHECK(fast->found == slow.found);
    CHECK(str(fast->counts) == str(slow.counts));
    found += slow.found;
    ++cases;
  }
  CHECK(found > cases / 3);  // the cases are not all hopeless
}

TEST_CASE("grow: --mix under a nodes_limit agrees with planning every combination") {
  // The capacities do not see nodes_limit, so the mix falls back to
  // planning: the first template's count is bisected for each choice of the
  // others' counts, not planned one by one.
  std::mt19937 rng(20261127);
  std::uniform_int_distribution<int> small(0, 6), nodes(0, 3), count(1, 12), limit(1, 6),
      tcount(1, 3), maxd(0, 6), cost(0, 9);
  const Strategy strategies[] = {Strategy::Auto, Strategy::Global, Strategy::Drained,
                                 Strategy::Score};
  int found = 0;
  for (int iter = 0; iter < 600; ++iter) {
    std::string text = "nodes:\n";
    const int n = nodes(rng);
    for (int i = 0; i < n; ++i)
      text += "  - {name: n" + std::to_string(i) + ", cpu: " + std::to_string(1 + small(rng)) +
              ", memory: " + std::to_string(small(rng) * 512) + "Mi}\n";
    if (n == 0) text = "nodes: []\n";
    const Inventory inv = inventory_from(text);
    Request req = request_of(count(rng), 512 * kMi, kCore / 2,
                             strategies[static_cast<std::size_t>(iter) % 4]);
    req.nodes_limit = limit(rng);
    std::vector<GrowTemplate> ts;
    const int k = tcount(rng);
    for (int t = 0; t < k; ++t)
      ts.push_back(node_template("{name: t" + std::to_string(t) +
                                     ", cpu: " + std::to_string(1 + small(rng)) + ", memory: 4Gi}",
                                 static_cast<std::int64_t>(cost(rng)) * 100'000'000));
    const std::int64_t max = maxd(rng);
    std::string too_large;
    const auto fast = cheapest_mix(inv, req, ts, max, 1, too_large);
    REQUIRE_MESSAGE(fast, too_large);
    const Growth slow = cheapest_mix_oracle(inv, req, ts, max, 1);
    CAPTURE(text);
    CAPTURE(iter);
    CHECK(fast->found == slow.found);
    CHECK(str(fast->counts) == str(slow.counts));
    found += slow.found;
  }
  CHECK(found > 100);
}

TEST_CASE("grow: --mix on 3 templates and --max 1000 answers quickly") {
  const Inventory inv = inventory_from("nodes: [{name: n0, cpu: 1, memory: 512Mi}]\n");
  const Request req = request_of(2999, 1024 * kMi, kCore, Strategy::Auto);
  const std::vector<GrowTemplate> ts{node_template("{name: a, cpu: 2, memory: 2Gi}", 110'000'000),
                                     node_template("{name: b, cpu: 3, memory: 3Gi}", 160'000'000),
                                     node_template("{name: c, cpu: 7, memory: 7Gi}", 370'000'000)};
  std::string too_large;
  auto mix = cheapest_mix(inv, req, ts, 1000, 1, too_large);
  REQUIRE(mix);
  // 2999 instances: per instance a costs 0.055, b 0.0533, c 0.0529: 428 c
  // hold 2996, and one b (0.16) the last 3, cheaper than 2 a (0.22), 429 c
  // (0.37 more) or 427 c + 2 b + 2 a.
  CHECK(mix->found);
  CHECK(mix->counts[2] * 7 + mix->counts[1] * 3 + mix->counts[0] * 2 >= 2999);
  CHECK(str(mix->counts) == "0,1,428");
}

namespace {

// A DaemonSet read as --daemonsets reads it.
std::vector<Request> daemons_from(const std::string& text) {
  Diagnostics diags;
  KubernetesOptions options;
  options.daemonsets = KubernetesOptions::DaemonSets::Only;
  bool matched = false;
  auto set = load_kubernetes_requests(Source{"ds.yaml", text, InputFormat::Yaml},
                                      RequestOverrides{}, options, false, diags, matched);
  REQUIRE_MESSAGE(set.has_value(), diags.to_string());
  CHECK(set->requests.empty());
  return set->daemons;
}

std::string daemon_set(const std::string& name, const std::string& cpu,
                       const std::string& spec_extra) {
  return "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: " + name +
         ", namespace: kube-system}\nspec:\n  selector: {matchLabels: {app: " + name +
         "}}\n  template:\n    metadata: {labels: {app: " + name + "}}\n    spec:\n" + spec_extra +
         "      containers:\n        - name: c\n          resources: {requests: {cpu: " + cpu +
         ", memory: 256Mi}}\n";
}

}  // namespace

TEST_CASE("grow: an added node first runs the DaemonSets it is eligible for") {
  const std::vector<Request> daemons = daemons_from(
      daemon_set("log-shipper", "500m", "") + "---\n" +
      daemon_set("gpu-plugin", "\"2\"", "      nodeSelector: {accelerator: nvidia}\n") + "---\n" +
      daemon_set("tainted-only", "\"1\"",
                 "      tolerations: [{key: dedicated, operator: Exists, effect: NoSchedule}]\n"));
  REQUIRE(daemons.size() == 3);
  // The template: 4 cores; log-shipper runs (500m, one pod slot), gpu-plugin
  // does not (no accelerator label), tainted-only runs too (no taint to need).
  GrowTemplate t = node_template("{name: general, cpu: 4, memory: 16Gi, max_instances: 10}", {});
  std::vector<const Request*> ran = run_daemons(t.node, daemons);
  REQUIRE(ran.size() == 2);
  CHECK(ran[0]->name == "log-shipper");
  CHECK(ran[1]->name == "tainted-only");
  CHECK(t.node.cpu_used == kCore + kCore / 2);
  CHECK(t.node.memory_used == 512 * kMi);
  CHECK(t.node.instances_total() == 2);
  CHECK(t.node.instances_of("log-shipper") == 1);
  // A GPU template tainted dedicated=gpu:NoSchedule: gpu-plugin's
  // nodeSelector matches, but only tainted-only tolerates the taint (the
  // controller adds no toleration for a custom taint).
  GrowTemplate gpu = node_template(
      "{name: gpu, cpu: 8, memory: 32Gi, labels: {accelerator: nvidia}, taints: [{key: dedicated, "
      "value: gpu, effect: NoSchedule}]}",
      {});
  ran = run_daemons(gpu.node, daemons);
  REQUIRE(ran.size() == 1);
  CHECK(ran[0]->name == "tainted-only");
  CHECK(gpu.node.cpu_used == kCore);

  // 1-core replicas on n0 (1 core) and copies of a 4-core template: 9
  // need 2 copies (1 + 4 + 4); with log-shipper (500m) on each copy 3 fit
  // there, so 3 copies (1 + 3 + 3 + 3); with a limit of 3 pods per node,
  // log-shipper's pod takes a slot: 2 per copy, 4 copies.
  const Inventory inv = inventory_from("nodes: [{name: n0, cpu: 1, memory: 1Gi}]\n");
  Request req = request_of(9, 1024 * kMi, kCore, Strategy::Auto);
  req.cpu_fit = true;
  const std::span<const Request> shipper(daemons.data(), 1);
  const GrowTemplate plain = node_template("{name: general, cpu: 4, memory: 16Gi}", {});
  CHECK(smallest_growth(inv, req, plain.node, 100, 1) == 2);
  GrowTemplate with = plain;
  run_daemons(with.node, shipper);
  CHECK(smallest_growth(inv, req, with.node, 100, 1) == 3);
  GrowTemplate slots = node_template("{name: small, cpu: 4, memory: 16Gi, max_instances: 3}", {});
  run_daemons(slots.node, shipper);
  CHECK(smallest_growth(inv, req, slots.node, 100, 1) == 4);
}

TEST_CASE("grow: DaemonSets of -r's stream and of --daemonsets run on the added nodes") {
  // worker-1: 2 cores, empty; web: 9 replicas of 1
  // core, nodeSelector pool: general.
  const std::string nodes = R"(apiVersion: v1
kind: NodeList
items:
  - apiVersion: v1
    kind: Node
    metadata: {name: worker-1, labels: {pool: general}}
    status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
)";
  const std::string web = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 9
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {pool: general}
      containers: [{name: web, resources: {requests: {cpu: "1", memory: 1Gi}}}]
)";
  WhatIfOptions o;
  o.command = WhatIfCommand::Grow;
  o.nodes = Source{"nodes.yaml", nodes, InputFormat::Yaml};
  o.request = Source{"web.yaml", web, InputFormat::Yaml};
  o.templates.push_back(Source{"t.yaml",
                               "{name: general, cpu: 4, memory: 16Gi, labels: {pool: general}}",
                               InputFormat::Yaml});
  o.max = 100;
  WhatIfResult w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Ok);
  CHECK(w.added == 2);  // 2 + 4 + 4 >= 9
  CHECK(w.run.out.find("daemonsets") == std::string::npos);

  // --daemonsets: log-shipper (500m) runs on each copy, gpu-plugin
  // (nodeSelector accelerator: nvidia) does not: 2 + 3 + 3 < 9 <= 2 + 3 + 3 + 3.
  o.daemonsets =
      Source{"ds.yaml",
             daemon_set("log-shipper", "500m", "") + "---\n" +
                 daemon_set("gpu-plugin", "\"2\"", "      nodeSelector: {accelerator: nvidia}\n"),
             InputFormat::Yaml};
  w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Ok);
  CHECK(w.added == 3);
  REQUIRE(w.daemons_by_template.size() == 1);
  CHECK(w.daemons_by_template[0] == std::vector<std::string>{"kube-system/log-shipper"});
  CHECK(
      w.run.out.starts_with("added: 3 nodes like general\ndaemonsets on each added node: general: "
                            "kube-system/log-shipper\n"));
  // --replicas is -r's: no warning about it for --daemonsets' DaemonSets.
  // 12 replicas: 2 + 3 + 3 + 3 + 3 = 14 >= 12 > 11.
  o.kubernetes.replicas = 12;
  w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Ok);
  CHECK(w.added == 4);
  CHECK(w.run.err.find("--replicas") == std::string::npos);
  o.kubernetes.replicas.reset();

  // The same DaemonSet in -r's stream: not planned, run on each copy; also
  // in --daemonsets, it counts once. 10 replicas: 2 + 3 + 3 + 3 = 11.
  std::string ten = web;
  ten.replace(ten.find("replicas: 9"), 11, "replicas: 10");
  o.request =
      Source{"web.yaml", ten + "---\n" + daemon_set("log-shipper", "500m", ""), InputFormat::Yaml};
  w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Ok);
  CHECK(w.added == 3);
  CHECK(w.run.err.find("kube-system/log-shipper is also in web.yaml; counted once") !=
        std::string::npos);
  // Without the file: the stream's alone.
  o.daemonsets.reset();
  w = run_whatif(o);
  CHECK(w.added == 3);
  CHECK(w.run.out.find("(web, ") == std::string::npos);  // the DaemonSet is not a request

  // A stream of DaemonSets only: nothing to grow for (exit 3).
  o.request = Source{"ds.yaml", daemon_set("log-shipper", "500m", ""), InputFormat::Yaml};
  w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Invalid);
  CHECK(w.run.err.find("holds only DaemonSets") != std::string::npos);
  // --daemonsets with a Deployment in it: exit 3.
  o.request = Source{"web.yaml", web, InputFormat::Yaml};
  o.daemonsets = Source{"ds.yaml", web, InputFormat::Yaml};
  w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Invalid);
  CHECK(
      w.run.err.find("expected DaemonSets (kubectl get daemonsets -A -o json), got a Deployment") !=
      std::string::npos);
  // An empty list of DaemonSets is fine.
  o.daemonsets =
      Source{"ds.json", R"({"apiVersion": "v1", "kind": "List", "items": []})", InputFormat::Json};
  w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Ok);
  CHECK(w.added == 2);
}

}  // namespace eruplan

namespace eruplan {
namespace {

// Two Kubernetes nodes of `cpu` cores, each with its own
// kubernetes.io/hostname label.
std::string two_workers(const std::string& cpu) {
  std::string out = "apiVersion: v1\nkind: NodeList\nitems:\n";
  for (const char* name : {"worker-1", "worker-2"})
    out += std::string("  - apiVersion: v1\n    kind: Node\n    metadata: {name: ") + name +
           ", labels: {kubernetes.io/hostname: " + name +
           ", pool: general}}\n    status: {allocatable: {cpu: \"" + cpu +
           "\", memory: 32Gi, pods: \"110\"}}\n";
  return out;
}

// A Deployment of `replicas` 1-core pods with `constraint` under its spec.
std::string web_of(int replicas, const std::string& constraint) {
  return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: " +
         std::to_string(replicas) +
         "\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: "
         "web}}\n    spec:\n" +
         constraint +
         "      containers: [{name: web, resources: {requests: {cpu: \"1\", memory: 1Gi}}}]\n";
}

const std::string kSelfAntiAffinity =
    "      affinity:\n        podAntiAffinity:\n          "
    "requiredDuringSchedulingIgnoredDuringExecution:\n            - labelSelector: "
    "{matchLabels: {app: web}}\n              topologyKey: kubernetes.io/hostname\n";
const std::string kHostnameSpread =
    "      topologySpreadConstraints:\n        - {maxSkew: 1, topologyKey: "
    "kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: "
    "{app: web}}}\n";

WhatIfOptions grow_options(const std::string& nodes, const std::string& request) {
  WhatIfOptions o;
  o.command = WhatIfCommand::Grow;
  o.nodes = Source{"nodes.yaml", nodes, InputFormat::Yaml};
  o.request = Source{"web.yaml", request, InputFormat::Yaml};
  o.max = 100;
  return o;
}

}  // namespace

TEST_CASE("grow: each added node is its own kubernetes.io/hostname") {
  // The copies of a template carrying kubernetes.io/hostname: tmpl are
  // named tmpl-1, tmpl-2, ... and so is their label.
  const GrowTemplate t = node_template(R"(
kind: Node
apiVersion: v1
metadata: {name: tmpl, labels: {kubernetes.io/hostname: tmpl, pool: general}}
status: {allocatable: {cpu: "8", memory: 32Gi, pods: "110"}}
)",
                                       {});
  const Inventory grown = grown_inventory(Inventory{}, t.node, 2);
  REQUIRE(grown.nodes.size() == 2);
  for (const char* name : {"tmpl-1", "tmpl-2"}) {
    const Node& n = grown.nodes[name == std::string("tmpl-1") ? 0 : 1];
    CHECK(n.name == name);
    const Labels labels(n.labels.begin(), n.labels.end());
    REQUIRE(find_label(labels, "kubernetes.io/hostname") != nullptr);
    CHECK(*find_label(labels, "kubernetes.io/hostname") == name);
    CHECK(*find_label(labels, "pool") == "general");
  }
  CHECK(*find_label(Labels(t.node.labels.begin(), t.node.labels.end()),
                    "kubernetes.io/hostname") == "tmpl");  // the template keeps its own
  // An eruplan node without the label gets none (the profile reads its name).
  const GrowTemplate plain = node_template("{name: p, cpu: 8, memory: 32Gi}", {});
  const Inventory grown_plain = grown_inventory(Inventory{}, plain.node, 1);
  CHECK(grown_plain.nodes[0].labels.empty());

  // 5 replicas, at most one per hostname, on 2 nodes: 3 copies, whichever
  // way the template comes (a Kubernetes Node, --like a node), and under
  // a hostname spread of maxSkew 1 on 1-core nodes.
  WhatIfOptions o = grow_options(two_workers("8"), web_of(5, kSelfAntiAffinity));
  o.templates.push_back(Source{"t.yaml",
                               "kind: Node\napiVersion: v1\nmetadata: {name: tmpl, labels: "
                               "{kubernetes.io/hostname: tmpl, pool: general}}\nstatus: "
                               "{allocatable: {cpu: \"8\", memory: 32Gi, pods: \"110\"}}\n",
                               InputFormat::Yaml});
  WhatIfResult w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Ok);
  CHECK(w.added == 3);
  o.templates.clear();
  o.like = {"worker-2"};
  w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Ok);
  CHECK(w.added == 3);
  CHECK(w.run.out.starts_with("added: 3 nodes like worker-2-new\n"));
  // A misspelt node or template name gets the nearest (it got none).
  o.like = {"worker-3"};
  o.costs = {"worker2-new=1"};
  w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Invalid);
  CHECK(w.run.err.find("--like: node worker-3 is not in the inventory; did you mean worker-1?") !=
        std::string::npos);
  o.like = {"worker-2"};
  w = run_whatif(o);
  CHECK(w.run.err.find("--cost: no template is named worker2-new; did you mean worker-2-new? "
                       "(templates are named") != std::string::npos);
  o.costs.clear();
  // maxSkew 1 over hostnames on nodes of 1 core: 5 replicas need 3 copies
  // of a 1-core node (one domain each: 1, 1, 1, 1, 1). Were the copies one
  // domain with the template's hostname, it would hold 3 against 1: never.
  o = grow_options(two_workers("1"), web_of(5, kHostnameSpread));
  o.like = {"worker-1"};
  w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Ok);
  CHECK(w.added == 3);
}

TEST_CASE("grow: DaemonSet pods on an added node are running pods to anti-affinity") {
  // web: 6 replicas of 1 core that keep away from kube-system pods labelled
  // tier: noisy by hostname. scanner, a DaemonSet of such pods, runs on the
  // pool: general nodes. worker-1 (2 cores, no scanner pod known) takes 2;
  // a copy of `general` (4 cores, runs scanner) can take none, a copy of
  // `quiet` (4 cores, pool: quiet) takes 4: one quiet copy.
  const std::string nodes = R"(apiVersion: v1
kind: NodeList
items:
  - apiVersion: v1
    kind: Node
    metadata: {name: worker-1, labels: {kubernetes.io/hostname: worker-1, pool: general}}
    status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
)";
  const std::string repel =
      "      affinity:\n        podAntiAffinity:\n          "
      "requiredDuringSchedulingIgnoredDuringExecution:\n            - labelSelector: "
      "{matchLabels: {tier: noisy}}\n              namespaces: [kube-system]\n"
      "              topologyKey: kubernetes.io/hostname\n";
  const std::string scanner =
      "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: scanner, namespace: "
      "kube-system}\nspec:\n  selector: {matchLabels: {app: scanner}}\n  template:\n    "
      "metadata: {labels: {app: scanner, tier: noisy}}\n    spec:\n      nodeSelector: {pool: "
      "general}\n      containers: [{name: s, resources: {requests: {cpu: 100m, memory: "
      "64Mi}}}]\n";
  WhatIfOptions o = grow_options(nodes, web_of(6, repel));
  o.templates.push_back(Source{"general.yaml",
                               "{name: general, cpu: 4, memory: 16Gi, labels: {pool: general}}",
                               InputFormat::Yaml});
  o.templates.push_back(Source{"quiet.yaml",
                               "{name: quiet, cpu: 4, memory: 16Gi, labels: {pool: quiet}}",
                               InputFormat::Yaml});
  o.expander = "priority";
  // Without the DaemonSet, the first template helps: 2 + 4, one copy.
  WhatIfResult w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Ok);
  CHECK(w.added_by_template == std::vector<std::int64_t>{1, 0});
  // With it, general's copies repel web: priority passes to quiet.
  o.daemonsets = Source{"ds.yaml", scanner, InputFormat::Yaml};
  w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Ok);
  CHECK(w.added_by_template == std::vector<std::int64_t>{0, 1});
  REQUIRE(w.daemons_by_template.size() == 2);
  CHECK(w.daemons_by_template[0] == std::vector<std::string>{"kube-system/scanner"});
  CHECK(w.daemons_by_template[1].empty());
  // general alone can never take a replica: not feasible, whatever --max.
  o.templates.pop_back();
  o.expander.reset();
  w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Infeasible);
  CHECK(
      w.run.err.starts_with("even 100 nodes like general do not suffice (--max 100)\n"
                            "infeasible: 0/101 nodes are available: 1 Insufficient cpu, 100 "
                            "node(s) didn't match pod anti-affinity rules."));
}

TEST_CASE("grow: DaemonSet pods on an added node count for topology spreading") {
  // web: 4 replicas of 1 core spread by hostname (maxSkew 1) over the pods
  // labelled team: a of its namespace, which agent's pods also carry. The
  // two workers (1 core, no agent pod known) take one each. A copy of
  // general (4 cores) starts with agent's pod, 1 like the workers, so it
  // takes one web (2 <= 1 + 1): 2 copies. Were agent's pods not counted, one
  // copy would take 2 (0 -> 2 against the workers' 1).
  const std::string web =
      "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 4\n"
      "  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web, "
      "team: a}}\n    spec:\n      topologySpreadConstraints:\n        - {maxSkew: 1, "
      "topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, labelSelector: "
      "{matchLabels: {team: a}}}\n      containers: [{name: web, resources: {requests: {cpu: "
      "\"1\", memory: 1Gi}}}]\n";
  const std::string agent =
      "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: "
      "{matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent, team: "
      "a}}\n    spec:\n      nodeSelector: {pool: general}\n      containers: [{name: a, "
      "resources: {requests: {cpu: 10m, memory: 16Mi}}}]\n";
  WhatIfOptions o = grow_options(two_workers("1"), web);
  o.templates.push_back(Source{"general.yaml",
                               "{name: general, cpu: 4, memory: 16Gi, labels: {pool: general}}",
                               InputFormat::Yaml});
  WhatIfResult w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Ok);
  CHECK(w.added == 1);  // without agent: 1 + 1 + 2
  o.daemonsets = Source{"ds.yaml", agent, InputFormat::Yaml};
  w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Ok);
  CHECK(w.added == 2);
  REQUIRE(w.daemons_by_template.size() == 1);
  CHECK(w.daemons_by_template[0] == std::vector<std::string>{"default/agent"});
}

TEST_CASE("grow: several templates that never suffice show --max copies in all") {
  WhatIfOptions o = grow_options("nodes:\n  - {name: n1, memory: 1Gi}\n",
                                 "app: a\ncount: 1000\nresources: {memory: 1Gi}\n");
  o.max = 10;
  for (const char* t : {"t1", "t2", "t3"})
    o.templates.push_back(Source{std::string(t) + ".yaml",
                                 "{name: " + std::string(t) + ", memory: 2Gi}", InputFormat::Yaml});
  o.output = OutputFormat::Json;
  const WhatIfResult w = run_whatif(o);
  CHECK(w.run.exit == ExitCode::Infeasible);
  CHECK(w.run.out.find("even 10 nodes of any one template do not suffice (--max 10)") !=
        std::string::npos);
  // 10 shared in turn: t1 4, t2 3, t3 3 (was 10 of each).
  for (const char* shown : {"\"t1-4\"", "\"t2-3\"", "\"t3-3\""})
    CHECK(w.run.out.find(shown) != std::string::npos);
  for (const char* not_shown : {"\"t1-5\"", "\"t2-4\"", "\"t3-4\""})
    CHECK(w.run.out.find(not_shown) == std::string::npos);
}

TEST_CASE("shared_copies: a failure's copies shared among the templates, one each at least") {
  CHECK(shared_copies(3, 10) == std::vector<std::int64_t>{4, 3, 3});
  CHECK(shared_copies(100, 10000) == std::vector<std::int64_t>(100, 100));
  CHECK(shared_copies(4, 2) == std::vector<std::int64_t>{1, 1, 1, 1});
  CHECK(shared_copies(2, 10001) == std::vector<std::int64_t>{5001, 5000});
  CHECK(shared_copies(0, 5).empty());
}

}  // namespace eruplan
