// The realloc request (SPEC §11): which workloads (`workloads:` ids or
// `app:`), signed deltas for cpu, cpu_limit, memory and memory_limit, and
// cpu_bind: keep | true | false. Checks that need the inventory (unknown
// ids, negative results) are select_workloads' (realloc.cpp).
#include <array>
#include <string>
#include <unordered_map>
#include <vector>

#include "doc.h"
#include "eruplan_fields.h"
#include "realloc_spec.h"

namespace eruplan {

namespace {

// A signed delta: "-512Mi", -0.5, "+1", 2. Returns nullopt after reporting.
std::optional<std::int64_t> signed_delta(Reader& r, const FieldPath& path, ValueId v,
                                         const ReallocDelta& delta) {
  if (r.doc()[v].kind == ValueKind::Bool || !r.doc().is_scalar(v) ||
      r.doc()[v].kind == ValueKind::Null) {
    r.error(path, v,
            "expected a signed number or string such as -0.5 or -512Mi, got " + r.describe(v));
    return std::nullopt;
  }
  std::string_view text = r.doc().text(v);
  const bool negative = !text.empty() && text.front() == '-';
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) text.remove_prefix(1);
  std::string error;
  const auto value = delta.parse(text, error);
  if (!value) {
    r.error(path, v, error);
    return std::nullopt;
  }
  return negative ? -*value : *value;
}

}  // namespace

std::optional<ReallocRequest> load_realloc(const Source& source, Diagnostics& diags) {
  auto doc = parse_document(source, diags);
  if (!doc) return std::nullopt;
  Reader r(*doc, source.name, diags);
  const FieldPath root;
  const ValueId top = doc->root();
  ReallocRequest req;
  req.origin = r.origin(root, top);
  if ((*doc)[top].kind == ValueKind::Null) {
    r.error(root, kNoValue, "the realloc request is empty; expected workloads: [ids] or app:");
    return std::nullopt;
  }
  Picked<kReallocFields> f;
  if (!r.fields(root, top, kReallocFields, f.data())) return std::nullopt;
  const ValueId workloads = f["workloads"], app = f["app"], resources = f["resources"],
                cpu_bind = f["cpu_bind"];

  if ((workloads == kNoValue) == (app == kNoValue))
    r.error(root, top,
            workloads == kNoValue ? "give workloads: [ids] or app: (which workloads to change)"
                                  : "give workloads: or app:, not both");
  if (workloads != kNoValue) {
    const FieldPath path = root.child("workloads");
    if (r.is_array(path, workloads)) {
      const std::uint32_t n = doc->size(workloads);
      if (n == 0) r.error(path, workloads, "workloads is empty; give at least one id");
      std::unordered_map<std::string_view, ValueId> seen;
      for (std::uint32_t i = 0; i < n; ++i) {
        const ValueId v = doc->element(workloads, i);
        const FieldPath at = path.at(i);
        const auto id = r.scalar(at, v);
        if (!id) continue;
        if (auto [it, fresh] = seen.emplace(*id, v); !fresh) {
          r.error(at, v,
                  "workload " + quoted(*id) + " is listed twice (first at " + r.where(it->second) +
                      ")");
          continue;
        }
        req.ids.emplace_back(*id);
        req.id_origins.push_back(r.origin(at, v));
      }
    }
  }
  if (app != kNoValue) {
    if (auto a = r.string(root.child("app"), app)) {
      req.app = std::string(*a);
      req.app_origin = r.origin(root.child("app"), app);
    }
  }
  if (resources != kNoValue) {
    const FieldPath path = root.child("resources");
    Picked<kReallocResourceFields> d;
    if (r.fields(path, resources, kReallocResourceFields, d.data()))
      for (std::size_t i = 0; i < kReallocDeltas.size(); ++i) {
        const ReallocDelta& delta = kReallocDeltas[i];
        if (const ValueId v = d.data()[i]; v != kNoValue)
          if (auto value = signed_delta(r, path.child(delta.spec.name), v, delta))
            req.*delta.member = *value;
      }
  }
  if (cpu_bind != kNoValue) {
    const FieldPath path = root.child("cpu_bind");
    // keep, or a boolean in any spelling the loader accepts for booleans.
    if ((*doc)[cpu_bind].kind == ValueKind::String && doc->text(cpu_bind) == "keep") {
      req.cpu_bind = CpuBindChange::Keep;
    } else if ((*doc)[cpu_bind].kind == ValueKind::Bool ||
               ((*doc)[cpu_bind].kind == ValueKind::String && (*doc)[cpu_bind].plain)) {
      if (auto b = r.boolean(path, cpu_bind))
        req.cpu_bind = *b ? CpuBindChange::Bind : CpuBindChange::Unbind;
    } else {
      r.error(path, cpu_bind, "expected keep, true or false, got " + r.describe(cpu_bind));
    }
  }
  // Returned even with problems, so the checks against the inventory
  // (unknown ids, ...) can list theirs too; the caller sees the errors.
  return req;
}

}  // namespace eruplan
