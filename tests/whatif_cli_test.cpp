// compare, grow, drain through the built binary: flags, exit codes, files.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "binary.h"

namespace {

namespace fs = std::filesystem;

using eruplan_test::Ran;
using eruplan_test::slurp;

fs::path work_dir() { return eruplan_test::scratch_dir("whatif_cli"); }

Ran eruplan(const std::string& args) { return eruplan_test::run_eruplan(work_dir(), args); }

void write(const std::string& name, const std::string& text) {
  std::ofstream(work_dir() / name) << text;
}

void inputs() {
  write("nodes.yaml", R"(nodes:
  - {name: n1, cpu: 4, memory: 1000Mi, instances: {web: 3}}
  - {name: n2, cpu: 4, memory: 1000Mi, instances: {web: 1}}
  - {name: n3, cpu: 4, memory: 300Mi}
)");
  write("req.yaml", "{app: web, count: 4, resources: {memory: 100Mi}}\n");
  write("big.yaml", "name: big\ncpu: 4\nmemory: 1000Mi\n");
}

TEST_CASE("whatif cli: compare -o json has a row per strategy and exits 0") {
  inputs();
  const Ran r = eruplan("compare -n nodes.yaml -r req.yaml -o json --strategies auto,each,auto");
  CHECK(r.exit == 0);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["strategies"].size() == 2);
  CHECK(doc["strategies"]["auto"]["deploy"] == nlohmann::json{{"n2", 2}, {"n3", 2}});
  CHECK(doc["strategies"]["each"]["nodes_used"] == 2);  // n3 takes 3 < 4
  CHECK_FALSE(doc["strategies"]["auto"].contains("reason"));
}

TEST_CASE("whatif cli: compare refuses a zone spread to the strategies that ignore it") {
  // 3 zones, one node each; a Deployment of 3 with maxSkew 1 by zone.
  write("zones.yaml", R"(nodes:
  - {name: a, cpu: 8, memory: 8Gi, labels: {topology.kubernetes.io/zone: za}}
  - {name: b, cpu: 8, memory: 8Gi, labels: {topology.kubernetes.io/zone: zb}}
  - {name: c, cpu: 8, memory: 8Gi, labels: {topology.kubernetes.io/zone: zc}}
)");
  write("spread.yaml", R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 3
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule,
         labelSelector: {matchLabels: {app: api}}}
      containers:
      - {name: api, resources: {requests: {cpu: "1", memory: 1Gi}}}
)");
  const Ran r = eruplan("compare -n zones.yaml -r spread.yaml -o json");
  INFO(r.err);
  CHECK(r.exit == 0);
  const auto doc = nlohmann::json::parse(r.out);
  // drained would put all 3 in one zone, a skew of 3 that kube-scheduler
  // never makes; plan --strategy drained refuses it, and so does compare.
  for (const char* s : {"auto", "global", "drained"}) {
    CAPTURE(s);
    CHECK(doc["strategies"][s]["feasible"] == false);
    CHECK(doc["strategies"][s]["total_new"] == 0);
    CHECK(doc["strategies"][s]["reason"] ==
          "topologySpreadConstraints depends on where the other replicas go; only strategy score "
          "honours it");
  }
  CHECK(doc["strategies"]["score"]["feasible"] == true);
  CHECK(doc["strategies"]["score"]["deploy"] == nlohmann::json{{"a", 1}, {"b", 1}, {"c", 1}});
  CHECK(eruplan("plan -n zones.yaml -r spread.yaml --strategy drained").exit == 3);
}

TEST_CASE("whatif cli: usage errors exit 2, out-of-range values exit 3") {
  inputs();
  CHECK(eruplan("compare -n nodes.yaml -r req.yaml --strategies auto,sideways").exit == 2);
  CHECK(eruplan("grow -n nodes.yaml -r req.yaml --template big.yaml --max many").exit == 2);
  CHECK(eruplan("grow -n nodes.yaml -r req.yaml").exit == 2);  // no --template
  CHECK(eruplan("drain -n nodes.yaml -r req.yaml").exit == 2);
  CHECK(eruplan("drain -n nodes.yaml -r req.yaml --node n1 --each-node").exit == 2);
  const Ran neg = eruplan("grow -n nodes.yaml -r req.yaml --template big.yaml --max -1");
  CHECK(neg.exit == 3);
  CHECK(neg.err.find("--max: must be >= 0, got -1") != std::string::npos);
  // Every copy is a node to plan on: a --max past 10,000, or one copy per 10
  // bytes of input, is refused at once (a trillion once ended in bad_alloc,
  // exit 1; ten million ran past 30 s; 100,000 copies of a 100-byte input
  // held 96 MB).
  const Ran huge =
      eruplan("grow -n nodes.yaml -r req.yaml --template big.yaml --max 1000000000000");
  CHECK(huge.exit == 3);
  CHECK(huge.err.find("--max: too large: at most 10000 copies for this input (10000, or one per "
                      "10 bytes of input, up to 100000; each is a node to plan on), got "
                      "1000000000000") != std::string::npos);
  CHECK(eruplan("grow -n nodes.yaml -r req.yaml --template big.yaml --max 10000").exit != 3);
  CHECK(eruplan("grow -n nodes.yaml -r req.yaml --template big.yaml --max 10001").exit == 3);
  const Ran missing = eruplan("grow -n nodes.yaml -r req.yaml --template nowhere.yaml");
  CHECK(missing.exit == 3);
}

