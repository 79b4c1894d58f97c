// `eruplan diff` (diff.h): inventories compared as values after defaults.
#include "diff.h"

#include <doctest/doctest.h>

#include <fstream>

#include "binary.h"
#include "load.h"

using namespace eruplan;

namespace {

Inventory load(const std::string& yaml) {
  Diagnostics diags;
  diags.set_strict(true);
  std::optional<Inventory> inv = load_inventory(Source{"i.yaml", yaml}, diags);
  REQUIRE(inv.has_value());
  REQUIRE_FALSE(diags.has_errors());
  return *inv;
}

const char* kOld =
    "nodes:\n"
    "  - {name: n1, cpu: 4, memory: 8Gi, labels: {zone: east}, instances: {web: 0}}\n"
    "  - {name: n2, memory: 1Gi}\n";
const char* kNew =
    "nodes:\n"
    "  - name: n1\n"
    "    cpu_map: {\"0\": 100, \"1\": 100, \"2\": 100, \"3\": 100}\n"
    "    memory: 8589934592\n"
    "    labels: {zone: west}\n"
    "    usage: {memory: 1Gi, cpu_map: {\"1\": 50}}\n"
    "    instances: {web: 2}\n"
    "  - {name: n3, memory: 1Gi}\n";

}  // namespace

TEST_CASE("diff: units, order, written-out zeros and cpu vs cpu_map do not matter") {
  const Inventory a = load(
      "nodes:\n  - {name: b, memory: 1Gi}\n  - {name: a, cpu: 2, memory: 1024Mi, "
      "instances: {web: 0}, usage: {memory: 0}}\n");
  const Inventory b = load(
      "nodes:\n  - {name: a, cpu_map: {\"0\": 100, \"1\": 100}, memory: 1073741824}\n"
      "  - {name: b, memory: 1Gi, available: true}\n");
  CHECK(diff_inventories(a, b).empty());
  CHECK(render_diff(diff_inventories(a, b), OutputFormat::Table) == "no difference\n");
  CHECK(render_diff(diff_inventories(a, b), OutputFormat::Json) ==
        "{\n  \"added\": [],\n  \"removed\": [],\n  \"changed\": {}\n}\n");
}

// A node given as `cpu: N` keeps its cores as a count: its cpu_map is one
// entry "0..N-1", equal to the same cores written out.
TEST_CASE("diff: cores given as a count are compared and shown as a count") {
  const Inventory a = load(
      "nodes:\n  - {name: a, cpu: 4096}\n  - {name: b, cpu: 3}\n"
      "  - {name: c, cpu: 2}\n  - {name: d, cpu: 1}\n");
  const Inventory b = load(
      "nodes:\n  - {name: a, cpu: 4095}\n  - name: b\n    cpu_map: {\"0\": 100, \"1\": 100, "
      "\"2\": 100}\n  - name: c\n    cpu_map: {\"0\": 100, \"2\": 100}\n"
      "  - {name: d, cpu: 1}\n");
  const InventoryDiff d = diff_inventories(a, b);
  REQUIRE(d.changed.size() == 2);  // b's cores written out are the same
  CHECK(render_diff(d, OutputFormat::Table) ==
        "NODE  FIELD    OLD             NEW\n"
        "a     cpu      4096            4095\n"
        "a     cpu_map  {0..4095: 100}  {0..4094: 100}\n"
        "c     cpu_map  {0..1: 100}     {0: 100, 2: 100}\n");
  const std::string json = render_diff(d, OutputFormat::Json);
  CHECK(json.find("\"cpu_map\": {\n        \"old\": {\n          \"0..4095\": 100\n") !=
        std::string::npos);
  // The other way round, and a count of 1 is core "0".
  CHECK(diff_inventories(b, a).changed.size() == 2);
  CHECK(diff_inventories(load("nodes:\n  - {name: d, cpu: 1}\n"),
                         load("nodes:\n  - {name: d, cpu_map: {\"0\": 100}}\n"))
            .empty());
  CHECK(render_diff(diff_inventories(load("nodes:\n  - {name: d, cpu: 1}\n"),
                                     load("nodes:\n  - {name: d, cpu_map: {\"1\": 100}}\n")),
                    OutputFormat::Table) ==
        "NODE  FIELD    OLD       NEW\n"
        "d     cpu_map  {0: 100}  {1: 100}\n");
}

