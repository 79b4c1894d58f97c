// eruplan's command line: argument wiring, reading files and stdin, printing
// and exit codes. Everything else lives in the library (src/).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "completions.h"
#include "fixture.h"
#include "huge_pages.h"
#include "pipeline.h"
#include "realloc_command.h"
#include "request_fields.h"
#include "whatif.h"

namespace fs = std::filesystem;
using namespace eruplan;

namespace {

constexpr const char* kStdin = "-";

// Ends the process with `code`, or with 1 when standard output could not be
// written (a full disk, a closed pipe): a script must not read "done" then.
[[noreturn]] void finish(int code) {
  std::cout.flush();
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout) {
    std::fprintf(stderr, "eruplan: error: cannot write the output: %s\n", std::strerror(errno));
    std::_Exit(static_cast<int>(ExitCode::Internal));
  }
  std::exit(code);
}

// The -o/--output a command line asks for, read before (or without) CLI11,
// so that a usage error can still print SPEC §13's failure document. Table
// when absent or not json/yaml (`-o jsn` itself is the usage error then).
OutputFormat requested_output(int argc, char** argv) {
  std::string value;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if ((arg == "-o" || arg == "--output") && i + 1 < argc)
      value = argv[i + 1];
    else if (arg.starts_with("--output="))
      value = arg.substr(9);
    else if (arg.starts_with("-o") && !arg.starts_with("--") && arg.size() > 2)
      value = arg.substr(arg[2] == '=' ? 3 : 2);
  }
  return value == "json"   ? OutputFormat::Json
         : value == "yaml" ? OutputFormat::Yaml
                           : OutputFormat::Table;
}

// Prints a usage error (exit 2): the message and the --help hint on stderr,
// and with -o json|yaml the failure document on stdout.
int usage_error(const std::string& message, OutputFormat format) {
  std::cerr << "eruplan: error: " << message << "\nRun with --help for more information.\n";
  if (format != OutputFormat::Table)
    std::cout << failure_document(format, ExitCode::Usage, message, {});
  return static_cast<int>(ExitCode::Usage);
}

OutputFormat output_format(const std::string& name) {
  return name == "json"   ? OutputFormat::Json
         : name == "yaml" ? OutputFormat::Yaml
                          : OutputFormat::Table;
}

struct PlanArgs {
  std::string nodes, request, input_format, output = "table", plans = "all";
  RequestOverrides overrides;
  bool atomic = false;
  std::string save_inventory;
  std::string report;              // --report FILE.html
  unsigned jobs = 0;               // 0: the number of cores
  std::string tie_break = "name";  // name | random:SEED
  bool strict = false, explain = false, all_nodes = false;
  std::string nodes_format = "auto", pods, app_label;  // SPEC §12
  std::string model = "drf", seed, cycles;             // share --model mesos --seed --cycles
};

// compare, grow, drain (SPEC §14).
struct WhatIfArgs {
  std::string strategies;                           // compare: "auto,fill,..."
  std::vector<std::string> templates, like, costs;  // grow
  std::string expander;
  bool mix = false;
  std::string max;  // --max as written; checked as a whole number, read in range below
  std::string node;
  bool each_node = false;
};

struct TestArgs {
  std::vector<std::string> paths;
  std::string filter, output = "text";
  std::string print_expect;  // --print-expect CASE
};

// Inputs stop at 4 GiB (the document tree's offsets are 32-bit); the limit
// holds while reading, so /dev/zero or an endless pipe ends with an error.
constexpr std::size_t kMaxInputBytes = UINT32_MAX - 1;
constexpr const char* kTooLarge = "the input is too large (4 GiB at most)";

// Reads `in` to its end into `text`; false when it holds more than
// kMaxInputBytes. Grows by doubling but never past the limit. A NUL byte is
// an error in JSON and YAML alike, reported at its position: reading stops
// right after the first one, so /dev/zero costs nothing.
bool read_bounded(std::istream& in, std::string& text) {
  std::size_t used = text.size();
  for (;;) {
    if (used == text.size()) {
      if (text.size() > kMaxInputBytes) return false;
      text.resize(std::min(kMaxInputBytes + 1, std::max<std::size_t>(64 * 1024, 2 * text.size())));
    }
    in.read(text.data() + used, static_cast<std::streamsize>(text.size() - used));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (const void* nul = std::memchr(text.data() + used, '\0', got)) {
      used = static_cast<std::size_t>(static_cast<const char*>(nul) - text.data()) + 1;
      break;
    }
    used += got;
    if (!in) break;
  }
  text.resize(used);
  return used <= kMaxInputBytes;
}

