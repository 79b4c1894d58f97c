// The schema tables (request_fields.h, eruplan_fields.h,
// kubernetes_fields.h) against the man
// page: the section that describes a schema names each of its fields, the
// examples of the sections that show a schema as a file use no key the
// tables lack, and the Kubernetes field list is the Kubernetes tables.
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "binary.h"
#include "commands.h"
#include "eruplan_fields.h"
#include "kubernetes.h"
#include "kubernetes_fields.h"
#include "load.h"
#include "realloc_command.h"
#include "request_fields.h"
#include "share_command.h"

using namespace eruplan;

namespace {

using Table = std::span<const FieldSpec>;

std::string man_page() {
  std::ifstream in(std::string(ERUPLAN_SOURCE_DIR) + "/man/eruplan.1");
  std::stringstream text;
  text << in.rdbuf();
  std::string out;
  const std::string s = text.str();
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '-') continue;  // \- is -
    out += s[i];
  }
  return out;
}

// The text of `.SH title` up to the next .SH.
std::string section(const std::string& man, const std::string& title) {
  const std::size_t start = man.find("\n.SH " + title + "\n");
  if (start == std::string::npos) return "";
  const std::size_t end = man.find("\n.SH ", start + 1);
  return man.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `word` as a whole word (letters, digits and _ on neither side).
bool has_word(const std::string& text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at == 0 || !word_char(text[at - 1])) && (end == text.size() || !word_char(text[end])))
      return true;
  }
  return false;
}

// The keys that open a line of the section's examples (.nf ... .fi):
// `key:` or `- key:` after any indentation.
std::vector<std::string> example_keys(const std::string& text) {
  std::vector<std::string> keys;
  std::istringstream lines(text);
  bool in_example = false;
  for (std::string line; std::getline(lines, line);) {
    if (line == ".nf") in_example = true;
    if (line == ".fi") in_example = false;
    if (!in_example) continue;
    std::size_t i = line.find_first_not_of(' ');
    if (i == std::string::npos) continue;
    if (line.compare(i, 2, "- ") == 0) i = line.find_first_not_of(' ', i + 2);
    std::size_t end = i;
    while (end < line.size() && word_char(line[end])) ++end;
    if (end > i && end < line.size() && line[end] == ':') keys.push_back(line.substr(i, end - i));
  }
  return keys;
}

struct Schema {
  const char* name;
  Table table;
  std::vector<std::string> sections;  // one of them names each field
};

