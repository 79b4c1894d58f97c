// The command table (commands.h): its rows are what --help, the shell
// completions and the man page's synopsis show, and a command run through
// the table reports a usage error as a value, with no CLI text in it.
#include "commands.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "binary.h"

using namespace eruplan;

namespace {

std::string source_file(const std::string& path) {
  return eruplan_test::slurp(std::string(ERUPLAN_SOURCE_DIR) + "/" + path);
}

bool word_end(const std::string& text, std::size_t end) {
  return end == text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) ||
                                 text[end] == '-' || text[end] == '_');
}

// `flag` in `text`, not as the start of a longer flag (--node in --nodes).
bool has_flag(const std::string& text, const std::string& flag) {
  for (std::size_t at = text.find(flag); at != std::string::npos; at = text.find(flag, at + 1))
    if (word_end(text, at + flag.size())) return true;
  return false;
}

// In-memory files for a run through the table.
FileAccess memory_files(std::map<std::string, std::string> files) {
  return FileAccess{
      [files](const std::string& path, std::string& why) -> std::optional<std::string> {
        const auto it = files.find(path);
        if (it != files.end()) return it->second;
        why = "No such file or directory";
        return std::nullopt;
      },
      nullptr, nullptr, nullptr};
}

Args args_of(std::initializer_list<std::pair<std::string, std::string>> values) {
  Args a;
  for (const auto& [key, value] : values) {
    a.values[key] = value;
    a.given.insert(key);
  }
  return a;
}

const std::string kNodes = "nodes:\n  - {name: n1, memory: 4Gi}\n  - {name: n2, memory: 2Gi}\n";

}  // namespace

TEST_CASE("commands: an option's key is its first long name") {
  OptionSpec o;
  o.names = "-n,--nodes";
  CHECK(o.key() == "--nodes");
  o.names = "--cpu-bind{true}";
  CHECK(o.key() == "--cpu-bind");
  o.names = "-r,--request,--apps";
  CHECK(o.key() == "--request");
  o.names = "paths";
  CHECK(o.key() == "paths");
}

TEST_CASE("commands: the table holds each command once, in --help order") {
  std::vector<std::string> names;
  for (const CommandRow& row : command_table()) names.emplace_back(row.name);
  CHECK(names == std::vector<std::string>{"capacity", "plan", "validate", "apply", "share",
                                          "realloc", "compare", "grow", "drain", "diff", "snapshot",
                                          "test", "schema", "completion"});
  CHECK(command_names() ==
        "capacity, plan, validate, apply, share, realloc, compare, grow, drain, diff, snapshot, "
        "test, schema, completion");
  CHECK(find_command("plan") != nullptr);
  CHECK(find_command("plans") == nullptr);
  for (const CommandRow& row : command_table()) {
    CAPTURE(row.name);
    CHECK((row.run != nullptr));
    CHECK(row.examples.size() == 2);
    std::set<std::string> keys;
    for (const OptionSpec& o : row.options) CHECK(keys.insert(o.key()).second);  // no key twice
  }
}

TEST_CASE("commands: --help of each command shows exactly its row's options and examples") {
  const auto dir = eruplan_test::scratch_dir("commands");
  for (const CommandRow& row : command_table()) {
    CAPTURE(row.name);
    const eruplan_test::Ran r = eruplan_test::run_eruplan(dir, std::string(row.name) + " --help");
    CHECK(r.exit == 0);
    CHECK(r.out.starts_with(std::string(row.summary) + "\n"));
    std::set<std::string> shown;  // every long option the help lists
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
      for (std::size_t at = line.find("--"); at != std::string::npos;
           at = line.find("--", at + 2)) {
        if (at > 0 && line[at - 1] != ' ' && line[at - 1] != ',') continue;
        std::size_t end = at + 2;
        while (end < line.size() &&
               (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '-'))
          ++end;
        if (line.find("Options:") == std::string::npos && line.rfind("  -", 0) == 0)
          shown.insert(line.substr(at, end - at));
        break;  // the option's own name comes first on its line
      }
    std::set<std::string> want = {"--help", "--version"};
    for (const OptionSpec& o : row.options)
      if (o.key().starts_with("--")) want.insert(o.key());
    CHECK(shown == want);
    for (std::string_view example : row.examples)
      CHECK(r.out.find("  " + std::string(example) + "\n") != std::string::npos);
  }
}

