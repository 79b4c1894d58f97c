#include "render.h"

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "json_writer.h"

using namespace eruplan;
using ojson = nlohmann::ordered_json;

namespace {

constexpr Bytes kMi = 1024 * 1024;

Node make_node(std::string name, int cores = 0) {
  Node n;
  n.name = std::move(name);
  for (int i = 0; i < cores; ++i) n.cores.push_back({100, 0, -1});
  return n;
}

NodeCapacity make_capacity(std::uint32_t node, std::int64_t capacity, std::int64_t existing = 0,
                           std::string reason = {}) {
  NodeCapacity nc;
  nc.node = node;
  nc.capacity = capacity;
  nc.existing = existing;
  if (!reason.empty()) {  // "memory: 300Mi ..." as a reason of that dimension
    const auto colon = reason.find(": ");
    nc.reasons.push_back(colon == std::string::npos
                             ? Reason::words(reason, {})
                             : Reason::words(reason.substr(0, colon), reason.substr(colon + 2)));
  }
  return nc;
}

VolumeRequest volume(std::string binding, std::string source, std::string dst, std::string flags,
                     Bytes size) {
  return {std::move(binding), std::move(source), std::move(dst), std::move(flags), size};
}

Plan cpu_plan(std::vector<CoreShare> cpu, int numa = -1) {
  Plan p;
  p.cpu = std::move(cpu);
  p.numa = numa;
  return p;
}

Plan volume_plan(std::vector<VolumeShare> volumes) {
  Plan p;
  p.volumes = std::move(volumes);
  return p;
}

// Memory mode: three nodes, the last one too small.
struct MemoryCase {
  Inventory inv;
  Request req;
  CapacityMap map;
  MemoryCase() {
    inv.nodes = {make_node("node1", 4), make_node("node2", 4), make_node("node3", 2)};
    req.app = "web";
    req.cpu = 1'500'000'000;
    req.cpu_limit = 2'000'000'000;
    req.memory = 512 * kMi;
    req.memory_limit = 1024 * kMi;
    map.nodes = {make_capacity(0, 10, 2), make_capacity(1, 2, 0),
                 make_capacity(2, 0, 1, "memory: 300Mi available, 512Mi per instance")};
    map.total = 12;
  }
};

// CPU-bind mode with NUMA: node1 has two NUMA nodes, node2 none.
struct CpuCase {
  Inventory inv;
  Request req;
  CapacityMap map;
  CpuCase() {
    inv.nodes = {make_node("node1", 4), make_node("node2", 2)};
    Node& n1 = inv.nodes[0];
    n1.numa_nodes = {{"0", 4096 * kMi, 0}, {"1", 4096 * kMi, 0}};
    for (size_t i = 0; i < n1.cores.size(); ++i) n1.cores[i].numa = i < 2 ? 0 : 1;
    inv.nodes[1].core_ids = {"3", "10"};  // natural order
    req.app = "db";
    req.count = 2;
    req.strategy = Strategy::Global;
    req.cpu = 1'300'000'000;
    req.cpu_limit = req.cpu;
    req.cpu_bind = true;
    req.memory = 1024 * kMi;
    req.memory_limit = req.memory;
    NodeCapacity a = make_capacity(0, 5);
    a.plans = {cpu_plan({{0, 100}, {1, 30}}, 0), cpu_plan({{1, 100}, {0, 30}}, 0),
               cpu_plan({{2, 100}, {3, 30}}, 1), cpu_plan({{3, 100}, {2, 30}}, 1),
               cpu_plan({{0, 100}, {2, 30}})};
    NodeCapacity b = make_capacity(1, 1, 1);
    b.plans = {cpu_plan({{0, 30}, {1, 100}})};
    map.nodes = {a, b};
    map.total = 6;
    map.binds = true;
  }
};

// SPEC §4's volume example: AUTO:/data:rw:100 on {/sda0: 1000, /sda1: 200}.
struct VolumeCase {
  Inventory inv;
  Request req;
  CapacityMap map;
  VolumeCase() {
    inv.nodes = {make_node("node1")};
    inv.nodes[0].devices = {{"/sda0", 1000, 0}, {"/sda1", 200, 0}};
    req.app = "web";
    req.count = 3;
    req.volumes = {volume("AUTO:/data:rw:100", "AUTO", "/data", "rw", 100),
                   volume("/host:/mnt:ro", "/host", "/mnt", "ro", 0)};
    NodeCapacity a = make_capacity(0, 12);
    for (int i = 0; i < 10; ++i) a.plans.push_back(volume_plan({{0, 0, 100}}));
    for (int i = 0; i < 2; ++i) a.plans.push_back(volume_plan({{0, 1, 100}}));
    map.nodes = {a};
    map.total = 12;
    map.binds = true;
  }
};

// An unlimited quota binds a device but limits nothing.
struct UnlimitedCase {
  Inventory inv;
  Request req;
  CapacityMap map;
  UnlimitedCase() {
    inv.nodes = {make_node("a"), make_node("b")};
    inv.nodes[0].devices = {{"/sda0", 1000, 0}, {"/sdb0", 5000, 0}};
    req.app = "cache";
    req.count = 2;
    req.volumes = {volume("AUTO:/tmp:rw:0", "AUTO", "/tmp", "rw", 0)};
    NodeCapacity a = make_capacity(0, kUnlimited, 4);
    a.plans = {volume_plan({{0, 1, 0}})};
    NodeCapacity b = make_capacity(1, 0, 0, "volumes: no devices");
    map.nodes = {a, b};
    map.total = kUnlimited;
    map.binds = true;
  }
};

std::string render_with(const Inventory& inv, const Request& req, const CapacityMap& map,
                        const DeployMap* deploy, OutputFormat format,
                        PlansShown plans = PlansShown::All) {
  return render(Report{inv, req, map, deploy, plans}, format);
}

// --- YAML read back the way a strict YAML reader would type it ---

bool yaml_bool_word(const std::string& s, bool& value) {
  static const std::regex yes("y|Y|yes|Yes|YES|true|True|TRUE|on|On|ON");
  static const std::regex no("n|N|no|No|NO|false|False|FALSE|off|Off|OFF");
  if (std::regex_match(s, yes)) return value = true, true;
  if (std::regex_match(s, no)) return value = false, true;
  return false;
}

// A plain scalar as the YAML 1.1/1.2 core schemas resolve it; quoted ones
// are strings.
ojson yaml_scalar(const YAML::Node& n) {
  const std::string s = n.Scalar();
  if (n.Tag() == "!") return s;
  static const std::regex null_re("null|Null|NULL|~|");
  static const std::regex int_re("[-+]?[0-9][0-9_]*|0x[0-9a-fA-F]+|0o[0-7]+");
  static const std::regex float_re(
      "[-+]?(\\.[0-9]+|[0-9][0-9_]*(\\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\\.(inf|Inf|INF)|"
      "\\.(nan|NaN|NAN)|[0-9]+(:[0-5]?[0-9])+");
  if (std::regex_match(s, null_re)) return nullptr;
  bool b = false;
  if (yaml_bool_word(s, b)) return b;
  if (std::regex_match(s, int_re)) return std::stoll(s);
  if (std::regex_match(s, float_re)) return std::stod(s);
  return s;
}

ojson yaml_to_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      ojson o = ojson::object();
      for (const auto& kv : n) {
        const ojson key = yaml_scalar(kv.first);
        REQUIRE_MESSAGE(key.is_string(), "a YAML key reads back as " << key.dump());
        CHECK_MESSAGE(!o.contains(key.get<std::string>()), "duplicate key " << key.dump());
        o[key.get<std::string>()] = yaml_to_json(kv.second);
      }
      return o;
    }
    case YAML::NodeType::Sequence: {
      ojson a = ojson::array();
      for (const auto& item : n) a.push_back(yaml_to_json(item));
      return a;
    }
    case YAML::NodeType::Scalar:
      return yaml_scalar(n);
    default:
      return nullptr;
  }
}

