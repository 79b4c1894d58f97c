// Synthetic inventories (see gen.h). Written straight into one string with
// to_chars: generating 100,000 nodes should cost far less than loading them.
#include "gen.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>

namespace eruplan::bench {

namespace {

// splitmix64: tiny, and its output is fixed by the seed on every platform
// (unlike std:: distributions, whose results vary between libraries).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi]; the modulo bias is irrelevant for test data.
  std::int64_t between(std::int64_t lo, std::int64_t hi) {
    if (hi <= lo) return lo;
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }

 private:
  std::uint64_t state_;
};

void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// The shortest exact binary spelling: 68719476736 -> "64Gi"; else plain bytes.
void append_size(std::string& out, std::int64_t bytes) {
  static constexpr const char* kSuffix[] = {"Ki", "Mi", "Gi", "Ti"};
  const char* suffix = nullptr;
  std::int64_t value = bytes;
  for (const char* s : kSuffix) {
    if (value == 0 || value % 1024 != 0) break;
    value /= 1024;
    suffix = s;
  }
  append_int(out, value);
  if (suffix != nullptr) out += suffix;
}

// Emits one document in JSON or YAML. Nested maps are flow style in both
// ({a: 1} is YAML too), so only the node list's layout differs by format.
class Emitter {
 public:
  Emitter(std::string& out, GenFormat format) : out_(out), json_(format == GenFormat::Json) {}

  // A field of the node being written.
  void node_field(std::string_view key, bool first) {
    if (json_) {
      out_ += first ? "\n  {\"" : ",\"";
      out_ += key;
      out_ += "\":";
    } else {
      out_ += first ? "\n  - " : "\n    ";
      out_ += key;
      out_ += ": ";
    }
  }
  void end_node(bool last) {
    if (json_) out_ += last ? "}" : "},";
  }

  void open() {
    out_ += '{';
    first_ = true;
  }
  void close() { out_ += '}'; }
  void key(std::string_view k, bool quote = false) {
    if (!first_) out_ += json_ ? "," : ", ";
    first_ = false;
    if (json_ || quote) {
      out_ += '"';
      out_ += k;
      out_ += "\":";
      if (!json_) out_ += ' ';
    } else {
      out_ += k;
      out_ += ": ";
    }
  }
  // Core and NUMA ids are digits: quoted so YAML reads them as strings.
  void id_key(std::int64_t id) {
    std::string k;
    append_int(k, id);
    key(k, true);
  }
  void text(std::string_view v, bool quote = false) {
    if (json_ || quote) out_ += '"';
    out_ += v;
    if (json_ || quote) out_ += '"';
  }
  // A suffixed size is a string ("64Gi"); plain bytes stay a number.
  void size(std::int64_t bytes) {
    std::string v;
    append_size(v, bytes);
    if (v.back() == 'i')
      text(v);
    else
      out_ += v;
  }
  void integer(std::int64_t v) { append_int(out_, v); }
  // Nested maps: a flag per level is not needed as values close before the
  // next key of the outer map, so the outer map is never "first" again.
  void nested_open() {
    out_ += '{';
    first_ = true;
  }
  void nested_close() {
    out_ += '}';
    first_ = false;
  }

