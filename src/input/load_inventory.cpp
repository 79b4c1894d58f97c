// The node inventory (SPEC §2): a schema walk over the document tree that
// builds an Inventory holding every invariant model.h promises, and reports
// every problem it meets rather than stopping at the first.
#include "node_loader.h"

namespace eruplan {

using namespace node_loading;

std::optional<Inventory> load_inventory(const Source& source, Diagnostics& diags) {
  if (auto inventory = load_inventory_streamed(source)) return inventory;
  auto doc = parse_document(source, diags);
  if (!doc) return std::nullopt;
  return load_inventory(*doc, source.name, diags);
}

std::optional<Inventory> load_inventory(const Doc& parsed, const std::string& file,
                                        Diagnostics& diags) {
  const std::size_t errors_before = diags.error_count();
  const Doc* doc = &parsed;
  Reader r(*doc, file, diags);
  const FieldPath root;
  const ValueId top = doc->root();
  if ((*doc)[top].kind == ValueKind::Null) {
    r.error(root, kNoValue, "the inventory is empty; expected a mapping with a list of nodes");
    return std::nullopt;
  }
  Picked<kInventoryFields> f;
  if (!r.fields(root, top, kInventoryFields, f.data())) return std::nullopt;
  const ValueId share_base = f["share_base"], max_fragment_cores = f["max_fragment_cores"],
                nodes = f["nodes"];

  Inventory inventory;
  if (share_base != kNoValue) {
    if (auto s = r.integer(root.child("share_base"), share_base, 1, kMaxShareBase))
      inventory.share_base = *s;
  }
  if (max_fragment_cores != kNoValue) {
    if (auto m = r.integer(root.child("max_fragment_cores"), max_fragment_cores, -1))
      inventory.max_fragment_cores = *m;
  }
  const FieldPath nodes_path = root.child("nodes");
  if (nodes == kNoValue) {
    r.error(nodes_path, top, "nodes is required (a list of nodes)");
  } else if (r.is_array(nodes_path, nodes)) {
    const std::uint32_t n = doc->size(nodes);
    inventory.nodes.reserve(n);
    std::vector<ValueId> name_ids(n, kNoValue);
    NodeLoader loader(r, inventory.share_base);
    for (std::uint32_t i = 0; i < n; ++i)
      inventory.nodes.push_back(loader.load(nodes_path.at(i), doc->element(nodes, i), name_ids[i]));
    check_unique_names(r, nodes_path, inventory.nodes, name_ids);
  }
  if (diags.error_count() > errors_before) return std::nullopt;
  return inventory;
}

}  // namespace eruplan

namespace eruplan {

// One node object of SPEC §2 on its own (grow's --template, SPEC §14), read
// by the inventory's node reader with the inventory's share_base; positions
// and field paths refer to the template file as written.
std::optional<Node> load_node(const Source& source, Pieces share_base, Diagnostics& diags) {
  auto t = load_template(source, share_base, diags);
  if (!t) return std::nullopt;
  return std::move(t->node);
}

std::optional<std::int64_t> parse_cost(std::string_view text) {
  std::int64_t whole = 0, frac = 0;
  std::size_t i = 0, digits = 0, decimals = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
    if (whole > 100'000'000) return std::nullopt;
    whole = whole * 10 + (text[i] - '0');
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++decimals) {
      if (decimals >= 9) return std::nullopt;
      frac = frac * 10 + (text[i] - '0');
    }
    if (decimals == 0) return std::nullopt;
  }
  if (i != text.size() || digits == 0 || whole > 1'000'000'000) return std::nullopt;
  for (std::size_t d = decimals; d < 9; ++d) frac *= 10;
  const std::int64_t nano = whole * kCostScale + frac;
  if (nano > 1'000'000'000 * kCostScale) return std::nullopt;
  return nano;
}

// A grow template (SPEC §14, §19): an eruplan node object read by the
// inventory's node reader with the inventory's share_base, positions and
// field paths from the template file as written; or a Kubernetes Node.
std::optional<GrowTemplate> load_template(const Source& source, Pieces share_base,
                                          Diagnostics& diags) {
  const std::size_t errors_before = diags.error_count();
  auto doc = parse_document(source, diags);
  if (!doc) return std::nullopt;
  Reader r(*doc, source.name, diags);
  const FieldPath root;
  const ValueId top = doc->root();
  if ((*doc)[top].kind == ValueKind::Null) {
    r.error(root, kNoValue, "the node is empty; expected a mapping such as {name: n, cpu: 4}");
    return std::nullopt;
  }
  bool kubernetes = false;
  if ((*doc)[top].kind == ValueKind::Object)
    for (std::uint32_t i = 0; i < doc->size(top); ++i)
      kubernetes |=
          doc->text(doc->key(top, i)) == "kind" || doc->text(doc->key(top, i)) == "apiVersion";
  if (kubernetes) {
    // kubectl get node X -o yaml: read as a node list of one.
    auto inv = load_nodes(source, NodesFormat::Kubernetes, diags);
    if (!inv || inv->nodes.size() != 1) {
      if (inv) r.error(root, top, "expected one Node, got " + std::to_string(inv->nodes.size()));
      return std::nullopt;
    }
    return GrowTemplate{std::move(inv->nodes.front()), std::nullopt};
  }
  ValueId name_id = kNoValue;
  NodeLoader loader(r, share_base);
  loader.allow_cost();
  GrowTemplate t{loader.load(root, top, name_id), std::nullopt};
  if (const ValueId c = loader.cost(); c != kNoValue) {
    if (auto text = r.scalar(root.child("cost"), c)) {
      t.cost = parse_cost(*text);
      if (!t.cost)
        r.error(root.child("cost"), c,
                "expected a cost: a number >= 0 with at most 9 decimals, such as 0.192, got " +
                    quoted(*text));
    }
  }
  if (diags.error_count() > errors_before) return std::nullopt;
  return t;
}

Taint read_taint(Reader& r, const FieldPath& at, ValueId item, ValueId key, ValueId value,
                 ValueId effect) {
  Taint taint;
  if (auto k = r.required_string(at, item, "key", key, "key is required")) taint.key = *k;
  if (value != kNoValue) {
    if (auto s = r.scalar(at.child("value"), value)) taint.value = *s;
  }
  if (auto e =
          r.required_string(at, item, "effect", effect,
                            "effect is required (NoSchedule, PreferNoSchedule or NoExecute)")) {
    if (*e != "NoSchedule" && *e != "PreferNoSchedule" && *e != "NoExecute")
      r.error(
          at.child("effect"), effect,
          "unknown effect " + quoted(*e) + "; expected NoSchedule, PreferNoSchedule or NoExecute");
    else
      taint.effect = *e;
  }
  return taint;
}

}  // namespace eruplan
