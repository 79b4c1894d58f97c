// The kubernetes profile on the minimal inputs of tests/k8s_reference/cases,
// one per class of disagreement the Python model of kube-scheduler v1.35
// found; the expected words are the model's reference.json (Kubernetes'
// FitError.Error: the filters' line, then DefaultPreemption's on the same
// line).
#include <doctest/doctest.h>

#include <string>

#include "binary.h"

namespace {

using eruplan_test::Ran;

Ran plan_case(const std::string& name, const std::string& extra = "") {
  const std::string dir = std::string(ERUPLAN_SOURCE_DIR) + "/tests/k8s_reference/cases/" + name;
  return eruplan_test::run_eruplan(eruplan_test::scratch_dir("k8s_reference_cases"),
                                   "plan -n " + dir + "/nodes.json --pods " + dir +
                                       "/pods.json -r " + dir + "/deploy.json " + extra);
}

// The `infeasible: ` line of stderr, and the one after it.
std::string line_of(const std::string& err, int index) {
  std::size_t at = err.find("infeasible: ");
  if (at == std::string::npos) return "(no infeasible line)";
  at += 12;
  for (int i = 0; i < index; ++i) at = err.find('\n', at) + 1;
  return err.substr(at, err.find('\n', at) - at);
}

}  // namespace

TEST_CASE("k8s reference cases: preemption classifies a node by its first failing filter's code") {
  // Anti-affinity, existing pods' anti-affinity, host ports, spread skew and
  // a full node are Unschedulable: dry-run, no lower-priority victims.
  Ran r = plan_case("preemption-anti-affinity");
  CHECK(r.exit == 4);
  CHECK(line_of(r.err, 0) ==
        "0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules. no new claims to "
        "deallocate, preemption: "
        "0/1 nodes are available: 1 No preemption victims found for incoming pod.");
  r = plan_case("preemption-existing-anti-affinity");
  CHECK(line_of(r.err, 0) ==
        "0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules. "
        "no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims "
        "found for incoming pod.");
  r = plan_case("preemption-topology-spread");
  CHECK(line_of(r.err, 0) ==
        "0/2 nodes are available: 1 Too many pods, 1 node(s) didn't match pod topology spread "
        "constraints. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No "
        "preemption victims found for "
        "incoming pod.");
  // Node affinity is UnschedulableAndUnresolvable, whatever else the node lacks.
  r = plan_case("preemption-required-affinity-and-cpu");
  CHECK(line_of(r.err, 0) ==
        "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. "
        "no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not "
        "helpful for scheduling.");
}

TEST_CASE(
    "k8s reference cases: the preemption words end the filters' line, placed K of N follows") {
  const Ran r = plan_case("preemption-hostport");
  CHECK(r.exit == 4);
  CHECK(line_of(r.err, 0) ==
        "0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports. "
        "no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims "
        "found for incoming pod.");
  CHECK(line_of(r.err, 1) == "placed 2 of 3; the 3rd could not be placed");
}

TEST_CASE("k8s reference cases: NodeAffinity's PreFilter on matchFields metadata.name") {
  Ran r = plan_case("matchfields-prefilter");
  CHECK(r.exit == 4);
  CHECK(line_of(r.err, 0) ==
        "0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't satisfy "
        "plugin(s) [NodeAffinity]. no new claims to deallocate, preemption: 0/3 nodes are "
        "available: 3 Preemption is not "
        "helpful for scheduling.");
  r = plan_case("matchfields-unknown-node");
  CHECK(line_of(r.err, 0) ==
        "0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. "
        "no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not "
        "helpful for scheduling.");
  r = plan_case("matchfields-conflict");
  CHECK(line_of(r.err, 0) ==
        "0/2 nodes are available: pod affinity terms conflict. no new claims to deallocate, "
        "preemption: 0/2 nodes are "
        "available: 2 Preemption is not helpful for scheduling.");
}

TEST_CASE("k8s reference cases: scores lists the feasible nodes only") {
  const Ran r = plan_case("scores-required-affinity", "-o json");
  CHECK(r.exit == 0);
  const std::size_t at = r.out.find("\"scores\": {");
  REQUIRE(at != std::string::npos);
  const std::string scores = r.out.substr(at, r.out.find("\n  }", at) - at);
  CHECK(scores.find("\"a\": {") != std::string::npos);
  CHECK(scores.find("\"b\": {") == std::string::npos);
}

TEST_CASE("k8s reference cases: a Kubernetes Node without kubernetes.io/hostname lacks it") {
  // Hostname spreading with DoNotSchedule rejects node b (missing required
  // label): both replicas go to a, and only a is scored.
  const Ran r = plan_case("no-hostname-label", "-o json");
  CHECK(r.exit == 0);
  CHECK(r.out.find("\"deploy\": {\n    \"a\": 2\n  }") != std::string::npos);
  const std::size_t at = r.out.find("\"scores\": {");
  REQUIRE(at != std::string::npos);
  const std::string scores = r.out.substr(at, r.out.find("\n  }", at) - at);
  CHECK(scores.find("\"b\": {") == std::string::npos);
}
