// write_plan: one plan as SPEC §6 writes it, shared by plan, capacity and
// share documents. Cores by index, each once; bindings written alike share
// one key; volume shares of one binding and device summed.
#include "plan_writer.h"

#include <doctest/doctest.h>

#include <string>

#include "json_writer.h"

using namespace eruplan;

namespace {

Node two_core_node() {
  Node node;
  node.cores = {Core{10, 0, 0}, Core{10, 0, 0}};
  node.numa_nodes = {NumaNode{"n0", 1024, 0}};
  node.devices = {Device{"/data0", 100, 0}, Device{"/data1", 100, 0}};
  return node;
}

std::string written(const Plan& plan, const Node& node, const Request& request) {
  std::string out;
  JsonWriter w(out);
  PlanShares shares(request);
  write_plan(w, plan, node, request, shares);
  return out;
}

}  // namespace

TEST_CASE("write_plan writes cores by index once each, numa_node and volumes by binding") {
  const Node node = two_core_node();
  Request request;
  request.volumes.push_back(VolumeRequest{"AUTO:/a:rw:10", "AUTO", "/a", "rw", 10});
  request.volumes.push_back(VolumeRequest{"AUTO:/b:rw:20", "AUTO", "/b", "rw", 20});
  Plan plan;
  plan.cpu = {CoreShare{1, 10}, CoreShare{0, 3}, CoreShare{1, 2}};  // out of order
  plan.numa = 0;
  plan.volumes = {VolumeShare{1, 1, 20}, VolumeShare{0, 0, 4}, VolumeShare{0, 0, 6}};
  CHECK(written(plan, node, request) ==
        "{\n"
        "  \"cpu_map\": {\n"
        "    \"0\": 3,\n"
        "    \"1\": 12\n"
        "  },\n"
        "  \"numa_node\": \"n0\",\n"
        "  \"volumes\": {\n"
        "    \"AUTO:/a:rw:10\": {\n"
        "      \"/data0\": 10\n"
        "    },\n"
        "    \"AUTO:/b:rw:20\": {\n"
        "      \"/data1\": 20\n"
        "    }\n"
        "  }\n"
        "}");
}

TEST_CASE("write_plan gives bindings written alike one key") {
  const Node node = two_core_node();
  Request request;
  request.volumes.push_back(VolumeRequest{"AUTO:/a:rw:10", "AUTO", "/a", "rw", 10});
  request.volumes.push_back(VolumeRequest{"AUTO:/a:rw:10", "AUTO", "/a", "rw", 10});
  Plan plan;
  plan.volumes = {VolumeShare{0, 0, 10}, VolumeShare{1, 1, 10}};
  CHECK(written(plan, node, request) ==
        "{\n"
        "  \"volumes\": {\n"
        "    \"AUTO:/a:rw:10\": {\n"
        "      \"/data0\": 10,\n"
        "      \"/data1\": 10\n"
        "    }\n"
        "  }\n"
        "}");
  CHECK(written(Plan{}, node, request) == "{}");
}