std::vector<Schema> schemas() {
  return {
      {"inventory", kInventoryFields, {"NODE INVENTORY"}},
      {"node", kNodeFields, {"NODE INVENTORY"}},
      {"usage", kUsageFields, {"NODE INVENTORY"}},
      {"taint", kTaintFields, {"CLUSTER STATE"}},
      {"workload", kWorkloadFields, {"REALLOC"}},
      {"request", kRequestFields, {"DEPLOY REQUEST"}},
      {"resources", kResourceFields, {"DEPLOY REQUEST"}},
      {"node_filter", kNodeFilterFields, {"DEPLOY REQUEST"}},
      {"toleration", kTolerationFields, {"CLUSTER STATE"}},
      {"scoring", kScoringFields, {"STRATEGIES"}},
      {"scoring.resources", kScoringResourceFields, {"STRATEGIES"}},
      {"scoring.shape", kShapePointFields, {"STRATEGIES"}},
      {"requests", kRequestListFields, {"CLUSTER STATE"}},
      {"share", kShareFields, {"FAIR SHARE"}},
      {"share app", kShareAppFields, {"FAIR SHARE"}},
      {"mesos", kMesosFields, {"MESOS ALLOCATION"}},
      {"mesos role", kMesosRoleFields, {"MESOS ALLOCATION"}},
      {"mesos framework", kMesosFrameworkFields, {"MESOS ALLOCATION"}},
      {"realloc", kReallocFields, {"REALLOC"}},
      {"realloc resources", kReallocResourceFields, {"REALLOC"}},
      {"case", kCaseFields, {"FIXTURE CASES"}},
      {"expect", kExpectFields, {"FIXTURE CASES"}},
      {"expect.scores", kExpectScoreFields, {"FIXTURE CASES"}},
      {"options", kCaseOptionFields, {"FIXTURE CASES"}},
      {"what-if options", kWhatIfOptionFields, {"WHAT-IF COMMANDS"}},
      {"what-if expect", kWhatIfExpectFields, {"WHAT-IF COMMANDS"}},
      {"realloc options", kReallocOptionFields, {"REALLOC"}},
      {"realloc expect", kReallocExpectFields, {"REALLOC"}},
      {"kubernetes list", kKubeListFields, {"KUBERNETES INPUTS"}},
      {"kubernetes node", kKubeNodeFields, {"KUBERNETES INPUTS"}},
      {"kubernetes metadata", kKubeMetadataFields, {"KUBERNETES INPUTS"}},
      {"kubernetes owner reference", kKubeOwnerReferenceFields, {"KUBERNETES INPUTS"}},
      {"kubernetes node spec", kKubeNodeSpecFields, {"KUBERNETES INPUTS"}},
      {"kubernetes taint", kKubeTaintFields, {"KUBERNETES INPUTS"}},
      {"kubernetes node status", kKubeNodeStatusFields, {"KUBERNETES INPUTS"}},
      {"kubernetes resource names", kKubeResourceFields, {"KUBERNETES INPUTS"}},
      {"kubernetes pod", kKubePodFields, {"KUBERNETES INPUTS"}},
      {"kubernetes pod status", kKubePodStatusFields, {"KUBERNETES INPUTS"}},
      {"kubernetes container status", kKubeContainerStatusFields, {"KUBERNETES INPUTS"}},
      {"kubernetes pod condition", kKubePodConditionFields, {"KUBERNETES INPUTS"}},
      {"kubernetes pod spec", kKubePodSpecFields, {"KUBERNETES INPUTS"}},
      {"kubernetes container", kKubeContainerFields, {"KUBERNETES INPUTS"}},
      {"kubernetes resources", kKubeResourcesFields, {"KUBERNETES INPUTS"}},
      {"kubernetes manifest", kKubeManifestFields, {"KUBERNETES INPUTS"}},
      {"kubernetes workload spec", kKubeWorkloadSpecFields, {"KUBERNETES INPUTS"}},
      {"kubernetes affinity", kKubeAffinityFields, {"KUBERNETES INPUTS"}},
      {"kubernetes node affinity", kKubeNodeAffinityFields, {"KUBERNETES INPUTS"}},
      {"kubernetes node selector", kKubeNodeSelectorFields, {"KUBERNETES INPUTS"}},
      {"kubernetes node selector term", kKubeNodeSelectorTermFields, {"KUBERNETES INPUTS"}},
      {"kubernetes requirement", kKubeRequirementFields, {"KUBERNETES INPUTS"}},
      {"kubernetes preferred term", kKubePreferredSchedulingTermFields, {"KUBERNETES INPUTS"}},
      {"kubernetes pod affinity", kKubePodAffinityFields, {"KUBERNETES INPUTS"}},
      {"kubernetes pod affinity term", kKubePodAffinityTermFields, {"KUBERNETES INPUTS"}},
      {"kubernetes weighted term", kKubeWeightedPodAffinityTermFields, {"KUBERNETES INPUTS"}},
      {"kubernetes label selector", kKubeLabelSelectorFields, {"KUBERNETES INPUTS"}},
      {"kubernetes spread", kKubeSpreadFields, {"KUBERNETES INPUTS"}},
      {"kubernetes container port", kKubeContainerPortFields, {"KUBERNETES INPUTS"}},
      {"kubernetes template", kKubeTemplateFields, {"KUBERNETES INPUTS"}},
      {"kubernetes toleration", kKubeTolerationFields, {"KUBERNETES INPUTS"}},
      {"kubernetes selector", kKubeLabelSelectorFields, {"KUBERNETES INPUTS"}},
      {"kubernetes requirement", kKubeRequirementFields, {"KUBERNETES INPUTS"}},
      {"kubernetes pod group spec", kKubePodGroupSpecFields, {"KUBERNETES INPUTS"}},
  };
}