TEST_CASE("diff: added, removed and changed fields with old and new values") {
  const InventoryDiff d = diff_inventories(load(kOld), load(kNew));
  CHECK(d.added == std::vector<std::string>{"n3"});
  CHECK(d.removed == std::vector<std::string>{"n2"});
  REQUIRE(d.changed.size() == 1);
  CHECK(d.changed[0].node == "n1");
  std::vector<std::string> fields;
  for (const FieldChange& f : d.changed[0].fields) fields.push_back(f.field);
  CHECK(fields == std::vector<std::string>{"instances.web", "labels", "usage.cpu", "usage.cpu_map",
                                           "usage.memory"});
  CHECK(render_diff(d, OutputFormat::Table) ==
        "added: n3\n"
        "removed: n2\n"
        "NODE  FIELD          OLD           NEW\n"
        "n1    instances.web  0             2\n"
        "n1    labels         {zone: east}  {zone: west}\n"
        "n1    usage.cpu      0             0.5\n"
        "n1    usage.cpu_map  {}            {1: 50}\n"
        "n1    usage.memory   0             1Gi\n");
  const std::string yaml = render_diff(d, OutputFormat::Yaml);
  CHECK(yaml.find("    usage.memory:\n      old: 0\n      new: 1073741824\n") != std::string::npos);
}

TEST_CASE("diff: available, taints, workloads and a node's removal of an entry") {
  const Inventory a = load(
      "nodes:\n  - name: n1\n    memory: 4Gi\n    taints: [{key: gpu, effect: NoSchedule}]\n"
      "    workloads: [{id: w1, app: web, cpu: 1, memory: 1Gi}]\n"
      "    instances: {web: 1}\n");
  const Inventory b = load(
      "nodes:\n  - name: n1\n    memory: 4Gi\n    available: false\n"
      "    workloads: [{id: w1, app: web, cpu: 2, memory: 1Gi}]\n");
  const InventoryDiff d = diff_inventories(a, b);
  REQUIRE(d.changed.size() == 1);
  // A workload's instance counts either way; its usage follows its cpu.
  CHECK(
      render_diff(d, OutputFormat::Table) ==
      "NODE  FIELD         OLD                                                               NEW\n"
      "n1    available     true                                                              "
      "false\n"
      "n1    taints        gpu:NoSchedule                                                    -\n"
      "n1    usage.cpu     1                                                                 2\n"
      "n1    workloads.w1  {app: web, cpu: 1, cpu_limit: 1, memory: 1Gi, memory_limit: 1Gi}  "
      "{app: web, cpu: 2, cpu_limit: 2, memory: 1Gi, memory_limit: 1Gi}\n");
}

TEST_CASE("diff cli: exit 0, or 1 with --exit-code when they differ; 3 for bad input") {
  const auto dir = eruplan_test::scratch_dir("diff");
  std::ofstream(dir / "old.yaml") << kOld;
  std::ofstream(dir / "new.yaml") << kNew;
  std::ofstream(dir / "typo.yaml") << "nodes:\n  - {name: n1, memroy: 1Gi}\n";
  using eruplan_test::run_eruplan;
  CHECK(run_eruplan(dir, "diff old.yaml new.yaml").exit == 0);
  CHECK(run_eruplan(dir, "diff old.yaml new.yaml --exit-code").exit == 1);
  CHECK(run_eruplan(dir, "diff old.yaml old.yaml --exit-code").exit == 0);
  const eruplan_test::Ran json = run_eruplan(dir, "diff old.yaml new.yaml -o json");
  CHECK(json.out.find("\"added\": [\n    \"n3\"\n  ]") != std::string::npos);
  const eruplan_test::Ran bad = run_eruplan(dir, "diff old.yaml typo.yaml");
  CHECK(bad.exit == 3);
  CHECK(
      bad.err.find("typo.yaml:2:16: error: nodes[0].memroy: unknown field; did you mean memory?") !=
      std::string::npos);
  CHECK(run_eruplan(dir, "diff old.yaml typo.yaml --lenient").exit == 0);
  CHECK(run_eruplan(dir, "diff old.yaml").exit == 2);
  CHECK(run_eruplan(dir, "diff old.yaml gone.yaml").exit == 3);
}

