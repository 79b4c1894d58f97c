// Why a request was not placed (or needs nothing), kept in its parts so
// that no line is ever taken apart again: the name it is about apart from
// its sentence (a workload whose pods all run, {"web", "3 of 3 replicas
// running, nothing to place"}; a strategy that cannot place, {"fill", "2
// nodes can take ..."}; kube-scheduler's "0/3 nodes are available: ..."
// names nothing), how far placing got, and the lines after it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace eruplan {

struct NamedReason {
  std::string subject;  // empty: the sentence stands alone
  std::string text;     // the first line's sentence
  // A line of its own after it: how far placing went ("placed 2 of 5; the
  // 3rd could not be placed"); empty when none.
  std::string placed;
  std::vector<std::string> notes;  // lines after those (what preemption would do)
  std::string suffix;              // added to the last line ("; placed 2, needs at least 3")

  NamedReason() = default;
  NamedReason(std::string subject_, std::string text_)
      : subject(std::move(subject_)), text(std::move(text_)) {}
  // A sentence that names nothing.
  explicit NamedReason(std::string text_) : text(std::move(text_)) {}

  bool operator==(const NamedReason&) const = default;
  bool empty() const { return text.empty() && placed.empty() && notes.empty() && suffix.empty(); }
  // Adds `sentence` to the first line, after a space.
  void add_to_first_line(const std::string& sentence) {
    if (sentence.empty()) return;
    text += (text.empty() ? "" : " ") + sentence;
  }
  // The first line alone, without what follows it.
  void first_line_only() {
    placed.clear();
    notes.clear();
  }
  // Every line standing alone: "web: 3 of 3 replicas running, ...".
  std::string full() const { return lines(true); }
  // In a line that names `who` already: without the name when it is about
  // `who`.
  std::string under(std::string_view who) const { return lines(subject != who); }

 private:
  std::string lines(bool named) const {
    std::string out = named && !subject.empty() ? subject + ": " + text : text;
    if (!placed.empty()) out += "\n" + placed;
    for (const std::string& n : notes) out += "\n" + n;
    return out + suffix;
  }
};

}  // namespace eruplan
