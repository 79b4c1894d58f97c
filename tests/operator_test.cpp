// SPEC §13, operator output, end to end through the built binary: failure
// documents, --strict, flag values, --explain, long tables, completions,
// --help examples, and the fixture runner's options/expectations/JUnit.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "binary.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using eruplan_test::Ran;
using eruplan_test::slurp;

fs::path work_dir() { return eruplan_test::scratch_dir("operator_test"); }

// Runs `eruplan ARGS` in the test's directory, capturing stdout and stderr.
Ran eruplan(const std::string& args) { return eruplan_test::run_eruplan(work_dir(), args); }

std::string write(const std::string& name, const std::string& text) {
  std::ofstream(work_dir() / name) << text;
  return name;
}

const char* kNodes = R"(nodes:
  - {name: n1, cpu: 4, memory: 100Mi, labels: {pool: gpu}, instances: {web: 4}}
  - {name: n2, cpu: 4, memory: 100Mi, labels: {pool: gpu}, instances: {web: 1}}
  - {name: n3, cpu: 4, memory: 5Mi, labels: {pool: gpu}}
  - {name: n4, cpu: 4, memory: 100Mi, labels: {pool: general}}
  - {name: n5, cpu: 4, memory: 100Mi, labels: {pool: gpu}, available: false}
)";

// n nodes "node0000".. with room for 10 instances of 10Mi each.
std::string many_nodes(int n) {
  std::string text = "nodes:\n";
  char name[32];
  for (int i = 0; i < n; ++i) {
    std::snprintf(name, sizeof name, "node%04d", i);
    text += std::string("  - {name: ") + name + ", cpu: 4, memory: 100Mi}\n";
  }
  return text;
}

}  // namespace

// --- (a) failure documents ----------------------------------------------------

TEST_CASE("operator: exit 4 with -o json prints the failure document with capacity, no deploy") {
  write("op_nodes.yaml", kNodes);
  Ran r = eruplan(
      "plan -n op_nodes.yaml --app web --memory 10Mi --count 100 --label pool=gpu "
      "-o json");
  REQUIRE(r.exit == 4);
  const json doc = json::parse(r.out);
  CHECK(doc["error"]["exit"] == 4);
  CHECK(doc["error"]["kind"] == "infeasible");
  CHECK(doc["error"]["problems"] == json::array());
  const std::string message = doc["error"]["message"];
  CHECK(message.find("need 100 new instances, the nodes can take 20: 1 node not available, 1 "
                     "node limited by memory, 1 left out by node_filter") != std::string::npos);
  CHECK(doc["capacity"]["total"] == 20);
  CHECK(doc["capacity"]["nodes"] == json{{"n1", 10}, {"n2", 10}, {"n3", 0}, {"n5", 0}});
  CHECK(doc["reasons"]["n5"] == "not available");
  CHECK(doc["reason_kinds"]["n3"] == json{"memory"});
  CHECK_FALSE(doc.contains("deploy"));
  CHECK_FALSE(doc.contains("assignments"));
  CHECK_FALSE(doc.contains("explain"));
  // stderr keeps the person's version.
  CHECK(r.err.find("infeasible: ") == 0);
}

TEST_CASE("operator: exit 5 (fill already satisfied) with -o yaml prints kind already_satisfied") {
  write("op_nodes.yaml", kNodes);
  Ran r = eruplan(
      "plan -n op_nodes.yaml --app web --memory 10Mi --count 1 --strategy fill "
      "--nodes-limit 2 -o yaml");
  REQUIRE(r.exit == 5);
  CHECK(r.out.find("error:\n  exit: 5\n  kind: already_satisfied\n") == 0);
  CHECK(r.out.find("\ncapacity:\n  total: 30\n") != std::string::npos);
  CHECK(r.out.find("deploy") == std::string::npos);
}

