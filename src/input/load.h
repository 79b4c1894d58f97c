// Loading (SPEC §2-3): JSON or YAML text -> Inventory / Request, with every
// problem collected as a Diagnostic (file, line:col, field path). Nothing
// here opens files: callers pass the text in a Source, or for a pod list
// (which may be larger than the memory it should take) a ByteStream.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "diagnostics.h"
#include "model.h"
#include "selector_hints.h"

namespace eruplan {

enum class InputFormat { Auto, Json, Yaml };

// A file's bytes, a piece at a time (the CLI's files; a text in tests).
class ByteStream {
 public:
  virtual ~ByteStream() = default;
  // Up to `n` bytes into `out`: how many, 0 at the end (or on a read error).
  virtual std::size_t read(char* out, std::size_t n) = 0;
  // Back to the first byte, to read it all again; false when it cannot.
  virtual bool rewind() = 0;
  virtual std::uint64_t size() const = 0;
};

// A text in memory, not owned, as a ByteStream.
class ViewStream : public ByteStream {
 public:
  explicit ViewStream(std::string_view text) : text_(text) {}
  ViewStream(const ViewStream&) = delete;
  ViewStream& operator=(const ViewStream&) = delete;
  std::size_t read(char* out, std::size_t n) override {
    n = std::min(n, text_.size() - at_);
    std::memcpy(out, text_.data() + at_, n);
    at_ += n;
    return n;
  }
  bool rewind() override {
    at_ = 0;
    return true;
  }
  std::uint64_t size() const override { return text_.size(); }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
};

// A text in memory, owned, as a ByteStream (the text is a base so that it
// exists before the view over it).
struct OwnedText {
  std::string text;
};
class TextStream : private OwnedText, public ViewStream {
 public:
  explicit TextStream(std::string text) : OwnedText{std::move(text)}, ViewStream(OwnedText::text) {}
};

struct Source {
  Source() = default;
  Source(std::string n, std::string t, InputFormat f = InputFormat::Auto, std::string m = {})
      : name(std::move(n)), text(std::move(t)), format(f), member(std::move(m)) {}

  std::string name;  // as the user named it: "nodes.yaml", "<stdin>"
  std::string text;
  InputFormat format = InputFormat::Auto;  // Auto: by extension of name, else by content
  // Set for an input written inline in a fixture case (SPEC §7): `text` is
  // the whole case file and the input is the value of its top-level member
  // of this name, so positions in messages are the case file's.
  std::string member;
  // Set for a --pods file read a piece at a time (then `text` is empty): a
  // JSON pod list is read from it so, anything else read whole first.
  std::shared_ptr<ByteStream> stream;
};

// The input's size in bytes, in `text` or `stream`.
inline std::uint64_t source_bytes(const Source& s) {
  return s.stream ? s.stream->size() : s.text.size();
}

// The format a Source is read in: the forced one, else by the name's
// extension (any case), else by content (JSON when it opens with { or [,
// after a byte order mark); never Auto.
InputFormat source_format(const Source& source);

// The request-override flags (SPEC §1), as the user typed them, by flag
// ("--memory", "--volume"): each replaces the field of the request file
// that has it (request_fields.h; --scoring replaces scoring.type).
// Diagnostics about them name the flag (origin file "<command line>", path
// "--memory").
class RequestOverrides {
 public:
  bool empty() const { return given_.empty(); }
  bool given(std::string_view flag) const;
  // Gives `flag` its value, or one more for a repeatable flag (a list's or
  // the labels'); false for a name that is no request flag.
  bool set(std::string_view flag, std::string value);
  void reset(std::string_view flag);
  // A flag's values: the one given, or one per use of a repeatable flag;
  // none when not given.
  std::span<const std::string> values(std::string_view flag) const;
  // A flag's value (a repeatable one's last); null when not given.
  const std::string* value(std::string_view flag) const;