 private:
  std::string& out_;
  bool json_;
  bool first_ = true;
};

int digits(std::int64_t n) {
  int d = 1;
  while (n >= 10) {
    n /= 10;
    ++d;
  }
  return d;
}

void write_node(Emitter& e, const GenOptions& o, std::int64_t index, int name_width, Random& rng) {
  static constexpr const char* kZones[] = {"a", "b", "c", "d"};
  const std::int64_t cores = o.cores;
  const std::int64_t numa = o.numa;

  std::string name = "node";
  std::string number;
  append_int(number, index);
  name.append(static_cast<std::size_t>(name_width) - number.size(), '0');
  name += number;

  e.node_field("name", true);
  e.text(name);

  e.node_field("labels", false);
  e.open();
  e.key("zone");
  e.text(kZones[rng.between(0, 3)]);
  e.close();

  if (o.mode == GenMode::Plain) {
    e.node_field("cpu", false);
    e.integer(cores);
  } else {
    e.node_field("cpu_map", false);
    e.open();
    for (std::int64_t c = 0; c < cores; ++c) {
      e.id_key(c);
      e.integer(o.share_base);
    }
    e.close();
  }
  e.node_field("memory", false);
  e.size(o.memory);

  const std::int64_t numa_memory = numa > 0 ? o.memory / numa : 0;
  if (numa > 0) {
    e.node_field("numa", false);
    e.open();
    for (std::int64_t c = 0; c < cores; ++c) {
      e.id_key(c);
      std::string id;
      append_int(id, c * numa / cores);
      e.text(id, true);
    }
    e.close();
    e.node_field("numa_memory", false);
    e.open();
    for (std::int64_t k = 0; k < numa; ++k) {
      e.id_key(k);
      e.size(numa_memory);
    }
    e.close();
  }

  if (rng.between(0, 99) < o.usage_percent) {
    e.node_field("usage", false);
    e.open();
    if (o.mode == GenMode::Plain) {
      // Up to half the cores, in millicores.
      std::string cpu;
      append_int(cpu, rng.between(0, cores * 500));
      cpu += 'm';
      e.key("cpu");
      e.text(cpu);
    } else {
      // A run of whole used cores from a random start, maybe one fragment core.
      const std::int64_t whole = rng.between(0, cores / 4);
      const std::int64_t start = rng.between(0, cores - 1);
      const bool fragment = o.share_base > 1 && rng.between(0, 1) == 1;
      const std::int64_t used = std::min(cores, whole + (fragment ? 1 : 0));
      if (used > 0) {
        e.key("cpu_map");
        e.nested_open();
        for (std::int64_t k = 0; k < used; ++k) {
          e.id_key((start + k) % cores);
          e.integer(k < whole ? o.share_base : rng.between(1, o.share_base - 1));
        }
        e.nested_close();
      }
    }
    // Up to a quarter of the memory, in 1/64 steps (per NUMA node when there are some).
    if (numa > 0) {
      const std::int64_t step = numa_memory / 64;
      std::int64_t used_total = 0;
      std::string per_numa;
      e.key("numa_memory");
      e.nested_open();
      for (std::int64_t k = 0; k < numa; ++k) {
        const std::int64_t used = step * rng.between(0, 16);
        used_total += used;
        e.id_key(k);
        e.size(used);
      }
      e.nested_close();
      e.key("memory");
      e.size(used_total);
    } else {
      e.key("memory");
      e.size(o.memory / 64 * rng.between(0, 16));
    }
    e.close();
  }

  if (o.existing_max > 0) {
    e.node_field("instances", false);
    e.open();
    e.key("web");
    e.integer(rng.between(0, o.existing_max));
    e.close();
  }
}

}  // namespace

std::string generate_inventory(const GenOptions& o) {
  std::string out;
  // About 200 bytes a node in plain mode, more with per-core maps.
  const std::int64_t per_node =
      200 + (o.mode == GenMode::CpuMap ? 10 * o.cores : 0) + (o.numa > 0 ? 12 * o.cores : 0);
  out.reserve(static_cast<std::size_t>(o.nodes * per_node + 256));
  Emitter e(out, o.format);
  const bool json = o.format == GenFormat::Json;

  if (json) {
    out += "{\"share_base\":";
    append_int(out, o.share_base);
    out += ",\"max_fragment_cores\":";
    append_int(out, o.max_fragment_cores);
    out += ",\"nodes\":[";
  } else {
    out += "share_base: ";
    append_int(out, o.share_base);
    out += "\nmax_fragment_cores: ";
    append_int(out, o.max_fragment_cores);
    out += "\nnodes:";
    if (o.nodes == 0) out += " []";
  }
  Random rng(o.seed);
  const int width = digits(o.nodes);
  for (std::int64_t i = 1; i <= o.nodes; ++i) {
    write_node(e, o, i, width, rng);
    e.end_node(i == o.nodes);
  }
  out += json ? "\n]}\n" : "\n";
  return out;
}

std::optional<std::int64_t> parse_gen_size(std::string_view text) {
  std::int64_t value = 0;
  auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (r.ec != std::errc() || value < 0) return std::nullopt;
  const std::string_view suffix(r.ptr, static_cast<std::size_t>(text.data() + text.size() - r.ptr));
  struct Unit {
    std::string_view name;
    std::int64_t factor;
  };
  static constexpr Unit kUnits[] = {
      {"", 1},     {"Ki", 1LL << 10}, {"Mi", 1LL << 20}, {"Gi", 1LL << 30}, {"Ti", 1LL << 40},
      {"k", 1000}, {"K", 1000},       {"M", 1000000},    {"G", 1000000000}, {"T", 1000000000000LL}};
  for (const Unit& u : kUnits) {
    if (suffix != u.name) continue;
    if (value > std::numeric_limits<std::int64_t>::max() / u.factor) return std::nullopt;
    return value * u.factor;
  }
  return std::nullopt;
}

}  // namespace eruplan::bench
