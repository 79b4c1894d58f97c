// End to end through the built eruplan binary: exit codes, the JSON
// document, stdin, request flags, determinism.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "binary.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using eruplan_test::Ran;
using eruplan_test::slurp;

// Runs `eruplan ARGS` through the shell, capturing stdout and stderr.
Ran eruplan(const std::string& args, const std::string& stdin_text = "") {
  return eruplan_test::run_eruplan(eruplan_test::scratch_dir("cli_test"), args, stdin_text);
}

// Writes a file into the test's working directory and returns its name.
std::string write(const std::string& name, const std::string& text) {
  const fs::path dir =
      fs::temp_directory_path() / ("eruplan_cli_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name) << text;
  return name;
}

const char* kThreeNodes = R"(
nodes:
  - {name: node1, cpu: 4, memory: 100Mi, instances: {web: 5}}
  - {name: node2, cpu: 4, memory: 100Mi, instances: {web: 4}}
  - {name: node3, cpu: 4, memory: 100Mi}
)";

}  // namespace

TEST_CASE("cli: plan -o json gives SPEC's document; auto example {5,4,0} + 3 -> {node3: 3}") {
  write("three.yaml", kThreeNodes);
  write("req.yaml", "app: web\ncount: 3\nresources: {memory: 10Mi}\n");
  Ran r = eruplan("plan -n three.yaml -r req.yaml -o json");
  REQUIRE(r.exit == 0);
  json doc = json::parse(r.out);
  CHECK(doc["capacity"]["total"] == 30);
  CHECK(doc["capacity"]["nodes"] == json{{"node1", 10}, {"node2", 10}, {"node3", 10}});
  CHECK(doc["deploy"] == json{{"node3", 3}});
  CHECK(doc["reasons"] == json::object());
  CHECK(doc["request"]["resources"]["memory"] == 10 * 1024 * 1024);
  CHECK_FALSE(doc.contains("plans"));  // memory mode binds nothing
}

TEST_CASE("cli: capacity needs no count and exits 0 even when nothing fits") {
  write("three.yaml", kThreeNodes);
  Ran r = eruplan("capacity -n three.yaml --memory 1Gi -o json");
  REQUIRE(r.exit == 0);
  json doc = json::parse(r.out);
  CHECK(doc["capacity"]["total"] == 0);
  CHECK(doc["reasons"]["node1"] == "memory: 100Mi available, 1Gi per instance");
  CHECK_FALSE(doc.contains("deploy"));
}

TEST_CASE("cli: request flags alone, from stdin inventory") {
  Ran r =
      eruplan("plan -n - --app web --count 2 --memory 10Mi --strategy EACH -o json", kThreeNodes);
  REQUIRE(r.exit == 0);
  json doc = json::parse(r.out);
  CHECK(doc["deploy"] == json{{"node1", 2}, {"node2", 2}, {"node3", 2}});
  CHECK(doc["request"]["strategy"] == "each");
}

TEST_CASE("cli: infeasible plan exits 4 with the reason on stderr and no plan on stdout") {
  write("three.yaml", kThreeNodes);
  Ran r = eruplan("plan -n three.yaml --app web --count 31 --memory 10Mi -o json");
  CHECK(r.exit == 4);
  // SPEC §13: -o json prints the failure document, never a deploy.
  CHECK(json::parse(r.out)["error"]["exit"] == 4);
  CHECK(r.out.find("deploy") == std::string::npos);
  CHECK(r.err.find("31") != std::string::npos);
  CHECK(r.err.find("node3") != std::string::npos);
}

TEST_CASE("cli: fill with nothing to add exits 5") {
  write("filled.yaml",
        "nodes:\n  - {name: n1, cpu: 2, memory: 1Gi, instances: {web: 1}}\n"
        "  - {name: n2, cpu: 2, memory: 1Gi, instances: {web: 1}}\n");
  Ran r = eruplan(
      "plan -n filled.yaml --app web --count 1 --strategy fill --nodes-limit 2 --memory 1Mi");
  CHECK(r.exit == 5);
  CHECK(r.out.empty());
  CHECK(r.err.find("n1") != std::string::npos);
}

