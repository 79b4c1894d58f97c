// Operator conveniences end to end through the built binary: `eruplan
// schema`, warnings for selectors that match no node, and the HTML report's
// outcome header and filtered nodes.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "binary.h"
#include "schema.h"

namespace {

namespace fs = std::filesystem;
using eruplan_test::Ran;
using eruplan_test::slurp;
using nlohmann::json;

fs::path work_dir() { return eruplan_test::scratch_dir("conveniences_test"); }
Ran run_cli(const std::string& args) { return eruplan_test::run_eruplan(work_dir(), args); }
std::string write(const std::string& name, const std::string& text) {
  std::ofstream(work_dir() / name) << text;
  return name;
}
std::size_t count_of(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// 12 general nodes, 3 gpu nodes, one in zone b.
std::string pool_nodes() {
  std::string text = "nodes:\n";
  for (int i = 0; i < 15; ++i)
    text += "  - {name: n" + std::to_string(i) +
            ", cpu: 4, memory: 4Gi, labels: {pool: " + (i < 12 ? "general" : "gpu") +
            ", zone: " + (i == 0 ? "b" : "a") + "}}\n";
  return text;
}

}  // namespace

// --- schema ---------------------------------------------------------------------

TEST_CASE("schema: every block field of the tables has a shape, and every kind is JSON") {
  CHECK(eruplan::schema_self_check().empty());
  for (const std::string& problem : eruplan::schema_self_check()) CAPTURE(problem);
  for (const std::string& kind : eruplan::schema_kinds()) {
    CAPTURE(kind);
    const auto text = eruplan::render_schema(kind);
    REQUIRE(text.has_value());
    const json doc = json::parse(*text);
    CHECK(doc["$schema"] == "https://json-schema.org/draft/2020-12/schema");
    CHECK(doc.contains("$defs"));
  }
  CHECK_FALSE(eruplan::render_schema("nodes").has_value());
}

TEST_CASE("schema: the inventory's node fields carry the tables' help and refuse other keys") {
  const Ran r = run_cli("schema inventory");
  REQUIRE(r.exit == 0);
  const json doc = json::parse(r.out);
  CHECK(doc["$ref"] == "#/$defs/inventory");
  const json& node = doc["$defs"]["node"];
  CHECK(node["additionalProperties"] == false);
  CHECK(node["required"] == json::array({"name"}));
  CHECK(node["properties"]["memory"]["description"] == "memory of the node");
  CHECK(node["properties"]["workloads"]["items"]["$ref"] == "#/$defs/workload");
  // null reads as absent: every field takes it.
  CHECK(node["properties"]["max_instances"]["type"] == json::array({"integer", "null"}));
  // The request's strategies come from the strategy table, aliases too:
  // an enum of the names (null added), or the same names in any case.
  const json request = json::parse(run_cli("schema request").out);
  const json& choice = request["$defs"]["request"]["properties"]["strategy"]["anyOf"][0]["anyOf"];
  const json& strategies = choice[0]["enum"];
  CHECK(std::find(strategies.begin(), strategies.end(), "score") != strategies.end());
  CHECK(std::find(strategies.begin(), strategies.end(), "communism") != strategies.end());
  const std::string pattern = choice[1]["pattern"];
  CHECK(pattern.starts_with("^([aA][uU][tT][oO]|[cC][oO][mM][mM][uU][nN][iI][sS][mM]|"));
}

TEST_CASE("schema: an unknown kind is a usage error naming the kinds") {
  const Ran r = run_cli("schema nodes");
  CHECK(r.exit == 2);
  CHECK(r.err.find("inventory") != std::string::npos);
}

// --- selectors that match no node ---------------------------------------------------

TEST_CASE("selectors: a label value typo is warned where written, with the nearest value") {
  write("pool_nodes.yaml", pool_nodes());
  write("genral.yaml",
        "app: web\ncount: 2\nresources: {memory: 1Gi}\nnode_filter:\n  labels: {pool: genral}\n");
  const Ran r = run_cli("plan -n pool_nodes.yaml -r genral.yaml");
  CHECK(r.exit == 4);
  CHECK(r.err.find("genral.yaml:5:12: warning: node_filter.labels.pool: no node has pool=genral; "
                   "did you mean pool=general (12 nodes)?") != std::string::npos);
}

TEST_CASE("selectors: a key typo names the nearest key; a far value lists the values") {
  write("pool_nodes.yaml", pool_nodes());
  Ran r = run_cli("plan -n pool_nodes.yaml --memory 1Gi --count 1 --label pol=gpu");
  CHECK(r.exit == 4);
  CHECK(r.err.find("warning: --label: no node has pol=gpu; did you mean pool=gpu (3 nodes)?") !=
        std::string::npos);
  r = run_cli("plan -n pool_nodes.yaml --memory 1Gi --count 1 --label pool=storage-heavy");
  CHECK(r.err.find("no node has pool=storage-heavy; nodes have pool=general (12 nodes), gpu (3 "
                   "nodes)") != std::string::npos);
  r = run_cli("plan -n pool_nodes.yaml --memory 1Gi --count 1 --label rack=r1");
  CHECK(r.err.find("no node has rack=r1; no node has a label rack") != std::string::npos);
}

TEST_CASE("selectors: labels some node carries together get no warning; apart, one") {
  write("pool_nodes.yaml", pool_nodes());
  Ran r =
      run_cli("plan -n pool_nodes.yaml --memory 1Gi --count 1 --label pool=general --label zone=b");
  CHECK(r.exit == 0);
  CHECK(r.err.find("no node has") == std::string::npos);
  // zone=b and pool=gpu: each is on some node, but no node has both.
  r = run_cli("plan -n pool_nodes.yaml --memory 1Gi --count 1 --label pool=gpu --label zone=b");
  CHECK(r.exit == 4);
  CHECK(r.err.find("warning: --label: no node has all of pool=gpu, zone=b (each is on some "
                   "node)") != std::string::npos);
}

TEST_CASE("selectors: a Deployment's nodeSelector and required node affinity terms") {
  write("pool_nodes.yaml", pool_nodes());
  write("deploy.yaml", R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {zone: a}
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions:
                  - {key: pool, operator: In, values: [gpuu]}
              - matchFields:
                  - {key: metadata.name, operator: In, values: [n13x]}
              - matchExpressions:
                  - {key: pool, operator: In, values: [gpu]}
                  - {key: zone, operator: In, values: [b]}
              - matchExpressions:
                  - {key: pool, operator: In, values: [general]}
      containers:
        - name: web
          resources: {requests: {cpu: 100m, memory: 64Mi}}
)");
  const Ran r = run_cli("plan -n pool_nodes.yaml -r deploy.yaml");
  CHECK(r.exit == 0);
  CHECK(r.err.find("nodeSelectorTerms[0]: this required node affinity term matches no node: no "
                   "node has pool=gpuu; did you mean pool=gpu (3 nodes)?") != std::string::npos);
  CHECK(r.err.find("nodeSelectorTerms[1]: this required node affinity term matches no node: no "
                   "node is named n13x; did you mean n13?") != std::string::npos);
  CHECK(r.err.find("nodeSelectorTerms[2]: this required node affinity term matches no node: each "
                   "of its requirements matches some node, but no node all of them") !=
        std::string::npos);
  CHECK(r.err.find("nodeSelectorTerms[3]") == std::string::npos);
  CHECK(r.err.find("no node has zone=") == std::string::npos);  // zone=a is on 14 nodes
  // Where: the manifest's file, line and column of the affinity.
  CHECK(r.err.find("deploy.yaml:12:") != std::string::npos);

  write("deploy2.yaml", R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {zone: c}
      containers:
        - name: web
          resources: {requests: {cpu: 100m, memory: 64Mi}}
)");
  const Ran s = run_cli("plan -n pool_nodes.yaml -r deploy2.yaml");
  CHECK(s.err.find("deploy2.yaml:9:") != std::string::npos);
  CHECK(s.err.find("nodeSelector.zone: no node has zone=c; did you mean zone=a (14 nodes)?") !=
        std::string::npos);
}

TEST_CASE("selectors: grow counts the templates' labels; share and compare warn too") {
  write("pool_nodes.yaml", pool_nodes());
  write("big.yaml", "{name: big, cpu: 64, memory: 256Gi, labels: {pool: highmem}}\n");
  Ran r = run_cli(
      "grow -n pool_nodes.yaml --template big.yaml --memory 100Gi --count 2 --label pool=highmem");
  CHECK(r.exit == 0);
  CHECK(r.err.find("no node has") == std::string::npos);
  r = run_cli(
      "grow -n pool_nodes.yaml --template big.yaml --memory 100Gi --count 2 --label "
      "pool=highmen");
  CHECK(r.err.find("no node has pool=highmen; did you mean pool=highmem (1 node)?") !=
        std::string::npos);
  r = run_cli("compare -n pool_nodes.yaml --memory 1Gi --count 2 --label pool=gpus");
  CHECK(r.err.find("no node has pool=gpus; did you mean pool=gpu (3 nodes)?") != std::string::npos);
  write("apps.yaml",
        "apps:\n  - {app: a, resources: {memory: 1Gi}, node_filter: {labels: "
        "{pool: generl}}}\n");
  r = run_cli("share -n pool_nodes.yaml -r apps.yaml");
  CHECK(r.err.find("apps.yaml:2:63: warning: apps[0].node_filter.labels.pool: no node has "
                   "pool=generl; did you mean pool=general (12 nodes)?") != std::string::npos);
}

// --- the HTML report's outcome --------------------------------------------------------

TEST_CASE("report: an infeasible plan says so first and marks the filtered nodes") {
  write("pool_nodes.yaml", pool_nodes());
  const Ran r =
      run_cli("plan -n pool_nodes.yaml --memory 3Gi --count 5 --label pool=gpu --report inf.html");
  CHECK(r.exit == 4);
  const std::string page = slurp(work_dir() / "inf.html");
  const std::size_t outcome = page.find(
      "<div class=\"outcome failed\" data-outcome=\"failed\">"
      "<strong>infeasible: ");
  REQUIRE(outcome != std::string::npos);
  CHECK(outcome < page.find("data-node="));  // before any node
  CHECK(page.find(
            "<li>need 5 new instances, the nodes can take 3: 12 left out by node_filter</li>") !=
        std::string::npos);
  CHECK(count_of(page, "class=\"node filtered\"") == 12);
  CHECK(count_of(page, "left out by node_filter</div>") == 12);
}

TEST_CASE("report: a placed plan, a partial one, and a list with a rejected gang") {
  write("pool_nodes.yaml", pool_nodes());
  Ran r = run_cli("plan -n pool_nodes.yaml --memory 1Gi --count 4 --report ok.html");
  CHECK(r.exit == 0);
  std::string page = slurp(work_dir() / "ok.html");
  CHECK(page.find("<div class=\"outcome ok\" data-outcome=\"ok\"><strong>placed 4 of 4 new "
                  "instances of ") != std::string::npos);
  CHECK(page.find("node filtered") == std::string::npos);

  write("gang.yaml", R"(requests:
  - {name: ps, app: train, group: job, count: 1, resources: {memory: 3Gi}, node_filter: {labels: {pool: gpu}}}
  - {name: worker, app: train, group: job, count: 8, resources: {memory: 3Gi}, node_filter: {labels: {pool: gpu}}}
  - {name: web, app: web, count: 2, resources: {memory: 1Gi}}
)");
  r = run_cli("plan -n pool_nodes.yaml -r gang.yaml --report gang.html");
  CHECK(r.exit == 4);
  page = slurp(work_dir() / "gang.html");
  CHECK(page.find("<div class=\"outcome partial\" data-outcome=\"partial\"><strong>3 requests: 1 "
                  "placed, 0 partial, 2 rejected, 0 satisfied</strong>") != std::string::npos);
  CHECK(page.find("<li>worker: rejected, placed 0 (") != std::string::npos);
  CHECK(page.find("<li>web: placed, placed 2</li>") != std::string::npos);
  // Left out by the gang's filters but not web's: a reason, not greyed.
  CHECK(page.find("ps: left out by node_filter; worker: left out by node_filter") !=
        std::string::npos);
  CHECK(page.find("node filtered") == std::string::npos);
}

TEST_CASE("report: grow states what it adds, or why growing does not help") {
  write("pool_nodes.yaml", pool_nodes());
  write("big.yaml", "{name: big, cpu: 64, memory: 256Gi}\n");
  Ran r = run_cli(
      "grow -n pool_nodes.yaml --template big.yaml --memory 100Gi --count 5 --report "
      "grow.html");
  CHECK(r.exit == 0);
  std::string page = slurp(work_dir() / "grow.html");
  CHECK(page.find("<strong>add 3 nodes (big 3)</strong><ul><li>placed 5 of 5 new instances") !=
        std::string::npos);
  CHECK(count_of(page, "added by grow") == 3);  // big-1 and big-2 get 2 each, big-3 1
  // Marked as added (a note), not as nodes that failed (a red reason).
  CHECK(count_of(page, "class=\"node used grown\"") == 3);
  CHECK(count_of(page, "<span class=\"note\">added by grow, like big</span></div>") == 3);
  CHECK(page.find("grown zero") == std::string::npos);
  CHECK(page.find("data-node=\"big-3\"") != std::string::npos);

  r = run_cli(
      "grow -n pool_nodes.yaml --template big.yaml --memory 300Gi --count 1 --report "
      "nogrow.html");
  CHECK(r.exit == 4);
  page = slurp(work_dir() / "nogrow.html");
  CHECK(page.find("<div class=\"outcome failed\" data-outcome=\"failed\"><strong>infeasible: the "
                  "template can never help: ") != std::string::npos);
  // The copy shown was tried, not added; its reason is a real one.
  CHECK(page.find("<span class=\"note\">tried by grow, like big</span>; memory: ") !=
        std::string::npos);
}

TEST_CASE("flags: --count beside --replicas on a workload says which one counts") {
  write("pool_nodes.yaml", pool_nodes());
  write("web3.yaml", R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, resources: {requests: {cpu: 100m}}}]
)");
  const Ran r = run_cli("plan -n pool_nodes.yaml -r web3.yaml --count 3 --replicas 10");
  CHECK(r.exit == 0);
  CHECK(r.err.find("warning: --replicas: web: --count gives the new pods itself; --replicas "
                   "ignored") != std::string::npos);
  CHECK(r.out.find("count 3") != std::string::npos);
}
