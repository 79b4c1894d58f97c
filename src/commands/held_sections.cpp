#include "held_sections.h"

#include <utility>

namespace eruplan {

HeldSections::HeldSections(std::size_t count, bool spill)
    : held_(count), file_(spill ? std::tmpfile() : nullptr) {}

HeldSections::~HeldSections() {
  if (file_ != nullptr) std::fclose(file_);
}

void HeldSections::hold(std::size_t index, std::string text) {
  if (index >= held_.size()) held_.resize(index + 1);
  Held& h = held_[index];
  h.held = true;
  if (file_ != nullptr && std::fseek(file_, end_, SEEK_SET) == 0 &&
      std::fwrite(text.data(), 1, text.size(), file_) == text.size()) {
    h.in_file = true;
    h.offset = end_;
    h.size = text.size();
    end_ += static_cast<long>(text.size());
    return;
  }
  h.text = std::move(text);
}

void HeldSections::take(std::size_t index, std::string& out) {
  Held& h = held_[index];
  if (h.in_file) {
    const std::size_t at = out.size();
    out.resize(at + h.size);
    if (std::fseek(file_, h.offset, SEEK_SET) != 0 ||
        std::fread(out.data() + at, 1, h.size, file_) != h.size) {
      out.resize(at);
      lost_ = true;
    }
  } else {
    out += h.text;
  }
  h = Held{};
}

}  // namespace eruplan