// Reads a whole file; on failure returns nullopt and a reason.
std::optional<std::string> read_file(const std::string& path, std::string* why = nullptr) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    if (why) *why = "is a directory";
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (why) *why = std::strerror(errno);
    return std::nullopt;
  }
  std::string text;
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  bool within = true;
  if (size > static_cast<std::streamoff>(kMaxInputBytes)) {
    within = false;
  } else if (size > 0) {
    text.reserve(static_cast<size_t>(size));
    advise_huge_pages(text.data(), text.capacity());
    text.resize(static_cast<size_t>(size));
    in.seekg(0);
    in.read(text.data(), size);
  } else {
    in.clear();
    in.seekg(0);
    in.clear();  // a pipe or device cannot seek: read it from where it is
    within = read_bounded(in, text);
  }
  if (!within) {
    if (why) *why = kTooLarge;
    return std::nullopt;
  }
  if (in.bad()) {
    if (why) *why = "read error";
    return std::nullopt;
  }
  return text;
}

// Standard input to its end; more than kMaxInputBytes ends the process with
// exit 3, as a file that large would.
std::string read_stdin() {
  std::string text;
  if (!read_bounded(std::cin, text)) {
    std::cerr << "<stdin>: error: cannot read: " << kTooLarge << '\n';
    finish(static_cast<int>(ExitCode::Invalid));
  }
  return text;
}

InputFormat parse_input_format(const std::string& s) {
  if (s == "json") return InputFormat::Json;
  if (s == "yaml") return InputFormat::Yaml;
  return InputFormat::Auto;
}

// Fills a Source from a path or "-"; on failure prints why (and with -o
// json|yaml the failure document, exit 3) and returns false.
// Reads the input files a command names (-n, -r, --pods, --template), each
// one even after another cannot be read, so that one run names every
// unreadable file (SPEC §6); ok() then prints them all at once.
class InputFiles {
 public:
  explicit InputFiles(InputFormat format) : format_(format) {}

  void read(const std::string& path, Source& out) {
    out.format = format_;
    if (path == kStdin) {
      out.name = "<stdin>";
      out.text = read_stdin();
      return;
    }
    out.name = path;
    std::string why;
    if (auto text = read_file(path, &why))
      out.text = std::move(*text);
    else
      problems_.push_back({Severity::Error, Origin{path, 0, 0, ""}, "cannot read: " + why});
  }

  // An input given by an optional flag: read when the flag was given.
  void read_given(const std::string& path, std::optional<Source>& out) {
    if (path.empty()) return;
    read(path, out.emplace());
  }

  // True when every file could be read; otherwise false after printing each
  // failure (stderr, and one failure document with -o json|yaml).
  bool ok(OutputFormat output) const {
    if (problems_.empty()) return true;
    for (const Diagnostic& problem : problems_) std::cerr << format_diagnostic(problem) << '\n';
    if (output != OutputFormat::Table)
      std::cout << failure_document(output, ExitCode::Invalid, invalid_message(problems_),
                                    problems_);
    return false;
  }

 private:
  InputFormat format_;
  std::vector<Diagnostic> problems_;
};

// SPEC §13: a flag value that does not parse as its type is a usage error
// (exit 2, here); one that parses but is out of range (--count 0, --memory
// -1, a count past 2^63-1) is invalid input (exit 3, from the loader, which
// names the flag too).
CLI::Validator whole_number() {
  return CLI::Validator(
      [](const std::string& s) {
        const std::size_t start = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
        const bool ok =
            s.size() > start && s.find_first_not_of("0123456789", start) == std::string::npos;
        return ok ? std::string() : "expected a whole number, got \"" + s + '"';
      },
      "INTEGER");
}

// A size or CPU amount: the library's own parser decides; only "expected
// ..." (not a quantity at all) is a usage error, the rest (negative,
// overflowing, fractional bytes) is left to the loader.
template <class Parse>
CLI::Validator quantity(Parse parse) {
  return CLI::Validator(
      [parse](const std::string& s) {
        std::string error;
        if (parse(s, error) || !error.starts_with("expected")) return std::string();
        return error;
      },
      "QUANTITY");
}

// --jobs N: an integer >= 1 (SPEC §9), else a usage error naming the flag.
void add_jobs_option(CLI::App* cmd, unsigned& jobs) {
  cmd->add_option("--jobs", jobs, "Threads for the per-node work (default: the number of cores)")
      ->check(CLI::Validator(
          [](const std::string& s) {
            const bool digits = !s.empty() && s.size() <= 9 &&
                                s.find_first_not_of("0123456789") == std::string::npos;
            return digits && std::stoul(s) >= 1 ? std::string()
                                                : "expected a whole number >= 1, got \"" + s + '"';
          },
          "N>=1"));
}

// -n as a Kubernetes node list and --pods (SPEC §12): plan and the commands
// that read an inventory the same way (compare, grow, drain, share, realloc).
void add_kubernetes_options(CLI::App* cmd, PlanArgs& a) {
  cmd->add_option("--nodes-format", a.nodes_format,
                  "How -n is read: auto (by its kind), eruplan or kubernetes (kubectl get nodes)")
      ->check(CLI::IsMember({"auto", "eruplan", "kubernetes"}))
      ->capture_default_str();
  cmd->add_option("--pods", a.pods,
                  "Running pods (kubectl get pods -A -o json): their requests become usage");
  cmd->add_option("--app-label", a.app_label,
                  "Label naming a pod's app (default app.kubernetes.io/name, then app)");
}

