// --namespaces (namespaces.h), read by the Namespace tables of kubernetes_fields.h.
#include <algorithm>
#include <array>

#include "doc.h"
#include "k8s_read.h"
#include "kubernetes_api_fields.h"
#include "kubernetes_fields.h"
#include "namespaces.h"
#include "reader.h"

namespace eruplan {

std::optional<std::vector<std::pair<std::string, Labels>>> load_namespaces(const Source& source,
                                                                           Diagnostics& diags) {
  using k8s::pick;
  std::vector<std::pair<std::string, Labels>> out;
  std::vector<ValueId> where;  // per entry of `out`: its name's value, for "given twice"
  // One Namespace at `at` (paths live on the caller's stack).
  auto read_namespace = [&](Reader& r, const FieldPath& at, ValueId item) {
    const Doc& doc = r.doc();
    Picked<kNamespaceFields> f;
    if (!pick(r, at, item, f)) return;
    if (!k8s::kind_is(r, at, f["kind"], "Namespace", "kubectl get namespaces -o json")) return;
    k8s::check_api_fields(r, at, item, k8s_api::kObject);
    const FieldPath meta_path = at.child("metadata");
    const ValueId meta_value = f["metadata"];
    k8s::check_api_fields(r, meta_path, meta_value, k8s_api::kObjectMeta);
    for (const auto& [key, names] :
         {std::pair<std::string_view, k8s_api::Names>{"spec", k8s_api::kNamespaceSpec},
          std::pair<std::string_view, k8s_api::Names>{"status", k8s_api::kNamespaceStatus}}) {
      if (item == kNoValue || doc[item].kind != ValueKind::Object) break;
      for (std::uint32_t i = 0; i < doc.size(item); ++i)
        if (doc.text(doc.key(item, i)) == key)
          k8s::check_api_fields(r, at.child(key), doc.member(item, i), names);
    }
    Picked<kNamespaceMetadataFields> meta;
    if (!pick(r, meta_path, meta_value, meta)) return;
    const ValueId name_value = meta["name"];
    std::string name;
    if (name_value == kNoValue)
      r.error(meta_path.child("name"), item, "metadata.name is required (the namespace's name)");
    else if (auto s = r.string(meta_path.child("name"), name_value))
      name = std::string(*s);
    Labels labels = k8s::string_map(r, meta_path.child("labels"), meta["labels"]);
    if (name.empty()) return;
    if (!find_label(labels, kNamespaceNameLabel)) {
      labels.emplace_back(std::string(kNamespaceNameLabel), name);
      std::sort(labels.begin(), labels.end());
    }
    for (std::size_t e = 0; e < out.size(); ++e)
      if (out[e].first == name) {
        r.error(
            meta_path.child("name"), name_value,
            "namespace " + quoted(name) + " is given twice (first at " + r.where(where[e]) + ")");
        return;
      }
    out.emplace_back(std::move(name), std::move(labels));
    where.push_back(name_value);
  };
  const bool ok = k8s::read_object_file(
      source, diags, kNamespaceListFields, read_namespace,
      [&](Reader& r, const FieldPath& at, ValueId d) {
        const Doc& doc = r.doc();
        k8s::check_api_fields(r, at, d, k8s_api::kNamespaceList);
        for (std::uint32_t i = 0; i < doc.size(d); ++i)
          if (doc.text(doc.key(d, i)) == "metadata")
            k8s::check_api_fields(r, at.child("metadata"), doc.member(d, i), k8s_api::kListMeta);
      });
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace eruplan