TEST_CASE("operator: exit 3 lists every problem with file, line, column and path") {
  write("op_bad.yaml", "nodes:\n  - {name: a, memory: -5}\n  - {name: a, memory: 1Gi}\n");
  Ran r = eruplan("validate -n op_bad.yaml -o json");
  REQUIRE(r.exit == 3);
  const json doc = json::parse(r.out);
  CHECK(doc["error"]["exit"] == 3);
  CHECK(doc["error"]["kind"] == "invalid");
  REQUIRE(doc["error"]["problems"].size() == 2);
  const json& first = doc["error"]["problems"][0];
  CHECK(first["file"] == "op_bad.yaml");
  CHECK(first["line"] == 2);
  CHECK(first["column"] == 23);
  CHECK(first["path"] == "nodes[0].memory");
  CHECK(doc["error"]["problems"][1]["path"] == "nodes[1].name");
  CHECK(doc["error"]["message"].get<std::string>().find("invalid input: 2 errors") == 0);
}

TEST_CASE("operator: past 1,000 problems, the message still counts every error") {
  std::string text = "nodes:\n";
  for (int i = 0; i < 1500; ++i) text += "  - {name: n" + std::to_string(i) + ", memory: -5}\n";
  write("op_many_bad.yaml", text);
  Ran r = eruplan("validate -n op_many_bad.yaml -o json");
  REQUIRE(r.exit == 3);
  const json doc = json::parse(r.out);
  CHECK(doc["error"]["problems"].size() == 1000);
  CHECK(doc["error"]["message"].get<std::string>().find("invalid input: 1500 errors; the first: "
                                                        "op_many_bad.yaml:2:") == 0);
  CHECK(r.err.ends_with("\n... and 500 more problems (500 errors, 0 warnings) not shown\n"));
}

TEST_CASE("operator: an unreadable file is exit 3 with a problem naming it") {
  Ran r = eruplan("plan -n op_missing.yaml --count 1 --memory 1Mi -o json");
  REQUIRE(r.exit == 3);
  const json doc = json::parse(r.out);
  CHECK(doc["error"]["problems"][0]["file"] == "op_missing.yaml");
  CHECK(doc["error"]["problems"][0]["line"] == nullptr);
}

TEST_CASE("operator: usage errors (exit 2) print the document too, problems empty") {
  write("op_nodes.yaml", kNodes);
  for (const char* args :
       {"plan -n op_nodes.yaml --count abc --memory 1Mi -o json",
        "plan -o json -n op_nodes.yaml --bogus", "plan --output=json", "frobnicate -o json"}) {
    CAPTURE(args);
    Ran r = eruplan(args);
    REQUIRE(r.exit == 2);
    const json doc = json::parse(r.out);
    CHECK(doc["error"]["exit"] == 2);
    CHECK(doc["error"]["kind"] == "usage");
    CHECK(doc["error"]["problems"] == json::array());
    CHECK(r.err.find("--help") != std::string::npos);
  }
  // Without -o json|yaml stdout stays empty.
  Ran table = eruplan("plan -n op_nodes.yaml --count abc --memory 1Mi");
  CHECK(table.exit == 2);
  CHECK(table.out.empty());
}

// --- (b) --strict -------------------------------------------------------------

TEST_CASE("operator: unknown fields are errors (exit 3) unless --lenient makes them warnings") {
  write("op_typo.yaml", "nodes:\n  - {name: a, memroy: 1Gi, memory: 1Gi}\n");
  Ran loose = eruplan("validate -n op_typo.yaml --lenient");
  CHECK(loose.exit == 0);
  CHECK(loose.err.find("op_typo.yaml:2:15: warning: nodes[0].memroy: unknown field, ignored; did "
                       "you mean memory?") != std::string::npos);
  Ran strict = eruplan("validate -n op_typo.yaml --strict -o json");
  REQUIRE(strict.exit == 3);
  CHECK(strict.err.find(
            "op_typo.yaml:2:15: error: nodes[0].memroy: unknown field; did you mean memory?") !=
        std::string::npos);
  const json doc = json::parse(strict.out);
  CHECK(doc["error"]["problems"][0]["path"] == "nodes[0].memroy");
  // The default is strict: the same error without --strict.
  Ran plain = eruplan("validate -n op_typo.yaml");
  CHECK(plain.exit == 3);
  CHECK(plain.err ==
        "op_typo.yaml:2:15: error: nodes[0].memroy: unknown field; did you mean memory?\n");
  Ran both = eruplan("validate -n op_typo.yaml --strict --lenient");
  CHECK(both.exit == 2);
  CHECK(both.err.find("--strict and --lenient contradict each other") != std::string::npos);
}