// The man page's KUBERNETES INPUTS list of the fields read: in its examples
// (.nf ... .fi), "object: a, b, c" lines, a line of names alone continuing
// the one before; in order.
using FieldList = std::vector<std::pair<std::string, std::vector<std::string>>>;
FieldList field_lists(const std::string& text) {
  FieldList out;
  std::istringstream lines(text);
  bool in_example = false;
  for (std::string line; std::getline(lines, line);) {
    if (line == ".nf") in_example = true;
    if (line == ".fi") in_example = false;
    if (!in_example || line == ".nf") continue;
    std::size_t start = 0;
    if (const std::size_t colon = line.find(':'); colon != std::string::npos) {
      out.emplace_back(line.substr(0, colon), std::vector<std::string>{});
      start = colon + 1;
    }
    if (out.empty()) continue;
    std::istringstream names(line.substr(start));
    for (std::string name; names >> name;) {
      if (name.ends_with(',')) name.pop_back();
      out.back().second.push_back(name);
    }
  }
  return out;
}

// Each Kubernetes table under its label in that list, in the list's order.
const std::vector<std::pair<std::string, Table>>& kube_tables() {
  static const std::vector<std::pair<std::string, Table>> tables = {
      {"List", kKubeListFields},
      {"Node", kKubeNodeFields},
      {"metadata", kKubeMetadataFields},
      {"owner reference", kKubeOwnerReferenceFields},
      {"Node spec", kKubeNodeSpecFields},
      {"taint", kKubeTaintFields},
      {"Node status", kKubeNodeStatusFields},
      {"node image", kKubeNodeImageFields},
      {"resource names", kKubeResourceFields},
      {"Pod", kKubePodFields},
      {"Pod status", kKubePodStatusFields},
      {"container status", kKubeContainerStatusFields},
      {"pod condition", kKubePodConditionFields},
      {"pod spec", kKubePodSpecFields},
      {"container", kKubeContainerFields},
      {"resources", kKubeResourcesFields},
      {"manifest", kKubeManifestFields},
      {"workload spec", kKubeWorkloadSpecFields},
      {"template", kKubeTemplateFields},
      {"toleration", kKubeTolerationFields},
      {"selector", kKubeLabelSelectorFields},
      {"requirement", kKubeRequirementFields},
      {"PodGroup spec", kKubePodGroupSpecFields},
  };
  return tables;
}

}  // namespace

TEST_CASE("fields: the man page's section for each schema names every field of its table") {
  const std::string man = man_page();
  REQUIRE(man.size() > 1000);
  for (const Schema& schema : schemas()) {
    std::string text;
    for (const std::string& title : schema.sections) {
      const std::string s = section(man, title);
      CAPTURE(title);
      REQUIRE_FALSE(s.empty());
      text += s;
    }
    for (const FieldSpec& spec : schema.table) {
      CAPTURE(schema.name);
      CAPTURE(spec.name);
      CHECK(has_word(text, spec.name));
      CHECK_FALSE(spec.help.empty());
    }
  }
}

TEST_CASE("fields: the man page lists exactly the fields the Kubernetes readers pick") {
  const FieldList listed = field_lists(section(man_page(), "KUBERNETES INPUTS"));
  REQUIRE(listed.size() == kube_tables().size());
  for (std::size_t i = 0; i < listed.size(); ++i) {
    const std::string& label = kube_tables()[i].first;
    CAPTURE(label);
    CHECK(listed[i].first == label);
    std::string names, man;  // "a, b, c": a difference shows in the message
    for (const FieldSpec& spec : kube_tables()[i].second) {
      names += (names.empty() ? "" : ", ") + std::string(spec.name);
      CHECK_FALSE(spec.help.empty());
    }
    for (const std::string& name : listed[i].second) man += (man.empty() ? "" : ", ") + name;
    CHECK(man == names);
  }
}