// `apply` prints an inventory, which has no table form (SPEC §8.3): its -o
// takes json or yaml only, and defaults to the format of -n.
void add_input_options(CLI::App* cmd, PlanArgs& a, bool table_output = true) {
  // Required, but checked after parsing, so that an unknown flag is what a
  // command line with both problems is told about first.
  cmd->add_option("-n,--nodes", a.nodes,
                  "Node inventory file (JSON or YAML); - for stdin (required)");
  cmd->add_option("-r,--request", a.request, "Deploy request file (JSON or YAML); - for stdin");
  cmd->add_option("--input-format", a.input_format, "Force the input format")
      ->check(CLI::IsMember({"json", "yaml"}));
  if (table_output)
    cmd->add_option("-o,--output", a.output, "Output format")
        ->check(CLI::IsMember({"table", "json", "yaml"}))
        ->capture_default_str();
  else
    cmd->add_option("-o,--output", a.output, "Output format (default: the format of -n)")
        ->check(CLI::IsMember({"json", "yaml"}));
  RequestOverrides& o = a.overrides;
  cmd->add_option("--plans", a.plans, "Which plans to print: all, assigned or none")
      ->check(CLI::IsMember({"all", "assigned", "none"}))
      ->capture_default_str();
  cmd->add_option("--app", o.app, flag_help("--app"));
  cmd->add_option("--count", o.count, flag_help("--count"))->check(whole_number());
  cmd->add_option("--strategy", o.strategy, "Override: " + strategy_choices())
      ->check([](const std::string& s) {
        return parse_strategy(s) ? std::string()
                                 : "unknown strategy; expected " + strategy_choices();
      });
  cmd->add_option("--scoring", o.scoring,
                  "Override: scoring.type of strategy score (least_allocated, most_allocated or "
                  "requested_to_capacity_ratio)")
      ->check([](const std::string& s) {
        return parse_scoring_type(s) ? std::string() : unknown_scoring(s);
      });
  cmd->add_option("--nodes-limit", o.nodes_limit, flag_help("--nodes-limit"))
      ->check(whole_number());
  cmd->add_option("--cpu", o.cpu, flag_help("--cpu"))->check(quantity(parse_cpu));
  cmd->add_flag("--cpu-bind{true}", o.cpu_bind,
                flag_help("--cpu-bind") + " (--cpu-bind=false to unset)");
  cmd->add_option("--memory", o.memory, flag_help("--memory"))->check(quantity(parse_size));
  cmd->add_option("--storage", o.storage, flag_help("--storage"))->check(quantity(parse_size));
  cmd->add_option("--volume", o.volumes, flag_help("--volume"));
  cmd->add_option("--label", o.labels, flag_help("--label"))
      ->check(CLI::Validator(
          [](const std::string& s) {
            return s.find('=') == std::string::npos || s.front() == '='
                       ? "expected k=v (e.g. pool=gpu), got \"" + s + '"'
                       : std::string();
          },
          "K=V"));
  cmd->add_option("--node", o.nodes, flag_help("--node"));
  cmd->add_option("--exclude", o.exclude, flag_help("--exclude"));
  add_jobs_option(cmd, a.jobs);
  cmd->add_option("--tie-break", a.tie_break,
                  "Equal totals under the kubernetes profile: name (the lowest node name) or "
                  "random:SEED (kube-scheduler's pick, seeded)")
      ->check(CLI::Validator(
          [](const std::string& s) {
            return parse_tie_break(s)
                       ? std::string()
                       : "expected name or random:SEED (SEED a whole number), got \"" + s + '"';
          },
          "name|random:SEED"))
      ->capture_default_str();
  cmd->add_flag("--strict", a.strict, "Unknown fields in the inputs are errors (exit 3)");
  cmd->add_flag("--explain", a.explain, "Say for every node why it gets what it gets");
  cmd->add_flag("--all-nodes", a.all_nodes,
                "Tables list every node (default: past 50, the used ones and those with a reason)");
  add_kubernetes_options(cmd, a);
}

// plan, apply, compare, share: --report FILE.html (SPEC §14).
void add_report_option(CLI::App* cmd, PlanArgs& a) {
  cmd->add_option("--report", a.report,
                  "Write a self-contained HTML page of usage before/after per node to FILE");
}

// plan, apply: the options that change the cluster state.
void add_state_options(CLI::App* cmd, PlanArgs& a) {
  cmd->add_flag("--atomic", a.atomic,
                "All requests of the file succeed together or none is placed");
  cmd->add_option("--save-inventory", a.save_inventory,
                  "Write the inventory after the plan to FILE (YAML, or JSON for a .json name)");
  add_report_option(cmd, a);
}

// The format a file is written in: JSON for a .json name, else YAML.
OutputFormat format_for(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0 ? OutputFormat::Json
                                                                            : OutputFormat::Yaml;
}

