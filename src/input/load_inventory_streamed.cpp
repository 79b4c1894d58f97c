// A clean JSON inventory read a few nodes at a time (load_inventory_streamed).
#include "node_loader.h"

namespace eruplan {

using namespace node_loading;

namespace {

// --- A JSON inventory read a few nodes at a time ---------------------------
//
// The document tree costs about 20 bytes per value, 3-4 times the JSON text:
// for 1,000,000 nodes, more than the Inventory itself. A clean JSON inventory
// is therefore read in slices: a scan finds the root's members and where each
// element of `nodes` starts and ends (strings and brackets only, validating
// nothing else), then the nodes are parsed and read about kStreamChunkBytes
// of text at a time, each slice's tree freed before the next. Any problem at
// all (a malformed slice, a warning, an error, a duplicate name or workload
// id) gives up, and the whole-document reader reads the file again and
// reports exactly as before: this path never writes a diagnostic.

bool json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class JsonSkeleton {
 public:
  explicit JsonSkeleton(std::string_view text) : s_(text) {}

  std::size_t pos() const { return pos_; }
  bool at_end() {
    space();
    return pos_ == s_.size();
  }
  bool eat(char c) {
    space();
    if (pos_ == s_.size() || s_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  bool peek(char c) {
    space();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  // A key without escapes (the root's keys are plain words); nullopt else.
  std::optional<std::string_view> plain_string() {
    space();
    if (pos_ == s_.size() || s_[pos_] != '"') return std::nullopt;
    const std::size_t close = s_.find_first_of("\"\\", pos_ + 1);
    if (close == std::string_view::npos || s_[close] != '"') return std::nullopt;
    const std::string_view text = s_.substr(pos_ + 1, close - pos_ - 1);
    pos_ = close + 1;
    return text;
  }
  // Steps over one value; its text is s_[begin, pos()). Only strings and
  // brackets are followed; the parser checks the rest.
  bool skip_value(std::size_t& begin) {
    space();
    begin = pos_;
    if (pos_ == s_.size()) return false;
    const char c = s_[pos_];
    if (c == '"') return skip_string();
    if (c == '{' || c == '[') {
      std::size_t depth = 0;
      while (pos_ < s_.size()) {
        const char d = s_[pos_];
        if (d == '"') {
          if (!skip_string()) return false;
          continue;
        }
        ++pos_;
        if (d == '{' || d == '[') {
          ++depth;
        } else if (d == '}' || d == ']') {
          if (--depth == 0) return true;
        }
      }
      return false;
    }
    while (pos_ < s_.size() && !json_space(s_[pos_]) && s_[pos_] != ',' && s_[pos_] != '}' &&
           s_[pos_] != ']')
      ++pos_;
    return pos_ > begin;
  }

 private:
  void space() {
    while (pos_ < s_.size() && json_space(s_[pos_])) ++pos_;
  }
  bool skip_string() {  // at the opening quote
    for (++pos_; pos_ < s_.size(); ++pos_) {
      if (s_[pos_] == '\\') {
        ++pos_;
      } else if (s_[pos_] == '"') {
        ++pos_;
        return true;
      }
    }
    return false;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

struct Span {
  std::uint32_t begin = 0, end = 0;
};

// The root object's layout: its scalar members and the extent of each node.
struct InventoryLayout {
  std::optional<Span> share_base, max_fragment_cores;
  std::vector<Span> nodes;
};

std::optional<InventoryLayout> scan_layout(std::string_view text) {
  JsonSkeleton k(text);
  InventoryLayout layout;
  bool have_nodes = false;
  if (!k.eat('{')) return std::nullopt;
  for (bool first = true; !k.peek('}'); first = false) {
    if (!first && !k.eat(',')) return std::nullopt;
    const auto key = k.plain_string();
    if (!key || !k.eat(':')) return std::nullopt;
    std::size_t begin = 0;
    auto is = [&key](std::size_t field) { return *key == kInventoryFields[field].name; };
    if (is(field_index(kInventoryFields, "nodes"))) {
      if (have_nodes || !k.eat('[')) return std::nullopt;
      have_nodes = true;
      for (bool first_node = true; !k.peek(']'); first_node = false) {
        if (!first_node && !k.eat(',')) return std::nullopt;
        if (!k.peek('{') || !k.skip_value(begin)) return std::nullopt;
        layout.nodes.push_back(
            {static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(k.pos())});
      }
      k.eat(']');
      continue;
    }
    std::optional<Span>* field =
        is(field_index(kInventoryFields, "share_base"))           ? &layout.share_base
        : is(field_index(kInventoryFields, "max_fragment_cores")) ? &layout.max_fragment_cores
                                                                  : nullptr;
    if (field == nullptr || field->has_value() || !k.skip_value(begin)) return std::nullopt;
    *field = Span{static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(k.pos())};
  }
  k.eat('}');
  if (!have_nodes || !k.at_end()) return std::nullopt;
  return layout;
}

bool names_unique(std::vector<std::string_view> names) {
  auto out_of_order = [](std::string_view a, std::string_view b) { return a >= b; };
  if (std::adjacent_find(names.begin(), names.end(), out_of_order) == names.end()) return true;
  std::sort(names.begin(), names.end());
  return std::adjacent_find(names.begin(), names.end()) == names.end();
}

// A piece of the file parsed on its own; the Doc views source.text.
struct Slice {
  Source source;
  std::optional<Doc> doc;
};

bool parse_slice(const std::string& file, std::string text, Slice& slice, Diagnostics& diags) {
  slice.doc.reset();
  slice.source.name = file;
  slice.source.format = InputFormat::Json;
  slice.source.text = std::move(text);
  slice.doc = parse_document(slice.source, diags);
  return slice.doc.has_value() && diags.items().empty();
}

}  // namespace

std::optional<Inventory> load_inventory_streamed(const Source& source, std::size_t chunk_bytes) {
  const std::string_view text = source.text;
  if (source.format == InputFormat::Yaml || text.size() >= UINT32_MAX) return std::nullopt;
  if (source.format == InputFormat::Auto) {
    std::string name = source.name;
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (name.ends_with(".yaml") || name.ends_with(".yml")) return std::nullopt;
  }
  auto layout = scan_layout(text);
  if (!layout) return std::nullopt;

  Diagnostics quiet;  // any entry at all: give up
  const FieldPath root;
  Inventory inventory;
  Slice slice;
  auto scalar = [&](const std::optional<Span>& span, std::size_t field, std::int64_t min,
                    std::int64_t max, auto& out) {
    if (!span) return true;
    if (!parse_slice(source.name, std::string(text.substr(span->begin, span->end - span->begin)),
                     slice, quiet))
      return false;
    Reader r(*slice.doc, source.name, quiet);
    const auto v = r.integer(root.child(kInventoryFields[field].name), slice.doc->root(), min, max);
    if (!v || !quiet.items().empty()) return false;
    out = *v;
    return true;
  };
  if (!scalar(layout->share_base, field_index(kInventoryFields, "share_base"), 1, kMaxShareBase,
              inventory.share_base) ||
      !scalar(layout->max_fragment_cores, field_index(kInventoryFields, "max_fragment_cores"), -1,
              INT64_MAX, inventory.max_fragment_cores))
    return std::nullopt;

  const std::vector<Span>& spans = layout->nodes;
  inventory.nodes.reserve(spans.size());
  const FieldPath nodes_path = root.child("nodes");
  std::int64_t listed_left = listed_core_budget(text.size());  // the file's, slice after slice
  for (std::size_t first = 0; first < spans.size();) {
    std::size_t last = first + 1;  // nodes [first, last) make one slice
    while (last < spans.size() && spans[last].end - spans[first].begin <= chunk_bytes) ++last;
    std::string piece;
    piece.reserve(spans[last - 1].end - spans[first].begin + 2);
    piece += '[';
    piece.append(text.substr(spans[first].begin, spans[last - 1].end - spans[first].begin));
    piece += ']';
    if (!parse_slice(source.name, std::move(piece), slice, quiet)) return std::nullopt;
    const Doc& doc = *slice.doc;
    if (doc[doc.root()].kind != ValueKind::Array || doc.size(doc.root()) != last - first)
      return std::nullopt;
    Reader r(doc, source.name, quiet);
    NodeLoader loader(r, inventory.share_base);
    loader.set_listed_left(listed_left);
    for (std::size_t i = first; i < last; ++i) {
      ValueId name_id = kNoValue;
      inventory.nodes.push_back(
          loader.load(nodes_path.at(static_cast<std::int64_t>(i)),
                      doc.element(doc.root(), static_cast<std::uint32_t>(i - first)), name_id));
    }
    if (!quiet.items().empty()) return std::nullopt;
    listed_left = loader.listed_left();
    first = last;
  }
  slice.doc.reset();
  slice.source = Source{};

  std::vector<std::string_view> names, workload_ids;
  names.reserve(inventory.nodes.size());
  for (const Node& node : inventory.nodes) {
    names.push_back(node.name);
    for (const Workload& w : node.workloads) workload_ids.push_back(w.id);
  }
  if (!names_unique(std::move(names)) || !names_unique(std::move(workload_ids)))
    return std::nullopt;
  return inventory;
}

}  // namespace eruplan
