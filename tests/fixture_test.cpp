// The fixture runner against canned pipeline results (the comparisons and
// the case format), then against the real pipeline and binary.
#include "fixture.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "doc.h"
#include "strategy.h"

using namespace eruplan;

// Readable failures: show the differences, not "{?}".
namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& v) {
    std::string out = "{";
    for (const std::string& s : v) out += (out.size() > 1 ? ", \"" : "\"") + s + "\"";
    return (out + "}").c_str();
  }
};
}  // namespace doctest

namespace {

struct CannedNode {
  CannedNode(std::string n, std::int64_t c, std::int64_t d, std::size_t p = 0, std::string r = "")
      : name(std::move(n)), capacity(c), deploy(d), plans(p), reason(std::move(r)) {}
  std::string name;
  std::int64_t capacity;
  std::int64_t deploy;
  std::size_t plans;
  std::string reason;
};

// A RunResult as the pipeline would produce it; nodes given in name order.
RunResult canned(const std::vector<CannedNode>& nodes, ExitCode exit = ExitCode::Ok,
                 std::string err = "", bool with_deploy = true) {
  RunResult r;
  r.exit = exit;
  r.err = std::move(err);
  Inventory inventory;
  CapacityMap map;
  std::vector<std::int64_t> deploy;
  for (const CannedNode& n : nodes) {
    Node node;
    node.name = n.name;
    inventory.nodes.push_back(node);
    NodeCapacity c;
    c.node = static_cast<std::uint32_t>(inventory.nodes.size() - 1);
    c.capacity = n.capacity;
    if (!n.reason.empty()) {  // "memory: 300Mi ..." as a reason of that dimension
      const auto colon = n.reason.find(": ");
      c.reasons.push_back(colon == std::string::npos ? Reason::words(n.reason, {})
                                                     : Reason::words(n.reason.substr(0, colon),
                                                                     n.reason.substr(colon + 2)));
    }
    c.plans.resize(n.plans);
    map.total =
        (map.total == kUnlimited || n.capacity == kUnlimited) ? kUnlimited : map.total + n.capacity;
    map.nodes.push_back(c);
    deploy.push_back(n.deploy);
  }
  r.inventory = inventory;
  r.capacity = map;
  if (with_deploy) r.deploy = DeployMap(std::move(deploy));
  return r;
}

// Records what the runner asked for and returns a fixed result.
struct FakePipeline {
  explicit FakePipeline(RunResult r) : result(std::move(r)) {}
  RunResult result;
  std::vector<RunOptions> calls;
  RunFunction fn() {
    return [this](const RunOptions& o) {
      calls.push_back(o);
      return result;
    };
  }
};

ReadFile files(std::map<std::string, std::string> contents) {
  return [contents](const std::string& path) -> std::optional<std::string> {
    auto it = contents.find(path);
    if (it == contents.end()) return std::nullopt;
    return it->second;
  };
}

const ReadFile kNoFiles = files({});

const char* kInlineCase = R"(name: three nodes
nodes:
  nodes:
    - {name: node1, cpu: 4, memory: 1Gi, labels: {rack: "4"}}
    - {name: node2, cpu: 4, memory: 1Gi}
request: {app: web, count: 2, resources: {memory: 100Mi}}
expect:
  capacity: {node1: 10, node2: 10}
  total: 20
  deploy: {node1: 1, node2: 1}
)";

}  // namespace

TEST_CASE("a matching case passes and hands inline inputs to the pipeline in place") {
  FakePipeline fake{canned({{"node1", 10, 1}, {"node2", 10, 1}})};
  const FixtureResult r = run_fixture("cases/three.yaml", kInlineCase, kNoFiles, fake.fn());
  CHECK(r.passed);
  CHECK(r.differences.empty());
  CHECK(r.file == "cases/three.yaml");
  CHECK(r.name == "three nodes");

  REQUIRE(fake.calls.size() == 1);
  const RunOptions& o = fake.calls[0];
  CHECK(o.command == Command::Plan);
  CHECK(o.plans == PlansShown::All);
  // An inline input is the case file's own member: the loader reads it from
  // the case text, so its messages carry the case file's lines and columns.
  const std::string case_text = kInlineCase;
  auto line_col = [](const std::string& t, std::string_view what) {
    const std::size_t at = t.find(what);
    const std::size_t line_start = t.rfind('\n', at) + 1;  // npos + 1 == 0 on the first line
    return std::pair<std::uint32_t, std::uint32_t>{
        1 + std::count(t.begin(), t.begin() + static_cast<std::ptrdiff_t>(at), '\n'),
        1 + at - line_start};
  };
  CHECK(o.nodes.name == "cases/three.yaml");
  CHECK(o.nodes.member == "nodes");
  CHECK(o.nodes.text == case_text);
  CHECK(o.nodes.format == InputFormat::Yaml);
  REQUIRE(o.request.has_value());
  CHECK(o.request->name == "cases/three.yaml");
  CHECK(o.request->member == "request");
  CHECK(o.request->format == InputFormat::Yaml);

  // Parsed as the loaders parse it: the root is the member, at its place,
  // and a quoted "4" stays quoted.
  Diagnostics diags;
  const std::optional<Doc> nodes = parse_document(o.nodes, diags);
  REQUIRE(nodes.has_value());
  const ValueId list = nodes->member(nodes->root(), 0);
  CHECK(nodes->text(nodes->key(nodes->root(), 0)) == "nodes");
  const ValueId first = nodes->element(list, 0);
  CHECK(nodes->line_col((*nodes)[first].pos) == line_col(case_text, "{name: node1"));
  CHECK(nodes->text(nodes->member(first, 0)) == "node1");
  const ValueId labels = nodes->member(first, 3);
  CHECK_FALSE((*nodes)[nodes->member(labels, 0)].plain);
  CHECK((*nodes)[nodes->member(nodes->element(list, 1), 1)].plain);
  const std::optional<Doc> request = parse_document(*o.request, diags);
  REQUIRE(request.has_value());
  CHECK(request->line_col((*request)[request->root()].pos) == line_col(case_text, "{app: web"));
  CHECK(request->text(request->member(request->root(), 1)) == "2");
  CHECK(diags.items().empty());
}