// The YAML output, read back, is the JSON output's document, keys in the
// same order; returns the JSON document.
ojson check_same_document(const Inventory& inv, const Request& req, const CapacityMap& map,
                          const DeployMap* deploy, PlansShown plans = PlansShown::All,
                          bool standard_layout = true) {
  const std::string json = render_with(inv, req, map, deploy, OutputFormat::Json, plans);
  const std::string yaml = render_with(inv, req, map, deploy, OutputFormat::Yaml, plans);
  const ojson doc = ojson::parse(json);
  const ojson from_yaml = yaml_to_json(YAML::Load(yaml));
  CHECK(from_yaml == doc);
  // The layout is the usual pretty print, so diffs and tools see no
  // surprises (only the characters YAML needs escaped are spelled differently).
  if (standard_layout) CHECK(doc.dump(2) + "\n" == json);
  return doc;
}

std::vector<std::string> keys(const ojson& object) {
  std::vector<std::string> out;
  for (const auto& [k, v] : object.items()) out.push_back(k);
  return out;
}

}  // namespace

TEST_CASE("memory mode capacity: table") {
  MemoryCase c;
  CHECK(render_with(c.inv, c.req, c.map, nullptr, OutputFormat::Table) ==
        "app web; per instance: cpu 1.5, memory 512Mi\n"
        "NODE   CAPACITY  EXISTING  REASON\n"
        "node1        10         2\n"
        "node2         2         0\n"
        "node3         0         1  memory: 300Mi available, 512Mi per instance\n"
        "total        12         3\n");
}

