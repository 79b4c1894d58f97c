// Problems found in the inputs, each with where it came from, so a person
// can find and fix it: file, line and column when the parser knows them, and
// the field path (nodes[3].memory).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace eruplan {

// Where a value came from. line/col are 1-based; 0 means unknown.
struct Origin {
  std::string file;  // as the user named it; "<stdin>", "<command line>"
  std::uint32_t line = 0;
  std::uint32_t col = 0;
  std::string path;  // field path, e.g. nodes[3].memory or --memory
};

enum class Severity { Error, Warning };

struct Diagnostic {
  Severity severity = Severity::Error;
  Origin origin;
  std::string message;
};

// "nodes.yaml:12:13: error: nodes[3].memory: negative size -5"
std::string format_diagnostic(const Diagnostic& d);

// The bytes of an input value a message shows, at most. A value can be
// megabytes long and, behind a YAML alias, be reported once per use: a
// message shows its start and its length, so no message grows with it.
inline constexpr std::size_t kMaxValueShown = 64;

// A name or value inside a message, as given: "abc" (or a long one's start,
// `9xxx...(30001 bytes)`).
std::string excerpt(std::string_view s);
// The same in double quotes: "abc" (or `"9xxx..." (30001 bytes)`).
std::string quoted(std::string_view s);

// Levenshtein distance of a and b when at most `limit`, else limit + 1:
// the table's band within `limit` of its diagonal, given up when a whole row
// of it is past the limit. About |a| x (2 limit + 1) cells.
std::size_t edit_distance_within(std::string_view a, std::string_view b, std::size_t limit);
// Levenshtein distance between two names.
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  return edit_distance_within(a, b, std::max(a.size(), b.size()));
}

// The first of `candidates` (string-like) nearest to `written` when at most
// `max_edits` edits apart, "" when none is: "did you mean". A candidate
// whose length alone differs by more than the best distance so far is not
// compared, and the others only within that distance, so a long name costs
// little. With `cells` (a budget shared by many calls, in cells of the
// distance tables), "" once it is spent, and it is 0 from then on.
template <class Range>
std::string_view nearest_name(std::string_view written, const Range& candidates,
                              std::size_t max_edits, std::int64_t* cells = nullptr) {
  std::string_view best;
  std::size_t best_distance = max_edits + 1;
  for (const auto& candidate : candidates) {
    const std::string_view c(candidate);
    const std::size_t gap =
        c.size() > written.size() ? c.size() - written.size() : written.size() - c.size();
    if (gap >= best_distance) continue;
    const std::size_t limit = best_distance - 1;
    if (cells) {
      const auto cost = static_cast<std::int64_t>(written.size() * (2 * limit + 1) + 1);
      if (cost > *cells) {
        *cells = 0;
        return {};
      }
      *cells -= cost;
    }
    const std::size_t d = edit_distance_within(written, c, limit);
    if (d < best_distance) best_distance = d, best = c;
  }
  return best;
}

// The problems a run keeps and prints, at most: past them, one line says
// how many more there were. An input that repeats a problem (a map reused
// by YAML alias, reporting its unknown fields at every use) thus prints and
// holds a bounded list, whatever the count.
inline constexpr std::size_t kMaxDiagnostics = 1000;

class Diagnostics {
 public:
  void error(Origin origin, std::string message);
  void warning(Origin origin, std::string message);
  // A field the schema does not know: a warning, or with --strict (SPEC §13)
  // an error. Other warnings stay warnings under --strict.
  void unknown_field(Origin origin, std::string message);
  void set_strict(bool strict) { strict_ = strict; }
  bool strict() const { return strict_; }
  // Adds `other`'s diagnostics after these, in their order (a reader that
  // may give up and start again reports into its own Diagnostics first).
  void append(const Diagnostics& other);
  // Adds to the message of the diagnostic at `index` what was known only later.
  void extend_message(std::size_t index, std::string_view more) {
    items_.at(index).message += more;
  }
  bool has_errors() const;
  std::size_t error_count() const;
  // The first kMaxDiagnostics problems, in the order found.
  const std::vector<Diagnostic>& items() const { return items_; }
  // The problems past kMaxDiagnostics, counted and dropped; of them, errors.
  std::size_t dropped() const { return dropped_; }
  std::size_t dropped_errors() const { return dropped_errors_; }
  // The diagnostics kept, one formatted line each, errors and warnings in
  // the order found; then, if any were dropped, "... and N more problems
  // (E errors, W warnings) not shown".
  std::string to_string() const;

 private:
  void add(Diagnostic d);
  std::vector<Diagnostic> items_;
  std::size_t dropped_ = 0, dropped_errors_ = 0;
  bool strict_ = false;
};

}  // namespace eruplan
