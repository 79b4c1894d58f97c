// The pod list read a piece at a time (load_k8s_pods.cpp, PodStream) against
// the whole-document reading of the same text: random and hand-made pod
// lists, pieces from 1 byte up so that items, strings and escapes fall
// across every boundary, must give the same inventory (usage, instances,
// running pods) and the same diagnostics at the same line:col.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "doc.h"
#include "inventory_writer.h"
#include "kubernetes.h"

using namespace eruplan;

namespace {

const char* const kNodes = R"({"apiVersion": "v1", "kind": "List", "items": [
  {"kind": "Node", "metadata": {"name": "n1"},
   "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110",
                              "example.com/gpu": "2"}}},
  {"kind": "Node", "metadata": {"name": "n2"},
   "status": {"allocatable": {"cpu": "2", "memory": "1Gi", "pods": "110"}}}]})";

struct Read {
  std::string inventory;  // rendered, with the running pods listed below
  std::string diags;
  bool had_inventory = false;
  std::size_t whole = 0;
};

std::string pods_of(const Inventory& inv) {
  std::string out;
  for (const RunningPod& p : inv.pods.get()) {
    out += std::to_string(p.node) + " " + p.ns + "/" + p.name + " app=" + p.app +
           " prio=" + std::to_string(p.priority) + " cpu=" + std::to_string(p.cpu) +
           " mem=" + std::to_string(p.memory) + " start=" + p.start_time +
           (p.scheduling ? " sched" : "");
    for (const auto& [k, v] : p.labels) out += " " + k + "=" + v;
    out += "\n";
  }
  return out;
}

// `texts` as --pods files, read streamed in pieces of `chunk` bytes (0: whole).
Read read(const std::vector<std::string>& texts, std::size_t chunk, bool strict = false,
          bool as_workloads = false) {
  Diagnostics diags;
  diags.set_strict(strict);
  std::optional<Inventory> inv = load_nodes(Source{"nodes.json", kNodes}, NodesFormat::Auto, diags);
  REQUIRE(inv.has_value());
  std::vector<Source> sources;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    Source s{"pods" + std::to_string(i) + ".json", {}, InputFormat::Auto};
    if (chunk == 0)
      s.text = texts[i];
    else
      s.stream = std::make_shared<TextStream>(texts[i]);
    sources.push_back(std::move(s));
  }
  KubernetesOptions options;
  options.pods_as_workloads = as_workloads;
  PodCensus census;
  Read out;
  // Even piece sizes read on two threads, odd ones on one.
  PodReading how{chunk != 0, chunk == 0 ? 1 : chunk, chunk % 2 == 0, &out.whole};
  std::optional<Source> first = sources.front();
  load_pods(inv, first, options, diags, &census, std::span<const Source>(sources).subspan(1), how);
  out.had_inventory = inv.has_value();
  if (inv)
    out.inventory = render_inventory(*inv, OutputFormat::Json, default_units(OutputFormat::Json)) +
                    pods_of(*inv);
  for (const auto& p : census.succeeded) out.inventory += "succeeded " + p.ns + "/" + p.name + "\n";
  for (const auto& p : census.elsewhere) out.inventory += "elsewhere " + p.ns + "/" + p.name + "\n";
  out.diags = diags.to_string();
  return out;
}

// Streamed at several piece sizes, the same as whole; `streamed`: whether
// the streamed reading must keep to its own path (a clean pod list).
void same(const std::vector<std::string>& texts, bool streamed, bool strict = false,
          bool as_workloads = false) {
  const Read whole = read(texts, 0, strict, as_workloads);
  for (std::size_t chunk : {1, 2, 3, 7, 64, 1000, 1 << 20}) {
    CAPTURE(chunk);
    const Read s = read(texts, chunk, strict, as_workloads);
    CHECK(s.diags == whole.diags);
    CHECK(s.had_inventory == whole.had_inventory);
    CHECK(s.inventory == whole.inventory);
    if (streamed) CHECK(s.whole == 0);
    if (!streamed) CHECK(s.whole >= 1);
  }
}