TEST_CASE("fields: the man page's example files use only fields of the tables") {
  const std::string man = man_page();
  auto names = [](std::initializer_list<Table> tables) {
    std::set<std::string, std::less<>> out;
    for (Table t : tables)
      for (const FieldSpec& spec : t) out.emplace(spec.name);
    return out;
  };
  const auto inventory =
      names({kInventoryFields, kNodeFields, kUsageFields, kTaintFields, kWorkloadFields});
  const auto request = names({kRequestFields, kResourceFields, kNodeFilterFields});
  const auto share = names({kShareFields, kShareAppFields});
  auto fixture = names({kCaseFields, kExpectFields, kExpectScoreFields, kCaseOptionFields});
  fixture.insert(request.begin(), request.end());  // an inline request
  const std::vector<std::pair<std::string, const std::set<std::string, std::less<>>*>> checked = {
      {"NODE INVENTORY", &inventory},
      {"DEPLOY REQUEST", &request},
      {"FAIR SHARE", &share},
      {"FIXTURE CASES", &fixture},
  };
  for (const auto& entry : checked) {
    const std::vector<std::string> keys = example_keys(section(man, entry.first));
    CAPTURE(entry.first);
    CHECK(keys.size() >= 5);
    for (const std::string& key : keys) {
      CAPTURE(key);
      CHECK(entry.second->count(key) == 1);
    }
  }
}

TEST_CASE("fields: the man page checks see a missing field and an unknown key") {
  const std::string text =
      ".SH X\n.nf\nname: a\n  - bogus: 1\n   cpu_map: {\"0\": 1}\n.fi\nnot_a_key: outside\n";
  CHECK(example_keys(text) == std::vector<std::string>{"name", "bogus", "cpu_map"});
  CHECK(has_word(text, "cpu_map"));
  CHECK_FALSE(has_word(text, "cpu"));
  CHECK_FALSE(has_word(text, "map"));
  CHECK(section("\n.SH A\nx\n.SH B\ny\n", "A") == "\n.SH A\nx");

  const FieldList lists =
      field_lists("Pod: outside\n.nf\nPod:   kind, spec,\n       status\nNode spec: taints\n.fi\n");
  REQUIRE(lists.size() == 2);
  CHECK(lists[0].first == "Pod");
  CHECK(lists[0].second == std::vector<std::string>{"kind", "spec", "status"});
  CHECK(lists[1].first == "Node spec");
  CHECK(lists[1].second == std::vector<std::string>{"taints"});
}

namespace {

// " (known fields: a b c)" for a table, as the readers print it.
std::string known_list(Table table) {
  std::string out = " (known fields:";
  for (const FieldSpec& spec : table) out += ' ' + std::string(spec.name);
  return out + ")";
}

}  // namespace

