// The request schema table (request_fields.h) drives the file reader's
// known fields, the request flags and the fixture runner's options.
#include "request_fields.h"

#include <doctest/doctest.h>

#include <set>
#include <string>

#include "fixture.h"

using namespace eruplan;

TEST_CASE("request fields: every flag of the table is a request flag, given once set") {
  std::set<std::string_view> flags;
  for_each_flag_field([&flags](const FieldSpec& spec) {
    CAPTURE(spec.flag);
    RequestOverrides o;
    CHECK_FALSE(o.given(spec.flag));
    CHECK(o.set(spec.flag, "x"));
    CHECK(o.given(spec.flag));
    CHECK_FALSE(o.empty());
    flags.insert(spec.flag);
  });
  CHECK(flags == std::set<std::string_view>{"--app", "--count", "--strategy", "--nodes-limit",
                                            "--cpu", "--cpu-bind", "--memory", "--storage",
                                            "--volume", "--label", "--node", "--exclude"});
  RequestOverrides o;
  CHECK_FALSE(o.set("--scoring-typo", "x"));
  CHECK_FALSE(o.given("--jobs"));
  CHECK(o.empty());
}

TEST_CASE("request fields: the file reader knows exactly the table's fields") {
  Diagnostics diags;
  const Source source{"r.yaml",
                      "app: web\ncount: 1\nresources: {memory: 1Mi, cpu_fitt: true}\n"
                      "node_filter: {nodez: [a]}\nbogus_field_name: 1\n"};
  const auto request = load_request(&source, {}, true, diags);
  REQUIRE(request.has_value());
  std::string known_top = " (known fields:";
  for (const FieldSpec& spec : kRequestFields) known_top += ' ' + std::string(spec.name);
  CHECK(
      diags.to_string() ==
      "r.yaml:5:1: warning: bogus_field_name: unknown field, ignored" + known_top +
          ")\n"
          "r.yaml:3:26: warning: resources.cpu_fitt: unknown field, ignored; did you mean "
          "cpu_fit?\n"
          "r.yaml:4:15: warning: node_filter.nodez: unknown field, ignored; did you mean nodes?\n");
}

TEST_CASE("request fields: a flag replaces its field, which is then not read at all") {
  Diagnostics diags;
  const Source source{"r.yaml", "app: web\ncount: -1\nresources: {memory: bad}\n"};
  RequestOverrides o;
  CHECK(o.set("--count", "3"));
  CHECK(o.set("--memory", "5Mi"));
  const auto request = load_request(&source, o, true, diags);
  REQUIRE(request.has_value());
  CHECK(diags.items().empty());
  CHECK(request->count == 3);
  CHECK(request->memory == 5 * 1024 * 1024);
}

TEST_CASE("request fields: a fixture case's options are the fields that have a flag") {
  std::vector<RunOptions> calls;
  auto run = [&calls](const RunOptions& o) {
    calls.push_back(o);
    return RunResult{};
  };
  const FixtureResult r = run_fixture(
      "c.yaml",
      "nodes: {nodes: []}\noptions: {count: 2, nodes_limit: 1, cpu_bind: true, volumes: [a:b], "
      "labels: {zone: x}, exclude: [n2]}\n",
      [](const std::string&) { return std::nullopt; }, run);
  CHECK(r.differences == std::vector<std::string>{});
  REQUIRE(calls.size() == 1);
  const RequestOverrides& o = calls[0].overrides;
  auto values = [&o](std::string_view flag) {
    const auto v = o.values(flag);
    return std::vector<std::string>(v.begin(), v.end());
  };
  CHECK(values("--count") == std::vector<std::string>{"2"});
  CHECK(values("--nodes-limit") == std::vector<std::string>{"1"});
  CHECK(values("--cpu-bind") == std::vector<std::string>{"true"});
  CHECK(values("--volume") == std::vector<std::string>{"a:b"});
  CHECK(values("--label") == std::vector<std::string>{"zone=x"});
  CHECK(values("--exclude") == std::vector<std::string>{"n2"});
  CHECK_FALSE(o.given("--app"));
  const FixtureResult bad = run_fixture(
      "c.yaml", "nodes: {nodes: []}\noptions: {cnt: 2}\n",
      [](const std::string&) { return std::nullopt; }, run);
  CHECK(bad.differences ==
        std::vector<std::string>{
            "malformed case: c.yaml:2:11: error: options.cnt: unknown field; did you mean count?"});
  const FixtureResult far = run_fixture(
      "c.yaml", "nodes: {nodes: []}\noptions: {replicas: 2}\n",
      [](const std::string&) { return std::nullopt; }, run);
  CHECK(far.differences ==
        std::vector<std::string>{
            "malformed case: c.yaml:2:11: error: options.replicas: unknown field (known fields: "
            "plans app count strategy nodes_limit cpu cpu_bind memory storage volumes labels "
            "nodes exclude atomic explain preempt image_locality queue_sort model seed cycles)"});
}
