#include "model.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "diagnostics.h"
#include "named_reason.h"
#include "resources.h"

using namespace eruplan;

namespace {

std::vector<Node> nodes_named(int n) {
  std::vector<Node> nodes(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) nodes[static_cast<std::size_t>(i)].name = "n" + std::to_string(i);
  return nodes;
}

// The names a filter accepts, walking the nodes in order as a pass does,
// through the sorted index.
std::vector<std::string> accepted(const NodeFilter& f, const std::vector<Node>& nodes) {
  const NodeFilterIndex index(f);
  std::vector<std::string> out;
  for (const Node& n : nodes)
    if (index.accepts(n)) out.push_back(n.name);
  return out;
}

}  // namespace

TEST_CASE("NodeFilter: long node and exclude lists are looked up, in any order") {
  const std::vector<Node> nodes = nodes_named(100);
  NodeFilter f;
  for (int i = 99; i >= 0; i -= 3) f.nodes.push_back("n" + std::to_string(i));  // 34 names
  for (int i = 0; i < 40; ++i) f.exclude.push_back("x" + std::to_string(i));
  f.exclude.push_back("n0");
  f.exclude.push_back("n99");
  const std::vector<std::string> got = accepted(f, nodes);
  REQUIRE(got.size() == 32);
  CHECK(got.front() == "n3");
  CHECK(got[1] == "n6");
  CHECK(got.back() == "n96");
  CHECK_FALSE(f.accepts(nodes[1]));
  CHECK(f.accepts(nodes[3]));
  CHECK_FALSE(f.accepts(nodes[99]));
}

TEST_CASE("NodeFilterIndex agrees with NodeFilter::accepts on random filters") {
  std::vector<Node> nodes = nodes_named(60);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    nodes[i].labels = {{"zone", i % 3 == 0 ? "a" : "b"}};
  std::uint64_t state = 7;
  auto next = [&state](std::uint64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % n;
  };
  std::size_t accepted_total = 0;
  for (int round = 0; round < 300; ++round) {
    NodeFilter f;
    const std::uint64_t names = next(40), excluded = next(25);
    for (std::uint64_t k = 0; k < names; ++k) f.nodes.push_back("n" + std::to_string(next(80)));
    for (std::uint64_t k = 0; k < excluded; ++k)
      f.exclude.push_back("n" + std::to_string(next(80)));
    if (next(4) == 0) f.labels = {{"zone", "a"}};
    const NodeFilterIndex index(f);
    for (const Node& n : nodes) {
      CAPTURE(round);
      CAPTURE(n.name);
      CHECK(index.accepts(n) == f.accepts(n));
      accepted_total += f.accepts(n) ? 1 : 0;
    }
  }
  CHECK(accepted_total > 1000);  // the rounds are not all empty
}

TEST_CASE("NodeFilter: labels must all match, by key and value") {
  Node node;
  node.name = "a";
  node.labels = {{"disk", "ssd"}, {"rack", "r1"}, {"zone", "z1"}};
  NodeFilter f;
  f.labels = {{"rack", "r1"}, {"zone", "z1"}};
  CHECK(f.accepts(node));
  f.labels = {{"rack", "r2"}};
  CHECK_FALSE(f.accepts(node));
  f.labels = {{"gpu", "yes"}};
  CHECK_FALSE(f.accepts(node));
  f.labels = {{"zone", "z1"}, {"zz", ""}};
  CHECK_FALSE(f.accepts(node));
}

TEST_CASE("Diagnostics: the first 1,000 kept, the rest counted in one line") {
  Diagnostics d;
  for (int i = 0; i < 1000; ++i) d.warning(Origin{"a.yaml", 2, 3, "nodes[0].k"}, "unknown field");
  CHECK(d.dropped() == 0);
  d.error(Origin{"a.yaml", 4, 5, "nodes[1].k"}, "unknown field");
  d.warning(Origin{"a.yaml", 4, 5, "nodes[2].k"}, "unknown field");
  d.warning(Origin{"a.yaml", 4, 5, "nodes[3].k"}, "unknown field");
  CHECK(d.items().size() == 1000);
  CHECK(d.dropped() == 3);
  CHECK(d.dropped_errors() == 1);
  CHECK(d.has_errors());  // the error dropped still fails the run
  CHECK(d.error_count() == 1);
  const std::string text = d.to_string();
  CHECK(text.starts_with("a.yaml:2:3: warning: nodes[0].k: unknown field\n"));
  CHECK(text.ends_with("\n... and 3 more problems (1 error, 2 warnings) not shown\n"));
  Diagnostics more;
  more.error(Origin{}, "x");
  more.append(d);  // 1 + 1,000 kept of d: one more dropped, and d's 3
  CHECK(more.items().size() == 1000);
  CHECK(more.dropped() == 4);
  CHECK(more.error_count() == 2);
  Diagnostics few;
  few.warning(Origin{}, "y");
  CHECK(few.to_string() == "warning: y\n");
}