TEST_CASE("memory mode capacity: the JSON and YAML text") {
  MemoryCase c;
  CHECK(render_with(c.inv, c.req, c.map, nullptr, OutputFormat::Json) ==
        R"({
  "request": {
    "app": "web",
    "count": null,
    "strategy": "auto",
    "nodes_limit": 0,
    "resources": {
      "cpu": 1.5,
      "cpu_limit": 2,
      "cpu_bind": false,
      "memory": 536870912,
      "memory_limit": 1073741824,
      "storage": 0,
      "volumes": [],
      "extended": {},
      "cpu_fit": false
    },
    "node_filter": {
      "labels": {},
      "nodes": [],
      "exclude": []
    }
  },
  "capacity": {
    "total": 12,
    "nodes": {
      "node1": 10,
      "node2": 2,
      "node3": 0
    }
  },
  "reasons": {
    "node3": "memory: 300Mi available, 512Mi per instance"
  },
  "reason_kinds": {
    "node3": [
      "memory"
    ]
  }
}
)");
  CHECK(render_with(c.inv, c.req, c.map, nullptr, OutputFormat::Yaml) ==
        R"(request:
  app: web
  count: null
  strategy: auto
  nodes_limit: 0
  resources:
    cpu: 1.5
    cpu_limit: 2
    cpu_bind: false
    memory: 536870912
    memory_limit: 1073741824
    storage: 0
    volumes: []
    extended: {}
    cpu_fit: false
  node_filter:
    labels: {}
    nodes: []
    exclude: []
capacity:
  total: 12
  nodes:
    node1: 10
    node2: 2
    node3: 0
reasons:
  node3: "memory: 300Mi available, 512Mi per instance"
reason_kinds:
  node3:
    - memory
)");
  const ojson doc = check_same_document(c.inv, c.req, c.map, nullptr);
  CHECK(keys(doc) == std::vector<std::string>{"request", "capacity", "reasons", "reason_kinds"});
}

TEST_CASE("plan in memory mode: NEW column, deploy, no plans") {
  MemoryCase c;
  c.req.count = 3;
  c.req.nodes_limit = 2;
  c.req.strategy = Strategy::Fill;
  const DeployMap deploy = {1, 2, 0};
  CHECK(render_with(c.inv, c.req, c.map, &deploy, OutputFormat::Table) ==
        "app web, strategy fill, count 3, nodes_limit 2; per instance: cpu 1.5, memory 512Mi\n"
        "NODE   CAPACITY  EXISTING  NEW  REASON\n"
        "node1        10         2    1\n"
        "node2         2         0    2\n"
        "node3         0         1    0  memory: 300Mi available, 512Mi per instance\n"
        "total        12         3    3\n");
  const ojson doc = check_same_document(c.inv, c.req, c.map, &deploy);
  CHECK(keys(doc) ==
        std::vector<std::string>{"request", "capacity", "reasons", "reason_kinds", "deploy"});
  CHECK(doc["request"]["count"] == 3);
  CHECK(doc["request"]["strategy"] == "fill");
  CHECK(doc["request"]["nodes_limit"] == 2);
  CHECK(doc["deploy"] == ojson::parse(R"({"node1": 1, "node2": 2})"));
}

