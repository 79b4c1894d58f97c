#include "model.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace eruplan;

namespace {

std::vector<Node> nodes_named(int n) {
  std::vector<Node> nodes(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) nodes[static_cast<std::size_t>(i)].name = "n" + std::to_string(i);
  return nodes;
}

// The names a filter accepts, walking the nodes in order as a pass does.
std::vector<std::string> accepted(const NodeFilter& f, const std::vector<Node>& nodes) {
  std::vector<std::string> out;
  for (const Node& n : nodes)
    if (f.accepts(n)) out.push_back(n.name);
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
}

TEST_CASE("NodeFilter: a list changed in place between passes is read afresh") {
  const std::vector<Node> nodes = nodes_named(40);
  NodeFilter f;
  for (int i = 0; i < 20; ++i) f.nodes.push_back("n" + std::to_string(i));
  CHECK(accepted(f, nodes).size() == 20);
  // Same vector, same size, other names: the next pass must see them.
  for (int i = 0; i < 20; ++i) f.nodes[static_cast<std::size_t>(i)] = "n" + std::to_string(20 + i);
  const std::vector<std::string> got = accepted(f, nodes);
  REQUIRE(got.size() == 20);
  CHECK(got.front() == "n20");
  CHECK(got.back() == "n39");
  // A second filter, one call each, alternating.
  NodeFilter g;
  for (int i = 0; i < 20; ++i) g.nodes.push_back("n" + std::to_string(2 * i));
  CHECK(g.accepts(nodes[2]));
  CHECK_FALSE(f.accepts(nodes[2]));
  CHECK_FALSE(g.accepts(nodes[3]));
  CHECK(f.accepts(nodes[21]));
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