TEST_CASE("cli: bad input exits 3 naming the file, position and field") {
  write("bad.json", "{\"nodes\":[{\"name\":\"n1\",\"cpu\":4,\"memory\":-5}]}");
  Ran r = eruplan("capacity -n bad.json --memory 1Mi -o json");
  CHECK(r.exit == 3);
  CHECK(json::parse(r.out)["error"]["problems"][0]["path"] == "nodes[0].memory");  // SPEC §13
  CHECK(r.err.find("bad.json:1:") != std::string::npos);
  CHECK(r.err.find("nodes[0].memory") != std::string::npos);

  write("bad.yaml", "nodes:\n  - name: n1\n    cpu: 4\n    memory: lots\n");
  r = eruplan("validate -n bad.yaml");
  CHECK(r.exit == 3);
  CHECK(r.err.find("bad.yaml:4:") != std::string::npos);
  CHECK(r.err.find("nodes[0].memory") != std::string::npos);

  r = eruplan("capacity -n missing.yaml --memory 1Mi");
  CHECK(r.exit == 3);
  CHECK(r.err.find("missing.yaml") != std::string::npos);
}

TEST_CASE("cli: validate lists every problem and summarises valid input") {
  write("two_bad.yaml",
        "nodes:\n  - {name: a, cpu: 2, memory: -1}\n  - {name: a, cpu: 2, memory: 1Gi}\n");
  Ran r = eruplan("validate -n two_bad.yaml");
  CHECK(r.exit == 3);
  CHECK(r.err.find("nodes[0].memory") != std::string::npos);
  CHECK(r.err.find("duplicate") != std::string::npos);

  write("three.yaml", kThreeNodes);
  r = eruplan("validate -n three.yaml");
  CHECK(r.exit == 0);
  CHECK(r.out == "valid: 3 nodes, 12 cores, 300Mi memory\n");

  // Fractional CPU (Kubernetes' allocatable 3920m) counts as given, not as
  // its whole cores: 3.92 + 15.89 + 0.25 = 20.06, not 3 + 15 + 0 = 18.
  write("fractional.yaml",
        "nodes:\n  - {name: a, cpu: 3920m, memory: 1Gi}\n  - {name: b, cpu: 15.89, memory: "
        "1Gi}\n  - {name: c, cpu: 250m, memory: 1Gi}\n");
  r = eruplan("validate -n fractional.yaml");
  CHECK(r.exit == 0);
  CHECK(r.out == "valid: 3 nodes, 20.06 cores, 3Gi memory\n");
  r = eruplan("validate -n fractional.yaml -o json");
  CHECK(r.exit == 0);
  CHECK(r.out.find("\"cores\": 20.06,") != std::string::npos);
}

TEST_CASE("cli: usage errors exit 2 with a --help hint") {
  Ran r = eruplan("plan --bogus");
  CHECK(r.exit == 2);
  CHECK(r.err.find("--help") != std::string::npos);
  r = eruplan("plan");  // missing -n
  CHECK(r.exit == 2);
  r = eruplan("frobnicate");
  CHECK(r.exit == 2);
  write("three.yaml", kThreeNodes);
  r = eruplan("plan -n three.yaml");  // no request at all
  CHECK(r.exit == 2);
  r = eruplan("plan -n - -r -");
  CHECK(r.exit == 2);
  // A strategy flag that names no strategy says which name it did not know,
  // as --scoring and a request file's strategy: do.
  r = eruplan("plan -n three.yaml --count 1 --strategy fil");
  CHECK(r.exit == 2);
  CHECK(r.err.find("--strategy: unknown strategy \"fil\"; expected auto, fill,") !=
        std::string::npos);
  r = eruplan("compare -n three.yaml --count 1 --strategies auto,fil");
  CHECK(r.exit == 2);
  CHECK(r.err.find("--strategies: unknown strategy \"fil\"; expected auto, fill,") !=
        std::string::npos);
}

TEST_CASE("cli: --replicas with an eruplan request is said to be ignored, not dropped silently") {
  write("three.yaml", kThreeNodes);
  for (const char* command : {"plan", "capacity", "compare"}) {
    Ran r = eruplan(std::string(command) + " -n three.yaml --count 1 --memory 1Mi --replicas 5");
    CHECK(r.exit == 0);
    CHECK(r.err.find("<command line>: warning: --replicas: applies to a Kubernetes workload's "
                     "pods, and the request is none; ignored (use --count") != std::string::npos);
  }
  // Without --replicas, nothing is said.
  CHECK(eruplan("plan -n three.yaml --count 1 --memory 1Mi").err.empty());
}

TEST_CASE("cli: --version and --help on every command") {
  Ran r = eruplan("--version");
  CHECK(r.exit == 0);
  CHECK(r.out.find("eruplan") != std::string::npos);
  for (const char* cmd : {"capacity", "plan", "validate", "test"}) {
    r = eruplan(std::string(cmd) + " --help");
    CHECK(r.exit == 0);
    CHECK(r.out.find("--help") != std::string::npos);
  }
  r = eruplan("plan --help");
  CHECK(r.out.find("--nodes-limit") != std::string::npos);
}