std::string pod(const std::string& ns, const std::string& name, const std::string& node,
                const std::string& cpu, const std::string& extra = "") {
  return R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": ")" + name +
         R"(", "namespace": ")" + ns + R"(", "labels": {"app": "web"}}, "spec": {"nodeName": ")" +
         node + R"(", "containers": [{"name": "c", "resources": {"requests": {"cpu": ")" + cpu +
         R"(", "memory": "64Mi"}}}]}, "status": {"phase": "Running"})" + extra + "}";
}

std::string list(const std::vector<std::string>& items, const std::string& sep = ",\n  ") {
  std::string out = "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": [\n  ";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out + "\n  ],\n  \"metadata\": {\"resourceVersion\": \"\"}\n}\n";
}

// splitmix64, as bench/gen.cpp: the same cases on every machine.
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
};

// A random pod, now and then with a problem; strings with escapes.
std::string random_pod(Rng& rng, std::size_t i) {
  static const char* const kNames[] = {"web",    "a\\\"b",         "caf\\u00e9", "x\\\\y",
                                       "t\\tab", "\\ud83d\\ude00", "plain"};
  static const char* const kNodesUsed[] = {"n1", "n2", "n3", "", "n\\u0031"};
  static const char* const kCpu[] = {"100m", "1", "0.5", "250m", "2", "bad"};
  const std::string name = std::string(kNames[rng.below(7)]) + "-" + std::to_string(i % 13);
  const std::string ns = rng.below(3) == 0 ? "kube-system" : "default";
  std::string extra;
  switch (rng.below(14)) {
    case 0:
      extra = R"(, "spce": {})";
      break;  // unknown field
    case 1:
      extra = R"(, "metadata2": 1)";
      break;
    case 2:
      return R"({"kind": "Service", "metadata": {"name": "s"}})";
    case 3:
      return "42";
    case 4:
      extra = R"(, "status": {"phase": "Succeeded"})";
      break;  // a duplicate key
    default:
      break;
  }
  std::string p = pod(ns, name, kNodesUsed[rng.below(5)], kCpu[rng.below(6)], extra);
  if (rng.below(4) == 0) {  // reindented: positions move
    std::string q;
    for (char c : p) {
      q += c;
      if (c == ',' && rng.below(3) == 0) q += "\n" + std::string(rng.below(9), ' ');
    }
    p = q;
  }
  if (rng.below(6) == 0) p.insert(p.size() - 1, R"(, "spec": {"priority": 99999999999})");
  return p;
}

}  // namespace

TEST_CASE("streamed pods: a clean pod list is read in pieces, as a whole document") {
  same({list({pod("default", "a", "n1", "500m"), pod("default", "b", "n2", "1"),
              pod("default", "c", "n1", "250m")})},
       true);
  same({list({})}, true);
  // Strings with escapes, and pieces that cut them anywhere.
  same({list({pod("d\\\"q", "caf\\u00e9", "n1", "100m"), pod("x", "\\ud83d\\ude00", "n2", "1")})},
       true);
  // Compact, one line: columns run far.
  same({list({pod("default", "a", "n1", "1"), pod("default", "b", "n1", "1")}, ",")}, true);
  // A byte order mark, members after the items, CRLF line ends.
  same({"\xEF\xBB\xBF" + list({pod("default", "a", "n1", "1")})}, true);
  same({R"({"items": [)" + pod("default", "a", "n1", "1") + "],\r\n\"kind\": \"List\"}"}, true);
  // A key with escapes; a root member the List check lets pass.
  same({R"({"ite\u006ds": []})"}, true);
  same({R"({"items": [], "spce": 1})"}, true);
  // A number ending right where a piece does.
  same({R"({"items": [], "metadata": {"generation": 12345}})"}, true);
  // As workloads.
  same({list({pod("default", "a", "n1", "500m"), pod("default", "b", "n2", "1")})}, true, false,
       true);
}

