// --pdbs (load_pdbs.h), read by the tables of pdb_fields.h.
#include "load_pdbs.h"

#include <algorithm>
#include <array>

#include "doc.h"
#include "pdb_fields.h"
#include "reader.h"

namespace eruplan {

namespace {

// The table's fields out of `object` (an allow-list: other fields are
// skipped silently); false when `object` is not a mapping.
bool pick(Reader& r, const FieldPath& path, ValueId object, std::span<const FieldSpec> table,
          ValueId* values) {
  std::fill(values, values + table.size(), kNoValue);
  if (object == kNoValue || r.doc()[object].kind == ValueKind::Null) return true;
  if (!r.is_object(path, object)) return false;
  const Doc& doc = r.doc();
  for (std::uint32_t i = 0; i < doc.size(object); ++i) {
    const std::string_view key = doc.text(doc.key(object, i));
    for (std::size_t f = 0; f < table.size(); ++f) {
      if (table[f].name != key) continue;
      const ValueId v = doc.member(object, i);
      if (values[f] != kNoValue)
        r.error(path.child(key), doc.key(object, i),
                "given twice (first at " + r.where(values[f]) + ")");
      else if (doc[v].kind != ValueKind::Null)
        values[f] = v;
    }
  }
  return true;
}

std::optional<SelectorOp> label_op(std::string_view text) {
  return value_of(kSelectorOpNames, text, kLabelSelectorOps);
}

bool read_selector(Reader& r, const FieldPath& path, ValueId v, LabelSelector& out) {
  std::array<ValueId, kSelectorFields.size()> f;
  if (!pick(r, path, v, kSelectorFields, f.data())) return false;
  bool ok = true;
  const Doc& doc = r.doc();
  if (const ValueId labels = f[selector_field::kMatchLabels]; labels != kNoValue) {
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
  if (const ValueId exprs = f[selector_field::kMatchExpressions]; exprs != kNoValue) {
    const FieldPath at = path.child("matchExpressions");
    if (!r.is_array(at, exprs)) return false;
    for (std::uint32_t i = 0; i < doc.size(exprs); ++i) {
      const FieldPath here = at.at(i);
      std::array<ValueId, kSelectorRequirementFields.size()> g;
      if (!pick(r, here, doc.element(exprs, i), kSelectorRequirementFields, g.data())) {
        ok = false;
        continue;
      }
      Requirement req;
      const auto key = r.string(here.child("key"), g[selector_requirement_field::kKey]);
      const ValueId op_id = g[selector_requirement_field::kOperator];
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
      if (const ValueId values = g[selector_requirement_field::kValues]; values != kNoValue) {
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
  std::array<ValueId, kPdbListFields.size()> list;
  if (!pick(r, root, doc->root(), kPdbListFields, list.data())) return std::nullopt;
  std::vector<std::pair<FieldPath, ValueId>> items;
  const FieldPath items_path = root.child("items");
  if (list[pdb_list_field::kItems] != kNoValue) {
    const ValueId arr = list[pdb_list_field::kItems];
    if (!r.is_array(items_path, arr)) return std::nullopt;
    for (std::uint32_t i = 0; i < doc->size(arr); ++i)
      items.emplace_back(items_path.at(i), doc->element(arr, i));
  } else {
    items.emplace_back(root, doc->root());
  }
  std::vector<PodDisruptionBudget> out;
  for (const auto& [at, item] : items) {
    std::array<ValueId, kPdbFields.size()> f;
    if (!pick(r, at, item, kPdbFields, f.data())) continue;
    const ValueId kind = f[pdb_field::kKind];
    if (kind != kNoValue && doc->text(kind) != "PodDisruptionBudget") {
      r.error(
          at.child("kind"), kind,
          "expected a PodDisruptionBudget (kubectl get pdb -A -o json), got " + r.describe(kind));
      continue;
    }
    PodDisruptionBudget pdb;
    std::array<ValueId, kPdbMetadataFields.size()> meta;
    std::array<ValueId, kPdbSpecFields.size()> spec;
    std::array<ValueId, kPdbStatusFields.size()> status;
    pick(r, at.child("metadata"), f[pdb_field::kMetadata], kPdbMetadataFields, meta.data());
    pick(r, at.child("spec"), f[pdb_field::kSpec], kPdbSpecFields, spec.data());
    pick(r, at.child("status"), f[pdb_field::kStatus], kPdbStatusFields, status.data());
    const FieldPath meta_path = at.child("metadata");
    if (meta[pdb_metadata_field::kName] != kNoValue)
      if (auto s = r.scalar(meta_path.child("name"), meta[pdb_metadata_field::kName]))
        pdb.name = std::string(*s);
    if (meta[pdb_metadata_field::kNamespace] != kNoValue)
      if (auto s = r.scalar(meta_path.child("namespace"), meta[pdb_metadata_field::kNamespace]))
        pdb.ns = std::string(*s);
    if (const ValueId sel = spec[pdb_spec_field::kSelector]; sel != kNoValue) {
      pdb.has_selector = true;
      read_selector(r, at.child("spec").child("selector"), sel, pdb.selector);
    }
    const FieldPath status_path = at.child("status");
    if (const ValueId d = status[pdb_status_field::kDisruptionsAllowed]; d != kNoValue)
      if (auto n = r.integer(status_path.child("disruptionsAllowed"), d, INT32_MIN, INT32_MAX))
        pdb.disruptions_allowed = static_cast<std::int32_t>(*n);
    if (const ValueId dp = status[pdb_status_field::kDisruptedPods]; dp != kNoValue) {
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