TEST_CASE("cli: the same input gives byte-identical output, in every format") {
  write("three.yaml", kThreeNodes);
  for (const char* fmt : {"table", "json", "yaml"}) {
    const std::string args = std::string(
                                 "plan -n three.yaml --app web --count 7 --memory 10Mi "
                                 "--strategy global -o ") +
                             fmt;
    Ran a = eruplan(args), b = eruplan(args);
    REQUIRE(a.exit == 0);
    CHECK(a.out == b.out);
    CHECK_FALSE(a.out.empty());
  }
}

TEST_CASE("cli: JSON and YAML inputs give the same plan") {
  write("n.json",
        R"({"nodes":[{"name":"a","cpu":4,"memory":"1Gi"},{"name":"b","cpu":4,"memory":"2Gi"}]})");
  write("n.yaml",
        "nodes:\n  - {name: a, cpu: 4, memory: 1Gi}\n  - {name: b, cpu: 4, memory: 2Gi}\n");
  Ran a = eruplan("plan -n n.json --count 5 --memory 256Mi --strategy drained -o json");
  Ran b = eruplan("plan -n n.yaml --count 5 --memory 256Mi --strategy drained -o json");
  REQUIRE(a.exit == 0);
  CHECK(a.out == b.out);
  CHECK(json::parse(a.out)["deploy"] == json{{"a", 4}, {"b", 1}});
}

TEST_CASE("cli: cpu-bind plan assigns the first plans of each node") {
  write("cores.yaml",
        "nodes:\n  - name: n1\n    cpu_map: {\"0\": 0, \"1\": 0, \"2\": 100, \"3\": 100}\n    "
        "memory: 1Gi\n");
  Ran r = eruplan("plan -n cores.yaml --count 2 --cpu 1 --cpu-bind -o json");
  REQUIRE(r.exit == 0);
  json doc = json::parse(r.out);
  CHECK(doc["capacity"]["nodes"]["n1"] == 2);
  CHECK(doc["plans"]["n1"] ==
        json::array({{{"cpu_map", {{"2", 100}}}}, {{"cpu_map", {{"3", 100}}}}}));
  CHECK(doc["assignments"]["n1"] == doc["plans"]["n1"]);

  r = eruplan("capacity -n cores.yaml --cpu 0.295 --cpu-bind");
  CHECK(r.exit == 3);
  CHECK(r.err.find("29.5") != std::string::npos);
}

TEST_CASE("cli: test runs fixture cases and ends with N passed, N failed") {
  Ran r = eruplan(std::string("test ") + ERUPLAN_SOURCE_DIR + "/fixtures/cases");
  CHECK(r.exit == 0);
  CHECK(r.out.find(" passed, 0 failed\n") != std::string::npos);
}

TEST_CASE("cli: global breaks exact ties by name although the ratios round differently") {
  // z: 3 cores, rate 0.5/3; a: 2 cores, rate 0.5/2. The 4th instance ties at
  // usage 0.5 (z after 3, a after 2) and goes to a by name.
  write("tie.yaml",
        "nodes:\n  - {name: z, cpu: 3, memory: 1000}\n  - {name: a, cpu: 2, memory: 1000}\n");
  Ran r = eruplan("plan -n tie.yaml --strategy global --count 4 --cpu 0.5 --cpu-bind -o json");
  REQUIRE(r.exit == 0);
  CHECK(json::parse(r.out)["deploy"] == json{{"a", 2}, {"z", 2}});
}

TEST_CASE("cli: count may be left out of a capacity request, but a given count must be > 0") {
  write("three.yaml", kThreeNodes);
  write("nocount.yaml", "app: web\nresources: {memory: 10Mi}\n");
  CHECK(eruplan("capacity -n three.yaml -r nocount.yaml").exit == 0);
  write("zero.yaml", "app: web\ncount: 0\nresources: {memory: 10Mi}\n");
  for (const char* cmd : {"capacity", "plan", "validate"}) {
    Ran r = eruplan(std::string(cmd) + " -n three.yaml -r zero.yaml");
    CHECK(r.exit == 3);
    CHECK(r.err.find("count: expected a whole number > 0, got 0") != std::string::npos);
  }
}