// `apply` prints the inventory in the format of -n unless -o says otherwise.
OutputFormat input_format_of(const Source& s) {
  if (s.format == InputFormat::Json) return OutputFormat::Json;
  if (s.format == InputFormat::Yaml) return OutputFormat::Yaml;
  if (s.name.ends_with(".json")) return OutputFormat::Json;
  if (s.name.ends_with(".yaml") || s.name.ends_with(".yml")) return OutputFormat::Yaml;
  const auto first = s.text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && (s.text[first] == '{' || s.text[first] == '[')
             ? OutputFormat::Json
             : OutputFormat::Yaml;
}

// Writes `text` to `path`; false (and a message) when it cannot.
bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) {
    std::cerr << "eruplan: error: cannot write " << path << ": " << std::strerror(errno) << '\n';
    return false;
  }
  return true;
}

// share (SPEC §10): nodes, the apps file, output, threads and the saved
// inventory; no request overrides (an apps file holds several requests).
void add_share_options(CLI::App* cmd, PlanArgs& a) {
  cmd->add_flag("--strict", a.strict, "Unknown fields in the inputs are errors (exit 3)");
  cmd->add_option("-n,--nodes", a.nodes,
                  "Node inventory file (JSON or YAML); - for stdin (required)");
  cmd->add_option("-r,--request,--apps", a.request,
                  "Apps file (JSON or YAML): placement and apps; - for stdin (required)");
  cmd->add_option("--input-format", a.input_format, "Force the input format")
      ->check(CLI::IsMember({"json", "yaml"}));
  cmd->add_option("-o,--output", a.output, "Output format")
      ->check(CLI::IsMember({"table", "json", "yaml"}))
      ->capture_default_str();
  add_jobs_option(cmd, a.jobs);
  cmd->add_option("--save-inventory", a.save_inventory,
                  "Write the inventory after the share to FILE (YAML, or JSON for a .json name)");
  add_report_option(cmd, a);
  add_kubernetes_options(cmd, a);
  cmd->add_option("--model", a.model,
                  "drf: progressive filling of apps; mesos: Mesos' offers to frameworks in roles")
      ->check(CLI::IsMember({"drf", "mesos"}))
      ->capture_default_str();
  cmd->add_option("--seed", a.seed, "mesos: shuffle of the nodes each cycle, N or none (default 0)")
      ->check(CLI::Validator(
          [](const std::string& s) {
            std::optional<std::uint64_t> seed;
            return parse_seed(s, seed)
                       ? std::string()
                       : "expected a whole number 0..2^64-1 or none, got \"" + s + '"';
          },
          "N|none"));
  cmd->add_option("--cycles", a.cycles,
                  "mesos: at most K allocation cycles (default: until nothing more fits, 1000 at "
                  "most)")
      ->check(CLI::Validator(
          [](const std::string& s) {
            return parse_cycles(s) ? std::string()
                                   : "expected a whole number >= 1, got \"" + s + '"';
          },
          "K>=1"));
}

// Read by every command the same way: --nodes-format and --app-label (SPEC
// §12), --plans, --jobs.
KubernetesOptions kubernetes_options(const PlanArgs& a) {
  KubernetesOptions k;
  k.nodes_format = a.nodes_format == "kubernetes" ? NodesFormat::Kubernetes
                   : a.nodes_format == "eruplan"  ? NodesFormat::Eruplan
                                                  : NodesFormat::Auto;
  k.app_label = a.app_label;
  return k;
}

PlansShown plans_shown(const std::string& name) {
  return name == "assigned" ? PlansShown::Assigned
         : name == "none"   ? PlansShown::None
                            : PlansShown::All;
}

unsigned jobs_of(const PlanArgs& a) {
  return a.jobs > 0 ? a.jobs : std::max(1u, std::thread::hardware_concurrency());
}

