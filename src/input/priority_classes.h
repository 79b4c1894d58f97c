// --priority-classes FILE (kubectl get priorityclasses -o json): the
// priority of a pod or workload by its spec.priorityClassName, with
// Kubernetes' built-in system classes and the class marked globalDefault.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "diagnostics.h"
#include "load.h"
#include "reader.h"

namespace eruplan {

struct PriorityClass {
  std::string name;
  std::int32_t value = 0;
  bool global_default = false;
  bool preempt_never = false;  // preemptionPolicy: Never
};

// Kubernetes' built-in classes (scheduling/v1 SystemPriorityClasses).
inline constexpr std::int32_t kSystemClusterCritical = 2'000'000'000;
inline constexpr std::int32_t kSystemNodeCritical = 2'000'001'000;

struct PriorityClasses {
  std::vector<PriorityClass> classes;  // the file's, sorted by name
  std::string file;                    // where they were read, for messages

  // The file's class of that name, else a built-in system class, else null.
  const PriorityClass* find(std::string_view name) const;
  // The globalDefault class with the lowest value (Kubernetes' admission
  // takes that one when several claim it), or null.
  const PriorityClass* global_default() const;
};

// The classes of a List / PriorityClassList, one PriorityClass, or a YAML
// stream of them; nullopt after reporting errors (file, line:col, path).
std::optional<PriorityClasses> load_priority_classes(const Source& source, Diagnostics& diags);

// One PriorityClass object at `at` (with check_kind, an error when its kind
// is another); nullopt when it has no name (errors reported with file,
// line:col and path).
std::optional<PriorityClass> read_priority_class(Reader& r, const FieldPath& at, ValueId item,
                                                 bool check_kind);

// The classes of --priority-classes (may be null) and the PriorityClass
// objects of a -r stream, added one at a time: a class both name must be
// the same class (the API does not change a class's value); one the stream
// gives twice is an error.
class StreamClasses {
 public:
  explicit StreamClasses(std::shared_ptr<const PriorityClasses> given) : given_(std::move(given)) {}
  void add(Reader& r, const FieldPath& at, ValueId item);
  // The classes to resolve the stream's names by: given's when it had none.
  std::shared_ptr<const PriorityClasses> classes() const;

 private:
  std::shared_ptr<const PriorityClasses> given_;
  std::vector<PriorityClass> added_;
  std::string file_;  // the stream's
};

// A pod spec's priority from its priorityClassName at `name` (kNoValue:
// none): the class's value and preemption policy, the globalDefault class's
// when it names none, else 0. An unknown class name is an error naming it
// (with the nearest known name). `classes` null: the built-in ones only.
// `options` with the classes of `file` when given (errors to `diags`).
struct KubernetesOptions;
KubernetesOptions with_priority_classes(const KubernetesOptions& options,
                                        const std::optional<Source>& file, Diagnostics& diags);

struct ResolvedPriority {
  std::int32_t value = 0;
  bool preempt_never = false;
};
ResolvedPriority resolve_priority_class(Reader& r, const FieldPath& path, ValueId name,
                                        const PriorityClasses* classes);

}  // namespace eruplan
