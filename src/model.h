// The node inventory and the deploy request, as plain structs (SPEC §2-3).
// Quantities are parsed once, at load time, into integers: bytes, CPU pieces,
// nanocores. The loader (load.h) fills these in and guarantees the invariants
// noted on each field; everything downstream trusts them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "diagnostics.h"

namespace eruplan {

using Bytes = std::int64_t;      // memory, storage, volume sizes
using Pieces = std::int64_t;     // CPU pieces; share_base pieces make one core
using NanoCores = std::int64_t;  // CPU quantities as written: 1 core = 1e9

inline constexpr NanoCores kNanoPerCore = 1'000'000'000;

// Key/value list kept sorted by key (byte order unless noted).
template <class V>
using NamedList = std::vector<std::pair<std::string, V>>;

// Core ids and NUMA ids order naturally: "2" before "10"; all-digit ids
// compare as numbers, and come before other ids, which compare by bytes.
bool natural_less(std::string_view a, std::string_view b);

struct Core {
  std::string id;
  Pieces capacity = 0;  // may exceed share_base: an oversold core
  Pieces used = 0;      // usage.cpu_map; 0 <= used <= capacity
  int numa = -1;        // index into Node::numa_nodes, -1 when the node has no NUMA map
};

struct NumaNode {
  std::string id;
  Bytes memory = 0;  // numa_memory
  Bytes used = 0;    // usage.numa_memory; 0 <= used <= memory
};

struct Device {
  std::string name;  // device or mount, e.g. /data0
  Bytes size = 0;
  Bytes used = 0;  // usage.volumes; 0 <= used <= size
};

struct Node {
  std::string name;               // unique, non-empty
  NamedList<std::string> labels;  // sorted by key
  bool available = true;          // false = cordoned
  // The cores. A node given as `cpu: N` with nothing per core (no numa, no
  // usage.cpu_map) keeps them as a count: N cores "0".."N-1" of share_base
  // pieces, none used, so a large memory-mode inventory costs no per-core
  // memory. Otherwise `cores` lists them, in natural id order. Read them
  // through core_count() and the core_* accessors.
  std::vector<Core> cores;
  std::int64_t plain_cores = 0;     // N while `cores` is empty
  Pieces plain_core_pieces = 0;     // share_base
  std::vector<NumaNode> numa_nodes;  // natural id order; empty without `numa`
  Bytes memory = 0;
  Bytes memory_used = 0;
  Bytes storage = 0;
  Bytes storage_used = 0;
  NanoCores cpu_used = 0;            // usage.cpu; default sum(usage.cpu_map) / share_base
  std::vector<Device> devices;       // `volumes`, sorted by name
  NamedList<std::int64_t> instances;  // app -> running instances, sorted by app

  std::int64_t instances_of(std::string_view app) const;
  Pieces cpu_pieces() const;  // sum of core capacities

  std::size_t core_count() const {
    return cores.empty() ? static_cast<std::size_t>(plain_cores) : cores.size();
  }
  std::string core_id(std::size_t i) const { return cores.empty() ? std::to_string(i) : cores[i].id; }
  Pieces core_available(std::size_t i) const {
    return cores.empty() ? plain_core_pieces : cores[i].capacity - cores[i].used;
  }
  int core_numa(std::size_t i) const { return cores.empty() ? -1 : cores[i].numa; }
  // Turns plain cores into listed ones, for per-core data (numa, usage).
  void list_cores();
};

struct Inventory {
  Pieces share_base = 100;             // > 0
  std::int64_t max_fragment_cores = -1;  // -1 = no limit, else >= 0
  std::vector<Node> nodes;             // file order
};

enum class Strategy { Auto, Fill, Each, Global, Drained };

std::string_view strategy_name(Strategy s);  // "auto", "fill", ...

// One entry of resources.volumes: SRC:DST[:FLAGS[:SIZE]].
struct VolumeRequest {
  std::string binding;  // as written, e.g. "AUTO:/data:rw:100"; the key in plans
  std::string source;
  std::string destination;
  std::string flags;
  Bytes size = 0;  // 0 = unlimited quota (or no SIZE given)

  bool scheduled() const { return source == "AUTO"; }
  bool monopoly() const { return flags.find('m') != std::string::npos; }
};

struct NodeFilter {
  NamedList<std::string> labels;   // a node must carry every one
  std::vector<std::string> nodes;  // if non-empty: only these
  std::vector<std::string> exclude;

  bool accepts(const Node& node) const;
};

// A normalised request (SPEC §3): missing requests take their limits,
// limits are raised to requests, and with cpu_bind cpu is raised to cpu_limit.
struct Request {
  std::string app;
  std::int64_t count = 0;  // > 0 when given; 0 = not given (capacity ignores it)
  Strategy strategy = Strategy::Auto;
  std::int64_t nodes_limit = 0;  // >= 0
  NanoCores cpu = 0;             // cpu_request per instance
  NanoCores cpu_limit = 0;
  bool cpu_bind = false;
  Bytes memory = 0;  // memory_request per instance
  Bytes memory_limit = 0;
  Bytes storage = 0;
  std::vector<VolumeRequest> volumes;  // in request order
  NodeFilter filter;

  Origin cpu_origin;  // where resources.cpu came from, for cross-file checks

  bool binds_volumes() const;  // any scheduled (AUTO) volume
};

// Pieces a request of `cpu` nanocores takes at `share_base`; -1 when that is
// not a whole number of pieces.
Pieces cpu_request_pieces(NanoCores cpu, Pieces share_base);

}  // namespace eruplan