// --- (c) the summary line for each and fill -------------------------------------

TEST_CASE("operator: the infeasible summary names what each and fill needed") {
  write("op_nodes.yaml", kNodes);
  Ran each = eruplan("plan -n op_nodes.yaml --memory 10Mi --count 11 --strategy each");
  REQUIRE(each.exit == 4);
  CHECK(each.err.find("\nneed 11 new instances on at least one node, the nodes can take 30: 1 node "
                      "not available, 1 node limited by memory\n") != std::string::npos);
  Ran fill = eruplan(
      "plan -n op_nodes.yaml --app web --memory 10Mi --count 12 --strategy fill "
      "--nodes-limit 2");
  REQUIRE(fill.exit == 4);
  CHECK(fill.err.find("\nneed 12 instances of web on each of 2 nodes, the nodes can take 30:") !=
        std::string::npos);
}

// --- (d) --explain --------------------------------------------------------------

TEST_CASE("operator: --explain has one line for every node of the inventory") {
  write("op_nodes.yaml", kNodes);
  Ran r = eruplan(
      "plan -n op_nodes.yaml --app web --memory 10Mi --count 3 --label pool=gpu "
      "--explain -o json");
  REQUIRE(r.exit == 0);
  const json doc = json::parse(r.out);
  CHECK(doc["deploy"] == json{{"n2", 3}});
  CHECK(doc["explain"] == json{{"n1", "auto: has 4, at or above level 4 that the others reach"},
                               {"n2", "auto: +3, at level 4 with the others"},
                               {"n3", "memory: 5Mi available, 10Mi per instance"},
                               {"n4", "node_filter.labels: pool=general does not match pool=gpu"},
                               {"n5", "not available"}});
  Ran table = eruplan(
      "plan -n op_nodes.yaml --app web --memory 10Mi --count 11 --strategy each "
      "--explain --node n1 --node n3");
  REQUIRE(table.exit == 4);
  CHECK(table.err.find("explain:\n  n1: each: capacity 10 < count 11\n"
                       "  n2: node_filter.nodes: not one of n1, n3\n"
                       "  n3: memory: 5Mi available, 10Mi per instance\n") != std::string::npos);
}

TEST_CASE("operator: --explain for fill says what each node already has") {
  write("op_nodes.yaml", kNodes);
  Ran r = eruplan(
      "plan -n op_nodes.yaml --app web --memory 10Mi --count 4 --strategy fill "
      "--nodes-limit 2 --explain -o json");
  REQUIRE(r.exit == 0);
  const json doc = json::parse(r.out);
  CHECK(doc["deploy"] == json{{"n2", 3}});
  CHECK(doc["explain"]["n1"] == "fill: already has 4 of 4");
  CHECK(doc["explain"]["n2"] == "fill: has 1, +3 to reach 4");
  CHECK(doc["explain"]["n4"] ==
        "fill: has 0, could reach 4, but nodes_limit 2 went to nodes with more instances or "
        "capacity");
}

// --- (e) long tables --------------------------------------------------------------

TEST_CASE("operator: past 50 nodes the table lists the used ones and counts the rest") {
  write("op_many.yaml", many_nodes(1000));
  Ran r = eruplan("plan -n op_many.yaml --memory 10Mi --count 10 --strategy fill --nodes-limit 10");
  REQUIRE(r.exit == 0);
  CHECK(r.out.find("node0000") != std::string::npos);
  CHECK(r.out.find("node0010") == std::string::npos);
  CHECK(r.out.find("\n... 990 more nodes with room, none of them used\ntotal ") !=
        std::string::npos);
  Ran all = eruplan(
      "plan -n op_many.yaml --memory 10Mi --count 10 --strategy fill "
      "--nodes-limit 10 --all-nodes");
  CHECK(all.out.find("node0999") != std::string::npos);
  CHECK(all.out.find("more nodes") == std::string::npos);
  Ran fifty = eruplan("capacity -n op_many.yaml --memory 10Mi --node node0000 --node node0001");
  CHECK(fifty.out.find("more nodes") == std::string::npos);
}

