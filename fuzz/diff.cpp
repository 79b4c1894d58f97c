// Fuzz target: `diff OLD NEW`: two inventories split at a "%%" line. The
// selector byte picks the output format and strict reading. When both load,
// an inventory compared with itself has no difference, a JSON diff parses,
// and the two directions name the same changed nodes.
#include "diff.h"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eruplan;
  auto [selector, text] = fuzz::split_input(data, size);
  std::vector<std::string> parts = fuzz::split_parts(text, 2);
  const Source old_source{(selector & 8) ? "old.json" : "old.yaml", std::move(parts[0])};
  const Source new_source{(selector & 16) ? "new.json" : "new.yaml", std::move(parts[1])};
  Diagnostics diags;
  diags.set_strict((selector & 4) != 0);
  const std::optional<Inventory> old_inventory = load_inventory(old_source, diags);
  const std::optional<Inventory> new_inventory = load_inventory(new_source, diags);
  if (diags.has_errors() || !old_inventory || !new_inventory) return 0;
  const OutputFormat output = fuzz::output_for(selector);
  const InventoryDiff diff = diff_inventories(*old_inventory, *new_inventory);
  const std::string out = render_diff(diff, output);
  if (output == OutputFormat::Json && !nlohmann::json::accept(out)) std::abort();
  if (!diff_inventories(*old_inventory, *old_inventory).empty()) std::abort();
  const InventoryDiff back = diff_inventories(*new_inventory, *old_inventory);
  if (back.added != diff.removed || back.removed != diff.added ||
      back.changed.size() != diff.changed.size())
    std::abort();
  return 0;
}