int run_command(Command command, const PlanArgs& a, bool output_given = true) {
  const OutputFormat output = output_format(a.output);
  if (a.nodes.empty()) return usage_error("--nodes is required", output);
  if (a.nodes == kStdin && a.request == kStdin)
    return usage_error("only one of --nodes and --request may be - (stdin)", output);
  if (a.pods == kStdin && (a.nodes == kStdin || a.request == kStdin))
    return usage_error("only one of --nodes, --request and --pods may be - (stdin)", output);
  RunOptions options;
  options.command = command;
  options.overrides = a.overrides;
  InputFiles inputs(parse_input_format(a.input_format));
  inputs.read(a.nodes, options.nodes);
  inputs.read_given(a.request, options.request);
  inputs.read_given(a.pods, options.pods);
  if (!inputs.ok(output)) return static_cast<int>(ExitCode::Invalid);
  options.output = output;
  options.strict = a.strict;
  options.explain = a.explain;
  options.all_nodes = a.all_nodes;
  options.plans = plans_shown(a.plans);
  if (command == Command::Apply && !output_given) options.output = input_format_of(options.nodes);
  options.kubernetes = kubernetes_options(a);
  options.atomic = a.atomic;
  options.jobs = jobs_of(a);
  if (auto tie = parse_tie_break(a.tie_break)) options.tie_seed = *tie;
  if (!a.save_inventory.empty()) options.save_inventory = format_for(a.save_inventory);
  options.report = !a.report.empty();
  if (command == Command::Share && a.model == "mesos") {
    MesosOptions mesos;
    if (!a.seed.empty()) parse_seed(a.seed, mesos.seed);
    if (!a.cycles.empty()) mesos.cycles = parse_cycles(a.cycles).value_or(0);
    options.mesos = mesos;
  } else if (command == Command::Share && (!a.seed.empty() || !a.cycles.empty())) {
    return usage_error("--seed and --cycles go with --model mesos", output);
  }
  // Never freed (a static keeps it reachable for LeakSanitizer): the process
  // ends right after printing, and tearing a large inventory down node by
  // node costs up to a tenth of the run. std::exit still flushes the streams.
  options.stream_out = [](std::string_view piece) {
    std::fwrite(piece.data(), 1, piece.size(), stdout);
  };
  static const RunResult* result = new RunResult(run(std::move(options)));
  if (result->saved_inventory && !write_file(a.save_inventory, *result->saved_inventory))
    return static_cast<int>(ExitCode::Internal);
  if (result->report && !write_file(a.report, *result->report))
    return static_cast<int>(ExitCode::Internal);
  std::fwrite(result->err.data(), 1, result->err.size(), stderr);
  std::fwrite(result->out.data(), 1, result->out.size(), stdout);
  finish(static_cast<int>(result->exit));
}

int run_whatif_command(WhatIfCommand command, const PlanArgs& a, const WhatIfArgs& w) {
  const OutputFormat output = output_format(a.output);
  if (a.nodes.empty()) return usage_error("--nodes is required", output);
  if (command == WhatIfCommand::Grow && w.templates.empty() && w.like.empty())
    return usage_error("--template or --like is required", output);
  if (w.mix && !w.expander.empty())
    return usage_error("give --mix or --expander, not both", output);
  if (command == WhatIfCommand::Drain && w.node.empty() == !w.each_node)
    return usage_error("give one of --node NAME and --each-node", output);
  const int stdin_users =
      (a.nodes == kStdin) + (a.request == kStdin) +
      static_cast<int>(std::count(w.templates.begin(), w.templates.end(), std::string(kStdin))) +
      (a.pods == kStdin);
  if (stdin_users > 1) return usage_error("only one input may be - (stdin)", output);
  // --explain and --all-nodes shape a plan's output; drain --each-node
  // prints one line per node already.
  if (command == WhatIfCommand::Drain && w.each_node && (a.explain || a.all_nodes))
    return usage_error(std::string(a.explain ? "--explain" : "--all-nodes") +
                           " applies to drain --node, not --each-node",
                       output);
  WhatIfOptions options;
  options.command = command;
  options.overrides = a.overrides;
  InputFiles inputs(parse_input_format(a.input_format));
  inputs.read(a.nodes, options.nodes);
  inputs.read_given(a.request, options.request);
  inputs.read_given(a.pods, options.pods);
  for (const std::string& t : w.templates) inputs.read(t, options.templates.emplace_back());
  options.like = w.like;
  options.costs = w.costs;
  if (!w.expander.empty()) options.expander = w.expander;
  options.mix = w.mix;
  if (!inputs.ok(output)) return static_cast<int>(ExitCode::Invalid);
  options.kubernetes = kubernetes_options(a);
  options.output = output;
  options.plans = plans_shown(a.plans);
  options.jobs = jobs_of(a);
  std::stringstream names(w.strategies);
  for (std::string name; std::getline(names, name, ',');)
    if (!name.empty()) options.strategies.push_back(name);
  options.max = kDefaultGrowMax;
  if (!w.max.empty()) {
    // A whole number (the validator saw to that) past int64 is out of range:
    // invalid input, exit 3, as for --count (SPEC §13).
    const std::string_view digits = std::string_view(w.max).substr(w.max[0] == '+' ? 1 : 0);
    const auto [end, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), options.max);
    if (ec != std::errc() || end != digits.data() + digits.size()) {
      const Diagnostic problem{
          Severity::Error, Origin{"<command line>", 0, 0, "--max"},
          "number " + w.max + " is out of range (at most " + std::to_string(INT64_MAX) + ")"};
      std::cerr << format_diagnostic(problem) << '\n';
      if (output != OutputFormat::Table)
        std::cout << failure_document(output, ExitCode::Invalid, invalid_message({problem}),
                                      {problem});
      return static_cast<int>(ExitCode::Invalid);
    }
  }
  options.node = w.node;
  options.each_node = w.each_node;
  options.report = !a.report.empty();
  options.strict = a.strict;
  options.explain = a.explain;
  options.all_nodes = a.all_nodes;
  static const WhatIfResult* result = new WhatIfResult(run_whatif(options));
  if (!result->report.empty() && !write_file(a.report, result->report))
    return static_cast<int>(ExitCode::Internal);
  std::fwrite(result->run.err.data(), 1, result->run.err.size(), stderr);
  std::fwrite(result->run.out.data(), 1, result->run.out.size(), stdout);
  finish(static_cast<int>(result->run.exit));
}