TEST_CASE("operator: table columns count display cells (CJK two wide)") {
  write("op_cjk.yaml",
        "nodes:\n  - {name: 节点一, cpu: 4, memory: 100Mi}\n  - {name: ab, cpu: 4, memory: 1Mi}\n");
  Ran r = eruplan("capacity -n op_cjk.yaml --memory 10Mi");
  REQUIRE(r.exit == 0);
  // "节点一" is 6 cells wide, so "ab" is padded with 4 spaces to line up.
  CHECK(r.out.find("\n节点一        10") != std::string::npos);
  CHECK(r.out.find("\nab             0") != std::string::npos);
}

// --- (f) flag values ----------------------------------------------------------------

TEST_CASE("operator: flag values that do not parse are exit 2, out of range exit 3") {
  write("op_nodes.yaml", kNodes);
  const std::string base = "plan -n op_nodes.yaml --memory 1Mi ";
  const std::pair<const char*, const char*> usage[] = {
      {"--count abc", "--count"},
      {"--count 1.5", "--count"},
      {"-o jsn --count 1", "--output"},
      {"--label pool --count 1", "--label"},
      {"--jobs 0 --count 1", "--jobs"},
      {"--strategy sideways --count 1", "--strategy"},
      {"--storage lots --count 1", "--storage"}};
  for (const auto& [args_text, flag] : usage) {
    const std::string args = args_text;
    CAPTURE(args);
    Ran r = eruplan(base + args);
    CHECK(r.exit == 2);
    CHECK(r.err.find(flag) != std::string::npos);
  }
  const std::pair<const char*, const char*> invalid[] = {
      {"--count 0", "--count"},
      {"--count 1 --cpu -1", "--cpu"},
      {"--count 9223372036854775808", "--count"}};
  for (const auto& [args_text, flag] : invalid) {
    const std::string args = args_text;
    CAPTURE(args);
    Ran r = eruplan(base + args);
    CHECK(r.exit == 3);
    CHECK(r.err.find(std::string("error: ") + flag) != std::string::npos);
  }
  Ran negative = eruplan("plan -n op_nodes.yaml --count 1 --memory -1");
  CHECK(negative.exit == 3);
  CHECK(negative.err.find("--memory: negative size -1") != std::string::npos);
}

// --- (g) completions and help -----------------------------------------------------------

TEST_CASE("operator: completion bash|zsh prints the scripts; --help ends with examples") {
  Ran bash = eruplan("completion bash");
  CHECK(bash.exit == 0);
  CHECK(bash.out.find("complete -o default -F _eruplan eruplan") != std::string::npos);
  Ran zsh = eruplan("completion zsh");
  CHECK(zsh.exit == 0);
  CHECK(zsh.out.find("#compdef eruplan") == 0);
  CHECK(eruplan("completion fish").exit == 2);
  for (const char* command : {"plan", "capacity", "validate", "apply", "share", "realloc",
                              "compare", "grow", "drain", "test"}) {
    CAPTURE(command);
    Ran help = eruplan(std::string(command) + " --help");
    CHECK(help.exit == 0);
    const auto at = help.out.rfind("Examples:\n  eruplan " + std::string(command));
    REQUIRE(at != std::string::npos);
    CHECK(help.out.find("\n  eruplan ", at + 12) != std::string::npos);
  }
}

// --- (h) fixture cases ---------------------------------------------------------------------

TEST_CASE("operator: fixture options and deploy_subset/deploy_total/placed/status") {
  write("op_nodes.yaml", kNodes);
  write("op_case.yaml", R"(name: options override the request
nodes: op_nodes.yaml
request: {app: web, count: 1, resources: {memory: 10Mi}}
options: {count: 4, strategy: fill, nodes_limit: 2}
expect:
  deploy_subset: {n2: 3}
  deploy_total: 3
  placed: 3
  status: placed
)");
  Ran pass = eruplan("test op_case.yaml");
  CHECK(pass.exit == 0);
  CHECK(pass.out == "1 passed, 0 failed\n");
  write("op_case_bad.yaml", R"(name: wrong expectations
nodes: op_nodes.yaml
request: {app: web, count: 3, resources: {memory: 10Mi}}
expect: {deploy_subset: {n2: 2}, deploy_total: 4, placed: 2, status: partial}
)");
  Ran fail = eruplan("test op_case_bad.yaml");
  CHECK(fail.exit == 1);
  CHECK(fail.out.find("deploy_subset.n2: expected 2, got 1; deploy_total: expected 4, got 3; "
                      "placed: expected 2, got 3; status: expected partial, got placed") !=
        std::string::npos);
}

