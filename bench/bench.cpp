// eruplan's benchmark: each stage timed on its own (load, capacity pass,
// strategy pass, render) over the synthetic inventories of gen.h. Run by hand
// through bench/run.sh (a Release build), never from ctest.
//
//   (a) 10,000 nodes x 24 cores, share_base 10, cpu_bind 1.3 cores, 180,000 instances
//   (b) 10,000 nodes, memory mode, auto, 10,240,000 instances
//   (c) 100,000 nodes, memory mode, each strategy, about 1,000,000 instances
//
// Every benchmark checks its result, so a timing never hides a wrong answer
// or a failure path taken by mistake.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <new>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "capacity.h"
#include "doc.h"
#include "gen.h"
#include "load.h"
#include "model.h"
#include "pipeline.h"
#include "render.h"
#include "strategy.h"
#include "strategy_oracle.h"

// Heap accounting for the memory report: operator new/delete replaced with
// counters that only run while `g_counting` is set, so timings are untouched.
namespace {
bool g_counting = false;
std::int64_t g_live = 0;  // bytes allocated since counting began, minus freed
std::int64_t g_peak = 0;
}  // namespace

void* operator new(std::size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  if (g_counting) {
    g_live += static_cast<std::int64_t>(malloc_usable_size(p));
    g_peak = std::max(g_peak, g_live);
  }
  return p;
}
// GCC cannot see that this free() pairs with the malloc() above.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept {
  if (g_counting && p != nullptr) g_live -= static_cast<std::int64_t>(malloc_usable_size(p));
  std::free(p);
}
#pragma GCC diagnostic pop
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }

namespace {

using namespace eruplan;
using eruplan::bench::GenFormat;
using eruplan::bench::GenMode;
using eruplan::bench::GenOptions;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "eruplan_bench: %s\n", what.c_str());
  std::exit(1);
}

// The inventories, as bench/run.sh also writes them with eruplan-gen.
GenOptions options_a() {
  GenOptions o;
  o.nodes = 10'000;
  o.cores = 24;
  o.share_base = 10;
  o.usage_percent = 0;  // 18 plans per empty node: 180,000 fills every node exactly
  o.mode = GenMode::CpuMap;
  o.seed = 1;
  return o;
}
GenOptions options_b() {
  GenOptions o;
  o.nodes = 10'000;
  o.existing_max = 100;
  o.seed = 2;
  return o;
}
GenOptions options_c(std::int64_t nodes = 100'000, GenFormat format = GenFormat::Json) {
  GenOptions o;
  o.nodes = nodes;
  o.existing_max = 20;
  o.format = format;
  o.seed = 3;
  return o;
}

Inventory load_or_die(const std::string& name, const std::string& text) {
  Diagnostics diags;
  auto inventory = load_inventory(Source{name, text, InputFormat::Auto}, diags);
  if (!inventory || diags.has_errors()) die(name + ":\n" + diags.to_string());
  return std::move(*inventory);
}

Request request_or_die(const std::string& file) {
  const std::string path = std::string(ERUPLAN_BENCH_REQUESTS) + "/" + file;
  std::ifstream in(path, std::ios::binary);
  if (!in) die("cannot read " + path);
  Source source{path, std::string(std::istreambuf_iterator<char>(in), {}), InputFormat::Auto};
  Diagnostics diags;
  auto request = load_request(&source, RequestOverrides{}, true, diags);
  if (!request || diags.has_errors()) die(path + ":\n" + diags.to_string());
  return std::move(*request);
}

struct StrategyInput {
  std::vector<StrategyInfo> infos;  // nodes with capacity > 0, as the pipeline passes them
  std::vector<std::size_t> where;   // infos index -> CapacityMap::nodes index
  std::int64_t total = 0;
};

StrategyInput strategy_input(const Inventory& inventory, const CapacityMap& map) {
  StrategyInput in;
  in.total = map.total;
  for (std::size_t i = 0; i < map.nodes.size(); ++i) {
    const NodeCapacity& n = map.nodes[i];
    if (n.capacity <= 0) continue;
    in.infos.push_back(
        {inventory.nodes[n.node].name, n.node, n.existing, n.capacity, n.usage, n.rate});
    in.where.push_back(i);
  }
  return in;
}