TEST_CASE("fields: the inventory, share and realloc readers know exactly their tables' fields") {
  Diagnostics diags;
  const Source inventory{"n.yaml",
                         "nodes:\n- name: a\n  bogus_field_name: 1\n  usage: {cpus: 1}\n"
                         "  taints: [{key: k, effect: NoSchedule, colour: x}]\n"};
  CHECK(load_inventory(inventory, diags).has_value());
  CHECK(diags.to_string() ==
        "n.yaml:3:3: warning: nodes[0].bogus_field_name: unknown field, ignored" +
            known_list(kNodeFields) +
            "\n"  // taints are read before usage
            "n.yaml:5:41: warning: nodes[0].taints[0].colour: unknown field, ignored" +
            known_list(kTaintFields) +
            "\n"
            "n.yaml:4:11: warning: nodes[0].usage.cpus: unknown field, ignored; did you mean "
            "cpu?\n");

  Diagnostics share_diags;
  const Source share{"s.yaml", "placment: first_fit\napps:\n- {app: A, max_count: 1, wieght: 2}\n"};
  CHECK(load_share(share, share_diags).has_value());
  CHECK(share_diags.to_string() ==
        "s.yaml:1:1: warning: placment: unknown field, ignored; did you mean placement?\n"
        "s.yaml:3:26: warning: apps[0].wieght: unknown field, ignored; did you mean weight?\n");

  Diagnostics realloc_diags;
  const Source realloc{"r.yaml", "app: web\nresources: {cpu: 1, zzz: 1}\n"};
  CHECK(load_realloc(realloc, realloc_diags).has_value());
  CHECK(realloc_diags.to_string() == "r.yaml:2:21: warning: resources.zzz: unknown field, ignored" +
                                         known_list(kReallocResourceFields) + "\n");
}