TEST_CASE("a case without a name is named after its file; command and plans option are read") {
  FakePipeline fake{canned({{"n1", 3, 0}})};
  const FixtureResult r = run_fixture(
      "dir/cap.yaml",
      "command: capacity\noptions: {plans: none}\nnodes: {nodes: []}\nrequest: {app: web}\n"
      "expect: {capacity: {n1: 3}}\n",
      kNoFiles, fake.fn());
  CHECK(r.passed);
  CHECK(r.name == "cap.yaml");
  REQUIRE(fake.calls.size() == 1);
  CHECK(fake.calls[0].command == Command::Capacity);
  CHECK(fake.calls[0].plans == PlansShown::None);

  run_fixture("v.yaml", "command: validate\noptions: {plans: assigned}\nnodes: {nodes: []}\n",
              kNoFiles, fake.fn());
  REQUIRE(fake.calls.size() == 2);
  CHECK(fake.calls[1].command == Command::Validate);
  CHECK(fake.calls[1].plans == PlansShown::Assigned);
  CHECK_FALSE(fake.calls[1].request.has_value());
}

TEST_CASE("a wrong deploy map fails and names each node that differs") {
  FakePipeline fake{canned({{"node1", 10, 1}, {"node2", 10, 1}, {"node3", 10, 0}})};
  const FixtureResult r = run_fixture(
      "c.yaml", "nodes: {nodes: []}\nexpect: {deploy: {node1: 2, node3: 0, node9: 1}}\n", kNoFiles,
      fake.fn());
  CHECK_FALSE(r.passed);
  CHECK(r.differences == std::vector<std::string>{
                             "deploy.node1: expected 2, got 1",
                             "deploy.node9: expected 1, got 0 (not in the capacity map)",
                             "deploy.node2: expected 0, got 1 (not listed)",
                         });
}

TEST_CASE("an empty expected deploy map means nothing may be deployed") {
  FakePipeline fake{canned({{"node1", 10, 0}, {"node2", 10, 3}})};
  const FixtureResult r =
      run_fixture("c.yaml", "nodes: {nodes: []}\nexpect: {deploy: {}}\n", kNoFiles, fake.fn());
  CHECK(r.differences == std::vector<std::string>{"deploy.node2: expected 0, got 3 (not listed)"});
}

TEST_CASE("capacity, total and plan counts are compared exactly") {
  FakePipeline fake{
      canned({{"node1", 12, 0, 12}, {"node2", kUnlimited, 0, 1}, {"node3", 0, 0, 0}})};
  const FixtureResult r = run_fixture("c.yaml", R"(nodes: {nodes: []}
expect:
  capacity: {node1: 10, node2: unlimited, node3: 0, nodeX: 1}
  total: 11
  plans: {node1: 10, node2: 1, nodeY: 2}
)",
                                      kNoFiles, fake.fn());
  CHECK_FALSE(r.passed);
  CHECK(r.differences == std::vector<std::string>{
                             "capacity.node1: expected 10, got 12",
                             "capacity.nodeX: not in the capacity map",
                             "total: expected 11, got unlimited",
                             "plans.node1: expected 10 plans, got 12",
                             "plans.nodeY: not in the capacity map",
                         });
}

TEST_CASE("capacity 'absent' checks that the node filter left a node out") {
  FakePipeline fake{canned({{"node1", 10, 0}})};
  CHECK(run_fixture("c.yaml", "nodes: {nodes: []}\nexpect: {capacity: {node2: absent}}\n", kNoFiles,
                    fake.fn())
            .passed);
  const FixtureResult r = run_fixture(
      "c.yaml", "nodes: {nodes: []}\nexpect: {capacity: {node1: absent}}\n", kNoFiles, fake.fn());
  CHECK(r.differences == std::vector<std::string>{"capacity.node1: expected absent, got 10"});
}

TEST_CASE("reasons are substrings of the node's zero-capacity reason") {
  FakePipeline fake{canned({{"node1", 0, 0, 0, "not available"}, {"node2", 5, 0}})};
  CHECK(run_fixture("c.yaml", "nodes: {nodes: []}\nexpect: {reasons: {node1: available}}\n",
                    kNoFiles, fake.fn())
            .passed);
  const FixtureResult r = run_fixture(
      "c.yaml", "nodes: {nodes: []}\nexpect: {reasons: {node1: memory, node2: memory}}\n", kNoFiles,
      fake.fn());
  CHECK(r.differences == std::vector<std::string>{
                             R"(reasons.node1: expected to contain "memory", got: "not available")",
                             R"(reasons.node2: expected to contain "memory", got: (no reason))",
                         });
}

TEST_CASE("a wrong exit code fails, quoting the first line of stderr") {
  FakePipeline fake{canned({{"node1", 2, 0}}, ExitCode::Infeasible,
                           "infeasible: total capacity 2 < count 5\n  node1: capacity 2\n", false)};
  const FixtureResult r = run_fixture("c.yaml", "nodes: {nodes: []}\n", kNoFiles, fake.fn());
  CHECK_FALSE(r.passed);
  CHECK(r.differences ==
        std::vector<std::string>{
            "exit: expected 0, got 4 (stderr: infeasible: total capacity 2 < count 5)"});
}

