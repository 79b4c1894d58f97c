// -n: an eruplan inventory or Kubernetes Nodes, by content or by
// --nodes-format.
#include "k8s_read.h"

namespace eruplan {

// A new -n format declares its loader (and the test that recognises it by
// content) here and adds its entry to load_nodes: its own loader, its field
// table and this file are all it touches.

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
