// A fixture case's `expect:` as read (fixture.cpp) and the comparison of
// a run's results with it (fixture_compare.cpp); private to the runner.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pipeline.h"

namespace eruplan::fixture_case {

// An expected capacity of "absent": the node is not in the capacity map.
constexpr std::int64_t kAbsent = -1;

template <class V>
using Expected = std::vector<std::pair<std::string, V>>;  // in document order

struct Expectation {
  std::int64_t exit = 0;
  std::optional<Expected<std::int64_t>> capacity;  // kUnlimited, kAbsent or N
  std::optional<std::int64_t> total;
  std::optional<Expected<std::int64_t>> deploy;
  std::optional<Expected<std::int64_t>> plans;
  std::optional<Expected<std::string>> reasons;
  std::vector<std::string> error_contains;  // each a substring of stderr
  std::optional<Expected<std::int64_t>> deploy_subset;
  std::optional<std::int64_t> deploy_total;
  std::optional<Expected<std::int64_t>> placed;  // by request name; "" for a single request
  std::optional<Expected<std::string>> status;
  // score: the first instance's scores per node (SPEC §9); each part optional.
  struct Scores {
    std::optional<std::int64_t> fit, balanced, total;
  };
  std::optional<Expected<Scores>> scores;
  // --preempt: every victim ("ns/name" or workload id), requests in file
  // order, each request's in output order.
  std::optional<std::vector<std::string>> evicted;
  std::optional<std::vector<std::string>> offers;  // share --model mesos, every offer in order
};

// s in double quotes, with quotes, backslashes and newlines escaped.
std::string in_quotes(std::string_view s);
// The first line of a text, "(empty)" for none.
std::string first_line(const std::string& text);

// Appends one line per mismatch between `e` and the run's `result`.
void compare(const Expectation& e, const RunResult& result, std::vector<std::string>& diffs);

}  // namespace eruplan::fixture_case