TEST_CASE("after a failed run, capacity is still compared and a missing deploy counts as 0") {
  FakePipeline fake{canned({{"node1", 2, 0}, {"node2", 1, 0}}, ExitCode::Infeasible,
                           "infeasible: not enough room\n", false)};
  CHECK(run_fixture("c.yaml",
                    "nodes: {nodes: []}\nexpect: {exit: 4, capacity: {node1: 2}, total: 3, "
                    "deploy: {node1: 0}, error_contains: room}\n",
                    kNoFiles, fake.fn())
            .passed);
  const FixtureResult r = run_fixture(
      "c.yaml", "nodes: {nodes: []}\nexpect: {exit: 4, capacity: {node1: 3}, deploy: {node1: 2}}\n",
      kNoFiles, fake.fn());
  CHECK(r.differences == std::vector<std::string>{
                             "capacity.node1: expected 3, got 2",
                             "deploy.node1: expected 2, got 0 (no deploy map was produced)",
                         });
}

TEST_CASE("without a capacity map (invalid input) capacity expectations say so") {
  RunResult invalid;
  invalid.exit = ExitCode::Invalid;
  invalid.err = "c.yaml#nodes:3:13: error: nodes[0].memory: negative size -5\n";
  FakePipeline fake{invalid};
  const FixtureResult r = run_fixture(
      "c.yaml",
      "nodes: {nodes: []}\nexpect: {exit: 3, capacity: {n: 1}, total: 1, plans: {n: 1}}\n",
      kNoFiles, fake.fn());
  CHECK(r.differences == std::vector<std::string>{
                             "capacity: no capacity map was produced",
                             "total: expected 1, no capacity map was produced",
                             "plans: no capacity map was produced",
                         });
}

TEST_CASE("error_contains: one substring or several, each reported when missing") {
  RunResult invalid;
  invalid.exit = ExitCode::Invalid;
  invalid.err = "x: error: nodes[1].memory: negative size -5\nx: error: nodes[2].name: duplicate\n";
  FakePipeline fake{invalid};
  CHECK(run_fixture("c.yaml",
                    "nodes: {nodes: []}\nexpect: {exit: 3, error_contains: [\"nodes[1].memory\", "
                    "\"nodes[2].name\"]}\n",
                    kNoFiles, fake.fn())
            .passed);
  const FixtureResult r =
      run_fixture("c.yaml", "nodes: {nodes: []}\nexpect: {exit: 3, error_contains: memory limit}\n",
                  kNoFiles, fake.fn());
  CHECK(
      r.differences ==
      std::vector<std::string>{
          R"(stderr: expected to contain "memory limit", got: x: error: nodes[1].memory: negative size -5)"});

  FakePipeline quiet{canned({})};
  const FixtureResult q = run_fixture(
      "c.yaml", "nodes: {nodes: []}\nexpect: {error_contains: memory}\n", kNoFiles, quiet.fn());
  CHECK(q.differences ==
        std::vector<std::string>{R"(stderr: expected to contain "memory", got: (empty))"});
}