TEST_CASE("operator: fixture cases run strictly") {
  write("op_case_typo.yaml", R"(name: a typo in the inline inventory
nodes: {nodes: [{name: a, memory: 1Gi, cpus: 4}]}
request: {count: 1, resources: {memory: 1Mi}}
)");
  Ran r = eruplan("test op_case_typo.yaml");
  CHECK(r.exit == 1);
  CHECK(r.out.find("exit: expected 0, got 3") != std::string::npos);
}

constexpr const char* kListCase = R"(name: two requests
nodes: op_nodes.yaml
request:
  requests:
    - {name: a, app: web, count: 2, resources: {memory: 10Mi}}
    - {name: b, app: db, count: 500, resources: {memory: 10Mi}}
expect:
  exit: 4
  status: {a: placed, b: rejected}
  placed: {a: 2, b: 0}
)";

TEST_CASE("operator: per-request status and placed for a requests: list") {
  write("op_nodes.yaml", kNodes);
  write("op_case_list.yaml", kListCase);
  Ran r = eruplan("test op_case_list.yaml");
  CHECK(r.out == "1 passed, 0 failed\n");
}

TEST_CASE("operator: --print-expect writes the expect block the case now makes") {
  write("op_nodes.yaml", kNodes);
  write("op_case_print.yaml", R"(name: print me
nodes: op_nodes.yaml
request: {app: web, count: 3, resources: {memory: 10Mi}, node_filter: {labels: {pool: gpu}}}
)");
  Ran r = eruplan("test --print-expect op_case_print.yaml");
  REQUIRE(r.exit == 0);
  CHECK(r.out ==
        "expect:\n  exit: 0\n  total: 20\n  capacity:\n    n1: 10\n    n2: 10\n    n3: 0\n"
        "    n5: 0\n  deploy:\n    n2: 3\n  status: placed\n  placed: 3\n");
  // Pasted back, it passes.
  write("op_case_printed.yaml", slurp(work_dir() / "op_case_print.yaml") + r.out);
  CHECK(eruplan("test op_case_printed.yaml").out == "1 passed, 0 failed\n");
}

TEST_CASE("operator: test -o junit escapes names and counts failures") {
  write("op_nodes.yaml", kNodes);
  write("op_case_list.yaml", kListCase);
  write("op_junit_bad.yaml", R"(name: "<fails> & \"quoted\""
nodes: op_nodes.yaml
request: {app: web, count: 3, resources: {memory: 10Mi}}
expect: {deploy_total: 4}
)");
  Ran r = eruplan("test -o junit op_junit_bad.yaml op_case_list.yaml");
  CHECK(r.exit == 1);
  CHECK(r.out.find("<testsuites name=\"eruplan\" tests=\"2\" failures=\"1\" errors=\"0\">") !=
        std::string::npos);
  CHECK(r.out.find("name=\"&lt;fails&gt; &amp; &quot;quoted&quot;\"") != std::string::npos);
  CHECK(r.out.find("<failure message=\"deploy_total: expected 4, got 3\">") != std::string::npos);
}

TEST_CASE("operator: realloc's usage errors and unreadable files print the document too") {
  Ran usage = eruplan("realloc -n op_nodes.yaml -o json");
  REQUIRE(usage.exit == 2);
  CHECK(json::parse(usage.out)["error"]["message"] ==
        "no realloc request: give -r FILE, or --workload ID (repeatable) or --app APP with the "
        "deltas");
  Ran missing = eruplan("realloc -n op_missing.yaml -r op_missing.yaml -o yaml");
  REQUIRE(missing.exit == 3);
  CHECK(missing.out.find("error:\n  exit: 3\n  kind: invalid\n") == 0);
  CHECK(missing.out.find("    - file: op_missing.yaml\n      line: null\n") != std::string::npos);
}