TEST_CASE("streamed pods: problems in items are reported at the same line:col") {
  // An unknown node, twice; a pod past its node's memory; a wrong kind
  // among others; a bad quantity; an unknown field, warned and, strict, an error.
  const std::string text =
      list({pod("default", "a", "n9", "1"), pod("default", "b", "n9", "1"),
            R"({"kind": "Service", "metadata": {"name": "s"}})", R"({"kind": "ConfigMap"})",
            pod("default", "c", "n1", "1m5"), pod("default", "d", "n2", "1", R"(, "spce": 1)"),
            "[]", pod("default", "e", "n2", "1")});
  same({text}, true);
  same({text}, true, true);
  const Read whole = read({text}, 0);
  CHECK(whole.diags.find("pods0.json:") != std::string::npos);
  CHECK(whole.diags.find("(and 1 more items that are not Pods)") != std::string::npos);
  CHECK(whole.diags.find("2 pods on node \"n9\"") != std::string::npos);
}

TEST_CASE("streamed pods: a pod met again in another file is counted once, in either reading") {
  const std::string a = list({pod("default", "a", "n1", "1"), pod("default", "b", "n2", "1")});
  const std::string b = list({pod("default", "b", "n2", "1"), pod("default", "c", "n1", "1")});
  same({a, b}, true);
  // The second file gives up streaming (trailing garbage) after its pods
  // were seen: they are forgotten and read again whole.
  same({a, b + "x"}, false);
}

TEST_CASE("streamed pods: anything odd is read whole, with the whole reader's words") {
  const std::string ok = list({pod("default", "a", "n1", "1")});
  for (const std::string& text :
       {ok.substr(0, ok.size() / 2),                                          // cut short
        ok.substr(0, ok.size() - 3) + ",]}",                                  // a trailing comma
        std::string(R"({"items": [{"kind": "Pod"}]} {)"),                     // after the document
        std::string(R"({"items": {}})"), std::string(R"({"kind": "List"})"),  // no list
        std::string(R"({"items": [], "items": []})"),                         // items twice
        std::string("{\"items\": [{\"kind\": \"P") + '\0' + "d\"}]}",         // a NUL
        std::string("[1, 2]"), std::string("{items: [{kind: Pod}]}")})        // YAML flow
  {
    CAPTURE(text);
    same({text}, false);
  }
}

TEST_CASE("streamed pods: random pod lists, every piece size, the same as whole") {
  Rng rng{23};
  for (int round = 0; round < 40; ++round) {
    CAPTURE(round);
    std::vector<std::string> items;
    const std::size_t n = rng.below(12);
    for (std::size_t i = 0; i < n; ++i) items.push_back(random_pod(rng, i));
    const std::string text = list(items, rng.below(2) ? ",\n  " : ",");
    const Read whole = read({text}, 0, round % 2 == 1);
    for (std::size_t chunk : {1, 6, 33, 4096}) {
      CAPTURE(chunk);
      const Read s = read({text}, chunk, round % 2 == 1);
      CHECK(s.diags == whole.diags);
      CHECK(s.inventory == whole.inventory);
      CHECK(s.whole == 0);  // problems in items stay on the streamed path
    }
  }
}

TEST_CASE("streamed pods: several random files, some given up on, the same as whole") {
  // The files of one load share their node index, buffers (window, parsed
  // items, queue slots), pods seen, and the running pods and instances
  // handed over at the end (PodLoad): every file must read as if alone,
  // after a file of any size and after one given up on part way (whose
  // whole reading then refuses it, with the whole reader's words).
  Rng rng{41};
  for (int round = 0; round < 30; ++round) {
    CAPTURE(round);
    std::vector<std::string> files;
    const std::size_t count = 2 + rng.below(4);
    for (std::size_t f = 0; f < count; ++f) {
      std::vector<std::string> items;
      const std::size_t n = rng.below(10);
      for (std::size_t i = 0; i < n; ++i) items.push_back(random_pod(rng, i + 3 * f));
      std::string text = list(items, rng.below(2) ? ",\n  " : ",");
      if (rng.below(4) == 0) text += "x";  // given up on after its items were read
      files.push_back(std::move(text));
    }
    const Read whole = read(files, 0, round % 2 == 1);
    for (std::size_t chunk : {1, 6, 33, 4096}) {
      CAPTURE(chunk);
      const Read s = read(files, chunk, round % 2 == 1);
      CHECK(s.diags == whole.diags);
      CHECK(s.had_inventory == whole.had_inventory);
      CHECK(s.inventory == whole.inventory);
    }
  }
}