TEST_CASE("cli: output that cannot be written is an error, not a silent exit 0") {
  write("three.yaml", kThreeNodes);
  const std::string cmd = std::string(ERUPLAN_BINARY) + " capacity -n " +
                          (fs::temp_directory_path() /
                           ("eruplan_cli_test_" + std::to_string(::getpid())) / "three.yaml")
                              .string() +
                          " --memory 1Mi >/dev/full 2>/dev/null";
  const int status = std::system(cmd.c_str());
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 1);
}

TEST_CASE("cli: a finite capacity of 2^63-1 is never mistaken for unlimited") {
  write("huge.yaml", "nodes:\n  - {name: a, cpu: 1, memory: 9223372036854775807}\n");
  Ran r = eruplan("capacity -n huge.yaml --memory 1 -o json");
  REQUIRE(r.exit == 0);
  CHECK(json::parse(r.out)["capacity"]["nodes"]["a"] == 9223372036854775806LL);
  r = eruplan("capacity -n huge.yaml --app web -o json");  // nothing requested: unlimited
  CHECK(json::parse(r.out)["capacity"]["nodes"]["a"] == "unlimited");
}

TEST_CASE("cli: an unknown command is named; validate takes request flags and -o json") {
  Ran r = eruplan("frobnicate");
  CHECK(r.exit == 2);
  CHECK(r.err.find("unknown command 'frobnicate' (commands: ") != std::string::npos);
  // A typo gets the nearest command (it got only the list).
  r = eruplan("plna -n three.yaml");
  CHECK(r.exit == 2);
  CHECK(r.err.find("unknown command 'plna'; did you mean plan? (commands: capacity, plan, ") !=
        std::string::npos);

  write("three.yaml", kThreeNodes);
  r = eruplan("validate -n three.yaml --memory 1Gi --count 2 -o json");
  REQUIRE(r.exit == 0);
  CHECK(json::parse(r.out) == json{{"valid", true},
                                   {"nodes", 3},
                                   {"not_available", 0},
                                   {"cores", 12},
                                   {"memory", 300 * 1024 * 1024}});
  r = eruplan("validate -n three.yaml --count 0");
  CHECK(r.exit == 3);
  CHECK(r.err.find("--count") != std::string::npos);
}

TEST_CASE("cli: test with no case to run fails, so a mistyped path or filter cannot pass") {
  Ran r =
      eruplan(std::string("test ") + ERUPLAN_SOURCE_DIR + "/fixtures/cases --filter no-such-case");
  CHECK(r.exit == 1);
  CHECK(r.out == "0 passed, 0 failed\n");
  CHECK(r.err.find("no fixture cases found") != std::string::npos);
}

TEST_CASE("cli: control bytes in messages are shown escaped") {
  write("bin.yaml", std::string("\x01\x02", 2));
  Ran r = eruplan("validate -n bin.yaml");
  CHECK(r.exit == 3);
  CHECK(r.err.find('\x01') == std::string::npos);
  CHECK(r.err.find("bin.yaml:1:1: error: malformed YAML: control character 0x01 is not allowed") !=
        std::string::npos);
}

TEST_CASE("cli: an infeasible plan on many nodes lists the first 100 and counts the rest") {
  std::string nodes = "nodes:\n";
  for (int i = 0; i < 150; ++i)
    nodes += "  - {name: n" + std::to_string(1000 + i) + ", cpu: 2, memory: 100}\n";
  write("many.yaml", nodes);
  Ran r = eruplan("plan -n many.yaml --count 100000 --memory 1");
  CHECK(r.exit == 4);
  CHECK(r.err.find("  n1099: capacity 100, 0 existing\n") != std::string::npos);
  CHECK(r.err.find("n1100") == std::string::npos);
  CHECK(r.err.find("  ... and 50 more nodes\n") != std::string::npos);
  // Past 100 nodes the ones with capacity 0 come first, with their reasons.
  nodes += "  - {name: n0000, cpu: 2, memory: 100, available: false}\n";
  write("many.yaml", nodes);
  r = eruplan("plan -n many.yaml --count 100000 --memory 1");
  CHECK(r.exit == 4);
  CHECK(r.err.find("):\n  n0000: capacity 0 (not available)\n  n1000: capacity 100") !=
        std::string::npos);
  CHECK(r.err.find("  n1098: capacity 100, 0 existing\n  ... and 51 more nodes\n") !=
        std::string::npos);
}

TEST_CASE("cli: an unknown flag is named even when --nodes is missing too") {
  Ran r = eruplan("plan --bogus");
  CHECK(r.exit == 2);
  CHECK(r.err.find("--bogus") != std::string::npos);
  r = eruplan("capacity --memory 1Mi");
  CHECK(r.exit == 2);
  CHECK(r.err.find("--nodes is required") != std::string::npos);
}