TEST_CASE("diff cli: kubectl node lists as either side, mixed with an inventory") {
  const auto dir = eruplan_test::scratch_dir("diff_kubectl");
  // kubectl get nodes -o json, and -o yaml a week later: 2 more cores and a taint.
  std::ofstream(dir / "nodes.json") << R"({"apiVersion": "v1", "kind": "List", "items": [
    {"apiVersion": "v1", "kind": "Node",
     "metadata": {"name": "ip-10-0-1-12", "labels": {"topology.kubernetes.io/zone": "us-east-1a"}},
     "status": {"allocatable": {"cpu": "3920m", "memory": "15147020Ki", "pods": "58"}}}]})";
  std::ofstream(dir / "nodes.yaml")
      << "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n"
         "    name: ip-10-0-1-12\n    labels: {topology.kubernetes.io/zone: us-east-1a}\n"
         "  spec:\n    taints: [{key: dedicated, value: batch, effect: NoSchedule}]\n"
         "  status:\n    allocatable: {cpu: 5920m, memory: 15147020Ki, pods: \"58\"}\n";
  using eruplan_test::run_eruplan;
  const eruplan_test::Ran same = run_eruplan(dir, "diff nodes.json nodes.json --exit-code");
  INFO(same.err);
  CHECK(same.exit == 0);
  const eruplan_test::Ran week = run_eruplan(dir, "diff nodes.json nodes.yaml --exit-code");
  INFO(week.err);
  CHECK(week.exit == 1);
  CHECK(week.out.find("ip-10-0-1-12  cpu      3.92") != std::string::npos);
  CHECK(week.out.find("ip-10-0-1-12  taints   -            dedicated=batch:NoSchedule") !=
        std::string::npos);
  // Mixed: the kubectl list against the inventory apply prints for it.
  const eruplan_test::Ran applied =
      run_eruplan(dir, "apply -n nodes.json --app web --cpu 1 --memory 1Gi --count 1");
  REQUIRE(applied.exit == 0);
  std::ofstream(dir / "applied.json") << applied.out;
  const eruplan_test::Ran mixed = run_eruplan(dir, "diff nodes.json applied.json -o json");
  INFO(mixed.err);
  CHECK(mixed.exit == 0);
  CHECK(mixed.out.find("\"added\": []") != std::string::npos);
  CHECK(mixed.out.find("\"removed\": []") != std::string::npos);
  CHECK(mixed.out.find("\"usage.cpu\"") != std::string::npos);
  // Kind-less Node items are Nodes under --nodes-format kubernetes only.
  std::ofstream(dir / "kindless.json")
      << R"({"apiVersion": "v1", "kind": "List", "items": [{"metadata": {"name": "ip-10-0-1-12",
     "labels": {"topology.kubernetes.io/zone": "us-east-1a"}},
     "status": {"allocatable": {"cpu": "3920m", "memory": "15147020Ki", "pods": "58"}}}]})";
  CHECK(run_eruplan(dir, "diff kindless.json nodes.json").exit == 3);
  CHECK(run_eruplan(dir, "diff kindless.json nodes.json --nodes-format kubernetes --exit-code")
            .exit == 0);
}