std::int64_t placed(const StrategyResult& r) {
  return std::accumulate(r.deploy.begin(), r.deploy.end(), std::int64_t{0});
}

// Generated and loaded once; every benchmark reads from here.
struct Inputs {
  std::string json_c = generate_inventory(options_c());
  std::string json_c_10k = generate_inventory(options_c(10'000));
  std::string yaml_c_10k = generate_inventory(options_c(10'000, GenFormat::Yaml));
  std::string json_a = generate_inventory(options_a());

  Inventory inventory_a = load_or_die("a.json", json_a);
  Inventory inventory_b = load_or_die("b.json", generate_inventory(options_b()));
  Inventory inventory_c = load_or_die("c.json", json_c);

  Request request_a = request_or_die("a-cpu-bind.yaml");
  Request request_b = request_or_die("b-memory-auto.yaml");

  CapacityMap capacity_a = capacity_pass(inventory_a, request_a);
  CapacityMap capacity_b = capacity_pass(inventory_b, request_b);
  StrategyInput strategy_a = strategy_input(inventory_a, capacity_a);
  StrategyInput strategy_b = strategy_input(inventory_b, capacity_b);
};

Inputs& inputs() {
  static Inputs in;
  return in;
}

// (c): the capacity pass is the same for every strategy (same resources).
struct InputsC {
  Request request = request_or_die("c-auto.yaml");
  CapacityMap capacity = capacity_pass(inputs().inventory_c, request);
  StrategyInput strategy = strategy_input(inputs().inventory_c, capacity);
};

InputsC& inputs_c() {
  static InputsC in;
  return in;
}

void check_deployed(benchmark::State& state, const StrategyResult& r, std::int64_t expect) {
  if (r.outcome != StrategyOutcome::Deployed) {
    state.SkipWithError(("not deployed: " + r.message.full()).c_str());
  } else if (expect >= 0 && placed(r) != expect) {
    state.SkipWithError(
        ("placed " + std::to_string(placed(r)) + ", expected " + std::to_string(expect)).c_str());
  }
}

// ---- load ---------------------------------------------------------------

void BM_LoadJson(benchmark::State& state) {
  const std::string& text = state.range(0) == 100'000 ? inputs().json_c : inputs().json_c_10k;
  const Source source{"nodes.json", text, InputFormat::Json};
  for (auto _ : state) {
    Diagnostics diags;
    auto inventory = load_inventory(source, diags);
    if (!inventory || inventory->nodes.size() != static_cast<std::size_t>(state.range(0)))
      state.SkipWithError("load failed");
    benchmark::DoNotOptimize(inventory);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(BM_LoadJson)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

// The JSON text of (c) into the document tree alone: eruplan's one-pass
// reader against nlohmann only checking the same text (accept: no tree, no
// positions), a lower bound of what reading through nlohmann would cost.
void BM_ParseJson(benchmark::State& state) {
  const Source source{"nodes.json", inputs().json_c, InputFormat::Json};
  const bool nlohmann = state.range(0) == 1;
  for (auto _ : state) {
    if (nlohmann) {
      if (!nlohmann::json::accept(source.text)) state.SkipWithError("parse failed");
      continue;
    }
    Diagnostics diags;
    auto doc = parse_document(source, diags);
    if (!doc) state.SkipWithError("parse failed");
    benchmark::DoNotOptimize(doc);
  }
  state.SetLabel(nlohmann ? "nlohmann accept" : "one-pass reader");
  state.counters["MB"] = static_cast<double>(inputs().json_c.size()) / 1e6;
}
BENCHMARK(BM_ParseJson)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// YAML at 10,000 nodes: the YAML loader is a tree builder several times
// slower than JSON, and 100,000 nodes would stretch the run for no new fact.
void BM_LoadYaml(benchmark::State& state) {
  const std::string& text = inputs().yaml_c_10k;
  const Source source{"nodes.yaml", text, InputFormat::Yaml};
  for (auto _ : state) {
    Diagnostics diags;
    auto inventory = load_inventory(source, diags);
    if (!inventory || inventory->nodes.size() != 10'000) state.SkipWithError("load failed");
    benchmark::DoNotOptimize(inventory);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(BM_LoadYaml)->Arg(10'000)->Unit(benchmark::kMillisecond);

// The per-core maps of (a), for comparison with the plain `cpu: 24` form.
void BM_LoadJsonCpuMap(benchmark::State& state) {
  const Source source{"nodes.json", inputs().json_a, InputFormat::Json};
  for (auto _ : state) {
    Diagnostics diags;
    auto inventory = load_inventory(source, diags);
    if (!inventory) state.SkipWithError("load failed");
    benchmark::DoNotOptimize(inventory);
  }
  state.counters["MB"] = static_cast<double>(inputs().json_a.size()) / 1e6;
}
BENCHMARK(BM_LoadJsonCpuMap)->Arg(10'000)->Unit(benchmark::kMillisecond);

// ---- (a) CPU bind -------------------------------------------------------

void BM_A_Capacity(benchmark::State& state) {
  Inputs& in = inputs();
  for (auto _ : state) {
    CapacityMap map = capacity_pass(in.inventory_a, in.request_a);
    if (map.total != 180'000) state.SkipWithError("capacity total is not 180,000");
    benchmark::DoNotOptimize(map);
  }
}
BENCHMARK(BM_A_Capacity)->Unit(benchmark::kMillisecond);

void BM_A_Strategy(benchmark::State& state) {
  const StrategyInput& s = inputs().strategy_a;
  const Request& request = inputs().request_a;
  const StrategyFn fn = strategy_function(request.strategy);
  for (auto _ : state) {
    StrategyResult r = fn(s.infos, request.count, s.total, request.nodes_limit);
    check_deployed(state, r, 180'000);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_A_Strategy)->Unit(benchmark::kMillisecond);

// The target of (a): capacity + strategy, as `plan` runs them back to back.
void BM_A_CapacityAndStrategy(benchmark::State& state) {
  Inputs& in = inputs();
  const StrategyFn fn = strategy_function(in.request_a.strategy);
  for (auto _ : state) {
    CapacityMap map = capacity_pass(in.inventory_a, in.request_a);
    StrategyInput s = strategy_input(in.inventory_a, map);
    StrategyResult r = fn(s.infos, in.request_a.count, s.total, in.request_a.nodes_limit);
    check_deployed(state, r, 180'000);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_A_CapacityAndStrategy)->Unit(benchmark::kMillisecond);

// ---- (b) memory mode, auto, 10,240,000 ------------------------------------

void BM_B_Capacity(benchmark::State& state) {
  Inputs& in = inputs();
  for (auto _ : state) {
    CapacityMap map = capacity_pass(in.inventory_b, in.request_b);
    benchmark::DoNotOptimize(map);
  }
}
BENCHMARK(BM_B_Capacity)->Unit(benchmark::kMillisecond);

void BM_B_Strategy(benchmark::State& state) {
  const StrategyInput& s = inputs().strategy_b;
  const Request& request = inputs().request_b;
  for (auto _ : state) {
    StrategyResult r = auto_strategy(s.infos, request.count, s.total, request.nodes_limit);
    check_deployed(state, r, 10'240'000);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_B_Strategy)->Unit(benchmark::kMillisecond);

// ---- (c) memory mode, 100,000 nodes, each strategy ------------------------

void BM_C_Capacity(benchmark::State& state) {
  for (auto _ : state) {
    CapacityMap map = capacity_pass(inputs().inventory_c, inputs_c().request);
    benchmark::DoNotOptimize(map);
  }
}
BENCHMARK(BM_C_Capacity)->Unit(benchmark::kMillisecond);

// count 1,000,000 for auto, global, drained; for fill and each count is per
// node, so fill tops every node up to 20 and each puts 10 on every node
// (about and exactly 1,000,000 new instances). Range 1 = 1 runs them with
// the literal count 1,000,000, which no node can take: their failure path.
void BM_C_Strategy(benchmark::State& state) {
  const auto strategy = static_cast<Strategy>(state.range(0));
  const bool literal = state.range(1) == 1;
  std::int64_t count = 1'000'000;
  std::int64_t expect = 1'000'000;
  if (!literal && strategy == Strategy::Fill) {
    count = 20;
    expect = -1;  // depends on the existing instances
  } else if (!literal && strategy == Strategy::Each) {
    count = 10;
  }
  const StrategyInput& s = inputs_c().strategy;
  const StrategyFn fn = strategy_function(strategy);
  state.SetLabel(std::string(strategy_name(strategy)) + " count " + std::to_string(count));
  std::int64_t new_instances = 0;
  for (auto _ : state) {
    StrategyResult r = fn(s.infos, count, s.total, 0);
    new_instances = placed(r);
    if (literal && (strategy == Strategy::Fill || strategy == Strategy::Each)) {
      if (r.outcome != StrategyOutcome::Infeasible) state.SkipWithError("expected infeasible");
    } else {
      check_deployed(state, r, expect);
    }
    benchmark::DoNotOptimize(r);
  }
  state.counters["placed"] = static_cast<double>(new_instances);
}
BENCHMARK(BM_C_Strategy)
    ->ArgNames({"strategy", "literal"})
    ->Args({static_cast<int>(Strategy::Auto), 0})
    ->Args({static_cast<int>(Strategy::Fill), 0})
    ->Args({static_cast<int>(Strategy::Each), 0})
    ->Args({static_cast<int>(Strategy::Global), 0})
    ->Args({static_cast<int>(Strategy::Drained), 0})
    ->Args({static_cast<int>(Strategy::Fill), 1})
    ->Args({static_cast<int>(Strategy::Each), 1})
    ->Unit(benchmark::kMillisecond);

// ---- render -------------------------------------------------------------

std::vector<std::int64_t> deploy_of(const StrategyInput& s, const StrategyResult& r,
                                    std::size_t nodes) {
  std::vector<std::int64_t> deploy(nodes, 0);
  for (std::size_t k = 0; k < s.infos.size(); ++k) deploy[s.where[k]] = r.deploy[k];
  return deploy;
}

// Renders the report as JSON in the timed loop; reports the output size.
void time_render_json(benchmark::State& state, const Report& report) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::string out = render(report, OutputFormat::Json);
    bytes = out.size();
    benchmark::DoNotOptimize(out);
  }
  state.counters["MB"] = static_cast<double>(bytes) / 1e6;
}

// (a): 10,000 nodes with 18 plans and 18 assignments each.
void BM_A_RenderJson(benchmark::State& state) {
  Inputs& in = inputs();
  const StrategyInput& s = in.strategy_a;
  const auto r = auto_strategy(s.infos, in.request_a.count, s.total, 0);
  const auto deploy = deploy_of(s, r, in.capacity_a.nodes.size());
  const Report report{in.inventory_a, in.request_a, in.capacity_a, &deploy, PlansShown::All};
  time_render_json(state, report);
}
BENCHMARK(BM_A_RenderJson)->Unit(benchmark::kMillisecond);

// (c) auto: 100,000 nodes, capacities and deploy counts, no plans (memory mode).
void BM_C_RenderJson(benchmark::State& state) {
  InputsC& c = inputs_c();
  const auto r = auto_strategy(c.strategy.infos, c.request.count, c.strategy.total, 0);
  const auto deploy = deploy_of(c.strategy, r, c.capacity.nodes.size());
  const Report report{inputs().inventory_c, c.request, c.capacity, &deploy, PlansShown::All};
  time_render_json(state, report);
}
BENCHMARK(BM_C_RenderJson)->Unit(benchmark::kMillisecond);

// ---- (d) in-process: the whole `plan -o json` minus reading the file -----

void BM_D_RunPlan(benchmark::State& state) {
  RunOptions options;
  options.command = Command::Plan;
  options.nodes = Source{"nodes.json", inputs().json_c, InputFormat::Json};
  options.request = Source{"c-auto.yaml",
                           "app: web\ncount: 1000000\nstrategy: auto\n"
                           "resources: {cpu: 0.5, memory: 32Mi}\n",
                           InputFormat::Yaml};
  options.output = OutputFormat::Json;
  for (auto _ : state) {
    RunResult result = run(options);
    if (result.exit != ExitCode::Ok) state.SkipWithError(result.err.c_str());
    benchmark::DoNotOptimize(result);
  }
}
BENCHMARK(BM_D_RunPlan)->Unit(benchmark::kMillisecond);

// ---- the one-instance-at-a-time reference ------------------------------
// The tests' oracle places instances one by one (O(count x nodes)), so it runs
// on a slice: the first 2,000 nodes of (c), 20,000 instances.

StrategyInput slice_c() {
  StrategyInput s = inputs_c().strategy;
  s.infos.resize(2'000);
  s.total = 0;
  for (const StrategyInfo& i : s.infos) s.total += i.capacity;
  return s;
}

void BM_Slice_Fast(benchmark::State& state) {
  const StrategyInput s = slice_c();
  const auto strategy = static_cast<Strategy>(state.range(0));
  const StrategyFn fn = strategy_function(strategy);
  state.SetLabel(std::string(strategy_name(strategy)));
  for (auto _ : state) {
    StrategyResult r = fn(s.infos, 20'000, s.total, 0);
    check_deployed(state, r, 20'000);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Slice_Fast)
    ->Arg(static_cast<int>(Strategy::Auto))
    ->Arg(static_cast<int>(Strategy::Global))
    ->Unit(benchmark::kMillisecond);

void BM_Slice_Oracle(benchmark::State& state) {
  const StrategyInput s = slice_c();
  const auto strategy = static_cast<Strategy>(state.range(0));
  const auto rule = strategy == Strategy::Auto ? oracle::auto_rule : oracle::global_rule;
  const StrategyResult fast = strategy_function(strategy)(s.infos, 20'000, s.total, 0);
  state.SetLabel(std::string(strategy_name(strategy)));
  for (auto _ : state) {
    oracle::Result r = rule(s.infos, 20'000, s.total, 0);
    if (r.deploy != fast.deploy) state.SkipWithError("oracle and fast strategy disagree");
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Slice_Oracle)
    ->Arg(static_cast<int>(Strategy::Auto))
    ->Arg(static_cast<int>(Strategy::Global))
    ->Unit(benchmark::kMillisecond);

// ---- memory ---------------------------------------------------------------
// Heap held after each stage and the peak reached during it, relative to the
// start of the stage: shows that no stage copies the inventory.

struct HeapMeter {
  std::int64_t start = 0;
  void begin() {
    g_counting = true;
    start = g_live;
    g_peak = g_live;
  }
  double held_mib() const { return static_cast<double>(g_live - start) / (1 << 20); }
  double peak_mib() const { return static_cast<double>(g_peak - start) / (1 << 20); }
};

void print_row(const char* stage, const HeapMeter& m) {
  std::printf("  %-44s held %8.1f MiB   peak %8.1f MiB\n", stage, m.held_mib(), m.peak_mib());
}

void memory_report() {
  Inputs& in = inputs();
  InputsC& c = inputs_c();
  std::printf("Heap per stage (C++ allocations; input text %.1f MiB, 100,000 nodes):\n",
              static_cast<double>(in.json_c.size()) / (1 << 20));
  HeapMeter m;
  {
    const Source source{"nodes.json", in.json_c, InputFormat::Json};
    Diagnostics diags;
    m.begin();
    auto inventory = load_inventory(source, diags);
    print_row("load_inventory (held = the Inventory)", m);
    m.begin();
    CapacityMap map = capacity_pass(*inventory, c.request);
    print_row("capacity_pass (c) (held = the CapacityMap)", m);
    m.begin();
    StrategyInput s = strategy_input(*inventory, map);
    StrategyResult r = auto_strategy(s.infos, c.request.count, s.total, 0);
    print_row("strategy auto (c) (held = infos + deploy)", m);
    const auto deploy = deploy_of(s, r, map.nodes.size());
    m.begin();
    std::string out =
        render(Report{*inventory, c.request, map, &deploy, PlansShown::All}, OutputFormat::Json);
    print_row("render json (c) (held = the output text)", m);
  }
  {
    RunOptions options;
    options.command = Command::Plan;
    options.nodes = Source{"nodes.json", in.json_c, InputFormat::Json};
    options.request = Source{"c-auto.yaml", "app: web\ncount: 1000000\nresources: {memory: 32Mi}\n",
                             InputFormat::Yaml};
    options.output = OutputFormat::Json;
    m.begin();
    RunResult result = run(options);
    print_row("run() plan -o json, whole (c)", m);
  }
  {
    m.begin();
    CapacityMap map = capacity_pass(in.inventory_a, in.request_a);
    print_row("capacity_pass (a) (held = 180,000 plans)", m);
  }
  g_counting = false;
  std::printf("\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  memory_report();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