TEST_CASE("CPU plans with NUMA: table summary and the document") {
  CpuCase c;
  CHECK(render_with(c.inv, c.req, c.map, nullptr, OutputFormat::Table) ==
        "app db; per instance: cpu 1.3 bound, memory 1Gi\n"
        "NODE   CAPACITY  EXISTING\n"
        "node1         5         0\n"
        "node2         1         1\n"
        "total         6         1\n"
        "\n"
        "plans (first 3 per node):\n"
        "  node1: 5 plans\n"
        "    cpu 0:100 1:30  numa 0\n"
        "    cpu 0:30 1:100  numa 0\n"
        "    cpu 2:100 3:30  numa 1\n"
        "    ... 2 more\n"
        "  node2: 1 plan\n"
        "    cpu 3:30 10:100\n");

  const ojson doc = check_same_document(c.inv, c.req, c.map, nullptr);
  CHECK(keys(doc) ==
        std::vector<std::string>{"request", "capacity", "reasons", "reason_kinds", "plans"});
  CHECK(doc["request"]["resources"]["cpu"] == 1.3);
  CHECK(doc["request"]["resources"]["cpu_bind"] == true);
  CHECK(doc["reasons"] == ojson::object());
  const ojson& n1 = doc["plans"]["node1"];
  REQUIRE(n1.size() == 5);
  CHECK(n1[0] == ojson::parse(R"({"cpu_map": {"0": 100, "1": 30}, "numa_node": "0"})"));
  CHECK(n1[3] == ojson::parse(R"({"cpu_map": {"2": 30, "3": 100}, "numa_node": "1"})"));
  CHECK(n1[4] == ojson::parse(R"({"cpu_map": {"0": 100, "2": 30}})"));  // across NUMA nodes
  // Core ids in natural order, "3" before "10".
  CHECK(keys(doc["plans"]["node2"][0]["cpu_map"]) == std::vector<std::string>{"3", "10"});
}

TEST_CASE("CPU plans: plan lists each new instance; assignments take the first k plans") {
  CpuCase c;
  const DeployMap deploy = {2, 1};
  CHECK(render_with(c.inv, c.req, c.map, &deploy, OutputFormat::Table) ==
        "app db, strategy global, count 2; per instance: cpu 1.3 bound, memory 1Gi\n"
        "NODE   CAPACITY  EXISTING  NEW\n"
        "node1         5         0    2\n"
        "node2         1         1    1\n"
        "total         6         1    3\n"
        "\n"
        "new instances:\n"
        "  node1 #1  cpu 0:100 1:30  numa 0\n"
        "  node1 #2  cpu 0:30 1:100  numa 0\n"
        "  node2 #1  cpu 3:30 10:100\n");
  const ojson doc = check_same_document(c.inv, c.req, c.map, &deploy);
  CHECK(keys(doc) == std::vector<std::string>{"request", "capacity", "reasons", "reason_kinds",
                                              "plans", "deploy", "assignments"});
  CHECK(doc["plans"]["node1"].size() == 5);
  CHECK(doc["assignments"] == ojson::parse(R"({
    "node1": [{"cpu_map": {"0": 100, "1": 30}, "numa_node": "0"},
              {"cpu_map": {"0": 30, "1": 100}, "numa_node": "0"}],
    "node2": [{"cpu_map": {"3": 30, "10": 100}}]})"));
}

TEST_CASE("volumes: SPEC's 12 plans, bindings keyed by their text") {
  VolumeCase c;
  CHECK(render_with(c.inv, c.req, c.map, nullptr, OutputFormat::Table) ==
        "app web; per instance: volumes AUTO:/data:rw:100 /host:/mnt:ro\n"
        "NODE   CAPACITY  EXISTING\n"
        "node1        12         0\n"
        "total        12         0\n"
        "\n"
        "plans (first 3 per node):\n"
        "  node1: 12 plans\n"
        "    /data->/sda0 100\n"
        "    /data->/sda0 100\n"
        "    /data->/sda0 100\n"
        "    ... 9 more\n");
  const ojson doc = check_same_document(c.inv, c.req, c.map, nullptr);
  CHECK(doc["request"]["resources"]["volumes"] ==
        ojson::parse(R"(["AUTO:/data:rw:100", "/host:/mnt:ro"])"));
  const ojson& plans = doc["plans"]["node1"];
  REQUIRE(plans.size() == 12);
  CHECK(plans[0] == ojson::parse(R"({"volumes": {"AUTO:/data:rw:100": {"/sda0": 100}}})"));
  CHECK(plans[11] == ojson::parse(R"({"volumes": {"AUTO:/data:rw:100": {"/sda1": 100}}})"));

  const DeployMap deploy = {3};
  CHECK(render_with(c.inv, c.req, c.map, &deploy, OutputFormat::Table) ==
        "app web, strategy auto, count 3; per instance: volumes AUTO:/data:rw:100 /host:/mnt:ro\n"
        "NODE   CAPACITY  EXISTING  NEW\n"
        "node1        12         0    3\n"
        "total        12         0    3\n"
        "\n"
        "new instances:\n"
        "  node1 #1  /data->/sda0 100\n"
        "  node1 #2  /data->/sda0 100\n"
        "  node1 #3  /data->/sda0 100\n");
  const ojson planned = check_same_document(c.inv, c.req, c.map, &deploy);
  CHECK(planned["assignments"]["node1"].size() == 3);
  CHECK(planned["assignments"]["node1"][2] == plans[2]);
}