TEST_CASE("operator: --strict makes unknown fields errors in share and realloc too") {
  write("strict_nodes.yaml",
        "nodes:\n  - name: n1\n    cpu: 4\n    memroy: 4Gi\n    memory: 8Gi\n"
        "    workloads: [{id: w1, app: web, cpu: 1, memory: 1Gi}]\n");
  write("strict_apps.yaml", "apps:\n  - {app: A, max_count: 2, resources: {cpu: 1}}\n");
  write("strict_realloc.yaml", "app: web\nresources: {memory: 1Gi}\n");
  Ran loose = eruplan("share -n strict_nodes.yaml -r strict_apps.yaml --lenient");
  CHECK(loose.exit == 0);
  CHECK(loose.err.find("memroy") != std::string::npos);
  Ran strict = eruplan("share -n strict_nodes.yaml -r strict_apps.yaml --strict -o json");
  CHECK(strict.exit == 3);
  CHECK(json::parse(strict.out)["error"]["problems"][0]["path"] == "nodes[0].memroy");
  CHECK(eruplan("realloc -n strict_nodes.yaml -r strict_realloc.yaml --lenient").exit == 0);
  CHECK(eruplan("realloc -n strict_nodes.yaml -r strict_realloc.yaml").exit == 3);
  CHECK(eruplan("share -n strict_nodes.yaml -r strict_apps.yaml").exit == 3);
  Ran realloc = eruplan("realloc -n strict_nodes.yaml -r strict_realloc.yaml --strict");
  CHECK(realloc.exit == 3);
  CHECK(realloc.err.find("nodes[0].memroy") != std::string::npos);
}

TEST_CASE("operator: apply prints an inventory, so -o takes json or yaml only (SPEC §8.3)") {
  write("op_nodes.yaml", kNodes);
  const std::string plan = "apply -n op_nodes.yaml --app web --memory 10Mi --count 1 ";
  Ran table = eruplan(plan + "-o table");
  CHECK(table.exit == 2);
  CHECK(table.out.empty());
  CHECK(table.err.find("--output: table not in {json,yaml}") != std::string::npos);
  CHECK(table.err.find("Run with --help") != std::string::npos);
  Ran yaml = eruplan(plan);  // default: the format of -n
  CHECK(yaml.exit == 0);
  CHECK(yaml.out.starts_with("share_base: 100\n"));
  CHECK(yaml.out.find("\nnodes:\n  - name: n1\n") != std::string::npos);
  Ran json_out = eruplan(plan + "-o json");
  CHECK(json_out.exit == 0);
  CHECK(json::parse(json_out.out)["nodes"].size() == 5);
  // --explain's lines go to stderr; stdout stays a valid inventory.
  Ran explained = eruplan(plan + "--explain");
  CHECK(explained.exit == 0);
  CHECK(explained.out == yaml.out);
  CHECK(explained.err.starts_with("explain:\n  n1: "));
  CHECK(explained.err.find("\n  n4: auto: +1, at level 1 with the others\n  n5: not available\n") !=
        std::string::npos);
}

TEST_CASE("operator: share and realloc name the first problem in the document's message") {
  write("op_nodes.yaml", kNodes);
  write("op_bad_apps.yaml", "apps:\n  - {app: A, weight: 0, resources: {cpu: 1}}\n");
  Ran share = eruplan("share -n op_nodes.yaml -r op_bad_apps.yaml -o json");
  REQUIRE(share.exit == 3);
  CHECK(json::parse(share.out)["error"]["message"] ==
        "invalid input: 1 error; the first: op_bad_apps.yaml:2:22: error: apps[0].weight: weight "
        "must be > 0, got 0");
}

TEST_CASE("operator: bash completion offers each command's own options") {
  auto complete = [](const std::string& words) {
    const std::string script = "source <(" + std::string(ERUPLAN_BINARY) +
                               " completion bash); COMP_WORDS=(eruplan " + words +
                               "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _eruplan; "
                               "echo \"${COMPREPLY[*]}\"";
    write("complete.sh", script);
    const std::string cmd = "bash " + (work_dir() / "complete.sh").string();
    std::string out;
    if (FILE* p = ::popen(cmd.c_str(), "r")) {
      char buf[256];
      for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
      ::pclose(p);
    }
    return out;
  };
  CHECK(complete("grow --t") == "--template\n");
  CHECK(complete("drain --ea") == "--each-node\n");
  CHECK(complete("compare --str") == "--strict --strategies\n");  // --strategy is not compare's
  CHECK(complete("drain --co") == "\n");                          // drain counts for itself
  CHECK(complete("share --rep") == "--report\n");
  CHECK(complete("plan --te") == "\n");  // --template is grow's
  CHECK(complete("plan -o ''") == "table json yaml\n");
  CHECK(complete("apply -o ''") == "json yaml\n");  // an inventory has no table
}