TEST_CASE("commands: the completions and the man page's synopsis know every command and flag") {
  const std::string bash = completion_script("bash");
  const std::string zsh = completion_script("zsh");
  const std::string man = source_file("man/eruplan.1");
  REQUIRE(!bash.empty());
  for (const CommandRow& row : command_table()) {
    const std::string name(row.name);
    CAPTURE(name);
    CHECK(man.find("\n.B eruplan " + name + "\n") != std::string::npos);
    CHECK(has_flag(bash, name));
    CHECK(zsh.find("'" + name + ":") != std::string::npos);
    for (const OptionSpec& o : row.options) {
      if (!o.key().starts_with("--")) continue;
      CAPTURE(o.key());
      CHECK(has_flag(bash, o.key()));
      CHECK(has_flag(zsh, o.key()));
    }
  }
}

TEST_CASE("commands: a run through the table hands back a usage error as a value") {
  const CommandRow* plan = find_command("plan");
  REQUIRE(plan != nullptr);
  const FileAccess files = memory_files({{"n.yaml", kNodes}});

  Args a = args_of({{"--nodes", "n.yaml"}, {"--output", "table"}});
  CommandOutput out = plan->run(CommandInput{a, files, {}});
  CHECK(out.exit == ExitCode::Usage);
  CHECK(out.usage == "no request: give -r FILE or request flags such as --memory");
  CHECK(out.err.empty());
  CHECK(out.out.empty());

  a = args_of({{"--nodes", "n.yaml"}, {"--output", "json"}});
  out = plan->run(CommandInput{a, files, {}});
  CHECK(out.exit == ExitCode::Usage);
  CHECK(out.out.find("\"kind\": \"usage\"") != std::string::npos);
  CHECK(out.out.find("Run with --help") == std::string::npos);

  a = args_of({{"--output", "table"}});
  out = plan->run(CommandInput{a, files, {}});
  CHECK(out.usage == "--nodes is required");
}

TEST_CASE("commands: plan through the table reads its inputs and writes the saved inventory") {
  const FileAccess files = memory_files({{"n.yaml", kNodes}});
  Args a = args_of({{"--nodes", "n.yaml"},
                    {"--output", "json"},
                    {"--memory", "1Gi"},
                    {"--count", "3"},
                    {"--save-inventory", "after.json"}});
  const CommandOutput out = find_command("plan")->run(CommandInput{a, files, {}});
  CHECK(out.exit == ExitCode::Ok);
  CHECK(out.out.find("\"total\": 6") != std::string::npos);
  REQUIRE(out.files.size() == 1);
  CHECK(out.files[0].first == "after.json");
  CHECK(out.files[0].second.starts_with("{"));  // JSON for a .json name

  // Unreadable inputs: each one named, exit 3.
  a = args_of({{"--nodes", "gone.yaml"}, {"--request", "gone2.yaml"}, {"--output", "table"}});
  const CommandOutput missing = find_command("plan")->run(CommandInput{a, files, {}});
  CHECK(missing.exit == ExitCode::Invalid);
  CHECK(missing.err ==
        "gone.yaml: error: cannot read: No such file or directory\n"
        "gone2.yaml: error: cannot read: No such file or directory\n");
}

TEST_CASE("commands: apply prints JSON for JSON nodes whatever their name's case") {
  const std::string json_nodes = R"({"nodes": [{"name": "n1", "memory": "4Gi"}]})";
  const FileAccess files =
      memory_files({{"N.JSON", json_nodes}, {"nodes", "\xEF\xBB\xBF" + json_nodes}});
  for (const std::string name : {"N.JSON", "nodes"}) {
    CAPTURE(name);
    Args a = args_of({{"--nodes", name}, {"--memory", "1Gi"}, {"--count", "1"}});
    a.given.erase("--output");
    const CommandOutput out = find_command("apply")->run(CommandInput{a, files, {}});
    CHECK(out.exit == ExitCode::Ok);
    CHECK(out.out.starts_with("{"));
  }
}