TEST_CASE("volumes: monopoly split, several bindings, unordered or repeated shares") {
  Inventory inv;
  inv.nodes = {make_node("n")};
  inv.nodes[0].devices = {{"/a", 100, 0}, {"/b", 300, 0}};
  Request req;
  req.volumes = {volume("AUTO:/x:rwm:1", "AUTO", "/x", "rwm", 1),
                 volume("AUTO:/y:rwm:2", "AUTO", "/y", "rwm", 2),
                 volume("AUTO:/x:rwm:1", "AUTO", "/x", "rwm", 1)};  // written twice
  CapacityMap map;
  NodeCapacity nc = make_capacity(0, 1);
  // Out of order on purpose; the third binding shares the first one's key.
  Plan p = volume_plan({{1, 1, 200}, {0, 1, 50}, {2, 1, 50}});
  p.cpu = {{0, 30}};
  inv.nodes[0].cores = {{100, 0, -1}};
  inv.nodes[0].core_ids = {"7"};
  nc.plans = {p};
  map.nodes = {nc};
  map.total = 1;
  map.binds = true;
  const ojson doc = check_same_document(inv, req, map, nullptr);
  CHECK(doc["plans"]["n"][0] == ojson::parse(R"({"cpu_map": {"7": 30},
      "volumes": {"AUTO:/x:rwm:1": {"/b": 100}, "AUTO:/y:rwm:2": {"/b": 200}}})"));
  CHECK(keys(doc["plans"]["n"][0]["volumes"]) ==
        std::vector<std::string>{"AUTO:/x:rwm:1", "AUTO:/y:rwm:2"});
}

TEST_CASE("unlimited capacity: the string \"unlimited\", one shared plan, k copies") {
  UnlimitedCase c;
  CHECK(render_with(c.inv, c.req, c.map, nullptr, OutputFormat::Table) ==
        "app cache; per instance: volumes AUTO:/tmp:rw:0\n"
        "NODE    CAPACITY  EXISTING  REASON\n"
        "a      unlimited         4\n"
        "b              0         0  volumes: no devices\n"
        "total  unlimited         4\n"
        "\n"
        "plans (first 3 per node):\n"
        "  a: unlimited, one shared plan\n"
        "    /tmp->/sdb0 no quota\n");
  const ojson doc = check_same_document(c.inv, c.req, c.map, nullptr);
  CHECK(doc["capacity"] == ojson::parse(R"({"total": "unlimited",
      "nodes": {"a": "unlimited", "b": 0}})"));
  CHECK(doc["plans"] ==
        ojson::parse(R"({"a": [{"volumes": {"AUTO:/tmp:rw:0": {"/sdb0": 0}}}], "b": []})"));

  const DeployMap deploy = {2, 0};
  CHECK(render_with(c.inv, c.req, c.map, &deploy, OutputFormat::Table) ==
        "app cache, strategy auto, count 2; per instance: volumes AUTO:/tmp:rw:0\n"
        "NODE    CAPACITY  EXISTING  NEW  REASON\n"
        "a      unlimited         4    2\n"
        "b              0         0    0  volumes: no devices\n"
        "total  unlimited         4    2\n"
        "\n"
        "new instances:\n"
        "  a #1  /tmp->/sdb0 no quota\n"
        "  a #2  /tmp->/sdb0 no quota\n");
  const ojson planned = check_same_document(c.inv, c.req, c.map, &deploy);
  const ojson shared = ojson::parse(R"({"volumes": {"AUTO:/tmp:rw:0": {"/sdb0": 0}}})");
  CHECK(planned["assignments"] == ojson{{"a", ojson::array({shared, shared})}});
  CHECK(planned["deploy"] == ojson{{"a", 2}});
}