TEST_CASE("whatif cli: grow and drain print the plan document") {
  inputs();
  const Ran g = eruplan("grow -n nodes.yaml -r req.yaml --count 30 --template big.yaml -o json");
  CHECK(g.exit == 0);
  const auto doc = nlohmann::json::parse(g.out);
  CHECK(doc["added"] == 1);  // 23 fit, one node of 10 more is enough
  CHECK(doc["capacity"]["nodes"]["big-1"] == 10);
  const Ran d = eruplan("drain -n nodes.yaml -r req.yaml --node n1 -o json");
  CHECK(d.exit == 0);
  const auto plan = nlohmann::json::parse(d.out);
  CHECK(plan["deploy"] == nlohmann::json{{"n2", 1}, {"n3", 2}});
  CHECK(plan["capacity"]["nodes"]["n1"] == 0);
  const Ran each = eruplan("drain -n nodes.yaml -r req.yaml --each-node -o json");
  CHECK(each.exit == 0);
  CHECK(nlohmann::json::parse(each.out)["unabsorbable"] == nlohmann::json::array());
}

TEST_CASE("whatif cli: --report writes the page; same input, same bytes") {
  inputs();
  CHECK(eruplan("compare -n nodes.yaml -r req.yaml --report a.html").exit == 0);
  CHECK(eruplan("compare -n nodes.yaml -r req.yaml --report b.html --jobs 2").exit == 0);
  const std::string a = slurp(work_dir() / "a.html");
  CHECK(a.find("<h2>auto: feasible</h2>") != std::string::npos);
  CHECK(a == slurp(work_dir() / "b.html"));
  CHECK(eruplan("plan -n nodes.yaml -r req.yaml --report p.html").exit == 0);
  CHECK(slurp(work_dir() / "p.html").find("data-node=\"n3\"") != std::string::npos);
}

}  // namespace

// SPEC §13: grow's and drain's exit 4 print plan's failure document for the
// inventory they tried, their own question as the message's first line.
namespace {

nlohmann::json failure_of(const Ran& r) {
  REQUIRE(r.exit == 4);
  return nlohmann::json::parse(r.out);
}

// The members plan's failure document has beside `error`, field by field.
void same_failure_members(const nlohmann::json& whatif, const nlohmann::json& plan) {
  CHECK(whatif["error"]["exit"] == 4);
  CHECK(whatif["error"]["kind"] == "infeasible");
  CHECK(whatif["error"]["problems"] == nlohmann::json::array());
  CHECK(whatif["capacity"] == plan["capacity"]);
  CHECK(whatif["reasons"] == plan["reasons"]);
  CHECK(whatif["reason_kinds"] == plan["reason_kinds"]);
  CHECK_FALSE(whatif.contains("deploy"));
  CHECK_FALSE(whatif.contains("assignments"));
  std::vector<std::string> keys, plan_keys;
  for (auto it = whatif.begin(); it != whatif.end(); ++it) keys.push_back(it.key());
  for (auto it = plan.begin(); it != plan.end(); ++it) plan_keys.push_back(it.key());
  CHECK(keys == plan_keys);
}

}  // namespace