TEST_CASE("strategy rows: every trait a command or explain asks about is in the row") {
  CHECK(new_count_strategies() == "auto, global, drained or score");
  for (const StrategyRow& row : strategy_table()) {
    CAPTURE(row.name);
    CHECK((row.explain != nullptr));
    // A strategy with a per-node target words its own infeasible head.
    CHECK((row.need == nullptr) == row.counts_new);
    if (row.deciding != nullptr) CHECK(row.counts_new);
  }
  Request fill;
  fill.strategy = Strategy::Fill;
  fill.count = 4;
  fill.app = "web";
  CHECK(strategy_row(Strategy::Fill).need(fill) == "need 4 instances of web on every node");
  Request each;
  each.count = 1;
  each.nodes_limit = 2;
  CHECK(strategy_row(Strategy::Each).need(each) == "need 1 new instance on each of 2 nodes");
}

TEST_CASE("commands: the completions offer each command its own flags") {
  // The build writes these scripts for `cmake --install`; tests/check_install.sh
  // checks the installed files are the binary's output.
  const std::string bash = completion_script("bash");
  // Each command's own flags only: --template is grow's, --each-node drain's.
  const auto flags_of = [&](const std::string& command) {
    const std::size_t at = bash.find("\n    " + command + ")\n");
    const std::size_t flags = bash.find("flags=\"", at);
    return bash.substr(flags, bash.find('"', flags + 7) - flags);
  };
  CHECK(has_flag(flags_of("grow"), "--template"));
  CHECK_FALSE(has_flag(flags_of("plan"), "--template"));
  CHECK(has_flag(flags_of("drain"), "--each-node"));
  CHECK_FALSE(has_flag(flags_of("compare"), "--explain"));
  CHECK(has_flag(flags_of("plan"), "--lenient"));
}

TEST_CASE("commands: a flag the command would not use, or an unknown one, is a usage error") {
  const auto check = [](std::string_view command, std::vector<std::string> args) {
    return check_flags(*find_command(command), args).value_or("");
  };
  CHECK(check("compare", {"-n", "n.yaml", "--strategy", "fill"}) ==
        "compare does not take --strategy: use --strategies to name the strategies to compare");
  CHECK(check("compare", {"--plans=none"}) ==
        "compare does not take --plans: compare prints one row per strategy and no plans; use "
        "plan --plans");
  CHECK(check("drain", {"--node", "n1", "--count", "3"}) ==
        "drain does not take --count: drain places the lost node's own instances of the app, as "
        "many as it runs; leave --count out");
  CHECK(check("drain", {"--node", "n1", "--replicas", "3"}) ==
        "drain does not take --replicas: drain places the lost node's own pods of the workload, "
        "whatever its replicas; leave --replicas out");
  CHECK(check("validate", {"--explain"}) ==
        "validate does not take --explain: validate prints no plan; use plan --explain");
  CHECK(check("plan", {"--strateg", "fill"}) ==
        "unknown flag --strateg for plan; did you mean --strategy?");
  CHECK(check("plan", {"--memroy=1Gi"}) ==
        "unknown flag --memroy for plan; did you mean --memory?");
  CHECK(check("plan", {"--template", "t.yaml"}) ==
        "unknown flag --template for plan (--template is a flag of grow)");
  CHECK(check("plan", {"--bogus"}) == "unknown flag --bogus for plan");
  // A near miss of another command's flag, and a long name with one dash.
  CHECK(check("plan", {"--templat", "t.yaml"}) ==
        "unknown flag --templat for plan (did you mean --template? a flag of grow)");
  CHECK(check("plan", {"-count", "3"}) == "unknown flag -count for plan; did you mean --count?");
  CHECK(check("plan", {"-count=3"}) == "unknown flag -count for plan; did you mean --count?");
  // Every command that takes the flag, not only the first (it said
  // "--pods is a flag of capacity" to a diff user).
  CHECK(check("diff", {"a", "b", "--pods", "p.json"})
            .starts_with("unknown flag --pods for diff (--pods is a flag of capacity, plan, "
                         "validate, apply, "));
  // A short option the command lacks is named too (CLI11 said "The following
  // arguments were not expected: json -o").
  CHECK(check("schema", {"inventory", "-o", "json"}) ==
        "unknown flag -o for schema (-o is a flag of capacity, plan, validate, apply, share, "
        "realloc, compare, grow, drain, diff, snapshot, test)");
  CHECK(check("realloc", {"--cpu", "-1"}).empty());
  // Known flags, values that look like flags, and operands after -- pass.
  CHECK(check("plan", {"-n", "n.yaml", "--app", "--weird", "-ojson", "--cpu-bind=false"}).empty());
  CHECK(check("plan", {"--", "--bogus"}).empty());
  CHECK(check("drain", {"--node", "n1", "--each-node", "--help"}).empty());
  CHECK(check("test", {"fixtures", "--filter", "x"}).empty());
}