// `eruplan realloc` (SPEC §11): -n NODES -r REALLOC [--atomic] [-o ...] [--save-inventory F].
void add_realloc_options(CLI::App* cmd, PlanArgs& a) {
  cmd->add_flag("--strict", a.strict, "Unknown fields in the inputs are errors (exit 3)");
  cmd->add_option("-n,--nodes", a.nodes, "Node inventory file with workloads; - for stdin");
  cmd->add_option("-r,--request", a.request,
                  "Realloc request: workloads: [ids] or app:, resources deltas, cpu_bind");
  cmd->add_option("--input-format", a.input_format, "Force the input format")
      ->check(CLI::IsMember({"json", "yaml"}));
  cmd->add_option("-o,--output", a.output, "Output format")
      ->check(CLI::IsMember({"table", "json", "yaml"}))
      ->capture_default_str();
  cmd->add_flag("--atomic", a.atomic, "When any group fails, change nothing");
  cmd->add_option("--save-inventory", a.save_inventory,
                  "Write the inventory after the realloc to FILE (YAML, or JSON for a .json name)");
  add_kubernetes_options(cmd, a);
}

int run_realloc_command(const PlanArgs& a) {
  // SPEC §13: usage errors and unreadable files print the failure document
  // with -o json|yaml, as for the other commands.
  const OutputFormat output = output_format(a.output);
  if (a.nodes.empty()) return usage_error("--nodes is required", output);
  if (a.request.empty()) return usage_error("--request is required", output);
  if (a.nodes == kStdin && a.request == kStdin)
    return usage_error("only one of --nodes and --request may be - (stdin)", output);
  if (a.pods == kStdin && (a.nodes == kStdin || a.request == kStdin))
    return usage_error("only one of --nodes, --request and --pods may be - (stdin)", output);
  ReallocOptions options;
  InputFiles inputs(parse_input_format(a.input_format));
  inputs.read(a.nodes, options.nodes);
  inputs.read(a.request, options.request);
  inputs.read_given(a.pods, options.pods);
  if (!inputs.ok(output)) return static_cast<int>(ExitCode::Invalid);
  options.kubernetes = kubernetes_options(a);
  options.output = output;
  options.atomic = a.atomic;
  options.strict = a.strict;
  if (!a.save_inventory.empty()) options.save_inventory = format_for(a.save_inventory);
  static const ReallocRun* result = new ReallocRun(run_realloc(options));
  if (result->saved_inventory && !write_file(a.save_inventory, *result->saved_inventory))
    return static_cast<int>(ExitCode::Internal);
  std::fwrite(result->err.data(), 1, result->err.size(), stderr);
  std::fwrite(result->out.data(), 1, result->out.size(), stdout);
  finish(static_cast<int>(result->exit));
}

bool is_case_extension(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

// Case files under the paths, in a stable order: directories are walked
// recursively and sorted; files found there that are plain inventories or
// requests (inputs of other cases) are skipped.
std::vector<std::string> collect_cases(const std::vector<std::string>& paths) {
  std::vector<std::string> cases;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
      cases.push_back(path);  // named explicitly: always a case
      continue;
    }
    std::vector<std::string> found;
    for (auto it = fs::recursive_directory_iterator(path, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file(ec) && is_case_extension(it->path()))
        found.push_back(it->path().string());
    }
    std::sort(found.begin(), found.end());
    for (std::string& f : found) {
      auto text = read_file(f);
      if (text && looks_like_input_file(*text)) continue;
      cases.push_back(std::move(f));
    }
  }
  return cases;
}

int run_tests(const TestArgs& a) {
  const ReadFile reader = [](const std::string& p) { return read_file(p); };
  std::vector<FixtureResult> results;
  for (const std::string& file : collect_cases(a.paths)) {
    std::string why;
    auto text = read_file(file, &why);
    FixtureResult r;
    if (!text) {
      r.file = r.name = file;
      r.differences.push_back("cannot read: " + why);
    } else {
      r = run_fixture(file, *text, reader);
    }
    if (!a.filter.empty() && r.name.find(a.filter) == std::string::npos &&
        r.file.find(a.filter) == std::string::npos)
      continue;
    results.push_back(std::move(r));
  }
  const std::string report =
      render_fixture_report(results, a.output == "json"    ? FixtureReportFormat::Json
                                     : a.output == "junit" ? FixtureReportFormat::Junit
                                                           : FixtureReportFormat::Text);
  std::fwrite(report.data(), 1, report.size(), stdout);
  if (results.empty()) {
    // A mistyped path or filter must not pass a CI job silently.
    std::cerr << "eruplan: error: no fixture cases found"
              << (a.filter.empty() ? "" : " matching --filter") << '\n';
    return 1;
  }
  const bool all_passed =
      std::all_of(results.begin(), results.end(), [](const FixtureResult& r) { return r.passed; });
  return all_passed ? 0 : 1;
}

