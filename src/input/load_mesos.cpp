// The roles and frameworks file of `eruplan share --model mesos`: roles
// (name, weight, quota per resource kind) and frameworks (name, role,
// max_count and a request's per-instance parts, read with the request
// reader's own code). Every problem is collected with file:line:col and its
// field path.
#include <algorithm>
#include <array>

#include "doc.h"
#include "eruplan_fields.h"
#include "load.h"
#include "mesos_spec.h"
#include "request_fields.h"
#include "units.h"
#include "wide.h"

namespace eruplan {

namespace {

using Names = std::vector<std::pair<std::string, ValueId>>;  // each name and where first given

// Reads a unique name; false after reporting a missing or repeated one.
bool read_name(Reader& r, const FieldPath& at, ValueId item, ValueId v, std::string_view what,
               Names& names, std::string& out) {
  if (v == kNoValue) {
    r.error(at, item, "name is required (each " + std::string(what) + " has a unique name)");
    return false;
  }
  auto name = r.string(at.child("name"), v);
  if (!name) return false;
  out = *name;
  const auto first =
      std::find_if(names.begin(), names.end(), [&](const auto& seen) { return seen.first == out; });
  if (first != names.end()) {
    r.error(at.child("name"), v,
            std::string(what) + " " + quoted(out) + " is listed twice (first at " +
                r.where(first->second) + ")");
    return false;
  }
  names.emplace_back(out, v);
  return true;
}

// quota: {cpu, memory, storage, extended name: amount}, none negative.
bool read_quota(Reader& r, const FieldPath& at, ValueId v, KindAmounts& out) {
  bool ok = true;
  std::vector<Reader::Entry> kinds = r.members(at, v);
  if (kinds.empty() && !r.is_object(at, v)) return false;
  for (const Reader::Entry& k : kinds) {
    const FieldPath here = at.child(k.key);
    if (k.key == "cpu") {
      if (auto c = r.cpu(here, k.value))
        out.cpu = *c;
      else
        ok = false;
    } else if (k.key == "memory" || k.key == "storage") {
      if (auto b = r.size(here, k.value))
        (k.key == "memory" ? out.memory : out.storage) = *b;
      else
        ok = false;
    } else if (auto n = r.size(here, k.value)) {
      out.extended.emplace_back(std::string(k.key), *n);
    } else {
      ok = false;
    }
  }
  std::sort(out.extended.begin(), out.extended.end());
  return ok;
}

void read_role(Reader& r, const FieldPath& at, ValueId item, MesosSpec& spec, Names& names) {
  Picked<kMesosRoleFields> f;
  if (!r.fields(at, item, kMesosRoleFields, f.data())) return;
  MesosRole role;
  bool ok = read_name(r, at, item, f["name"], "role", names, role.name);
  if (const ValueId w = f["weight"]; w != kNoValue)
    ok = read_weight(r, at.child("weight"), w, role.weight) && ok;
  if (const ValueId q = f["quota"]; q != kNoValue) {
    role.quota_origin = r.origin(at.child("quota"), q);
    ok = read_quota(r, at.child("quota"), q, role.quota) && ok;
  }
  // A role that read badly keeps its place (frameworks naming it are not
  // told it is undeclared); the errors stop the run anyway.
  if (!role.name.empty()) spec.roles.push_back(std::move(role));
  (void)ok;
}

void read_framework(Reader& r, const std::string& file, const FieldPath& at, ValueId item,
                    MesosSpec& spec, Names& names, const Names& roles, Diagnostics& diags) {
  Picked<kMesosFrameworkFields> f;
  if (!r.fields(at, item, kMesosFrameworkFields, f.data())) return;
  MesosFramework fw;
  bool ok = read_name(r, at, item, f["name"], "framework", names, fw.name);
  const ValueId role = f["role"];
  if (role == kNoValue) {
    r.error(at, item, "role is required (one of the roles: list)");
    ok = false;
  } else if (auto name = r.string(at.child("role"), role)) {
    const auto it = std::find_if(spec.roles.begin(), spec.roles.end(),
                                 [&](const MesosRole& x) { return x.name == *name; });
    if (it == spec.roles.end()) {
      std::string known;
      for (const auto& [n, id] : roles) known += (known.empty() ? "" : ", ") + n;
      r.error(at.child("role"), role,
              "role " + quoted(*name) + " is not declared in roles: (" +
                  (known.empty() ? std::string("none") : known) + ")");
      ok = false;
    } else {
      fw.role = static_cast<std::size_t>(it - spec.roles.begin());
    }
  } else {
    ok = false;
  }
  if (const ValueId m = f["max_count"]; m != kNoValue) {
    if (auto n = r.integer(at.child("max_count"), m, 0))
      fw.max_count = *n;
    else
      ok = false;
  }
  const ValueId resources = f["resources"];
  ok = read_request_parts(r, file, at, resources, f["node_filter"], f["tolerations"], fw.name,
                          fw.request, diags) &&
       ok;
  fw.request.cpu_fit = true;
  const FieldPath res = at.child("resources");
  for (const std::string_view key : {"cpu_bind", "volumes"}) {
    const ValueId v = r.doc().find(resources, key);
    if (v == kNoValue) continue;
    if (key == "cpu_bind" && !fw.request.cpu_bind) continue;  // cpu_bind: false
    if (key == "volumes" && fw.request.volumes.empty()) continue;
    r.error(res.child(key), v,
            std::string(key) + " is not available with --model mesos (offers carry amounts only)");
    ok = false;
  }
  const Request& q = fw.request;
  bool asks = q.cpu > 0 || q.memory > 0 || q.storage > 0;
  for (const auto& e : q.extended) asks = asks || e.second > 0;
  if (ok && !asks) {
    r.error(resources == kNoValue ? at : res, resources == kNoValue ? item : resources,
            "framework " + quoted(fw.name) +
                " asks for no resource: give cpu, memory, storage or an extended resource");
    ok = false;
  }
  if (ok) spec.frameworks.push_back(std::move(fw));
}

}  // namespace

bool parse_seed(std::string_view text, std::optional<std::uint64_t>& seed) {
  if (text == "none") {
    seed.reset();
    return true;
  }
  if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != text.npos)
    return false;
  u128 value = 0;
  for (const char c : text) value = value * 10 + static_cast<unsigned>(c - '0');
  if (value > UINT64_MAX) return false;
  seed = static_cast<std::uint64_t>(value);
  return true;
}