TEST_CASE("commands: the README's first command builds the eruplan binary only") {
  const std::string dev = source_file(".ci/dev");
  const std::size_t example = dev.find("\n  example)\n");
  REQUIRE(example != std::string::npos);
  const std::string body = dev.substr(example, dev.find(";;", example) - example);
  CHECK(body.find("build_binary build\n") != std::string::npos);
  CHECK(dev.find("cmake --build \"$1\" -j \"$jobs\" --target eruplan\n") != std::string::npos);
  CHECK(source_file("README.md").find("bash .ci/dev example") != std::string::npos);
}

TEST_CASE("compare: TOTAL NEW per strategy and a first row with the inventory's own spread") {
  const auto dir = eruplan_test::scratch_dir("compare_total");
  const std::string example = std::string(ERUPLAN_SOURCE_DIR) + "/fixtures/example/";
  const std::string args =
      "compare -n " + example + "nodes.yaml -r " + example + "request.yaml --strategies auto,score";
  const eruplan_test::Ran table = eruplan_test::run_eruplan(dir, args);
  CHECK(table.exit == 0);
  CHECK(table.out ==
        "STRATEGY  FEASIBLE  NODES USED  TOTAL NEW  MAX NEW  USAGE MAX-MIN  STDDEV    WHY NOT\n"
        "before    -         -           -          -        0.375          0.155902\n"
        "auto      yes       3           4          2        0.125          0.058926\n"
        "score     yes       2           4          3        0.625          0.294628\n");
  const eruplan_test::Ran json = eruplan_test::run_eruplan(dir, args + " -o json");
  CHECK(
      json.out.starts_with("{\n  \"before\": {\n    \"usage_spread\": {\n      \"max_minus_min\": "
                           "0.375,\n      \"stddev\": 0.155902\n    }\n  },\n"));
  CHECK(json.out.find("\"nodes_used\": 2,\n      \"total_new\": 4,") != std::string::npos);
}

TEST_CASE("plan table: past 50 new instances, 50 binding lines and a count of the rest") {
  const auto dir = eruplan_test::scratch_dir("big_plan");
  std::ofstream(dir / "big.yaml") << "nodes:\n  - {name: n1, cpu: 64, memory: 64Gi}\n"
                                     "  - {name: n2, cpu: 64, memory: 64Gi}\n";
  const std::string args = "plan -n big.yaml --app w --count 60 --cpu 1 --cpu-bind --memory 1Gi";
  const eruplan_test::Ran r = eruplan_test::run_eruplan(dir, args);
  REQUIRE(r.exit == 0);
  CHECK(std::count(r.out.begin(), r.out.end(), '#') == 50);
  CHECK(r.out.ends_with("  n2 #20  cpu 19:100\n  ... 10 more instances (see -o json)\n"));
  const eruplan_test::Ran none = eruplan_test::run_eruplan(dir, args + " --plans none");
  CHECK(none.out.find("new instances:") == std::string::npos);
  CHECK(none.out.ends_with("total       128         0   60\n"));
  const eruplan_test::Ran json = eruplan_test::run_eruplan(dir, args + " -o json");
  CHECK(json.out.find("... ") == std::string::npos);  // the document has them all
}