TEST_CASE("zero capacity everywhere: reasons, including not available") {
  Inventory inv;
  inv.nodes = {make_node("x"), make_node("y")};
  inv.nodes[0].available = false;
  Request req;
  req.app = "web";
  req.memory = 512 * kMi;
  CapacityMap map;
  map.nodes = {make_capacity(0, 0, 3, "not available"),
               make_capacity(1, 0, 0, "memory: 0 available, 512Mi per instance")};
  CHECK(render_with(inv, req, map, nullptr, OutputFormat::Table) ==
        "app web; per instance: memory 512Mi\n"
        "NODE   CAPACITY  EXISTING  REASON\n"
        "x             0         3  not available\n"
        "y             0         0  memory: 0 available, 512Mi per instance\n"
        "total         0         3\n");
  const ojson doc = check_same_document(inv, req, map, nullptr);
  CHECK(doc["capacity"]["total"] == 0);
  CHECK(doc["reasons"] == ojson::parse(R"({"x": "not available",
      "y": "memory: 0 available, 512Mi per instance"})"));

  // No nodes at all (all filtered out), and nothing requested.
  CapacityMap empty;
  Request nothing;
  nothing.app = "web";
  CHECK(render_with(inv, nothing, empty, nullptr, OutputFormat::Table) ==
        "app web; per instance: nothing\n"
        "NODE   CAPACITY  EXISTING\n"
        "total         0         0\n");
  const ojson none = check_same_document(inv, nothing, empty, nullptr);
  CHECK(none["capacity"] == ojson::parse(R"({"total": 0, "nodes": {}})"));
  CHECK(none["reasons"] == ojson::object());
}

TEST_CASE("--plans assigned and none") {
  CpuCase c;
  const DeployMap deploy = {2, 0};

  SUBCASE("plan, assigned: only receiving nodes, their first k plans") {
    const ojson doc = check_same_document(c.inv, c.req, c.map, &deploy, PlansShown::Assigned);
    CHECK(keys(doc["plans"]) == std::vector<std::string>{"node1"});
    CHECK(doc["plans"]["node1"] == doc["assignments"]["node1"]);
    CHECK(doc["plans"]["node1"].size() == 2);
  }
  SUBCASE("plan, none: no plans key, assignments stay") {
    const ojson doc = check_same_document(c.inv, c.req, c.map, &deploy, PlansShown::None);
    CHECK(keys(doc) == std::vector<std::string>{"request", "capacity", "reasons", "reason_kinds",
                                                "deploy", "assignments"});
    CHECK(doc["assignments"]["node1"].size() == 2);
    // --plans none prints no binding lines in a table: the node table alone.
    const std::string all =
        render_with(c.inv, c.req, c.map, &deploy, OutputFormat::Table, PlansShown::All);
    const std::size_t section = all.find("\nnew instances:\n");
    REQUIRE(section != std::string::npos);
    CHECK(render_with(c.inv, c.req, c.map, &deploy, OutputFormat::Table, PlansShown::None) ==
          all.substr(0, section));
  }
  SUBCASE("capacity, assigned or none: nothing is assigned, no plans") {
    for (const PlansShown shown : {PlansShown::Assigned, PlansShown::None}) {
      const ojson doc = check_same_document(c.inv, c.req, c.map, nullptr, shown);
      CHECK(keys(doc) ==
            std::vector<std::string>{"request", "capacity", "reasons", "reason_kinds"});
      CHECK(render_with(c.inv, c.req, c.map, nullptr, OutputFormat::Table, shown) ==
            "app db; per instance: cpu 1.3 bound, memory 1Gi\n"
            "NODE   CAPACITY  EXISTING\n"
            "node1         5         0\n"
            "node2         1         1\n"
            "total         6         1\n");
    }
  }
  SUBCASE("unlimited, assigned: the one shared plan") {
    UnlimitedCase u;
    const DeployMap two = {2, 0};
    const ojson doc = check_same_document(u.inv, u.req, u.map, &two, PlansShown::Assigned);
    CHECK(doc["plans"]["a"].size() == 1);
    CHECK(doc["assignments"]["a"].size() == 2);
  }
}