std::optional<std::int64_t> parse_cycles(std::string_view text) {
  if (text.empty() || text.size() > 10 || text.find_first_not_of("0123456789") != text.npos)
    return std::nullopt;
  const std::int64_t k = std::stoll(std::string(text));
  if (k < 1 || k > 1'000'000'000) return std::nullopt;
  return k;
}

bool MesosRole::has_quota() const {
  return quota.cpu || quota.memory || quota.storage || !quota.extended.empty();
}

std::optional<MesosSpec> load_mesos(const Source& source, Diagnostics& diags) {
  return read_document<kMesosFields>(
      source, diags, [&](Reader& r, const auto& f) -> std::optional<MesosSpec> {
        const Doc& doc = r.doc();
        const FieldPath root;
        MesosSpec spec;
        Names roles, frameworks;
        const FieldPath role_list = root.child("roles"), framework_list = root.child("frameworks");
        if (f["roles"] == kNoValue) {
          r.error(root, doc.root(), "roles is required with --model mesos (a list of {name, ...})");
        } else if (r.is_array(role_list, f["roles"])) {
          const ValueId list = f["roles"];
          for (std::uint32_t i = 0; i < doc.size(list); ++i) {
            const ValueId item = doc.element(list, i);
            const FieldPath at = role_list.at(i);
            if (r.is_object(at, item)) read_role(r, at, item, spec, roles);
          }
        }
        if (f["frameworks"] == kNoValue) {
          r.error(root, doc.root(),
                  "frameworks is required with --model mesos (a list of {name, role, resources})");
          return std::nullopt;
        }
        const ValueId list = f["frameworks"];
        if (!r.is_array(framework_list, list)) return std::nullopt;
        if (doc.size(list) == 0)
          r.error(framework_list, list, "frameworks is empty; give at least one");
        for (std::uint32_t i = 0; i < doc.size(list); ++i) {
          const ValueId item = doc.element(list, i);
          const FieldPath at = framework_list.at(i);
          if (r.is_object(at, item))
            read_framework(r, source.name, at, item, spec, frameworks, roles, diags);
        }
        return spec;
      });
}

void check_mesos(const Inventory& inventory, const MesosSpec& spec, Diagnostics& diags) {
  check_requests(
      inventory, spec.frameworks,
      [](const MesosFramework& fw) -> const Request& { return fw.request; }, diags);
  for (const Node& node : inventory.nodes)
    for (const Reservation& res : node.reservations)
      if (std::none_of(spec.roles.begin(), spec.roles.end(),
                       [&](const MesosRole& role) { return role.name == res.role; }))
        diags.error(res.origin,
                    "reservation for role " + quoted(res.role) + ", which roles: does not declare");
  // Quotas against the cluster's total (available nodes' capacities).
  u128 cpu = 0, memory = 0, storage = 0;
  for (const Node& node : inventory.nodes) {
    if (!node.available) continue;
    cpu += static_cast<u128>(node.cpu_total());
    memory += static_cast<u128>(node.memory);
    storage += static_cast<u128>(node.storage);
  }
  for (const MesosRole& role : spec.roles) {
    const std::string path = role.quota_origin.path;
    auto above = [&](std::string_view kind, std::int64_t quota, u128 total, std::string shown_q,
                     std::string shown_t) {
      if (static_cast<u128>(quota) <= total) return;
      Origin o = role.quota_origin;
      o.path = path + "." + std::string(kind);
      diags.error(o, "quota of " + std::string(kind) + " " + shown_q +
                         " is above the cluster's total " + shown_t);
    };
    auto big = [](u128 v) {
      std::string s;
      do s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
      while ((v /= 10) != 0);
      return s;
    };
    if (role.quota.cpu)
      above("cpu", *role.quota.cpu, cpu, format_cores(*role.quota.cpu),
            cpu > static_cast<u128>(INT64_MAX) ? big(cpu / kNanoPerCore)
                                               : format_cores(static_cast<NanoCores>(cpu)));
    if (role.quota.memory)
      above("memory", *role.quota.memory, memory, big(*role.quota.memory), big(memory));
    if (role.quota.storage)
      above("storage", *role.quota.storage, storage, big(*role.quota.storage), big(storage));
    for (const auto& [name, amount] : role.quota.extended) {
      u128 total = 0;
      bool known = false;
      for (const Node& node : inventory.nodes)
        if (const ExtendedResource* e = node.find_extended(name)) {
          known = true;
          if (node.available) total += static_cast<u128>(e->total);
        }
      if (!known) {
        Origin o = role.quota_origin;
        o.path = path + "." + name;
        diags.error(o, "unknown quota kind " + quoted(name) +
                           ": not cpu, memory, storage or an extended resource of a node");
        continue;
      }
      above(name, amount, total, std::to_string(amount), big(total));
    }
  }
}

}  // namespace eruplan