TEST_CASE("operator: a requests: list reports its errors and the inventory checks of the rest") {
  write("op_nodes.yaml", kNodes);
  write("op_list.yaml",
        "requests:\n"
        "  - {app: a, count: 1, resources: {memory: lots}}\n"
        "  - {app: b, count: 1, resources: {cpu: 0.005, cpu_bind: true}}\n"
        "  - {app: a, count: 1}\n");
  Ran r = eruplan("plan -n op_nodes.yaml -r op_list.yaml -o json");
  REQUIRE(r.exit == 3);
  std::vector<std::string> paths;
  const json doc = json::parse(r.out);
  for (const json& p : doc["error"]["problems"])
    paths.push_back(p["path"].get<std::string>() + " @" + std::to_string(p["line"].get<int>()));
  CHECK(paths == std::vector<std::string>{"requests[0].resources.memory @2", "requests[2] @4",
                                          "requests[1].resources.cpu @3"});
  // The same for Kubernetes manifests in a stream.
  write("op_pods.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  containers:\n"
        "    - resources: {requests: {memory: 1Gb}}\n---\n"
        "apiVersion: v1\nkind: Pod\nmetadata: {name: b}\nspec:\n  nodeName: n9\n"
        "  containers: [{resources: {requests: {cpu: 1}}}]\n");
  Ran k = eruplan("plan -n op_nodes.yaml -r op_pods.yaml");
  CHECK(k.exit == 3);
  CHECK(
      k.err.find(
          "op_pods.yaml:6:38: error: documents[0].spec.containers[0].resources.requests.memory") !=
      std::string::npos);
  CHECK(k.err.find("op_pods.yaml:12:13: warning: documents[1].spec.nodeName: node \"n9\" is not in "
                   "the inventory\n") != std::string::npos);
}

