// SparseList and SharedList against std::vector: random changes applied to
// both must leave the same elements, and SharedList's copies on write must
// leave the lists it shared with unchanged.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "model.h"

using namespace eruplan;

namespace {

// One random change, applied to the list and to the vector alike.
template <class List>
void change(List& list, std::vector<int>& oracle, std::mt19937& rng) {
  const auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % (n + 1)); };
  const int x = static_cast<int>(rng() % 100);
  switch (rng() % 9) {
    case 0:
      list.push_back(x);
      oracle.push_back(x);
      break;
    case 1:
      list.emplace_back(x);
      oracle.emplace_back(x);
      break;
    case 2: {
      const std::size_t at = pick(oracle.size());
      list.insert(list.cbegin() + static_cast<std::ptrdiff_t>(at), x);
      oracle.insert(oracle.begin() + static_cast<std::ptrdiff_t>(at), x);
      break;
    }
    case 3: {
      const std::vector<int> more{x, x + 1};
      const std::size_t at = pick(oracle.size());
      list.insert(list.cbegin() + static_cast<std::ptrdiff_t>(at), more.begin(), more.end());
      oracle.insert(oracle.begin() + static_cast<std::ptrdiff_t>(at), more.begin(), more.end());
      break;
    }
    case 4:
      if (!oracle.empty()) {
        const std::size_t at = pick(oracle.size() - 1);
        list.erase(list.cbegin() + static_cast<std::ptrdiff_t>(at));
        oracle.erase(oracle.begin() + static_cast<std::ptrdiff_t>(at));
      }
      break;
    case 5:
      if (!oracle.empty()) {
        const std::size_t at = pick(oracle.size() - 1);
        list[at] = x;
        oracle[at] = x;
        list.front() += 1;
        oracle.front() += 1;
        list.back() -= 1;
        oracle.back() -= 1;
      }
      break;
    case 6:
      for (int& v : list) v += 1;
      for (int& v : oracle) v += 1;
      break;
    case 7:
      if (rng() % 4 == 0) {
        list.clear();
        oracle.clear();
      }
      break;
    default: {
      const std::vector<int> reversed(oracle.rbegin(), oracle.rend());
      list = reversed;
      oracle = reversed;
      break;
    }
  }
}

template <class List>
void check_same(const List& list, const std::vector<int>& oracle) {
  REQUIRE(list.size() == oracle.size());
  CHECK(list.empty() == oracle.empty());
  CHECK(list.get() == oracle);
  CHECK(std::vector<int>(list.begin(), list.end()) == oracle);
  for (std::size_t i = 0; i < oracle.size(); ++i) CHECK(list[i] == oracle[i]);
  if (!oracle.empty()) {
    CHECK(list.front() == oracle.front());
    CHECK(list.back() == oracle.back());
  }
}

}  // namespace

TEST_CASE("SparseList changes like a std::vector, random changes") {
  std::mt19937 rng(16);
  for (int round = 0; round < 200; ++round) {
    SparseList<int> list;
    std::vector<int> oracle;
    for (int step = 0; step < 40; ++step) {
      change(list, oracle, rng);
      check_same(list, oracle);
      const SparseList<int> copy = list;  // a deep copy, equal
      CHECK(copy == list);
    }
  }
  SparseList<int> empty;
  CHECK(empty.data() == nullptr);
  CHECK(empty.begin() == empty.end());
  empty.resize(0);
  CHECK(empty.data() == nullptr);  // still unallocated
  empty = {1, 2, 3};
  CHECK(empty.get() == std::vector<int>{1, 2, 3});
  empty.resize(1);
  CHECK(empty.get() == std::vector<int>{1});
}

TEST_CASE("SharedList changes like a std::vector and copies before changing a shared list") {
  std::mt19937 rng(61);
  for (int round = 0; round < 200; ++round) {
    SharedList<int> list;
    std::vector<int> oracle;
    for (int step = 0; step < 40; ++step) {
      // A list that shares `list`'s vector must keep its elements whatever
      // `list` does next.
      SharedList<int> other = std::vector<int>(oracle);
      other.share_with(list);
      const std::vector<int> before = oracle;
      change(list, oracle, rng);
      check_same(list, oracle);
      check_same(other, before);
    }
  }
  SharedList<int> a = {1, 2};
  SharedList<int> b = std::vector<int>{1, 2};
  CHECK(b.share_with(a));
  CHECK_FALSE(b.share_with(a));  // already one copy
  CHECK(&std::as_const(a).get() == &std::as_const(b).get());
  b[0] = 7;
  CHECK(a.get() == std::vector<int>{1, 2});
  CHECK(b.get() == std::vector<int>{7, 2});
  CHECK_FALSE(a == b);
}