 private:
  const std::vector<std::string>* find(std::string_view flag) const;
  std::vector<std::pair<std::string, std::vector<std::string>>> given_;  // in the order given
};

std::optional<Inventory> load_inventory(const Source& source, Diagnostics& diags);
// The same for a clean JSON inventory, read a few nodes at a time so that the
// document tree never holds the whole file (load_inventory tries it first).
// nullopt when the input is not such a file or has anything to report, even
// a warning: load_inventory then reads the whole document and reports.
inline constexpr std::size_t kStreamChunkBytes = 1 << 20;
std::optional<Inventory> load_inventory_streamed(const Source& source,
                                                 std::size_t chunk_bytes = kStreamChunkBytes);
// One node object of SPEC §2 alone (grow's --template), read as the
// inventory's nodes are, with the given share_base.
std::optional<Node> load_node(const Source& source, Pieces share_base, Diagnostics& diags);

// A node to add copies of (grow's --template): an eruplan node object with an
// optional `cost`, or a Kubernetes Node (`kubectl get node X -o yaml`).
// Costs are exact decimals held in billionths of the unit written (0.192 is
// 192,000,000).
inline constexpr std::int64_t kCostScale = 1'000'000'000;
struct GrowTemplate {
  Node node;                         // copies are named <node.name>-1, -2, ...
  std::optional<std::int64_t> cost;  // per node, in billionths; none when not given
};
std::optional<GrowTemplate> load_template(const Source& source, Pieces share_base,
                                          Diagnostics& diags);
// "0.192" -> 192000000; nullopt for a negative or malformed cost, or one
// above 10^9.
std::optional<std::int64_t> parse_cost(std::string_view text);

// A request file: one request (SPEC §3), or a `requests:` list (§8.4).
struct RequestSet {
  std::vector<Request> requests;       // file order
  std::vector<std::uint32_t> indexes;  // list mode: each request's index in the file's list
  bool list = false;                   // the file held a requests: list
  bool overridden = false;             // list mode with request flags: a usage error (exit 2)
  // KubernetesOptions::DaemonSets::Apart or Only: the DaemonSets, file order
  // (their pod, tolerations with the controller's, resources and app).
  std::vector<Request> daemons;
};

// `source` may be null: the request then comes from the overrides alone.
// `count_required`: `plan` needs count > 0; `capacity` ignores it.
// With errors, every request still comes back as far as it was read
// (nullopt when the file holds none), so that check_inputs reports their
// other problems in the same run; look at diags for the errors, and plan
// nothing when there are any.
std::optional<RequestSet> load_requests(const Source* source, const RequestOverrides& overrides,
                                        bool count_required, Diagnostics& diags);

// `source` may be null: the request then comes from the overrides alone.
// `count_required`: `plan` needs count > 0; `capacity` ignores it.
// nullopt after any error.
std::optional<Request> load_request(const Source* source, const RequestOverrides& overrides,
                                    bool count_required, Diagnostics& diags);

// `scoring.type` (SPEC §9): least_allocated, most_allocated,
// requested_to_capacity_ratio.
std::optional<ScoringType> parse_scoring_type(std::string_view text);
std::string unknown_scoring(std::string_view text);

// Checks that need both inputs, e.g. with cpu_bind, cpu x share_base must be
// a whole number of pieces (0.29 cores at 100 is 29 pieces, never 28).
void check_inputs(const Inventory& inventory, const Request& request, Diagnostics& diags);

// check_inputs and the unmatched-selector warnings (selector_hints.h) for
// each of several requests (a request file's, a share file's apps, a Mesos
// file's frameworks; `request_of(item)` is an item's), the "did you mean"
// hints under one budget.
template <class Items, class RequestOf>
void check_requests(const Inventory& inventory, const Items& items, RequestOf request_of,
                    Diagnostics& diags) {
  HintBudget hints;
  for (const auto& item : items) {
    check_inputs(inventory, request_of(item), diags);
    warn_unmatched_selectors(inventory, request_of(item), diags, &hints);
  }
}

// Quantity parsing, shared with the CLI and fixture runner. Each returns
// nullopt and sets `error` to a message a person can act on.
// Sizes: non-negative integer bytes, or Ki Mi Gi Ti Pi Ei / k K M G T P E suffixes.
std::optional<Bytes> parse_size(std::string_view text, std::string& error);
// CPU: cores ("1.5", "2") or millicores ("1500m") -> nanocores.
std::optional<NanoCores> parse_cpu(std::string_view text, std::string& error);

}  // namespace eruplan