TEST_CASE("malformed cases fail with a message and never reach the pipeline") {
  FakePipeline fake{canned({})};
  auto message = [&](const std::string& text) {
    const FixtureResult r = run_fixture("bad.yaml", text, kNoFiles, fake.fn());
    CHECK_FALSE(r.passed);
    REQUIRE(r.differences.size() == 1);
    return r.differences[0];
  };
  // Every problem as the inputs' are reported: file:line:col, field path.
  CHECK(message("nodes: [unclosed\n") ==
        "malformed case: bad.yaml:2:1: error: malformed YAML: end of sequence flow not found");
  CHECK(message("") ==
        "malformed case: bad.yaml:1:1: error: a case must be a mapping, got an empty document");
  CHECK(message("- a\n- b\n") ==
        "malformed case: bad.yaml:1:1: error: a case must be a mapping, got a list");
  CHECK(message("name: x\n") ==
        "malformed case: bad.yaml:1:1: error: nodes: missing (an inline inventory or a path)");
  CHECK(message("nodes: {}\ncommand: deploy\n") ==
        "malformed case: bad.yaml:2:10: error: command: expected plan, capacity, validate, share, "
        "realloc, compare, grow or drain, got deploy");
  CHECK(
      message("nodes: {}\nexpect: {exit: zero}\n") ==
      "malformed case: bad.yaml:2:16: error: expect.exit: expected a whole number >= 0, got zero");
  // Quoted "3" is a string, not a count.
  CHECK(
      message("nodes: {}\nexpect: {exit: \"3\"}\n") ==
      R"(malformed case: bad.yaml:2:16: error: expect.exit: expected a whole number >= 0, got "3")");
  CHECK(message("nodes: {}\nexpect: {deploy: [1, 2]}\n") ==
        "malformed case: bad.yaml:2:18: error: expect.deploy: expected a mapping (key: value "
        "pairs), got a list");
  CHECK(message("nodes: {}\nexpect: {deploy: {n1: -1}}\n") ==
        "malformed case: bad.yaml:2:23: error: expect.deploy.n1: expected a whole number >= 0, "
        "got -1");
  CHECK(
      message("nodes: {}\nexpect: {capacity: {n1: lots}}\n") ==
      R"(malformed case: bad.yaml:2:25: error: expect.capacity.n1: expected a whole number >= 0, "unlimited" or "absent", got lots)");
  CHECK(
      message("nodes: {}\nexpect: {total: absent}\n") ==
      R"(malformed case: bad.yaml:2:17: error: expect.total: expected a whole number >= 0 or "unlimited", got absent)");
  CHECK(message("nodes: {}\nexpect: {total: 1.5}\n") ==
        "malformed case: bad.yaml:2:17: error: expect.total: expected a whole number, got 1.5");
  CHECK(message("nodes: {}\nexpect: {error_contains: {a: b}}\n") ==
        "malformed case: bad.yaml:2:26: error: expect.error_contains: expected a string or "
        "number, got a mapping");
  // Unknown keys: the inputs' "did you mean", an error in a case.
  CHECK(message("nodes: {}\nexpect: {deploi: {}}\n") ==
        "malformed case: bad.yaml:2:10: error: expect.deploi: unknown field; did you mean deploy?");
  CHECK(message("nodes: {}\nexpected: {}\n") ==
        "malformed case: bad.yaml:2:1: error: expected: unknown field; did you mean expect?");
  CHECK(message("nodes: {}\ninventry: {}\n") ==
        "malformed case: bad.yaml:2:1: error: inventry: unknown field (known fields: name "
        "description command nodes request pods pdbs priority_classes namespaces template "
        "daemonsets options "
        "expect)");
  CHECK(message("nodes: {}\noptions: {plans: some}\n") ==
        "malformed case: bad.yaml:2:18: error: options.plans: expected all, assigned or none, "
        "got some");
  CHECK(message("nodes: {}\n" + std::string(100, 'z') + ": 1\n") ==
        "malformed case: bad.yaml:2:1: error: " + std::string(64, 'z') +
            "...(100 bytes): unknown field (known fields: name description command nodes "
            "request pods pdbs priority_classes namespaces template daemonsets options expect)");
  CHECK(message("nodes: {}\nnodes: {}\n") ==
        "malformed case: bad.yaml:2:1: error: nodes: given twice (first at line 1:8)");
  CHECK(message("nodes: {}\nexpect: {deploy: {n1: 1, n1: 2}}\n") ==
        "malformed case: bad.yaml:2:26: error: expect.deploy.n1: given twice (first at line "
        "2:19)");
  CHECK(message("nodes: 42\n") == R"(nodes: cannot read "42")");
  CHECK(message("nodes: {}\nrequest: [[[[[[]]]]]]\nname: [x]\n") ==
        "malformed case: bad.yaml:3:7: error: name: expected a string or number, got a list");
  CHECK(message("nodes: {}\nrequest: true\n") == R"(request: cannot read "true")");
  CHECK(message("nodes: {}\noptions: {atomic: yes}\n") ==
        "malformed case: bad.yaml:2:19: error: options.atomic: expected true or false, got yes");
  CHECK(message("command: realloc\nnodes: {}\n") ==
        "malformed case: bad.yaml:1:1: error: request: missing (an inline realloc request or a "
        "path)");
  CHECK(message("command: compare\nnodes: {}\noptions: {strategies: [auto, fil]}\n") ==
        "malformed case: bad.yaml:3:30: error: options.strategies[1]: unknown strategy \"fil\"; "
        "expected " +
            strategy_choices());
  CHECK(message("command: drain\nnodes: {}\nexpect: {absorbable: {n1: maybe}}\n") ==
        "malformed case: bad.yaml:3:27: error: expect.absorbable.n1: expected true or false, got "
        "maybe");
  CHECK(fake.calls.empty());
}

TEST_CASE("a malformed case reports every problem, in the order of the file") {
  FakePipeline fake{canned({})};
  const FixtureResult r = run_fixture("bad.yaml",
                                      "name: several\n"
                                      "inventory: nodes.yaml\n"
                                      "expect:\n"
                                      "  exit: \"0\"\n"
                                      "  deploi: {n1: 1}\n"
                                      "  status: placd\n",
                                      kNoFiles, fake.fn());
  CHECK(r.name == "several");
  CHECK(
      r.differences ==
      std::vector<std::string>{
          "malformed case: bad.yaml:1:1: error: nodes: missing (an inline inventory or a path)",
          "malformed case: bad.yaml:2:1: error: inventory: unknown field (known fields: name "
          "description command nodes request pods pdbs priority_classes namespaces template "
          "daemonsets "
          "options expect)",
          R"(malformed case: bad.yaml:4:9: error: expect.exit: expected a whole number >= 0, got "0")",
          "malformed case: bad.yaml:5:3: error: expect.deploi: unknown field; did you mean "
          "deploy?",
          "malformed case: bad.yaml:6:11: error: expect.status: expected placed, partial, "
          "rejected or satisfied, got placd"});
  CHECK(fake.calls.empty());

  // A command's own expectations and the common ones are known together.
  const FixtureResult realloc = run_fixture(
      "bad.yaml", "command: realloc\nnodes: {}\nrequest: {}\nexpect: {stats: {w: ok}}\n", kNoFiles,
      fake.fn());
  CHECK(realloc.differences ==
        std::vector<std::string>{"malformed case: bad.yaml:4:10: error: expect.stats: unknown "
                                 "field; did you mean status?"});
  CHECK(run_fixture("bad.yaml",
                    "command: realloc\nnodes: {}\nrequest: {}\nexpect: {status: {w: placed}}\n",
                    kNoFiles, fake.fn())
            .differences ==
        std::vector<std::string>{"malformed case: bad.yaml:4:22: error: expect.status.w: expected "
                                 "ok, failed or not_applied, got placed"});
  // Null is not given (SPEC §12): an empty expect: expects nothing but exit 0.
  CHECK(run_fixture("c.yaml", "nodes: {nodes: []}\nexpect:\noptions: ~\n", kNoFiles, fake.fn())
            .passed);
}

