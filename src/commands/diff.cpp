// `eruplan diff` (diff.h). Choices:
// - Every node's fields are read after the inventory's defaults, so a node
//   written `cpu: 4` equals one with cpu_map {0..3: share_base}, and
//   `memory: 8Gi` equals `memory: 8589934592`.
// - Sizes are bytes, CPU in cores (1.5), as in every JSON document.
// - Labels, cpu_map, usage.cpu_map and each workload are one field each (a
//   mapping); taints one field, sorted, as "key=value:Effect". The cpu_map
//   of a node given as `cpu: N` is one entry "0..N-1" (it equals the same
//   cores written out), so comparing and showing it costs no per-core work.
// - A node is matched by name; nodes added or removed are listed by name only.
#include "diff.h"

#include <algorithm>
#include <map>

#include "json_writer.h"
#include "units.h"

namespace eruplan {

namespace {

DiffScalar integer(std::int64_t v) { return {DiffScalar::Kind::Integer, v, {}, false}; }
DiffScalar text(std::string s) { return {DiffScalar::Kind::Text, 0, std::move(s), false}; }
DiffScalar boolean(bool b) { return {DiffScalar::Kind::Boolean, 0, {}, b}; }
DiffScalar cores(NanoCores n) {
  if (n % 1'000'000'000 == 0) return integer(n / 1'000'000'000);
  return {DiffScalar::Kind::Number, 0, format_cores(n), false};
}
DiffValue value(DiffScalar s) { return {false, std::move(s), {}, 0}; }
DiffValue mapping(std::vector<std::pair<std::string, DiffScalar>> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return {true, {}, std::move(entries), 0};
}
// `count` keys "0".."count-1" of `s` each, kept as the count (count > 0).
DiffValue run_mapping(std::int64_t count, DiffScalar s) { return {true, std::move(s), {}, count}; }
std::string run_key(std::int64_t run) { return run == 1 ? "0" : "0.." + std::to_string(run - 1); }

// Whether `key` is the decimal of a number below `run`, as a core id
// "0".."run-1" is written.
bool key_below(const std::string& key, std::int64_t run) {
  if (key.empty() || key.size() > 18 || (key.size() > 1 && key[0] == '0')) return false;
  std::int64_t n = 0;
  for (const char c : key) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + (c - '0');
  }
  return n < run;
}

// A run mapping equals written-out entries when they are its keys (all
// distinct, so `run` of them below `run` are all of them) with its value.
bool run_equals(const DiffValue& run, const DiffValue& listed) {
  if (listed.entries.size() != static_cast<std::size_t>(run.run)) return false;
  return std::all_of(listed.entries.begin(), listed.entries.end(), [&](const auto& e) {
    return e.second == run.scalar && key_below(e.first, run.run);
  });
}

std::string cpu_map_text(const NamedList<Pieces>& map) {
  std::string out;
  for (const auto& [core, pieces] : map)
    out += (out.empty() ? "" : ",") + core + ":" + std::to_string(pieces);
  return out;
}

template <class W>
void write_scalar(W& w, const DiffScalar& s) {
  switch (s.kind) {
    case DiffScalar::Kind::Integer:
      return w.integer(s.integer);
    case DiffScalar::Kind::Number:
      return w.number(s.text);
    case DiffScalar::Kind::Boolean:
      return w.boolean(s.boolean);
    case DiffScalar::Kind::Text:
      return w.string(s.text);
  }
}

template <class W>
void write_value(W& w, const DiffValue& v) {
  if (!v.mapping) return write_scalar(w, v.scalar);
  w.begin_object();
  if (v.run > 0) {
    w.key(run_key(v.run));
    write_scalar(w, v.scalar);
  }
  for (const auto& [key, s] : v.entries) {
    w.key(key);
    write_scalar(w, s);
  }
  w.end_object();
}

std::string scalar_text(const DiffScalar& s, std::string_view field) {
  switch (s.kind) {
    case DiffScalar::Kind::Integer: {
      const bool bytes = field == "memory" || field == "storage" || field == "memory_limit" ||
                         field.ends_with(".memory") || field.ends_with(".storage") ||
                         field.starts_with("volumes.") || field.starts_with("usage.volumes.") ||
                         field.starts_with("numa_memory");
      return bytes ? format_bytes(s.integer) : std::to_string(s.integer);
    }
    case DiffScalar::Kind::Number:
      return s.text;
    case DiffScalar::Kind::Text:
      return s.text.empty() ? "-" : s.text;
    case DiffScalar::Kind::Boolean:
      return s.boolean ? "true" : "false";
  }
  return {};
}

std::string value_text(const DiffValue& v, std::string_view field) {
  if (!v.mapping) return scalar_text(v.scalar, field);
  std::string out = "{";
  if (v.run > 0) out += run_key(v.run) + ": " + scalar_text(v.scalar, "");
  for (const auto& [key, s] : v.entries)
    out += (out.size() > 1 ? ", " : "") + key + ": " + scalar_text(s, key);
  return out + "}";
}

// What a field absent on one side is: its default.
DiffValue absent(const std::string& field, const DiffValue& other) {
  if (other.mapping) return mapping({});
  if (field == "available") return value(boolean(true));
  if (field == "max_instances") return value(integer(-1));
  if (other.scalar.kind == DiffScalar::Kind::Text) return value(text(""));
  return value(integer(0));
}

}  // namespace