TEST_CASE("apply: a request without an app gives an inventory apply reads again") {
  const auto dir = eruplan_test::scratch_dir("apply_no_app");
  std::ofstream(dir / "n.yaml")
      << "nodes:\n  - {name: n1, cpu: 4, memory: 8Gi, max_instances: 3}\n";
  std::ofstream(dir / "n.json") << R"({"nodes": [{"name": "n1", "cpu": 4, "memory": "8Gi",
    "max_instances": 3}]})";
  using eruplan_test::run_eruplan;
  for (const char* ext : {"yaml", "json"}) {
    CAPTURE(ext);
    const std::string flags = " --cpu 1 --memory 1Gi --count 2";
    const eruplan_test::Ran once = run_eruplan(dir, std::string("apply -n n.") + ext + flags);
    REQUIRE(once.exit == 0);
    std::ofstream(dir / (std::string("once.") + ext)) << once.out;
    // It was "instances: {"": 2}", refused as "an app name must not be empty".
    const eruplan_test::Ran twice =
        run_eruplan(dir, std::string("apply -n once.") + ext + " --cpu 1 --memory 1Gi --count 1");
    INFO(twice.err);
    CHECK(twice.exit == 0);
    // Its 2 instances count toward max_instances 3: one more fits, two do not.
    CHECK(run_eruplan(dir, std::string("plan -n once.") + ext + flags).exit == 4);
    CHECK(run_eruplan(dir, std::string("diff n.") + ext + " once." + ext + " --exit-code").exit ==
          1);
  }
}

TEST_CASE("apply --units: human for YAML, bytes for JSON by default; either on request") {
  const auto dir = eruplan_test::scratch_dir("units");
  std::ofstream(dir / "n.yaml") << "nodes:\n  - {name: n1, cpu: 2, memory: 8Gi, storage: 1500}\n";
  std::ofstream(dir / "n.json") << R"({"nodes": [{"name": "n1", "cpu": 2, "memory": "8Gi"}]})";
  using eruplan_test::run_eruplan;
  const std::string flags = " --app web --count 1 --memory 512Mi --cpu 0.5";
  const eruplan_test::Ran yaml = run_eruplan(dir, "apply -n n.yaml" + flags);
  REQUIRE(yaml.exit == 0);
  // Exact short units; 1500 bytes has none, so it stays a number.
  CHECK(yaml.out.find("    memory: 8Gi\n    storage: 1500\n") != std::string::npos);
  CHECK(yaml.out.find("      cpu: 500m\n") != std::string::npos);
  CHECK(yaml.out.find("      memory: 512Mi\n") != std::string::npos);
  const eruplan_test::Ran bytes = run_eruplan(dir, "apply -n n.yaml --units bytes" + flags);
  CHECK(bytes.out.find("    memory: 8589934592\n") != std::string::npos);
  CHECK(bytes.out.find("      cpu: 0.5\n") != std::string::npos);
  const eruplan_test::Ran json = run_eruplan(dir, "apply -n n.json" + flags);
  CHECK(json.out.find("\"memory\": 8589934592,") != std::string::npos);
  const eruplan_test::Ran human = run_eruplan(dir, "apply -n n.json --units human" + flags);
  CHECK(human.out.find("\"memory\": \"8Gi\",") != std::string::npos);
  CHECK(human.out.find("\"cpu\": \"500m\",") != std::string::npos);
  // --save-inventory follows its own file's format, with the same flag.
  CHECK(run_eruplan(dir, "plan -n n.yaml --save-inventory s.yaml" + flags).exit == 0);
  CHECK(eruplan_test::slurp(dir / "s.yaml").find("    memory: 8Gi\n") != std::string::npos);
  CHECK(run_eruplan(dir, "plan -n n.yaml --units bytes --save-inventory s.yaml" + flags).exit == 0);
  CHECK(eruplan_test::slurp(dir / "s.yaml").find("    memory: 8589934592\n") != std::string::npos);
  // The applied inventory diffs cleanly against the same state written by hand.
  std::ofstream(dir / "applied.yaml") << yaml.out;
  std::ofstream(dir / "hand.yaml")
      << "nodes:\n  - {name: n1, cpu: 2, memory: 8Gi, storage: 1500,\n"
         "     usage: {cpu: 0.5, memory: 512Mi}, instances: {web: 1}}\n";
  CHECK(run_eruplan(dir, "diff hand.yaml applied.yaml --exit-code").exit == 0);
  CHECK(run_eruplan(dir, "apply -n n.yaml --units kb" + flags).exit == 2);
}