TEST_CASE("cli: share and drain tables line CJK names up by display cells") {
  write("cjk_nodes.yaml",
        "nodes:\n"
        "  - {name: 节点一号, cpu: 4, memory: 8Gi}\n"
        "  - {name: n2, cpu: 4, memory: 8Gi}\n");
  write("cjk_apps.yaml",
        "apps:\n"
        "  - {app: 应用甲, max_count: 2, resources: {cpu: 1, memory: 1Gi}}\n"
        "  - {app: b, max_count: 1, resources: {cpu: 1, memory: 1Gi}}\n");
  Ran s = eruplan("share -n cjk_nodes.yaml -r cjk_apps.yaml");
  REQUIRE(s.exit == 0);
  // Display cells, not bytes: the CJK name is 6 (app) and 8 (node) cells wide.
  CHECK(s.out.find("APP     WEIGHT  EXISTING  PLACED  DOMINANT  SHARE           FROZEN BY\n"
                   "b       1       0         1       cpu       0.125000 (1/8)  max_count\n"
                   "应用甲  1       0         2       cpu       0.250000 (1/4)  max_count\n") !=
        std::string::npos);
  CHECK(s.out.find("NODE      b  应用甲\n"
                   "n2        1  1\n"
                   "节点一号  0  1\n") != std::string::npos);

  write("cjk_run.yaml",
        "nodes:\n"
        "  - {name: 节点一号, cpu: 4, memory: 8Gi, instances: {w: 1}, usage: {memory: 1Gi}}\n"
        "  - {name: n2, cpu: 4, memory: 8Gi}\n");
  Ran d = eruplan("drain -n cjk_run.yaml --app w --memory 1Gi --each-node");
  REQUIRE(d.exit == 0);
  CHECK(d.out.find("NODE      ABSORBABLE  WHY NOT\n"
                   "节点一号  yes\n") != std::string::npos);
}

// A named pipe never opened for writing: opening it to read would wait
// forever. Each run is under timeout(1), so a regression fails (124)
// instead of hanging the tests.
TEST_CASE("cli: a named pipe in a --pods directory is skipped, one given as -n is exit 3") {
  const fs::path dir = eruplan_test::scratch_dir("cli_fifo");
  fs::remove_all(dir / "pods");
  fs::remove(dir / "nodes.fifo");
  fs::create_directories(dir / "pods");
  const std::string k8s = std::string(ERUPLAN_SOURCE_DIR) + "/fixtures/kubernetes/";
  fs::copy_file(k8s + "pods.json", dir / "pods" / "pods.json");
  REQUIRE(::mkfifo((dir / "pods" / "stale.json").c_str(), 0600) == 0);
  REQUIRE(::mkfifo((dir / "nodes.fifo").c_str(), 0600) == 0);
  // `before` runs first in the same shell (a writer in the background).
  auto run = [&](const std::string& args, const std::string& before = "") {
    const std::string cmd = "cd " + dir.string() + " && { " + before + " timeout 20 " +
                            ERUPLAN_BINARY + " " + args + " >out.txt 2>err.txt </dev/null; }";
    const int status = std::system(cmd.c_str());
    return Ran{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "out.txt"),
               slurp(dir / "err.txt")};
  };
  const std::string plan = "plan -n " + k8s + "nodes.json -r " + k8s + "deployment.yaml";
  Ran r = run(plan + " --pods pods");
  CHECK(r.exit == 0);
  CHECK(
      r.err.starts_with("pods/stale.json: warning: not a regular file (a named pipe), skipped\n"));
  // The same plan as without the pipe.
  fs::remove(dir / "pods" / "stale.json");
  const Ran without = run(plan + " --pods pods");
  CHECK(without.exit == 0);
  CHECK(without.out == r.out);
  r = run("plan -n nodes.fifo --app a --count 1 --memory 1");
  CHECK(r.exit == 3);
  CHECK(r.err == "nodes.fifo: error: cannot read: a named pipe that no program writes to\n");
  // With a writer (as for -n <(command)), even one that opens it a little
  // later, it is read to its end.
  r = run("plan -n nodes.fifo --app a --count 1 --memory 1 -o json",
          "(sleep 0.2; echo 'nodes: [{name: n1, memory: 1Gi}]' >nodes.fifo) &");
  REQUIRE(r.exit == 0);
  CHECK(json::parse(r.out)["deploy"] == json{{"n1", 1}});
}
