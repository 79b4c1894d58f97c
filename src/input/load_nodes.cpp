// -n: an eruplan inventory or Kubernetes Nodes, by content or by
// --nodes-format.
#include "k8s_read.h"

namespace eruplan {

namespace {

// A line "---" (a YAML document separator) after the file's first line:
// the file may be a stream of documents.
bool has_later_document(std::string_view text) {
  for (std::size_t at = text.find("\n---"); at != std::string_view::npos;
       at = text.find("\n---", at + 1)) {
    const std::size_t after = at + 4;
    if (after == text.size() || text[after] == '\n' || text[after] == '\r' || text[after] == ' ' ||
        text[after] == '\t')
      return true;
  }
  return false;
}

}  // namespace

std::optional<Inventory> load_nodes(const Source& source, NodesFormat format, Diagnostics& diags) {
  if (format == NodesFormat::Eruplan) return load_inventory(source, diags);
  if (format == NodesFormat::Auto)  // a JSON inventory holds no "kind": it is not a NodeList
    if (auto inventory = load_inventory_streamed(source)) return inventory;
  if (source.member.empty() && has_later_document(source.text)) {
    // Nodes one document each (kubectl get node A -o yaml, ---, ...).
    Diagnostics probe;
    std::vector<ValueId> documents;
    if (auto stream = parse_document_stream(source, probe, documents);
        stream && k8s::is_kubernetes_node_stream(*stream, documents))
      return k8s::load_kubernetes_node_stream(*stream, documents, source.name, diags,
                                              format == NodesFormat::Kubernetes);
  }
  auto doc = parse_document(source, diags);
  if (!doc) return std::nullopt;
  if (format == NodesFormat::Kubernetes || k8s::is_kubernetes_nodes(*doc))
    return k8s::load_kubernetes_nodes(*doc, source.name, diags, format == NodesFormat::Kubernetes);
  return load_inventory(*doc, source.name, diags);
}

}  // namespace eruplan