TEST_CASE("odd names survive JSON and YAML exactly") {
  // clang-format off
  const std::vector<std::string> names = {
      "", "true", "1", "a: b", "quote\"back\\slash", "tab\tnew\nline\r", "~", "null", "-1.5e3",
      "\x01\x1f\x7f", "\xe8\x8a\x82\xe7\x82\xb9-1", "line\xe2\x80\xa8sep\xc2\x85", "No", "y",
      "#x", "- item", "[a]", "{b}", "@c", "`d", " lead", "trail ", "x # y", ".inf", "0x1F",
      "1:20", "2001-12-14", "=", "<<", "*ref", "&anchor", "!tag", "%dir", "|", ">", "'", "?",
      ",", "\xef\xbb\xbf" "bom"};
  // clang-format on
  Inventory inv;
  for (const auto& n : names) inv.nodes.push_back(make_node(n, 1));
  inv.nodes[1].core_ids = {"\"0\""};  // node "true", the one with a plan
  inv.nodes[1].devices = {{"dev: \"x\"\n", 10, 0}};
  Request req;
  req.app = "a\"pp: 1";
  req.cpu = 1'000'000'000;
  req.cpu_bind = true;
  req.volumes = {volume("AUTO:/d:rw:1", "AUTO", "/d", "rw", 1)};
  req.filter.labels = {{"k: v", "true"}, {"zone", "\n"}};
  req.filter.nodes = names;
  req.filter.exclude = {"off", ""};
  CapacityMap map;
  for (std::uint32_t i = 0; i < names.size(); ++i)
    map.nodes.push_back(make_capacity(i, i % 3 == 0 ? 0 : 1, 0, i % 3 == 0 ? names[i] : ""));
  Plan p = cpu_plan({{0, 100}});
  p.volumes = {{0, 0, 1}};
  map.nodes[1].plans = {p};
  map.binds = true;

  const ojson doc = check_same_document(inv, req, map, nullptr, PlansShown::All, false);
  const ojson& nodes = doc["capacity"]["nodes"];
  REQUIRE(nodes.size() == names.size());
  size_t i = 0;
  for (const auto& [k, v] : nodes.items()) CHECK(k == names[i++]);
  CHECK(doc["reasons"][""] == "");
  CHECK(doc["reasons"]["a: b"] == "a: b");
  CHECK(doc["request"]["app"] == "a\"pp: 1");
  CHECK(doc["request"]["node_filter"]["labels"] == ojson{{"k: v", "true"}, {"zone", "\n"}});
  CHECK(doc["plans"]["true"][0] == ojson::parse(R"({"cpu_map": {"\"0\"": 100},
      "volumes": {"AUTO:/d:rw:1": {"dev: \"x\"\n": 1}}})"));

  // The table stays one line per node: names with control characters or
  // edge spaces are shown quoted.
  const std::string table = render_with(inv, req, map, nullptr, OutputFormat::Table);
  CHECK(table.find("\n\"tab\\tnew\\nline\\r\"  ") != std::string::npos);
  CHECK(table.find("\n\"\"  ") != std::string::npos);
  CHECK(table.find("\n\" lead\"  ") != std::string::npos);
  CHECK(table.find("\n\"line\\u2028sep\\u0085\"  ") != std::string::npos);
  CHECK(table.find("\n\"\\ufeffbom\"  ") != std::string::npos);
  CHECK(table.find("\nquote\"back\\slash  ") != std::string::npos);  // visible: as is
  CHECK(table.find("\n\xe8\x8a\x82\xe7\x82\xb9-1  ") != std::string::npos);
  CHECK(table.find(" \n") == std::string::npos);  // no trailing spaces
  const std::string node_table = table.substr(0, table.find("\n\n") + 1);
  CHECK(std::count(node_table.begin(), node_table.end(), '\n') ==
        static_cast<std::ptrdiff_t>(names.size() + 3));
}

TEST_CASE("table columns line up by characters, not bytes") {
  Inventory inv;
  inv.nodes = {make_node("n"), make_node("\xc3\xa9t\xc3\xa9")};
  Request req;
  req.app = "x";
  CapacityMap map;
  map.nodes = {make_capacity(0, 1, 0), make_capacity(1, 12345678901, 7)};
  map.total = 12345678902;
  CHECK(render_with(inv, req, map, nullptr, OutputFormat::Table) ==
        "app x; per instance: nothing\n"
        "NODE      CAPACITY  EXISTING\n"
        "n                1         0\n"
        "\xc3\xa9t\xc3\xa9    12345678901         7\n"
        "total  12345678902         7\n");
}