bool DiffValue::operator==(const DiffValue& other) const {
  if (mapping != other.mapping) return false;
  if (run > 0 && other.run > 0) return run == other.run && scalar == other.scalar;
  if (run > 0) return run_equals(*this, other);
  if (other.run > 0) return run_equals(other, *this);
  return scalar == other.scalar && entries == other.entries;
}

std::vector<std::pair<std::string, DiffValue>> node_fields(const Node& node, Pieces share_base) {
  (void)share_base;  // plain cores already carry it
  std::vector<std::pair<std::string, DiffValue>> out;
  auto add = [&out](std::string field, DiffValue v) {
    out.emplace_back(std::move(field), std::move(v));
  };
  if (!node.available) add("available", value(boolean(false)));
  if (node.cpu_total() != 0) add("cpu", value(cores(node.cpu_total())));
  // Cores given as a count stay a count: none used, the same pieces each.
  std::vector<std::pair<std::string, DiffScalar>> cpu_map, used_map;
  for (std::size_t i = 0; i < node.cores.size(); ++i) {
    const std::string id = node.core_id(i);
    cpu_map.emplace_back(id, integer(node.cores[i].capacity));
    if (node.cores[i].used != 0) used_map.emplace_back(id, integer(node.cores[i].used));
  }
  if (node.cores.empty() && node.plain_cores > 0)
    add("cpu_map", run_mapping(node.plain_cores, integer(node.plain_core_pieces)));
  if (!cpu_map.empty()) add("cpu_map", mapping(std::move(cpu_map)));
  if (node.memory != 0) add("memory", value(integer(node.memory)));
  if (node.storage != 0) add("storage", value(integer(node.storage)));
  std::vector<std::pair<std::string, DiffScalar>> labels;
  for (const auto& [k, v] : node.labels) labels.emplace_back(k, text(v));
  if (!labels.empty()) add("labels", mapping(std::move(labels)));
  std::vector<std::string> taints;
  for (const Taint& t : node.taints)
    taints.push_back(t.key + (t.value.empty() ? "" : "=" + t.value) + ":" + t.effect);
  std::sort(taints.begin(), taints.end());
  if (!taints.empty()) {
    std::string joined;
    for (const std::string& t : taints) joined += (joined.empty() ? "" : ", ") + t;
    add("taints", value(text(joined)));
  }
  if (node.max_instances >= 0) add("max_instances", value(integer(node.max_instances)));
  for (const NumaNode& n : node.numa_nodes) {
    if (n.memory != 0) add("numa_memory." + n.id, value(integer(n.memory)));
    if (n.used != 0) add("usage.numa_memory." + n.id, value(integer(n.used)));
  }
  for (const Device& d : node.devices) {
    add("volumes." + d.name, value(integer(d.size)));
    if (d.used != 0) add("usage.volumes." + d.name, value(integer(d.used)));
  }
  for (const ExtendedResource& e : node.extended) {
    if (e.total != 0) add("extended." + e.name, value(integer(e.total)));
    if (e.used != 0) add("usage.extended." + e.name, value(integer(e.used)));
  }
  if (node.memory_used != 0) add("usage.memory", value(integer(node.memory_used)));
  if (node.storage_used != 0) add("usage.storage", value(integer(node.storage_used)));
  if (node.cpu_used != 0) add("usage.cpu", value(cores(node.cpu_used)));
  if (!used_map.empty()) add("usage.cpu_map", mapping(std::move(used_map)));
  for (const auto& [app, n] : node.instances)
    if (n != 0) add("instances." + app, value(integer(n)));
  for (const Workload& w : node.workloads) {
    std::vector<std::pair<std::string, DiffScalar>> fields = {{"app", text(w.app)}};
    if (w.cpu != 0) fields.emplace_back("cpu", cores(w.cpu));
    if (w.cpu_limit != 0) fields.emplace_back("cpu_limit", cores(w.cpu_limit));
    if (w.memory != 0) fields.emplace_back("memory", integer(w.memory));
    if (w.memory_limit != 0) fields.emplace_back("memory_limit", integer(w.memory_limit));
    if (!w.cpu_map.empty()) fields.emplace_back("cpu_map", text(cpu_map_text(w.cpu_map)));
    add("workloads." + w.id, mapping(std::move(fields)));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

InventoryDiff diff_inventories(const Inventory& old_inventory, const Inventory& new_inventory) {
  std::map<std::string, const Node*> old_nodes, new_nodes;
  for (const Node& n : old_inventory.nodes) old_nodes[n.name] = &n;
  for (const Node& n : new_inventory.nodes) new_nodes[n.name] = &n;
  InventoryDiff diff;
  for (const auto& [name, node] : new_nodes)
    if (!old_nodes.contains(name)) diff.added.push_back(name);
  for (const auto& [name, node] : old_nodes) {
    const auto it = new_nodes.find(name);
    if (it == new_nodes.end()) {
      diff.removed.push_back(name);
      continue;
    }
    std::map<std::string, DiffValue> before, after;
    for (auto& [f, v] : node_fields(*node, old_inventory.share_base)) before[f] = std::move(v);
    for (auto& [f, v] : node_fields(*it->second, new_inventory.share_base)) after[f] = std::move(v);
    NodeChanges changes{name, {}};
    std::map<std::string, bool> fields;
    for (const auto& [f, v] : before) fields[f] = true;
    for (const auto& [f, v] : after) fields[f] = true;
    for (const auto& [field, unused] : fields) {
      const auto b = before.find(field), a = after.find(field);
      const DiffValue old_value = b != before.end() ? b->second : absent(field, a->second);
      const DiffValue new_value = a != after.end() ? a->second : absent(field, b->second);
      if (!(old_value == new_value)) changes.fields.push_back({field, old_value, new_value});
    }
    if (!changes.fields.empty()) diff.changed.push_back(std::move(changes));
  }
  return diff;
}

std::string render_diff(const InventoryDiff& diff, OutputFormat format) {
  if (format == OutputFormat::Table) {
    if (diff.empty()) return "no difference\n";
    std::string out;
    for (const std::string& n : diff.added) out += "added: " + n + '\n';
    for (const std::string& n : diff.removed) out += "removed: " + n + '\n';
    if (diff.changed.empty()) return out;
    std::vector<std::vector<std::string>> rows = {{"NODE", "FIELD", "OLD", "NEW"}};
    for (const NodeChanges& c : diff.changed)
      for (const FieldChange& f : c.fields)
        rows.push_back(
            {c.node, f.field, value_text(f.old_value, f.field), value_text(f.new_value, f.field)});
    return out + align_columns(rows, "", 2);
  }
  return render_document(format, [&](auto& w) {
    w.begin_object();
    w.key("added");
    write_string_list(w, diff.added);
    w.key("removed");
    write_string_list(w, diff.removed);
    w.key("changed");
    write_keyed_objects(
        w, diff.changed, [](const NodeChanges& c) -> const std::string& { return c.node; },
        [&](const NodeChanges& c) {
          for (const FieldChange& f : c.fields) {
            w.key(f.field);
            w.begin_object();
            write_change(w, "old", f.old_value, "new", f.new_value,
                         [](auto& out, const DiffValue& v) { write_value(out, v); });
            w.end_object();
          }
        });
    w.end_object();
    w.finish();
  });
}

}  // namespace eruplan
