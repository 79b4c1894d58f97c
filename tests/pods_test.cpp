// Label selectors and node selector terms (model/pods.h), checked against
// cases of Kubernetes' own tables: component-helpers
// scheduling/corev1/nodeaffinity/nodeaffinity_test.go (TestNodeSelectorMatch,
// TestPodMatchesNodeSelectorAndAffinityTerms), case names as there.
#include "pods.h"

#include <doctest/doctest.h>

using namespace eruplan;

namespace {

Requirement req(std::string key, SelectorOp op, std::vector<std::string> values = {}) {
  return Requirement{std::move(key), op, std::move(values)};
}

NodeSelectorTerm term(std::vector<Requirement> expressions, std::vector<Requirement> fields = {}) {
  return NodeSelectorTerm{std::move(expressions), std::move(fields)};
}

bool any_term(const std::vector<NodeSelectorTerm>& terms, const Labels& labels,
              std::string_view name) {
  for (const NodeSelectorTerm& t : terms)
    if (t.matches(labels, name)) return true;
  return false;
}

}  // namespace

TEST_CASE("TestNodeSelectorMatch") {
  const auto in_label = req("label_1", SelectorOp::In, {"label_1_val"});
  const auto host_1 = req("metadata.name", SelectorOp::In, {"host_1"});
  // "node matches field selector, but not labels"
  CHECK_FALSE(any_term({term({in_label}, {host_1})}, {}, "host_1"));
  // "node matches field selector and label selector"
  CHECK(any_term({term({in_label}, {host_1})}, {{"label_1", "label_1_val"}}, "host_1"));
  // "second term matches"
  CHECK(any_term({term({in_label}), term({}, {host_1})}, {}, "host_1"));
}

TEST_CASE("TestPodMatchesNodeSelectorAndAffinityTerms: operators") {
  // "Pod with matchExpressions using In operator that matches the existing node"
  CHECK(term({req("foo", SelectorOp::In, {"bar", "value2"})}).matches({{"foo", "bar"}}, "n"));
  // "... using Gt operator that matches the existing node": 0206 > 0204
  CHECK(term({req("kernel-version", SelectorOp::Gt, {"0204"})})
            .matches({{"kernel-version", "0206"}}, "n"));
  // "... using NotIn operator that matches the existing node"
  CHECK(term({req("mem-type", SelectorOp::NotIn, {"DDR", "DDR2"})})
            .matches({{"mem-type", "DDR3"}}, "n"));
  // "... using Exists operator that matches the existing node"
  CHECK(term({req("GPU", SelectorOp::Exists)}).matches({{"GPU", "NVIDIA-GRID-K1"}}, "n"));
  // "Pod with affinity that don't match node's labels won't schedule onto the node"
  CHECK_FALSE(
      term({req("foo", SelectorOp::In, {"value1", "value2"})}).matches({{"foo", "bar"}}, "n"));
  // "Pod with an empty []NodeSelectorTerm in affinity, can't match ..."
  CHECK_FALSE(any_term({}, {{"foo", "bar"}}, "n"));
  // An empty term selects no node.
  CHECK_FALSE(term({}).matches({{"foo", "bar"}}, "n"));
}

TEST_CASE("label selector requirements as Kubernetes' labels package reads them") {
  const Labels labels{{"app", "web"}, {"tier", "front"}};
  CHECK(req("zone", SelectorOp::NotIn, {"a"}).matches(labels));  // key absent
  CHECK(req("zone", SelectorOp::DoesNotExist).matches(labels));
  CHECK_FALSE(req("app", SelectorOp::DoesNotExist).matches(labels));
  CHECK_FALSE(req("app", SelectorOp::NotIn, {"web"}).matches(labels));
  CHECK_FALSE(req("tier", SelectorOp::Gt, {"1"}).matches(labels));  // not an integer
  CHECK(req("n", SelectorOp::Lt, {"10"}).matches({{"n", "9"}}));
  CHECK_FALSE(req("n", SelectorOp::Lt, {"10"}).matches({{"n", "10"}}));
  CHECK(LabelSelector{}.matches(labels));  // {} selects everything
  LabelSelector s{{req("app", SelectorOp::In, {"web"}), req("tier", SelectorOp::Exists)}};
  CHECK(s.matches(labels));
  s.requirements.push_back(req("tier", SelectorOp::In, {"back"}));
  CHECK_FALSE(s.matches(labels));
  REQUIRE(find_label(labels, "tier"));
  CHECK(*find_label(labels, "tier") == "front");
  CHECK(find_label(labels, "x") == nullptr);
  CHECK(selector_op_name(SelectorOp::DoesNotExist) == "DoesNotExist");
}

TEST_CASE("label sets: equal lists share an id, in the order first met") {
  const Labels a{{"app", "x"}, {"tier", "web"}}, b{{"app", "x"}}, a2 = a, empty;
  LabelSets sets;
  CHECK(sets.intern(a) == 0);
  CHECK(sets.intern(b) == 1);
  CHECK(sets.intern(a2) == 0);
  CHECK(sets.intern(empty) == 2);
  CHECK(sets.intern(b) == 1);
  CHECK(sets.size() == 3);
  CHECK(sets[0] == a);
  // Past the first table's size: every id stays its own.
  std::vector<Labels> many;
  for (int i = 0; i < 100; ++i) many.push_back({{"k", std::to_string(i)}});
  for (int i = 0; i < 100; ++i) CHECK(sets.intern(many[static_cast<std::size_t>(i)]) == 3 + i);
  for (int i = 99; i >= 0; --i) CHECK(sets.intern(many[static_cast<std::size_t>(i)]) == 3 + i);
}

TEST_CASE("label selector: the steps of matching it, by label count and key length") {
  LabelSelector s;
  CHECK(s.match_steps(31) == 1);
  s.requirements.push_back(req("app", SelectorOp::In, {"x", "y"}));
  // 31 labels: a binary search of 1 + 5 steps, and its 2 values.
  CHECK(s.match_steps(31) == 1 + 6 + 2);
  CHECK(s.match_steps(0) == 1 + 1 + 2);
  // A key of 21 characters: the search counts twice.
  s.requirements.push_back(req("kkkkkkkkkkkkkkkkkkkk0", SelectorOp::Exists));
  CHECK(s.match_steps(31) == 1 + 6 + 2 + 12);
  CHECK(s == s);
  LabelSelector t = s;
  t.requirements.back().op = SelectorOp::DoesNotExist;
  CHECK_FALSE(s == t);
}