TEST_CASE("an exception from the pipeline is a failed case, not a crash") {
  const RunFunction boom = [](const RunOptions&) -> RunResult { throw std::runtime_error("boom"); };
  const FixtureResult r = run_fixture("c.yaml", "nodes: {nodes: []}\n", kNoFiles, boom);
  CHECK_FALSE(r.passed);
  CHECK(r.differences == std::vector<std::string>{"internal error: boom"});
}

TEST_CASE("path inputs are read relative to the case file") {
  FakePipeline fake{canned({{"node1", 1, 1}})};
  const ReadFile read = files({{"fixtures/cases/inputs/nodes.yaml", "nodes: [{name: node1}]\n"},
                               {"fixtures/cases/req.json", R"({"app": "web"})"}});
  const FixtureResult r = run_fixture(
      "fixtures/cases/a.yaml",
      "nodes: inputs/../inputs/nodes.yaml\nrequest: req.json\nexpect: {deploy: {node1: 1}}\n", read,
      fake.fn());
  CHECK(r.passed);
  REQUIRE(fake.calls.size() == 1);
  CHECK(fake.calls[0].nodes.name == "fixtures/cases/inputs/nodes.yaml");
  CHECK(fake.calls[0].nodes.text == "nodes: [{name: node1}]\n");
  CHECK(fake.calls[0].nodes.format == InputFormat::Auto);
  CHECK(fake.calls[0].request->name == "fixtures/cases/req.json");
  CHECK(fake.calls[0].request->text == R"({"app": "web"})");

  // A case in the current directory reads its inputs by their plain names.
  run_fixture("a.yaml", "nodes: nodes.yaml\n", files({{"nodes.yaml", "nodes: []\n"}}), fake.fn());
  REQUIRE(fake.calls.size() == 2);
  CHECK(fake.calls[1].nodes.name == "nodes.yaml");
}

TEST_CASE("input paths outside the case file's directory are refused, never read") {
  FakePipeline fake{canned({})};
  std::vector<std::string> asked;
  const ReadFile read = [&](const std::string& path) -> std::optional<std::string> {
    asked.push_back(path);
    return "secret: 1\n";
  };
  const FixtureResult r = run_fixture(
      "fixtures/cases/a.yaml",
      "nodes: ../inputs/nodes.yaml\nrequest: /etc/shadow\nexpect: {error_contains: secret}\n", read,
      fake.fn());
  CHECK_FALSE(r.passed);
  CHECK(
      r.differences ==
      std::vector<std::string>{
          R"(nodes: "../inputs/nodes.yaml" is outside the case file's directory; inputs must be in it or below it (symbolic links included))",
          R"(request: "/etc/shadow" is outside the case file's directory; inputs must be in it or below it (symbolic links included))"});
  CHECK(asked.empty());
  CHECK(fake.calls.empty());
}

TEST_CASE("an unreadable input path fails the case naming the path") {
  FakePipeline fake{canned({})};
  const FixtureResult r =
      run_fixture("fixtures/cases/a.yaml",
                  "nodes: inputs/missing.yaml\nrequest: inputs/gone.yaml\n", kNoFiles, fake.fn());
  CHECK_FALSE(r.passed);
  CHECK(r.differences == std::vector<std::string>{
                             R"(nodes: cannot read "fixtures/cases/inputs/missing.yaml")",
                             R"(request: cannot read "fixtures/cases/inputs/gone.yaml")",
                         });
  CHECK(fake.calls.empty());
}

TEST_CASE("a JSON case's inline inputs are its members, read in place, strings staying strings") {
  FakePipeline fake{canned({{"node1", 10, 0}})};
  const FixtureResult r = run_fixture("c.json", R"({
  "name": "json case",
  "command": "capacity",
  "nodes": {"nodes": [{"name": "node1", "cpu": 4, "memory": "1Gi", "available": true,
                       "labels": {"rack": "4", "note": "a \"quoted\" word"}, "x": null, "y": -1.5e3}]},
  "request": {"app": "web", "resources": {"memory": "100Mi"}},
  "expect": {"capacity": {"node1": 10}}
})",
                                      kNoFiles, fake.fn());
  CHECK(r.passed);
  CHECK(r.name == "json case");
  REQUIRE(fake.calls.size() == 1);
  const Source& nodes = fake.calls[0].nodes;
  CHECK(nodes.name == "c.json");
  CHECK(nodes.member == "nodes");
  Diagnostics diags;
  const std::optional<Doc> doc = parse_document(nodes, diags);
  REQUIRE(doc.has_value());
  const ValueId node = doc->element(doc->member(doc->root(), 0), 0);
  auto field = [&](std::uint32_t i) { return (*doc)[doc->member(node, i)]; };
  auto text = [&](std::uint32_t i) { return doc->text(doc->member(node, i)); };
  CHECK((text(1) == "4" && field(1).plain));  // cpu: 4, a number
  CHECK((text(2) == "1Gi" && !field(2).plain));
  CHECK((text(3) == "true" && field(3).plain));
  const ValueId labels = doc->member(node, 4);
  CHECK((doc->text(doc->member(labels, 0)) == "4" && !(*doc)[doc->member(labels, 0)].plain));
  CHECK(doc->text(doc->member(labels, 1)) == "a \"quoted\" word");
  CHECK(field(5).kind == ValueKind::Null);
  CHECK((text(6) == "-1.5e3" && field(6).plain));
  CHECK(fake.calls[0].request->member == "request");
  const std::optional<Doc> request = parse_document(*fake.calls[0].request, diags);
  REQUIRE(request.has_value());
  CHECK(request->text(request->member(request->root(), 0)) == "web");
  CHECK(request->line_col((*request)[request->root()].pos) ==
        std::pair<std::uint32_t, std::uint32_t>{6, 14});
}

