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