TEST_CASE(
    "fields: the Kubernetes readers pick their tables' rows and pass over every other field") {
  // uid, podCIDR, conditions, hugepages-* and strategy are the API's: no word, as under --strict.
  Diagnostics diags;
  const Source nodes{"nodes.json",
                     R"({"kind": "NodeList", "apiVersion": "v1", "items": [{"kind": "Node",
 "metadata": {"name": "n1", "uid": "u", "labels": {"zone": "a"}}, "spec": {"podCIDR": "x"},
 "status": {"conditions": [], "allocatable": {"cpu": "4", "memory": "8Gi", "ephemeral-storage":
 "1Gi", "pods": "110", "hugepages-2Mi": "0", "example.com/fpga": "2"}}}]})"};
  auto inv = load_nodes(nodes, NodesFormat::Auto, diags);
  CHECK(diags.to_string() == "");
  REQUIRE(inv.has_value());
  REQUIRE(inv->nodes.size() == 1);
  const Node& n = inv->nodes[0];
  CHECK(n.name == "n1");
  CHECK(n.labels == NamedList<std::string>{{"zone", "a"}});
  CHECK(n.cpu_given == 4'000'000'000);
  CHECK(n.memory == 8ll << 30);
  CHECK(n.storage == 1ll << 30);
  CHECK(n.max_instances == 110);
  REQUIRE(n.extended.size() == 1);
  CHECK(n.extended[0].name == "example.com/fpga");

  // A running pod is read for nodeName and its request; nodeSelector is a
  // manifest's row of the pod spec table, so even given twice it is passed over.
  const std::string pod_head =
      R"({"kind": "List", "items": [{"kind": "Pod", "metadata": {"name": "p", "namespace": "ns"},
 "status": {"phase": "Running"}, "spec": {)";
  const std::string pod_tail =
      R"("containers": [{"image": "i", "resources": {"requests": {"cpu": "1", "memory": "1"}}}]}}]})";
  Diagnostics pod_diags;
  REQUIRE(apply_pods(
      *inv,
      Source{"pods.json",
             pod_head + R"("nodeName": "n1", "nodeSelector": {}, "nodeSelector": {}, )" + pod_tail},
      {}, pod_diags));
  CHECK(pod_diags.to_string() == "");
  CHECK(inv->nodes[0].cpu_used == 1'000'000'000);
  CHECK(inv->nodes[0].instances_of("p") == 1);

  // A row the reader takes, given twice, is an error at the second key.
  Diagnostics twice;
  CHECK_FALSE(apply_pods(
      *inv, Source{"pods.json", pod_head + R"("nodeName": "n1", "nodeName": "n1", )" + pod_tail},
      {}, twice));
  CHECK(twice.to_string() ==
        "pods.json:2:61: error: items[0].spec.nodeName: given twice (first at line 2:55)\n");

  // A manifest reads the placement rows; a Deployment's spec.strategy and a
  // container's image are the API's.
  Diagnostics manifest_diags;
  bool matched = false;
  const Source deployment{"d.yaml",
                          "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
                          "spec:\n  replicas: 3\n  strategy: {type: RollingUpdate}\n  template:\n"
                          "    metadata: {labels: {app: shop}}\n    spec:\n"
                          "      nodeSelector: {zone: a}\n"
                          "      tolerations: [{key: k, operator: Exists, effect: NoSchedule}]\n"
                          "      containers: [{image: i, resources: {limits: {memory: 1Gi}}}]\n"};
  const auto set = load_kubernetes_requests(deployment, {}, {}, true, manifest_diags, matched);
  CHECK(matched);
  CHECK(manifest_diags.to_string() == "");
  REQUIRE(set.has_value());
  REQUIRE(set->requests.size() == 1);
  const Request& req = set->requests[0];
  CHECK(req.name == "web");
  CHECK(req.app == "shop");
  CHECK(req.count == 3);
  CHECK(req.memory == 1ll << 30);
  CHECK(req.filter.labels == NamedList<std::string>{{"zone", "a"}});
  REQUIRE(req.tolerations.size() == 1);
  CHECK(req.tolerations[0].exists);
  CHECK(req.tolerations[0].effect == "NoSchedule");
}

TEST_CASE("fields: a block field's own field given one level too high is pointed to its place") {
  Diagnostics request_diags;
  const Source request{"r.yaml", "app: web\ncount: 2\ncpu: 1\nmemory: 1Gi\nnodes: [a]\ntype: x\n"};
  CHECK(load_request(&request, {}, true, request_diags).has_value());
  CHECK(request_diags.to_string() ==
        "r.yaml:3:1: warning: cpu: unknown field, ignored; did you mean resources.cpu?\n"
        "r.yaml:4:1: warning: memory: unknown field, ignored; did you mean resources.memory?\n"
        "r.yaml:5:1: warning: nodes: unknown field, ignored; did you mean node_filter.nodes?\n"
        "r.yaml:6:1: warning: type: unknown field, ignored; did you mean scoring.type?\n");

  Diagnostics realloc_diags;
  const Source realloc{"r.yaml", "app: web\nmemory: 1Gi\n"};
  CHECK(load_realloc(realloc, realloc_diags).has_value());
  CHECK(realloc_diags.to_string() ==
        "r.yaml:2:1: warning: memory: unknown field, ignored; did you mean resources.memory?\n");
}

TEST_CASE("fields: null is not given (SPEC §12), in every reader, yet a field given twice is") {
  Diagnostics diags;
  const Source inventory{"n.yaml",
                         "share_base: null\nnodes:\n- name: a\n  memory: 4Gi\n  storage: null\n"
                         "  labels:\n  usage: {memory: ~}\n"};
  const auto inv = load_inventory(inventory, diags);
  CHECK(diags.to_string() == "");
  REQUIRE(inv.has_value());
  CHECK(inv->share_base == 100);
  REQUIRE(inv->nodes.size() == 1);
  CHECK(inv->nodes[0].memory == 4ll << 30);
  CHECK(inv->nodes[0].storage == 0);
  CHECK(inv->nodes[0].memory_used == 0);

  Diagnostics request_diags;
  const Source request{"r.yaml", "app: web\ncount: 2\nstrategy: null\nresources: {cpu: null}\n"};
  const auto req = load_request(&request, {}, true, request_diags);
  CHECK(request_diags.to_string() == "");
  REQUIRE(req.has_value());
  CHECK(req->count == 2);
  CHECK(req->cpu == 0);

  Diagnostics required;
  const Source nameless{"n.yaml", "nodes:\n- {name: null, cpu: 1}\n"};
  CHECK_FALSE(load_inventory(nameless, required).has_value());
  CHECK(required.to_string() ==
        "n.yaml:2:3: error: nodes[0]: name is required (a unique, non-empty string)\n");

  Diagnostics twice;
  const Source dup{"n.yaml", "nodes:\n- {name: a, cpu: null, cpu: 2}\n"};
  CHECK_FALSE(load_inventory(dup, twice).has_value());
  CHECK(twice.to_string() ==
        "n.yaml:2:24: error: nodes[0].cpu: given twice (first at line 2:18)\n");
}

TEST_CASE("fields: each request flag's --help line is its field's help") {
  const eruplan_test::Ran r =
      eruplan_test::run_eruplan(eruplan_test::scratch_dir("fields"), "plan --help");
  REQUIRE(r.exit == 0);
  std::size_t flags = 0;
  for_each_flag_field([&](const FieldSpec& spec) {
    CAPTURE(spec.flag);
    const std::string help = flag_help(spec.flag);
    CHECK(help.starts_with("Override: " + std::string(spec.help)));
    // The flag, then (after its value type) the help, on one line.
    const std::size_t at = r.out.find("  " + std::string(spec.flag) + ' ');
    const std::size_t brace = r.out.find("  " + std::string(spec.flag) + '{');
    const std::size_t line = at != std::string::npos ? at : brace;
    REQUIRE(line != std::string::npos);
    const std::size_t end = r.out.find('\n', line);
    CHECK(r.out.substr(line, end - line).find(help) != std::string::npos);
    ++flags;
  });
  CHECK(flags == 12);
  CHECK(flag_help("--volume") == "Override: a volume binding SRC:DST[:FLAGS[:SIZE]] (repeatable)");
  CHECK(flag_help("--count") == "Override: instances to deploy");
  CHECK(flag_help("--jobs").empty());
}

namespace {

// `prefix` + `flag`, not followed by more of a flag's name (--node is not --nodes-limit).
bool has_flag(const std::string& text, const std::string& prefix, std::string_view flag) {
  const std::string what = prefix + std::string(flag);
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    const std::size_t end = at + what.size();
    if (end == text.size() || !(word_char(text[end]) || text[end] == '-')) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("fields: the man page and the completions know every request flag and case option") {
  const std::string man = man_page();
  const std::string options = section(man, "OPTIONS");
  const std::string cases = section(man, "FIXTURE CASES");
  const std::string bash = completion_script("bash");
  const std::string zsh = completion_script("zsh");
  REQUIRE(!bash.empty());
  REQUIRE(!zsh.empty());
  std::size_t n = 0;
  for_each_flag_field([&](const FieldSpec& spec) {
    CAPTURE(spec.flag);
    CHECK((has_flag(options, "\n.B ", spec.flag) || has_flag(options, "\n.BI ", spec.flag) ||
           has_flag(options, "\n.BR ", spec.flag)));
    CHECK(has_flag(bash, " ", spec.flag));
    CHECK((has_flag(zsh, "'", spec.flag) || has_flag(zsh, "'*", spec.flag)));  // * repeatable
    CHECK(has_word(cases, spec.name));  // a case's options: take it by name
    ++n;
  });
  CHECK(n == 12);
  CHECK_FALSE(has_flag("--nodes-limit --cpu-bind", " ", "--node"));
  CHECK_FALSE(has_flag("--nodes-limit --cpu-bind", " ", "--cpu"));
  CHECK(has_flag("--nodes-limit --cpu-bind", " ", "--cpu-bind"));
}

TEST_CASE("fields: the fuzz dictionary holds every field name of every table") {
  const std::string dict =
      eruplan_test::slurp(std::string(ERUPLAN_SOURCE_DIR) + "/fuzz/eruplan.dict");
  REQUIRE(!dict.empty());
  std::vector<Table> tables;
  for (const Schema& schema : schemas()) tables.push_back(schema.table);
  for (Table table : tables)
    for (const FieldSpec& spec : table) {
      CAPTURE(spec.name);
      CHECK(dict.find("\n\"" + std::string(spec.name) + "\"\n") != std::string::npos);
    }
}
