// The inventory loaders' shared parts, private to src/input: the node
// reader (node_loader.cpp, node_workloads.cpp) that the whole-document
// reader (load_inventory.cpp) and the streamed JSON reader
// (load_inventory_streamed.cpp) both drive, and the small helpers they share.
#pragma once

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "doc.h"
#include "eruplan_fields.h"
#include "kubernetes.h"
#include "load.h"
#include "units.h"
#include "wide.h"

namespace eruplan::node_loading {

// Bounds that keep a typo from turning into gigabytes of cores.
constexpr std::int64_t kMaxCoresPerNode = 4096;
constexpr std::int64_t kMaxShareBase = 1'000'000'000;  // pieces never finer than nanocores

using Entry = Reader::Entry;

inline bool byte_less(std::string_view a, std::string_view b) { return a < b; }

// Marks which targets a keyed mapping (numa, usage.cpu_map, ...) has already
// named, to report a key given twice.
bool first_time(Reader& r, const FieldPath& path, const Entry& e, std::vector<ValueId>& seen,
                std::size_t index);
// At most 8 ids, then how many in all.
std::string list_ids(const std::vector<std::string_view>& ids);
// SPEC §8.1: a name is any non-empty string but cpu, memory and storage.
bool extended_name_ok(Reader& r, const FieldPath& path, const Entry& e);

// Equal label lists, and equal instance lists, share one copy (SharedList):
// generated and real inventories repeat a few zones and counts over many
// nodes. At most kMaxInterned distinct lists of each are remembered.
template <class T>
class Interner {
 public:
  void intern(SharedList<T>& list) {
    if (list.empty()) return;
    key_.clear();
    for (const auto& entry : list.get()) {
      append(entry.first);
      append(entry.second);
    }
    auto it = seen_.find(key_);
    if (it != seen_.end())
      list.share_with(it->second);  // compares the lists: the key only finds a candidate
    else if (seen_.size() < kMaxInterned)
      seen_.emplace(key_, list);
  }

 private:
  static constexpr std::size_t kMaxInterned = 4096;
  void append(const std::string& s) {
    key_ += std::to_string(s.size());
    key_ += ':';
    key_ += s;
  }
  void append(std::int64_t v) {
    key_ += std::to_string(v);
    key_ += ',';
  }

  std::string key_;
  std::unordered_map<std::string, SharedList<T>> seen_;
};

class NodeLoader {
 public:
  NodeLoader(Reader& r, Pieces share_base)
      : r_(r), share_base_(share_base), listed_left_(listed_core_budget(r.doc().source().size())) {}

  Node load(const FieldPath& path, ValueId v, ValueId& name_id);
  // A grow template may carry `cost`; a node of an inventory may not.
  void allow_cost() { cost_allowed_ = true; }
  ValueId cost() const { return cost_; }
  // The cores its nodes may still list from a count (listed_core_budget of
  // the document's size at first): a reader that loads one file in slices
  // hands it from loader to loader.
  std::int64_t listed_left() const { return listed_left_; }
  void set_listed_left(std::int64_t n) { listed_left_ = n; }

 private:
  // A node's fields, indexed by node_field.
  using Fields = Picked<kNodeFields>;

  void cores_from_cpu(const FieldPath& path, ValueId v);
  void cores_from_map(const FieldPath& path, ValueId v);
  // The index of the core an entry names (after list_cores), or
  // cores.size() after an error naming the node's cores.
  std::size_t known_core(const FieldPath& here, const Entry& e);
  // Lists the node's cores for `v` (at `path`), which names one of them;
  // false, with an error, when that passes the listed-core budget.
  bool list_cores(const FieldPath& path, ValueId v);
  void numa(const FieldPath& path, ValueId v);
  void numa_memory(const FieldPath& path, const Fields& f);
  void volumes(const FieldPath& path, ValueId v);
  void usage(const FieldPath& path, ValueId v);
  // usage.memory and usage.storage (`what`): into `used`, at most the
  // node's `total` (when that was read: `total_ok`).
  void used_size(const FieldPath& path, ValueId v, std::string_view what, Bytes total,
                 bool total_ok, Bytes& used);
  void usage_cpu_map(const FieldPath& path, ValueId v);
  void usage_numa_memory(const FieldPath& path, ValueId v);
  void usage_volumes(const FieldPath& path, ValueId v);
  // usage.numa_memory and usage.volumes: bytes used per NUMA node or device
  // (`what`), each named once (find gives its index, parts.size() when the
  // node has none: the error says `unknown`) and at most its `size` (called
  // `size_word` in the error).
  using Find = std::size_t (NodeLoader::*)(std::string_view) const;
  template <class Part>
  void usage_bytes(const FieldPath& path, const std::vector<Entry>& list, SparseList<Part>& parts,
                   Find find, Bytes Part::*size, std::string_view what, std::string_view unknown,
                   std::string_view size_word);
  // The members of the mapping `v` by name, a name given twice reported
  // and dropped, an empty one reported (`empty_error`) and left out; true
  // in `*unnamed` when there was one.
  std::vector<Entry> named_members(const FieldPath& path, ValueId v, std::string_view empty_error,
                                   bool* unnamed = nullptr);
  void labels(const FieldPath& path, ValueId v);
  void instances(const FieldPath& path, ValueId v);
  void extended(const FieldPath& path, ValueId v);
  void usage_extended(const FieldPath& path, ValueId v);
  void taints(const FieldPath& path, ValueId v);
  void reservations(const FieldPath& path, ValueId v);
  void workloads(const FieldPath& path, const Fields& f);
  bool workload(const FieldPath& path, ValueId v, Workload& w);

  std::size_t find_core(std::string_view id) const;  // cores.size() when absent
  std::size_t find_numa(std::string_view id) const;
  std::size_t find_device(std::string_view name) const;
  std::string cores_summary() const;

  Reader& r_;
  Pieces share_base_;
  bool cost_allowed_ = false;
  ValueId cost_ = kNoValue;
  Node node_;
  std::int64_t listed_left_;
  // Whether each part read cleanly; checks that lean on a broken part are
  // skipped rather than reported twice.
  bool cores_ok_ = true, numa_ok_ = true, memory_ok_ = true, storage_ok_ = true, devices_ok_ = true;
  // SPEC §11: workload id -> where it was first given, across the inventory.
  std::unordered_map<std::string_view, ValueId> workload_ids_;  // views into the document
  Interner<std::pair<std::string, std::string>> labels_seen_;
  Interner<std::pair<std::string, std::int64_t>> instances_seen_;
};

// Duplicate node names: each later one is an error naming the first.
void check_unique_names(Reader& r, const FieldPath& nodes_path, const std::vector<Node>& nodes,
                        const std::vector<ValueId>& name_ids);

}  // namespace eruplan::node_loading