// `eruplan test --print-expect CASE`: runs the case and prints the expect:
// block its current results make, to paste into the case file.
int print_expect(const std::string& file) {
  std::string why;
  auto text = read_file(file, &why);
  if (!text) {
    std::cerr << file << ": error: cannot read: " << why << '\n';
    return static_cast<int>(ExitCode::Invalid);
  }
  const ReadFile reader = [](const std::string& p) { return read_file(p); };
  std::string error;
  const std::optional<std::string> expect = fixture_expect(file, *text, reader, error);
  if (!expect) {
    std::cerr << file << ": error: " << error << '\n';
    return 1;
  }
  std::cout << *expect;
  return 0;
}

int main_impl(int argc, char** argv) {
  CLI::App app{
      "eruplan: an offline, dry-run deployment planner (capacity pass, then strategy pass)",
      "eruplan"};
  app.set_version_flag("--version", std::string("eruplan ") + ERUPLAN_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 done, 2 usage error, 3 invalid input, 4 infeasible, 5 already satisfied, 1 "
      "internal error.\nSee man eruplan.");

  PlanArgs capacity_args, plan_args, validate_args, apply_args, share_args, realloc_args,
      compare_args, grow_args, drain_args;
  WhatIfArgs compare_what, grow_what, drain_what;
  TestArgs test_args;
  CLI::App* capacity =
      app.add_subcommand("capacity", "Capacity pass only: CapacityMap and PlanMap");
  CLI::App* plan =
      app.add_subcommand("plan", "Capacity pass, then strategy pass: DeployMap and bindings");
  CLI::App* validate =
      app.add_subcommand("validate", "Check the inputs and list every problem found");
  CLI::App* apply =
      app.add_subcommand("apply", "Plan, then print the inventory as it is after the plan");
  CLI::App* share = app.add_subcommand("share", "Fair share of the nodes among several apps (DRF)");
  CLI::App* realloc_cmd =
      app.add_subcommand("realloc", "Change the resources of running workloads in place (deltas)");
  add_realloc_options(realloc_cmd, realloc_args);
  CLI::App* compare =
      app.add_subcommand("compare", "Every strategy on the same input, side by side");
  CLI::App* grow =
      app.add_subcommand("grow", "How many nodes like a template must be added for the request");
  CLI::App* drain =
      app.add_subcommand("drain", "Can a node's instances be placed elsewhere if it is lost");
  CLI::App* test = app.add_subcommand("test", "Run fixture cases; ends with 'N passed, N failed'");
  add_input_options(capacity, capacity_args);
  add_input_options(plan, plan_args);
  add_input_options(validate, validate_args);
  add_input_options(apply, apply_args, false);
  add_state_options(plan, plan_args);
  add_state_options(apply, apply_args);
  add_share_options(share, share_args);
  add_input_options(compare, compare_args);
  add_input_options(grow, grow_args);
  add_input_options(drain, drain_args);
  add_report_option(compare, compare_args);
  // compare prints one row per strategy: no per-node plan to explain or list.
  compare->remove_option(compare->get_option("--explain"));
  compare->remove_option(compare->get_option("--all-nodes"));
  compare
      ->add_option("--strategies", compare_what.strategies,
                   "Comma-separated strategies to compare (default: auto,global,drained,score)")
      ->check([](const std::string& list) {
        std::stringstream names(list);
        for (std::string name; std::getline(names, name, ',');)
          if (!parse_strategy(name))
            return "unknown strategy '" + name + "'; expected " + strategy_choices();
        return std::string();
      });
  grow->add_option("--template", grow_what.templates,
                   "A node object (YAML or JSON, or a Kubernetes Node) to add copies of; "
                   "repeatable");
  grow->add_option("--like", grow_what.like,
                   "A node of the inventory to add copies of, emptied (named NODE-new); "
                   "repeatable");
  grow->add_option("--cost", grow_what.costs, "NAME=VALUE: what one node of a template costs");
  grow->add_option("--expander", grow_what.expander,
                   "How to pick among several templates: least-waste (default), most-pods, "
                   "price, priority")
      ->check(CLI::IsMember({"least-waste", "most-pods", "price", "priority"}));
  grow->add_flag("--mix", grow_what.mix, "Find the cheapest mix of the templates instead");
  grow->add_option("--max", grow_what.max, "Most copies to add (default 10000)")
      ->check(whole_number());
  // drain's --node names the lost node, not a node_filter entry.
  drain->remove_option(drain->get_option("--node"));
  drain->add_option("--node", drain_what.node, "The node that is lost");
  drain->add_flag("--each-node", drain_what.each_node,
                  "Ask for every available node running the app (the N-1 check)");
  test->add_option("paths", test_args.paths, "Case files and directories");
  test->add_option("--print-expect", test_args.print_expect,
                   "Print the expect: block the current results of CASE would make");
  test->add_option("--filter", test_args.filter, "Run only cases whose name or file contains this");
  test->add_option("-o,--output", test_args.output, "Report format")
      ->check(CLI::IsMember({"text", "json", "junit"}))
      ->capture_default_str();
  std::string shell;
  CLI::App* completion =
      app.add_subcommand("completion", "Print the bash or zsh completion script");
  completion->add_option("shell", shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));
  for (CLI::App* sub : {capacity, plan, validate, apply, share, realloc_cmd, compare, grow, drain,
                        test, completion})
    sub->set_version_flag("--version", std::string("eruplan ") + ERUPLAN_VERSION);
  // Two real examples at the end of each command's --help (the files are
  // the repository's bundled example).
  capacity->footer(
      "Examples:\n"
      "  eruplan capacity -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml\n"
      "  eruplan capacity -n nodes.yaml --memory 512Mi --cpu 1 --cpu-bind -o json");
  plan->footer(
      "Examples:\n"
      "  eruplan plan -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml\n"
      "  eruplan plan -n nodes.yaml --app web --count 6 --memory 1Gi --strategy fill --explain");
  validate->footer(
      "Examples:\n"
      "  eruplan validate -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml\n"
      "  eruplan validate -n nodes.yaml --strict -o json");
  apply->footer(
      "Examples:\n"
      "  eruplan apply -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml\n"
      "  eruplan apply -n nodes.yaml -r requests.yaml --atomic --save-inventory after.yaml");
  share->footer(
      "Examples:\n"
      "  eruplan share -n fixtures/example/nodes.yaml -r apps.yaml\n"
      "  eruplan share -n nodes.yaml -r apps.yaml -o json --save-inventory after.yaml");
  realloc_cmd->footer(
      "Examples:\n"
      "  eruplan realloc -n nodes.yaml -r realloc.yaml\n"
      "  eruplan realloc -n nodes.yaml -r realloc.yaml --atomic -o json");
  compare->footer(
      "Examples:\n"
      "  eruplan compare -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml\n"
      "  eruplan compare -n nodes.yaml -r request.yaml --strategies auto,fill --report cmp.html");
  grow->footer(
      "Examples:\n"
      "  eruplan grow -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml --count 20 "
      "--template node.yaml\n"
      "  eruplan grow -n nodes.yaml -r request.yaml --template node.yaml --max 50 -o json");
  drain->footer(
      "Examples:\n"
      "  eruplan drain -n fixtures/example/nodes.yaml -r fixtures/example/request.yaml --node "
      "node-a\n"
      "  eruplan drain -n nodes.yaml -r request.yaml --each-node -o json");
  test->footer(
      "Examples:\n"
      "  eruplan test fixtures/\n"
      "  eruplan test -o junit fixtures/ > report.xml");
  completion->footer(
      "Examples:\n"
      "  source <(eruplan completion bash)\n"
      "  eruplan completion zsh > ~/.zfunc/_eruplan");

  if (argc > 1 && argv[1][0] != '-') {
    const std::string command = argv[1];
    if (command != "capacity" && command != "plan" && command != "validate" && command != "test" &&
        command != "apply" && command != "share" && command != "realloc" && command != "compare" &&
        command != "grow" && command != "drain" && command != "completion") {
      return usage_error(
          "unknown command '" + command +
              "' (commands: capacity, plan, apply, share, realloc, validate, compare, "
              "grow, drain, test, completion)",
          requested_output(argc, argv));
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    return usage_error(e.what(), requested_output(argc, argv));
  }
  if (capacity->parsed()) return run_command(Command::Capacity, capacity_args);
  if (plan->parsed()) return run_command(Command::Plan, plan_args);
  if (validate->parsed()) return run_command(Command::Validate, validate_args);
  if (apply->parsed()) return run_command(Command::Apply, apply_args, apply->count("--output") > 0);
  if (share->parsed()) return run_command(Command::Share, share_args);
  if (realloc_cmd->parsed()) return run_realloc_command(realloc_args);
  if (compare->parsed())
    return run_whatif_command(WhatIfCommand::Compare, compare_args, compare_what);
  if (grow->parsed()) return run_whatif_command(WhatIfCommand::Grow, grow_args, grow_what);
  if (drain->parsed()) return run_whatif_command(WhatIfCommand::Drain, drain_args, drain_what);
  if (completion->parsed()) {
    std::cout << (shell == "bash" ? eruplan_cli::kBashCompletion : eruplan_cli::kZshCompletion);
    return 0;
  }
  if (!test_args.print_expect.empty()) return print_expect(test_args.print_expect);
  if (test_args.paths.empty())
    return usage_error("test: give case files or directories (or --print-expect CASE)",
                       OutputFormat::Table);
  return run_tests(test_args);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    finish(main_impl(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "eruplan: internal error: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "eruplan: internal error\n";
  }
  return static_cast<int>(ExitCode::Internal);
}
