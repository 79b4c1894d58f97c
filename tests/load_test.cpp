#include "load.h"

#include <doctest/doctest.h>

#include <string>

#include "pipeline.h"

using namespace eruplan;

namespace {

struct InventoryResult {
  std::optional<Inventory> inventory;
  Diagnostics diags;
  std::string messages() const { return diags.to_string(); }
  bool says(std::string_view text) const { return messages().find(text) != std::string::npos; }
};

InventoryResult inventory(std::string text, std::string name = "nodes.yaml") {
  InventoryResult r;
  r.inventory = load_inventory(Source{std::move(name), std::move(text)}, r.diags);
  INFO(r.messages());
  return r;
}

struct RequestResult {
  std::optional<Request> request;
  Diagnostics diags;
  std::string messages() const { return diags.to_string(); }
  bool says(std::string_view text) const { return messages().find(text) != std::string::npos; }
};

RequestResult request(std::string text, const RequestOverrides& overrides = {},
                      bool count_required = false, std::string name = "request.yaml") {
  RequestResult r;
  const Source source{std::move(name), std::move(text)};
  r.request = load_request(&source, overrides, count_required, r.diags);
  return r;
}

std::size_t errors(const Diagnostics& d) {
  std::size_t n = 0;
  for (const auto& item : d.items()) n += item.severity == Severity::Error;
  return n;
}

// A valid one-node inventory with one field replaced or added (YAML text
// inserted as the node's last lines).
std::string node_with(const std::string& extra) {
  return "nodes:\n"
         "  - name: n1\n"
         "    cpu: 4\n"
         "    memory: 8Gi\n"
         "    storage: 100Gi\n"
         "    volumes: {/data0: 1000, /data1: 200}\n" +
         extra;
}

}  // namespace