TEST_CASE("whatif cli: grow's exit 4 is plan's failure document for the nodes it tried") {
  inputs();
  write("tiny.yaml", "name: tiny\ncpu: 4\nmemory: 50Mi\n");
  // A template that takes none: the inventory with one copy, as plan sees it.
  write("nodes_tiny.yaml", R"(nodes:
  - {name: n1, cpu: 4, memory: 1000Mi, instances: {web: 3}}
  - {name: n2, cpu: 4, memory: 1000Mi, instances: {web: 1}}
  - {name: n3, cpu: 4, memory: 300Mi}
  - {name: tiny-1, cpu: 4, memory: 50Mi}
)");
  const Ran g = eruplan("grow -n nodes.yaml -r req.yaml --count 30 --template tiny.yaml -o json");
  const Ran p = eruplan("plan -n nodes_tiny.yaml -r req.yaml --count 30 -o json");
  const nlohmann::json grow = failure_of(g), plan = failure_of(p);
  same_failure_members(grow, plan);
  CHECK(grow["capacity"]["nodes"]["tiny-1"] == 0);
  CHECK(grow["reasons"]["tiny-1"] == "memory: 50Mi available, 100Mi per instance");
  CHECK(grow["reason_kinds"]["tiny-1"] == nlohmann::json{"memory"});
  CHECK(grow["capacity"]["total"] == 23);
  CHECK(grow["error"]["message"] ==
        "the template can never help: tiny-1: capacity 0 (memory: 50Mi available, 100Mi per "
        "instance)\n" +
            plan["error"]["message"].get<std::string>());
  CHECK(plan["error"]["message"].get<std::string>().ends_with(
      "need 30 new instances, the nodes can take 23: 1 node limited by memory"));
  // stderr: the question, then plan's reasons with the summary line.
  CHECK(g.err.starts_with("the template can never help: tiny-1"));
  CHECK(g.err.find("\ninfeasible: ") != std::string::npos);
  CHECK(g.err.find("need 30 new instances, the nodes can take 23: 1 node limited by memory\n") !=
        std::string::npos);

  // --max 2 copies of big (10 each) are not enough for 100: plan with both.
  write("nodes_big2.yaml", R"(nodes:
  - {name: n1, cpu: 4, memory: 1000Mi, instances: {web: 3}}
  - {name: n2, cpu: 4, memory: 1000Mi, instances: {web: 1}}
  - {name: n3, cpu: 4, memory: 300Mi}
  - {name: big-1, cpu: 4, memory: 1000Mi}
  - {name: big-2, cpu: 4, memory: 1000Mi}
)");
  const Ran g2 =
      eruplan("grow -n nodes.yaml -r req.yaml --count 100 --template big.yaml --max 2 -o json");
  const Ran p2 = eruplan("plan -n nodes_big2.yaml -r req.yaml --count 100 -o json");
  const nlohmann::json grow2 = failure_of(g2), plan2 = failure_of(p2);
  same_failure_members(grow2, plan2);
  CHECK(grow2["capacity"]["total"] == 43);
  CHECK(grow2["error"]["message"] == "even 2 nodes like big do not suffice (--max 2)\n" +
                                         plan2["error"]["message"].get<std::string>());
  CHECK(grow2["error"]["message"].get<std::string>().ends_with(
      "need 100 new instances, the nodes can take 43"));

  // YAML carries the same document.
  const Ran y =
      eruplan("grow -n nodes.yaml -r req.yaml --count 100 --template big.yaml --max 2 -o yaml");
  CHECK(y.exit == 4);
  CHECK(y.out.starts_with("error:\n  exit: 4\n  kind: infeasible\n"));
  CHECK(y.out.find("\ncapacity:\n  total: 43\n") != std::string::npos);
  CHECK(y.out.find("\nreasons: {}\nreason_kinds: {}\n") != std::string::npos);
}

TEST_CASE("whatif cli: drain's exit 4 is plan's failure document with the node lost") {
  inputs();
  // n1's 3 instances of 400Mi: n2 takes 2, n3 none.
  write("nodes_lost.yaml", R"(nodes:
  - {name: n1, cpu: 4, memory: 1000Mi, available: false}
  - {name: n2, cpu: 4, memory: 1000Mi, instances: {web: 1}}
  - {name: n3, cpu: 4, memory: 300Mi}
)");
  const Ran d = eruplan("drain -n nodes.yaml -r req.yaml --memory 400Mi --node n1 -o json");
  const Ran p = eruplan("plan -n nodes_lost.yaml -r req.yaml --memory 400Mi --count 3 -o json");
  const nlohmann::json drain = failure_of(d), plan = failure_of(p);
  same_failure_members(drain, plan);
  CHECK(drain["capacity"]["nodes"] == nlohmann::json{{"n1", 0}, {"n2", 2}, {"n3", 0}});
  CHECK(drain["reasons"]["n1"] == "not available");
  CHECK(drain["error"]["message"] ==
        "the 3 instances of web on n1 do not fit on the other nodes\n" +
            plan["error"]["message"].get<std::string>());
  CHECK(plan["error"]["message"].get<std::string>().ends_with(
      "need 3 new instances, the nodes can take 2: 1 node not available, 1 node limited by "
      "memory"));
  CHECK(
      d.err.starts_with("the 3 instances of web on n1 do not fit on the other nodes\n"
                        "infeasible: "));
}

