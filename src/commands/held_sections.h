// The sections of a plan of several requests that are planned ahead of
// their turn (a higher priority further down the file, a queue sort), kept
// until the ones before them in the file are written. Kept in memory, 700
// requests planned last-first held a 3,000-node output whole (172 MB for a
// 92 KB input); when spilling, they wait in a temporary file instead and
// memory holds one at a time (in memory still if no file can be made).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace eruplan {

class HeldSections {
 public:
  // `count` sections; `spill`: to a temporary file.
  HeldSections(std::size_t count, bool spill);
  ~HeldSections();
  HeldSections(const HeldSections&) = delete;
  HeldSections& operator=(const HeldSections&) = delete;

  void hold(std::size_t index, std::string text);
  bool held(std::size_t index) const { return index < held_.size() && held_[index].held; }
  // Appends section `index` (held) to `out` and forgets it.
  void take(std::size_t index, std::string& out);
  // A section could not be read back from the file (the output is not whole).
  bool lost() const { return lost_; }

 private:
  struct Held {
    bool held = false;
    bool in_file = false;
    long offset = 0;
    std::size_t size = 0;
    std::string text;
  };
  std::vector<Held> held_;
  std::FILE* file_ = nullptr;
  long end_ = 0;  // where the next section goes in the file
  bool lost_ = false;
};

}  // namespace eruplan