TEST_CASE("text report: one FAIL line per failing case, then the counts") {
  std::vector<FixtureResult> results(3);
  results[0] = {"a.yaml", "first", true, {}};
  results[1] = {
      "b.yaml", "second", false, {"exit: expected 0, got 4", "deploy.n1: expected 2, got 1"}};
  results[2] = {"c.yaml", "third", false, {"malformed case: a\nb"}};
  CHECK(render_fixture_report(results, FixtureReportFormat::Text) ==
        "FAIL b.yaml: second: exit: expected 0, got 4; deploy.n1: expected 2, got 1\n"
        "FAIL c.yaml: third: malformed case: a b\n"
        "1 passed, 2 failed\n");
  CHECK(render_fixture_report({}, FixtureReportFormat::Text) == "0 passed, 0 failed\n");
  CHECK(render_fixture_report({results[0]}, FixtureReportFormat::Text) == "1 passed, 0 failed\n");
}

TEST_CASE("JSON report: counts and every case with its differences") {
  std::vector<FixtureResult> results(2);
  results[0] = {"a.yaml", "first", true, {}};
  results[1] = {"b.yaml", "second", false, {"total: expected 12, got 11"}};
  const nlohmann::json doc =
      nlohmann::json::parse(render_fixture_report(results, FixtureReportFormat::Json));
  CHECK(doc["passed"] == 1);
  CHECK(doc["failed"] == 1);
  REQUIRE(doc["cases"].size() == 2);
  CHECK(doc["cases"][0]["file"] == "a.yaml");
  CHECK(doc["cases"][0]["name"] == "first");
  CHECK(doc["cases"][0]["passed"] == true);
  CHECK(doc["cases"][0]["differences"] == nlohmann::json::array());
  CHECK(doc["cases"][1]["passed"] == false);
  CHECK(doc["cases"][1]["differences"] == nlohmann::json::array({"total: expected 12, got 11"}));
}

TEST_CASE("looks_like_input_file tells inventories and requests from cases") {
  CHECK(looks_like_input_file("nodes:\n  - {name: n1, memory: 1Gi}\n"));
  CHECK(looks_like_input_file("share_base: 100\nnodes: []\n"));
  CHECK(looks_like_input_file("app: web\ncount: 3\n"));
  CHECK(looks_like_input_file("resources: {memory: 1Gi}\n"));
  CHECK(looks_like_input_file("strategy: fill\n"));
  CHECK(looks_like_input_file(R"({"app": "web", "count": 2})"));
  // Cases: an expect or command key, or nodes given as a mapping or path.
  CHECK_FALSE(looks_like_input_file("nodes: []\nexpect: {exit: 0}\n"));
  CHECK_FALSE(looks_like_input_file("command: capacity\nnodes: []\n"));
  CHECK_FALSE(looks_like_input_file("name: x\nnodes: {nodes: []}\nrequest: {app: web}\n"));
  CHECK_FALSE(looks_like_input_file("name: x\nnodes: inputs/n.yaml\n"));
  // Not inputs either, so they run and report what is wrong with them.
  CHECK_FALSE(looks_like_input_file("nodes: [unclosed\n"));
  CHECK_FALSE(looks_like_input_file(""));
  CHECK_FALSE(looks_like_input_file("- app\n"));
}