TEST_CASE("whatif cli: --strict, --explain and --all-nodes reach grow and drain") {
  inputs();
  write("typo.yaml", "{app: web, count: 4, resources: {memroy: 100Mi}}\n");
  for (const char* cmd : {"grow --template big.yaml", "drain --node n1", "compare"}) {
    CAPTURE(cmd);
    const Ran strict = eruplan(std::string(cmd) + " -n nodes.yaml -r typo.yaml --strict -o json");
    CHECK(strict.exit == 3);
    CHECK(strict.err.find("typo.yaml:1:34: error: resources.memroy: unknown field; did you mean "
                          "memory?") != std::string::npos);
    const auto doc = nlohmann::json::parse(strict.out);
    CHECK(doc["error"]["problems"][0]["path"] == "resources.memroy");
    CHECK(eruplan(std::string(cmd) + " -n nodes.yaml -r typo.yaml").exit == 3);  // the default
    CHECK(eruplan(std::string(cmd) + " -n nodes.yaml -r typo.yaml --lenient").exit == 0);
  }
  const Ran d = eruplan("drain -n nodes.yaml -r req.yaml --node n1 --explain -o json");
  CHECK(d.exit == 0);
  const auto explain = nlohmann::json::parse(d.out)["explain"];
  CHECK(explain.size() == 3);
  CHECK(explain["n1"] == "not available");
  const Ran g = eruplan("grow -n nodes.yaml -r req.yaml --count 30 --template big.yaml --explain");
  CHECK(g.exit == 0);
  CHECK(g.out.find("big-1") != std::string::npos);
  CHECK(g.out.find("explain") != std::string::npos);
  // Where there is no per-node plan to explain, the flag is a usage error.
  const Ran c = eruplan("compare -n nodes.yaml -r req.yaml --explain");
  CHECK(c.exit == 2);
  CHECK(c.err.find("--explain") != std::string::npos);
  const Ran each = eruplan("drain -n nodes.yaml -r req.yaml --each-node --explain");
  CHECK(each.exit == 2);
  CHECK(each.err.find("--explain applies to drain --node, not --each-node") != std::string::npos);
}

TEST_CASE("whatif cli: an unreadable file with -o json prints the failure document") {
  inputs();
  for (const char* cmd : {"grow -r req.yaml --template big.yaml", "drain -r req.yaml --node n1",
                          "compare -r req.yaml"}) {
    CAPTURE(cmd);
    const Ran r = eruplan(std::string(cmd) + " -n nowhere.yaml -o json");
    CHECK(r.exit == 3);
    const auto doc = nlohmann::json::parse(r.out);
    CHECK(doc["error"]["kind"] == "invalid");
    CHECK(doc["error"]["problems"][0]["file"] == "nowhere.yaml");
  }
}

TEST_CASE("whatif cli: --max is checked like --count: exit 2 naming it, exit 3 out of range") {
  inputs();
  const std::string grow = "grow -n nodes.yaml -r req.yaml --template big.yaml --max ";
  const Ran word = eruplan(grow + "abc");
  CHECK(word.exit == 2);
  CHECK(word.err.find("--max: expected a whole number, got \"abc\"") != std::string::npos);
  CHECK(eruplan(grow + "1.5").exit == 2);
  const Ran big = eruplan(grow + "99999999999999999999 -o json");
  CHECK(big.exit == 3);
  CHECK(big.err ==
        "<command line>: error: --max: number 99999999999999999999 is out of range (at most "
        "9223372036854775807)\n");
  CHECK(nlohmann::json::parse(big.out)["error"]["problems"][0]["path"] == "--max");
  CHECK(eruplan(grow + "+2 --count 30").exit == 0);
}

TEST_CASE("whatif cli: compare's exit 4 message has SPEC §13's summary line") {
  inputs();
  const Ran r = eruplan("compare -n nodes.yaml -r req.yaml --count 100 -o json");
  REQUIRE(r.exit == 4);
  const auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["error"]["message"] ==
        "no strategy places the request\nneed 100 new instances, the nodes can take 23");
  CHECK(doc["strategies"].size() == 4);
  CHECK(
      r.err.starts_with("infeasible: no strategy places the request\n"
                        "need 100 new instances, the nodes can take 23\n  auto: "));
  CHECK(r.err.find("\n  score: 0/3 nodes are available: ") != std::string::npos);
}