TEST_CASE("quoted and excerpt: a long value shows its first 64 bytes and its length") {
  CHECK(quoted("8Gx") == "\"8Gx\"");
  CHECK(excerpt("8Gx") == "8Gx");
  CHECK(quoted("") == "\"\"");
  const std::string full(64, 'a');
  CHECK(quoted(full) == '"' + full + '"');
  CHECK(excerpt(full) == full);
  const std::string long_value = "9" + std::string(30000, 'x');
  CHECK(quoted(long_value) == "\"9" + std::string(63, 'x') + "...\" (30001 bytes)");
  CHECK(excerpt(long_value) == "9" + std::string(63, 'x') + "...(30001 bytes)");
  // The cut does not split a UTF-8 character: \u00e9 is bytes 64 and 65.
  const std::string accented = std::string(63, 'a') + "\xc3\xa9" + std::string(10, 'b');
  CHECK(excerpt(accented) == std::string(63, 'a') + "...(75 bytes)");
  CHECK(quoted(accented) == "\"" + std::string(63, 'a') + "...\" (75 bytes)");
}

TEST_CASE("edit_distance and nearest_name: the one \"did you mean\"") {
  CHECK(edit_distance("memroy", "memory") == 2);
  CHECK(edit_distance("lables", "labels") == 2);
  CHECK(edit_distance("", "cpu") == 3);
  CHECK(edit_distance("cpu", "cpu") == 0);
  CHECK(edit_distance("kitten", "sitting") == 3);
  const std::vector<std::string_view> fields{"cpu", "memory", "storage", "labels"};
  CHECK(nearest_name("memroy", fields, 2) == "memory");
  CHECK(nearest_name("lables", fields, 2) == "labels");
  CHECK(nearest_name("zzz", fields, 2).empty());
  // Ties go to the first candidate given; a long name is never a typo of a short one.
  CHECK(nearest_name("ab", std::vector<std::string>{"ax", "ay"}, 1) == "ax");
  CHECK(nearest_name(std::string(10'000, 'm'), fields, 2).empty());
  // A budget: each comparison costs |written| x (2 limit + 1) + 1 cells;
  // once a comparison would overspend it, nothing is suggested and it is 0.
  std::int64_t cells = 1000;
  CHECK(nearest_name("memroy", fields, 2, &cells) == "memory");
  // cpu is 3 letters off (not compared); memory within 2 (31 cells), then
  // storage and labels within 1 (19 each).
  CHECK(cells == 1000 - 31 - 19 - 19);
  cells = 40;  // memory's 31, then storage's 19 overspends: no suggestion
  CHECK(nearest_name("memroy", fields, 2, &cells).empty());
  CHECK(cells == 0);
}

TEST_CASE(
    "edit_distance_within = min(the whole table's distance, limit + 1) on 20,000 random pairs") {
  // The one-at-a-time oracle: every cell of the table.
  auto full = [](std::string_view a, std::string_view b) {
    std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) t[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) t[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
      for (std::size_t j = 1; j <= b.size(); ++j)
        t[i][j] = std::min(
            {t[i - 1][j] + 1, t[i][j - 1] + 1, t[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    return t[a.size()][b.size()];
  };
  std::uint64_t state = 7;
  auto next = [&state](std::uint64_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % n;
  };
  auto word = [&]() {
    std::string w(next(12), 'a');
    for (char& c : w) c = static_cast<char>('a' + next(3));
    return w;
  };
  for (int k = 0; k < 20'000; ++k) {
    const std::string a = word(), b = word();
    const std::size_t limit = next(8);
    CAPTURE(a);
    CAPTURE(b);
    CAPTURE(limit);
    REQUIRE(edit_distance_within(a, b, limit) == std::min(full(a, b), limit + 1));
  }
}

TEST_CASE("resources: one row per built-in kind, extended resources by name") {
  Node n;
  n.plain_cores = 4;
  n.plain_core_pieces = 1000;
  n.cpu_used = 1'500'000'000;
  n.memory = 8 << 20;
  n.memory_used = 1 << 20;
  n.storage = 100;
  n.extended.push_back(ExtendedResource{"nvidia.com/gpu", 4, 1});
  Request r;
  r.cpu = 500'000'000;
  r.memory = 1 << 10;
  r.extended = {{"example.com/fpga", 1}, {"nvidia.com/gpu", 2}};
  REQUIRE(kResourceKinds.size() == 3);
  CHECK(kResourceKinds[0].name == "cpu");
  CHECK(kResourceKinds[1].name == "memory");
  CHECK(kResourceKinds[2].name == "storage");
  CHECK(resource_kind("memory") == &kResourceKinds[1]);
  CHECK(resource_kind("nvidia.com/gpu") == nullptr);
  const ResourceAmounts cpu = resource_amounts(n, r, "cpu");
  CHECK(cpu.total == n.cpu_total());
  CHECK(cpu.used == 1'500'000'000);
  CHECK(cpu.per_instance == 500'000'000);
  CHECK(cpu.on_node);
  const ResourceAmounts storage = resource_amounts(n, r, "storage");
  CHECK(storage.total == 100);
  CHECK(storage.per_instance == 0);
  const ResourceAmounts gpu = resource_amounts(n, r, "nvidia.com/gpu");
  CHECK(gpu.total == 4);
  CHECK(gpu.used == 1);
  CHECK(gpu.per_instance == 2);
  CHECK(gpu.on_node);
  const ResourceAmounts fpga = resource_amounts(n, r, "example.com/fpga");
  CHECK_FALSE(fpga.on_node);
  CHECK(fpga.per_instance == 1);
  CHECK(per_instance_of(r, "memory") == 1024);
  CHECK(per_instance_of(r, "example.com/none") == 0);
}

TEST_CASE("NamedReason: the line alone, under its subject, and its parts") {
  NamedReason r("web", "3 of 3 replicas running, nothing to place");
  CHECK(r.full() == "web: 3 of 3 replicas running, nothing to place");
  CHECK(r.under("web") == "3 of 3 replicas running, nothing to place");
  CHECK(r.under("db") == "web: 3 of 3 replicas running, nothing to place");
  // kube-scheduler's line names nothing: the same under any name.
  NamedReason k("0/3 nodes are available: 3 Insufficient cpu.");
  k.placed = "placed 2 of 5; the 3rd could not be placed";
  k.notes = {"preemption: would evict 1 pod on w1"};
  k.add_to_first_line("preemption: 0/3 nodes are available.");
  k.suffix = "; placed 2, needs at least 3";
  CHECK(k.full() ==
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available.\n"
        "placed 2 of 5; the 3rd could not be placed\n"
        "preemption: would evict 1 pod on w1; placed 2, needs at least 3");
  CHECK(k.under("web") == k.full());
  k.first_line_only();
  CHECK(k.full() ==
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available.; "
        "placed 2, needs at least 3");
  CHECK(NamedReason().empty());
  CHECK_FALSE(k.empty());
}

TEST_CASE("Node: core ids kept only when they are not 0..N-1, looked up as lower_bound would") {
  Node plain, counted, named;
  plain.plain_cores = 12;
  plain.plain_core_pieces = 100;
  counted.plain_cores = 12;
  counted.list_cores();
  for (const char* id : {"0", "1", "2", "10", "b", "x"}) named.add_core(id, Core{100, 0, -1});
  CHECK(counted.core_ids.empty());
  CHECK(named.core_ids.size() == 6);
  CHECK(named.core_id(3) == "10");
  CHECK(sizeof(Core) == 24);
  const std::vector<std::string_view> wanted = {
      "",   "0",  "00",  "000", "0005", "05", "5",
      "11", "12", "011", "13",  "2",    "10", "9999999999999999999999",
      "a",  "b",  "ba",  "x",   "y",    "-1"};
  for (const Node* n : {&plain, &counted, &named}) {
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < n->core_count(); ++i) ids.push_back(n->core_id(i));
    for (std::string_view id : wanted) {
      CAPTURE(id);
      const auto at = static_cast<std::size_t>(
          std::lower_bound(ids.begin(), ids.end(), id, natural_less) - ids.begin());
      CHECK(n->core_lower_bound(id) == at);
      const bool found = at < ids.size() && ids[at] == id;
      CHECK(n->find_core(id) == (found ? at : ids.size()));
    }
  }
  Node odd;  // the first id out of place keeps them all
  odd.add_core("0", Core{100, 0, -1});
  odd.add_core("2", Core{100, 0, -1});
  CHECK(odd.core_ids == SparseList<std::string>{"0", "2"});
}

TEST_CASE("NodeSet: a DaemonSet's nodes as bits over the inventory's sorted names") {
  std::vector<Node> nodes(4);
  nodes[0].name = "n2", nodes[1].name = "a", nodes[2].name = "n10", nodes[3].name = "b";
  auto table = std::make_shared<const NodeNameTable>(nodes);
  CHECK(table->sorted == std::vector<std::string>{"a", "b", "n10", "n2"});
  CHECK(table->rank == std::vector<std::uint32_t>{3, 0, 2, 1});
  NodeSet set(table);
  set.add(3), set.add(0), set.add(3);  // b, n2, b again
  CHECK(set.size() == 2);
  CHECK(set.first() == std::vector<std::string>{"b", "n2"});
  CHECK(set.contains("n2"));
  CHECK_FALSE(set.contains("a"));
  CHECK_FALSE(set.contains("zz"));
  CHECK(set.names(false) == std::vector<std::string_view>{"n2", "b"});  // inventory order
  CHECK(set.names(true) == std::vector<std::string_view>{"a", "n10"});
  std::string key;
  set.append_key(key);
  CHECK(key == std::string(1, '\x0a'));  // b (1) and n2 (3)
  NodeFilter filter;
  filter.node_set = std::make_shared<NodeSet>(set);
  CHECK(filter.accepts(nodes[0]));
  CHECK_FALSE(filter.accepts(nodes[1]));
  CHECK_FALSE(NodeFilterIndex(filter).accepts(nodes[2]));
  CHECK(NodeFilterIndex(filter).accepts(nodes[3]));
  filter.node_set = std::make_shared<NodeSet>(table);  // empty: no node at all
  CHECK_FALSE(filter.accepts(nodes[3]));
}