TEST_CASE("operator: every input's problems in one run, each at its place") {
  write("pl_nodes.yaml", "nodes:\n  - {name: n1, cpu: 4, memory: 100Mi}\n");
  // An unknown strategy no longer hides the checks against the inventory:
  // cpu pieces, and the node names the inventory lacks, each where written.
  write("pl_request.yaml",
        "app: web\ncount: 2\nstrategy: fil\nresources: {cpu: 0.005, cpu_bind: true}\n"
        "node_filter: {nodes: [n1, n9], exclude: [n8]}\n");
  const std::string strategy =
      "pl_request.yaml:3:11: error: strategy: unknown strategy \"fil\"; expected auto, fill, "
      "each, global, drained or score (communism = auto, average = each)\n";
  const std::string pieces =
      "pl_request.yaml:4:18: error: resources.cpu: cpu 0.005 at share_base 100 is 0.5 pieces; "
      "cpu x share_base must be a whole number\n";
  const std::string unknown_nodes =
      "pl_request.yaml:5:27: warning: node_filter.nodes[1]: node \"n9\" is not in the "
      "inventory\n"
      "pl_request.yaml:5:42: warning: node_filter.exclude[0]: node \"n8\" is not in the "
      "inventory\n";
  for (const char* command : {"validate", "plan"}) {
    Ran r = eruplan(std::string(command) + " -n pl_nodes.yaml -r pl_request.yaml");
    CHECK(r.exit == 3);
    CHECK(r.err == strategy + pieces + unknown_nodes);
    CHECK(r.out.empty());
  }
  Ran json_run = eruplan("plan -n pl_nodes.yaml -r pl_request.yaml -o json");
  CHECK(json_run.exit == 3);
  std::vector<std::string> paths;
  const json failure = json::parse(json_run.out);
  for (const json& p : failure["error"]["problems"]) paths.push_back(p["path"].get<std::string>());
  CHECK(paths == std::vector<std::string>{"strategy", "resources.cpu"});

  // The same for a request of a requests: list, with its index in the path.
  write("pl_list.yaml",
        "requests:\n  - {app: a, count: 1, strategy: fil, node_filter: {nodes: [n9]}}\n"
        "  - {app: b, count: 1}\n");
  Ran list = eruplan("plan -n pl_nodes.yaml -r pl_list.yaml");
  CHECK(list.exit == 3);
  CHECK(list.err ==
        "pl_list.yaml:2:34: error: requests[0].strategy: unknown strategy \"fil\"; expected auto, "
        "fill, each, global, drained or score (communism = auto, average = each)\n"
        "pl_list.yaml:2:61: warning: requests[0].node_filter.nodes[0]: node \"n9\" is not in the "
        "inventory\n");

  // The same for one Kubernetes manifest: its error, and its nodeName's place.
  write("pl_pod.yaml",
        "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\nspec:\n  nodeName: n9\n  containers:\n"
        "    - resources: {requests: {memory: 1Gb}}\n");
  Ran pod = eruplan("validate -n pl_nodes.yaml -r pl_pod.yaml");
  CHECK(pod.exit == 3);
  CHECK(pod.err ==
        "pl_pod.yaml:7:38: error: spec.containers[0].resources.requests.memory: expected a "
        "Kubernetes quantity (like 1.5, 500m, 8Gi or 1e3), got \"1Gb\"\n"
        "pl_pod.yaml:5:13: warning: spec.nodeName: node \"n9\" is not in the inventory\n");

  // A flag names the node: the warning names the flag.
  Ran flagged = eruplan("plan -n pl_nodes.yaml --memory 1Mi --count 1 --node n1 --node n9");
  CHECK(flagged.exit == 0);
  CHECK(flagged.err == "<command line>: warning: --node: node \"n9\" is not in the inventory\n");

  // A broken nodes file does not hide the --pods file's errors; with no
  // node list to match, nothing is said about the pods' nodes.
  write("pl_bad_nodes.yaml", "nodes:\n  - {name: n1, cpu: -4, memory: 100Mi}\n");
  write("pl_pods.json",
        R"({"kind": "List", "apiVersion": "v1", "items": [
  {"kind": "Pod", "metadata": {"name": "p"}, "spec": {"nodeName": "n1",
   "containers": [{"resources": {"requests": {"cpu": "lots"}}}]}},
  {"kind": "Pod", "metadata": {"name": "q"}, "spec": {"nodeName": "zz", "containers": []}}]}
)");
  const std::string pod_error =
      "pl_pods.json:3:54: error: items[0].spec.containers[0].resources.requests.cpu: expected a "
      "Kubernetes quantity (like 1.5, 500m, 8Gi or 1e3), got \"lots\"\n";
  Ran both = eruplan("plan -n pl_bad_nodes.yaml --pods pl_pods.json --memory 1Mi --count 1");
  CHECK(both.exit == 3);
  CHECK(both.err == "pl_bad_nodes.yaml:2:21: error: nodes[0].cpu: negative cpu -4\n" + pod_error);
  // With the nodes fixed, the same pod error, and the unknown node's warning.
  Ran pods_only = eruplan("plan -n pl_nodes.yaml --pods pl_pods.json --memory 1Mi --count 1");
  CHECK(pods_only.exit == 3);
  CHECK(
      pods_only.err ==
      pod_error +
          "pl_pods.json:4:67: warning: items[1].spec.nodeName: 1 pod on node \"zz\", which is not "
          "in the node list, ignored (first: q)\n");
  // The same for what-if commands.
  Ran drained = eruplan("drain -n pl_bad_nodes.yaml --pods pl_pods.json --node n1 --memory 1Mi");
  CHECK(drained.exit == 3);
  CHECK(drained.err ==
        "pl_bad_nodes.yaml:2:21: error: nodes[0].cpu: negative cpu -4\n" + pod_error);

  // Every file that cannot be read is named, in one failure document.
  Ran missing = eruplan("plan -n pl_none1.yaml -r pl_none2.yaml --pods pl_none3.json -o json");
  CHECK(missing.exit == 3);
  CHECK(missing.err ==
        "pl_none1.yaml: error: cannot read: No such file or directory\n"
        "pl_none2.yaml: error: cannot read: No such file or directory\n"
        "pl_none3.json: error: cannot read: No such file or directory\n");
  CHECK(json::parse(missing.out)["error"]["problems"].size() == 3);
}
