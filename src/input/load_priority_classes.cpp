// --priority-classes (priority_classes.h), read by the PriorityClass tables of
// kubernetes_fields.h.
#include <algorithm>
#include <array>
#include <unordered_set>

#include "doc.h"
#include "k8s_read.h"
#include "kubernetes.h"
#include "kubernetes_fields.h"
#include "priority_classes.h"
#include "reader.h"

namespace eruplan {

namespace {

const PriorityClass kBuiltIn[] = {
    {"system-cluster-critical", kSystemClusterCritical, false, false},
    {"system-node-critical", kSystemNodeCritical, false, false},
};

}  // namespace

KubernetesOptions with_priority_classes(const KubernetesOptions& options,
                                        const std::optional<Source>& file, Diagnostics& diags) {
  KubernetesOptions out = options;
  if (file)
    if (auto classes = load_priority_classes(*file, diags))
      out.priority_classes = std::make_shared<const PriorityClasses>(std::move(*classes));
  return out;
}

ResolvedPriority resolve_priority_class(Reader& r, const FieldPath& path, ValueId name,
                                        const PriorityClasses* classes) {
  static const PriorityClasses kNone;
  const PriorityClasses& known = classes ? *classes : kNone;
  if (name == kNoValue) {
    if (const PriorityClass* d = known.global_default()) return {d->value, d->preempt_never};
    return {};
  }
  const auto text = r.string(path, name);
  if (!text) return {};
  if (const PriorityClass* c = known.find(*text)) return {c->value, c->preempt_never};
  std::string message = "unknown priority class " + quoted(*text);
  message += classes ? "; " + known.file + " does not define it and it is not built in"
                     : "; give its class with --priority-classes FILE (kubectl get "
                       "priorityclasses -o json)";
  std::vector<std::string_view> names;
  if (text->size() <= 256) {  // a name is at most 253 letters: a longer text is no typo
    for (const PriorityClass& c : known.classes) names.push_back(c.name);
    for (const PriorityClass& c : kBuiltIn) names.push_back(c.name);
  }
  if (const std::string_view best = nearest_name(*text, names, 3); !best.empty())
    message += "; did you mean " + std::string(best) + "?";
  r.error(path, name, message);
  return {};
}

const PriorityClass* PriorityClasses::find(std::string_view name) const {
  const auto it =
      std::lower_bound(classes.begin(), classes.end(), name,
                       [](const PriorityClass& c, std::string_view n) { return c.name < n; });
  if (it != classes.end() && it->name == name) return &*it;
  for (const PriorityClass& c : kBuiltIn)
    if (c.name == name) return &c;
  return nullptr;
}

const PriorityClass* PriorityClasses::global_default() const {
  const PriorityClass* out = nullptr;
  for (const PriorityClass& c : classes)
    if (c.global_default && (out == nullptr || c.value < out->value)) out = &c;
  return out;
}

std::optional<PriorityClass> read_priority_class(Reader& r, const FieldPath& at, ValueId item,
                                                 bool check_kind) {
  using k8s::pick;
  Picked<kPriorityClassFields> f;
  if (!pick(r, at, item, f)) return std::nullopt;
  if (check_kind &&
      !k8s::kind_is(r, at, f["kind"], "PriorityClass", "kubectl get priorityclasses -o json"))
    return std::nullopt;
  k8s::check_priority_class_fields(r, at, item);
  PriorityClass c;
  Picked<kPriorityClassMetadataFields> meta;
  const FieldPath meta_path = at.child("metadata");
  pick(r, meta_path, f["metadata"], meta);
  if (const ValueId name = meta["name"]; name == kNoValue)
    r.error(meta_path.child("name"), item, "metadata.name is required (the class's name)");
  else if (auto s = r.string(meta_path.child("name"), name))
    c.name = std::string(*s);
  if (const ValueId value = f["value"]; value == kNoValue)
    r.error(at.child("value"), item, "value is required (the class's priority)");
  else if (auto n = r.integer(at.child("value"), value, INT32_MIN, INT32_MAX))
    c.value = static_cast<std::int32_t>(*n);
  if (const ValueId g = f["globalDefault"]; g != kNoValue)
    if (auto b = r.boolean(at.child("globalDefault"), g)) c.global_default = *b;
  if (const ValueId p = f["preemptionPolicy"]; p != kNoValue) {
    const std::string_view text = k8s::text_of(r.doc(), p);
    if (text == "Never")
      c.preempt_never = true;
    else if (text != "PreemptLowerPriority")
      r.error(at.child("preemptionPolicy"), p,
              "expected PreemptLowerPriority or Never, got " + r.describe(p));
  }
  if (c.name.empty()) return std::nullopt;
  return c;
}

void StreamClasses::add(Reader& r, const FieldPath& at, ValueId item) {
  std::optional<PriorityClass> c = read_priority_class(r, at, item, false);
  if (!c) return;
  file_ = r.file();
  const FieldPath meta_path = at.child("metadata"), name_path = meta_path.child("name");
  if (const PriorityClass* known = given_ ? given_->find(c->name) : nullptr;
      known != nullptr && known->name == c->name) {
    if (known->value != c->value || known->preempt_never != c->preempt_never)
      r.error(name_path, item,
              "priority class " + quoted(c->name) + " has value " + std::to_string(known->value) +
                  (known->preempt_never ? " and preemptionPolicy Never" : "") + " in " +
                  given_->file + "; a class's value and preemption policy cannot change");
    return;
  }
  // Classes are few (one object each in a file under the size bound).
  if (std::any_of(added_.begin(), added_.end(),
                  [&](const PriorityClass& x) { return x.name == c->name; })) {
    r.error(name_path, item, "priority class " + quoted(c->name) + " is given twice");
    return;
  }
  added_.push_back(std::move(*c));
}

std::shared_ptr<const PriorityClasses> StreamClasses::classes() const {
  if (added_.empty()) return given_;
  PriorityClasses out;
  if (given_) out = *given_;
  if (out.file.empty()) out.file = file_;
  out.classes.insert(out.classes.end(), added_.begin(), added_.end());
  std::sort(out.classes.begin(), out.classes.end(),
            [](const PriorityClass& a, const PriorityClass& b) { return a.name < b.name; });
  return std::make_shared<const PriorityClasses>(std::move(out));
}

std::optional<PriorityClasses> load_priority_classes(const Source& source, Diagnostics& diags) {
  PriorityClasses out;
  out.file = source.name;
  std::unordered_set<std::string> names;  // read so far
  // One class at `at` (paths live on the caller's stack).
  auto read_class = [&](Reader& r, const FieldPath& at, ValueId item) {
    std::optional<PriorityClass> c = read_priority_class(r, at, item, true);
    if (!c) return;
    if (!names.insert(c->name).second) {
      r.error(at.child("metadata").child("name"), item,
              "priority class " + quoted(c->name) + " is given twice");
      return;
    }
    out.classes.push_back(std::move(*c));
  };
  const bool ok = k8s::read_object_file(source, diags, kPriorityClassListFields, read_class);
  std::sort(out.classes.begin(), out.classes.end(),
            [](const PriorityClass& a, const PriorityClass& b) { return a.name < b.name; });
  if (!ok) return std::nullopt;
  return out;
}

}  // namespace eruplan
