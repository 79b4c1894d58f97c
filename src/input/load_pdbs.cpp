// --pdbs (load_pdbs.h), read by the PodDisruptionBudget tables of kubernetes_fields.h.
#include "load_pdbs.h"

#include <algorithm>
#include <array>

#include "doc.h"
#include "k8s_read.h"
#include "kubernetes_fields.h"
#include "reader.h"

namespace eruplan {

namespace {

// The table's fields out of `object`, as a Kubernetes object's (an
// allow-list: other fields are skipped silently).
using k8s::pick;

std::optional<SelectorOp> label_op(std::string_view text) {
  return value_of(kSelectorOpNames, text, kLabelSelectorOps);
}

bool read_selector(Reader& r, const FieldPath& path, ValueId v, LabelSelector& out) {
  Picked<kSelectorFields> f;
  if (!pick(r, path, v, f)) return false;
  bool ok = true;
  const Doc& doc = r.doc();
  if (const ValueId labels = f["matchLabels"]; labels != kNoValue) {
    const FieldPath at = path.child("matchLabels");
    for (const Reader::Entry& e : r.members(at, labels)) {
      const auto value = r.scalar(at.child(e.key), e.value);
      if (!value) {
        ok = false;
        continue;
      }
      out.requirements.push_back({std::string(e.key), SelectorOp::In, {std::string(*value)}});
    }
  }
  if (const ValueId exprs = f["matchExpressions"]; exprs != kNoValue) {
    const FieldPath at = path.child("matchExpressions");
    if (!r.is_array(at, exprs)) return false;
    for (std::uint32_t i = 0; i < doc.size(exprs); ++i) {
      const FieldPath here = at.at(i);
      Picked<kSelectorRequirementFields> g;
      if (!pick(r, here, doc.element(exprs, i), g)) {
        ok = false;
        continue;
      }
      Requirement req;
      const auto key = r.string(here.child("key"), g["key"]);
      const ValueId op_id = g["operator"];
      const auto op_text = r.string(here.child("operator"), op_id);
      std::optional<SelectorOp> op = op_text ? label_op(*op_text) : std::nullopt;
      if (op_text && !op)
        r.error(here.child("operator"), op_id,
                "expected In, NotIn, Exists or DoesNotExist, got " + r.describe(op_id));
      if (!key || !op) {
        ok = false;
        continue;
      }
      req.key = std::string(*key);
      req.op = *op;
      if (const ValueId values = g["values"]; values != kNoValue) {
        const FieldPath vp = here.child("values");
        if (!r.is_array(vp, values)) {
          ok = false;
          continue;
        }
        for (std::uint32_t j = 0; j < doc.size(values); ++j)
          if (const auto s = r.scalar(vp.at(j), doc.element(values, j)))
            req.values.emplace_back(*s);
      }
      out.requirements.push_back(std::move(req));
    }
  }
  return ok;
}

}  // namespace

std::optional<std::vector<PodDisruptionBudget>> load_pdbs(const Source& source,
                                                          Diagnostics& diags) {
  auto doc = parse_document(source, diags);
  if (!doc) return std::nullopt;
  Reader r(*doc, source.name, diags);
  const bool had_errors = diags.has_errors();
  const FieldPath root;
  Picked<kPdbListFields> list;
  if (!pick(r, root, doc->root(), list)) return std::nullopt;
  std::vector<std::pair<FieldPath, ValueId>> items;
  const FieldPath items_path = root.child("items");
  if (list["items"] != kNoValue) {
    const ValueId arr = list["items"];
    if (!r.is_array(items_path, arr)) return std::nullopt;
    for (std::uint32_t i = 0; i < doc->size(arr); ++i)
      items.emplace_back(items_path.at(i), doc->element(arr, i));
  } else {
    items.emplace_back(root, doc->root());
  }
  std::vector<PodDisruptionBudget> out;
  for (const auto& [at, item] : items) {
    Picked<kPdbFields> f;
    if (!pick(r, at, item, f)) continue;
    const ValueId kind = f["kind"];
    if (kind != kNoValue && doc->text(kind) != "PodDisruptionBudget") {
      r.error(
          at.child("kind"), kind,
          "expected a PodDisruptionBudget (kubectl get pdb -A -o json), got " + r.describe(kind));
      continue;
    }
    k8s::check_pdb_fields(r, at, item);
    PodDisruptionBudget pdb;
    Picked<kPdbMetadataFields> meta;
    Picked<kPdbSpecFields> spec;
    Picked<kPdbStatusFields> status;
    pick(r, at.child("metadata"), f["metadata"], meta);
    pick(r, at.child("spec"), f["spec"], spec);
    pick(r, at.child("status"), f["status"], status);
    const FieldPath meta_path = at.child("metadata");
    if (meta["name"] != kNoValue)
      if (auto s = r.scalar(meta_path.child("name"), meta["name"])) pdb.name = std::string(*s);
    if (meta["namespace"] != kNoValue)
      if (auto s = r.scalar(meta_path.child("namespace"), meta["namespace"]))
        pdb.ns = std::string(*s);
    if (const ValueId sel = spec["selector"]; sel != kNoValue) {
      pdb.has_selector = true;
      read_selector(r, at.child("spec").child("selector"), sel, pdb.selector);
    }
    const FieldPath status_path = at.child("status");
    if (const ValueId d = status["disruptionsAllowed"]; d != kNoValue)
      if (auto n = r.integer(status_path.child("disruptionsAllowed"), d, INT32_MIN, INT32_MAX))
        pdb.disruptions_allowed = static_cast<std::int32_t>(*n);
    if (const ValueId dp = status["disruptedPods"]; dp != kNoValue) {
      for (const Reader::Entry& e : r.members(status_path.child("disruptedPods"), dp))
        pdb.disrupted_pods.emplace_back(e.key);
      std::sort(pdb.disrupted_pods.begin(), pdb.disrupted_pods.end());
    }
    out.push_back(std::move(pdb));
  }
  if (!had_errors && diags.has_errors()) return std::nullopt;
  return out;
}

}  // namespace eruplan
