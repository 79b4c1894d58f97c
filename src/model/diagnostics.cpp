#include "diagnostics.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace eruplan {

namespace {

// Control bytes from the input (a binary file, a stray escape) must not reach
// the terminal raw: they show as \xNN.
std::string printable(std::string text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if ((c < 0x20 && c != '\t') || c == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// The first kMaxValueShown bytes of `s`, fewer when that would cut a UTF-8
// character in two (a continuation byte is 10xxxxxx).
std::string_view value_start(std::string_view s) {
  std::size_t n = kMaxValueShown;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xc0) == 0x80) --n;
  return s.substr(0, n);
}

std::string length_text(std::string_view s) { return "(" + std::to_string(s.size()) + " bytes)"; }

}  // namespace

std::string excerpt(std::string_view s) {
  if (s.size() <= kMaxValueShown) return std::string(s);
  return std::string(value_start(s)) + "..." + length_text(s);
}

std::string quoted(std::string_view s) {
  if (s.size() <= kMaxValueShown) return '"' + std::string(s) + '"';
  return '"' + std::string(value_start(s)) + "...\" " + length_text(s);
}

std::string format_diagnostic(const Diagnostic& d) {
  std::string out;
  const Origin& o = d.origin;
  if (!o.file.empty()) {
    out += o.file;
    if (o.line > 0) {
      out += ':' + std::to_string(o.line);
      if (o.col > 0) out += ':' + std::to_string(o.col);
    }
    out += ": ";
  }
  out += d.severity == Severity::Error ? "error: " : "warning: ";
  if (!o.path.empty()) out += o.path + ": ";
  out += d.message;
  return printable(std::move(out));
}

void Diagnostics::add(Diagnostic d) {
  if (items_.size() < kMaxDiagnostics) return items_.push_back(std::move(d));
  ++dropped_;
  dropped_errors_ += d.severity == Severity::Error;
}

void Diagnostics::error(Origin origin, std::string message) {
  add({Severity::Error, std::move(origin), std::move(message)});
}

void Diagnostics::warning(Origin origin, std::string message) {
  add({Severity::Warning, std::move(origin), std::move(message)});
}

void Diagnostics::append(const Diagnostics& other) {
  for (const Diagnostic& d : other.items_) add(d);
  dropped_ += other.dropped_;
  dropped_errors_ += other.dropped_errors_;
}

void Diagnostics::unknown_field(Origin origin, std::string message) {
  if (!strict_) return warning(std::move(origin), std::move(message));
  // "unknown field, ignored; did you mean x?": strict (the default), it is not
  // ignored; the message names no flag (eruplan test has no opt-out).
  constexpr std::string_view kIgnored = ", ignored";
  if (const auto at = message.find(kIgnored); at != std::string::npos)
    message.erase(at, kIgnored.size());
  error(std::move(origin), std::move(message));
}

bool Diagnostics::has_errors() const {
  if (dropped_errors_ > 0) return true;
  for (const auto& d : items_)
    if (d.severity == Severity::Error) return true;
  return false;
}

std::size_t Diagnostics::error_count() const {
  std::size_t n = dropped_errors_;
  for (const auto& d : items_) n += d.severity == Severity::Error;
  return n;
}

std::string Diagnostics::to_string() const {
  std::string out;
  for (const auto& d : items_) out += format_diagnostic(d) + '\n';
  if (dropped_ > 0) {
    const std::size_t warnings = dropped_ - dropped_errors_;
    out += "... and " + std::to_string(dropped_) + " more problem" + (dropped_ == 1 ? "" : "s") +
           " (" + std::to_string(dropped_errors_) +
           (dropped_errors_ == 1 ? " error, " : " errors, ") + std::to_string(warnings) +
           (warnings == 1 ? " warning" : " warnings") + ") not shown\n";
  }
  return out;
}

std::size_t edit_distance_within(std::string_view a, std::string_view b, std::size_t limit) {
  const std::size_t far = limit + 1;
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return far;
  std::vector<std::size_t> row(b.size() + 1, far);
  for (std::size_t j = 0; j <= std::min(b.size(), limit); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    const std::size_t from = i > limit ? i - limit : 1;
    const std::size_t to = std::min(b.size(), i + limit);
    std::size_t diagonal = row[from - 1];
    row[from - 1] = from == 1 && i <= limit ? i : far;
    std::size_t best = row[from - 1];
    for (std::size_t j = from; j <= to; ++j) {
      const std::size_t above = row[j];
      row[j] =
          std::min({above + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1), far});
      diagonal = above;
      best = std::min(best, row[j]);
    }
    if (to < b.size()) row[to + 1] = far;
    if (best >= far) return far;
  }
  return std::min(row[b.size()], far);
}

}  // namespace eruplan