TEST_CASE("inventory: every field of SPEC §2 lands in the model") {
  auto r = inventory(R"(share_base: 100
max_fragment_cores: 2
nodes:
  - name: node1
    labels: {zone: a, rack: 7, ssd: true}
    available: true
    cpu_map: {"3": 100, "1": 100, "0": 100, "2": 300}
    memory: 8Gi
    numa: {"0": "0", "1": "0", "2": "1", "3": "1"}
    numa_memory: {"0": 4Gi, "1": 4Gi}
    storage: 100Gi
    volumes: {/data1: 200, /data0: 1000}
    usage:
      cpu: 2.5
      cpu_map: {"0": 100, "2": 150}
      memory: 2Gi
      numa_memory: {"0": 1Gi}
      storage: 10Gi
      volumes: {/data0: 500}
    instances: {web: 3, db: 1}
  - name: node2
    available: false
    cpu: 2
)");
  REQUIRE(r.inventory);
  CHECK(r.diags.items().empty());
  const Inventory& inv = *r.inventory;
  CHECK(inv.share_base == 100);
  CHECK(inv.max_fragment_cores == 2);
  REQUIRE(inv.nodes.size() == 2);
  const Node& n = inv.nodes[0];
  CHECK(n.name == "node1");
  CHECK(n.labels == NamedList<std::string>{{"rack", "7"}, {"ssd", "true"}, {"zone", "a"}});
  CHECK(n.available);
  REQUIRE(n.cores.size() == 4);
  CHECK((n.core_ids.empty() && n.core_id(0) == "0"));  // ids 0..3: none kept
  CHECK(n.core_id(2) == "2");
  CHECK(n.cores[2].capacity == 300);
  CHECK(n.cores[0].used == 100);
  CHECK(n.cores[2].used == 150);
  CHECK(n.cores[1].used == 0);
  CHECK(n.cores[0].numa == 0);
  CHECK(n.cores[3].numa == 1);
  REQUIRE(n.numa_nodes.size() == 2);
  CHECK(n.numa_nodes[0].id == "0");
  CHECK(n.numa_nodes[0].memory == 4LL << 30);
  CHECK(n.numa_nodes[0].used == 1LL << 30);
  CHECK(n.numa_nodes[1].used == 0);
  CHECK(n.memory == 8LL << 30);
  CHECK(n.memory_used == 2LL << 30);
  CHECK(n.storage == 100LL << 30);
  CHECK(n.storage_used == 10LL << 30);
  CHECK(n.cpu_used == 2'500'000'000);
  REQUIRE(n.devices.size() == 2);
  CHECK(n.devices[0].name == "/data0");
  CHECK(n.devices[0].size == 1000);
  CHECK(n.devices[0].used == 500);
  CHECK(n.devices[1].name == "/data1");
  CHECK(n.instances == NamedList<std::int64_t>{{"db", 1}, {"web", 3}});
  CHECK(n.cpu_pieces() == 600);

  const Node& m = inv.nodes[1];
  CHECK_FALSE(m.available);
  // cpu: 2 with nothing per core stays a count of plain cores.
  CHECK(m.cores.empty());
  REQUIRE(m.core_count() == 2);
  CHECK(m.core_id(1) == "1");
  CHECK(m.core_available(1) == 100);
  CHECK(m.core_numa(1) == -1);
  CHECK(m.cpu_pieces() == 200);
  CHECK(m.numa_nodes.empty());
}

TEST_CASE("inventory: defaults, cpu: n at a custom share_base, usage.cpu from usage.cpu_map") {
  auto r = inventory(
      "share_base: 1000\nnodes:\n  - name: a\n    cpu: 3\n    usage: {cpu_map: {\"1\": 500, \"2\": "
      "1000}}\n"
      "  - name: b\n");
  REQUIRE(r.inventory);
  CHECK(r.inventory->max_fragment_cores == -1);
  const Node& a = r.inventory->nodes[0];
  REQUIRE(a.cores.size() == 3);
  CHECK(a.cores[0].capacity == 1000);
  CHECK(a.cpu_used == 1'500'000'000);  // 1500 pieces at 1000 per core
  const Node& b = r.inventory->nodes[1];
  CHECK(b.available);
  CHECK(b.cores.empty());
  CHECK(b.memory == 0);
  CHECK(r.inventory->nodes.size() == 2);

  auto plain = inventory("nodes: []\n");
  REQUIRE(plain.inventory);
  CHECK(plain.inventory->share_base == 100);
  CHECK(plain.inventory->nodes.empty());
}

TEST_CASE("inventory: cores come in natural id order, whatever the file order") {
  auto r = inventory(
      R"({"nodes": [{"name": "n", "cpu_map": {"10": 1, "2": 2, "x": 3, "1": 4, "0": 5, "b": 6}}]})",
      "nodes.json");
  REQUIRE(r.inventory);
  std::string order;
  for (std::size_t i = 0; i < 6; ++i) order += r.inventory->nodes[0].core_id(i) + ",";
  CHECK(order == "0,1,2,10,b,x,");
  CHECK(r.inventory->nodes[0].cores[3].capacity == 1);
}

TEST_CASE("inventory: a bad field is reported at the same line:col in JSON and YAML") {
  auto yaml = inventory("nodes:\n  - name: n1\n    memory: -5\n");
  auto json =
      inventory("{\"nodes\": [\n  {\"name\": \"n1\",\n   \"memory\": -5}\n]}", "nodes.json");
  CHECK_FALSE(yaml.inventory);
  CHECK_FALSE(json.inventory);
  CHECK(yaml.messages() == "nodes.yaml:3:13: error: nodes[0].memory: negative size -5\n");
  CHECK(json.messages() == "nodes.json:3:14: error: nodes[0].memory: negative size -5\n");

  // Same columns when the layout matches.
  auto y2 = inventory("nodes:\n- {name: n1, memory: true}\n");
  auto j2 = inventory("{\"nodes\":\n[ {\"name\": \"n1\", \"memory\": true}]}", "x.json");
  CHECK(y2.messages() ==
        "nodes.yaml:2:22: error: nodes[0].memory: expected a size (bytes, or a string like "
        "\"8Gi\"), got true\n");
  CHECK(j2.messages() ==
        "x.json:2:28: error: nodes[0].memory: expected a size (bytes, or a string like \"8Gi\"), "
        "got true\n");
}

TEST_CASE("inventory: the top level and nodes list") {
  CHECK(inventory("").says("error: the inventory is empty"));
  CHECK(inventory("share_base: 100\n").says("nodes: nodes is required"));
  CHECK(inventory("[1, 2]").says("expected a mapping (key: value pairs), got a list"));
  CHECK(inventory("nodes: {a: 1}\n")
            .says("nodes.yaml:1:8: error: nodes: expected a list, got a mapping"));
  CHECK(inventory("nodes: [5]\n").says("nodes[0]: expected a mapping"));
  CHECK(inventory("share_base: 0\nnodes: []\n")
            .says("share_base: expected a whole number from 1 to 1000000000, got 0"));
  CHECK(inventory("share_base: 1.5\nnodes: []\n")
            .says("share_base: expected a whole number, got 1.5"));
  CHECK(inventory("max_fragment_cores: -2\nnodes: []\n")
            .says("max_fragment_cores: expected a whole number >= -1, got -2"));
  CHECK(inventory("share_base: \"100\"\nnodes: []\n").says("share_base: expected a whole number"));
  auto ok = inventory("max_fragment_cores: 0\nshare_base: 1e3\nnodes: []\n");
  REQUIRE(ok.inventory);
  CHECK(ok.inventory->share_base == 1000);
  CHECK(ok.inventory->max_fragment_cores == 0);
}

TEST_CASE("inventory: node names are required, non-empty and unique") {
  CHECK(
      inventory("nodes:\n  - cpu: 1\n").says("nodes.yaml:2:5: error: nodes[0]: name is required"));
  CHECK(inventory("nodes:\n  - name: \"\"\n")
            .says("nodes[0].name: expected a non-empty string, got \"\""));
  CHECK(inventory("nodes:\n  - name: [a]\n")
            .says("nodes[0].name: expected a non-empty string, got a list"));
  auto r = inventory("nodes:\n  - name: a\n  - name: b\n  - name: a\n  - name: a\n");
  CHECK_FALSE(r.inventory);
  CHECK(r.says(
      "nodes.yaml:4:11: error: nodes[2].name: duplicate node name \"a\": nodes[0] (line 2:11) and "
      "nodes[2] (line 4:11) are both named so"));
  CHECK(r.says(
      "nodes[3].name: duplicate node name \"a\": nodes[0] (line 2:11) and nodes[3] (line 5:11)"));
  CHECK(errors(r.diags) == 2);
}

TEST_CASE("inventory: cpu and cpu_map") {
  CHECK(inventory(node_with("    cpu_map: {\"0\": 100}\n"))
            .says("nodes[0].cpu_map: give cpu or cpu_map, not both"));
  {
    // SPEC §8.1: a fractional cpu binds floor(cpu) cores and is exact elsewhere.
    auto fractional = inventory("nodes:\n  - {name: a, cpu: 15890m}\n");
    REQUIRE(fractional.inventory);
    CHECK(fractional.inventory->nodes[0].core_count() == 15);
    CHECK(fractional.inventory->nodes[0].cpu_total() == 15'890'000'000);
  }
  CHECK(inventory("nodes:\n  - {name: a, cpu: -1}\n").says("nodes[0].cpu: negative cpu -1"));
  CHECK(inventory("nodes:\n  - {name: a, cpu: 100000}\n").says("at most 4096 cores per node"));
  CHECK(inventory("nodes:\n  - {name: a, cpu_map: {\"0\": -1}}\n")
            .says("nodes[0].cpu_map.0: expected a whole number >= 0, got -1"));
  CHECK(inventory("nodes:\n  - {name: a, cpu_map: {\"0\": 1.5}}\n")
            .says("nodes[0].cpu_map.0: expected a whole number, got 1.5"));
  CHECK(inventory("nodes:\n  - {name: a, cpu_map: [1, 2]}\n")
            .says("nodes[0].cpu_map: expected a mapping"));
  CHECK(inventory("{\"nodes\": [{\"name\": \"a\", \"cpu_map\": {\"0\": 1, \"0\": 2}}]}", "n.json")
            .says("n.json:1:46: error: nodes[0].cpu_map.0: given twice (first at line 1:38)"));
  auto whole = inventory("nodes:\n  - {name: a, cpu: 4000m}\n");
  REQUIRE(whole.inventory);
  CHECK(whole.inventory->nodes[0].core_count() == 4);
}

TEST_CASE("inventory: numa and numa_memory") {
  const std::string base = "nodes:\n  - name: a\n    cpu: 4\n    memory: 8Gi\n";
  CHECK(inventory(base + "    numa: {\"0\": 0, \"1\": 0, \"2\": 1, \"3\": 1, \"7\": 1}\n    "
                         "numa_memory: {\"0\": 1Gi, \"1\": 1Gi}\n")
            .says("nodes[0].numa.7: core \"7\" is not one of the node's cores (the node's cores "
                  "are 0 to 3)"));
  // A partial map: cores 2 and 3 belong to no NUMA node.
  auto partial =
      inventory(base + "    numa: {\"0\": 0, \"1\": 0}\n    numa_memory: {\"0\": 1Gi}\n");
  REQUIRE(partial.inventory);
  const Node& p = partial.inventory->nodes[0];
  REQUIRE(p.numa_nodes.size() == 1);
  CHECK(p.cores[1].numa == 0);
  CHECK(p.cores[2].numa == -1);
  CHECK(p.cores[3].numa == -1);
  CHECK(inventory(
            base +
            "    numa: {\"0\": 0, \"1\": 0, \"2\": 1, \"3\": 1}\n    numa_memory: {\"0\": 4Gi}\n")
            .says("nodes[0].numa_memory: numa names NUMA node 1 but numa_memory gives no memory "
                  "for it"));
  CHECK(inventory(base + "    numa: {\"0\": 0, \"1\": 0, \"2\": 1, \"3\": 1}\n")
            .says("nodes[0].numa: numa names NUMA nodes 0, 1 but numa_memory gives no memory for "
                  "them"));
  CHECK(inventory(base + "    numa: {\"0\": 0, \"1\": 0, \"2\": 1, \"3\": 1}\n    numa_memory: "
                         "{\"0\": 5Gi, \"1\": 4Gi}\n")
            .says("nodes[0].numa_memory: NUMA memories add up to 9Gi, more than the node's memory "
                  "8Gi"));
  CHECK(
      inventory(base + "    numa_memory: {\"0\": 4Gi}\n")
          .says("nodes[0].numa_memory: numa_memory needs numa (which NUMA node each core is on)"));
  CHECK(inventory(base + "    numa: {\"0\": 0, \"1\": 0, \"2\": 0, \"3\": 0}\n    numa_memory: "
                         "{\"0\": 4Gi, \"2\": 1Gi}\n")
            .says("nodes[0].numa_memory.2: NUMA node \"2\" has no cores in numa (its NUMA nodes "
                  "are 0)"));
  auto ok = inventory(base +
                      "    numa: {\"0\": 1, \"1\": 10, \"2\": 2, \"3\": 1}\n    numa_memory: "
                      "{\"1\": 1Gi, \"10\": 1Gi, \"2\": 6Gi}\n");
  REQUIRE(ok.inventory);
  const Node& n = ok.inventory->nodes[0];
  REQUIRE(n.numa_nodes.size() == 3);
  CHECK(n.numa_nodes[0].id == "1");
  CHECK(n.numa_nodes[1].id == "2");
  CHECK(n.numa_nodes[2].id == "10");
  CHECK(n.cores[1].numa == 2);
  CHECK(n.cores[2].numa == 1);
  CHECK(n.numa_nodes[2].memory == 1LL << 30);
}

TEST_CASE("inventory: cores listed from a count stay within two per byte of input") {
  // Naming a core of `cpu: 4096` keeps all 4096 one by one: a small file
  // keeps 65536 so (16 such nodes); the 17th is too large, in JSON too.
  auto nodes = [](int n, bool json) {
    std::string text = json ? "{\"nodes\": [" : "nodes:\n";
    for (int i = 0; i < n; ++i)
      text += json ? std::string(i > 0 ? ", " : "") + "{\"name\": \"n" + std::to_string(i) +
                         "\", \"cpu\": 4096, \"usage\": {\"cpu_map\": {\"3\": 1}}}"
                   : "  - {name: n" + std::to_string(i) +
                         ", cpu: 4096, usage: {cpu_map: {\"3\": 1}}}\n";
    return json ? text + "]}" : text;
  };
  for (const bool json : {false, true}) {
    const InventoryResult sixteen = inventory(nodes(16, json), json ? "n.json" : "n.yaml");
    REQUIRE(sixteen.inventory);
    CHECK(sixteen.inventory->nodes[15].cores.size() == 4096);
    CHECK(sixteen.inventory->nodes[15].listed_from_count() == 4096);
    const InventoryResult seventeen = inventory(nodes(17, json), json ? "n.json" : "n.yaml");
    CHECK_FALSE(seventeen.inventory);
    CHECK(seventeen.says(
        "nodes[16].usage.cpu_map: too large: naming a core of a node given as a core "
        "count keeps its 4096 cores one by one, past the cores this file's nodes may "
        "keep so (65536: 65536, or 2 per byte of input)"));
  }
  // A node given as a cpu map names its cores itself: none counts.
  const InventoryResult mapped =
      inventory("nodes:\n  - {name: n, cpu_map: {\"0\": 100, \"1\": 100}}\n");
  REQUIRE(mapped.inventory);
  CHECK(mapped.inventory->nodes[0].listed_from_count() == 0);
}

TEST_CASE("inventory: usage above capacity is an error naming the field, for every resource") {
  const std::string numa =
      "    numa: {\"0\": 0, \"1\": 0, \"2\": 1, \"3\": 1}\n    numa_memory: {\"0\": 4Gi, \"1\": "
      "4Gi}\n";
  CHECK(inventory(node_with("    usage: {memory: 9Gi}\n"))
            .says("nodes[0].usage.memory: 9Gi used, more than the node's memory 8Gi"));
  CHECK(inventory(node_with("    usage: {storage: 101Gi}\n"))
            .says("nodes[0].usage.storage: 101Gi used, more than the node's storage 100Gi"));
  CHECK(inventory(node_with("    usage: {cpu_map: {\"1\": 101}}\n"))
            .says("nodes[0].usage.cpu_map.1: 101 pieces used, more than core \"1\" has (100)"));
  CHECK(inventory(node_with("    usage: {cpu_map: {\"9\": 1}}\n"))
            .says("nodes[0].usage.cpu_map.9: core \"9\" is not one of the node's cores"));
  // SPEC §8.1: usage.cpu may exceed the node's CPU (memory mode oversells it).
  CHECK(inventory(node_with("    usage: {cpu: 4.5}\n")).inventory->nodes[0].cpu_used ==
        4'500'000'000);
  CHECK(
      inventory(node_with("    usage: {volumes: {/data1: 201}}\n"))
          .says("nodes[0].usage.volumes./data1: 201 used, more than device \"/data1\"'s size 200"));
  CHECK(
      inventory(node_with("    usage: {volumes: {/data9: 1}}\n"))
          .says(
              "nodes[0].usage.volumes./data9: device \"/data9\" is not one of the node's volumes"));
  CHECK(
      inventory(node_with(numa + "    usage: {numa_memory: {\"1\": 5Gi}}\n"))
          .says("nodes[0].usage.numa_memory.1: 5Gi used, more than NUMA node \"1\"'s memory 4Gi"));
  CHECK(
      inventory(node_with("    usage: {numa_memory: {\"0\": 1Gi}}\n"))
          .says("nodes[0].usage.numa_memory.0: NUMA node \"0\" is unknown: the node has no numa"));
  // At capacity is fine; oversold cores count in full.
  auto full = inventory(
      "nodes:\n  - {name: a, cpu_map: {\"0\": 300}, memory: 1Gi, usage: {cpu: 3, memory: 1Gi}}\n");
  CHECK(full.inventory);
}

TEST_CASE("inventory: labels, instances, volumes and available") {
  CHECK(inventory(node_with("    labels: {zone: [a]}\n"))
            .says("nodes[0].labels.zone: expected a string or number, got a list"));
  CHECK(inventory(node_with("    instances: {web: -1}\n"))
            .says("nodes[0].instances.web: expected a whole number >= 0, got -1"));
  CHECK(inventory(node_with("    instances: {web: many}\n"))
            .says("nodes[0].instances.web: expected a whole number >= 0, got many"));
  CHECK(inventory(node_with("    available: yes\n"))
            .says("nodes[0].available: expected true or false, got yes"));
  CHECK(inventory(node_with("    available: \"true\"\n"))
            .says("nodes[0].available: expected true or false, got \"true\""));
  CHECK(inventory("nodes:\n  - {name: a, volumes: {/d: -1Gi}}\n")
            .says("nodes[0].volumes./d: negative size -1Gi"));
  CHECK(inventory("nodes:\n  - {name: a, storage: 1.5}\n")
            .says("nodes[0].storage: size 1.5 is not a whole number of bytes"));
  CHECK(inventory("nodes:\n  - {name: a, memory: 10Ei}\n")
            .says("nodes[0].memory: size 10Ei overflows"));
  CHECK(inventory("nodes:\n  - {name: a, memory: .nan}\n")
            .says("nodes[0].memory: expected a size (bytes, or a string like \"8Gi\"), got .nan"));
  CHECK(inventory("{\"nodes\": [{\"name\": \"a\", \"memory\": 1e999}]}", "n.json")
            .says("nodes[0].memory: size 1e999 overflows"));
  auto r = inventory(node_with("    labels: {b: 2, a: x}\n    instances: {z: 1, a: 0}\n"));
  REQUIRE(r.inventory);
  CHECK(r.inventory->nodes[0].labels.front().first == "a");
  CHECK(r.inventory->nodes[0].instances.front() == std::pair<std::string, std::int64_t>{"a", 0});
}

TEST_CASE("inventory: unknown fields are warnings, not errors") {
  auto r = inventory("nodes:\n  - name: a\n    memroy: 8Gi\n    colour: blue\nextra: 1\n");
  REQUIRE(r.inventory);
  CHECK_FALSE(r.diags.has_errors());
  CHECK(r.says(
      "nodes.yaml:3:5: warning: nodes[0].memroy: unknown field, ignored; did you mean memory?"));
  CHECK(
      r.says("nodes.yaml:4:5: warning: nodes[0].colour: unknown field, ignored (known fields: name "
             "labels"));
  CHECK(r.says("nodes.yaml:5:1: warning: extra: unknown field"));
  CHECK(inventory("nodes:\n  - name: a\n    usage: {cpus: 1}\n")
            .says("warning: nodes[0].usage.cpus: unknown field, ignored; did you mean cpu?"));
}

TEST_CASE("inventory: a known field given twice is an error") {
  auto r = inventory("{\"nodes\": [{\"name\": \"a\", \"name\": \"b\"}]}", "n.json");
  CHECK_FALSE(r.inventory);
  CHECK(r.says("n.json:1:26: error: nodes[0].name: given twice (first at line 1:21)"));
}

TEST_CASE("inventory: several problems are reported at once") {
  auto r = inventory(R"(share_base: -1
nodes:
  - name: a
    memory: -1
    storage: lots
    cpu: -1.5
  - name: a
    usage: {memory: 1Gi}
    instances: {web: -3}
)");
  CHECK_FALSE(r.inventory);
  CHECK(errors(r.diags) == 7);
  CHECK(r.says("nodes.yaml:1:13: error: share_base"));
  CHECK(r.says("nodes.yaml:4:13: error: nodes[0].memory: negative size -1"));
  CHECK(r.says("nodes.yaml:5:14: error: nodes[0].storage"));
  CHECK(r.says("nodes.yaml:6:10: error: nodes[0].cpu"));
  CHECK(r.says(
      "nodes.yaml:8:21: error: nodes[1].usage.memory: 1Gi used, more than the node's memory 0"));
  CHECK(r.says("nodes.yaml:9:22: error: nodes[1].instances.web"));
  CHECK(r.says("nodes.yaml:7:11: error: nodes[1].name: duplicate node name \"a\""));
}

TEST_CASE("inventory: malformed files") {
  auto json = inventory("{\"nodes\": [\n  {\"name\": \"a\",}\n]}", "n.json");
  CHECK(json.messages().find(
            "n.json:2:16: error: malformed JSON: expected a string key after ',', found '}'") == 0);
  auto yaml = inventory("nodes:\n  - name: a\n   - name: b\n");
  CHECK(yaml.messages().find("nodes.yaml:3:") == 0);
  CHECK(yaml.says("malformed YAML"));
}

TEST_CASE("request: every field of SPEC §3") {
  auto r = request(R"(app: web
count: 3
strategy: Communism
nodes_limit: 2
resources:
  cpu: 1.5
  cpu_limit: 2
  cpu_bind: false
  memory: 512Mi
  memory_limit: 1Gi
  storage: 10Gi
  volumes: ["AUTO:/data:rw:100", "AUTO:/scratch:rwm:1Gi", "AUTO:/tmp:rw:0", "/host:/mnt:ro"]
node_filter:
  labels: {zone: a, tier: 1}
  nodes: [node1, node2]
  exclude: [node3]
)");
  REQUIRE(r.request);
  CHECK(r.diags.items().empty());
  const Request& q = *r.request;
  CHECK(q.app == "web");
  CHECK(q.count == 3);
  CHECK(q.strategy == Strategy::Auto);
  CHECK(q.nodes_limit == 2);
  CHECK(q.cpu == 1'500'000'000);
  CHECK(q.cpu_limit == 2'000'000'000);
  CHECK_FALSE(q.cpu_bind);
  CHECK(q.memory == 512LL << 20);
  CHECK(q.memory_limit == 1LL << 30);
  CHECK(q.storage == 10LL << 30);
  REQUIRE(q.volumes.size() == 4);
  CHECK(q.volumes[0].binding == "AUTO:/data:rw:100");
  CHECK(q.volumes[0].source == "AUTO");
  CHECK(q.volumes[0].destination == "/data");
  CHECK(q.volumes[0].flags == "rw");
  CHECK(q.volumes[0].size == 100);
  CHECK(q.volumes[1].monopoly());
  CHECK(q.volumes[1].size == 1LL << 30);
  CHECK(q.volumes[2].size == 0);
  CHECK_FALSE(q.volumes[3].scheduled());
  CHECK(q.volumes[3].flags == "ro");
  CHECK(q.filter.labels == NamedList<std::string>{{"tier", "1"}, {"zone", "a"}});
  CHECK(q.filter.nodes == std::vector<std::string>{"node1", "node2"});
  CHECK(q.filter.exclude == std::vector<std::string>{"node3"});
  CHECK(q.cpu_origin.file == "request.yaml");
  CHECK(q.cpu_origin.line == 6);
  CHECK(q.cpu_origin.col == 8);
  CHECK(q.cpu_origin.path == "resources.cpu");
}

TEST_CASE("request: strategies, case-insensitive, with aliases") {
  CHECK(request("strategy: FILL\n").request->strategy == Strategy::Fill);
  CHECK(request("strategy: average\n").request->strategy == Strategy::Each);
  CHECK(request("strategy: each\n").request->strategy == Strategy::Each);
  CHECK(request("strategy: Global\n").request->strategy == Strategy::Global);
  CHECK(request("strategy: drained\n").request->strategy == Strategy::Drained);
  CHECK(request("strategy: auto\n").request->strategy == Strategy::Auto);
  auto bad = request("strategy: spread\n");
  CHECK_FALSE(bad.request);
  CHECK(bad.messages() ==
        "request.yaml:1:11: error: strategy: unknown strategy \"spread\"; expected auto, fill, "
        "each, global, drained or score (communism = auto, average = each)\n");
}

TEST_CASE("request: count and nodes_limit") {
  auto missing = request("app: web\n", {}, true);
  CHECK_FALSE(missing.request);
  CHECK(missing.says("request.yaml: error: count: count is required for plan"));
  auto capacity = request("app: web\n", {}, false);
  REQUIRE(capacity.request);
  CHECK(capacity.request->count == 0);
  CHECK(request("count: 0\n")
            .says("request.yaml:1:8: error: count: expected a whole number > 0, got 0"));
  CHECK(request("count: -2\n").says("count: expected a whole number > 0, got -2"));
  CHECK(request("count: 2.5\n").says("count: expected a whole number, got 2.5"));
  CHECK(request("count: 99999999999999999999\n")
            .says("count: number 99999999999999999999 is out of range"));
  CHECK(request("nodes_limit: -1\n").says("nodes_limit: expected a whole number >= 0, got -1"));
  CHECK(request("{\"count\": \"3\"}", {}, false, "r.json")
            .says("r.json:1:11: error: count: expected a whole number > 0, got \"3\""));
}

TEST_CASE("request: volume bindings") {
  auto r = request(
      "resources:\n  volumes: [\"AUTO:/a:rw:1\", \"AUTO:/data:rw:-5\", \"x\", \":/d\", "
      "\"AUTO:/m:m\", "
      "\"AUTO:/m:rwm:0\", \"a:b:c:d:e\", \"AUTO:/s:100\", \"AUTO:/z:rw:2Gb\", [a]]\n");
  CHECK_FALSE(r.request);
  CHECK(r.says(
      "request.yaml:2:29: error: resources.volumes[1]: \"AUTO:/data:rw:-5\": negative size -5"));
  CHECK(r.says("resources.volumes[2]: \"x\": expected SRC:DST[:FLAGS[:SIZE]], got 1 part"));
  CHECK(r.says("resources.volumes[3]: \":/d\": SRC is empty"));
  CHECK(r.says("resources.volumes[4]: \"AUTO:/m:m\": flag m (monopoly) needs a SIZE > 0"));
  CHECK(r.says("resources.volumes[5]: \"AUTO:/m:rwm:0\": flag m (monopoly) needs a SIZE > 0"));
  CHECK(
      r.says("resources.volumes[6]: \"a:b:c:d:e\": expected SRC:DST[:FLAGS[:SIZE]], got 5 parts"));
  CHECK(r.says("resources.volumes[7]: \"AUTO:/s:100\": FLAGS \"100\" must be letters"));
  CHECK(r.says("resources.volumes[8]: \"AUTO:/z:rw:2Gb\": expected a size"));
  CHECK(r.says("resources.volumes[9]: expected a non-empty string, got a list"));
  CHECK(errors(r.diags) == 9);
  CHECK(request("resources: {volumes: \"AUTO:/a\"}\n").says("resources.volumes: expected a list"));
}

TEST_CASE("request: normalisation as Eru") {
  SUBCASE("a missing request takes its limit") {
    auto r = request("resources: {cpu_limit: 2, memory_limit: 1Gi}\n");
    REQUIRE(r.request);
    CHECK(r.request->cpu == 2'000'000'000);
    CHECK(r.request->memory == 1LL << 30);
    CHECK(r.request->cpu_origin.path == "resources.cpu_limit");
    CHECK(r.request->cpu_origin.line == 1);
  }
  SUBCASE("a limit below the request is raised to it") {
    auto r = request("resources: {cpu: 2, cpu_limit: 1, memory: 1Gi, memory_limit: 512Mi}\n");
    REQUIRE(r.request);
    CHECK(r.request->cpu_limit == 2'000'000'000);
    CHECK(r.request->memory_limit == 1LL << 30);
  }
  SUBCASE("with cpu_bind, cpu is raised to cpu_limit") {
    auto r = request("resources:\n  cpu: 1\n  cpu_limit: 1.5\n  cpu_bind: true\n");
    REQUIRE(r.request);
    CHECK(r.request->cpu == 1'500'000'000);
    CHECK(r.request->cpu_origin.path == "resources.cpu_limit");
    CHECK(r.request->cpu_origin.line == 3);
  }
  SUBCASE("without cpu_bind, cpu stays below cpu_limit") {
    auto r = request("resources:\n  cpu: 1\n  cpu_limit: 1.5\n");
    REQUIRE(r.request);
    CHECK(r.request->cpu == 1'000'000'000);
    CHECK(r.request->cpu_limit == 1'500'000'000);
  }
  SUBCASE("with cpu_bind, cpu must be > 0") {
    auto r = request("resources:\n  memory: 1Gi\n  cpu_bind: true\n");
    CHECK_FALSE(r.request);
    CHECK(r.says("request.yaml:3:13: error: resources.cpu_bind: with cpu_bind, cpu must be > 0"));
  }
}

TEST_CASE("request: wrong types and unknown fields") {
  auto r = request(
      "app: [web]\nresources: {cpu: fast, memory: {a: 1}, cpu_bind: 1, cpus: 2}\nnode_filter: "
      "{nodes: a}\n");
  CHECK_FALSE(r.request);
  CHECK(r.says("app: expected a non-empty string, got a list"));
  CHECK(
      r.says("resources.cpu: expected a CPU amount (cores like 1.5, or millicores like \"1500m\"), "
             "got fast"));
  CHECK(
      r.says("resources.memory: expected a size (bytes, or a string like \"8Gi\"), got a mapping"));
  CHECK(r.says("resources.cpu_bind: expected true or false, got 1"));
  CHECK(r.says("warning: resources.cpus: unknown field, ignored; did you mean cpu?"));
  CHECK(r.says("node_filter.nodes: expected a list, got a"));
  CHECK(errors(r.diags) == 5);

  auto empty = request("");
  REQUIRE(empty.request);
  CHECK(empty.request->strategy == Strategy::Auto);
  CHECK(request("- a\n").says("expected a mapping (key: value pairs), got a list"));
}

TEST_CASE("request: overrides replace the file's fields") {
  RequestOverrides o;
  CHECK(o.empty());
  o.set("--app", "db");
  o.set("--count", "4");
  o.set("--strategy", "Fill");
  o.set("--nodes-limit", "1");
  o.set("--cpu", "500m");
  o.set("--cpu-bind", "yes");
  o.set("--memory", "1Gi");
  o.set("--storage", "1e9");
  o.set("--volume", "AUTO:/v:rw:10");
  o.set("--label", "zone=b");
  o.set("--label", "ssd=true");
  o.set("--node", "x");
  o.set("--exclude", "y");
  o.set("--exclude", "z");
  CHECK_FALSE(o.empty());
  auto r = request(
      "app: web\ncount: 2\nresources:\n  cpu: 2\n  volumes: [\"AUTO:/a:rw:1\", \"AUTO:/b:rw:1\"]\n"
      "node_filter: {labels: {zone: a}, nodes: [n1]}\n",
      o, true);
  REQUIRE(r.request);
  const Request& q = *r.request;
  CHECK(q.app == "db");
  CHECK(q.count == 4);
  CHECK(q.strategy == Strategy::Fill);
  CHECK(q.nodes_limit == 1);
  CHECK(q.cpu == 500'000'000);
  CHECK(q.cpu_bind);
  CHECK(q.memory == 1LL << 30);
  CHECK(q.storage == 1'000'000'000);
  REQUIRE(q.volumes.size() == 1);
  CHECK(q.volumes[0].destination == "/v");
  CHECK(q.filter.labels == NamedList<std::string>{{"ssd", "true"}, {"zone", "b"}});
  CHECK(q.filter.nodes == std::vector<std::string>{"x"});
  CHECK(q.filter.exclude == std::vector<std::string>{"y", "z"});
  CHECK(q.cpu_origin.file == "<command line>");
  CHECK(q.cpu_origin.path == "--cpu");
}

TEST_CASE("request: overrides alone form the request") {
  RequestOverrides o;
  o.set("--count", "3");
  o.set("--memory", "512Mi");
  o.set("--cpu-bind", "FALSE");
  Diagnostics diags;
  auto r = load_request(nullptr, o, true, diags);
  REQUIRE(r);
  CHECK(r->count == 3);
  CHECK(r->memory == 512LL << 20);
  CHECK(r->memory_limit == 512LL << 20);
  CHECK_FALSE(r->cpu_bind);

  Diagnostics none;
  CHECK_FALSE(load_request(nullptr, RequestOverrides{}, true, none));
  CHECK(none.to_string() ==
        "<command line>: error: --count: count is required for plan (how many instances to "
        "deploy; set count or pass --count)\n");
}

TEST_CASE("request: bad overrides name the flag") {
  RequestOverrides o;
  o.set("--count", "0");
  o.set("--strategy", "nope");
  o.set("--nodes-limit", "-1");
  o.set("--cpu", "1.2.3");
  o.set("--cpu-bind", "maybe");
  o.set("--memory", "-5");
  o.set("--storage", "5GB");
  o.set("--volume", "AUTO");
  o.set("--label", "zone");
  o.set("--label", "=a");
  o.set("--label", "k=v");
  o.set("--label", "k=w");
  o.set("--node", "");
  Diagnostics d;
  CHECK_FALSE(load_request(nullptr, o, false, d));
  const std::string m = d.to_string();
  CHECK(m.find("<command line>: error: --count: expected a whole number > 0, got 0") !=
        std::string::npos);
  CHECK(m.find("--strategy: unknown strategy \"nope\"") != std::string::npos);
  CHECK(m.find("--nodes-limit: expected a whole number >= 0, got -1") != std::string::npos);
  CHECK(m.find("--cpu: expected a CPU amount") != std::string::npos);
  CHECK(m.find("--cpu-bind: expected true, false, 1, 0, yes or no, got \"maybe\"") !=
        std::string::npos);
  CHECK(m.find("<command line>: error: --memory: negative size -5") != std::string::npos);
  CHECK(m.find("--storage: expected a size") != std::string::npos);
  CHECK(m.find("--volume: \"AUTO\": expected SRC:DST[:FLAGS[:SIZE]], got 1 part") !=
        std::string::npos);
  CHECK(m.find("--label: expected k=v (e.g. zone=a), got \"zone\"") != std::string::npos);
  CHECK(m.find("--label: expected k=v (e.g. zone=a), got \"=a\"") != std::string::npos);
  CHECK(m.find("--label: label k given twice (k=v, k=w)") != std::string::npos);
  CHECK(m.find("--node: expected a node name, got \"\"") != std::string::npos);
  CHECK(errors(d) == 12);
}

TEST_CASE("check_inputs: with cpu_bind, cpu x share_base must be whole pieces") {
  Inventory inv;
  inv.share_base = 100;
  auto r = request("resources:\n  cpu: 0.295\n  cpu_bind: true\n");
  REQUIRE(r.request);
  Diagnostics d;
  check_inputs(inv, *r.request, d);
  CHECK(d.to_string() ==
        "request.yaml:2:8: error: resources.cpu: cpu 0.295 at share_base 100 is 29.5 pieces; cpu x "
        "share_base "
        "must be a whole number\n");

  auto exact = request("resources:\n  cpu: 0.29\n  cpu_bind: true\n");
  Diagnostics ok;
  check_inputs(inv, *exact.request, ok);
  CHECK(ok.items().empty());
  CHECK(cpu_request_pieces(exact.request->cpu, inv.share_base) == 29);

  auto unbound = request("resources:\n  cpu: 0.295\n");
  Diagnostics fine;
  check_inputs(inv, *unbound.request, fine);
  CHECK(fine.items().empty());

  inv.share_base = 3;
  RequestOverrides o;
  o.set("--cpu", "1.5");
  o.set("--cpu-bind", "true");
  Diagnostics d3;
  auto flagged = load_request(nullptr, o, false, d3);
  REQUIRE(flagged);
  check_inputs(inv, *flagged, d3);
  CHECK(d3.to_string() ==
        "<command line>: error: --cpu: cpu 1.5 at share_base 3 is 4.5 pieces; cpu x share_base "
        "must be a whole number\n");
}

TEST_CASE("check_inputs: a filter naming a node the inventory lacks is a warning") {
  auto inv = inventory("nodes:\n  - name: a\n  - name: b\n");
  auto r = request("node_filter: {nodes: [a, c], exclude: [d]}\n");
  REQUIRE(inv.inventory);
  REQUIRE(r.request);
  Diagnostics d;
  check_inputs(*inv.inventory, *r.request, d);
  CHECK_FALSE(d.has_errors());
  // Each at the place that names it.
  CHECK(d.to_string() ==
        "request.yaml:1:26: warning: node_filter.nodes[1]: node \"c\" is not in the inventory\n"
        "request.yaml:1:40: warning: node_filter.exclude[0]: node \"d\" is not in the "
        "inventory\n");
}

TEST_CASE("request: a field a flag overrides is not read from the file") {
  RequestOverrides o;
  o.set("--count", "2");
  o.set("--memory", "1Gi");
  o.set("--strategy", "fill");
  const Source source{"r.yaml",
                      "app: web\ncount: 0\nstrategy: bogus\nresources: {memory: -1, cpu: 1}\n",
                      InputFormat::Auto};
  Diagnostics diags;
  auto req = load_request(&source, o, true, diags);
  REQUIRE(req);
  CHECK_FALSE(diags.has_errors());
  CHECK(req->count == 2);
  CHECK(req->strategy == Strategy::Fill);
  CHECK(req->memory == 1024LL * 1024 * 1024);
  CHECK(req->cpu == kNanoPerCore);  // not overridden: read from the file
}

// --- A JSON inventory read a few nodes at a time (load_inventory_streamed) ---

namespace {

// Six nodes of every kind the schema has, as JSON; `extra` goes into the
// root object first, `node_extra` into the fourth node.
std::string streamed_inventory(const std::string& extra = "", const std::string& node_extra = "") {
  return "{" + extra +
         R"("share_base": 10, "max_fragment_cores": 2, "nodes": [
  {"name": "a", "cpu": 4, "memory": "8Gi", "labels": {"zone": "z1", "disk": "ssd"},
   "usage": {"cpu": "1500m", "memory": "1Gi"}, "instances": {"web": 2}},
  {"name": "c", "cpu_map": {"0": 10, "1": 10, "2": 20}, "memory": 1024, "numa": {"0": "n0", "1": "n0", "2": "n1"},
   "numa_memory": {"n0": 512, "n1": 512}, "usage": {"cpu_map": {"2": 5}, "numa_memory": {"n1": 100}}},
  {"name": "b", "cpu": "2.5", "memory": "1Gi", "storage": "10Gi", "volumes": {"/d0": "5Gi", "/d1": "1Gi"},
   "usage": {"volumes": {"/d0": "1Gi"}, "storage": "2Gi"}, "available": false},
  {"name": "d\u00e9", "cpu": 1, "memory": "1Gi", "extended": {"nvidia.com/gpu": 4},
   "usage": {"extended": {"nvidia.com/gpu": 1}}, "max_instances": 7,
   "taints": [{"key": "k", "value": "v", "effect": "NoSchedule"}])" +
         node_extra + R"(},
  {"name": "e", "cpu": 8, "memory": "16Gi",
   "workloads": [{"id": "w1", "app": "web", "cpu": 1, "memory": "1Gi"}, {"id": "w2", "app": "db", "memory": "2Gi"}]},
  {"name": "f", "cpu": 8, "memory": "16Gi", "workloads": [{"id": "w3", "app": "web", "memory": "1Gi"}]}
]}
)";
}

std::string as_json(const Inventory& inventory) {
  return render_inventory(inventory, OutputFormat::Json, Units::Bytes);
}

}  // namespace

TEST_CASE("streamed loading: the same Inventory as the whole document, at any slice size") {
  const std::string text = streamed_inventory();
  Diagnostics diags;
  const auto whole = load_inventory(Source{"nodes.json", text}, diags);
  REQUIRE(whole);
  CHECK(diags.to_string().empty());
  CHECK(whole->nodes.size() == 6);
  CHECK(whole->share_base == 10);
  for (std::size_t chunk :
       {std::size_t{1}, std::size_t{200}, std::size_t{600}, kStreamChunkBytes}) {
    CAPTURE(chunk);
    const auto streamed = load_inventory_streamed(Source{"nodes.json", text}, chunk);
    REQUIRE(streamed);
    CHECK(streamed->share_base == 10);
    CHECK(streamed->max_fragment_cores == 2);
    REQUIRE(streamed->nodes.size() == 6);
    CHECK(streamed->nodes[3].name == "d\xC3\xA9");
    CHECK(streamed->nodes[1].cores.size() == 3);
    CHECK(streamed->nodes[4].workloads.size() == 2);
    CHECK(as_json(*streamed) == as_json(*whole));
  }
  // The root's members in another order, and the format given, read the same.
  const std::string reordered =
      R"({"nodes": [{"name": "x", "cpu": 2, "memory": "1Gi"}], "share_base": 1000})";
  const auto r = load_inventory_streamed(Source{"n", reordered, InputFormat::Json}, 1);
  REQUIRE(r);
  CHECK(r->share_base == 1000);
  REQUIRE(r->nodes.size() == 1);
  CHECK(r->nodes[0].cpu_pieces() == 2000);
  const auto empty = load_inventory_streamed(Source{"n.json", R"({"nodes": []})"});
  REQUIRE(empty);
  CHECK(empty->nodes.empty());
}

TEST_CASE("streamed loading gives up on anything to report, and the whole document reports it") {
  const auto gives_up = [](const std::string& text, const std::string& name = "nodes.json") {
    CAPTURE(text);
    return !load_inventory_streamed(Source{name, text}, 1).has_value();
  };
  CHECK(gives_up(streamed_inventory("", R"(, "colour": "red")")));       // a warning
  CHECK(gives_up(streamed_inventory("", R"(, "memory": "1Gi")")));       // given twice
  CHECK(gives_up(streamed_inventory("", R"(, "cpu_map": {"0": 10})")));  // cpu and cpu_map
  CHECK(gives_up(streamed_inventory(R"("kind": "List", )")));            // another root field
  CHECK(gives_up(streamed_inventory(R"("share_base": 5, )")));           // share_base twice
  CHECK(gives_up(R"({"share_base": 0, "nodes": []})"));                  // out of range
  CHECK(gives_up(R"({"nodes": [{"name": "a", "cpu": 1}, {"name": "a", "cpu": 1}]})"));
  CHECK(gives_up(R"({"nodes": [{"name": "b", "cpu": 1}, {"name": "a"}, {"name": "b"}]})"));
  CHECK(gives_up(R"({"nodes": [{"name": "a", "workloads": [{"id": "w", "app": "x"}]},
                   {"name": "b", "workloads": [{"id": "w", "app": "x"}]}]})"));
  CHECK(gives_up(R"({"nodes": [{"name": "a"} {"name": "b"}]})"));  // a missing comma
  CHECK(gives_up(R"({"nodes": [{"name": "a"}, 7]})"));
  CHECK(gives_up(R"({"nodes": [{"name": "a", "cpu": 1,}]})"));  // malformed inside a slice
  CHECK(gives_up(R"({"nodes": [{"name": "a"}]} x)"));
  CHECK(gives_up(R"({"nodes": [{"name": "a"}]})", "nodes.yaml"));
  CHECK(gives_up(R"({nodes: [{name: a}]})"));  // YAML flow style
  CHECK(gives_up(R"({"nod\u0065s": []})"));
  CHECK(gives_up(R"({"share_base": 10})"));
  CHECK(gives_up(std::string("{\"nodes\": [{\"name\": \"a\0\"}]}", 25)));

  // What it gave up on, load_inventory reports as before.
  const InventoryResult dup = inventory(
      R"({"nodes": [{"name": "a", "cpu": 1, "memory": 1}, {"name": "a", "cpu": 1, "memory": 1}]})",
      "nodes.json");
  CHECK_FALSE(dup.inventory);
  CHECK(dup.messages() ==
        "nodes.json:1:59: error: nodes[1].name: duplicate node name \"a\": nodes[0] (line 1:21) "
        "and nodes[1] (line 1:59) are both named so\n");
  const InventoryResult warned =
      inventory(streamed_inventory("", R"(, "colour": "red")"), "nodes.json");
  REQUIRE(warned.inventory);
  CHECK(warned.inventory->nodes.size() == 6);
  CHECK(warned.says("nodes[3].colour: unknown field, ignored"));
}