TEST_CASE("invalid UTF-8 becomes U+FFFD so the output always parses") {
  Inventory inv;
  inv.nodes = {make_node("bad\xff\xc0\x80name\xe2\x82")};
  Request req;
  CapacityMap map;
  map.nodes = {make_capacity(0, 1)};
  map.total = 1;
  const ojson doc = check_same_document(inv, req, map, nullptr);
  CHECK(keys(doc["capacity"]["nodes"]) ==
        std::vector<std::string>{"bad\ufffd\ufffd\ufffdname\ufffd\ufffd"});
}

TEST_CASE("YAML keys longer than an implicit key allows are written explicitly") {
  Inventory inv;
  const std::string long_name(1500, 'n');
  inv.nodes = {make_node(long_name), make_node("short")};
  Request req;
  CapacityMap map;
  map.nodes = {make_capacity(0, 3), make_capacity(1, 0, 0, "memory: no")};
  map.total = 3;
  const std::string yaml = render_with(inv, req, map, nullptr, OutputFormat::Yaml);
  CHECK(yaml.find("    ? " + long_name + "\n    : 3\n") != std::string::npos);
  const ojson doc = check_same_document(inv, req, map, nullptr);
  CHECK(doc["capacity"]["nodes"][long_name] == 3);
}

TEST_CASE("yaml_plain_safe: the quoting rule") {
  for (const char* plain : {"node1", "web", "/data0", "_x", "a-b.c/d", "Node_2", "yess", "nulls"})
    CHECK_MESSAGE(yaml_plain_safe(plain), plain);
  for (const char* quoted :
       {"",     "1",   "0",   "1.5", "-1", ".inf", "true", "TRUE", "False",
        "yes",  "No",  "on",  "OFF", "y",  "N",    "null", "Null", "~",
        "a: b", "a b", "a:b", "-x",  ".x", "#x",   "x#",   "a,b",  "\xe8\x8a\x82"})
    CHECK_MESSAGE(!yaml_plain_safe(quoted), quoted);
}

TEST_CASE("append_quoted escapes what JSON and YAML need") {
  std::string out;
  append_quoted(out, std::string("a\"\\\b\f\n\r\t\x01\x7f\0z", 12));
  CHECK(out == R"("a\"\\\b\f\n\r\t\u0001\u007f\u0000z")");
  out.clear();
  append_quoted(out, "\xc2\x85|\xe2\x80\xa8|\xef\xbb\xbf|\xc3\xa9|\xf0\x9f\x98\x80");
  CHECK(out == "\"\\u0085|\\u2028|\\ufeff|\xc3\xa9|\xf0\x9f\x98\x80\"");
  out.clear();
  append_quoted(out, "\xed\xa0\x80");  // a surrogate: not valid UTF-8
  CHECK(out == "\"\ufffd\ufffd\ufffd\"");
}

TEST_CASE("render_request_json: the normalised request alone") {
  Request req;
  req.app = "web";
  req.count = 4;
  req.strategy = Strategy::Drained;
  req.cpu = 2'500'000'000;
  req.cpu_limit = 3'000'000'000;
  req.memory = 1024;
  req.memory_limit = 2048;
  req.storage = 10 * kMi;
  req.volumes = {volume("/host:/mnt:ro", "/host", "/mnt", "ro", 0)};
  req.filter.nodes = {"n1", "n2"};
  req.filter.exclude = {"n3"};
  const std::string json = render_request_json(req);
  CHECK(json.back() == '\n');
  CHECK(ojson::parse(json) == ojson::parse(R"({"app": "web", "count": 4, "strategy": "drained",
      "nodes_limit": 0, "resources": {"cpu": 2.5, "cpu_limit": 3, "cpu_bind": false,
      "memory": 1024, "memory_limit": 2048, "storage": 10485760, "volumes": ["/host:/mnt:ro"], "extended": {}, "cpu_fit": false},
      "node_filter": {"labels": {}, "nodes": ["n1", "n2"], "exclude": ["n3"]}})"));
  CHECK(ojson::parse(json).dump(2) + "\n" == json);
}

TEST_CASE("align_columns pads by display cells: CJK two wide, ragged rows, indent and gap") {
  const std::vector<std::vector<std::string>> rows = {
      {"APP", "WEIGHT", "NOTE"}, {"应用甲", "1", "x"}, {"b", "10"}};
  CHECK(eruplan::align_columns(rows, "  ", 2) ==
        "  APP     WEIGHT  NOTE\n"
        "  应用甲  1       x\n"
        "  b       10\n");
  CHECK(eruplan::pad_cells("节点", 6) == "节点  ");
  CHECK(eruplan::pad_cells("abcdef", 3) == "abcdef");
}