// With the real pipeline and the repository's files; the CMake build defines
// these.
#ifdef ERUPLAN_SOURCE_DIR
namespace {

std::optional<std::string> read_disk(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

FixtureResult run_file(const std::string& relative) {
  const std::string path = std::string(ERUPLAN_SOURCE_DIR) + "/" + relative;
  const auto text = read_disk(path);
  REQUIRE(text.has_value());
  return run_fixture(path, *text, read_disk);
}

}  // namespace

TEST_CASE("the deliberately failing cases fail with the expected differences") {
  const std::string dir = "tests/data/fixtures_failing/";
  CHECK(run_file(dir + "passing.yaml").passed);

  const FixtureResult deploy = run_file(dir + "wrong_deploy.yaml");
  CHECK(deploy.differences ==
        std::vector<std::string>{"deploy.node1: expected 2, got 1",
                                 "deploy.node2: expected 0, got 1 (not listed)"});
  const FixtureResult exit = run_file(dir + "wrong_exit.yaml");
  REQUIRE(exit.differences.size() == 2);
  CHECK(exit.differences[0].rfind("exit: expected 0, got 4 (stderr: infeasible: ", 0) == 0);
  CHECK(exit.differences[1] == "deploy.node1: expected 1, got 0 (no deploy map was produced)");

  const FixtureResult capacity = run_file(dir + "wrong_capacity.yaml");
  CHECK(capacity.differences == std::vector<std::string>{"capacity.node1: expected 12, got 10",
                                                         "total: expected 12, got 10"});
  const FixtureResult error = run_file(dir + "wrong_error.yaml");
  REQUIRE(error.differences.size() == 1);
  CHECK(error.differences[0].rfind(R"(stderr: expected to contain "nodes[0].storage", got: )", 0) ==
        0);

  const FixtureResult missing = run_file(dir + "missing_input.yaml");
  REQUIRE(missing.differences.size() == 1);
  CHECK(missing.differences[0].find("nodes: cannot read \"") == 0);
  CHECK(missing.differences[0].find("fixtures_failing/inputs/no-such-file.yaml\"") !=
        std::string::npos);

  const FixtureResult malformed = run_file(dir + "malformed.yaml");
  REQUIRE(malformed.differences.size() == 1);
  CHECK(malformed.differences[0] ==
        "malformed case: " + std::string(ERUPLAN_SOURCE_DIR) + "/" + dir +
            "malformed.yaml:4:7: error: malformed YAML: end of map flow not found");
}

TEST_CASE("the real pipeline gives the same outcome from inline and from path inputs") {
  const std::string inventory =
      "nodes:\n  - {name: node1, cpu: 4, memory: 300Mi}\n"
      "  - {name: node2, cpu: 4, memory: 1000Mi, instances: {web: 3}}\n";
  const std::string request = "{app: web, count: 3, resources: {memory: 100Mi}}";
  const std::string expect =
      "expect: {capacity: {node1: 3, node2: 10}, total: 13, "
      "deploy: {node1: 3}}\n";
  const ReadFile read = files({{"cases/inputs/nodes.yaml", inventory}});
  std::string indented;
  for (std::size_t at = 0; at < inventory.size();) {
    const std::size_t end = inventory.find('\n', at);
    indented += "  " + inventory.substr(at, end - at + 1);
    at = end + 1;
  }
  const FixtureResult by_path = run_fixture(
      "cases/a.yaml", "nodes: inputs/nodes.yaml\nrequest: " + request + "\n" + expect, read);
  const FixtureResult inline_inputs = run_fixture(
      "cases/b.yaml", "nodes:\n" + indented + "request: " + request + "\n" + expect, read);
  CHECK(by_path.differences == std::vector<std::string>{});
  CHECK(inline_inputs.differences == std::vector<std::string>{});
  CHECK(run_fixture("cases/c.yaml",
                    "nodes:\n" + indented + "request: " + request +
                        "\nexpect: {deploy: {node1: 2, node2: 1}}\n",
                    read)
            .differences == std::vector<std::string>{"deploy.node1: expected 2, got 3",
                                                     "deploy.node2: expected 1, got 0"});
}

#ifdef ERUPLAN_BINARY
namespace {

struct Output {
  int status = -1;
  std::string out;
};

Output run_binary(const std::string& args) {
  const std::string command = std::string("'") + ERUPLAN_BINARY + "' " + args + " 2>/dev/null";
  Output result;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, n);
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string last_line(const std::string& text) {
  const std::string trimmed = text.substr(0, text.find_last_not_of('\n') + 1);
  return trimmed.substr(trimmed.find_last_of('\n') + 1);
}

}  // namespace

TEST_CASE("eruplan test passes every repository fixture") {
  const Output r = run_binary("test '" + std::string(ERUPLAN_SOURCE_DIR) + "/fixtures/cases'");
  INFO(r.out);
  CHECK(r.status == 0);
  CHECK(r.out.find("FAIL") == std::string::npos);
  const std::string last = last_line(r.out);
  CHECK(last.size() > std::string(" passed, 0 failed").size());
  CHECK(last.find(" passed, 0 failed") == last.size() - std::string(" passed, 0 failed").size());
}

TEST_CASE("eruplan test reports the deliberately failing cases and exits 1") {
  const Output r =
      run_binary("test '" + std::string(ERUPLAN_SOURCE_DIR) + "/tests/data/fixtures_failing'");
  INFO(r.out);
  CHECK(r.status == 1);
  CHECK(last_line(r.out) == "1 passed, 6 failed");
  CHECK(r.out.find("wrong_deploy.yaml: wrong deploy map: deploy.node1: expected 2, got 1; "
                   "deploy.node2: expected 0, got 1 (not listed)\n") != std::string::npos);
  std::size_t fails = 0;
  for (std::size_t at = r.out.find("FAIL "); at != std::string::npos;
       at = r.out.find("\nFAIL ", at + 1))
    ++fails;
  CHECK(fails == 6);
}

TEST_CASE("eruplan test: the cases share the kubernetes bound, a symlinked case runs once") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("eruplan_shared_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string nodes = "nodes:\n";
  for (int n = 0; n < 1000; ++n) nodes += "- {name: " + std::to_string(n) + ", cpu: 99}\n";
  std::ofstream(dir / "nodes.yaml") << nodes;
  // 200,000 replicas x (1000 nodes + 100), and 1000 of setup: 220,001,000 steps each: the
  // first case runs, the second would pass 400,000,000 with it.
  for (const char* name : {"a", "b"})
    std::ofstream(dir / (std::string(name) + ".yaml"))
        << "name: " << name
        << "\nnodes: nodes.yaml\nrequest: {app: a, count: 200000, strategy: score, scoring: "
           "{profile: kubernetes}, resources: {memory: 0, cpu: 1m}}\nexpect: {exit: 0}\n";
  fs::create_symlink("a.yaml", dir / "link.yaml");
  const Output r = run_binary("test '" + dir.string() + "'");
  INFO(r.out);
  CHECK(r.status == 1);
  CHECK(last_line(r.out) == "1 passed, 1 failed");
  CHECK(r.out.find("link.yaml") == std::string::npos);
  CHECK(r.out.find("is 220001000 steps (and 220001000 for the cases run before it), more than "
                   "400000000; ask for fewer replicas, or run fewer cases at once") !=
        std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("eruplan test: cases naming one large input read it a bounded number of times") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("eruplan_reads_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // n.yaml is 65,536 bytes, each of the 100 cases 76: the run reads every file
  // once to find the cases (73,136 bytes, all distinct), then each case again
  // and the inventory it names. The bound is 32 x 73,136 + 1 MiB = 3,388,928
  // bytes: case k (from 1) starts at 73,136 + 76 k + 65,536 (k - 1) bytes
  // read, within it up to k = 51; case 52 (c151) starts at 3,419,424.
  std::string nodes = "nodes: [{name: a, memory: 1Gi}]\n#";
  nodes += std::string(65536 - nodes.size() - 1, 'x') + "\n";
  REQUIRE(nodes.size() == 65536);
  std::ofstream(dir / "n.yaml") << nodes;
  const std::string text =
      "nodes: n.yaml\nrequest: {count: 1, resources: {memory: 1}}\nexpect: {exit: 0}\n";
  REQUIRE(text.size() == 76);
  for (int i = 0; i < 100; ++i)
    std::ofstream(dir / ("c" + std::to_string(100 + i) + ".yaml")) << text;
  const Output r = run_binary("test '" + dir.string() + "'");
  CHECK(r.status == 1);
  CHECK(last_line(r.out) == "51 passed, 49 failed");
  CHECK(r.out.find("c151.yaml: too large: the run has read 3419424 bytes of case files and "
                   "inputs (an input named by several cases counts each time), more than 32 times "
                   "the 73136 bytes of distinct files plus 1 MiB; run fewer cases at once") !=
        std::string::npos);
  fs::remove_all(dir);
}
#endif
#endif

TEST_CASE("an inline input with nested aliases reaches the loader unexpanded") {
  FakePipeline fake{canned({})};
  // Ten levels of ten aliases: 10^10 values if copied. The inline input is
  // the case's own member, never copied; the loader's read budget and
  // unknown-field check see it as written.
  std::string text = "nodes:\n  l0: &a0 [1,1,1,1,1,1,1,1,1,1]\n";
  for (int i = 1; i < 10; ++i) {
    const std::string prev = "*a" + std::to_string(i - 1);
    text += "  l" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) text += (k ? "," : "") + prev;
    text += "]\n";
  }
  text += "  nodes: []\n";
  for (const char* name : {"bomb.yaml", "bomb.json"}) {
    CAPTURE(name);
    fake.calls.clear();
    const FixtureResult r = run_fixture(name, text, kNoFiles, fake.fn());
    CHECK(r.differences == std::vector<std::string>{});
    REQUIRE(fake.calls.size() == 1);
    CHECK(fake.calls[0].nodes.text == text);
    CHECK(fake.calls[0].nodes.member == "nodes");
  }
  const FixtureResult real =
      run_fixture("bomb.yaml", text + "request: {count: 1, resources: {memory: 1}}\n", kNoFiles);
  CHECK(
      real.differences ==
      std::vector<std::string>{"exit: expected 0, got 3 (stderr: bomb.yaml:2:3: error: l0: unknown "
                               "field (known fields: share_base max_fragment_cores nodes))"});
}

TEST_CASE("fixture inputs may be anywhere inside the directory given to eruplan test") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("eruplan_tree_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "tree" / "sub");
  std::ofstream(dir / "tree" / "nodes.yaml") << "nodes:\n  - {name: n1, memory: 4Gi}\n";
  std::ofstream(dir / "outside.yaml") << "nodes:\n  - {name: n1, memory: 4Gi}\n";
  std::ofstream(dir / "tree" / "sub" / "shared.yaml")
      << "name: shared\nnodes: ../nodes.yaml\nrequest: {app: a, count: 2, resources: {memory: "
         "1Gi}}\nexpect: {deploy_total: 2}\n";
  std::ofstream(dir / "tree" / "sub" / "escape.yaml")
      << "name: escape\nnodes: ../../outside.yaml\nrequest: {app: a, count: 1, resources: "
         "{memory: 1Gi}}\n";
  const ReadFile read = [](const std::string& p) -> std::optional<std::string> {
    std::ifstream in(p);
    if (!in) return std::nullopt;
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  const std::string tree = (dir / "tree").string();
  const std::vector<CaseFile> cases = collect_cases({tree}, read);
  REQUIRE(cases.size() == 2);  // nodes.yaml is an input, not a case
  for (const CaseFile& c : cases) {
    CAPTURE(c.file);
    CHECK(c.root == tree);
    const FixtureResult r = run_fixture_under(c.root, c.file, *read(c.file), read);
    if (r.name == "shared") {
      CHECK(r.passed);  // ../nodes.yaml is inside the tree
    } else {
      REQUIRE(r.differences.size() == 1);
      CHECK(r.differences[0] == "nodes: \"../../outside.yaml\" is outside \"" + tree +
                                    "\", the directory given to eruplan test; inputs must be in "
                                    "it or below it (symbolic links included)");
    }
  }
  // A case file named alone: its own directory is the root, so ../ is refused.
  const std::string shared = (dir / "tree" / "sub" / "shared.yaml").string();
  const std::vector<CaseFile> alone = collect_cases({shared}, read);
  REQUIRE(alone.size() == 1);
  CHECK(alone[0].root.empty());
  const FixtureResult r = run_fixture_under(alone[0].root, shared, *read(shared), read);
  CHECK_FALSE(r.passed);
  REQUIRE(r.differences.size() == 1);
  CHECK(r.differences[0].find("is outside the case file's directory") != std::string::npos);
  fs::remove_all(dir);
}
